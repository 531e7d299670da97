//! Zero-sum matrix games solved exactly by linear programming (the
//! simplex method with Bland's rule, `simplex.rs`), and the
//! exploitability of a strategy pair against such a game.

// Matrices read best by index.
#![allow(clippy::needless_range_loop)]

use super::ExactError;

/// Most actions a side of a matrix game solved here (the tableau has
/// `rows × (rows + cols)` entries; a chess position has at most 218
/// moves).
pub const MAX_ACTIONS: usize = 256;

/// Largest duality gap accepted of a solution, relative to the spread of
/// the matrix: the optimal strategies are checked against the matrix, so
/// a numerical failure is an error, never a wrong answer.
const GAP_TOLERANCE: f64 = 1e-9;

/// The solution of a zero-sum matrix game: its value and optimal
/// strategies of both players (the row player maximises).
#[derive(Debug, Clone, PartialEq)]
pub struct ZeroSum {
    /// The value of the game: what the row player can guarantee and the
    /// column player can hold it to.
    pub value: f64,
    /// An optimal mixed strategy of the row player (sums to 1).
    pub row: Vec<f64>,
    /// An optimal mixed strategy of the column player (sums to 1).
    pub col: Vec<f64>,
}

/// How much each player of a matrix game loses against a best response,
/// compared with the game's value (both ≥ 0; 0 means optimal).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Exploitability {
    /// The row player's (White's): v* − min_j (xᵀA)_j.
    pub white: f64,
    /// The column player's (Black's): max_i (Ay)_i − v*.
    pub black: f64,
}

impl Exploitability {
    /// Both players' exploitability together (NashConv): 0 exactly at a
    /// Nash equilibrium.
    pub fn sum(&self) -> f64 {
        self.white + self.black
    }
}

/// Checks that `a` is a non-empty, rectangular matrix of finite numbers of
/// at most [`MAX_ACTIONS`] a side: its size.
fn check_matrix(a: &[Vec<f64>]) -> Result<(usize, usize), ExactError> {
    let rows = a.len();
    let cols = a.first().map_or(0, Vec::len);
    if rows == 0 || cols == 0 {
        return Err(ExactError::Empty { rows, cols });
    }
    if rows > MAX_ACTIONS || cols > MAX_ACTIONS {
        return Err(ExactError::TooLarge { rows, cols });
    }
    for (i, row) in a.iter().enumerate() {
        if row.len() != cols {
            return Err(ExactError::Ragged {
                row: i,
                len: row.len(),
                cols,
            });
        }
        if let Some(j) = row.iter().position(|v| !v.is_finite()) {
            return Err(ExactError::NotFinite { row: i, col: j });
        }
    }
    Ok((rows, cols))
}

/// Solves the zero-sum game `a` (`a[i][j]`: the row player's payoff when
/// it plays `i` and the column player `j`; the row player maximises):
/// its value and optimal strategies of both players.
///
/// Method: a pure saddle point is returned at once; otherwise equal rows
/// and equal columns are merged, the matrix is normalised to entries in
/// [1, 2] and the column player's program
/// (maximise Σ y′ subject to A y′ ≤ 1, y′ ≥ 0) is solved by the simplex
/// method with Bland's rule, which cannot cycle on degenerate games, the
/// basis factorised afresh at every step so that rounding errors do not
/// pile up; the row player's strategy is the dual solution. The strategies are then
/// checked against the matrix (duality gap at most 10⁻⁹ of its spread).
///
/// ```
/// use tempo_engine::exact::solve_zero_sum;
///
/// // Matching pennies: value 0, both players mix half and half.
/// let game = solve_zero_sum(&[vec![1.0, -1.0], vec![-1.0, 1.0]])?;
/// assert!(game.value.abs() < 1e-12);
/// assert!((game.row[0] - 0.5).abs() < 1e-12 && (game.col[0] - 0.5).abs() < 1e-12);
/// # Ok::<(), tempo_engine::exact::ExactError>(())
/// ```
pub fn solve_zero_sum(a: &[Vec<f64>]) -> Result<ZeroSum, ExactError> {
    let (m, n) = check_matrix(a)?;
    let (lo, hi) = a
        .iter()
        .flatten()
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), &v| {
            (lo.min(v), hi.max(v))
        });
    let spread = hi - lo;
    if !spread.is_finite() {
        return Err(ExactError::NotFinite { row: 0, col: 0 });
    }
    // A pure saddle point (also every constant matrix): max-min = min-max.
    let (max_min, best_row) = (0..m)
        .map(|i| (a[i].iter().copied().fold(f64::INFINITY, f64::min), i))
        .fold((f64::NEG_INFINITY, 0), |b, c| if c.0 > b.0 { c } else { b });
    let (min_max, best_col) = (0..n)
        .map(|j| ((0..m).map(|i| a[i][j]).fold(f64::NEG_INFINITY, f64::max), j))
        .fold((f64::INFINITY, 0), |b, c| if c.0 < b.0 { c } else { b });
    if max_min >= min_max {
        let mut row = vec![0.0; m];
        let mut col = vec![0.0; n];
        row[best_row] = 1.0;
        col[best_col] = 1.0;
        return Ok(ZeroSum {
            value: max_min,
            row,
            col,
        });
    }
    // Equal rows (columns) are one action: fewer ties for the simplex.
    let rows = distinct(m, |i, k| a[i] == a[k]);
    let cols = distinct(n, |j, l| (0..m).all(|i| a[i][j] == a[i][l]));
    // Normalised entries in [1, 2]: positive (the program is bounded and
    // the value positive) and of one scale (the thresholds are absolute).
    let b: Vec<Vec<f64>> = rows
        .iter()
        .map(|&i| {
            cols.iter()
                .map(|&j| 1.0 + (a[i][j] - lo) / spread)
                .collect()
        })
        .collect();
    let (value_b, x, y) =
        super::simplex::solve(&b).ok_or(ExactError::Numerical { rows: m, cols: n })?;
    let value = (value_b - 1.0) * spread + lo;
    let mut row = vec![0.0; m];
    for (&i, p) in rows.iter().zip(x) {
        row[i] = p;
    }
    let mut col = vec![0.0; n];
    for (&j, q) in cols.iter().zip(y) {
        col[j] = q;
    }
    // The check: each strategy guarantees the value against every reply.
    let (guaranteed, conceded) = bounds(a, &row, &col);
    let gap = GAP_TOLERANCE * spread;
    if value - guaranteed > gap || conceded - value > gap {
        return Err(ExactError::Numerical { rows: m, cols: n });
    }
    Ok(ZeroSum { value, row, col })
}

/// The first of each class of equal actions among `count` (`same(k, l)`:
/// whether actions `k` and `l` are equal).
fn distinct(count: usize, same: impl Fn(usize, usize) -> bool) -> Vec<usize> {
    let mut kept: Vec<usize> = Vec::with_capacity(count);
    for k in 0..count {
        if !kept.iter().any(|&l| same(k, l)) {
            kept.push(k);
        }
    }
    kept
}

/// What the row strategy `x` guarantees (min_j (xᵀA)_j) and what the
/// column strategy `y` concedes at most (max_i (Ay)_i).
fn bounds(a: &[Vec<f64>], x: &[f64], y: &[f64]) -> (f64, f64) {
    let cols = a[0].len();
    let guaranteed = (0..cols)
        .map(|j| a.iter().zip(x).map(|(r, p)| p * r[j]).sum::<f64>())
        .fold(f64::INFINITY, f64::min);
    let conceded = a
        .iter()
        .map(|r| r.iter().zip(y).map(|(v, q)| v * q).sum::<f64>())
        .fold(f64::NEG_INFINITY, f64::max);
    (guaranteed, conceded)
}

/// Checks that `p` is a probability distribution over `len` actions of
/// `side` (within 10⁻⁶ of a total of 1).
fn check_strategy(p: &[f64], len: usize, side: &'static str) -> Result<(), ExactError> {
    if p.len() != len {
        return Err(ExactError::StrategyLength {
            side,
            len: p.len(),
            expected: len,
        });
    }
    if let Some(k) = p.iter().position(|v| !v.is_finite() || *v < 0.0) {
        return Err(ExactError::BadProbability {
            side,
            index: k,
            value: p[k],
        });
    }
    let total: f64 = p.iter().sum();
    if (total - 1.0).abs() > 1e-6 {
        return Err(ExactError::NotDistribution { side, total });
    }
    Ok(())
}

/// The exploitability of the strategy pair (`x` of the row player, `y` of
/// the column player) in the game `a` of value `value` (from
/// [`solve_zero_sum`]): how much less than the value `x` guarantees
/// against Black's best reply, and how much more than the value `y`
/// concedes to White's best reply.
///
/// ```
/// use tempo_engine::exact::{exploitability, solve_zero_sum};
///
/// // Rock-paper-scissors, White always plays rock: paper wins 1.
/// let rps = [vec![0.0, -1.0, 1.0], vec![1.0, 0.0, -1.0], vec![-1.0, 1.0, 0.0]];
/// let v = solve_zero_sum(&rps)?.value;
/// let third = vec![1.0 / 3.0; 3];
/// let e = exploitability(&rps, v, &[1.0, 0.0, 0.0], &third)?;
/// assert!((e.white - 1.0).abs() < 1e-9 && e.black.abs() < 1e-9);
/// # Ok::<(), tempo_engine::exact::ExactError>(())
/// ```
pub fn exploitability(
    a: &[Vec<f64>],
    value: f64,
    x: &[f64],
    y: &[f64],
) -> Result<Exploitability, ExactError> {
    let (m, n) = check_matrix(a)?;
    check_strategy(x, m, "white")?;
    check_strategy(y, n, "black")?;
    let (guaranteed, conceded) = bounds(a, x, y);
    // Negative only by the rounding of `value` (the LP's 10⁻⁹).
    Ok(Exploitability {
        white: (value - guaranteed).max(0.0),
        black: (conceded - value).max(0.0),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() < 1e-9
    }

    /// The solution is optimal: both strategies have zero exploitability
    /// (relative to the matrix's scale).
    fn optimal(a: &[Vec<f64>]) -> ZeroSum {
        let s = solve_zero_sum(a).unwrap();
        let e = exploitability(a, s.value, &s.row, &s.col).unwrap();
        let scale = a.iter().flatten().fold(1.0f64, |m, v| m.max(v.abs()));
        assert!(e.sum() < 1e-9 * scale, "{s:?} {e:?}");
        s
    }

    #[test]
    fn matching_pennies_is_half_and_half() {
        let s = optimal(&[vec![1.0, -1.0], vec![-1.0, 1.0]]);
        assert!(close(s.value, 0.0));
        assert!(close(s.row[0], 0.5) && close(s.col[1], 0.5));
    }

    #[test]
    fn rock_paper_scissors_is_thirds() {
        let rps = [
            vec![0.0, -1.0, 1.0],
            vec![1.0, 0.0, -1.0],
            vec![-1.0, 1.0, 0.0],
        ];
        let s = optimal(&rps);
        assert!(close(s.value, 0.0));
        for p in s.row.iter().chain(&s.col) {
            assert!(close(*p, 1.0 / 3.0));
        }
    }

    #[test]
    fn an_asymmetric_game_has_its_textbook_solution() {
        // Value 1/5: White plays (2/5, 3/5), Black the same.
        let s = optimal(&[vec![2.0, -1.0], vec![-1.0, 1.0]]);
        assert!(close(s.value, 0.2));
        assert!(close(s.row[0], 0.4) && close(s.col[0], 0.4));
    }

    #[test]
    fn dominated_strategies_get_nothing() {
        // Row 2 is dominated by row 0, column 2 by column 1; what is left
        // is matching pennies shifted by 3.
        let a = [
            vec![4.0, 2.0, 5.0],
            vec![2.0, 4.0, 6.0],
            vec![3.0, 1.0, 4.0],
        ];
        let s = optimal(&a);
        assert!(close(s.value, 3.0));
        assert!(close(s.row[2], 0.0) && close(s.col[2], 0.0));
    }

    #[test]
    fn a_saddle_point_is_pure() {
        let s = optimal(&[vec![3.0, 1.0], vec![4.0, 2.0]]);
        assert!(close(s.value, 2.0));
        assert_eq!((s.row, s.col), (vec![0.0, 1.0], vec![0.0, 1.0]));
        let s = optimal(&vec![vec![0.25; 4]; 3]);
        assert!(close(s.value, 0.25));
    }

    #[test]
    fn degenerate_games_are_solved() {
        // Many equal entries and duplicated rows and columns: ties in the
        // ratio test, where a careless simplex cycles.
        let a = [
            vec![1.0, 0.0, 0.0, 1.0, 0.0],
            vec![0.0, 1.0, 0.0, 0.0, 1.0],
            vec![0.0, 0.0, 1.0, 0.0, 0.0],
            vec![1.0, 0.0, 0.0, 1.0, 0.0],
            vec![0.5, 0.5, 0.5, 0.5, 0.5],
        ];
        let s = optimal(&a);
        assert!(close(s.value, 0.5));
        // Rectangular, tiny and huge spreads, with a pseudo-random fill.
        let mut seed = 7u64;
        let mut next = || {
            seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1);
            ((seed >> 33) % 7) as f64 / 6.0
        };
        for (rows, cols, scale) in [(3, 9, 1.0), (12, 5, 1e-6), (40, 40, 1e6), (64, 30, 1.0)] {
            let a: Vec<Vec<f64>> = (0..rows)
                .map(|_| (0..cols).map(|_| scale * (next() - 0.5)).collect())
                .collect();
            optimal(&a);
        }
    }

    /// Matrices like the engine's: few distinct values, some of them
    /// apart by rounding only (the same evaluation reached by different
    /// sums), many ties in the ratio test. A tiny pivot taken in such a
    /// tableau once gave a value outside the matrix.
    #[test]
    fn near_ties_do_not_break_the_simplex() {
        let mut seed = 11u64;
        let mut next = |k: u64| {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (seed >> 33) % k
        };
        let values = [
            0.4088669950738916,
            0.318955732122588,
            0.6039603960396039,
            0.0,
            -0.4575,
        ];
        for round in 0..3_000 {
            let (rows, cols) = (2 + next(24) as usize, 2 + next(24) as usize);
            let a: Vec<Vec<f64>> = (0..rows)
                .map(|_| {
                    (0..cols)
                        .map(|_| {
                            let v = values[next(values.len() as u64) as usize];
                            // A rounding difference now and then.
                            v + [0.0, 0.0, 0.0, 1e-16, -2e-16, 1e-13][next(6) as usize]
                        })
                        .collect()
                })
                .collect();
            let s = solve_zero_sum(&a).unwrap_or_else(|e| panic!("round {round}: {e}"));
            let e = exploitability(&a, s.value, &s.row, &s.col).unwrap();
            assert!(e.sum() < 1e-9, "round {round}: {e:?}");
        }
    }

    /// Two matrices of the exact depth-2 game of `4k3/8/8/3r4/8/8/3Q4/4K3`
    /// (Synchronschach) on which a simplex tableau failed: it divided by
    /// rounding noise at a degenerate vertex.
    #[test]
    fn the_engines_degenerate_matrices_are_solved() {
        for text in [
            include_str!("testdata/degenerate-1.txt"),
            include_str!("testdata/degenerate-2.txt"),
        ] {
            let a: Vec<Vec<f64>> = text
                .lines()
                .map(|l| l.split(' ').map(|v| v.parse().unwrap()).collect())
                .collect();
            assert!(a.len() >= 20);
            let s = optimal(&a);
            assert!((0.40..0.42).contains(&s.value), "{}", s.value);
        }
    }

    #[test]
    fn bad_matrices_are_typed_errors() {
        assert_eq!(
            solve_zero_sum(&[]),
            Err(ExactError::Empty { rows: 0, cols: 0 })
        );
        assert_eq!(
            solve_zero_sum(&[vec![1.0, 2.0], vec![3.0]]),
            Err(ExactError::Ragged {
                row: 1,
                len: 1,
                cols: 2
            })
        );
        assert_eq!(
            solve_zero_sum(&[vec![1.0, f64::NAN]]),
            Err(ExactError::NotFinite { row: 0, col: 1 })
        );
        let big = vec![vec![0.0; 2]; MAX_ACTIONS + 1];
        assert_eq!(
            solve_zero_sum(&big),
            Err(ExactError::TooLarge {
                rows: MAX_ACTIONS + 1,
                cols: 2
            })
        );
    }

    #[test]
    fn exploitability_of_known_strategies() {
        let pennies = [vec![1.0, -1.0], vec![-1.0, 1.0]];
        // Optimal against optimal: nothing to exploit.
        let e = exploitability(&pennies, 0.0, &[0.5, 0.5], &[0.5, 0.5]).unwrap();
        assert!(close(e.sum(), 0.0));
        // White 70/30: Black's best reply (column 1) wins 0.4 of value 0;
        // Black's pure column 0 loses 1 to White's row 0.
        let e = exploitability(&pennies, 0.0, &[0.7, 0.3], &[1.0, 0.0]).unwrap();
        assert!(close(e.white, 0.4) && close(e.black, 1.0) && close(e.sum(), 1.4));
        assert!(matches!(
            exploitability(&pennies, 0.0, &[0.5, 0.4], &[0.5, 0.5]),
            Err(ExactError::NotDistribution { side: "white", .. })
        ));
        assert!(matches!(
            exploitability(&pennies, 0.0, &[1.0], &[0.5, 0.5]),
            Err(ExactError::StrategyLength { side: "white", .. })
        ));
        assert!(matches!(
            exploitability(&pennies, 0.0, &[0.5, 0.5], &[1.5, -0.5]),
            Err(ExactError::BadProbability {
                side: "black",
                index: 1,
                ..
            })
        ));
    }
}
