//! Lichess's names for tempo's games, so that the API's lichess-shaped
//! answers (the game stream, challenges, events, exports) say them the way
//! lichess's own clients read them: the variant object, the speed and
//! perf, the clock in milliseconds, a challenge's time control, and the
//! game status.
//!
//! ```
//! use tempo_host::lichess::{self, Speed};
//! use tempo_host::Variant;
//!
//! let control = "300+3".parse()?;
//! assert_eq!(lichess::speed(Some(&control)), Speed::Blitz);
//! assert_eq!(lichess::clock(Some(&control)).map(|c| (c.initial, c.increment)), Some((300_000, 3_000)));
//! assert_eq!(lichess::variant(Variant::Fairschach, false).key, "fairschach");
//! # Ok::<(), tempo_clock::TimeControlError>(())
//! ```

use serde::Serialize;
use serde_json::{Value, json};
use tempo_chess::uci::CastlingStyle;
use tempo_chess::{Color, Outcome, Position};
use tempo_clock::{Correspondence, Millis, TimeControl};
use tempo_sync::Choice;

use crate::end::{EndReason, EndResult};
use crate::{Header, Variant};

/// Lichess's variant object (`{"key","name","short"}`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct LichessVariant {
    /// `standard`, `fromPosition`, `chess960`, `synchronschach`, `fairschach`.
    pub key: &'static str,
    pub name: &'static str,
    pub short: &'static str,
}

/// The variant object of a `variant` game; `from_position` for an orthodox
/// game from a set-up position (lichess's `fromPosition`, which its
/// clients set up from `initialFen` rather than the standard start).
pub fn variant(variant: Variant, from_position: bool) -> LichessVariant {
    let (key, name, short) = match variant {
        Variant::Standard if from_position => ("fromPosition", "From Position", "FEN"),
        Variant::Standard => ("standard", "Standard", "Std"),
        Variant::Chess960 => ("chess960", "Chess960", "960"),
        Variant::Synchronschach => ("synchronschach", "Synchronschach", "Sync"),
        Variant::Fairschach => ("fairschach", "Fairschach", "Fair"),
    };
    LichessVariant { key, name, short }
}

/// The start a game or challenge sets up (its FEN, else its Chess960
/// number), as a FEN, when it is not the standard start: lichess's
/// `initialFen`. The one test of "a set-up start" everything uses (the
/// variant object, a challenge's `initialFen`, `gameStart`, the game
/// stream): the pieces, the side to move, castling rights and en passant
/// square, compared as FEN writes them (so an X-FEN or Shredder-FEN of
/// the standard start is the standard start). `None` for the standard
/// start, for none named, and for one that does not read.
pub fn set_up_start(fen: Option<&str>, chess960: Option<u16>) -> Option<String> {
    let pos = match (fen, chess960) {
        (Some(fen), _) => Position::from_fen(fen).ok()?,
        (None, Some(n)) => tempo_chess::chess960::start_position(n).ok()?,
        (None, None) => return None,
    };
    let fields = |fen: &str| fen.split_whitespace().take(4).collect::<Vec<_>>().join(" ");
    let fen = pos.to_fen();
    (fields(&fen) != fields(&Position::new().to_fen())).then_some(fen)
}

/// Whether a `variant` game from the start `fen` or `chess960` names is
/// lichess's `fromPosition`: an orthodox game from a set-up start
/// ([`set_up_start`]; a Standard game from a Chess960 number is one).
pub fn is_from_position(variant: Variant, fen: Option<&str>, chess960: Option<u16>) -> bool {
    variant == Variant::Standard && set_up_start(fen, chess960).is_some()
}

/// Whether `header`'s game is lichess's `fromPosition` ([`is_from_position`]).
pub fn from_position(header: &Header) -> bool {
    is_from_position(header.variant, Some(&header.fen), header.chess960)
}

/// The variant object of `header`'s game.
pub fn game_variant(header: &Header) -> LichessVariant {
    variant(header.variant, from_position(header))
}

/// How lichess writes castling in UCI in `header`'s game: king takes rook
/// (`e1h1`) from a Chess960 start, the king's two squares (`e1g1`) in
/// every other game (lichess's own variants all start from the standard
/// set-up or a position read as orthodox).
pub fn castling_style(header: &Header) -> CastlingStyle {
    if header.variant == Variant::Chess960 || header.chess960.is_some() {
        CastlingStyle::Chess960
    } else {
        CastlingStyle::Standard
    }
}

/// A simultaneous step's choice in `state.moves`: a move in UCI with
/// castling as `style` says, an exchange capture `x` + UCI, a decline
/// `-` (as tempo's log writes those two). `pos` is the position the
/// choice was made in.
pub(crate) fn choice_uci(pos: &Position, choice: Choice, style: CastlingStyle) -> String {
    match choice {
        Choice::Move(mv) if pos.is_castling(mv) => tempo_chess::uci::write_with(pos, mv, style),
        other => other.to_string(),
    }
}

/// Lichess's speed classes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum Speed {
    UltraBullet,
    Bullet,
    Blitz,
    Rapid,
    Classical,
    Correspondence,
}

impl Speed {
    /// The wire name (`ultraBullet`, `bullet`, … `correspondence`).
    pub fn key(self) -> &'static str {
        match self {
            Speed::UltraBullet => "ultraBullet",
            Speed::Bullet => "bullet",
            Speed::Blitz => "blitz",
            Speed::Rapid => "rapid",
            Speed::Classical => "classical",
            Speed::Correspondence => "correspondence",
        }
    }

    /// The perf's name as lichess shows it (`Blitz`, `UltraBullet`, …).
    pub fn name(self) -> &'static str {
        match self {
            Speed::UltraBullet => "UltraBullet",
            Speed::Bullet => "Bullet",
            Speed::Blitz => "Blitz",
            Speed::Rapid => "Rapid",
            Speed::Classical => "Classical",
            Speed::Correspondence => "Correspondence",
        }
    }
}

/// The speed of a time control by lichess's estimate, initial time plus
/// 40 increments (here the control's allotment for 40 moves, which also
/// counts period bonuses): under 30 s UltraBullet, 3 min Bullet, 8 min
/// Blitz, 25 min Rapid, else Classical. Untimed and days-per-move games
/// are correspondence, as lichess's unlimited games are.
pub fn speed(control: Option<&TimeControl>) -> Speed {
    let estimate = match control {
        Some(TimeControl::Periods(periods)) => periods.alloc(40),
        Some(TimeControl::Hourglass { total }) => *total,
        _ => return Speed::Correspondence,
    };
    match estimate.0 / 1000 {
        ..30 => Speed::UltraBullet,
        30..180 => Speed::Bullet,
        180..480 => Speed::Blitz,
        480..1500 => Speed::Rapid,
        _ => Speed::Classical,
    }
}

/// The perf's name: the speed's for orthodox chess (from the standard
/// start or a set-up position, as lichess's perf types go), else the
/// variant's (lichess rates Chess960 and every variant on its own).
pub fn perf_name(kind: LichessVariant, speed: Speed) -> &'static str {
    match kind.key {
        "standard" | "fromPosition" => speed.name(),
        _ => kind.name,
    }
}

/// The perf's key as lichess's game export writes it: the speed's for
/// orthodox chess (from the standard start or a set-up position, which
/// lichess rates by speed too), else the variant's key.
pub fn perf_key(kind: LichessVariant, speed: Speed) -> &'static str {
    match kind.key {
        "standard" | "fromPosition" => speed.key(),
        key => key,
    }
}

/// Lichess's clock object of a game: milliseconds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct LichessClock {
    pub initial: u64,
    pub increment: u64,
}

fn millis(m: Millis) -> u64 {
    m.0.max(0) as u64
}

/// The clock of a game with `control`: the first period's time and
/// increment. `None` for an untimed or correspondence game (lichess gives
/// those no clock; see [`days_per_turn`]).
pub fn clock(control: Option<&TimeControl>) -> Option<LichessClock> {
    match control? {
        TimeControl::Periods(periods) => {
            let first = &periods.periods()[0];
            Some(LichessClock {
                initial: millis(periods.initial()),
                increment: millis(first.increment),
            })
        }
        TimeControl::Hourglass { total } => Some(LichessClock {
            initial: millis(*total),
            increment: 0,
        }),
        _ => None,
    }
}

/// Whole days per move of a days-per-move correspondence control
/// (lichess's `daysPerTurn`); `None` for any other.
pub fn days_per_turn(control: Option<&TimeControl>) -> Option<u64> {
    match control? {
        TimeControl::Correspondence(Correspondence::PerMove { limit }) => {
            Some((millis(*limit) / 86_400_000).max(1))
        }
        _ => None,
    }
}

/// A challenge's `timeControl` as lichess writes it: `{"type":"clock",
/// "limit","increment","show"}` in seconds, `{"type":"correspondence",
/// "daysPerTurn"}`, or `{"type":"unlimited"}`. An ICCF control (periods
/// counted in days) is correspondence without `daysPerTurn`.
pub fn time_control(control: Option<&TimeControl>) -> Value {
    if let Some(days) = days_per_turn(control) {
        return json!({"type": "correspondence", "daysPerTurn": days});
    }
    match (control, clock(control)) {
        (_, Some(clock)) => {
            let (limit, increment) = (clock.initial / 1000, clock.increment / 1000);
            json!({
                "type": "clock",
                "limit": limit,
                "increment": increment,
                "show": show(clock),
            })
        }
        (Some(TimeControl::Correspondence(_)), None) => json!({"type": "correspondence"}),
        _ => json!({"type": "unlimited"}),
    }
}

/// `5+3`, `½+0`, `¼+0`, `1.5+0`: minutes and increment seconds, as lichess
/// shows a clock.
fn show(clock: LichessClock) -> String {
    let minutes = match clock.initial {
        15_000 => "¼".to_string(),
        30_000 => "½".to_string(),
        45_000 => "¾".to_string(),
        ms if ms % 60_000 == 0 => (ms / 60_000).to_string(),
        ms => format!("{}", ms as f64 / 60_000.0),
    };
    format!("{minutes}+{}", clock.increment / 1000)
}

/// Lichess's game status (`{"id","name"}` in events; the name alone in
/// `gameState`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Status {
    Started,
    Aborted,
    Mate,
    Resign,
    Stalemate,
    Draw,
    OutOfTime,
    UnknownFinish,
    VariantEnd,
}

impl Status {
    /// Lichess's name (`started`, `mate`, `outoftime`, …).
    pub fn name(self) -> &'static str {
        match self {
            Status::Started => "started",
            Status::Aborted => "aborted",
            Status::Mate => "mate",
            Status::Resign => "resign",
            Status::Stalemate => "stalemate",
            Status::Draw => "draw",
            Status::OutOfTime => "outoftime",
            Status::UnknownFinish => "unknownFinish",
            Status::VariantEnd => "variantEnd",
        }
    }

    /// Lichess's number for it.
    pub fn id(self) -> u32 {
        match self {
            Status::Started => 20,
            Status::Aborted => 25,
            Status::Mate => 30,
            Status::Resign => 31,
            Status::Stalemate => 32,
            Status::Draw => 34,
            Status::OutOfTime => 35,
            Status::UnknownFinish => 38,
            Status::VariantEnd => 60,
        }
    }

    /// `{"id","name"}`.
    pub fn json(self) -> Value {
        json!({"id": self.id(), "name": self.name()})
    }
}

/// The status of a game that ended with `result` for `reason` (`None`:
/// still being played). The simultaneous variants' own ends (a king
/// captured, both kings, a double checkmate) are lichess's `variantEnd`;
/// a draw by any rule or agreement is `draw`; an arbiter's decisive
/// result is `unknownFinish`, an arbiter's draw `draw`.
pub fn status(end: Option<(EndResult, EndReason)>) -> Status {
    let Some((result, reason)) = end else {
        return Status::Started;
    };
    match reason {
        EndReason::Checkmate => Status::Mate,
        EndReason::Stalemate => Status::Stalemate,
        EndReason::Resign => Status::Resign,
        EndReason::Timeout => Status::OutOfTime,
        EndReason::Aborted => Status::Aborted,
        EndReason::KingCaptured | EndReason::BothKingsCaptured | EndReason::DoubleCheckmate => {
            Status::VariantEnd
        }
        EndReason::InsufficientMaterial
        | EndReason::Repetition
        | EndReason::FivefoldRepetition
        | EndReason::FiftyMoves
        | EndReason::SeventyFiveMoves
        | EndReason::Agreement => Status::Draw,
        EndReason::Arbiter => match result {
            EndResult::Decided(Outcome::Draw) => Status::Draw,
            EndResult::NoResult => Status::Aborted,
            EndResult::Decided(_) => Status::UnknownFinish,
        },
    }
}

/// The winner of a result (lichess's `winner`), if it has one.
pub fn winner(result: EndResult) -> Option<Color> {
    match result {
        EndResult::Decided(Outcome::Win(winner)) => Some(winner),
        _ => None,
    }
}

/// The time lichess reports for a side without a clock (`2147483647` ms,
/// its largest integer), so that clients that read `wtime`/`btime` as
/// numbers always find one.
pub const NO_CLOCK_MILLIS: u64 = 2_147_483_647;

#[cfg(test)]
mod tests {
    use super::*;

    fn control(text: &str) -> TimeControl {
        text.parse().expect("a control")
    }

    #[test]
    fn speeds_follow_lichess_estimate() {
        let cases = [
            ("15+0", Speed::UltraBullet),
            ("60+0", Speed::Bullet),
            ("120+1", Speed::Bullet),
            ("180+2", Speed::Blitz),
            ("300+3", Speed::Blitz),
            ("600+0", Speed::Rapid),
            ("900+10", Speed::Rapid),
            ("1800+0", Speed::Classical),
            ("5400+30", Speed::Classical),
        ];
        for (text, speed) in cases {
            assert_eq!(super::speed(Some(&control(text))), speed, "{text}");
        }
        assert_eq!(super::speed(None), Speed::Correspondence);
        assert_eq!(
            super::speed(Some(&control("1/259200"))),
            Speed::Correspondence
        );
    }

    #[test]
    fn clock_and_time_control_in_lichess_units() {
        let blitz = control("300+3");
        assert_eq!(
            clock(Some(&blitz)),
            Some(LichessClock {
                initial: 300_000,
                increment: 3_000
            })
        );
        assert_eq!(
            time_control(Some(&blitz)),
            json!({"type":"clock","limit":300,"increment":3,"show":"5+3"})
        );
        assert_eq!(time_control(Some(&control("30+0")))["show"], "½+0");
        assert_eq!(time_control(Some(&control("90+0")))["show"], "1.5+0");
        let days = control("1/259200");
        assert_eq!(clock(Some(&days)), None);
        assert_eq!(days_per_turn(Some(&days)), Some(3));
        assert_eq!(
            time_control(Some(&days)),
            json!({"type":"correspondence","daysPerTurn":3})
        );
        assert_eq!(time_control(None), json!({"type":"unlimited"}));
    }

    #[test]
    fn statuses_by_reason() {
        let win = EndResult::Decided(Outcome::Win(Color::White));
        let draw = EndResult::Decided(Outcome::Draw);
        assert_eq!(status(None).name(), "started");
        assert_eq!(status(Some((win, EndReason::Checkmate))).name(), "mate");
        assert_eq!(status(Some((win, EndReason::Timeout))).name(), "outoftime");
        assert_eq!(status(Some((draw, EndReason::Timeout))).name(), "outoftime");
        assert_eq!(status(Some((draw, EndReason::Repetition))).name(), "draw");
        assert_eq!(
            status(Some((win, EndReason::KingCaptured))).name(),
            "variantEnd"
        );
        assert_eq!(
            status(Some((EndResult::NoResult, EndReason::Aborted))).id(),
            25
        );
        assert_eq!(
            status(Some((win, EndReason::Arbiter))).name(),
            "unknownFinish"
        );
        assert_eq!(winner(win), Some(Color::White));
        assert_eq!(winner(draw), None);
    }

    #[test]
    fn variants_and_perfs() {
        let standard = variant(Variant::Standard, false);
        assert_eq!(perf_name(standard, Speed::Blitz), "Blitz");
        let set_up = variant(Variant::Standard, true);
        assert_eq!(set_up.key, "fromPosition");
        assert_eq!(perf_name(set_up, Speed::Blitz), "Blitz");
        let c960 = variant(Variant::Chess960, false);
        assert_eq!(perf_name(c960, Speed::Rapid), "Chess960");
        assert_eq!(perf_key(c960, Speed::Rapid), "chess960");
        assert_eq!(perf_key(standard, Speed::Blitz), "blitz");
        assert_eq!(perf_key(set_up, Speed::Blitz), "blitz");
        assert_eq!(
            variant(Variant::Synchronschach, false).name,
            "Synchronschach"
        );
    }
}
