//! Server instances on one PostgreSQL store: they serve the same game
//! (White plays on one, Black on the other, a spectator of the first sees
//! the reveal, an overdue flag is settled exactly once); a member's event
//! stream on one hears of challenges and games made on another, once; a
//! flag falls when the instance that had the game loaded is gone, also in
//! a tournament game, exactly once however many instances sweep. The
//! sweep also runs on SQLite: a game nobody has loaded falls there too.

mod support;

use std::time::{Duration, Instant};

use axum::http::{Method, StatusCode};
use serde_json::{Value, json};
use support::TestServer;
use tempo_host::Body;
use tempo_server::AppState;

/// Another instance over `first`'s store: its own connections, hub,
/// writer and listener.
async fn another_instance(first: &TestServer) -> TestServer {
    let store = match &first.url {
        Some(url) => tempo_server::store::Store::connect(url).await.unwrap(),
        None => first.state.store.clone(),
    };
    let state = AppState::new(store).await.unwrap();
    tokio::spawn(tempo_server::follow_other_instances(state.clone()));
    TestServer::with_state(state)
}

/// How many end entries game `id`'s log has.
async fn ends(server: &TestServer, id: &str) -> usize {
    let entries = server.state.store.entries(id).await.unwrap();
    entries
        .iter()
        .filter(|e| matches!(e.body, Body::End { .. }))
        .count()
}

/// Waits until game `id` has ended in the store; how long after `since`.
async fn wait_for_end(server: &TestServer, id: &str, since: u64) -> u64 {
    let start = Instant::now();
    while server.state.store.game_end(id).await.unwrap().is_none() {
        assert!(
            start.elapsed() < Duration::from_secs(10),
            "{id} never ended"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    server.state.clock.now().saturating_sub(since)
}

/// A 2+0 game between anna and ben whose clocks run: both first moves
/// made (before them the first-move rule holds the clocks).
async fn started_game(server: &TestServer) -> String {
    let (game, anna, ben) = server
        .game(json!({"variant": "standard", "clock": "2+0"}))
        .await;
    assert_eq!(server.play(&game, &anna, "e2e4").await.0, StatusCode::OK);
    assert_eq!(server.play(&game, &ben, "e7e5").await.0, StatusCode::OK);
    game
}

/// When the flag of game `id` (in `server`'s memory) falls.
async fn deadline(server: &TestServer, id: &str) -> u64 {
    let slot = server
        .state
        .hub
        .slot(&server.state.store, id)
        .await
        .unwrap();
    let game = slot.game.lock().await;
    game.next_deadline().expect("a running clock")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_instances_share_a_game() {
    let Some(first) = TestServer::postgres().await else {
        return;
    };
    // The second instance: its own connections, hub, writer and listener.
    let url = first.url.clone().expect("a PostgreSQL server");
    let store = tempo_server::store::Store::connect(&url).await.unwrap();
    let second = TestServer::with_state(tempo_server::AppState::new(store).await.unwrap());
    for state in [&first.state, &second.state] {
        tokio::spawn(tempo_server::follow_other_instances(state.clone()));
    }
    tokio::time::sleep(Duration::from_millis(300)).await;

    let (game, anna, ben) = first
        .game(json!({"variant": "synchronschach", "clock": "2+0"}))
        .await;
    let mut spectator = first
        .stream(&format!("/api/board/game/stream/{game}"), None)
        .await;
    spectator
        .next(Duration::from_millis(300))
        .await
        .expect("gameFull");
    assert_eq!(first.play(&game, &anna, "e2e4").await.0, StatusCode::OK);
    assert_eq!(second.play(&game, &ben, "e7e5").await.0, StatusCode::OK);
    let seen = spectator
        .drain(Duration::from_millis(1_000))
        .await
        .join("\n");
    assert!(seen.contains(r#""type":"reveal""#), "{seen}");
    // The first instance's copy is current again: White plays there.
    assert_eq!(first.play(&game, &anna, "d2d4").await.0, StatusCode::OK);

    // Both instances look for the flag at once: one end entry.
    tokio::time::sleep(Duration::from_millis(2_100)).await;
    let now = first.state.clock.now().max(second.state.clock.now());
    let (a, b) = (first.state.clone(), second.state.clone());
    tokio::join!(
        a.hub.settle_flags(&a.store, &a.writer, now),
        b.hub.settle_flags(&b.store, &b.writer, now),
    );
    let entries = first.state.store.entries(&game).await.unwrap();
    let ends = entries
        .iter()
        .filter(|e| matches!(e.body, Body::End { .. }))
        .count();
    assert_eq!(ends, 1, "{entries:#?}");
    first.finish().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn lobby_events_reach_every_instance_once() {
    let Some(first) = TestServer::postgres().await else {
        return;
    };
    tokio::spawn(tempo_server::follow_other_instances(first.state.clone()));
    let second = another_instance(&first).await;
    // A server of another store on the same database (another schema):
    // notifications reach it too, and it must ignore them.
    let elsewhere = TestServer::postgres().await.unwrap();
    tokio::spawn(tempo_server::follow_other_instances(
        elsewhere.state.clone(),
    ));
    tokio::time::sleep(Duration::from_millis(300)).await;
    let (anna, ben) = (first.token("anna").await, second.token("ben").await);
    let events = "/api/stream/event";
    let ben_elsewhere = elsewhere.token("ben").await;
    let mut not_this_ben = elsewhere.stream(events, Some(&ben_elsewhere)).await;
    let mut streams = [
        second.stream(events, Some(&ben)).await,
        first.stream(events, Some(&ben)).await,
        first.stream(events, Some(&anna)).await,
        second.stream(events, Some(&anna)).await,
    ];
    let quiet = Duration::from_millis(700);
    for stream in &mut streams {
        assert!(stream.drain(Duration::from_millis(100)).await.is_empty());
    }
    let (status, made) = first
        .call(
            Method::POST,
            "/api/challenge/ben",
            Some(&anna),
            Some(json!({"variant": "synchronschach", "clock": "300+0", "color": "white"})),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{made}");
    let id = made["id"].as_str().unwrap();
    for stream in &mut streams {
        let seen = stream.drain(quiet).await;
        assert_eq!(seen.len(), 1, "one event on each stream: {seen:?}");
        let event: Value = serde_json::from_str(&seen[0]).unwrap();
        assert_eq!(event["type"], "challenge");
        assert_eq!(event["challenge"]["id"], id);
        assert_eq!(event["challenge"]["challenger"]["name"], "anna");
        assert_eq!(event["challenge"]["destUser"]["name"], "ben");
        assert_eq!(event["challenge"]["clock"], "300+0");
    }
    let (status, accepted) = second
        .call(
            Method::POST,
            &format!("/api/challenge/{id}/accept"),
            Some(&ben),
            None,
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{accepted}");
    let game = accepted["gameId"].as_str().unwrap();
    // Each player's own gameStart, from their seat (ben's streams first).
    for (i, stream) in streams.iter_mut().enumerate() {
        let seen = stream.drain(quiet).await;
        assert_eq!(seen.len(), 1, "one event on each stream: {seen:?}");
        let event: Value = serde_json::from_str(&seen[0]).unwrap();
        assert_eq!(event["type"], "gameStart");
        assert_eq!(event["game"]["id"], game);
        let (color, opponent) = if i < 2 {
            ("black", "anna")
        } else {
            ("white", "ben")
        };
        assert_eq!(event["game"]["color"], color, "{event}");
        assert_eq!(event["game"]["opponent"]["username"], opponent, "{event}");
        assert_eq!(event["game"]["isMyTurn"], true, "{event}");
    }
    // A step's commits on either instance: the reveal (stored by the
    // second commit's instance) tells both players, on every stream, once.
    assert_eq!(first.play(game, &anna, "e2e4").await.0, StatusCode::OK);
    assert_eq!(second.play(game, &ben, "d7d5").await.0, StatusCode::OK);
    for stream in &mut streams {
        let seen = stream.drain(quiet).await;
        assert_eq!(seen.len(), 1, "one event on each stream: {seen:?}");
        let event: Value = serde_json::from_str(&seen[0]).unwrap();
        assert_eq!(event["type"], "yourTurn");
        assert_eq!(event["game"]["id"], game);
    }
    // A challenge whose full event is too long for a notification (a
    // time control of many periods): the other instance reads the
    // challenge and tells its streams the full event all the same.
    let long_clock = vec!["40/5400"; 1_000].join(":");
    let (status, made) = first
        .call(
            Method::POST,
            "/api/challenge/ben",
            Some(&anna),
            Some(json!({"clock": long_clock, "color": "black"})),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{made}");
    let id = made["id"].as_str().unwrap();
    for stream in &mut streams {
        let seen = stream.drain(quiet).await;
        assert_eq!(seen.len(), 1, "one event on each stream: {seen:?}");
        let event: Value = serde_json::from_str(&seen[0]).unwrap();
        assert_eq!(event["type"], "challenge");
        assert_eq!(event["challenge"]["id"], id);
        assert_eq!(event["challenge"]["clock"], long_clock.as_str());
        assert_eq!(event["challenge"]["challenger"]["name"], "anna");
        assert_eq!(event["challenge"]["finalColor"], "black");
        assert_eq!(
            event["challenge"]["url"],
            format!("http://localhost/challenge/{id}")
        );
    }
    let (status, _) = second
        .call(
            Method::POST,
            &format!("/api/challenge/{id}/decline"),
            Some(&ben),
            Some(json!({"reason": "tooSlow"})),
        )
        .await;
    assert_eq!(status, StatusCode::OK);
    for stream in &mut streams {
        let seen = stream.drain(quiet).await;
        assert_eq!(seen.len(), 1, "one event on each stream: {seen:?}");
        let event: Value = serde_json::from_str(&seen[0]).unwrap();
        assert_eq!(event["type"], "challengeDeclined");
        assert_eq!(event["challenge"]["status"], "declined");
        assert_eq!(event["challenge"]["declineReasonKey"], "tooSlow");
    }
    // Challenges cancelled as soon as made, each in the short form: every
    // stream hears each one's events in order, and none that shows a
    // closed challenge as `challenge` (one read after its cancel is
    // dropped; the cancel follows).
    let mut made_ids = Vec::new();
    for _ in 0..4 {
        let (status, made) = first
            .call(
                Method::POST,
                "/api/challenge/ben",
                Some(&anna),
                Some(json!({"clock": long_clock})),
            )
            .await;
        assert_eq!(status, StatusCode::OK, "{made}");
        let id = made["id"].as_str().unwrap().to_string();
        let cancel = format!("/api/challenge/{id}/cancel");
        let (status, _) = first.call(Method::POST, &cancel, Some(&anna), None).await;
        assert_eq!(status, StatusCode::OK);
        made_ids.push(id);
    }
    for stream in &mut streams {
        let seen: Vec<Value> = stream
            .drain(quiet)
            .await
            .iter()
            .map(|line| serde_json::from_str(line).unwrap())
            .collect();
        for id in &made_ids {
            let of_it: Vec<&Value> = seen
                .iter()
                .filter(|e| e["challenge"]["id"] == id.as_str())
                .collect();
            let last = of_it.last().expect("the cancel");
            assert_eq!(last["type"], "challengeCanceled", "{of_it:?}");
            assert_eq!(
                of_it.len() - 1,
                of_it.iter().filter(|e| e["type"] == "challenge").count()
            );
            for event in &of_it[..of_it.len() - 1] {
                assert_eq!(event["challenge"]["status"], "created", "{of_it:?}");
            }
        }
    }
    assert_eq!(not_this_ben.drain(quiet).await, Vec::<String>::new());
    first.finish().await;
    elsewhere.finish().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_flag_falls_when_the_instance_that_had_the_game_is_gone() {
    let Some(first) = TestServer::postgres().await else {
        return;
    };
    // The first instance loads the game and then does nothing more (no
    // flag ticker, no sweep: as after a crash).
    let game = started_game(&first).await;
    let falls = deadline(&first, &game).await;
    let second = another_instance(&first).await;
    tokio::spawn(tempo_server::sweep_flags(second.state.clone()));
    let late = wait_for_end(&second, &game, falls).await;
    eprintln!("PostgreSQL: a dead instance's flag settled {late} ms after it fell");
    assert!(late < 2_000, "settled {late} ms after the flag");
    let entries = second.state.store.entries(&game).await.unwrap();
    let last = entries.last().unwrap();
    assert!(matches!(last.body, Body::End { .. }), "{last:?}");
    // Dated at the fall, not at the sweep.
    assert!(last.at <= falls + 50, "{} vs {falls}", last.at);
    assert_eq!(ends(&second, &game).await, 1);
    let (_, view) = second
        .call(Method::GET, &format!("/api/game/{game}"), None, None)
        .await;
    assert_eq!(view["state"]["status"], "outoftime", "{view}");
    first.finish().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn instances_sweeping_at_once_settle_a_flag_once() {
    let Some(first) = TestServer::postgres().await else {
        return;
    };
    let game = started_game(&first).await;
    let falls = deadline(&first, &game).await;
    let (second, third) = (
        another_instance(&first).await,
        another_instance(&first).await,
    );
    let due = falls + tempo_server::SWEEP_GRACE.as_millis() as u64 + 50;
    tokio::time::sleep(Duration::from_millis(
        due.saturating_sub(first.state.clock.now()),
    ))
    .await;
    let (a, b) = tokio::join!(
        tempo_server::sweep_once(&second.state),
        tempo_server::sweep_once(&third.state),
    );
    assert_eq!(a + b, 1, "one instance claims the game");
    assert!(second.state.store.game_end(&game).await.unwrap().is_some());
    // Sweeping on, and the instance that has it in memory looking for
    // flags too, change nothing.
    for server in [&second, &third] {
        tokio::spawn(tempo_server::sweep_flags(server.state.clone()));
    }
    let now = first.state.clock.now();
    first
        .state
        .hub
        .settle_flags(&first.state.store, &first.state.writer, now)
        .await;
    tokio::time::sleep(Duration::from_millis(1_200)).await;
    assert_eq!(ends(&first, &game).await, 1);
    first.finish().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_tournament_game_s_result_follows_a_swept_flag() {
    let Some(first) = TestServer::postgres().await else {
        return;
    };
    let arb = first.token("arb").await;
    let call = |method: Method, uri: String, body: Value| {
        let (server, arb) = (&first, arb.clone());
        async move {
            let body = (!body.is_null()).then_some(body);
            let (status, answer) = server.call(method, &uri, Some(&arb), body).await;
            assert_eq!(status, StatusCode::OK, "{uri}: {answer}");
            answer
        }
    };
    let made = call(
        Method::POST,
        "/api/tournaments".into(),
        json!({"name": "Blitz", "system": "round-robin", "clock": "2+0"}),
    )
    .await;
    let base = format!("/api/tournaments/{}", made["id"].as_str().unwrap());
    for (name, user) in [("Anna", "anna"), ("Ben", "ben")] {
        let player = json!({"name": name, "username": user});
        call(Method::POST, format!("{base}/players"), player).await;
    }
    let round = call(
        Method::POST,
        format!("{base}/rounds"),
        json!({"online": true}),
    )
    .await;
    let game = round["boards"][0]["gameId"].as_str().unwrap().to_string();
    let falls = deadline(&first, &game).await;
    // Only another instance sweeps; the first has the game and is gone.
    let second = another_instance(&first).await;
    tokio::spawn(tempo_server::sweep_flags(second.state.clone()));
    wait_for_end(&second, &game, falls).await;
    let start = Instant::now();
    loop {
        let (_, round) = second
            .call(Method::GET, &format!("{base}/rounds/1"), None, None)
            .await;
        // White's flag fell first: Black wins.
        if round["boards"][0]["result"] == "0-1" {
            break;
        }
        assert!(start.elapsed() < Duration::from_secs(5), "{round}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    first.finish().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn on_sqlite_the_sweep_settles_a_game_nobody_has_loaded() {
    let first = TestServer::sqlite().await;
    let game = started_game(&first).await;
    let falls = deadline(&first, &game).await;
    // A fresh state over the same store (as after a restart): the game is
    // in nobody's memory.
    let second = TestServer::with_state(AppState::new(first.state.store.clone()).await.unwrap());
    tokio::spawn(tempo_server::sweep_flags(second.state.clone()));
    let late = wait_for_end(&second, &game, falls).await;
    eprintln!("SQLite: a flag nobody had loaded settled {late} ms after it fell");
    assert!(late < 2_000, "settled {late} ms after the flag");
    assert_eq!(ends(&second, &game).await, 1);
}

/// The stored next flag may be early, never late. Another instance's sweep
/// may raise it behind the back of the instance that has the game in
/// memory; that instance's next append, which thinks the stored instant
/// early enough to keep, lowers it again on PostgreSQL.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_next_flag_raised_elsewhere_is_lowered_by_the_next_append() {
    let Some(server) = TestServer::postgres().await else {
        return;
    };
    let (game, anna, ben) = server
        .game(json!({"variant": "standard", "clock": "2+0"}))
        .await;
    assert_eq!(server.play(&game, &anna, "e2e4").await.0, StatusCode::OK);
    assert_eq!(server.play(&game, &ben, "e7e5").await.0, StatusCode::OK);
    let store = &server.state.store;
    let seq = store.last_seq(&game).await.unwrap().unwrap();
    let far = server.state.clock.now() + 3_600_000;
    assert!(store.set_next_flag(&game, seq, Some(far)).await.unwrap());
    assert_eq!(server.play(&game, &anna, "g1f3").await.0, StatusCode::OK);
    let falls = deadline(&server, &game).await;
    assert!(falls < far);
    let due = store
        .claim_due_flags("test", falls, 0, 1, 10)
        .await
        .unwrap();
    assert_eq!(due, [game], "the stored flag is no later than {falls}");
    server.finish().await;
}
