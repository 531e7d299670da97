//! The simplex method on the column player's program of a matrix game
//! with positive entries: maximise Σ y subject to B y ≤ 1, y ≥ 0.
//!
//! A *revised* simplex: the basis is factorised afresh (LU with partial
//! pivoting) at every step and the basic solution, the duals and the
//! entering column are solved from the original matrix, so that rounding
//! errors do not pile up from pivot to pivot. A tableau did: the engine's
//! games are degenerate (many equal values, some apart by rounding only),
//! and dividing a tableau row by noise gave values outside the matrix.
//! Entering and leaving variables by Bland's rule (smallest index), which
//! cannot cycle.

// Matrices read best by index.
#![allow(clippy::needless_range_loop)]

/// A reduced cost above this still improves the objective.
const OPTIMAL: f64 = 1e-10;
/// Least entry of the entering column that limits the step.
const PIVOT: f64 = 1e-9;
/// Ratios this close are a tie.
const TIE: f64 = 1e-12;
/// Among tied rows, pivots this much smaller than the largest are passed
/// over (dividing by them costs accuracy for nothing).
const RELATIVE_PIVOT: f64 = 1e-3;
/// A basis whose LU pivot falls below this is singular.
const SINGULAR: f64 = 1e-13;

/// An LU factorisation with partial pivoting: row `i` of `L U` is row
/// `perm[i]` of the factorised matrix.
struct Lu {
    m: usize,
    lu: Vec<f64>,
    perm: Vec<usize>,
}

impl Lu {
    /// Factorises the `m × m` row-major matrix `a`; `None` if singular.
    fn new(m: usize, mut a: Vec<f64>) -> Option<Lu> {
        let mut perm: Vec<usize> = (0..m).collect();
        for k in 0..m {
            let p = (k..m).max_by(|&i, &j| a[i * m + k].abs().total_cmp(&a[j * m + k].abs()))?;
            if a[p * m + k].abs() < SINGULAR {
                return None;
            }
            if p != k {
                for j in 0..m {
                    a.swap(p * m + j, k * m + j);
                }
                perm.swap(p, k);
            }
            let pivot = a[k * m + k];
            for i in k + 1..m {
                let f = a[i * m + k] / pivot;
                a[i * m + k] = f;
                if f != 0.0 {
                    for j in k + 1..m {
                        a[i * m + j] -= f * a[k * m + j];
                    }
                }
            }
        }
        Some(Lu { m, lu: a, perm })
    }

    /// x with A x = r.
    fn solve(&self, r: &[f64]) -> Vec<f64> {
        let (m, a) = (self.m, &self.lu);
        let mut x: Vec<f64> = self.perm.iter().map(|&i| r[i]).collect();
        for i in 0..m {
            for k in 0..i {
                x[i] -= a[i * m + k] * x[k];
            }
        }
        for i in (0..m).rev() {
            for k in i + 1..m {
                x[i] -= a[i * m + k] * x[k];
            }
            x[i] /= a[i * m + i];
        }
        x
    }

    /// π with Aᵀ π = c (A = Pᵀ L U, so Uᵀ Lᵀ P π = c).
    fn solve_transpose(&self, c: &[f64]) -> Vec<f64> {
        let (m, a) = (self.m, &self.lu);
        let mut z = c.to_vec();
        for i in 0..m {
            for k in 0..i {
                z[i] -= a[k * m + i] * z[k];
            }
            z[i] /= a[i * m + i];
        }
        for i in (0..m).rev() {
            for k in i + 1..m {
                z[i] -= a[k * m + i] * z[k];
            }
        }
        let mut pi = vec![0.0; m];
        for (i, &p) in self.perm.iter().enumerate() {
            pi[p] = z[i];
        }
        pi
    }
}

/// The game `b` (positive entries; `m × n`): the value of `b` and optimal
/// strategies of the row and the column player, or `None` on a numerical
/// failure (a singular basis, too many pivots).
pub(super) fn solve(b: &[Vec<f64>]) -> Option<(f64, Vec<f64>, Vec<f64>)> {
    let (m, n) = (b.len(), b[0].len());
    // Variables 0..n are y, n..n+m the slacks of the m constraints.
    let column = |k: usize, i: usize| -> f64 {
        if k < n {
            b[i][k]
        } else if k - n == i {
            1.0
        } else {
            0.0
        }
    };
    let mut basis: Vec<usize> = (n..n + m).collect();
    // Bland's rule ends after finitely many pivots; this bound only
    // guards against floating-point trouble.
    let max_pivots = 50 * (m + n) + 1_000;
    for _ in 0..=max_pivots {
        let mut matrix = vec![0.0; m * m];
        for i in 0..m {
            for (k, &var) in basis.iter().enumerate() {
                matrix[i * m + k] = column(var, i);
            }
        }
        let lu = Lu::new(m, matrix)?;
        let x_basic = lu.solve(&vec![1.0; m]);
        let costs: Vec<f64> = basis.iter().map(|&k| f64::from(k < n)).collect();
        let duals = lu.solve_transpose(&costs);
        let mut in_basis = vec![false; n + m];
        for &k in &basis {
            in_basis[k] = true;
        }
        let reduced = |k: usize| -> f64 {
            let cost = f64::from(k < n);
            cost - (0..m).map(|i| duals[i] * column(k, i)).sum::<f64>()
        };
        let Some(enter) = (0..n + m).find(|&k| !in_basis[k] && reduced(k) > OPTIMAL) else {
            // Optimal: y from the basis, the row strategy from the duals.
            let mut y = vec![0.0; n];
            for (i, &k) in basis.iter().enumerate() {
                if k < n {
                    y[k] = x_basic[i].max(0.0);
                }
            }
            let x: Vec<f64> = duals.iter().map(|d| d.max(0.0)).collect();
            let (y_total, x_total): (f64, f64) = (y.iter().sum(), x.iter().sum());
            if !(y_total > 0.0 && x_total > 0.0) {
                return None;
            }
            return Some((
                1.0 / y_total,
                x.iter().map(|v| v / x_total).collect(),
                y.iter().map(|v| v / y_total).collect(),
            ));
        };
        let entering: Vec<f64> = (0..m).map(|i| column(enter, i)).collect();
        let d = lu.solve(&entering);
        // Least ratio (a basic value below 0 by rounding counts as 0).
        let ratio = |i: usize| x_basic[i].max(0.0) / d[i];
        let limiting: Vec<usize> = (0..m).filter(|&i| d[i] > PIVOT).collect();
        let least = limiting
            .iter()
            .map(|&i| ratio(i))
            .fold(f64::INFINITY, f64::min);
        // Every column of B is positive, so some row limits the step.
        if !least.is_finite() {
            return None;
        }
        let tied: Vec<usize> = limiting
            .into_iter()
            .filter(|&i| ratio(i) <= least + TIE)
            .collect();
        let largest = tied.iter().map(|&i| d[i]).fold(0.0, f64::max);
        let leave = tied
            .into_iter()
            .filter(|&i| d[i] >= RELATIVE_PIVOT * largest)
            .min_by_key(|&i| basis[i])?;
        basis[leave] = enter;
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lu_solves_both_ways() {
        // A permutation is needed (zero in the corner).
        let a = vec![0.0, 2.0, 1.0, 1.0, 1.0, 0.0, 3.0, 0.0, 1.0];
        let lu = Lu::new(3, a.clone()).unwrap();
        let x = lu.solve(&[3.0, 2.0, 4.0]);
        for i in 0..3 {
            let r: f64 = (0..3).map(|k| a[i * 3 + k] * x[k]).sum();
            assert!((r - [3.0, 2.0, 4.0][i]).abs() < 1e-12);
        }
        let pi = lu.solve_transpose(&[1.0, 0.0, 2.0]);
        for k in 0..3 {
            let r: f64 = (0..3).map(|i| a[i * 3 + k] * pi[i]).sum();
            assert!((r - [1.0, 0.0, 2.0][k]).abs() < 1e-12);
        }
        assert!(Lu::new(2, vec![1.0, 2.0, 2.0, 4.0]).is_none());
    }
}
