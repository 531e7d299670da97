//! The PGN `TimeControl` tag (PGN standard, section 9.6.1) and its de-facto
//! extensions.
//!
//! | text | meaning |
//! |---|---|
//! | `?` | unknown |
//! | `-` | no time limit |
//! | `300` | sudden death, 300 s |
//! | `300+3` | 300 s + 3 s per move (lichess) |
//! | `40/9000` | 40 moves in 9000 s |
//! | `40/5400+30:1800+30` | periods separated by `:`, each with its increment |
//! | `*180` | sandclock (hourglass) of 180 s |
//! | `1/259200` | chess.com daily: 3 days per move, not carried over |
//!
//! tempo extends a period with `d<s>` for a simple (US / FIDE time-delay)
//! delay and `b<s>` for a Bronstein delay: `5400d5`, `1800+0b3`. Seconds may
//! carry a decimal fraction (`0.5`). Reading is lenient: spaces are ignored.
//! A single `1/N` period whose `N` is a whole number of days is read as
//! chess.com's correspondence "days per move"; ICCF day-charging cannot be
//! written in PGN, so an ICCF control is written as its plain periods.

use crate::control::{Correspondence, Delay, Period, Periods, TimeControl};
use crate::error::TimeControlError;
use crate::millis::{MAX_TEXT_SPAN, Millis, parse_decimal_millis, parse_small_int};

/// Reads a PGN `TimeControl` value.
pub fn parse_pgn(text: &str) -> Result<TimeControl, TimeControlError> {
    let compact: String = text.chars().filter(|c| !c.is_whitespace()).collect();
    match compact.as_str() {
        "" => return Err(TimeControlError::Empty),
        "?" => return Ok(TimeControl::Unknown),
        "-" => return Ok(TimeControl::Unlimited),
        _ => {}
    }
    let fields: Vec<&str> = compact.split(':').collect();
    if let Some(sand) = compact.strip_prefix('*') {
        if fields.len() > 1 {
            return Err(TimeControlError::SandclockNotAlone(text.to_string()));
        }
        let total = seconds(sand).map_err(|problem| field_error(text, 1, &compact, problem))?;
        if total == Millis::ZERO {
            return Err(field_error(
                text,
                1,
                &compact,
                "a sandclock needs some time".into(),
            ));
        }
        return Ok(TimeControl::Hourglass { total });
    }
    let mut periods = Vec::with_capacity(fields.len());
    for (i, field) in fields.iter().enumerate() {
        if field.starts_with('*') {
            return Err(TimeControlError::SandclockNotAlone(text.to_string()));
        }
        let period =
            parse_field(field).map_err(|problem| field_error(text, i + 1, field, problem))?;
        periods.push(period);
    }
    if let [only] = periods.as_slice()
        && reads_as_days_per_move(only)
    {
        return Ok(TimeControl::Correspondence(Correspondence::PerMove {
            limit: only.base,
        }));
    }
    Periods::new(periods)
        .map(TimeControl::Periods)
        .map_err(|rule| TimeControlError::Invalid {
            text: text.to_string(),
            rule,
        })
}

/// Whether a lone period is written like chess.com's correspondence control
/// `1/<whole days>` (days per move, not carried over), which is how PGN
/// reads that text back.
fn reads_as_days_per_move(period: &Period) -> bool {
    period.moves == Some(1)
        && period.increment == Millis::ZERO
        && period.delay == Delay::None
        && period.base > Millis::ZERO
        && period.base.as_millis() % Millis::DAY.as_millis() == 0
}

fn field_error(text: &str, period: usize, field: &str, problem: String) -> TimeControlError {
    TimeControlError::Field {
        text: text.to_string(),
        period,
        field: field.to_string(),
        problem,
    }
}

/// `[moves/]seconds[+increment][d|b delay]`.
fn parse_field(field: &str) -> Result<Period, String> {
    if field.is_empty() {
        return Err("empty period".into());
    }
    let lower = field.to_ascii_lowercase();
    let (rest, delay) = match lower.find(['d', 'b']) {
        Some(at) => {
            let length = seconds(&lower[at + 1..]).map_err(|p| format!("delay: {p}"))?;
            let delay = if lower.as_bytes()[at] == b'd' {
                Delay::Simple(length)
            } else {
                Delay::Bronstein(length)
            };
            (&lower[..at], delay)
        }
        None => (lower.as_str(), Delay::None),
    };
    let (rest, increment) = match rest.split_once('+') {
        Some((before, inc)) => (before, seconds(inc).map_err(|p| format!("increment: {p}"))?),
        None => (rest, Millis::ZERO),
    };
    let (moves, base) = match rest.split_once('/') {
        Some((moves, secs)) => {
            let moves = parse_small_int(moves)
                .filter(|&m| m > 0 && m <= i64::from(u32::MAX))
                .ok_or_else(|| format!("move count `{moves}` is not a positive whole number"))?;
            (Some(moves as u32), seconds(secs)?)
        }
        None => (None, seconds(rest)?),
    };
    Ok(Period {
        moves,
        base,
        increment,
        delay,
    })
}

fn seconds(text: &str) -> Result<Millis, String> {
    if text.is_empty() {
        return Err("a number of seconds is missing".into());
    }
    parse_decimal_millis(text, 1_000).ok_or_else(|| {
        let millisecond_precision = text.split_once('.').is_none_or(|(_, f)| f.len() <= 3);
        if looks_decimal(text) && millisecond_precision {
            format!(
                "`{text}` seconds is too large (at most {} seconds)",
                MAX_TEXT_SPAN.0 / 1_000
            )
        } else {
            format!("`{text}` is not a number of seconds (at most millisecond precision)")
        }
    })
}

fn looks_decimal(text: &str) -> bool {
    let digits = text.replacen('.', "", 1);
    !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit())
}

/// Writes the PGN `TimeControl` value (see the module docs for the
/// extensions used); `None` for a control PGN cannot express because its
/// text would read back as a different control: ICCF's whole days with
/// double counting, and a repeating period of one move in whole days
/// (saved time carried over), which reads as days per move.
pub fn write_pgn(control: &TimeControl) -> Option<String> {
    Some(match control {
        TimeControl::Unknown => "?".into(),
        TimeControl::Unlimited => "-".into(),
        TimeControl::Hourglass { total } => format!("*{}", total.pgn_seconds()),
        TimeControl::Correspondence(Correspondence::PerMove { limit }) => {
            format!("1/{}", limit.pgn_seconds())
        }
        TimeControl::Correspondence(Correspondence::Iccf(_)) => return None,
        TimeControl::Periods(p) if matches!(p.periods(), [only] if reads_as_days_per_move(only)) => {
            return None;
        }
        TimeControl::Periods(p) => p
            .periods()
            .iter()
            .map(write_field)
            .collect::<Vec<_>>()
            .join(":"),
    })
}

fn write_field(p: &Period) -> String {
    let mut out = String::new();
    if let Some(moves) = p.moves {
        out.push_str(&format!("{moves}/"));
    }
    out.push_str(&p.base.pgn_seconds());
    if p.increment != Millis::ZERO {
        out.push_str(&format!("+{}", p.increment.pgn_seconds()));
    }
    match p.delay {
        Delay::None => {}
        Delay::Simple(d) => out.push_str(&format!("d{}", d.pgn_seconds())),
        Delay::Bronstein(d) => out.push_str(&format!("b{}", d.pgn_seconds())),
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(text: &str) -> TimeControl {
        parse_pgn(text).unwrap_or_else(|e| panic!("{e}"))
    }

    #[test]
    fn reads_the_standard_forms() {
        assert_eq!(p("?"), TimeControl::Unknown);
        assert_eq!(p("-"), TimeControl::Unlimited);
        assert_eq!(
            p("300"),
            TimeControl::fischer(Millis::seconds(300), Millis::ZERO)
        );
        assert_eq!(
            p("4500+60"),
            TimeControl::fischer(Millis::seconds(4500), Millis::seconds(60))
        );
        assert_eq!(
            p("*180"),
            TimeControl::Hourglass {
                total: Millis::seconds(180)
            }
        );
        let classic = p("40/5400+30:1800+30");
        let periods = classic.periods().unwrap().periods();
        assert_eq!(periods.len(), 2);
        assert_eq!(
            periods[0],
            Period::quota(40, Millis::minutes(90), Millis::seconds(30))
        );
        assert_eq!(
            periods[1],
            Period::rest_of_game(Millis::minutes(30), Millis::seconds(30))
        );
        let t = p("40/9000");
        assert_eq!(t.periods().unwrap().periods()[0].moves, Some(40));
    }

    #[test]
    fn reads_lenient_and_extended_forms() {
        assert_eq!(p(" 300 + 3 "), p("300+3"));
        assert_eq!(p("0.5+0.1").initial(), Some(Millis(500)));
        assert_eq!(
            p("5400d5").periods().unwrap().periods()[0].delay,
            Delay::Simple(Millis::seconds(5))
        );
        assert_eq!(
            p("5400B3").periods().unwrap().periods()[0].delay,
            Delay::Bronstein(Millis::seconds(3))
        );
        assert_eq!(
            p("1/259200"),
            TimeControl::Correspondence(Correspondence::PerMove {
                limit: Millis::days(3)
            })
        );
    }

    #[test]
    fn errors_name_the_period_and_problem() {
        let e = parse_pgn("40/5400+30:1800+x").unwrap_err().to_string();
        assert!(e.contains("period 2") && e.contains("`x`"), "{e}");
        let e = parse_pgn("0/300").unwrap_err().to_string();
        assert!(e.contains("move count"), "{e}");
        let e = parse_pgn("300:40/300").unwrap_err().to_string();
        assert!(e.contains("rest of the game"), "{e}");
        assert!(matches!(
            parse_pgn("*180:300"),
            Err(TimeControlError::SandclockNotAlone(_))
        ));
        assert!(matches!(parse_pgn("  "), Err(TimeControlError::Empty)));
        assert!(parse_pgn("300+").is_err());
        assert!(parse_pgn("abc").is_err());
        assert!(parse_pgn("0").is_err());
    }

    #[test]
    fn writes_what_it_reads() {
        for text in [
            "?",
            "-",
            "300",
            "300+3",
            "40/5400+30:1800+30",
            "*180",
            "40/9000:20/3600",
            "5400d5",
            "1800+0.5b3",
            "1/86400",
        ] {
            assert_eq!(write_pgn(&p(text)).as_deref(), Some(text));
        }
    }

    /// Found by the fuzz target `time_control`: `1d/1` written as `1/86400`
    /// read back as days per move, not a repeating period.
    #[test]
    fn a_repeating_one_move_period_of_whole_days_has_no_pgn_form() {
        let repeating: TimeControl = "1d/1".parse().unwrap();
        assert!(matches!(repeating, TimeControl::Periods(_)));
        assert_eq!(write_pgn(&repeating), None);
        let per_move = p("1/86400");
        assert!(matches!(per_move, TimeControl::Correspondence(_)));
        assert_eq!(write_pgn(&per_move).as_deref(), Some("1/86400"));
        assert_eq!(write_pgn(&p("1/90000")).as_deref(), Some("1/90000"));
    }

    #[test]
    fn iccf_has_no_pgn_form() {
        let iccf: TimeControl = "ICCF 50d/10".parse().unwrap();
        assert_eq!(write_pgn(&iccf), None);
        assert_eq!(iccf.to_string(), "ICCF 50d/10");
    }
}
