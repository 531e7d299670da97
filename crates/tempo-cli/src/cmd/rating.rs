//! `tempo rating`: rating calculations for a club — one Glicko-2 rating
//! period (`glicko2`), a tournament's FIDE rating change (`fide`) and a DWZ
//! evaluation (`dwz`). Each variant
//! lives in its own module (`rating_<name>.rs`); this file only holds the
//! command enum.

use clap::{Args, Subcommand};

use super::{rating_dwz, rating_fide, rating_glicko2};

/// Rating calculations.
#[derive(Debug, Args)]
pub(crate) struct RatingArgs {
    #[command(subcommand)]
    pub command: RatingCommand,
}

/// The rating commands.
#[derive(Debug, Subcommand)]
pub(crate) enum RatingCommand {
    /// One Glicko-2 rating period (Glickman): the player's new rating, RD
    /// and volatility.
    Glicko2(rating_glicko2::Glicko2Args),
    /// A tournament's FIDE rating change (FIDE Handbook B.02: table 8.1(b),
    /// the 400-point rule, K × n ≤ 700).
    Fide(rating_fide::FideArgs),
    /// A follow-up DWZ (Wertungsordnung des DSB): We from the normal
    /// distribution, E from age, DWZ and index, Rn = Ro + 800(W − We)/(E + n).
    Dwz(rating_dwz::DwzArgs),
}

pub(crate) fn run(args: &RatingArgs) -> anyhow::Result<()> {
    match &args.command {
        RatingCommand::Glicko2(a) => rating_glicko2::run(a),
        RatingCommand::Fide(a) => rating_fide::run(a),
        RatingCommand::Dwz(a) => rating_dwz::run(a),
    }
}

/// Reads a whole number given on the command line, naming the option and
/// the value when it is not one.
pub(crate) fn whole(option: &str, text: &str) -> anyhow::Result<u32> {
    text.trim()
        .parse()
        .map_err(|_| anyhow::anyhow!("{option} '{}': a whole number", short(text)))
}

/// Splits `--game OPPONENT,SCORE` into the opponent's number and the score.
pub(crate) fn game(text: &str) -> anyhow::Result<(u32, tempo_rating::score::Score)> {
    let bad = || {
        anyhow::anyhow!(
            "--game '{}': OPPONENT,SCORE like 1900,1 or 1700,0.5 (score 1, 0.5 or 0)",
            short(text)
        )
    };
    let (opponent, score) = text.split_once(',').ok_or_else(bad)?;
    let opponent = opponent.trim().parse().map_err(|_| bad())?;
    let score = score.parse().map_err(|_| bad())?;
    Ok((opponent, score))
}

/// At most 40 characters of a bad value, for the error line.
fn short(text: &str) -> String {
    text.chars().take(40).collect()
}
