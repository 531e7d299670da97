//! Challenges: made, listed, accepted (the game starts), declined or
//! cancelled.

use std::sync::atomic::Ordering::Relaxed;

use tempo_host::{Header, HostError, HostedGame};

use crate::domain::accounts::User;
use crate::domain::challenge_params::{ChallengeAsk, ParamError};
use crate::domain::challenges::{
    Challenge, ChallengeStatus, DeclineReason, MAX_OPEN_CHALLENGES, MAX_OPEN_SEEKS,
    OPEN_CHALLENGE_LIFETIME, check_spec, game_spec,
};
use crate::domain::limits::RetryAfter;
use crate::domain::random_id;
use crate::domain::ratings::RatingGroup;
use crate::service::AppState;
use crate::service::challenge_json::{challenge_json, with_reason};
use crate::service::events::{ChallengeJson, UserEvent};
use crate::service::game_events::{GameFacts, tell_players};
use crate::service::lobby;
use crate::storage::{Store, StoreError};

/// Why a challenge request is refused.
#[derive(Debug, thiserror::Error)]
pub(crate) enum ChallengeError {
    /// The parameters cannot make a challenge.
    #[error(transparent)]
    Params(#[from] ParamError),
    /// The game asked for cannot be made.
    #[error(transparent)]
    Spec(#[from] HostError),
    #[error("user not found")]
    NoSuchUser,
    #[error("you cannot challenge yourself")]
    Yourself,
    #[error("at most {MAX_OPEN_CHALLENGES} open challenges: cancel one first")]
    TooMany,
    #[error("at most {MAX_OPEN_SEEKS} challenges open to anyone: cancel one first")]
    TooManySeeks,
    #[error("too many challenges open to anyone made: wait {} seconds", .0.seconds())]
    TooFast(RetryAfter),
    #[error("you cannot accept your own challenge")]
    OwnChallenge,
    #[error("challenge not found")]
    NotFound,
    #[error("only the challenged player can accept")]
    NotTheChallenged,
    #[error("you cannot {0} this challenge")]
    NotYours(&'static str),
    #[error("the challenge is {0}")]
    Closed(&'static str),
    #[error("the challenge is no longer open")]
    NoLongerOpen,
    #[error(transparent)]
    Store(#[from] StoreError),
}

/// How a challenge is closed without a game.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum CloseAction {
    /// The challenged player says no, for a reason.
    Decline(DeclineReason),
    /// The challenger takes it back.
    Cancel,
}

impl CloseAction {
    fn name(self) -> &'static str {
        match self {
            CloseAction::Decline(_) => "decline",
            CloseAction::Cancel => "cancel",
        }
    }
}

/// `user` challenges `dest` to the game `ask` names. Both hear of it (the
/// event names the challenge's page by its path: each stream makes it
/// absolute with the address its own caller reached the server by, never
/// with this caller's `Host`); the answer is the same object.
pub(crate) async fn create(
    state: &AppState,
    user: &User,
    dest: &str,
    ask: ChallengeAsk,
) -> Result<ChallengeJson, ChallengeError> {
    let ChallengeAsk { spec, rated, color } = ask;
    check_spec(&spec)?;
    let (dest_user, _) = state
        .store
        .user(dest)
        .await?
        .ok_or(ChallengeError::NoSuchUser)?;
    if dest_user.name.eq_ignore_ascii_case(&user.name) {
        return Err(ChallengeError::Yourself);
    }
    let challenge = Challenge {
        id: random_id(),
        challenger: user.name.to_lowercase(),
        dest: dest_user.name.to_lowercase(),
        spec,
        color,
        status: ChallengeStatus::Open,
        game_id: None,
        open_until: None,
        rated,
    };
    let now = state.clock.now() as i64;
    if !state
        .store
        .add_challenge(&challenge, now, MAX_OPEN_CHALLENGES)
        .await?
    {
        return Err(ChallengeError::TooMany);
    }
    let json = challenge_json(state, &challenge, "").await?;
    let event = UserEvent::challenge(json.clone());
    lobby::tell(state, &[&dest_user.name, &user.name], event).await;
    state
        .mail
        .challenge(&challenge, &user.name, &dest_user.name);
    Ok(json)
}

/// `user` challenges anyone to a game of `spec`: an open challenge that
/// the first member to accept plays, listed in every lobby until then (or
/// until it expires). Every stream hears of it.
pub(crate) async fn create_open(
    state: &AppState,
    user: &User,
    ask: ChallengeAsk,
) -> Result<Challenge, ChallengeError> {
    let ChallengeAsk { spec, rated, color } = ask;
    check_spec(&spec)?;
    state
        .seeks
        .take(&user.name, std::time::Instant::now())
        .map_err(ChallengeError::TooFast)?;
    let now = state.clock.now() as i64;
    let challenge = Challenge {
        id: random_id(),
        challenger: user.name.to_lowercase(),
        // The column names a member: the challenger, until one accepts.
        dest: user.name.to_lowercase(),
        spec,
        color,
        status: ChallengeStatus::Open,
        game_id: None,
        open_until: Some(now + OPEN_CHALLENGE_LIFETIME),
        rated,
    };
    if !state
        .store
        .add_challenge(&challenge, now, MAX_OPEN_SEEKS)
        .await?
    {
        return Err(ChallengeError::TooManySeeks);
    }
    let event = UserEvent::open_challenge_now(&challenge, "open");
    lobby::tell_everyone(state, event).await;
    Ok(challenge)
}

/// The challenges open to anyone now, newest first: `limit` from `offset`.
pub(crate) async fn open_to_all(
    state: &AppState,
    limit: i64,
    offset: i64,
) -> Result<Vec<Challenge>, ChallengeError> {
    let now = state.clock.now() as i64;
    Ok(state.store.open_seeks(now, limit, offset).await?)
}

/// The open challenges to and from `user`, oldest first.
pub(crate) async fn pending(store: &Store, user: &User) -> Result<Vec<Challenge>, ChallengeError> {
    Ok(store.open_challenges(&user.name).await?)
}

async fn find(store: &Store, id: &str) -> Result<Challenge, ChallengeError> {
    store.challenge(id).await?.ok_or(ChallengeError::NotFound)
}

/// Whether `user` may accept `challenge`: the challenged player, or for a
/// challenge open to anyone any member but the challenger.
fn check_acceptor(challenge: &Challenge, user: &User) -> Result<(), ChallengeError> {
    let own = challenge.challenger.eq_ignore_ascii_case(&user.name);
    if challenge.is_open_to_all() {
        if own {
            return Err(ChallengeError::OwnChallenge);
        }
    } else if !challenge.dest.eq_ignore_ascii_case(&user.name) {
        return Err(ChallengeError::NotTheChallenged);
    }
    if challenge.status != ChallengeStatus::Open {
        return Err(ChallengeError::Closed(challenge.status.as_str()));
    }
    Ok(())
}

/// The challenged player (or, for a challenge open to anyone, the first
/// member to accept) starts the game: the challenge closes and the game
/// is stored in one transaction. The game's id.
pub(crate) async fn accept(
    state: &AppState,
    user: &User,
    id: &str,
) -> Result<String, ChallengeError> {
    let challenge = find(&state.store, id).await?;
    check_acceptor(&challenge, user)?;
    let spec = game_spec(&challenge.spec);
    let accepter = user.name.to_lowercase();
    let (white, black) = challenge.seats(&accepter);
    // The challenge's id, as lichess's: lichess-bot counts an accepted
    // challenge as a game until a game of that id ends.
    let game_id = challenge.id.clone();
    // Casual games follow lichess: the clocks wait for the first moves.
    let header = Header::new(&game_id, &spec, &white, &black)?.with_first_move_rule();
    let now = state.clock.now();
    let (game, first) = HostedGame::create(header, now)?;
    if !state
        .store
        .accept_challenge(
            id,
            (&accepter, now as i64),
            &game_id,
            (&white, &black),
            (
                &first,
                challenge.rated.then(|| RatingGroup::of(spec.variant)),
            ),
        )
        .await?
    {
        return Err(ChallengeError::NoLongerOpen);
    }
    state
        .mail
        .stored(&game_id, &game, std::slice::from_ref(&first));
    let facts = GameFacts::of(&game_id, &game, now);
    state
        .hub
        .insert(&game_id, white.to_lowercase(), black.to_lowercase(), game);
    state.metrics.games_created.fetch_add(1, Relaxed);
    tell_players(state, &facts, false).await;
    if challenge.is_open_to_all() {
        let event = UserEvent::open_challenge_now(&challenge, "accepted");
        lobby::tell_everyone(state, event).await;
    }
    Ok(game_id)
}

/// The challenged player declines, or the challenger cancels (a challenge
/// open to anyone is only cancelled). Both hear of it (for an open one,
/// every stream).
pub(crate) async fn close(
    state: &AppState,
    user: &User,
    id: &str,
    action: CloseAction,
) -> Result<(), ChallengeError> {
    let mut challenge = find(&state.store, id).await?;
    let (who, status) = match action {
        CloseAction::Decline(_) => (&challenge.dest, ChallengeStatus::Declined),
        CloseAction::Cancel => (&challenge.challenger, ChallengeStatus::Cancelled),
    };
    let declines_open = challenge.is_open_to_all() && matches!(action, CloseAction::Decline(_));
    if declines_open || !who.eq_ignore_ascii_case(&user.name) {
        return Err(ChallengeError::NotYours(action.name()));
    }
    if !state.store.close_challenge(id, status).await? {
        return Err(ChallengeError::NoLongerOpen);
    }
    if challenge.is_open_to_all() {
        let event = UserEvent::open_challenge_now(&challenge, status.as_str());
        lobby::tell_everyone(state, event).await;
    } else {
        challenge.status = status;
        // The page by its path, as in `create`.
        let json = challenge_json(state, &challenge, "").await?;
        let event = match action {
            CloseAction::Decline(reason) => {
                UserEvent::challenge_closed(with_reason(json, reason), true)
            }
            CloseAction::Cancel => UserEvent::challenge_closed(json, false),
        };
        lobby::tell(state, &[&challenge.challenger, &challenge.dest], event).await;
    }
    Ok(())
}
