//! Colour allocation (C.04.3 section 5) and board order (C.04.2 / 3.x).

use tempo_chess::Color;

use super::prep::{Prepared, prefs_compatible};

/// Whether `a` ranks above `b` by (accelerated) score, then pairing number.
fn ranks_above(a: &Prepared, b: &Prepared) -> bool {
    (a.score, std::cmp::Reverse(a.rank)) > (b.score, std::cmp::Reverse(b.rank))
}

/// The colours of the two players in the most recent round in which they
/// had different colours, looking back through played games only (5.2.3).
fn last_difference(p: &Prepared, o: &Prepared) -> Option<(Color, Color)> {
    p.colours
        .iter()
        .rev()
        .zip(o.colours.iter().rev())
        .find(|(a, b)| a != b)
        .map(|(a, b)| (*a, *b))
}

/// 5.2.1-5.2.4: the colour `p` gets against `o` when the preferences decide
/// it; `None` when only rank and the initial colour can (5.2.5).
fn by_preferences(p: &Prepared, o: &Prepared) -> Option<Color> {
    if prefs_compatible(p.pref, o.pref) {
        // 5.2.1: both preferences can be granted.
        return p.pref.or(o.pref.map(Color::other));
    }
    // 5.2.2: the stronger preference wins (absolute beats strong beats
    // mild; between absolutes the larger colour difference).
    if p.absolute() && (p.imbalance > o.imbalance || !o.absolute()) {
        return p.pref;
    }
    if o.absolute() && (o.imbalance > p.imbalance || !p.absolute()) {
        return o.pref.map(Color::other);
    }
    if p.strong && !o.strong {
        return p.pref;
    }
    if o.strong && !p.strong {
        return o.pref.map(Color::other);
    }
    // 5.2.3: alternate from the most recent round with different colours.
    last_difference(p, o).map(|(_, theirs)| theirs)
}

/// The colour of `p` against `o` (C.04.3 5.2).
pub(crate) fn colour_of(p: &Prepared, o: &Prepared, initial: Color) -> Color {
    if let Some(c) = by_preferences(p, o) {
        return c;
    }
    let o_higher = ranks_above(o, p);
    match p.pref {
        // 5.2.5: by the higher-ranked player's pairing number: odd numbers
        // (even rank index) get the initial colour.
        None => {
            let (higher, mine_if_higher) = if o_higher { (o, false) } else { (p, true) };
            let higher_colour = if higher.rank % 2 == 0 {
                initial
            } else {
                initial.other()
            };
            if mine_if_higher {
                higher_colour
            } else {
                higher_colour.other()
            }
        }
        // 5.2.4: grant the higher-ranked player's preference.
        Some(pref) => {
            if o_higher {
                o.pref.map_or(pref, Color::other)
            } else {
                pref
            }
        }
    }
}

/// Board order key (C.04.2 D.8 style, as the Dutch rules prescribe):
/// the higher player's score, then the lower player's score, then the
/// higher player's rank — all without acceleration.
pub(crate) fn board_key(
    a: &Prepared,
    b: &Prepared,
) -> (std::cmp::Reverse<u32>, std::cmp::Reverse<u32>, usize) {
    let a_higher = (a.plain, std::cmp::Reverse(a.rank)) > (b.plain, std::cmp::Reverse(b.rank));
    let (h, l) = if a_higher { (a, b) } else { (b, a) };
    (
        std::cmp::Reverse(h.plain),
        std::cmp::Reverse(l.plain),
        h.rank,
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dutch::prep::Float;

    fn player(rank: usize, score: u32, colours: &[Color]) -> Prepared {
        let white = colours.iter().filter(|c| **c == Color::White).count() as u32;
        let black = colours.len() as u32 - white;
        let last_two_same =
            colours.len() >= 2 && colours[colours.len() - 1] == colours[colours.len() - 2];
        let imbalance = white.abs_diff(black);
        let lower = if white > black {
            Color::Black
        } else {
            Color::White
        };
        let pref = if imbalance > 0 && !(last_two_same && imbalance <= 1) {
            Some(lower)
        } else {
            colours.last().map(|c| c.other())
        };
        let repeated = if last_two_same {
            colours.last().copied()
        } else {
            None
        };
        Prepared {
            index: rank,
            id: rank as u32 + 1,
            rank,
            score,
            plain: score,
            pref,
            imbalance,
            repeated,
            strong: repeated.is_none() && imbalance == 1,
            bye_eligible: true,
            played_games: colours.len() as u32,
            float1: Float::None,
            float2: Float::None,
            colours: colours.to_vec(),
        }
    }

    use Color::{Black as B, White as W};

    #[test]
    fn round_one_follows_the_initial_colour_and_rank() {
        let (a, b) = (player(0, 0, &[]), player(5, 0, &[]));
        assert_eq!(colour_of(&a, &b, W), W);
        assert_eq!(colour_of(&b, &a, W), B);
        let (c, d) = (player(1, 0, &[]), player(6, 0, &[]));
        assert_eq!(
            colour_of(&c, &d, W),
            B,
            "even pairing number gets the other colour"
        );
        assert_eq!(colour_of(&c, &d, B), W);
    }

    #[test]
    fn preferences_then_strength_then_history() {
        // Both granted.
        assert_eq!(colour_of(&player(0, 10, &[W]), &player(1, 10, &[B]), W), B);
        // Strong (CD -1) beats mild (CD 0) for the same colour.
        let strong = player(3, 10, &[B, W, B]);
        let mild = player(0, 10, &[W, B]);
        assert_eq!(colour_of(&strong, &mild, W), W);
        assert_eq!(colour_of(&mild, &strong, W), B);
        // Same mild preference: alternate from the last round with different colours.
        let x = player(0, 10, &[W, B]);
        let y = player(1, 10, &[W, B]);
        assert_eq!(x.pref, y.pref);
        assert_eq!(colour_of(&x, &y, W), colour_of(&y, &x, W).other());
    }

    #[test]
    fn board_order_by_scores_then_rank() {
        let (a, b, c, d) = (
            player(0, 20, &[]),
            player(3, 10, &[]),
            player(1, 15, &[]),
            player(2, 15, &[]),
        );
        assert!(board_key(&a, &b) < board_key(&c, &d));
        assert_eq!(board_key(&a, &b), board_key(&b, &a));
    }
}
