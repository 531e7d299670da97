//! Operating the server as a process: settings from the environment and
//! secret files, one server per SQLite store, scheduled backups with
//! retention, and a restore that brings the games and their logs back.

use std::collections::BTreeSet;
use std::io::{Read, Write};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

mod common;
use common::temp_dir;

/// The variables tempo reads; none leaks in from the developer's shell.
const SETTINGS: &[&str] = &[
    "TEMPO_LISTEN",
    "TEMPO_DATA",
    "TEMPO_DATABASE_URL",
    "TEMPO_DATABASE_URL_FILE",
    "TEMPO_ADMIN_PASSWORD",
    "TEMPO_ADMIN_PASSWORD_FILE",
    "TEMPO_BACKUP_EVERY",
    "TEMPO_BACKUP_KEEP",
    "TEMPO_BACKUP_DIR",
];

fn command(args: &[&str], env: &[(&str, &str)]) -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_tempo"));
    command.args(args).env("RUST_LOG", "error");
    for name in SETTINGS {
        command.env_remove(name);
    }
    command.envs(env.iter().copied());
    command
}

/// Runs tempo to its end with `stdin`.
fn tempo(args: &[&str], env: &[(&str, &str)], stdin: &str) -> Output {
    common::run_with_stdin(command(args, env), stdin)
}

fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

fn add_user(data: &Path, name: &str) {
    let out = tempo(
        &["user", "add", name, "--data", data.to_str().unwrap()],
        &[],
        &format!("{name}-password\n"),
    );
    assert!(out.status.success(), "{}", stderr(&out));
}

fn free_address() -> String {
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    format!("127.0.0.1:{port}")
}

/// A running `tempo serve`; killed when dropped.
struct Server {
    child: Child,
    address: String,
    /// What it printed before serving.
    notice: String,
    /// Everything it prints on standard output (its log too), read as it
    /// comes: a closed pipe would end the server at its next line.
    output: Arc<Mutex<String>>,
}

impl Server {
    /// Starts `tempo serve ARGS` and waits for its notice; the listen
    /// address is the one it reports.
    fn start(args: &[&str], env: &[(&str, &str)]) -> Server {
        let mut full = vec!["serve", "--no-bots"];
        full.extend_from_slice(args);
        let mut child = command(&full, env)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let output = Arc::new(Mutex::new(String::new()));
        let mut stdout = child.stdout.take().unwrap();
        let sink = output.clone();
        std::thread::spawn(move || {
            let mut chunk = [0u8; 4096];
            while let Ok(n @ 1..) = stdout.read(&mut chunk) {
                sink.lock()
                    .unwrap()
                    .push_str(&String::from_utf8_lossy(&chunk[..n]));
            }
        });
        // The notice is one write: once its first line is there, all is.
        let start = Instant::now();
        let notice = loop {
            let text = output.lock().unwrap().clone();
            if text.contains("serving on") {
                break text;
            }
            if start.elapsed() > Duration::from_secs(20) || child.try_wait().unwrap().is_some() {
                let _ = child.kill();
                let mut err = String::new();
                child
                    .stderr
                    .take()
                    .unwrap()
                    .read_to_string(&mut err)
                    .unwrap();
                panic!("tempo serve did not start: {text}{err}");
            }
            std::thread::sleep(Duration::from_millis(20));
        };
        let address = notice
            .lines()
            .find_map(|line| line.split_once("serving on http://"))
            .map(|(_, address)| address.trim().to_string())
            .unwrap();
        Server {
            child,
            address,
            notice,
            output,
        }
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
) -> (u16, String) {
    let mut stream = TcpStream::connect(address).unwrap();
    stream
        .set_read_timeout(Some(Duration::from_secs(10)))
        .unwrap();
    let body = body.map(|b| b.to_string()).unwrap_or_default();
    let auth = token
        .map(|t| format!("Authorization: Bearer {t}\r\n"))
        .unwrap_or_default();
    write!(
        stream,
        "{method} {path} HTTP/1.1\r\nHost: test\r\nConnection: close\r\n{auth}Content-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    )
    .unwrap();
    let mut response = String::new();
    stream.read_to_string(&mut response).unwrap();
    let status = response
        .get(9..12)
        .and_then(|s| s.parse().ok())
        .unwrap_or(0);
    let body = response
        .split_once("\r\n\r\n")
        .map(|(_, b)| b.to_string())
        .unwrap_or_default();
    (status, body)
}

fn json_of(text: &str) -> Value {
    serde_json::from_str(text).unwrap_or(Value::Null)
}

/// A token for `name` with `password`, or the status of the refusal.
fn login(address: &str, name: &str, password: &str) -> Result<String, u16> {
    let body = json!({"username": name, "password": password});
    let (status, answer) = http(address, "POST", "/api/token", None, Some(body));
    match status {
        200 => Ok(json_of(&answer)["token"].as_str().unwrap().to_string()),
        other => Err(other),
    }
}

/// Flags, variables, and a part of the one-line error they must give.
type Refusal<'a> = (&'a [&'a str], &'a [(&'a str, &'a str)], &'a str);

#[test]
fn settings_come_from_flags_the_environment_and_secret_files() {
    let help = tempo(&["serve", "--help"], &[], "");
    let help = String::from_utf8_lossy(&help.stdout);
    for name in SETTINGS {
        assert!(help.contains(name), "{name} in --help:\n{help}");
    }

    let dir = temp_dir("ops-settings");
    let data = dir.join("data");
    let secret = dir.join("admin-password");
    std::fs::write(&secret, "from-the-secret-file\n").unwrap();
    let address = free_address();
    // Everything from the environment; the file's newline is not part of
    // the password.
    let server = Server::start(
        &[],
        &[
            ("TEMPO_LISTEN", &address),
            ("TEMPO_DATA", data.to_str().unwrap()),
            ("TEMPO_ADMIN_PASSWORD_FILE", secret.to_str().unwrap()),
        ],
    );
    assert_eq!(server.address, address);
    assert!(
        server.notice.contains("from TEMPO_ADMIN_PASSWORD_FILE"),
        "{}",
        server.notice
    );
    assert!(data.join("tempo.sqlite").exists());
    login(&address, "admin", "from-the-secret-file").expect("the file's password");
    assert_eq!(login(&address, "admin", "from-the-secret-file\n"), Err(401));
    drop(server);

    // A flag wins over the variable: another address, another store, and
    // the password file named by the flag over TEMPO_ADMIN_PASSWORD.
    let flagged = free_address();
    let other = dir.join("other");
    let server = Server::start(
        &[
            "--listen",
            &flagged,
            "--data",
            other.to_str().unwrap(),
            "--admin-password-file",
            secret.to_str().unwrap(),
        ],
        &[
            ("TEMPO_LISTEN", "127.0.0.1:1"),
            ("TEMPO_DATA", data.to_str().unwrap()),
            ("TEMPO_ADMIN_PASSWORD", "from-the-variable"),
        ],
    );
    assert_eq!(server.address, flagged);
    assert!(other.join("tempo.sqlite").exists());
    login(&flagged, "admin", "from-the-secret-file").expect("the flag's file");
    assert_eq!(login(&flagged, "admin", "from-the-variable"), Err(401));
    drop(server);

    let missing = dir.join("no-such-file");
    let missing = missing.to_str().unwrap();
    let fresh = dir.join("fresh");
    let fresh = fresh.to_str().unwrap();
    let refusals: [Refusal; 7] = [
        (
            &["--data", fresh],
            &[
                ("TEMPO_ADMIN_PASSWORD", "x-long-password"),
                ("TEMPO_ADMIN_PASSWORD_FILE", missing),
            ],
            "TEMPO_ADMIN_PASSWORD and TEMPO_ADMIN_PASSWORD_FILE are both set",
        ),
        (
            &["--data", fresh],
            &[("TEMPO_ADMIN_PASSWORD_FILE", missing)],
            &format!("TEMPO_ADMIN_PASSWORD_FILE {missing}: "),
        ),
        (
            &[],
            &[
                ("TEMPO_DATABASE_URL", "postgres://a@h/db"),
                ("TEMPO_DATABASE_URL_FILE", missing),
            ],
            "TEMPO_DATABASE_URL and TEMPO_DATABASE_URL_FILE are both set",
        ),
        (
            &[
                "--database",
                "postgres://a@h/db",
                "--database-url-file",
                missing,
            ],
            &[],
            "--database and --database-url-file: give one of them",
        ),
        (
            &[],
            &[("TEMPO_DATABASE_URL_FILE", missing)],
            &format!("TEMPO_DATABASE_URL_FILE {missing}: "),
        ),
        // The flag's file over the variable's URL: the file is read.
        (
            &["--database-url-file", missing],
            &[("TEMPO_DATABASE_URL", "postgres://a@h/db")],
            &format!("--database-url-file {missing}: "),
        ),
        // The flag's URL over the variable's file: the file is not read.
        (
            &["--database", "no-such-scheme://x"],
            &[("TEMPO_DATABASE_URL_FILE", missing)],
            "--database no-such-scheme://x: ",
        ),
    ];
    for (args, env, expected) in refusals {
        let mut full = vec!["serve", "--no-bots", "--listen", "127.0.0.1:0"];
        full.extend_from_slice(args);
        let out = tempo(&full, env, "");
        assert!(!out.status.success(), "{args:?} {env:?} started");
        let message = stderr(&out);
        assert!(
            message.starts_with("tempo: error: ") && message.contains(expected),
            "{args:?} {env:?}: {message}"
        );
        assert_eq!(message.lines().count(), 1, "{message}");
    }
    // A secret file's URL, like the variable's, is never printed whole.
    let url_file = dir.join("url");
    std::fs::write(&url_file, "no-such-scheme://me:s3cret@h/db\n").unwrap();
    let out = tempo(
        &[
            "user",
            "add",
            "dora",
            "--database-url-file",
            url_file.to_str().unwrap(),
        ],
        &[],
        "dora-password\n",
    );
    let message = stderr(&out);
    assert!(message.contains("no-such-scheme://me@h/db"), "{message}");
    assert!(!message.contains("s3cret"), "{message}");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn a_second_server_on_one_sqlite_store_is_refused() {
    let dir = temp_dir("ops-lock");
    let data = dir.join("data");
    let data_arg = data.to_str().unwrap();
    add_user(&data, "anna");
    let first = Server::start(&["--listen", "127.0.0.1:0", "--data", data_arg], &[]);
    let pid = first.child.id();

    let second = tempo(
        &[
            "serve",
            "--no-bots",
            "--listen",
            "127.0.0.1:0",
            "--data",
            data_arg,
        ],
        &[],
        "",
    );
    assert!(!second.status.success());
    let message = stderr(&second);
    assert_eq!(message.lines().count(), 1, "{message}");
    assert!(message.contains(&format!("--data {data_arg}")), "{message}");
    assert!(
        message.contains(&format!("tempo serve (pid {pid})")),
        "{message}"
    );
    assert!(message.contains("one server per SQLite store"), "{message}");
    // The same through the environment.
    let second = tempo(
        &["serve", "--no-bots", "--listen", "127.0.0.1:0"],
        &[("TEMPO_DATA", data_arg)],
        "",
    );
    assert!(stderr(&second).contains(&format!("(pid {pid})")));

    // Accounts and backups still work beside the running server; a
    // restore does not.
    add_user(&data, "ben");
    let copy = dir.join("copy.sqlite");
    let out = tempo(
        &["backup", "--data", data_arg, copy.to_str().unwrap()],
        &[],
        "",
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let out = tempo(
        &["restore", copy.to_str().unwrap(), "--data", data_arg],
        &[],
        "",
    );
    assert!(!out.status.success());
    let message = stderr(&out);
    assert!(
        message.contains(&format!("(pid {pid})")) && message.contains("stop the server"),
        "{message}"
    );
    login(&first.address, "ben", "ben-password").expect("ben, added beside the server");

    // When the first server is gone (even by SIGKILL), the store is free.
    drop(first);
    let again = Server::start(&["--listen", "127.0.0.1:0", "--data", data_arg], &[]);
    login(&again.address, "anna", "anna-password").expect("anna");
    drop(again);
    std::fs::remove_dir_all(&dir).ok();
}

/// The finished backups in `dir`, by name.
fn backups_in(dir: &Path) -> BTreeSet<String> {
    std::fs::read_dir(dir)
        .map(|entries| {
            entries
                .filter_map(|e| e.ok()?.file_name().into_string().ok())
                .filter(|n| n.starts_with("tempo-") && n.ends_with("Z.sqlite"))
                .collect()
        })
        .unwrap_or_default()
}

/// Polls `check` every 100 ms for up to `limit`.
fn wait_for<T>(limit: Duration, mut check: impl FnMut() -> Option<T>) -> T {
    let start = Instant::now();
    loop {
        if let Some(value) = check() {
            return value;
        }
        assert!(start.elapsed() < limit, "timed out");
        std::thread::sleep(Duration::from_millis(100));
    }
}

/// A synchronschach game between anna and ben with `steps` played; its id.
fn play_game(address: &str, tokens: &[String; 2], steps: &[(&str, &str)]) -> String {
    let spec = json!({"variant": "synchronschach", "color": "white"});
    let (status, challenge) = http(
        address,
        "POST",
        "/api/challenge/ben",
        Some(&tokens[0]),
        Some(spec),
    );
    assert_eq!(status, 200, "{challenge}");
    let id = json_of(&challenge)["id"].as_str().unwrap().to_string();
    let (status, game) = http(
        address,
        "POST",
        &format!("/api/challenge/{id}/accept"),
        Some(&tokens[1]),
        None,
    );
    assert_eq!(status, 200, "{game}");
    let game = json_of(&game)["gameId"].as_str().unwrap().to_string();
    for (white, black) in steps {
        for (token, choice) in [(&tokens[0], white), (&tokens[1], black)] {
            let path = format!("/api/board/game/{game}/move/{choice}");
            let (status, answer) = http(address, "POST", &path, Some(token), None);
            assert_eq!(status, 200, "{choice}: {answer}");
        }
    }
    game
}

#[test]
fn scheduled_backups_are_pruned_and_a_restore_brings_the_games_back() {
    let dir = temp_dir("ops-restore");
    let data = dir.join("data");
    let data_arg = data.to_str().unwrap();
    let backups = dir.join("backups");
    for name in ["anna", "ben"] {
        add_user(&data, name);
    }
    // PostgreSQL is backed up with its own tools.
    let out = tempo(
        &[
            "serve",
            "--database",
            "postgres://a@127.0.0.1:1/db",
            "--backup-every",
            "1h",
        ],
        &[],
        "",
    );
    assert!(stderr(&out).contains("pg_dump"), "{}", stderr(&out));
    for bad in ["0s", "6", "6w"] {
        let out = tempo(
            &["serve", "--data", data_arg, "--backup-every", bad],
            &[],
            "",
        );
        assert!(!out.status.success() && stderr(&out).contains(bad), "{bad}");
    }

    let server = Server::start(
        &[
            "--listen",
            "127.0.0.1:0",
            "--data",
            data_arg,
            "--backup-every",
            "1s",
            "--backup-keep",
            "2",
            "--backup-dir",
            backups.to_str().unwrap(),
        ],
        &[],
    );
    assert!(
        server.notice.contains("backups every 1s"),
        "{}",
        server.notice
    );
    let address = server.address.clone();
    let tokens = [
        login(&address, "anna", "anna-password").unwrap(),
        login(&address, "ben", "ben-password").unwrap(),
    ];
    let games = [
        play_game(&address, &tokens, &[("e2e4", "e7e5"), ("g1f3", "b8c6")]),
        play_game(&address, &tokens, &[("d2d4", "d7d5")]),
    ];
    let logs_of = |address: &str| -> Vec<String> {
        games
            .iter()
            .map(|game| {
                let (status, log) =
                    http(address, "GET", &format!("/api/game/{game}/log"), None, None);
                assert_eq!(status, 200, "{log}");
                log
            })
            .collect()
    };
    let logs = logs_of(&address);
    let (_, key) = http(&address, "GET", "/api/server-key", None, None);
    // Every backup after this point holds the games: two new names (the
    // first may have begun before the last move).
    let before = backups_in(&backups);
    let mut seen = before.clone();
    let mut most = 0;
    wait_for(Duration::from_secs(20), || {
        let now = backups_in(&backups);
        most = most.max(now.len());
        seen.extend(now.iter().cloned());
        (seen.difference(&before).count() >= 3 && seen.len() >= 4).then_some(())
    });
    // For a moment there is one more: the new backup is complete before
    // the oldest goes.
    assert!(most <= 3, "{most} backups at once with --backup-keep 2");
    // The oldest went; the two newest stay.
    let kept = wait_for(Duration::from_secs(5), || {
        let now = backups_in(&backups);
        (now.len() == 2).then_some(now)
    });
    seen.extend(kept.iter().cloned());
    let pruned: Vec<&String> = seen.difference(&kept).collect();
    assert!(pruned.len() >= 2, "pruned {pruned:?} of {seen:?}");
    assert!(
        pruned.iter().all(|old| kept.iter().all(|new| new > *old)),
        "kept {kept:?}, pruned {pruned:?}"
    );
    let newest = kept.iter().next_back().unwrap().clone();
    let chosen = dir.join("chosen.sqlite");
    std::fs::copy(backups.join(&newest), &chosen).unwrap();
    // A change after the backup: undone by the restore, kept aside.
    add_user(&data, "carl");
    drop(server); // SIGKILL: the store's log may hold its last commits

    // Only a tempo store is installed; a refused file changes nothing.
    let text = dir.join("notes.txt");
    std::fs::write(&text, "not a store ".repeat(1000)).unwrap();
    let out = tempo(
        &["restore", text.to_str().unwrap(), "--data", data_arg],
        &[],
        "",
    );
    assert!(!out.status.success());
    assert!(
        stderr(&out).contains("notes.txt: not restored: not a SQLite database"),
        "{}",
        stderr(&out)
    );
    assert!(!data.join("tempo.sqlite.restoring").exists());

    let out = tempo(
        &["restore", chosen.to_str().unwrap(), "--data", data_arg],
        &[],
        "",
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let said = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(said.contains("2 accounts, 2 games"), "{said}");
    let aside: Vec<PathBuf> = std::fs::read_dir(&data)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| {
            let name = p.file_name().unwrap().to_str().unwrap();
            name.starts_with("tempo.sqlite.before-restore-") && !name.ends_with("-wal")
        })
        .collect();
    assert_eq!(aside.len(), 1, "{aside:?}");
    assert!(said.contains(aside[0].to_str().unwrap()), "{said}");
    assert!(!data.join("tempo.sqlite-wal").exists());
    assert!(!data.join("tempo.sqlite-shm").exists());

    let server = Server::start(&["--listen", "127.0.0.1:0", "--data", data_arg], &[]);
    assert_eq!(logs_of(&server.address), logs, "the logs, as they were");
    let (_, state) = http(
        &server.address,
        "GET",
        &format!("/api/game/{}", games[0]),
        None,
        None,
    );
    assert_eq!(
        json_of(&state)["state"]["record"].as_array().map(Vec::len),
        Some(2),
        "{state}"
    );
    assert_eq!(login(&server.address, "carl", "carl-password"), Err(401));
    let key_file = dir.join("server-key.json");
    std::fs::write(&key_file, &key).unwrap();
    for (game, log) in games.iter().zip(&logs) {
        let file = dir.join(format!("{game}.ndjson"));
        std::fs::write(&file, log).unwrap();
        let out = tempo(
            &[
                "log",
                "verify",
                file.to_str().unwrap(),
                "--key",
                key_file.to_str().unwrap(),
            ],
            &[],
            "",
        );
        assert!(out.status.success(), "{game}: {}", stderr(&out));
    }
    drop(server);

    // The store kept aside is whole, with carl: restoring it undoes the
    // restore.
    let out = tempo(
        &["restore", aside[0].to_str().unwrap(), "--data", data_arg],
        &[],
        "",
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let server = Server::start(&["--listen", "127.0.0.1:0", "--data", data_arg], &[]);
    login(&server.address, "carl", "carl-password").expect("carl, from the store kept aside");
    drop(server);
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn a_failed_backup_is_logged_and_the_next_turn_tries_again() {
    let dir = temp_dir("ops-backup-fails");
    let data = dir.join("data");
    let backups = dir.join("backups");
    let server = Server::start(
        &[
            "--listen",
            "127.0.0.1:0",
            "--data",
            data.to_str().unwrap(),
            "--backup-every",
            "1s",
            "--backup-dir",
            backups.to_str().unwrap(),
        ],
        &[],
    );
    wait_for(Duration::from_secs(20), || {
        (!backups_in(&backups).is_empty()).then_some(())
    });
    // The directory gone, a file in its place: every turn fails.
    std::fs::remove_dir_all(&backups).unwrap();
    std::fs::write(&backups, "in the way").unwrap();
    std::thread::sleep(Duration::from_millis(2500));
    let (status, _) = http(&server.address, "GET", "/healthz", None, None);
    assert_eq!(status, 200, "the server runs on");
    // The directory back: the next turn writes a backup again.
    std::fs::remove_file(&backups).unwrap();
    std::fs::create_dir(&backups).unwrap();
    wait_for(Duration::from_secs(20), || {
        (!backups_in(&backups).is_empty()).then_some(())
    });
    let log = server.output.lock().unwrap().clone();
    assert!(log.contains("backup failed"), "{log}");
    drop(server);
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn a_closed_console_does_not_stop_the_server() {
    let dir = temp_dir("ops-closed-console");
    let data = dir.join("data");
    let backups = dir.join("backups");
    let address = free_address();
    let mut child = command(
        &[
            "serve",
            "--no-bots",
            "--listen",
            &address,
            "--data",
            data.to_str().unwrap(),
            "--backup-every",
            "1s",
            "--backup-dir",
            backups.to_str().unwrap(),
        ],
        &[],
    )
    .stdout(Stdio::piped())
    .stderr(Stdio::null())
    .spawn()
    .unwrap();
    // Read the first line (as `tempo serve | head -1` would), then close
    // the pipe: every later log line meets a closed pipe.
    let mut stdout = child.stdout.take().unwrap();
    let mut first = Vec::new();
    let mut byte = [0u8; 1];
    while stdout.read(&mut byte).unwrap() == 1 && byte[0] != b'\n' {
        first.push(byte[0]);
    }
    assert!(String::from_utf8_lossy(&first).contains("serving on"));
    drop(stdout);
    // Each backup turn writes a log line.
    wait_for(Duration::from_secs(20), || {
        (backups_in(&backups).len() >= 2).then_some(())
    });
    assert!(child.try_wait().unwrap().is_none(), "the server ended");
    let (status, _) = http(&address, "GET", "/healthz", None, None);
    assert_eq!(status, 200);
    let _ = child.kill();
    let _ = child.wait();
    std::fs::remove_dir_all(&dir).ok();
}
