//! `tempo rating glicko2 --player R,RD,SIGMA --game R,RD,SCORE …` rates one
//! Glicko-2 rating period (Glickman, "Example of the Glicko-2 system") and
//! prints the new rating, RD and volatility, one `name value` line each.

use anyhow::Context as _;
use clap::Args;
use tempo_rating::glicko2::{Game, Rating, Score, rate};

/// One Glicko-2 rating period (all games against the opponents' ratings
/// before it).
#[derive(Debug, Args)]
pub(crate) struct Glicko2Args {
    /// The player before the period: rating, deviation (RD), volatility (σ).
    #[arg(long, value_name = "R,RD,SIGMA", allow_hyphen_values = true)]
    pub player: String,
    /// A game: the opponent's rating and RD, and the player's score (1, 0.5
    /// or 0). Repeat for each game; none: the RD grows by one period.
    #[arg(long = "game", value_name = "R,RD,SCORE", allow_hyphen_values = true)]
    pub games: Vec<String>,
    /// The system constant τ (Glickman suggests 0.3 to 1.2; his example,
    /// and the default here, is 0.5; lichess uses 0.75).
    #[arg(long, default_value_t = 0.5, allow_hyphen_values = true)]
    pub tau: f64,
}

pub(crate) fn run(args: &Glicko2Args) -> anyhow::Result<()> {
    print!("{}", glicko2(args)?);
    Ok(())
}

/// Three comma-separated numbers, or an error naming the option and value.
fn three(option: &str, text: &str) -> anyhow::Result<[String; 3]> {
    let parts: Vec<&str> = text.split(',').map(str::trim).collect();
    match parts[..] {
        [a, b, c] => Ok([a.into(), b.into(), c.into()]),
        _ => anyhow::bail!("{option} {text:?}: three values separated by commas are needed"),
    }
}

fn number(option: &str, text: &str, what: &str, value: &str) -> anyhow::Result<f64> {
    value
        .parse::<f64>()
        .ok()
        .filter(|v| v.is_finite())
        .with_context(|| format!("{option} {text:?}: {what} {value:?} is not a number"))
}

fn glicko2(args: &Glicko2Args) -> anyhow::Result<String> {
    let [r, rd, sigma] = three("--player", &args.player)?;
    let p = &args.player;
    let player = Rating::new(
        number("--player", p, "rating", &r)?,
        number("--player", p, "deviation", &rd)?,
        number("--player", p, "volatility", &sigma)?,
    )
    .with_context(|| format!("--player {p:?}"))?;
    let games = args
        .games
        .iter()
        .map(|g| {
            let [r, rd, score] = three("--game", g)?;
            let score: Score = score.parse().with_context(|| format!("--game {g:?}"))?;
            // Only the opponent's rating and RD enter the player's update
            // (the paper's g(φ) and E); their volatility does not.
            let opponent = Rating::new(
                number("--game", g, "rating", &r)?,
                number("--game", g, "deviation", &rd)?,
                player.volatility,
            )
            .with_context(|| format!("--game {g:?}"))?;
            Ok(Game::new(opponent, score))
        })
        .collect::<anyhow::Result<Vec<_>>>()?;
    let after = rate(&player, &games, args.tau)?;
    Ok(format!(
        "rating {:.2}\nrd {:.2}\nvolatility {:.6}\n",
        after.rating, after.deviation, after.volatility
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(player: &str, games: &[&str], tau: f64) -> Glicko2Args {
        Glicko2Args {
            player: player.into(),
            games: games.iter().map(|g| g.to_string()).collect(),
            tau,
        }
    }

    /// Glickman, "Example of the Glicko-2 system": 1464.06 / 151.52 /
    /// 0.05999 as printed there (μ′ rounded before converting; σ′ cut).
    #[test]
    fn glickman_s_example() {
        let out = glicko2(&args(
            "1500,200,0.06",
            &["1400,30,1", "1550,100,0", "1700,300,0"],
            0.5,
        ))
        .unwrap();
        assert_eq!(out, "rating 1464.05\nrd 151.52\nvolatility 0.059996\n");
    }

    #[test]
    fn bad_values_are_named() {
        let err =
            |p: &str, g: &[&str], tau| format!("{:#}", glicko2(&args(p, g, tau)).unwrap_err());
        assert!(err("1500,-200,0.06", &[], 0.5).contains("-200"));
        assert!(err("1500,200", &[], 0.5).contains("three values"));
        assert!(err("1500,200,0.06", &["1400,30,2"], 0.5).contains("score '2'"));
        assert!(err("1500,200,0.06", &["NaN,30,1"], 0.5).contains("rating \"NaN\""));
        assert!(err("1500,200,0.06", &["1400,30,1"], -1.0).contains("tau -1"));
    }
}
