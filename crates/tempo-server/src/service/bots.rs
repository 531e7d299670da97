//! Bot accounts, as lichess has them: a member upgrades their own account
//! for good before playing any game; tempo's own computer opponents
//! (`bot-…`) are bots by their name. Also what the lichess-shaped account
//! answers say of a member (title, creation, ratings by lichess's perf
//! names) and of a token (`POST /api/token/test`).

use std::collections::{BTreeMap, HashSet};

use crate::domain::accounts::{User, token_hash};
use crate::domain::ratings::{CLUB, RatingGroup, Standing};
use crate::service::AppState;
use crate::service::lichess::{is_bot, is_bot_name};
use crate::storage::{Profile, StoreError, Upgrade};

/// Why a bot request is refused.
#[derive(Debug, thiserror::Error)]
pub(crate) enum BotError {
    #[error("this endpoint is for bot accounts only: POST /api/bot/account/upgrade first")]
    NotABot,
    #[error("this account is a bot already")]
    AlreadyBot,
    #[error("an account that has played a game cannot become a bot")]
    HasPlayed,
    #[error("user not found")]
    NoSuchUser,
    #[error("at most {MAX_TOKENS} tokens a request")]
    TooManyTokens,
    #[error("too many token tests from this address: try again in {} s", .0.seconds())]
    TooFast(crate::domain::limits::RetryAfter),
    #[error(transparent)]
    Store(#[from] StoreError),
}

/// Tokens `POST /api/token/test` takes at most (as lichess).
pub(crate) const MAX_TOKENS: usize = 1000;

/// Makes the caller's account a bot, for good.
pub(crate) async fn upgrade(state: &AppState, user: &User) -> Result<(), BotError> {
    if is_bot_name(&user.name) {
        return Err(BotError::AlreadyBot);
    }
    match state.store.make_bot(&user.name).await? {
        Upgrade::Done => Ok(()),
        Upgrade::AlreadyBot => Err(BotError::AlreadyBot),
        Upgrade::HasPlayed => Err(BotError::HasPlayed),
        Upgrade::NoSuchUser => Err(BotError::NoSuchUser),
    }
}

/// Whether `user` is a bot (one query for a member; none for tempo's own).
pub(crate) async fn is_bot_user(state: &AppState, user: &User) -> Result<bool, StoreError> {
    if is_bot_name(&user.name) {
        return Ok(true);
    }
    Ok(state
        .store
        .profile(&user.name)
        .await?
        .is_some_and(|p| p.bot))
}

/// Refuses a caller who is not a bot (the `/api/bot/…` routes).
pub(crate) async fn require_bot(state: &AppState, user: &User) -> Result<(), BotError> {
    if is_bot_user(state, user).await? {
        Ok(())
    } else {
        Err(BotError::NotABot)
    }
}

/// A member's rating under one of lichess's perf names.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Perf {
    pub games: i64,
    pub rating: i64,
    pub rd: i64,
    pub provisional: bool,
}

/// Lichess's perf names and the club rating group each reads: tempo
/// keeps one orthodox rating for every speed and Chess960.
const PERFS: [(&str, RatingGroup); 9] = [
    ("ultraBullet", RatingGroup::Orthodox),
    ("bullet", RatingGroup::Orthodox),
    ("blitz", RatingGroup::Orthodox),
    ("rapid", RatingGroup::Orthodox),
    ("classical", RatingGroup::Orthodox),
    ("correspondence", RatingGroup::Orthodox),
    ("chess960", RatingGroup::Orthodox),
    ("synchronschach", RatingGroup::Synchronschach),
    ("fairschach", RatingGroup::Fairschach),
];

/// A member as lichess's user object shows them.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct PublicUser {
    pub name: String,
    pub bot: bool,
    /// When the account was made (ms since the epoch).
    pub created: i64,
    pub perfs: BTreeMap<&'static str, Perf>,
}

/// `name`'s lichess user object (two queries: the account, its ratings).
pub(crate) async fn public_user(state: &AppState, name: &str) -> Result<PublicUser, BotError> {
    let profile = state
        .store
        .profile(name)
        .await?
        .ok_or(BotError::NoSuchUser)?;
    with_perfs(state, profile).await
}

async fn with_perfs(state: &AppState, profile: Profile) -> Result<PublicUser, BotError> {
    let ratings = state.store.member_ratings(&profile.name).await?;
    let now = state.clock.now() as i64;
    let perfs = PERFS
        .iter()
        .map(|(key, group)| {
            let standing = ratings
                .iter()
                .find(|(g, _)| g == group)
                .map_or_else(Standing::new_member, |(_, s)| *s);
            let rating = standing.at(now);
            let perf = Perf {
                games: standing.games,
                rating: rating.rating.round() as i64,
                rd: rating.deviation.round() as i64,
                provisional: CLUB.provisional(&rating),
            };
            (*key, perf)
        })
        .collect();
    Ok(PublicUser {
        bot: is_bot(&profile.name, profile.bot),
        created: profile.created,
        name: profile.name,
        perfs,
    })
}

/// Of `names` (any case), the lowercase names of the bots.
pub(crate) async fn bots_among(
    state: &AppState,
    names: &[String],
) -> Result<HashSet<String>, StoreError> {
    let mut bots: HashSet<String> = names
        .iter()
        .filter(|n| is_bot_name(n))
        .map(|n| n.to_lowercase())
        .collect();
    let members: Vec<String> = names.iter().filter(|n| !is_bot_name(n)).cloned().collect();
    for name in state.store.bots_among(&members).await? {
        bots.insert(name.to_lowercase());
    }
    Ok(bots)
}

/// The bots with an event stream open on this instance, by name, at most
/// `limit`, as lichess's user objects.
pub(crate) async fn online_bots(
    state: &AppState,
    limit: usize,
) -> Result<Vec<PublicUser>, BotError> {
    let online = state.hub.online(usize::MAX);
    let bots = bots_among(state, &online).await?;
    let mut users = Vec::new();
    for name in online.iter().filter(|n| bots.contains(&n.to_lowercase())) {
        if users.len() == limit {
            break;
        }
        // An account removed meanwhile is left out.
        match public_user(state, name).await {
            Ok(user) => users.push(user),
            Err(BotError::NoSuchUser) => {}
            Err(e) => return Err(e),
        }
    }
    Ok(users)
}

/// What a token may do, as `POST /api/token/test` tells it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct TokenScopes {
    /// Lichess's scope names, comma-separated.
    pub scopes: &'static str,
    /// The account's lowercase name.
    pub user_id: String,
    /// When a leased token lapses (ms), `None` for a personal token.
    pub expires: Option<i64>,
}

/// A token's scopes: a tempo token may do all its account may, and any
/// account may become a bot (`POST /api/bot/account/upgrade`, lichess's
/// `bot:play` route), so every token carries `bot:play` — which
/// lichess-bot checks before it upgrades an account (`-u`) or plays.
const SCOPES: &str = "bot:play,board:play,challenge:read,challenge:write";

/// Each of `tokens` with what it may do, `None` for one unknown, revoked
/// or lapsed; in the order given (a token given twice answers once).
pub(crate) async fn test_tokens(
    state: &AppState,
    address: std::net::IpAddr,
    tokens: &[String],
) -> Result<Vec<(String, Option<TokenScopes>)>, BotError> {
    state
        .token_tests
        .take(address, std::time::Instant::now())
        .map_err(BotError::TooFast)?;
    if tokens.len() > MAX_TOKENS {
        return Err(BotError::TooManyTokens);
    }
    let hashes: Vec<String> = tokens.iter().map(|t| token_hash(t)).collect();
    let found: std::collections::HashMap<String, _> = state
        .store
        .tokens_info(&hashes, state.clock.now() as i64)
        .await?
        .into_iter()
        .collect();
    Ok(tokens
        .iter()
        .zip(&hashes)
        .map(|(token, hash)| {
            let info = found.get(hash).map(|info| TokenScopes {
                scopes: SCOPES,
                user_id: info.user.to_lowercase(),
                expires: info.expires,
            });
            (token.clone(), info)
        })
        .collect())
}
