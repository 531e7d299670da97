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
    /// A tournament board's game (it has a link).
    pub linked: bool,
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
    /// On PostgreSQL, holds the transaction-long lock named `name` (SQLite
    /// has one writer anyway): a read and the write it decides are then
    /// one at a time.
    async fn serialise(
        &self,
        tx: &mut sqlx::Transaction<'_, sqlx::Any>,
        name: &str,
    ) -> Result<(), StoreError> {
        if self.postgres.is_some() {
            sqlx::query("SELECT pg_advisory_xact_lock(hashtext($1::text))")
                .bind(name)
                .execute(&mut **tx)
                .await?;
        }
        Ok(())
    }

    /// Stores a table game: its game row and first entry, its director,
    /// both seats' first tokens (generation 1), and its link and rating
    /// mark if it has them, in one transaction. `false` (nothing stored) if
    /// the director has `most_open` unfinished friendly table games.
    pub async fn add_table_game(&self, new: &NewTable<'_>) -> Result<bool, StoreError> {
        let mut tx = self.begin_write().await?;
        // The director's open games are counted, then one added: one
        // director's creations one at a time.
        self.serialise(&mut tx, &format!("tables of {}", key(new.director)))
            .await?;
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
            "SELECT t.director, g.white, g.black, g.finished, t.created,
             (SELECT COUNT(*) FROM tournament_games l WHERE l.game_id = t.game_id)
             FROM table_games t JOIN games g ON g.id = t.game_id WHERE t.game_id = $1",
        )
        .bind(game)
        .fetch_optional(&self.pool)
        .await?;
        row.map(|r| {
            let finished: i64 = r.try_get(3)?;
            let links: i64 = r.try_get(5)?;
            Ok(TableRow {
                director: r.try_get(0)?,
                players: (r.try_get(1)?, r.try_get(2)?),
                finished: finished != 0,
                created: r.try_get(4)?,
                linked: links > 0,
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
        // The seat's last generation is read, then the next one written:
        // one change of a table's seats at a time.
        self.serialise(&mut tx, &format!("table {game}")).await?;
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

#[cfg(test)]
mod tests {
    use tempo_host::{GameSpec, Header, HostedGame};

    use super::*;
    use crate::storage::TournamentTexts;
    use crate::storage::tests::dir;

    fn first(id: &str) -> Entry {
        let header = Header::new(id, &GameSpec::default(), "Kim", "anna").unwrap();
        HostedGame::create(header, 1_000).unwrap().1
    }

    fn new_table<'a>(game: &'a str, first: &'a Entry, hashes: [&'a str; 2]) -> NewTable<'a> {
        NewTable {
            game,
            players: ("guest:kim", "anna"),
            first,
            director: "Carl",
            seat_hashes: hashes,
            link: None,
            rated: None,
            most_open: Some(2),
        }
    }

    #[tokio::test]
    async fn table_games_their_bound_and_their_seats() {
        let dir = dir();
        let store = Store::open_dir(&dir.0).await.unwrap();
        let (e1, e2, e3) = (first("t1"), first("t2"), first("t3"));
        assert!(
            store
                .add_table_game(&new_table("t1", &e1, ["w1", "b1"]))
                .await
                .unwrap()
        );
        assert!(
            store
                .add_table_game(&new_table("t2", &e2, ["w2", "b2"]))
                .await
                .unwrap()
        );
        // The director's third unfinished one: nothing stored.
        assert!(
            !store
                .add_table_game(&new_table("t3", &e3, ["w3", "b3"]))
                .await
                .unwrap()
        );
        assert_eq!(store.game_players("t3").await.unwrap(), None);
        assert_eq!(store.seat("w3").await.unwrap(), None);
        // No bound (a tournament's board): stored.
        let mut unbounded = new_table("t3", &e3, ["w3", "b3"]);
        unbounded.most_open = None;
        assert!(store.add_table_game(&unbounded).await.unwrap());

        let row = store.table_game("t1").await.unwrap().unwrap();
        assert_eq!(row.director, "carl");
        assert_eq!(row.players, ("guest:kim".into(), "anna".into()));
        assert!(!row.finished);
        assert_eq!(store.table_game("nope").await.unwrap(), None);
        let seat = store.seat("b1").await.unwrap().unwrap();
        assert_eq!(
            (
                seat.game.as_str(),
                seat.color,
                seat.generation,
                seat.revoked
            ),
            ("t1", Color::Black, 1, false)
        );
        assert_eq!(store.live_seats("t1").await.unwrap(), [Some(1), Some(1)]);

        // Renewed: the old token revoked, the next generation live.
        let hash_of = |g: u32| format!("w1-{g}");
        let renewed = store
            .replace_seat("t1", Color::White, Some(&hash_of), 3, 5)
            .await
            .unwrap();
        assert_eq!(renewed, SeatChange::Renewed(2));
        assert!(store.seat("w1").await.unwrap().unwrap().revoked);
        assert!(!store.seat("w1-2").await.unwrap().unwrap().revoked);
        assert_eq!(store.live_seats("t1").await.unwrap(), [Some(2), Some(1)]);
        // Revoked: no live token for the seat.
        let revoked = store
            .replace_seat("t1", Color::White, None, 3, 6)
            .await
            .unwrap();
        assert_eq!(revoked, SeatChange::Revoked);
        assert_eq!(store.live_seats("t1").await.unwrap(), [None, Some(1)]);
        // The most generations: a third, then no more.
        let third = store
            .replace_seat("t1", Color::White, Some(&hash_of), 3, 7)
            .await
            .unwrap();
        assert_eq!(third, SeatChange::Renewed(3));
        let refused = store
            .replace_seat("t1", Color::White, Some(&hash_of), 3, 8)
            .await
            .unwrap();
        assert_eq!(refused, SeatChange::TooMany);
        assert_eq!(store.live_seats("t1").await.unwrap(), [Some(3), Some(1)]);

        // A tournament board's table game: stored with its link, rated.
        let texts = TournamentTexts {
            name: "Club",
            system: "swiss",
            trf: "",
            settings: "{}",
        };
        assert!(store.insert_tournament("tt", &texts, 0).await.unwrap());
        let e4 = first("t4");
        let link = GameLink {
            tournament: "tt".into(),
            round: 1,
            board: 2,
        };
        let mut board = new_table("t4", &e4, ["w4", "b4"]);
        board.players = ("ben", "anna");
        board.link = Some(&link);
        board.rated = Some(RatingGroup::Orthodox);
        board.most_open = None;
        assert!(store.add_table_game(&board).await.unwrap());
        assert_eq!(store.game_link("t4").await.unwrap(), Some(link));
        let origin = store.game_origin("t4").await.unwrap();
        assert!(origin.rated);
        assert_eq!(origin.players, ["ben".to_string(), "anna".to_string()]);
        assert!(!store.game_origin("t1").await.unwrap().rated);
    }
}
