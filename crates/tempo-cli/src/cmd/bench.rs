//! `tempo bench perft [--full] [--rounds N]`: tempo's move generator
//! against cozy-chess on the same positions in the same run.
//!
//! Both count leaves the same way: full legal move generation at every
//! inner node, copy-make of the position, bulk counting (number of legal
//! moves, no playing) at the last ply.
//!
//! cozy-chess is built in only with the `cozy-reference` feature, so that
//! the product binary does not carry a second move generator; without it
//! the cozy-chess columns show `-`.
//!
//! `tempo bench serve`: the play server under load, driven by tempo-bench,
//! which is built in only with the `bench` feature (the product binary
//! does not carry a load generator); without it the command checks its
//! options and then says how to build it.

use std::time::{Duration, Instant};

use clap::{Args, Subcommand};
use tempo_chess::Position;

/// Measure performance against a reference implementation.
#[derive(Debug, Args)]
pub(crate) struct BenchArgs {
    #[command(subcommand)]
    pub what: BenchCommand,
}

/// What to measure.
#[derive(Debug, Subcommand)]
pub(crate) enum BenchCommand {
    /// Perft nodes per second, tempo-chess vs cozy-chess (cozy-chess only in
    /// a build with the `cozy-reference` feature).
    Perft(PerftBenchArgs),
    /// The play server under load: games of simultaneous pairs over
    /// loopback sockets; commits/s, commit-to-reveal latency, and the
    /// storage ceiling of the same run (a build with the `bench` feature).
    Serve(ServeBenchArgs),
}

/// Options of `tempo bench serve`.
#[derive(Debug, Args)]
pub(crate) struct ServeBenchArgs {
    /// Concurrent games (1-5000).
    #[arg(long, default_value_t = 2000)]
    pub games: usize,
    /// Steps played in each game (1-200).
    #[arg(long, default_value_t = 20)]
    pub pairs: usize,
    /// PostgreSQL instead of SQLite in a temporary directory.
    #[arg(long)]
    pub database: Option<String>,
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Commits per second offered in all, spread over the games as
    /// players think; 0 = as fast as they are answered.
    #[arg(long, default_value_t = 6500.0)]
    pub rate: f64,
}

/// Options of `tempo bench perft`.
#[derive(Debug, Args)]
pub(crate) struct PerftBenchArgs {
    /// Deeper searches: start position depth 6, Kiwipete depth 5 (default:
    /// depth 5 and 4).
    #[arg(long)]
    pub full: bool,
    /// Timed rounds per position and library; the fastest round counts.
    #[arg(long, default_value_t = 3)]
    pub rounds: u32,
}

/// The benchmark positions: name, FEN, depth (default, --full).
const POSITIONS: [(&str, &str, u32, u32); 3] = [
    (
        "start",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        5,
        6,
    ),
    (
        "kiwipete",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        4,
        5,
    ),
    (
        "chess960-1",
        "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
        4,
        5,
    ),
];

pub(crate) fn run(args: &BenchArgs) -> anyhow::Result<()> {
    match &args.what {
        BenchCommand::Perft(perft_args) => run_perft(perft_args),
        BenchCommand::Serve(serve_args) => run_serve(serve_args),
    }
}

fn run_serve(args: &ServeBenchArgs) -> anyhow::Result<()> {
    if !(1..=5000).contains(&args.games) {
        anyhow::bail!("--games {}: from 1 to 5000", args.games);
    }
    if !(1..=200).contains(&args.pairs) {
        anyhow::bail!("--pairs {}: from 1 to 200", args.pairs);
    }
    if !(args.rate >= 0.0 && args.rate <= 1e6) {
        anyhow::bail!("--rate {}: from 0 to 1000000", args.rate);
    }
    serve::run(args)
}

/// `tempo bench serve`'s load run, from the driver of tempo-bench.
#[cfg(feature = "bench")]
mod serve {
    use super::ServeBenchArgs;

    pub fn run(args: &ServeBenchArgs) -> anyhow::Result<()> {
        let bench = tempo_bench::serve::ServeBench {
            games: args.games,
            pairs: args.pairs,
            database: args.database.clone(),
            seed: args.seed,
            rate: (args.rate > 0.0).then_some(args.rate),
        };
        let bar = indicatif::ProgressBar::new(args.games as u64);
        bar.set_style(
            indicatif::ProgressStyle::with_template("{bar:40} {pos}/{len} games {elapsed}")
                .expect("a valid template"),
        );
        let ticker = bar.clone();
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .enable_all()
            .build()?;
        let figures = runtime
            .block_on(tempo_bench::serve::run(&bench, move || ticker.inc(1)))
            .map_err(|e| anyhow::anyhow!("{e}"))?;
        bar.finish_and_clear();
        let store = if args.database.is_some() {
            "PostgreSQL"
        } else {
            "SQLite"
        };
        let offered = if args.rate > 0.0 {
            format!("{:.0} commits/s offered", args.rate)
        } else {
            "as fast as answered".to_string()
        };
        println!(
            "{} games of Fairschach, {} steps each, {offered}, {store}, over loopback sockets",
            args.games, args.pairs
        );
        println!(
            "commits acknowledged: {} in {:.2} s = {:.0} commits/s (target 5000)",
            figures.commits,
            figures.seconds,
            figures.commits_per_second()
        );
        println!(
            "last commit to reveal at both players: p50 {:.1} ms, p99 {:.1} ms (target p99 < 50)",
            figures.latency(0.5),
            figures.latency(0.99)
        );
        let served = figures.appends as f64 / figures.seconds;
        println!(
            "storage ceiling, the same {} entries straight to the store: {:.0} appends/s; served {:.0} appends/s = {:.0} % of it (target 50 %)",
            figures.appends,
            figures.ceiling_appends,
            served,
            100.0 * served / figures.ceiling_appends
        );
        Ok(())
    }
}

/// Without the `bench` feature the load driver is not in the binary.
#[cfg(not(feature = "bench"))]
mod serve {
    use super::ServeBenchArgs;

    pub(super) fn run(_: &ServeBenchArgs) -> anyhow::Result<()> {
        Err(crate::cmd::built_without_bench("bench serve"))
    }
}

fn run_perft(args: &PerftBenchArgs) -> anyhow::Result<()> {
    let rounds = args.rounds.max(1);
    if !reference::AVAILABLE {
        eprintln!(
            "tempo: built without the cozy-chess reference; for its columns run \
             `cargo run --release --features cozy-reference -- bench perft`"
        );
    }
    println!(
        "{:<12} {:>5} {:>12} {:>14} {:>14} {:>7}",
        "position", "depth", "nodes", "tempo nodes/s", "cozy nodes/s", "ratio"
    );
    let mut tempo_total = Duration::ZERO;
    let mut cozy_total = Some(Duration::ZERO);
    let mut nodes_total = 0u64;
    for (name, fen, depth, full_depth) in POSITIONS {
        let depth = if args.full { full_depth } else { depth };
        let pos = Position::from_fen(fen)?;
        let board = reference::Board::new(&pos)?;
        let mut tempo_best = Duration::MAX;
        let mut cozy_best: Option<Duration> = None;
        let mut nodes = 0;
        for _ in 0..rounds {
            let (n, t) = timed(|| tempo_chess::perft(&pos, depth));
            tempo_best = tempo_best.min(t);
            if let Some(board) = &board {
                let (m, c) = timed(|| board.perft(depth));
                cozy_best = Some(cozy_best.map_or(c, |best| best.min(c)));
                anyhow::ensure!(
                    n == m,
                    "perft disagrees on {name}: tempo {n}, cozy-chess {m}"
                );
            }
            nodes = n;
        }
        tempo_total += tempo_best;
        cozy_total = cozy_total.zip(cozy_best).map(|(total, best)| total + best);
        nodes_total += nodes;
        print_row(name, &depth.to_string(), nodes, tempo_best, cozy_best);
    }
    print_row("total", "", nodes_total, tempo_total, cozy_total);
    Ok(())
}

/// One row; the cozy-chess columns are `-` when it was not timed.
fn print_row(name: &str, depth: &str, nodes: u64, tempo: Duration, cozy: Option<Duration>) {
    let rate = |t: Duration| nodes as f64 / t.as_secs_f64().max(1e-9);
    let (cozy_rate, ratio) = match cozy {
        Some(cozy) => (
            format!("{:.0}", rate(cozy)),
            format!("{:.2}x", rate(tempo) / rate(cozy)),
        ),
        None => ("-".to_string(), "-".to_string()),
    };
    println!(
        "{:<12} {:>5} {:>12} {:>14.0} {:>14} {:>7}",
        name,
        depth,
        nodes,
        rate(tempo),
        cozy_rate,
        ratio
    );
}

fn timed<T>(f: impl FnOnce() -> T) -> (T, Duration) {
    let start = Instant::now();
    let value = f();
    (value, start.elapsed())
}

/// The reference move generator, cozy-chess, with the feature.
#[cfg(feature = "cozy-reference")]
mod reference {
    use tempo_chess::Position;

    pub const AVAILABLE: bool = true;

    pub struct Board(cozy_chess::Board);

    impl Board {
        pub fn new(pos: &Position) -> anyhow::Result<Option<Board>> {
            let fen = pos.to_shredder_fen();
            let board = cozy_chess::Board::from_fen(&fen, true)
                .map_err(|e| anyhow::anyhow!("cozy-chess rejects {fen}: {e:?}"))?;
            Ok(Some(Board(board)))
        }

        pub fn perft(&self, depth: u32) -> u64 {
            perft(&self.0, depth)
        }
    }

    /// cozy-chess perft the way its own benchmark does it: bulk counting at
    /// the last ply, copy-make elsewhere.
    fn perft(board: &cozy_chess::Board, depth: u32) -> u64 {
        match depth {
            0 => 1,
            1 => {
                let mut nodes = 0;
                board.generate_moves(|moves| {
                    nodes += moves.len() as u64;
                    false
                });
                nodes
            }
            _ => {
                let mut nodes = 0;
                board.generate_moves(|moves| {
                    for mv in moves {
                        let mut child = board.clone();
                        child.play_unchecked(mv);
                        nodes += perft(&child, depth - 1);
                    }
                    false
                });
                nodes
            }
        }
    }
}

/// Without the feature: no reference board, the columns stay empty.
#[cfg(not(feature = "cozy-reference"))]
mod reference {
    use tempo_chess::Position;

    pub(super) const AVAILABLE: bool = false;

    pub(super) enum Board {}

    impl Board {
        pub(super) fn new(_: &Position) -> anyhow::Result<Option<Board>> {
            Ok(None)
        }

        pub(super) fn perft(&self, _: u32) -> u64 {
            match *self {}
        }
    }
}
