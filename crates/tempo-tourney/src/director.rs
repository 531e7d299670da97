//! The director's changes to a running tournament and the rules each
//! keeps: a board's result ([`BoardResult`]), a player's attendance in a
//! round ([`Attendance`]), late entries, withdrawals, and taking back the
//! last paired round. The server and the command line both go through
//! these, so that a tournament changed in one reads the same in the other.
//!
//! ```
//! use tempo_tourney::director::{Attendance, BoardResult};
//! use tempo_tourney::{System, Tournament};
//!
//! let mut t = Tournament::new();
//! for name in ["Ann", "Bob", "Cy"] {
//!     t.add_player(System::Dutch, name, None).unwrap();
//! }
//! t.set_attendance(System::Dutch, 1, 3, Attendance::HalfPointBye).unwrap();
//! assert_eq!(t.attendance(System::Dutch, 3, 1), Some(Attendance::HalfPointBye));
//! // Ann and Bob are paired in round 1 and Ann wins.
//! t.set_board_result(1, 1, 2, BoardResult::WhiteWins);
//! assert_eq!(t.board_result(1, 1), Some(Ok(BoardResult::WhiteWins)));
//! assert_eq!(t.complete_rounds(), 1);
//! assert_eq!(t.withdraw(2), Ok(1));
//! ```

use std::fmt;
use std::str::FromStr;

use tempo_chess::Color;

use crate::model::{
    Absence, AbsenceKind, ByeKind, LateEntry, Player, PlayerId, ResultCode, RoundEntry, Tournament,
    Withdrawal,
};
use crate::system::System;

/// Characters of an unknown name an error repeats at most.
const MAX_ECHOED: usize = 40;

fn echo(text: &str) -> String {
    text.chars().take(MAX_ECHOED).collect()
}

/// The result of one board, as a director enters it and the standings
/// show it: `1-0`, `0-1`, `1/2-1/2`, `+-` or `-+`.
///
/// ```
/// use tempo_tourney::ResultCode;
/// use tempo_tourney::director::BoardResult;
/// assert_eq!("½-½".parse(), Ok(BoardResult::Draw));
/// assert_eq!(BoardResult::BlackWinsByForfeit.to_string(), "-+");
/// assert_eq!(
///     BoardResult::WhiteWins.codes(),
///     (ResultCode::Win, ResultCode::Loss)
/// );
/// assert!("2-0".parse::<BoardResult>().is_err());
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum BoardResult {
    /// `1-0`.
    WhiteWins,
    /// `0-1`.
    BlackWins,
    /// `1/2-1/2` (also read as `½-½`, `0.5-0.5`, `1/2`, `½`, `=`).
    Draw,
    /// `+-`: Black did not play.
    WhiteWinsByForfeit,
    /// `-+`: White did not play.
    BlackWinsByForfeit,
}

impl BoardResult {
    /// Every result, in the order names are listed.
    #[cfg(test)]
    pub(crate) const ALL: [BoardResult; 5] = [
        BoardResult::WhiteWins,
        BoardResult::BlackWins,
        BoardResult::Draw,
        BoardResult::WhiteWinsByForfeit,
        BoardResult::BlackWinsByForfeit,
    ];

    /// The result's name (its [`Display`](fmt::Display) form).
    pub(crate) fn as_str(self) -> &'static str {
        match self {
            BoardResult::WhiteWins => "1-0",
            BoardResult::BlackWins => "0-1",
            BoardResult::Draw => "1/2-1/2",
            BoardResult::WhiteWinsByForfeit => "+-",
            BoardResult::BlackWinsByForfeit => "-+",
        }
    }

    /// The TRF result codes of White's and Black's entries.
    pub fn codes(self) -> (ResultCode, ResultCode) {
        use ResultCode::*;
        match self {
            BoardResult::WhiteWins => (Win, Loss),
            BoardResult::BlackWins => (Loss, Win),
            BoardResult::Draw => (Draw, Draw),
            BoardResult::WhiteWinsByForfeit => (ForfeitWin, ForfeitLoss),
            BoardResult::BlackWinsByForfeit => (ForfeitLoss, ForfeitWin),
        }
    }

    /// The board's result as White's result code tells it (a game of less
    /// than one move counts as played); `None` for a code no board result
    /// has (blank, byes).
    pub(crate) fn from_white_code(code: ResultCode) -> Option<BoardResult> {
        use ResultCode::*;
        Some(match code {
            Win | UnratedWin => BoardResult::WhiteWins,
            Loss | UnratedLoss => BoardResult::BlackWins,
            Draw | UnratedDraw => BoardResult::Draw,
            ForfeitWin => BoardResult::WhiteWinsByForfeit,
            ForfeitLoss => BoardResult::BlackWinsByForfeit,
            _ => return None,
        })
    }
}

impl fmt::Display for BoardResult {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A text that is no [`BoardResult`].
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("result '{text}': 1-0, 0-1, 1/2-1/2, +- or -+")]
pub struct UnknownResult {
    /// The text as given (trimmed), cut to its first 40 characters.
    pub text: String,
}

impl FromStr for BoardResult {
    type Err = UnknownResult;

    fn from_str(text: &str) -> Result<BoardResult, UnknownResult> {
        Ok(match text.trim() {
            "1-0" => BoardResult::WhiteWins,
            "0-1" => BoardResult::BlackWins,
            "1/2-1/2" | "½-½" | "0.5-0.5" | "1/2" | "½" | "=" => BoardResult::Draw,
            "+-" => BoardResult::WhiteWinsByForfeit,
            "-+" => BoardResult::BlackWinsByForfeit,
            other => return Err(UnknownResult { text: echo(other) }),
        })
    }
}

/// A player's attendance in a round: present, one of Keizer's kinds of
/// absence, or (for the Swiss and round robin) a requested bye.
///
/// ```
/// use tempo_tourney::System;
/// use tempo_tourney::director::Attendance;
/// assert_eq!("Club duty".parse(), Ok(Attendance::ClubDuty));
/// assert_eq!(Attendance::HalfPointBye.to_string(), "half-point-bye");
/// assert!(!Attendance::HalfPointBye.is_known_to(System::Keizer));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Attendance {
    Present,
    Excused,
    Unexcused,
    ClubDuty,
    HalfPointBye,
    FullPointBye,
}

impl Attendance {
    /// Every attendance, in the order names are listed.
    pub const ALL: [Attendance; 6] = [
        Attendance::Present,
        Attendance::Excused,
        Attendance::Unexcused,
        Attendance::ClubDuty,
        Attendance::HalfPointBye,
        Attendance::FullPointBye,
    ];

    /// The attendance's name: `present`, `excused`, `unexcused`,
    /// `club-duty`, `half-point-bye`, `full-point-bye`.
    pub fn as_str(self) -> &'static str {
        match self {
            Attendance::Present => "present",
            Attendance::Excused => "excused",
            Attendance::Unexcused => "unexcused",
            Attendance::ClubDuty => "club-duty",
            Attendance::HalfPointBye => "half-point-bye",
            Attendance::FullPointBye => "full-point-bye",
        }
    }

    /// Whether `system` knows this attendance: Keizer scores absences by
    /// their kind and has no requested byes.
    pub fn is_known_to(self, system: System) -> bool {
        let bye = matches!(self, Attendance::HalfPointBye | Attendance::FullPointBye);
        !(bye && system == System::Keizer)
    }

    /// The kind of absence recorded (`XTA` line), if this is one.
    fn absence(self) -> Option<AbsenceKind> {
        match self {
            Attendance::Excused => Some(AbsenceKind::Excused),
            Attendance::Unexcused => Some(AbsenceKind::Unexcused),
            Attendance::ClubDuty => Some(AbsenceKind::ClubDuty),
            _ => None,
        }
    }

    /// The bye entered in the player's own round column: a Swiss or round
    /// robin reads an absence there (Keizer reads its `XTA` lines only).
    fn bye(self, system: System) -> Option<ByeKind> {
        match self {
            Attendance::Present => None,
            _ if system == System::Keizer => None,
            Attendance::HalfPointBye => Some(ByeKind::HalfPoint),
            Attendance::FullPointBye => Some(ByeKind::FullPoint),
            _ => Some(ByeKind::ZeroPoint),
        }
    }
}

impl fmt::Display for Attendance {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A text that is no [`Attendance`].
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "status '{text}': present, excused, unexcused, club-duty, half-point-bye or full-point-bye"
)]
pub struct UnknownAttendance {
    /// The text as given, cut to its first 40 characters.
    pub text: String,
}

impl FromStr for Attendance {
    type Err = UnknownAttendance;

    /// Reads a name case-insensitively, with spaces or underscores for
    /// hyphens (`Club duty`, `club_duty`), and `clubduty`.
    fn from_str(text: &str) -> Result<Attendance, UnknownAttendance> {
        let key: String = text
            .trim()
            .to_ascii_lowercase()
            .chars()
            .map(|c| if c == ' ' || c == '_' { '-' } else { c })
            .collect();
        if key == "clubduty" {
            return Ok(Attendance::ClubDuty);
        }
        Attendance::ALL
            .into_iter()
            .find(|a| a.as_str() == key)
            .ok_or_else(|| UnknownAttendance { text: echo(text) })
    }
}

/// Why an attendance cannot be recorded.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum AttendanceError {
    #[error("player {0} not found")]
    UnknownPlayer(PlayerId),
    /// Round 0, or a round after the tournament's last.
    #[error("round {round}: not a round of the tournament")]
    NoSuchRound { round: u32 },
    /// The system does not know this attendance
    /// ([`Attendance::is_known_to`]).
    #[error("status: Keizer knows present, excused, unexcused and club-duty")]
    UnknownToSystem {
        system: System,
        attendance: Attendance,
    },
    /// The player entered later or withdrew before the round.
    #[error("player {player} is not in the tournament in round {round}")]
    NotInTournament { player: PlayerId, round: u32 },
    /// A Swiss or round robin records attendance for the next round at
    /// most: a column left blank before the round to pair would read as
    /// an absence there.
    #[error("attendance is recorded for the next round ({next}) or a paired one")]
    BeyondNextRound { next: u32 },
    /// The player has a game in the round: a forfeit is its result.
    #[error("player {player} is paired in round {round}: enter a forfeit as the result instead")]
    Paired { player: PlayerId, round: u32 },
    /// The round is paired without the player, who cannot be present now.
    #[error("round {round} is paired without player {player}")]
    PairedWithout { player: PlayerId, round: u32 },
}

/// Why a player cannot enter.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum EntryError {
    /// A round robin's table is fixed by its players at round 1.
    #[error("a round robin takes no late entries: its table is fixed at round 1")]
    RoundRobinStarted,
}

/// Why a player cannot withdraw.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum WithdrawalError {
    #[error("player {0} not found")]
    UnknownPlayer(PlayerId),
    #[error("player {0} has withdrawn already")]
    AlreadyWithdrawn(PlayerId),
}

/// Why a round's pairing cannot be taken back.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum UnpairError {
    /// The round is not paired (or is round 0).
    #[error("round {round} is not paired")]
    NotPaired { round: u32 },
    /// Only the last paired round can go: later rounds were paired from it.
    #[error("only the last paired round ({last}) can be deleted")]
    NotLast { round: u32, last: u32 },
}

/// A round entry without opponent, colour or result.
fn blank() -> RoundEntry {
    RoundEntry {
        opponent: None,
        colour: None,
        result: ResultCode::Blank,
    }
}

impl Player {
    /// Blanks the entry of `round` (1-based) and drops blank entries from
    /// the end of the line, so that the line is as if never written there.
    pub(crate) fn clear_entry(&mut self, round: u32) {
        if let Some(entry) = round
            .checked_sub(1)
            .and_then(|i| self.rounds.get_mut(i as usize))
        {
            *entry = blank();
        }
        self.trim_blank_tail();
    }

    fn trim_blank_tail(&mut self) {
        while self.rounds.last().is_some_and(|e| *e == blank()) {
            self.rounds.pop();
        }
    }
}

impl Tournament {
    /// The result of the game `white` played as White in `round`: `None`
    /// while it has none, else the board's result, or the code itself if
    /// no board result has it (a bye's).
    pub fn board_result(
        &self,
        round: u32,
        white: PlayerId,
    ) -> Option<Result<BoardResult, ResultCode>> {
        let code = self.entry(white, round)?.result;
        if code == ResultCode::Blank {
            return None;
        }
        Some(BoardResult::from_white_code(code).ok_or(code))
    }

    /// The games and the pairing-allocated bye a round's entries record, in
    /// the order of the player lines: `(white, black)`, or for a game
    /// written without colours `(lower, higher)` starting rank.
    ///
    /// ```
    /// use tempo_chess::Color;
    /// use tempo_tourney::{ByeKind, Player, ResultCode, RoundEntry, Tournament};
    /// let mut t = Tournament::new();
    /// t.players = (1..=3).map(|id| Player::new(id, format!("P{id}"), None)).collect();
    /// t.players[0].set_entry(1, RoundEntry::game(2, Color::Black, ResultCode::Blank));
    /// t.players[1].set_entry(1, RoundEntry::game(1, Color::White, ResultCode::Blank));
    /// t.players[2].set_entry(1, RoundEntry::bye(ByeKind::PairingAllocated));
    /// assert_eq!(t.recorded_games(1), (vec![(2, 1)], Some(3)));
    /// ```
    pub fn recorded_games(&self, round: u32) -> (Vec<(PlayerId, PlayerId)>, Option<PlayerId>) {
        let mut games = Vec::new();
        let mut bye = None;
        for p in &self.players {
            let Some(e) = p.entry(round) else { continue };
            match (e.opponent, e.colour) {
                (Some(o), Some(Color::White)) => games.push((p.id, o)),
                (Some(o), None) if p.id < o => games.push((p.id, o)),
                (None, _) if e.result == ResultCode::PairingBye => bye = Some(p.id),
                _ => {}
            }
        }
        (games, bye)
    }

    /// Enters (or replaces) the result of the game of `white` and `black`
    /// in `round` in both players' entries.
    pub fn set_board_result(
        &mut self,
        round: u32,
        white: PlayerId,
        black: PlayerId,
        result: BoardResult,
    ) {
        let (white_code, black_code) = result.codes();
        if let Some(p) = self.player_mut(white) {
            p.set_entry(round, RoundEntry::game(black, Color::White, white_code));
        }
        if let Some(p) = self.player_mut(black) {
            p.set_entry(round, RoundEntry::game(white, Color::Black, black_code));
        }
    }

    /// The paired rounds whose every game has a result: the rounds before
    /// the first with a game still to be entered.
    pub fn complete_rounds(&self) -> u32 {
        let paired = self.paired_rounds();
        let open = |round| {
            self.players.iter().any(|p| {
                p.entry(round)
                    .is_some_and(|e| e.opponent.is_some() && e.result == ResultCode::Blank)
            })
        };
        (1..=paired)
            .find(|&round| open(round))
            .map_or(paired, |round| round - 1)
    }

    /// Registers a player with the next free starting rank, as a late entry
    /// (from the next round on) once rounds are paired.
    pub fn add_player(
        &mut self,
        system: System,
        name: impl Into<String>,
        rating: Option<u16>,
    ) -> Result<&mut Player, EntryError> {
        let paired = self.paired_rounds();
        if paired > 0 && system == System::RoundRobin {
            return Err(EntryError::RoundRobinStarted);
        }
        let id = self.players.iter().map(|p| p.id).max().unwrap_or(0) + 1;
        if paired > 0 {
            self.late_entries.push(LateEntry {
                player: id,
                first_round: paired + 1,
            });
        }
        self.players.push(Player::new(id, name, rating));
        Ok(self.players.last_mut().expect("just pushed"))
    }

    /// The player leaves: plays no round after the last paired one, which
    /// is returned.
    pub fn withdraw(&mut self, id: PlayerId) -> Result<u32, WithdrawalError> {
        if self.player(id).is_none() {
            return Err(WithdrawalError::UnknownPlayer(id));
        }
        if self.withdrawals.iter().any(|w| w.player == id) {
            return Err(WithdrawalError::AlreadyWithdrawn(id));
        }
        let after_round = self.paired_rounds();
        self.withdrawals.push(Withdrawal {
            player: id,
            after_round,
        });
        Ok(after_round)
    }

    /// Records a player's attendance in a round: an absence's kind in an
    /// `XTA` line, and for a Swiss or round robin the bye in the player's
    /// own column. `Present` takes back what was recorded.
    pub fn set_attendance(
        &mut self,
        system: System,
        round: u32,
        id: PlayerId,
        attendance: Attendance,
    ) -> Result<(), AttendanceError> {
        self.check_attendance(system, round, id, attendance)?;
        for absence in &mut self.absences {
            if absence.round == round {
                absence.players.retain(|&p| p != id);
            }
        }
        self.absences.retain(|a| !a.players.is_empty());
        if let Some(kind) = attendance.absence() {
            self.absences.push(Absence {
                round,
                kind,
                players: vec![id],
            });
        }
        let player = self.player_mut(id).expect("checked above");
        match attendance.bye(system) {
            Some(kind) => player.set_entry(round, RoundEntry::bye(kind)),
            None => player.clear_entry(round),
        }
        Ok(())
    }

    /// Whether [`Tournament::set_attendance`] may record `attendance`.
    fn check_attendance(
        &self,
        system: System,
        round: u32,
        id: PlayerId,
        attendance: Attendance,
    ) -> Result<(), AttendanceError> {
        if self.player(id).is_none() {
            return Err(AttendanceError::UnknownPlayer(id));
        }
        if round == 0 || self.total_rounds.is_some_and(|total| round > total) {
            return Err(AttendanceError::NoSuchRound { round });
        }
        if !attendance.is_known_to(system) {
            return Err(AttendanceError::UnknownToSystem { system, attendance });
        }
        if !self.is_active_in(id, round) {
            return Err(AttendanceError::NotInTournament { player: id, round });
        }
        let paired = self.paired_rounds();
        if system != System::Keizer && round > paired + 1 {
            return Err(AttendanceError::BeyondNextRound { next: paired + 1 });
        }
        if round <= paired {
            if self.entry(id, round).is_some_and(RoundEntry::was_paired) {
                return Err(AttendanceError::Paired { player: id, round });
            }
            if attendance == Attendance::Present {
                return Err(AttendanceError::PairedWithout { player: id, round });
            }
        }
        Ok(())
    }

    /// A player's attendance in a round as recorded (an absence's kind, or
    /// a requested bye read as `system` counts it); `None` if nothing is
    /// recorded or the player is not in the tournament then.
    pub fn attendance(&self, system: System, id: PlayerId, round: u32) -> Option<Attendance> {
        if !self.is_active_in(id, round) {
            return None;
        }
        if let Some(kind) = self.absence_kind(id, round) {
            return Some(match kind {
                AbsenceKind::Excused => Attendance::Excused,
                AbsenceKind::Unexcused => Attendance::Unexcused,
                AbsenceKind::ClubDuty => Attendance::ClubDuty,
            });
        }
        // Keizer scores a half-point bye as excused and a full-point bye
        // as club duty.
        let keizer = system == System::Keizer;
        Some(match self.requested_bye(id, round)? {
            ByeKind::HalfPoint if keizer => Attendance::Excused,
            ByeKind::HalfPoint => Attendance::HalfPointBye,
            ByeKind::FullPoint if keizer => Attendance::ClubDuty,
            ByeKind::FullPoint => Attendance::FullPointBye,
            _ => Attendance::Unexcused,
        })
    }

    /// Whether `round` is the last paired round, which
    /// [`Tournament::unpair_last`] can take back.
    pub fn check_unpair(&self, round: u32) -> Result<(), UnpairError> {
        let last = self.paired_rounds();
        if round == 0 || round > last {
            return Err(UnpairError::NotPaired { round });
        }
        if round != last {
            return Err(UnpairError::NotLast { round, last });
        }
        Ok(())
    }

    /// Takes back the pairing (and any results) of the last paired round,
    /// so that it can be paired again. `bye` is the player the pairing gave
    /// the round's bye, whose entry need not tell it (a round robin's free
    /// round is a zero-point bye, as an absence is); byes asked for before
    /// the pairing stay.
    pub fn unpair_last(&mut self, round: u32, bye: Option<PlayerId>) -> Result<(), UnpairError> {
        self.check_unpair(round)?;
        for p in &mut self.players {
            let paired = p.entry(round).is_some_and(RoundEntry::was_paired);
            if paired || bye == Some(p.id) {
                p.clear_entry(round);
            } else {
                p.trim_blank_tail();
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests;
