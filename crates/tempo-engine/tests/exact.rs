//! The engine's root value and strategies at depth 1 against the exact
//! depth-1 game (`tempo_engine::exact`: the same tree, every node solved
//! by linear programming).

use tempo_engine::exact::{self, POSITIONS, exploitability, root_game};
use tempo_engine::{Config, Engine, GameStart, Limits};
use tempo_sync::GameKind;

/// The mean exploitability (White's + Black's) the engine's depth-1 root
/// strategies stay below on [`POSITIONS`]; `tempo engine exploitability`
/// is tested against the same bound.
const BOUND: f64 = 0.01;

#[test]
fn root_value_is_within_a_hundredth_of_the_exact_game_value() {
    for &(kind, fen) in POSITIONS {
        let state = kind.from_fen(fen).expect("valid position");
        let game = root_game(&state, 1).expect("small enough");
        assert!(
            !game.white.is_empty() && !game.black.is_empty(),
            "{fen}: a pair"
        );
        let exact = game.solution.value;
        for config in [
            Config::default(),
            Config {
                double_oracle: false,
                ..Config::default()
            },
            Config {
                bounds: false,
                transposition: false,
                ..Config::default()
            },
        ] {
            let analysis = Engine::new(config).analyse(&state, Limits::depth(1));
            assert!(
                (analysis.value - exact).abs() <= 0.01,
                "{kind:?} {fen} {config:?}: engine {} exact {exact}",
                analysis.value
            );
            let total: f64 = analysis.white.iter().map(|(_, p)| p).sum();
            assert!((total - 1.0).abs() < 1e-6);
        }
    }
}

#[test]
fn engine_strategies_are_nearly_unexploitable_and_uniform_ones_are_not() {
    let (mut engine, mut uniform) = (0.0, 0.0);
    for &(kind, fen) in POSITIONS {
        let state = kind.from_fen(fen).expect("valid position");
        let m = exact::measure(&state, 1).expect("small enough");
        engine += m.exploitability.sum() / POSITIONS.len() as f64;
        let game = root_game(&state, 1).expect("small enough");
        let x = vec![1.0 / game.white.len() as f64; game.white.len()];
        let y = vec![1.0 / game.black.len() as f64; game.black.len()];
        let e = exploitability(&game.matrix, game.solution.value, &x, &y).unwrap();
        uniform += e.sum() / POSITIONS.len() as f64;
    }
    assert!(engine <= BOUND, "engine: mean exploitability {engine}");
    // The bound tells strategies apart: playing uniformly fails it.
    assert!(
        uniform > 10.0 * BOUND,
        "uniform: mean exploitability {uniform}"
    );
}

/// Inside the tree the matrix games' cells are searched within the
/// node's window and known partly by bounds (the serialised bounds): the
/// root value must stay that of the search with exact cells everywhere.
#[test]
fn windowed_matrix_games_keep_the_value_of_exact_cells_at_depth_two() {
    let endgames = POSITIONS.iter().filter(|(_, fen)| fen.len() < 40);
    for &(kind, fen) in endgames {
        let state = kind.from_fen(fen).expect("valid position");
        let windowed = Engine::new(Config::default()).analyse(&state, Limits::depth(2));
        let exact_cells = Config {
            bounds: false,
            ..Config::default()
        };
        let full = Engine::new(exact_cells).analyse(&state, Limits::depth(2));
        assert!(
            (windowed.value - full.value).abs() <= 0.005,
            "{kind:?} {fen}: windowed {} exact cells {}",
            windowed.value,
            full.value
        );
    }
}

/// Futility at the frontier leaves moves out of best responses one step
/// above the horizon, so at depth 2 the root's cells are searched in a
/// smaller tree than the exact game's: the root strategies must still stay
/// within the bound on the endings (the middlegames are measured by
/// `tempo engine exploitability --depth 2`, docs/engine.md).
#[test]
fn futility_keeps_the_depth_two_strategies_within_the_bound() {
    let endgames: Vec<_> = POSITIONS.iter().filter(|(_, fen)| fen.len() < 40).collect();
    let mut mean = 0.0;
    for &&(kind, fen) in &endgames {
        let state = kind.from_fen(fen).expect("valid position");
        let m = exact::measure(&state, 2).expect("small enough");
        mean += m.exploitability.sum() / endgames.len() as f64;
    }
    assert!(mean <= BOUND, "mean exploitability at depth 2: {mean}");
}

/// Futility prunes one step above the horizon only: the root (depth 1)
/// searches every move, and at depth 2 it saves nodes.
#[test]
fn futility_prunes_at_the_frontier_and_never_at_the_root() {
    let fen = "r1bq1rk1/ppp2ppp/2n2n2/3pp3/1b1PP3/2N2N2/PPP1BPPP/R1BQ1RK1 w - - 0 7";
    let state = GameKind::Fairschach.from_fen(fen).expect("valid position");
    let without = Config {
        futility: false,
        ..Config::default()
    };
    let nodes = |config: Config, depth: u32| {
        Engine::new(config)
            .analyse(&state, Limits::depth(depth))
            .nodes
    };
    assert_eq!(nodes(Config::default(), 1), nodes(without, 1));
    let (with, off) = (nodes(Config::default(), 2), nodes(without, 2));
    assert!(
        with < off,
        "depth 2: {with} nodes with futility, {off} without"
    );
}
