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

/// Whether `name` is one of the computer opponents `tempo serve` runs
/// (names beginning with `bot-`, which no member may take).
pub(crate) fn is_bot_name(name: &str) -> bool {
    name.get(..4)
        .is_some_and(|prefix| prefix.eq_ignore_ascii_case("bot-"))
}

/// Whether the account `name` with the stored bot flag `flag` is a bot:
/// upgraded (`POST /api/bot/account/upgrade`) or one of tempo's own.
pub(crate) fn is_bot(name: &str, flag: bool) -> bool {
    flag || is_bot_name(name)
}

/// Lichess's title of a bot, `None` for anyone else.
pub(crate) fn title(name: &str, flag: bool) -> Option<String> {
    is_bot(name, flag).then(|| "BOT".to_string())
}

/// `name` (as registered, or as the caller wrote it if no account has it)
/// with their rating in `variant`'s group as it stands now: one query.
pub(crate) async fn user(
    state: &AppState,
    name: &str,
    variant: Variant,
) -> Result<LichessUser, StoreError> {
    let group = RatingGroup::of(variant);
    let (registered, flag, standing) = state
        .store
        .light_user(name, group)
        .await?
        .unwrap_or_else(|| (name.to_string(), false, None));
    let mut standing = standing.unwrap_or_else(Standing::new_member);
    standing.rating = standing.at(state.clock.now() as i64);
    Ok(LichessUser {
        id: registered.to_lowercase(),
        title: title(&registered, flag),
        rating: standing.rating.rating.round() as i64,
        provisional: CLUB.provisional(&standing.rating),
        name: registered,
    })
}

#[cfg(test)]
mod tests {
    use super::{is_bot, is_bot_name, title};

    #[test]
    fn bot_names() {
        assert!(is_bot("anna", true));
        assert!(is_bot("bot-x", false));
        assert!(!is_bot("anna", false));
        assert_eq!(title("anna", true).as_deref(), Some("BOT"));
        assert_eq!(title("anna", false), None);
        assert!(is_bot_name("bot-greedy"));
        assert!(is_bot_name("Bot-Mixed"));
        assert!(!is_bot_name("bo"));
        assert!(!is_bot_name("robot"));
        assert!(!is_bot_name("bötchen"));
    }
}
