//! The engine's signature: one number that changes when its play does.
//!
//! As a chess engine's `bench` number, it is the nodes of fixed searches
//! from fixed positions: any change to the evaluation, the move order or
//! the search changes it (almost surely), while the same engine gives the
//! same number on every machine. Game records carry it, so that records
//! of different engines are not counted in one table.

use tempo_sync::GameKind;

use crate::search::{Config, Engine, Limits};
use crate::state::GameStart;

/// The searches: a game kind, a Chess960 start, a depth.
const SEARCHES: [(GameKind, Option<u16>, u32); 5] = [
    (GameKind::Standard, None, 4),
    (GameKind::Chess960, Some(0), 3),
    (GameKind::Synchronschach, None, 2),
    (GameKind::Fairschach, None, 2),
    (GameKind::Fairschach, Some(959), 1),
];

/// The nodes of the signature's searches, each with a fresh engine.
///
/// ```
/// let signature = tempo_engine::signature();
/// assert!(signature > 0);
/// assert_eq!(signature, tempo_engine::signature());
/// ```
pub fn signature() -> u64 {
    SEARCHES
        .iter()
        .map(|&(kind, chess960, depth)| {
            let state = kind
                .start(chess960)
                .expect("the signature's starts are valid");
            let mut engine = Engine::new(Config::default());
            engine.analyse(&state, Limits::depth(depth)).nodes
        })
        .sum()
}
