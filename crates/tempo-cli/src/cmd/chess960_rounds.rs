//! `tempo chess960 rounds --rounds R --seed S [--trf FILE [--write]]`: one
//! Chess960 start position per round for all boards, drawn from a seed.
//!
//! Prints one line per round: `round<TAB>number<TAB>X-FEN`. The same seed
//! always gives the same positions; round 1 is `tempo chess960 draw --seed
//! S`. With `--trf` the file's recorded seed and positions (`XT9` lines)
//! are used and missing rounds drawn; `--write` records them in the file.

use std::fmt::Write as _;
use std::path::PathBuf;

use anyhow::Context;
use clap::Args;
use tempo_chess::chess960;
use tempo_tourney::Tournament;

/// Draw (or show the recorded) start position of every round.
#[derive(Debug, Args)]
pub(crate) struct RoundsArgs {
    /// Number of rounds (default with --trf: the file's 142 / XXR).
    #[arg(long, value_name = "R")]
    pub rounds: Option<u32>,
    /// Seed of the ChaCha8 generator (default with --trf: the recorded
    /// one; otherwise a fresh seed, printed on stderr).
    #[arg(long, value_name = "S")]
    pub seed: Option<u64>,
    /// A tournament (TRF) whose recorded positions are kept.
    #[arg(long, value_name = "FILE")]
    pub trf: Option<PathBuf>,
    /// Record the seed and positions in the --trf file.
    #[arg(long, requires = "trf")]
    pub write: bool,
}

pub(crate) fn run(args: &RoundsArgs) -> anyhow::Result<()> {
    let mut t = match &args.trf {
        Some(path) => super::read_tournament(path)?,
        None => Tournament::new(),
    };
    let rounds = args
        .rounds
        .or(t.total_rounds)
        .context("how many rounds? give --rounds R (or a --trf file with a 142 / XXR line)")?;
    if rounds == 0 {
        anyhow::bail!("--rounds must be at least 1");
    }
    let recorded_seed = t.chess960.as_ref().and_then(|c| c.seed);
    let seed = match (args.seed, recorded_seed) {
        (Some(s), _) => Some(s),
        (None, Some(_)) => None,
        (None, None) => {
            let fresh = chess960::fresh_seed();
            eprintln!("tempo: seed {fresh}");
            Some(fresh)
        }
    };
    let record = t.draw_chess960(seed, rounds)?.clone();
    print!("{}", render(&record.positions, rounds)?);
    if args.write
        && let Some(path) = &args.trf
    {
        let bytes = tempo_tourney::trf::write(&t)?;
        std::fs::write(path, bytes).with_context(|| format!("cannot write {}", path.display()))?;
    }
    Ok(())
}

fn render(positions: &[(u32, u16)], rounds: u32) -> anyhow::Result<String> {
    // Round -> position (the first record of a round wins), so that many
    // rounds do not cost a search each.
    let by_round: std::collections::HashMap<u32, u16> = positions.iter().rev().copied().collect();
    let mut out = String::new();
    for round in 1..=rounds {
        let number = *by_round
            .get(&round)
            .with_context(|| format!("no position for round {round}"))?;
        let fen = chess960::start_position(number)?.to_fen();
        let _ = writeln!(out, "{round}\t{number}\t{fen}");
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_are_round_number_fen() {
        let text = render(&[(1, 518), (2, 0)], 2).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(
            lines[0],
            "1\t518\trnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
        );
        assert!(lines[1].starts_with("2\t0\tbbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w "));
    }

    #[test]
    fn the_first_round_is_the_plain_draw() {
        let positions = tempo_tourney::chess960::draw_rounds(99, 3);
        assert_eq!(positions[0], chess960::draw(99).number);
    }
}
