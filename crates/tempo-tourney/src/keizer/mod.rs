//! The Keizer system for club evenings: ranking values, scoring with
//! re-valuation, and pairing of whoever is present by exact minimum-cost
//! matching.
//!
//! Every number is a [`KeizerSettings`] field; the defaults are the
//! source's (J. H. Keizer's documentation as retold by J. Kehr): values
//! 50, 49, 48, … by place; a win earns the opponent's value, a draw half of
//! it; everyone is credited the own value once; an excused absence earns
//! 2/3 of the own value; after each round all rounds are re-scored with the
//! values of the previous ranking (method A).
//!
//! The worked example of the source, round 1:
//!
//! ```
//! use tempo_tourney::Outcome;
//! use tempo_tourney::keizer::{KeizerSettings, Season};
//! use tempo_chess::Color::{Black, White};
//!
//! let names = ["Johnson", "Petersen", "Baker", "Butcher", "Carter",
//!              "Harrison", "Smith", "Higgins", "White", "Brown"];
//! let mut season = Season::new(names.iter().enumerate().map(|(i, n)| (i as u32 + 1, *n)));
//! use Outcome::*;
//! season.add_round(&[(1, 2, Win), (3, 4, Draw), (5, 6, Loss), (7, 8, Draw), (9, 10, Loss)]).unwrap();
//! let ranking = season.ranking(&KeizerSettings::default(), 1).unwrap();
//! let top: Vec<String> = ranking.standings.iter().take(4)
//!     .map(|s| format!("{} {}", season.name(s.id).unwrap(), s.score)).collect();
//! assert_eq!(top, ["Johnson 99", "Harrison 91", "Brown 83", "Baker 71.5"]);
//! ```

mod from_trf;
mod pairing;
mod ranking;
mod score;
mod settings;

pub use from_trf::{
    pair_tournament, present_players, season_from_tournament, settings_from_tournament, standings,
};
pub use pairing::{Board, Pairing, Relaxation};
pub use ranking::{Ranking, Standing};
pub use score::{Fraction, ParseFractionError, Score};
pub use settings::{
    ByeRule, ColourBalance, ColourTie, KeizerSettings, Method, NonGame, OwnValue, PRESETS,
    RematchRule, SettingError, TieOrder, ValueSeries,
};

use tempo_chess::Color;

use crate::model::{AbsenceKind, Outcome, PlayerId};

/// What one player did in one round.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum RoundOutcome {
    /// A game played over the board (colour if known).
    Game {
        opponent: PlayerId,
        colour: Option<Color>,
        result: Outcome,
    },
    /// Paired, but the opponent did not come: scored like a bye (not
    /// counted as a bye for the bye rule or its cap), no meeting.
    ForfeitWin { opponent: PlayerId },
    /// Paired, but did not come: scored like an unexcused absence.
    ForfeitLoss { opponent: PlayerId },
    /// The pairing-allocated bye (odd number present).
    Bye,
    /// Absent, of a kind (excused, unexcused, club duty).
    Absent(AbsenceKind),
    /// Not yet in the tournament (a round before a late entry).
    NotEntered,
}

/// One participant: starting rank (id), name, rating and rounds so far.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entrant {
    pub id: PlayerId,
    pub name: String,
    pub rating: Option<u16>,
    /// Index 0 = round 1; exactly [`Season::rounds`] entries.
    pub rounds: Vec<RoundOutcome>,
}

/// A Keizer season: the starting list (strongest first) and the rounds
/// played so far. This is the engine's own small input; build it directly
/// or from a TRF [`crate::Tournament`] with [`season_from_tournament`].
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Season {
    /// The starting list, strongest first (its order gives the starting
    /// values).
    pub players: Vec<Entrant>,
    /// The number of completed rounds.
    pub rounds: u32,
}

/// Errors of the Keizer engine.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum KeizerError {
    #[error("player {0} appears twice in the starting list")]
    DuplicatePlayer(PlayerId),
    #[error(
        "round {round}: player {player} has an entry for player {opponent}, who is not in the tournament"
    )]
    UnknownOpponent {
        round: u32,
        player: PlayerId,
        opponent: PlayerId,
    },
    #[error("round {round}: player {player} is paired with itself")]
    SelfPaired { round: u32, player: PlayerId },
    #[error("round {round}: player {player} appears in more than one game")]
    PairedTwice { round: u32, player: PlayerId },
    #[error("round {round}: player {player} has {len} round entries, expected {expected}")]
    WrongRoundCount {
        round: u32,
        player: PlayerId,
        len: usize,
        expected: usize,
    },
    #[error("there is no ranking after round {asked}: only {played} rounds were played")]
    NoSuchRound { asked: u32, played: u32 },
    #[error("player {0} is not in the tournament")]
    UnknownPlayer(PlayerId),
    #[error(
        "round {round}: the game of player {player} has no result yet (enter the round's results, or delete its pairings to pair it again)"
    )]
    MissingResult { round: u32, player: PlayerId },
    #[error("too many players for exact pairing costs ({0} present)")]
    TooManyPlayers(usize),
    #[error(transparent)]
    Setting(#[from] SettingError),
}

impl Season {
    /// A season with this starting list (id, name), strongest first, and no
    /// rounds.
    pub fn new<'a>(players: impl IntoIterator<Item = (PlayerId, &'a str)>) -> Season {
        Season {
            players: players
                .into_iter()
                .map(|(id, name)| Entrant {
                    id,
                    name: name.to_string(),
                    rating: None,
                    rounds: Vec::new(),
                })
                .collect(),
            rounds: 0,
        }
    }

    /// Adds a round of games `(white, black, white's result)`; players not
    /// named are excused absentees (see [`Season::add_round_with`]).
    pub fn add_round(
        &mut self,
        games: &[(PlayerId, PlayerId, Outcome)],
    ) -> Result<(), KeizerError> {
        self.add_round_with(games, None, &[])
    }

    /// Adds a round: games `(white, black, white's result)`, the bye, and
    /// absences; players named nowhere are excused absentees.
    pub fn add_round_with(
        &mut self,
        games: &[(PlayerId, PlayerId, Outcome)],
        bye: Option<PlayerId>,
        absences: &[(PlayerId, AbsenceKind)],
    ) -> Result<(), KeizerError> {
        let round = self.rounds + 1;
        let mut outcome: Vec<Option<RoundOutcome>> = vec![None; self.players.len()];
        let index = |id: PlayerId| self.index_of(id).ok_or(KeizerError::UnknownPlayer(id));
        let mut set = |id: PlayerId, o: RoundOutcome| -> Result<(), KeizerError> {
            let i = index(id)?;
            if outcome[i].is_some() {
                return Err(KeizerError::PairedTwice { round, player: id });
            }
            outcome[i] = Some(o);
            Ok(())
        };
        for &(w, b, result) in games {
            if w == b {
                return Err(KeizerError::SelfPaired { round, player: w });
            }
            set(
                w,
                RoundOutcome::Game {
                    opponent: b,
                    colour: Some(Color::White),
                    result,
                },
            )?;
            set(
                b,
                RoundOutcome::Game {
                    opponent: w,
                    colour: Some(Color::Black),
                    result: result.reversed(),
                },
            )?;
        }
        if let Some(b) = bye {
            set(b, RoundOutcome::Bye)?;
        }
        for &(id, kind) in absences {
            set(id, RoundOutcome::Absent(kind))?;
        }
        for (p, o) in self.players.iter_mut().zip(outcome) {
            p.rounds
                .push(o.unwrap_or(RoundOutcome::Absent(AbsenceKind::Excused)));
        }
        self.rounds = round;
        Ok(())
    }

    /// The name of a player.
    pub fn name(&self, id: PlayerId) -> Option<&str> {
        self.index_of(id).map(|i| self.players[i].name.as_str())
    }

    fn index_of(&self, id: PlayerId) -> Option<usize> {
        self.players.iter().position(|p| p.id == id)
    }

    /// Checks ids, round counts and opponents.
    pub(crate) fn validate(&self) -> Result<(), KeizerError> {
        let mut seen = std::collections::HashSet::new();
        for p in &self.players {
            if !seen.insert(p.id) {
                return Err(KeizerError::DuplicatePlayer(p.id));
            }
        }
        for p in &self.players {
            if p.rounds.len() != self.rounds as usize {
                return Err(KeizerError::WrongRoundCount {
                    round: self.rounds,
                    player: p.id,
                    len: p.rounds.len(),
                    expected: self.rounds as usize,
                });
            }
            for (r, o) in p.rounds.iter().enumerate() {
                let opponent = match *o {
                    RoundOutcome::Game { opponent, .. }
                    | RoundOutcome::ForfeitWin { opponent }
                    | RoundOutcome::ForfeitLoss { opponent } => opponent,
                    _ => continue,
                };
                let round = r as u32 + 1;
                if opponent == p.id {
                    return Err(KeizerError::SelfPaired {
                        round,
                        player: p.id,
                    });
                }
                if !seen.contains(&opponent) {
                    return Err(KeizerError::UnknownOpponent {
                        round,
                        player: p.id,
                        opponent,
                    });
                }
            }
        }
        Ok(())
    }
}
