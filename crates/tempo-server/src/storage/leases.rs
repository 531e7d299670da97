//! Leases between instances on one store: the settling of a due flag,
//! and which instance's bot plays a game. A lease names its owner (an
//! instance's id) and lapses at an instant (milliseconds since the
//! epoch); another instance may take a lapsed one. Taking one is a single
//! conditional statement, so that of two instances asking at once exactly
//! one gets it.

use sqlx::Row;

use super::{Store, StoreError, key};

impl Store {
    /// Takes, for `owner` until `until`, the lease of up to `limit`
    /// unfinished games whose next flag fell by `due_by` and whose lease
    /// has lapsed by `now`; their ids, earliest flag first.
    pub async fn claim_due_flags(
        &self,
        owner: &str,
        due_by: u64,
        now: u64,
        until: u64,
        limit: i64,
    ) -> Result<Vec<String>, StoreError> {
        // Mostly nothing is due: a read first, so that an idle sweep takes
        // no write lock (SQLite has one writer).
        let due = sqlx::query(
            "SELECT 1 FROM games WHERE finished = 0 AND next_flag <= $1
               AND (lease_until IS NULL OR lease_until < $2) LIMIT 1",
        )
        .bind(due_by as i64)
        .bind(now as i64)
        .fetch_optional(&self.pool)
        .await?;
        if due.is_none() {
            return Ok(Vec::new());
        }
        // The lease is checked again on each row updated: on PostgreSQL a
        // row another instance has just claimed is re-read after its
        // commit and no longer matches.
        let rows = sqlx::query(
            "UPDATE games SET lease_owner = $1, lease_until = $2
             WHERE id IN (
                 SELECT id FROM games
                 WHERE finished = 0 AND next_flag <= $3
                   AND (lease_until IS NULL OR lease_until < $4)
                 ORDER BY next_flag LIMIT $5)
               AND finished = 0 AND (lease_until IS NULL OR lease_until < $4)
             RETURNING id",
        )
        .bind(owner)
        .bind(until as i64)
        .bind(due_by as i64)
        .bind(now as i64)
        .bind(limit)
        .fetch_all(&self.pool)
        .await?;
        rows.iter().map(|r| Ok(r.try_get(0)?)).collect()
    }

    /// Sets a game's next flag as its game at `seq` says, unless entries
    /// came after `seq` meanwhile (their append set it); whether it was
    /// set.
    pub async fn set_next_flag(
        &self,
        game: &str,
        seq: u64,
        next_flag: Option<u64>,
    ) -> Result<bool, StoreError> {
        let result = sqlx::query(
            "UPDATE games SET next_flag = $1
             WHERE id = $2 AND (SELECT MAX(seq) FROM events WHERE game_id = $2) = $3",
        )
        .bind(next_flag.map(|at| at as i64))
        .bind(game)
        .bind(seq as i64)
        .execute(&self.pool)
        .await?;
        Ok(result.rows_affected() == 1)
    }

    /// Takes or renews, for `owner` until `until`, the lease of `bot`
    /// playing `game`: `true` if `owner` holds it now (it was free, lapsed
    /// by `now`, or `owner`'s already).
    pub async fn claim_bot_game(
        &self,
        game: &str,
        bot: &str,
        owner: &str,
        now: u64,
        until: u64,
    ) -> Result<bool, StoreError> {
        let result = sqlx::query(
            "INSERT INTO bot_games (game_id, bot, owner, lease_until) VALUES ($1, $2, $3, $4)
             ON CONFLICT (game_id, bot) DO UPDATE
             SET owner = excluded.owner, lease_until = excluded.lease_until
             WHERE bot_games.owner = excluded.owner OR bot_games.lease_until < $5",
        )
        .bind(game)
        .bind(key(bot))
        .bind(owner)
        .bind(until as i64)
        .bind(now as i64)
        .execute(&self.pool)
        .await?;
        Ok(result.rows_affected() == 1)
    }

    /// Gives up `owner`'s lease of `bot` playing `game` (the game is over
    /// or the bot stops following it).
    pub async fn release_bot_game(
        &self,
        game: &str,
        bot: &str,
        owner: &str,
    ) -> Result<(), StoreError> {
        sqlx::query("DELETE FROM bot_games WHERE game_id = $1 AND bot = $2 AND owner = $3")
            .bind(game)
            .bind(key(bot))
            .bind(owner)
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    /// Forgets the bot leases that lapsed by `now` (their instances
    /// stopped without giving them up); how many.
    pub async fn end_lapsed_bot_games(&self, now: u64) -> Result<u64, StoreError> {
        let result = sqlx::query("DELETE FROM bot_games WHERE lease_until < $1")
            .bind(now as i64)
            .execute(&self.pool)
            .await?;
        Ok(result.rows_affected())
    }

    /// Stores a token of `user` leased until `until` (a bot's: renewed
    /// while its instance runs, see [`Store::renew_token`]).
    pub async fn add_leased_token(
        &self,
        hash: &str,
        user: &str,
        now: u64,
        until: u64,
    ) -> Result<(), StoreError> {
        sqlx::query(
            "INSERT INTO tokens (hash, user_name, created, expires) VALUES ($1, $2, $3, $4)",
        )
        .bind(hash)
        .bind(key(user))
        .bind(now as i64)
        .bind(until as i64)
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    /// Extends a leased token to `until`; `false` if it is gone (another
    /// instance ended it as lapsed).
    pub async fn renew_token(&self, hash: &str, until: u64) -> Result<bool, StoreError> {
        let result = sqlx::query("UPDATE tokens SET expires = $1 WHERE hash = $2")
            .bind(until as i64)
            .bind(hash)
            .execute(&self.pool)
            .await?;
        Ok(result.rows_affected() == 1)
    }

    /// Ends the tokens of `user` (a bot) whose lease lapsed by `now`, and
    /// those without a lease (made by releases before leases); the hashes
    /// of the tokens that ended.
    pub async fn end_lapsed_tokens(&self, user: &str, now: u64) -> Result<Vec<String>, StoreError> {
        let rows = sqlx::query(
            "DELETE FROM tokens WHERE user_name = $1 AND (expires IS NULL OR expires < $2)
             RETURNING hash",
        )
        .bind(key(user))
        .bind(now as i64)
        .fetch_all(&self.pool)
        .await?;
        rows.iter().map(|r| Ok(r.try_get(0)?)).collect()
    }
}

#[cfg(test)]
mod tests {
    use sqlx::Row;
    use tempo_host::chain::hex;
    use tempo_host::{GameSpec, Header, HostedGame};

    use super::Store;
    use crate::storage::NextFlag;
    use crate::storage::migrations::{Backfill, MIGRATIONS, Migration};
    use crate::storage::tests::{Dir, dir};

    async fn store() -> (Store, Dir) {
        let dir = dir();
        (Store::open_dir(&dir.0).await.unwrap(), dir)
    }

    /// A game with a two-second clock created at 1,000: White's flag
    /// falls at 3,000.
    fn timed_game(id: &str) -> (HostedGame, tempo_host::Entry) {
        let spec = GameSpec {
            clock: Some("2+0".into()),
            ..GameSpec::default()
        };
        let header = Header::new(id, &spec, "anna", "ben").unwrap();
        HostedGame::create(header, 1_000).unwrap()
    }

    async fn next_flag(store: &Store, id: &str) -> Option<i64> {
        sqlx::query("SELECT next_flag FROM games WHERE id = $1")
            .bind(id)
            .fetch_one(&store.pool)
            .await
            .unwrap()
            .try_get(0)
            .unwrap()
    }

    #[tokio::test]
    async fn a_due_flag_is_claimed_by_one_instance_until_its_lease_lapses() {
        let (store, _dir) = store().await;
        let (_, first) = timed_game("g");
        store.add_game("anna", "ben", &first, "g").await.unwrap();
        assert_eq!(next_flag(&store, "g").await, Some(3_000));
        let claim = |owner: &'static str, now: u64| {
            let store = store.clone();
            async move {
                store
                    .claim_due_flags(owner, now, now, now + 5_000, 10)
                    .await
                    .unwrap()
            }
        };
        assert!(claim("a", 2_999).await.is_empty(), "not due yet");
        assert_eq!(claim("a", 3_000).await, ["g"]);
        assert!(claim("b", 3_001).await.is_empty(), "a holds the lease");
        assert!(claim("a", 7_999).await.is_empty(), "even a itself");
        assert_eq!(claim("b", 8_001).await, ["g"], "the lease lapsed");
    }

    #[tokio::test]
    async fn an_append_that_keeps_the_flag_leaves_an_early_instant_alone() {
        let (store, _dir) = store().await;
        let (mut game, first) = timed_game("g");
        store.add_game("anna", "ben", &first, "g").await.unwrap();
        let command = tempo_host::Command::Play {
            color: tempo_chess::Color::White,
            choice: "e2e4".into(),
        };
        let moved = game.handle(command, 1_500, rand::random()).unwrap();
        // Black's flag falls at 3,500; the stored 3,000 is early, which is
        // allowed (the sweep then finds nothing due and stores 3,500).
        assert_eq!(game.next_deadline(), Some(3_500));
        store
            .append("g", &moved, NextFlag::Keep { next: Some(3_500) })
            .await
            .unwrap();
        assert_eq!(next_flag(&store, "g").await, Some(3_000));
        assert_eq!(store.entries("g").await.unwrap().len(), 2);
    }

    #[tokio::test]
    async fn appends_keep_the_next_flag_and_an_end_clears_it() {
        let (store, _dir) = store().await;
        let (mut game, first) = timed_game("g");
        store.add_game("anna", "ben", &first, "g").await.unwrap();
        let command = tempo_host::Command::Play {
            color: tempo_chess::Color::White,
            choice: "e2e4".into(),
        };
        let moved = game.handle(command, 1_500, rand::random()).unwrap();
        store
            .append("g", &moved, NextFlag::Set(game.next_deadline()))
            .await
            .unwrap();
        // Black's clock runs from 1,500.
        assert_eq!(next_flag(&store, "g").await, Some(3_500));
        assert_eq!(game.next_deadline(), Some(3_500));
        // A stale deadline is not written over a newer log.
        assert!(!store.set_next_flag("g", 0, Some(9)).await.unwrap());
        assert!(store.set_next_flag("g", 1, Some(3_500)).await.unwrap());
        let fell = game.tick(3_600).unwrap();
        store
            .append("g", &fell, NextFlag::Set(game.next_deadline()))
            .await
            .unwrap();
        assert_eq!(next_flag(&store, "g").await, None);
        assert!(store.unfinished_games(None).await.unwrap().is_empty());
    }

    #[tokio::test]
    async fn the_migration_fills_in_the_next_flags_of_games_stored_before() {
        let dir = dir();
        // The schema as the release before leases left it: up to the step
        // before the next flag's column (which the backfill follows).
        let backfill = MIGRATIONS
            .iter()
            .position(|m| matches!(m, Migration::Backfill(Backfill::NextFlags)))
            .expect("the next flags' backfill");
        let before = backfill - 1;
        let url = format!("sqlite://{}?mode=rwc", dir.0.join("tempo.sqlite").display());
        let old = Store::connect_unmigrated(&url).await.unwrap();
        old.migrate(before).await.unwrap();
        let (_, first) = timed_game("old");
        sqlx::query(
            "INSERT INTO games (id, white, black, created) VALUES ('old', 'anna', 'ben', 1000)",
        )
        .execute(&old.pool)
        .await
        .unwrap();
        sqlx::query(
            "INSERT INTO events (game_id, seq, prev, hash, at, body) VALUES ('old', 0, $1, $2, $3, $4)",
        )
        .bind(hex(&first.prev))
        .bind(hex(&first.hash))
        .bind(first.at as i64)
        .bind(serde_json::to_string(&first.body).unwrap())
        .execute(&old.pool)
        .await
        .unwrap();
        old.migrate(MIGRATIONS.len()).await.unwrap();
        assert_eq!(next_flag(&old, "old").await, Some(3_000));
    }

    #[tokio::test]
    async fn one_instance_s_bot_plays_a_game_until_its_lease_lapses() {
        let (store, _dir) = store().await;
        let (_, first) = timed_game("g");
        store.add_game("anna", "ben", &first, "g").await.unwrap();
        assert!(
            store
                .claim_bot_game("g", "bot-x", "a", 0, 100)
                .await
                .unwrap()
        );
        assert!(
            !store
                .claim_bot_game("g", "bot-x", "b", 50, 150)
                .await
                .unwrap()
        );
        assert!(
            store
                .claim_bot_game("g", "bot-x", "a", 90, 190)
                .await
                .unwrap()
        );
        assert!(
            !store
                .claim_bot_game("g", "bot-x", "b", 150, 250)
                .await
                .unwrap()
        );
        assert!(
            store
                .claim_bot_game("g", "bot-x", "b", 191, 291)
                .await
                .unwrap()
        );
        store.release_bot_game("g", "bot-x", "b").await.unwrap();
        assert!(
            store
                .claim_bot_game("g", "bot-x", "a", 200, 300)
                .await
                .unwrap()
        );
        assert_eq!(store.end_lapsed_bot_games(301).await.unwrap(), 1);
    }

    #[tokio::test]
    async fn only_lapsed_and_unleased_bot_tokens_end() {
        let (store, _dir) = store().await;
        let bot = crate::domain::accounts::User {
            name: "bot-x".into(),
            role: crate::domain::accounts::Role::Player,
        };
        store.add_user(&bot, "x", 0).await.unwrap();
        store.add_token("old", "bot-x", 0).await.unwrap();
        store
            .add_leased_token("mine", "bot-x", 0, 100)
            .await
            .unwrap();
        store
            .add_leased_token("theirs", "bot-x", 0, 200)
            .await
            .unwrap();
        assert_eq!(store.end_lapsed_tokens("bot-x", 50).await.unwrap(), ["old"]);
        assert!(store.renew_token("mine", 300).await.unwrap());
        assert_eq!(
            store.end_lapsed_tokens("bot-x", 250).await.unwrap(),
            ["theirs"]
        );
        assert!(!store.renew_token("theirs", 400).await.unwrap());
        // A lease that lapsed ends the token, whether or not anyone has
        // removed it yet.
        assert!(store.token_user("mine", 299).await.unwrap().is_some());
        assert!(store.token_user("mine", 300).await.unwrap().is_none());
        assert!(store.token_user("mine", 1_000).await.unwrap().is_none());
    }
}
