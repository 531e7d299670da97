//! The tournaments' tables: each tournament's TRF and settings with a
//! version (a change is stored only over the version it was made from,
//! so that two instances cannot lose each other's changes), and the
//! server games of online boards.

use axum::http::StatusCode;
use sqlx::Row;

use super::{MAX_TOURNAMENTS, Record, Refusal};
use crate::error::ApiError;
use crate::store::{Store, StoreError};

/// One line of the list of tournaments.
#[derive(Debug, Clone)]
pub struct Summary {
    pub id: String,
    pub name: String,
    pub system: String,
    pub created: i64,
}

/// Where an online board's game belongs.
#[derive(Debug, Clone)]
pub struct GameLink {
    pub tournament: String,
    pub round: u32,
    pub board: u32,
}

/// Stores a new tournament; `false` if the server holds the most already.
pub async fn insert(store: &Store, id: &str, record: &Record, now: i64) -> Result<bool, ApiError> {
    let count: i64 = sqlx::query("SELECT COUNT(*) FROM tournaments")
        .fetch_one(store.pool())
        .await
        .map_err(StoreError::from)?
        .try_get(0)
        .map_err(StoreError::from)?;
    if count >= MAX_TOURNAMENTS {
        return Ok(false);
    }
    let (trf, settings) = record.to_texts()?;
    sqlx::query(
        "INSERT INTO tournaments (id, name, system, trf, settings, version, created)
         VALUES ($1, $2, $3, $4, $5, 1, $6)",
    )
    .bind(id)
    .bind(record.name())
    .bind(record.s.system.as_str())
    .bind(trf)
    .bind(settings)
    .bind(now)
    .execute(store.pool())
    .await
    .map_err(StoreError::from)?;
    Ok(true)
}

/// A tournament and its version, or 404.
pub async fn load(store: &Store, id: &str) -> Result<(Record, i64), ApiError> {
    if id.len() > 64 {
        return Err(Refusal::NotFound("tournament".into()).into());
    }
    let row = sqlx::query("SELECT trf, settings, version FROM tournaments WHERE id = $1")
        .bind(id)
        .fetch_optional(store.pool())
        .await
        .map_err(StoreError::from)?
        .ok_or_else(|| Refusal::NotFound("tournament".into()))?;
    let trf: String = row.try_get(0).map_err(StoreError::from)?;
    let settings: String = row.try_get(1).map_err(StoreError::from)?;
    let version: i64 = row.try_get(2).map_err(StoreError::from)?;
    let record = Record::load(&trf, &settings)
        .map_err(|e| ApiError::from(StoreError::Damaged(format!("tournament {id}: {e}"))))?;
    Ok((record, version))
}

/// Writes a tournament over `version`; `false` if another change came first.
async fn save(store: &Store, id: &str, version: i64, record: &Record) -> Result<bool, ApiError> {
    let (trf, settings) = record.to_texts()?;
    let result = sqlx::query(
        "UPDATE tournaments SET name = $1, trf = $2, settings = $3, version = $4
         WHERE id = $5 AND version = $6",
    )
    .bind(record.name())
    .bind(trf)
    .bind(settings)
    .bind(version + 1)
    .bind(id)
    .bind(version)
    .execute(store.pool())
    .await
    .map_err(StoreError::from)?;
    Ok(result.rows_affected() == 1)
}

/// Changes writes of this instance wait for each other (other instances
/// are kept apart by the version).
fn writing() -> &'static tokio::sync::Mutex<()> {
    static LOCK: std::sync::OnceLock<tokio::sync::Mutex<()>> = std::sync::OnceLock::new();
    LOCK.get_or_init(|| tokio::sync::Mutex::new(()))
}

/// Loads a tournament, applies `change` and stores the result; tried
/// again from a fresh copy if another instance changed it meanwhile.
/// Returns what `change` returned and the tournament as stored.
pub async fn modify<T>(
    store: &Store,
    id: &str,
    mut change: impl FnMut(&mut Record) -> Result<T, Refusal>,
) -> Result<(T, Record), ApiError> {
    let _guard = writing().lock().await;
    for _ in 0..5 {
        let (mut record, version) = load(store, id).await?;
        let out = change(&mut record)?;
        if save(store, id, version, &record).await? {
            return Ok((out, record));
        }
    }
    Err(ApiError::new(
        StatusCode::SERVICE_UNAVAILABLE,
        "the tournament is busy, try again",
    ))
}

/// [`modify`] for a change that takes time (pairing a round): it runs on
/// a blocking thread, not on the server's workers.
pub async fn modify_blocking<T: Send + 'static>(
    store: &Store,
    id: &str,
    change: fn(&mut Record) -> Result<T, Refusal>,
) -> Result<(T, Record), ApiError> {
    let _guard = writing().lock().await;
    for _ in 0..5 {
        let (record, version) = load(store, id).await?;
        let (out, record) = tokio::task::spawn_blocking(move || {
            let mut record = record;
            let out = change(&mut record);
            (out, record)
        })
        .await
        .map_err(|_| ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, "the change failed"))?;
        let out = out?;
        if save(store, id, version, &record).await? {
            return Ok((out, record));
        }
    }
    Err(ApiError::new(
        StatusCode::SERVICE_UNAVAILABLE,
        "the tournament is busy, try again",
    ))
}

/// The newest tournaments, at most `limit`.
pub async fn list(store: &Store, limit: i64) -> Result<Vec<Summary>, StoreError> {
    let rows = sqlx::query(
        "SELECT id, name, system, created FROM tournaments ORDER BY created DESC, id LIMIT $1",
    )
    .bind(limit)
    .fetch_all(store.pool())
    .await?;
    rows.iter()
        .map(|r| {
            Ok(Summary {
                id: r.try_get(0)?,
                name: r.try_get(1)?,
                system: r.try_get(2)?,
                created: r.try_get(3)?,
            })
        })
        .collect()
}

/// Records that `game` plays a board.
pub async fn link_game(
    store: &Store,
    game: &str,
    tournament: &str,
    round: u32,
    board: u32,
) -> Result<(), StoreError> {
    sqlx::query(
        "INSERT INTO tournament_games (game_id, tournament_id, round, board) VALUES ($1, $2, $3, $4)",
    )
    .bind(game)
    .bind(tournament)
    .bind(i64::from(round))
    .bind(i64::from(board))
    .execute(store.pool())
    .await?;
    Ok(())
}

/// The board `game` plays, if it is a tournament's.
pub async fn game_link(store: &Store, game: &str) -> Result<Option<GameLink>, StoreError> {
    let row =
        sqlx::query("SELECT tournament_id, round, board FROM tournament_games WHERE game_id = $1")
            .bind(game)
            .fetch_optional(store.pool())
            .await?;
    row.map(|r| {
        let round: i64 = r.try_get(1)?;
        let board: i64 = r.try_get(2)?;
        Ok(GameLink {
            tournament: r.try_get(0)?,
            round: round as u32,
            board: board as u32,
        })
    })
    .transpose()
}

/// Finished games of tournaments, newest first (at most `limit`): their
/// results may not have entered yet (a server stopped in between).
pub async fn finished_games(store: &Store, limit: i64) -> Result<Vec<String>, StoreError> {
    let rows = sqlx::query(
        "SELECT g.id FROM tournament_games t JOIN games g ON g.id = t.game_id
         WHERE g.finished = 1 ORDER BY g.created DESC LIMIT $1",
    )
    .bind(limit)
    .fetch_all(store.pool())
    .await?;
    rows.iter().map(|r| Ok(r.try_get(0)?)).collect()
}
