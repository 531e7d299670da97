//! The fairness study's table, JSON and SVG plot, made from a
//! [`Collection`] of game records (by `tempo study fairness` and
//! `tempo study merge` alike).

use std::collections::BTreeSet;

use anyhow::Context;
use plotters::prelude::*;
use serde_json::json;
use tempo_engine::wilson;

use super::study_records::{Collection, Row, Settings};

impl Row {
    fn score(&self) -> (f64, f64, f64) {
        let s = f64::from(self.white) + f64::from(self.draws) / 2.0;
        let (lo, hi) = wilson(s, self.games);
        (s / self.games as f64, lo, hi)
    }

    fn draw_rate(&self) -> (f64, f64, f64) {
        let (lo, hi) = wilson(f64::from(self.draws), self.games);
        (f64::from(self.draws) / self.games as f64, lo, hi)
    }

    /// White's share of the decisive games (`None` without any).
    fn decisive_share(&self) -> Option<(f64, f64, f64)> {
        let decisive = (self.white + self.black) as usize;
        (decisive > 0).then(|| {
            let (lo, hi) = wilson(f64::from(self.white), decisive);
            (f64::from(self.white) / decisive as f64, lo, hi)
        })
    }
}

/// `100` (every variant the same), else `98-100`.
fn games_text(rows: &[Row]) -> String {
    let lo = rows.iter().map(|r| r.games).min().unwrap_or(0);
    let hi = rows.iter().map(|r| r.games).max().unwrap_or(0);
    if lo == hi {
        lo.to_string()
    } else {
        format!("{lo}-{hi}")
    }
}

/// `seed 1`, `seeds 1, 2, 3`, or `12 seeds from 1 to 40`.
fn seeds_text(seeds: &BTreeSet<u64>) -> String {
    match seeds.len() {
        1 => format!("seed {}", seeds.first().expect("one")),
        2..=10 => {
            let list: Vec<String> = seeds.iter().map(u64::to_string).collect();
            format!("seeds {}", list.join(", "))
        }
        n => format!(
            "{n} seeds from {} to {}",
            seeds.first().expect("some"),
            seeds.last().expect("some")
        ),
    }
}

/// Prints the table (or the JSON) of `games` and writes the plot if asked.
pub(crate) fn report(
    games: &Collection,
    json: bool,
    plot_path: Option<&str>,
) -> anyhow::Result<()> {
    let rows = games.rows();
    let settings = games.settings().context("no games to count")?;
    if let Some(path) = plot_path {
        plot(path, &rows, settings).with_context(|| format!("cannot write the plot {path}"))?;
    }
    let seconds = rows.iter().map(|r| r.millis).sum::<u64>() as f64 / 1000.0;
    if json {
        let variants: Vec<_> = rows
            .iter()
            .map(|r| {
                let (s, slo, shi) = r.score();
                let (d, dlo, dhi) = r.draw_rate();
                let share = r.decisive_share();
                json!({
                    "variant": r.kind.name(),
                    "games": r.games,
                    "white_wins": r.white,
                    "black_wins": r.black,
                    "draws": r.draws,
                    "adjudicated": r.adjudicated,
                    "white_score": s,
                    "white_score_interval": [slo, shi],
                    "draw_rate": d,
                    "draw_rate_interval": [dlo, dhi],
                    "white_share_of_decisive": share.map(|x| x.0),
                    "white_share_of_decisive_interval": share.map(|x| [x.1, x.2]),
                    "seconds": r.millis as f64 / 1000.0,
                })
            })
            .collect();
        let seeds = games.seeds();
        let out = json!({
            "games_per_variant": rows.iter().map(|r| r.games).max(),
            "seed": seeds.first().filter(|_| seeds.len() == 1),
            "seeds": seeds,
            "budget": settings.budget,
            "opening": settings.opening_steps,
            "engine": settings.engine,
            "variants": variants,
            "seconds": seconds,
        });
        println!("{}", serde_json::to_string_pretty(&out)?);
        return Ok(());
    }
    println!(
        "Fairness study: identical engines ({}), {} games per variant, {}, {}",
        settings.white,
        games_text(&rows),
        settings.budget,
        seeds_text(games.seeds())
    );
    let header = [
        "variant",
        "games",
        "+W",
        "=",
        "+B",
        "White score [95 %]",
        "draws [95 %]",
        "White/decisive [95 %]",
    ];
    println!(
        "{:<15} {:>5} {:>6} {:>6} {:>6}  {:<22} {:<22} {}",
        header[0], header[1], header[2], header[3], header[4], header[5], header[6], header[7]
    );
    for r in &rows {
        let (s, slo, shi) = r.score();
        let (d, dlo, dhi) = r.draw_rate();
        let share = match r.decisive_share() {
            Some((x, lo, hi)) => format!("{x:.3} [{lo:.3}, {hi:.3}]"),
            None => "-".to_string(),
        };
        println!(
            "{:<15} {:>5} {:>6} {:>6} {:>6}  {:<22} {:<22} {}",
            r.kind.name(),
            r.games,
            r.white,
            r.draws,
            r.black,
            format!("{s:.3} [{slo:.3}, {shi:.3}]"),
            format!("{d:.3} [{dlo:.3}, {dhi:.3}]"),
            share
        );
    }
    let adjudicated: usize = rows.iter().map(|r| r.adjudicated).sum();
    println!(
        "{adjudicated} games adjudicated at move {} (material lead of {} cp wins)",
        settings.move_cap, settings.adjudication_cp
    );
    match &settings.engine {
        Some(engine) => println!("engine: {engine}"),
        None => println!("engine: not recorded (records written before tempo recorded it)"),
    }
    Ok(())
}

/// White's score per variant with its interval, beside the 50 % line.
fn plot(path: &str, rows: &[Row], settings: &Settings) -> anyhow::Result<()> {
    let root = SVGBackend::new(path, (720, 420)).into_drawing_area();
    root.fill(&WHITE).map_err(|e| anyhow::anyhow!("{e}"))?;
    let n = rows.len();
    let names: Vec<&'static str> = rows.iter().map(|r| r.kind.name()).collect();
    let mut chart = ChartBuilder::on(&root)
        .caption(
            format!(
                "White's score, identical engines ({} games per variant, {})",
                games_text(rows),
                settings.budget
            ),
            ("sans-serif", 18),
        )
        .margin(16)
        .x_label_area_size(36)
        .y_label_area_size(48)
        .build_cartesian_2d(-0.5f64..(n as f64 - 0.5), 0.0f64..1.0f64)
        .map_err(|e| anyhow::anyhow!("{e}"))?;
    chart
        .configure_mesh()
        .disable_x_mesh()
        .x_labels(n)
        .x_label_formatter(&|x| {
            let i = x.round();
            if (x - i).abs() < 1e-6 && i >= 0.0 && (i as usize) < names.len() {
                names[i as usize].to_string()
            } else {
                String::new()
            }
        })
        .y_desc("White's score")
        .draw()
        .map_err(|e| anyhow::anyhow!("{e}"))?;
    chart
        .draw_series(LineSeries::new(
            [(-0.5, 0.5), (n as f64 - 0.5, 0.5)],
            RED.stroke_width(1),
        ))
        .map_err(|e| anyhow::anyhow!("{e}"))?
        .label("50 %");
    chart
        .draw_series(rows.iter().enumerate().map(|(i, r)| {
            let (s, lo, hi) = r.score();
            ErrorBar::new_vertical(i as f64, lo, s, hi, BLUE.filled(), 12)
        }))
        .map_err(|e| anyhow::anyhow!("{e}"))?;
    chart
        .draw_series(
            rows.iter()
                .enumerate()
                .map(|(i, r)| Circle::new((i as f64, r.score().0), 4, BLUE.filled())),
        )
        .map_err(|e| anyhow::anyhow!("{e}"))?;
    root.present().map_err(|e| anyhow::anyhow!("{e}"))?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seeds_and_game_counts_are_named_briefly() {
        assert_eq!(seeds_text(&[7].into()), "seed 7");
        assert_eq!(seeds_text(&[1, 2, 3].into()), "seeds 1, 2, 3");
        assert_eq!(seeds_text(&(1..=12).collect()), "12 seeds from 1 to 12");
        let row = |games| Row {
            kind: tempo_sync::GameKind::Standard,
            games,
            white: 0,
            black: 0,
            draws: games as u32,
            adjudicated: 0,
            millis: 0,
        };
        assert_eq!(games_text(&[row(4), row(4)]), "4");
        assert_eq!(games_text(&[row(4), row(2)]), "2-4");
    }
}
