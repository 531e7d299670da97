//! Zero-sum matrix games: the row player (White) maximises, the column
//! player (Black) minimises. Solved for mixed strategies by regret
//! matching+ (alternating updates, linearly weighted averages), with the
//! serialised bounds checked first: where max-min equals min-max the game
//! has a pure saddle point and needs no iteration.

/// A solution: both mixed strategies and the value `xᵀ A y`.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Solution {
    pub row: Vec<f64>,
    pub col: Vec<f64>,
    pub value: f64,
    /// The exploitability of the pair (best row reply to `col` minus best
    /// column reply to `row`): 0 at an exact equilibrium.
    pub gap: f64,
}

/// A dense `rows × cols` matrix, row-major.
#[derive(Debug, Clone)]
pub(crate) struct Matrix {
    pub rows: usize,
    pub cols: usize,
    pub cells: Vec<f64>,
}

impl Matrix {
    pub(crate) fn new(rows: usize, cols: usize) -> Matrix {
        Matrix {
            rows,
            cols,
            cells: vec![0.0; rows * cols],
        }
    }

    #[inline]
    pub(crate) fn get(&self, i: usize, j: usize) -> f64 {
        self.cells[i * self.cols + j]
    }

    #[inline]
    pub(crate) fn set(&mut self, i: usize, j: usize, v: f64) {
        self.cells[i * self.cols + j] = v;
    }

    /// The row player moves first and the column player answers: max-min
    /// (a lower bound of the value), with the row that reaches it.
    pub(crate) fn max_min(&self) -> (f64, usize) {
        let mut best = (f64::NEG_INFINITY, 0);
        for i in 0..self.rows {
            let worst = (0..self.cols)
                .map(|j| self.get(i, j))
                .fold(f64::INFINITY, f64::min);
            if worst > best.0 {
                best = (worst, i);
            }
        }
        best
    }

    /// The column player moves first: min-max (an upper bound), with its
    /// column.
    pub(crate) fn min_max(&self) -> (f64, usize) {
        let mut best = (f64::INFINITY, 0);
        for j in 0..self.cols {
            let worst = (0..self.rows)
                .map(|i| self.get(i, j))
                .fold(f64::NEG_INFINITY, f64::max);
            if worst < best.0 {
                best = (worst, j);
            }
        }
        best
    }

    /// `(A y)_i` for every row.
    pub(crate) fn row_values(&self, col: &[f64]) -> Vec<f64> {
        (0..self.rows)
            .map(|i| (0..self.cols).map(|j| self.get(i, j) * col[j]).sum())
            .collect()
    }

    /// `(xᵀ A)_j` for every column.
    pub(crate) fn col_values(&self, row: &[f64]) -> Vec<f64> {
        (0..self.cols)
            .map(|j| (0..self.rows).map(|i| self.get(i, j) * row[i]).sum())
            .collect()
    }

    /// The exploitability of `(row, col)` and the value `xᵀ A y`.
    pub(crate) fn gap(&self, row: &[f64], col: &[f64]) -> (f64, f64) {
        let rv = self.row_values(col);
        let cv = self.col_values(row);
        let value: f64 = rv.iter().zip(row).map(|(v, x)| v * x).sum();
        let hi = rv.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        let lo = cv.iter().copied().fold(f64::INFINITY, f64::min);
        (hi - lo, value)
    }
}

fn pure(n: usize, k: usize) -> Vec<f64> {
    let mut v = vec![0.0; n];
    v[k] = 1.0;
    v
}

/// Solves `a` to an exploitability of at most `tolerance` or for at most
/// `max_iterations` rounds of regret matching+. `saddle`: try the pure
/// saddle point first (the serialised bounds meet).
pub(crate) fn solve(a: &Matrix, tolerance: f64, max_iterations: usize, saddle: bool) -> Solution {
    let (m, n) = (a.rows, a.cols);
    if saddle || m == 1 || n == 1 {
        let (lo, i) = a.max_min();
        let (hi, j) = a.min_max();
        if hi - lo <= 1e-12 || m == 1 || n == 1 {
            return Solution {
                row: pure(m, i),
                col: pure(n, j),
                value: if m == 1 { hi } else { lo },
                gap: 0.0,
            };
        }
    }
    let mut regret_row = vec![0.0f64; m];
    let mut regret_col = vec![0.0f64; n];
    let mut sum_row = vec![0.0f64; m];
    let mut sum_col = vec![0.0f64; n];
    let mut x = vec![1.0 / m as f64; m];
    let mut y = vec![1.0 / n as f64; n];
    let normalise = |regret: &[f64], out: &mut [f64]| {
        let total: f64 = regret.iter().sum();
        if total > 0.0 {
            for (o, r) in out.iter_mut().zip(regret) {
                *o = r / total;
            }
        } else {
            out.fill(1.0 / out.len() as f64);
        }
    };
    let mut best: Option<Solution> = None;
    for t in 1..=max_iterations {
        // Row player against the current column strategy.
        let rv = a.row_values(&y);
        let ev: f64 = rv.iter().zip(&x).map(|(v, p)| v * p).sum();
        for i in 0..m {
            regret_row[i] = (regret_row[i] + rv[i] - ev).max(0.0);
        }
        normalise(&regret_row, &mut x);
        let w = t as f64;
        for i in 0..m {
            sum_row[i] += w * x[i];
        }
        // Column player against the new row strategy (alternating).
        let cv = a.col_values(&x);
        let ev: f64 = cv.iter().zip(&y).map(|(v, p)| v * p).sum();
        for j in 0..n {
            regret_col[j] = (regret_col[j] + ev - cv[j]).max(0.0);
        }
        normalise(&regret_col, &mut y);
        for j in 0..n {
            sum_col[j] += w * y[j];
        }
        if t % 25 == 0 || t == max_iterations {
            let total_r: f64 = sum_row.iter().sum();
            let total_c: f64 = sum_col.iter().sum();
            let row: Vec<f64> = sum_row.iter().map(|s| s / total_r).collect();
            let col: Vec<f64> = sum_col.iter().map(|s| s / total_c).collect();
            let (gap, value) = a.gap(&row, &col);
            let done = gap <= tolerance;
            if best.as_ref().is_none_or(|b| gap < b.gap) {
                best = Some(Solution {
                    row,
                    col,
                    value,
                    gap,
                });
            }
            if done {
                break;
            }
        }
    }
    best.unwrap_or_else(|| {
        let (gap, value) = a.gap(&x, &y);
        Solution {
            row: x,
            col: y,
            value,
            gap,
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn matrix(rows: &[&[f64]]) -> Matrix {
        let mut a = Matrix::new(rows.len(), rows[0].len());
        for (i, r) in rows.iter().enumerate() {
            for (j, v) in r.iter().enumerate() {
                a.set(i, j, *v);
            }
        }
        a
    }

    #[test]
    fn matching_pennies_is_half_half() {
        let a = matrix(&[&[1.0, -1.0], &[-1.0, 1.0]]);
        let s = solve(&a, 1e-4, 10_000, true);
        assert!(s.value.abs() < 1e-3, "{s:?}");
        assert!((s.row[0] - 0.5).abs() < 0.01 && (s.col[0] - 0.5).abs() < 0.01);
    }

    #[test]
    fn rock_paper_scissors_is_uniform() {
        let a = matrix(&[&[0.0, -1.0, 1.0], &[1.0, 0.0, -1.0], &[-1.0, 1.0, 0.0]]);
        let s = solve(&a, 1e-4, 20_000, true);
        assert!(s.gap <= 1e-4 && s.value.abs() < 1e-3, "{s:?}");
        for p in s.row.iter().chain(&s.col) {
            assert!((p - 1.0 / 3.0).abs() < 0.02);
        }
    }

    #[test]
    fn saddle_point_is_pure_and_bounds_bracket_the_value() {
        let a = matrix(&[&[3.0, 1.0], &[4.0, 2.0]]);
        let s = solve(&a, 1e-4, 100, true);
        assert_eq!(s.row, vec![0.0, 1.0]);
        assert_eq!(s.col, vec![0.0, 1.0]);
        assert_eq!(s.value, 2.0);
        let b = matrix(&[&[2.0, -1.0], &[-1.0, 1.0]]);
        let (lo, _) = b.max_min();
        let (hi, _) = b.min_max();
        let s = solve(&b, 1e-5, 50_000, true);
        assert!(lo <= s.value && s.value <= hi);
        assert!((s.value - 0.2).abs() < 1e-3, "{s:?}");
    }
}
