//! `tempo sync ...`: simultaneous-move chess (Synchronschach, Fairschach).
//!
//! - `resolve`: one step from a position, JSON out (`fen`, `phase`,
//!   `events`, ...);
//! - `replay`: a pair record (or digit code, or PGN) to its final state;
//! - `random-games`: random legal games to the end, with statistics;
//! - `bench`: pair resolutions per second beside the perft rate (its
//!   drivers, tempo-bench, only in a build with the `bench` feature).

use std::collections::BTreeMap;
use std::io::Read;

use anyhow::{Context, bail};
use clap::{Args, Subcommand};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde_json::{Value, json};
use tempo_chess::Color;
use tempo_sync::{
    Choice, Expected, GameResult, Rules, SyncGame, Variant, digits, notation, pgn, playout, record,
};

/// Simultaneous-move chess: resolve a pair, replay a record, random games.
#[derive(Debug, Args)]
pub(crate) struct SyncArgs {
    #[command(subcommand)]
    pub command: SyncCommand,
}

#[derive(Debug, Subcommand)]
pub(crate) enum SyncCommand {
    /// Resolve one step (a pair, an exchange step, an orthodox move) and
    /// print the new state and the events as JSON.
    Resolve(ResolveArgs),
    /// Replay a record (one pair per line) and print the final state as JSON.
    Replay(ReplayArgs),
    /// Play random legal games to the end and print how they ended.
    RandomGames(RandomArgs),
    /// Pair resolutions per second from random-playout positions, beside
    /// the orthodox perft rate of the same run (a build with the `bench`
    /// feature).
    Bench(BenchArgs),
}

/// The variant and its rule options.
#[derive(Debug, Args)]
pub(crate) struct RulesArgs {
    /// synchronschach or fairschach.
    #[arg(long)]
    pub variant: String,
    /// Fairschach FSR 4: stronger (default), both, weaker-stays.
    #[arg(long)]
    pub same_square: Option<String>,
    /// Fairschach FSR 9: moved (default), capturable, none.
    #[arg(long)]
    pub pause: Option<String>,
    /// Fairschach FSR 8: piece threshold for the switch to orthodox
    /// play at the next check, or `off` (default 6).
    #[arg(long)]
    pub fsr8: Option<String>,
    /// Fairschach: switch to orthodox play at the first check after N pairs.
    #[arg(long)]
    pub orthodox_after: Option<String>,
}

impl RulesArgs {
    fn rules(&self) -> anyhow::Result<Rules> {
        let variant: Variant = self.variant.parse()?;
        let mut rules = Rules::new(variant);
        for (key, value) in [
            ("same-square", &self.same_square),
            ("pause", &self.pause),
            ("fsr8", &self.fsr8),
            ("orthodox-after", &self.orthodox_after),
        ] {
            if let Some(value) = value {
                rules
                    .set_option(key, value)
                    .with_context(|| format!("--{key}"))?;
            }
        }
        Ok(rules)
    }
}

#[derive(Debug, Args)]
pub(crate) struct ResolveArgs {
    #[command(flatten)]
    pub rules: RulesArgs,
    /// The state: a FEN (start of a pair) or the extended notation.
    #[arg(long)]
    pub fen: String,
    /// White's choice: a UCI move, `xd4e5`/`-` in an exchange phase,
    /// `..` (or left out) when White has nothing to choose.
    #[arg(long)]
    pub white: Option<String>,
    /// Black's choice (as --white).
    #[arg(long)]
    pub black: Option<String>,
}

#[derive(Debug, Args)]
pub(crate) struct ReplayArgs {
    #[command(flatten)]
    pub rules: RulesArgs,
    /// Start state (FEN or extended notation); default the orthodox start.
    #[arg(long)]
    pub fen: Option<String>,
    /// Start from Chess960 position number N (0-959) instead.
    #[arg(long, conflicts_with = "fen")]
    pub chess960: Option<u16>,
    /// The record file (default: standard input). A text starting with
    /// `[` is read as PGN (its Variant tag must match --variant).
    pub file: Option<String>,
    /// The record is in the digit code for correspondence.
    #[arg(long)]
    pub digits: bool,
    /// Print the game in this format instead of the JSON state: record
    /// (UCI pair record), san (the record in SAN), digits, pgn (with the
    /// SAN record).
    #[arg(long)]
    pub export: Option<String>,
}

#[derive(Debug, Args)]
pub(crate) struct RandomArgs {
    #[command(flatten)]
    pub rules: RulesArgs,
    /// Number of games.
    #[arg(long, default_value_t = 1000)]
    pub games: usize,
    /// Seed of the random choices (ChaCha8).
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// Start each game from a random Chess960 position.
    #[arg(long)]
    pub chess960: bool,
    /// Print JSON instead of text.
    #[arg(long)]
    pub json: bool,
}

#[derive(Debug, Args)]
pub(crate) struct BenchArgs {
    #[command(flatten)]
    pub rules: RulesArgs,
    /// Seconds to measure each figure.
    #[arg(long, default_value_t = 3.0)]
    pub seconds: f64,
    /// Seed of the playouts.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
}

pub(crate) fn run(args: &SyncArgs) -> anyhow::Result<()> {
    match &args.command {
        SyncCommand::Resolve(a) => resolve(a),
        SyncCommand::Replay(a) => replay(a),
        SyncCommand::RandomGames(a) => random_games(a),
        SyncCommand::Bench(a) => bench(a),
    }
}

fn state_json(game: &SyncGame) -> Value {
    let (result, reason) = match game.result() {
        Some((r, why)) => (json!(r.to_string()), json!(why.name())),
        None => (Value::Null, Value::Null),
    };
    json!({
        "fen": notation::write(game),
        "phase": serde_json::to_value(game.phase()).expect("serialisable"),
        "pair": game.pair_number(),
        "result": result,
        "reason": reason,
    })
}

fn parse_token(
    game: &SyncGame,
    color: Color,
    token: Option<&str>,
) -> anyhow::Result<Option<Choice>> {
    let who = color.fold("White", "Black");
    match (token, game.expected(color)) {
        (None, Expected::Nothing) => Ok(None),
        (None, _) => bail!(
            "--{} is required: {who} has a choice to make",
            who.to_lowercase()
        ),
        (Some(token), _) => record::parse_choice(game, color, token)
            .map_err(|reason| anyhow::anyhow!("{who}: {reason}")),
    }
}

fn resolve(args: &ResolveArgs) -> anyhow::Result<()> {
    let rules = args.rules.rules()?;
    let game = notation::read(rules, &args.fen)
        .with_context(|| format!("invalid --fen {:?}", args.fen))?;
    if let Some((result, reason)) = game.result() {
        bail!("the game is already over: {result} ({reason})");
    }
    let white = parse_token(&game, Color::White, args.white.as_deref())?;
    let black = parse_token(&game, Color::Black, args.black.as_deref())?;
    let (next, step) = game.step(white, black)?;
    let mut out = state_json(&next);
    out["events"] = serde_json::to_value(&step.events)?;
    out["record"] = json!(step.record);
    println!("{}", serde_json::to_string_pretty(&out)?);
    Ok(())
}

fn start_state(rules: Rules, fen: Option<&str>, chess960: Option<u16>) -> anyhow::Result<SyncGame> {
    Ok(match (fen, chess960) {
        (Some(fen), _) => {
            notation::read(rules, fen).with_context(|| format!("invalid --fen {fen:?}"))?
        }
        (None, Some(n)) => SyncGame::chess960(rules, n)?,
        (None, None) => SyncGame::new(rules),
    })
}

fn replay(args: &ReplayArgs) -> anyhow::Result<()> {
    let rules = args.rules.rules()?;
    let (name, text) = match &args.file {
        Some(path) => (
            path.clone(),
            std::fs::read_to_string(path).with_context(|| format!("cannot read {path}"))?,
        ),
        None => {
            let mut text = String::new();
            std::io::stdin()
                .read_to_string(&mut text)
                .context("cannot read standard input")?;
            ("<stdin>".to_string(), text)
        }
    };
    let is_pgn = text.trim_start().starts_with('[');
    let (start, end, steps) = if is_pgn {
        let (game, end, steps) = pgn::read(&text).with_context(|| name.clone())?;
        if game.start.rules().variant() != rules.variant() {
            bail!(
                "{name}: Variant tag says {}, --variant says {}",
                game.start.rules().variant(),
                rules.variant()
            );
        }
        (game.start, end, steps)
    } else {
        let start = start_state(rules, args.fen.as_deref(), args.chess960)?;
        let (end, steps) = if args.digits {
            digits::replay(&start, &text)
        } else {
            record::replay(&start, &text)
        }
        .with_context(|| name.clone())?;
        (start, end, steps)
    };
    match args.export.as_deref() {
        None => {
            let mut out = state_json(&end);
            out["steps"] = json!(steps.len());
            println!("{}", serde_json::to_string_pretty(&out)?);
        }
        Some(format) => {
            let mut game = start.clone();
            let mut lines = Vec::new();
            for step in &steps {
                let (next, resolution) = game.step(step.white, step.black)?;
                lines.push(match format {
                    "digits" => resolution.digits,
                    "record" => resolution.record,
                    "san" | "pgn" => tempo_sync::san::write_step(
                        &game,
                        step.white,
                        step.black,
                        &resolution.events,
                    ),
                    other => bail!("unknown --export format '{other}' (record, san, digits, pgn)"),
                });
                game = next;
            }
            if format == "pgn" {
                let doc = pgn::SyncPgn {
                    tags: tempo_chess::pgn::Tags::new(),
                    start,
                    lines,
                };
                print!("{}", doc.to_pgn(&end));
            } else {
                for line in lines {
                    println!("{line}");
                }
            }
        }
    }
    Ok(())
}

/// Most games `random-games` plays in one run (about an hour on one core).
pub(crate) const MAX_RANDOM_GAMES: usize = 10_000_000;
/// Longest time `bench` measures each figure.
pub(crate) const MAX_BENCH_SECONDS: f64 = 3_600.0;

fn random_games(args: &RandomArgs) -> anyhow::Result<()> {
    if !(1..=MAX_RANDOM_GAMES).contains(&args.games) {
        anyhow::bail!(
            "--games {}: must be from 1 to {MAX_RANDOM_GAMES}",
            args.games
        );
    }
    let rules = args.rules.rules()?;
    let mut rng = ChaCha8Rng::seed_from_u64(args.seed);
    let mut by_result: BTreeMap<&'static str, BTreeMap<&'static str, usize>> = BTreeMap::new();
    let (mut pairs, mut steps) = (0u64, 0u64);
    for _ in 0..args.games {
        let start = if args.chess960 {
            SyncGame::chess960(rules, rng.random_range(0..960u16))?
        } else {
            SyncGame::new(rules)
        };
        let game = playout::random_game(&start, &mut rng, false);
        let key = match game.result {
            GameResult::Win(Color::White) => "White",
            GameResult::Win(Color::Black) => "Black",
            GameResult::Draw => "draw",
        };
        *by_result
            .entry(key)
            .or_default()
            .entry(game.reason.name())
            .or_default() += 1;
        pairs += u64::from(game.pairs);
        steps += game.steps as u64;
    }
    let n = args.games as f64;
    let mean_pairs = pairs as f64 / n;
    let mean_steps = steps as f64 / n;
    if args.json {
        let out = json!({
            "variant": rules.variant().name(),
            "games": args.games,
            "seed": args.seed,
            "results": by_result,
            "mean_pairs": mean_pairs,
            "mean_steps": mean_steps,
        });
        println!("{}", serde_json::to_string_pretty(&out)?);
        return Ok(());
    }
    println!(
        "{} random games of {} (seed {})",
        args.games,
        rules.variant(),
        args.seed
    );
    for key in ["White", "Black", "draw"] {
        let reasons = by_result.get(key).cloned().unwrap_or_default();
        let total: usize = reasons.values().sum();
        let detail: Vec<String> = reasons.iter().map(|(r, c)| format!("{r} {c}")).collect();
        let label = match key {
            "White" => "White wins",
            "Black" => "Black wins",
            _ => "Draws",
        };
        println!("{label}: {total} ({})", detail.join(", "));
    }
    println!("mean length: {mean_pairs:.1} pairs ({mean_steps:.1} steps)");
    Ok(())
}

fn bench(args: &BenchArgs) -> anyhow::Result<()> {
    if !(args.seconds > 0.0 && args.seconds <= MAX_BENCH_SECONDS) {
        anyhow::bail!(
            "--seconds {}: must be more than 0 and at most {MAX_BENCH_SECONDS}",
            args.seconds
        );
    }
    let rules = args.rules.rules()?;
    measure(rules, args)
}

/// The figures of `tempo sync bench`, from the drivers of tempo-bench.
#[cfg(feature = "bench")]
fn measure(rules: Rules, args: &BenchArgs) -> anyhow::Result<()> {
    use std::time::Instant;

    use tempo_chess::Position;

    let positions = tempo_sync::playout::sample_pair_states(rules, 2000, args.seed);
    let rate = tempo_bench::measure_resolutions(&positions, args.seconds);
    let resolve_only = tempo_bench::measure_resolutions_only(&positions, args.seconds);
    let playouts = tempo_bench::measure_playout_pairs(rules, args.seconds, args.seed);
    let start = Instant::now();
    let mut nodes = 0u64;
    let pos = Position::new();
    while start.elapsed().as_secs_f64() < args.seconds {
        nodes += tempo_chess::perft(&pos, 4);
    }
    let perft_rate = nodes as f64 / start.elapsed().as_secs_f64();
    println!(
        "{}: {:.2} M pair resolutions/s (generate both players' moves, pick, resolve; {} playout states)",
        rules.variant(),
        rate / 1e6,
        positions.len()
    );
    println!(
        "{}: {:.2} M pair resolutions/s with the choices generated beforehand",
        rules.variant(),
        resolve_only / 1e6
    );
    println!(
        "{}: {:.2} M pairs/s in random playouts (each pair's moves from the mate test of the pair before; exchange steps and new games timed, not counted)",
        rules.variant(),
        playouts / 1e6
    );
    println!(
        "tempo-chess perft (start position, depth 4): {:.1} M nodes/s",
        perft_rate / 1e6
    );
    Ok(())
}

/// Without the `bench` feature the drivers are not in the binary.
#[cfg(not(feature = "bench"))]
fn measure(_: Rules, _: &BenchArgs) -> anyhow::Result<()> {
    Err(super::built_without_bench("sync bench"))
}
