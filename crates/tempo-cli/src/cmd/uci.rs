//! `tempo engine uci`: the engine behind the Universal Chess Interface,
//! for orthodox chess and Chess960, so that chess GUIs and match runners
//! (cutechess-cli, fastchess, Arena, …) can play it.
//!
//! [`Session`] is the protocol without a process: [`Session::handle`]
//! takes one input line and sends the output lines to a channel, so tests
//! drive it directly. A search runs on a worker thread, so that `isready`
//! and `stop` are answered while it thinks; `stop` sets the engine's
//! stop flag and waits for the worker's `bestmove`.
//!
//! Bad input (an unknown command, an unreadable FEN, an illegal move, a
//! bad number) is answered with one `info string` naming the problem and
//! never ends the session.

use std::io::{BufRead, Read, Write};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Sender, channel};
use std::thread::JoinHandle;
use std::time::Duration;

use tempo_chess::{Color, Position};
use tempo_engine::{Analysis, ChessState, Config, Engine, GameStart, Iteration, Limits, State};
use tempo_sync::{Choice, GameKind};

/// Longest input line read (a `position` with 10,000 moves is 60 kB).
const MAX_LINE: usize = 256 * 1024;
/// Most moves after `position … moves`.
const MAX_POSITION_MOVES: usize = 10_000;
/// Default and largest `Move Overhead` (ms): time kept back a move for
/// the GUI's and the operating system's delays.
const DEFAULT_OVERHEAD: u64 = 10;
const MAX_OVERHEAD: u64 = 5_000;
/// Deepest `go depth` (the engine's own limit).
const MAX_GO_DEPTH: u32 = 64;
/// Moves the rest of the clock is shared over when `movestogo` is not
/// given (sudden death).
const DEFAULT_MOVES_TO_GO: u64 = 30;

/// What the caller of [`Session::handle`] does next.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Flow {
    Continue,
    Quit,
}

/// A running search: its worker (which hands the engine back) and its
/// stop flag.
struct Search {
    worker: JoinHandle<Engine>,
    stop: Arc<AtomicBool>,
    /// `go infinite`: the worker waits for `stop` before its `bestmove`.
    infinite: bool,
}

/// The protocol state of one `tempo engine uci` session.
pub(crate) struct Session {
    out: Sender<String>,
    chess960: bool,
    overhead: u64,
    state: State,
    /// `None` while a search has it.
    engine: Option<Engine>,
    search: Option<Search>,
}

impl Session {
    pub(crate) fn new(out: Sender<String>) -> Session {
        Session {
            out,
            chess960: false,
            overhead: DEFAULT_OVERHEAD,
            state: start_state(false),
            engine: Some(Engine::new(Config::default())),
            search: None,
        }
    }

    fn send(&self, line: impl Into<String>) {
        // The receiver is gone only when the session is over.
        let _ = self.out.send(line.into());
    }

    fn info(&self, text: impl std::fmt::Display) {
        self.send(format!("info string {text}"));
    }

    /// Handles one input line.
    pub(crate) fn handle(&mut self, line: &str) -> Flow {
        let tokens: Vec<&str> = line.split_whitespace().collect();
        let Some((&command, rest)) = tokens.split_first() else {
            return Flow::Continue;
        };
        match command {
            "uci" => {
                self.send(format!("id name tempo {}", env!("CARGO_PKG_VERSION")));
                self.send("id author the tempo developers");
                self.send("option name UCI_Chess960 type check default false");
                self.send(format!(
                    "option name Move Overhead type spin default {DEFAULT_OVERHEAD} min 0 max {MAX_OVERHEAD}"
                ));
                self.send("uciok");
            }
            "isready" => self.send("readyok"),
            "debug" | "register" => {}
            "ucinewgame" => {
                self.stop_search();
                self.engine = Some(Engine::new(Config::default()));
                self.state = start_state(self.chess960);
            }
            "setoption" => {
                self.stop_search();
                self.set_option(rest);
            }
            "position" => {
                self.stop_search();
                self.position(rest);
            }
            "go" => {
                self.stop_search();
                self.go(rest);
            }
            "stop" => self.stop_search(),
            "ponderhit" => self.info("ponderhit: tempo does not ponder"),
            "quit" => {
                self.stop_search();
                return Flow::Quit;
            }
            other => self.info(format!("unknown command '{}'", clip(other))),
        }
        Flow::Continue
    }

    /// At the end of the input: waits for a search with a limit to end
    /// (so that `echo "go depth 5" | tempo engine uci` prints its move)
    /// and stops an infinite one.
    pub(crate) fn finish(&mut self) {
        if let Some(search) = self.search.take() {
            if search.infinite {
                search.stop.store(true, Ordering::Relaxed);
                search.worker.thread().unpark();
            }
            self.engine = Some(join(search.worker));
        }
    }

    fn stop_search(&mut self) {
        if let Some(search) = self.search.take() {
            search.stop.store(true, Ordering::Relaxed);
            search.worker.thread().unpark();
            self.engine = Some(join(search.worker));
        }
    }

    fn set_option(&mut self, tokens: &[&str]) {
        // setoption name <id, may contain spaces> [value <x>]
        if tokens.first() != Some(&"name") {
            self.info("setoption: expected 'setoption name <id> [value <x>]'");
            return;
        }
        let value_at = tokens.iter().position(|&t| t == "value");
        let name = tokens[1..value_at.unwrap_or(tokens.len())].join(" ");
        let value = value_at.map(|k| tokens[k + 1..].join(" "));
        match (name.to_ascii_lowercase().as_str(), value.as_deref()) {
            ("uci_chess960", Some(v)) if v.eq_ignore_ascii_case("true") => self.set_chess960(true),
            ("uci_chess960", Some(v)) if v.eq_ignore_ascii_case("false") => {
                self.set_chess960(false)
            }
            ("uci_chess960", v) => self.info(format!(
                "setoption UCI_Chess960: value '{}' is not true or false",
                clip(v.unwrap_or(""))
            )),
            ("move overhead", v) => match v.and_then(|v| v.parse::<u64>().ok()) {
                Some(ms) if ms <= MAX_OVERHEAD => self.overhead = ms,
                _ => self.info(format!(
                    "setoption Move Overhead: value '{}' is not a whole number from 0 to {MAX_OVERHEAD}",
                    clip(v.unwrap_or(""))
                )),
            },
            _ => self.info(format!(
                "setoption: unknown option '{}' (tempo has UCI_Chess960 and Move Overhead)",
                clip(&name)
            )),
        }
    }

    fn set_chess960(&mut self, on: bool) {
        self.chess960 = on;
        if let State::Chess(c) = &mut self.state {
            c.pos.set_chess960(on);
        }
    }

    /// `position startpos | fen <FEN> [moves …]`: a bad FEN keeps the
    /// position before the command; an illegal move keeps the position
    /// before that move.
    fn position(&mut self, tokens: &[&str]) {
        let moves_at = tokens.iter().position(|&t| t == "moves");
        let (setup, moves) = match moves_at {
            Some(k) => (&tokens[..k], &tokens[k + 1..]),
            None => (tokens, &[][..]),
        };
        let mut state = match setup {
            ["startpos"] => start_state(self.chess960),
            ["fen", fen @ ..] if !fen.is_empty() => {
                let fen = fen.join(" ");
                match GameKind::Standard.from_fen(&fen) {
                    Ok(mut state) => {
                        if let State::Chess(c) = &mut state {
                            c.pos.set_chess960(self.chess960);
                        }
                        state
                    }
                    Err(e) => {
                        self.info(format!(
                            "position: {}; position unchanged",
                            clip(&e.to_string())
                        ));
                        return;
                    }
                }
            }
            _ => {
                self.info("position: expected 'position startpos|fen <FEN> [moves <m1> …]'; position unchanged");
                return;
            }
        };
        if moves.len() > MAX_POSITION_MOVES {
            self.info(format!(
                "position: {} moves, at most {MAX_POSITION_MOVES}; position unchanged",
                moves.len()
            ));
            return;
        }
        for (k, text) in moves.iter().enumerate() {
            // Moves after a draw by rule are played on (a GUI may); after
            // mate or stalemate none is legal.
            match tempo_chess::uci::parse(position(&state), text) {
                Ok(mv) => state = state.play(Some(Choice::Move(mv)), None),
                Err(e) => {
                    self.info(format!(
                        "position: move {} '{}': {}; position set to before it",
                        k + 1,
                        clip(text),
                        clip(&e.to_string())
                    ));
                    break;
                }
            }
        }
        self.state = state;
    }

    fn go(&mut self, tokens: &[&str]) {
        let Some(mut engine) = self.engine.take() else {
            unreachable!("no search runs here: go stops it first")
        };
        let turn = turn(&self.state);
        let (limits, infinite) = self.limits(tokens, turn);
        let state = searchable(&self.state);
        let legal = self.state.choices(turn);
        let out = self.out.clone();
        let stop = Arc::new(AtomicBool::new(false));
        let worker_stop = Arc::clone(&stop);
        let worker = std::thread::spawn(move || {
            engine.set_stop(Some(Arc::clone(&worker_stop)));
            let lines = out.clone();
            let named = state.clone();
            engine.set_progress(Some(Box::new(move |it: &Iteration| {
                let _ = lines.send(info_line(&named, turn, it));
            })));
            let best = if legal.is_empty() {
                // Mate or stalemate on the board: nothing to search.
                let score = if state.ending().is_some_and(|e| e.reason == "checkmate") {
                    "mate 0"
                } else {
                    "cp 0"
                };
                let _ = out.send(format!("info depth 0 score {score}"));
                None
            } else {
                let analysis = engine.analyse(&state, limits);
                best_move(&analysis, turn, &legal)
            };
            engine.set_progress(None);
            engine.set_stop(None);
            while infinite && !worker_stop.load(Ordering::Relaxed) {
                std::thread::park_timeout(Duration::from_millis(50));
            }
            let name = best.map_or("(none)".to_string(), |c| state.choice_name(turn, c));
            let _ = out.send(format!("bestmove {name}"));
            engine
        });
        self.search = Some(Search {
            worker,
            stop,
            infinite,
        });
    }

    /// The limits of `go …` for the side `turn`, and whether the search
    /// waits for `stop` (`infinite`, or nothing that ends it).
    fn limits(&self, tokens: &[&str], turn: Color) -> (Limits, bool) {
        let mut go = Go::default();
        let mut k = 0;
        while k < tokens.len() {
            let key = tokens[k];
            let takes_number = matches!(
                key,
                "wtime"
                    | "btime"
                    | "winc"
                    | "binc"
                    | "movestogo"
                    | "depth"
                    | "movetime"
                    | "nodes"
                    | "mate"
            );
            if takes_number {
                let value = tokens.get(k + 1).and_then(|v| v.parse::<i64>().ok());
                k += 2;
                let Some(v) = value else {
                    self.info(format!("go: '{key}' needs a whole number; ignored"));
                    continue;
                };
                // A clock below zero (a GUI's flag fall) counts as empty.
                let v = v.max(0) as u64;
                match key {
                    "wtime" => go.time[0] = Some(v),
                    "btime" => go.time[1] = Some(v),
                    "winc" => go.inc[0] = v,
                    "binc" => go.inc[1] = v,
                    "movestogo" => go.moves_to_go = Some(v),
                    "depth" => go.depth = Some(v.clamp(1, u64::from(MAX_GO_DEPTH)) as u32),
                    "movetime" => go.movetime = Some(v),
                    "nodes" => go.nodes = Some(v.max(1)),
                    _ => self.info(format!("go: '{key}' is not supported; ignored")),
                }
                continue;
            }
            match key {
                "infinite" => go.infinite = true,
                "ponder" => self.info("go: tempo does not ponder; 'ponder' ignored"),
                "searchmoves" => {
                    self.info("go: 'searchmoves' is not supported; all moves are searched");
                    // Its moves run to the end of the line or the next keyword.
                    while k + 1 < tokens.len()
                        && tokens[k + 1].parse::<tempo_chess::uci::Uci>().is_ok()
                    {
                        k += 1;
                    }
                }
                other => self.info(format!("go: unknown '{}'; ignored", clip(other))),
            }
            k += 1;
        }
        let side = turn.index();
        let movetime = match (go.movetime, go.time[side]) {
            (Some(ms), _) => Some(ms.saturating_sub(self.overhead).max(1)),
            (None, Some(left)) => Some(clock_budget(
                left,
                go.inc[side],
                go.moves_to_go,
                self.overhead,
            )),
            (None, None) => None,
        };
        let limits = Limits {
            depth: go.depth,
            movetime: movetime.map(Duration::from_millis),
            nodes: go.nodes,
        };
        let unlimited =
            limits.depth.is_none() && limits.movetime.is_none() && limits.nodes.is_none();
        (limits, go.infinite || unlimited)
    }
}

impl Drop for Session {
    fn drop(&mut self) {
        self.stop_search();
    }
}

/// The numbers and flags of a `go` command.
#[derive(Debug, Default)]
struct Go {
    time: [Option<u64>; 2],
    inc: [u64; 2],
    moves_to_go: Option<u64>,
    depth: Option<u32>,
    movetime: Option<u64>,
    nodes: Option<u64>,
    infinite: bool,
}

/// The time for one move from the clock: the rest shared over
/// `moves_to_go` (else 30) moves plus ¾ of the increment, at most a
/// quarter of the rest, less the overhead; at least 1 ms.
pub(crate) fn clock_budget(left: u64, inc: u64, moves_to_go: Option<u64>, overhead: u64) -> u64 {
    let share = left / moves_to_go.unwrap_or(DEFAULT_MOVES_TO_GO).max(1) + inc * 3 / 4;
    share.min(left / 4).saturating_sub(overhead).max(1)
}

/// The orthodox start, its castling written as `chess960` says.
fn start_state(chess960: bool) -> State {
    let mut pos = Position::new();
    pos.set_chess960(chess960);
    State::Chess(ChessState {
        pos,
        history: Vec::new(),
    })
}

/// The board of a session's state (always orthodox: the session makes
/// no other).
fn position(state: &State) -> &Position {
    match state {
        State::Chess(c) => &c.pos,
        State::Sync(_) | State::SyncBare(_) => {
            unreachable!("a UCI session has orthodox states only")
        }
    }
}

fn turn(state: &State) -> Color {
    position(state).turn()
}

/// The state the engine searches: a position drawn by rule while moves
/// are left (a repetition or the 50-move rule, which a GUI may play on)
/// is searched without its history and half-move clock, so that the
/// engine still names a move.
fn searchable(state: &State) -> State {
    match state {
        State::Chess(c) if state.ending().is_some() && c.pos.has_legal_moves() => {
            let mut pos = c.pos.clone();
            pos.set_halfmove_clock(0);
            State::Chess(ChessState {
                pos,
                history: Vec::new(),
            })
        }
        other => other.clone(),
    }
}

/// The move to play: the engine's, else (a position the search does not
/// play on, such as a dead draw) the first legal one.
fn best_move(analysis: &Analysis, turn: Color, legal: &[Choice]) -> Option<Choice> {
    analysis
        .strategy(turn)
        .first()
        .map(|&(c, _)| c)
        .filter(|c| legal.contains(c))
        .or_else(|| legal.first().copied())
}

/// `info depth … score … nodes … nps … time … pv …` of an iteration.
fn info_line(state: &State, turn: Color, it: &Iteration) -> String {
    let ms = it.elapsed.as_millis() as u64;
    let micros = it.elapsed.as_micros().max(1);
    let nps = u128::from(it.nodes) * 1_000_000 / micros;
    let mut line = format!(
        "info depth {} score {} nodes {} nps {nps} time {ms}",
        it.depth,
        score(it.value, turn),
        it.nodes
    );
    if !it.pv.is_empty() {
        line.push_str(" pv");
        let mut s = state.clone();
        for &c in &it.pv {
            line.push(' ');
            line.push_str(&s.choice_name(position(&s).turn(), c));
            s = s.play(Some(c), None);
        }
    }
    line
}

/// A search value (White's view, in [-1, 1]) as UCI's score from the side
/// to move: `mate N` beyond 0.9 (a won game is 1 − 0.001 × plies, so the
/// plies are read back), else centipawns from the engine's scale
/// `v = cp / (|cp| + 600)`, i.e. `cp = 600 v / (1 − |v|)`.
pub(crate) fn score(value: f64, turn: Color) -> String {
    let v = if turn == Color::White { value } else { -value };
    if v.abs() > 0.9 {
        let plies = ((1.0 - v.abs()) / 0.001).round() as i64;
        return if v > 0.0 {
            format!("mate {}", (plies + 1) / 2)
        } else {
            format!("mate -{}", plies / 2)
        };
    }
    let cp = 600.0 * v / (1.0 - v.abs());
    format!("cp {}", cp.round() as i64)
}

fn join(worker: JoinHandle<Engine>) -> Engine {
    // A panic in the search is a bug; the session goes on with a fresh
    // engine (the panic message is already on standard error).
    worker
        .join()
        .unwrap_or_else(|_| Engine::new(Config::default()))
}

/// At most 80 characters of user input echoed back.
fn clip(text: &str) -> String {
    if text.chars().count() <= 80 {
        text.to_string()
    } else {
        text.chars().take(80).collect::<String>() + "…"
    }
}

/// Reads lines from `input` and answers on `out` until `quit` or the end
/// of the input.
pub(crate) fn serve(mut input: impl BufRead, out: Sender<String>) -> std::io::Result<()> {
    let mut session = Session::new(out);
    let mut buf = Vec::new();
    loop {
        buf.clear();
        let n = (&mut input)
            .take(MAX_LINE as u64 + 1)
            .read_until(b'\n', &mut buf)?;
        if n == 0 {
            break;
        }
        if buf.len() > MAX_LINE && buf.last() != Some(&b'\n') {
            // Skip the rest of the line.
            let mut rest = Vec::new();
            while (&mut input)
                .take(MAX_LINE as u64)
                .read_until(b'\n', &mut rest)?
                > 0
            {
                if rest.last() == Some(&b'\n') {
                    break;
                }
                rest.clear();
            }
            session.info(format!("input line longer than {MAX_LINE} bytes; ignored"));
            continue;
        }
        let line = String::from_utf8_lossy(&buf);
        if session.handle(&line) == Flow::Quit {
            return Ok(());
        }
    }
    session.finish();
    Ok(())
}

/// `tempo engine uci` on standard input and output.
pub(crate) fn run() -> anyhow::Result<()> {
    let (tx, rx) = channel::<String>();
    let printer = std::thread::spawn(move || -> std::io::Result<()> {
        let stdout = std::io::stdout();
        for line in rx {
            let mut lock = stdout.lock();
            writeln!(lock, "{line}")?;
            lock.flush()?;
        }
        Ok(())
    });
    let served = serve(std::io::stdin().lock(), tx);
    // The session and its workers are gone: the printer ends with the
    // channel.
    let printed = printer
        .join()
        .map_err(|_| anyhow::anyhow!("the output thread failed"))?;
    served?;
    printed?;
    Ok(())
}

#[cfg(test)]
mod tests;
