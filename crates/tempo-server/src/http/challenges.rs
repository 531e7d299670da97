//! Challenges: made, listed, accepted, declined or cancelled.

use std::collections::BTreeMap;

use axum::Json;
use axum::extract::{Path, State};
use axum::routing::{get, post};
use serde::{Deserialize, Serialize};
use tempo_host::{GameSpec, Variant};
use utoipa::ToSchema;

use super::endpoint::{Access, Endpoint};
use super::error::{ApiError, ApiJson};
use super::extract::Caller;
use super::{ApiResult, Done, GameKind, done};
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
}

fn random_color() -> String {
    ColorChoice::Random.as_str().into()
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
    #[schema(value_type = GameKind)]
    pub variant: Variant,
    pub clock: Option<String>,
    pub fen: Option<String>,
    pub chess960: Option<u16>,
    pub rules: BTreeMap<String, String>,
}

impl ChallengeView {
    fn new(c: Challenge, me: &str) -> ChallengeView {
        ChallengeView {
            direction: c.direction(me).into(),
            id: c.id,
            challenger: c.challenger,
            dest_user: c.dest,
            color: c.color,
            variant: c.spec.variant,
            clock: c.spec.clock,
            fen: c.spec.fen,
            chess960: c.spec.chess960,
            rules: c.spec.rules,
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
    let spec = GameSpec {
        variant: req.variant,
        clock: req.clock,
        fen: req.fen,
        chess960: req.chess960,
        rules: req.rules,
    };
    let challenge = challenges::create(&state, &user, &dest, spec, &req.color).await?;
    Ok(Json(ChallengeCreated {
        id: challenge.id,
        status: challenge.status.as_str().into(),
    }))
}

/// `POST /api/challenge/{id}/accept`: the challenged player starts the game.
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
        e("post", "/api/challenge/{username}", "Challenges a user to a game", Token, || post(create))
            .body::<ChallengeRequest>()
            .json::<ChallengeCreated>(),
        e(
            "post",
            "/api/challenge/{id}/accept",
            "Accepts a challenge; the game starts",
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
