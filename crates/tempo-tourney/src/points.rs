//! Points as TRF writes them (one decimal) and the point system that turns
//! results into points (TRF-2026 record `162`, bbpPairings' `BB?` lines).

use std::fmt;
use std::ops::{Add, AddAssign, Mul, Sub};
use std::str::FromStr;

use serde::{Deserialize, Serialize};

use crate::model::ResultCode;

/// A number of points, kept exactly in tenths (TRF's format is `11.5`).
///
/// ```
/// use tempo_tourney::Points;
/// let p: Points = "2.5".parse().unwrap();
/// assert_eq!(p.tenths(), 25);
/// assert_eq!(p.to_string(), "2.5");
/// assert_eq!(Points::from_tenths(30).to_string(), "3.0");
/// ```
#[derive(
    Debug, Clone, Copy, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize,
)]
pub struct Points(i32);

impl Points {
    /// No points.
    pub(crate) const ZERO: Points = Points(0);
    /// One point.
    pub const ONE: Points = Points(10);
    /// Half a point.
    pub(crate) const HALF: Points = Points(5);

    /// Points from a number of tenths.
    pub const fn from_tenths(tenths: i32) -> Points {
        Points(tenths)
    }

    /// The number of tenths.
    pub const fn tenths(self) -> i32 {
        self.0
    }

    /// The value as a float (for display and tie-break arithmetic).
    pub fn as_f64(self) -> f64 {
        f64::from(self.0) / 10.0
    }
}

impl fmt::Display for Points {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let sign = if self.0 < 0 { "-" } else { "" };
        let abs = self.0.unsigned_abs();
        let text = format!("{sign}{}.{}", abs / 10, abs % 10);
        f.pad(&text)
    }
}

/// Why a text is not a number of points.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("'{0}' is not a number of points (expected a form like 11.5)")]
pub struct ParsePointsError(pub String);

impl FromStr for Points {
    type Err = ParsePointsError;

    /// Accepts `3`, `3.`, `3.0`, `.5`, `-1.5`, and trailing zeros after the
    /// first decimal (`2.50`); rejects anything finer than a tenth.
    fn from_str(text: &str) -> Result<Points, ParsePointsError> {
        let err = || ParsePointsError(text.to_string());
        let trimmed = text.trim();
        let (negative, body) = match trimmed.strip_prefix('-') {
            Some(rest) => (true, rest),
            None => (false, trimmed.strip_prefix('+').unwrap_or(trimmed)),
        };
        let (int_part, frac_part) = match body.split_once('.') {
            Some((i, f)) => (i, f),
            None => (body, ""),
        };
        if int_part.is_empty() && frac_part.is_empty() {
            return Err(err());
        }
        let all_digits = |s: &str| s.bytes().all(|b| b.is_ascii_digit());
        if !all_digits(int_part) || !all_digits(frac_part) || int_part.len() > 7 {
            return Err(err());
        }
        let whole: i32 = if int_part.is_empty() {
            0
        } else {
            int_part.parse().map_err(|_| err())?
        };
        let mut frac = frac_part.bytes();
        let tenth = frac.next().map_or(0, |b| i32::from(b - b'0'));
        if frac.any(|b| b != b'0') {
            return Err(err());
        }
        let tenths = whole * 10 + tenth;
        Ok(Points(if negative { -tenths } else { tenths }))
    }
}

impl Add for Points {
    type Output = Points;
    fn add(self, rhs: Points) -> Points {
        // Saturating: absurd inputs (a line with 10^5 rounds of 9999 points)
        // must not overflow.
        Points(self.0.saturating_add(rhs.0))
    }
}

impl AddAssign for Points {
    fn add_assign(&mut self, rhs: Points) {
        self.0 = self.0.saturating_add(rhs.0);
    }
}

impl Sub for Points {
    type Output = Points;
    fn sub(self, rhs: Points) -> Points {
        Points(self.0.saturating_sub(rhs.0))
    }
}

impl Mul<i32> for Points {
    type Output = Points;
    fn mul(self, rhs: i32) -> Points {
        Points(self.0.saturating_mul(rhs))
    }
}

impl std::iter::Sum for Points {
    fn sum<I: Iterator<Item = Points>>(iter: I) -> Points {
        iter.fold(Points::ZERO, Add::add)
    }
}

/// How many points each kind of result is worth.
///
/// The defaults are FIDE's (1 / ½ / 0). TRF-2026 record `162` sets them with
/// the codes `W` (win over the board or by forfeit, full-point bye), `D`
/// (draw, half-point bye), `L` (loss), `A` (absence: zero-point bye and
/// forfeit loss), `P` (pairing-allocated bye, default: as `W`) and `X`
/// (unknown result, default: as `D`). bbpPairings' lines `BBW`, `BBD`,
/// `BBL`, `BBZ` (zero-point bye), `BBF` (forfeit loss) and `BBU`
/// (pairing-allocated bye) set single values.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct PointSystem {
    /// Win over the board, forfeit win, full-point bye, unrated win.
    pub win: Points,
    /// Draw, half-point bye, unrated draw.
    pub draw: Points,
    /// Loss over the board, unrated loss.
    pub loss: Points,
    /// Forfeit loss.
    pub forfeit_loss: Points,
    /// Zero-point bye (known absence) and blank entries.
    pub zero_bye: Points,
    /// Pairing-allocated bye; `None` means "as a win".
    pub pairing_bye: Option<Points>,
    /// Unknown result (TRF-2026 `X`); `None` means "as a draw".
    pub unknown: Option<Points>,
}

impl Default for PointSystem {
    fn default() -> PointSystem {
        PointSystem::FIDE
    }
}

impl PointSystem {
    /// 1 for a win, ½ for a draw, 0 for a loss.
    pub(crate) const FIDE: PointSystem = PointSystem {
        win: Points::ONE,
        draw: Points::HALF,
        loss: Points::ZERO,
        forfeit_loss: Points::ZERO,
        zero_bye: Points::ZERO,
        pairing_bye: None,
        unknown: None,
    };

    /// A system with the given points for win and draw, all else default.
    #[cfg(test)]
    pub(crate) fn with_win_draw(win: Points, draw: Points) -> PointSystem {
        PointSystem {
            win,
            draw,
            ..PointSystem::FIDE
        }
    }

    /// Points for a pairing-allocated bye.
    pub(crate) fn pairing_bye_points(&self) -> Points {
        self.pairing_bye.unwrap_or(self.win)
    }

    /// Points for an unknown result.
    pub(crate) fn unknown_points(&self) -> Points {
        self.unknown.unwrap_or(self.draw)
    }

    /// Points a result code earns.
    pub fn points_for(&self, result: ResultCode) -> Points {
        use ResultCode::*;
        match result {
            Win | ForfeitWin | UnratedWin | FullPointBye => self.win,
            Draw | UnratedDraw | HalfPointBye => self.draw,
            Loss | UnratedLoss => self.loss,
            ForfeitLoss => self.forfeit_loss,
            ZeroPointBye | Blank => self.zero_bye,
            PairingBye => self.pairing_bye_points(),
        }
    }

    /// Whether this is FIDE's default system (then TRF needs no `162`).
    #[cfg(test)]
    pub(crate) fn is_fide_default(&self) -> bool {
        self.win == Points::ONE
            && self.draw == Points::HALF
            && self.loss == Points::ZERO
            && self.forfeit_loss == Points::ZERO
            && self.zero_bye == Points::ZERO
            && self.pairing_bye.is_none_or(|p| p == self.win)
            && self.unknown.is_none_or(|p| p == self.draw)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_and_prints() {
        for (text, tenths, shown) in [
            ("0.0", 0, "0.0"),
            ("5.5", 55, "5.5"),
            (" 12", 120, "12.0"),
            (".5", 5, "0.5"),
            ("3.50", 35, "3.5"),
            ("-1.5", -15, "-1.5"),
        ] {
            let p: Points = text.parse().unwrap();
            assert_eq!(p.tenths(), tenths, "{text}");
            assert_eq!(p.to_string(), shown);
        }
        for bad in ["", "x.5", "1.25", "1..", "1,5", "."] {
            assert!(bad.parse::<Points>().is_err(), "{bad}");
        }
        assert_eq!(format!("{:>5}", Points::from_tenths(25)), "  2.5");
    }

    #[test]
    fn point_system_maps_results() {
        let s = PointSystem::with_win_draw(Points::from_tenths(30), Points::ONE);
        assert_eq!(s.points_for(ResultCode::PairingBye).tenths(), 30);
        assert_eq!(s.points_for(ResultCode::HalfPointBye).tenths(), 10);
        assert_eq!(s.points_for(ResultCode::ForfeitLoss).tenths(), 0);
        assert!(!s.is_fide_default());
        assert!(PointSystem::default().is_fide_default());
    }
}
