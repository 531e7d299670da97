//! The human form of a time control, as arbiters and players write it.
//!
//! | text | meaning |
//! |---|---|
//! | `5+3` | lichess style: 5 minutes + 3 seconds per move |
//! | `90m/40 + 30m + 30s` | 90 min for 40 moves, then 30 min for the rest, 30 s per move from move 1 |
//! | `40/90m + 30m + 30s` | the same (quota and time in either order) |
//! | `2h/40 + 1h/20` | 40 moves in 2 h, then 20 moves per hour, repeating |
//! | `90m + delay 5s` | simple (US / FIDE time-delay) delay; `bronstein 5s` for Bronstein |
//! | `90m/40 + 30s/move; 30m` | `;` separates periods with their own increment or delay |
//! | `hourglass 3m` | hourglass |
//! | `3d per move` | correspondence, 3 days per move, not carried over |
//! | `ICCF 50d/10` | ICCF: 10 moves in 50 days, repeating, whole days charged |
//! | `ICCF 30d + 3d/move` | ICCF: 30 days + 3 days per move (also `3d per move`) |
//! | `unknown`, `unlimited` | PGN `?` and `-` |
//!
//! Terms are joined by `+`. A plain time after a rest-of-game period is the
//! increment (`30m + 30s`); `X/move` and, within a sum, `X per move` are
//! always increments. Durations take
//! units (`d h m s ms`) or `H:MM:SS`.

use crate::control::{Correspondence, Delay, Period, Periods, TimeControl};
use crate::error::TimeControlError;
use crate::millis::{Millis, parse_decimal_millis, parse_small_int};

/// Reads the human form (see the module docs).
pub fn parse_human(text: &str) -> Result<TimeControl, TimeControlError> {
    let lower = text.trim().to_ascii_lowercase();
    let err = |problem: String| TimeControlError::Human {
        text: text.to_string(),
        problem,
    };
    match lower.as_str() {
        "" => return Err(TimeControlError::Empty),
        "?" | "unknown" => return Ok(TimeControl::Unknown),
        "-" | "unlimited" | "no limit" => return Ok(TimeControl::Unlimited),
        _ => {}
    }
    if let Some(rest) = lower.strip_prefix("hourglass") {
        let total: Millis = rest.trim().parse().map_err(|e| err(format!("{e}")))?;
        if total <= Millis::ZERO {
            return Err(err("an hourglass needs some time".into()));
        }
        return Ok(TimeControl::Hourglass { total });
    }
    if let Some(rest) = lower.strip_prefix("iccf") {
        let periods = parse_periods(rest.trim()).map_err(|e| rewrap(e, text))?;
        return Ok(TimeControl::Correspondence(Correspondence::Iccf(periods)));
    }
    // A lone `X per move` is correspondence; inside a sum it is an increment.
    if let Some(rest) = lower.strip_suffix("per move")
        && !rest.contains('+')
    {
        let limit: Millis = rest.trim().parse().map_err(|e| err(format!("{e}")))?;
        if limit <= Millis::ZERO {
            return Err(err("the time per move must be positive".into()));
        }
        return Ok(TimeControl::Correspondence(Correspondence::PerMove {
            limit,
        }));
    }
    if let Some((minutes, secs)) = lower.split_once('+')
        && let (Some(m), Some(s)) = (
            parse_small_int(minutes.trim()),
            parse_small_int(secs.trim()),
        )
    {
        let (Some(base), Some(inc)) = (
            parse_decimal_millis(&m.to_string(), 60_000),
            parse_decimal_millis(&s.to_string(), 1_000),
        ) else {
            return Err(err(format!("`{}` is too long", text.trim())));
        };
        let periods = Periods::new(vec![Period::rest_of_game(base, inc)]).map_err(|rule| {
            TimeControlError::Invalid {
                text: text.to_string(),
                rule,
            }
        })?;
        return Ok(TimeControl::Periods(periods));
    }
    parse_periods(&lower)
        .map(TimeControl::Periods)
        .map_err(|e| rewrap(e, text))
}

fn rewrap(e: TimeControlError, text: &str) -> TimeControlError {
    match e {
        TimeControlError::Human { problem, .. } => TimeControlError::Human {
            text: text.to_string(),
            problem,
        },
        TimeControlError::Invalid { rule, .. } => TimeControlError::Invalid {
            text: text.to_string(),
            rule,
        },
        other => other,
    }
}

enum Term {
    Quota(u32, Millis),
    Plain(Millis),
    Increment(Millis),
    Delay(Delay),
}

fn parse_term(term: &str) -> Result<Term, String> {
    let term = term.trim();
    if term.is_empty() {
        return Err("empty term (two `+` in a row?)".into());
    }
    let time = |t: &str| t.trim().parse::<Millis>().map_err(|e| e.to_string());
    if let Some(inc) = term.strip_suffix("per move") {
        return Ok(Term::Increment(time(inc)?));
    }
    if let Some(d) = term.strip_prefix("delay") {
        return Ok(Term::Delay(Delay::Simple(time(d)?)));
    }
    if let Some(d) = term.strip_prefix("bronstein") {
        return Ok(Term::Delay(Delay::Bronstein(time(d)?)));
    }
    if let Some((left, right)) = term.split_once('/') {
        let (left, right) = (left.trim(), right.trim());
        if right == "move" {
            return Ok(Term::Increment(time(left)?));
        }
        let moves = |t: &str| {
            let t = t.strip_suffix("moves").unwrap_or(t).trim();
            parse_small_int(t)
                .filter(|&m| m > 0 && m <= i64::from(u32::MAX))
                .map(|m| m as u32)
        };
        return match (moves(left), moves(right)) {
            (Some(m), None) => Ok(Term::Quota(m, time(right)?)),
            (None, Some(m)) => Ok(Term::Quota(m, time(left)?)),
            _ => Err(format!(
                "`{term}` must be a positive move count and a time with a unit, like `90m/40`"
            )),
        };
    }
    Ok(Term::Plain(time(term)?))
}

fn parse_periods(text: &str) -> Result<Periods, TimeControlError> {
    let segments: Vec<&str> = text.split(';').collect();
    let uniform = segments.len() == 1;
    let mut periods: Vec<Period> = Vec::new();
    let mut term_number = 0;
    let problem = |n: usize, term: &str, p: String| TimeControlError::Human {
        text: text.to_string(),
        problem: format!("term {n} (`{}`): {p}", term.trim()),
    };
    let mut shared_inc: Option<Millis> = None;
    let mut shared_delay: Option<Delay> = None;
    for segment in segments {
        let start = periods.len();
        let mut inc: Option<Millis> = None;
        let mut delay: Option<Delay> = None;
        for raw in segment.split('+') {
            term_number += 1;
            let term = parse_term(raw).map_err(|p| problem(term_number, raw, p))?;
            let after_rest = periods.last().is_some_and(|p: &Period| p.moves.is_none());
            let segment_has_period = periods.len() > start;
            let plain_is_increment = if uniform {
                after_rest
            } else {
                segment_has_period
            };
            match term {
                Term::Plain(t) if plain_is_increment => {
                    set_once(&mut inc, t).map_err(|p| problem(term_number, raw, p))?;
                }
                Term::Increment(t) => {
                    set_once(&mut inc, t).map_err(|p| problem(term_number, raw, p))?;
                }
                Term::Delay(d) => {
                    if delay.replace(d).is_some() {
                        return Err(problem(term_number, raw, "a second delay".into()));
                    }
                }
                Term::Plain(_) | Term::Quota(..) if after_rest => {
                    return Err(problem(
                        term_number,
                        raw,
                        "a period after the rest-of-game period".into(),
                    ));
                }
                Term::Plain(_) | Term::Quota(..) if !uniform && segment_has_period => {
                    return Err(problem(
                        term_number,
                        raw,
                        "one period per `;` segment".into(),
                    ));
                }
                Term::Plain(t) => periods.push(Period::rest_of_game(t, Millis::ZERO)),
                Term::Quota(m, t) => periods.push(Period::quota(m, t, Millis::ZERO)),
            }
        }
        if periods.len() == start {
            return Err(TimeControlError::Human {
                text: text.to_string(),
                problem: format!("`{}` has no period (a time, or moves/time)", segment.trim()),
            });
        }
        if uniform {
            shared_inc = inc;
            shared_delay = delay;
        } else {
            let p = periods.last_mut().expect("checked above");
            p.increment = inc.unwrap_or(Millis::ZERO);
            p.delay = delay.unwrap_or(Delay::None);
        }
    }
    if uniform {
        for p in &mut periods {
            p.increment = shared_inc.unwrap_or(Millis::ZERO);
            p.delay = shared_delay.unwrap_or(Delay::None);
        }
    }
    Periods::new(periods).map_err(|rule| TimeControlError::Invalid {
        text: text.to_string(),
        rule,
    })
}

fn set_once(slot: &mut Option<Millis>, value: Millis) -> Result<(), String> {
    if slot.replace(value).is_some() {
        return Err("a second increment".into());
    }
    Ok(())
}

/// Writes the human form (see the module docs).
///
/// ```
/// use tempo_clock::TimeControl;
/// let tc: TimeControl = "40/5400+30:1800+30".parse().unwrap();
/// assert_eq!(tc.human(), "90m/40 + 30m + 30s");
/// ```
pub fn write_human(control: &TimeControl) -> String {
    match control {
        TimeControl::Unknown => "unknown".into(),
        TimeControl::Unlimited => "unlimited".into(),
        TimeControl::Hourglass { total } => format!("hourglass {}", total.compact()),
        TimeControl::Correspondence(Correspondence::PerMove { limit }) => {
            format!("{} per move", limit.compact())
        }
        TimeControl::Correspondence(Correspondence::Iccf(p)) => {
            format!("ICCF {}", write_periods(p))
        }
        TimeControl::Periods(p) => write_periods(p),
    }
}

fn write_periods(periods: &Periods) -> String {
    let list = periods.periods();
    let period_term = |p: &Period| match p.moves {
        Some(m) => format!("{}/{m}", p.base.compact()),
        None => p.base.compact(),
    };
    let delay_term = |d: Delay| match d {
        Delay::None => None,
        Delay::Simple(d) => Some(format!("delay {}", d.compact())),
        Delay::Bronstein(d) => Some(format!("bronstein {}", d.compact())),
    };
    if periods.is_uniform() {
        let mut terms: Vec<String> = list.iter().map(period_term).collect();
        let first = list[0];
        if first.increment != Millis::ZERO {
            let last_is_rest = list[list.len() - 1].moves.is_none();
            terms.push(if last_is_rest {
                first.increment.compact()
            } else {
                format!("{}/move", first.increment.compact())
            });
        }
        terms.extend(delay_term(first.delay));
        return terms.join(" + ");
    }
    list.iter()
        .map(|p| {
            let mut terms = vec![period_term(p)];
            if p.increment != Millis::ZERO {
                terms.push(format!("{}/move", p.increment.compact()));
            }
            terms.extend(delay_term(p.delay));
            terms.join(" + ")
        })
        .collect::<Vec<_>>()
        .join("; ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pgn::parse_pgn;

    fn h(text: &str) -> TimeControl {
        parse_human(text).unwrap_or_else(|e| panic!("{e}"))
    }

    #[test]
    fn reads_the_common_forms() {
        assert_eq!(h("5+3"), parse_pgn("300+3").unwrap());
        assert_eq!(
            h("90m/40 + 30m + 30s"),
            parse_pgn("40/5400+30:1800+30").unwrap()
        );
        assert_eq!(
            h("40/90m + 30m + 30s"),
            parse_pgn("40/5400+30:1800+30").unwrap()
        );
        assert_eq!(h("90m + 30s"), parse_pgn("5400+30").unwrap());
        assert_eq!(h("2h/40 + 1h/20"), parse_pgn("40/7200:20/3600").unwrap());
        assert_eq!(h("90M + Delay 5s"), parse_pgn("5400d5").unwrap());
        assert_eq!(h("1:30:00 + bronstein 5s"), parse_pgn("5400b5").unwrap());
        assert_eq!(
            h("90m/40 + 30s/move; 30m"),
            parse_pgn("40/5400+30:1800").unwrap()
        );
        assert_eq!(h("hourglass 3m"), parse_pgn("*180").unwrap());
        assert_eq!(h("3d per move"), parse_pgn("1/259200").unwrap());
        assert_eq!(h("90m + 30s per move"), parse_pgn("5400+30").unwrap());
        assert_eq!(
            h("90 min/40 moves + 30 min + 30 sec/move"),
            parse_pgn("40/5400+30:1800+30").unwrap()
        );
        assert_eq!(h("ICCF 30d + 3d per move"), h("ICCF 30d + 3d/move"));
        assert_eq!(h("unknown"), TimeControl::Unknown);
        assert_eq!(h("unlimited"), TimeControl::Unlimited);
        let iccf = h("ICCF 50d/10");
        assert_eq!(iccf.periods().unwrap().alloc(10), Millis::days(100));
        assert!(matches!(
            iccf,
            TimeControl::Correspondence(Correspondence::Iccf(_))
        ));
    }

    #[test]
    fn errors_say_what_is_wrong() {
        for (text, needle) in [
            ("90m + 30m + 30s + 5s", "second increment"),
            ("90m + 40/30m", "after the rest-of-game"),
            ("90/40", "move count and a time"),
            ("90x", "unknown unit"),
            ("90m +", "empty term"),
            ("5s/move", "no period"),
            ("999999999999999+1", "too long"),
        ] {
            let e = parse_human(text).unwrap_err().to_string();
            assert!(e.contains(needle), "{text}: {e}");
        }
    }

    #[test]
    fn writes_what_it_reads() {
        for text in [
            "90m/40 + 30m + 30s",
            "5m + 3s",
            "2h/40 + 1h/20 + 5s/move",
            "90m + delay 5s",
            "90m/40 + 30s/move; 30m",
            "hourglass 3m",
            "3d per move",
            "ICCF 30d + 3d",
            "unknown",
            "unlimited",
        ] {
            assert_eq!(write_human(&h(text)), text);
        }
    }
}
