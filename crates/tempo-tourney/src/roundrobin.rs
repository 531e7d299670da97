//! Round robin by FIDE's Berger tables (Handbook C.05, Annex 1).
//!
//! For an even number `n` of players, player `n` is fixed: in round `r` it
//! meets player `p` with `2p ≡ r + 1 (mod n − 1)`, on board 1, with Black in
//! odd rounds and White in even rounds. On board `k` player `p + k − 1`
//! (White) meets `p − k + 1` (numbers taken mod `n − 1` in `1..n`). This
//! reproduces the published tables exactly (tested for 4 to 14 players).
//! An odd number of players adds a dummy `n + 1`: whoever meets it has the
//! bye.
//!
//! A double round robin repeats the cycle with colours reversed; as C.05
//! recommends, the last two rounds of the first cycle are swapped so that
//! no one gets the same colour three times in a row at the turn.
//!
//! ```
//! use tempo_tourney::roundrobin::{schedule, Pairing};
//! let rounds = schedule(4, false);
//! assert_eq!(rounds[1], vec![Pairing::game(4, 3), Pairing::game(1, 2)]);
//! let odd = schedule(3, false);
//! assert_eq!(odd[0], vec![Pairing::bye(1), Pairing::game(2, 3)]);
//! ```

use serde::Serialize;

use crate::model::PlayerId;

/// One board of a round: a game, or a bye (`black == None`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Pairing {
    pub white: PlayerId,
    pub black: Option<PlayerId>,
}

impl Pairing {
    /// A game.
    pub fn game(white: PlayerId, black: PlayerId) -> Pairing {
        Pairing {
            white,
            black: Some(black),
        }
    }

    /// A bye for `player`.
    pub fn bye(player: PlayerId) -> Pairing {
        Pairing {
            white: player,
            black: None,
        }
    }
}

/// Round `round` (1-based) of the Berger table for an even `n`, board 1 first.
fn berger_round(n: u32, round: u32) -> Vec<(u32, u32)> {
    debug_assert!(n >= 2 && n.is_multiple_of(2) && (1..n).contains(&round));
    let m = n - 1;
    // The player meeting `n`: (r + 1) / 2 in odd rounds, n/2 + r/2 in even.
    let p = if round % 2 == 1 {
        round.div_ceil(2)
    } else {
        n / 2 + round / 2
    };
    let wrap = |x: i64| -> u32 { ((x - 1).rem_euclid(i64::from(m)) + 1) as u32 };
    let mut boards = Vec::with_capacity(n as usize / 2);
    boards.push(if round % 2 == 1 { (p, n) } else { (n, p) });
    for k in 1..n / 2 {
        let white = wrap(i64::from(p) + i64::from(k));
        let black = wrap(i64::from(p) - i64::from(k));
        boards.push((white, black));
    }
    boards
}

/// The pairings of every round for `players` participants (numbered
/// 1..=players), single or double round robin, boards in the table's order.
/// With an odd number the bye is where the dummy's game is in the table
/// (board 1).
pub fn schedule(players: u32, double: bool) -> Vec<Vec<Pairing>> {
    if players < 2 {
        return Vec::new();
    }
    let n = players + players % 2;
    let single: Vec<Vec<Pairing>> = (1..n)
        .map(|r| {
            berger_round(n, r)
                .into_iter()
                .map(|(w, b)| {
                    if b > players {
                        Pairing::bye(w)
                    } else if w > players {
                        Pairing::bye(b)
                    } else {
                        Pairing::game(w, b)
                    }
                })
                .collect()
        })
        .collect();
    if !double {
        return single;
    }
    let mut first = single.clone();
    let len = first.len();
    if len >= 2 {
        first.swap(len - 1, len - 2);
    }
    let second = single.into_iter().map(|round| {
        round
            .into_iter()
            .map(|p| match p.black {
                Some(b) => Pairing::game(b, p.white),
                None => p,
            })
            .collect()
    });
    first.into_iter().chain(second).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// FIDE's published table as "w-b" pairs, one string per round.
    fn table(players: u32) -> Vec<String> {
        schedule(players, false)
            .iter()
            .map(|round| {
                round
                    .iter()
                    .map(|p| format!("{}-{}", p.white, p.black.unwrap()))
                    .collect::<Vec<_>>()
                    .join(", ")
            })
            .collect()
    }

    #[test]
    fn fide_table_4() {
        assert_eq!(table(4), ["1-4, 2-3", "4-3, 1-2", "2-4, 3-1"]);
    }

    #[test]
    fn fide_table_6() {
        assert_eq!(
            table(6),
            [
                "1-6, 2-5, 3-4",
                "6-4, 5-3, 1-2",
                "2-6, 3-1, 4-5",
                "6-5, 1-4, 2-3",
                "3-6, 4-2, 5-1",
            ]
        );
    }

    #[test]
    fn fide_table_8() {
        assert_eq!(
            table(8),
            [
                "1-8, 2-7, 3-6, 4-5",
                "8-5, 6-4, 7-3, 1-2",
                "2-8, 3-1, 4-7, 5-6",
                "8-6, 7-5, 1-4, 2-3",
                "3-8, 4-2, 5-1, 6-7",
                "8-7, 1-6, 2-5, 3-4",
                "4-8, 5-3, 6-2, 7-1",
            ]
        );
    }

    #[test]
    fn fide_table_10() {
        assert_eq!(
            table(10),
            [
                "1-10, 2-9, 3-8, 4-7, 5-6",
                "10-6, 7-5, 8-4, 9-3, 1-2",
                "2-10, 3-1, 4-9, 5-8, 6-7",
                "10-7, 8-6, 9-5, 1-4, 2-3",
                "3-10, 4-2, 5-1, 6-9, 7-8",
                "10-8, 9-7, 1-6, 2-5, 3-4",
                "4-10, 5-3, 6-2, 7-1, 8-9",
                "10-9, 1-8, 2-7, 3-6, 4-5",
                "5-10, 6-4, 7-3, 8-2, 9-1",
            ]
        );
    }

    #[test]
    fn fide_table_12() {
        assert_eq!(
            table(12),
            [
                "1-12, 2-11, 3-10, 4-9, 5-8, 6-7",
                "12-7, 8-6, 9-5, 10-4, 11-3, 1-2",
                "2-12, 3-1, 4-11, 5-10, 6-9, 7-8",
                "12-8, 9-7, 10-6, 11-5, 1-4, 2-3",
                "3-12, 4-2, 5-1, 6-11, 7-10, 8-9",
                "12-9, 10-8, 11-7, 1-6, 2-5, 3-4",
                "4-12, 5-3, 6-2, 7-1, 8-11, 9-10",
                "12-10, 11-9, 1-8, 2-7, 3-6, 4-5",
                "5-12, 6-4, 7-3, 8-2, 9-1, 10-11",
                "12-11, 1-10, 2-9, 3-8, 4-7, 5-6",
                "6-12, 7-5, 8-4, 9-3, 10-2, 11-1",
            ]
        );
    }

    #[test]
    fn fide_table_14_first_rounds() {
        let t = table(14);
        assert_eq!(t[0], "1-14, 2-13, 3-12, 4-11, 5-10, 6-9, 7-8");
        assert_eq!(t[1], "14-8, 9-7, 10-6, 11-5, 12-4, 13-3, 1-2");
        assert_eq!(t[3], "14-9, 10-8, 11-7, 12-6, 13-5, 1-4, 2-3");
    }

    #[test]
    fn everyone_meets_everyone_once() {
        for players in 2..=31 {
            for double in [false, true] {
                let rounds = schedule(players, double);
                let n = players + players % 2;
                let cycles = if double { 2 } else { 1 };
                assert_eq!(rounds.len() as u32, (n - 1) * cycles);
                let mut met = vec![vec![0u32; players as usize + 1]; players as usize + 1];
                let mut whites = vec![0i32; players as usize + 1];
                for round in &rounds {
                    let mut seen = vec![false; players as usize + 1];
                    for p in round {
                        assert!(!seen[p.white as usize]);
                        seen[p.white as usize] = true;
                        if let Some(b) = p.black {
                            assert!(!seen[b as usize]);
                            seen[b as usize] = true;
                            met[p.white as usize][b as usize] += 1;
                            met[b as usize][p.white as usize] += 1;
                            whites[p.white as usize] += 1;
                            whites[b as usize] -= 1;
                        }
                    }
                    assert!(seen[1..].iter().all(|&s| s), "everyone listed each round");
                }
                for (a, row) in met.iter().enumerate().skip(1) {
                    for (b, &count) in row.iter().enumerate().skip(1) {
                        assert_eq!(count, if a == b { 0 } else { cycles });
                    }
                    if double {
                        assert_eq!(whites[a], 0, "double: colours balance");
                    } else {
                        assert!(whites[a].abs() <= 1);
                    }
                }
            }
        }
    }

    #[test]
    fn double_round_robin_never_three_same_colours_at_the_turn() {
        for players in [4, 6, 8, 10, 12] {
            let rounds = schedule(players, true);
            let half = rounds.len() / 2;
            for id in 1..=players {
                let colour = |r: usize| {
                    rounds[r].iter().find_map(|p| {
                        if p.white == id {
                            Some('w')
                        } else if p.black == Some(id) {
                            Some('b')
                        } else {
                            None
                        }
                    })
                };
                for start in [half - 2, half - 1] {
                    let around: Vec<_> = (start..start + 3).map(colour).collect();
                    assert!(
                        !(around[0] == around[1] && around[1] == around[2]),
                        "{players} players, #{id}, from round {}: {around:?}",
                        start + 1
                    );
                }
            }
        }
    }
}
