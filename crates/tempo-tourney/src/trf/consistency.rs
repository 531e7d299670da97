//! The one consistency check of a tournament read from TRF, used by every
//! command that reads one: the two lines of a game must tell the same game,
//! and a file without players is not a tournament.

use crate::model::{Inconsistency, Problem, Tournament};
use crate::{PlayerId, Points, ResultCode};

use super::SlotKind;

/// A tournament file that contradicts itself, named by its place.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ConsistencyError {
    /// No `001` line at all (an empty file, or not TRF).
    #[error("no player line ('001'): this is not a tournament file")]
    NoPlayers,
    /// Two players' entries for one round disagree.
    #[error("line {line}, columns {first}-{last}: round {round}: {text}")]
    Contradiction {
        /// 1-based line of the reporting player.
        line: usize,
        /// The round's columns on that line.
        first: usize,
        last: usize,
        round: u32,
        /// Both players and what they disagree on.
        text: String,
        /// The contradiction itself.
        inconsistency: Inconsistency,
    },
}

/// A game paired in an earlier round whose result is not entered.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "line {line}, columns {first}-{last}: round {round}: the game of player {white} and player {black} has no result; enter it before pairing the next round"
)]
pub struct MissingResult {
    /// 1-based line of the lower-numbered player.
    pub line: usize,
    pub first: usize,
    pub last: usize,
    pub round: u32,
    /// The two players (starting ranks), lower first.
    pub white: PlayerId,
    pub black: PlayerId,
}

/// A finding that does not stop a command but deserves the user's eye.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ConsistencyWarning {
    /// The points column differs from the score the results give (with or
    /// without acceleration points).
    #[error(
        "line {line}, columns 81-84: player {player} ({name}) has {written} points in the file, but the results give {computed}"
    )]
    PointsDisagree {
        line: usize,
        player: PlayerId,
        name: String,
        written: String,
        computed: String,
    },
}

/// The columns of round `round`'s entry on a player line (TRF16: 10 per
/// round from column 92; opponent, colour and result).
pub fn round_columns(round: u32) -> (usize, usize) {
    let first = 92 + 10 * (round as usize - 1);
    (first, first + 7)
}

/// Whether two players' result codes for their game tell one outcome.
fn results_agree(mine: ResultCode, theirs: ResultCode) -> bool {
    use ResultCode::*;
    matches!(
        (mine, theirs),
        (Win | UnratedWin, Loss | UnratedLoss)
            | (Loss | UnratedLoss, Win | UnratedWin)
            | (Draw | UnratedDraw, Draw | UnratedDraw)
            | (ForfeitWin, ForfeitLoss)
            | (ForfeitLoss, ForfeitWin)
            | (ForfeitLoss, ForfeitLoss)
            | (Blank, Blank)
    )
}

impl Tournament {
    /// The 1-based line of player `id` in the file read (none for a player
    /// added since).
    pub(crate) fn player_line(&self, id: PlayerId) -> Option<usize> {
        self.layout
            .slots
            .iter()
            .position(|slot| matches!(&slot.kind, SlotKind::Player(_, p) if p.id == id))
            .map(|index| index + 1)
    }

    /// Checks that the file is a tournament whose lines agree: at least one
    /// player; each game's two entries name each other, have opposite
    /// colours, agree on whether it was played and on its result. The first
    /// contradiction is returned, with its line, columns and both players.
    pub fn check_consistency(&self) -> Result<(), ConsistencyError> {
        if self.players.is_empty() {
            return Err(ConsistencyError::NoPlayers);
        }
        let Some(inconsistency) = self.all_inconsistencies().into_iter().next() else {
            return Ok(());
        };
        let (first, last) = round_columns(inconsistency.round);
        Err(ConsistencyError::Contradiction {
            line: self.player_line(inconsistency.player).unwrap_or(0),
            first,
            last,
            round: inconsistency.round,
            text: self.describe(&inconsistency),
            inconsistency,
        })
    }

    /// Checks that every game of rounds `1..=round` has a result, as a
    /// pairing of the next round needs: the first game without one.
    pub fn check_results_entered(&self, round: u32) -> Result<(), MissingResult> {
        for p in &self.players {
            for (i, entry) in p.rounds.iter().enumerate().take(round as usize) {
                let Some(o) = entry.opponent.filter(|&o| o > p.id) else {
                    continue;
                };
                if entry.result == ResultCode::Blank {
                    let round = i as u32 + 1;
                    let (first, last) = round_columns(round);
                    return Err(MissingResult {
                        line: self.player_line(p.id).unwrap_or(0),
                        first,
                        last,
                        round,
                        white: p.id,
                        black: o,
                    });
                }
            }
        }
        Ok(())
    }

    /// What deserves a warning: points columns the results do not give
    /// (after the last paired round, or with byes entered beyond it, with or
    /// without acceleration points). A
    /// column that is zero or blank for every player is not filled in (as
    /// pairing programs' inputs often are), so it is not compared.
    pub fn consistency_warnings(&self) -> Vec<ConsistencyWarning> {
        let filled = self
            .players
            .iter()
            .any(|p| p.points.is_some_and(|points| points != Points::ZERO));
        if !filled {
            return Vec::new();
        }
        let last = self.paired_rounds();
        self.players
            .iter()
            .filter_map(|p| {
                let written = p.points?;
                let computed = self.score_after(p.id, last);
                // Byes already entered for a round not yet paired may be
                // counted, and acceleration points may be included.
                let with_byes = self.score_after(p.id, self.rounds_in_file());
                let acceleration = self.acceleration(p.id, last);
                let accepted = [
                    computed,
                    computed + acceleration,
                    with_byes,
                    with_byes + acceleration,
                ];
                (!accepted.contains(&written)).then(|| ConsistencyWarning::PointsDisagree {
                    line: self.player_line(p.id).unwrap_or(0),
                    player: p.id,
                    name: p.name.clone(),
                    written: written.to_string(),
                    computed: computed.to_string(),
                })
            })
            .collect()
    }

    /// The structural contradictions plus results that disagree.
    fn all_inconsistencies(&self) -> Vec<Inconsistency> {
        let mut out = self.inconsistencies();
        for p in &self.players {
            for (i, entry) in p.rounds.iter().enumerate() {
                let round = i as u32 + 1;
                let Some(o) = entry.opponent.filter(|&o| o > p.id) else {
                    continue;
                };
                let Some(back) = self.entry(o, round).filter(|b| b.opponent == Some(p.id)) else {
                    continue;
                };
                if !results_agree(entry.result, back.result) {
                    out.push(Inconsistency {
                        round,
                        player: p.id,
                        opponent: o,
                        problem: Problem::ResultsDisagree(entry.result, back.result),
                    });
                }
            }
        }
        out.sort_by_key(|i| (self.player_line(i.player), i.round));
        out
    }

    /// The inconsistency with both players' names.
    fn describe(&self, i: &Inconsistency) -> String {
        let name = |id: PlayerId| {
            self.player(id)
                .map(|p| format!("player {id} ({})", p.name))
                .unwrap_or_else(|| format!("player {id} (not listed)"))
        };
        let (p, o) = (name(i.player), name(i.opponent));
        match i.problem {
            Problem::UnknownOpponent => {
                format!("{p} lists opponent {}, who has no player line", i.opponent)
            }
            Problem::OpponentDisagrees(Some(x)) => {
                format!("{p} lists {o} as opponent, but {o} lists {x}")
            }
            Problem::OpponentDisagrees(None) => {
                format!("{p} lists {o} as opponent, but {o} has no opponent")
            }
            Problem::SameColour => format!("{p} and {o} both have the same colour"),
            Problem::PlayedDisagrees => {
                format!("{p} and {o} disagree on whether their game was played")
            }
            Problem::ResultsDisagree(mine, theirs) => format!(
                "{p} has result '{}' and {o} has '{}': the results contradict each other",
                mine.trf_char(),
                theirs.trf_char()
            ),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(id: u32, rounds: &str) -> String {
        let name = format!("Player {id}");
        let base = format!("001 {id:>4}      {name:<33}{:33}{:>4} {id:>4}", "", "0.0");
        assert_eq!(base.len(), 89);
        format!("{base}{rounds}")
    }

    fn tournament(lines: &[String]) -> Tournament {
        let mut text = String::from("012 Test\nXXR 3\n");
        for l in lines {
            text.push_str(l);
            text.push('\n');
        }
        Tournament::from_trf_str(&text).unwrap_or_else(|e| panic!("{e}\n{text}"))
    }

    #[test]
    fn both_players_won_is_a_contradiction_with_place_and_names() {
        let t = tournament(&[line(1, "  0002 w 1"), line(2, "  0001 b 1")]);
        let err = t.check_consistency().unwrap_err().to_string();
        assert_eq!(
            err,
            "line 3, columns 92-99: round 1: player 1 (Player 1) has result '1' and player 2 (Player 2) has '1': the results contradict each other"
        );
    }

    #[test]
    fn same_colour_and_wrong_opponent_are_contradictions() {
        let t = tournament(&[line(1, "  0002 w 1"), line(2, "  0001 w 0")]);
        assert!(
            t.check_consistency()
                .unwrap_err()
                .to_string()
                .contains("both have the same colour")
        );
        let t = tournament(&[
            line(1, "  0004 w 1"),
            line(2, "  0003 w 1"),
            line(3, "  0002 b 0"),
            line(4, "  0002 b 0"),
        ]);
        let err = t.check_consistency().unwrap_err().to_string();
        assert!(err.contains("player 1 (Player 1) lists player 4 (Player 4) as opponent, but player 4 (Player 4) lists 2"), "{err}");
    }

    #[test]
    fn agreeing_results_and_double_forfeits_pass() {
        let t = tournament(&[
            line(1, "  0002 w =  0003 b -"),
            line(2, "  0001 b =  0000 - H"),
            line(3, "  0000 - U  0001 w -"),
        ]);
        assert_eq!(t.check_consistency(), Ok(()));
    }

    #[test]
    fn a_game_without_result_stops_the_next_pairing() {
        let t = tournament(&[line(1, "  0002 w  "), line(2, "  0001 b  ")]);
        assert_eq!(t.check_consistency(), Ok(()));
        assert_eq!(
            t.check_results_entered(1).unwrap_err().to_string(),
            "line 3, columns 92-99: round 1: the game of player 1 and player 2 has no result; enter it before pairing the next round"
        );
        assert_eq!(t.check_results_entered(0), Ok(()));
    }

    #[test]
    fn a_file_without_players_is_no_tournament() {
        let t = Tournament::from_trf_str("this is not\na TRF file\n").unwrap();
        assert_eq!(t.check_consistency(), Err(ConsistencyError::NoPlayers));
    }
}
