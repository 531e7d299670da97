//! Whether a file is a tempo store, before `tempo restore` installs it:
//! SQLite's integrity check, a schema this version of tempo can migrate,
//! and every table that schema has.

use std::collections::BTreeSet;
use std::path::Path;

use sqlx::sqlite::SqliteConnectOptions;
use sqlx::{ConnectOptions, Connection, Row};

use super::migrations::{MIGRATIONS, Migration};

/// Why a file is no tempo store to install.
#[derive(Debug, thiserror::Error)]
pub enum StoreFileError {
    #[error("not a SQLite database")]
    NotSqlite,
    #[error("SQLite's integrity check fails: {0}")]
    Damaged(String),
    #[error("a SQLite database, but not a tempo store ({0})")]
    NotTempo(String),
    #[error(
        "its schema (step {found}) is newer than this tempo's (step {known}): use the tempo that wrote it"
    )]
    Newer { found: usize, known: usize },
    #[error("database: {0}")]
    Database(#[from] sqlx::Error),
}

/// SQLite's result code for "file is not a database".
const SQLITE_NOTADB: &str = "26";

/// What a checked store file holds.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StoreFileSummary {
    /// Schema steps applied (the server applies the rest at its start).
    pub schema: usize,
    pub accounts: i64,
    pub games: i64,
}

/// Checks the SQLite file `file`. It is never migrated; a write-ahead log
/// beside it (`-wal`) is folded into it, so that the file alone holds the
/// store afterwards.
pub async fn check_store_file(file: &Path) -> Result<StoreFileSummary, StoreFileError> {
    let mut conn = SqliteConnectOptions::new()
        .filename(file)
        .create_if_missing(false)
        .connect()
        .await?;
    let mut result = check(&mut conn).await;
    if result.is_ok() {
        let folded = sqlx::query("PRAGMA wal_checkpoint(TRUNCATE)")
            .execute(&mut conn)
            .await;
        if let Err(e) = folded {
            result = Err(e.into());
        }
    }
    conn.close().await?;
    result
}

async fn check(conn: &mut sqlx::SqliteConnection) -> Result<StoreFileSummary, StoreFileError> {
    // At most a few messages: a damaged file can have thousands.
    let problems: Vec<String> = sqlx::query("PRAGMA integrity_check(5)")
        .fetch_all(&mut *conn)
        .await
        .map_err(|e| match e {
            sqlx::Error::Database(d) if d.code().as_deref() == Some(SQLITE_NOTADB) => {
                StoreFileError::NotSqlite
            }
            e => e.into(),
        })?
        .iter()
        .map(|row| row.try_get(0))
        .collect::<Result<_, _>>()?;
    if problems != ["ok"] {
        return Err(StoreFileError::Damaged(problems.join("; ")));
    }
    let tables: BTreeSet<String> =
        sqlx::query("SELECT name FROM sqlite_master WHERE type = 'table'")
            .fetch_all(&mut *conn)
            .await?
            .iter()
            .map(|row| row.try_get(0))
            .collect::<Result<_, _>>()?;
    if !tables.contains("tempo_schema") {
        return Err(StoreFileError::NotTempo("no table tempo_schema".into()));
    }
    let schema: i64 = sqlx::query("SELECT COUNT(*) FROM tempo_schema")
        .fetch_one(&mut *conn)
        .await?
        .try_get(0)?;
    let schema = usize::try_from(schema).unwrap_or(0);
    if schema == 0 {
        return Err(StoreFileError::NotTempo(
            "an empty table tempo_schema".into(),
        ));
    }
    if schema > MIGRATIONS.len() {
        return Err(StoreFileError::Newer {
            found: schema,
            known: MIGRATIONS.len(),
        });
    }
    let missing: Vec<&str> = expected_tables(schema)
        .into_iter()
        .filter(|table| !tables.contains(*table))
        .collect();
    if !missing.is_empty() {
        return Err(StoreFileError::NotTempo(format!(
            "tables missing: {}",
            missing.join(", ")
        )));
    }
    let count = |table: &str| format!("SELECT COUNT(*) FROM {table}");
    let accounts: i64 = sqlx::query(&count("users"))
        .fetch_one(&mut *conn)
        .await?
        .try_get(0)?;
    let games: i64 = sqlx::query(&count("games"))
        .fetch_one(&mut *conn)
        .await?
        .try_get(0)?;
    Ok(StoreFileSummary {
        schema,
        accounts,
        games,
    })
}

/// The tables the first `steps` migrations create, read from their SQL,
/// so that a new table is expected without a second list to keep.
fn expected_tables(steps: usize) -> Vec<&'static str> {
    let mut tables = Vec::new();
    for migration in MIGRATIONS.iter().take(steps) {
        let Migration::Sql(text) = migration else {
            continue;
        };
        let mut rest = *text;
        while let Some(at) = rest.find("CREATE TABLE ") {
            rest = &rest[at + "CREATE TABLE ".len()..];
            let end = rest
                .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                .unwrap_or(rest.len());
            tables.push(&rest[..end]);
        }
    }
    tables
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_expected_tables_come_from_the_migrations() {
        let first = expected_tables(1);
        for table in [
            "users",
            "tokens",
            "challenges",
            "games",
            "events",
            "server_keys",
        ] {
            assert!(first.contains(&table), "{table} in {first:?}");
        }
        assert!(!first.contains(&"sessions"));
        let all = expected_tables(MIGRATIONS.len());
        for table in ["sessions", "tournaments", "tournament_games"] {
            assert!(all.contains(&table), "{table} in {all:?}");
        }
        assert!(all.iter().all(|t| !t.is_empty()));
    }

    fn temp_file(name: &str) -> std::path::PathBuf {
        std::env::temp_dir().join(format!(
            "tempo-check-{name}-{}-{:x}",
            std::process::id(),
            rand::random::<u64>()
        ))
    }

    #[tokio::test]
    async fn a_tempo_store_passes_and_other_files_do_not() {
        let dir = temp_file("store");
        let store = crate::storage::Store::open_dir(&dir).await.unwrap();
        let copy = temp_file("copy.sqlite");
        store.backup_to(&copy).await.unwrap();
        let summary = check_store_file(&copy).await.unwrap();
        assert_eq!(summary.schema, MIGRATIONS.len());
        assert_eq!((summary.accounts, summary.games), (0, 0));

        let text = temp_file("text");
        std::fs::write(
            &text,
            "not a database at all, just some text to read".repeat(100),
        )
        .unwrap();
        let err = check_store_file(&text).await.unwrap_err();
        assert!(matches!(err, StoreFileError::NotSqlite), "{err}");

        // A SQLite database, but not tempo's.
        let other = temp_file("other.sqlite");
        let mut conn = SqliteConnectOptions::new()
            .filename(&other)
            .create_if_missing(true)
            .connect()
            .await
            .unwrap();
        sqlx::query("CREATE TABLE notes (body TEXT)")
            .execute(&mut conn)
            .await
            .unwrap();
        conn.close().await.unwrap();
        let err = check_store_file(&other).await.unwrap_err().to_string();
        assert!(err.contains("not a tempo store"), "{err}");

        // A tempo store with a table gone.
        let mut conn = SqliteConnectOptions::new()
            .filename(&copy)
            .connect()
            .await
            .unwrap();
        sqlx::query("DROP TABLE tournament_games")
            .execute(&mut conn)
            .await
            .unwrap();
        conn.close().await.unwrap();
        let err = check_store_file(&copy).await.unwrap_err().to_string();
        assert!(err.contains("tournament_games"), "{err}");

        assert!(check_store_file(&temp_file("missing")).await.is_err());
        for file in [copy, text, other] {
            std::fs::remove_file(file).unwrap();
        }
        std::fs::remove_dir_all(dir).unwrap();
    }
}
