//! A fixed amount of the `tempo sync bench` work, for instruction and
//! branch counts that do not depend on the machine's load:
//!
//! ```sh
//! cargo build --release -p tempo-sync --example pair_passes
//! valgrind --tool=cachegrind --cache-sim=no --branch-sim=yes \
//!     target/release/examples/pair_passes synchronschach 10
//! ```
//!
//! Each pass generates both players' complete move sets, picks one move
//! each and resolves the pair for each of the 2,000 playout states of the
//! benchmark ([`generate_pick_resolve`], the step of `tempo sync bench`;
//! the counts of a run with 0 passes are the set-up to subtract).

use tempo_chess::MoveSet;
use tempo_sync::playout::{PickRng, generate_pick_resolve, sample_pair_states};
use tempo_sync::{Rules, Variant};

fn main() {
    let mut args = std::env::args().skip(1);
    let variant: Variant = args
        .next()
        .unwrap_or_else(|| "synchronschach".into())
        .parse()
        .expect("a variant name");
    let passes: usize = args
        .next()
        .map_or(10, |s| s.parse().expect("a number of passes"));
    let states = sample_pair_states(Rules::new(variant), 2000, 1);
    let mut rng = PickRng::new(0x9E37_79B9_7F4A_7C15);
    let (mut white, mut black) = (MoveSet::new(), MoveSet::new());
    let mut events = Vec::with_capacity(16);
    let mut sink = 0usize;
    for _ in 0..passes {
        for game in &states {
            let next = generate_pick_resolve(game, &mut rng, &mut white, &mut black, &mut events);
            sink = sink.wrapping_add(events.len() + next.pair_number() as usize);
        }
    }
    println!("{} pairs resolved (checksum {sink})", passes * states.len());
}
