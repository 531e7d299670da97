//! A fixed amount of the `tempo sync bench` work, for instruction and
//! branch counts that do not depend on the machine's load:
//!
//! ```sh
//! cargo build --release -p tempo-bench --example pair_passes
//! valgrind --tool=cachegrind --cache-sim=no --branch-sim=yes \
//!     target/release/examples/pair_passes synchronschach 10
//! ```
//!
//! Each pass generates both players' complete move sets, picks one move
//! each and resolves the pair for each of the 2,000 playout states of the
//! benchmark (a `PairDriver` pass, as in `tempo sync bench`;
//! the counts of a run with 0 passes are the set-up to subtract).

use tempo_bench::PairDriver;
use tempo_sync::Rules;
use tempo_sync::playout::sample_pair_states;

fn main() {
    let (variant, passes) = tempo_bench::example_args(10);
    let passes = passes as usize;
    let states = sample_pair_states(Rules::new(variant), 2000, 1);
    let mut driver = PairDriver::new();
    let mut sink = 0usize;
    for _ in 0..passes {
        sink = sink.wrapping_add(driver.pass(&states));
    }
    println!("{} pairs resolved (checksum {sink})", passes * states.len());
}
