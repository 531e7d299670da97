//! Move ordering and the strategies read from a solved matrix game.

use tempo_chess::{Color, Position};
use tempo_sync::Choice;

use crate::state::immediate_gain;

/// The choices in search order: the remembered best first, then by what
/// they win at once (captures of the most valuable piece first), else
/// in generation order.
pub(crate) fn ordered(
    pos: &Position,
    color: Color,
    list: Vec<Choice>,
    hint: Option<Choice>,
) -> Vec<Choice> {
    let mut keyed: Vec<(i32, Choice)> = list
        .into_iter()
        .map(|c| {
            let gain = match c {
                _ if Some(c) == hint => i32::MAX,
                Choice::Move(mv) | Choice::Capture(mv) => immediate_gain(pos, color, mv),
                Choice::Decline => 0,
            };
            (gain, c)
        })
        .collect();
    keyed.sort_by_key(|c| std::cmp::Reverse(c.0));
    keyed.into_iter().map(|(_, c)| c).collect()
}

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

pub(crate) fn argmax(p: &[f64]) -> usize {
    let mut best = 0;
    for (i, v) in p.iter().enumerate() {
        if *v > p[best] {
            best = i;
        }
    }
    best
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
