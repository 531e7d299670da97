//! A tournament as the server keeps it ([`Record`]: the TRF model and the
//! settings TRF cannot hold) and the director's changes to it. Pure: no
//! storage, no HTTP.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use tempo_chess::Color;
use tempo_host::{GameSpec, Variant};
pub use tempo_tourney::System;
use tempo_tourney::model::{AbsenceKind, ByeKind, LateEntry, Withdrawal};
use tempo_tourney::{Player, PlayerId, ResultCode, RoundEntry, Tournament};

use super::{
    MAX_CLUB, MAX_LOG, MAX_PLAYER_NAME, MAX_PLAYERS, MAX_ROUNDS, Refusal, conflict, invalid,
};

/// A player's attendance in a round (the Keizer kinds, and for the Swiss
/// and round robin the requested byes).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Status {
    Present,
    Excused,
    Unexcused,
    ClubDuty,
    HalfPointBye,
    FullPointBye,
}

impl Status {
    pub fn parse(text: &str) -> Result<Status, Refusal> {
        let key: String = text
            .trim()
            .to_ascii_lowercase()
            .chars()
            .map(|c| if c == ' ' || c == '_' { '-' } else { c })
            .collect();
        Ok(match key.as_str() {
            "present" => Status::Present,
            "excused" => Status::Excused,
            "unexcused" => Status::Unexcused,
            "club-duty" | "clubduty" => Status::ClubDuty,
            "half-point-bye" => Status::HalfPointBye,
            "full-point-bye" => Status::FullPointBye,
            _ => {
                return Err(invalid(format!(
                    "status '{}': present, excused, unexcused, club-duty, half-point-bye or full-point-bye",
                    short(text)
                )));
            }
        })
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Status::Present => "present",
            Status::Excused => "excused",
            Status::Unexcused => "unexcused",
            Status::ClubDuty => "club-duty",
            Status::HalfPointBye => "half-point-bye",
            Status::FullPointBye => "full-point-bye",
        }
    }
}

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

impl Record {
    /// Reads a stored tournament.
    pub fn load(trf: &str, settings: &str) -> Result<Record, String> {
        let t = Tournament::from_trf_str(trf).map_err(|e| format!("trf: {e}"))?;
        let s = serde_json::from_str(settings).map_err(|e| format!("settings: {e}"))?;
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
        let paired = self.t.paired_rounds();
        if paired > 0 && self.s.system == System::RoundRobin {
            return Err(conflict(
                "a round robin takes no late entries: its table is fixed at round 1",
            ));
        }
        let id = self.t.players.iter().map(|p| p.id).max().unwrap_or(0) + 1;
        let mut player = Player::new(id, name, rating);
        player.club = club;
        self.t.players.push(player);
        if paired > 0 {
            self.t.late_entries.push(LateEntry {
                player: id,
                first_round: paired + 1,
            });
        }
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
        if self.t.withdrawals.iter().any(|w| w.player == id) {
            return Err(conflict(format!("player {id} has withdrawn already")));
        }
        let after_round = self.t.paired_rounds();
        self.t.withdrawals.push(Withdrawal {
            player: id,
            after_round,
        });
        Ok(after_round)
    }

    /// Records a player's attendance in a round.
    pub fn set_attendance(
        &mut self,
        round: u32,
        id: PlayerId,
        status: Status,
    ) -> Result<(), Refusal> {
        self.player(id)?;
        let total = self.t.total_rounds.unwrap_or(MAX_ROUNDS);
        if round == 0 || round > total.min(MAX_ROUNDS) {
            return Err(invalid(format!("round: 1 to {total}")));
        }
        let keizer = self.s.system == System::Keizer;
        if keizer && matches!(status, Status::HalfPointBye | Status::FullPointBye) {
            return Err(invalid(
                "status: Keizer knows present, excused, unexcused and club-duty",
            ));
        }
        if !self.t.is_active_in(id, round) {
            return Err(conflict(format!(
                "player {id} is not in the tournament in round {round}"
            )));
        }
        let paired = self.t.paired_rounds();
        // A column left blank before the round to pair would read as an
        // absence there: a Swiss or round robin records attendance for
        // the next round at most (Keizer keeps it in XTA lines only).
        if !keizer && round > paired + 1 {
            return Err(conflict(format!(
                "attendance is recorded for the next round ({}) or a paired one",
                paired + 1
            )));
        }
        let entry = self.t.entry(id, round).copied();
        if round <= paired {
            if entry.is_some_and(|e| e.was_paired()) {
                return Err(conflict(format!(
                    "player {id} is paired in round {round}: enter a forfeit as the result instead"
                )));
            }
            if status == Status::Present {
                return Err(conflict(format!(
                    "round {round} is paired without player {id}"
                )));
            }
        }
        for absence in &mut self.t.absences {
            if absence.round == round {
                absence.players.retain(|&p| p != id);
            }
        }
        self.t.absences.retain(|a| !a.players.is_empty());
        let kind = match status {
            Status::Excused => Some(AbsenceKind::Excused),
            Status::Unexcused => Some(AbsenceKind::Unexcused),
            Status::ClubDuty => Some(AbsenceKind::ClubDuty),
            _ => None,
        };
        if let Some(kind) = kind {
            self.t.absences.push(tempo_tourney::Absence {
                round,
                kind,
                players: vec![id],
            });
        }
        let bye = match status {
            Status::Present => None,
            _ if keizer => None,
            Status::HalfPointBye => Some(ByeKind::HalfPoint),
            Status::FullPointBye => Some(ByeKind::FullPoint),
            _ => Some(ByeKind::ZeroPoint),
        };
        let player = self.t.player_mut(id).expect("checked above");
        match bye {
            Some(kind) => player.set_entry(round, RoundEntry::bye(kind)),
            None => {
                if let Some(e) = player.rounds.get_mut(round as usize - 1) {
                    *e = blank();
                }
                while player.rounds.last().is_some_and(|e| *e == blank()) {
                    player.rounds.pop();
                }
            }
        }
        Ok(())
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
        let mut pairs = Vec::new();
        let mut bye = None;
        for p in &self.t.players {
            let Some(e) = p.entry(round) else { continue };
            match (e.opponent, e.colour) {
                (Some(o), Some(Color::White)) => pairs.push((p.id, o)),
                (Some(o), None) if p.id < o => pairs.push((p.id, o)),
                (None, _) if e.result == ResultCode::PairingBye => bye = Some(p.id),
                _ => {}
            }
        }
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
        let e = self.t.entry(board.white, round)?;
        Some(
            match e.result {
                ResultCode::Blank => return None,
                ResultCode::Win | ResultCode::UnratedWin => "1-0",
                ResultCode::Loss | ResultCode::UnratedLoss => "0-1",
                ResultCode::Draw | ResultCode::UnratedDraw => "1/2-1/2",
                ResultCode::ForfeitWin => "+-",
                ResultCode::ForfeitLoss => "-+",
                other => return Some(other.trf_char().to_string()),
            }
            .to_string(),
        )
    }

    /// The first game of rounds 1..=upto without a result: (round, board).
    pub fn first_missing(&self, upto: u32) -> Option<(u32, Board)> {
        (1..=upto).find_map(|round| {
            let boards = self.boards(round)?;
            boards
                .boards
                .into_iter()
                .find(|b| self.result(round, b).is_none())
                .map(|b| (round, b))
        })
    }

    /// Rounds whose every game has a result.
    pub fn complete_rounds(&self) -> u32 {
        let paired = self.t.paired_rounds();
        self.first_missing(paired)
            .map_or(paired, |(round, _)| round - 1)
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
        let (white, black) = match result.trim() {
            "1-0" => (ResultCode::Win, ResultCode::Loss),
            "0-1" => (ResultCode::Loss, ResultCode::Win),
            "1/2-1/2" | "½-½" | "0.5-0.5" | "1/2" | "½" | "=" => {
                (ResultCode::Draw, ResultCode::Draw)
            }
            "+-" => (ResultCode::ForfeitWin, ResultCode::ForfeitLoss),
            "-+" => (ResultCode::ForfeitLoss, ResultCode::ForfeitWin),
            other => {
                return Err(invalid(format!(
                    "result '{}': 1-0, 0-1, 1/2-1/2, +- or -+",
                    short(other)
                )));
            }
        };
        let before = self.result(round, &b);
        if from_game && before.is_some() {
            return Ok(false);
        }
        let set = |t: &mut Tournament, id, opponent, colour, code| {
            if let Some(p) = t.player_mut(id) {
                p.set_entry(round, RoundEntry::game(opponent, colour, code));
            }
        };
        set(&mut self.t, b.white, b.black, Color::White, white);
        set(&mut self.t, b.black, b.white, Color::Black, black);
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

    /// Stores the server game of a board.
    pub fn set_game(&mut self, round: u32, board: u32, game: &str) {
        if let Some(r) = self.s.rounds.iter_mut().find(|r| r.round == round)
            && let Some(b) = r.boards.iter_mut().find(|b| b.board == board)
        {
            b.game_id = Some(game.to_string());
        }
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
    pub fn status(&self, id: PlayerId, round: u32) -> Option<Status> {
        if !self.t.is_active_in(id, round) {
            return None;
        }
        if let Some(kind) = self.t.absence_kind(id, round) {
            return Some(match kind {
                AbsenceKind::Excused => Status::Excused,
                AbsenceKind::Unexcused => Status::Unexcused,
                AbsenceKind::ClubDuty => Status::ClubDuty,
            });
        }
        let keizer = self.s.system == System::Keizer;
        match self.t.requested_bye(id, round)? {
            ByeKind::HalfPoint if keizer => Some(Status::Excused),
            ByeKind::HalfPoint => Some(Status::HalfPointBye),
            ByeKind::FullPoint if keizer => Some(Status::ClubDuty),
            ByeKind::FullPoint => Some(Status::FullPointBye),
            _ => Some(Status::Unexcused),
        }
    }
}

pub(super) fn blank() -> RoundEntry {
    RoundEntry {
        opponent: None,
        colour: None,
        result: ResultCode::Blank,
    }
}
