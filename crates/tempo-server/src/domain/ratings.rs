//! Club ratings: Glicko-2 per variant group, kept as lichess keeps it
//! (every rated game its own rating period, rated when it ends; the
//! deviation grows with the days a member does not play; lichess's
//! bounds, start and τ: `tempo_rating::glicko2::Club::LICHESS`).

use tempo_chess::{Color, Outcome};
use tempo_host::Variant;
use tempo_rating::glicko2::{Club, Glicko2Error, Rating, Score};

/// The club's rating policy.
pub const CLUB: Club = Club::LICHESS;

/// Milliseconds a day (the deviation grows by the day).
const DAY_MS: f64 = 86_400_000.0;

/// The variants that share one rating: orthodox chess and Chess960 (the
/// same game from another start, as lichess's Chess960 players keep one
/// strength), Synchronschach, Fairschach.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum RatingGroup {
    Orthodox,
    Synchronschach,
    Fairschach,
}

impl RatingGroup {
    /// Every group, in the order the pages show them.
    pub const ALL: [RatingGroup; 3] = [
        RatingGroup::Orthodox,
        RatingGroup::Synchronschach,
        RatingGroup::Fairschach,
    ];

    /// The stored and shown name.
    pub fn as_str(self) -> &'static str {
        match self {
            RatingGroup::Orthodox => "orthodox",
            RatingGroup::Synchronschach => "synchronschach",
            RatingGroup::Fairschach => "fairschach",
        }
    }

    /// The group of a variant.
    pub fn of(variant: Variant) -> RatingGroup {
        match variant {
            Variant::Standard | Variant::Chess960 => RatingGroup::Orthodox,
            Variant::Synchronschach => RatingGroup::Synchronschach,
            Variant::Fairschach => RatingGroup::Fairschach,
        }
    }

    /// The group a name asks for: a variant's name (`standard`,
    /// `chess960`, `synchronschach`, `fairschach`) or a group's
    /// (`orthodox`), in any case.
    pub fn from_name(name: &str) -> Option<RatingGroup> {
        let name = name.to_ascii_lowercase();
        if let Some(group) = RatingGroup::ALL.into_iter().find(|g| g.as_str() == name) {
            return Some(group);
        }
        Variant::ALL
            .into_iter()
            .find(|v| {
                serde_json::to_value(v)
                    .ok()
                    .is_some_and(|n| n.as_str() == Some(name.as_str()))
            })
            .map(RatingGroup::of)
    }
}

/// A member's rating in one group as stored.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Standing {
    pub rating: Rating,
    /// Rated games played in the group.
    pub games: i64,
    /// When the last one ended (ms), `None` before the first.
    pub last: Option<i64>,
}

impl Standing {
    /// A new member's: lichess's start.
    pub fn new_member() -> Standing {
        Standing {
            rating: CLUB.start,
            games: 0,
            last: None,
        }
    }

    /// The rating as it stands at `now` (its deviation grown by the days
    /// since the last game), as lichess shows it.
    pub fn at(&self, now: i64) -> Rating {
        let days = self.last.map_or(0.0, |last| days_between(last, now));
        CLUB.aged(self.rating, days).unwrap_or(self.rating)
    }
}

/// A member in a group's list.
#[derive(Debug, Clone, PartialEq)]
pub struct RatedMember {
    /// The member's name as registered (its case kept).
    pub name: String,
    pub standing: Standing,
}

/// One rated game in a member's history: the rating and deviation
/// before it (the deviation as grown by the days before it) and after.
#[derive(Debug, Clone, PartialEq)]
pub struct HistoryEntry {
    pub game: String,
    pub at: i64,
    pub before: (f64, f64),
    pub after: (f64, f64),
}

fn days_between(from: i64, to: i64) -> f64 {
    (to.saturating_sub(from)).max(0) as f64 / DAY_MS
}

/// White's and Black's standings after a decided game that ended at `at`.
pub fn rate_game(
    (white, black): (Standing, Standing),
    outcome: Outcome,
    at: i64,
) -> Result<(Standing, Standing), Glicko2Error> {
    let score = match outcome {
        Outcome::Win(Color::White) => Score::Win,
        Outcome::Win(Color::Black) => Score::Loss,
        Outcome::Draw => Score::Draw,
    };
    let days = |s: &Standing| s.last.map(|last| days_between(last, at));
    let (w, b) = CLUB.game(
        (white.rating, days(&white)),
        (black.rating, days(&black)),
        score,
    )?;
    let after = |s: Standing, rating| Standing {
        rating,
        games: s.games + 1,
        last: Some(at),
    };
    Ok((after(white, w), after(black, b)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn variant_names_map_to_their_groups() {
        assert_eq!(
            RatingGroup::from_name("standard"),
            Some(RatingGroup::Orthodox)
        );
        assert_eq!(
            RatingGroup::from_name("Chess960"),
            Some(RatingGroup::Orthodox)
        );
        assert_eq!(
            RatingGroup::from_name("orthodox"),
            Some(RatingGroup::Orthodox)
        );
        assert_eq!(
            RatingGroup::from_name("synchronschach"),
            Some(RatingGroup::Synchronschach)
        );
        assert_eq!(
            RatingGroup::from_name("fairschach"),
            Some(RatingGroup::Fairschach)
        );
        assert_eq!(RatingGroup::from_name("atomic"), None);
        assert_eq!(RatingGroup::from_name(""), None);
    }

    #[test]
    fn a_decided_game_moves_both_and_counts_it() {
        let new = Standing::new_member();
        let (w, b) = rate_game((new, new), Outcome::Win(Color::Black), 5).unwrap();
        assert!(w.rating.rating < 1500.0 && b.rating.rating > 1500.0);
        assert_eq!((w.games, b.games, w.last), (1, 1, Some(5)));
        // A year without games: the deviation has grown.
        let year = 365 * 86_400_000;
        assert!(b.at(5 + year).deviation > b.rating.deviation);
        assert_eq!(b.at(5).deviation, b.rating.deviation);
    }
}
