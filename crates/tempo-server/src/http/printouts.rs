//! What printouts read: a round's pairing list, the chart of every
//! player's rounds (crosstable and wall chart), and QR codes as SVG (the
//! pairing list's link to the round's live page; any link a page prints).
//! Public, as reading a tournament is.

use axum::Json;
use axum::extract::{Path, Query, State};
use axum::http::header;
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use serde::Deserialize;
use utoipa::IntoParams;

use super::ApiResult;
use super::endpoint::{Access, Endpoint};
use super::error::ApiError;
use super::extract::MaybeCaller;
use super::path::number;
use crate::domain::qr;
use crate::domain::tournaments::Refusal;
use crate::domain::tournaments::print::{self, ChartView, PairingList};
use crate::service::AppState;
use crate::service::tournaments;

/// What a QR code says.
#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
#[serde(deny_unknown_fields)]
pub(super) struct QrQuery {
    /// The text, at most 1000 bytes (UTF-8), no control characters.
    #[param(max_length = 1000)]
    text: String,
}

/// How a seat's link carries its token: `/table/{gameId}/play#seat_…`.
const SEAT_FRAGMENT: &str = "#seat_";

/// `GET /api/qr?text=…`: the text as a QR code, an SVG document.
async fn qr_code(Query(query): Query<QrQuery>) -> ApiResult<Response> {
    let svg = qr::svg(&query.text).map_err(|e| ApiError::bad_request(e.to_string()))?;
    // The same text always makes the same code; but a seat's link (a
    // table game's, with its token) is kept by no cache: whoever holds it
    // plays that seat.
    let cache = if query.text.contains(SEAT_FRAGMENT) {
        "no-store"
    } else {
        "public, max-age=86400"
    };
    Ok((
        [
            (header::CONTENT_TYPE, "image/svg+xml"),
            (header::CACHE_CONTROL, cache),
        ],
        svg,
    )
        .into_response())
}

/// `GET /api/tournaments/{id}/rounds/{round}/pairing-list` (a director's
/// carries a table round's seat links, for the seat cards).
async fn pairing_list(
    State(state): State<AppState>,
    MaybeCaller(viewer): MaybeCaller,
    Path((id, round)): Path<(String, String)>,
) -> ApiResult<Json<PairingList>> {
    let round = number("round", &round)?;
    let (record, _) = tournaments::load(&state.store, &id).await?;
    let mut list = print::pairing_list(&record, round)
        .ok_or_else(|| ApiError::from(Refusal::NotFound(format!("round {round}"))))?;
    tournaments::seat_list(&state, viewer.as_ref(), &mut list).await?;
    Ok(Json(list))
}

/// `GET /api/tournaments/{id}/chart`.
async fn chart(
    State(state): State<AppState>,
    Path(id): Path<String>,
) -> ApiResult<Json<ChartView>> {
    let (record, _) = tournaments::load(&state.store, &id).await?;
    Ok(Json(print::chart(&record)))
}

/// The printouts' rows of the endpoint table.
pub(super) fn endpoints() -> Vec<Endpoint> {
    let e = Endpoint::new;
    vec![
        e(
            "get",
            "/api/qr",
            "A QR code of ?text= (at most 1000 bytes) as SVG, black on white",
            Access::Public,
            || get(qr_code),
        )
        .query::<QrQuery>()
        .content("image/svg+xml"),
        e(
            "get",
            "/api/tournaments/{id}/rounds/{round}/pairing-list",
            "A round's pairing list for print: boards with starting numbers, ratings and points before the round, byes and absences, Chess960 position; a table round's display links, and for a director its seat links",
            Access::Public,
            || get(pairing_list),
        )
        .json::<PairingList>(),
        e(
            "get",
            "/api/tournaments/{id}/chart",
            "Every player's rounds by rank (opponent and its rank, colour, result, running total), for the crosstable and the wall chart",
            Access::Public,
            || get(chart),
        )
        .json::<ChartView>(),
    ]
}
