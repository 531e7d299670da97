//! A performance rating on a known scale: the maximum-likelihood rating
//! of a player who scored `score` of `games` against opponents of known
//! ratings (for example an engine against Stockfish at calibrated
//! `UCI_Elo` levels), with a 95 % likelihood-ratio interval.
//!
//! The model is the logistic Elo curve: against an opponent rated `r` a
//! player rated `R` scores `p = 1 / (1 + 10^((r − R) / 400))` a game in
//! expectation. Each game counts as a Bernoulli trial with the points as
//! its outcome (a draw is half a success), so the log-likelihood is
//! `Σ s ln p + (n − s) ln(1 − p)` over the opponents. Its maximum solves
//! `Σ n p(R) = Σ s`; the interval is every `R` whose log-likelihood is
//! within `χ²₁(0.95) / 2 ≈ 1.92` of the maximum. With no point at all
//! (or every point) the maximum lies at −∞ (+∞): the result is then
//! only an upper (lower) bound.
//!
//! ```
//! use tempo_rating::performance::{Estimate, Match, estimate};
//!
//! // 15 of 20 against a 1500: R = 1500 + 400 log10(3).
//! let est = estimate(&[Match::new(1500.0, 20, 15.0)?])?;
//! let Estimate::Rating { rating, low, high } = est else { panic!() };
//! assert!((rating - 1690.85).abs() < 0.01);
//! assert!(low < rating && rating < high);
//! # Ok::<(), tempo_rating::performance::PerformanceError>(())
//! ```

use thiserror::Error;

/// Most games one estimate takes (the likelihood is a sum over opponents,
/// so this only bounds the input's sanity).
pub const MAX_GAMES: u32 = 10_000_000;
/// Most opponents (levels) of one estimate.
pub const MAX_OPPONENTS: usize = 1_000;
/// Half the 95 % quantile of χ² with one degree of freedom.
const HALF_CHI2_95: f64 = 3.841_458_820_694_124 / 2.0;
/// How far from the opponents' ratings the search for the estimate and
/// its bounds goes (no finite result lies further out unless thousands of
/// games are one-sided, and then the bound is reported as this far).
const SPAN: f64 = 4_000.0;

/// What is wrong with the input of an estimate.
#[derive(Debug, Clone, PartialEq, Error)]
pub enum PerformanceError {
    #[error("no games")]
    NoGames,
    #[error("score {score} against {opponent}: must be from 0 to the {games} games played")]
    Score {
        opponent: f64,
        games: u32,
        score: f64,
    },
    #[error("rating {0}: must be a finite number from -10000 to 10000")]
    Rating(f64),
    #[error("{0} games: at most {MAX_GAMES}")]
    TooManyGames(u64),
    #[error("{0} opponents: at most {MAX_OPPONENTS}")]
    TooManyOpponents(usize),
}

/// The games against one opponent (or one rating level).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Match {
    pub opponent: f64,
    pub games: u32,
    /// Points scored (wins + draws / 2).
    pub score: f64,
}

impl Match {
    /// # Errors
    /// A rating that is not finite or beyond ±10000, a score below 0 or
    /// above the games.
    pub fn new(opponent: f64, games: u32, score: f64) -> Result<Self, PerformanceError> {
        if !opponent.is_finite() || opponent.abs() > 10_000.0 {
            return Err(PerformanceError::Rating(opponent));
        }
        if !(score.is_finite() && (0.0..=f64::from(games)).contains(&score)) {
            return Err(PerformanceError::Score {
                opponent,
                games,
                score,
            });
        }
        Ok(Match {
            opponent,
            games,
            score,
        })
    }
}

/// The estimate.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Estimate {
    /// The maximum-likelihood rating with its 95 % interval.
    Rating { rating: f64, low: f64, high: f64 },
    /// No point scored: the rating is below `high` (95 %), no lower bound.
    Below { high: f64 },
    /// Every point scored: the rating is above `low` (95 %).
    Above { low: f64 },
}

/// The expected score a game of a player rated `own` against `opponent`.
#[must_use]
pub fn expected_score(own: f64, opponent: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf((opponent - own) / 400.0))
}

/// The log-likelihood of rating `r` given `results`.
#[must_use]
pub fn log_likelihood(results: &[Match], r: f64) -> f64 {
    results
        .iter()
        .map(|m| {
            let p = expected_score(r, m.opponent);
            let n = f64::from(m.games);
            // 0 × ln 0 is 0: a term without points (or losses) adds nothing.
            let won = if m.score > 0.0 { m.score * p.ln() } else { 0.0 };
            let lost = if n - m.score > 0.0 {
                (n - m.score) * (1.0 - p).ln()
            } else {
                0.0
            };
            won + lost
        })
        .sum()
}

/// The maximum-likelihood rating and its 95 % likelihood-ratio interval.
///
/// # Errors
/// No games, or more than [`MAX_GAMES`] or [`MAX_OPPONENTS`].
pub fn estimate(results: &[Match]) -> Result<Estimate, PerformanceError> {
    if results.len() > MAX_OPPONENTS {
        return Err(PerformanceError::TooManyOpponents(results.len()));
    }
    let games: u64 = results.iter().map(|m| u64::from(m.games)).sum();
    if games == 0 {
        return Err(PerformanceError::NoGames);
    }
    if games > u64::from(MAX_GAMES) {
        return Err(PerformanceError::TooManyGames(games));
    }
    let played: Vec<Match> = results.iter().copied().filter(|m| m.games > 0).collect();
    let score: f64 = played.iter().map(|m| m.score).sum();
    let lowest = played
        .iter()
        .map(|m| m.opponent)
        .fold(f64::INFINITY, f64::min);
    let highest = played
        .iter()
        .map(|m| m.opponent)
        .fold(f64::NEG_INFINITY, f64::max);
    let (lo, hi) = (lowest - SPAN, highest + SPAN);
    let ll = |r: f64| log_likelihood(&played, r);
    let games = games as f64;
    if score <= 0.0 {
        // L rises towards 0 as R falls: its supremum is 0.
        let high = bisect(lo, hi, |r| ll(r) >= -HALF_CHI2_95);
        return Ok(Estimate::Below { high });
    }
    if score >= games {
        let low = bisect(lo, hi, |r| ll(r) < -HALF_CHI2_95);
        return Ok(Estimate::Above { low });
    }
    // Σ n p(R) rises with R: the maximum is where it meets the score.
    let expected = |r: f64| -> f64 {
        played
            .iter()
            .map(|m| f64::from(m.games) * expected_score(r, m.opponent))
            .sum()
    };
    let rating = bisect(lo, hi, |r| expected(r) < score);
    let floor = ll(rating) - HALF_CHI2_95;
    let low = bisect(lo, rating, |r| ll(r) < floor);
    let high = bisect(rating, hi, |r| ll(r) >= floor);
    Ok(Estimate::Rating { rating, low, high })
}

/// The point in [lo, hi] where `below` turns from true to false (it is
/// true at lo and false at hi, or the end it already holds at).
fn bisect(mut lo: f64, mut hi: f64, below: impl Fn(f64) -> bool) -> f64 {
    if !below(lo) {
        return lo;
    }
    if below(hi) {
        return hi;
    }
    // 200 halvings of 8000 points are far below f64's resolution.
    for _ in 0..200 {
        let mid = (lo + hi) / 2.0;
        if below(mid) {
            lo = mid;
        } else {
            hi = mid;
        }
        if hi - lo < 1e-9 {
            break;
        }
    }
    (lo + hi) / 2.0
}

#[cfg(test)]
mod tests {
    use super::*;

    fn r(opponent: f64, games: u32, score: f64) -> Match {
        Match::new(opponent, games, score).unwrap()
    }

    fn rating(est: Estimate) -> (f64, f64, f64) {
        match est {
            Estimate::Rating { rating, low, high } => (rating, low, high),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn half_the_points_is_the_opponents_rating_with_a_hand_computed_interval() {
        // 10 of 20 against 1500: R̂ = 1500. The bounds solve
        // 10 ln(4p(1−p)) = −1.92073, so p(1−p) = e^(−0.192073)/4 =
        // 0.206312, p = 0.290982 (and 1 − p), R = 1500 ∓ 400 log10(1/p − 1)
        // = 1500 ∓ 154.72.
        let (est, low, high) = rating(estimate(&[r(1500.0, 20, 10.0)]).unwrap());
        assert!((est - 1500.0).abs() < 1e-6, "{est}");
        assert!((low - 1345.28).abs() < 0.02, "{low}");
        assert!((high - 1654.72).abs() < 0.02, "{high}");
    }

    #[test]
    fn levels_combine() {
        // Symmetric results around 1500: 15/20 against 1400, 5/20 against
        // 1600. At 1500, 20 × (0.640 + 0.360) = 20 = the score.
        let (est, low, high) =
            rating(estimate(&[r(1400.0, 20, 15.0), r(1600.0, 20, 5.0)]).unwrap());
        assert!((est - 1500.0).abs() < 1e-6, "{est}");
        assert!((1500.0 - low - (high - 1500.0)).abs() < 1e-3);
        // 40 games give a narrower interval than the 20 above.
        assert!(high - low < 2.0 * 154.72);
        // 15 of 20 against one 1500: 1500 + 400 log10 3.
        let (est, _, _) = rating(estimate(&[r(1500.0, 20, 15.0)]).unwrap());
        assert!((est - (1500.0 + 400.0 * 3f64.log10())).abs() < 1e-6);
    }

    #[test]
    fn no_points_is_an_upper_bound_and_all_points_a_lower_one() {
        // 0 of 20 against 1350: 20 ln(1 − p) = −1.92073, 1 − p =
        // e^(−0.0960365) = 0.908431, R = 1350 − 400 log10(0.908431 /
        // 0.091569) = 1350 − 398.62.
        match estimate(&[r(1350.0, 20, 0.0)]).unwrap() {
            Estimate::Below { high } => assert!((high - 951.38).abs() < 0.02, "{high}"),
            other => panic!("{other:?}"),
        }
        match estimate(&[r(1350.0, 20, 20.0)]).unwrap() {
            Estimate::Above { low } => assert!((low - 1748.62).abs() < 0.02, "{low}"),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn the_estimate_maximises_the_likelihood() {
        let results = [r(1350.0, 20, 3.5), r(1550.0, 20, 1.0), r(1750.0, 20, 0.5)];
        let (est, low, high) = rating(estimate(&results).unwrap());
        let best = log_likelihood(&results, est);
        for d in [-50.0, -1.0, 1.0, 50.0] {
            assert!(log_likelihood(&results, est + d) < best);
        }
        assert!((log_likelihood(&results, low) - (best - HALF_CHI2_95)).abs() < 1e-6);
        assert!((log_likelihood(&results, high) - (best - HALF_CHI2_95)).abs() < 1e-6);
    }

    #[test]
    fn bad_input_is_an_error() {
        assert_eq!(estimate(&[]), Err(PerformanceError::NoGames));
        assert_eq!(
            estimate(&[r(1500.0, 0, 0.0)]),
            Err(PerformanceError::NoGames)
        );
        assert!(matches!(
            Match::new(1500.0, 10, 10.5),
            Err(PerformanceError::Score { .. })
        ));
        assert!(matches!(
            Match::new(f64::NAN, 10, 1.0),
            Err(PerformanceError::Rating(_))
        ));
        assert!(Match::new(1500.0, 10, -0.5).is_err());
    }
}
