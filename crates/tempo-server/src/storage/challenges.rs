//! Challenges, and the accept that closes one and starts its game in one
//! transaction.

use sqlx::Row;
use tempo_host::Entry;

use super::games::{insert_entry, insert_game};
use super::{Store, StoreError, key};
use crate::domain::challenges::{Challenge, ChallengeStatus, ColorChoice};

/// The columns [`challenge_row`] reads, in its order.
macro_rules! columns {
    () => {
        "id, challenger, dest, spec, color, status, game_id"
    };
}

fn challenge_row(row: &sqlx::any::AnyRow) -> Result<Challenge, StoreError> {
    let id: String = row.try_get(0)?;
    let damaged = |what: &str| StoreError::Damaged(format!("challenge {id}: {what}"));
    let spec: String = row.try_get(3)?;
    let color: String = row.try_get(4)?;
    let status: String = row.try_get(5)?;
    Ok(Challenge {
        challenger: row.try_get(1)?,
        dest: row.try_get(2)?,
        spec: serde_json::from_str(&spec).map_err(|e| damaged(&e.to_string()))?,
        color: ColorChoice::from_name(&color).ok_or_else(|| damaged("color"))?,
        status: ChallengeStatus::from_name(&status).ok_or_else(|| damaged("status"))?,
        game_id: row.try_get(6)?,
        id,
    })
}

impl Store {
    /// Stores a new challenge.
    pub async fn add_challenge(&self, c: &Challenge, now: i64) -> Result<(), StoreError> {
        let spec = serde_json::to_string(&c.spec).expect("a spec serialises");
        sqlx::query(
            "INSERT INTO challenges (id, challenger, dest, spec, color, status, created)
             VALUES ($1, $2, $3, $4, $5, $6, $7)",
        )
        .bind(&c.id)
        .bind(key(&c.challenger))
        .bind(key(&c.dest))
        .bind(spec)
        .bind(c.color.as_str())
        .bind(c.status.as_str())
        .bind(now)
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    /// The challenge `id`.
    pub async fn challenge(&self, id: &str) -> Result<Option<Challenge>, StoreError> {
        let row = sqlx::query(concat!(
            "SELECT ",
            columns!(),
            " FROM challenges WHERE id = $1"
        ))
        .bind(id)
        .fetch_optional(&self.pool)
        .await?;
        row.as_ref().map(challenge_row).transpose()
    }

    /// Open challenges from or to `user`, oldest first (at most 200).
    pub async fn open_challenges(&self, user: &str) -> Result<Vec<Challenge>, StoreError> {
        let rows = sqlx::query(concat!(
            "SELECT ",
            columns!(),
            " FROM challenges
             WHERE status = 'open' AND (challenger = $1 OR dest = $1) ORDER BY created LIMIT 200"
        ))
        .bind(key(user))
        .fetch_all(&self.pool)
        .await?;
        rows.iter().map(challenge_row).collect()
    }

    /// How many open challenges `user` has sent.
    pub async fn open_challenges_from(&self, user: &str) -> Result<i64, StoreError> {
        Ok(
            sqlx::query(
                "SELECT COUNT(*) FROM challenges WHERE status = 'open' AND challenger = $1",
            )
            .bind(key(user))
            .fetch_one(&self.pool)
            .await?
            .try_get(0)?,
        )
    }

    /// Moves an open challenge to `status`; `false` if it was no longer
    /// open (two answers at once: one wins).
    pub async fn close_challenge(
        &self,
        id: &str,
        status: ChallengeStatus,
    ) -> Result<bool, StoreError> {
        let result =
            sqlx::query("UPDATE challenges SET status = $1 WHERE id = $2 AND status = 'open'")
                .bind(status.as_str())
                .bind(id)
                .execute(&self.pool)
                .await?;
        Ok(result.rows_affected() == 1)
    }

    /// Accepts an open challenge and creates its game with the first
    /// entry, in one transaction; `false` (and nothing stored) if the
    /// challenge was no longer open.
    pub async fn accept_challenge(
        &self,
        id: &str,
        game: &str,
        (white, black): (&str, &str),
        first: &Entry,
    ) -> Result<bool, StoreError> {
        let mut tx = self.pool.begin().await?;
        let closed = sqlx::query(
            "UPDATE challenges SET status = $1, game_id = $2 WHERE id = $3 AND status = 'open'",
        )
        .bind(ChallengeStatus::Accepted.as_str())
        .bind(game)
        .bind(id)
        .execute(&mut *tx)
        .await?;
        if closed.rows_affected() != 1 {
            return Ok(false);
        }
        insert_game(&mut tx, game, white, black, first).await?;
        insert_entry(&mut tx, game, first).await?;
        tx.commit().await?;
        Ok(true)
    }
}
