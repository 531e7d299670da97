//! Board play: moves and hidden commits, draw offers, resigning,
//! aborting, claiming a draw.

use axum::Json;
use axum::extract::{Path, State};
use axum::routing::post;
use tempo_chess::Color;
use tempo_host::Command;

use super::endpoint::{Access, Endpoint};
use super::error::ApiError;
use super::extract::Caller;
use super::{ApiResult, Done, done};
use crate::service::AppState;
use crate::service::games;

/// `POST /api/board/game/{id}/move/{choice}`.
async fn play(
    State(state): State<AppState>,
    Caller(user): Caller,
    Path((id, choice)): Path<(String, String)>,
) -> ApiResult<Json<Done>> {
    games::play(&state, &user, &id, choice).await?;
    Ok(done())
}

/// `POST /api/board/game/{id}/{resign|abort|claim-draw}`.
async fn action(
    State(state): State<AppState>,
    Caller(user): Caller,
    Path((id, action)): Path<(String, String)>,
) -> ApiResult<Json<Done>> {
    let make: fn(Color) -> Command = match action.as_str() {
        "resign" => |color| Command::Resign { color },
        "abort" => |color| Command::Abort { color },
        "claim-draw" => |color| Command::ClaimDraw { color },
        _ => {
            // The game is looked for first: an unknown game is 404 either way.
            games::seated(&state, &id, &user).await?;
            return Err(ApiError::not_found("route"));
        }
    };
    games::act(&state, &user, &id, make).await?;
    Ok(done())
}

/// `POST /api/board/game/{id}/draw/{yes|no}`.
async fn draw(
    State(state): State<AppState>,
    Caller(user): Caller,
    Path((id, answer)): Path<(String, String)>,
) -> ApiResult<Json<Done>> {
    let make: fn(Color) -> Command = match answer.as_str() {
        "yes" => |color| Command::OfferDraw { color },
        "no" => |color| Command::DeclineDraw { color },
        _ => {
            games::seated(&state, &id, &user).await?;
            return Err(ApiError::bad_request("draw/yes or draw/no"));
        }
    };
    games::act(&state, &user, &id, make).await?;
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
            "A move, or the hidden commit of a step (UCI; x + UCI or - in an exchange step)",
            Token,
            || post(play),
        )
        .json::<Done>(),
        e(
            "post",
            "/api/board/game/{id}/draw/{answer}",
            "Offers or accepts (yes) or declines (no) a draw",
            Token,
            || post(draw),
        )
        .json::<Done>(),
        e(
            "post",
            "/api/board/game/{id}/{action}",
            "resign, abort or claim-draw",
            Token,
            || post(action),
        )
        .json::<Done>(),
    ]
}
