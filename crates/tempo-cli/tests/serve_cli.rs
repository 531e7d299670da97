//! The server as a process: accounts and backups from the command line,
//! and `kill -9` under load — after a restart every acknowledged commit
//! is there and every log verifies.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use rand::{RngExt, SeedableRng};
use serde_json::{Value, json};
use tempo_chess::Color;
use tempo_host::chain::verify_log;
use tempo_sync::{Rules, SyncGame, Variant};

mod common;
use common::temp_dir;

fn tempo(args: &[&str], stdin: &str) -> std::process::Output {
    common::tempo_with_stdin(args, stdin)
}

fn add_user(data: &str, name: &str) {
    let out = tempo(
        &["user", "add", name, "--data", data],
        &format!("{name}-password\n"),
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn accounts_and_backups_from_the_command_line() {
    let dir = temp_dir("backup");
    let data = dir.join("data");
    let data = data.to_str().unwrap();
    add_user(data, "anna");
    let again = tempo(
        &["user", "add", "ANNA", "--data", data],
        "another-password\n",
    );
    assert!(!again.status.success());
    assert!(String::from_utf8_lossy(&again.stderr).contains("taken"));
    let short = tempo(&["user", "add", "ben", "--data", data], "short\n");
    assert!(String::from_utf8_lossy(&short.stderr).contains("password"));

    let copy = dir.join("copy.sqlite");
    let out = tempo(&["backup", "--data", data, copy.to_str().unwrap()], "");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let twice = tempo(&["backup", "--data", data, copy.to_str().unwrap()], "");
    assert!(String::from_utf8_lossy(&twice.stderr).contains("exists"));
    // Restored into a new data directory, the copy holds the account.
    let restored = dir.join("restored");
    std::fs::create_dir_all(&restored).unwrap();
    std::fs::copy(&copy, restored.join("tempo.sqlite")).unwrap();
    let taken = tempo(
        &["user", "add", "anna", "--data", restored.to_str().unwrap()],
        "whatever-password\n",
    );
    assert!(String::from_utf8_lossy(&taken.stderr).contains("taken"));
    std::fs::remove_dir_all(&dir).ok();
}

/// A running `tempo serve`.
struct Server {
    child: Child,
    address: String,
}

impl Server {
    fn start(data: &str) -> Server {
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .unwrap()
            .local_addr()
            .unwrap()
            .port();
        let address = format!("127.0.0.1:{port}");
        let mut child = Command::new(env!("CARGO_BIN_EXE_tempo"))
            .args(["serve", "--listen", &address, "--data", data])
            .env("RUST_LOG", "error")
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let mut line = String::new();
        BufReader::new(child.stdout.take().unwrap())
            .read_line(&mut line)
            .unwrap();
        assert!(line.contains("serving on"), "{line}");
        Server { child, address }
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// One HTTP/1.1 request on its own connection: status and body.
fn http(
    address: &str,
    method: &str,
    path: &str,
    token: Option<&str>,
    body: Option<Value>,
) -> std::io::Result<(u16, String)> {
    let mut stream = TcpStream::connect(address)?;
    stream.set_read_timeout(Some(Duration::from_secs(10)))?;
    let body = body.map(|b| b.to_string()).unwrap_or_default();
    let auth = token
        .map(|t| format!("Authorization: Bearer {t}\r\n"))
        .unwrap_or_default();
    write!(
        stream,
        "{method} {path} HTTP/1.1\r\nHost: test\r\nConnection: close\r\n{auth}Content-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    )?;
    let mut response = String::new();
    stream.read_to_string(&mut response)?;
    let status = response
        .get(9..12)
        .and_then(|s| s.parse().ok())
        .unwrap_or(0);
    let body = response
        .split_once("\r\n\r\n")
        .map(|(_, b)| b.to_string())
        .unwrap_or_default();
    Ok((status, body))
}

fn json_of(text: &str) -> Value {
    serde_json::from_str(text).unwrap_or(Value::Null)
}

/// A commit the server answered 200: game, step, colour, choice.
type Acknowledged = (String, u64, Color, String);

#[test]
fn every_acknowledged_commit_survives_kill_9() {
    let dir = temp_dir("kill9");
    let data = dir.join("data");
    let data = data.to_str().unwrap();
    for name in ["anna", "ben"] {
        add_user(data, name);
    }
    let server = Server::start(data);
    let token = |name: &str| {
        let body = json!({"username": name, "password": format!("{name}-password")});
        json_of(
            &http(&server.address, "POST", "/api/token", None, Some(body))
                .unwrap()
                .1,
        )["token"]
            .as_str()
            .unwrap()
            .to_string()
    };
    let tokens = [token("anna"), token("ben")];
    let mut games = Vec::new();
    for _ in 0..8 {
        let spec = json!({"variant": "synchronschach", "color": "white"});
        let (_, c) = http(
            &server.address,
            "POST",
            "/api/challenge/ben",
            Some(&tokens[0]),
            Some(spec),
        )
        .unwrap();
        let id = json_of(&c)["id"].as_str().unwrap().to_string();
        let (_, g) = http(
            &server.address,
            "POST",
            &format!("/api/challenge/{id}/accept"),
            Some(&tokens[1]),
            None,
        )
        .unwrap();
        games.push(json_of(&g)["gameId"].as_str().unwrap().to_string());
    }
    // Load: every game plays random legal steps until the server dies.
    let acknowledged: Arc<Mutex<Vec<Acknowledged>>> = Arc::default();
    let address = server.address.clone();
    let threads: Vec<_> = games
        .iter()
        .enumerate()
        .map(|(n, game)| {
            let (game, tokens, address, acknowledged) = (
                game.clone(),
                tokens.clone(),
                address.clone(),
                acknowledged.clone(),
            );
            std::thread::spawn(move || {
                let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(n as u64);
                let mut local = SyncGame::new(Rules::new(Variant::Synchronschach));
                for step in 0u64.. {
                    if local.is_over() {
                        return;
                    }
                    let choices = Color::ALL.map(|c| {
                        let options = local.choices(c);
                        (!options.is_empty()).then(|| options[rng.random_range(0..options.len())])
                    });
                    for color in Color::ALL {
                        let Some(choice) = choices[color.index()] else {
                            continue;
                        };
                        let text = choice.to_string();
                        let path = format!("/api/board/game/{game}/move/{text}");
                        match http(&address, "POST", &path, Some(&tokens[color.index()]), None) {
                            Ok((200, _)) => {
                                acknowledged
                                    .lock()
                                    .unwrap()
                                    .push((game.clone(), step, color, text))
                            }
                            _ => return,
                        }
                    }
                    local = local.resolve(choices[0], choices[1]).unwrap().0;
                }
            })
        })
        .collect();
    let start = Instant::now();
    while acknowledged.lock().unwrap().len() < 150 && start.elapsed() < Duration::from_secs(20) {
        std::thread::sleep(Duration::from_millis(20));
    }
    drop(server); // SIGKILL, mid-load
    for thread in threads {
        let _ = thread.join();
    }
    let acknowledged = acknowledged.lock().unwrap().clone();
    assert!(
        acknowledged.len() >= 150,
        "{} commits before the kill",
        acknowledged.len()
    );

    let server = Server::start(data);
    for game in &games {
        let (status, log) = http(
            &server.address,
            "GET",
            &format!("/api/game/{game}/log"),
            None,
            None,
        )
        .unwrap();
        assert_eq!(status, 200);
        verify_log(&log, None).unwrap_or_else(|e| panic!("{game}: {e}"));
        let entries: Vec<Value> = log.lines().map(json_of).collect();
        let (_, own) = http(
            &server.address,
            "GET",
            &format!("/api/game/{game}"),
            Some(&tokens[0]),
            None,
        )
        .unwrap();
        let (_, theirs) = http(
            &server.address,
            "GET",
            &format!("/api/game/{game}"),
            Some(&tokens[1]),
            None,
        )
        .unwrap();
        let mine = [
            json_of(&own)["state"]["mine"].clone(),
            json_of(&theirs)["state"]["mine"].clone(),
        ];
        for (g, step, color, choice) in acknowledged.iter().filter(|a| &a.0 == game) {
            let name = color.fold("white", "black");
            let revealed = entries.iter().any(|e| {
                e["type"] == "reveal" && e["step"] == *step && e[name]["choice"] == choice.as_str()
            });
            // Not yet revealed: committed, and still the player's own choice.
            let pending = entries
                .iter()
                .any(|e| e["type"] == "committed" && e["step"] == *step && e["color"] == name)
                && mine[color.index()] == choice.as_str();
            assert!(
                revealed || pending,
                "{g}: step {step} {name} {choice} was acknowledged but is lost"
            );
        }
    }
    std::fs::remove_dir_all(&dir).ok();
}

/// Polls `check` every 50 ms for up to 20 s.
fn wait_for<T>(mut check: impl FnMut() -> Option<T>) -> T {
    let start = Instant::now();
    loop {
        if let Some(value) = check() {
            return value;
        }
        assert!(start.elapsed() < Duration::from_secs(20), "timed out");
        std::thread::sleep(Duration::from_millis(50));
    }
}

#[test]
fn a_computer_opponent_accepts_a_challenge_and_plays_through_the_api() {
    let dir = temp_dir("bots");
    let data = dir.join("data");
    let data = data.to_str().unwrap();
    add_user(data, "anna");
    let server = Server::start(data);
    let body = json!({"username": "anna", "password": "anna-password"});
    let (_, answer) = http(&server.address, "POST", "/api/token", None, Some(body)).unwrap();
    let token = json_of(&answer)["token"].as_str().unwrap().to_string();
    let spec = json!({"variant": "fairschach", "clock": "300+3", "color": "white"});
    let (status, answer) = http(
        &server.address,
        "POST",
        "/api/challenge/bot-greedy",
        Some(&token),
        Some(spec),
    )
    .unwrap();
    assert_eq!(status, 200, "{answer}");
    let game = wait_for(|| {
        let (_, playing) = http(
            &server.address,
            "GET",
            "/api/account/playing",
            Some(&token),
            None,
        )
        .ok()?;
        json_of(&playing)["nowPlaying"][0]["gameId"]
            .as_str()
            .map(str::to_string)
    });
    for (pair, choice) in ["e2e4", "d2d4", "g1f3"].into_iter().enumerate() {
        let (status, answer) = http(
            &server.address,
            "POST",
            &format!("/api/board/game/{game}/move/{choice}"),
            Some(&token),
            None,
        )
        .unwrap();
        if status != 200 {
            // A move the bot's reply made impossible (captured, paused):
            // the game went on, which is what this test is about.
            assert!(answer.contains("error"), "{answer}");
            break;
        }
        wait_for(|| {
            let (_, state) = http(
                &server.address,
                "GET",
                &format!("/api/game/{game}"),
                None,
                None,
            )
            .ok()?;
            let state = json_of(&state);
            let record = state["state"]["record"].as_array()?.len();
            (record > pair || state["state"]["status"] != "started").then_some(())
        });
    }
    let (_, log) = http(
        &server.address,
        "GET",
        &format!("/api/game/{game}/log"),
        None,
        None,
    )
    .unwrap();
    assert!(
        log.contains("\"reveal\""),
        "the bot's choices were revealed: {log}"
    );
    assert!(log.contains("bot-greedy"));
    let _ = std::fs::remove_dir_all(&dir);
}
