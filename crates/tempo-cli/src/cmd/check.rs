//! `tempo check --system dutch --trf FILE`: re-pair every round of a
//! tournament and report each round whose pairing differs from the file,
//! both pairings side by side. `--corpus DIR` checks a whole corpus laid
//! out as `DIR/manifest.csv`, `DIR/trf/<name>.trf` and
//! `DIR/pairs/<name>/<name>.rKK.pairs` (the reference engines' output),
//! comparing pairs, colours and board order exactly.
//!
//! Exit codes: 0 all rounds identical, 4 some round differs, 3 a round
//! cannot be paired at all, 1 bad input.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use anyhow::Context;
use clap::Args;
use tempo_chess::Color;
use tempo_tourney::{System, Tournament};

use super::pair_dutch::{pair_round, render};
use super::read_tournament as read_trf;
use super::{CodedError, system_parser};

/// Exit code when some round differs.
pub(crate) const ROUNDS_DIFFER: u8 = 4;

/// The systems `tempo check` knows.
const SYSTEMS: [(System, &str); 1] = [(System::Dutch, super::generate::DUTCH_HELP)];

/// Re-pair every round of a tournament (or a corpus) and compare.
#[derive(Debug, Args)]
pub(crate) struct CheckArgs {
    /// Pairing system.
    #[arg(long, value_parser = system_parser(&SYSTEMS))]
    pub system: System,
    /// A finished or running tournament as TRF.
    #[arg(long, conflicts_with = "corpus", required_unless_present = "corpus")]
    pub trf: Option<PathBuf>,
    /// A corpus directory (manifest.csv, trf/, pairs/).
    #[arg(long)]
    pub corpus: Option<PathBuf>,
    /// Worker threads for --corpus.
    #[arg(long, default_value_t = 2)]
    pub jobs: usize,
}

pub(crate) fn run(args: &CheckArgs) -> anyhow::Result<()> {
    match (&args.trf, &args.corpus) {
        (Some(trf), _) => check_file(trf),
        (None, Some(dir)) => {
            if !(1..=MAX_JOBS).contains(&args.jobs) {
                anyhow::bail!("--jobs {}: must be from 1 to {MAX_JOBS}", args.jobs);
            }
            check_corpus(dir, args.jobs)
        }
        (None, None) => anyhow::bail!("give --trf FILE or --corpus DIR"),
    }
}

/// The pairing a TRF file records for a round: `(white, black)` pairs
/// (a pair without colours as `(lower id, higher id)`) and the PAB.
fn recorded(t: &Tournament, round: u32) -> (BTreeSet<(u32, u32)>, Option<u32>) {
    let (games, bye) = t.recorded_games(round);
    (games.into_iter().collect(), bye)
}

fn check_file(path: &Path) -> anyhow::Result<()> {
    let t = read_trf(path)?;
    let rounds = t.paired_rounds();
    let mut differing = 0;
    for round in 1..=rounds {
        let ours = pair_round(&t, round)?;
        let (theirs, their_bye) = recorded(&t, round);
        let ours_set: BTreeSet<(u32, u32)> = ours
            .boards
            .iter()
            .map(|&(w, b)| {
                let colourless = t.entry(w, round).is_some_and(|e| e.colour.is_none());
                if colourless {
                    (w.min(b), w.max(b))
                } else {
                    (w, b)
                }
            })
            .collect();
        if ours_set == theirs && ours.bye == their_bye {
            continue;
        }
        differing += 1;
        println!("round {round} differs:");
        println!("  {:<14}file", "tempo");
        let left: Vec<String> = ours
            .boards
            .iter()
            .map(|(w, b)| format!("{w} {b}"))
            .collect();
        let right: Vec<String> = theirs.iter().map(|(w, b)| format!("{w} {b}")).collect();
        for i in 0..left.len().max(right.len()) {
            let l = left.get(i).map_or("", String::as_str);
            let r = right.get(i).map_or("", String::as_str);
            println!("  {l:<14}{r}");
        }
        let show = |b: Option<u32>| b.map_or("-".to_string(), |b| format!("{b} 0"));
        println!("  bye {:<10}bye {}", show(ours.bye), show(their_bye));
    }
    if differing > 0 {
        return Err(CodedError {
            code: ROUNDS_DIFFER,
            message: format!("{differing} of {rounds} rounds differ"),
        }
        .into());
    }
    println!("all {rounds} rounds identical");
    Ok(())
}

struct CorpusCase {
    name: String,
    rounds: u32,
    initial: Color,
}

fn read_manifest(dir: &Path) -> anyhow::Result<Vec<CorpusCase>> {
    let path = dir.join("manifest.csv");
    let text = std::fs::read_to_string(&path)
        .with_context(|| format!("cannot read {}", path.display()))?;
    let mut lines = text.lines();
    let header: Vec<&str> = lines.next().context("empty manifest")?.split(',').collect();
    let col = |name: &str| {
        header
            .iter()
            .position(|h| *h == name)
            .with_context(|| format!("manifest has no column '{name}'"))
    };
    let (file, rounds, initial) = (col("file")?, col("rounds")?, col("initial_color")?);
    let mut cases = Vec::new();
    for (i, line) in lines.enumerate() {
        let f: Vec<&str> = line.split(',').collect();
        let get = |c: usize| {
            f.get(c)
                .copied()
                .with_context(|| format!("manifest line {}", i + 2))
        };
        let name = Path::new(get(file)?)
            .file_stem()
            .and_then(|s| s.to_str())
            .context("bad file name")?
            .to_string();
        cases.push(CorpusCase {
            name,
            rounds: get(rounds)?.parse().context("bad rounds")?,
            initial: if get(initial)? == "b" {
                Color::Black
            } else {
                Color::White
            },
        });
    }
    Ok(cases)
}

/// Check one corpus tournament; returns (rounds, differing round reports).
fn check_case(dir: &Path, case: &CorpusCase) -> anyhow::Result<(u32, Vec<String>)> {
    let mut t = read_trf(&dir.join("trf").join(format!("{}.trf", case.name)))?;
    t.total_rounds = Some(case.rounds);
    t.initial_colour = Some(case.initial);
    let mut bad = Vec::new();
    for round in 1..=case.rounds {
        let file = dir
            .join("pairs")
            .join(&case.name)
            .join(format!("{}.r{round:02}.pairs", case.name));
        let expected = std::fs::read_to_string(&file)
            .with_context(|| format!("cannot read {}", file.display()))?;
        let ours = match pair_round(&t, round) {
            Ok(p) => render(&p.boards, p.bye),
            Err(e) => format!("error: {e:#}\n"),
        };
        if ours.split_whitespace().ne(expected.split_whitespace()) {
            bad.push(side_by_side(&case.name, round, &ours, &expected));
        }
    }
    Ok((case.rounds, bad))
}

fn side_by_side(name: &str, round: u32, ours: &str, theirs: &str) -> String {
    let mut out = format!(
        "{name} round {round} differs:\n  {:<14}reference\n",
        "tempo"
    );
    let l: Vec<&str> = ours.lines().collect();
    let r: Vec<&str> = theirs.lines().collect();
    for i in 0..l.len().max(r.len()) {
        let a = l.get(i).copied().unwrap_or("");
        let b = r.get(i).copied().unwrap_or("");
        let mark = if a.trim() == b.trim() { ' ' } else { '*' };
        out += &format!("{mark} {a:<14}{b}\n");
    }
    out
}

/// Most worker threads `check --corpus` starts.
pub(crate) const MAX_JOBS: usize = 64;

fn check_corpus(dir: &Path, jobs: usize) -> anyhow::Result<()> {
    let cases = read_manifest(dir)?;
    let next = std::sync::atomic::AtomicUsize::new(0);
    let results: Vec<anyhow::Result<(u32, Vec<String>)>> = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..jobs)
            .map(|_| {
                scope.spawn(|| {
                    let mut out = Vec::new();
                    loop {
                        let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                        let Some(case) = cases.get(i) else { break };
                        out.push((i, check_case(dir, case)));
                    }
                    out
                })
            })
            .collect();
        let mut all: Vec<_> = workers
            .into_iter()
            .flat_map(|w| w.join().expect("worker panicked"))
            .collect();
        all.sort_by_key(|(i, _)| *i);
        all.into_iter().map(|(_, r)| r).collect()
    });
    let mut total = 0;
    let mut differing = Vec::new();
    for r in results {
        let (rounds, bad) = r?;
        total += rounds;
        differing.extend(bad);
    }
    for d in &differing {
        print!("{d}");
    }
    let same = total as usize - differing.len();
    println!(
        "{same}/{total} rounds identical ({} tournaments)",
        cases.len()
    );
    if !differing.is_empty() {
        return Err(CodedError {
            code: ROUNDS_DIFFER,
            message: format!("{} of {total} rounds differ", differing.len()),
        }
        .into());
    }
    Ok(())
}
