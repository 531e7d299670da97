//! Lichess's own clients, unchanged, against `tempo serve` (issue #28):
//! berserk 0.14 (the lichess Python client) plays orthodox, set-up and
//! Chess960 games through the Board API (`tests/lichess/berserk_games.py`),
//! and Debian's Stockfish plays as a bot through berserk's Bot API calls,
//! the calls lichess-bot makes (`tests/lichess/stockfish_bot.py`).
//!
//! Each test starts `tempo serve` on a fresh store, makes the accounts with
//! `tempo user add`, takes their tokens from `POST /api/token`, and runs
//! its script with Python from a virtual environment under `target/`
//! (`target/lichess-venv`, made once with `python3 -m venv` and
//! `pip install berserk==0.14.0`, reused while it holds that version).
//!
//! Without Python's `venv`, the package registry (or Stockfish, for the
//! bot game) a test says `skipped: …` and passes, unless
//! `TEMPO_REQUIRE_LICHESS=1` (`.ci/run` sets it), when it fails naming what
//! is missing.

mod common;

use std::io::{Read, Write};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use common::{start_serve, temp_dir, tempo_with_stdin};

/// berserk, pinned: the version whose calls the scripts make.
const BERSERK: &str = "berserk==0.14.0";
const BERSERK_VERSION: &str = "0.14.0";

fn script_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/lichess")
}

/// The profile directory's parent (`target/`), from the `tempo` binary's
/// path, so that `CARGO_TARGET_DIR` is respected.
fn target_dir() -> PathBuf {
    Path::new(env!("CARGO_BIN_EXE_tempo"))
        .parent()
        .and_then(Path::parent)
        .map(Path::to_path_buf)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../../target"))
}

fn lichess_required() -> bool {
    std::env::var("TEMPO_REQUIRE_LICHESS").is_ok_and(|v| v == "1")
}

/// Fails if the lichess tests are required, else says why this one is
/// skipped.
fn skip(what: &str) {
    if lichess_required() {
        panic!("lichess client tests required (TEMPO_REQUIRE_LICHESS=1), but {what}");
    }
    // Straight to the process's stderr: the test harness would swallow
    // an eprintln! of a passing test.
    let _ = writeln!(
        std::io::stderr(),
        "skipped: lichess client tests: {what} (TEMPO_REQUIRE_LICHESS=1 makes this fail)"
    );
}

/// Runs `command`, its output captured; `Err` names `what` and the end of
/// its error output.
fn run(mut command: Command, what: &str) -> Result<(), String> {
    match command.stdin(Stdio::null()).output() {
        Ok(out) if out.status.success() => Ok(()),
        Ok(out) => {
            let stderr = String::from_utf8_lossy(&out.stderr);
            let tail: Vec<&str> = stderr.lines().rev().take(3).collect();
            Err(format!(
                "{what} failed ({}): {}",
                out.status,
                tail.into_iter().rev().collect::<Vec<_>>().join(" / ")
            ))
        }
        Err(e) => Err(format!("{what}: {e}")),
    }
}

/// The virtual environment's Python with berserk installed: made on first
/// use, reused while it holds the pinned version. One test at a time makes
/// it (the tests of this file run in parallel).
fn python() -> Result<PathBuf, String> {
    static MAKING: Mutex<()> = Mutex::new(());
    let _making = MAKING.lock().unwrap_or_else(|e| e.into_inner());
    let venv = target_dir().join("lichess-venv");
    let python = venv.join("bin/python");
    let has_berserk = || {
        let mut check = Command::new(&python);
        check.args([
            "-c",
            &format!(
                "import importlib.metadata as m; assert m.version('berserk') == '{BERSERK_VERSION}'"
            ),
        ]);
        run(check, "checking berserk").is_ok()
    };
    if python.is_file() && has_berserk() {
        return Ok(python);
    }
    let system = std::env::var_os("TEMPO_PYTHON").unwrap_or_else(|| "python3".into());
    let mut make = Command::new(&system);
    make.args(["-m", "venv", "--clear"]).arg(&venv);
    run(
        make,
        &format!(
            "{} -m venv (Debian: apt-get install python3-venv)",
            system.to_string_lossy()
        ),
    )?;
    let mut install = Command::new(venv.join("bin/pip"));
    install.args(["install", "--quiet", "--disable-pip-version-check", BERSERK]);
    run(
        install,
        &format!("pip install {BERSERK} (the package registry)"),
    )?;
    if !has_berserk() {
        return Err(format!(
            "{BERSERK} installed but not importable in {}",
            venv.display()
        ));
    }
    Ok(python)
}

/// Debian's Stockfish (`apt-get install stockfish`), or `TEMPO_STOCKFISH`.
fn stockfish() -> Result<PathBuf, String> {
    if let Some(path) = std::env::var_os("TEMPO_STOCKFISH") {
        return Ok(PathBuf::from(path));
    }
    let debian = PathBuf::from("/usr/games/stockfish");
    if debian.is_file() {
        return Ok(debian);
    }
    Err("/usr/games/stockfish not found (apt-get install stockfish, or set TEMPO_STOCKFISH)".into())
}

/// A running `tempo serve` with accounts made by `tempo user add`; killed
/// when dropped.
struct Server {
    child: Child,
    address: String,
    dir: PathBuf,
}

impl Server {
    fn start(accounts: &[(&str, &str)]) -> Server {
        let dir = temp_dir("lichess");
        let data = dir.join("data");
        for (name, password) in accounts {
            let added = tempo_with_stdin(
                &["user", "add", name, "--data", data.to_str().unwrap()],
                &format!("{password}\n"),
            );
            assert!(added.status.success(), "tempo user add {name}: {added:?}");
        }
        let mut serve = Command::new(env!("CARGO_BIN_EXE_tempo"));
        serve
            .args(["serve", "--no-bots", "--listen", "127.0.0.1:0", "--data"])
            .arg(&data);
        let (child, address) = start_serve(serve);
        Server {
            child,
            address,
            dir,
        }
    }

    fn url(&self) -> String {
        format!("http://{}", self.address)
    }

    /// `POST /api/token` for `name`: the personal token lichess's clients
    /// are given.
    fn token(&self, name: &str, password: &str) -> String {
        let body = serde_json::json!({"username": name, "password": password}).to_string();
        let mut stream = TcpStream::connect(&self.address).unwrap();
        stream
            .set_read_timeout(Some(Duration::from_secs(30)))
            .unwrap();
        write!(
            stream,
            "POST /api/token HTTP/1.1\r\nHost: {}\r\nConnection: close\r\n\
             Content-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
            self.address,
            body.len()
        )
        .unwrap();
        let mut answer = String::new();
        stream.read_to_string(&mut answer).unwrap();
        let (_, body) = answer.split_once("\r\n\r\n").unwrap_or((&answer, ""));
        let value: serde_json::Value = serde_json::from_str(body)
            .unwrap_or_else(|e| panic!("POST /api/token for {name}: {e}: {answer}"));
        value["token"]
            .as_str()
            .unwrap_or_else(|| panic!("POST /api/token for {name}: {answer}"))
            .to_string()
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// Runs `script` of `tests/lichess/` with `python` and `env`, killing it
/// past `limit`; fails if it does, its output (above) naming the call.
fn run_script(python: &Path, script: &str, env: &[(&str, String)], limit: Duration) {
    let mut command = Command::new(python);
    command
        .arg(script)
        .current_dir(script_dir())
        .env("PYTHONDONTWRITEBYTECODE", "1")
        .stdin(Stdio::null());
    for (name, value) in env {
        command.env(name, value);
    }
    let started = Instant::now();
    let mut child = command.spawn().expect("python starts");
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if started.elapsed() > limit {
            let _ = child.kill();
            let _ = child.wait();
            panic!("{script} took longer than {} s", limit.as_secs());
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    assert!(
        status.success(),
        "{script} failed ({status}); its output above names the call and the field"
    );
    let _ = writeln!(
        std::io::stderr(),
        "{script}: passed in {:.1} s",
        started.elapsed().as_secs_f64()
    );
}

/// berserk's Board API calls, unchanged: challenges (rated and casual,
/// clock, correspondence and unlimited, colours, `standard`,
/// `fromPosition`, `chess960`), accept, decline with a reason, cancel, the
/// event stream's lichess shapes, the game stream's gameFull and gameState,
/// whole short games with castling (`e1g1`; king takes rook in Chess960),
/// mate, a draw by agreement, resignations, an abort, `nowPlaying`, and
/// the export as JSON and PGN.
#[test]
fn berserk_plays_orthodox_and_chess960_games() {
    let python = match python() {
        Ok(python) => python,
        Err(what) => return skip(&what),
    };
    let server = Server::start(&[("anna", "anna-password"), ("Ben", "ben-password")]);
    let env = [
        ("LICHESS_URL", server.url()),
        (
            "PLAYER_A",
            format!("anna:{}", server.token("anna", "anna-password")),
        ),
        (
            "PLAYER_B",
            format!("Ben:{}", server.token("Ben", "ben-password")),
        ),
    ];
    run_script(&python, "berserk_games.py", &env, Duration::from_secs(120));
}

/// Stockfish as a club member through berserk's `bots` calls (what
/// lichess-bot does): the account upgraded to a bot, a challenge of a
/// variant it does not play declined, an orthodox and a Chess960 game
/// played to their end against the member's Stockfish at skill level 0,
/// a game aborted and one resigned by the bot.
#[test]
fn stockfish_plays_as_a_lichess_bot() {
    let python = match python() {
        Ok(python) => python,
        Err(what) => return skip(&what),
    };
    let stockfish = match stockfish() {
        Ok(stockfish) => stockfish,
        Err(what) => return skip(&what),
    };
    let server = Server::start(&[("anna", "anna-password"), ("fish", "fish-password")]);
    let env = [
        ("LICHESS_URL", server.url()),
        (
            "PLAYER_A",
            format!("anna:{}", server.token("anna", "anna-password")),
        ),
        (
            "BOT",
            format!("fish:{}", server.token("fish", "fish-password")),
        ),
        ("STOCKFISH", stockfish.display().to_string()),
    ];
    run_script(&python, "stockfish_bot.py", &env, Duration::from_secs(240));
}
