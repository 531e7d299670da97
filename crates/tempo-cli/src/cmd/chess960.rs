//! `tempo chess960 show N | number FEN | draw [--seed S] [--dice] | dice
//! ROLLS...`: Chess960 start positions by their standard number (0..959,
//! 518 = orthodox), seeded and replayable draws, the one-die procedure.
//!
//! Output: every command that prints a position prints its X-FEN as the
//! LAST line (`tail -n 1`); `number` prints only the number.

use anyhow::Context;
use clap::{Args, Subcommand};
use tempo_chess::{Position, chess960};

/// Chess960 start positions.
#[derive(Debug, Args)]
pub(crate) struct Chess960Args {
    #[command(subcommand)]
    pub command: Chess960Command,
}

/// The chess960 commands.
#[derive(Debug, Subcommand)]
pub(crate) enum Chess960Command {
    /// Print start position N (0..959): number, White's back rank, X-FEN.
    Show {
        /// The standard (Scharnagl) number; 518 is the orthodox set-up.
        number: u32,
    },
    /// Print the number of a start position, given as FEN, as the piece
    /// placement, or as White's back rank (`RNBQKBNR`).
    Number {
        /// FEN, placement or back rank.
        #[arg(allow_hyphen_values = true)]
        fen: String,
    },
    /// Draw a start position at random: prints number, seed, back rank
    /// (and the die rolls with --dice) and the X-FEN. The same seed gives
    /// the same position; without --seed a fresh seed is chosen and printed.
    Draw {
        /// Seed of the ChaCha8 generator (u64).
        #[arg(long)]
        seed: Option<u64>,
        /// Draw by the one-die procedure (rolls from the seeded generator)
        /// instead of one uniform number.
        #[arg(long)]
        dice: bool,
    },
    /// The one-die procedure with rolls you threw yourself (1..6 each;
    /// re-rolls included, e.g. `tempo chess960 dice 5 2 3 3 2 3`).
    Dice {
        /// The rolls in the order thrown.
        #[arg(required = true)]
        rolls: Vec<u8>,
    },
    /// One start position per round for all boards, from a seed: prints
    /// `round<TAB>number<TAB>X-FEN` per round (see chess960_rounds.rs).
    Rounds(super::chess960_rounds::RoundsArgs),
}

pub(crate) fn run(args: &Chess960Args) -> anyhow::Result<()> {
    match &args.command {
        Chess960Command::Rounds(rounds) => super::chess960_rounds::run(rounds)?,
        Chess960Command::Show { number } => {
            let number = u16::try_from(*number)
                .ok()
                .filter(|&n| n < chess960::COUNT)
                .ok_or(chess960::Chess960Error::NumberOutOfRange(*number))?;
            println!("number: {number}");
            print_position(number)?;
        }
        Chess960Command::Number { fen } => println!("{}", number_of(fen)?),
        Chess960Command::Draw { seed, dice } => {
            let seed = seed.unwrap_or_else(chess960::fresh_seed);
            let draw = if *dice {
                chess960::draw_with_dice(seed)
            } else {
                chess960::draw(seed)
            };
            println!("number: {}", draw.number);
            println!("seed: {}", draw.seed);
            if *dice {
                println!("dice: {}", rolls_text(&draw.rolls));
            }
            print_position(draw.number)?;
        }
        Chess960Command::Dice { rolls } => {
            let mut source = rolls.iter().copied();
            let number = chess960::dice(|| source.next())?;
            let left = source.count();
            if left > 0 {
                anyhow::bail!("{left} roll(s) left over after the position was complete");
            }
            println!("number: {number}");
            print_position(number)?;
        }
    }
    Ok(())
}

fn rolls_text(rolls: &[u8]) -> String {
    rolls
        .iter()
        .map(u8::to_string)
        .collect::<Vec<_>>()
        .join(" ")
}

/// Back rank, then the X-FEN as the last line.
fn print_position(number: u16) -> anyhow::Result<()> {
    let pos = chess960::start_position(number)?;
    println!("back rank: {}", chess960::back_rank_string(number)?);
    println!("{}", pos.to_fen());
    Ok(())
}

/// The number of a FEN, a placement or a back rank.
fn number_of(text: &str) -> anyhow::Result<u16> {
    let text = text.trim();
    if !text.contains('/') {
        return Ok(chess960::number_of_back_rank_str(text)?);
    }
    let pos = if text.contains(' ') {
        Position::from_fen(text)
    } else {
        Position::from_fen(&format!("{text} w - - 0 1"))
    }
    .with_context(|| format!("invalid FEN {text:?}"))?;
    Ok(chess960::number_of(&pos)?)
}
