//! `tempo rating dwz --rating R [--index I] [--age A] --game OPP,SCORE ...`:
//! a follow-up DWZ (tempo_rating::dwz). Prints the games, the score, the
//! expectation We, the development coefficient E and the new DWZ.

use std::fmt::Write as _;

use anyhow::Context;
use clap::Args;
use tempo_rating::dwz::{self, Age, Dwz, Game, Index, Player};

use super::rating::{game, whole};

/// A follow-up DWZ: Rn = Ro + 800 × (W − We) / (E + n).
#[derive(Debug, Args)]
pub(crate) struct DwzArgs {
    /// The player's DWZ before the tournament (Ro).
    #[arg(long, value_name = "R")]
    pub rating: String,
    /// The DWZ's index (the number of evaluations it rests on; with an
    /// index up to 5, E is at most 5 × index). Without it, an established
    /// rating (E at most 30), as beside a tournament's standings.
    #[arg(long, value_name = "I")]
    pub index: Option<String>,
    /// The player's age: this year − birth year (J = 5 up to 20, 10 to
    /// 25, 15 above; fB up to 20). Without it, an adult over 25.
    #[arg(long, value_name = "A")]
    pub age: Option<String>,
    /// A game against an opponent with a DWZ: `OPPONENT,SCORE` (score 1,
    /// 0.5 or 0); repeat for each game, or give several after one --game.
    #[arg(long, value_name = "OPP,SCORE", num_args = 1.., required = true)]
    pub game: Vec<String>,
}

pub(crate) fn run(args: &DwzArgs) -> anyhow::Result<()> {
    print!("{}", render(args)?);
    Ok(())
}

fn render(args: &DwzArgs) -> anyhow::Result<String> {
    let player = Player {
        dwz: Dwz::new(whole("--rating", &args.rating)?).context("--rating")?,
        index: args
            .index
            .as_deref()
            .map(|i| Index::new(whole("--index", i)?).context("--index"))
            .transpose()?,
        age: args
            .age
            .as_deref()
            .map(|a| Age::new(whole("--age", a)?).context("--age"))
            .transpose()?,
    };
    if args.game.len() > dwz::MAX_GAMES {
        anyhow::bail!("{} games: at most {}", args.game.len(), dwz::MAX_GAMES);
    }
    let games = args
        .game
        .iter()
        .map(|text| {
            let (opponent, score) = game(text)?;
            let opponent = Dwz::new(opponent).with_context(|| format!("--game '{text}'"))?;
            Ok(Game { opponent, score })
        })
        .collect::<anyhow::Result<Vec<_>>>()?;
    let e = dwz::evaluate(&player, &games)?;
    let mut out = String::new();
    let _ = writeln!(out, "games     {}", e.games);
    let _ = writeln!(out, "score     {}", e.score());
    let _ = writeln!(out, "expected  {:.3}", e.expected);
    let _ = writeln!(out, "E         {}", e.coefficient.e);
    let _ = writeln!(out, "new       {} ({:+})", e.new, e.change());
    Ok(out)
}
