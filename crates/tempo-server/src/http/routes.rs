//! The HTTP API (lichess-shaped): tokens, challenges, play, streams, the
//! log, operations. Handlers are thin: they check who may do what and
//! hand over to the hub and the store.

use std::time::Duration;

use axum::Json;
use axum::body::Body;
use axum::extract::{Path, State};
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use futures_util::StreamExt;
use serde::Deserialize;
use serde_json::{Value, json};
use tempo_chess::Color;
use tempo_host::chain::{hex, sign_head};
use tempo_host::view::Audience;
use tempo_host::{ArbiterAction, Command, GameSpec, Header, HostedGame, Variant};

use crate::auth::{self, Caller, MaybeCaller};
use crate::error::{ApiError, ApiJson};
use crate::hub::{Line, Slot};
use crate::state::AppState;
use crate::store::ChallengeRow;

type ApiResult<T> = Result<T, ApiError>;

fn ok() -> Json<Value> {
    Json(json!({"ok": true}))
}

fn random_id() -> String {
    // 8 bytes of randomness in 12 URL-safe characters, as lichess's ids.
    const ALPHABET: &[u8] = b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
    (0..12)
        .map(|_| char::from(ALPHABET[rand::random_range(0..ALPHABET.len())]))
        .collect()
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TokenRequest {
    username: String,
    password: String,
}

/// `POST /api/token`: a personal token for a username and password.
pub async fn token(
    State(state): State<AppState>,
    ApiJson(req): ApiJson<TokenRequest>,
) -> ApiResult<Json<Value>> {
    let user = check_password(&state, &req).await?;
    let (token, hash) = auth::new_token();
    state
        .store
        .add_token(&hash, &user.name, state.clock.now() as i64)
        .await?;
    Ok(Json(json!({"token": token, "username": user.name})))
}

/// `POST /api/session`: logs a browser in: a session cookie (HttpOnly,
/// Secure, SameSite=Lax) and the CSRF token the page sends back in the
/// `x-csrf-token` header with every change.
pub async fn login(
    State(state): State<AppState>,
    ApiJson(req): ApiJson<TokenRequest>,
) -> ApiResult<Response> {
    let user = check_password(&state, &req).await?;
    let (id, hash, csrf) = auth::new_session();
    let expires = state.clock.now() as i64 + auth::SESSION_TTL.as_millis() as i64;
    state
        .store
        .add_session(&hash, &user.name, &csrf, expires)
        .await?;
    let body = Json(json!({"username": user.name, "role": user.role, "csrf": csrf}));
    Ok((
        [(header::SET_COOKIE, auth::session_cookie(Some(&id)))],
        body,
    )
        .into_response())
}

/// `GET /api/session`: the logged-in browser's name, role and CSRF token.
pub async fn session(
    State(state): State<AppState>,
    headers: axum::http::HeaderMap,
) -> ApiResult<Json<Value>> {
    let id = auth::session_id(&headers).ok_or_else(|| ApiError::unauthorized("not logged in"))?;
    let (user, csrf) = state
        .store
        .session(&auth::token_hash(&id), state.clock.now() as i64)
        .await?
        .ok_or_else(|| ApiError::unauthorized("the session has ended: log in again"))?;
    Ok(Json(
        json!({"username": user.name, "role": user.role, "csrf": csrf}),
    ))
}

/// `DELETE /api/session`: logs the browser out.
pub async fn logout(
    State(state): State<AppState>,
    headers: axum::http::HeaderMap,
    Caller(_): Caller,
) -> ApiResult<Response> {
    if let Some(id) = auth::session_id(&headers) {
        state.store.delete_session(&auth::token_hash(&id)).await?;
    }
    Ok(([(header::SET_COOKIE, auth::session_cookie(None))], ok()).into_response())
}

/// The account of a username and password, or 401 (the same for an
/// unknown name and a wrong password).
async fn check_password(state: &AppState, req: &TokenRequest) -> ApiResult<auth::User> {
    let found = state.store.user(&req.username).await?;
    let hash = found.as_ref().map(|(_, hash)| hash.clone());
    let password = req.password.clone();
    let valid =
        tokio::task::spawn_blocking(move || auth::verify_password(&password, hash.as_deref()))
            .await
            .unwrap_or(false);
    found
        .filter(|_| valid)
        .map(|(user, _)| user)
        .ok_or_else(|| ApiError::unauthorized("wrong username or password"))
}

/// `DELETE /api/token`: revokes the token of this request.
pub async fn revoke(
    State(state): State<AppState>,
    headers: axum::http::HeaderMap,
    Caller(_): Caller,
) -> ApiResult<Json<Value>> {
    let token = headers
        .get(header::AUTHORIZATION)
        .and_then(|h| h.to_str().ok())
        .and_then(|h| h.strip_prefix("Bearer "))
        .unwrap_or_default();
    let hash = auth::token_hash(token.trim());
    state.store.revoke_token(&hash).await?;
    state.tokens.forget(&hash);
    Ok(ok())
}

/// `GET /api/account`.
pub async fn account(Caller(user): Caller) -> Json<Value> {
    Json(json!({"username": user.name, "role": user.role}))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ChallengeRequest {
    #[serde(default)]
    variant: Variant,
    clock: Option<String>,
    #[serde(default = "random_color")]
    color: String,
    fen: Option<String>,
    chess960: Option<u16>,
    #[serde(default)]
    rules: std::collections::BTreeMap<String, String>,
}

fn random_color() -> String {
    "random".into()
}

/// `POST /api/challenge/{username}`.
pub async fn challenge(
    State(state): State<AppState>,
    Caller(user): Caller,
    Path(dest): Path<String>,
    ApiJson(req): ApiJson<ChallengeRequest>,
) -> ApiResult<Json<Value>> {
    if !matches!(req.color.as_str(), "white" | "black" | "random") {
        return Err(ApiError::bad_request("color: white, black or random"));
    }
    let spec = GameSpec {
        variant: req.variant,
        clock: req.clock,
        fen: req.fen,
        chess960: req.chess960,
        rules: req.rules,
    };
    // Checked now, so that an accept cannot fail on the spec.
    let mut checked = spec.clone();
    if checked.variant == Variant::Chess960 && checked.chess960.is_none() && checked.fen.is_none() {
        checked.chess960 = Some(0);
    }
    Header::new("check", &checked, "a", "b")?;
    let (dest_user, _) = state
        .store
        .user(&dest)
        .await?
        .ok_or_else(|| ApiError::not_found("user"))?;
    if dest_user.name.eq_ignore_ascii_case(&user.name) {
        return Err(ApiError::bad_request("you cannot challenge yourself"));
    }
    if state.store.open_challenges_from(&user.name).await? >= crate::lobby::MAX_OPEN_CHALLENGES {
        return Err(ApiError::new(
            StatusCode::TOO_MANY_REQUESTS,
            format!(
                "at most {} open challenges: cancel one first",
                crate::lobby::MAX_OPEN_CHALLENGES
            ),
        ));
    }
    let row = ChallengeRow {
        id: random_id(),
        challenger: user.name.clone(),
        dest: dest_user.name.clone(),
        spec: serde_json::to_string(&spec).expect("a spec serialises"),
        color: req.color,
        status: "open".into(),
        game_id: None,
    };
    state
        .store
        .add_challenge(&row, state.clock.now() as i64)
        .await?;
    let event = json!({"type": "challenge", "challenge": {
        "id": row.id, "challenger": user.name, "destUser": dest_user.name,
        "variant": spec.variant, "clock": spec.clock, "color": row.color}});
    state.hub.notify(&dest_user.name, event.clone());
    state.hub.notify(&user.name, event);
    Ok(Json(json!({"id": row.id, "status": "open"})))
}

/// `POST /api/challenge/{id}/accept`: the challenged player starts the game.
pub async fn accept(
    State(state): State<AppState>,
    Caller(user): Caller,
    Path(id): Path<String>,
) -> ApiResult<Json<Value>> {
    let challenge = state
        .store
        .challenge(&id)
        .await?
        .ok_or_else(|| ApiError::not_found("challenge"))?;
    if !challenge.dest.eq_ignore_ascii_case(&user.name) {
        return Err(ApiError::forbidden("only the challenged player can accept"));
    }
    if challenge.status != "open" {
        return Err(ApiError::new(
            StatusCode::CONFLICT,
            format!("the challenge is {}", challenge.status),
        ));
    }
    let mut spec: GameSpec = serde_json::from_str(&challenge.spec)
        .map_err(|_| ApiError::new(StatusCode::SERVICE_UNAVAILABLE, "a damaged challenge"))?;
    if spec.variant == Variant::Chess960 && spec.chess960.is_none() && spec.fen.is_none() {
        spec.chess960 = Some(rand::random_range(0..960));
    }
    let challenger_white = match challenge.color.as_str() {
        "white" => true,
        "black" => false,
        _ => rand::random(),
    };
    let (white, black) = if challenger_white {
        (challenge.challenger.clone(), challenge.dest.clone())
    } else {
        (challenge.dest.clone(), challenge.challenger.clone())
    };
    let game_id = random_id();
    if !state
        .store
        .close_challenge(&id, "accepted", Some(&game_id))
        .await?
    {
        return Err(ApiError::new(
            StatusCode::CONFLICT,
            "the challenge is no longer open",
        ));
    }
    let header = Header::new(&game_id, &spec, &white, &black)?;
    let (game, first) = HostedGame::create(header, state.clock.now())?;
    state
        .store
        .add_game(&white, &black, &first, &game_id)
        .await?;
    state
        .hub
        .insert(&game_id, white.to_lowercase(), black.to_lowercase(), game);
    state
        .metrics
        .games_created
        .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let event = json!({"type": "gameStart", "game": {"id": game_id, "gameId": game_id}});
    state.hub.notify(&white, event.clone());
    state.hub.notify(&black, event);
    Ok(Json(json!({"ok": true, "gameId": game_id})))
}

/// `POST /api/challenge/{id}/decline` (the challenged) or `/cancel` (the challenger).
pub async fn close(
    State(state): State<AppState>,
    Caller(user): Caller,
    Path((id, action)): Path<(String, String)>,
) -> ApiResult<Json<Value>> {
    let challenge = state
        .store
        .challenge(&id)
        .await?
        .ok_or_else(|| ApiError::not_found("challenge"))?;
    let (who, status) = match action.as_str() {
        "decline" => (&challenge.dest, "declined"),
        "cancel" => (&challenge.challenger, "cancelled"),
        _ => return Err(ApiError::not_found("route")),
    };
    if !who.eq_ignore_ascii_case(&user.name) {
        return Err(ApiError::forbidden(format!(
            "you cannot {action} this challenge"
        )));
    }
    if !state.store.close_challenge(&id, status, None).await? {
        return Err(ApiError::new(
            StatusCode::CONFLICT,
            "the challenge is no longer open",
        ));
    }
    Ok(ok())
}

/// Game `id` and the seat of `user` in it, or 404 / 403.
async fn seated(
    state: &AppState,
    id: &str,
    user: &auth::User,
) -> ApiResult<(std::sync::Arc<Slot>, Color)> {
    let slot = state.hub.slot(&state.store, id).await?;
    let color = slot
        .seat(&user.name)
        .ok_or_else(|| ApiError::forbidden("you do not play in this game"))?;
    Ok((slot, color))
}

async fn run(state: &AppState, slot: &Slot, command: Command) -> ApiResult<Json<Value>> {
    use std::sync::atomic::Ordering::Relaxed;
    state.metrics.commands.fetch_add(1, Relaxed);
    let result = state
        .hub
        .command(
            &state.store,
            &state.writer,
            slot,
            command,
            state.clock.now(),
        )
        .await;
    if result.is_err() {
        state.metrics.commands_refused.fetch_add(1, Relaxed);
    }
    result.map(|()| ok())
}

/// `POST /api/board/game/{id}/move/{choice}`.
pub async fn play(
    State(state): State<AppState>,
    Caller(user): Caller,
    Path((id, choice)): Path<(String, String)>,
) -> ApiResult<Json<Value>> {
    let (slot, color) = seated(&state, &id, &user).await?;
    if choice.len() > 16 {
        return Err(ApiError::bad_request("a choice is at most 16 characters"));
    }
    run(&state, &slot, Command::Play { color, choice }).await
}

/// `POST /api/board/game/{id}/{resign|abort|claim-draw}`.
pub async fn game_action(
    State(state): State<AppState>,
    Caller(user): Caller,
    Path((id, action)): Path<(String, String)>,
) -> ApiResult<Json<Value>> {
    let (slot, color) = seated(&state, &id, &user).await?;
    let command = match action.as_str() {
        "resign" => Command::Resign { color },
        "abort" => Command::Abort { color },
        "claim-draw" => Command::ClaimDraw { color },
        _ => return Err(ApiError::not_found("route")),
    };
    run(&state, &slot, command).await
}

/// `POST /api/board/game/{id}/draw/{yes|no}`.
pub async fn draw(
    State(state): State<AppState>,
    Caller(user): Caller,
    Path((id, answer)): Path<(String, String)>,
) -> ApiResult<Json<Value>> {
    let (slot, color) = seated(&state, &id, &user).await?;
    let command = match answer.as_str() {
        "yes" => Command::OfferDraw { color },
        "no" => Command::DeclineDraw { color },
        _ => return Err(ApiError::bad_request("draw/yes or draw/no")),
    };
    run(&state, &slot, command).await
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ArbiterRequest {
    action: ArbiterAction,
    reason: String,
}

/// `POST /api/game/{id}/arbiter` (arbiters and admins).
pub async fn arbiter(
    State(state): State<AppState>,
    Caller(user): Caller,
    Path(id): Path<String>,
    ApiJson(req): ApiJson<ArbiterRequest>,
) -> ApiResult<Json<Value>> {
    if !user.role.is_arbiter() {
        return Err(ApiError::forbidden("arbiter actions need the arbiter role"));
    }
    let slot = state.hub.slot(&state.store, &id).await?;
    let command = Command::Arbiter {
        arbiter: user.name,
        reason: req.reason,
        action: req.action,
    };
    run(&state, &slot, command).await
}

/// `GET /api/game/{id}`: the game as the caller may see it.
pub async fn game(
    State(state): State<AppState>,
    MaybeCaller(user): MaybeCaller,
    Path(id): Path<String>,
) -> ApiResult<Json<Value>> {
    let slot = state.hub.slot(&state.store, &id).await?;
    let audience = slot.audience(user.as_ref().map(|u| u.name.as_str()));
    let game = slot.game.lock().await;
    Ok(Json(game.full(audience, state.clock.now())))
}

/// `GET /api/game/{id}/log`: every public entry, one per line; the last
/// also carries the server's `signature` on the head.
pub async fn log(State(state): State<AppState>, Path(id): Path<String>) -> ApiResult<Response> {
    let slot = state.hub.slot(&state.store, &id).await?;
    // The head as the lock's holder left it: a command stores its entries
    // before it lets go, so the store has every entry up to this head, and
    // the store is read without holding up the game's moves.
    let (seq, head) = slot.game.lock().await.head();
    let entries = state.store.entries(&id).await?;
    let mut text = String::new();
    for entry in entries.iter().take_while(|e| e.seq <= seq) {
        let mut object = entry.public();
        if entry.seq == seq {
            object.insert(
                "signature".into(),
                sign_head(&state.key, &id, seq, &head).into(),
            );
        }
        text.push_str(&Value::Object(object).to_string());
        text.push('\n');
    }
    Ok(([(header::CONTENT_TYPE, "application/x-ndjson")], text).into_response())
}

/// `GET /api/account/playing`: the caller's unfinished games, those where
/// a move is due from the caller first, each with its deadline (a
/// correspondence player's list).
pub async fn playing(
    State(state): State<AppState>,
    Caller(user): Caller,
) -> ApiResult<Json<Value>> {
    let now = state.clock.now();
    let mut games = Vec::new();
    for id in state.store.unfinished_games(Some(&user.name)).await? {
        let slot = state.hub.slot(&state.store, &id).await?;
        let Some(color) = slot.seat(&user.name) else {
            continue;
        };
        let game = slot.game.lock().await;
        if game.end().is_some() {
            continue;
        }
        let my_turn = !game.choices(color).is_empty();
        let header = game.header();
        let deadline = game
            .reading(color, now)
            .filter(|_| my_turn)
            .map(|left| now.saturating_add(left.0.max(0) as u64));
        games.push(json!({
            "gameId": id,
            "color": color,
            "opponent": color.fold(&header.black, &header.white),
            "variant": header.variant,
            "isMyTurn": my_turn,
            "secondsLeft": game.reading(color, now).map(|m| m.0.max(0) / 1000),
            "deadline": deadline.map(tempo_host::chain::rfc3339_millis),
        }));
    }
    games.sort_by_key(|g| {
        (
            !g["isMyTurn"].as_bool().unwrap_or(false),
            g["deadline"].as_str().map(str::to_string),
        )
    });
    Ok(Json(json!({"nowPlaying": games})))
}

/// `GET /api/game/export/{id}`: the game as PGN (the variant's tags, the
/// record; hidden choices are not in it until revealed).
pub async fn export(State(state): State<AppState>, Path(id): Path<String>) -> ApiResult<Response> {
    let slot = state.hub.slot(&state.store, &id).await?;
    let pgn = slot.game.lock().await.pgn();
    Ok(([(header::CONTENT_TYPE, "application/x-chess-pgn")], pgn).into_response())
}

/// `GET /api/server-key`: the public key that signs log heads.
pub async fn server_key(State(state): State<AppState>) -> Json<Value> {
    Json(json!({"key": hex(state.key.verifying_key().as_bytes()), "algorithm": "ed25519"}))
}

/// Keep-alive lines on idle streams (as lichess sends).
const KEEP_ALIVE: Duration = Duration::from_secs(15);

/// `GET /api/board/game/stream/{id}`: NDJSON, the full game first, then
/// every entry as it is stored, each with the log's `head`, and the
/// state after it as the caller may see it.
pub async fn game_stream(
    State(state): State<AppState>,
    MaybeCaller(user): MaybeCaller,
    Path(id): Path<String>,
) -> ApiResult<Response> {
    let slot = state.hub.slot(&state.store, &id).await?;
    let audience = slot.audience(user.as_ref().map(|u| u.name.as_str()));
    let receiver = slot.lines.subscribe();
    let stopped = state.stopped();
    let first = {
        let game = slot.game.lock().await;
        game.full(audience, state.clock.now())
    };
    state
        .metrics
        .streams_opened
        .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let stream =
        futures_util::stream::once(async move { Ok::<_, std::convert::Infallible>(line(&first)) })
            .chain(futures_util::stream::unfold(
                (receiver, slot, state, audience),
                |(mut receiver, slot, state, audience)| async move {
                    let text = match tokio::time::timeout(KEEP_ALIVE, receiver.recv()).await {
                        Err(_) => "\n".to_string(),
                        Ok(Ok(entry)) => entry_lines(&slot, &state, audience, &entry).await,
                        Ok(Err(tokio::sync::broadcast::error::RecvError::Lagged(_))) => {
                            let game = slot.game.lock().await;
                            line(&game.full(audience, state.clock.now()))
                        }
                        Ok(Err(tokio::sync::broadcast::error::RecvError::Closed)) => return None,
                    };
                    Some((Ok(text), (receiver, slot, state, audience)))
                },
            ))
            .take_until(stopped);
    Ok(ndjson(Body::from_stream(stream)))
}

fn ndjson(body: Body) -> Response {
    ([(header::CONTENT_TYPE, "application/x-ndjson")], body).into_response()
}

fn line(value: &Value) -> String {
    let mut text = value.to_string();
    text.push('\n');
    text
}

/// An entry's line (with the log's `head`), and after anything but a
/// commit (whose line says all that changed) the state as the reader
/// may see it.
async fn entry_lines(slot: &Slot, state: &AppState, audience: Audience, entry: &Line) -> String {
    let mut text = entry.text.clone();
    if entry.changes_state {
        let game = slot.game.lock().await;
        text.push_str(&line(&game.state(audience, state.clock.now())));
    }
    text
}

/// `GET /api/stream/event`: the caller's challenges and games.
pub async fn event_stream(
    State(state): State<AppState>,
    Caller(user): Caller,
) -> ApiResult<Response> {
    let receiver = state.hub.user_channel(&user.name).subscribe();
    let mut first = String::new();
    for challenge in state.store.open_challenges(&user.name).await? {
        first.push_str(&line(
            &json!({"type": "challenge", "challenge": {"id": challenge.id}}),
        ));
    }
    for id in state.store.unfinished_games(Some(&user.name)).await? {
        let slot = state.hub.slot(&state.store, &id).await?;
        if slot.game.lock().await.end().is_none() {
            first.push_str(&line(
                &json!({"type": "gameStart", "game": {"id": id, "gameId": id}}),
            ));
        }
    }
    let stream =
        futures_util::stream::once(async move { Ok::<_, std::convert::Infallible>(first) })
            .chain(futures_util::stream::unfold(
                receiver,
                |mut receiver| async move {
                    let text = match tokio::time::timeout(KEEP_ALIVE, receiver.recv()).await {
                        Err(_) => "\n".to_string(),
                        Ok(Ok(event)) => line(&event),
                        Ok(Err(tokio::sync::broadcast::error::RecvError::Lagged(_))) => {
                            "\n".to_string()
                        }
                        Ok(Err(tokio::sync::broadcast::error::RecvError::Closed)) => return None,
                    };
                    Some((Ok(text), receiver))
                },
            ))
            .take_until(state.stopped());
    Ok(ndjson(Body::from_stream(stream)))
}

/// `GET /healthz`.
pub async fn healthz(State(state): State<AppState>) -> Response {
    if state.store.ping().await {
        (StatusCode::OK, "ok\n").into_response()
    } else {
        (StatusCode::SERVICE_UNAVAILABLE, "storage unavailable\n").into_response()
    }
}

/// `GET /metrics`: Prometheus text format.
pub async fn metrics(State(state): State<AppState>) -> Response {
    use std::sync::atomic::Ordering::Relaxed;
    let m = &state.metrics;
    let games = state.hub.slots().len();
    let text = format!(
        "# TYPE tempo_commands_total counter\ntempo_commands_total {}\n\
         # TYPE tempo_commands_refused_total counter\ntempo_commands_refused_total {}\n\
         # TYPE tempo_games_created_total counter\ntempo_games_created_total {}\n\
         # TYPE tempo_streams_opened_total counter\ntempo_streams_opened_total {}\n\
         # TYPE tempo_games_in_memory gauge\ntempo_games_in_memory {games}\n",
        m.commands.load(Relaxed),
        m.commands_refused.load(Relaxed),
        m.games_created.load(Relaxed),
        m.streams_opened.load(Relaxed),
    );
    ([(header::CONTENT_TYPE, "text/plain; version=0.0.4")], text).into_response()
}
