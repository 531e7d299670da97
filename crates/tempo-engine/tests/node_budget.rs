//! A node budget: bounded work a move, and the same choices on every run.

use tempo_engine::{Config, Engine, GameStart, Limits};
use tempo_sync::GameKind;

const SYNC_FEN: &str = "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3";

#[test]
fn a_search_stays_within_its_node_budget() {
    for (kind, fen) in [
        (GameKind::Standard, None),
        (GameKind::Synchronschach, Some(SYNC_FEN)),
    ] {
        let state = match fen {
            Some(fen) => kind.from_fen(fen).unwrap(),
            None => kind.start(None).unwrap(),
        };
        for budget in [2_000u64, 20_000] {
            let analysis = Engine::new(Config::default()).analyse(&state, Limits::nodes(budget));
            // Depth 1 is always completed; these positions need far less.
            assert!(
                analysis.nodes <= budget,
                "{kind:?}: {} nodes of {budget}",
                analysis.nodes
            );
            assert!(analysis.depth >= 1);
        }
    }
}

#[test]
fn a_larger_budget_searches_deeper() {
    let state = GameKind::Standard.start(None).unwrap();
    let small = Engine::new(Config::default()).analyse(&state, Limits::nodes(2_000));
    let large = Engine::new(Config::default()).analyse(&state, Limits::nodes(200_000));
    assert!(
        large.depth > small.depth,
        "{} vs {}",
        large.depth,
        small.depth
    );
    assert!(large.nodes > small.nodes);
}

#[test]
fn a_node_budget_gives_the_same_analysis_every_time() {
    let state = GameKind::Synchronschach.from_fen(SYNC_FEN).unwrap();
    let run = || {
        let mut engine = Engine::new(Config::default());
        // Two moves of one engine: the table kept between them counts too.
        let first = engine.analyse(&state, Limits::nodes(30_000));
        let second = engine.analyse(&state, Limits::nodes(30_000));
        (
            first.white,
            first.black,
            first.nodes,
            second.white,
            second.nodes,
        )
    };
    assert_eq!(run(), run());
}
