//! Club ratings: a variant group's list, a member's ratings and their
//! history (the ratings themselves change in the store, in the
//! transaction that ends a rated game).

use crate::domain::Page;
use crate::domain::ratings::{CLUB, HistoryEntry, RatedMember, RatingGroup, Standing};
use crate::service::AppState;
use crate::storage::StoreError;

/// History rows a member's page shows per group at most (the newest); the
/// rest are a page of their own away.
pub(crate) const HISTORY_SHOWN: i64 = 100;

/// Why a ratings request is refused.
#[derive(Debug, thiserror::Error)]
pub(crate) enum RatingsError {
    #[error(
        "variant {0:?}: standard, chess960, synchronschach or fairschach (or the group orthodox)"
    )]
    UnknownVariant(String),
    #[error("user not found")]
    NoSuchUser,
    #[error(transparent)]
    Store(#[from] StoreError),
}

/// The group a variant's name asks for.
pub(crate) fn group(name: &str) -> Result<RatingGroup, RatingsError> {
    RatingGroup::from_name(name).ok_or_else(|| RatingsError::UnknownVariant(name.to_string()))
}

/// A page of `group`'s rated members, highest first, each rating as it
/// stands now; and whether more follow.
pub(crate) async fn list(
    state: &AppState,
    group: RatingGroup,
    page: Page,
) -> Result<(Vec<RatedMember>, bool), RatingsError> {
    let size = i64::from(page.size);
    let mut rows = state
        .store
        .rating_list(group, size + 1, page.offset())
        .await?;
    let more = rows.len() as i64 > size;
    rows.truncate(page.size as usize);
    let now = state.clock.now() as i64;
    for row in &mut rows {
        row.standing.rating = row.standing.at(now);
    }
    Ok((rows, more))
}

/// A member's rating in one group: as it stands now (a member who never
/// played one there has lichess's start), the newest history rows (at
/// most [`HISTORY_SHOWN`]) and whether older ones exist.
#[derive(Debug, Clone)]
pub(crate) struct GroupRating {
    pub group: RatingGroup,
    pub standing: Standing,
    pub provisional: bool,
    pub history: Vec<HistoryEntry>,
    pub more_history: bool,
}

/// A member's name as registered and their rating in every group.
pub(crate) async fn member(
    state: &AppState,
    username: &str,
) -> Result<(String, Vec<GroupRating>), RatingsError> {
    let (user, _) = state
        .store
        .user(username)
        .await?
        .ok_or(RatingsError::NoSuchUser)?;
    let stored = state.store.member_ratings(&user.name).await?;
    let now = state.clock.now() as i64;
    let mut groups = Vec::with_capacity(RatingGroup::ALL.len());
    for group in RatingGroup::ALL {
        let mut standing = stored
            .iter()
            .find(|(g, _)| *g == group)
            .map_or_else(Standing::new_member, |(_, s)| *s);
        standing.rating = standing.at(now);
        let (history, more_history) =
            history(state, &user.name, group, HISTORY_SHOWN + 1, 0).await?;
        groups.push(GroupRating {
            group,
            provisional: CLUB.provisional(&standing.rating),
            standing,
            history,
            more_history,
        });
    }
    Ok((user.name, groups))
}

/// `limit - 1` history rows of `user` in `group` from `offset`, newest
/// first, and whether more follow.
async fn history(
    state: &AppState,
    user: &str,
    group: RatingGroup,
    limit: i64,
    offset: i64,
) -> Result<(Vec<HistoryEntry>, bool), RatingsError> {
    let mut rows = state
        .store
        .rating_history(user, group, limit, offset)
        .await?;
    let more = rows.len() as i64 >= limit;
    rows.truncate((limit - 1) as usize);
    Ok((rows, more))
}

/// A page of a member's history in `group`, newest first, whether more
/// follow, and the member's name as registered (the path may spell it in
/// another case).
pub(crate) async fn history_page(
    state: &AppState,
    username: &str,
    group: RatingGroup,
    page: Page,
) -> Result<(String, Vec<HistoryEntry>, bool), RatingsError> {
    let (user, _) = state
        .store
        .user(username)
        .await?
        .ok_or(RatingsError::NoSuchUser)?;
    let (rows, more) = history(
        state,
        &user.name,
        group,
        i64::from(page.size) + 1,
        page.offset(),
    )
    .await?;
    Ok((user.name, rows, more))
}

/// Whether `game` is rated, and in which group.
pub(crate) async fn game_group(
    state: &AppState,
    game: &str,
) -> Result<Option<RatingGroup>, RatingsError> {
    Ok(state.store.rated_game(game).await?)
}
