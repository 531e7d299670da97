//! The store on SQLite: a game's end kept beside it, the migration that
//! fills it in for games that ended before, writers on several connections.

use sqlx::Row as _;
use tempo_chess::Color;
use tempo_host::chain::hex;
use tempo_host::{Command, Entry, GameSpec, Header, HostedGame};

use super::migrations::Migration;
use super::ratings::{apply_end, mark_rated};
use super::{MIGRATIONS, NextFlag, Store};
use crate::domain::accounts::{Role, User};
use crate::domain::ratings::RatingGroup;
use tempo_host::EndResult;

/// A scratch directory, removed when dropped.
pub(super) struct Dir(pub(super) std::path::PathBuf);

impl Drop for Dir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// A new scratch directory.
pub(super) fn dir() -> Dir {
    let name = format!(
        "tempo-storage-test-{}-{:x}",
        std::process::id(),
        rand::random::<u64>()
    );
    let dir = std::env::temp_dir().join(name);
    std::fs::create_dir_all(&dir).unwrap();
    Dir(dir)
}

fn url(dir: &Dir) -> String {
    format!("sqlite://{}?mode=rwc", dir.0.join("tempo.sqlite").display())
}

/// A game between anna and ben that White resigns: its entries.
fn resigned_game(id: &str) -> Vec<Entry> {
    let header = Header::new(id, &GameSpec::default(), "Anna", "Ben").unwrap();
    let (mut game, first) = HostedGame::create(header, 1_000).unwrap();
    let mut entries = vec![first];
    let command = Command::Resign {
        color: Color::White,
    };
    entries.extend(game.handle(command, 2_000, rand::random()).unwrap());
    entries
}

#[tokio::test]
async fn a_game_that_ends_keeps_its_result_beside_it() {
    let dir = dir();
    let store = Store::connect(&url(&dir)).await.unwrap();
    let entries = resigned_game("g1");
    store
        .add_game("Anna", "Ben", &entries[0], "g1")
        .await
        .unwrap();
    assert_eq!(store.game_end("g1").await.unwrap(), None);
    store
        .append("g1", &entries[1..], NextFlag::Set(None))
        .await
        .unwrap();
    let end = store.game_end("g1").await.unwrap().expect("ended");
    assert_eq!((end.0.as_str(), end.1.name()), ("0-1", "resign"));
    let archive = store.finished_games(Some("ANNA"), 10, 0).await.unwrap();
    assert_eq!(archive.len(), 1);
    assert_eq!(archive[0].end.as_ref(), Some(&end));
    assert_eq!(archive[0].header.as_ref().unwrap().white, "Anna");
    assert!(store.unfinished_games(None).await.unwrap().is_empty());
}

#[tokio::test]
async fn the_migration_fills_in_the_ends_of_games_stored_before() {
    let dir = dir();
    let store = Store::connect_unmigrated(&url(&dir)).await.unwrap();
    // The schema as the release before the result columns left it.
    store.migrate(4).await.unwrap();
    let entries = resigned_game("old");
    sqlx::query(
        "INSERT INTO games (id, white, black, finished, created) VALUES ($1, $2, $3, 1, $4)",
    )
    .bind("old")
    .bind("anna")
    .bind("ben")
    .bind(1_000_i64)
    .execute(&store.pool)
    .await
    .unwrap();
    for entry in &entries {
        sqlx::query(
            "INSERT INTO events (game_id, seq, prev, hash, at, body) VALUES ($1, $2, $3, $4, $5, $6)",
        )
        .bind("old")
        .bind(entry.seq as i64)
        .bind(hex(&entry.prev))
        .bind(hex(&entry.hash))
        .bind(entry.at as i64)
        .bind(serde_json::to_string(&entry.body).unwrap())
        .execute(&store.pool)
        .await
        .unwrap();
    }
    store.migrate(MIGRATIONS.len()).await.unwrap();
    let end = store.game_end("old").await.unwrap().expect("filled in");
    assert_eq!((end.0.as_str(), end.1.name()), ("0-1", "resign"));
    let archive = store.finished_games(None, 10, 0).await.unwrap();
    assert_eq!(archive[0].end.as_ref(), Some(&end));
    // The log reads back whole.
    assert_eq!(store.entries("old").await.unwrap(), entries);
}

/// A second end of a rated game (another instance, a retry) finds the
/// marker set: the game is rated once.
#[tokio::test]
async fn a_rated_game_is_rated_once_however_often_it_ends() {
    let dir = dir();
    let url = format!("sqlite://{}?mode=rwc", dir.0.join("tempo.sqlite").display());
    let store = Store::connect(&url).await.unwrap();
    for name in ["anna", "ben"] {
        let user = User {
            name: name.into(),
            role: Role::Player,
        };
        store.add_user(&user, "x", 0).await.unwrap();
    }
    let header = Header::new("g1", &GameSpec::default(), "anna", "ben").unwrap();
    let (mut game, first) = HostedGame::create(header, 1_000).unwrap();
    store.add_game("anna", "ben", &first, "g1").await.unwrap();
    let mut tx = store.pool.begin().await.unwrap();
    mark_rated(&mut tx, "g1", RatingGroup::Orthodox)
        .await
        .unwrap();
    tx.commit().await.unwrap();
    let resign = Command::Resign {
        color: Color::White,
    };
    let end = game.handle(resign, 2_000, rand::random()).unwrap();
    store.append("g1", &end, NextFlag::Set(None)).await.unwrap();
    let once = store
        .rating_list(RatingGroup::Orthodox, 10, 0)
        .await
        .unwrap();
    assert_eq!(once.len(), 2);
    assert_eq!(once[0].name, "ben");
    assert_eq!(once[0].standing.games, 1);
    // The end again, in a transaction of its own.
    let mut tx = store.pool.begin().await.unwrap();
    let result = EndResult::Decided(tempo_chess::Outcome::Win(Color::Black));
    apply_end(&mut tx, "g1", result, 3_000).await.unwrap();
    tx.commit().await.unwrap();
    let again = store
        .rating_list(RatingGroup::Orthodox, 10, 0)
        .await
        .unwrap();
    assert_eq!(again, once);
    let history = store
        .rating_history("anna", RatingGroup::Orthodox, 10, 0)
        .await
        .unwrap();
    assert_eq!(history.len(), 1);
    assert_eq!(history[0].at, 2_000);
    // Unrated games are never rated, whatever their end.
    assert_eq!(store.rated_game("nope").await.unwrap(), None);
    assert_eq!(
        store.rated_game("g1").await.unwrap(),
        Some(RatingGroup::Orthodox)
    );
}

/// The bot migration: members made before it are no bots; the flag is set
/// once, only before a first game; chat keeps the newest lines of a room.
#[tokio::test]
async fn bots_and_chat_after_the_migration() {
    let dir = dir();
    let store = Store::connect_unmigrated(&url(&dir)).await.unwrap();
    // Up to the bot migration (found by its SQL: later steps follow it).
    let bot_step = MIGRATIONS
        .iter()
        .position(|m| matches!(m, Migration::Sql(sql) if sql.contains("ADD COLUMN bot")))
        .unwrap();
    store.migrate(bot_step).await.unwrap();
    for name in ["Anna", "ben", "robo"] {
        let user = User {
            name: name.into(),
            role: Role::Player,
        };
        store.add_user(&user, "x", 5).await.unwrap();
    }
    store.migrate(MIGRATIONS.len()).await.unwrap();
    let anna = store.profile("ANNA").await.unwrap().unwrap();
    assert_eq!(
        (anna.name.as_str(), anna.bot, anna.created),
        ("Anna", false, 5)
    );
    assert_eq!(store.profile("nobody").await.unwrap(), None);

    let header = Header::new("g1", &GameSpec::default(), "Anna", "ben").unwrap();
    let (_, first) = HostedGame::create(header, 1_000).unwrap();
    store.add_game("Anna", "ben", &first, "g1").await.unwrap();
    use super::Upgrade;
    assert_eq!(store.make_bot("anna").await.unwrap(), Upgrade::HasPlayed);
    assert_eq!(store.make_bot("Robo").await.unwrap(), Upgrade::Done);
    assert_eq!(store.make_bot("robo").await.unwrap(), Upgrade::AlreadyBot);
    assert_eq!(store.make_bot("nobody").await.unwrap(), Upgrade::NoSuchUser);
    assert!(store.profile("robo").await.unwrap().unwrap().bot);
    let names: Vec<String> = ["anna", "ROBO", "ghost"].map(String::from).to_vec();
    assert_eq!(store.bots_among(&names).await.unwrap(), ["robo"]);
    let (name, bot, standing) = store
        .light_user("robo", RatingGroup::Orthodox)
        .await
        .unwrap()
        .unwrap();
    assert_eq!((name.as_str(), bot, standing), ("robo", true, None));

    for (i, room) in ["player", "spectator", "player", "player"]
        .iter()
        .enumerate()
    {
        let line = super::StoredChatLine {
            room: room.to_string(),
            username: "Anna".into(),
            text: format!("line {i}"),
            at: 10 + i as i64,
        };
        store.add_chat_line("g1", &line, 2).await.unwrap();
    }
    let texts = |lines: Vec<super::StoredChatLine>| -> Vec<String> {
        lines.into_iter().map(|l| l.text).collect()
    };
    assert_eq!(
        texts(store.chat_lines("g1", "player", 10).await.unwrap()),
        ["line 2", "line 3"]
    );
    assert_eq!(
        texts(store.chat_lines("g1", "spectator", 10).await.unwrap()),
        ["line 1"]
    );
    assert_eq!(
        texts(store.chat_lines("g1", "player", 1).await.unwrap()),
        ["line 3"]
    );
    // Twelve lines of one millisecond (the test clock stands still): in
    // the order written, the trim keeping the newest ten.
    for i in 0..12 {
        let line = super::StoredChatLine {
            room: "spectator".into(),
            username: "ben".into(),
            text: format!("same {i}"),
            at: 99,
        };
        store.add_chat_line("g1", &line, 10).await.unwrap();
    }
    let kept = texts(store.chat_lines("g1", "spectator", 20).await.unwrap());
    let newest: Vec<String> = (2..12).map(|i| format!("same {i}")).collect();
    assert_eq!(kept, newest);
}

/// Transactions that read before they write, from four connections at once:
/// each waits for the writer before it instead of failing with
/// `SQLITE_BUSY` (a stale snapshot is not retried by SQLite's busy wait).
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn writers_that_read_first_wait_for_each_other() {
    let dir = dir();
    let store = Store::connect(&url(&dir)).await.unwrap();
    let writers = (0..4).map(|writer| {
        let store = store.clone();
        tokio::spawn(async move {
            let texts = super::tournaments::TournamentTexts {
                name: "Club evening",
                system: "keizer",
                trf: "",
                settings: "{}",
            };
            for n in 0..15 {
                let id = format!("t{writer}-{n}");
                assert!(store.insert_tournament(&id, &texts, 0).await.unwrap());
            }
        })
    });
    for writer in writers.collect::<Vec<_>>() {
        writer.await.unwrap();
    }
    let count: i64 = sqlx::query("SELECT COUNT(*) FROM tournaments")
        .fetch_one(&store.pool)
        .await
        .unwrap()
        .try_get(0)
        .unwrap();
    assert_eq!(count, 60);
}
