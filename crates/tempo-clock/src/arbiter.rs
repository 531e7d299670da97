//! The arbiter's clock correction after a late-discovered illegal move.
//!
//! The position before the illegal move is restored and each player's
//! clock is set to what it plausibly showed then (FIDE Article 7.1 leaves
//! this to the arbiter's best judgement). Counts are per player: that
//! player's own completed moves. The formulas of the source (Zurückstellen
//! der Uhren bei Fischer-Bedenkzeit):
//!
//! - (1) analogue clocks (used time, no increment):
//!   `set_used = legal / played × used` — [`formula_1`];
//! - (2) `used = initial + played × increment − displayed`;
//! - (3) `legal_used = legal / played × used`;
//! - (4) `set = initial + legal × increment − legal_used` — [`stepwise`];
//! - (5) the increments cancel: `set = initial − legal / played × (initial −
//!   displayed)` — [`formula_5`].
//!
//! With several periods (5) is wrong when a period bonus falls between the
//! legal and the played count. With `alloc(n)` (see
//! [`Periods::alloc`]) the same reasoning gives the general form
//! `set = alloc(legal) − legal / played × (alloc(played) − displayed)` —
//! [`correct`]. It reduces to (5) without period bonuses. With delays,
//! "used" is main time consumed and the same form holds.
//!
//! Analogue clocks show used time and have no increments; the period
//! limits are only marks on the dial, so (1) holds across periods too.
//! Edge cases: `played = 0` leaves the clock unchanged, `legal > played`
//! and negative times are refused, a display above `alloc(played)` is
//! warned about, and so is an estimate that leaves no time (set to zero).
//! Read a running clock only after stopping it. Online, where every
//! reading is recorded, [`restore_exact`] replaces the estimate.
//!
//! **Rounding.** Every result is kept exact (a rational number of
//! milliseconds, [`ExactTime`]). [`ExactTime::millis`] rounds to the
//! nearest millisecond and [`ExactTime::display`] to the nearest second,
//! both straight from the exact value, halves rounded up (in the player's
//! favour): 9:46.667 shows as 0:09:47, 28:44.5 would show as 0:28:45.

use serde::{Deserialize, Serialize};
use tempo_chess::Color;

use crate::control::{Periods, TimeControl};
use crate::error::ArbiterError;
use crate::history::History;
use crate::millis::{Millis, div_round_half_up};

/// The largest move count accepted: more than any game can last.
pub(crate) const MAX_MOVES: u32 = 10_000;

/// An exact time: a rational number of milliseconds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct ExactTime {
    num: i128,
    den: i128,
}

impl ExactTime {
    fn new(num: i128, den: i128) -> ExactTime {
        debug_assert!(den > 0);
        let g = gcd(num.unsigned_abs(), den.unsigned_abs()).max(1) as i128;
        ExactTime {
            num: num / g,
            den: den / g,
        }
    }

    /// A whole number of milliseconds.
    fn from_millis(m: Millis) -> ExactTime {
        ExactTime::new(i128::from(m.as_millis()), 1)
    }

    /// Rounded to the nearest millisecond, halves up.
    pub fn millis(self) -> Millis {
        Millis(div_round_half_up(self.num, self.den) as i64)
    }

    /// Rounded to the nearest second, halves up: what to set on a clock
    /// that shows seconds.
    pub fn display(self) -> Millis {
        Millis(div_round_half_up(self.num, self.den * 1_000) as i64 * 1_000)
    }

    /// The value's sign: below zero, zero, above zero.
    fn signum(self) -> i32 {
        self.num.signum() as i32
    }
}

fn gcd(mut a: u128, mut b: u128) -> u128 {
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a
}

/// `legal / played × t`, exact.
fn share(legal: u32, played: u32, t: Millis) -> ExactTime {
    ExactTime::new(
        i128::from(legal) * i128::from(t.as_millis()),
        i128::from(played),
    )
}

fn sub(a: Millis, b: ExactTime) -> ExactTime {
    ExactTime::new(i128::from(a.as_millis()) * b.den - b.num, b.den)
}

fn check_counts(played: u32, legal: u32) -> Result<(), ArbiterError> {
    for n in [played, legal] {
        if n > MAX_MOVES {
            return Err(ArbiterError::TooManyMoves(n));
        }
    }
    if legal > played {
        return Err(ArbiterError::LegalExceedsPlayed { played, legal });
    }
    Ok(())
}

fn check_time(what: &'static str, value: Millis) -> Result<(), ArbiterError> {
    if value.is_negative() {
        return Err(ArbiterError::NegativeTime { what, value });
    }
    Ok(())
}

/// Formula (1), for analogue clocks that show used time and have no
/// increment: the used time to set.
///
/// ```
/// use tempo_clock::{arbiter, Millis};
/// let set = arbiter::formula_1(40, 30, Millis::minutes(100)).unwrap();
/// assert_eq!(set.millis(), Millis::minutes(75));
/// ```
pub fn formula_1(played: u32, legal: u32, used: Millis) -> Result<ExactTime, ArbiterError> {
    check_counts(played, legal)?;
    check_time("used", used)?;
    if played == 0 {
        return Err(ArbiterError::NothingPlayed);
    }
    Ok(share(legal, played, used))
}

/// Formula (5): the time to set on a Fischer (or sudden-death) clock.
///
/// ```
/// use tempo_clock::{arbiter, Millis};
/// let set = arbiter::formula_5(Millis::minutes(90), 40, 35, Millis::minutes(20)).unwrap();
/// assert_eq!(set.display().hms(), "0:28:45");
/// ```
pub fn formula_5(
    initial: Millis,
    played: u32,
    legal: u32,
    displayed: Millis,
) -> Result<ExactTime, ArbiterError> {
    check_counts(played, legal)?;
    check_time("initial", initial)?;
    check_time("displayed", displayed)?;
    if played == 0 {
        return Err(ArbiterError::NothingPlayed);
    }
    Ok(sub(initial, share(legal, played, initial - displayed)))
}

/// The three steps (2), (3), (4) of the source.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Stepwise {
    /// (2) time used up to the discovery.
    pub used: Millis,
    /// (3) time used up to the last legal move.
    pub legal_used: ExactTime,
    /// (4) time to set.
    pub set: ExactTime,
}

/// Formulas (2)-(4) one after the other, for a Fischer clock.
pub fn stepwise(
    initial: Millis,
    increment: Millis,
    played: u32,
    legal: u32,
    displayed: Millis,
) -> Result<Stepwise, ArbiterError> {
    check_counts(played, legal)?;
    check_time("initial", initial)?;
    check_time("increment", increment)?;
    check_time("displayed", displayed)?;
    if played == 0 {
        return Err(ArbiterError::NothingPlayed);
    }
    let used = initial + increment * i64::from(played) - displayed;
    let legal_used = share(legal, played, used);
    let set = sub(initial + increment * i64::from(legal), legal_used);
    Ok(Stepwise {
        used,
        legal_used,
        set,
    })
}

/// Something the arbiter should look at.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Warning {
    /// The display shows more than the control ever allotted after that
    /// many moves (possible after extra time, or a mis-set clock).
    DisplayAboveAllotted {
        /// The display.
        displayed: Millis,
        /// `alloc(played)`.
        allotted: Millis,
    },
    /// The proportional estimate leaves no time (possible when a large
    /// period bonus lies between the two counts and the display is low);
    /// the result is set to zero and the arbiter must judge.
    NoTimeLeft {
        /// The estimate before clamping, to the millisecond.
        estimate: Millis,
    },
}

impl std::fmt::Display for Warning {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Warning::DisplayAboveAllotted {
                displayed,
                allotted,
            } => write!(
                f,
                "the display ({}) exceeds all time allotted for the moves played ({})",
                displayed.hms_exact(),
                allotted.hms_exact()
            ),
            Warning::NoTimeLeft { estimate } => write!(
                f,
                "the proportional estimate ({}) leaves no time; set to 0:00:00 — use best judgement (FIDE 7.1)",
                estimate.hms_exact()
            ),
        }
    }
}

/// A worked correction for one player, with every intermediate value.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Correction {
    /// The player's completed moves at the discovery.
    pub played: u32,
    /// The player's legal moves (before the position restored).
    pub legal: u32,
    /// The clock display at the discovery.
    pub displayed: Millis,
    /// `alloc(played)`.
    pub alloc_played: Millis,
    /// `alloc(legal)`.
    pub alloc_legal: Millis,
    /// (2) `alloc(played) − displayed`.
    pub used: Millis,
    /// (3) `legal / played × used`.
    pub legal_used: ExactTime,
    /// (4) `alloc(legal) − legal_used`, the exact estimate.
    pub set: ExactTime,
    /// What formula (5) would give with the first period's base.
    pub formula_5: ExactTime,
    /// Points for the arbiter.
    pub warnings: Vec<Warning>,
}

impl Correction {
    /// The time to set, to the millisecond, never below zero.
    pub fn set_millis(&self) -> Millis {
        self.set.millis().clamp_non_negative()
    }

    /// The time to set on a clock showing seconds (nearest second, halves
    /// up), never below zero.
    pub fn set_display(&self) -> Millis {
        self.set.display().clamp_non_negative()
    }
}

/// The general correction for a control with periods:
/// `set = alloc(legal) − legal / played × (alloc(played) − displayed)`.
/// With `played = 0` (and so `legal = 0`) nothing changes.
///
/// ```
/// use tempo_clock::{arbiter, Millis, TimeControl};
/// let tc: TimeControl = "40/5400+30:1800+30".parse().unwrap();
/// let c = arbiter::correct(tc.periods().unwrap(), 45, 38, Millis::minutes(25)).unwrap();
/// assert_eq!(c.set.millis().hms_exact(), "0:09:46.667");
/// assert_eq!(c.set_display().hms(), "0:09:47");
/// assert_eq!(c.formula_5.display().hms(), "0:35:07");
/// ```
pub fn correct(
    periods: &Periods,
    played: u32,
    legal: u32,
    displayed: Millis,
) -> Result<Correction, ArbiterError> {
    check_counts(played, legal)?;
    check_time("displayed", displayed)?;
    let alloc_played = periods.alloc(played);
    let alloc_legal = periods.alloc(legal);
    let used = alloc_played - displayed;
    let (legal_used, set, formula_5) = if played == 0 {
        let unchanged = ExactTime::from_millis(displayed);
        (ExactTime::from_millis(Millis::ZERO), unchanged, unchanged)
    } else {
        let legal_used = share(legal, played, used);
        let set = sub(alloc_legal, legal_used);
        (
            legal_used,
            set,
            formula_5_unchecked(periods.initial(), played, legal, displayed),
        )
    };
    let mut warnings = Vec::new();
    if displayed > alloc_played {
        warnings.push(Warning::DisplayAboveAllotted {
            displayed,
            allotted: alloc_played,
        });
    }
    if set.signum() <= 0 && played > 0 {
        warnings.push(Warning::NoTimeLeft {
            estimate: set.millis(),
        });
    }
    Ok(Correction {
        played,
        legal,
        displayed,
        alloc_played,
        alloc_legal,
        used,
        legal_used,
        set,
        formula_5,
        warnings,
    })
}

fn formula_5_unchecked(initial: Millis, played: u32, legal: u32, displayed: Millis) -> ExactTime {
    sub(initial, share(legal, played, initial - displayed))
}

/// [`correct`] for any [`TimeControl`]: over-the-board periods and ICCF
/// periods. Hourglass and per-move controls have no allotment to reason
/// from and are refused.
pub fn correct_control(
    control: &TimeControl,
    played: u32,
    legal: u32,
    displayed: Millis,
) -> Result<Correction, ArbiterError> {
    let periods = control
        .periods()
        .ok_or_else(|| ArbiterError::UnsupportedControl(crate::human::write_human(control)))?;
    correct(periods, played, legal, displayed)
}

/// Exact restore from a clock's history (online, where every reading is
/// known): `side`'s reading right after their `legal`-th move.
pub fn restore_exact(history: &History, side: Color, legal: u32) -> Result<Millis, ArbiterError> {
    history
        .reading_after(side, legal)
        .ok_or(ArbiterError::NotInHistory { side, moves: legal })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pure_fischer_example() {
        let m = Millis::minutes;
        let five = formula_5(m(90), 40, 35, m(20)).unwrap();
        let steps = stepwise(m(90), Millis::seconds(30), 40, 35, m(20)).unwrap();
        assert_eq!(five.millis(), Millis::minutes(28) + Millis::seconds(45));
        assert_eq!(steps.set, five);
        assert_eq!(steps.used, m(90) + m(20) - m(20));
        let general =
            correct(&Periods::fischer(m(90), Millis::seconds(30)), 40, 35, m(20)).unwrap();
        assert_eq!(general.set, five);
        assert!(general.warnings.is_empty());
    }

    #[test]
    fn impossible_input_is_refused() {
        let m = Millis::minutes;
        assert_eq!(
            formula_5(m(90), 30, 35, m(20)),
            Err(ArbiterError::LegalExceedsPlayed {
                played: 30,
                legal: 35
            })
        );
        assert_eq!(
            formula_5(m(90), 0, 0, m(20)),
            Err(ArbiterError::NothingPlayed)
        );
        assert_eq!(formula_1(0, 0, m(20)), Err(ArbiterError::NothingPlayed));
        assert!(matches!(
            formula_5(m(90), 3, 2, m(-1)),
            Err(ArbiterError::NegativeTime { .. })
        ));
        assert!(matches!(
            formula_5(m(90), 20_000, 2, m(1)),
            Err(ArbiterError::TooManyMoves(_))
        ));
        // Nothing played: nothing changes.
        let c = correct(&Periods::fischer(m(90), Millis::ZERO), 0, 0, m(90)).unwrap();
        assert_eq!(c.set_millis(), m(90));
    }

    #[test]
    fn warnings() {
        let m = Millis::minutes;
        let c = correct(&Periods::fischer(m(90), Millis::ZERO), 10, 5, m(95)).unwrap();
        assert!(matches!(
            c.warnings[0],
            Warning::DisplayAboveAllotted { .. }
        ));
        let tc: TimeControl = "40/5400+30:1800+30".parse().unwrap();
        let c = correct(tc.periods().unwrap(), 45, 38, Millis::ZERO).unwrap();
        assert!(matches!(c.warnings[0], Warning::NoTimeLeft { .. }));
        assert_eq!(c.set_display(), Millis::ZERO);
    }

    #[test]
    fn rounding_is_half_up_from_the_exact_value() {
        // 90 - 1/3 × (90 - 0) min = 60 min exactly; 90 - 2/3 × 0.0015 s ...
        let t = formula_5(Millis(3_000), 2, 1, Millis(0)).unwrap();
        assert_eq!(t.millis(), Millis(1_500));
        assert_eq!(t.display(), Millis(2_000));
        let t = formula_5(Millis(1_000), 3, 1, Millis(0)).unwrap();
        assert_eq!(t.millis(), Millis(667));
        assert_eq!(t.display(), Millis(1_000));
    }

    #[test]
    fn unsupported_controls() {
        let tc = TimeControl::Hourglass {
            total: Millis::minutes(3),
        };
        assert!(matches!(
            correct_control(&tc, 3, 2, Millis::ZERO),
            Err(ArbiterError::UnsupportedControl(_))
        ));
    }
}
