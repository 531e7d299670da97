//! Challenges: made, listed, accepted, declined or cancelled.

use std::collections::BTreeMap;

use axum::Json;
use axum::extract::{Path, Query, State};
use axum::http::{HeaderMap, Uri, header};
use axum::routing::{get, post};
use serde::{Deserialize, Serialize};
use tempo_host::{GameSpec, Variant};
use utoipa::ToSchema;

use super::endpoint::{Access, Endpoint};
use super::error::{ApiError, ApiJson};
use super::extract::Caller;
use super::paging::{PageQuery, next_page};
use super::peer::Peer;
use super::{ApiResult, Done, GameKind, done, instant};
use crate::domain::challenges::{Challenge, ColorChoice};
use crate::service::AppState;
use crate::service::challenges::{self, CloseAction};

/// A challenge to a game.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub(super) struct ChallengeRequest {
    #[serde(default)]
    #[schema(value_type = GameKind)]
    pub variant: Variant,
    /// PGN TimeControl; omitted: untimed.
    pub clock: Option<String>,
    /// `random` if not given.
    #[serde(default = "random_color")]
    #[schema(value_type = ColorChoice)]
    pub color: String,
    pub fen: Option<String>,
    #[schema(minimum = 0, maximum = 959)]
    pub chess960: Option<u16>,
    /// The variant's options as tempo sync takes them.
    #[serde(default)]
    pub rules: BTreeMap<String, String>,
    /// Whether the game counts for the club ratings (Glicko-2 in its
    /// variant's group); `false` if not given.
    #[serde(default)]
    pub rated: bool,
}

fn random_color() -> String {
    ColorChoice::Random.as_str().into()
}

impl ChallengeRequest {
    /// The game asked for, whether it is rated, and the colour as sent.
    fn into_spec(self) -> ((GameSpec, bool), String) {
        let spec = GameSpec {
            variant: self.variant,
            clock: self.clock,
            fen: self.fen,
            chess960: self.chess960,
            rules: self.rules,
        };
        ((spec, self.rated), self.color)
    }
}

/// Open challenges one page of the lobby's list names at most.
const OPEN_PAGE: u32 = 50;

/// A challenge open to anyone, made.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub(super) struct OpenCreated {
    pub id: String,
    /// The page of the challenge, absolute: whoever opens it may accept.
    pub url: String,
    /// `open`.
    pub status: String,
    /// RFC 3339: when it expires unless accepted.
    pub expires_at: String,
}

/// A page of the challenges open to anyone.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub(super) struct OpenList {
    pub challenges: Vec<OpenView>,
    pub page: u32,
    /// The page after this one; `null` on the last.
    pub next_page: Option<u32>,
}

/// A challenge open to anyone, as the lobby lists it.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub(super) struct OpenView {
    pub id: String,
    pub challenger: String,
    pub color: ColorChoice,
    #[serde(flatten)]
    pub game: ChallengeGame,
    /// Whether its game counts for the club ratings.
    pub rated: bool,
    /// RFC 3339.
    pub expires_at: String,
}

/// The game a challenge asks for, as the lists of challenges show it.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub(super) struct ChallengeGame {
    #[schema(value_type = GameKind)]
    pub variant: Variant,
    pub clock: Option<String>,
    pub fen: Option<String>,
    pub chess960: Option<u16>,
    pub rules: BTreeMap<String, String>,
}

impl From<GameSpec> for ChallengeGame {
    fn from(spec: GameSpec) -> ChallengeGame {
        ChallengeGame {
            variant: spec.variant,
            clock: spec.clock,
            fen: spec.fen,
            chess960: spec.chess960,
            rules: spec.rules,
        }
    }
}

impl From<Challenge> for OpenView {
    fn from(c: Challenge) -> OpenView {
        OpenView {
            expires_at: instant(c.open_until.unwrap_or_default()),
            id: c.id,
            challenger: c.challenger,
            color: c.color,
            rated: c.rated,
            game: c.spec.into(),
        }
    }
}

/// The address of this server as the caller reached it: the request's
/// authority (HTTP/2's `:authority`, or an absolute request target), else
/// its `Host`, if that is a plain host name or address (with a port);
/// else `localhost`.
pub(super) fn origin(https: bool, uri: &Uri, headers: &HeaderMap) -> String {
    let plain = |h: &&str| {
        !h.is_empty()
            && h.len() <= 255
            && h.chars()
                .all(|c| c.is_ascii_alphanumeric() || ".-:[]".contains(c))
    };
    let from_host = || headers.get(header::HOST).and_then(|h| h.to_str().ok());
    let host = uri
        .authority()
        .map(|a| a.as_str())
        .filter(plain)
        .or_else(|| from_host().filter(plain))
        .unwrap_or("localhost");
    let scheme = if https { "https" } else { "http" };
    format!("{scheme}://{host}")
}

/// A challenge made.
#[derive(Debug, Serialize, ToSchema)]
pub(super) struct ChallengeCreated {
    pub id: String,
    /// `open`.
    pub status: String,
}

/// The caller's pending challenges.
#[derive(Debug, Serialize, ToSchema)]
pub(super) struct ChallengeList {
    /// To the caller.
    #[serde(rename = "in")]
    pub incoming: Vec<ChallengeView>,
    /// From the caller.
    pub out: Vec<ChallengeView>,
}

/// A pending challenge.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub(super) struct ChallengeView {
    pub id: String,
    pub challenger: String,
    pub dest_user: String,
    /// `in` (to the caller) or `out` (from the caller).
    pub direction: String,
    pub color: ColorChoice,
    #[serde(flatten)]
    pub game: ChallengeGame,
    /// Whether its game counts for the club ratings.
    pub rated: bool,
}

impl ChallengeView {
    fn new(c: Challenge, me: &str) -> ChallengeView {
        ChallengeView {
            direction: c.direction(me).into(),
            id: c.id,
            challenger: c.challenger,
            dest_user: c.dest,
            color: c.color,
            rated: c.rated,
            game: c.spec.into(),
        }
    }
}

/// An accepted challenge's game.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub(super) struct Accepted {
    pub ok: bool,
    pub game_id: String,
}

/// `GET /api/challenge`: the caller's pending challenges, `in` (to the
/// caller) and `out` (from the caller), as lichess lists them.
async fn list(
    State(state): State<AppState>,
    Caller(user): Caller,
) -> ApiResult<Json<ChallengeList>> {
    let (out, incoming): (Vec<_>, Vec<_>) = challenges::pending(&state.store, &user)
        .await?
        .into_iter()
        .partition(|c| c.challenger.eq_ignore_ascii_case(&user.name));
    let views = |list: Vec<Challenge>| {
        list.into_iter()
            .map(|c| ChallengeView::new(c, &user.name))
            .collect()
    };
    Ok(Json(ChallengeList {
        incoming: views(incoming),
        out: views(out),
    }))
}

/// `POST /api/challenge/{username}`.
async fn create(
    State(state): State<AppState>,
    Caller(user): Caller,
    Path(dest): Path<String>,
    ApiJson(req): ApiJson<ChallengeRequest>,
) -> ApiResult<Json<ChallengeCreated>> {
    let (spec, color) = req.into_spec();
    let challenge = challenges::create(&state, &user, &dest, spec, &color).await?;
    Ok(Json(ChallengeCreated {
        id: challenge.id,
        status: challenge.status.as_str().into(),
    }))
}

/// `POST /api/challenge/open`: a challenge anyone may accept, as
/// lichess's open challenges; the first member to accept plays it.
async fn create_open(
    State(state): State<AppState>,
    peer: Peer,
    uri: Uri,
    headers: HeaderMap,
    Caller(user): Caller,
    ApiJson(req): ApiJson<ChallengeRequest>,
) -> ApiResult<Json<OpenCreated>> {
    let (spec, color) = req.into_spec();
    let challenge = challenges::create_open(&state, &user, spec, &color).await?;
    Ok(Json(OpenCreated {
        url: format!(
            "{}/challenge/{}",
            origin(peer.https, &uri, &headers),
            challenge.id
        ),
        expires_at: instant(challenge.open_until.unwrap_or_default()),
        status: challenge.status.as_str().into(),
        id: challenge.id,
    }))
}

/// `GET /api/challenge/open[?page=&nb=]`: the challenges open to anyone,
/// newest first.
async fn list_open(
    State(state): State<AppState>,
    Caller(_): Caller,
    Query(query): Query<PageQuery>,
) -> ApiResult<Json<OpenList>> {
    let page = query.page(OPEN_PAGE)?;
    let size = i64::from(page.size);
    let mut list = challenges::open_to_all(&state, size + 1, page.offset()).await?;
    let more = list.len() as i64 > size;
    list.truncate(page.size as usize);
    Ok(Json(OpenList {
        challenges: list.into_iter().map(OpenView::from).collect(),
        page: page.index,
        next_page: next_page(page, more),
    }))
}

/// `POST /api/challenge/{id}/accept`: the challenged player (any member
/// but the challenger, for an open challenge) starts the game.
async fn accept(
    State(state): State<AppState>,
    Caller(user): Caller,
    Path(id): Path<String>,
) -> ApiResult<Json<Accepted>> {
    let game_id = challenges::accept(&state, &user, &id).await?;
    Ok(Json(Accepted { ok: true, game_id }))
}

/// `POST /api/challenge/{id}/decline` (the challenged) or `/cancel` (the challenger).
async fn close(
    State(state): State<AppState>,
    Caller(user): Caller,
    Path((id, action)): Path<(String, String)>,
) -> ApiResult<Json<Done>> {
    let action = match action.as_str() {
        "decline" => CloseAction::Decline,
        "cancel" => CloseAction::Cancel,
        _ => return Err(ApiError::not_found("route")),
    };
    challenges::close(&state, &user, &id, action).await?;
    Ok(done())
}

/// The rows of the endpoint table.
pub(super) fn endpoints() -> Vec<Endpoint> {
    use Access::*;
    let e = Endpoint::new;
    vec![
        e(
            "get",
            "/api/challenge",
            "The caller's pending challenges: in (to the caller) and out (from the caller)",
            Token,
            || get(list),
        )
        .json::<ChallengeList>(),
        e(
            "get",
            "/api/challenge/open",
            "The challenges open to anyone, newest first, 50 a page (?page=0, ?nb=); nextPage is the page after, null on the last",
            Token,
            || get(list_open),
        )
        .query::<PageQuery>()
        .json::<OpenList>(),
        e(
            "post",
            "/api/challenge/open",
            "Challenges anyone (an open challenge, as lichess's): the first member to accept plays; it expires after a day; the answer names its page (url)",
            Token,
            || post(create_open),
        )
        .body::<ChallengeRequest>()
        .json::<OpenCreated>(),
        e("post", "/api/challenge/{username}", "Challenges a user to a game", Token, || post(create))
            .body::<ChallengeRequest>()
            .json::<ChallengeCreated>(),
        e(
            "post",
            "/api/challenge/{id}/accept",
            "Accepts a challenge (one to the caller, or one open to anyone; the first accept wins); the game starts",
            Token,
            || post(accept),
        )
        .json::<Accepted>(),
        e(
            "post",
            "/api/challenge/{id}/{action}",
            "Declines (the challenged) or cancels (the challenger) a challenge: action decline or cancel",
            Token,
            || post(close),
        )
        .json::<Done>(),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn with_host(host: &str) -> HeaderMap {
        let mut headers = HeaderMap::new();
        headers.insert(header::HOST, host.parse().unwrap());
        headers
    }

    #[test]
    fn the_origin_prefers_the_requests_authority_to_its_host() {
        let path: Uri = "/api/challenge/open".parse().unwrap();
        // HTTP/2: the authority is in the URI, no Host header.
        let h2: Uri = "https://club.example:8443/api/challenge/open"
            .parse()
            .unwrap();
        assert_eq!(
            origin(true, &h2, &HeaderMap::new()),
            "https://club.example:8443"
        );
        assert_eq!(
            origin(true, &h2, &with_host("other.example")),
            "https://club.example:8443"
        );
        assert_eq!(
            origin(false, &path, &with_host("10.0.0.2:8080")),
            "http://10.0.0.2:8080"
        );
        // Neither, or neither plain: localhost.
        assert_eq!(origin(false, &path, &HeaderMap::new()), "http://localhost");
        assert_eq!(origin(false, &path, &with_host("a/b")), "http://localhost");
    }
}
