use proptest::prelude::*;

use super::*;

/// The best (cardinality, weight) over all matchings, by exhaustive search.
fn brute_force(n: usize, edges: &[(usize, usize, i64)], mode: Mode) -> (usize, i64) {
    fn go(
        v: usize,
        used: &mut Vec<bool>,
        adj: &[Vec<(usize, i64)>],
        mode: Mode,
        acc: (usize, i64),
    ) -> (usize, i64) {
        let n = used.len();
        let mut v = v;
        while v < n && used[v] {
            v += 1;
        }
        if v == n {
            return acc;
        }
        used[v] = true;
        let better = |a: (usize, i64), b: (usize, i64)| match mode {
            Mode::MaxWeight => a.1 > b.1,
            Mode::MaxCardinality => a > b,
        };
        // v stays unmatched
        let mut best = go(v + 1, used, adj, mode, acc);
        for &(w, wt) in &adj[v] {
            if !used[w] {
                used[w] = true;
                let r = go(v + 1, used, adj, mode, (acc.0 + 1, acc.1 + wt));
                if better(r, best) {
                    best = r;
                }
                used[w] = false;
            }
        }
        used[v] = false;
        best
    }
    let mut adj = vec![Vec::new(); n];
    for &(u, v, w) in edges {
        adj[u].push((v, w));
        adj[v].push((u, w));
    }
    go(0, &mut vec![false; n], &adj, mode, (0, 0))
}

/// Checks that `m` is a matching of existing edges and returns its
/// (cardinality, weight).
fn evaluate(m: &Matching, edges: &[(usize, usize, i64)]) -> (usize, i64) {
    for v in 0..m.vertex_count() {
        if let Some(w) = m.mate(v) {
            assert_eq!(m.mate(w), Some(v), "mate is not symmetric");
            assert!(
                edges
                    .iter()
                    .any(|&(a, b, _)| (a, b) == (v, w) || (a, b) == (w, v)),
                "matched pair {v}-{w} is not an edge"
            );
        }
    }
    (m.len(), m.total_weight(edges))
}

fn graph(max_n: usize, density: f64) -> impl Strategy<Value = (usize, Vec<(usize, usize, i64)>)> {
    (1..=max_n).prop_flat_map(move |n| {
        let pairs: Vec<(usize, usize)> = (0..n)
            .flat_map(|i| (i + 1..n).map(move |j| (i, j)))
            .collect();
        let k = pairs.len();
        (
            Just(n),
            proptest::collection::vec((proptest::bool::weighted(density), -20i64..60), k).prop_map(
                move |choices| {
                    pairs
                        .iter()
                        .zip(choices)
                        .filter(|(_, (keep, _))| *keep)
                        .map(|(&(i, j), (_, w))| (i, j, w))
                        .collect::<Vec<_>>()
                },
            ),
        )
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(600))]

    #[test]
    fn max_weight_equals_brute_force((n, edges) in graph(10, 0.5)) {
        let m = max_weight_matching(n, &edges, Mode::MaxWeight).unwrap();
        let got = evaluate(&m, &edges);
        prop_assert_eq!(got.1, brute_force(n, &edges, Mode::MaxWeight).1);
    }

    #[test]
    fn max_cardinality_equals_brute_force((n, edges) in graph(10, 0.4)) {
        let m = max_weight_matching(n, &edges, Mode::MaxCardinality).unwrap();
        prop_assert_eq!(evaluate(&m, &edges), brute_force(n, &edges, Mode::MaxCardinality));
    }

    #[test]
    fn dense_graphs_equal_brute_force((n, edges) in graph(11, 0.9)) {
        for mode in [Mode::MaxWeight, Mode::MaxCardinality] {
            let m = max_weight_matching(n, &edges, mode).unwrap();
            let got = evaluate(&m, &edges);
            let want = brute_force(n, &edges, mode);
            match mode {
                Mode::MaxWeight => prop_assert_eq!(got.1, want.1),
                Mode::MaxCardinality => prop_assert_eq!(got, want),
            }
        }
    }

    /// Small weight ranges make many ties and tight edges, which is where
    /// blossoms form and get expanded mid-stage.
    #[test]
    fn few_distinct_weights_equal_brute_force(
        (n, edges) in graph(10, 0.7).prop_map(|(n, e)| {
            (n, e.into_iter().map(|(u, v, w)| (u, v, w.rem_euclid(4))).collect::<Vec<_>>())
        })
    ) {
        for mode in [Mode::MaxWeight, Mode::MaxCardinality] {
            let m = max_weight_matching(n, &edges, mode).unwrap();
            let got = evaluate(&m, &edges);
            let want = brute_force(n, &edges, mode);
            match mode {
                Mode::MaxWeight => prop_assert_eq!(got.1, want.1),
                Mode::MaxCardinality => prop_assert_eq!(got, want),
            }
        }
    }

    #[test]
    fn min_cost_perfect_equals_brute_force((n, edges) in graph(10, 0.6)) {
        let got = min_cost_perfect_matching(n, &edges).unwrap();
        // Brute force: maximum cardinality with negated costs.
        let negated: Vec<_> = edges.iter().map(|&(u, v, w)| (u, v, -w)).collect();
        let (card, neg_cost) = brute_force(n, &negated, Mode::MaxCardinality);
        if 2 * card == n {
            let m = got.expect("a perfect matching exists");
            prop_assert!(m.is_perfect());
            let cost: i64 = m.pairs().iter().map(|&(u, v)| {
                edges.iter().filter(|&&(a, b, _)| (a, b) == (u, v)).map(|e| e.2).min().unwrap()
            }).sum();
            prop_assert_eq!(cost, -neg_cost);
        } else {
            prop_assert!(got.is_none());
        }
    }

    /// The same matching for i64 and i128 weights scaled far beyond i64.
    #[test]
    fn wide_weights_agree((n, edges) in graph(9, 0.7)) {
        let scale: i128 = 1 << 80;
        let wide: Vec<(usize, usize, i128)> =
            edges.iter().map(|&(u, v, w)| (u, v, w as i128 * scale)).collect();
        let a = max_weight_matching(n, &edges, Mode::MaxCardinality).unwrap();
        let b = max_weight_matching(n, &wide, Mode::MaxCardinality).unwrap();
        prop_assert_eq!(a.total_weight(&edges) as i128 * scale, b.total_weight(&wide));
    }
}

#[test]
fn empty_and_trivial_graphs() {
    let none: [(usize, usize, i64); 0] = [];
    assert!(
        max_weight_matching(0, &none, Mode::MaxWeight)
            .unwrap()
            .is_empty()
    );
    assert!(
        max_weight_matching(3, &none, Mode::MaxWeight)
            .unwrap()
            .is_empty()
    );
    let m = max_weight_matching(2, &[(0, 1, 1i64)], Mode::MaxWeight).unwrap();
    assert_eq!(m.pairs(), vec![(0, 1)]);
    // A non-positive edge is not worth taking unless cardinality counts.
    let m = max_weight_matching(2, &[(0, 1, -3i64)], Mode::MaxWeight).unwrap();
    assert!(m.is_empty());
    let m = max_weight_matching(2, &[(0, 1, -3i64)], Mode::MaxCardinality).unwrap();
    assert_eq!(m.pairs(), vec![(0, 1)]);
}

#[test]
fn rejects_bad_edges() {
    assert_eq!(
        max_weight_matching(2, &[(0, 2, 1i64)], Mode::MaxWeight),
        Err(MatchingError::VertexOutOfRange {
            edge: 0,
            vertex: 2,
            vertex_count: 2
        })
    );
    assert_eq!(
        max_weight_matching(2, &[(1, 1, 1i64)], Mode::MaxWeight),
        Err(MatchingError::SelfLoop { edge: 0, vertex: 1 })
    );
}

/// Classic cases from the literature that exercise creating, augmenting
/// through, and expanding (nested) blossoms.
type Case = (Vec<(usize, usize, i64)>, Mode, Vec<Option<usize>>);

#[test]
fn blossom_cases() {
    let cases: Vec<Case> = vec![
        // S-blossom, then augment through it.
        (
            vec![(1, 2, 8), (1, 3, 9), (2, 3, 10), (3, 4, 7)],
            Mode::MaxWeight,
            vec![None, Some(2), Some(1), Some(4), Some(3)],
        ),
        (
            vec![
                (1, 2, 8),
                (1, 3, 9),
                (2, 3, 10),
                (3, 4, 7),
                (1, 6, 5),
                (4, 5, 6),
            ],
            Mode::MaxWeight,
            vec![None, Some(6), Some(3), Some(2), Some(5), Some(4), Some(1)],
        ),
        // T-blossom expanded mid-stage.
        (
            vec![
                (1, 2, 9),
                (1, 3, 8),
                (2, 3, 10),
                (1, 4, 5),
                (4, 5, 4),
                (1, 6, 3),
            ],
            Mode::MaxWeight,
            vec![None, Some(6), Some(3), Some(2), Some(5), Some(4), Some(1)],
        ),
        // Nested S-blossom, relabel as T and expand.
        (
            vec![
                (1, 2, 19),
                (1, 3, 20),
                (1, 8, 8),
                (2, 3, 25),
                (2, 4, 18),
                (3, 5, 18),
                (4, 5, 13),
                (4, 7, 7),
                (5, 6, 7),
            ],
            Mode::MaxWeight,
            vec![
                None,
                Some(8),
                Some(3),
                Some(2),
                Some(7),
                Some(6),
                Some(5),
                Some(4),
                Some(1),
            ],
        ),
        // Nested blossom expanded while labelled T, with a least-slack edge
        // that must be recomputed.
        (
            vec![
                (1, 2, 45),
                (1, 5, 45),
                (2, 3, 50),
                (3, 4, 45),
                (4, 5, 50),
                (1, 6, 30),
                (3, 9, 35),
                (4, 8, 35),
                (5, 7, 26),
                (9, 10, 5),
            ],
            Mode::MaxWeight,
            vec![
                None,
                Some(6),
                Some(3),
                Some(2),
                Some(8),
                Some(7),
                Some(1),
                Some(5),
                Some(4),
                Some(10),
                Some(9),
            ],
        ),
        (
            vec![
                (1, 2, 40),
                (1, 3, 40),
                (2, 3, 60),
                (2, 4, 55),
                (3, 5, 55),
                (4, 5, 50),
                (1, 8, 15),
                (5, 7, 30),
                (7, 6, 10),
                (8, 10, 10),
                (4, 9, 30),
            ],
            Mode::MaxWeight,
            vec![
                None,
                Some(2),
                Some(1),
                Some(5),
                Some(9),
                Some(3),
                Some(7),
                Some(6),
                Some(10),
                Some(4),
                Some(8),
            ],
        ),
    ];
    for (edges, mode, want) in cases {
        let n = want.len();
        let m = max_weight_matching(n, &edges, mode).unwrap();
        let got: Vec<_> = (0..n).map(|v| m.mate(v)).collect();
        assert_eq!(got, want, "edges {edges:?}");
    }
}

/// Maximum cardinality changes the answer on a path with a heavy middle.
#[test]
fn cardinality_mode_prefers_more_edges() {
    let edges = [(0, 1, 1i64), (1, 2, 3), (2, 3, 1)];
    let m = max_weight_matching(4, &edges, Mode::MaxWeight).unwrap();
    assert_eq!(m.pairs(), vec![(1, 2)]);
    let m = max_weight_matching(4, &edges, Mode::MaxCardinality).unwrap();
    assert_eq!(m.pairs(), vec![(0, 1), (2, 3)]);
}

/// Best (cardinality, weight) by dynamic programming over vertex subsets:
/// exact for up to ~20 vertices, far beyond the enumeration above.
fn subset_dp(n: usize, edges: &[(usize, usize, i64)], mode: Mode) -> (usize, i64) {
    let mut w = vec![vec![None::<i64>; n]; n];
    for &(u, v, x) in edges {
        let best = w[u][v].map_or(x, |y: i64| y.max(x));
        w[u][v] = Some(best);
        w[v][u] = Some(best);
    }
    let better = |a: (usize, i64), b: (usize, i64)| match mode {
        Mode::MaxWeight => a.1 > b.1,
        Mode::MaxCardinality => a > b,
    };
    // dp[mask]: best over matchings of the vertices in `mask`.
    let mut dp = vec![(0usize, 0i64); 1 << n];
    for mask in 1usize..(1 << n) {
        let v = mask.trailing_zeros() as usize;
        let rest = mask & !(1 << v);
        let mut best = dp[rest]; // v unmatched
        let mut others = rest;
        while others != 0 {
            let u = others.trailing_zeros() as usize;
            others &= others - 1;
            if let Some(x) = w[v][u] {
                let sub = dp[rest & !(1 << u)];
                let cand = (sub.0 + 1, sub.1 + x);
                if better(cand, best) {
                    best = cand;
                }
            }
        }
        dp[mask] = best;
    }
    dp[(1 << n) - 1]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(40))]

    /// Larger graphs (up to 18 vertices), where blossoms nest deeper.
    #[test]
    fn larger_graphs_equal_subset_dp(
        (n, edges) in (12usize..=18).prop_flat_map(|n| {
            let k = n * (n - 1) / 2;
            (Just(n), proptest::collection::vec((proptest::bool::weighted(0.6), 0i64..12), k))
        }).prop_map(|(n, choices)| {
            let pairs = (0..n).flat_map(|i| (i + 1..n).map(move |j| (i, j)));
            let edges: Vec<_> = pairs
                .zip(choices)
                .filter(|(_, (keep, _))| *keep)
                .map(|((i, j), (_, w))| (i, j, w))
                .collect();
            (n, edges)
        })
    ) {
        for mode in [Mode::MaxWeight, Mode::MaxCardinality] {
            let m = max_weight_matching(n, &edges, mode).unwrap();
            let got = evaluate(&m, &edges);
            let want = subset_dp(n, &edges, mode);
            match mode {
                Mode::MaxWeight => prop_assert_eq!(got.1, want.1),
                Mode::MaxCardinality => prop_assert_eq!(got, want),
            }
        }
    }
}
