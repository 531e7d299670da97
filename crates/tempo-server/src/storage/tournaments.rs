//! The tournaments' tables: each tournament's TRF and settings with a
//! version (a change is stored only over the version it was made from,
//! so that two instances cannot lose each other's changes), and the
//! server games of online boards.

use sqlx::Row;
use tempo_host::Entry;

use super::games::{insert_entry, insert_game};
use super::ratings::mark_rated;
use super::{Store, StoreError};
use crate::domain::ratings::RatingGroup;
use crate::domain::tournaments::{MAX_TOURNAMENTS, Record};

/// One line of the list of tournaments.
#[derive(Debug, Clone)]
pub struct TournamentSummary {
    pub id: String,
    pub name: String,
    /// The pairing system's name.
    pub system: String,
    /// Milliseconds since the epoch.
    pub created: i64,
}

/// Where an online board's game belongs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GameLink {
    pub tournament: String,
    pub round: u32,
    pub board: u32,
}

/// A tournament as stored: its TRF and settings texts (checked by
/// [`Record::to_texts`]) and its name and system for the list.
pub struct TournamentTexts<'a> {
    pub name: &'a str,
    pub system: &'a str,
    pub trf: &'a str,
    pub settings: &'a str,
}

impl Store {
    /// Stores a new tournament; `false` if the server holds the most
    /// already (counted and inserted in one transaction).
    pub async fn insert_tournament(
        &self,
        id: &str,
        texts: &TournamentTexts<'_>,
        now: i64,
    ) -> Result<bool, StoreError> {
        let mut tx = self.begin_write().await?;
        let count: i64 = sqlx::query("SELECT COUNT(*) FROM tournaments")
            .fetch_one(&mut *tx)
            .await?
            .try_get(0)?;
        if count >= MAX_TOURNAMENTS {
            return Ok(false);
        }
        sqlx::query(
            "INSERT INTO tournaments (id, name, system, trf, settings, version, created)
             VALUES ($1, $2, $3, $4, $5, 1, $6)",
        )
        .bind(id)
        .bind(texts.name)
        .bind(texts.system)
        .bind(texts.trf)
        .bind(texts.settings)
        .bind(now)
        .execute(&mut *tx)
        .await?;
        tx.commit().await?;
        Ok(true)
    }

    /// A tournament and its version.
    pub async fn tournament(&self, id: &str) -> Result<Option<(Record, i64)>, StoreError> {
        let row = sqlx::query("SELECT trf, settings, version FROM tournaments WHERE id = $1")
            .bind(id)
            .fetch_optional(&self.pool)
            .await?;
        let Some(row) = row else { return Ok(None) };
        let trf: String = row.try_get(0)?;
        let settings: String = row.try_get(1)?;
        let version: i64 = row.try_get(2)?;
        let record = Record::load(&trf, &settings)
            .map_err(|e| StoreError::Damaged(format!("tournament {id}: {e}")))?;
        Ok(Some((record, version)))
    }

    /// Writes a tournament over `version`; `false` if another change came
    /// first.
    pub async fn save_tournament(
        &self,
        id: &str,
        version: i64,
        texts: &TournamentTexts<'_>,
    ) -> Result<bool, StoreError> {
        let result = sqlx::query(
            "UPDATE tournaments SET name = $1, trf = $2, settings = $3, version = $4
             WHERE id = $5 AND version = $6",
        )
        .bind(texts.name)
        .bind(texts.trf)
        .bind(texts.settings)
        .bind(version + 1)
        .bind(id)
        .bind(version)
        .execute(&self.pool)
        .await?;
        Ok(result.rows_affected() == 1)
    }

    /// The newest tournaments, at most `limit`.
    pub async fn tournaments(&self, limit: i64) -> Result<Vec<TournamentSummary>, StoreError> {
        let rows = sqlx::query(
            "SELECT id, name, system, created FROM tournaments ORDER BY created DESC, id LIMIT $1",
        )
        .bind(limit)
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|r| {
                Ok(TournamentSummary {
                    id: r.try_get(0)?,
                    name: r.try_get(1)?,
                    system: r.try_get(2)?,
                    created: r.try_get(3)?,
                })
            })
            .collect()
    }

    /// Creates the game of an online board with its first entry, its
    /// link to the board and its mark as rated in `group`, in one
    /// transaction.
    pub async fn add_board_game(
        &self,
        game: &str,
        (white, black): (&str, &str),
        first: &Entry,
        link: &GameLink,
        group: RatingGroup,
    ) -> Result<(), StoreError> {
        let mut tx = self.begin_write().await?;
        insert_game(&mut tx, game, white, black, first).await?;
        insert_entry(&mut tx, game, first).await?;
        // Tournament games are rated (in their variant's group).
        mark_rated(&mut tx, game, group).await?;
        sqlx::query(
            "INSERT INTO tournament_games (game_id, tournament_id, round, board) VALUES ($1, $2, $3, $4)",
        )
        .bind(game)
        .bind(&link.tournament)
        .bind(i64::from(link.round))
        .bind(i64::from(link.board))
        .execute(&mut *tx)
        .await?;
        tx.commit().await?;
        Ok(())
    }

    /// The tournament, round and board `game` plays, if it is a
    /// tournament's.
    pub async fn game_link(&self, game: &str) -> Result<Option<GameLink>, StoreError> {
        let row = sqlx::query(
            "SELECT tournament_id, round, board FROM tournament_games WHERE game_id = $1",
        )
        .bind(game)
        .fetch_optional(&self.pool)
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

    /// Finished games of tournaments, newest first (at most `limit`):
    /// their results may not have entered yet (a server stopped in
    /// between).
    pub async fn finished_tournament_games(&self, limit: i64) -> Result<Vec<String>, StoreError> {
        let rows = sqlx::query(
            "SELECT g.id FROM tournament_games t JOIN games g ON g.id = t.game_id
             WHERE g.finished = 1 ORDER BY g.created DESC LIMIT $1",
        )
        .bind(limit)
        .fetch_all(&self.pool)
        .await?;
        rows.iter().map(|r| Ok(r.try_get(0)?)).collect()
    }
}
