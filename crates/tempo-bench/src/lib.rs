//! Benchmark drivers for tempo's simultaneous-move engine: the loops
//! behind `tempo sync bench`, the criterion bench `resolve` and the
//! profiling examples, kept out of the product libraries. They use only
//! tempo-sync's public search handle ([`tempo_sync::Node`]), so what they
//! measure is what an engine gets.
//!
//! Three figures, each over states sampled from random playouts
//! ([`tempo_sync::playout::sample_pair_states`]):
//!
//! - [`measure_resolutions`]: per pair, generate both players' moves, pick
//!   one of each, resolve ([`PairDriver`]);
//! - [`measure_resolutions_only`]: the moves generated beforehand, only
//!   the resolution ([`ResolveDriver`]);
//! - [`measure_playout_pairs`]: random playouts, each pair's moves from
//!   the mate test of the pair before ([`PlayoutDriver`]).
//!
//! Measurements: `docs/performance.md`.

mod playout;
mod resolve;
pub mod serve;

pub use playout::{PlayoutDriver, measure_playout_pairs};
pub use resolve::{
    PAIRS_PER_STATE, PairDriver, ResolveDriver, measure_resolutions, measure_resolutions_only,
};

/// Calls `pass` until `seconds` have gone by; returns how many items per
/// second it did (`pass` returns its item count and a checksum, which is
/// kept from the optimiser so that no work is left out).
fn rate(seconds: f64, mut pass: impl FnMut() -> (u64, usize)) -> f64 {
    let start = std::time::Instant::now();
    let (mut done, mut sink) = (0u64, 0usize);
    while start.elapsed().as_secs_f64() < seconds {
        let (items, checksum) = pass();
        done += items;
        sink = sink.wrapping_add(checksum);
    }
    std::hint::black_box(sink);
    done as f64 / start.elapsed().as_secs_f64()
}

/// The profiling examples' arguments: a variant (default Synchronschach)
/// and a count (default `count`). Panics with a message on others (an
/// example, not a command).
pub fn example_args(count: u64) -> (tempo_sync::Variant, u64) {
    let mut args = std::env::args().skip(1);
    let variant = args
        .next()
        .unwrap_or_else(|| "synchronschach".into())
        .parse()
        .expect("a variant name");
    let count = args.next().map_or(count, |s| s.parse().expect("a count"));
    (variant, count)
}
