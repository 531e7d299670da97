//! A fixed amount of the resolution work alone (the pairs are picked
//! beforehand), for instruction and branch counts that do not depend on
//! the machine's load:
//!
//! ```sh
//! cargo build --release -p tempo-bench --example resolve_passes
//! valgrind --tool=cachegrind --cache-sim=no --branch-sim=yes \
//!     target/release/examples/resolve_passes synchronschach 2
//! ```
//!
//! The 2,000 playout states of the benchmark, 16 random pairs of legal
//! moves per state (a `ResolveDriver`, as in `measure_resolutions_only`); each pass resolves
//! all 32,000 pairs. The counts of a run with 0 passes are the set-up to
//! subtract.

use tempo_bench::ResolveDriver;
use tempo_sync::Rules;
use tempo_sync::playout::sample_pair_states;

fn main() {
    let (variant, passes) = tempo_bench::example_args(2);
    let passes = passes as usize;
    let states = sample_pair_states(Rules::new(variant), 2000, 1);
    let mut driver = ResolveDriver::new(&states);
    let mut sink = 0usize;
    for _ in 0..passes {
        sink = sink.wrapping_add(driver.pass());
    }
    println!(
        "{} pairs resolved (checksum {sink})",
        passes * driver.pairs()
    );
}
