//! Exact Keizer scores and the fractions settings are made of.

use std::cmp::Ordering;
use std::fmt;
use std::ops::Add;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

fn gcd(a: i128, b: i128) -> i128 {
    let (mut a, mut b) = (a.abs(), b.abs());
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a
}

/// A non-negative fraction such as `2/3` or `3/4` (the share of the own
/// value credited for a bye or an absence, a value-series ratio, ...).
///
/// Parses from `2/3`, `0.75`, `1`; prints as `2/3` (or `1` when whole).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub struct Fraction {
    num: u32,
    den: u32,
}

impl Fraction {
    /// Zero.
    pub(crate) const ZERO: Fraction = Fraction { num: 0, den: 1 };
    /// One.
    #[cfg(test)]
    pub(crate) const ONE: Fraction = Fraction { num: 1, den: 1 };

    /// `num / den` in lowest terms; `None` if `den` is zero.
    pub(crate) const fn new(num: u32, den: u32) -> Option<Fraction> {
        if den == 0 {
            return None;
        }
        let (mut a, mut b) = (num, den);
        while b != 0 {
            let t = a % b;
            a = b;
            b = t;
        }
        Some(Fraction {
            num: num / a,
            den: den / a,
        })
    }

    /// The numerator (in lowest terms).
    pub(crate) fn numerator(self) -> u32 {
        self.num
    }

    /// The denominator (in lowest terms, at least 1).
    pub(crate) fn denominator(self) -> u32 {
        self.den
    }

    /// `value × self`, exactly.
    pub(crate) fn of(self, value: i64) -> Score {
        Score::from_i128(
            i128::from(value) * i128::from(self.num),
            i128::from(self.den),
        )
    }
}

impl fmt::Display for Fraction {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.den == 1 {
            write!(f, "{}", self.num)
        } else {
            write!(f, "{}/{}", self.num, self.den)
        }
    }
}

/// A fraction that could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "'{0}' is not a fraction (write e.g. 2/3, 0.75 or 1; at most 3 decimals, denominator at most 1000)"
)]
pub struct ParseFractionError(pub String);

impl FromStr for Fraction {
    type Err = ParseFractionError;

    /// At most 3 decimals or a denominator of at most 1000 (in lowest
    /// terms), and a value of at most 1000: enough for every club rule,
    /// and it keeps sums of scores far from overflow.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let f = Fraction::parse_unchecked(s)?;
        if f.den > 1000 || f.num / f.den > 1000 {
            return Err(ParseFractionError(s.to_string()));
        }
        Ok(f)
    }
}

impl Fraction {
    fn parse_unchecked(s: &str) -> Result<Fraction, ParseFractionError> {
        let err = || ParseFractionError(s.to_string());
        let t = s.trim();
        if let Some((n, d)) = t.split_once('/') {
            let n: u32 = n.trim().parse().map_err(|_| err())?;
            let d: u32 = d.trim().parse().map_err(|_| err())?;
            return Fraction::new(n, d).ok_or_else(err);
        }
        let (whole, decimals) = t.split_once('.').unwrap_or((t, ""));
        if whole.is_empty() && decimals.is_empty()
            || decimals.len() > 3
            || !decimals.bytes().all(|b| b.is_ascii_digit())
        {
            return Err(err());
        }
        let whole: u32 = if whole.is_empty() {
            0
        } else {
            whole.parse().map_err(|_| err())?
        };
        let den = 10u32.pow(decimals.len() as u32);
        let frac: u32 = if decimals.is_empty() {
            0
        } else {
            decimals.parse().map_err(|_| err())?
        };
        let num = whole
            .checked_mul(den)
            .and_then(|w| w.checked_add(frac))
            .ok_or_else(err)?;
        Fraction::new(num, den).ok_or_else(err)
    }
}

impl TryFrom<String> for Fraction {
    type Error = ParseFractionError;
    fn try_from(s: String) -> Result<Self, Self::Error> {
        s.parse()
    }
}

impl From<Fraction> for String {
    fn from(f: Fraction) -> String {
        f.to_string()
    }
}

/// An exact Keizer score (a rational number: values are whole, but draws
/// give halves and absences e.g. thirds).
///
/// Compared exactly; printed with at most two decimals (`71.5`, `29.33`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Score {
    // i128: sums of thirds, quarters, ... of large values stay exact.
    num: i128,
    den: i128,
}

impl Score {
    /// Zero.
    pub const ZERO: Score = Score { num: 0, den: 1 };

    /// `num / den` in lowest terms. Panics if `den` is zero.
    pub fn new(num: i64, den: i64) -> Score {
        Score::from_i128(i128::from(num), i128::from(den))
    }

    fn from_i128(num: i128, den: i128) -> Score {
        assert!(den != 0, "score with zero denominator");
        let g = gcd(num, den).max(1);
        let sign = if den < 0 { -1 } else { 1 };
        Score {
            num: sign * num / g,
            den: sign * den / g,
        }
    }

    /// A whole score.
    pub fn whole(n: i64) -> Score {
        Score {
            num: i128::from(n),
            den: 1,
        }
    }

    /// Half of `n` (a draw against a player of value `n`).
    pub fn half(n: i64) -> Score {
        Score::new(n, 2)
    }

    /// The numerator in lowest terms.
    pub fn numerator(self) -> i128 {
        self.num
    }

    /// The denominator in lowest terms (positive).
    pub fn denominator(self) -> i128 {
        self.den
    }

    /// The nearest `f64` (for display only; never compare these).
    pub fn as_f64(self) -> f64 {
        self.num as f64 / self.den as f64
    }
}

impl Add for Score {
    type Output = Score;
    fn add(self, rhs: Score) -> Score {
        let g = gcd(self.den, rhs.den);
        let den = self.den / g * rhs.den;
        Score::from_i128(self.num * (den / self.den) + rhs.num * (den / rhs.den), den)
    }
}

impl std::iter::Sum for Score {
    fn sum<I: Iterator<Item = Score>>(iter: I) -> Score {
        iter.fold(Score::ZERO, Add::add)
    }
}

impl Ord for Score {
    fn cmp(&self, other: &Self) -> Ordering {
        (self.num * other.den).cmp(&(other.num * self.den))
    }
}

impl PartialOrd for Score {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl fmt::Display for Score {
    /// Whole scores print without decimals, others with up to two,
    /// rounded half away from zero: `99`, `71.5`, `29.33`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.den == 1 {
            return write!(f, "{}", self.num);
        }
        let hundredths = (self.num * 200 + self.den.copysign_of(self.num)) / (2 * self.den);
        let sign = if hundredths < 0 { "-" } else { "" };
        let h = hundredths.abs();
        let (whole, cents) = (h / 100, h % 100);
        if cents % 10 == 0 {
            write!(f, "{sign}{whole}.{}", cents / 10)
        } else {
            write!(f, "{sign}{whole}.{cents:02}")
        }
    }
}

trait CopySign {
    fn copysign_of(self, sign_of: i128) -> Self;
}

impl CopySign for i128 {
    fn copysign_of(self, sign_of: i128) -> i128 {
        if sign_of < 0 { -self } else { self }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fractions_parse_and_print() {
        assert_eq!(
            "2/3".parse::<Fraction>().unwrap(),
            Fraction::new(2, 3).unwrap()
        );
        assert_eq!("0.75".parse::<Fraction>().unwrap().to_string(), "3/4");
        assert_eq!("1".parse::<Fraction>().unwrap(), Fraction::ONE);
        assert_eq!(".5".parse::<Fraction>().unwrap().to_string(), "1/2");
        assert_eq!("4/6".parse::<Fraction>().unwrap().to_string(), "2/3");
        assert_eq!("2000/3000".parse::<Fraction>().unwrap().to_string(), "2/3");
        for bad in [
            "", "x", "1/0", "-1", "1.2.3", "./", "0.1234", "1/1001", "1001",
        ] {
            assert!(bad.parse::<Fraction>().is_err(), "{bad}");
        }
    }

    #[test]
    fn scores_are_exact() {
        let a = Fraction::new(2, 3).unwrap().of(44);
        assert_eq!(a, Score::new(88, 3));
        assert_eq!(a.to_string(), "29.33");
        assert_eq!((Score::half(47) + Score::whole(48)).to_string(), "71.5");
        assert_eq!(Score::new(1, 3) + Score::new(2, 3), Score::whole(1));
        assert!(Score::new(1, 3) < Score::new(34, 100));
        assert_eq!(Score::new(-1, 2).to_string(), "-0.5");
        assert_eq!(Score::new(2, 3).to_string(), "0.67");
    }
}
