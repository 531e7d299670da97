//! A board's result reported by its players from their phones (issue
//! #26): `POST /api/tournaments/{id}/rounds/{round}/report`. The rules are
//! `domain::tournaments::reports`'; the director's own result route
//! (tournaments.rs) enters, approves and corrects.

use axum::Json;
use axum::extract::{Path, State};
use axum::routing::post;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::ApiResult;
use super::endpoint::{Access, Endpoint};
use super::error::ApiJson;
use super::extract::Caller;
use crate::domain::tournaments::view::RoundView;
use crate::service::AppState;
use crate::service::tournaments;

/// A player's report of their board's result.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub(super) struct ReportRequest {
    #[schema(minimum = 1)]
    pub board: u32,
    #[schema(value_type = ReportedResult)]
    pub result: String,
}

/// A result a player reports (forfeits are the director's).
#[derive(Debug, ToSchema)]
#[allow(dead_code)] // Only a schema: the values are checked by `reports::check`.
pub(super) enum ReportedResult {
    #[schema(rename = "1-0")]
    WhiteWins,
    #[schema(rename = "0-1")]
    BlackWins,
    #[schema(rename = "1/2-1/2")]
    Draw,
}

/// The round after the report, and whether the result entered (both
/// players reported it).
#[derive(Debug, Serialize, ToSchema)]
pub(super) struct ReportAnswer {
    #[serde(flatten)]
    pub round: RoundView,
    pub entered: bool,
}

/// `POST /api/tournaments/{id}/rounds/{round}/report`.
async fn report(
    State(state): State<AppState>,
    Caller(user): Caller,
    Path((id, round)): Path<(String, String)>,
    ApiJson(req): ApiJson<ReportRequest>,
) -> ApiResult<Json<ReportAnswer>> {
    let round = super::path::number("round", &round)?;
    let done = tournaments::report(&state, &id, round, req.board, &user.name, &req.result).await?;
    let view = tournaments::round_view(&state.store, &id, &done.record, round).await?;
    Ok(Json(ReportAnswer {
        round: view,
        entered: done.entered,
    }))
}

/// The reports' row of the endpoint table.
pub(super) fn endpoints() -> Vec<Endpoint> {
    vec![
        Endpoint::new(
            "post",
            "/api/tournaments/{id}/rounds/{round}/report",
            "A board's player reports its result (1-0, 0-1, 1/2-1/2); it enters when the opponent reports the same, else the director approves or decides → the round with each board's report state, and entered",
            Access::Token,
            || post(report),
        )
        .body::<ReportRequest>()
        .json::<ReportAnswer>(),
    ]
}
