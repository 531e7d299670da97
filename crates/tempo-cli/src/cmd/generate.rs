//! `tempo generate --system dutch --players N --rounds R --seed S
//! [--draw-rate F] [--forfeit-rate F] [--bye-rate F] -o FILE`: a random
//! tournament, every round paired by the Dutch engine, written as TRF
//! (with `XXR` and `XXC`) that `tempo check` and the reference engines read.

use std::path::PathBuf;

use anyhow::Context;
use clap::Args;
use tempo_tourney::System;
use tempo_tourney::dutch::{GeneratorConfig, generate};

use super::system_parser;

/// The help line of the Dutch system, in every command that knows it.
pub(crate) const DUTCH_HELP: &str = "FIDE Dutch Swiss system (C.04.3, edition 1 February 2026)";

/// The systems `tempo generate` knows.
const SYSTEMS: [(System, &str); 1] = [(System::Dutch, DUTCH_HELP)];

/// Generate a random tournament.
#[derive(Debug, Args)]
pub(crate) struct GenerateArgs {
    /// Pairing system.
    #[arg(long, value_parser = system_parser(&SYSTEMS))]
    pub system: System,
    /// Number of players.
    #[arg(long)]
    pub players: u32,
    /// Number of rounds.
    #[arg(long)]
    pub rounds: u32,
    /// Random seed (the same seed gives the same tournament).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Share of drawn games, 0-1.
    #[arg(long, default_value_t = 0.3)]
    pub draw_rate: f64,
    /// Share of forfeited games, 0-1.
    #[arg(long, default_value_t = 0.02)]
    pub forfeit_rate: f64,
    /// Share of players taking a half-point bye per round, 0-1 (a third as
    /// many more are absent without points).
    #[arg(long, default_value_t = 0.03)]
    pub bye_rate: f64,
    /// Output TRF file.
    #[arg(short = 'o', long = "output")]
    pub output: PathBuf,
}

pub(crate) fn run(args: &GenerateArgs) -> anyhow::Result<()> {
    let cfg = GeneratorConfig {
        players: args.players,
        rounds: args.rounds,
        seed: args.seed,
        draw_rate: args.draw_rate,
        forfeit_rate: args.forfeit_rate,
        bye_rate: args.bye_rate,
    };
    let t = generate(&cfg)?;
    let text = t.to_trf().context("cannot render the tournament as TRF")?;
    std::fs::write(&args.output, text)
        .with_context(|| format!("cannot write {}", args.output.display()))?;
    println!(
        "{} players, {} rounds written to {}",
        args.players,
        args.rounds,
        args.output.display()
    );
    Ok(())
}
