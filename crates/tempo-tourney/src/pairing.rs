//! Pairing the next round of a tournament with any [`System`]: the checks
//! before pairing, the system's engine, and one [`Pairing`] shape for all
//! of them — what `tempo pair` prints and the server stores.
//!
//! [`pair_next`] reads the [`Tournament`] and changes nothing;
//! [`Pairing::write_to`] enters the pairing into the players' round
//! entries (games without results, the bye, a round robin's forfeits).
//!
//! ```
//! use tempo_tourney::pairing::{Options, pair_next};
//! use tempo_tourney::{ByeKind, Player, System, Tournament};
//!
//! let mut t = Tournament::new();
//! t.players = (1..=3).map(|id| Player::new(id, format!("P{id}"), None)).collect();
//! let pairing = pair_next(&t, System::RoundRobin, &Options::default()).unwrap();
//! // Berger table for 3 (4 with a dummy): 1 has the free round, 2 plays 3.
//! assert_eq!(pairing.boards, [(2, 3)]);
//! let bye = pairing.bye.unwrap();
//! assert_eq!((bye.player, bye.kind), (1, ByeKind::ZeroPoint));
//! pairing.write_to(&mut t);
//! assert_eq!(t.paired_rounds(), 1);
//! assert_eq!(t.total_rounds, Some(3));
//! ```

use std::fmt;

use tempo_chess::Color;

use crate::dutch::{self, DutchError};
use crate::keizer::{self, KeizerError, KeizerSettings, Relaxation};
use crate::model::{ByeKind, PlayerId, ResultCode, RoundEntry, Tournament};
use crate::roundrobin;
use crate::system::System;
use crate::trf::MissingResult;

/// What pairing needs besides the tournament and its system.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Options {
    /// A round robin plays the Berger table twice, colours reversed.
    pub double_round_robin: bool,
    /// Keizer's settings; `None` takes the tournament's own (`XTK` lines,
    /// [`keizer::settings_from_tournament`]).
    pub keizer: Option<KeizerSettings>,
    /// The most rounds a tournament may have (a server's limit); `None`
    /// for no limit.
    pub max_rounds: Option<u32>,
}

/// The player without an opponent in a round, and the kind of bye.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Bye {
    pub player: PlayerId,
    /// [`ByeKind::PairingAllocated`] for the Dutch and Keizer systems;
    /// [`ByeKind::ZeroPoint`] for a round robin's free round, which scores
    /// nothing (C.05).
    pub kind: ByeKind,
}

/// A board decided by forfeit when it is paired: a round robin keeps its
/// table, so a board with one absent player is lost by that player.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Forfeit {
    /// The board, 1-based, as in [`Pairing::boards`].
    pub board: u32,
    /// The side that was present and wins.
    pub winner: Color,
}

/// Something the pairing had to give way on; it still stands.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PairingWarning {
    /// Keizer's method B did not settle on a stable ranking; the last pass
    /// was used.
    RankingUnsettled { after_round: u32 },
    /// A Keizer rule could not be kept in this round.
    Relaxed { round: u32, relaxation: Relaxation },
}

impl fmt::Display for PairingWarning {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PairingWarning::RankingUnsettled { after_round } => write!(
                f,
                "method B did not settle on a stable ranking after round {after_round}; the last pass is used"
            ),
            PairingWarning::Relaxed { round, relaxation } => {
                write!(f, "round {round}: {relaxation}")
            }
        }
    }
}

/// A round's pairing, the same shape for every system.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Pairing {
    pub system: System,
    /// The round paired (the one after [`Tournament::paired_rounds`]).
    pub round: u32,
    /// `(white, black)` by starting rank, board 1 first.
    pub boards: Vec<(PlayerId, PlayerId)>,
    pub bye: Option<Bye>,
    /// Boards decided at pairing (only a round robin has them).
    pub forfeits: Vec<Forfeit>,
    /// The number of rounds this pairing fixes: a round robin's table
    /// length, given with its first round.
    pub total_rounds: Option<u32>,
    pub warnings: Vec<PairingWarning>,
}

/// Why the next round cannot be paired.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PairingError {
    /// The round would pass [`Options::max_rounds`].
    #[error("at most {max} rounds")]
    RoundLimit { max: u32 },
    /// The Dutch system needs the number of rounds (its last-round rules).
    #[error("the total number of rounds is not given: add an 'XXR <rounds>' or '142' line")]
    TotalRoundsUnknown,
    /// Every round of the tournament is paired.
    #[error("all {total} rounds are paired already")]
    AllRoundsPaired { total: u32 },
    /// A game of an earlier round has no result (Dutch, round robin;
    /// Keizer's own check is [`KeizerError::MissingResult`]).
    #[error(transparent)]
    MissingResult(#[from] MissingResult),
    /// A round robin of fewer than two players.
    #[error("a round robin needs at least 2 players")]
    TooFewPlayers,
    /// A round robin's table is longer than [`Options::max_rounds`].
    #[error("more than {max} rounds")]
    TableTooLong { rounds: u32, max: u32 },
    /// The Dutch engine refused (no valid pairing, bad input).
    #[error("round {round}: {error}")]
    Dutch { round: u32, error: DutchError },
    /// The tournament's Keizer settings (`XTK` lines) do not read.
    #[error("keizer: {0}")]
    KeizerSettings(KeizerError),
    /// The Keizer engine refused (a result missing, a bad season).
    #[error(transparent)]
    Keizer(KeizerError),
    /// Nobody is left to play a game in the round.
    #[error("round {round}: nobody to pair")]
    NobodyToPair { round: u32 },
}

/// Pairs the round after the last paired one of `t` with `system`, after
/// the checks every system shares: the round limit, the number of rounds,
/// and a result for every game of the rounds before.
pub fn pair_next(
    t: &Tournament,
    system: System,
    options: &Options,
) -> Result<Pairing, PairingError> {
    let round = t.paired_rounds() + 1;
    check_round(t, system, options, round)?;
    let pairing = match system {
        System::Dutch => pair_dutch(t, round)?,
        System::Keizer => pair_keizer(t, round, options)?,
        System::RoundRobin => pair_round_robin(t, round, options)?,
    };
    if pairing.boards.is_empty() {
        return Err(PairingError::NobodyToPair { round });
    }
    Ok(pairing)
}

fn check_round(
    t: &Tournament,
    system: System,
    options: &Options,
    round: u32,
) -> Result<(), PairingError> {
    if let Some(max) = options.max_rounds
        && round > max
    {
        return Err(PairingError::RoundLimit { max });
    }
    // A round robin's first round fixes the number of rounds by its table.
    let fixed_by_table = system == System::RoundRobin && round == 1;
    match t.total_rounds {
        None if system == System::Dutch => return Err(PairingError::TotalRoundsUnknown),
        Some(total) if round > total && !fixed_by_table => {
            return Err(PairingError::AllRoundsPaired { total });
        }
        _ => {}
    }
    // Keizer's season reader checks this itself and names the game.
    if system != System::Keizer {
        t.check_results_entered(round - 1)?;
    }
    Ok(())
}

fn pair_dutch(t: &Tournament, round: u32) -> Result<Pairing, PairingError> {
    let dutch_error = |error| PairingError::Dutch { round, error };
    let input = dutch::input_for_round(t, round).map_err(dutch_error)?;
    let pairing = dutch::pair(&input).map_err(dutch_error)?;
    Ok(Pairing {
        system: System::Dutch,
        round,
        boards: pairing.boards,
        bye: pairing.bye.map(|player| Bye {
            player,
            kind: ByeKind::PairingAllocated,
        }),
        forfeits: Vec::new(),
        total_rounds: None,
        warnings: Vec::new(),
    })
}

fn pair_keizer(t: &Tournament, round: u32, options: &Options) -> Result<Pairing, PairingError> {
    let settings = match options.keizer {
        Some(settings) => settings,
        None => keizer::settings_from_tournament(t).map_err(PairingError::KeizerSettings)?,
    };
    let pairing = keizer::pair_tournament(t, &settings).map_err(PairingError::Keizer)?;
    debug_assert_eq!(
        pairing.round, round,
        "Keizer pairs the round after the paired ones"
    );
    let mut warnings = Vec::new();
    if !pairing.ranking.converged {
        warnings.push(PairingWarning::RankingUnsettled {
            after_round: pairing.ranking.after_round,
        });
    }
    warnings.extend(
        pairing
            .relaxed
            .into_iter()
            .map(|relaxation| PairingWarning::Relaxed { round, relaxation }),
    );
    Ok(Pairing {
        system: System::Keizer,
        round,
        boards: pairing.boards.iter().map(|b| (b.white, b.black)).collect(),
        bye: pairing.bye.map(|player| Bye {
            player,
            kind: ByeKind::PairingAllocated,
        }),
        forfeits: Vec::new(),
        total_rounds: None,
        warnings,
    })
}

/// Round `round` of the Berger table for the players by starting rank;
/// a board with one absent or withdrawn player is a forfeit.
fn pair_round_robin(
    t: &Tournament,
    round: u32,
    options: &Options,
) -> Result<Pairing, PairingError> {
    let mut ids: Vec<PlayerId> = t.players.iter().map(|p| p.id).collect();
    ids.sort_unstable();
    if ids.len() < 2 {
        return Err(PairingError::TooFewPlayers);
    }
    let table = roundrobin::schedule(ids.len() as u32, options.double_round_robin);
    let rounds = table.len() as u32;
    if round == 1
        && let Some(max) = options.max_rounds
        && rounds > max
    {
        return Err(PairingError::TableTooLong { rounds, max });
    }
    let Some(schedule) = table.get(round as usize - 1) else {
        return Err(PairingError::AllRoundsPaired { total: rounds });
    };
    let id = |number: PlayerId| ids[number as usize - 1];
    let away = |player| {
        !t.is_active_in(player, round)
            || t.absence_kind(player, round).is_some()
            || t.requested_bye(player, round).is_some()
    };
    let mut pairing = Pairing {
        system: System::RoundRobin,
        round,
        boards: Vec::new(),
        bye: None,
        forfeits: Vec::new(),
        total_rounds: (round == 1).then_some(rounds),
        warnings: Vec::new(),
    };
    for game in schedule {
        let Some(black) = game.black else {
            pairing.bye = Some(Bye {
                player: id(game.white),
                kind: ByeKind::ZeroPoint,
            });
            continue;
        };
        let (white, black) = (id(game.white), id(black));
        pairing.boards.push((white, black));
        let board = pairing.boards.len() as u32;
        let winner = match (away(white), away(black)) {
            (false, true) => Some(Color::White),
            (true, false) => Some(Color::Black),
            _ => None,
        };
        if let Some(winner) = winner {
            pairing.forfeits.push(Forfeit { board, winner });
        }
    }
    Ok(pairing)
}

impl Pairing {
    /// The forfeit decided on a board (1-based) at pairing, if any.
    pub(crate) fn forfeit(&self, board: u32) -> Option<Forfeit> {
        self.forfeits.iter().copied().find(|f| f.board == board)
    }

    /// Enters the pairing into `t`: each board's two games without a result
    /// (a forfeit's result where one is decided), the bye's entry, and the
    /// number of rounds a round robin's table fixes.
    pub fn write_to(&self, t: &mut Tournament) {
        if let Some(total) = self.total_rounds {
            t.total_rounds = Some(total);
        }
        for (&(white, black), board) in self.boards.iter().zip(1..) {
            let (white_result, black_result) = match self.forfeit(board) {
                Some(Forfeit {
                    winner: Color::White,
                    ..
                }) => (ResultCode::ForfeitWin, ResultCode::ForfeitLoss),
                Some(Forfeit {
                    winner: Color::Black,
                    ..
                }) => (ResultCode::ForfeitLoss, ResultCode::ForfeitWin),
                None => (ResultCode::Blank, ResultCode::Blank),
            };
            if let Some(p) = t.player_mut(white) {
                p.set_entry(
                    self.round,
                    RoundEntry::game(black, Color::White, white_result),
                );
            }
            if let Some(p) = t.player_mut(black) {
                p.set_entry(
                    self.round,
                    RoundEntry::game(white, Color::Black, black_result),
                );
            }
        }
        if let Some(bye) = self.bye
            && let Some(p) = t.player_mut(bye.player)
        {
            p.set_entry(self.round, RoundEntry::bye(bye.kind));
        }
    }
}

#[cfg(test)]
mod tests;
