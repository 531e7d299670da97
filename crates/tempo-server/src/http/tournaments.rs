//! The tournaments' HTTP routes and their rows of the endpoint table
//! ([`crate::api`]). Reading is public (a pairing list or standings on a
//! club's projector needs no login); every change needs a director: the
//! arbiter or admin role.

use axum::Json;
use axum::body::Bytes;
use axum::extract::{FromRequestParts, Path, Query, State};
use axum::http::header;
use axum::http::request::Parts;
use axum::response::{IntoResponse, Response};
use axum::routing::{delete, get, post};
use serde::Deserialize;
use serde_json::{Value, json};

use super::CreateRequest;
use super::{Record, Refusal, Status, db, online, view};
use crate::api::{Access, Endpoint};
use crate::auth::{Caller, User};
use crate::error::{ApiError, ApiJson};
use crate::state::AppState;

type ApiResult<T> = Result<T, ApiError>;

/// The tournaments listed at most.
const LIST_LIMIT: i64 = 500;

/// A caller with the arbiter or admin role (checked before the body is
/// read, so that a player's change is refused as such).
pub struct Director(pub User);

impl FromRequestParts<AppState> for Director {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, ApiError> {
        let Caller(user) = Caller::from_request_parts(parts, state).await?;
        if !user.role.is_arbiter() {
            return Err(ApiError::forbidden(
                "tournament changes need a director: the arbiter or admin role",
            ));
        }
        Ok(Director(user))
    }
}

fn random_id() -> String {
    const ALPHABET: &[u8] = b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
    (0..12)
        .map(|_| char::from(ALPHABET[rand::random_range(0..ALPHABET.len())]))
        .collect()
}

fn number(what: &str, text: &str) -> Result<u32, ApiError> {
    text.parse::<u32>().ok().filter(|&n| n > 0).ok_or_else(|| {
        Refusal::NotFound(format!(
            "{what} {}",
            text.chars().take(12).collect::<String>()
        ))
        .into()
    })
}

/// `POST /api/tournaments`.
pub async fn create(
    State(state): State<AppState>,
    Director(_): Director,
    ApiJson(req): ApiJson<CreateRequest>,
) -> ApiResult<Json<Value>> {
    let record = Record::create(&req, rand::random())?;
    let id = random_id();
    if !db::insert(&state.store, &id, &record, state.clock.now() as i64).await? {
        return Err(Refusal::Conflict(format!(
            "the server holds {} tournaments, the most it takes",
            super::MAX_TOURNAMENTS
        ))
        .into());
    }
    Ok(Json(json!({"id": id})))
}

/// `GET /api/tournaments`: the newest first.
pub async fn list(State(state): State<AppState>) -> ApiResult<Json<Value>> {
    let rows = db::list(&state.store, LIST_LIMIT).await?;
    let items: Vec<Value> = rows
        .into_iter()
        .map(|s| {
            json!({"id": s.id, "name": s.name, "system": s.system,
                "created": tempo_host::chain::rfc3339_millis(s.created.max(0) as u64)})
        })
        .collect();
    Ok(Json(json!({"tournaments": items})))
}

/// `GET /api/tournaments/{id}`.
pub async fn detail(
    State(state): State<AppState>,
    Path(id): Path<String>,
) -> ApiResult<Json<Value>> {
    let (record, _) = db::load(&state.store, &id).await?;
    Ok(Json(view::detail(&id, &record)))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PlayerRequest {
    name: String,
    rating: Option<u32>,
    username: Option<String>,
    club: Option<String>,
    #[serde(default)]
    guest: bool,
}

/// `POST /api/tournaments/{id}/players` → `{"id": startRank}`.
pub async fn add_player(
    State(state): State<AppState>,
    Director(_): Director,
    Path(id): Path<String>,
    ApiJson(req): ApiJson<PlayerRequest>,
) -> ApiResult<Json<Value>> {
    let username = match &req.username {
        Some(name) => {
            crate::auth::check_name(name).map_err(|e| ApiError::bad_request(e.to_string()))?;
            let (user, _) =
                state.store.user(name).await?.ok_or_else(|| {
                    ApiError::bad_request(format!("username: no user named {name}"))
                })?;
            Some(user.name)
        }
        None => None,
    };
    let (player, _) = db::modify(&state.store, &id, |r| {
        r.add_player(
            &req.name,
            req.rating,
            username.as_deref(),
            req.club.as_deref(),
            req.guest,
        )
    })
    .await?;
    Ok(Json(json!({"id": player})))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ForbidRequest {
    players: Vec<u32>,
}

/// `POST /api/tournaments/{id}/forbidden`: players who must not meet.
pub async fn forbid(
    State(state): State<AppState>,
    Director(_): Director,
    Path(id): Path<String>,
    ApiJson(req): ApiJson<ForbidRequest>,
) -> ApiResult<Json<Value>> {
    db::modify(&state.store, &id, |r| r.forbid(&req.players)).await?;
    Ok(Json(json!({"ok": true})))
}

/// `POST /api/tournaments/{id}/players/{player}/withdraw`.
pub async fn withdraw(
    State(state): State<AppState>,
    Director(_): Director,
    Path((id, player)): Path<(String, String)>,
) -> ApiResult<Json<Value>> {
    let player = number("player", &player)?;
    let (after, _) = db::modify(&state.store, &id, |r| r.withdraw(player)).await?;
    Ok(Json(
        json!({"ok": true, "player": player, "afterRound": after}),
    ))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AttendanceRequest {
    round: u32,
    player: u32,
    status: String,
}

/// `POST /api/tournaments/{id}/attendance`.
pub async fn attendance(
    State(state): State<AppState>,
    Director(_): Director,
    Path(id): Path<String>,
    ApiJson(req): ApiJson<AttendanceRequest>,
) -> ApiResult<Json<Value>> {
    let status = Status::parse(&req.status)?;
    db::modify(&state.store, &id, |r| {
        r.set_attendance(req.round, req.player, status)
    })
    .await?;
    Ok(Json(
        json!({"ok": true, "round": req.round, "player": req.player,
        "status": status.as_str()}),
    ))
}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub struct PairRequest {
    #[serde(default)]
    online: bool,
}

/// `POST /api/tournaments/{id}/rounds` (body optional: `{"online":true}`
/// also creates the games): the new round's pairings.
pub async fn pair(
    State(state): State<AppState>,
    Director(_): Director,
    Path(id): Path<String>,
    body: Bytes,
) -> ApiResult<Json<Value>> {
    let text = String::from_utf8_lossy(&body);
    let req: PairRequest = if matches!(text.trim(), "" | "null") {
        PairRequest::default()
    } else {
        serde_json::from_slice(&body).map_err(|e| ApiError::bad_request(format!("body: {e}")))?
    };
    let (round, mut record) = db::modify_blocking(&state.store, &id, Record::pair_next).await?;
    if req.online {
        record = online::create_games(&state, &id, round, record).await?;
    }
    Ok(Json(view::round(&record, round)))
}

/// `GET /api/tournaments/{id}/rounds/{round}`: a round's pairing list.
pub async fn round(
    State(state): State<AppState>,
    Path((id, round)): Path<(String, String)>,
) -> ApiResult<Json<Value>> {
    let round = number("round", &round)?;
    let (record, _) = db::load(&state.store, &id).await?;
    if record.boards(round).is_none() {
        return Err(Refusal::NotFound(format!("round {round}")).into());
    }
    Ok(Json(view::round(&record, round)))
}

/// `DELETE /api/tournaments/{id}/rounds/{round}`: the last round's
/// pairing goes (to pair it again).
pub async fn unpair(
    State(state): State<AppState>,
    Director(_): Director,
    Path((id, round)): Path<(String, String)>,
) -> ApiResult<Json<Value>> {
    let round = number("round", &round)?;
    db::modify(&state.store, &id, |r| r.unpair(round)).await?;
    Ok(Json(json!({"ok": true, "round": round})))
}

/// `POST /api/tournaments/{id}/rounds/{round}/games`: the round's games on
/// the server, for the boards whose players have accounts.
pub async fn games(
    State(state): State<AppState>,
    Director(_): Director,
    Path((id, round)): Path<(String, String)>,
) -> ApiResult<Json<Value>> {
    let round = number("round", &round)?;
    let (record, _) = db::load(&state.store, &id).await?;
    if record.boards(round).is_none() {
        return Err(Refusal::NotFound(format!("round {round}")).into());
    }
    let record = online::create_games(&state, &id, round, record).await?;
    Ok(Json(view::round(&record, round)))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ResultRequest {
    board: u32,
    result: String,
}

/// `POST /api/tournaments/{id}/rounds/{round}/results`: a board's result,
/// or a logged correction.
pub async fn result(
    State(state): State<AppState>,
    Director(user): Director,
    Path((id, round)): Path<(String, String)>,
    ApiJson(req): ApiJson<ResultRequest>,
) -> ApiResult<Json<Value>> {
    let round = number("round", &round)?;
    let now = state.clock.now();
    let (changed, record) = db::modify(&state.store, &id, |r| {
        r.set_result(round, req.board, &req.result, &user.name, now, false)
    })
    .await?;
    let mut answer = view::round(&record, round);
    answer["changed"] = changed.into();
    Ok(Json(answer))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StandingsQuery {
    round: Option<u32>,
}

/// `GET /api/tournaments/{id}/standings[?round=N]`.
pub async fn standings(
    State(state): State<AppState>,
    Path(id): Path<String>,
    Query(query): Query<StandingsQuery>,
) -> ApiResult<Json<Value>> {
    let (record, _) = db::load(&state.store, &id).await?;
    Ok(Json(view::standings_json(&record, query.round)?))
}

/// `GET /api/tournaments/{id}/crosstable`.
pub async fn crosstable(
    State(state): State<AppState>,
    Path(id): Path<String>,
) -> ApiResult<Json<Value>> {
    let (record, _) = db::load(&state.store, &id).await?;
    Ok(Json(view::crosstable(&record)))
}

/// `GET /api/tournaments/{id}/trf`: the tournament as TRF.
pub async fn trf(State(state): State<AppState>, Path(id): Path<String>) -> ApiResult<Response> {
    let (record, _) = db::load(&state.store, &id).await?;
    let (text, _) = record.to_texts()?;
    Ok(([(header::CONTENT_TYPE, "text/plain; charset=utf-8")], text).into_response())
}

/// The tournaments' rows of the endpoint table.
pub fn endpoints() -> Vec<Endpoint> {
    use Access::{Arbiter, Public};
    const JSON: &str = "application/json";
    let e = Endpoint::new;
    vec![
        e(
            "post",
            "/api/tournaments",
            "Creates a tournament (dutch, keizer or round-robin), or imports one from TRF → {id}",
            Arbiter,
            Some(create_body),
            JSON,
            || post(create),
        ),
        e(
            "get",
            "/api/tournaments",
            "The tournaments, newest first",
            Public,
            None,
            JSON,
            || get(list),
        ),
        e(
            "get",
            "/api/tournaments/{id}",
            "A tournament: settings, players, rounds with boards and results, attendance, the log of corrections",
            Public,
            None,
            JSON,
            || get(detail),
        ),
        e(
            "post",
            "/api/tournaments/{id}/players",
            "Registers a player (a late entry once rounds are paired) → {id: starting rank}",
            Arbiter,
            Some(player_body),
            JSON,
            || post(add_player),
        ),
        e(
            "post",
            "/api/tournaments/{id}/players/{player}/withdraw",
            "Withdraws a player after the last paired round",
            Arbiter,
            None,
            JSON,
            || post(withdraw),
        ),
        e(
            "post",
            "/api/tournaments/{id}/forbidden",
            "Players who must not be paired with each other (TRF's XXP line; Dutch and Keizer)",
            Arbiter,
            Some(forbid_body),
            JSON,
            || post(forbid),
        ),
        e(
            "post",
            "/api/tournaments/{id}/attendance",
            "A player's attendance in a round: present, excused, unexcused, club-duty (Swiss and round robin also half-point-bye, full-point-bye)",
            Arbiter,
            Some(attendance_body),
            JSON,
            || post(attendance),
        ),
        e(
            "post",
            "/api/tournaments/{id}/rounds",
            "Pairs the next round (every earlier game needs a result); {online:true} also creates its games",
            Arbiter,
            Some(pair_body),
            JSON,
            || post(pair),
        ),
        e(
            "get",
            "/api/tournaments/{id}/rounds/{round}",
            "A round's pairing list: boards, results, games, bye, Chess960 position",
            Public,
            None,
            JSON,
            || get(round),
        ),
        e(
            "delete",
            "/api/tournaments/{id}/rounds/{round}",
            "Deletes the last round's pairing and results, to pair it again (not once played online)",
            Arbiter,
            None,
            JSON,
            || delete(unpair),
        ),
        e(
            "post",
            "/api/tournaments/{id}/rounds/{round}/games",
            "Creates the round's games on the server for boards whose players have accounts",
            Arbiter,
            None,
            JSON,
            || post(games),
        ),
        e(
            "post",
            "/api/tournaments/{id}/rounds/{round}/results",
            "A board's result; changing one is a logged correction",
            Arbiter,
            Some(result_body),
            JSON,
            || post(result),
        ),
        e(
            "get",
            "/api/tournaments/{id}/standings",
            "Standings after the last complete round (?round=N for an earlier one), with tie-breaks; Keizer: the Keizer score",
            Public,
            None,
            JSON,
            || get(standings),
        ),
        e(
            "get",
            "/api/tournaments/{id}/crosstable",
            "Each player's opponents, colours and results by round",
            Public,
            None,
            JSON,
            || get(crosstable),
        ),
        e(
            "get",
            "/api/tournaments/{id}/trf",
            "The tournament as TRF (tempo pair and tempo standings read it)",
            Public,
            None,
            "text/plain",
            || get(trf),
        ),
    ]
}

fn create_body() -> Value {
    json!({"type": "object", "additionalProperties": false, "properties": {
        "name": {"type": "string", "maxLength": super::MAX_NAME},
        "system": {"enum": ["dutch", "keizer", "round-robin"]},
        "rounds": {"type": "integer", "minimum": 1, "maximum": super::MAX_ROUNDS},
        "variant": {"enum": ["standard", "chess960", "synchronschach", "fairschach"]},
        "chess960": {"type": "boolean", "description": "one drawn start position per round, for all boards"},
        "clock": {"oneOf": [{"type": "string", "description": "PGN TimeControl of online games, e.g. 300+3"},
            {"type": "object", "properties": {"limit": {"type": "integer"}, "increment": {"type": "integer"}}}]},
        "rules": {"type": "object", "additionalProperties": {"type": "string"}},
        "keizer": {"type": "object", "additionalProperties": {"type": ["string", "number"]},
            "description": "XTK keys and values, e.g. {\"top\":50,\"colour-tie\":\"higher\"} or {\"preset\":\"club\"}"},
        "tiebreaks": {"oneOf": [{"type": "array", "items": {"type": "string"}, "maxItems": 20},
            {"type": "string", "description": "comma-separated"}]},
        "double": {"type": "boolean", "description": "double round robin"},
        "trf": {"type": "string", "description": "import this TRF instead"},
    }})
}

fn player_body() -> Value {
    json!({"type": "object", "additionalProperties": false, "required": ["name"], "properties": {
        "name": {"type": "string", "maxLength": super::MAX_PLAYER_NAME},
        "rating": {"type": "integer", "minimum": 0, "maximum": 9999},
        "username": {"type": "string"},
        "club": {"type": "string", "maxLength": super::MAX_CLUB},
        "guest": {"type": "boolean", "description": "a guest, not a club member"},
    }})
}

fn attendance_body() -> Value {
    json!({"type": "object", "additionalProperties": false, "required": ["round", "player", "status"], "properties": {
        "round": {"type": "integer", "minimum": 1},
        "player": {"type": "integer", "minimum": 1},
        "status": {"enum": ["present", "excused", "unexcused", "club-duty", "half-point-bye", "full-point-bye"]},
    }})
}

fn forbid_body() -> Value {
    json!({"type": "object", "additionalProperties": false, "required": ["players"], "properties": {
        "players": {"type": "array", "items": {"type": "integer", "minimum": 1}, "minItems": 2},
    }})
}

fn pair_body() -> Value {
    json!({"type": "object", "additionalProperties": false, "properties": {
        "online": {"type": "boolean"},
    }})
}

fn result_body() -> Value {
    json!({"type": "object", "additionalProperties": false, "required": ["board", "result"], "properties": {
        "board": {"type": "integer", "minimum": 1},
        "result": {"enum": ["1-0", "0-1", "1/2-1/2", "+-", "-+"]},
    }})
}
