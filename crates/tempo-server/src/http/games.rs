//! Reading games: a game as the caller may see it, its signed log, its
//! export (PGN, or lichess's JSON by `Accept`), the key that signs logs,
//! and the archive of finished games.

use axum::Json;
use axum::extract::{Path, Query, State};
use axum::http::{HeaderMap, HeaderValue, header};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use tempo_host::chain::hex;
use tempo_host::{EndReason, EndResult, Variant};
use utoipa::{IntoParams, ToSchema};

use super::endpoint::{Access, Endpoint, JSON, NDJSON};
use super::error::ApiError;
use super::extract::MaybeCaller;
use super::{ApiResult, GameKind, instant};
use crate::domain::tables::is_guest_key;
use crate::service::AppState;
use crate::service::games::Slot;
use crate::service::lichess::{self, LichessUser};
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

/// A player as a game's decoration shows them: a member as lichess's
/// user, a table game's guest (no account) by name alone, as lichess shows
/// a player without an account (no `id`, no rating).
enum Side {
    Member(LichessUser),
    Guest(String),
}

impl Side {
    /// The player of stored key `key` (a username or a guest's key) shown
    /// under `name` (the header's).
    async fn of(state: &AppState, key: &str, name: &str, variant: Variant) -> ApiResult<Side> {
        if is_guest_key(key) {
            return Ok(Side::Guest(name.to_string()));
        }
        Ok(Side::Member(lichess::user(state, name, variant).await?))
    }

    fn json(&self) -> Value {
        match self {
            Side::Member(user) => json!(user),
            Side::Guest(name) => json!({ "name": name }),
        }
    }
}

/// What the server knows of a game beyond its log: its players as
/// lichess's users (club rating in the game's group, `BOT` title) and
/// whether it is rated. Read once per answer or stream, not per line.
pub(super) struct Decoration {
    white: Side,
    black: Side,
    rated: bool,
}

impl Decoration {
    /// The decoration of the game in `slot`.
    pub(super) async fn of(state: &AppState, slot: &Slot) -> ApiResult<Decoration> {
        let (variant, white, black) = {
            let game = slot.game.lock().await;
            let header = game.header();
            (header.variant, header.white.clone(), header.black.clone())
        };
        Ok(Decoration {
            rated: ratings::game_group(state, &slot.id).await?.is_some(),
            white: Side::of(state, &slot.white, &white, variant).await?,
            black: Side::of(state, &slot.black, &black, variant).await?,
        })
    }

    /// `full` (the host's `gameFull`) with lichess's players and `rated`.
    pub(super) fn full(&self, mut full: Value) -> Value {
        full["white"] = self.white.json();
        full["black"] = self.black.json();
        full["rated"] = self.rated.into();
        full
    }

    /// The host's export with the players' ratings and `rated`.
    fn export(&self, mut export: Value) -> Value {
        for (side, player_of) in [("white", &self.white), ("black", &self.black)] {
            let player = &mut export["players"][side];
            let user = match player_of {
                Side::Member(user) => user,
                Side::Guest(name) => {
                    // No account: a name, no user and no rating.
                    *player = json!({ "name": name });
                    continue;
                }
            };
            player["user"] = json!({"name": user.name, "id": user.id});
            if let Some(title) = &user.title {
                player["user"]["title"] = title.as_str().into();
            }
            player["rating"] = user.rating.into();
            if user.provisional {
                player["provisional"] = true.into();
            }
        }
        export["rated"] = self.rated.into();
        export
    }
}

/// `GET /api/game/{id}`: the game as the caller may see it.
async fn game(
    State(state): State<AppState>,
    MaybeCaller(user): MaybeCaller,
    Path(id): Path<String>,
) -> ApiResult<Json<GameView>> {
    let slot = state.hub.slot(&state.store, &id).await?;
    let decoration = Decoration::of(&state, &slot).await?;
    let audience = slot.audience(user.as_ref().map(|u| u.name.as_str()));
    let game = slot.game.lock().await;
    let view = decoration.full(game.full(audience, state.clock.now()));
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

/// What an export may leave out, as lichess's export takes it
/// (`true`/`false`, any case, or `1`/`0`). `clocks`, `evals`, `opening`
/// and `literate` are read and ignored (tempo's PGN has none of them);
/// other keys are ignored too, as lichess does.
#[derive(Debug, Default, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
#[serde(rename_all = "camelCase")]
pub(super) struct ExportQuery {
    /// PGN: the movetext (default true).
    moves: Option<String>,
    /// PGN: the tags (default true).
    tags: Option<String>,
    /// Ignored.
    clocks: Option<String>,
    /// Ignored.
    evals: Option<String>,
    /// Ignored.
    opening: Option<String>,
    /// Ignored.
    literate: Option<String>,
    /// JSON: the PGN as `pgn` too (default false).
    pgn_in_json: Option<String>,
}

impl ExportQuery {
    /// The flags read, refusing a value that is no flag (400).
    fn read(&self) -> ApiResult<(bool, bool, bool)> {
        let flag = |name: &str, value: &Option<String>, default: bool| match value.as_deref() {
            None => Ok(default),
            Some(v) if v.eq_ignore_ascii_case("true") || v == "1" => Ok(true),
            Some(v) if v.eq_ignore_ascii_case("false") || v == "0" => Ok(false),
            Some(_) => Err(ApiError::bad_request(format!(
                "{name}: true or false, please"
            ))),
        };
        for (name, value) in [
            ("clocks", &self.clocks),
            ("evals", &self.evals),
            ("opening", &self.opening),
            ("literate", &self.literate),
        ] {
            flag(name, value, false)?;
        }
        Ok((
            flag("moves", &self.moves, true)?,
            flag("tags", &self.tags, true)?,
            flag("pgnInJson", &self.pgn_in_json, false)?,
        ))
    }
}

/// The parts of a PGN (tags, a blank line, the movetext) that `moves` and
/// `tags` keep.
fn pgn_parts(pgn: &str, moves: bool, tags: bool) -> String {
    let (head, body) = pgn.split_once("\n\n").unwrap_or(("", pgn));
    match (tags, moves) {
        (true, true) => pgn.to_string(),
        (true, false) => format!("{head}\n\n"),
        (false, true) => body.to_string(),
        (false, false) => String::new(),
    }
}

/// `GET /api/game/export/{id}` (and lichess's `/game/export/{id}`): the
/// game as PGN (the variant's tags, the record), or as lichess's game
/// JSON when the caller asks for `application/json`. Hidden choices are
/// in neither until revealed.
async fn export(
    State(state): State<AppState>,
    headers: HeaderMap,
    Query(query): Query<ExportQuery>,
    Path(id): Path<String>,
) -> ApiResult<Response> {
    let (moves, tags, pgn_in_json) = query.read()?;
    let wants_json = headers
        .get_all(header::ACCEPT)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .any(|v| v.split(',').any(|t| t.trim().starts_with(JSON)));
    let slot = state.hub.slot(&state.store, &id).await?;
    let mut response = if wants_json {
        let decoration = Decoration::of(&state, &slot).await?;
        let game = slot.game.lock().await;
        let mut export = decoration.export(game.lichess_export());
        if pgn_in_json {
            export["pgn"] = game.pgn().into();
        }
        Json(export).into_response()
    } else {
        let pgn = pgn_parts(&slot.game.lock().await.pgn(), moves, tags);
        ([(header::CONTENT_TYPE, "application/x-chess-pgn")], pgn).into_response()
    };
    // One address, two answers: caches keep them apart.
    response
        .headers_mut()
        .insert(header::VARY, HeaderValue::from_static("Accept"));
    Ok(response)
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
            "The game as PGN, or as lichess's game JSON with Accept: application/json",
            Public,
            || get(export),
        )
        .query::<ExportQuery>()
        .content("application/x-chess-pgn"),
        // Lichess's own address of the export (outside /api), which its
        // clients call.
        e(
            "get",
            "/game/export/{id}",
            "The same as /api/game/export/{id}: lichess's address",
            Public,
            || get(export),
        )
        .query::<ExportQuery>()
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
