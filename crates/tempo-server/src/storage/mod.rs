//! Durable storage: accounts, API tokens and sessions, challenges, games
//! and their append-only logs, tournaments, the server key. One SQL
//! dialect for SQLite (the default, a file in the data directory) and
//! PostgreSQL, through sqlx's `Any` driver; the schema is embedded and
//! applied at start ([`migrations`]). Rows come in and go out typed: no
//! caller writes SQL or reads a stored JSON text.

mod accounts;
mod backup_check;
mod bots;
mod challenges;
mod games;
mod leases;
mod mail;
mod migrations;
mod ratings;
mod reports;
mod server_key;
mod tables;
mod tournaments;

use std::path::Path;

use sqlx::any::{AnyPoolOptions, install_default_drivers};
use sqlx::{AnyPool, Row};
use tempo_host::{Body, EndReason, EndResult};

pub use backup_check::{StoreFileError, StoreFileSummary, check_store_file};
pub(crate) use bots::{Profile, StoredChatLine, Upgrade};
pub(crate) use challenges::GameOrigin;
pub(crate) use games::ArchivedGame;
pub use games::{Append, NextFlag};
pub(crate) use mail::MailAddress;
pub(crate) use tables::{NewTable, SeatChange};
pub(crate) use tournaments::{GameLink, TournamentSummary, TournamentTexts};

use migrations::{MIGRATIONS, Migration};

/// A storage failure (the server answers 503 and logs it).
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    #[error("database: {0}")]
    Database(#[from] sqlx::Error),
    #[error("stored data is damaged: {0}")]
    Damaged(String),
    #[error("{0}")]
    Io(String),
    /// Another writer (another server instance) stored this entry's seq
    /// first: the game must be reloaded.
    #[error("game {game}: seq {seq} is taken")]
    SeqTaken { game: String, seq: u64 },
}

/// PostgreSQL's SQLSTATEs for text it cannot hold: `22021` (a byte
/// sequence not valid in the encoding, such as NUL) and `22P05` (a
/// character with no equivalent in it).
const UNSTORABLE_TEXT: [&str; 2] = ["22021", "22P05"];

impl StoreError {
    /// Whether the store refused text given to it (a NUL byte in a name,
    /// say) rather than failed: the request's fault, not the store's.
    pub fn is_unstorable_text(&self) -> bool {
        match self {
            StoreError::Database(sqlx::Error::Database(db)) => db
                .code()
                .is_some_and(|code| UNSTORABLE_TEXT.contains(&code.as_ref())),
            _ => false,
        }
    }
}

/// The store the server runs on.
#[derive(Debug, Clone)]
pub struct Store {
    pool: AnyPool,
    /// The PostgreSQL URL, for notifications between instances.
    postgres: Option<String>,
}

impl Store {
    /// The SQLite store in `dir` (created if missing: `dir/tempo.sqlite`).
    pub async fn open_dir(dir: &Path) -> Result<Store, StoreError> {
        std::fs::create_dir_all(dir)
            .map_err(|e| StoreError::Io(format!("{}: {e}", dir.display())))?;
        let path = dir.join("tempo.sqlite");
        Store::connect(&format!("sqlite://{}?mode=rwc", path.display())).await
    }

    /// The store at `url` (`postgres://…` or `sqlite://…`).
    pub async fn connect(url: &str) -> Result<Store, StoreError> {
        let store = Store::connect_unmigrated(url).await?;
        store.migrate(MIGRATIONS.len()).await?;
        Ok(store)
    }

    async fn connect_unmigrated(url: &str) -> Result<Store, StoreError> {
        install_default_drivers();
        let sqlite = url.starts_with("sqlite:");
        let pool = AnyPoolOptions::new()
            .max_connections(if sqlite { 4 } else { 8 })
            .after_connect(move |conn, _| {
                Box::pin(async move {
                    if sqlite {
                        // Durable on commit, concurrent readers, waits for the writer.
                        for pragma in [
                            "PRAGMA journal_mode = WAL",
                            "PRAGMA synchronous = FULL",
                            "PRAGMA busy_timeout = 10000",
                            "PRAGMA foreign_keys = ON",
                        ] {
                            sqlx::query(pragma).execute(&mut *conn).await?;
                        }
                    }
                    Ok(())
                })
            })
            .connect(url)
            .await?;
        let postgres = (!sqlite).then(|| url.to_string());
        Ok(Store { pool, postgres })
    }

    /// A transaction that will write. On SQLite it takes the write lock at
    /// once (`BEGIN IMMEDIATE`): a deferred transaction that reads first and
    /// then writes fails at once with `SQLITE_BUSY` (no wait) when another
    /// connection committed in between, because its snapshot is stale.
    pub(crate) async fn begin_write(
        &self,
    ) -> Result<sqlx::Transaction<'static, sqlx::Any>, StoreError> {
        Ok(if self.postgres.is_some() {
            self.pool.begin().await?
        } else {
            self.pool.begin_with("BEGIN IMMEDIATE").await?
        })
    }

    /// Applies the migrations not yet applied, up to the first `upto`.
    async fn migrate(&self, upto: usize) -> Result<(), StoreError> {
        sqlx::query("CREATE TABLE IF NOT EXISTS tempo_schema (version BIGINT PRIMARY KEY)")
            .execute(&self.pool)
            .await?;
        let done: i64 = sqlx::query("SELECT COUNT(*) FROM tempo_schema")
            .fetch_one(&self.pool)
            .await?
            .try_get(0)?;
        for (version, migration) in MIGRATIONS.iter().enumerate().take(upto).skip(done as usize) {
            let mut tx = self.begin_write().await?;
            match migration {
                Migration::Sql(text) => {
                    for statement in text.split(';').filter(|s| !s.trim().is_empty()) {
                        sqlx::query(statement).execute(&mut *tx).await?;
                    }
                }
                Migration::Backfill(backfill) => backfill.run(&mut tx).await?,
            }
            sqlx::query("INSERT INTO tempo_schema (version) VALUES ($1)")
                .bind(version as i64 + 1)
                .execute(&mut *tx)
                .await?;
            tx.commit().await?;
        }
        Ok(())
    }

    /// The PostgreSQL URL, where other instances may share the store.
    pub fn postgres_url(&self) -> Option<&str> {
        self.postgres.as_deref()
    }

    /// Sends `payload` to the instances that listen on `channel`
    /// (PostgreSQL; nothing on SQLite, which one instance serves).
    pub async fn notify(&self, channel: &str, payload: &str) -> Result<(), StoreError> {
        if self.postgres.is_some() {
            sqlx::query("SELECT pg_notify($1, $2)")
                .bind(channel)
                .bind(payload)
                .execute(&self.pool)
                .await?;
        }
        Ok(())
    }

    /// Whether the database answers.
    pub async fn ping(&self) -> bool {
        sqlx::query("SELECT 1").execute(&self.pool).await.is_ok()
    }

    /// A consistent copy of a running SQLite store (`VACUUM INTO`).
    pub async fn backup_to(&self, file: &Path) -> Result<(), StoreError> {
        if file.exists() {
            return Err(StoreError::Io(format!(
                "{}: exists already",
                file.display()
            )));
        }
        let target = file
            .to_str()
            .ok_or_else(|| StoreError::Io("a path in UTF-8".into()))?;
        // VACUUM INTO takes no bound parameter: the path is quoted.
        sqlx::query(&format!("VACUUM INTO '{}'", target.replace('\'', "''")))
            .execute(&self.pool)
            .await?;
        Ok(())
    }
}

/// The result and reason of an end entry.
fn end_of(body: &Body) -> Option<(EndResult, EndReason)> {
    match body {
        Body::End(end) => Some((end.result, end.reason)),
        _ => None,
    }
}

/// A game's stored result and end reason (their one name each), read back.
fn end_from_columns(
    game: &str,
    result: Option<String>,
    reason: Option<String>,
) -> Result<Option<(EndResult, EndReason)>, StoreError> {
    let damaged = |what: &str| StoreError::Damaged(format!("game {game}: {what}"));
    match result.zip(reason) {
        None => Ok(None),
        Some((result, reason)) => Ok(Some((
            result.parse().map_err(|_| damaged("result"))?,
            reason.parse().map_err(|_| damaged("end reason"))?,
        ))),
    }
}

/// A stored name (lowercase: names compare without case).
fn key(name: &str) -> String {
    name.to_lowercase()
}

#[cfg(test)]
mod tests;
