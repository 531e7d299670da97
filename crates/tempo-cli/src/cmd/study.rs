//! `tempo study fairness`: identical engines play colour-swapped pairs of
//! games in orthodox chess (the control), from Chess960 starts, and in
//! both simultaneous variants; White's score, the draw rate and White's
//! share of the decisive games, each with its 95 % Wilson interval, as a
//! table (or JSON) and an SVG plot.

use std::time::Instant;

use anyhow::{Context, bail};
use clap::{Args, Subcommand};
use plotters::prelude::*;
use plotters::style::Color as _;
use serde_json::json;
use tempo_chess::{Color, Outcome};
use tempo_engine::{PlayerKind, wilson};
use tempo_sync::GameKind;

use super::engine::{BudgetArgs, MAX_GAMES, play_all, schedule};

/// Studies run with the engine.
#[derive(Debug, Args)]
pub(crate) struct StudyArgs {
    #[command(subcommand)]
    pub command: StudyCommand,
}

#[derive(Debug, Subcommand)]
pub(crate) enum StudyCommand {
    /// White's score with identical engines: orthodox chess (control),
    /// Chess960 starts, Synchronschach, Fairschach.
    Fairness(FairnessArgs),
}

#[derive(Debug, Args)]
pub(crate) struct FairnessArgs {
    /// Games per variant (colour-swapped pairs from the same start).
    #[arg(long, default_value_t = 100)]
    pub games: usize,
    /// Seed of the engines' generators and of the Chess960 starts.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    #[command(flatten)]
    pub budget: BudgetArgs,
    /// Write the plot (SVG) to this file.
    #[arg(long)]
    pub plot: Option<String>,
    /// Print JSON instead of the table.
    #[arg(long)]
    pub json: bool,
    /// Games played at once (threads).
    #[arg(long, default_value_t = 1)]
    pub jobs: usize,
    /// Uniformly random steps played before each pair of games (the same
    /// for both games of the pair).
    #[arg(long, default_value_t = 2)]
    pub opening: u32,
}

/// One variant's figures.
struct Row {
    kind: GameKind,
    games: usize,
    white: u32,
    black: u32,
    draws: u32,
    adjudicated: usize,
    seconds: f64,
}

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

pub(crate) fn run(args: &StudyArgs) -> anyhow::Result<()> {
    match &args.command {
        StudyCommand::Fairness(a) => fairness(a),
    }
}

fn fairness(args: &FairnessArgs) -> anyhow::Result<()> {
    if !(1..=MAX_GAMES).contains(&args.games) {
        bail!("--games {}: must be from 1 to {MAX_GAMES}", args.games);
    }
    if !(1..=256).contains(&args.jobs) {
        bail!("--jobs {}: must be from 1 to 256", args.jobs);
    }
    if args.opening > 20 {
        bail!("--opening {}: must be from 0 to 20", args.opening);
    }
    let limits = args.budget.limits(100)?;
    let started = Instant::now();
    let mut rows = Vec::new();
    for kind in GameKind::ALL {
        let t = Instant::now();
        let games = schedule(kind, false, args.opening, args.games, args.seed)?;
        let outcomes = play_all(
            &games,
            PlayerKind::Nash,
            PlayerKind::Nash,
            limits,
            args.jobs,
            kind.name(),
        );
        let mut row = Row {
            kind,
            games: outcomes.len(),
            white: 0,
            black: 0,
            draws: 0,
            adjudicated: 0,
            seconds: 0.0,
        };
        for o in &outcomes {
            match o.outcome {
                Outcome::Win(Color::White) => row.white += 1,
                Outcome::Win(Color::Black) => row.black += 1,
                Outcome::Draw => row.draws += 1,
            }
            row.adjudicated += usize::from(o.reason == "adjudicated");
        }
        row.seconds = t.elapsed().as_secs_f64();
        rows.push(row);
    }
    let budget = BudgetArgs::describe(limits);
    if let Some(path) = &args.plot {
        plot(path, &rows, &budget).with_context(|| format!("cannot write the plot {path}"))?;
    }
    let total = started.elapsed().as_secs_f64();
    if args.json {
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
                    "seconds": r.seconds,
                })
            })
            .collect();
        let out = json!({
            "games_per_variant": args.games,
            "seed": args.seed,
            "budget": budget,
            "variants": variants,
            "seconds": total,
        });
        println!("{}", serde_json::to_string_pretty(&out)?);
        return Ok(());
    }
    println!(
        "Fairness study: identical engines (nash), {} games per variant, {budget}, seed {}",
        args.games, args.seed
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
        "{adjudicated} games adjudicated at move {} (material lead of {} cp wins); {total:.0} s",
        tempo_engine::MOVE_CAP,
        tempo_engine::ADJUDICATION_CP
    );
    Ok(())
}

/// White's score per variant with its interval, beside the 50 % line.
fn plot(path: &str, rows: &[Row], budget: &str) -> anyhow::Result<()> {
    let root = SVGBackend::new(path, (720, 420)).into_drawing_area();
    root.fill(&WHITE).map_err(|e| anyhow::anyhow!("{e}"))?;
    let n = rows.len();
    let games = rows.first().map_or(0, |r| r.games);
    let names: Vec<&'static str> = rows.iter().map(|r| r.kind.name()).collect();
    let mut chart = ChartBuilder::on(&root)
        .caption(
            format!("White's score, identical engines ({games} games per variant, {budget})"),
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
