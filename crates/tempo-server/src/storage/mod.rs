//! Durable storage: accounts, API tokens, challenges, games and their
//! append-only logs, the server key. One SQL dialect for SQLite (the
//! default, a file in the data directory) and PostgreSQL, through sqlx's
//! `Any` driver; the schema is embedded and applied at start.

use std::path::Path;
use std::str::FromStr;

use sqlx::any::{AnyPoolOptions, install_default_drivers};
use sqlx::{AnyPool, Row};
use tempo_host::chain::{hex, unhex};
use tempo_host::{Body, Entry, Sealed};

use crate::auth::{Role, User};

/// A storage failure (the server answers 500 and logs it).
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

/// The embedded schema, in order; each is applied once (`tempo_schema`).
const MIGRATIONS: &[&str] = &[
    "CREATE TABLE users (
        name TEXT PRIMARY KEY,
        display TEXT NOT NULL,
        password TEXT NOT NULL,
        role TEXT NOT NULL,
        created BIGINT NOT NULL
    );
    CREATE TABLE tokens (
        hash TEXT PRIMARY KEY,
        user_name TEXT NOT NULL REFERENCES users(name),
        created BIGINT NOT NULL
    );
    CREATE TABLE challenges (
        id TEXT PRIMARY KEY,
        challenger TEXT NOT NULL REFERENCES users(name),
        dest TEXT NOT NULL REFERENCES users(name),
        spec TEXT NOT NULL,
        color TEXT NOT NULL,
        status TEXT NOT NULL,
        game_id TEXT,
        created BIGINT NOT NULL
    );
    CREATE TABLE games (
        id TEXT PRIMARY KEY,
        white TEXT NOT NULL,
        black TEXT NOT NULL,
        finished BIGINT NOT NULL DEFAULT 0,
        created BIGINT NOT NULL
    );
    CREATE TABLE events (
        game_id TEXT NOT NULL REFERENCES games(id),
        seq BIGINT NOT NULL,
        prev TEXT NOT NULL,
        hash TEXT NOT NULL,
        at BIGINT NOT NULL,
        body TEXT NOT NULL,
        sealed TEXT,
        PRIMARY KEY (game_id, seq)
    );
    CREATE TABLE server_keys (
        id BIGINT PRIMARY KEY,
        seed TEXT NOT NULL
    );",
    "CREATE TABLE sessions (
        hash TEXT PRIMARY KEY,
        user_name TEXT NOT NULL REFERENCES users(name),
        csrf TEXT NOT NULL,
        expires BIGINT NOT NULL
    );",
    // Club tournaments (crate::tournaments): each one's TRF and settings.
    "CREATE TABLE tournaments (
        id TEXT PRIMARY KEY,
        name TEXT NOT NULL,
        system TEXT NOT NULL,
        trf TEXT NOT NULL,
        settings TEXT NOT NULL,
        version BIGINT NOT NULL,
        created BIGINT NOT NULL
    );
    CREATE TABLE tournament_games (
        game_id TEXT PRIMARY KEY REFERENCES games(id),
        tournament_id TEXT NOT NULL REFERENCES tournaments(id),
        round BIGINT NOT NULL,
        board BIGINT NOT NULL
    );",
];

/// The columns [`challenge_row`] reads, in its order.
const CHALLENGE_COLUMNS: &str = "id, challenger, dest, spec, color, status, game_id";

fn challenge_row(row: &sqlx::any::AnyRow) -> Result<ChallengeRow, StoreError> {
    Ok(ChallengeRow {
        id: row.try_get(0)?,
        challenger: row.try_get(1)?,
        dest: row.try_get(2)?,
        spec: row.try_get(3)?,
        color: row.try_get(4)?,
        status: row.try_get(5)?,
        game_id: row.try_get(6)?,
    })
}

/// The store the server runs on.
#[derive(Debug, Clone)]
pub struct Store {
    pub(crate) pool: AnyPool,
    /// The PostgreSQL URL, for notifications between instances.
    postgres: Option<String>,
}

/// A challenge as stored.
#[derive(Debug, Clone)]
pub struct ChallengeRow {
    pub id: String,
    pub challenger: String,
    pub dest: String,
    pub spec: String,
    pub color: String,
    pub status: String,
    pub game_id: Option<String>,
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
        let store = Store { pool, postgres };
        store.migrate().await?;
        Ok(store)
    }

    async fn migrate(&self) -> Result<(), StoreError> {
        sqlx::query("CREATE TABLE IF NOT EXISTS tempo_schema (version BIGINT PRIMARY KEY)")
            .execute(&self.pool)
            .await?;
        let done: i64 = sqlx::query("SELECT COUNT(*) FROM tempo_schema")
            .fetch_one(&self.pool)
            .await?
            .try_get(0)?;
        for (version, migration) in MIGRATIONS.iter().enumerate().skip(done as usize) {
            let mut tx = self.pool.begin().await?;
            for statement in migration.split(';').filter(|s| !s.trim().is_empty()) {
                sqlx::query(statement).execute(&mut *tx).await?;
            }
            sqlx::query("INSERT INTO tempo_schema (version) VALUES ($1)")
                .bind(version as i64 + 1)
                .execute(&mut *tx)
                .await?;
            tx.commit().await?;
        }
        Ok(())
    }

    // ----- accounts -----

    /// Adds a user; `false` if the name is taken.
    pub async fn add_user(
        &self,
        user: &User,
        password_hash: &str,
        now: i64,
    ) -> Result<bool, StoreError> {
        let result = sqlx::query(
            "INSERT INTO users (name, display, password, role, created) VALUES ($1, $2, $3, $4, $5)
             ON CONFLICT (name) DO NOTHING",
        )
        .bind(user.name.to_lowercase())
        .bind(&user.name)
        .bind(password_hash)
        .bind(user.role.as_str())
        .bind(now)
        .execute(&self.pool)
        .await?;
        Ok(result.rows_affected() == 1)
    }

    /// The user called `name` (any case) and their password hash.
    pub async fn user(&self, name: &str) -> Result<Option<(User, String)>, StoreError> {
        let row = sqlx::query("SELECT display, role, password FROM users WHERE name = $1")
            .bind(name.to_lowercase())
            .fetch_optional(&self.pool)
            .await?;
        row.map(|row| {
            let role: String = row.try_get(1)?;
            let role = Role::from_str(&role).map_err(StoreError::Damaged)?;
            Ok((
                User {
                    name: row.try_get(0)?,
                    role,
                },
                row.try_get(2)?,
            ))
        })
        .transpose()
    }

    pub async fn user_count(&self) -> Result<i64, StoreError> {
        Ok(sqlx::query("SELECT COUNT(*) FROM users")
            .fetch_one(&self.pool)
            .await?
            .try_get(0)?)
    }

    /// Stores a token by its hash.
    pub async fn add_token(&self, hash: &str, user: &str, now: i64) -> Result<(), StoreError> {
        sqlx::query("INSERT INTO tokens (hash, user_name, created) VALUES ($1, $2, $3)")
            .bind(hash)
            .bind(user.to_lowercase())
            .bind(now)
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    /// The user whose token has this hash.
    pub async fn token_user(&self, hash: &str) -> Result<Option<User>, StoreError> {
        let row = sqlx::query("SELECT user_name FROM tokens WHERE hash = $1")
            .bind(hash)
            .fetch_optional(&self.pool)
            .await?;
        match row {
            None => Ok(None),
            Some(row) => {
                let name: String = row.try_get(0)?;
                Ok(self.user(&name).await?.map(|(user, _)| user))
            }
        }
    }

    /// Revokes a token; whether it existed.
    pub async fn revoke_token(&self, hash: &str) -> Result<bool, StoreError> {
        let result = sqlx::query("DELETE FROM tokens WHERE hash = $1")
            .bind(hash)
            .execute(&self.pool)
            .await?;
        Ok(result.rows_affected() > 0)
    }

    /// Stores a browser session by the hash of its id.
    pub async fn add_session(
        &self,
        hash: &str,
        user: &str,
        csrf: &str,
        expires: i64,
    ) -> Result<(), StoreError> {
        sqlx::query("DELETE FROM sessions WHERE expires < $1")
            .bind(expires - crate::auth::SESSION_TTL.as_millis() as i64)
            .execute(&self.pool)
            .await?;
        sqlx::query(
            "INSERT INTO sessions (hash, user_name, csrf, expires) VALUES ($1, $2, $3, $4)",
        )
        .bind(hash)
        .bind(user.to_lowercase())
        .bind(csrf)
        .bind(expires)
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    /// The user and CSRF token of a session not expired at `now`.
    pub async fn session(
        &self,
        hash: &str,
        now: i64,
    ) -> Result<Option<(User, String)>, StoreError> {
        let row =
            sqlx::query("SELECT user_name, csrf FROM sessions WHERE hash = $1 AND expires > $2")
                .bind(hash)
                .bind(now)
                .fetch_optional(&self.pool)
                .await?;
        let Some(row) = row else {
            return Ok(None);
        };
        let (name, csrf): (String, String) = (row.try_get(0)?, row.try_get(1)?);
        Ok(self.user(&name).await?.map(|(user, _)| (user, csrf)))
    }

    /// Ends a session.
    pub async fn delete_session(&self, hash: &str) -> Result<(), StoreError> {
        sqlx::query("DELETE FROM sessions WHERE hash = $1")
            .bind(hash)
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    // ----- challenges -----

    pub async fn add_challenge(&self, c: &ChallengeRow, now: i64) -> Result<(), StoreError> {
        sqlx::query(
            "INSERT INTO challenges (id, challenger, dest, spec, color, status, created)
             VALUES ($1, $2, $3, $4, $5, $6, $7)",
        )
        .bind(&c.id)
        .bind(c.challenger.to_lowercase())
        .bind(c.dest.to_lowercase())
        .bind(&c.spec)
        .bind(&c.color)
        .bind(&c.status)
        .bind(now)
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    pub async fn challenge(&self, id: &str) -> Result<Option<ChallengeRow>, StoreError> {
        let row = sqlx::query(&format!(
            "SELECT {CHALLENGE_COLUMNS} FROM challenges WHERE id = $1"
        ))
        .bind(id)
        .fetch_optional(&self.pool)
        .await?;
        row.as_ref().map(challenge_row).transpose()
    }

    /// Open challenges from or to `user`, oldest first (at most 200).
    pub async fn open_challenges(&self, user: &str) -> Result<Vec<ChallengeRow>, StoreError> {
        let rows = sqlx::query(&format!(
            "SELECT {CHALLENGE_COLUMNS} FROM challenges
             WHERE status = 'open' AND (challenger = $1 OR dest = $1) ORDER BY created LIMIT 200"
        ))
        .bind(user.to_lowercase())
        .fetch_all(&self.pool)
        .await?;
        rows.iter().map(challenge_row).collect()
    }

    /// Moves an open challenge to `status` (with its game); `false` if it
    /// was no longer open (two accepts: one wins).
    pub async fn close_challenge(
        &self,
        id: &str,
        status: &str,
        game: Option<&str>,
    ) -> Result<bool, StoreError> {
        let result = sqlx::query(
            "UPDATE challenges SET status = $1, game_id = $2 WHERE id = $3 AND status = 'open'",
        )
        .bind(status)
        .bind(game)
        .bind(id)
        .execute(&self.pool)
        .await?;
        Ok(result.rows_affected() == 1)
    }

    // ----- games -----

    /// Creates a game with its first entry, in one transaction.
    pub async fn add_game(
        &self,
        white: &str,
        black: &str,
        first: &Entry,
        game: &str,
    ) -> Result<(), StoreError> {
        let mut tx = self.pool.begin().await?;
        sqlx::query("INSERT INTO games (id, white, black, created) VALUES ($1, $2, $3, $4)")
            .bind(game)
            .bind(white.to_lowercase())
            .bind(black.to_lowercase())
            .bind(first.at as i64)
            .execute(&mut *tx)
            .await?;
        insert_entry(&mut tx, game, first).await?;
        tx.commit().await?;
        Ok(())
    }

    /// Appends entries of one game in one transaction (durable on return).
    pub async fn append(&self, game: &str, entries: &[Entry]) -> Result<(), StoreError> {
        self.append_batch(&[(game, entries)]).await
    }

    /// Appends the entries of several games in one transaction (group
    /// commit: one sync to disk for all); on PostgreSQL other instances
    /// are notified of each game at the commit.
    pub async fn append_batch(&self, batch: &[(&str, &[Entry])]) -> Result<(), StoreError> {
        if batch.iter().all(|(_, entries)| entries.is_empty()) {
            return Ok(());
        }
        let mut tx = self.pool.begin().await?;
        for (game, entries) in batch {
            for entry in *entries {
                insert_entry(&mut tx, game, entry).await?;
                if matches!(entry.body, Body::End { .. }) {
                    sqlx::query("UPDATE games SET finished = 1 WHERE id = $1")
                        .bind(*game)
                        .execute(&mut *tx)
                        .await?;
                }
            }
            if self.postgres.is_some() {
                sqlx::query("SELECT pg_notify('tempo_events', $1)")
                    .bind(*game)
                    .execute(&mut *tx)
                    .await?;
            }
        }
        tx.commit().await?;
        Ok(())
    }

    /// The connection pool (for the tournaments' own queries).
    pub(crate) fn pool(&self) -> &AnyPool {
        &self.pool
    }

    /// The PostgreSQL URL, where other instances may share the store.
    pub fn postgres_url(&self) -> Option<&str> {
        self.postgres.as_deref()
    }

    /// A game's players (lowercase names), if it exists.
    pub async fn game_players(&self, game: &str) -> Result<Option<(String, String)>, StoreError> {
        let row = sqlx::query("SELECT white, black FROM games WHERE id = $1")
            .bind(game)
            .fetch_optional(&self.pool)
            .await?;
        row.map(|r| Ok((r.try_get(0)?, r.try_get(1)?))).transpose()
    }

    /// The ids of unfinished games: every one (oldest first), or those
    /// of `user` (newest first, at most 500).
    pub async fn unfinished_games(&self, user: Option<&str>) -> Result<Vec<String>, StoreError> {
        let rows = match user {
            Some(user) => {
                sqlx::query(
                    "SELECT id FROM games WHERE finished = 0 AND (white = $1 OR black = $1)
                     ORDER BY created DESC LIMIT 500",
                )
                .bind(user.to_lowercase())
                .fetch_all(&self.pool)
                .await?
            }
            None => {
                sqlx::query("SELECT id FROM games WHERE finished = 0 ORDER BY created")
                    .fetch_all(&self.pool)
                    .await?
            }
        };
        rows.iter().map(|r| Ok(r.try_get(0)?)).collect()
    }

    /// The last stored seq of a game.
    pub async fn last_seq(&self, game: &str) -> Result<Option<u64>, StoreError> {
        let row = sqlx::query("SELECT MAX(seq) FROM events WHERE game_id = $1")
            .bind(game)
            .fetch_one(&self.pool)
            .await?;
        let seq: Option<i64> = row.try_get(0)?;
        Ok(seq.map(|s| s as u64))
    }

    /// Every entry of a game, in order.
    pub async fn entries(&self, game: &str) -> Result<Vec<Entry>, StoreError> {
        let rows = sqlx::query(
            "SELECT seq, prev, hash, at, body, sealed FROM events WHERE game_id = $1 ORDER BY seq",
        )
        .bind(game)
        .fetch_all(&self.pool)
        .await?;
        rows.iter().map(entry_from_row).collect()
    }

    /// The server's ed25519 seed: made once, the same for every instance
    /// on this database.
    pub async fn server_seed(&self) -> Result<[u8; 32], StoreError> {
        let fresh: [u8; 32] = rand::random();
        sqlx::query(
            "INSERT INTO server_keys (id, seed) VALUES (1, $1) ON CONFLICT (id) DO NOTHING",
        )
        .bind(hex(&fresh))
        .execute(&self.pool)
        .await?;
        let seed: String = sqlx::query("SELECT seed FROM server_keys WHERE id = 1")
            .fetch_one(&self.pool)
            .await?
            .try_get(0)?;
        unhex::<32>(&seed).ok_or_else(|| StoreError::Damaged("the server key".into()))
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
        sqlx::query(&format!("VACUUM INTO '{}'", target.replace('\'', "''")))
            .execute(&self.pool)
            .await?;
        Ok(())
    }
}

async fn insert_entry(
    tx: &mut sqlx::Transaction<'_, sqlx::Any>,
    game: &str,
    entry: &Entry,
) -> Result<(), StoreError> {
    let body = serde_json::to_string(&entry.body).expect("bodies serialise");
    let sealed = entry
        .sealed
        .as_ref()
        .map(|s| serde_json::to_string(s).expect("seals serialise"));
    sqlx::query(
        "INSERT INTO events (game_id, seq, prev, hash, at, body, sealed) VALUES ($1, $2, $3, $4, $5, $6, $7)",
    )
    .bind(game)
    .bind(entry.seq as i64)
    .bind(hex(&entry.prev))
    .bind(hex(&entry.hash))
    .bind(entry.at as i64)
    .bind(body)
    .bind(sealed)
    .execute(&mut **tx)
    .await
    .map_err(|e| match &e {
        sqlx::Error::Database(db) if db.is_unique_violation() => StoreError::SeqTaken {
            game: game.to_string(),
            seq: entry.seq,
        },
        _ => StoreError::Database(e),
    })?;
    Ok(())
}

fn entry_from_row(row: &sqlx::any::AnyRow) -> Result<Entry, StoreError> {
    let damaged = |what: &str| StoreError::Damaged(what.to_string());
    let seq: i64 = row.try_get(0)?;
    let prev: String = row.try_get(1)?;
    let hash: String = row.try_get(2)?;
    let at: i64 = row.try_get(3)?;
    let body: String = row.try_get(4)?;
    let sealed: Option<String> = row.try_get(5)?;
    Ok(Entry {
        seq: seq as u64,
        prev: unhex::<32>(&prev).ok_or_else(|| damaged("prev"))?,
        hash: unhex::<32>(&hash).ok_or_else(|| damaged("hash"))?,
        at: at as u64,
        body: serde_json::from_str(&body).map_err(|e| damaged(&format!("body: {e}")))?,
        sealed: sealed
            .map(|s| serde_json::from_str::<Sealed>(&s))
            .transpose()
            .map_err(|e| damaged(&format!("sealed: {e}")))?,
    })
}
