//! What the lobby and the archive list: the caller's pending challenges,
//! the club's members, finished games; and an admin's new accounts.

use axum::Json;
use axum::extract::{Query, State};
use serde::Deserialize;
use serde_json::{Value, json};
use sqlx::Row;
use tempo_host::{Body, EndReason, EndResult, GameSpec};

use crate::auth::{self, Caller, Role, User};
use crate::error::{ApiError, ApiJson};
use crate::state::AppState;
use crate::store::{ChallengeRow, Store, StoreError};

type ApiResult<T> = Result<T, ApiError>;

/// Most games one archive page lists.
pub const MAX_ARCHIVE_PAGE: i64 = 100;
/// Most members the member list shows.
pub const MAX_MEMBERS: i64 = 2000;

/// A finished game as the archive lists it.
#[derive(Debug, Clone)]
pub struct GameSummary {
    pub id: String,
    pub white: String,
    pub black: String,
    pub created: i64,
    pub header: Option<Value>,
    pub end: Option<(EndResult, EndReason)>,
}

/// Most open challenges one member may have sent.
pub const MAX_OPEN_CHALLENGES: i64 = 20;

impl Store {
    /// How many open challenges `user` has sent.
    pub async fn open_challenges_from(&self, user: &str) -> Result<i64, StoreError> {
        Ok(
            sqlx::query(
                "SELECT COUNT(*) FROM challenges WHERE status = 'open' AND challenger = $1",
            )
            .bind(user.to_lowercase())
            .fetch_one(&self.pool)
            .await?
            .try_get(0)?,
        )
    }

    /// Every member's name (as registered) and role, by name.
    pub async fn members(&self) -> Result<Vec<User>, StoreError> {
        let rows = sqlx::query("SELECT display, role FROM users ORDER BY name LIMIT $1")
            .bind(MAX_MEMBERS)
            .fetch_all(&self.pool)
            .await?;
        rows.iter()
            .map(|row| {
                let role: String = row.try_get(1)?;
                Ok(User {
                    name: row.try_get(0)?,
                    role: role.parse().map_err(StoreError::Damaged)?,
                })
            })
            .collect()
    }

    /// Finished games, newest first (of `user` if given), `limit` from
    /// `offset`, each with its header and end.
    pub async fn finished_games(
        &self,
        user: Option<&str>,
        limit: i64,
        offset: i64,
    ) -> Result<Vec<GameSummary>, StoreError> {
        let rows = sqlx::query(
            "SELECT id, white, black, created FROM games WHERE finished <> 0
             AND ($1 = '' OR white = $1 OR black = $1)
             ORDER BY created DESC, id LIMIT $2 OFFSET $3",
        )
        .bind(user.unwrap_or("").to_lowercase())
        .bind(limit)
        .bind(offset)
        .fetch_all(&self.pool)
        .await?;
        let mut games = Vec::with_capacity(rows.len());
        for row in rows {
            let id: String = row.try_get(0)?;
            let first = self.body_at(&id, "ASC").await?;
            let last = self.body_at(&id, "DESC").await?;
            let header = match first {
                Some(Body::GameCreated(header)) => serde_json::to_value(header).ok(),
                _ => None,
            };
            let end = match last {
                Some(Body::End(end)) => Some((end.result, end.reason)),
                _ => None,
            };
            games.push(GameSummary {
                id,
                white: row.try_get(1)?,
                black: row.try_get(2)?,
                created: row.try_get(3)?,
                header,
                end,
            });
        }
        Ok(games)
    }

    /// The body of a game's first (`ASC`) or last end entry (`DESC`).
    async fn body_at(&self, game: &str, order: &str) -> Result<Option<Body>, StoreError> {
        let filter = if order == "DESC" {
            "AND body LIKE '{\"type\":\"end\"%'"
        } else {
            ""
        };
        let sql = format!(
            "SELECT body FROM events WHERE game_id = $1 {filter} ORDER BY seq {order} LIMIT 1"
        );
        let row = sqlx::query(&sql)
            .bind(game)
            .fetch_optional(&self.pool)
            .await?;
        match row {
            Some(row) => {
                let text: String = row.try_get(0)?;
                serde_json::from_str(&text)
                    .map(Some)
                    .map_err(|e| StoreError::Damaged(format!("game {game}: {e}")))
            }
            None => Ok(None),
        }
    }
}

fn challenge_json(row: &ChallengeRow, me: &str) -> Value {
    let spec: Option<GameSpec> = serde_json::from_str(&row.spec).ok();
    json!({
        "id": row.id,
        "challenger": row.challenger,
        "destUser": row.dest,
        "direction": if row.challenger.eq_ignore_ascii_case(me) { "out" } else { "in" },
        "color": row.color,
        "variant": spec.as_ref().map(|s| s.variant),
        "clock": spec.as_ref().and_then(|s| s.clock.clone()),
        "fen": spec.as_ref().and_then(|s| s.fen.clone()),
        "chess960": spec.as_ref().and_then(|s| s.chess960),
        "rules": spec.as_ref().map(|s| &s.rules),
    })
}

/// `GET /api/challenge`: the caller's pending challenges, `in` (to the
/// caller) and `out` (from the caller), as lichess lists them.
pub async fn challenges(
    State(state): State<AppState>,
    Caller(user): Caller,
) -> ApiResult<Json<Value>> {
    let rows = state.store.open_challenges(&user.name).await?;
    let (out, incoming): (Vec<_>, Vec<_>) = rows
        .iter()
        .partition(|r| r.challenger.eq_ignore_ascii_case(&user.name));
    let list = |rows: Vec<&ChallengeRow>| -> Vec<Value> {
        rows.into_iter()
            .map(|r| challenge_json(r, &user.name))
            .collect()
    };
    Ok(Json(json!({"in": list(incoming), "out": list(out)})))
}

/// `GET /api/users`: the members a caller may challenge.
pub async fn members(State(state): State<AppState>, Caller(_): Caller) -> ApiResult<Json<Value>> {
    let users: Vec<Value> = state
        .store
        .members()
        .await?
        .into_iter()
        .map(|u| json!({"name": u.name, "role": u.role.as_str()}))
        .collect();
    Ok(Json(json!({"users": users})))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NewUser {
    username: String,
    password: String,
    #[serde(default = "player")]
    role: String,
}

fn player() -> String {
    "player".into()
}

/// A password's length in bytes (as [`auth::hash_password`] takes it).
pub const PASSWORD_BYTES: std::ops::RangeInclusive<usize> = 8..=256;

fn check_password_length(password: &str) -> Result<(), ApiError> {
    if PASSWORD_BYTES.contains(&password.len()) {
        Ok(())
    } else {
        Err(ApiError::bad_request(format!(
            "password: {} to {} bytes",
            PASSWORD_BYTES.start(),
            PASSWORD_BYTES.end()
        )))
    }
}

/// Argon2 takes tens of milliseconds of CPU: off the async workers.
async fn hash_off_thread(password: String) -> Result<String, ApiError> {
    tokio::task::spawn_blocking(move || auth::hash_password(&password))
        .await
        .map_err(|_| ApiError::new(axum::http::StatusCode::SERVICE_UNAVAILABLE, "try again"))?
        .map_err(|e| ApiError::bad_request(e.to_string()))
}

async fn verify(password: String, hash: String) -> bool {
    tokio::task::spawn_blocking(move || auth::verify_password(&password, Some(&hash)))
        .await
        .unwrap_or(false)
}

/// `POST /api/users`: an admin adds a member.
pub async fn add_member(
    State(state): State<AppState>,
    Caller(admin): Caller,
    ApiJson(req): ApiJson<NewUser>,
) -> ApiResult<Json<Value>> {
    if admin.role != Role::Admin {
        return Err(ApiError::forbidden("only an admin adds members"));
    }
    auth::check_new_name(&req.username).map_err(|e| ApiError::bad_request(e.to_string()))?;
    let role: Role = req
        .role
        .parse()
        .map_err(|_| ApiError::bad_request("role: player, arbiter or admin"))?;
    check_password_length(&req.password)?;
    let hash = hash_off_thread(req.password).await?;
    let user = User {
        name: req.username.clone(),
        role,
    };
    if !state
        .store
        .add_user(&user, &hash, state.clock.now() as i64)
        .await?
    {
        return Err(ApiError::new(
            axum::http::StatusCode::CONFLICT,
            format!("the name {} is taken", req.username),
        ));
    }
    Ok(Json(
        json!({"ok": true, "name": user.name, "role": role.as_str()}),
    ))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ArchiveQuery {
    user: Option<String>,
    #[serde(default)]
    page: u32,
}

/// `GET /api/games`: finished games, newest first, 50 a page
/// (`?user=` to one member's, `?page=` from 0).
pub async fn finished(
    State(state): State<AppState>,
    Query(query): Query<ArchiveQuery>,
) -> ApiResult<Json<Value>> {
    const PAGE: i64 = 50;
    let offset = i64::from(query.page.min(10_000)) * PAGE;
    let games = state
        .store
        .finished_games(query.user.as_deref(), PAGE.min(MAX_ARCHIVE_PAGE), offset)
        .await?;
    let games: Vec<Value> = games
        .into_iter()
        .map(|g| {
            json!({
                "gameId": g.id,
                "white": g.header.as_ref().and_then(|h| h.get("white").cloned()).unwrap_or(g.white.into()),
                "black": g.header.as_ref().and_then(|h| h.get("black").cloned()).unwrap_or(g.black.into()),
                "variant": g.header.as_ref().and_then(|h| h.get("variant").cloned()),
                "clock": g.header.as_ref().and_then(|h| h.get("clock").cloned()),
                "createdAt": tempo_host::chain::rfc3339_millis(g.created.max(0) as u64),
                "result": g.end.map(|(result, _)| result),
                "reason": g.end.map(|(_, reason)| reason),
            })
        })
        .collect();
    Ok(Json(json!({"games": games, "page": query.page})))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NewPassword {
    old: String,
    new: String,
}

impl Store {
    /// Ends every token of `user` and every session but `keep`; the
    /// hashes of the tokens that ended.
    pub async fn end_access(
        &self,
        user: &str,
        keep: Option<&str>,
    ) -> Result<Vec<String>, StoreError> {
        let name = user.to_lowercase();
        let tokens: Vec<String> = sqlx::query("SELECT hash FROM tokens WHERE user_name = $1")
            .bind(&name)
            .fetch_all(&self.pool)
            .await?
            .iter()
            .map(|r| r.try_get(0))
            .collect::<Result<_, _>>()?;
        sqlx::query("DELETE FROM tokens WHERE user_name = $1")
            .bind(&name)
            .execute(&self.pool)
            .await?;
        sqlx::query("DELETE FROM sessions WHERE user_name = $1 AND hash <> $2")
            .bind(&name)
            .bind(keep.unwrap_or(""))
            .execute(&self.pool)
            .await?;
        Ok(tokens)
    }

    /// Replaces `user`'s password hash.
    pub async fn set_password(&self, user: &str, hash: &str) -> Result<(), StoreError> {
        sqlx::query("UPDATE users SET password = $1 WHERE name = $2")
            .bind(hash)
            .bind(user.to_lowercase())
            .execute(&self.pool)
            .await?;
        Ok(())
    }
}

/// `POST /api/account/password`: the caller changes their password.
pub async fn change_password(
    State(state): State<AppState>,
    headers: axum::http::HeaderMap,
    Caller(user): Caller,
    ApiJson(req): ApiJson<NewPassword>,
) -> ApiResult<Json<Value>> {
    let (_, hash) = state
        .store
        .user(&user.name)
        .await?
        .ok_or_else(|| ApiError::not_found("user"))?;
    check_password_length(&req.new)?;
    if !verify(req.old, hash).await {
        return Err(ApiError::forbidden("the old password is wrong"));
    }
    let hash = hash_off_thread(req.new).await?;
    state.store.set_password(&user.name, &hash).await?;
    // Whoever knew the old password is out: every token and every other
    // session of the account ends (this browser's session stays).
    let keep = auth::session_id(&headers).map(|id| auth::token_hash(&id));
    for token in state.store.end_access(&user.name, keep.as_deref()).await? {
        state.tokens.forget(&token);
    }
    Ok(Json(json!({"ok": true})))
}

/// `GET /api/me`: the logged-in browser's name, role and CSRF token, or
/// `{"username": null}` for a visitor (a page's first question, which
/// should not fail).
pub async fn whoami(
    state: State<AppState>,
    headers: axum::http::HeaderMap,
) -> ApiResult<Json<Value>> {
    // `GET /api/session`'s answer, with a visitor instead of its 401.
    match crate::routes::session(state, headers).await {
        Err(e) if e.status == axum::http::StatusCode::UNAUTHORIZED => {
            Ok(Json(json!({"username": null})))
        }
        answer => answer,
    }
}
