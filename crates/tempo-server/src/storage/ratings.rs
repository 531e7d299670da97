//! Club ratings: which games are rated, each member's rating per variant
//! group and its history. A rated game is rated inside the transaction
//! that stores its end entry ([`apply_end`]), behind a per-game marker,
//! so that it is rated once and exactly once, whichever instance ends it.

use sqlx::Row;
use tempo_host::EndResult;

use super::{Store, StoreError, key};
use crate::domain::ratings::{HistoryEntry, RatedMember, RatingGroup, Standing, rate_game};
use tempo_rating::glicko2::Rating;

/// Marks `game` rated in `group` (in the transaction that creates it).
pub(super) async fn mark_rated(
    tx: &mut sqlx::Transaction<'_, sqlx::Any>,
    game: &str,
    group: RatingGroup,
) -> Result<(), StoreError> {
    sqlx::query("INSERT INTO rated_games (game_id, variant_group) VALUES ($1, $2)")
        .bind(game)
        .bind(group.as_str())
        .execute(&mut **tx)
        .await?;
    Ok(())
}

fn group_of(name: &str) -> Result<RatingGroup, StoreError> {
    RatingGroup::ALL
        .into_iter()
        .find(|g| g.as_str() == name)
        .ok_or_else(|| StoreError::Damaged(format!("rating group {name}")))
}

pub(super) fn standing_row(row: &sqlx::any::AnyRow, from: usize) -> Result<Standing, StoreError> {
    Ok(Standing {
        rating: Rating {
            rating: row.try_get(from)?,
            deviation: row.try_get(from + 1)?,
            volatility: row.try_get(from + 2)?,
        },
        games: row.try_get(from + 3)?,
        last: row.try_get(from + 4)?,
    })
}

/// Rates `game` if it is rated, not rated yet, and decided (an aborted
/// game, or one without a result, is not rated): both players' ratings in
/// its group and a history row each, in the transaction of its end entry.
pub(super) async fn apply_end(
    tx: &mut sqlx::Transaction<'_, sqlx::Any>,
    game: &str,
    result: EndResult,
    at: i64,
) -> Result<(), StoreError> {
    let EndResult::Decided(outcome) = result else {
        return Ok(());
    };
    // The marker: of two transactions ending the game, one claims it.
    let claimed =
        sqlx::query("UPDATE rated_games SET applied = 1 WHERE game_id = $1 AND applied = 0")
            .bind(game)
            .execute(&mut **tx)
            .await?;
    if claimed.rows_affected() != 1 {
        return Ok(());
    }
    let row = sqlx::query(
        "SELECT r.variant_group, g.white, g.black FROM rated_games r JOIN games g ON g.id = r.game_id
         WHERE r.game_id = $1",
    )
    .bind(game)
    .fetch_one(&mut **tx)
    .await?;
    let group = group_of(&row.try_get::<String, _>(0)?)?;
    let white: String = row.try_get(1)?;
    let black: String = row.try_get(2)?;
    // Each player's row exists and is locked (PostgreSQL: row locks, taken
    // in name order so that two games of the same two players cannot
    // deadlock; SQLite: the write lock) before it is read.
    let mut names = [white.as_str(), black.as_str()];
    names.sort_unstable();
    let start = Standing::new_member();
    for name in names {
        sqlx::query(
            "INSERT INTO ratings (user_name, variant_group, rating, rd, volatility, games)
             VALUES ($1, $2, $3, $4, $5, 0) ON CONFLICT (user_name, variant_group) DO NOTHING",
        )
        .bind(name)
        .bind(group.as_str())
        .bind(start.rating.rating)
        .bind(start.rating.deviation)
        .bind(start.rating.volatility)
        .execute(&mut **tx)
        .await?;
        sqlx::query("UPDATE ratings SET games = games WHERE user_name = $1 AND variant_group = $2")
            .bind(name)
            .bind(group.as_str())
            .execute(&mut **tx)
            .await?;
    }
    let mut before = Vec::with_capacity(2);
    for name in [&white, &black] {
        let row = sqlx::query(
            "SELECT rating, rd, volatility, games, last_game FROM ratings
             WHERE user_name = $1 AND variant_group = $2",
        )
        .bind(name)
        .bind(group.as_str())
        .fetch_one(&mut **tx)
        .await?;
        before.push(standing_row(&row, 0)?);
    }
    let (w, b) = (before[0], before[1]);
    let (w_after, b_after) = rate_game((w, b), outcome, at)
        .map_err(|e| StoreError::Damaged(format!("rating of game {game}: {e}")))?;
    for (name, was, now) in [(&white, w, w_after), (&black, b, b_after)] {
        sqlx::query(
            "UPDATE ratings SET rating = $1, rd = $2, volatility = $3, games = $4, last_game = $5
             WHERE user_name = $6 AND variant_group = $7",
        )
        .bind(now.rating.rating)
        .bind(now.rating.deviation)
        .bind(now.rating.volatility)
        .bind(now.games)
        .bind(now.last)
        .bind(name)
        .bind(group.as_str())
        .execute(&mut **tx)
        .await?;
        // "Before" is the rating as it stood when the game began to count:
        // its deviation grown by the days since the last game.
        let aged = was.at(at);
        sqlx::query(
            "INSERT INTO rating_history
             (game_id, user_name, variant_group, at, rating_before, rd_before, rating_after, rd_after, games)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)",
        )
        .bind(game)
        .bind(name)
        .bind(group.as_str())
        .bind(at)
        .bind(aged.rating)
        .bind(aged.deviation)
        .bind(now.rating.rating)
        .bind(now.rating.deviation)
        .bind(now.games)
        .execute(&mut **tx)
        .await?;
    }
    Ok(())
}

impl Store {
    /// Whether `game` is rated, and in which group.
    pub async fn rated_game(&self, game: &str) -> Result<Option<RatingGroup>, StoreError> {
        let row = sqlx::query("SELECT variant_group FROM rated_games WHERE game_id = $1")
            .bind(game)
            .fetch_optional(&self.pool)
            .await?;
        row.map(|r| group_of(&r.try_get::<String, _>(0)?))
            .transpose()
    }

    /// The rated members of `group`, highest rating first (then by name):
    /// `limit` from `offset`.
    pub async fn rating_list(
        &self,
        group: RatingGroup,
        limit: i64,
        offset: i64,
    ) -> Result<Vec<RatedMember>, StoreError> {
        let rows = sqlx::query(
            "SELECT COALESCE(u.display, r.user_name), r.rating, r.rd, r.volatility, r.games, r.last_game
             FROM ratings r LEFT JOIN users u ON u.name = r.user_name
             WHERE r.variant_group = $1 AND r.games > 0
             ORDER BY r.rating DESC, r.user_name LIMIT $2 OFFSET $3",
        )
        .bind(group.as_str())
        .bind(limit)
        .bind(offset)
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|r| {
                Ok(RatedMember {
                    name: r.try_get(0)?,
                    standing: standing_row(r, 1)?,
                })
            })
            .collect()
    }

    /// `user`'s standing in each group they have played rated games in.
    pub async fn member_ratings(
        &self,
        user: &str,
    ) -> Result<Vec<(RatingGroup, Standing)>, StoreError> {
        let rows = sqlx::query(
            "SELECT variant_group, rating, rd, volatility, games, last_game FROM ratings
             WHERE user_name = $1 AND games > 0",
        )
        .bind(key(user))
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|r| Ok((group_of(&r.try_get::<String, _>(0)?)?, standing_row(r, 1)?)))
            .collect()
    }

    /// `user`'s rated games in `group`, newest first: `limit` from `offset`.
    pub async fn rating_history(
        &self,
        user: &str,
        group: RatingGroup,
        limit: i64,
        offset: i64,
    ) -> Result<Vec<HistoryEntry>, StoreError> {
        let rows = sqlx::query(
            "SELECT game_id, at, rating_before, rd_before, rating_after, rd_after FROM rating_history
             WHERE user_name = $1 AND variant_group = $2
             ORDER BY games DESC LIMIT $3 OFFSET $4",
        )
        .bind(key(user))
        .bind(group.as_str())
        .bind(limit)
        .bind(offset)
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|r| {
                Ok(HistoryEntry {
                    game: r.try_get(0)?,
                    at: r.try_get(1)?,
                    before: (r.try_get(2)?, r.try_get(3)?),
                    after: (r.try_get(4)?, r.try_get(5)?),
                })
            })
            .collect()
    }
}
