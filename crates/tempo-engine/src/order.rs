//! The strategies read from a solved matrix game.

use tempo_sync::Choice;

pub(crate) fn support(index: &[usize], p: &[f64]) -> Vec<(usize, f64)> {
    let mut s: Vec<(usize, f64)> = index
        .iter()
        .zip(p)
        .filter(|(_, p)| **p > 1e-9)
        .map(|(&i, &p)| (i, p))
        .collect();
    s.sort_by(|a, b| b.1.total_cmp(&a.1));
    s
}

/// The strategy over the candidate set, largest probability first,
/// without probabilities below 0.001 (renormalised).
pub(crate) fn strategy(list: &[Choice], index: &[usize], p: &[f64]) -> Vec<(Choice, f64)> {
    let mut s: Vec<(Choice, f64)> = index
        .iter()
        .zip(p)
        .filter(|(_, p)| **p >= 0.001)
        .map(|(&i, &p)| (list[i], p))
        .collect();
    let total: f64 = s.iter().map(|(_, p)| p).sum();
    for (_, p) in &mut s {
        *p /= total;
    }
    s.sort_by(|a, b| b.1.total_cmp(&a.1));
    s
}
