//! Board play: moves and hidden commits, draw offers, resigning,
//! aborting, claiming a draw: by a member's token or session, or by a
//! table game's seat token for its own game and colour.

use axum::Json;
use axum::extract::{Path, Query, State};
use axum::routing::post;
use serde::Deserialize;
use tempo_chess::Color;
use tempo_host::Command;

use super::endpoint::{Access, Endpoint};
use super::error::ApiError;
use super::extract::PlayAs;
use super::{ApiResult, Done, done};
use crate::service::AppState;
use crate::service::games;

/// A move's query (lichess's).
#[derive(Debug, Default, Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
#[serde(rename_all = "camelCase")]
pub(super) struct MoveQuery {
    /// `true`: the move also offers (or accepts) a draw.
    #[serde(default)]
    pub offering_draw: bool,
}

/// `POST /api/board/game/{id}/move/{choice}[?offeringDraw=true]` (and the
/// bot route's, after its check). A draw offer that the game no longer
/// takes after the move (it ended, an offer is open) is left out: the
/// move stands, and is what the answer is about.
pub(super) async fn play(
    State(state): State<AppState>,
    PlayAs(player): PlayAs,
    Path((id, choice)): Path<(String, String)>,
    Query(query): Query<MoveQuery>,
) -> ApiResult<Json<Done>> {
    games::play(&state, &player, &id, choice).await?;
    if query.offering_draw
        && let Err(e) = games::act(&state, &player, &id, |color| Command::OfferDraw { color }).await
    {
        tracing::debug!(game = id, error = %e, "the draw offer with a move was not taken");
    }
    Ok(done())
}

/// `POST /api/board/game/{id}/{resign|abort|claim-draw}`.
pub(super) async fn action(
    State(state): State<AppState>,
    PlayAs(player): PlayAs,
    Path((id, action)): Path<(String, String)>,
) -> ApiResult<Json<Done>> {
    let make: fn(Color) -> Command = match action.as_str() {
        "resign" => |color| Command::Resign { color },
        "abort" => |color| Command::Abort { color },
        "claim-draw" => |color| Command::ClaimDraw { color },
        _ => {
            // The game is looked for first: an unknown game is 404 either way.
            games::seated(&state, &id, &player).await?;
            return Err(ApiError::not_found("route"));
        }
    };
    games::act(&state, &player, &id, make).await?;
    Ok(done())
}

/// `POST /api/board/game/{id}/draw/{yes|no}`.
pub(super) async fn draw(
    State(state): State<AppState>,
    PlayAs(player): PlayAs,
    Path((id, answer)): Path<(String, String)>,
) -> ApiResult<Json<Done>> {
    let make: fn(Color) -> Command = match answer.as_str() {
        "yes" => |color| Command::OfferDraw { color },
        "no" => |color| Command::DeclineDraw { color },
        _ => {
            games::seated(&state, &id, &player).await?;
            return Err(ApiError::bad_request("draw/yes or draw/no"));
        }
    };
    games::act(&state, &player, &id, make).await?;
    Ok(done())
}

/// The rows of the endpoint table.
pub(super) fn endpoints() -> Vec<Endpoint> {
    use Access::*;
    let e = Endpoint::new;
    vec![
        e(
            "post",
            "/api/board/game/{id}/move/{choice}",
            "A move, or the hidden commit of a step (UCI; x + UCI or - in an exchange step); ?offeringDraw=true also offers or accepts a draw",
            Token,
            || post(play),
        )
        .seat()
        .query::<MoveQuery>()
        .json::<Done>(),
        e(
            "post",
            "/api/board/game/{id}/draw/{answer}",
            "Offers or accepts (yes) or declines (no) a draw",
            Token,
            || post(draw),
        )
        .seat()
        .json::<Done>(),
        e(
            "post",
            "/api/board/game/{id}/{action}",
            "resign, abort or claim-draw",
            Token,
            || post(action),
        )
        .seat()
        .json::<Done>(),
    ]
}
