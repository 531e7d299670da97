//! One module per subcommand; each has a clap `Args` struct and a `run`.

use std::fmt;

use clap::builder::{PossibleValue, PossibleValuesParser, TypedValueParser};
use tempo_tourney::System;

pub(crate) mod arbiter;
pub(crate) mod backups;
pub(crate) mod bench;
pub(crate) mod berger;
pub(crate) mod check;
pub(crate) mod chess960;
pub(crate) mod chess960_rounds;
pub(crate) mod clock;
pub(crate) mod engine;
pub(crate) mod engine_elo;
pub(crate) mod engine_exploitability;
pub(crate) mod generate;
pub(crate) mod log;
pub(crate) mod moves;
pub(crate) mod pair;
pub(crate) mod pair_dutch;
pub(crate) mod pair_keizer;
pub(crate) mod perft;
pub(crate) mod pgn;
pub(crate) mod rating;
pub(crate) mod rating_dwz;
pub(crate) mod rating_fide;
pub(crate) mod rating_glicko2;
pub(crate) mod restore;
pub(crate) mod serve;
pub(crate) mod settings;
pub(crate) mod standings;
pub(crate) mod store_lock;
pub(crate) mod study;
pub(crate) mod study_records;
pub(crate) mod study_table;
pub(crate) mod sync;
pub(crate) mod uci;
pub(crate) mod uci_client;

/// The largest tournament file read (a 5,000-player Swiss of 15 rounds is
/// under 2 MB).
const MAX_TRF_BYTES: u64 = 64 * 1024 * 1024;

/// Warnings printed one by one for a file; the rest are counted.
const MAX_WARNINGS: usize = 5;

/// Reads a tournament file as every command does: parsed, checked for
/// contradictions between its lines (an error naming the line, columns and
/// both players), and its warnings (points columns the results do not give)
/// printed on standard error.
pub(crate) fn read_tournament(path: &std::path::Path) -> anyhow::Result<tempo_tourney::Tournament> {
    use anyhow::Context;
    let size = std::fs::metadata(path)
        .with_context(|| format!("cannot read {}", path.display()))?
        .len();
    if size > MAX_TRF_BYTES {
        anyhow::bail!(
            "{}: {size} bytes is too large for a tournament file (at most {MAX_TRF_BYTES}; 2,000 players take about 1 MB)",
            path.display()
        );
    }
    let bytes = std::fs::read(path).with_context(|| format!("cannot read {}", path.display()))?;
    let t = tempo_tourney::Tournament::from_trf_bytes(&bytes)
        .with_context(|| path.display().to_string())?;
    t.check_consistency()
        .with_context(|| path.display().to_string())?;
    let warnings = t.consistency_warnings();
    for warning in warnings.iter().take(MAX_WARNINGS) {
        eprintln!("tempo: warning: {}: {warning}", path.display());
    }
    if warnings.len() > MAX_WARNINGS {
        eprintln!(
            "tempo: warning: {}: {} more players whose points column the results do not give",
            path.display(),
            warnings.len() - MAX_WARNINGS
        );
    }
    Ok(t)
}

/// The `--system` parser of a command that knows `systems` (each with the
/// command's help line): tempo-tourney's names and aliases, read by
/// [`System`]'s `FromStr`, so that no command keeps a list of names.
pub(crate) fn system_parser(
    systems: &[(System, &'static str)],
) -> impl TypedValueParser<Value = System> {
    let values = systems.iter().map(|&(system, help)| {
        PossibleValue::new(system.as_str())
            .aliases(system.aliases().iter().copied())
            .help(help)
    });
    PossibleValuesParser::new(values).try_map(|name: String| name.parse::<System>())
}

/// The error of a benchmark subcommand in a build without the `bench`
/// feature: the benchmark drivers (tempo-bench, with a load generator
/// that embeds the server) stay out of the product binary.
#[cfg(not(feature = "bench"))]
pub(crate) fn built_without_bench(command: &str) -> anyhow::Error {
    anyhow::anyhow!(
        "`tempo {command}` is not in this build (the benchmark drivers are a cargo feature): \
         run `cargo run --release --features bench -- {command} ...`"
    )
}

/// An error that must end the process with a specific exit code (for
/// example "no valid pairing exists", which scripts tell apart from bad
/// input). Everything else exits with 1.
#[derive(Debug)]
pub(crate) struct CodedError {
    pub code: u8,
    pub message: String,
}

impl fmt::Display for CodedError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for CodedError {}
