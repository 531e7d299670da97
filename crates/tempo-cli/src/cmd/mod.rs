//! One module per subcommand; each has a clap `Args` struct and a `run`.

use std::fmt;

pub mod arbiter;
pub mod bench;
pub mod berger;
pub mod check;
pub mod chess960;
pub mod chess960_rounds;
pub mod clock;
pub mod generate;
pub mod moves;
pub mod pair;
pub mod pair_dutch;
pub mod pair_keizer;
pub mod perft;
pub mod pgn;
pub mod standings;
pub mod sync;

/// An error that must end the process with a specific exit code (for
/// example "no valid pairing exists", which scripts tell apart from bad
/// input). Everything else exits with 1.
#[derive(Debug)]
pub struct CodedError {
    pub code: u8,
    pub message: String,
}

impl fmt::Display for CodedError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for CodedError {}
