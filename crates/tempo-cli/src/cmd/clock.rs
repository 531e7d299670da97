//! `tempo clock parse <TimeControl>`: normalised PGN and human forms of a
//! time control, its FIDE category and the illegal-move penalty.

use clap::{Args, Subcommand};
use tempo_clock::TimeControl;

/// Time-control tools.
#[derive(Debug, Args)]
pub(crate) struct ClockArgs {
    #[command(subcommand)]
    pub command: ClockCommand,
}

/// The clock commands.
#[derive(Debug, Subcommand)]
pub(crate) enum ClockCommand {
    /// Read a time control (PGN `TimeControl` or human form) and print its
    /// PGN form, human form, FIDE category and penalty time.
    Parse {
        /// The time control, e.g. `40/5400+30:1800+30` or `90m/40 + 30m + 30s`.
        #[arg(allow_hyphen_values = true)]
        control: String,
        /// Read the human form only (then `5+3` is 5 minutes + 3 seconds,
        /// not PGN's 5 seconds + 3 seconds).
        #[arg(long)]
        human: bool,
    },
}

pub(crate) fn run(args: &ClockArgs) -> anyhow::Result<()> {
    match &args.command {
        ClockCommand::Parse { control, human } => {
            let tc: TimeControl = if *human {
                tempo_clock::human::parse_human(control)?
            } else {
                control.parse()?
            };
            match tc.pgn() {
                Some(pgn) => println!("pgn: {pgn}"),
                None => println!("pgn: none (PGN's TimeControl cannot express this control)"),
            }
            println!("human: {}", tc.human());
            match tc.category() {
                Some(c) => println!("category: {c}"),
                None => println!("category: unknown"),
            }
            if let Some(t) = tc.time_for_60_moves() {
                println!("time for 60 moves: {}", t.hms_exact());
            }
            match tc.penalty_time() {
                Some(t) => println!(
                    "illegal-move penalty (FIDE 7.5.5): {} to the opponent",
                    t.hms()
                ),
                None => println!("illegal-move penalty (FIDE 7.5.5): none defined"),
            }
            Ok(())
        }
    }
}
