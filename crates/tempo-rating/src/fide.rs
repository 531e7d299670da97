//! The FIDE rating change of a tournament (FIDE Handbook B.02, "FIDE
//! Rating Regulations").
//!
//! Implemented: the rules in force since 1 March 2024 (see [`EDITION`]).
//! The article numbers below are those of the regulation's section 8, "The
//! working of the FIDE Rating System", as worded since 1 July 2014 (the K
//! factors 40 / 20 / 10) and unchanged in substance by the 2024 revision,
//! which dropped the earlier limit of the 400-point rule to one game per
//! event:
//!
//! - table 8.1(b): rating difference D → scoring probability PD for the
//!   higher (H) and the lower (L) rated player. FIDE uses the **table**, not
//!   the logistic formula `1 / (1 + 10^(-D/400))`, which differs in the
//!   second decimal at several differences (D = 400: the table gives 0.92,
//!   the formula 0.909…);
//! - 8.51 / 8.54: D for each game against a rated opponent; a difference of
//!   more than 400 points counts as 400 (every game, since 1 March 2024);
//! - 8.55: ΔR = score − PD per game, the change is K × ΣΔR;
//! - 8.56: K = 40 for a player new to the list until 30 games, and for
//!   juniors (until the end of the year of their 18th birthday) below
//!   2300; K = 20 below 2400; K = 10 once the published rating has
//!   reached 2400. If K × n (games in the rating period) exceeds 700, K is
//!   the largest whole number with K × n ≤ 700.
//!
//! The change is exact (hundredths of a point): FIDE's rating is a whole
//! number only once the period's changes are summed for the list, so a
//! tournament's change is reported unrounded ([`Change::rounded`] gives the
//! whole number for a period of this one tournament).
//!
//! `skillratings`' `elo` module uses the logistic expectation, so it is not
//! used here.
//!
//! ```
//! use tempo_rating::fide::{Game, KFactor, Rating, rating_change};
//! use tempo_rating::score::Score;
//!
//! // The issue's example: 1800 (K 20) beats a 1900 and draws a 1700.
//! let me = Rating::new(1800).unwrap();
//! let games = [
//!     Game { opponent: Rating::new(1900).unwrap(), score: Score::Win },
//!     Game { opponent: Rating::new(1700).unwrap(), score: Score::Draw },
//! ];
//! let change = rating_change(me, KFactor::TWENTY, &games).unwrap();
//! assert_eq!(change.expected_text(), "1.00");
//! assert_eq!(change.change_text(), "+10.0");
//! ```

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::score::Score;

/// The regulation this module implements.
pub const EDITION: &str = "FIDE Handbook B.02, FIDE Rating Regulations effective from 1 March 2024";

/// The highest rating accepted (well above any player's).
pub const MAX_RATING: u32 = 3500;

/// The most games one calculation takes (a long season's rating period).
pub const MAX_GAMES: usize = 1000;

/// The most K × n may be in one rating period (8.56).
pub const MAX_K_TIMES_GAMES: u32 = 700;

/// Why a FIDE calculation cannot be made.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum FideError {
    /// A rating outside 1..=3500.
    #[error("rating {0}: 1 to {MAX_RATING}")]
    Rating(u32),
    /// A K factor outside 1..=40.
    #[error("K {0}: 1 to 40 (the regulation's values are 40, 20 and 10)")]
    K(u32),
    /// More games than one calculation takes.
    #[error("{0} games: at most {MAX_GAMES}")]
    TooManyGames(usize),
}

/// A FIDE rating (a whole number).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(try_from = "u32", into = "u32")]
pub struct Rating(u16);

impl Rating {
    /// A rating from 1 to [`MAX_RATING`].
    ///
    /// # Errors
    /// [`FideError::Rating`] outside that range.
    pub fn new(value: u32) -> Result<Rating, FideError> {
        match u16::try_from(value) {
            Ok(v) if (1..=MAX_RATING).contains(&value) => Ok(Rating(v)),
            _ => Err(FideError::Rating(value)),
        }
    }

    #[must_use]
    pub fn value(self) -> u32 {
        u32::from(self.0)
    }
}

impl TryFrom<u32> for Rating {
    type Error = FideError;
    fn try_from(value: u32) -> Result<Rating, FideError> {
        Rating::new(value)
    }
}

impl From<Rating> for u32 {
    fn from(r: Rating) -> u32 {
        r.value()
    }
}

impl fmt::Display for Rating {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

/// The development coefficient K (8.56).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(try_from = "u32", into = "u32")]
pub struct KFactor(u8);

/// What decides a player's K (8.56). Unknown facts take the established
/// player's case: 30 games or more, an adult, never 2400.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct KFacts {
    /// Rated games before this tournament, if known.
    pub games_before: Option<u32>,
    /// The player's age at the end of this year (year − birth year), if
    /// known: K 40 runs "until the end of the year of their 18th birthday".
    pub age_this_year: Option<u32>,
    /// The published rating has been 2400 or more at some time.
    pub reached_2400: bool,
}

impl KFactor {
    pub const FORTY: KFactor = KFactor(40);
    pub const TWENTY: KFactor = KFactor(20);
    pub const TEN: KFactor = KFactor(10);

    /// A K from 1 to 40 (the regulation gives 40, 20, 10; smaller whole
    /// numbers come from the K × n ≤ 700 rule).
    ///
    /// # Errors
    /// [`FideError::K`] outside that range.
    pub fn new(value: u32) -> Result<KFactor, FideError> {
        match u8::try_from(value) {
            Ok(v) if (1..=40).contains(&value) => Ok(KFactor(v)),
            _ => Err(FideError::K(value)),
        }
    }

    #[must_use]
    pub fn value(self) -> u32 {
        u32::from(self.0)
    }

    /// The regulation's K for a player rated `rating` (8.56).
    ///
    /// ```
    /// use tempo_rating::fide::{KFacts, KFactor, Rating};
    ///
    /// let r = |v| Rating::new(v).unwrap();
    /// assert_eq!(KFactor::by_regulation(r(1800), KFacts::default()), KFactor::TWENTY);
    /// let junior = KFacts { age_this_year: Some(15), ..KFacts::default() };
    /// assert_eq!(KFactor::by_regulation(r(2250), junior), KFactor::FORTY);
    /// assert_eq!(KFactor::by_regulation(r(2400), KFacts::default()), KFactor::TEN);
    /// ```
    #[must_use]
    pub fn by_regulation(rating: Rating, facts: KFacts) -> KFactor {
        if facts.reached_2400 || rating.value() >= 2400 {
            return KFactor::TEN;
        }
        if facts.games_before.is_some_and(|g| g < 30) {
            return KFactor::FORTY;
        }
        if facts.age_this_year.is_some_and(|a| a <= 18) && rating.value() < 2300 {
            return KFactor::FORTY;
        }
        KFactor::TWENTY
    }

    /// K for `games` games in the period: the largest whole number with
    /// K × n ≤ 700 when K × n would exceed 700 (8.56).
    ///
    /// ```
    /// use tempo_rating::fide::KFactor;
    ///
    /// assert_eq!(KFactor::FORTY.limited(17).value(), 40); // 680
    /// assert_eq!(KFactor::FORTY.limited(18).value(), 38); // 720 > 700; 38 × 18 = 684
    /// ```
    #[must_use]
    pub fn limited(self, games: usize) -> KFactor {
        let n = u32::try_from(games).unwrap_or(u32::MAX);
        if n == 0 || self.value().saturating_mul(n) <= MAX_K_TIMES_GAMES {
            return self;
        }
        // At most MAX_GAMES games reach here through rating_change; 700 / n
        // is at least 0, and K never goes below 1.
        KFactor(u8::try_from((MAX_K_TIMES_GAMES / n).max(1)).unwrap_or(1))
    }
}

impl TryFrom<u32> for KFactor {
    type Error = FideError;
    fn try_from(value: u32) -> Result<KFactor, FideError> {
        KFactor::new(value)
    }
}

impl From<KFactor> for u32 {
    fn from(k: KFactor) -> u32 {
        k.value()
    }
}

impl fmt::Display for KFactor {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

/// Table 8.1(b): the largest rating difference D (after the 400-point
/// rule) for each scoring probability of the higher rated player, from
/// 0.50 (D 0-3) up to 0.99 (D 620-735); above 735 it is 1.00. Kept whole,
/// as the regulation prints it, although the 400-point rule stops lookups
/// at 0.92.
const TABLE_8_1_B: [(u16, u8); 50] = [
    (3, 50),
    (10, 51),
    (17, 52),
    (25, 53),
    (32, 54),
    (39, 55),
    (46, 56),
    (53, 57),
    (61, 58),
    (68, 59),
    (76, 60),
    (83, 61),
    (91, 62),
    (98, 63),
    (106, 64),
    (113, 65),
    (121, 66),
    (129, 67),
    (137, 68),
    (145, 69),
    (153, 70),
    (162, 71),
    (170, 72),
    (179, 73),
    (188, 74),
    (197, 75),
    (206, 76),
    (215, 77),
    (225, 78),
    (235, 79),
    (245, 80),
    (256, 81),
    (267, 82),
    (278, 83),
    (290, 84),
    (302, 85),
    (315, 86),
    (328, 87),
    (344, 88),
    (357, 89),
    (374, 90),
    (391, 91),
    (411, 92),
    (432, 93),
    (456, 94),
    (484, 95),
    (517, 96),
    (559, 97),
    (619, 98),
    (735, 99),
];

/// The difference beyond which a game counts as 400 points apart (8.54).
pub const MAX_DIFFERENCE: u32 = 400;

/// An expected score PD, in hundredths (the table has two decimals).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Expected(u8);

impl Expected {
    /// In hundredths: 0 to 100.
    #[must_use]
    pub fn hundredths(self) -> u32 {
        u32::from(self.0)
    }

    #[must_use]
    pub fn as_f64(self) -> f64 {
        f64::from(self.0) / 100.0
    }
}

/// PD of a player rated `own` against `opponent`: table 8.1(b) after the
/// 400-point rule.
///
/// ```
/// use tempo_rating::fide::{Rating, expected_score};
///
/// let r = |v| Rating::new(v).unwrap();
/// assert_eq!(expected_score(r(1800), r(1900)).hundredths(), 36);
/// assert_eq!(expected_score(r(1800), r(1700)).hundredths(), 64);
/// // 2200 against 1000: more than 400 apart, counts as 400.
/// assert_eq!(expected_score(r(2200), r(1000)).hundredths(), 92);
/// ```
#[must_use]
pub fn expected_score(own: Rating, opponent: Rating) -> Expected {
    let d = own.value().abs_diff(opponent.value()).min(MAX_DIFFERENCE);
    let higher = TABLE_8_1_B
        .iter()
        .find(|&&(upto, _)| d <= u32::from(upto))
        .map_or(100, |&(_, pd)| pd);
    if own >= opponent {
        Expected(higher)
    } else {
        Expected(100 - higher)
    }
}

/// One rated game: the opponent's rating and the player's score.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Game {
    pub opponent: Rating,
    pub score: Score,
}

/// A tournament's rating change for one player.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Change {
    /// The K used (after the K × n ≤ 700 rule).
    pub k: KFactor,
    /// Rated games.
    pub games: u32,
    /// Points scored, in half points.
    pub score_halves: u32,
    /// ΣPD, in hundredths.
    pub expected_hundredths: u32,
    /// K × Σ(score − PD), in hundredths of a rating point (exact).
    pub change_hundredths: i64,
}

impl Change {
    /// The points scored.
    #[must_use]
    pub fn score(&self) -> f64 {
        f64::from(self.score_halves) / 2.0
    }

    /// ΣPD.
    #[must_use]
    pub fn expected(&self) -> f64 {
        f64::from(self.expected_hundredths) / 100.0
    }

    /// K × Σ(score − PD).
    #[must_use]
    pub fn change(&self) -> f64 {
        self.change_hundredths as f64 / 100.0
    }

    /// The change as a whole number, halves away from zero.
    #[must_use]
    pub fn rounded(&self) -> i64 {
        let h = self.change_hundredths;
        let whole = (h.abs() + 50) / 100;
        if h < 0 { -whole } else { whole }
    }

    /// ΣPD with two decimals (`1.00`).
    #[must_use]
    pub fn expected_text(&self) -> String {
        hundredths_text(i64::from(self.expected_hundredths), false)
    }

    /// The change with its sign and one or two decimals (`+10.0`, `-3.42`).
    #[must_use]
    pub fn change_text(&self) -> String {
        let text = hundredths_text(self.change_hundredths, true);
        // Two decimals only where the hundredth is not zero (K 38 gives
        // hundredths; 40, 20 and 10 give tenths).
        match text.strip_suffix('0') {
            Some(short) if !short.ends_with('.') => short.to_string(),
            _ => text,
        }
    }
}

/// `value` hundredths as a decimal with two places, signed if asked.
fn hundredths_text(value: i64, signed: bool) -> String {
    let sign = if value < 0 {
        "-"
    } else if signed {
        "+"
    } else {
        ""
    };
    let v = value.unsigned_abs();
    format!("{sign}{}.{:02}", v / 100, v % 100)
}

/// The rating change of a player rated `own` with K `k` over `games`
/// (games against rated opponents, played over the board): K × Σ(W − PD),
/// with K lowered by the K × n ≤ 700 rule where it applies.
///
/// # Errors
/// [`FideError::TooManyGames`] above [`MAX_GAMES`].
pub fn rating_change(own: Rating, k: KFactor, games: &[Game]) -> Result<Change, FideError> {
    if games.len() > MAX_GAMES {
        return Err(FideError::TooManyGames(games.len()));
    }
    let k = k.limited(games.len());
    let mut score_halves = 0;
    let mut expected_hundredths = 0;
    for game in games {
        score_halves += game.score.halves();
        expected_hundredths += expected_score(own, game.opponent).hundredths();
    }
    // Σ(W − PD) in hundredths: W × 100 = halves × 50.
    let delta = i64::from(score_halves) * 50 - i64::from(expected_hundredths);
    Ok(Change {
        k,
        games: u32::try_from(games.len()).unwrap_or(u32::MAX),
        score_halves,
        expected_hundredths,
        change_hundredths: delta * i64::from(k.value()),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn r(v: u32) -> Rating {
        Rating::new(v).unwrap()
    }

    fn game(opponent: u32, score: Score) -> Game {
        Game {
            opponent: r(opponent),
            score,
        }
    }

    /// /work/shared/spec/ratings.md, the issue's example (FIDE B.02 table
    /// 8.1(b)): 1800 with K 20 beating a 1900 and drawing a 1700:
    /// expected 0.36 and 0.64, (1 − 0.36) + (0.5 − 0.64) = 0.50 → +10.0.
    #[test]
    fn the_issues_example() {
        let c = rating_change(
            r(1800),
            KFactor::TWENTY,
            &[game(1900, Score::Win), game(1700, Score::Draw)],
        )
        .unwrap();
        assert_eq!(expected_score(r(1800), r(1900)).hundredths(), 36);
        assert_eq!(expected_score(r(1800), r(1700)).hundredths(), 64);
        assert_eq!(c.expected_text(), "1.00");
        assert_eq!(c.change_hundredths, 1000);
        assert_eq!(c.change_text(), "+10.0");
        assert_eq!(c.rounded(), 10);
    }

    /// Table 8.1(b) as reproduced in full at
    /// chess.stackexchange.com/questions/19653 ("0-3 .50 .50 | 4-10 .51 .49
    /// | … | 345-357 .89 .11 | … | 620-735 .99 .01 | over 735 1.00 .00"):
    /// both ends of several ranges, for the higher and the lower player.
    #[test]
    fn table_8_1_b_range_ends() {
        let cases = [
            (0, 50),
            (3, 50),
            (4, 51),
            (10, 51),
            (11, 52),
            (25, 53),
            (26, 54),
            (92, 63),
            (98, 63),
            (99, 64),
            (106, 64),
            (198, 76),
            (206, 76),
            (329, 88),
            (344, 88),
            (345, 89),
            (357, 89),
            (358, 90),
            (391, 91),
            (392, 92),
        ];
        for (d, pd) in cases {
            assert_eq!(
                expected_score(r(2000 + d), r(2000)).hundredths(),
                pd,
                "D {d}"
            );
            assert_eq!(
                expected_score(r(2000), r(2000 + d)).hundredths(),
                100 - pd,
                "D -{d}"
            );
        }
    }

    /// The 400-point rule (8.54) with the figures of
    /// elo-calculator.chesselo.com/rule.html: "If you are rated 2200 and
    /// your opponent 1000 or 1600, your expected result for the game will
    /// be 0.92"; "If you are rated 1800 and your opponent 2400 or 2482 …
    /// 0.08".
    #[test]
    fn four_hundred_point_rule() {
        assert_eq!(expected_score(r(2200), r(1000)).hundredths(), 92);
        assert_eq!(expected_score(r(2200), r(1600)).hundredths(), 92);
        assert_eq!(expected_score(r(1800), r(2400)).hundredths(), 8);
        assert_eq!(expected_score(r(1800), r(2482)).hundredths(), 8);
        // The same page: a difference of 100 gives 0.64 for the stronger
        // player and 0.36 for the weaker.
        assert_eq!(expected_score(r(1600), r(1500)).hundredths(), 64);
        assert_eq!(expected_score(r(1500), r(1600)).hundredths(), 36);
    }

    /// The K rules of 8.56 as worded since 1 July 2014 (quoted at
    /// samara-chess.ru/index.php?go=Pages&in=print&id=24 and
    /// chesselo.com/new_fide_system.html): no published worked figure is
    /// needed, the values are the rule's own.
    #[test]
    fn k_by_the_regulation() {
        let facts = KFacts::default();
        assert_eq!(KFactor::by_regulation(r(2399), facts), KFactor::TWENTY);
        assert_eq!(KFactor::by_regulation(r(2400), facts), KFactor::TEN);
        let fallen = KFacts {
            reached_2400: true,
            ..facts
        };
        assert_eq!(KFactor::by_regulation(r(2350), fallen), KFactor::TEN);
        let new = KFacts {
            games_before: Some(29),
            ..facts
        };
        assert_eq!(KFactor::by_regulation(r(1900), new), KFactor::FORTY);
        let thirty = KFacts {
            games_before: Some(30),
            ..facts
        };
        assert_eq!(KFactor::by_regulation(r(1900), thirty), KFactor::TWENTY);
        let junior = KFacts {
            age_this_year: Some(18),
            ..facts
        };
        assert_eq!(KFactor::by_regulation(r(2299), junior), KFactor::FORTY);
        assert_eq!(KFactor::by_regulation(r(2300), junior), KFactor::TWENTY);
        let nineteen = KFacts {
            age_this_year: Some(19),
            ..facts
        };
        assert_eq!(KFactor::by_regulation(r(2000), nineteen), KFactor::TWENTY);
    }

    /// K × n ≤ 700 (8.56). No published worked figure was found; the
    /// values follow from the rule's text (the largest whole K with
    /// K × n ≤ 700).
    #[test]
    fn k_times_games_at_most_700() {
        assert_eq!(KFactor::FORTY.limited(17), KFactor::FORTY);
        assert_eq!(KFactor::FORTY.limited(18).value(), 38);
        assert_eq!(KFactor::TWENTY.limited(35), KFactor::TWENTY);
        assert_eq!(KFactor::TWENTY.limited(36).value(), 19);
        let games = vec![game(1800, Score::Draw); 18];
        let c = rating_change(r(1800), KFactor::FORTY, &games).unwrap();
        assert_eq!(c.k.value(), 38);
        assert_eq!(c.change_hundredths, 0);
    }

    #[test]
    fn hundredths_show_when_k_is_not_a_tenth_multiple() {
        // K 38 (from the 700 rule) and one win against an equal player:
        // 38 × 0.50 = 19.00; against a 1900: 38 × 0.64 = 24.32.
        let mut games = vec![game(1800, Score::Draw); 17];
        games.push(game(1900, Score::Win));
        let c = rating_change(r(1800), KFactor::FORTY, &games).unwrap();
        assert_eq!(c.change_text(), "+24.32");
        assert_eq!(c.rounded(), 24);
    }

    #[test]
    fn bad_values_are_named() {
        assert_eq!(
            Rating::new(0).unwrap_err().to_string(),
            "rating 0: 1 to 3500"
        );
        assert_eq!(
            KFactor::new(41).unwrap_err().to_string(),
            "K 41: 1 to 40 (the regulation's values are 40, 20 and 10)"
        );
        let games = vec![game(1800, Score::Draw); MAX_GAMES + 1];
        assert!(matches!(
            rating_change(r(1800), KFactor::TEN, &games),
            Err(FideError::TooManyGames(_))
        ));
    }

    #[test]
    fn negative_changes_round_away_from_zero() {
        // 1800 (K 20) losing to a 1700: 20 × (0 − 0.64) = −12.8.
        let c = rating_change(r(1800), KFactor::TWENTY, &[game(1700, Score::Loss)]).unwrap();
        assert_eq!(c.change_text(), "-12.8");
        assert_eq!(c.rounded(), -13);
    }
}
