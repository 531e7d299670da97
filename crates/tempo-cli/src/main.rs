//! `tempo`: the command line over tempo's libraries.
//!
//! Every subcommand lives in its own module under `cmd/`; this file only
//! declares the command tree and reports errors in one line.

use clap::{CommandFactory, FromArgMatches, Parser, Subcommand};

mod cmd;

// The server allocates from many threads at once (a JSON line per entry
// and stream): glibc's allocator contends there (docs/performance.md).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// tempo: fair chess for clubs — rules, clocks, tournaments.
#[derive(Debug, Parser)]
#[command(name = "tempo", version, about, propagate_version = true)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Pair the next round of a tournament (TRF in, pairs out).
    Pair(cmd::pair::PairArgs),
    /// Re-pair every round of a tournament (or a corpus) and report differences.
    Check(cmd::check::CheckArgs),
    /// Generate a random tournament paired by the Dutch system (TRF out).
    Generate(cmd::generate::GenerateArgs),
    /// Arbiter tools: the clock correction after an illegal move.
    Arbiter(cmd::arbiter::ArbiterArgs),
    /// Time controls: read, normalise and classify.
    Clock(cmd::clock::ClockArgs),
    /// Count the leaves of the legal move tree of a position (perft).
    Perft(cmd::perft::PerftArgs),
    /// Benchmarks against reference implementations (e.g. perft vs cozy-chess).
    Bench(cmd::bench::BenchArgs),
    /// Chess960 start positions: by number, seeded draws, the dice procedure.
    Chess960(cmd::chess960::Chess960Args),
    /// PGN tools: check every game of a file.
    Pgn(cmd::pgn::PgnArgs),
    /// Play moves in SAN, UCI or ICCF notation; print all three and the status.
    Moves(cmd::moves::MovesArgs),
    /// Standings of a tournament (TRF in): score and tie-breaks, or Keizer.
    Standings(cmd::standings::StandingsArgs),
    /// Round-robin pairings by FIDE's Berger tables.
    Berger(cmd::berger::BergerArgs),
    /// Rating calculations: Glicko-2, a tournament's FIDE rating change, a DWZ evaluation.
    Rating(cmd::rating::RatingArgs),
    /// Simultaneous-move chess (Synchronschach, Fairschach): resolve, replay, random games.
    Sync(cmd::sync::SyncArgs),
    /// The computer opponent: analyse a position, play matches, benchmarks.
    Engine(cmd::engine::EngineArgs),
    /// Studies with the engine: the fairness of the variants.
    Study(cmd::study::StudyArgs),
    /// Game logs of the play server: verify a saved log offline.
    Log(cmd::log::LogArgs),
    /// Run the play server (HTTP API; SQLite in --data, or --database postgres://…).
    Serve(cmd::serve::ServeArgs),
    /// Accounts of the play server.
    User(cmd::serve::UserArgs),
    /// A consistent copy of the server's SQLite store, also while it runs.
    Backup(cmd::serve::BackupArgs),
    /// Install a backup as the SQLite store (the server stopped); the
    /// current store is kept aside.
    Restore(cmd::restore::RestoreArgs),
}

fn main() -> std::process::ExitCode {
    let matches = Cli::command().get_matches();
    let cli =
        Cli::from_arg_matches(&matches).unwrap_or_else(|e| e.format(&mut Cli::command()).exit());
    // A server outlives whoever reads its console: a closed pipe there is a
    // lost log line, not the end of the games.
    if !matches!(cli.command, Command::Serve(_)) {
        restore_sigpipe();
    }
    // Which settings were typed rather than taken from the environment:
    // a flag wins over a variable.
    let given = cmd::settings::CommandLine::of(&matches);
    let result: anyhow::Result<()> = match cli.command {
        Command::Pair(args) => cmd::pair::run(&args),
        Command::Check(args) => cmd::check::run(&args),
        Command::Generate(args) => cmd::generate::run(&args),
        Command::Arbiter(args) => cmd::arbiter::run(&args),
        Command::Clock(args) => cmd::clock::run(&args),
        Command::Perft(args) => cmd::perft::run(&args),
        Command::Bench(args) => cmd::bench::run(&args),
        Command::Chess960(args) => cmd::chess960::run(&args),
        Command::Pgn(args) => cmd::pgn::run(&args),
        Command::Moves(args) => cmd::moves::run(&args),
        Command::Standings(args) => cmd::standings::run(&args),
        Command::Berger(args) => cmd::berger::run(&args),
        Command::Rating(args) => cmd::rating::run(&args),
        Command::Sync(args) => cmd::sync::run(&args),
        Command::Engine(args) => cmd::engine::run(&args),
        Command::Study(args) => cmd::study::run(&args),
        Command::Log(args) => cmd::log::run(&args),
        Command::Serve(args) => cmd::serve::serve(&args, &given),
        Command::User(args) => cmd::serve::user(&args, &given),
        Command::Backup(args) => cmd::serve::backup(&args),
        Command::Restore(args) => cmd::restore::run(&args),
    };
    match result {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(err) => {
            // One line, naming the problem; `{:#}` joins the context chain.
            let message = format!("{err:#}").replace('\n', " ");
            eprintln!("tempo: error: {message}");
            match err.downcast_ref::<cmd::CodedError>() {
                Some(coded) => std::process::ExitCode::from(coded.code),
                None => std::process::ExitCode::FAILURE,
            }
        }
    }
}

/// A closed pipe (`tempo moves | head`) ends tempo quietly, as it ends any
/// Unix filter. Rust ignores SIGPIPE by default, so every `println!` after
/// the reader has gone would panic instead.
fn restore_sigpipe() {
    #[cfg(unix)]
    // SAFETY: called once in `main` after parsing the arguments, before any
    // thread or output exists; SIG_DFL is a valid disposition for SIGPIPE.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
}
