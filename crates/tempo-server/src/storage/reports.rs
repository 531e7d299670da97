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
    /// and clears the tournament's reports of other rounds, if the
    /// tournament is still at `version` (the one the report was checked
    /// against); `false` if it changed meanwhile (a pairing deleted, say),
    /// and nothing is stored. The version is held for the transaction
    /// (a row lock on PostgreSQL, the write lock on SQLite), so a change
    /// saved meanwhile, and the reports it clears after, come after the
    /// report.
    pub async fn put_report(
        &self,
        tournament: &str,
        version: i64,
        report: &Report,
    ) -> Result<bool, StoreError> {
        let mut tx = self.begin_write().await?;
        let held =
            sqlx::query("UPDATE tournaments SET version = version WHERE id = $1 AND version = $2")
                .bind(tournament)
                .bind(version)
                .execute(&mut *tx)
                .await?;
        if held.rows_affected() != 1 {
            tx.rollback().await?;
            return Ok(false);
        }
        sqlx::query("DELETE FROM tournament_reports WHERE tournament_id = $1 AND round <> $2")
            .bind(tournament)
            .bind(i64::from(report.round))
            .execute(&mut *tx)
            .await?;
        sqlx::query(
            "INSERT INTO tournament_reports
                (tournament_id, round, board, player, white, black, username, result, at)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
             ON CONFLICT (tournament_id, round, board, player)
             DO UPDATE SET white = $5, black = $6, username = $7, result = $8, at = $9",
        )
        .bind(tournament)
        .bind(i64::from(report.round))
        .bind(i64::from(report.board))
        .bind(i64::from(report.player))
        .bind(i64::from(report.white))
        .bind(i64::from(report.black))
        .bind(&report.username)
        .bind(&report.result)
        .bind(report.at as i64)
        .execute(&mut *tx)
        .await?;
        tx.commit().await?;
        Ok(true)
    }

    /// The reports of `round` of a tournament, by board and player.
    pub async fn reports(&self, tournament: &str, round: u32) -> Result<Vec<Report>, StoreError> {
        let rows = sqlx::query(
            "SELECT board, player, white, black, username, result, at FROM tournament_reports
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
                let at: i64 = r.try_get(6)?;
                Ok(Report {
                    round,
                    board: number(0)?,
                    player: number(1)?,
                    white: number(2)?,
                    black: number(3)?,
                    username: r.try_get(4)?,
                    result: r.try_get(5)?,
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
