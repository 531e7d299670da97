//! Table games (issue #29): made by any member (`POST /api/tables`), each
//! seat's token shown to the game's director, who can renew or revoke one
//! (a lost phone). The seats play on the board routes
//! ([`super::board`]) and read the game stream ([`super::stream`]).

use axum::Json;
use axum::extract::{Path, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use serde::{Deserialize, Serialize};
use tempo_chess::Color;
use utoipa::ToSchema;

use super::ApiResult;
use super::endpoint::{Access, Endpoint};
use super::error::ApiError;
use super::extract::Caller;
use super::form::FormOrJson;
use super::peer::Peer;
use crate::domain::challenge_params::{ChallengeParams, Loose, RulesParam};
use crate::domain::qr;
use crate::domain::tables::display_url;
use crate::service::AppState;
use crate::service::challenges::ChallengeError;
use crate::service::tables::{self, SeatPass, Seating, Sitter, TableGame};

/// A player as the body names them: `{"name": "…"}` (a form sends
/// `white=…` or `white.name=…`); `"member": true` asks for the member of
/// that username (404 if none), `false` for a guest of that name even if a
/// member has it; without it, the member if there is one, else a guest.
#[derive(Debug, Clone, Deserialize, ToSchema)]
#[serde(untagged)]
pub(super) enum SitterParam {
    Named {
        name: String,
        #[serde(default)]
        member: Option<bool>,
    },
    Plain(String),
}

impl SitterParam {
    fn seating(self) -> Seating {
        match self {
            SitterParam::Named {
                name,
                member: Some(true),
            } => Seating::Member(name),
            SitterParam::Named {
                name,
                member: Some(false),
            } => Seating::Guest(name),
            SitterParam::Named { name, member: None } | SitterParam::Plain(name) => {
                Seating::ByName(name)
            }
        }
    }
}

/// `POST /api/tables`: the game as a challenge's body names it (the same
/// fields, the same meanings) and its two players. A name that is a
/// member's username (any case) seats that member; any other seats a guest.
#[derive(Debug, Clone, Default, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub(super) struct TableRequest {
    /// `standard` (the default), `chess960`, `fromPosition`,
    /// `synchronschach`, `fairschach`.
    pub variant: Option<String>,
    /// A PGN TimeControl (`300+3`); none: untimed.
    pub clock: Option<String>,
    /// The variant's options (`{"fsr8":"off"}`).
    pub rules: Option<RulesParam>,
    /// The start position (FEN); `fromPosition` needs it.
    pub fen: Option<String>,
    /// A Chess960 start position, 0-959.
    #[schema(value_type = Option<u16>)]
    pub chess960: Option<Loose>,
    /// White: `{"name": "…"}`.
    pub white: Option<SitterParam>,
    /// Black: `{"name": "…"}`.
    pub black: Option<SitterParam>,
    /// A form's White (`white.name=…`).
    #[serde(rename = "white.name")]
    #[schema(ignore)]
    pub white_name: Option<String>,
    /// A form's Black (`black.name=…`).
    #[serde(rename = "black.name")]
    #[schema(ignore)]
    pub black_name: Option<String>,
}

/// A player as seated.
#[derive(Debug, Serialize, ToSchema)]
pub(super) struct SitterView {
    /// A member's name as registered, or a guest's as given.
    pub name: String,
    /// Whether the player is a member (else a guest without account).
    pub member: bool,
}

/// A seat's token and its input page.
#[derive(Debug, Serialize, ToSchema)]
pub(super) struct SeatView {
    /// `seat_` and 64 hex digits; `null` when the seat has no live token
    /// (revoked, or the game over).
    pub token: Option<String>,
    /// `/table/{gameId}/play#{token}` (the token in the fragment, which
    /// browsers send to no server); `null` as `token`.
    pub url: Option<String>,
}

/// White's seat and Black's.
#[derive(Debug, Serialize, ToSchema)]
pub(super) struct SeatsView {
    pub white: SeatView,
    pub black: SeatView,
}

/// A table game as its director sees it.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub(super) struct TableView {
    pub game_id: String,
    /// The display's page: `/table/{gameId}`.
    pub display: String,
    pub seats: SeatsView,
    pub white: SitterView,
    pub black: SitterView,
    /// The director's name (lowercase): the member who made it.
    pub director: String,
    /// Lichess's status name of the game (`started`, `mate`, …).
    pub status: String,
    /// Whether the game has ended (its seats ended with it).
    pub finished: bool,
}

fn sitter_view(sitter: Sitter) -> SitterView {
    SitterView {
        name: sitter.name,
        member: sitter.member,
    }
}

fn seat_view(pass: SeatPass) -> SeatView {
    SeatView {
        token: pass.live.then_some(pass.token),
        url: pass.live.then_some(pass.url),
    }
}

impl From<TableGame> for TableView {
    fn from(table: TableGame) -> TableView {
        let [white, black] = table.seats;
        TableView {
            display: display_url(&table.game_id),
            game_id: table.game_id,
            seats: SeatsView {
                white: seat_view(white),
                black: seat_view(black),
            },
            white: sitter_view(table.white),
            black: sitter_view(table.black),
            director: table.director,
            status: table.status,
            finished: table.finished,
        }
    }
}

/// A side's player from the body: `{"name","member"?}`, a text, or a
/// form's `side.name`.
fn seating(
    side: &'static str,
    param: Option<SitterParam>,
    form: Option<String>,
) -> ApiResult<Seating> {
    match (param, form) {
        (Some(p), None) => Ok(p.seating()),
        (None, Some(name)) => Ok(Seating::ByName(name)),
        (Some(_), Some(_)) => Err(ApiError::bad_request(format!(
            "{side} and {side}.name: give one of them"
        ))),
        (None, None) => Err(ApiError::new(
            StatusCode::BAD_REQUEST,
            super::codes::Code::BadPlayerName,
            format!("{side}: {{\"name\": \"…\"}} is needed"),
        )),
    }
}

/// `POST /api/tables`.
async fn create(
    State(state): State<AppState>,
    Caller(user): Caller,
    FormOrJson(body): FormOrJson<TableRequest>,
) -> ApiResult<(StatusCode, Json<TableView>)> {
    let white = seating("white", body.white, body.white_name)?;
    let black = seating("black", body.black, body.black_name)?;
    let params = ChallengeParams {
        variant: body.variant,
        clock: body.clock,
        rules: body.rules,
        fen: body.fen,
        chess960: body.chess960,
        ..ChallengeParams::default()
    };
    let spec = params.ask().map_err(ChallengeError::from)?.spec;
    let table = tables::create_seated(&state, &user.name, spec, [white, black], None).await?;
    Ok((StatusCode::CREATED, Json(table.into())))
}

/// `GET /api/tables/{id}`.
async fn show(
    State(state): State<AppState>,
    Caller(user): Caller,
    Path(id): Path<String>,
) -> ApiResult<Json<TableView>> {
    Ok(Json(tables::directed(&state, &user, &id).await?.into()))
}

fn color(name: &str) -> ApiResult<Color> {
    match name {
        "white" => Ok(Color::White),
        "black" => Ok(Color::Black),
        _ => Err(ApiError::bad_request("the seat is white or black")),
    }
}

/// `POST /api/tables/{id}/seats/{color}`: a new token for the seat.
async fn renew(
    State(state): State<AppState>,
    Caller(user): Caller,
    Path((id, side)): Path<(String, String)>,
) -> ApiResult<Json<TableView>> {
    let color = color(&side)?;
    Ok(Json(
        tables::renew_seat(&state, &user, &id, color).await?.into(),
    ))
}

/// `DELETE /api/tables/{id}/seats/{color}`: the seat's token revoked.
async fn revoke(
    State(state): State<AppState>,
    Caller(user): Caller,
    Path((id, side)): Path<(String, String)>,
) -> ApiResult<Json<TableView>> {
    let color = color(&side)?;
    Ok(Json(
        tables::revoke_seat(&state, &user, &id, color).await?.into(),
    ))
}

/// The request's `Host` if it is a sane `host[:port]`: letters, digits,
/// `.`, `-`, `:` and an IPv6 address's brackets, at most 255 characters.
fn request_host(headers: &HeaderMap) -> ApiResult<&str> {
    let host = headers
        .get(header::HOST)
        .and_then(|value| value.to_str().ok())
        .unwrap_or_default();
    let sane = |c: char| c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | ':' | '[' | ']');
    if host.is_empty() || host.len() > 255 || !host.chars().all(sane) {
        return Err(ApiError::bad_request(
            "Host: a host name or address and an optional port is needed",
        ));
    }
    Ok(host)
}

/// `GET /api/tables/{id}/seats/{color}/qr`: the seat's absolute link (its
/// token in the fragment) as a QR code, made here so that the token is in
/// no request line (as it is in `/api/qr?text=…`).
async fn seat_qr(
    State(state): State<AppState>,
    Caller(user): Caller,
    peer: Peer,
    headers: HeaderMap,
    Path((id, side)): Path<(String, String)>,
) -> ApiResult<Response> {
    let color = color(&side)?;
    let host = request_host(&headers)?;
    let table = tables::directed(&state, &user, &id).await?;
    let seat = &table.seats[color.index()];
    if !seat.live {
        return Err(tables::TableError::SeatNotLive.into());
    }
    let scheme = if peer.https { "https" } else { "http" };
    let url = format!("{scheme}://{host}{}", seat.url);
    let svg = qr::svg(&url).map_err(|e| ApiError::bad_request(e.to_string()))?;
    Ok((
        [
            (header::CONTENT_TYPE, "image/svg+xml"),
            // Whoever holds the code plays the seat: no cache keeps it.
            (header::CACHE_CONTROL, "no-store"),
        ],
        svg,
    )
        .into_response())
}

/// The rows of the endpoint table.
pub(super) fn endpoints() -> Vec<Endpoint> {
    use Access::*;
    let e = Endpoint::new;
    vec![
        e(
            "post",
            "/api/tables",
            "A table game: two players (members by username, or guests by name), a seat token for each; JSON or form",
            Token,
            || post(create),
        )
        .body::<TableRequest>()
        .json::<TableView>()
        .created(),
        e(
            "get",
            "/api/tables/{id}",
            "A table game as its director sees it: players, live seat tokens, status",
            Token,
            || get(show),
        )
        .json::<TableView>(),
        e(
            "post",
            "/api/tables/{id}/seats/{color}",
            "A new token for a seat (a lost phone); the seat's old token is revoked at once",
            Token,
            || post(renew),
        )
        .json::<TableView>(),
        e(
            "delete",
            "/api/tables/{id}/seats/{color}",
            "Revokes a seat's token (no token plays the seat until one is renewed)",
            Token,
            || axum::routing::delete(revoke),
        )
        .json::<TableView>(),
        e(
            "get",
            "/api/tables/{id}/seats/{color}/qr",
            "A live seat's absolute link (scheme and Host of the request) as a QR code, SVG, not cached",
            Token,
            || get(seat_qr),
        )
        .content("image/svg+xml"),
    ]
}
