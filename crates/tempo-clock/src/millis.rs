//! [`Millis`]: a signed span of time in whole milliseconds, with the
//! readings people write (`1:30:00`, `25:00`, `90m30s`) and the rounding
//! rule used for display.

use std::fmt;
use std::iter::Sum;
use std::ops::{Add, AddAssign, Mul, Neg, Sub, SubAssign};
use std::str::FromStr;

use serde::{Deserialize, Serialize};

use crate::error::DurationError;

/// A span of time in whole milliseconds. Signed, because clock arithmetic
/// (time used, corrections) passes through negative intermediate values.
#[derive(
    Debug, Clone, Copy, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize,
)]
#[serde(transparent)]
pub struct Millis(pub i64);

impl Millis {
    /// No time.
    pub const ZERO: Millis = Millis(0);
    /// One minute.
    const MINUTE: Millis = Millis(60_000);
    /// One day (24 hours), the unit of correspondence chess.
    pub const DAY: Millis = Millis(86_400_000);

    /// `n` whole seconds.
    pub const fn seconds(n: i64) -> Millis {
        Millis(n * 1_000)
    }

    /// `n` whole minutes.
    pub const fn minutes(n: i64) -> Millis {
        Millis(n * 60_000)
    }

    /// `n` whole hours.
    #[cfg(test)]
    pub(crate) const fn hours(n: i64) -> Millis {
        Millis(n * 3_600_000)
    }

    /// `n` whole days.
    pub const fn days(n: i64) -> Millis {
        Millis(n * 86_400_000)
    }

    /// The number of milliseconds.
    pub const fn as_millis(self) -> i64 {
        self.0
    }

    /// Whether this span is below zero.
    pub(crate) const fn is_negative(self) -> bool {
        self.0 < 0
    }

    /// The larger of `self` and zero.
    pub(crate) fn clamp_non_negative(self) -> Millis {
        Millis(self.0.max(0))
    }

    /// Rounded to the nearest whole second, halves rounded up (towards
    /// more time). This is tempo's display rule.
    fn round_to_second(self) -> Millis {
        Millis(div_round_half_up(i128::from(self.0), 1_000) as i64 * 1_000)
    }

    /// `H:MM:SS`, rounded to the nearest second (halves up).
    ///
    /// ```
    /// use tempo_clock::Millis;
    /// assert_eq!(Millis(586_667).hms(), "0:09:47");
    /// assert_eq!(Millis::minutes(95).hms(), "1:35:00");
    /// ```
    pub fn hms(self) -> String {
        let s = self.round_to_second().0 / 1_000;
        let sign = if s < 0 { "-" } else { "" };
        let s = s.unsigned_abs();
        format!("{sign}{}:{:02}:{:02}", s / 3600, (s / 60) % 60, s % 60)
    }

    /// `H:MM:SS` with the exact milliseconds when there are any
    /// (`0:09:46.667`), for explanations.
    pub fn hms_exact(self) -> String {
        let sign = if self.0 < 0 { "-" } else { "" };
        let ms = self.0.unsigned_abs();
        let s = ms / 1_000;
        let frac = ms % 1_000;
        let mut out = format!("{sign}{}:{:02}:{:02}", s / 3600, (s / 60) % 60, s % 60);
        if frac != 0 {
            let digits = format!("{frac:03}");
            out.push('.');
            out.push_str(digits.trim_end_matches('0'));
        }
        out
    }

    /// A compact form with units (`1h30m`, `30s`, `3d`, `1.5s`), as used in
    /// the human time-control notation. Zero is `0s`.
    pub(crate) fn compact(self) -> String {
        if self.0 == 0 {
            return "0s".to_string();
        }
        let mut out = String::new();
        if self.0 < 0 {
            out.push('-');
        }
        let mut ms = self.0.unsigned_abs();
        // Whole days or hours read best as such; otherwise minutes, as
        // arbiters write them ("90m", not "1h30m").
        for (unit, len) in [("d", 86_400_000u64), ("h", 3_600_000)] {
            if ms.is_multiple_of(len) {
                out.push_str(&format!("{}{unit}", ms / len));
                return out;
            }
        }
        if ms >= 60_000 {
            out.push_str(&format!("{}m", ms / 60_000));
            ms %= 60_000;
        }
        if ms > 0 {
            let (s, frac) = (ms / 1_000, ms % 1_000);
            if frac == 0 {
                out.push_str(&format!("{s}s"));
            } else {
                let digits = format!("{frac:03}");
                out.push_str(&format!("{s}.{}s", digits.trim_end_matches('0')));
            }
        }
        out
    }

    /// Whole seconds followed by an optional decimal fraction (`5400`,
    /// `0.5`): the unit of PGN's `TimeControl` tag.
    pub(crate) fn pgn_seconds(self) -> String {
        let ms = self.0;
        if ms % 1_000 == 0 {
            format!("{}", ms / 1_000)
        } else {
            let digits = format!("{:03}", (ms % 1_000).abs());
            format!("{}.{}", ms / 1_000, digits.trim_end_matches('0'))
        }
    }
}

/// `num / den` rounded to the nearest integer, halves rounded up (towards
/// positive infinity). `den` must be positive.
pub(crate) fn div_round_half_up(num: i128, den: i128) -> i128 {
    debug_assert!(den > 0);
    (2 * num + den).div_euclid(2 * den)
}

impl fmt::Display for Millis {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.hms_exact())
    }
}

impl Add for Millis {
    type Output = Millis;
    fn add(self, rhs: Millis) -> Millis {
        Millis(self.0 + rhs.0)
    }
}

impl Sub for Millis {
    type Output = Millis;
    fn sub(self, rhs: Millis) -> Millis {
        Millis(self.0 - rhs.0)
    }
}

impl AddAssign for Millis {
    fn add_assign(&mut self, rhs: Millis) {
        self.0 += rhs.0;
    }
}

impl SubAssign for Millis {
    fn sub_assign(&mut self, rhs: Millis) {
        self.0 -= rhs.0;
    }
}

impl Neg for Millis {
    type Output = Millis;
    fn neg(self) -> Millis {
        Millis(-self.0)
    }
}

impl Mul<i64> for Millis {
    type Output = Millis;
    fn mul(self, rhs: i64) -> Millis {
        Millis(self.0 * rhs)
    }
}

impl Sum for Millis {
    fn sum<I: Iterator<Item = Millis>>(iter: I) -> Millis {
        Millis(iter.map(|m| m.0).sum())
    }
}

/// The longest span accepted from text: 100 years, far beyond any game,
/// and small enough that all clock arithmetic stays exact in `i64`.
pub(crate) const MAX_TEXT_SPAN: Millis = Millis(100 * 366 * 86_400_000);

impl FromStr for Millis {
    type Err = DurationError;

    /// Reads `H:MM:SS`, `M:SS` (each optionally with `.fff`), or a sum of
    /// unit terms: `20m`, `90m30s`, `1h30m`, `3d`, `45s`, `1.5s`, `250ms`
    /// (also `90 min`, `30 sec`, `2 hours`, `3 days`).
    /// A leading `-` makes the span negative. A bare number is refused
    /// because its unit would be a guess.
    fn from_str(text: &str) -> Result<Millis, DurationError> {
        parse_duration(text)
    }
}

fn parse_duration(text: &str) -> Result<Millis, DurationError> {
    let trimmed = text.trim();
    if trimmed.is_empty() {
        return Err(DurationError::Empty);
    }
    let (negative, body) = match trimmed.strip_prefix('-') {
        Some(rest) => (true, rest.trim_start()),
        None => (false, trimmed),
    };
    let value = if body.contains(':') {
        parse_colon(body, trimmed)?
    } else {
        parse_units(body, trimmed)?
    };
    if value > MAX_TEXT_SPAN {
        return Err(DurationError::TooLong(trimmed.to_string()));
    }
    Ok(if negative { -value } else { value })
}

/// `H:MM:SS` or `M:SS`, the last field optionally with a decimal fraction.
fn parse_colon(body: &str, whole: &str) -> Result<Millis, DurationError> {
    let fields: Vec<&str> = body.split(':').collect();
    if fields.len() > 3 {
        return Err(DurationError::TooManyFields(whole.to_string()));
    }
    let last = fields.len() - 1;
    let mut total = Millis::ZERO;
    for (i, field) in fields.iter().enumerate() {
        let bad = || field_error(field, whole);
        if field.is_empty() {
            return Err(bad());
        }
        let value = if i == last {
            parse_decimal_millis(field, 1_000).ok_or_else(bad)?
        } else {
            Millis(parse_small_int(field).ok_or_else(bad)? * 1_000)
        };
        if i > 0 && value >= Millis::MINUTE {
            return Err(DurationError::FieldOutOfRange {
                field: field.to_string(),
                text: whole.to_string(),
            });
        }
        total = Millis(total.0.checked_mul(60).ok_or_else(bad)?) + value;
    }
    Ok(total)
}

/// A number field that could not be read: too long when it is all digits
/// (a size no clock shows), else not a number.
fn field_error(field: &str, whole: &str) -> DurationError {
    if !field.is_empty() && field.bytes().all(|b| b.is_ascii_digit()) {
        DurationError::TooLong(whole.to_string())
    } else {
        DurationError::BadField {
            field: field.to_string(),
            text: whole.to_string(),
        }
    }
}

/// A sum of `<number><unit>` terms, units `d h m s ms`, each at most once
/// and from larger to smaller.
fn parse_units(body: &str, whole: &str) -> Result<Millis, DurationError> {
    let units: [(&str, i64); 5] = [
        ("d", 86_400_000),
        ("h", 3_600_000),
        ("m", 60_000),
        ("s", 1_000),
        ("ms", 1),
    ];
    let mut rest = body;
    let mut total = Millis::ZERO;
    let mut next_unit = 0;
    while !rest.is_empty() {
        let number_len = rest
            .find(|c: char| !(c.is_ascii_digit() || c == '.'))
            .unwrap_or(rest.len());
        let number = &rest[..number_len];
        if number.is_empty() {
            return Err(DurationError::BadField {
                field: rest.to_string(),
                text: whole.to_string(),
            });
        }
        let after = &rest[number_len..];
        let unit_len = after
            .find(|c: char| c.is_ascii_digit() || c == '.')
            .unwrap_or(after.len());
        let unit = after[..unit_len].trim().to_ascii_lowercase();
        if unit.is_empty() {
            return Err(DurationError::MissingUnit(whole.to_string()));
        }
        let canonical = match unit.as_str() {
            "day" | "days" => "d",
            "hr" | "hrs" | "hour" | "hours" => "h",
            "min" | "mins" | "minute" | "minutes" => "m",
            "sec" | "secs" | "second" | "seconds" => "s",
            other => other,
        };
        let Some(index) = units.iter().position(|(u, _)| *u == canonical) else {
            return Err(DurationError::UnknownUnit {
                unit,
                text: whole.to_string(),
            });
        };
        if index < next_unit {
            return Err(DurationError::UnitOrder(whole.to_string()));
        }
        next_unit = index + 1;
        let value = parse_decimal_millis(number, units[index].1)
            .ok_or_else(|| field_error(number, whole))?;
        total = Millis(
            total
                .0
                .checked_add(value.0)
                .ok_or_else(|| DurationError::TooLong(whole.to_string()))?,
        );
        rest = after[unit_len..].trim_start();
    }
    Ok(total)
}

/// A decimal number of `unit`-millisecond units, exact to the millisecond
/// (more precise fractions are refused rather than rounded).
pub(crate) fn parse_decimal_millis(text: &str, unit: i64) -> Option<Millis> {
    let (int_part, frac_part) = match text.split_once('.') {
        Some((i, f)) => (i, Some(f)),
        None => (text, None),
    };
    if int_part.is_empty() && frac_part.is_none_or(str::is_empty) {
        return None;
    }
    let int = if int_part.is_empty() {
        0
    } else {
        parse_small_int(int_part)?
    };
    let mut total = int.checked_mul(unit)?;
    if let Some(frac) = frac_part {
        if frac.is_empty() || !frac.bytes().all(|b| b.is_ascii_digit()) || frac.len() > 9 {
            return None;
        }
        let digits: i64 = frac.parse().ok()?;
        let scale = 10i64.pow(frac.len() as u32);
        let part = i128::from(digits) * i128::from(unit);
        if part % i128::from(scale) != 0 {
            return None;
        }
        total = total.checked_add((part / i128::from(scale)) as i64)?;
    }
    (total <= MAX_TEXT_SPAN.0).then_some(Millis(total))
}

/// A non-negative decimal integer of at most 15 digits.
pub(crate) fn parse_small_int(text: &str) -> Option<i64> {
    if text.is_empty() || text.len() > 15 || !text.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    text.parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(s: &str) -> Millis {
        s.parse().unwrap()
    }

    #[test]
    fn reads_colon_forms() {
        assert_eq!(ms("20:00"), Millis::minutes(20));
        assert_eq!(ms("1:30:00"), Millis::minutes(90));
        assert_eq!(ms("0:09:46.5"), Millis(586_500));
        assert_eq!(ms("-0:30"), Millis(-30_000));
    }

    #[test]
    fn reads_unit_forms() {
        assert_eq!(ms("20m"), Millis::minutes(20));
        assert_eq!(ms("90m30s"), Millis(5_430_000));
        assert_eq!(ms("1h 30m"), Millis::minutes(90));
        assert_eq!(ms("3d"), Millis::days(3));
        assert_eq!(ms("1.5s"), Millis(1_500));
        assert_eq!(ms("250ms"), Millis(250));
        assert_eq!(ms("90 min 30 sec"), Millis(5_430_000));
        assert_eq!(ms("2 hours"), Millis::hours(2));
        assert_eq!(ms("3 days"), Millis::days(3));
    }

    #[test]
    fn refuses_bad_text_with_a_reason() {
        assert!(matches!(
            "20".parse::<Millis>(),
            Err(DurationError::MissingUnit(_))
        ));
        assert!(matches!(
            "20x".parse::<Millis>(),
            Err(DurationError::UnknownUnit { .. })
        ));
        assert!(matches!(
            "1:75".parse::<Millis>(),
            Err(DurationError::FieldOutOfRange { .. })
        ));
        assert!(matches!(
            "30s5m".parse::<Millis>(),
            Err(DurationError::UnitOrder(_))
        ));
        assert!(matches!(
            "1:2:3:4".parse::<Millis>(),
            Err(DurationError::TooManyFields(_))
        ));
        assert!(matches!("".parse::<Millis>(), Err(DurationError::Empty)));
        assert!("0.0001s".parse::<Millis>().is_err());
        assert!("99999999999999d".parse::<Millis>().is_err());
    }

    #[test]
    fn display_rounds_halves_up() {
        assert_eq!(Millis(586_667).hms(), "0:09:47");
        assert_eq!(Millis(1_500).hms(), "0:00:02");
        assert_eq!(Millis(1_499).hms(), "0:00:01");
        assert_eq!(Millis(-1_500).hms(), "-0:00:01");
        assert_eq!(Millis(586_667).hms_exact(), "0:09:46.667");
        assert_eq!(Millis(5_430_000).compact(), "90m30s");
        assert_eq!(Millis::hours(2).compact(), "2h");
        assert_eq!(Millis::days(3).compact(), "3d");
        assert_eq!(Millis(1_500).pgn_seconds(), "1.5");
    }
}
