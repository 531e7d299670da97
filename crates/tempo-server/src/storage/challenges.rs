//! Challenges, and the accept that closes one and starts its game in one
//! transaction.

use sqlx::Row;
use tempo_host::Entry;

use super::games::{insert_entry, insert_game};
use super::ratings::mark_rated;
use super::{GameLink, Store, StoreError, key};
use crate::domain::challenges::{Challenge, ChallengeStatus, ColorChoice};
use crate::domain::ratings::RatingGroup;

/// Where a game came from (see [`Store::game_origin`]).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct GameOrigin {
    pub rated: bool,
    /// A challenge open to anyone made it.
    pub lobby: bool,
    /// The tournament board it is played for.
    pub link: Option<GameLink>,
    /// The games row's players (lowercase usernames, or a table game's
    /// guest keys), White first.
    pub players: [String; 2],
}

/// The columns [`challenge_row`] reads, in its order.
macro_rules! columns {
    () => {
        "id, challenger, dest, spec, color, status, game_id, open_until, rated"
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
        open_until: row.try_get(7)?,
        rated: row.try_get::<i64, _>(8)? != 0,
        id,
    })
}

impl Store {
    /// Stores a new challenge unless its challenger already has `cap` of
    /// its kind waiting (by name, or open to anyone and unexpired at
    /// `now`); `false` if so. One transaction that first locks the
    /// challenger's row (PostgreSQL) or takes the write lock (SQLite), so
    /// that parallel requests cannot both pass the count.
    pub async fn add_challenge(
        &self,
        c: &Challenge,
        now: i64,
        cap: i64,
    ) -> Result<bool, StoreError> {
        let spec = serde_json::to_string(&c.spec).expect("a spec serialises");
        let mut tx = self.begin_write().await?;
        sqlx::query("UPDATE users SET name = name WHERE name = $1")
            .bind(key(&c.challenger))
            .execute(&mut *tx)
            .await?;
        let waiting: i64 = if c.open_until.is_some() {
            // Expired ones are closed on the way, so that they do not pile up.
            sqlx::query(
                "UPDATE challenges SET status = 'cancelled'
                 WHERE challenger = $1 AND status = 'open' AND open_until <= $2",
            )
            .bind(key(&c.challenger))
            .bind(now)
            .execute(&mut *tx)
            .await?;
            sqlx::query(
                "SELECT COUNT(*) FROM challenges
                 WHERE challenger = $1 AND status = 'open' AND open_until > $2",
            )
            .bind(key(&c.challenger))
            .bind(now)
            .fetch_one(&mut *tx)
            .await?
            .try_get(0)?
        } else {
            sqlx::query(
                "SELECT COUNT(*) FROM challenges
                 WHERE challenger = $1 AND status = 'open' AND open_until IS NULL",
            )
            .bind(key(&c.challenger))
            .fetch_one(&mut *tx)
            .await?
            .try_get(0)?
        };
        if waiting >= cap {
            return Ok(false);
        }
        sqlx::query(
            "INSERT INTO challenges (id, challenger, dest, spec, color, status, created, open_until, rated)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)",
        )
        .bind(&c.id)
        .bind(key(&c.challenger))
        .bind(key(&c.dest))
        .bind(spec)
        .bind(c.color.as_str())
        .bind(c.status.as_str())
        .bind(now)
        .bind(c.open_until)
        .bind(i64::from(c.rated))
        .execute(&mut *tx)
        .await?;
        tx.commit().await?;
        Ok(true)
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

    /// Where `game` came from: whether it is rated, the tournament board
    /// it is played for, and whether a challenge open to anyone made it.
    pub async fn game_origin(&self, game: &str) -> Result<GameOrigin, StoreError> {
        let row = sqlx::query(
            "SELECT (SELECT COUNT(*) FROM rated_games WHERE game_id = $1),
                    (SELECT COUNT(*) FROM challenges WHERE game_id = $1 AND open_until IS NOT NULL),
                    t.tournament_id, t.round, t.board, g.white, g.black
             FROM games g LEFT JOIN tournament_games t ON t.game_id = g.id
             WHERE g.id = $1",
        )
        .bind(game)
        .fetch_optional(&self.pool)
        .await?;
        let Some(row) = row else {
            return Ok(GameOrigin::default());
        };
        let tournament: Option<String> = row.try_get(2)?;
        let link = match tournament {
            Some(tournament) => Some(GameLink {
                tournament,
                round: row.try_get::<i64, _>(3)? as u32,
                board: row.try_get::<i64, _>(4)? as u32,
            }),
            None => None,
        };
        Ok(GameOrigin {
            rated: row.try_get::<i64, _>(0)? > 0,
            lobby: row.try_get::<i64, _>(1)? > 0,
            link,
            players: [row.try_get(5)?, row.try_get(6)?],
        })
    }

    /// Open challenges from or to `user` by name (not those open to
    /// anyone), oldest first (at most 200).
    pub async fn open_challenges(&self, user: &str) -> Result<Vec<Challenge>, StoreError> {
        let rows = sqlx::query(concat!(
            "SELECT ",
            columns!(),
            " FROM challenges
             WHERE status = 'open' AND open_until IS NULL AND (challenger = $1 OR dest = $1)
             ORDER BY created LIMIT 200"
        ))
        .bind(key(user))
        .fetch_all(&self.pool)
        .await?;
        rows.iter().map(challenge_row).collect()
    }

    /// Challenges open to anyone that may still be accepted at `now`,
    /// newest first: `limit` of them from `offset`.
    pub async fn open_seeks(
        &self,
        now: i64,
        limit: i64,
        offset: i64,
    ) -> Result<Vec<Challenge>, StoreError> {
        let rows = sqlx::query(concat!(
            "SELECT ",
            columns!(),
            " FROM challenges WHERE status = 'open' AND open_until > $1
             ORDER BY created DESC, id LIMIT $2 OFFSET $3"
        ))
        .bind(now)
        .bind(limit)
        .bind(offset)
        .fetch_all(&self.pool)
        .await?;
        rows.iter().map(challenge_row).collect()
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

    /// `accepter` accepts an open challenge at `now` and creates its game
    /// with the first entry (and, for a rated one, its mark as rated in
    /// `rated`'s group), in one transaction; `false` (and nothing stored)
    /// if the challenge was no longer open or had expired (of two accepts
    /// at once, the first wins).
    pub async fn accept_challenge(
        &self,
        id: &str,
        (accepter, now): (&str, i64),
        game: &str,
        (white, black): (&str, &str),
        (first, rated): (&Entry, Option<RatingGroup>),
    ) -> Result<bool, StoreError> {
        let mut tx = self.begin_write().await?;
        let closed = sqlx::query(
            "UPDATE challenges SET status = $1, game_id = $2, dest = $3
             WHERE id = $4 AND status = 'open' AND (open_until IS NULL OR open_until > $5)",
        )
        .bind(ChallengeStatus::Accepted.as_str())
        .bind(game)
        .bind(key(accepter))
        .bind(id)
        .bind(now)
        .execute(&mut *tx)
        .await?;
        if closed.rows_affected() != 1 {
            return Ok(false);
        }
        insert_game(&mut tx, game, white, black, first).await?;
        insert_entry(&mut tx, game, first).await?;
        if let Some(group) = rated {
            mark_rated(&mut tx, game, group).await?;
        }
        tx.commit().await?;
        Ok(true)
    }
}

#[cfg(test)]
mod tests {
    use tempo_host::GameSpec;

    use super::*;
    use crate::domain::accounts::{Role, User};
    use crate::storage::tests::dir;

    fn open_challenge(id: &str, until: i64) -> Challenge {
        Challenge {
            id: id.into(),
            challenger: "anna".into(),
            dest: "anna".into(),
            spec: GameSpec::default(),
            color: ColorChoice::Random,
            status: ChallengeStatus::Open,
            game_id: None,
            open_until: Some(until),
            rated: false,
        }
    }

    #[tokio::test]
    async fn an_open_challenge_expires_and_closes_when_its_challenger_makes_another() {
        let dir = dir();
        let url = format!("sqlite://{}?mode=rwc", dir.0.join("tempo.sqlite").display());
        let store = Store::connect(&url).await.unwrap();
        for name in ["anna", "carl"] {
            let user = User {
                name: name.into(),
                role: Role::Player,
            };
            store.add_user(&user, "x", 0).await.unwrap();
        }
        assert!(
            store
                .add_challenge(&open_challenge("c1", 10_000), 1_000, 1)
                .await
                .unwrap()
        );
        // Open to anyone: listed for all, in nobody's list of challenges by name.
        assert_eq!(store.open_seeks(5_000, 10, 0).await.unwrap().len(), 1);
        assert!(store.open_challenges("anna").await.unwrap().is_empty());
        // It counts against the cap of open ones, not against challenges by name.
        let add = |c: Challenge, now| {
            let store = store.clone();
            async move { store.add_challenge(&c, now, 1).await.unwrap() }
        };
        assert!(!add(open_challenge("c2", 20_000), 5_000).await);
        let by_name = Challenge {
            dest: "carl".into(),
            open_until: None,
            ..open_challenge("d1", 0)
        };
        assert!(add(by_name, 5_000).await);
        // Expired: no longer listed, no longer accepted, no longer counted.
        assert!(store.open_seeks(10_000, 10, 0).await.unwrap().is_empty());
        let header = tempo_host::Header::new("g1", &GameSpec::default(), "anna", "carl").unwrap();
        let (_, first) = tempo_host::HostedGame::create(header, 10_000).unwrap();
        let late = store
            .accept_challenge(
                "c1",
                ("carl", 10_000),
                "g1",
                ("anna", "carl"),
                (&first, None),
            )
            .await
            .unwrap();
        assert!(!late);
        // Nor counted: another may be made, and the expired one is closed.
        assert!(add(open_challenge("c3", 20_000), 10_000).await);
        let closed = store.challenge("c1").await.unwrap().unwrap();
        assert_eq!(closed.status, ChallengeStatus::Cancelled);
        assert_eq!(store.game_players("g1").await.unwrap(), None);
    }

    #[tokio::test]
    async fn parallel_open_challenges_stay_within_the_cap() {
        let dir = dir();
        let url = format!("sqlite://{}?mode=rwc", dir.0.join("tempo.sqlite").display());
        let store = Store::connect(&url).await.unwrap();
        let user = User {
            name: "anna".into(),
            role: Role::Player,
        };
        store.add_user(&user, "x", 0).await.unwrap();
        let tries = (0..12).map(|i| {
            let store = store.clone();
            tokio::spawn(async move {
                let c = open_challenge(&format!("c{i}"), 10_000);
                store.add_challenge(&c, 1_000, 5).await.unwrap()
            })
        });
        let mut made = 0;
        for t in tries.collect::<Vec<_>>() {
            made += usize::from(t.await.unwrap());
        }
        assert_eq!(made, 5);
    }
}
