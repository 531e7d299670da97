//! Glicko-2 (Glickman, "Example of the Glicko-2 system",
//! <http://www.glicko.net/glicko/glicko2.pdf>).
//!
//! The update itself is `skillratings`' Glicko-2, which follows the paper
//! step by step (its volatility step is the paper's Illinois iteration with
//! the paper's tolerance 0.000001); this module puts typed, checked values
//! around it and adds what a club server needs on top: the rating's growth
//! of uncertainty while a member does not play, and lichess's bounds
//! ([`Club`]).
//!
//! Glickman's worked example: 1500 / RD 200 / σ 0.06 (τ = 0.5) beats
//! 1400/30 and loses to 1550/100 and 1700/300 in one rating period.
//!
//! ```
//! use tempo_rating::glicko2::{Game, Rating, Score, rate};
//!
//! let player = Rating::new(1500.0, 200.0, 0.06)?;
//! let games = [
//!     Game::new(Rating::new(1400.0, 30.0, 0.06)?, Score::Win),
//!     Game::new(Rating::new(1550.0, 100.0, 0.06)?, Score::Loss),
//!     Game::new(Rating::new(1700.0, 300.0, 0.06)?, Score::Loss),
//! ];
//! let after = rate(&player, &games, 0.5)?;
//! assert_eq!(format!("{:.2} {:.2} {:.6}", after.rating, after.deviation, after.volatility),
//!            "1464.05 151.52 0.059996");
//! # Ok::<(), tempo_rating::glicko2::Glicko2Error>(())
//! ```
//!
//! The paper prints 1464.06 / 151.52 / 0.05999: it rounds μ′ to −0.2069
//! before converting back (unrounded: 1464.05) and cuts σ′ = 0.059996 to
//! five places.

use serde::{Deserialize, Serialize};
use skillratings::Outcomes;
use skillratings::glicko2::{Glicko2Config, Glicko2Rating, glicko2_rating_period};
use thiserror::Error;

/// Largest rating accepted as input: far beyond any human or engine, small
/// enough that the expected scores stay off exactly 0 and 1.
pub const MAX_RATING: f64 = 10_000.0;

/// Largest deviation accepted as input (an unrated player is 350 in the
/// paper, 500 on lichess).
pub const MAX_DEVIATION: f64 = 1_000.0;

/// Largest volatility accepted as input (the paper starts at 0.06, lichess
/// at 0.09 and caps it at 0.1).
pub const MAX_VOLATILITY: f64 = 1.0;

/// Most games one rating period takes.
pub const MAX_GAMES: usize = 10_000;

/// What a value must be to be rated.
#[derive(Debug, Clone, PartialEq, Error)]
pub enum Glicko2Error {
    #[error("rating {0} is not a number from 0 to {MAX_RATING}")]
    Rating(f64),
    #[error("deviation (RD) {0} is not a number above 0 and at most {MAX_DEVIATION}")]
    Deviation(f64),
    #[error("volatility {0} is not a number above 0 and at most {MAX_VOLATILITY}")]
    Volatility(f64),
    #[error("tau {0} is not a number above 0 and at most 10 (Glickman suggests 0.3 to 1.2)")]
    Tau(f64),
    #[error("{0} games in one rating period; at most {MAX_GAMES}")]
    TooManyGames(usize),
    #[error("days {0} is not a number from 0 on")]
    Days(f64),
}

/// A Glicko-2 rating on the Glicko scale (1500 is the paper's unrated
/// player).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Rating {
    pub rating: f64,
    /// The rating deviation (RD): how uncertain the rating is.
    pub deviation: f64,
    /// σ: how erratic the player's results are.
    pub volatility: f64,
}

impl Rating {
    /// A rating, checked: a finite rating from 0 to [`MAX_RATING`], a
    /// deviation above 0 up to [`MAX_DEVIATION`], a volatility above 0 up
    /// to [`MAX_VOLATILITY`].
    ///
    /// ```
    /// use tempo_rating::glicko2::{Glicko2Error, Rating};
    /// assert!(Rating::new(1500.0, 350.0, 0.06).is_ok());
    /// assert_eq!(Rating::new(1500.0, -1.0, 0.06), Err(Glicko2Error::Deviation(-1.0)));
    /// assert!(Rating::new(f64::NAN, 350.0, 0.06).is_err());
    /// ```
    pub fn new(rating: f64, deviation: f64, volatility: f64) -> Result<Rating, Glicko2Error> {
        // `!(x >= lo)` rather than `x < lo`: NaN fails every comparison.
        if !(0.0..=MAX_RATING).contains(&rating) {
            return Err(Glicko2Error::Rating(rating));
        }
        if !(deviation > 0.0 && deviation <= MAX_DEVIATION) {
            return Err(Glicko2Error::Deviation(deviation));
        }
        if !(volatility > 0.0 && volatility <= MAX_VOLATILITY) {
            return Err(Glicko2Error::Volatility(volatility));
        }
        Ok(Rating {
            rating,
            deviation,
            volatility,
        })
    }

    /// The deviation after `periods` rating periods without a game
    /// (Glickman's step 6 for a player who did not compete:
    /// φ′ = √(φ² + σ²·periods)), at most `max_deviation`. A fraction of a
    /// period counts as that fraction, as lichess counts time in between.
    ///
    /// ```
    /// use tempo_rating::glicko2::Rating;
    /// let r = Rating::new(1500.0, 60.0, 0.06)?;
    /// assert!(r.aged(1.0, 350.0)?.deviation > 60.0);
    /// assert_eq!(r.aged(0.0, 350.0)?, r);
    /// assert_eq!(r.aged(1e9, 350.0)?.deviation, 350.0);
    /// # Ok::<(), tempo_rating::glicko2::Glicko2Error>(())
    /// ```
    pub fn aged(self, periods: f64, max_deviation: f64) -> Result<Rating, Glicko2Error> {
        if !(periods >= 0.0 && periods.is_finite()) {
            return Err(Glicko2Error::Days(periods));
        }
        if periods == 0.0 {
            // Exactly unchanged, not changed by rounding through the scale.
            return Ok(self);
        }
        let phi = self.deviation / SCALE;
        let grown = (phi * phi + self.volatility * self.volatility * periods).sqrt() * SCALE;
        Ok(Rating {
            deviation: grown.min(max_deviation.max(self.deviation)),
            ..self
        })
    }
}

/// Glicko ↔ Glicko-2 scale factor (the paper's 173.7178).
const SCALE: f64 = 173.7178;

pub use crate::score::Score;

/// skillratings' name for a score.
fn outcome(score: Score) -> Outcomes {
    match score {
        Score::Win => Outcomes::WIN,
        Score::Draw => Outcomes::DRAW,
        Score::Loss => Outcomes::LOSS,
    }
}

/// One game of a rating period: the opponent's rating before the period
/// and the rated player's score.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Game {
    pub opponent: Rating,
    pub score: Score,
}

impl Game {
    pub fn new(opponent: Rating, score: Score) -> Game {
        Game { opponent, score }
    }
}

/// Checks τ, the system constant: above 0, at most 10.
fn check_tau(tau: f64) -> Result<f64, Glicko2Error> {
    if tau > 0.0 && tau <= 10.0 {
        Ok(tau)
    } else {
        Err(Glicko2Error::Tau(tau))
    }
}

/// The player's rating after one rating period with `games` (every
/// opponent at their rating before the period), with system constant
/// `tau`. No games: the deviation grows by one period (the paper's
/// rule for a player who did not compete).
///
/// ```
/// use tempo_rating::glicko2::{Game, Rating, Score, rate};
/// let me = Rating::new(1500.0, 350.0, 0.06)?;
/// let after = rate(&me, &[Game::new(me, Score::Win)], 0.5)?;
/// assert!(after.rating > 1500.0 && after.deviation < 350.0);
/// # Ok::<(), tempo_rating::glicko2::Glicko2Error>(())
/// ```
pub fn rate(player: &Rating, games: &[Game], tau: f64) -> Result<Rating, Glicko2Error> {
    let tau = check_tau(tau)?;
    // Values built by hand (public fields) are checked like `Rating::new`'s.
    let player = Rating::new(player.rating, player.deviation, player.volatility)?;
    if games.len() > MAX_GAMES {
        return Err(Glicko2Error::TooManyGames(games.len()));
    }
    let results = games
        .iter()
        .map(|g| {
            let o = Rating::new(
                g.opponent.rating,
                g.opponent.deviation,
                g.opponent.volatility,
            )?;
            Ok((to_lib(o), outcome(g.score)))
        })
        .collect::<Result<Vec<_>, Glicko2Error>>()?;
    if results.is_empty() {
        return player.aged(1.0, f64::INFINITY);
    }
    let config = Glicko2Config {
        tau,
        convergence_tolerance: 0.000_001,
    };
    let after = glicko2_rating_period(&to_lib(player), &results, &config);
    Ok(Rating {
        rating: after.rating,
        deviation: after.deviation,
        volatility: after.volatility,
    })
}

fn to_lib(r: Rating) -> Glicko2Rating {
    Glicko2Rating {
        rating: r.rating,
        deviation: r.deviation,
        volatility: r.volatility,
    }
}

/// How a club server keeps Glicko-2, as lichess does: every game is its
/// own rating period, rated the moment it ends with both players' ratings
/// from before it; the deviation grows with the days since a member's last
/// rated game; every value stays within bounds, so that no run of results
/// can make a rating degenerate.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Club {
    /// A new member's rating.
    pub start: Rating,
    /// The system constant τ.
    pub tau: f64,
    /// Rating periods a day of not playing counts as (the deviation grows
    /// by σ² a period).
    pub periods_per_day: f64,
    pub min_rating: f64,
    pub max_rating: f64,
    pub min_deviation: f64,
    pub max_deviation: f64,
    pub max_volatility: f64,
    /// From this deviation on a rating is provisional (shown with `?`).
    pub provisional_deviation: f64,
}

impl Club {
    /// lichess's figures (lila `Glicko` and scalachess `rating.glicko`):
    /// a new member at 1500 / RD 500 / σ 0.09; τ 0.75; 0.21436 rating
    /// periods a day (chosen there so that a typical RD grows from 60 to
    /// 110 in a year); rating at least 400; RD from 45 to 500; σ at most
    /// 0.1; provisional from RD 110.
    pub const LICHESS: Club = Club {
        start: Rating {
            rating: 1500.0,
            deviation: 500.0,
            volatility: 0.09,
        },
        tau: 0.75,
        periods_per_day: 0.21436,
        min_rating: 400.0,
        max_rating: 4000.0,
        min_deviation: 45.0,
        max_deviation: 500.0,
        max_volatility: 0.1,
        provisional_deviation: 110.0,
    };

    /// The rating as it stands `days` after its last game: its deviation
    /// grown by the days' rating periods, within the bounds.
    pub fn aged(&self, rating: Rating, days: f64) -> Result<Rating, Glicko2Error> {
        if !(days >= 0.0 && days.is_finite()) {
            return Err(Glicko2Error::Days(days));
        }
        let aged = rating.aged(days * self.periods_per_day, self.max_deviation)?;
        Ok(self.bounded(aged))
    }

    /// Both players' ratings after one game between them. Each rating is
    /// first aged by the days since that player's last rated game (`None`:
    /// their first); `score` is the first player's.
    ///
    /// ```
    /// use tempo_rating::glicko2::{Club, Score};
    /// let club = Club::LICHESS;
    /// let (a, b) = club.game((club.start, None), (club.start, None), Score::Win)?;
    /// assert!(a.rating > 1500.0 && b.rating < 1500.0);
    /// assert!(a.deviation < 500.0 && (a.rating - 1500.0 - (1500.0 - b.rating)).abs() < 1e-9);
    /// # Ok::<(), tempo_rating::glicko2::Glicko2Error>(())
    /// ```
    pub fn game(
        &self,
        (first, first_days): (Rating, Option<f64>),
        (second, second_days): (Rating, Option<f64>),
        score: Score,
    ) -> Result<(Rating, Rating), Glicko2Error> {
        let first = self.aged(first, first_days.unwrap_or(0.0))?;
        let second = self.aged(second, second_days.unwrap_or(0.0))?;
        let a = rate(&first, &[Game::new(second, score)], self.tau)?;
        let b = rate(&second, &[Game::new(first, score.reversed())], self.tau)?;
        Ok((self.bounded(a), self.bounded(b)))
    }

    /// Whether a rating is provisional (lichess shows it as `1500?`).
    pub fn provisional(&self, rating: &Rating) -> bool {
        rating.deviation >= self.provisional_deviation
    }

    fn bounded(&self, r: Rating) -> Rating {
        Rating {
            rating: r.rating.clamp(self.min_rating, self.max_rating),
            deviation: r.deviation.clamp(self.min_deviation, self.max_deviation),
            volatility: r.volatility.min(self.max_volatility),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn r(rating: f64, rd: f64, vol: f64) -> Rating {
        Rating::new(rating, rd, vol).unwrap()
    }

    /// Glickman, "Example of the Glicko-2 system" (glicko2.pdf, section
    /// "Example calculation"): 1500/200/0.06, τ = 0.5, beats 1400/30,
    /// loses to 1550/100 and 1700/300 → r′ = 1464.06, RD′ = 151.52,
    /// σ′ = 0.05999.
    #[test]
    fn glickman_s_worked_example() {
        let games = [
            Game::new(r(1400.0, 30.0, 0.06), Score::Win),
            Game::new(r(1550.0, 100.0, 0.06), Score::Loss),
            Game::new(r(1700.0, 300.0, 0.06), Score::Loss),
        ];
        let after = rate(&r(1500.0, 200.0, 0.06), &games, 0.5).unwrap();
        // The paper rounds μ′ to −0.2069 before converting: 1464.06.
        assert!((after.rating - 1464.06).abs() < 0.02, "{after:?}");
        assert!((after.deviation - 151.52).abs() < 0.005, "{after:?}");
        // The paper prints σ′ cut to five places (0.059996 → 0.05999).
        assert!((after.volatility - 0.05999).abs() < 0.000_01, "{after:?}");
    }

    #[test]
    fn bad_input_is_refused_by_name() {
        assert_eq!(
            Rating::new(1500.0, -5.0, 0.06),
            Err(Glicko2Error::Deviation(-5.0))
        );
        assert!(matches!(
            Rating::new(f64::NAN, 200.0, 0.06),
            Err(Glicko2Error::Rating(_))
        ));
        assert!(matches!(
            Rating::new(1500.0, 200.0, f64::NAN),
            Err(Glicko2Error::Volatility(_))
        ));
        assert_eq!(
            Rating::new(1500.0, 200.0, 0.0),
            Err(Glicko2Error::Volatility(0.0))
        );
        assert!("1.5".parse::<Score>().is_err());
        assert!("-1".parse::<Score>().is_err());
        assert!("nan".parse::<Score>().is_err());
        let me = r(1500.0, 200.0, 0.06);
        assert_eq!(rate(&me, &[], 0.0), Err(Glicko2Error::Tau(0.0)));
        assert!(rate(&me, &[], f64::NAN).is_err());
        let hand_made = Rating {
            rating: 1500.0,
            deviation: -1.0,
            volatility: 0.06,
        };
        assert!(rate(&me, &[Game::new(hand_made, Score::Win)], 0.5).is_err());
    }

    #[test]
    fn no_games_grow_the_deviation_only() {
        let me = r(1500.0, 200.0, 0.06);
        let after = rate(&me, &[], 0.5).unwrap();
        assert_eq!(after.rating, 1500.0);
        // The paper: φ′ = √(φ² + σ²).
        let phi = 200.0 / SCALE;
        assert!((after.deviation - (phi * phi + 0.0036f64).sqrt() * SCALE).abs() < 1e-9);
    }

    /// A small deterministic spread of ratings to check properties over.
    fn spread() -> Vec<Rating> {
        let mut out = Vec::new();
        for rating in [400.0, 1200.0, 1500.0, 1850.0, 2700.0] {
            for rd in [45.0, 110.0, 350.0, 500.0] {
                for vol in [0.03, 0.06, 0.09] {
                    out.push(r(rating, rd, vol));
                }
            }
        }
        out
    }

    #[test]
    fn a_win_never_lowers_a_rating_and_a_loss_never_raises_it() {
        let club = Club::LICHESS;
        for a in spread() {
            for b in spread().iter().step_by(7) {
                let (won, lost) = club.game((a, None), (*b, None), Score::Win).unwrap();
                assert!(won.rating >= a.rating, "{a:?} beat {b:?}: {won:?}");
                assert!(lost.rating <= b.rating, "{b:?} lost to {a:?}: {lost:?}");
            }
        }
    }

    /// The paper's step 6 first widens φ to φ* = √(φ² + σ′²) (the period
    /// passing), step 7 then narrows it: φ′ = 1/√(1/φ*² + 1/v) < φ*. So
    /// after a game the RD is below the RD the period alone would give;
    /// against an opponent of huge RD (little information) it may still
    /// end a hair above the RD before the period.
    #[test]
    fn a_game_never_raises_the_deviation_beyond_the_period_s() {
        for a in spread() {
            for b in spread().iter().step_by(5) {
                for score in [Score::Win, Score::Draw, Score::Loss] {
                    let after = rate(&a, &[Game::new(*b, score)], 0.75).unwrap();
                    let phi_star =
                        ((a.deviation / SCALE).powi(2) + after.volatility.powi(2)).sqrt();
                    assert!(
                        after.deviation <= phi_star * SCALE,
                        "{a:?} vs {b:?}: {after:?}"
                    );
                    // Against an informative opponent (settled, of like
                    // strength) it falls below the RD before.
                    if b.deviation <= 110.0
                        && a.deviation >= 110.0
                        && (a.rating - b.rating).abs() <= 400.0
                    {
                        assert!(after.deviation < a.deviation, "{a:?} vs {b:?}: {after:?}");
                    }
                }
            }
        }
    }

    #[test]
    fn results_are_symmetric() {
        let club = Club::LICHESS;
        for a in spread().iter().step_by(3) {
            for b in spread().iter().step_by(4) {
                // Who is named first does not matter.
                let (x, y) = club.game((*a, None), (*b, None), Score::Win).unwrap();
                let (y2, x2) = club.game((*b, None), (*a, None), Score::Loss).unwrap();
                assert_eq!((x, y), (x2, y2));
                // Equal players: the winner gains what the loser loses.
                let (w, l) = club.game((*a, None), (*a, None), Score::Win).unwrap();
                if w.rating < club.max_rating && l.rating > club.min_rating {
                    assert!((w.rating - a.rating - (a.rating - l.rating)).abs() < 1e-6);
                }
                // A draw between equals changes no rating.
                let (d1, d2) = club.game((*a, None), (*a, None), Score::Draw).unwrap();
                assert!((d1.rating - a.rating).abs() < 1e-6 && (d2.rating - a.rating).abs() < 1e-6);
            }
        }
    }

    #[test]
    fn the_club_ages_deviations_by_the_days_between_games_within_bounds() {
        let club = Club::LICHESS;
        let settled = r(1800.0, 60.0, 0.06);
        // lichess chose 0.21436 periods a day so that RD 60 becomes about 110
        // in a year at a typical volatility.
        let year = club.aged(settled, 365.0).unwrap();
        assert!((year.deviation - 110.0).abs() < 5.0, "{year:?}");
        assert_eq!(club.aged(settled, 1e6).unwrap().deviation, 500.0);
        assert!(club.aged(settled, -1.0).is_err());
        // A long run of wins stays within the bounds.
        let mut me = club.start;
        let weak = r(400.0, 45.0, 0.06);
        for _ in 0..500 {
            me = club
                .game((me, Some(0.0)), (weak, None), Score::Win)
                .unwrap()
                .0;
        }
        assert!(me.deviation >= club.min_deviation && me.volatility <= club.max_volatility);
        assert!(me.rating <= club.max_rating);
    }
}
