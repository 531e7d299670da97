//! The engine's root value at depth 1 against the exact value of the
//! depth-1 matrix game (all pairs of moves, each entry the value of the
//! position after the pair), solved by a simplex linear program here.

// A simplex tableau reads best by index.
#![allow(clippy::needless_range_loop)]

use tempo_chess::Color;
use tempo_engine::{Config, Engine, GameStart, Limits};
use tempo_sync::GameKind as Kind;

/// The value of the zero-sum game `a` (row player maximises) by the
/// simplex method (Bland's rule) on the column player's program:
/// shift the matrix positive, maximise Σ y' subject to A y' ≤ 1, y' ≥ 0;
/// the value is 1 / Σ y' minus the shift.
fn lp_value(a: &[Vec<f64>]) -> f64 {
    let m = a.len();
    let n = a[0].len();
    let shift = 1.0 - a.iter().flatten().copied().fold(f64::INFINITY, f64::min);
    // Tableau: m constraint rows of n + m columns and the right side,
    // then the objective row (reduced costs).
    let width = n + m + 1;
    let mut t = vec![vec![0.0; width]; m + 1];
    for i in 0..m {
        for j in 0..n {
            t[i][j] = a[i][j] + shift;
        }
        t[i][n + i] = 1.0;
        t[i][width - 1] = 1.0;
    }
    for j in 0..n {
        t[m][j] = 1.0;
    }
    let mut basis: Vec<usize> = (n..n + m).collect();
    while let Some(enter) = (0..n + m).find(|&j| t[m][j] > 1e-12) {
        let mut leave: Option<usize> = None;
        for i in 0..m {
            if t[i][enter] > 1e-12 {
                let ratio = t[i][width - 1] / t[i][enter];
                let better = match leave {
                    None => true,
                    Some(l) => {
                        let best = t[l][width - 1] / t[l][enter];
                        ratio < best - 1e-15
                            || ((ratio - best).abs() <= 1e-15 && basis[i] < basis[l])
                    }
                };
                if better {
                    leave = Some(i);
                }
            }
        }
        let l = leave.expect("bounded: A > 0");
        let pivot = t[l][enter];
        for v in &mut t[l] {
            *v /= pivot;
        }
        for i in 0..=m {
            if i != l {
                let f = t[i][enter];
                if f != 0.0 {
                    for j in 0..width {
                        t[i][j] -= f * t[l][j];
                    }
                }
            }
        }
        basis[l] = enter;
    }
    let total: f64 = (0..m)
        .filter(|&i| basis[i] < n)
        .map(|i| t[i][width - 1])
        .sum();
    1.0 / total - shift
}

#[test]
fn simplex_solves_known_games() {
    assert!((lp_value(&[vec![1.0, -1.0], vec![-1.0, 1.0]])).abs() < 1e-12);
    assert!((lp_value(&[vec![2.0, -1.0], vec![-1.0, 1.0]]) - 0.2).abs() < 1e-12);
    assert!((lp_value(&[vec![3.0, 1.0], vec![4.0, 2.0]]) - 2.0).abs() < 1e-12);
}

/// Small positions of both variants (a first-move right among them),
/// where the depth-1 matrix has a few hundred entries at most.
const POSITIONS: &[(Kind, &str)] = &[
    (Kind::Synchronschach, "4k3/8/8/3r4/8/8/3Q4/4K3 w - - 0 1"),
    (Kind::Synchronschach, "4k3/8/2n5/8/3P4/8/8/R3K3 w - - 0 1"),
    (Kind::Synchronschach, "r3k3/8/8/8/4N3/8/8/4K2R w - - 0 1"),
    (
        Kind::Synchronschach,
        "6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1",
    ),
    (Kind::Fairschach, "4k3/8/8/3r4/8/8/3Q4/4K3 w - - 0 1"),
    (Kind::Fairschach, "4k3/8/2n5/8/3P4/8/8/R3K3 w - - 0 1"),
    (Kind::Fairschach, "4k3/4r3/p7/1p6/8/P7/1P1B4/4K2R w - - 0 1"),
    (Kind::Fairschach, "3qk3/8/8/8/8/8/3PP3/3QK3 w - - 0 1"),
];

#[test]
fn root_value_is_within_a_hundredth_of_the_exact_game_value() {
    for &(kind, fen) in POSITIONS {
        let state = kind.from_fen(fen).expect("valid position");
        let white = state.choices(Color::White);
        let black = state.choices(Color::Black);
        assert!(!white.is_empty() && !black.is_empty(), "{fen}: a pair");
        let mut oracle = Engine::new(Config::default());
        let matrix: Vec<Vec<f64>> = white
            .iter()
            .map(|&w| {
                black
                    .iter()
                    .map(|&b| oracle.child_value(&state.play(Some(w), Some(b)), 0))
                    .collect()
            })
            .collect();
        let exact = lp_value(&matrix);
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
