//! Members as lichess's API names them (`{"id","name","title","rating",
//! "provisional"}`), for the lichess-shaped answers: the game stream's
//! players, a challenge's challenger and challenged, an event's opponent.

use serde::Serialize;
use tempo_host::Variant;
use utoipa::ToSchema;

use crate::domain::ratings::{CLUB, RatingGroup, Standing};
use crate::service::AppState;
use crate::storage::StoreError;

/// A member as lichess's light user object shows them.
#[derive(Debug, Clone, PartialEq, Serialize, ToSchema)]
pub(crate) struct LichessUser {
    /// The name in lower case (lichess's user id).
    pub id: String,
    /// The name as registered.
    pub name: String,
    /// `BOT` for a bot account, else `null` (lichess's titles).
    pub title: Option<String>,
    /// The member's club rating in the game's rating group, rounded.
    pub rating: i64,
    /// Whether that rating is still provisional (lichess: RD 110 or more).
    pub provisional: bool,
}

/// Whether `name` is a bot: the computer opponents `tempo serve` runs
/// (names beginning with `bot-`).
pub(crate) fn is_bot_name(name: &str) -> bool {
    name.get(..4)
        .is_some_and(|prefix| prefix.eq_ignore_ascii_case("bot-"))
}

/// `name` (as registered, or as the caller wrote it if no account has it)
/// with their rating in `variant`'s group as it stands now.
pub(crate) async fn user(
    state: &AppState,
    name: &str,
    variant: Variant,
) -> Result<LichessUser, StoreError> {
    let registered = state
        .store
        .user(name)
        .await?
        .map_or_else(|| name.to_string(), |(user, _)| user.name);
    let group = RatingGroup::of(variant);
    let mut standing = state
        .store
        .member_ratings(&registered)
        .await?
        .into_iter()
        .find(|(g, _)| *g == group)
        .map_or_else(Standing::new_member, |(_, s)| s);
    standing.rating = standing.at(state.clock.now() as i64);
    Ok(LichessUser {
        id: registered.to_lowercase(),
        title: is_bot_name(&registered).then(|| "BOT".to_string()),
        rating: standing.rating.rating.round() as i64,
        provisional: CLUB.provisional(&standing.rating),
        name: registered,
    })
}

#[cfg(test)]
mod tests {
    use super::is_bot_name;

    #[test]
    fn bot_names() {
        assert!(is_bot_name("bot-greedy"));
        assert!(is_bot_name("Bot-Mixed"));
        assert!(!is_bot_name("bo"));
        assert!(!is_bot_name("robot"));
        assert!(!is_bot_name("bötchen"));
    }
}
