//! Games and their append-only logs (`events`). A game's result and end
//! reason are kept beside it, written in the transaction of its end entry.

use sqlx::Row;
use tempo_host::chain::{hex, unhex};
use tempo_host::{Body, EndReason, EndResult, Entry, Header, HostedGame, Sealed};

use super::{Store, StoreError, end_from_columns, end_of, key};

/// A finished game as the archive lists it.
#[derive(Debug, Clone)]
pub struct ArchivedGame {
    pub id: String,
    /// The players' names, lowercase.
    pub white: String,
    pub black: String,
    /// Milliseconds since the epoch.
    pub created: i64,
    /// The header of the game's first entry.
    pub header: Option<Header>,
    /// The result and end reason of its last end entry.
    pub end: Option<(EndResult, EndReason)>,
}

/// Entries of one game to append, and what becomes of its stored next
/// flag.
pub type Append<'a> = (&'a str, &'a [Entry], NextFlag);

/// What an append does to a game's stored next flag (the instant the sweep
/// of due flags looks at). The stored instant may be early — the sweep then
/// finds nothing due and stores the game's own — but never late, so an
/// append whose flag is no earlier than the stored one leaves it: most
/// appends then write no more than their entries.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NextFlag {
    /// The stored instant, as this instance last wrote it, is no later than
    /// the game's flag `next`, so it stays. On PostgreSQL another instance's
    /// sweep may have raised it meanwhile: there it is lowered to `next` if
    /// it is later (a conditional update that writes nothing in the usual
    /// case); SQLite has one instance, which knows every write.
    Keep { next: Option<u64> },
    /// Store this instant (`None`: no clock runs, or the game is over).
    Set(Option<u64>),
}

impl NextFlag {
    /// What an append after which the game's flag falls at `next` does,
    /// given the instant stored for it (`None`: not known here): it writes
    /// only when the flag now falls earlier than the stored instant, or
    /// when what is stored is unknown or says no flag at all.
    ///
    /// ```
    /// use tempo_server::store::NextFlag;
    /// let keep = NextFlag::Keep { next: Some(3_500) };
    /// assert_eq!(NextFlag::for_append(Some(Some(3_000)), Some(3_500)), keep);
    /// assert_eq!(NextFlag::for_append(Some(Some(3_000)), Some(2_900)), NextFlag::Set(Some(2_900)));
    /// ```
    pub fn for_append(stored: Option<Option<u64>>, next: Option<u64>) -> NextFlag {
        match (stored, next) {
            (Some(Some(stored)), Some(at)) if stored <= at => NextFlag::Keep { next },
            // Stored early or none: a sweep that looks finds nothing due
            // and stores the game's own.
            (Some(_), None) => NextFlag::Keep { next },
            _ => NextFlag::Set(next),
        }
    }
}

/// When the next flag of the game these entries make falls (a game
/// created with a running clock has one at once).
pub(super) fn next_flag_of(entries: &[Entry]) -> Option<u64> {
    HostedGame::replay(entries).ok()?.next_deadline()
}

/// Inserts a game's row (its first entry goes in beside it).
pub(super) async fn insert_game(
    tx: &mut sqlx::Transaction<'_, sqlx::Any>,
    game: &str,
    white: &str,
    black: &str,
    first: &Entry,
) -> Result<(), StoreError> {
    sqlx::query(
        "INSERT INTO games (id, white, black, created, next_flag) VALUES ($1, $2, $3, $4, $5)",
    )
    .bind(game)
    .bind(key(white))
    .bind(key(black))
    .bind(first.at as i64)
    .bind(next_flag_of(std::slice::from_ref(first)).map(|at| at as i64))
    .execute(&mut **tx)
    .await?;
    Ok(())
}

/// Inserts one entry, and with an end entry the game's result and reason.
pub(super) async fn insert_entry(
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
    if let Some((result, reason)) = end_of(&entry.body) {
        sqlx::query(
            "UPDATE games SET finished = 1, result = $1, reason = $2, next_flag = NULL WHERE id = $3",
        )
            .bind(result.as_str())
            .bind(reason.name())
            .bind(game)
            .execute(&mut **tx)
            .await?;
        super::ratings::apply_end(tx, game, result, entry.at as i64).await?;
    }
    Ok(())
}

pub(super) fn entry_from_row(row: &sqlx::any::AnyRow) -> Result<Entry, StoreError> {
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

impl Store {
    /// Creates a game with its first entry, in one transaction.
    pub async fn add_game(
        &self,
        white: &str,
        black: &str,
        first: &Entry,
        game: &str,
    ) -> Result<(), StoreError> {
        let mut tx = self.begin_write().await?;
        insert_game(&mut tx, game, white, black, first).await?;
        insert_entry(&mut tx, game, first).await?;
        tx.commit().await?;
        Ok(())
    }

    /// Appends entries of one game in one transaction (durable on return),
    /// and updates its next flag as `next_flag` says.
    pub async fn append(
        &self,
        game: &str,
        entries: &[Entry],
        next_flag: NextFlag,
    ) -> Result<(), StoreError> {
        self.append_batch(&[(game, entries, next_flag)]).await
    }

    /// Appends the entries of several games in one transaction (group
    /// commit: one sync to disk for all), each game's next flag with
    /// them (the sweep of due flags reads it); on PostgreSQL other
    /// instances are notified of each game at the commit.
    pub async fn append_batch(&self, batch: &[Append<'_>]) -> Result<(), StoreError> {
        if batch.iter().all(|(_, entries, _)| entries.is_empty()) {
            return Ok(());
        }
        let mut tx = self.begin_write().await?;
        for (game, entries, next_flag) in batch {
            if entries.is_empty() {
                continue;
            }
            for entry in *entries {
                insert_entry(&mut tx, game, entry).await?;
            }
            match *next_flag {
                NextFlag::Set(at) => {
                    sqlx::query("UPDATE games SET next_flag = $1 WHERE id = $2 AND finished = 0")
                        .bind(at.map(|at| at as i64))
                        .bind(*game)
                        .execute(&mut *tx)
                        .await?;
                }
                NextFlag::Keep { next: Some(at) } if self.postgres.is_some() => {
                    sqlx::query(
                        "UPDATE games SET next_flag = $1
                         WHERE id = $2 AND finished = 0 AND next_flag > $1",
                    )
                    .bind(at as i64)
                    .bind(*game)
                    .execute(&mut *tx)
                    .await?;
                }
                NextFlag::Keep { .. } => {}
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

    /// A game's players (lowercase names), if it exists.
    pub async fn game_players(&self, game: &str) -> Result<Option<(String, String)>, StoreError> {
        let row = sqlx::query("SELECT white, black FROM games WHERE id = $1")
            .bind(game)
            .fetch_optional(&self.pool)
            .await?;
        row.map(|r| Ok((r.try_get(0)?, r.try_get(1)?))).transpose()
    }

    /// The result and end reason of a game, once it has ended.
    pub async fn game_end(&self, game: &str) -> Result<Option<(EndResult, EndReason)>, StoreError> {
        let row = sqlx::query("SELECT result, reason FROM games WHERE id = $1")
            .bind(game)
            .fetch_optional(&self.pool)
            .await?;
        let Some(row) = row else { return Ok(None) };
        end_from_columns(game, row.try_get(0)?, row.try_get(1)?)
    }

    /// The ids of unfinished games: every one (oldest first), or those
    /// of `user` (newest first; ids only, as every game in play is in
    /// memory anyway).
    pub async fn unfinished_games(&self, user: Option<&str>) -> Result<Vec<String>, StoreError> {
        let rows = match user {
            Some(user) => {
                sqlx::query(
                    "SELECT id FROM games WHERE finished = 0 AND (white = $1 OR black = $1)
                     ORDER BY created DESC, id",
                )
                .bind(key(user))
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

    /// The ids of unfinished games, newest first: `limit` from `offset`
    /// (the lobby's games to watch).
    pub async fn running_games(&self, limit: i64, offset: i64) -> Result<Vec<String>, StoreError> {
        let rows = sqlx::query(
            "SELECT id FROM games WHERE finished = 0 ORDER BY created DESC, id LIMIT $1 OFFSET $2",
        )
        .bind(limit)
        .bind(offset)
        .fetch_all(&self.pool)
        .await?;
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

    /// Finished games, newest first (of `user` if given), `limit` from
    /// `offset`, each with its header and end: one row a game.
    pub async fn finished_games(
        &self,
        user: Option<&str>,
        limit: i64,
        offset: i64,
    ) -> Result<Vec<ArchivedGame>, StoreError> {
        let rows = sqlx::query(
            "SELECT g.id, g.white, g.black, g.created, g.result, g.reason, e.body
             FROM games g LEFT JOIN events e ON e.game_id = g.id AND e.seq = 0
             WHERE g.finished <> 0 AND ($1 = '' OR g.white = $1 OR g.black = $1)
             ORDER BY g.created DESC, g.id LIMIT $2 OFFSET $3",
        )
        .bind(key(user.unwrap_or("")))
        .bind(limit)
        .bind(offset)
        .fetch_all(&self.pool)
        .await?;
        rows.iter().map(archived_game).collect()
    }
}

fn archived_game(row: &sqlx::any::AnyRow) -> Result<ArchivedGame, StoreError> {
    let id: String = row.try_get(0)?;
    let first: Option<String> = row.try_get(6)?;
    let header = match first {
        Some(text) => match serde_json::from_str(&text) {
            Ok(Body::GameCreated(header)) => Some(header),
            Ok(_) => None,
            Err(e) => return Err(StoreError::Damaged(format!("game {id}: {e}"))),
        },
        None => None,
    };
    let end = end_from_columns(&id, row.try_get(4)?, row.try_get(5)?)?;
    Ok(ArchivedGame {
        white: row.try_get(1)?,
        black: row.try_get(2)?,
        created: row.try_get(3)?,
        header,
        end,
        id,
    })
}

#[cfg(test)]
mod next_flag_tests {
    use super::NextFlag;

    #[test]
    fn the_stored_flag_is_written_only_when_the_game_s_falls_earlier() {
        let keep = |stored, next| NextFlag::for_append(Some(stored), next);
        let kept = |next| NextFlag::Keep { next };
        assert_eq!(keep(Some(3_000), Some(3_500)), kept(Some(3_500)));
        assert_eq!(keep(Some(3_000), Some(3_000)), kept(Some(3_000)));
        assert_eq!(keep(Some(3_000), Some(2_900)), NextFlag::Set(Some(2_900)));
        assert_eq!(keep(None, Some(10)), NextFlag::Set(Some(10)));
        assert_eq!(keep(Some(3_000), None), kept(None));
        assert_eq!(keep(None, None), kept(None));
    }

    #[test]
    fn an_unknown_stored_flag_is_always_written() {
        assert_eq!(NextFlag::for_append(None, Some(5)), NextFlag::Set(Some(5)));
        assert_eq!(NextFlag::for_append(None, None), NextFlag::Set(None));
    }
}
