//! The caller's own account: who they are, their games in play, their
//! password.

use axum::Json;
use axum::extract::{Query, State};
use axum::http::HeaderMap;
use axum::routing::{get, post};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::endpoint::{Access, Endpoint};
use super::error::ApiJson;
use super::extract::{Caller, session_id};
use super::origin::Origin;
use super::paging::{PageQuery, next_page};
use super::peer::Peer;
use super::users::LichessProfile;
use super::{ApiResult, Done, done};
use crate::domain::accounts::Role;
use crate::service::events::GameInfo;
use crate::service::game_events::game_info_now;
use crate::service::games::{self, GameError};
use crate::service::{AppState, accounts, addresses, bots};
use crate::storage::MailAddress;

/// The caller's role, and lichess's user object (with the name) beside it.
#[derive(Debug, Serialize, ToSchema)]
pub(super) struct AccountAnswer {
    pub role: Role,
    #[serde(flatten)]
    pub profile: LichessProfile,
}

/// Games in play listed a page at most (and by default).
const PLAYING_PAGE: u32 = 500;

/// A page of the caller's games in play.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub(super) struct PlayingAnswer {
    pub now_playing: Vec<PlayingView>,
    /// This page (from 0).
    pub page: u32,
    /// The page to ask for next (`?page=`), `null` on the last.
    pub next_page: Option<u32>,
}

/// One game in play, seen from the caller's seat: lichess's `nowPlaying`
/// element, with tempo's `deadline` beside.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub(super) struct PlayingView {
    #[serde(flatten)]
    pub game: GameInfo,
    /// By when the caller must move (RFC 3339), if a move is due.
    pub deadline: Option<String>,
}

/// A password change.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub(super) struct PasswordRequest {
    pub old: String,
    pub new: String,
}

/// The caller's e-mail address, seen by the caller alone.
#[derive(Debug, Serialize, ToSchema)]
pub(super) struct EmailAnswer {
    /// `null` when none is given.
    pub email: Option<String>,
    /// The language of the mails (`de`, `en`), `null` for both.
    pub lang: Option<String>,
}

impl From<Option<MailAddress>> for EmailAnswer {
    fn from(address: Option<MailAddress>) -> EmailAnswer {
        let (email, lang) = address.map_or((None, None), |a| (Some(a.email), a.lang));
        EmailAnswer { email, lang }
    }
}

/// A new e-mail address (`null` or empty clears it).
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub(super) struct EmailRequest {
    pub email: Option<String>,
    /// `de` or `en`; left out, each mail comes in both.
    #[serde(default)]
    pub lang: Option<String>,
}

/// `GET /api/account/email`.
async fn email(
    State(state): State<AppState>,
    Caller(user): Caller,
) -> ApiResult<Json<EmailAnswer>> {
    Ok(Json(addresses::address(&state, &user).await?.into()))
}

/// `POST /api/account/email`: sets or clears the caller's address.
async fn set_email(
    State(state): State<AppState>,
    Caller(user): Caller,
    ApiJson(req): ApiJson<EmailRequest>,
) -> ApiResult<Json<EmailAnswer>> {
    Ok(Json(
        addresses::set_address(&state, &user, req.email, req.lang)
            .await?
            .into(),
    ))
}

/// `GET /api/account`.
async fn account(
    State(state): State<AppState>,
    Origin(origin): Origin,
    Caller(user): Caller,
) -> ApiResult<Json<AccountAnswer>> {
    let public = bots::public_user(&state, &user.name).await?;
    Ok(Json(AccountAnswer {
        role: user.role,
        profile: LichessProfile::new(public, &origin),
    }))
}

/// `GET /api/account/playing`: the caller's unfinished games, those where
/// a move is due from the caller first, each with its deadline (a
/// correspondence player's list).
async fn playing(
    State(state): State<AppState>,
    Caller(user): Caller,
    Query(query): Query<PageQuery>,
) -> ApiResult<Json<PlayingAnswer>> {
    let page = query.page(PLAYING_PAGE)?;
    let (games, more) = games::playing(&state, &user, page).await?;
    let mut now_playing = Vec::with_capacity(games.len());
    for g in games {
        let game = game_info_now(&state, &g.facts, g.color)
            .await
            .map_err(GameError::from)?;
        now_playing.push(PlayingView {
            game,
            deadline: g.deadline.map(tempo_host::chain::rfc3339_millis),
        });
    }
    Ok(Json(PlayingAnswer {
        now_playing,
        page: page.index,
        next_page: next_page(page, more),
    }))
}

/// `POST /api/account/password`: the caller changes their password; every
/// token and every other session of the account ends (this browser's
/// session stays), and so do their streams. The old password's check is
/// rate-limited as a login's.
async fn change_password(
    State(state): State<AppState>,
    headers: HeaderMap,
    peer: Peer,
    Caller(user): Caller,
    ApiJson(req): ApiJson<PasswordRequest>,
) -> ApiResult<Json<Done>> {
    let keep = session_id(&headers);
    accounts::change_password(&state, peer.ip, &user, req.old, req.new, keep.as_deref()).await?;
    Ok(done())
}

/// The rows of the endpoint table.
pub(super) fn endpoints() -> Vec<Endpoint> {
    use Access::*;
    let e = Endpoint::new;
    vec![
        e(
            "get",
            "/api/account/playing",
            "The caller's unfinished games, those awaiting the caller's move first, with deadlines; 500 a page (?page=0, ?nb=), nextPage the page after, null on the last",
            Token,
            || get(playing),
        )
        .query::<PageQuery>()
        .json::<PlayingAnswer>(),
        e(
            "get",
            "/api/account",
            "The caller's name and role, with lichess's id, title (BOT for bots), url, createdAt and perfs",
            Token,
            || get(account),
        )
        .json::<AccountAnswer>(),
        e(
            "post",
            "/api/account/password",
            "Changes the caller's password: old, new (8+ characters)",
            Token,
            || post(change_password),
        )
        .body::<PasswordRequest>()
        .json::<Done>(),
        e(
            "get",
            "/api/account/email",
            "The caller's e-mail address for correspondence mails and their language (null: none given; lang null: German and English)",
            Token,
            || get(email),
        )
        .json::<EmailAnswer>(),
        e(
            "post",
            "/api/account/email",
            "Sets the caller's e-mail address (email, 3-254 characters with one @; null or empty clears it) and the mails' language (lang: de, en or null for both); never shown to other members",
            Token,
            || post(set_email),
        )
        .body::<EmailRequest>()
        .json::<EmailAnswer>(),
    ]
}
