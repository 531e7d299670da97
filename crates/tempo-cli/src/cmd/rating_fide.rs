//! `tempo rating fide --rating R --k K --game OPP,SCORE ...`: a
//! tournament's FIDE rating change (tempo_rating::fide). Prints the games,
//! the score, the expected score ΣPD, the K used and the change.

use std::fmt::Write as _;

use anyhow::Context;
use clap::Args;
use tempo_rating::fide::{self, Game, KFactor, Rating};

use super::rating::{game, whole};

/// A tournament's FIDE rating change: K × Σ(W − PD).
#[derive(Debug, Args)]
pub(crate) struct FideArgs {
    /// The player's FIDE rating.
    #[arg(long, value_name = "R")]
    pub rating: String,
    /// The development coefficient: 40, 20 or 10 (FIDE B.02 8.56); lowered
    /// to the largest whole K with K × n ≤ 700 for many games.
    #[arg(long, value_name = "K")]
    pub k: String,
    /// A game against a rated opponent: `OPPONENT,SCORE` (score 1, 0.5 or
    /// 0); repeat for each game, or give several after one --game.
    #[arg(long, value_name = "OPP,SCORE", num_args = 1.., required = true)]
    pub game: Vec<String>,
}

pub(crate) fn run(args: &FideArgs) -> anyhow::Result<()> {
    print!("{}", render(args)?);
    Ok(())
}

fn render(args: &FideArgs) -> anyhow::Result<String> {
    let rating = Rating::new(whole("--rating", &args.rating)?).context("--rating")?;
    let k = KFactor::new(whole("--k", &args.k)?).context("--k")?;
    if args.game.len() > fide::MAX_GAMES {
        anyhow::bail!("{} games: at most {}", args.game.len(), fide::MAX_GAMES);
    }
    let games = args
        .game
        .iter()
        .map(|text| {
            let (opponent, score) = game(text)?;
            let opponent = Rating::new(opponent).with_context(|| format!("--game '{text}'"))?;
            Ok(Game { opponent, score })
        })
        .collect::<anyhow::Result<Vec<_>>>()?;
    let change = fide::rating_change(rating, k, &games)?;
    let mut out = String::new();
    let _ = writeln!(out, "games     {}", change.games);
    let _ = writeln!(out, "score     {}", change.score());
    let _ = writeln!(out, "expected  {}", change.expected_text());
    if change.k == k {
        let _ = writeln!(out, "K         {}", change.k);
    } else {
        let _ = writeln!(
            out,
            "K         {} ({k} × {} games exceeds {})",
            change.k,
            change.games,
            fide::MAX_K_TIMES_GAMES
        );
    }
    let _ = writeln!(out, "change    {}", change.change_text());
    Ok(out)
}
