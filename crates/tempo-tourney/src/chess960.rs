//! One Chess960 start position per round, the same on every board.
//!
//! The positions are drawn from a seed with ChaCha8 (`rand_chacha`), one
//! generator for the whole tournament: round 1 gets the first number drawn,
//! round 2 the next one not used yet, and so on, so positions do not repeat
//! (while there are fewer than 960 rounds) and drawing more rounds later
//! keeps the earlier ones. Round 1 equals `tempo chess960 draw --seed S`.
//! The seed and the positions are recorded in the tournament (TRF extension
//! `XT9`), so they can be printed before each round and checked afterwards.
//!
//! Numbers are the standard ones (0..=959, 518 the orthodox set-up); turning
//! them into positions is `tempo_chess::chess960`'s job.
//!
//! ```
//! use tempo_tourney::chess960::draw_rounds;
//! let a = draw_rounds(42, 5);
//! assert_eq!(a.len(), 5);
//! assert_eq!(a[..3], draw_rounds(42, 3)[..]);
//! assert!(a.iter().all(|&n| n < 960));
//! ```

use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

use crate::Tournament;
use crate::model::Chess960Rounds;

/// The number of Chess960 start positions.
pub(crate) const POSITIONS: u16 = 960;

/// Position numbers for rounds 1..=rounds from `seed`.
pub fn draw_rounds(seed: u64, rounds: u32) -> Vec<u16> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut used = [false; POSITIONS as usize];
    let mut out = Vec::with_capacity(rounds as usize);
    for i in 0..rounds {
        if i > 0 && i % u32::from(POSITIONS) == 0 {
            // All 960 used: start a new cycle.
            used = [false; POSITIONS as usize];
        }
        let number = loop {
            let n: u16 = rng.random_range(0..POSITIONS);
            if !used[usize::from(n)] {
                break n;
            }
        };
        used[usize::from(number)] = true;
        out.push(number);
    }
    out
}

/// Why positions cannot be drawn.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Chess960Error {
    #[error("round {0} has no recorded Chess960 position and the tournament has no seed")]
    NoSeed(u32),
    #[error("the tournament's Chess960 seed is {recorded}, not {given}")]
    OtherSeed { recorded: u64, given: u64 },
    /// More rounds than positions: they would repeat.
    #[error("{0} rounds are too many: at most {POSITIONS}, so that no position repeats")]
    TooManyRounds(u32),
}

impl Chess960Rounds {
    /// Records positions for every round up to `rounds` that has none,
    /// drawn from the seed; recorded positions stay as they are.
    pub fn fill_to(&mut self, rounds: u32) -> Result<(), Chess960Error> {
        if rounds > u32::from(POSITIONS) {
            return Err(Chess960Error::TooManyRounds(rounds));
        }
        let missing: Vec<u32> = (1..=rounds)
            .filter(|&r| self.position(r).is_none())
            .collect();
        if missing.is_empty() {
            return Ok(());
        }
        let seed = self.seed.ok_or(Chess960Error::NoSeed(missing[0]))?;
        let drawn = draw_rounds(seed, rounds);
        for r in missing {
            self.positions.push((r, drawn[r as usize - 1]));
        }
        self.positions.sort_by_key(|&(r, _)| r);
        Ok(())
    }
}

impl Tournament {
    /// Makes this a Chess960 tournament with positions from `seed` for
    /// rounds 1..=rounds (default: the number of rounds), keeping positions
    /// already recorded. A different seed than the recorded one is an error.
    pub fn draw_chess960(
        &mut self,
        seed: Option<u64>,
        rounds: u32,
    ) -> Result<&Chess960Rounds, Chess960Error> {
        let record = self.chess960.get_or_insert_with(Chess960Rounds::default);
        match (record.seed, seed) {
            (Some(recorded), Some(given)) if recorded != given => {
                return Err(Chess960Error::OtherSeed { recorded, given });
            }
            (None, Some(given)) => record.seed = Some(given),
            _ => {}
        }
        record.fill_to(rounds)?;
        Ok(record)
    }

    /// The Chess960 position number of a round, if recorded.
    pub fn chess960_position(&self, round: u32) -> Option<u16> {
        self.chess960.as_ref().and_then(|c| c.position(round))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reproducible_distinct_and_prefix_stable() {
        let a = draw_rounds(7, 960);
        let mut sorted = a.clone();
        sorted.sort_unstable();
        sorted.dedup();
        assert_eq!(sorted.len(), 960, "a full cycle uses every position once");
        assert_eq!(draw_rounds(7, 961)[..960], a[..]);
        assert_eq!(draw_rounds(7, 10)[..], a[..10]);
        assert_ne!(draw_rounds(8, 10), draw_rounds(7, 10));
    }

    #[test]
    fn first_round_is_the_plain_seeded_draw() {
        // Same generator and range as tempo_chess::chess960::draw(seed).
        for seed in [0u64, 1, 42, u64::MAX] {
            let mut rng = ChaCha8Rng::seed_from_u64(seed);
            let n: u16 = rng.random_range(0..POSITIONS);
            assert_eq!(draw_rounds(seed, 1), vec![n]);
        }
    }

    #[test]
    fn recorded_in_the_tournament_and_in_trf() {
        let mut t = Tournament::new();
        t.total_rounds = Some(5);
        let drawn = t.draw_chess960(Some(2024), 5).unwrap().clone();
        assert_eq!(drawn.positions.len(), 5);
        let text = t.to_trf().unwrap();
        assert!(text.contains("XT9 seed 2024"), "{text}");
        let mut back = Tournament::from_trf_str(&text).unwrap();
        assert_eq!(back.chess960, Some(drawn.clone()));
        assert_eq!(
            back.draw_chess960(Some(1), 5),
            Err(Chess960Error::OtherSeed {
                recorded: 2024,
                given: 1
            })
        );
        // Drawing more rounds later keeps the first five.
        let more = back.draw_chess960(None, 7).unwrap().clone();
        assert_eq!(more.positions[..5], drawn.positions[..]);
        assert_eq!(more.positions.len(), 7);
    }

    #[test]
    fn hand_entered_positions_need_a_seed_to_extend() {
        let mut c = Chess960Rounds {
            seed: None,
            positions: vec![(1, 518)],
        };
        assert_eq!(c.fill_to(1), Ok(()));
        assert_eq!(c.fill_to(2), Err(Chess960Error::NoSeed(2)));
    }
}
