//! `tempo pgn check FILE`: read every game of a PGN file, replay every
//! move, report the first error of each bad game with its place, and
//! print a summary.
//!
//! Output: one line per bad game,
//! `game 3 (line 45, column 12): move 12...: illegal SAN 'Nf6' in position ...`,
//! then the summary `N games, K ok, M with errors` as the last line of
//! standard output. Exit code 0 when every game is good, 1 when any game
//! has an error (a one-line `tempo: error:` message on standard error
//! says how many), 2 when the file cannot be opened.
//!
//! The file is streamed: games are read one at a time.

use std::fs::File;
use std::io::BufReader;
use std::path::PathBuf;

use clap::{Args, Subcommand};
use tempo_chess::pgn::{PgnErrorKind, Reader};

use super::CodedError;

/// PGN tools.
#[derive(Debug, Args)]
pub(crate) struct PgnArgs {
    #[command(subcommand)]
    pub command: PgnCommand,
}

/// The pgn commands.
#[derive(Debug, Subcommand)]
pub(crate) enum PgnCommand {
    /// Read and replay every game; report the first error of each bad game
    /// (game number, line, column, problem) and a summary. Exit code 1 if
    /// any game is bad.
    Check {
        /// The PGN file (any number of games; `-` reads standard input).
        file: PathBuf,
    },
}

pub(crate) fn run(args: &PgnArgs) -> anyhow::Result<()> {
    match &args.command {
        PgnCommand::Check { file } => check(file),
    }
}

fn check(path: &PathBuf) -> anyhow::Result<()> {
    if path.as_os_str() == "-" {
        return check_games(Reader::new(std::io::stdin().lock()));
    }
    let file = File::open(path).map_err(|err| CodedError {
        code: 2,
        message: format!("cannot open {}: {err}", path.display()),
    })?;
    check_games(Reader::new(BufReader::new(file)))
}

fn check_games<R: std::io::BufRead>(reader: Reader<R>) -> anyhow::Result<()> {
    let (mut games, mut bad) = (0usize, 0usize);
    let mut io_error = None;
    for (index, result) in reader.enumerate() {
        games += 1;
        if let Ok(game) = &result {
            for warning in &game.warnings {
                eprintln!("tempo: warning: game {}: {warning}", index + 1);
            }
        }
        if let Err(err) = result {
            bad += 1;
            println!(
                "game {} (line {}, column {}): {}",
                index + 1,
                err.line,
                err.column,
                err.kind
            );
            if let PgnErrorKind::Io(message) = err.kind {
                io_error = Some(message);
            }
        }
    }
    println!("{games} games, {} ok, {bad} with errors", games - bad);
    if let Some(message) = io_error {
        return Err(CodedError {
            code: 2,
            message: format!("read error: {message}"),
        }
        .into());
    }
    if bad > 0 {
        return Err(CodedError {
            code: 1,
            message: format!("{bad} of {games} games have errors"),
        }
        .into());
    }
    Ok(())
}
