//! `tempo moves [--fen FEN] MOVE...`: play moves given in any notation
//! (SAN, UCI or ICCF numeric, recognised per move) and print each in all
//! three, then the final FEN and the game status.
//!
//! Output: a header `ply<TAB>san<TAB>uci<TAB>iccf`, one line per move,
//! then `fen: <FEN>` and `status: <...>` (e.g. `status: checkmate, 1-0`,
//! `status: in play`, `status: in play (draw claimable: threefold
//! repetition)`). A move that cannot be read or is illegal ends the
//! command with one line naming the move, its number and the problem.

use anyhow::Context;
use clap::Args;
use tempo_chess::{Game, Move, Position, STARTING_FEN, iccf, san, uci};

/// Play moves and print them in SAN, UCI and ICCF numeric notation.
#[derive(Debug, Args)]
pub(crate) struct MovesArgs {
    /// The start position (FEN, X-FEN or Shredder-FEN).
    #[arg(long, default_value = STARTING_FEN)]
    pub fen: String,
    /// Treat the position as Chess960 (UCI castling king-takes-rook).
    #[arg(long)]
    pub chess960: bool,
    /// The moves, each in SAN (`Nf3`, `O-O`), UCI (`g1f3`, `e1h1`) or ICCF
    /// numeric notation (`7163`).
    #[arg(allow_hyphen_values = true)]
    pub moves: Vec<String>,
}

/// Reads one move in whichever notation it is written.
fn read_move(pos: &Position, text: &str) -> anyhow::Result<Move> {
    let is_uci = |t: &str| {
        let b = t.as_bytes();
        (b.len() == 4 || b.len() == 5)
            && (b'a'..=b'h').contains(&b[0])
            && (b'1'..=b'8').contains(&b[1])
            && (b'a'..=b'h').contains(&b[2])
            && (b'1'..=b'8').contains(&b[3])
    };
    if !text.is_empty() && text.bytes().all(|b| b.is_ascii_digit()) {
        if text == "0000" {
            return Ok(uci::parse(pos, text)?);
        }
        Ok(iccf::parse(pos, text)?)
    } else if is_uci(text) {
        Ok(uci::parse(pos, text)?)
    } else {
        Ok(san::parse(pos, text)?)
    }
}

pub(crate) fn run(args: &MovesArgs) -> anyhow::Result<()> {
    let mut start =
        Position::from_fen(&args.fen).with_context(|| format!("invalid --fen {:?}", args.fen))?;
    start
        .validate()
        .with_context(|| format!("invalid --fen {:?}: not a legal chess position", args.fen))?;
    if args.chess960 {
        start.set_chess960(true);
    }
    let mut game = Game::new(start);
    println!("ply\tsan\tuci\ticcf");
    for (i, text) in args.moves.iter().enumerate() {
        let pos = game.position().clone();
        let mv = read_move(&pos, text).with_context(|| format!("move {} '{text}'", i + 1))?;
        println!(
            "{}\t{}\t{}\t{}",
            i + 1,
            san::write(&pos, mv),
            uci::write(&pos, mv),
            iccf::write(&pos, mv)
        );
        game.play_unchecked(mv);
    }
    println!("fen: {}", game.position().to_fen());
    match (game.outcome(), game.claimable_draw()) {
        (Some((outcome, why)), _) => println!("status: {why}, {outcome}"),
        (None, Some(claim)) => println!("status: in play (draw claimable: {claim})"),
        (None, None) => println!("status: in play"),
    }
    Ok(())
}
