//! Exact maximum-weight matching on general graphs (Edmonds' blossom
//! algorithm, O(n³)), and minimum-cost perfect matching built on it.
//!
//! The implementation follows the primal-dual method as described by Galil
//! ("Efficient algorithms for finding maximum matching in graphs", ACM
//! Computing Surveys 1986) and the well-known description by J. van Rantwijk:
//! vertex and blossom dual variables, S/T labels, blossom shrinking and
//! expansion, and the four kinds of dual adjustment (δ₁…δ₄).
//!
//! Weights are generic ([`Weight`]): any exact integer type works (`i32`,
//! `i64`, `i128` are provided; a wider integer type only has to implement the
//! trait). With integer weights every quantity the algorithm computes stays
//! integral, so the result is exactly optimal — there is no floating point.
//!
//! ```
//! use tempo_tourney::matching::{max_weight_matching, Mode};
//!
//! // A triangle with a pendant edge: the best matching takes 1-2 and 3-0.
//! let edges = [(0, 1, 5i64), (1, 2, 6), (2, 0, 5), (0, 3, 4)];
//! let m = max_weight_matching(4, &edges, Mode::MaxWeight).unwrap();
//! assert_eq!(m.mate(1), Some(2));
//! assert_eq!(m.mate(0), Some(3));
//! assert_eq!(m.total_weight(&edges), 10);
//! ```

mod blossom;

use std::fmt::Debug;
use std::ops::{Add, Sub};

use thiserror::Error;

/// An exact, totally ordered weight the blossom algorithm can compute with.
///
/// The algorithm only adds, subtracts, compares, and halves values that are
/// known to be even (the slack of an edge between two outer vertices is
/// always even when all weights are integers). Implement this for a wide
/// integer type to match with weights beyond `i128`.
pub trait Weight: Copy + Ord + Debug + Add<Output = Self> + Sub<Output = Self> {
    /// The additive identity.
    const ZERO: Self;
    /// The unit (used to make minimum-cost weights strictly positive).
    const ONE: Self;
    /// `self / 2`, called only on even values.
    fn half(self) -> Self;
}

macro_rules! impl_weight {
    ($($t:ty),*) => {$(
        impl Weight for $t {
            const ZERO: Self = 0;
            const ONE: Self = 1;
            fn half(self) -> Self {
                debug_assert!(self % 2 == 0, "halving an odd slack");
                self / 2
            }
        }
    )*};
}
impl_weight!(i32, i64, i128);

/// What the matching maximises.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// The largest total weight, whatever the number of edges.
    MaxWeight,
    /// The largest number of edges first (a perfect matching when one
    /// exists), and among those the largest total weight.
    MaxCardinality,
}

/// Invalid input to the matching functions.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum MatchingError {
    /// An edge names a vertex outside `0..vertex_count`.
    #[error("edge {edge} names vertex {vertex}, but the graph has {vertex_count} vertices")]
    VertexOutOfRange {
        edge: usize,
        vertex: usize,
        vertex_count: usize,
    },
    /// An edge joins a vertex to itself.
    #[error("edge {edge} is a loop on vertex {vertex}")]
    SelfLoop { edge: usize, vertex: usize },
}

/// A matching: for each vertex its partner, if any.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Matching {
    mate: Vec<Option<usize>>,
}

impl Matching {
    /// The partner of vertex `v`, or `None` if `v` is unmatched.
    pub fn mate(&self, v: usize) -> Option<usize> {
        self.mate.get(v).copied().flatten()
    }

    /// The matched pairs `(u, v)` with `u < v`, ordered by `u`.
    pub fn pairs(&self) -> Vec<(usize, usize)> {
        self.mate
            .iter()
            .enumerate()
            .filter_map(|(u, m)| m.filter(|&v| u < v).map(|v| (u, v)))
            .collect()
    }

    /// The number of matched pairs.
    #[cfg(test)]
    pub(crate) fn len(&self) -> usize {
        self.mate.iter().filter(|m| m.is_some()).count() / 2
    }

    /// Whether no vertex is matched.
    #[cfg(test)]
    pub(crate) fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Whether every vertex is matched.
    pub(crate) fn is_perfect(&self) -> bool {
        self.mate.iter().all(Option::is_some)
    }

    /// The number of vertices of the graph.
    #[cfg(test)]
    pub(crate) fn vertex_count(&self) -> usize {
        self.mate.len()
    }

    /// The total weight of the matched edges, looked up in `edges` (when
    /// parallel edges exist, the heaviest one between a pair counts).
    pub fn total_weight<W: Weight>(&self, edges: &[(usize, usize, W)]) -> W {
        let mut total = W::ZERO;
        for (u, v) in self.pairs() {
            let best = edges
                .iter()
                .filter(|&&(a, b, _)| (a, b) == (u, v) || (a, b) == (v, u))
                .map(|&(_, _, w)| w)
                .max();
            if let Some(w) = best {
                total = total + w;
            }
        }
        total
    }
}

fn validate<W>(vertex_count: usize, edges: &[(usize, usize, W)]) -> Result<(), MatchingError> {
    for (edge, &(u, v, _)) in edges.iter().enumerate() {
        for vertex in [u, v] {
            if vertex >= vertex_count {
                return Err(MatchingError::VertexOutOfRange {
                    edge,
                    vertex,
                    vertex_count,
                });
            }
        }
        if u == v {
            return Err(MatchingError::SelfLoop { edge, vertex: u });
        }
    }
    Ok(())
}

/// A maximum-weight matching of the graph with vertices `0..vertex_count`
/// and the given weighted edges (in [`Mode::MaxCardinality`], a
/// maximum-weight matching among those of maximum cardinality).
///
/// Edges with non-positive weight are never used in [`Mode::MaxWeight`];
/// in [`Mode::MaxCardinality`] any weights are allowed. Sums of two weights
/// must fit in `W`.
pub fn max_weight_matching<W: Weight>(
    vertex_count: usize,
    edges: &[(usize, usize, W)],
    mode: Mode,
) -> Result<Matching, MatchingError> {
    validate(vertex_count, edges)?;
    if mode == Mode::MaxCardinality {
        // Shift weights to be positive; with cardinality fixed first, a
        // constant shift changes no comparison between matchings of the
        // same size, and the solver's cardinality mode handles the rest.
        if let Some(min) = edges.iter().map(|e| e.2).min()
            && min <= W::ZERO
        {
            let shift = W::ONE - min;
            let shifted: Vec<_> = edges.iter().map(|&(u, v, w)| (u, v, w + shift)).collect();
            let mate = blossom::solve(vertex_count, &shifted, true);
            return Ok(Matching { mate });
        }
    }
    let mate = blossom::solve(vertex_count, edges, mode == Mode::MaxCardinality);
    Ok(Matching { mate })
}

/// A minimum-cost perfect matching, or `None` if the graph has no perfect
/// matching. Costs may be any values of `W` whose pairwise differences fit.
///
/// ```
/// use tempo_tourney::matching::min_cost_perfect_matching;
///
/// // Four players on a line: pairing neighbours costs 1 + 1.
/// let edges: Vec<(usize, usize, i64)> = (0..4)
///     .flat_map(|i| (i + 1..4).map(move |j| (i, j, ((j - i) * (j - i)) as i64)))
///     .collect();
/// let m = min_cost_perfect_matching(4, &edges).unwrap().unwrap();
/// assert_eq!(m.pairs(), vec![(0, 1), (2, 3)]);
/// ```
pub fn min_cost_perfect_matching<W: Weight>(
    vertex_count: usize,
    edges: &[(usize, usize, W)],
) -> Result<Option<Matching>, MatchingError> {
    validate(vertex_count, edges)?;
    let Some(max_cost) = edges.iter().map(|e| e.2).max() else {
        return Ok((vertex_count == 0).then(|| Matching { mate: Vec::new() }));
    };
    // Maximise (max_cost + 1 − cost) ≥ 1 among maximum-cardinality matchings.
    let weights: Vec<_> = edges
        .iter()
        .map(|&(u, v, c)| (u, v, max_cost - c + W::ONE))
        .collect();
    let mate = blossom::solve(vertex_count, &weights, true);
    let matching = Matching { mate };
    Ok(matching.is_perfect().then_some(matching))
}

#[cfg(test)]
mod tests;
