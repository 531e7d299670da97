//! Reading games: a game as the caller may see it, its signed log, its
//! PGN, the key that signs logs, and the archive of finished games.

use axum::Json;
use axum::extract::{Path, Query, State};
use axum::http::header;
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use tempo_host::chain::hex;
use tempo_host::{EndReason, EndResult, Variant};
use utoipa::{IntoParams, ToSchema};

use super::endpoint::{Access, Endpoint, NDJSON};
use super::extract::MaybeCaller;
use super::{ApiResult, GameKind, instant};
use crate::service::AppState;
use crate::service::{games, ratings};
use crate::storage::ArchivedGame;

/// Games one archive page lists.
const ARCHIVE_PAGE: i64 = 50;
/// Pages of the archive at most.
const MAX_PAGE: u32 = 10_000;

/// A game as a caller may see it (the host's view: header, state, clocks,
/// the caller's own hidden choice if any).
#[derive(Debug, Serialize, ToSchema)]
#[schema(value_type = Object)]
pub(super) struct GameView(Value);

/// The key that signs log heads.
#[derive(Debug, Serialize, ToSchema)]
pub(super) struct ServerKey {
    /// The ed25519 public key, hex.
    pub key: String,
    /// `ed25519`.
    pub algorithm: String,
}

/// Which finished games to list.
#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
#[serde(deny_unknown_fields)]
pub(super) struct ArchiveQuery {
    /// One member's games only.
    user: Option<String>,
    /// The page, from 0 (50 games a page).
    #[serde(default)]
    #[param(minimum = 0, maximum = 10_000)]
    page: u32,
}

/// A page of finished games.
#[derive(Debug, Serialize, ToSchema)]
pub(super) struct ArchiveAnswer {
    pub games: Vec<ArchiveEntry>,
    pub page: u32,
}

/// A finished game.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub(super) struct ArchiveEntry {
    pub game_id: String,
    pub white: String,
    pub black: String,
    #[schema(value_type = Option<GameKind>)]
    pub variant: Option<Variant>,
    pub clock: Option<String>,
    /// RFC 3339.
    pub created_at: String,
    /// `1-0`, `0-1`, `1/2-1/2` or `*`.
    #[schema(value_type = Option<String>)]
    pub result: Option<EndResult>,
    /// The end reason's one name (docs/server.md lists them).
    #[schema(value_type = Option<String>)]
    pub reason: Option<EndReason>,
}

impl From<ArchivedGame> for ArchiveEntry {
    fn from(g: ArchivedGame) -> ArchiveEntry {
        let (result, reason) = g.end.unzip();
        let header = g.header;
        ArchiveEntry {
            game_id: g.id,
            white: header.as_ref().map_or(g.white, |h| h.white.clone()),
            black: header.as_ref().map_or(g.black, |h| h.black.clone()),
            variant: header.as_ref().map(|h| h.variant),
            clock: header.and_then(|h| h.clock),
            created_at: instant(g.created),
            result,
            reason,
        }
    }
}

/// `GET /api/game/{id}`: the game as the caller may see it.
async fn game(
    State(state): State<AppState>,
    MaybeCaller(user): MaybeCaller,
    Path(id): Path<String>,
) -> ApiResult<Json<GameView>> {
    let slot = state.hub.slot(&state.store, &id).await?;
    let rated = ratings::game_group(&state, &id).await?.is_some();
    let audience = slot.audience(user.as_ref().map(|u| u.name.as_str()));
    let game = slot.game.lock().await;
    let mut view = game.full(audience, state.clock.now());
    if let Value::Object(fields) = &mut view {
        fields.insert("rated".into(), rated.into());
    }
    Ok(Json(GameView(view)))
}

/// `GET /api/game/{id}/log`: every public entry, one per line; the last
/// also carries the server's `signature` on the head.
async fn log(State(state): State<AppState>, Path(id): Path<String>) -> ApiResult<Response> {
    let log = games::signed_log(&state, &id).await?;
    let mut text = String::new();
    let last = log.entries.len().saturating_sub(1);
    for (index, entry) in log.entries.iter().enumerate() {
        let mut object = entry.public();
        if index == last {
            object.insert("signature".into(), log.signature.clone().into());
        }
        text.push_str(&Value::Object(object).to_string());
        text.push('\n');
    }
    Ok(([(header::CONTENT_TYPE, NDJSON)], text).into_response())
}

/// `GET /api/game/export/{id}`: the game as PGN (the variant's tags, the
/// record; hidden choices are not in it until revealed).
async fn export(State(state): State<AppState>, Path(id): Path<String>) -> ApiResult<Response> {
    let slot = state.hub.slot(&state.store, &id).await?;
    let pgn = slot.game.lock().await.pgn();
    Ok(([(header::CONTENT_TYPE, "application/x-chess-pgn")], pgn).into_response())
}

/// `GET /api/server-key`: the public key that signs log heads.
async fn server_key(State(state): State<AppState>) -> Json<ServerKey> {
    Json(ServerKey {
        key: hex(state.key.verifying_key().as_bytes()),
        algorithm: "ed25519".into(),
    })
}

/// `GET /api/games`: finished games, newest first, 50 a page
/// (`?user=` to one member's, `?page=` from 0).
async fn archive(
    State(state): State<AppState>,
    Query(query): Query<ArchiveQuery>,
) -> ApiResult<Json<ArchiveAnswer>> {
    let offset = i64::from(query.page.min(MAX_PAGE)) * ARCHIVE_PAGE;
    let games = state
        .store
        .finished_games(query.user.as_deref(), ARCHIVE_PAGE, offset)
        .await?;
    Ok(Json(ArchiveAnswer {
        games: games.into_iter().map(ArchiveEntry::from).collect(),
        page: query.page,
    }))
}

/// The archive's row of the endpoint table.
pub(super) fn archive_endpoints() -> Vec<Endpoint> {
    vec![
        Endpoint::new(
            "get",
            "/api/games",
            "Finished games, newest first, 50 a page (?user=name, ?page=0)",
            Access::Public,
            || get(archive),
        )
        .query::<ArchiveQuery>()
        .json::<ArchiveAnswer>(),
    ]
}

/// The rows of the endpoint table.
pub(super) fn endpoints() -> Vec<Endpoint> {
    use Access::*;
    let e = Endpoint::new;
    vec![
        e(
            "get",
            "/api/game/{id}",
            "The game as the caller may see it",
            Optional,
            || get(game),
        )
        .json::<GameView>(),
        e(
            "get",
            "/api/game/{id}/log",
            "The game's hash-chained log as NDJSON, then the server's signature on its head",
            Public,
            || get(log),
        )
        .content(NDJSON),
        e(
            "get",
            "/api/game/export/{id}",
            "The game as PGN",
            Public,
            || get(export),
        )
        .content("application/x-chess-pgn"),
        e(
            "get",
            "/api/server-key",
            "The ed25519 key that signs log heads",
            Public,
            || get(server_key),
        )
        .json::<ServerKey>(),
    ]
}
