//! Challenges: made, listed, accepted, declined or cancelled. Made with
//! lichess's parameters (form-encoded or JSON) or tempo's own body, shown
//! as lichess's challenge objects.

use std::collections::BTreeMap;

use axum::Json;
use axum::extract::{FromRequest, Path, Query, Request, State};
use axum::routing::{get, post};
use serde::{Deserialize, Serialize};
use tempo_host::{GameSpec, Variant};
use utoipa::ToSchema;

use super::endpoint::{Access, Endpoint};
use super::error::ApiError;
use super::extract::Caller;
use super::form::FormOrJson;
use super::origin::Origin;
use super::paging::{PageQuery, next_page};
use super::{ApiResult, Done, GameKind, done, instant};
use crate::domain::challenge_params::ChallengeParams;
use crate::domain::challenges::{Challenge, ColorChoice, DeclineReason};
use crate::service::AppState;
use crate::service::challenge_json::challenge_json;
use crate::service::challenges::{self, ChallengeError, CloseAction};
use crate::service::events::ChallengeJson;

/// Open challenges one page of the lobby's list names at most.
const OPEN_PAGE: u32 = 50;

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

/// The caller's pending challenges.
#[derive(Debug, Serialize, ToSchema)]
pub(super) struct ChallengeList {
    /// To the caller.
    #[serde(rename = "in")]
    pub incoming: Vec<ChallengeJson>,
    /// From the caller.
    pub out: Vec<ChallengeJson>,
}

/// A decline: lichess's reason (`generic` if not given).
#[derive(Debug, Default, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub(super) struct DeclineRequest {
    /// `generic`, `later`, `tooFast`, `tooSlow`, `timeControl`, `rated`,
    /// `casual`, `standard`, `variant`, `noBot`, `onlyBot`.
    pub reason: Option<String>,
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
    Origin(origin): Origin,
    Caller(user): Caller,
) -> ApiResult<Json<ChallengeList>> {
    let mut answer = ChallengeList {
        incoming: Vec::new(),
        out: Vec::new(),
    };
    for c in challenges::pending(&state.store, &user).await? {
        let direction = c.direction(&user.name);
        let mut json = challenge_json(&state, &c, &origin)
            .await
            .map_err(ChallengeError::from)?;
        json.direction = Some(direction.into());
        match direction {
            "out" => answer.out.push(json),
            _ => answer.incoming.push(json),
        }
    }
    Ok(Json(answer))
}

/// `POST /api/challenge/{username}`: the challenge as lichess shows it.
async fn create(
    State(state): State<AppState>,
    Origin(origin): Origin,
    Caller(user): Caller,
    Path(dest): Path<String>,
    FormOrJson(params): FormOrJson<ChallengeParams>,
) -> ApiResult<Json<ChallengeJson>> {
    let ask = params.ask().map_err(ChallengeError::from)?;
    // The service's object names its page by path (as the events do).
    let mut json = challenges::create(&state, &user, &dest, ask).await?;
    json.url = format!("{origin}{}", json.url);
    Ok(Json(json))
}

/// `POST /api/challenge/open`: a challenge anyone may accept, as
/// lichess's open challenges; the first member to accept plays it.
async fn create_open(
    State(state): State<AppState>,
    Origin(origin): Origin,
    Caller(user): Caller,
    FormOrJson(params): FormOrJson<ChallengeParams>,
) -> ApiResult<Json<ChallengeJson>> {
    let ask = params.ask().map_err(ChallengeError::from)?;
    let challenge = challenges::create_open(&state, &user, ask).await?;
    let json = challenge_json(&state, &challenge, &origin)
        .await
        .map_err(ChallengeError::from)?;
    Ok(Json(json))
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

/// `POST /api/challenge/{id}/decline` (the challenged, with lichess's
/// `reason`) or `/cancel` (the challenger; a body is ignored, as
/// lichess's cancel has none).
async fn close(
    State(state): State<AppState>,
    Caller(user): Caller,
    Path((id, action)): Path<(String, String)>,
    request: Request,
) -> ApiResult<Json<Done>> {
    let action = match action.as_str() {
        "decline" => {
            // The body is read once the route is known to be one.
            let FormOrJson(body) = FormOrJson::<DeclineRequest>::from_request(request, &()).await?;
            let reason = match body.reason.as_deref() {
                None => DeclineReason::Generic,
                Some(key) => DeclineReason::from_key(key).ok_or_else(|| {
                    ApiError::new(
                        axum::http::StatusCode::BAD_REQUEST,
                        super::codes::Code::BadDeclineReason,
                        format!("reason '{key}': generic, later, tooFast, tooSlow, timeControl, rated, casual, standard, variant, noBot or onlyBot"),
                    )
                })?,
            };
            CloseAction::Decline(reason)
        }
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
            "Challenges anyone (an open challenge, as lichess's; lichess's parameters form-encoded or JSON, or tempo's body): the first member to accept plays; it expires after a day; the answer is the challenge object, url its page",
            Token,
            || post(create_open),
        )
        .body::<ChallengeParams>()
        .json::<ChallengeJson>(),
        e(
            "post",
            "/api/challenge/{username}",
            "Challenges a user to a game (lichess's parameters form-encoded or JSON, or tempo's body); the answer is the challenge object",
            Token,
            || post(create),
        )
        .body::<ChallengeParams>()
        .json::<ChallengeJson>(),
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
            "Declines (the challenged; lichess's reason, form-encoded or JSON) or cancels (the challenger) a challenge: action decline or cancel",
            Token,
            || post(close),
        )
        .body::<DeclineRequest>()
        .json::<Done>(),
    ]
}
