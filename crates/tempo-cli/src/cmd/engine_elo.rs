//! `tempo engine elo LEVEL:+W=D-L …`: the maximum-likelihood rating of a
//! player from its results against opponents of known ratings (the
//! calibrated `UCI_Elo` levels of `scripts/bench-elo`), with a 95 %
//! likelihood-ratio interval (`tempo_rating::performance`).

use anyhow::{Context, bail};
use clap::Args;
use tempo_engine::wilson;
use tempo_rating::performance::{self, Estimate, Match};

#[derive(Debug, Args)]
pub(crate) struct EloArgs {
    /// Results against one level each: `RATING:+W=D-L` (wins, draws,
    /// losses, as the last line of `tempo engine match` gives them) or
    /// `RATING:SCORE/GAMES`.
    #[arg(required = true, value_name = "RATING:+W=D-L")]
    pub results: Vec<String>,
}

/// One argument: the opponent's rating, the games and the points (with
/// wins, draws and losses where given).
#[derive(Debug, Clone, PartialEq)]
struct Level {
    rating: f64,
    games: u32,
    score: f64,
    wdl: Option<(u32, u32, u32)>,
}

fn parse_level(text: &str) -> anyhow::Result<Level> {
    let bad =
        || format!("'{text}': expected RATING:+W=D-L (e.g. 1350:+3=4-13) or RATING:SCORE/GAMES");
    let (rating, result) = text.split_once(':').with_context(bad)?;
    let rating: f64 = rating.trim().parse().ok().with_context(bad)?;
    let number = |s: &str| s.trim().parse::<u32>().ok().with_context(bad);
    let (games, score, wdl) = if let Some(rest) = result.strip_prefix('+') {
        let (w, rest) = rest.split_once('=').with_context(bad)?;
        let (d, l) = rest.split_once('-').with_context(bad)?;
        let (w, d, l) = (number(w)?, number(d)?, number(l)?);
        let games = w
            .checked_add(d)
            .and_then(|n| n.checked_add(l))
            .with_context(bad)?;
        (games, f64::from(w) + f64::from(d) / 2.0, Some((w, d, l)))
    } else {
        let (score, games) = result.split_once('/').with_context(bad)?;
        let score: f64 = score.trim().parse().ok().with_context(bad)?;
        (number(games)?, score, None)
    };
    Match::new(rating, games, score).with_context(|| format!("'{text}'"))?;
    Ok(Level {
        rating,
        games,
        score,
        wdl,
    })
}

pub(crate) fn run(args: &EloArgs) -> anyhow::Result<()> {
    if args.results.len() > performance::MAX_OPPONENTS {
        bail!(
            "{} results: at most {}",
            args.results.len(),
            performance::MAX_OPPONENTS
        );
    }
    let levels = args
        .results
        .iter()
        .map(|t| parse_level(t))
        .collect::<anyhow::Result<Vec<_>>>()?;
    print!("{}", report(&levels)?);
    Ok(())
}

/// The table and the estimate, as printed.
fn report(levels: &[Level]) -> anyhow::Result<String> {
    let matches: Vec<Match> = levels
        .iter()
        .map(|l| Match::new(l.rating, l.games, l.score))
        .collect::<Result<_, _>>()?;
    let estimate = performance::estimate(&matches)?;
    let mut out = format!(
        "{:>7} {:>6} {:>13} {:>22} {:>12}\n",
        "level", "games", "+W =D -L", "score [95 %]", "performance"
    );
    for l in levels {
        let wdl = l
            .wdl
            .map_or("-".to_string(), |(w, d, loss)| format!("+{w} ={d} -{loss}"));
        let (lo, hi) = wilson(l.score, l.games as usize);
        let share = if l.games == 0 {
            "-".to_string()
        } else {
            format!("{:.3} [{lo:.3}, {hi:.3}]", l.score / f64::from(l.games))
        };
        // The level's own maximum-likelihood rating.
        let alone = performance::estimate(&[Match::new(l.rating, l.games, l.score)?]).ok();
        let perf = match alone {
            Some(Estimate::Rating { rating, .. }) => format!("{rating:.0}"),
            Some(Estimate::Below { high }) => format!("< {high:.0}"),
            Some(Estimate::Above { low }) => format!("> {low:.0}"),
            None => "-".to_string(),
        };
        out.push_str(&format!(
            "{:>7} {:>6} {wdl:>13} {share:>22} {perf:>12}\n",
            l.rating, l.games
        ));
    }
    let games: u32 = levels.iter().map(|l| l.games).sum();
    let lowest = levels
        .iter()
        .filter(|l| l.games > 0)
        .map(|l| l.rating)
        .fold(f64::INFINITY, f64::min);
    match estimate {
        Estimate::Rating { rating, low, high } => {
            out.push_str(&format!(
                "Elo {rating:.0} [{low:.0}, {high:.0}] (maximum likelihood over {games} games, 95 % likelihood-ratio interval)\n"
            ));
            // Clearly weaker than the weakest level: the figure rests on
            // the curve extrapolated beyond the calibrated range.
            if high < lowest {
                out.push_str(&format!(
                    "note: the whole interval lies below the weakest level ({lowest}), where the logistic curve is extrapolated: read it as an upper bound (Elo < {high:.0})\n"
                ));
            }
        }
        Estimate::Below { high } => out.push_str(&format!(
            "Elo < {high:.0}: an upper bound only (no point in {games} games; 95 % likelihood ratio)\n"
        )),
        Estimate::Above { low } => out.push_str(&format!(
            "Elo > {low:.0}: a lower bound only (every point of {games} games; 95 % likelihood ratio)\n"
        )),
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn levels_parse_in_both_forms() {
        assert_eq!(
            parse_level("1350:+3=4-13").unwrap(),
            Level {
                rating: 1350.0,
                games: 20,
                score: 5.0,
                wdl: Some((3, 4, 13))
            }
        );
        let l = parse_level("1500:4.5/20").unwrap();
        assert_eq!((l.games, l.score, l.wdl), (20, 4.5, None));
        for bad in [
            "1350",
            "x:+1=2-3",
            "1350:+1=2",
            "1350:5/4",
            "1350:+a=1-1",
            "1350:",
        ] {
            let e = parse_level(bad).unwrap_err();
            assert!(format!("{e:#}").contains(bad), "{bad}: {e:#}");
        }
    }

    #[test]
    fn the_report_gives_the_estimate_and_says_when_it_is_a_bound() {
        let text = report(&[parse_level("1500:+10=0-10").unwrap()]).unwrap();
        assert!(text.contains("Elo 1500 [1345, 1655]"), "{text}");
        let text = report(&[parse_level("1350:+0=0-20").unwrap()]).unwrap();
        assert!(text.contains("Elo < 951: an upper bound only"), "{text}");
        let text = report(&[
            parse_level("1350:+0=1-19").unwrap(),
            parse_level("1550:+0=0-20").unwrap(),
        ])
        .unwrap();
        assert!(
            text.contains("note: the whole interval lies below the weakest level (1350)"),
            "{text}"
        );
        let text = report(&[
            parse_level("1350:+10=0-10").unwrap(),
            parse_level("1550:+2=1-17").unwrap(),
        ])
        .unwrap();
        assert!(
            text.contains("Elo 1302 [1176, 1419]") && !text.contains("note"),
            "{text}"
        );
    }
}
