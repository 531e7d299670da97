//! A tournament as the server keeps it ([`Record`]: the TRF model and the
//! settings TRF cannot hold) and the director's changes to it. Pure: no
//! storage, no HTTP.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use tempo_host::{GameSpec, Variant};
pub(crate) use tempo_tourney::System;
use tempo_tourney::director::{Attendance, AttendanceError, BoardResult, UnknownResult};
use tempo_tourney::{Player, PlayerId, Tournament};
use utoipa::ToSchema;

use super::{
    MAX_CLUB, MAX_LOG, MAX_PLAYER_NAME, MAX_PLAYERS, MAX_ROUNDS, Refusal, conflict, invalid,
};

/// One board of a paired round.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Board {
    pub board: u32,
    pub white: PlayerId,
    pub black: PlayerId,
    /// The server game the board is played in, if online.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub game_id: Option<String>,
}

/// A round as paired here: its boards in order (TRF does not keep the
/// order) and the bye.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct RoundRecord {
    pub round: u32,
    pub boards: Vec<Board>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bye: Option<PlayerId>,
    /// How its games are played, if on the server (kept so that games made
    /// again for aborted boards, the round's view and its print know it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mode: Option<RoundMode>,
}

/// How a round's games are played on the server.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum RoundMode {
    /// Each member at their own device: boards whose two players have
    /// accounts get a game.
    Online,
    /// At the club's tables: every board gets a table game (members and
    /// guests, two phones as hidden inputs and one display).
    Table,
}

/// A change to a result that had one, or a result an online game gave.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct LogEntry {
    /// Milliseconds since the epoch.
    pub at: u64,
    /// The director's name, or `game <id>`.
    pub by: String,
    pub round: u32,
    pub board: u32,
    pub from: Option<String>,
    pub to: String,
}

/// What TRF does not hold.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Settings {
    pub system: System,
    pub variant: Variant,
    pub chess960: bool,
    #[serde(default)]
    pub clock: Option<String>,
    #[serde(default)]
    pub rules: BTreeMap<String, String>,
    #[serde(default)]
    pub double: bool,
    /// Player (starting rank) → server username.
    #[serde(default)]
    pub usernames: BTreeMap<PlayerId, String>,
    /// Players who are guests, not club members.
    #[serde(default)]
    pub guests: std::collections::BTreeSet<PlayerId>,
    #[serde(default)]
    pub rounds: Vec<RoundRecord>,
    #[serde(default)]
    pub log: Vec<LogEntry>,
    /// Player → registration facts for the rating previews (birth year,
    /// DWZ and index, FIDE K).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub ratings: BTreeMap<PlayerId, super::RatingFacts>,
}

/// A tournament: the TRF model and the settings beside it.
#[derive(Debug, Clone)]
pub struct Record {
    pub t: Tournament,
    pub s: Settings,
}

/// A round's boards and bye, as shown.
#[derive(Debug, Clone)]
pub struct RoundBoards {
    pub boards: Vec<Board>,
    pub bye: Option<PlayerId>,
}

pub(super) fn short(text: &str) -> String {
    text.chars().take(40).collect()
}

pub(super) fn check_text(what: &str, text: &str, max: usize) -> Result<String, Refusal> {
    let text = text.trim();
    if text.is_empty() || text.chars().count() > max || text.chars().any(char::is_control) {
        return Err(invalid(format!(
            "{what}: 1 to {max} characters, no control characters"
        )));
    }
    Ok(text.to_string())
}

/// Why a stored tournament does not read back.
#[derive(Debug, thiserror::Error)]
pub enum DamagedRecord {
    /// Its TRF text does not read.
    #[error("trf: {0}")]
    Trf(#[from] tempo_tourney::trf::ParseError),
    /// Its settings are not the JSON this server writes.
    #[error("settings: {0}")]
    Settings(#[from] serde_json::Error),
}

impl Record {
    /// Reads a stored tournament.
    pub fn load(trf: &str, settings: &str) -> Result<Record, DamagedRecord> {
        let t = Tournament::from_trf_str(trf)?;
        let s = serde_json::from_str(settings).map_err(DamagedRecord::Settings)?;
        Ok(Record { t, s })
    }

    /// The texts to store: TRF (checked to read back) and settings.
    pub fn to_texts(&self) -> Result<(String, String), Refusal> {
        let trf = self.t.to_trf().map_err(|e| invalid(e.to_string()))?;
        Tournament::from_trf_str(&trf)
            .map_err(|e| invalid(format!("the TRF would not read back: {e}")))?;
        let settings = serde_json::to_string(&self.s).map_err(|e| invalid(e.to_string()))?;
        Ok((trf, settings))
    }

    pub fn name(&self) -> String {
        self.t.name().unwrap_or("").to_string()
    }

    /// Records Chess960 positions up to `round` (drawn from the seed).
    pub(super) fn ensure_position(&mut self, round: u32) -> Result<(), Refusal> {
        if !self.s.chess960 || self.t.chess960_position(round).is_some() {
            return Ok(());
        }
        let record = self.t.chess960.get_or_insert_with(Default::default);
        if record.seed.is_none() {
            record.seed = Some(rand::random());
        }
        record.fill_to(round).map_err(|e| conflict(e.to_string()))
    }

    /// The player with starting rank `id`, or 404.
    pub fn player(&self, id: PlayerId) -> Result<&Player, Refusal> {
        self.t
            .player(id)
            .ok_or_else(|| Refusal::NotFound(format!("player {id}")))
    }

    /// Registers a player (a late entry once rounds are paired); their
    /// starting rank.
    pub fn add_player(
        &mut self,
        name: &str,
        rating: Option<u32>,
        username: Option<&str>,
        club: Option<&str>,
        guest: bool,
    ) -> Result<PlayerId, Refusal> {
        if self.t.players.len() >= MAX_PLAYERS {
            return Err(conflict(format!("at most {MAX_PLAYERS} players")));
        }
        let name = check_text("name", name, MAX_PLAYER_NAME)?;
        let rating = match rating {
            Some(r) if r > 9999 => return Err(invalid("rating: 0 to 9999")),
            Some(r) => Some(r as u16),
            None => None,
        };
        let club = club.map(|c| check_text("club", c, MAX_CLUB)).transpose()?;
        if let Some(username) = username {
            crate::domain::accounts::check_name(username).map_err(|e| invalid(e.to_string()))?;
            if self
                .s
                .usernames
                .values()
                .any(|u| u.eq_ignore_ascii_case(username))
            {
                return Err(conflict(format!("user {username} is registered already")));
            }
        }
        let player = self
            .t
            .add_player(self.s.system, name, rating)
            .map_err(|e| conflict(e.to_string()))?;
        player.club = club;
        let id = player.id;
        if let Some(username) = username {
            self.s.usernames.insert(id, username.to_string());
        }
        if guest {
            self.s.guests.insert(id);
        }
        Ok(id)
    }

    /// Players who must not be paired with each other (family, one team):
    /// TRF's `XXP` line, kept by the Dutch and Keizer pairings.
    pub fn forbid(&mut self, players: &[PlayerId]) -> Result<(), Refusal> {
        let mut distinct = players.to_vec();
        distinct.sort_unstable();
        distinct.dedup();
        if !(2..=MAX_PLAYERS).contains(&distinct.len()) {
            return Err(invalid("players: at least 2 different ones"));
        }
        for &id in players {
            self.player(id)?;
        }
        if self.t.forbidden_pairs.len() >= MAX_PLAYERS {
            return Err(conflict(format!("at most {MAX_PLAYERS} forbidden groups")));
        }
        let mut players = players.to_vec();
        players.sort_unstable();
        players.dedup();
        self.t.forbidden_pairs.push(tempo_tourney::ForbiddenPairs {
            rounds: None,
            players,
        });
        Ok(())
    }

    /// The player leaves: plays no round after the last paired one.
    pub fn withdraw(&mut self, id: PlayerId) -> Result<u32, Refusal> {
        self.player(id)?;
        self.t.withdraw(id).map_err(|e| conflict(e.to_string()))
    }

    /// Records a player's attendance in a round.
    pub fn set_attendance(
        &mut self,
        round: u32,
        id: PlayerId,
        status: Attendance,
    ) -> Result<(), Refusal> {
        self.player(id)?;
        let total = self.t.total_rounds.unwrap_or(MAX_ROUNDS);
        let out_of_range = || invalid(format!("round: 1 to {total}"));
        if round > MAX_ROUNDS {
            return Err(out_of_range());
        }
        self.t
            .set_attendance(self.s.system, round, id, status)
            .map_err(|e| match e {
                AttendanceError::NoSuchRound { .. } => out_of_range(),
                AttendanceError::UnknownToSystem { system, attendance } => invalid(format!(
                    "status {attendance}: a {} tournament takes {}",
                    system.as_str(),
                    super::attendance_statuses(system).join(", ")
                )),
                AttendanceError::UnknownPlayer(_) => Refusal::NotFound(format!("player {id}")),
                _ => conflict(e.to_string()),
            })
    }

    /// The boards of a paired round (as paired here, else as the TRF shows
    /// them, by the higher score before the round, then starting rank).
    pub fn boards(&self, round: u32) -> Option<RoundBoards> {
        if round == 0 || round > self.t.paired_rounds() {
            return None;
        }
        if let Some(r) = self.s.rounds.iter().find(|r| r.round == round) {
            return Some(RoundBoards {
                boards: r.boards.clone(),
                bye: r.bye,
            });
        }
        let (mut pairs, bye) = self.t.recorded_games(round);
        let before = |id| self.t.score_after(id, round - 1);
        pairs.sort_by_key(|&(w, b)| (std::cmp::Reverse(before(w).max(before(b))), w.min(b)));
        let boards = pairs
            .into_iter()
            .zip(1..)
            .map(|((white, black), board)| Board {
                board,
                white,
                black,
                game_id: None,
            })
            .collect();
        Some(RoundBoards { boards, bye })
    }

    /// The result of a board as `1-0`, `0-1`, `1/2-1/2`, `+-`, `-+`, or
    /// `None` while it has none.
    pub fn result(&self, round: u32, board: &Board) -> Option<String> {
        Some(match self.t.board_result(round, board.white)? {
            Ok(result) => result.to_string(),
            Err(code) => code.trf_char().to_string(),
        })
    }

    /// Rounds whose every game has a result.
    pub fn complete_rounds(&self) -> u32 {
        self.t.complete_rounds()
    }

    /// Enters (or corrects) a board's result. A game's result (`by` a
    /// game) does not replace one the director entered. Whether it changed.
    pub fn set_result(
        &mut self,
        round: u32,
        board: u32,
        result: &str,
        by: &str,
        at: u64,
        from_game: bool,
    ) -> Result<bool, Refusal> {
        let boards = self
            .boards(round)
            .ok_or_else(|| Refusal::NotFound(format!("round {round}")))?;
        let b = boards
            .boards
            .iter()
            .find(|b| b.board == board)
            .ok_or_else(|| Refusal::NotFound(format!("board {board} of round {round}")))?
            .clone();
        let result: BoardResult = result
            .parse()
            .map_err(|e: UnknownResult| invalid(e.to_string()))?;
        if !from_game && (self.plays_as(b.white, by) || self.plays_as(b.black, by)) {
            return Err(Refusal::Forbidden(format!(
                "you play on board {board} of round {round}: another director must enter its result"
            )));
        }
        let before = self.result(round, &b);
        if from_game && before.is_some() {
            return Ok(false);
        }
        self.t.set_board_result(round, b.white, b.black, result);
        let after = self.result(round, &b);
        if after == before {
            return Ok(false);
        }
        if before.is_some() || from_game {
            if self.s.log.len() >= MAX_LOG {
                self.s.log.remove(0);
            }
            self.s.log.push(LogEntry {
                at,
                by: by.to_string(),
                round,
                board,
                from: before,
                to: after.unwrap_or_default(),
            });
        }
        Ok(true)
    }

    /// Whether player `id` is registered with the account `user`.
    fn plays_as(&self, id: PlayerId, user: &str) -> bool {
        self.s
            .usernames
            .get(&id)
            .is_some_and(|name| name.eq_ignore_ascii_case(user))
    }

    /// Stores the server game of a board.
    pub fn set_game(&mut self, round: u32, board: u32, game: &str) {
        if let Some(r) = self.s.rounds.iter_mut().find(|r| r.round == round)
            && let Some(b) = r.boards.iter_mut().find(|b| b.board == board)
        {
            b.game_id = Some(game.to_string());
        }
    }

    /// Records how a paired round's games are played.
    pub fn set_mode(&mut self, round: u32, mode: RoundMode) {
        if let Some(r) = self.s.rounds.iter_mut().find(|r| r.round == round) {
            r.mode = Some(mode);
        }
    }

    /// How a round's games are played on the server, if they are.
    pub fn mode(&self, round: u32) -> Option<RoundMode> {
        self.s.rounds.iter().find(|r| r.round == round)?.mode
    }

    /// The games' spec for a round (its Chess960 position).
    pub fn game_spec(&self, round: u32) -> GameSpec {
        // Orthodox rules from a Chess960 position are Chess960.
        let variant = match self.s.variant {
            Variant::Standard if self.s.chess960 => Variant::Chess960,
            other => other,
        };
        GameSpec {
            variant,
            clock: self.s.clock.clone(),
            fen: None,
            chess960: if self.s.chess960 {
                self.t.chess960_position(round)
            } else {
                None
            },
            rules: self.s.rules.clone(),
        }
    }

    /// A player's attendance in a round, if one was recorded.
    pub fn status(&self, id: PlayerId, round: u32) -> Option<Attendance> {
        self.t.attendance(self.s.system, id, round)
    }
}
