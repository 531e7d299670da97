//! Time controls: periods with move quotas, increments and delays;
//! hourglass; correspondence. How much time each move grants ([`Periods::alloc`])
//! and how thinking time is charged ([`Charging`]).

use serde::{Deserialize, Serialize};

use crate::error::InvalidControl;
use crate::millis::{MAX_TEXT_SPAN, Millis};

/// How a delay shields main time on each move (FIDE Article 6 and US
/// practice).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
pub enum Delay {
    /// No delay.
    #[default]
    None,
    /// Simple (US) delay, FIDE's "time-delay mode": the main time does not
    /// run during the first `d` of each move.
    Simple(Millis),
    /// Bronstein delay: the main time runs from the start, and after the
    /// move the time used, at most `d`, is given back.
    Bronstein(Millis),
}

impl Delay {
    /// The delay's length (zero for [`Delay::None`]).
    fn length(self) -> Millis {
        match self {
            Delay::None => Millis::ZERO,
            Delay::Simple(d) | Delay::Bronstein(d) => d,
        }
    }
}

/// One period of a time control.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Period {
    /// Moves to complete in this period; `None` for the rest of the game.
    pub moves: Option<u32>,
    /// Time granted when the period begins (for the first period: at the
    /// start of the game).
    pub base: Millis,
    /// Fischer increment credited after every move made in this period.
    pub increment: Millis,
    /// Delay applied to every move made in this period.
    pub delay: Delay,
}

impl Period {
    /// A rest-of-game period (sudden death, optionally with increment).
    pub fn rest_of_game(base: Millis, increment: Millis) -> Period {
        Period {
            moves: None,
            base,
            increment,
            delay: Delay::None,
        }
    }

    /// A period of `moves` moves.
    pub fn quota(moves: u32, base: Millis, increment: Millis) -> Period {
        Period {
            moves: Some(moves),
            base,
            increment,
            delay: Delay::None,
        }
    }
}

/// A validated, non-empty list of periods.
///
/// Move `m` (a player's own `m`-th move, from 1) belongs to the period whose
/// quota range contains it. If the last period has a move quota it
/// *repeats* (40/2h, then 20/1h, 20/1h, ... — and ICCF's "10 moves in 50
/// days"). The base time of a later period is credited when the quota of
/// the period before is reached, that is on completing the move that fills
/// it: with `40/5400:1800` the 30 minutes arrive with move 40.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(try_from = "Vec<Period>", into = "Vec<Period>")]
pub struct Periods(Vec<Period>);

impl TryFrom<Vec<Period>> for Periods {
    type Error = InvalidControl;
    fn try_from(periods: Vec<Period>) -> Result<Periods, InvalidControl> {
        Periods::new(periods)
    }
}

impl From<Periods> for Vec<Period> {
    fn from(periods: Periods) -> Vec<Period> {
        periods.0
    }
}

impl Periods {
    /// Checks the list: at least one period, only the last without a quota,
    /// quotas above zero, no negative or absurdly long times (over 100
    /// years), and a first period that grants some time.
    pub fn new(periods: Vec<Period>) -> Result<Periods, InvalidControl> {
        if periods.is_empty() {
            return Err(InvalidControl::NoPeriods);
        }
        let last = periods.len() - 1;
        for (i, p) in periods.iter().enumerate() {
            let number = i + 1;
            match p.moves {
                Some(0) => return Err(InvalidControl::ZeroQuota { period: number }),
                None if i != last => return Err(InvalidControl::RestNotLast { period: number }),
                _ => {}
            }
            for t in [p.base, p.increment, p.delay.length()] {
                if t.is_negative() {
                    return Err(InvalidControl::Negative { period: number });
                }
                if t > MAX_TEXT_SPAN {
                    return Err(InvalidControl::TooLong { period: number });
                }
            }
        }
        let first = periods[0];
        if first.base == Millis::ZERO
            && first.increment == Millis::ZERO
            && first.delay == Delay::None
        {
            return Err(InvalidControl::NoTime);
        }
        Ok(Periods(periods))
    }

    /// A single rest-of-game period: sudden death or Fischer.
    #[cfg(test)]
    pub(crate) fn fischer(base: Millis, increment: Millis) -> Periods {
        Periods::new(vec![Period::rest_of_game(base, increment)])
            .expect("a single period with non-negative times is valid")
    }

    /// The periods in order.
    pub fn periods(&self) -> &[Period] {
        &self.0
    }

    /// Time on the clock at the start of the game.
    pub fn initial(&self) -> Millis {
        self.0[0].base
    }

    /// The index of the period in which a player's `move_number`-th move
    /// (from 1) is made.
    fn period_index(&self, move_number: u32) -> usize {
        let mut before = 0u64;
        for (i, p) in self.0.iter().enumerate() {
            match p.moves {
                None => return i,
                Some(q) => {
                    if u64::from(move_number) <= before + u64::from(q) {
                        return i;
                    }
                    before += u64::from(q);
                }
            }
        }
        self.0.len() - 1
    }

    /// The period in which a player's `move_number`-th move is made.
    pub fn period_for_move(&self, move_number: u32) -> &Period {
        &self.0[self.period_index(move_number)]
    }

    /// Whether a player who has completed `moves_done` moves is in a period
    /// in which all remaining moves must be completed (FIDE's "last
    /// period"). Never true when the last period has a quota (it repeats).
    fn in_last_period(&self, moves_done: u32) -> bool {
        self.period_for_move(moves_done.saturating_add(1))
            .moves
            .is_none()
    }

    /// The period bonus credited on completing move `n` (from 1): the base
    /// of the next period when move `n` fills a quota, otherwise zero.
    pub(crate) fn bonus_after(&self, n: u32) -> Millis {
        let n = u64::from(n);
        let mut end = 0u64;
        let last = self.0.len() - 1;
        for (i, p) in self.0.iter().enumerate() {
            let Some(q) = p.moves else {
                return Millis::ZERO;
            };
            end += u64::from(q);
            if n < end {
                return Millis::ZERO;
            }
            if n == end {
                return if i < last { self.0[i + 1].base } else { p.base };
            }
        }
        let p = self.0[last];
        let q = u64::from(p.moves.expect("loop returned on a rest-of-game period"));
        if (n - end).is_multiple_of(q) {
            p.base
        } else {
            Millis::ZERO
        }
    }

    /// `alloc(n)`: all time granted to a player after `n` completed moves —
    /// the first base, the base of every later period whose turn has come
    /// (see [`Periods`]), and the increment of each of the `n` moves.
    ///
    /// ```
    /// use tempo_clock::{Millis, TimeControl};
    /// let tc: TimeControl = "40/5400+30:1800+30".parse().unwrap();
    /// let periods = tc.periods().unwrap();
    /// assert_eq!(periods.alloc(39), Millis::minutes(90) + Millis::seconds(30 * 39));
    /// assert_eq!(periods.alloc(40), Millis::minutes(120) + Millis::minutes(20));
    /// ```
    pub fn alloc(&self, n: u32) -> Millis {
        let n = i64::from(n);
        let mut total = self.0[0].base;
        let mut done = 0i64;
        let last = self.0.len() - 1;
        for (i, p) in self.0.iter().enumerate() {
            let Some(q) = p.moves else {
                return total + p.increment * (n - done);
            };
            let q = i64::from(q);
            if n - done < q {
                return total + p.increment * (n - done);
            }
            total += p.increment * q;
            done += q;
            if i < last {
                total += self.0[i + 1].base;
            } else {
                total += p.base;
                let rest = n - done;
                total += (p.base + p.increment * q) * (rest / q);
                return total + p.increment * (rest % q);
            }
        }
        unreachable!("the last period always returns")
    }

    /// The move number completing the quota of the period a player with
    /// `moves_done` completed moves is in; `None` in a rest-of-game period.
    pub(crate) fn next_quota_end(&self, moves_done: u32) -> Option<u32> {
        let done = u64::from(moves_done);
        let mut end = 0u64;
        for p in &self.0 {
            end += u64::from(p.moves?);
            if end > done {
                return u32::try_from(end).ok();
            }
        }
        let q = u64::from(self.0[self.0.len() - 1].moves?);
        u32::try_from(end + ((done - end) / q + 1) * q).ok()
    }

    /// Whether every period has the same increment and delay.
    pub(crate) fn is_uniform(&self) -> bool {
        let first = self.0[0];
        self.0
            .iter()
            .all(|p| p.increment == first.increment && p.delay == first.delay)
    }
}

/// Correspondence controls.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Correspondence {
    /// A fixed time for every move, unused time not carried over (lichess
    /// and chess.com "days per move").
    PerMove {
        /// The time allowed for each move.
        limit: Millis,
    },
    /// ICCF webserver rules: periods counted in days — either "10 moves in
    /// 50 days", cumulative and repeating, or a Fischer-style base plus
    /// days per move (30 days + 3 days per move) — with time charged in
    /// whole days, and days beyond 20 on a single move charged double.
    Iccf(Periods),
}

/// ICCF: reflection time beyond this many days on one move counts double.
const ICCF_DOUBLING_AFTER_DAYS: i64 = 20;

/// A time control.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum TimeControl {
    /// Not known (PGN `?`).
    Unknown,
    /// No time limit (PGN `-`).
    Unlimited,
    /// Over-the-board periods: sudden death, Fischer, delays, several
    /// periods with quotas.
    Periods(Periods),
    /// Hourglass (sandclock, PGN `*180`): the time one player uses is added
    /// to the other's.
    Hourglass {
        /// Time on each side at the start.
        total: Millis,
    },
    /// Correspondence chess.
    Correspondence(Correspondence),
}

/// FIDE's classes of play (Laws of Chess, Appendices A and B), plus
/// correspondence.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Category {
    /// At least 60 minutes per player for a 60-move game.
    Standard,
    /// More than 10 and less than 60 minutes for 60 moves (Appendix A.1).
    Rapid,
    /// 10 minutes or less for 60 moves (Appendix B.1).
    Blitz,
    /// Correspondence chess (no FIDE over-the-board penalties apply).
    Correspondence,
}

impl std::fmt::Display for Category {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Category::Standard => "standard",
            Category::Rapid => "rapid",
            Category::Blitz => "blitz",
            Category::Correspondence => "correspondence",
        })
    }
}

impl TimeControl {
    /// A single sudden-death or Fischer period.
    #[cfg(test)]
    pub(crate) fn fischer(base: Millis, increment: Millis) -> TimeControl {
        TimeControl::Periods(Periods::fischer(base, increment))
    }

    /// The periods of an over-the-board or ICCF control.
    pub fn periods(&self) -> Option<&Periods> {
        match self {
            TimeControl::Periods(p) | TimeControl::Correspondence(Correspondence::Iccf(p)) => {
                Some(p)
            }
            _ => None,
        }
    }

    /// The time each player has for a 60-move game, as FIDE's Appendices
    /// count it: the allotted time plus 60 times any increment — here
    /// `alloc(60)`, which includes the period bonuses reached by move 60 —
    /// and, as US Chess does, 60 times any delay.
    pub fn time_for_60_moves(&self) -> Option<Millis> {
        match self {
            TimeControl::Periods(p) => {
                let delays: Millis = (1..=60).map(|m| p.period_for_move(m).delay.length()).sum();
                Some(p.alloc(60) + delays)
            }
            TimeControl::Hourglass { total } => Some(*total),
            _ => None,
        }
    }

    /// Standard, rapid or blitz by FIDE's definitions; `None` when unknown.
    /// A game without a limit counts as standard.
    pub fn category(&self) -> Option<Category> {
        match self {
            TimeControl::Unknown => None,
            TimeControl::Unlimited => Some(Category::Standard),
            TimeControl::Correspondence(_) => Some(Category::Correspondence),
            _ => {
                let t = self.time_for_60_moves()?;
                Some(if t >= Millis::minutes(60) {
                    Category::Standard
                } else if t > Millis::minutes(10) {
                    Category::Rapid
                } else {
                    Category::Blitz
                })
            }
        }
    }

    /// The time FIDE Article 7.5.5 gives the opponent of a player who
    /// completes an illegal move: two minutes in standard play, one minute
    /// in rapid and blitz (Appendices A and B). `None` for correspondence
    /// and unknown controls.
    pub fn penalty_time(&self) -> Option<Millis> {
        match self.category()? {
            Category::Standard => Some(Millis::minutes(2)),
            Category::Rapid | Category::Blitz => Some(Millis::minutes(1)),
            Category::Correspondence => None,
        }
    }

    /// How a player's `move_number`-th move (from 1) is charged. `None` for
    /// controls without a clock (`?`, `-`).
    pub(crate) fn charging(&self, move_number: u32) -> Option<Charging> {
        Some(match self {
            TimeControl::Unknown | TimeControl::Unlimited => return None,
            TimeControl::Periods(p) => match p.period_for_move(move_number).delay {
                Delay::None => Charging::Plain,
                Delay::Simple(d) => Charging::SimpleDelay(d),
                Delay::Bronstein(d) => Charging::Bronstein(d),
            },
            TimeControl::Hourglass { .. } => Charging::Hourglass,
            TimeControl::Correspondence(Correspondence::PerMove { limit }) => {
                Charging::PerMove(*limit)
            }
            TimeControl::Correspondence(Correspondence::Iccf(_)) => Charging::IccfDays,
        })
    }

    /// Time on each clock at the start; `None` for `?` and `-`.
    pub fn initial(&self) -> Option<Millis> {
        match self {
            TimeControl::Unknown | TimeControl::Unlimited => None,
            TimeControl::Periods(p) | TimeControl::Correspondence(Correspondence::Iccf(p)) => {
                Some(p.initial())
            }
            TimeControl::Hourglass { total } => Some(*total),
            TimeControl::Correspondence(Correspondence::PerMove { limit }) => Some(*limit),
        }
    }

    /// Time credited after a player's `move_number`-th move: the increment
    /// of its period plus the bonus of a period whose turn has come.
    pub(crate) fn credit_after(&self, move_number: u32) -> (Millis, Millis) {
        match self.periods() {
            Some(p) => (
                p.period_for_move(move_number).increment,
                p.bonus_after(move_number),
            ),
            None => (Millis::ZERO, Millis::ZERO),
        }
    }

    /// Whether a player with `moves_done` moves completed must complete all
    /// remaining moves in the time left (FIDE's last period).
    pub(crate) fn in_last_period(&self, moves_done: u32) -> bool {
        match self.periods() {
            Some(p) => p.in_last_period(moves_done),
            None => true,
        }
    }
}

/// How thinking time on one move is charged against the main time.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub(crate) enum Charging {
    /// Every millisecond counts.
    Plain,
    /// The first `d` of the move are free.
    SimpleDelay(Millis),
    /// Every millisecond counts while thinking; up to `d` is given back
    /// after the move.
    Bronstein(Millis),
    /// Every millisecond counts and the opponent gains it (hourglass).
    Hourglass,
    /// A fresh allowance for every move; nothing carried over.
    PerMove(Millis),
    /// ICCF: whole days, with days beyond 20 on one move charged double.
    IccfDays,
}

impl Charging {
    /// Main time shown as used after `elapsed` of thinking on this move
    /// (before any refund).
    pub(crate) fn consumed(self, elapsed: Millis) -> Millis {
        let e = elapsed.clamp_non_negative();
        match self {
            Charging::Plain
            | Charging::Bronstein(_)
            | Charging::Hourglass
            | Charging::PerMove(_) => e,
            Charging::SimpleDelay(d) => (e - d).clamp_non_negative(),
            Charging::IccfDays => Millis::DAY * iccf_charged_days(e.0 / Millis::DAY.0),
        }
    }

    /// Thinking time on this move after which the flag falls, given
    /// `remaining` main time at the start of the move. For plain clocks
    /// the flag falls when the display reaches zero; ICCF counts a game
    /// lost when more days are charged than remain.
    pub(crate) fn fall_after(self, remaining: Millis) -> Millis {
        let r = remaining.clamp_non_negative();
        match self {
            Charging::Plain
            | Charging::Bronstein(_)
            | Charging::Hourglass
            | Charging::PerMove(_) => r,
            Charging::SimpleDelay(d) => d + r,
            Charging::IccfDays => {
                // Smallest whole number of days k whose charge exceeds r.
                let mut k = (r.0 / Millis::DAY.0).min(ICCF_DOUBLING_AFTER_DAYS);
                while Millis::DAY * iccf_charged_days(k) <= r {
                    k += 1;
                }
                Millis::DAY * k
            }
        }
    }

    /// Time given back after the move (Bronstein).
    pub(crate) fn refund(self, elapsed: Millis) -> Millis {
        match self {
            Charging::Bronstein(d) => elapsed.clamp_non_negative().min(d),
            _ => Millis::ZERO,
        }
    }
}

/// Days charged by ICCF for `whole_days` full days of reflection on one
/// move: up to 20 as used, each day beyond 20 twice.
fn iccf_charged_days(whole_days: i64) -> i64 {
    if whole_days <= ICCF_DOUBLING_AFTER_DAYS {
        whole_days
    } else {
        ICCF_DOUBLING_AFTER_DAYS + 2 * (whole_days - ICCF_DOUBLING_AFTER_DAYS)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn classic() -> Periods {
        Periods::new(vec![
            Period::quota(40, Millis::minutes(90), Millis::seconds(30)),
            Period::rest_of_game(Millis::minutes(30), Millis::seconds(30)),
        ])
        .unwrap()
    }

    #[test]
    fn bonus_arrives_with_the_quota_move() {
        let p = classic();
        assert_eq!(p.bonus_after(39), Millis::ZERO);
        assert_eq!(p.bonus_after(40), Millis::minutes(30));
        assert_eq!(p.bonus_after(41), Millis::ZERO);
        assert_eq!(p.period_index(40), 0);
        assert_eq!(p.period_index(41), 1);
        assert!(!p.in_last_period(39));
        assert!(p.in_last_period(40));
    }

    #[test]
    fn alloc_matches_a_move_by_move_sum() {
        let repeating = Periods::new(vec![
            Period::quota(40, Millis::hours(2), Millis::ZERO),
            Period::quota(20, Millis::hours(1), Millis::seconds(5)),
        ])
        .unwrap();
        for p in [
            classic(),
            repeating,
            Periods::fischer(Millis::minutes(5), Millis::seconds(3)),
        ] {
            let mut sum = p.initial();
            for n in 1..=200u32 {
                sum += p.period_for_move(n).increment + p.bonus_after(n);
                assert_eq!(p.alloc(n), sum, "n = {n}");
            }
        }
    }

    #[test]
    fn last_quota_period_repeats() {
        let p = Periods::new(vec![Period::quota(10, Millis::days(50), Millis::ZERO)]).unwrap();
        assert_eq!(p.bonus_after(10), Millis::days(50));
        assert_eq!(p.bonus_after(20), Millis::days(50));
        assert_eq!(p.bonus_after(25), Millis::ZERO);
        assert_eq!(p.alloc(25), Millis::days(150));
        assert!(!p.in_last_period(1000));
    }

    #[test]
    fn invalid_lists_are_refused() {
        assert_eq!(Periods::new(vec![]), Err(InvalidControl::NoPeriods));
        assert_eq!(
            Periods::new(vec![
                Period::rest_of_game(Millis::minutes(5), Millis::ZERO),
                Period::quota(40, Millis::minutes(5), Millis::ZERO)
            ]),
            Err(InvalidControl::RestNotLast { period: 1 })
        );
        assert_eq!(
            Periods::new(vec![Period::quota(0, Millis::minutes(5), Millis::ZERO)]),
            Err(InvalidControl::ZeroQuota { period: 1 })
        );
        assert_eq!(
            Periods::new(vec![Period::rest_of_game(Millis(-1), Millis::ZERO)]),
            Err(InvalidControl::Negative { period: 1 })
        );
        assert_eq!(
            Periods::new(vec![Period::rest_of_game(Millis::ZERO, Millis::ZERO)]),
            Err(InvalidControl::NoTime)
        );
    }

    #[test]
    fn fide_categories() {
        let cat = |base: i64, inc: i64| {
            TimeControl::fischer(Millis::seconds(base), Millis::seconds(inc)).category()
        };
        assert_eq!(cat(180, 2), Some(Category::Blitz));
        assert_eq!(cat(300, 5), Some(Category::Blitz)); // 5 + 5 = 10 minutes
        assert_eq!(cat(300, 6), Some(Category::Rapid));
        assert_eq!(cat(900, 10), Some(Category::Rapid));
        assert_eq!(cat(2700, 30), Some(Category::Standard)); // 45 + 30 = 75
        assert_eq!(cat(3000, 9), Some(Category::Rapid)); // 50 + 9 = 59
        assert_eq!(cat(3600, 0), Some(Category::Standard));
        assert_eq!(
            TimeControl::Periods(classic()).category(),
            Some(Category::Standard)
        );
        assert_eq!(
            TimeControl::Hourglass {
                total: Millis::minutes(3)
            }
            .category(),
            Some(Category::Blitz)
        );
        assert_eq!(TimeControl::Unknown.penalty_time(), None);
        assert_eq!(
            TimeControl::fischer(Millis::minutes(3), Millis::seconds(2)).penalty_time(),
            Some(Millis::minutes(1))
        );
        assert_eq!(
            TimeControl::Periods(classic()).penalty_time(),
            Some(Millis::minutes(2))
        );
    }

    #[test]
    fn charging_rules() {
        let s = Millis::seconds;
        assert_eq!(Charging::SimpleDelay(s(5)).consumed(s(3)), Millis::ZERO);
        assert_eq!(Charging::SimpleDelay(s(5)).consumed(s(8)), s(3));
        assert_eq!(Charging::SimpleDelay(s(5)).fall_after(s(10)), s(15));
        assert_eq!(Charging::Bronstein(s(5)).refund(s(3)), s(3));
        assert_eq!(Charging::Bronstein(s(5)).refund(s(8)), s(5));
        assert_eq!(Charging::Bronstein(s(5)).fall_after(s(10)), s(10));
        // ICCF: 23.5 days of reflection are charged as 26 days.
        let e = Millis::days(23) + Millis::hours(12);
        assert_eq!(Charging::IccfDays.consumed(e), Millis::days(26));
        assert_eq!(Charging::IccfDays.consumed(Millis::hours(23)), Millis::ZERO);
        // With 3 days left the fourth full day loses; with 25 left, day 23 (charged 26).
        assert_eq!(
            Charging::IccfDays.fall_after(Millis::days(3)),
            Millis::days(4)
        );
        assert_eq!(
            Charging::IccfDays.fall_after(Millis::days(25)),
            Millis::days(23)
        );
        assert_eq!(Charging::IccfDays.fall_after(Millis::ZERO), Millis::days(1));
    }
}
