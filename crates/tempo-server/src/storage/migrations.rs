//! The embedded schema, in order; each step is applied once, in a
//! transaction, and counted in `tempo_schema`.

use sqlx::Row;
use tempo_host::Body;

use super::games::{entry_from_row, next_flag_of};
use super::{StoreError, end_of};

/// One step of the schema.
pub(super) enum Migration {
    /// Statements separated by `;`.
    Sql(&'static str),
    /// Work SQL alone cannot do in both dialects (reading JSON).
    Backfill(Backfill),
}

/// A step done in Rust over the open transaction.
#[derive(Clone, Copy)]
pub(super) enum Backfill {
    /// The result and end reason of every finished game, from its log.
    GameEnds,
    /// The next flag deadline of every unfinished game, from its log.
    NextFlags,
}

pub(super) const MIGRATIONS: &[Migration] = &[
    Migration::Sql(
        "CREATE TABLE users (
            name TEXT PRIMARY KEY,
            display TEXT NOT NULL,
            password TEXT NOT NULL,
            role TEXT NOT NULL,
            created BIGINT NOT NULL
        );
        CREATE TABLE tokens (
            hash TEXT PRIMARY KEY,
            user_name TEXT NOT NULL REFERENCES users(name),
            created BIGINT NOT NULL
        );
        CREATE TABLE challenges (
            id TEXT PRIMARY KEY,
            challenger TEXT NOT NULL REFERENCES users(name),
            dest TEXT NOT NULL REFERENCES users(name),
            spec TEXT NOT NULL,
            color TEXT NOT NULL,
            status TEXT NOT NULL,
            game_id TEXT,
            created BIGINT NOT NULL
        );
        CREATE TABLE games (
            id TEXT PRIMARY KEY,
            white TEXT NOT NULL,
            black TEXT NOT NULL,
            finished BIGINT NOT NULL DEFAULT 0,
            created BIGINT NOT NULL
        );
        CREATE TABLE events (
            game_id TEXT NOT NULL REFERENCES games(id),
            seq BIGINT NOT NULL,
            prev TEXT NOT NULL,
            hash TEXT NOT NULL,
            at BIGINT NOT NULL,
            body TEXT NOT NULL,
            sealed TEXT,
            PRIMARY KEY (game_id, seq)
        );
        CREATE TABLE server_keys (
            id BIGINT PRIMARY KEY,
            seed TEXT NOT NULL
        );",
    ),
    Migration::Sql(
        "CREATE TABLE sessions (
            hash TEXT PRIMARY KEY,
            user_name TEXT NOT NULL REFERENCES users(name),
            csrf TEXT NOT NULL,
            expires BIGINT NOT NULL
        );",
    ),
    // Club tournaments: each one's TRF and settings.
    Migration::Sql(
        "CREATE TABLE tournaments (
            id TEXT PRIMARY KEY,
            name TEXT NOT NULL,
            system TEXT NOT NULL,
            trf TEXT NOT NULL,
            settings TEXT NOT NULL,
            version BIGINT NOT NULL,
            created BIGINT NOT NULL
        );
        CREATE TABLE tournament_games (
            game_id TEXT PRIMARY KEY REFERENCES games(id),
            tournament_id TEXT NOT NULL REFERENCES tournaments(id),
            round BIGINT NOT NULL,
            board BIGINT NOT NULL
        );",
    ),
    // Every list the server shows has an index to read it by.
    Migration::Sql(
        "CREATE INDEX challenges_by_challenger ON challenges (challenger, status);
        CREATE INDEX challenges_by_dest ON challenges (dest, status);
        CREATE INDEX challenges_by_status ON challenges (status, created);
        CREATE INDEX games_by_finished ON games (finished, created);
        CREATE INDEX games_by_white ON games (white, finished, created);
        CREATE INDEX games_by_black ON games (black, finished, created);
        CREATE INDEX tokens_by_user ON tokens (user_name);
        CREATE INDEX sessions_by_user ON sessions (user_name);
        CREATE INDEX sessions_by_expiry ON sessions (expires);
        CREATE INDEX tournament_games_by_tournament ON tournament_games (tournament_id);
        CREATE INDEX tournaments_by_created ON tournaments (created)",
    ),
    // A game's result and end reason beside it, written with its end
    // entry, so that the archive reads one row a game.
    Migration::Sql(
        "ALTER TABLE games ADD COLUMN result TEXT;
        ALTER TABLE games ADD COLUMN reason TEXT",
    ),
    Migration::Backfill(Backfill::GameEnds),
    // Several instances on one store. Each unfinished game's next flag
    // deadline (kept with every append) and the lease of the instance
    // settling it, so that a flag falls even when no instance has the game
    // in memory; bot tokens leased by the instance running them; which
    // instance's bot plays a game.
    Migration::Sql(
        "ALTER TABLE games ADD COLUMN next_flag BIGINT;
        ALTER TABLE games ADD COLUMN lease_owner TEXT;
        ALTER TABLE games ADD COLUMN lease_until BIGINT;
        CREATE INDEX games_by_next_flag ON games (finished, next_flag);
        ALTER TABLE tokens ADD COLUMN expires BIGINT;
        CREATE TABLE bot_games (
            game_id TEXT NOT NULL REFERENCES games(id),
            bot TEXT NOT NULL,
            owner TEXT NOT NULL,
            lease_until BIGINT NOT NULL,
            PRIMARY KEY (game_id, bot)
        );
        CREATE INDEX bot_games_by_lease ON bot_games (lease_until)",
    ),
    Migration::Backfill(Backfill::NextFlags),
    // Open challenges (the lobby's seeks): a challenge anyone may accept
    // until `open_until` (ms); direct challenges keep it NULL.
    Migration::Sql(
        "ALTER TABLE challenges ADD COLUMN open_until BIGINT;
        CREATE INDEX challenges_by_open_until ON challenges (status, open_until)",
    ),
    // E-mail for correspondence: a member's optional address and the
    // language of their mails; when a correspondence game's reminder is
    // due (cleared by the instance that sends it, so a restart neither
    // sends it again nor skips it).
    Migration::Sql(
        "ALTER TABLE users ADD COLUMN email TEXT;
        ALTER TABLE users ADD COLUMN email_lang TEXT;
        ALTER TABLE games ADD COLUMN remind_at BIGINT;
        CREATE INDEX games_by_remind_at ON games (remind_at)",
    ),
    // Club ratings (Glicko-2 per variant group): whether a challenge is
    // rated; the rated games and their group, `applied` set in the
    // transaction of the game's end entry that rates it; each member's
    // rating per group; one history row a player a rated game (`games`:
    // the player's count of rated games in the group with it, so that
    // games ending in the same millisecond keep their order).
    Migration::Sql(
        "ALTER TABLE challenges ADD COLUMN rated BIGINT NOT NULL DEFAULT 0;
        CREATE TABLE rated_games (
            game_id TEXT PRIMARY KEY REFERENCES games(id),
            variant_group TEXT NOT NULL,
            applied BIGINT NOT NULL DEFAULT 0
        );
        CREATE TABLE ratings (
            user_name TEXT NOT NULL,
            variant_group TEXT NOT NULL,
            rating DOUBLE PRECISION NOT NULL,
            rd DOUBLE PRECISION NOT NULL,
            volatility DOUBLE PRECISION NOT NULL,
            games BIGINT NOT NULL,
            last_game BIGINT,
            PRIMARY KEY (user_name, variant_group)
        );
        CREATE INDEX ratings_by_group ON ratings (variant_group, rating);
        CREATE TABLE rating_history (
            game_id TEXT NOT NULL REFERENCES games(id),
            user_name TEXT NOT NULL,
            variant_group TEXT NOT NULL,
            at BIGINT NOT NULL,
            rating_before DOUBLE PRECISION NOT NULL,
            rd_before DOUBLE PRECISION NOT NULL,
            rating_after DOUBLE PRECISION NOT NULL,
            rd_after DOUBLE PRECISION NOT NULL,
            games BIGINT NOT NULL,
            PRIMARY KEY (game_id, user_name)
        );
        CREATE INDEX rating_history_by_user ON rating_history (user_name, variant_group, games)",
    ),
    // Results reported from the players' phones (issue #26): one report
    // a player and board of a tournament's current round, until the
    // board's result enters.
    Migration::Sql(
        "CREATE TABLE tournament_reports (
            tournament_id TEXT NOT NULL REFERENCES tournaments(id),
            round BIGINT NOT NULL,
            board BIGINT NOT NULL,
            player BIGINT NOT NULL,
            white BIGINT NOT NULL,
            black BIGINT NOT NULL,
            username TEXT NOT NULL,
            result TEXT NOT NULL,
            at BIGINT NOT NULL,
            PRIMARY KEY (tournament_id, round, board, player)
        )",
    ),
    // Bot accounts (issue #28): a member who upgraded their account for
    // good (`POST /api/bot/account/upgrade`); and the games' chat, each
    // line in its room (`player`, `spectator`), the newest 200 a game and
    // room kept (in the order of the `seq` a later step adds).
    Migration::Sql(
        "ALTER TABLE users ADD COLUMN bot BIGINT NOT NULL DEFAULT 0;
        CREATE TABLE chat_lines (
            id TEXT PRIMARY KEY,
            game_id TEXT NOT NULL REFERENCES games(id),
            room TEXT NOT NULL,
            username TEXT NOT NULL,
            text TEXT NOT NULL,
            at BIGINT NOT NULL
        );
        CREATE INDEX chat_lines_by_game ON chat_lines (game_id, room, at)",
    ),
    // The challenge a game came from (lichess's `source` of a game event:
    // a challenge open to anyone or one to a member), found by its game.
    Migration::Sql("CREATE INDEX challenges_by_game ON challenges (game_id)"),
    // A chat line's place in its room: one more than the room's last (set
    // in the insert's transaction), so that lines of one millisecond keep
    // their order and the trim keeps the newest. The lines before it are
    // numbered by instant, then id.
    Migration::Sql(
        "ALTER TABLE chat_lines ADD COLUMN seq BIGINT NOT NULL DEFAULT 0;
        UPDATE chat_lines SET seq = (SELECT COUNT(*) FROM chat_lines AS earlier
            WHERE earlier.game_id = chat_lines.game_id AND earlier.room = chat_lines.room
            AND (earlier.at < chat_lines.at
                OR (earlier.at = chat_lines.at AND earlier.id <= chat_lines.id)));
        CREATE UNIQUE INDEX chat_lines_in_order ON chat_lines (game_id, room, seq)",
    ),
    // Table games (issue #29): who directs each one, and each seat's
    // tokens by their hash (the token itself is derived, never stored);
    // a renewed seat revokes the token before it.
    Migration::Sql(
        "CREATE TABLE table_games (
            game_id TEXT PRIMARY KEY REFERENCES games(id),
            director TEXT NOT NULL,
            created BIGINT NOT NULL
        );
        CREATE INDEX table_games_by_director ON table_games (director, created);
        CREATE TABLE table_seats (
            token_hash TEXT PRIMARY KEY,
            game_id TEXT NOT NULL REFERENCES games(id),
            color TEXT NOT NULL,
            generation BIGINT NOT NULL,
            revoked BIGINT NOT NULL DEFAULT 0,
            created BIGINT NOT NULL,
            UNIQUE (game_id, color, generation)
        )",
    ),
];

impl Backfill {
    pub(super) async fn run(
        self,
        tx: &mut sqlx::Transaction<'_, sqlx::Any>,
    ) -> Result<(), StoreError> {
        match self {
            Backfill::GameEnds => game_ends(tx).await,
            Backfill::NextFlags => next_flags(tx).await,
        }
    }
}

/// The ids of the finished (or the unfinished) games.
async fn game_ids(
    tx: &mut sqlx::Transaction<'_, sqlx::Any>,
    finished: bool,
) -> Result<Vec<String>, StoreError> {
    let query = if finished {
        "SELECT id FROM games WHERE finished <> 0"
    } else {
        "SELECT id FROM games WHERE finished = 0"
    };
    let rows = sqlx::query(query).fetch_all(&mut **tx).await?;
    Ok(rows
        .iter()
        .map(|r| r.try_get(0))
        .collect::<Result<_, _>>()?)
}

/// Fills `games.result` and `games.reason` of the games finished before
/// the columns existed, from the last end entry of each log.
async fn game_ends(tx: &mut sqlx::Transaction<'_, sqlx::Any>) -> Result<(), StoreError> {
    for game in game_ids(tx, true).await? {
        let bodies = sqlx::query("SELECT body FROM events WHERE game_id = $1 ORDER BY seq DESC")
            .bind(&game)
            .fetch_all(&mut **tx)
            .await?;
        let mut end = None;
        for row in &bodies {
            let text: String = row.try_get(0)?;
            let body: Body = serde_json::from_str(&text)
                .map_err(|e| StoreError::Damaged(format!("game {game}: {e}")))?;
            if let Some(found) = end_of(&body) {
                end = Some(found);
                break;
            }
        }
        let Some((result, reason)) = end else {
            continue;
        };
        sqlx::query("UPDATE games SET result = $1, reason = $2 WHERE id = $3")
            .bind(result.as_str())
            .bind(reason.name())
            .bind(&game)
            .execute(&mut **tx)
            .await?;
    }
    Ok(())
}

/// Fills `games.next_flag` of the unfinished games stored before the
/// column existed, replaying each log (a log that does not replay keeps
/// none: loading it fails anyway).
async fn next_flags(tx: &mut sqlx::Transaction<'_, sqlx::Any>) -> Result<(), StoreError> {
    for game in game_ids(tx, false).await? {
        let rows = sqlx::query(
            "SELECT seq, prev, hash, at, body, sealed FROM events WHERE game_id = $1 ORDER BY seq",
        )
        .bind(&game)
        .fetch_all(&mut **tx)
        .await?;
        let entries: Vec<_> = rows.iter().map(entry_from_row).collect::<Result<_, _>>()?;
        sqlx::query("UPDATE games SET next_flag = $1 WHERE id = $2")
            .bind(next_flag_of(&entries).map(|at| at as i64))
            .bind(&game)
            .execute(&mut **tx)
            .await?;
    }
    Ok(())
}
