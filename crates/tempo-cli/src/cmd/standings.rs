//! `tempo standings --system keizer|swiss|round-robin --trf FILE
//! [--tiebreaks LIST] [--rounds N] [--format table|tsv|json]`.
//!
//! `tsv` prints a header line, then one line per player: rank, starting
//! rank, name, score, then the tie-breaks (Keizer: the place's value and
//! games, wins, draws, losses); numbers with a dot.

use std::fmt::Write as _;
use std::path::PathBuf;

use anyhow::Context;
use clap::{Args, ValueEnum};
use serde_json::json;
use tempo_tourney::keizer;
use tempo_tourney::standings::{StandingsOptions, standings};
use tempo_tourney::tiebreak::{self, TieBreak, UnplayedRule};
use tempo_tourney::{System, Tournament};

use super::pair_keizer::KeizerFlags;
use super::system_parser;

/// How each system's tournament is scored (a Swiss is paired by the Dutch
/// system, named `swiss` too).
const SYSTEMS: [(System, &str); 3] = [
    (
        System::Keizer,
        "Keizer: ranking values (settings from the file's XTK lines and the --keizer-* flags)",
    ),
    (
        System::Dutch,
        "Swiss: score, then tie-breaks (default BH-C1,BH,SB,DE,WIN,BWG)",
    ),
    (
        System::RoundRobin,
        "Round robin: score, then tie-breaks (default DE,WIN,SB,KS)",
    ),
];

/// Output format.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(crate) enum Format {
    /// Aligned columns for people.
    Table,
    /// Tab-separated: a header line, then one line per player.
    Tsv,
    /// One JSON object.
    Json,
}

/// Unplayed-rounds rule for the tie-breaks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(crate) enum UnplayedArg {
    /// FIDE C.07 as in force since 1 March 2026: the dummy opponent's score
    /// capped (the default).
    Fide2026,
    /// FIDE C.07 (2023): dummy opponent with the own score, VURs cut first.
    Fide2023,
    /// FIDE's earlier virtual-opponent rule (2009).
    VirtualOpponent,
    /// No adjustment for unplayed rounds.
    None,
}

/// Print the standings of a tournament given as a TRF file.
#[derive(Debug, Args)]
pub(crate) struct StandingsArgs {
    /// Scoring system.
    #[arg(long, value_parser = system_parser(&SYSTEMS))]
    pub system: System,
    /// The tournament, as a TRF16 / TRF-2026 file.
    #[arg(long)]
    pub trf: PathBuf,
    /// Output format.
    #[arg(long, value_enum, default_value = "table")]
    pub format: Format,
    /// Tie-breaks in order, C.07 names with modifiers, e.g.
    /// BH-C1,BH,SB,DE,WIN (default: the file's 202 line, else its 212
    /// line, else the system's default). Known: BH SB DE WIN WON BPG BWG GE ARO TPR PS KS;
    /// modifiers -C1 (cut), -M1 (median), -P (forfeits as games).
    #[arg(long, value_name = "LIST", alias = "tiebreak")]
    pub tiebreaks: Option<String>,
    /// Standings after this round (default: all paired rounds).
    #[arg(long, value_name = "N")]
    pub rounds: Option<u32>,
    /// How unplayed rounds count in the tie-breaks (default: the file's
    /// `XTE` edition line, else fide2026, the rules in force).
    #[arg(long, value_enum)]
    pub unplayed: Option<UnplayedArg>,
    /// Rating assumed for unrated opponents in ARO / TPR (default: such
    /// games are left out).
    #[arg(long, value_name = "RATING")]
    pub unrated_rating: Option<u16>,
    #[command(flatten)]
    pub keizer: KeizerFlags,
}

/// One output line: rank, start, name, score, then the other columns.
struct Line {
    rank: u32,
    id: u32,
    name: String,
    score: String,
    extra: Vec<String>,
}

pub(crate) fn run(args: &StandingsArgs) -> anyhow::Result<()> {
    let t = super::read_tournament(&args.trf)?;
    if let Some(rounds) = args.rounds
        && rounds > t.paired_rounds()
    {
        anyhow::bail!(
            "--rounds {rounds}: {} has {} paired rounds; standings after a round not yet paired do not exist",
            args.trf.display(),
            t.paired_rounds()
        );
    }
    let (headers, lines, json_value) = match args.system {
        System::Keizer => keizer_lines(args, &t)?,
        System::Dutch | System::RoundRobin => fide_lines(args, &t)?,
    };
    let text = match args.format {
        Format::Tsv => tsv(&headers, &lines),
        Format::Table => table(&headers, &lines),
        Format::Json => format!("{}\n", serde_json::to_string_pretty(&json_value)?),
    };
    print!("{text}");
    Ok(())
}

/// `--tiebreaks`, else the file's own ([`tiebreak::for_tournament`]).
fn tiebreak_list(args: &StandingsArgs, t: &Tournament) -> anyhow::Result<Vec<TieBreak>> {
    if let Some(list) = &args.tiebreaks {
        return tiebreak::parse_list(list).context("--tiebreaks");
    }
    tiebreak::for_tournament(t, args.system).map_err(|e| {
        anyhow::Error::new(e.error).context(format!(
            "the file's {} line '{}' (override with --tiebreaks)",
            e.tag, e.text
        ))
    })
}

type Output = (Vec<String>, Vec<Line>, serde_json::Value);

fn fide_lines(args: &StandingsArgs, t: &Tournament) -> anyhow::Result<Output> {
    let mut options = match args.system {
        System::RoundRobin => StandingsOptions::round_robin(),
        _ => StandingsOptions::swiss(),
    };
    options.tiebreaks = tiebreak_list(args, t)?;
    options.tiebreak_options.rounds = args.rounds;
    options.tiebreak_options.unrated_rating = args.unrated_rating;
    let from_file = t
        .tiebreak_edition()
        .with_context(|| args.trf.display().to_string())?;
    options.tiebreak_options.unplayed = match args.unplayed {
        Some(UnplayedArg::Fide2026) => UnplayedRule::Fide2026,
        Some(UnplayedArg::Fide2023) => UnplayedRule::Fide2023,
        Some(UnplayedArg::VirtualOpponent) => UnplayedRule::VirtualOpponent,
        Some(UnplayedArg::None) => UnplayedRule::Ignore,
        None => from_file.unwrap_or_default(),
    };
    let s = standings(t, &options);
    let headers: Vec<String> = s.tiebreaks.iter().map(ToString::to_string).collect();
    let lines = s
        .rows
        .iter()
        .map(|r| Line {
            rank: r.rank,
            id: r.id,
            name: r.name.clone(),
            score: r.score.to_string(),
            extra: s
                .tiebreaks
                .iter()
                .zip(&r.values)
                .map(|(tb, v)| v.format(tb.is_integer()))
                .collect(),
        })
        .collect();
    let players: Vec<serde_json::Value> = s
        .rows
        .iter()
        .map(|r| {
            let tbs: Vec<serde_json::Value> = s
                .tiebreaks
                .iter()
                .zip(&r.values)
                .map(|(tb, v)| json!({"name": tb.to_string(), "value": v.as_f64()}))
                .collect();
            json!({
                "rank": r.rank,
                "start": r.id,
                "name": r.name,
                "rating": r.rating,
                "score": r.score.as_f64(),
                "tiebreaks": tbs,
            })
        })
        .collect();
    let system = match args.system {
        System::RoundRobin => "round-robin",
        _ => "swiss",
    };
    let value = json!({
        "system": system,
        "rounds": s.rounds,
        "tiebreaks": headers,
        "players": players,
    });
    Ok((headers, lines, value))
}

/// A rational number as a decimal with a dot, at most two decimals
/// (halves up), at least one.
fn decimal(numerator: impl Into<i128>, denominator: impl Into<i128>) -> String {
    let (numerator, denominator): (i128, i128) = (numerator.into(), denominator.into());
    let (num, den) = if denominator < 0 {
        (-numerator, -denominator)
    } else {
        (numerator, denominator)
    };
    let hundredths = (200 * num + den).div_euclid(2 * den);
    let sign = if hundredths < 0 { "-" } else { "" };
    let abs = hundredths.unsigned_abs();
    let (whole, frac) = (abs / 100, abs % 100);
    if frac % 10 == 0 {
        format!("{sign}{whole}.{}", frac / 10)
    } else {
        format!("{sign}{whole}.{frac:02}")
    }
}

fn keizer_lines(args: &StandingsArgs, t: &Tournament) -> anyhow::Result<Output> {
    let settings = args.keizer.settings_for(t)?;
    let ranking = keizer::standings(t, &settings, args.rounds)?;
    let headers: Vec<String> = ["value", "games", "wins", "draws", "losses"]
        .iter()
        .map(ToString::to_string)
        .collect();
    let name_of = |id| t.player(id).map_or(String::new(), |p| p.name.clone());
    let mut lines = Vec::new();
    let mut players = Vec::new();
    for s in &ranking.standings {
        let score = decimal(s.score.numerator(), s.score.denominator());
        lines.push(Line {
            rank: s.place as u32,
            id: s.id,
            name: name_of(s.id),
            score: score.clone(),
            extra: vec![
                s.value.to_string(),
                s.games.to_string(),
                s.wins.to_string(),
                s.draws.to_string(),
                s.losses.to_string(),
            ],
        });
        players.push(json!({
            "rank": s.place,
            "start": s.id,
            "name": name_of(s.id),
            "score": s.score.as_f64(),
            "value": s.value,
            "games": s.games,
            "wins": s.wins,
            "draws": s.draws,
            "losses": s.losses,
        }));
    }
    let value = json!({
        "system": "keizer",
        "rounds": ranking.after_round,
        "converged": ranking.converged,
        "players": players,
    });
    Ok((headers, lines, value))
}

fn tsv(headers: &[String], lines: &[Line]) -> String {
    let mut out = String::from("rank\tstart\tname\tscore");
    for h in headers {
        out.push('\t');
        out.push_str(h);
    }
    out.push('\n');
    for l in lines {
        let _ = write!(out, "{}\t{}\t{}\t{}", l.rank, l.id, l.name, l.score);
        for x in &l.extra {
            out.push('\t');
            out.push_str(x);
        }
        out.push('\n');
    }
    out
}

fn table(headers: &[String], lines: &[Line]) -> String {
    let mut cells: Vec<Vec<String>> = Vec::with_capacity(lines.len() + 1);
    let mut head = vec!["Rk".to_string(), "No".into(), "Name".into(), "Pts".into()];
    head.extend(headers.iter().cloned());
    cells.push(head);
    for l in lines {
        let mut row = vec![
            l.rank.to_string(),
            l.id.to_string(),
            l.name.clone(),
            l.score.clone(),
        ];
        row.extend(l.extra.iter().cloned());
        cells.push(row);
    }
    let columns = cells[0].len();
    let widths: Vec<usize> = (0..columns)
        .map(|c| {
            cells
                .iter()
                .map(|r| r[c].chars().count())
                .max()
                .unwrap_or(0)
        })
        .collect();
    let mut out = String::new();
    for row in &cells {
        let mut line = String::new();
        for (c, cell) in row.iter().enumerate() {
            if c > 0 {
                line.push_str("  ");
            }
            // Names left-aligned, numbers right-aligned.
            if c == 2 {
                let _ = write!(line, "{cell:<w$}", w = widths[c]);
            } else {
                let _ = write!(line, "{cell:>w$}", w = widths[c]);
            }
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decimals() {
        assert_eq!(decimal(99, 1), "99.0");
        assert_eq!(decimal(143, 2), "71.5");
        assert_eq!(decimal(88, 3), "29.33");
        assert_eq!(decimal(-1, 2), "-0.5");
    }
}
