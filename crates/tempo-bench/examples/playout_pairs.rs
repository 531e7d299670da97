//! A fixed number of pairs of random playouts (the third figure of
//! `tempo sync bench`, [`PlayoutDriver`]), for instruction and branch
//! counts that do not depend on the machine's load:
//!
//! ```sh
//! cargo build --release -p tempo-bench --example playout_pairs
//! valgrind --tool=cachegrind --cache-sim=no --branch-sim=yes \
//!     target/release/examples/playout_pairs synchronschach 20000
//! ```
//!
//! The counts of a run with 0 pairs are the set-up to subtract (both runs
//! first play 1,000 pairs, so that the measured ones come from games in
//! progress).

use tempo_bench::PlayoutDriver;
use tempo_sync::Rules;

fn main() {
    let (variant, pairs) = tempo_bench::example_args(20_000);
    let mut driver = PlayoutDriver::new(Rules::new(variant), 1);
    driver.play(1000);
    let sink = driver.play(pairs);
    println!("{pairs} pairs played (checksum {sink})");
}
