//! The players' reports of their boards' results (issue #26): one row a
//! player and board, kept until the board's result enters (then the
//! board's rows go) and only for a tournament's current round (a report
//! stored clears the other rounds' rows), so that the table stays as
//! small as the boards waiting for a result.

use sqlx::Row;

use super::{Store, StoreError};
use crate::domain::tournaments::Report;

impl Store {
    /// Stores `report`, replacing the player's earlier one of the board,
    /// and clears the tournament's reports of other rounds.
    pub async fn put_report(&self, tournament: &str, report: &Report) -> Result<(), StoreError> {
        let mut tx = self.pool.begin().await?;
        sqlx::query("DELETE FROM tournament_reports WHERE tournament_id = $1 AND round <> $2")
            .bind(tournament)
            .bind(i64::from(report.round))
            .execute(&mut *tx)
            .await?;
        sqlx::query(
            "INSERT INTO tournament_reports (tournament_id, round, board, player, username, result, at)
             VALUES ($1, $2, $3, $4, $5, $6, $7)
             ON CONFLICT (tournament_id, round, board, player)
             DO UPDATE SET username = $5, result = $6, at = $7",
        )
        .bind(tournament)
        .bind(i64::from(report.round))
        .bind(i64::from(report.board))
        .bind(i64::from(report.player))
        .bind(&report.username)
        .bind(&report.result)
        .bind(report.at as i64)
        .execute(&mut *tx)
        .await?;
        tx.commit().await?;
        Ok(())
    }

    /// The reports of `round` of a tournament, by board and player.
    pub async fn reports(&self, tournament: &str, round: u32) -> Result<Vec<Report>, StoreError> {
        let rows = sqlx::query(
            "SELECT board, player, username, result, at FROM tournament_reports
             WHERE tournament_id = $1 AND round = $2 ORDER BY board, player",
        )
        .bind(tournament)
        .bind(i64::from(round))
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|r| {
                let number = |i: usize| -> Result<u32, StoreError> {
                    let n: i64 = r.try_get(i)?;
                    u32::try_from(n).map_err(|_| StoreError::Damaged(format!("report: number {n}")))
                };
                let at: i64 = r.try_get(4)?;
                Ok(Report {
                    round,
                    board: number(0)?,
                    player: number(1)?,
                    username: r.try_get(2)?,
                    result: r.try_get(3)?,
                    at: at.max(0) as u64,
                })
            })
            .collect()
    }

    /// Clears the reports of a board (its result entered), or of every
    /// board of the round with `board` `None` (its pairing deleted).
    pub async fn clear_reports(
        &self,
        tournament: &str,
        round: u32,
        board: Option<u32>,
    ) -> Result<(), StoreError> {
        let query = match board {
            Some(_) => {
                "DELETE FROM tournament_reports WHERE tournament_id = $1 AND round = $2 AND board = $3"
            }
            None => "DELETE FROM tournament_reports WHERE tournament_id = $1 AND round = $2",
        };
        let mut q = sqlx::query(query).bind(tournament).bind(i64::from(round));
        if let Some(board) = board {
            q = q.bind(i64::from(board));
        }
        q.execute(&self.pool).await?;
        Ok(())
    }
}
