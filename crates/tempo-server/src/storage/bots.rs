//! Bot accounts (the stored flag a member sets for good) and what the
//! lichess-shaped answers read of a member in one query; the games' chat.

use sqlx::Row;

use super::ratings::standing_row;
use super::{Store, StoreError, key};
use crate::domain::accounts::Role;
use crate::domain::ratings::{RatingGroup, Standing};

/// A member as the public profile shows them.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Profile {
    /// As registered.
    pub name: String,
    pub role: Role,
    /// The stored bot flag (tempo's own computer opponents are bots by
    /// their name: see `service::lichess::is_bot`).
    pub bot: bool,
    /// When the account was made (ms since the epoch).
    pub created: i64,
}

/// What upgrading an account to a bot came to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Upgrade {
    Done,
    NoSuchUser,
    AlreadyBot,
    /// The account has a game (lichess's rule: only a fresh account).
    HasPlayed,
}

/// A line of a game's chat as stored.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct StoredChatLine {
    pub room: String,
    pub username: String,
    pub text: String,
    pub at: i64,
}

/// A token as `POST /api/token/test` tells of it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct TokenInfo {
    /// The account's name as registered.
    pub user: String,
    /// The account's stored bot flag.
    pub bot: bool,
    /// When a leased token lapses (ms since the epoch).
    pub expires: Option<i64>,
}

/// Names asked about in one query at most (bound parameters).
const NAMES_A_QUERY: usize = 500;

impl Store {
    /// The member called `name` (any case).
    pub(crate) async fn profile(&self, name: &str) -> Result<Option<Profile>, StoreError> {
        let row = sqlx::query("SELECT display, role, bot, created FROM users WHERE name = $1")
            .bind(key(name))
            .fetch_optional(&self.pool)
            .await?;
        row.map(|row| {
            let role: String = row.try_get(1)?;
            Ok(Profile {
                name: row.try_get(0)?,
                role: role
                    .parse()
                    .map_err(|e: crate::domain::accounts::UnknownRole| {
                        StoreError::Damaged(e.to_string())
                    })?,
                bot: row.try_get::<i64, _>(2)? != 0,
                created: row.try_get(3)?,
            })
        })
        .transpose()
    }

    /// The member called `name` as registered, their stored bot flag and
    /// their standing in `group` (`None`: no rated game there), in one
    /// query; `None` if no account has the name.
    pub(crate) async fn light_user(
        &self,
        name: &str,
        group: RatingGroup,
    ) -> Result<Option<(String, bool, Option<Standing>)>, StoreError> {
        let row = sqlx::query(
            "SELECT u.display, u.bot, r.rating, r.rd, r.volatility, r.games, r.last_game
             FROM users u LEFT JOIN ratings r
               ON r.user_name = u.name AND r.variant_group = $2 AND r.games > 0
             WHERE u.name = $1",
        )
        .bind(key(name))
        .bind(group.as_str())
        .fetch_optional(&self.pool)
        .await?;
        let Some(row) = row else { return Ok(None) };
        let rated = row.try_get::<Option<i64>, _>(5)?.is_some();
        let standing = if rated {
            Some(standing_row(&row, 2)?)
        } else {
            None
        };
        Ok(Some((
            row.try_get(0)?,
            row.try_get::<i64, _>(1)? != 0,
            standing,
        )))
    }

    /// Which of `names` (any case) have the stored bot flag, as registered.
    pub(crate) async fn bots_among(&self, names: &[String]) -> Result<Vec<String>, StoreError> {
        let mut bots = Vec::new();
        for chunk in names.chunks(NAMES_A_QUERY) {
            let marks: Vec<String> = (1..=chunk.len()).map(|i| format!("${i}")).collect();
            let sql = format!(
                "SELECT display FROM users WHERE bot <> 0 AND name IN ({})",
                marks.join(", ")
            );
            let mut query = sqlx::query(&sql);
            for name in chunk {
                query = query.bind(key(name));
            }
            for row in query.fetch_all(&self.pool).await? {
                bots.push(row.try_get(0)?);
            }
        }
        Ok(bots)
    }

    /// Of the token hashes `hashes`, those that stand at `now`: each with
    /// its account's name as registered, bot flag and lease end (`None`:
    /// a personal token, which never expires).
    pub(crate) async fn tokens_info(
        &self,
        hashes: &[String],
        now: i64,
    ) -> Result<Vec<(String, TokenInfo)>, StoreError> {
        let mut found = Vec::new();
        for chunk in hashes.chunks(NAMES_A_QUERY) {
            let marks: Vec<String> = (2..=chunk.len() + 1).map(|i| format!("${i}")).collect();
            let sql = format!(
                "SELECT t.hash, u.display, u.bot, t.expires FROM tokens t
                 JOIN users u ON u.name = t.user_name
                 WHERE (t.expires IS NULL OR t.expires > $1) AND t.hash IN ({})",
                marks.join(", ")
            );
            let mut query = sqlx::query(&sql).bind(now);
            for hash in chunk {
                query = query.bind(hash);
            }
            for row in query.fetch_all(&self.pool).await? {
                found.push((
                    row.try_get(0)?,
                    TokenInfo {
                        user: row.try_get(1)?,
                        bot: row.try_get::<i64, _>(2)? != 0,
                        expires: row.try_get(3)?,
                    },
                ));
            }
        }
        Ok(found)
    }

    /// Makes `name`'s account a bot for good, if it is none yet and has
    /// no game: checked and set by one conditional statement (a check
    /// read first and a write after could both pass on PostgreSQL for two
    /// calls at once); a re-read tells why nothing changed.
    pub(crate) async fn make_bot(&self, name: &str) -> Result<Upgrade, StoreError> {
        let name = key(name);
        let changed = sqlx::query(
            "UPDATE users SET bot = 1 WHERE name = $1 AND bot = 0
             AND NOT EXISTS (SELECT 1 FROM games WHERE white = $1 OR black = $1)",
        )
        .bind(&name)
        .execute(&self.pool)
        .await?
        .rows_affected();
        if changed > 0 {
            return Ok(Upgrade::Done);
        }
        let Some(row) = sqlx::query("SELECT bot FROM users WHERE name = $1")
            .bind(&name)
            .fetch_optional(&self.pool)
            .await?
        else {
            return Ok(Upgrade::NoSuchUser);
        };
        Ok(if row.try_get::<i64, _>(0)? != 0 {
            Upgrade::AlreadyBot
        } else {
            Upgrade::HasPlayed
        })
    }

    /// Stores a chat line of `game` and keeps the newest `keep` of its
    /// room (one transaction).
    pub(crate) async fn add_chat_line(
        &self,
        game: &str,
        line: &StoredChatLine,
        keep: i64,
    ) -> Result<(), StoreError> {
        let mut tx = self.begin_write().await?;
        if self.postgres.is_some() {
            // One writer a game and room at a time, so that each line's
            // sequence number is one more than the last (SQLite has one
            // writer anyway).
            sqlx::query(
                "SELECT pg_advisory_xact_lock(hashtext('chat ' || $1::text || ' ' || $2::text))",
            )
            .bind(game)
            .bind(&line.room)
            .execute(&mut *tx)
            .await?;
        }
        sqlx::query(
            "INSERT INTO chat_lines (id, game_id, room, username, text, at, seq)
             SELECT $1, $2, $3, $4, $5, $6, COALESCE(MAX(seq), 0) + 1
             FROM chat_lines WHERE game_id = $2 AND room = $3",
        )
        .bind(crate::domain::random_id())
        .bind(game)
        .bind(&line.room)
        .bind(&line.username)
        .bind(&line.text)
        .bind(line.at)
        .execute(&mut *tx)
        .await?;
        sqlx::query(
            "DELETE FROM chat_lines WHERE game_id = $1 AND room = $2 AND seq NOT IN (
                SELECT seq FROM chat_lines WHERE game_id = $1 AND room = $2
                ORDER BY seq DESC LIMIT $3)",
        )
        .bind(game)
        .bind(&line.room)
        .bind(keep)
        .execute(&mut *tx)
        .await?;
        tx.commit().await?;
        Ok(())
    }

    /// The chat lines of `game`'s `room`, oldest first (at most `limit`,
    /// the newest).
    pub(crate) async fn chat_lines(
        &self,
        game: &str,
        room: &str,
        limit: i64,
    ) -> Result<Vec<StoredChatLine>, StoreError> {
        let rows = sqlx::query(
            "SELECT room, username, text, at FROM chat_lines WHERE game_id = $1 AND room = $2
             ORDER BY seq DESC LIMIT $3",
        )
        .bind(game)
        .bind(room)
        .bind(limit)
        .fetch_all(&self.pool)
        .await?;
        let mut lines = rows
            .iter()
            .map(|row| {
                Ok(StoredChatLine {
                    room: row.try_get(0)?,
                    username: row.try_get(1)?,
                    text: row.try_get(2)?,
                    at: row.try_get(3)?,
                })
            })
            .collect::<Result<Vec<_>, StoreError>>()?;
        lines.reverse();
        Ok(lines)
    }
}
