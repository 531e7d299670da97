//! An external UCI engine as a player of `tempo engine match`
//! (`--b uci:<command>`, options with `--b-option NAME=VALUE`), for
//! orthodox chess and Chess960.
//!
//! The command is split at spaces into the program and its arguments (no
//! shell quoting: a path with spaces needs a wrapper script). Every game
//! starts its own process: `uci`, the options as `setoption`
//! (`UCI_Chess960 true` for Chess960 starts), `ucinewgame`, `isready`;
//! then for each of its moves `position fen <start> moves …` and `go
//! movetime <ms>` (the match's budget), `go depth <d>` or `go nodes <n>`. An engine that
//! exits, stops answering or names an illegal move loses that game
//! ("engine error", one line on standard error) and the match goes on.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::Arc;
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::{Duration, Instant};

use anyhow::bail;
use tempo_chess::uci::{self, CastlingStyle};
use tempo_chess::{Color, Outcome, Position};
use tempo_engine::{
    GameOutcome, Limits, MOVE_CAP, Player, PlayerKind, State, adjudicate, play_game,
};
use tempo_sync::{Choice, GameKind};

/// Time an engine has to answer `uci` and `isready` (a large network is
/// loaded at start).
const HANDSHAKE_TIMEOUT: Duration = Duration::from_secs(30);
/// Time beyond its movetime an engine has for its `bestmove`.
const MOVE_GRACE: Duration = Duration::from_secs(10);
/// Time for a move searched to a fixed depth or node count.
const DEPTH_TIMEOUT: Duration = Duration::from_secs(300);
/// Most options of one engine; longest line read from it.
const MAX_OPTIONS: usize = 64;
const MAX_ENGINE_LINE: usize = 64 * 1024;
/// Lines an engine may print while it thinks about one move.
const MAX_LINES_A_MOVE: usize = 1_000_000;

/// How an external engine is started and set up.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct UciSpec {
    program: String,
    args: Vec<String>,
    options: Vec<(String, String)>,
}

impl UciSpec {
    /// `command` split at spaces, `options` as `NAME=VALUE`; `flag` names
    /// the player in errors.
    fn parse(flag: &str, command: &str, options: &[String]) -> anyhow::Result<UciSpec> {
        let mut words = command.split_whitespace().map(str::to_string);
        let Some(program) = words.next() else {
            bail!("{flag} uci:: no command after 'uci:'");
        };
        if options.len() > MAX_OPTIONS {
            bail!(
                "{flag}-option: {} options, at most {MAX_OPTIONS}",
                options.len()
            );
        }
        let options = options
            .iter()
            .map(|o| match o.split_once('=') {
                Some((name, value)) if !name.trim().is_empty() => {
                    Ok((name.trim().to_string(), value.trim().to_string()))
                }
                _ => bail!("{flag}-option '{o}': expected NAME=VALUE"),
            })
            .collect::<anyhow::Result<Vec<_>>>()?;
        Ok(UciSpec {
            program,
            args: words.collect(),
            options,
        })
    }

    /// The program's file name.
    fn name(&self) -> String {
        std::path::Path::new(&self.program)
            .file_name()
            .map_or(self.program.clone(), |n| n.to_string_lossy().into_owned())
    }

    /// Starts the engine once and checks that it speaks UCI and has the
    /// options asked for (and `UCI_Chess960` where the match needs it).
    fn check(&self, flag: &str, chess960: bool) -> anyhow::Result<()> {
        let mut engine = Process::start(self).map_err(|e| anyhow::anyhow!("{flag} uci:{e}"))?;
        let offered = engine
            .handshake(self, false)
            .map_err(|e| anyhow::anyhow!("{flag} uci:{}: {e}", self.program))?;
        let has = |name: &str| offered.iter().any(|o| o.eq_ignore_ascii_case(name));
        for (name, _) in &self.options {
            if !has(name) {
                bail!(
                    "{flag}-option {name}: {} has no such option (it has: {})",
                    self.name(),
                    offered.join(", ")
                );
            }
        }
        if chess960 && !has("UCI_Chess960") {
            bail!(
                "{flag} uci:{}: the engine has no UCI_Chess960 option, needed for Chess960 starts",
                self.program
            );
        }
        Ok(())
    }
}

/// A player of a match: one of tempo's or an external UCI engine.
#[derive(Debug, Clone)]
pub(crate) enum Contender {
    Tempo(PlayerKind),
    Uci(Arc<UciSpec>),
}

impl From<PlayerKind> for Contender {
    fn from(kind: PlayerKind) -> Contender {
        Contender::Tempo(kind)
    }
}

impl Contender {
    /// `--a`/`--b` (`flag`) with its `--a-option`s: a player's name or
    /// `uci:<command>`.
    pub(crate) fn parse(flag: &str, text: &str, options: &[String]) -> anyhow::Result<Contender> {
        match text.strip_prefix("uci:") {
            Some(command) => Ok(Contender::Uci(Arc::new(UciSpec::parse(
                flag, command, options,
            )?))),
            None if !options.is_empty() => {
                bail!("{flag}-option needs an external engine: {flag} uci:<command>")
            }
            None => Ok(Contender::Tempo(text.parse()?)),
        }
    }

    pub(crate) fn name(&self) -> String {
        match self {
            Contender::Tempo(kind) => kind.name().to_string(),
            Contender::Uci(spec) => spec.name(),
        }
    }

    /// For an external engine: the variant must be orthodox or Chess960,
    /// and the engine must start and have its options. An error names
    /// `flag`.
    pub(crate) fn check(&self, flag: &str, kind: GameKind, chess960: bool) -> anyhow::Result<()> {
        let Contender::Uci(spec) = self else {
            return Ok(());
        };
        if kind.simultaneous().is_some() {
            bail!(
                "{flag} uci:…: an external UCI engine plays only standard and chess960, not {}",
                kind.name()
            );
        }
        spec.check(flag, chess960 || kind == GameKind::Chess960)
    }

    /// What the options of an external engine are, for the output.
    pub(crate) fn describe(&self) -> Option<String> {
        let Contender::Uci(spec) = self else {
            return None;
        };
        let mut text = format!("{}: uci:{}", spec.name(), spec.program);
        for a in &spec.args {
            text.push(' ');
            text.push_str(a);
        }
        if !spec.options.is_empty() {
            let options: Vec<String> = spec
                .options
                .iter()
                .map(|(n, v)| format!("{n}={v}"))
                .collect();
            text.push_str(&format!(" with {}", options.join(", ")));
        }
        Some(text)
    }

    /// The player of one game.
    pub(crate) fn seat(&self, limits: Limits, seed: u64) -> Seat {
        match self {
            Contender::Tempo(kind) => Seat::Tempo(Box::new(Player::new(*kind, limits, seed))),
            Contender::Uci(spec) => Seat::Uci(UciPlayer {
                spec: Arc::clone(spec),
                limits,
                process: None,
            }),
        }
    }
}

/// The player of one game.
pub(crate) enum Seat {
    Tempo(Box<Player>),
    Uci(UciPlayer),
}

/// An external engine in one game (started at its first move).
pub(crate) struct UciPlayer {
    spec: Arc<UciSpec>,
    limits: Limits,
    process: Option<Process>,
}

impl UciPlayer {
    /// The engine's move in `pos`, reached from `start` by `moves`.
    fn choose(
        &mut self,
        start: &Position,
        moves: &[String],
        pos: &Position,
    ) -> Result<Choice, String> {
        let chess960 = start.is_chess960();
        if self.process.is_none() {
            let mut process = Process::start(&self.spec)?;
            process.handshake(&self.spec, chess960)?;
            process.send("ucinewgame")?;
            process.send("isready")?;
            process.wait_for("readyok", HANDSHAKE_TIMEOUT)?;
            self.process = Some(process);
        }
        let process = self.process.as_mut().expect("started above");
        let fen = if chess960 {
            start.to_shredder_fen()
        } else {
            start.to_fen()
        };
        let mut line = format!("position fen {fen}");
        if !moves.is_empty() {
            line.push_str(" moves ");
            line.push_str(&moves.join(" "));
        }
        process.send(&line)?;
        let timeout = match (self.limits.depth, self.limits.movetime, self.limits.nodes) {
            (Some(d), _, _) => {
                process.send(&format!("go depth {d}"))?;
                DEPTH_TIMEOUT
            }
            (None, Some(t), _) => {
                process.send(&format!("go movetime {}", t.as_millis()))?;
                t + MOVE_GRACE
            }
            (None, None, Some(n)) => {
                process.send(&format!("go nodes {n}"))?;
                DEPTH_TIMEOUT
            }
            (None, None, None) => unreachable!("a match always has a budget"),
        };
        let answer = process.wait_for("bestmove", timeout)?;
        let text = answer.split_whitespace().nth(1).unwrap_or("");
        uci::parse(pos, text)
            .map(Choice::Move)
            .map_err(|e| format!("answered '{answer}': {e}"))
    }
}

/// A running engine: its input, and its output lines from a reader
/// thread (so that waiting for an answer can time out).
struct Process {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
}

impl Process {
    fn start(spec: &UciSpec) -> Result<Process, String> {
        let mut child = Command::new(&spec.program)
            .args(&spec.args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| format!("{}: cannot start: {e}", spec.program))?;
        let stdin = child.stdin.take().expect("piped");
        let stdout = child.stdout.take().expect("piped");
        let (tx, rx) = channel();
        std::thread::spawn(move || {
            let mut reader = BufReader::new(stdout);
            let mut buf = Vec::new();
            loop {
                buf.clear();
                match std::io::Read::take(&mut reader, MAX_ENGINE_LINE as u64)
                    .read_until(b'\n', &mut buf)
                {
                    Ok(0) | Err(_) => break,
                    Ok(_) => {
                        let line = String::from_utf8_lossy(&buf).trim_end().to_string();
                        if tx.send(line).is_err() {
                            break;
                        }
                    }
                }
            }
        });
        Ok(Process {
            child,
            stdin,
            lines: rx,
        })
    }

    fn send(&mut self, line: &str) -> Result<(), String> {
        writeln!(self.stdin, "{line}")
            .and_then(|()| self.stdin.flush())
            .map_err(|e| format!("cannot send '{line}': {e}"))
    }

    /// Lines until one whose first word is `word` (returned), within
    /// `timeout`.
    fn wait_for(&mut self, word: &str, timeout: Duration) -> Result<String, String> {
        let deadline = Instant::now() + timeout;
        for _ in 0..MAX_LINES_A_MOVE {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(line) if line.split_whitespace().next() == Some(word) => return Ok(line),
                Ok(_) => {}
                Err(RecvTimeoutError::Timeout) => {
                    return Err(format!("no '{word}' within {} s", timeout.as_secs()));
                }
                Err(RecvTimeoutError::Disconnected) => {
                    // The output closes as the process ends; its status
                    // may follow a moment later.
                    let mut status = None;
                    for _ in 0..50 {
                        status = self.child.try_wait().ok().flatten();
                        if status.is_some() {
                            break;
                        }
                        std::thread::sleep(Duration::from_millis(10));
                    }
                    return Err(match status {
                        Some(s) => format!("exited ({s}) before '{word}'"),
                        None => format!("closed its output before '{word}'"),
                    });
                }
            }
        }
        Err(format!("{MAX_LINES_A_MOVE} lines without '{word}'"))
    }

    /// `uci` … `uciok`, the options, `isready` … `readyok`: the names of
    /// the options the engine offers.
    fn handshake(&mut self, spec: &UciSpec, chess960: bool) -> Result<Vec<String>, String> {
        self.send("uci")?;
        let deadline = Instant::now() + HANDSHAKE_TIMEOUT;
        let mut offered = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            let line = match self.lines.recv_timeout(left) {
                Ok(line) => line,
                Err(RecvTimeoutError::Timeout) => {
                    return Err(format!(
                        "no 'uciok' within {} s",
                        HANDSHAKE_TIMEOUT.as_secs()
                    ));
                }
                Err(RecvTimeoutError::Disconnected) => {
                    return Err("exited before 'uciok'".to_string());
                }
            };
            if line.trim() == "uciok" {
                break;
            }
            if let Some(name) = option_name(&line)
                && offered.len() < 1_000
            {
                offered.push(name);
            }
        }
        for (name, value) in &spec.options {
            self.send(&format!("setoption name {name} value {value}"))?;
        }
        if chess960 {
            self.send("setoption name UCI_Chess960 value true")?;
        }
        self.send("isready")?;
        self.wait_for("readyok", HANDSHAKE_TIMEOUT)?;
        Ok(offered)
    }
}

impl Drop for Process {
    fn drop(&mut self) {
        let _ = self.send("quit");
        let deadline = Instant::now() + Duration::from_millis(500);
        while Instant::now() < deadline {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// While alive, a write to an engine that has exited is an error
/// (`EPIPE`) instead of the end of tempo: `main` restores the default
/// SIGPIPE so that `tempo … | head` ends quietly, which would let a dying
/// engine end the whole match. Dropped, the earlier disposition returns.
pub(crate) struct PipeGuard {
    #[cfg(unix)]
    previous: Option<libc::sighandler_t>,
}

/// A [`PipeGuard`] if `a` or `b` is an external engine.
pub(crate) fn guard_pipes(a: &Contender, b: &Contender) -> PipeGuard {
    let external = matches!(a, Contender::Uci(_)) || matches!(b, Contender::Uci(_));
    #[cfg(unix)]
    {
        let previous = external.then(|| {
            // SAFETY: `signal` only installs a disposition (sigaction,
            // safe to call with other threads running); SIG_IGN is valid
            // for SIGPIPE.
            unsafe { libc::signal(libc::SIGPIPE, libc::SIG_IGN) }
        });
        PipeGuard { previous }
    }
    #[cfg(not(unix))]
    {
        let _ = external;
        PipeGuard {}
    }
}

impl Drop for PipeGuard {
    fn drop(&mut self) {
        #[cfg(unix)]
        if let Some(previous) = self.previous.filter(|&p| p != libc::SIG_ERR) {
            // SAFETY: as above; `previous` is the disposition `signal`
            // returned, so it is valid to install again.
            unsafe {
                libc::signal(libc::SIGPIPE, previous);
            }
        }
    }
}

/// The name in `option name <name> type …`.
fn option_name(line: &str) -> Option<String> {
    let rest = line.trim().strip_prefix("option name ")?;
    let end = rest.find(" type ").unwrap_or(rest.len());
    Some(rest[..end].trim().to_string())
}

/// Plays one game as [`play_game`] does (the same endings and the same
/// adjudication at move [`MOVE_CAP`]), with external engines among the
/// players. An engine's error loses the game for it.
pub(crate) fn play(start: &State, white: &mut Seat, black: &mut Seat) -> GameOutcome {
    if let (Seat::Tempo(w), Seat::Tempo(b)) = (&mut *white, &mut *black) {
        return play_game(start, w, b);
    }
    let State::Chess(first) = start else {
        unreachable!("external engines play orthodox states only (checked up front)")
    };
    let style = if first.pos.is_chess960() {
        CastlingStyle::Chess960
    } else {
        CastlingStyle::Standard
    };
    let mut state = start.clone();
    let mut moves: Vec<String> = Vec::new();
    let first_move = first.pos.fullmove_number();
    let mut steps = 0;
    loop {
        if let Some(end) = state.ending() {
            return GameOutcome {
                outcome: end.outcome,
                reason: end.reason,
                steps,
                moves,
            };
        }
        let State::Chess(c) = &state else {
            unreachable!("orthodox moves keep an orthodox state")
        };
        let pos = &c.pos;
        if pos.fullmove_number() >= first_move + MOVE_CAP {
            return GameOutcome {
                outcome: adjudicate(pos),
                reason: "adjudicated",
                steps,
                moves,
            };
        }
        let color = pos.turn();
        let seat = if color == Color::White {
            &mut *white
        } else {
            &mut *black
        };
        let choice = match seat {
            Seat::Tempo(player) => Ok(player
                .choose(&state, color)
                .expect("a move: the game is not over")),
            Seat::Uci(engine) => engine
                .choose(&first.pos, &moves, pos)
                .map_err(|e| (engine.spec.name(), e)),
        };
        let choice = match choice {
            Ok(choice) => choice,
            Err((name, error)) => {
                eprintln!("tempo: {name} ({color}) {error}: the game is lost by it (engine error)");
                return GameOutcome {
                    outcome: Outcome::Win(!color),
                    reason: "engine error",
                    steps,
                    moves,
                };
            }
        };
        let mv = choice.as_move().expect("an orthodox move");
        moves.push(uci::write_with(pos, mv, style));
        state = state.play(Some(choice), None);
        steps += 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn specs_split_the_command_and_read_options() {
        let c = Contender::parse(
            "--b",
            "uci:/usr/games/stockfish -x",
            &["UCI_Elo=1500".into(), "Move Overhead = 20".into()],
        )
        .unwrap();
        let Contender::Uci(spec) = &c else { panic!() };
        assert_eq!(spec.program, "/usr/games/stockfish");
        assert_eq!(spec.args, ["-x"]);
        assert_eq!(
            spec.options,
            [
                ("UCI_Elo".to_string(), "1500".to_string()),
                ("Move Overhead".to_string(), "20".to_string())
            ]
        );
        assert_eq!(c.name(), "stockfish");
        assert!(matches!(
            Contender::parse("--a", "nash", &[]).unwrap(),
            Contender::Tempo(PlayerKind::Nash)
        ));
    }

    #[test]
    fn bad_specs_name_the_flag() {
        let err = |text: &str, options: &[&str]| {
            let options: Vec<String> = options.iter().map(|s| s.to_string()).collect();
            Contender::parse("--b", text, &options)
                .unwrap_err()
                .to_string()
        };
        assert!(err("uci:", &[]).contains("--b uci:"));
        assert!(err("uci:sf", &["Hash"]).contains("--b-option 'Hash': expected NAME=VALUE"));
        assert!(err("nash", &["Hash=16"]).contains("--b-option needs an external engine"));
        assert!(err("stockfish", &[]).contains("unknown player"));
        let missing = Contender::parse("--b", "uci:/nonexistent/engine", &[]).unwrap();
        let e = missing
            .check("--b", GameKind::Standard, false)
            .unwrap_err()
            .to_string();
        assert!(
            e.starts_with("--b uci:/nonexistent/engine: cannot start"),
            "{e}"
        );
        let e = missing
            .check("--b", GameKind::Synchronschach, false)
            .unwrap_err()
            .to_string();
        assert!(e.contains("only standard and chess960"), "{e}");
    }

    #[test]
    fn option_names_may_have_spaces() {
        assert_eq!(
            option_name("option name Move Overhead type spin default 10 min 0 max 5000").as_deref(),
            Some("Move Overhead")
        );
        assert_eq!(option_name("id name x"), None);
    }
}
