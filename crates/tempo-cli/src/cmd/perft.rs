//! `tempo perft --fen FEN --depth N [--divide] [--chess960]`: count the
//! leaves of the legal move tree (move-generator check).
//!
//! Output: with `--divide` one line `<move>: <count>` per root move
//! (sorted by move, UCI; Chess960 castling as king-takes-rook), then an
//! empty line; the LAST line is always the bare total, so scripts can read
//! it with `tail -n 1`.

use anyhow::Context;
use clap::Args;
use tempo_chess::{Move, Position, STARTING_FEN, divide, perft};

/// Count the leaf nodes of the legal move tree of a position.
#[derive(Debug, Args)]
pub(crate) struct PerftArgs {
    /// The position (FEN; X-FEN and Shredder-FEN castling fields accepted).
    #[arg(long, default_value = STARTING_FEN)]
    pub fen: String,
    /// Plies to search (the count at depth 1 is the number of legal moves).
    #[arg(long)]
    pub depth: u32,
    /// Also print the count below each root move.
    #[arg(long)]
    pub divide: bool,
    /// Treat the position as Chess960 (castling printed king-takes-rook).
    /// Recognised automatically from Shredder-FEN/X-FEN castling letters.
    #[arg(long)]
    pub chess960: bool,
}

pub(crate) fn run(args: &PerftArgs) -> anyhow::Result<()> {
    let mut pos =
        Position::from_fen(&args.fen).with_context(|| format!("invalid --fen {:?}", args.fen))?;
    pos.validate()
        .with_context(|| format!("invalid --fen {:?}: not a legal chess position", args.fen))?;
    if args.chess960 {
        pos.set_chess960(true);
    }
    if args.divide {
        let mut lines: Vec<(String, u64)> = divide(&pos, args.depth)
            .into_iter()
            .map(|(mv, nodes)| (uci(&pos, mv), nodes))
            .collect();
        lines.sort();
        let total: u64 = if args.depth == 0 {
            1
        } else {
            lines.iter().map(|(_, n)| n).sum()
        };
        for (mv, nodes) in &lines {
            println!("{mv}: {nodes}");
        }
        println!();
        println!("{total}");
    } else {
        println!("{}", perft(&pos, args.depth));
    }
    Ok(())
}

/// UCI for a root move: orthodox castling as the king's two-square step
/// (`e1g1`), Chess960 castling as king takes rook (`e1h1`).
fn uci(pos: &Position, mv: Move) -> String {
    match pos.castling_side(mv) {
        Some(side) if !pos.is_chess960() => {
            let color = pos.turn();
            Move::new(mv.from, side.king_to(color), None).to_string()
        }
        _ => mv.to_string(),
    }
}
