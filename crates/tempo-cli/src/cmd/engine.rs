//! `tempo engine ...`: the computer opponent (library `tempo-engine`).
//!
//! - `analyse`: the value and the strategies (or best line) of a position;
//! - `match`: colour-swapped pairs of games between two players;
//! - `bench`: nodes per second and each pruning idea on and off;
//! - `uci`: the engine behind the UCI protocol (module `uci`);
//! - `elo`: a rating from scores against opponents of known ratings.
//! - `exploitability`: the root strategies against the exact solution
//!   (`engine_exploitability.rs`).

use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::Instant;

use anyhow::{Context, bail};
use clap::{Args, Subcommand};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde_json::{Value, json};
use tempo_chess::{Color, Outcome};
use tempo_engine::{
    Config, Engine, GameOutcome, GameStart, Limits, Player, PlayerKind, State, wilson,
};
use tempo_sync::GameKind;

use super::uci_client::{self, Contender};

/// The computer opponent: analyse a position, play matches, benchmarks.
#[derive(Debug, Args)]
pub(crate) struct EngineArgs {
    #[command(subcommand)]
    pub command: EngineCommand,
}

#[derive(Debug, Subcommand)]
pub(crate) enum EngineCommand {
    /// The value of a position and both players' strategies (a pair) or
    /// the best move and line (one player to move), as JSON.
    Analyse(AnalyseArgs),
    /// Colour-swapped pairs of games between two players; the last line
    /// gives A's score with its 95 % interval.
    Match(MatchArgs),
    /// Nodes per second, and the search with each pruning idea switched
    /// off in turn, on the same positions.
    Bench(EngineBenchArgs),
    /// Speaks UCI on standard input and output (orthodox chess and
    /// Chess960), for chess GUIs and match runners.
    Uci,
    /// The maximum-likelihood rating, with its 95 % interval, of scores
    /// against opponents of known ratings.
    Elo(super::engine_elo::EloArgs),
    /// The engine's root strategies against the exact solution of the
    /// same tree, on fixed positions: exploitability and value error.
    Exploitability(super::engine_exploitability::ExploitabilityArgs),
}

/// How long each move is searched.
#[derive(Debug, Args, Clone, Copy)]
pub(crate) struct BudgetArgs {
    /// Milliseconds a move (iterative deepening until then).
    #[arg(long, conflicts_with = "depth")]
    pub movetime: Option<u64>,
    /// A fixed depth (steps: pairs or orthodox moves); deterministic.
    #[arg(long, conflicts_with = "nodes")]
    pub depth: Option<u32>,
    /// Nodes a move (iterative deepening within them); deterministic, and
    /// the same work a move on every machine.
    #[arg(long, conflicts_with = "movetime")]
    pub nodes: Option<u64>,
}

/// Games played at once unless `--jobs` says otherwise: one a core, so
/// that a match or a study uses the whole machine.
pub(crate) fn default_jobs() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get().min(256))
}

/// Longest time a move may be given (ms).
const MAX_MOVETIME: u64 = 600_000;
/// Deepest fixed depth.
const MAX_DEPTH: u32 = 30;
/// Largest node budget a move.
const MAX_NODES: u64 = 1_000_000_000;
/// Most games of one match (or of one variant of the study).
pub(crate) const MAX_GAMES: usize = 100_000;

impl BudgetArgs {
    /// The limits, `default_ms` a move if neither is given.
    pub(crate) fn limits(&self, default_ms: u64) -> anyhow::Result<Limits> {
        if let Some(n) = self.nodes {
            if !(1..=MAX_NODES).contains(&n) {
                bail!("--nodes {n}: must be from 1 to {MAX_NODES}");
            }
            return Ok(Limits::nodes(n));
        }
        match (self.movetime, self.depth) {
            (Some(ms), _) if !(1..=MAX_MOVETIME).contains(&ms) => {
                bail!("--movetime {ms}: must be from 1 to {MAX_MOVETIME}")
            }
            (_, Some(d)) if !(1..=MAX_DEPTH).contains(&d) => {
                bail!("--depth {d}: must be from 1 to {MAX_DEPTH}")
            }
            (Some(ms), _) => Ok(Limits::movetime(ms)),
            (None, Some(d)) => Ok(Limits::depth(d)),
            (None, None) => Ok(Limits::movetime(default_ms)),
        }
    }

    /// `depth 2` or `100 ms/move`.
    pub(crate) fn describe(limits: Limits) -> String {
        match (limits.depth, limits.movetime, limits.nodes) {
            (Some(d), _, _) => format!("depth {d}"),
            (None, Some(t), _) => format!("{} ms/move", t.as_millis()),
            (None, None, Some(n)) => format!("{n} nodes/move"),
            (None, None, None) => "no limit".to_string(),
        }
    }
}

#[derive(Debug, Args)]
pub(crate) struct AnalyseArgs {
    /// standard, chess960, synchronschach or fairschach.
    #[arg(long)]
    pub variant: String,
    /// The position: a FEN (the extended notation of `tempo sync` for the
    /// variants).
    #[arg(long, conflicts_with = "chess960")]
    pub fen: Option<String>,
    /// Chess960 start position N (0-959).
    #[arg(long)]
    pub chess960: Option<u16>,
    #[command(flatten)]
    pub budget: BudgetArgs,
}

#[derive(Debug, Args)]
pub(crate) struct MatchArgs {
    /// standard, chess960, synchronschach or fairschach.
    #[arg(long)]
    pub variant: String,
    /// Player A: nash, purified, minimax, greedy, random, or an external UCI
    /// engine `uci:<command>` (split at spaces; standard and chess960).
    #[arg(long)]
    pub a: String,
    /// Player B.
    #[arg(long)]
    pub b: String,
    /// An option of an external engine A, NAME=VALUE (repeatable).
    #[arg(long = "a-option", value_name = "NAME=VALUE")]
    pub a_option: Vec<String>,
    /// An option of an external engine B, NAME=VALUE (repeatable).
    #[arg(long = "b-option", value_name = "NAME=VALUE")]
    pub b_option: Vec<String>,
    /// Number of games (pairs of games from the same start, colours
    /// swapped).
    #[arg(long, default_value_t = 20)]
    pub games: usize,
    /// Seed of the players' generators and of the Chess960 starts.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    #[command(flatten)]
    pub budget: BudgetArgs,
    /// Games played at once (threads; default: the machine's cores).
    #[arg(long, default_value_t = default_jobs())]
    pub jobs: usize,
    /// Each pair of games from a random Chess960 start.
    #[arg(long)]
    pub chess960: bool,
    /// Uniformly random steps (pairs, or orthodox moves) played from the
    /// start before each pair of games, the same for both games of the
    /// pair, so that deterministic players do not repeat one game.
    #[arg(long, default_value_t = 2)]
    pub opening: u32,
}

#[derive(Debug, Args)]
pub(crate) struct EngineBenchArgs {
    /// standard, chess960, synchronschach or fairschach.
    #[arg(long, default_value = "synchronschach")]
    pub variant: String,
    /// Positions (from games of the random player).
    #[arg(long, default_value_t = 20)]
    pub positions: usize,
    /// Depth of each search.
    #[arg(long, default_value_t = 2)]
    pub depth: u32,
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
}

pub(crate) fn run(args: &EngineArgs) -> anyhow::Result<()> {
    match &args.command {
        EngineCommand::Analyse(a) => analyse(a),
        EngineCommand::Match(a) => run_match(a),
        EngineCommand::Bench(a) => bench(a),
        EngineCommand::Uci => super::uci::run(),
        EngineCommand::Elo(a) => super::engine_elo::run(a),
        EngineCommand::Exploitability(a) => super::engine_exploitability::run(a),
    }
}

fn round(v: f64) -> f64 {
    (v * 10_000.0).round() / 10_000.0
}

fn analyse(args: &AnalyseArgs) -> anyhow::Result<()> {
    let kind: GameKind = args.variant.parse()?;
    let limits = args.budget.limits(1000)?;
    let state = match (&args.fen, args.chess960) {
        (Some(fen), _) => kind.from_fen(fen)?,
        (None, Some(n)) => kind.start(Some(n))?,
        (None, None) => kind.start(None)?,
    };
    if let Some(end) = state.ending() {
        bail!("the game is already over: {} ({})", end.outcome, end.reason);
    }
    let mut engine = Engine::new(Config::default());
    let analysis = engine.analyse(&state, limits);
    let list = |color: Color| -> Value {
        analysis
            .strategy(color)
            .iter()
            .map(|&(c, p)| json!({"move": state.choice_name(color, c), "p": round(p)}))
            .collect()
    };
    let out = if analysis.simultaneous {
        json!({
            "value": round(analysis.value),
            "white": list(Color::White),
            "black": list(Color::Black),
            "depth": analysis.depth,
            "nodes": analysis.nodes,
        })
    } else {
        // Name the line move by move in the positions it is played in.
        let mut s = state.clone();
        let mut pv = Vec::new();
        for &c in &analysis.pv {
            let mover = if s.choices(Color::White).is_empty() {
                Color::Black
            } else {
                Color::White
            };
            pv.push(s.choice_name(mover, c));
            s = match mover {
                Color::White => s.play(Some(c), None),
                Color::Black => s.play(None, Some(c)),
            };
        }
        let best = match pv.first() {
            Some(b) => b.clone(),
            None => {
                let (color, &(c, _)) = [Color::White, Color::Black]
                    .into_iter()
                    .find_map(|color| analysis.strategy(color).first().map(|x| (color, x)))
                    .context("no move to choose")?;
                let name = state.choice_name(color, c);
                pv.push(name.clone());
                name
            }
        };
        json!({
            "value": round(analysis.value),
            "best": best,
            "pv": pv,
            "depth": analysis.depth,
            "nodes": analysis.nodes,
        })
    };
    println!("{}", serde_json::to_string_pretty(&out)?);
    Ok(())
}

/// A game of a match or study: its place in the schedule, whether player
/// A has White, the start and how it was reached.
pub(crate) struct Scheduled {
    /// Index in the schedule.
    pub game: u32,
    /// Its colour-swapped pair (`game / 2`; the game itself with
    /// [`Starts::Single`]).
    pub pair: u32,
    pub a_white: bool,
    /// The Chess960 start the pair was drawn from, if any.
    pub chess960: Option<u16>,
    /// The opening's random steps ([`State::step_words`]).
    pub opening: Vec<String>,
    pub start: State,
    pub seed: u64,
}

/// How the games of a schedule share their starts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Starts {
    /// Colour-swapped pairs from one start, A White in the first game of
    /// each: two different players (a match).
    Paired,
    /// A start of its own for every game (the pair is the game): for
    /// identical players, whose colour-swapped games in orthodox chess
    /// would be one game played twice.
    Single,
}

/// The games of a match of `games` games: pairs from the same start
/// (a Chess960 start drawn from the seed if `chess960`, then `opening`
/// uniformly random steps), A White in the first game of each pair; or
/// with [`Starts::Single`] each game from a start of its own. The
/// schedule of fewer games is the beginning of this one.
pub(crate) fn schedule(
    kind: GameKind,
    chess960: bool,
    opening: u32,
    games: usize,
    seed: u64,
    starts: Starts,
) -> anyhow::Result<Vec<Scheduled>> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut out = Vec::with_capacity(games);
    let random_start = chess960 || kind == GameKind::Chess960;
    let (pairs, colours): (usize, &[bool]) = match starts {
        Starts::Paired => (games.div_ceil(2), &[true, false]),
        Starts::Single => (games, &[true]),
    };
    for pair in 0..pairs {
        let number = rng.random_range(0..960u16);
        let chess960 = random_start.then_some(number);
        let mut start = kind.start(chess960)?;
        let mut words = Vec::new();
        for _ in 0..opening {
            let mut pick = |color| {
                let list = start.choices(color);
                (!list.is_empty()).then(|| list[rng.random_range(0..list.len())])
            };
            let (w, b) = (pick(Color::White), pick(Color::Black));
            let next = start.play(w, b);
            if next.ending().is_some() {
                break;
            }
            start.step_words(w, b, &mut words);
            start = next;
        }
        for &a_white in colours {
            if out.len() < games {
                out.push(Scheduled {
                    game: out.len() as u32,
                    pair: pair as u32,
                    a_white,
                    chess960,
                    opening: words.clone(),
                    start: start.clone(),
                    seed: seed
                        .wrapping_mul(0x9E37_79B9_7F4A_7C15)
                        .wrapping_add((pair as u64) << 1 | u64::from(a_white)),
                });
            }
        }
    }
    Ok(out)
}

/// A game played: how it ended and how long it took.
#[derive(Debug, Clone)]
pub(crate) struct Played {
    pub outcome: GameOutcome,
    pub seconds: f64,
}

/// A progress bar on standard error (hidden where that is not a
/// terminal) of `len` games, `done` of them already before: the message
/// (what is played, a score so far), games, time taken and left.
pub(crate) fn progress_bar(len: u64, done: u64, message: String) -> indicatif::ProgressBar {
    let bar = indicatif::ProgressBar::new(len).with_message(message);
    bar.set_style(
        indicatif::ProgressStyle::with_template(
            "{msg} [{bar:30}] {pos}/{len} games, {elapsed} elapsed, {eta} left",
        )
        .expect("valid template")
        .progress_chars("=> "),
    );
    bar.set_position(done);
    // Games done before this run took no time in it: estimate from now.
    bar.reset_eta();
    bar
}

/// Plays `games` on `jobs` threads, `bar` counting them; `done` is told
/// of each game as it ends, one game at a time (it may write it down,
/// or set the bar's message). An error of `done` stops the games not yet
/// begun and is returned. The games played, in the order given.
pub(crate) fn play_all<F>(
    games: &[&Scheduled],
    a: impl Into<Contender>,
    b: impl Into<Contender>,
    limits: Limits,
    jobs: usize,
    bar: &indicatif::ProgressBar,
    done: F,
) -> anyhow::Result<Vec<Played>>
where
    F: FnMut(&Scheduled, &Played) -> anyhow::Result<()> + Send,
{
    let (a, b) = (a.into(), b.into());
    let next = AtomicUsize::new(0);
    let failed = AtomicBool::new(false);
    // The results, `done` and its first error: one lock, so that `done`
    // sees the games one at a time.
    let shared = Mutex::new((vec![None; games.len()], done, None::<anyhow::Error>));
    std::thread::scope(|scope| {
        for _ in 0..jobs.clamp(1, games.len().max(1)) {
            scope.spawn(|| {
                while !failed.load(Ordering::Relaxed) {
                    let k = next.fetch_add(1, Ordering::Relaxed);
                    let Some(game) = games.get(k) else { break };
                    let started = Instant::now();
                    let mut pa = a.seat(limits, game.seed);
                    let mut pb = b.seat(limits, game.seed ^ 0x5555_5555);
                    let outcome = if game.a_white {
                        uci_client::play(&game.start, &mut pa, &mut pb)
                    } else {
                        uci_client::play(&game.start, &mut pb, &mut pa)
                    };
                    let played = Played {
                        outcome,
                        seconds: started.elapsed().as_secs_f64(),
                    };
                    let mut guard = shared.lock().expect("no panics while held");
                    let (results, done, error) = &mut *guard;
                    bar.inc(1);
                    if error.is_none()
                        && let Err(e) = done(game, &played)
                    {
                        *error = Some(e);
                        failed.store(true, Ordering::Relaxed);
                    }
                    results[k] = Some(played);
                }
            });
        }
    });
    bar.finish_and_clear();
    let (results, _, error) = shared.into_inner().expect("no panics while held");
    if let Some(e) = error {
        return Err(e);
    }
    Ok(results
        .into_iter()
        .map(|r| r.expect("every game played"))
        .collect())
}

fn run_match(args: &MatchArgs) -> anyhow::Result<()> {
    let kind: GameKind = args.variant.parse()?;
    let a = Contender::parse("--a", &args.a, &args.a_option)?;
    let b = Contender::parse("--b", &args.b, &args.b_option)?;
    if !(1..=MAX_GAMES).contains(&args.games) {
        bail!("--games {}: must be from 1 to {MAX_GAMES}", args.games);
    }
    if !(1..=256).contains(&args.jobs) {
        bail!("--jobs {}: must be from 1 to 256", args.jobs);
    }
    let limits = args.budget.limits(100)?;
    if args.opening > 20 {
        bail!("--opening {}: must be from 0 to 20", args.opening);
    }
    let pipes = uci_client::guard_pipes(&a, &b);
    a.check("--a", kind, args.chess960)?;
    b.check("--b", kind, args.chess960)?;
    let schedule = schedule(
        kind,
        args.chess960,
        args.opening,
        args.games,
        args.seed,
        Starts::Paired,
    )?;
    let started = Instant::now();
    let label = format!("{} vs {}", a.name(), b.name());
    let (a_name, b_name) = (a.name(), b.name());
    for external in [a.describe(), b.describe()].into_iter().flatten() {
        println!("{external}");
    }
    let bar = progress_bar(schedule.len() as u64, 0, label.clone());
    let (mut points, mut count) = (0.0, 0u32);
    let games: Vec<&Scheduled> = schedule.iter().collect();
    let played = play_all(&games, a, b, limits, args.jobs, &bar, |game, played| {
        let a_color = if game.a_white {
            Color::White
        } else {
            Color::Black
        };
        points += match played.outcome.outcome {
            Outcome::Draw => 0.5,
            Outcome::Win(c) if c == a_color => 1.0,
            Outcome::Win(_) => 0.0,
        };
        count += 1;
        bar.set_message(format!(
            "{label}: A {:.3} ({points}/{count})",
            points / f64::from(count)
        ));
        Ok(())
    })?;
    drop(pipes);
    let outcomes: Vec<GameOutcome> = played.into_iter().map(|p| p.outcome).collect();
    let (mut wins, mut draws, mut losses) = (0, 0, 0);
    for (game, outcome) in schedule.iter().zip(&outcomes) {
        let a_color = if game.a_white {
            Color::White
        } else {
            Color::Black
        };
        match outcome.outcome {
            Outcome::Draw => draws += 1,
            Outcome::Win(c) if c == a_color => wins += 1,
            Outcome::Win(_) => losses += 1,
        }
    }
    let adjudicated = outcomes
        .iter()
        .filter(|o| o.reason == "adjudicated")
        .count();
    let n = outcomes.len();
    let score = f64::from(wins) + f64::from(draws) / 2.0;
    let (lo, hi) = wilson(score, n);
    let mut reasons: std::collections::BTreeMap<String, usize> = Default::default();
    for (game, outcome) in schedule.iter().zip(&outcomes) {
        let who = match outcome.outcome {
            Outcome::Draw => "draw",
            Outcome::Win(c) if (c == Color::White) == game.a_white => &a_name,
            Outcome::Win(_) => &b_name,
        };
        let key = if who == "draw" {
            format!("draw {}", outcome.reason)
        } else {
            format!("{who} by {}", outcome.reason)
        };
        *reasons.entry(key).or_default() += 1;
    }
    let reasons: Vec<String> = reasons.iter().map(|(k, v)| format!("{k} {v}")).collect();
    println!("endings: {}", reasons.join(", "));
    println!(
        "{} ({}), {}, seed {}: {adjudicated} adjudicated at move {}, {:.1} s",
        kind.name(),
        if args.chess960 || kind == GameKind::Chess960 {
            "Chess960 starts"
        } else {
            "orthodox start"
        },
        BudgetArgs::describe(limits),
        args.seed,
        tempo_engine::MOVE_CAP,
        started.elapsed().as_secs_f64()
    );
    println!(
        "{a_name} vs {b_name}: score {:.3} [{lo:.3}, {hi:.3}] over {n} games (+{wins} ={draws} -{losses})",
        score / n as f64,
    );
    Ok(())
}

fn bench(args: &EngineBenchArgs) -> anyhow::Result<()> {
    let kind: GameKind = args.variant.parse()?;
    if !(1..=10_000).contains(&args.positions) {
        bail!("--positions {}: must be from 1 to 10000", args.positions);
    }
    if !(1..=MAX_DEPTH).contains(&args.depth) {
        bail!("--depth {}: must be from 1 to {MAX_DEPTH}", args.depth);
    }
    // Positions from games of the random player, every 5th step from
    // move 3 on.
    let mut rng = ChaCha8Rng::seed_from_u64(args.seed);
    let mut positions = Vec::new();
    let mut game = 0u64;
    while positions.len() < args.positions {
        let start = kind.start(Some(rng.random_range(0..960u16)).filter(|_| game % 2 == 1))?;
        let mut p = Player::new(PlayerKind::Random, Limits::depth(1), args.seed ^ game);
        let mut s = start;
        let mut step = 0;
        while s.ending().is_none() && positions.len() < args.positions {
            if step >= 4 && step % 5 == 0 {
                positions.push(s.clone());
            }
            let w = p.choose(&s, Color::White);
            let b = p.choose(&s, Color::Black);
            s = s.play(w, b);
            step += 1;
        }
        game += 1;
    }
    let configs = [
        ("all on", Config::default()),
        (
            "no transposition table",
            Config {
                transposition: false,
                ..Config::default()
            },
        ),
        (
            "no double oracle",
            Config {
                double_oracle: false,
                ..Config::default()
            },
        ),
        (
            "no serialised bounds",
            Config {
                bounds: false,
                ..Config::default()
            },
        ),
        (
            "no futility pruning",
            Config {
                futility: false,
                ..Config::default()
            },
        ),
    ];
    println!(
        "{}: {} positions, depth {}, seed {}",
        kind.name(),
        positions.len(),
        args.depth,
        args.seed
    );
    println!(
        "{:<24} {:>12} {:>9} {:>11} {:>12}",
        "search", "nodes", "seconds", "nodes/s", "mean |dv|"
    );
    // Interleaved (every configuration on a position before the next
    // position), so that a change of the machine's load falls on all.
    let mut totals = vec![(0u64, 0.0f64, 0.0f64); configs.len()];
    for s in &positions {
        let mut reference = None;
        for (k, (_, config)) in configs.iter().enumerate() {
            let started = Instant::now();
            let a = Engine::new(*config).analyse(s, Limits::depth(args.depth));
            totals[k].0 += a.nodes;
            totals[k].1 += started.elapsed().as_secs_f64();
            let base = *reference.get_or_insert(a.value);
            totals[k].2 += (a.value - base).abs() / positions.len() as f64;
        }
    }
    for ((name, _), (nodes, secs, dv)) in configs.iter().zip(totals) {
        println!(
            "{name:<24} {nodes:>12} {secs:>9.2} {:>11.0} {dv:>12.4}",
            nodes as f64 / secs
        );
    }
    Ok(())
}
