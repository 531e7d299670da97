//! Table games (issue #29): a game row with its director (`table_games`)
//! and its seats' tokens by hash (`table_seats`). A seat has one live
//! token at a time: a renewal revokes the one before in its transaction.

use sqlx::Row;
use tempo_chess::Color;
use tempo_host::Entry;

use super::games::{insert_entry, insert_game};
use super::ratings::mark_rated;
use super::{GameLink, Store, StoreError, key};
use crate::domain::ratings::RatingGroup;

/// A table game to store: the game, its first entry, who directs it,
/// the first token hash of each seat (White first), and for a
/// tournament's board its link.
pub struct NewTable<'a> {
    pub game: &'a str,
    /// The games row's players (a username or a guest's key), White first.
    pub players: (&'a str, &'a str),
    pub first: &'a Entry,
    pub director: &'a str,
    pub seat_hashes: [&'a str; 2],
    pub link: Option<&'a GameLink>,
    /// The rating group if the game is rated.
    pub rated: Option<RatingGroup>,
    /// The director's unfinished table games without a link allowed at
    /// most (counted in the transaction); `None`: no bound.
    pub most_open: Option<i64>,
}

/// A table game as stored.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TableRow {
    /// Lowercase.
    pub director: String,
    /// The games row's players, lowercase, White first.
    pub players: (String, String),
    pub finished: bool,
    /// Milliseconds since the epoch.
    pub created: i64,
}

/// A seat token as stored, found by its hash.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SeatRow {
    pub game: String,
    pub color: Color,
    pub generation: u32,
    pub revoked: bool,
    /// Whether its game has ended.
    pub finished: bool,
}

/// What [`Store::replace_seat`] did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SeatChange {
    /// The seat's tokens are revoked; none replaces them.
    Revoked,
    /// The seat's tokens are revoked; this generation's token is live.
    Renewed(u32),
    /// Nothing: the seat has had the most generations already.
    TooMany,
}

fn color_of(text: &str) -> Result<Color, StoreError> {
    match text {
        "white" => Ok(Color::White),
        "black" => Ok(Color::Black),
        other => Err(StoreError::Damaged(format!("seat colour {other}"))),
    }
}

fn color_name(color: Color) -> &'static str {
    color.fold("white", "black")
}

async fn insert_seat(
    tx: &mut sqlx::Transaction<'_, sqlx::Any>,
    hash: &str,
    game: &str,
    color: Color,
    generation: u32,
    now: i64,
) -> Result<(), StoreError> {
    sqlx::query(
        "INSERT INTO table_seats (token_hash, game_id, color, generation, created)
         VALUES ($1, $2, $3, $4, $5)",
    )
    .bind(hash)
    .bind(game)
    .bind(color_name(color))
    .bind(i64::from(generation))
    .bind(now)
    .execute(&mut **tx)
    .await?;
    Ok(())
}

impl Store {
    /// Stores a table game: its game row and first entry, its director,
    /// both seats' first tokens (generation 1), and its link and rating
    /// mark if it has them, in one transaction. `false` (nothing stored) if
    /// the director has `most_open` unfinished friendly table games.
    pub async fn add_table_game(&self, new: &NewTable<'_>) -> Result<bool, StoreError> {
        let mut tx = self.begin_write().await?;
        if let Some(most) = new.most_open {
            let open: i64 = sqlx::query(
                "SELECT COUNT(*) FROM table_games t JOIN games g ON g.id = t.game_id
                 WHERE t.director = $1 AND g.finished = 0
                 AND NOT EXISTS (SELECT 1 FROM tournament_games l WHERE l.game_id = t.game_id)",
            )
            .bind(key(new.director))
            .fetch_one(&mut *tx)
            .await?
            .try_get(0)?;
            if open >= most {
                return Ok(false);
            }
        }
        let (white, black) = new.players;
        insert_game(&mut tx, new.game, white, black, new.first).await?;
        insert_entry(&mut tx, new.game, new.first).await?;
        if let Some(group) = new.rated {
            mark_rated(&mut tx, new.game, group).await?;
        }
        if let Some(link) = new.link {
            sqlx::query(
                "INSERT INTO tournament_games (game_id, tournament_id, round, board)
                 VALUES ($1, $2, $3, $4)",
            )
            .bind(new.game)
            .bind(&link.tournament)
            .bind(i64::from(link.round))
            .bind(i64::from(link.board))
            .execute(&mut *tx)
            .await?;
        }
        let now = new.first.at as i64;
        sqlx::query("INSERT INTO table_games (game_id, director, created) VALUES ($1, $2, $3)")
            .bind(new.game)
            .bind(key(new.director))
            .bind(now)
            .execute(&mut *tx)
            .await?;
        for (color, hash) in Color::ALL.into_iter().zip(new.seat_hashes) {
            insert_seat(&mut tx, hash, new.game, color, 1, now).await?;
        }
        tx.commit().await?;
        Ok(true)
    }

    /// Table game `game`, if it is one.
    pub async fn table_game(&self, game: &str) -> Result<Option<TableRow>, StoreError> {
        let row = sqlx::query(
            "SELECT t.director, g.white, g.black, g.finished, t.created
             FROM table_games t JOIN games g ON g.id = t.game_id WHERE t.game_id = $1",
        )
        .bind(game)
        .fetch_optional(&self.pool)
        .await?;
        row.map(|r| {
            let finished: i64 = r.try_get(3)?;
            Ok(TableRow {
                director: r.try_get(0)?,
                players: (r.try_get(1)?, r.try_get(2)?),
                finished: finished != 0,
                created: r.try_get(4)?,
            })
        })
        .transpose()
    }

    /// The live (unrevoked) generation of each seat of `game`, White
    /// first (`None`: the seat's token is revoked).
    pub async fn live_seats(&self, game: &str) -> Result<[Option<u32>; 2], StoreError> {
        let rows = sqlx::query(
            "SELECT color, MAX(generation) FROM table_seats
             WHERE game_id = $1 AND revoked = 0 GROUP BY color",
        )
        .bind(game)
        .fetch_all(&self.pool)
        .await?;
        let mut live = [None, None];
        for row in rows {
            let color = color_of(&row.try_get::<String, _>(0)?)?;
            let generation: i64 = row.try_get(1)?;
            live[color.index()] = Some(generation as u32);
        }
        Ok(live)
    }

    /// The seat token of hash `hash`, if one was ever made.
    pub async fn seat(&self, hash: &str) -> Result<Option<SeatRow>, StoreError> {
        let row = sqlx::query(
            "SELECT s.game_id, s.color, s.generation, s.revoked, g.finished
             FROM table_seats s JOIN games g ON g.id = s.game_id WHERE s.token_hash = $1",
        )
        .bind(hash)
        .fetch_optional(&self.pool)
        .await?;
        row.map(|r| {
            let generation: i64 = r.try_get(2)?;
            let revoked: i64 = r.try_get(3)?;
            let finished: i64 = r.try_get(4)?;
            Ok(SeatRow {
                game: r.try_get(0)?,
                color: color_of(&r.try_get::<String, _>(1)?)?,
                generation: generation as u32,
                revoked: revoked != 0,
                finished: finished != 0,
            })
        })
        .transpose()
    }

    /// Revokes every token of seat `color` of `game` and, with `renew`,
    /// stores the next generation's token (its hash made by `renew` from
    /// the generation; at most `most` generations a seat), in one
    /// transaction.
    pub async fn replace_seat(
        &self,
        game: &str,
        color: Color,
        renew: Option<&(dyn Fn(u32) -> String + Sync)>,
        most: u32,
        now: i64,
    ) -> Result<SeatChange, StoreError> {
        let mut tx = self.begin_write().await?;
        let last: Option<i64> = sqlx::query(
            "SELECT MAX(generation) FROM table_seats WHERE game_id = $1 AND color = $2",
        )
        .bind(game)
        .bind(color_name(color))
        .fetch_one(&mut *tx)
        .await?
        .try_get(0)?;
        let generation = last.map_or(1, |g| g.saturating_add(1));
        if renew.is_some() && generation > i64::from(most) {
            return Ok(SeatChange::TooMany);
        }
        sqlx::query("UPDATE table_seats SET revoked = 1 WHERE game_id = $1 AND color = $2")
            .bind(game)
            .bind(color_name(color))
            .execute(&mut *tx)
            .await?;
        let Some(hash_of) = renew else {
            tx.commit().await?;
            return Ok(SeatChange::Revoked);
        };
        let generation = generation as u32;
        insert_seat(&mut tx, &hash_of(generation), game, color, generation, now).await?;
        tx.commit().await?;
        Ok(SeatChange::Renewed(generation))
    }
}
