//! The tournament model: players, their round-by-round entries, byes,
//! absences, withdrawals, late entries, forbidden pairs, accelerations, the
//! number of rounds, the initial colour and the point system.
//!
//! A [`Tournament`] is what a TRF file says (see [`crate::trf`]); everything
//! a pairing engine or a standings table needs is derived from it by the
//! methods here, so that the rules are written once.

use serde::{Deserialize, Serialize};
use tempo_chess::Color;

use crate::points::{PointSystem, Points};

/// A player's starting rank (TRF columns 5-8), 1-based. Opponents are named
/// by it.
pub type PlayerId = u32;

/// A round's result code, exactly as TRF16 / TRF-2026 know them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum ResultCode {
    /// `1`: won over the board.
    Win,
    /// `=`: drawn over the board.
    Draw,
    /// `0`: lost over the board.
    Loss,
    /// `+`: won by forfeit.
    ForfeitWin,
    /// `-`: lost by forfeit.
    ForfeitLoss,
    /// `W`: won, game lasted less than one move (not rated, but played).
    UnratedWin,
    /// `D`: drawn, game lasted less than one move.
    UnratedDraw,
    /// `L`: lost, game lasted less than one move.
    UnratedLoss,
    /// `H`: half-point bye (requested).
    HalfPointBye,
    /// `F`: full-point bye.
    FullPointBye,
    /// `U`: pairing-allocated bye.
    PairingBye,
    /// `Z`: zero-point bye (known absence).
    ZeroPointBye,
    /// blank: equivalent to `Z`.
    Blank,
}

impl ResultCode {
    /// Reads a TRF result character (letters case-insensitive).
    pub(crate) fn from_trf_char(c: char) -> Option<ResultCode> {
        use ResultCode::*;
        Some(match c.to_ascii_uppercase() {
            '1' => Win,
            '=' => Draw,
            '0' => Loss,
            '+' => ForfeitWin,
            '-' => ForfeitLoss,
            'W' => UnratedWin,
            'D' => UnratedDraw,
            'L' => UnratedLoss,
            'H' => HalfPointBye,
            'F' => FullPointBye,
            'U' => PairingBye,
            'Z' => ZeroPointBye,
            ' ' => Blank,
            _ => return None,
        })
    }

    /// The TRF character.
    pub fn trf_char(self) -> char {
        use ResultCode::*;
        match self {
            Win => '1',
            Draw => '=',
            Loss => '0',
            ForfeitWin => '+',
            ForfeitLoss => '-',
            UnratedWin => 'W',
            UnratedDraw => 'D',
            UnratedLoss => 'L',
            HalfPointBye => 'H',
            FullPointBye => 'F',
            PairingBye => 'U',
            ZeroPointBye => 'Z',
            Blank => ' ',
        }
    }

    /// A result of a game over the board (`1 = 0 W D L`); whether the game
    /// really took place also needs an opponent and a colour, see
    /// [`RoundEntry::is_played`].
    pub(crate) fn is_over_the_board(self) -> bool {
        use ResultCode::*;
        matches!(
            self,
            Win | Draw | Loss | UnratedWin | UnratedDraw | UnratedLoss
        )
    }

    /// The outcome for the player as win / draw / loss, ignoring how it came
    /// about (byes included: `F` `U` `+` are wins, `H` a draw, `Z` `-` blank
    /// losses).
    pub fn outcome(self) -> Outcome {
        use ResultCode::*;
        match self {
            Win | ForfeitWin | UnratedWin | FullPointBye | PairingBye => Outcome::Win,
            Draw | UnratedDraw | HalfPointBye => Outcome::Draw,
            Loss | ForfeitLoss | UnratedLoss | ZeroPointBye | Blank => Outcome::Loss,
        }
    }

    /// The kind of bye, if this code is one (`H F U Z` and blank).
    pub(crate) fn bye_kind(self) -> Option<ByeKind> {
        match self {
            ResultCode::HalfPointBye => Some(ByeKind::HalfPoint),
            ResultCode::FullPointBye => Some(ByeKind::FullPoint),
            ResultCode::PairingBye => Some(ByeKind::PairingAllocated),
            ResultCode::ZeroPointBye | ResultCode::Blank => Some(ByeKind::ZeroPoint),
            _ => None,
        }
    }
}

/// A round's result from one player's point of view: win, draw or loss.
///
/// The one result type of the crate: [`ResultCode::outcome`] reads it from a
/// TRF code, the Dutch engine's history ([`crate::dutch::RoundRecord`]) and
/// the Keizer season ([`crate::keizer::Season::add_round`]) take it.
///
/// ```
/// use tempo_tourney::{Outcome, ResultCode};
/// assert_eq!(ResultCode::HalfPointBye.outcome(), Outcome::Draw);
/// assert_eq!(Outcome::Win.reversed(), Outcome::Loss);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Outcome {
    Win,
    Draw,
    Loss,
}

impl Outcome {
    /// The opponent's view of the same game.
    pub fn reversed(self) -> Outcome {
        match self {
            Outcome::Win => Outcome::Loss,
            Outcome::Draw => Outcome::Draw,
            Outcome::Loss => Outcome::Win,
        }
    }
}

/// The kinds of bye.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum ByeKind {
    /// `H`: requested half-point bye.
    HalfPoint,
    /// `F`: full-point bye.
    FullPoint,
    /// `U`: the pairing-allocated bye (odd number of players).
    PairingAllocated,
    /// `Z` / blank: absent, zero points.
    ZeroPoint,
}

impl ByeKind {
    /// The result code a round entry for this bye carries.
    pub(crate) fn result_code(self) -> ResultCode {
        match self {
            ByeKind::HalfPoint => ResultCode::HalfPointBye,
            ByeKind::FullPoint => ResultCode::FullPointBye,
            ByeKind::PairingAllocated => ResultCode::PairingBye,
            ByeKind::ZeroPoint => ResultCode::ZeroPointBye,
        }
    }
}

/// One player's entry for one round (a 10-column block of a `001` line).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct RoundEntry {
    /// The scheduled opponent (`None` for `0000` or blanks).
    pub opponent: Option<PlayerId>,
    /// The colour (`None` for `-` or blank).
    pub colour: Option<Color>,
    /// The result code.
    pub result: ResultCode,
}

impl RoundEntry {
    /// An entry for a game against `opponent`.
    pub fn game(opponent: PlayerId, colour: Color, result: ResultCode) -> RoundEntry {
        RoundEntry {
            opponent: Some(opponent),
            colour: Some(colour),
            result,
        }
    }

    /// An entry for a bye (`0000 - H`, `0000 - U`, ...).
    pub fn bye(kind: ByeKind) -> RoundEntry {
        RoundEntry {
            opponent: None,
            colour: None,
            result: kind.result_code(),
        }
    }

    /// The game was played over the board: an opponent, a colour and one of
    /// `1 = 0 W D L`. Only played games count for rematches and colours
    /// (forfeits do not; `W D L`, games of less than one move, do, as in
    /// bbpPairings and JaVaFo).
    pub fn is_played(&self) -> bool {
        self.opponent.is_some() && self.colour.is_some() && self.result.is_over_the_board()
    }

    /// The player took part in the pairing of this round: had an opponent
    /// (played or forfeited) or the pairing-allocated bye.
    pub(crate) fn was_paired(&self) -> bool {
        self.opponent.is_some() || self.result == ResultCode::PairingBye
    }

    /// The bye kind if this entry is a bye (no opponent).
    pub fn bye_kind(&self) -> Option<ByeKind> {
        if self.opponent.is_some() {
            None
        } else {
            self.result.bye_kind()
        }
    }
}

/// A participant (a `001` line, plus the club from the tempo extension).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Player {
    /// Starting rank (pairing number), columns 5-8.
    pub id: PlayerId,
    /// Sex, column 10 (`m`, `w`/`f`).
    pub sex: Option<char>,
    /// Title, columns 11-13 (`GM`, `WIM`, ...; some files write `g`, `m`).
    pub title: Option<String>,
    /// Name, columns 15-47, "Lastname, Firstname".
    pub name: String,
    /// FIDE rating, columns 49-52 (`None` if blank).
    pub rating: Option<u16>,
    /// Federation, columns 54-56.
    pub federation: Option<String>,
    /// FIDE id, columns 58-68 (kept as written).
    pub fide_id: Option<String>,
    /// Birth date, columns 70-79 (kept as written, `YYYY/MM/DD`).
    pub birth_date: Option<String>,
    /// The points column 81-84 as written in the file (may include
    /// acceleration points or be stale: compute scores with
    /// [`Tournament::score_after`]).
    pub points: Option<Points>,
    /// The rank column 86-89 as written.
    pub rank: Option<u32>,
    /// Round entries, index 0 = round 1. May be shorter than the number of
    /// rounds (missing entries are absences, like `Z`).
    pub rounds: Vec<RoundEntry>,
    /// Club (tempo extension line `XTC`).
    pub club: Option<String>,
}

impl Player {
    /// A new player with a name and rating, no games.
    pub fn new(id: PlayerId, name: impl Into<String>, rating: Option<u16>) -> Player {
        Player {
            id,
            sex: None,
            title: None,
            name: name.into(),
            rating,
            federation: None,
            fide_id: None,
            birth_date: None,
            points: None,
            rank: None,
            rounds: Vec::new(),
            club: None,
        }
    }

    /// The entry for a round (1-based); `None` if the line has none.
    pub fn entry(&self, round: u32) -> Option<&RoundEntry> {
        round
            .checked_sub(1)
            .and_then(|i| self.rounds.get(i as usize))
    }

    /// Sets the entry for a round (1-based), filling gaps with blanks.
    pub fn set_entry(&mut self, round: u32, entry: RoundEntry) {
        assert!(round >= 1, "rounds are numbered from 1");
        let index = (round - 1) as usize;
        if self.rounds.len() <= index {
            self.rounds.resize(
                index + 1,
                RoundEntry {
                    opponent: None,
                    colour: None,
                    result: ResultCode::Blank,
                },
            );
        }
        self.rounds[index] = entry;
    }
}

/// A free-text tournament header (`012` name, `022` city, `092` type, `122`
/// time control, `132` round dates, `192`, `202`, ...): the three-character
/// tag and the text after column 4, as written.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct InfoLine {
    pub tag: String,
    pub text: String,
}

/// A TRF-2026 `240` record: byes known in advance.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ByeRequest {
    /// `F`, `H` or `Z` (`240` has no pairing-allocated byes for individuals).
    pub kind: ByeKind,
    pub round: u32,
    pub players: Vec<PlayerId>,
}

/// Acceleration (fictitious points for pairing only).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum Acceleration {
    /// TRF-2026 `250`: `points` for players `first_player..=last_player` in
    /// rounds `first_round..=last_round`.
    Range {
        /// Match points (team competitions; `None` when blank).
        match_points: Option<Points>,
        points: Points,
        first_round: u32,
        last_round: u32,
        first_player: PlayerId,
        last_player: PlayerId,
    },
    /// JaVaFo `XXA`: one player's points per round from round 1.
    PerRound {
        player: PlayerId,
        points: Vec<Points>,
    },
}

/// Players who must not meet each other.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ForbiddenPairs {
    /// The rounds the ban applies to (`260`); `None` for all rounds (`XXP`).
    pub rounds: Option<(u32, u32)>,
    /// No two of these may be paired.
    pub players: Vec<PlayerId>,
}

impl ForbiddenPairs {
    /// Whether `a` and `b` may not meet in `round`.
    pub(crate) fn forbids(&self, a: PlayerId, b: PlayerId, round: u32) -> bool {
        let in_rounds = self
            .rounds
            .is_none_or(|(first, last)| first <= round && round <= last);
        in_rounds && a != b && self.players.contains(&a) && self.players.contains(&b)
    }
}

/// Why a player did not play a round (tempo extension `XTA`; TRF itself
/// only has `Z`, `H`, `F` and `-`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum AbsenceKind {
    /// Excused in advance (Keizer: a share of the own value).
    Excused,
    /// Not excused.
    Unexcused,
    /// Playing for / working for the club elsewhere (team match, arbiter).
    ClubDuty,
}

impl AbsenceKind {
    /// The extension's letter.
    pub(crate) fn code(self) -> char {
        match self {
            AbsenceKind::Excused => 'E',
            AbsenceKind::Unexcused => 'U',
            AbsenceKind::ClubDuty => 'C',
        }
    }

    /// From the extension's letter.
    pub(crate) fn from_code(c: char) -> Option<AbsenceKind> {
        match c.to_ascii_uppercase() {
            'E' => Some(AbsenceKind::Excused),
            'U' => Some(AbsenceKind::Unexcused),
            'C' => Some(AbsenceKind::ClubDuty),
            _ => None,
        }
    }
}

/// One or more players' absence of a kind in one round.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Absence {
    pub round: u32,
    pub kind: AbsenceKind,
    pub players: Vec<PlayerId>,
}

/// A player who left the tournament: plays no round after `after_round`
/// (0: withdrew before round 1). Extension `XTW`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Withdrawal {
    pub player: PlayerId,
    pub after_round: u32,
}

/// A player who joined late: can be paired from `first_round` on. Extension
/// `XTL`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct LateEntry {
    pub player: PlayerId,
    pub first_round: u32,
}

/// One Chess960 start position per round, drawn from a seed (extension
/// `XT9`; see [`crate::chess960`]).
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct Chess960Rounds {
    /// The seed positions are drawn from (`None` if they were entered by hand).
    pub seed: Option<u64>,
    /// `(round, position number 0..=959)`, in the order recorded.
    pub positions: Vec<(u32, u16)>,
}

impl Chess960Rounds {
    /// The position number recorded for a round.
    pub(crate) fn position(&self, round: u32) -> Option<u16> {
        self.positions
            .iter()
            .find(|(r, _)| *r == round)
            .map(|(_, n)| *n)
    }
}

/// A whole tournament.
///
/// Read one with [`Tournament::from_trf_str`] / [`crate::trf::read`], write it
/// with [`Tournament::to_trf`]. Lines tempo does not model are kept and
/// written back where they were.
#[derive(Debug, Clone, Default)]
pub struct Tournament {
    /// Header lines (`012` name, `022` city, `092` type, ...), in file order.
    pub info: Vec<InfoLine>,
    /// Players in file order (normally by starting rank).
    pub players: Vec<Player>,
    /// Total number of rounds (`142` / `XXR`).
    pub total_rounds: Option<u32>,
    /// Colour of the top-ranked player in round 1 (`152` / `XXC`).
    pub initial_colour: Option<Color>,
    /// The point system (`162` / `BBW` ...).
    pub point_system: PointSystem,
    /// Byes known in advance (`240`).
    pub bye_requests: Vec<ByeRequest>,
    /// Accelerations (`250` / `XXA`).
    pub accelerations: Vec<Acceleration>,
    /// Forbidden pairs (`260` / `XXP`).
    pub forbidden_pairs: Vec<ForbiddenPairs>,
    /// Kinds of absence (extension `XTA`).
    pub absences: Vec<Absence>,
    /// Withdrawals (extension `XTW`).
    pub withdrawals: Vec<Withdrawal>,
    /// Late entries (extension `XTL`).
    pub late_entries: Vec<LateEntry>,
    /// Keizer settings as key / value pairs (extension `XTK`); their meaning
    /// belongs to [`crate::keizer`].
    pub keizer_settings: Vec<(String, String)>,
    /// Chess960 start positions per round (extension `XT9`).
    pub chess960: Option<Chess960Rounds>,
    /// How the file looked, for writing it back without loss.
    pub(crate) layout: crate::trf::Layout,
}

impl Tournament {
    /// An empty tournament.
    pub fn new() -> Tournament {
        Tournament::default()
    }

    /// The tournament name (`012`), if any.
    pub fn name(&self) -> Option<&str> {
        self.info_text("012")
    }

    /// The text of the first header line with this tag, trimmed.
    pub fn info_text(&self, tag: &str) -> Option<&str> {
        self.info
            .iter()
            .find(|l| l.tag == tag)
            .map(|l| l.text.trim())
    }

    /// The player with this starting rank.
    pub fn player(&self, id: PlayerId) -> Option<&Player> {
        // Files are normally sorted by id: try the direct slot first.
        match self.players.get((id as usize).wrapping_sub(1)) {
            Some(p) if p.id == id => Some(p),
            _ => self.players.iter().find(|p| p.id == id),
        }
    }

    /// Mutable access to the player with this starting rank.
    pub fn player_mut(&mut self, id: PlayerId) -> Option<&mut Player> {
        self.players.iter_mut().find(|p| p.id == id)
    }

    /// A player's entry for a round (1-based).
    pub fn entry(&self, id: PlayerId, round: u32) -> Option<&RoundEntry> {
        self.player(id).and_then(|p| p.entry(round))
    }

    /// The number of round columns in the file (the longest player line).
    pub fn rounds_in_file(&self) -> u32 {
        self.players
            .iter()
            .map(|p| p.rounds.len() as u32)
            .max()
            .unwrap_or(0)
    }

    /// The last round that was paired: the highest round in which someone
    /// has an opponent or the pairing-allocated bye. Later columns only hold
    /// byes known in advance (`H`, `F`, `Z`) for the next round.
    pub fn paired_rounds(&self) -> u32 {
        self.players
            .iter()
            .filter_map(|p| p.rounds.iter().rposition(RoundEntry::was_paired))
            .map(|i| i as u32 + 1)
            .max()
            .unwrap_or(0)
    }

    /// Points earned in one round (without acceleration).
    pub fn round_points(&self, id: PlayerId, round: u32) -> Points {
        let result = self
            .entry(id, round)
            .map_or(ResultCode::Blank, |e| e.result);
        self.point_system.points_for(result)
    }

    /// Score after `round` rounds (rounds 1..=round), without acceleration.
    pub fn score_after(&self, id: PlayerId, round: u32) -> Points {
        (1..=round).map(|r| self.round_points(id, r)).sum()
    }

    /// Score over all rounds in the file that were paired
    /// ([`Tournament::paired_rounds`]).
    pub fn score(&self, id: PlayerId) -> Points {
        self.score_after(id, self.paired_rounds())
    }

    /// Acceleration points a player carries when round `round` is paired.
    pub fn acceleration(&self, id: PlayerId, round: u32) -> Points {
        self.accelerations
            .iter()
            .map(|a| match a {
                Acceleration::Range {
                    points,
                    first_round,
                    last_round,
                    first_player,
                    last_player,
                    ..
                } => {
                    let applies = (*first_round..=*last_round).contains(&round)
                        && (*first_player..=*last_player).contains(&id);
                    if applies { *points } else { Points::ZERO }
                }
                Acceleration::PerRound { player, points } => {
                    if *player == id {
                        round
                            .checked_sub(1)
                            .and_then(|i| points.get(i as usize))
                            .copied()
                            .unwrap_or(Points::ZERO)
                    } else {
                        Points::ZERO
                    }
                }
            })
            .sum()
    }

    /// Whether `a` and `b` may not be paired in `round` (`260` / `XXP`).
    pub(crate) fn is_forbidden_pair(&self, a: PlayerId, b: PlayerId, round: u32) -> bool {
        self.forbidden_pairs.iter().any(|f| f.forbids(a, b, round))
    }

    /// A bye known in advance for a round: from the player's own line (`H`,
    /// `F`, `Z` without opponent) or a `240` record.
    pub(crate) fn requested_bye(&self, id: PlayerId, round: u32) -> Option<ByeKind> {
        let from_line = self
            .entry(id, round)
            .and_then(RoundEntry::bye_kind)
            .filter(|k| *k != ByeKind::PairingAllocated);
        from_line.or_else(|| {
            self.bye_requests
                .iter()
                .find(|b| b.round == round && b.players.contains(&id))
                .map(|b| b.kind)
        })
    }

    /// The recorded kind of a player's absence in a round (extension).
    pub(crate) fn absence_kind(&self, id: PlayerId, round: u32) -> Option<AbsenceKind> {
        self.absences
            .iter()
            .find(|a| a.round == round && a.players.contains(&id))
            .map(|a| a.kind)
    }

    /// Whether the player is in the tournament for this round: entered by
    /// then (late entries) and not withdrawn before it.
    pub fn is_active_in(&self, id: PlayerId, round: u32) -> bool {
        let joined = self
            .late_entries
            .iter()
            .filter(|l| l.player == id)
            .all(|l| l.first_round <= round);
        let left = self
            .withdrawals
            .iter()
            .any(|w| w.player == id && w.after_round < round);
        joined && !left
    }

    /// The colour of the top-ranked player in the first round: the declared
    /// one (`152` / `XXC`), else inferred from round 1 as bbpPairings does
    /// (the colour of the lowest pairing number with a game in the first
    /// round with colours, flipped if an odd number of paired players rank
    /// above it).
    pub(crate) fn first_colour(&self) -> Option<Color> {
        if self.initial_colour.is_some() {
            return self.initial_colour;
        }
        let round = (1..=self.rounds_in_file()).find(|&r| {
            self.players
                .iter()
                .any(|p| p.entry(r).is_some_and(|e| e.colour.is_some()))
        })?;
        let mut ordered: Vec<&Player> = self.players.iter().collect();
        ordered.sort_by_key(|p| p.id);
        let paired = ordered
            .iter()
            .filter(|p| p.entry(round).is_some_and(RoundEntry::was_paired));
        for (position, p) in paired.enumerate() {
            if let Some(colour) = p.entry(round).and_then(|e| e.colour) {
                return Some(if position % 2 == 0 {
                    colour
                } else {
                    colour.other()
                });
            }
        }
        None
    }

    /// Contradictions between the players' lines: an opponent who is not
    /// listed, or whose entry for that round names someone else, has the
    /// same colour, or disagrees on whether the game was played. (Readers
    /// accept such files; standings are computed from each player's own
    /// line.)
    pub fn inconsistencies(&self) -> Vec<Inconsistency> {
        let mut out = Vec::new();
        for p in &self.players {
            for (i, e) in p.rounds.iter().enumerate() {
                let round = i as u32 + 1;
                let Some(o) = e.opponent else { continue };
                let problem = match self.player(o) {
                    None => Some(Problem::UnknownOpponent),
                    Some(opp) => match opp.entry(round) {
                        Some(back) if back.opponent != Some(p.id) => {
                            Some(Problem::OpponentDisagrees(back.opponent))
                        }
                        None => Some(Problem::OpponentDisagrees(None)),
                        Some(back) if e.colour.is_some() && back.colour == e.colour => {
                            Some(Problem::SameColour)
                        }
                        Some(back) if back.is_played() != e.is_played() => {
                            Some(Problem::PlayedDisagrees)
                        }
                        Some(_) => None,
                    },
                };
                if let Some(problem) = problem {
                    // Report a pair once, from the lower id, unless only one side exists.
                    let other_side_reports = self.player(o).is_some_and(|_| o < p.id)
                        && !matches!(problem, Problem::OpponentDisagrees(_));
                    if !other_side_reports {
                        out.push(Inconsistency {
                            round,
                            player: p.id,
                            opponent: o,
                            problem,
                        });
                    }
                }
            }
        }
        out
    }
}

/// What is wrong between two players' entries for a round.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Problem {
    /// The opponent has no `001` line.
    UnknownOpponent,
    /// The opponent's entry names another opponent (or none).
    OpponentDisagrees(Option<PlayerId>),
    /// Both have the same colour.
    SameColour,
    /// One side says the game was played, the other not.
    PlayedDisagrees,
    /// The two result codes tell different outcomes (the player's, then the
    /// opponent's), e.g. both won.
    ResultsDisagree(ResultCode, ResultCode),
}

/// A contradiction found by [`Tournament::inconsistencies`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Inconsistency {
    pub round: u32,
    pub player: PlayerId,
    pub opponent: PlayerId,
    pub problem: Problem,
}

impl std::fmt::Display for Inconsistency {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let (r, p, o) = (self.round, self.player, self.opponent);
        match self.problem {
            Problem::UnknownOpponent => {
                write!(f, "round {r}: player {p}'s opponent {o} is not listed")
            }
            Problem::OpponentDisagrees(Some(x)) => write!(
                f,
                "round {r}: player {p} lists {o} as opponent, but {o} lists {x}"
            ),
            Problem::OpponentDisagrees(None) => write!(
                f,
                "round {r}: player {p} lists {o} as opponent, but {o} has no opponent"
            ),
            Problem::SameColour => write!(f, "round {r}: players {p} and {o} have the same colour"),
            Problem::PlayedDisagrees => write!(
                f,
                "round {r}: players {p} and {o} disagree on whether their game was played"
            ),
            Problem::ResultsDisagree(mine, theirs) => write!(
                f,
                "round {r}: player {p} has result '{}' and {o} has '{}'",
                mine.trf_char(),
                theirs.trf_char()
            ),
        }
    }
}
