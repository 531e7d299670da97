//! `tempo study fairness`: identical engines play games, each from a
//! start of its own, in orthodox chess (the control), from Chess960
//! starts, and in both simultaneous variants; White's score, the draw rate and White's
//! share of the decisive games, each with its 95 % Wilson interval, as a
//! table (or JSON) and an SVG plot. Each game becomes a record
//! ([`GameRecord`]), written to `--out` as it ends; the table is counted
//! from the records, by the study as by `tempo study merge`, which reads
//! the records of any runs and shards.

use std::fs::{File, TryLockError};
use std::io::Write;
use std::path::Path;
use std::time::Instant;

use anyhow::{Context, bail};
use clap::{Args, Subcommand};
use tempo_chess::{Color, Outcome};
use tempo_engine::{ADJUDICATION_CP, MOVE_CAP, PlayerKind};
use tempo_sync::GameKind;

use super::engine::{
    BudgetArgs, MAX_GAMES, Played, Scheduled, Starts, play_all, progress_bar, schedule,
};
use super::study_records::{
    Collection, GameRecord, MAX_FILES, MAX_OPENING, MAX_RECORDS, Place, Settings, read_records,
};
use super::study_table::report;

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
    /// The fairness table counted from game records (`--out` files of any
    /// runs and shards; gzip-compressed files too).
    Merge(MergeArgs),
}

#[derive(Debug, Args)]
pub(crate) struct FairnessArgs {
    /// Games per variant (each from a start of its own).
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
    /// Games played at once (threads; default: the machine's cores).
    #[arg(long, default_value_t = super::engine::default_jobs())]
    pub jobs: usize,
    /// Uniformly random steps played before each game.
    #[arg(long, default_value_t = 2)]
    pub opening: u32,
    /// Append each game's record (a JSON line) to this file as it ends.
    #[arg(long, value_name = "FILE")]
    pub out: Option<String>,
    /// Continue the --out file: play only the games it does not hold.
    #[arg(long)]
    pub resume: bool,
    /// Play only shard K of N: the games whose index is K-1 modulo N.
    #[arg(long, value_name = "K/N")]
    pub shard: Option<String>,
    /// Play only these variants (comma-separated: standard, chess960,
    /// synchronschach, fairschach); default all four.
    #[arg(long, value_name = "LIST", value_delimiter = ',', value_parser = clap::value_parser!(GameKind))]
    pub variants: Vec<GameKind>,
}

#[derive(Debug, Args)]
pub(crate) struct MergeArgs {
    /// Files of game records (`tempo study fairness --out`), plain or
    /// gzip-compressed.
    #[arg(required = true, value_name = "FILE")]
    pub files: Vec<String>,
    /// Write the plot (SVG) to this file.
    #[arg(long)]
    pub plot: Option<String>,
    /// Print JSON instead of the table.
    #[arg(long)]
    pub json: bool,
}

pub(crate) fn run(args: &StudyArgs) -> anyhow::Result<()> {
    match &args.command {
        StudyCommand::Fairness(a) => fairness(a),
        StudyCommand::Merge(a) => merge(a),
    }
}

/// Most shards of a batch.
const MAX_SHARDS: usize = 1000;

/// `K/N` (1 ≤ K ≤ N ≤ [`MAX_SHARDS`]); `1/1` if not given.
fn parse_shard(text: Option<&str>) -> anyhow::Result<(usize, usize)> {
    let Some(text) = text else {
        return Ok((1, 1));
    };
    let (k, n) = text
        .split_once('/')
        .and_then(|(k, n)| Some((k.parse::<usize>().ok()?, n.parse::<usize>().ok()?)))
        .with_context(|| format!("--shard {text}: expected K/N, e.g. 1/8"))?;
    if !(1..=MAX_SHARDS).contains(&n) {
        bail!("--shard {text}: N must be from 1 to {MAX_SHARDS}");
    }
    if !(1..=n).contains(&k) {
        bail!("--shard {text}: K must be from 1 to N");
    }
    Ok((k, n))
}

/// The engine as records name it: tempo's version and the engine's
/// signature (which changes with its play).
fn engine_name() -> String {
    format!(
        "tempo {} bench {}",
        env!("CARGO_PKG_VERSION"),
        tempo_engine::signature()
    )
}

/// What one run is: the checks a resumed file's records must pass.
struct Run<'a> {
    args: &'a FairnessArgs,
    settings: Settings,
    shard: (usize, usize),
    schedules: Vec<(GameKind, Vec<Scheduled>)>,
}

impl Run<'_> {
    fn mine(&self, pair: u32) -> bool {
        pair as usize % self.shard.1 == self.shard.0 - 1
    }

    fn scheduled(&self, kind: GameKind, game: u32) -> Option<&Scheduled> {
        let (_, list) = self.schedules.iter().find(|(k, _)| *k == kind)?;
        list.get(game as usize)
    }

    /// The record of `game` of `kind`, played as `played`.
    fn record(&self, kind: GameKind, game: &Scheduled, played: &Played) -> GameRecord {
        let o = &played.outcome;
        GameRecord {
            variant: kind,
            seed: self.args.seed,
            game: game.game,
            pair: game.pair,
            chess960: game.chess960,
            start: game.start.fen(),
            opening: game.opening.join(" "),
            moves: o.moves.join(" "),
            result: o.outcome,
            termination: o.reason.to_string(),
            steps: o.steps,
            white: self.settings.white.clone(),
            black: self.settings.black.clone(),
            budget: self.settings.budget.clone(),
            opening_steps: self.settings.opening_steps,
            move_cap: self.settings.move_cap,
            adjudication_cp: self.settings.adjudication_cp,
            games: self.args.games as u32,
            seconds: (played.seconds * 1000.0).round() / 1000.0,
            engine: self.settings.engine.clone(),
        }
    }

    /// Whether a record of the file to continue belongs to this run.
    fn check_resumed(&self, r: &GameRecord) -> anyhow::Result<()> {
        let settings = r.settings();
        if settings != self.settings {
            bail!("played with {settings}; this run has {}", self.settings);
        }
        if r.seed != self.args.seed {
            bail!(
                "played with --seed {}; this run has --seed {}",
                r.seed,
                self.args.seed
            );
        }
        // A run of fewer games is the beginning of this one's schedule
        // (its starts are checked below): it may be continued to more.
        if r.games as usize > self.args.games {
            bail!(
                "played with --games {}; this run has --games {} (fewer)",
                r.games,
                self.args.games
            );
        }
        if !self.mine(r.pair) {
            bail!(
                "game {} (pair {}) is not in this run's --shard {}/{}",
                r.game,
                r.pair,
                self.shard.0,
                self.shard.1
            );
        }
        let game = self
            .scheduled(r.variant, r.game)
            .context("not in the schedule")?;
        if game.start.fen() != r.start || game.opening.join(" ") != r.opening {
            bail!(
                "game {} of {} starts elsewhere than in this run's schedule (a file of another version of tempo?)",
                r.game,
                r.variant.name()
            );
        }
        Ok(())
    }
}

/// The `--out` file, opened to append and locked for this run, its
/// records in `games`; the lines it holds.
fn open_out(path: &str, run: &Run, games: &mut Collection) -> anyhow::Result<(File, u64)> {
    let mut file = lock_out(path)?;
    let size = file
        .metadata()
        .with_context(|| format!("cannot read {path}"))?
        .len();
    if size > 0 && !run.args.resume {
        bail!(
            "--out {path}: the file exists and is not empty; add --resume to continue it, or name another file"
        );
    }
    let source = games.source(path);
    let mut lines = 0;
    if size > 0 {
        let end = read_records(Path::new(path), |record, line| {
            run.check_resumed(&record)
                .with_context(|| format!("--resume: {path} line {line}"))?;
            games.add(&record, Place { source, line })?;
            Ok(())
        })?;
        if end.gzip {
            bail!("--out {path}: a gzip-compressed file cannot be continued (decompress it first)");
        }
        if let Some(line) = end.dropped_line {
            eprintln!(
                "tempo: warning: {path} line {line}: an incomplete last line (a run killed while writing it?) is dropped; its game is played again"
            );
            file.set_len(end.kept_bytes)
                .with_context(|| format!("cannot cut {path}"))?;
        }
        if end.unterminated {
            file.write_all(b"\n")
                .with_context(|| format!("cannot write {path}"))?;
        }
        lines = end.kept_lines;
    }
    Ok((file, lines))
}

/// Opens `path` to append (created if missing) with an exclusive lock
/// held until the run ends: two runs on one file would play the same
/// games and write them twice. The operating system's lock ends with the
/// process, also on `kill -9`.
fn lock_out(path: &str) -> anyhow::Result<File> {
    let file = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
        .with_context(|| format!("cannot open {path}"))?;
    match file.try_lock() {
        Ok(()) => Ok(file),
        Err(TryLockError::WouldBlock) => bail!(
            "--out {path}: another run is writing this file; wait for it to end, or give each run a file of its own (--shard K/N)"
        ),
        Err(TryLockError::Error(e)) => Err(e).with_context(|| format!("cannot lock {path}")),
    }
}

fn fairness(args: &FairnessArgs) -> anyhow::Result<()> {
    if !(1..=MAX_GAMES).contains(&args.games) {
        bail!("--games {}: must be from 1 to {MAX_GAMES}", args.games);
    }
    if !(1..=256).contains(&args.jobs) {
        bail!("--jobs {}: must be from 1 to 256", args.jobs);
    }
    if args.opening > MAX_OPENING {
        bail!(
            "--opening {}: must be from 0 to {MAX_OPENING}",
            args.opening
        );
    }
    if args.resume && args.out.is_none() {
        bail!("--resume needs --out FILE (the file to continue)");
    }
    let shard = parse_shard(args.shard.as_deref())?;
    if shard.0 > args.games {
        bail!(
            "--shard {}/{}: no games in this shard (--games {})",
            shard.0,
            shard.1,
            args.games
        );
    }
    let limits = args.budget.limits(100)?;
    let mut schedules = Vec::new();
    for kind in GameKind::ALL {
        schedules.push((
            kind,
            schedule(
                kind,
                false,
                args.opening,
                args.games,
                args.seed,
                Starts::Single,
            )?,
        ));
    }
    let nash = PlayerKind::Nash.name().to_string();
    let run = Run {
        args,
        settings: Settings {
            white: nash.clone(),
            black: nash,
            budget: BudgetArgs::describe(limits),
            opening_steps: args.opening,
            move_cap: MOVE_CAP,
            adjudication_cp: ADJUDICATION_CP,
            engine: Some(engine_name()),
        },
        shard,
        schedules,
    };
    let mut games = Collection::default();
    let mut out = match &args.out {
        Some(path) => Some(open_out(path, &run, &mut games)?),
        None => None,
    };
    let resumed = games.len();
    let source = match &args.out {
        Some(_) => 0,
        None => games.source("this run"),
    };
    let started = Instant::now();
    let mut played = 0usize;
    for (kind, list) in &run.schedules {
        let kind = *kind;
        if !args.variants.is_empty() && !args.variants.contains(&kind) {
            continue;
        }
        let mine: Vec<&Scheduled> = list.iter().filter(|g| run.mine(g.pair)).collect();
        let todo: Vec<&Scheduled> = mine
            .iter()
            .copied()
            .filter(|g| !games.has(kind, args.seed, g.game))
            .collect();
        // White's points and games so far in this variant (a resumed
        // file's included).
        let (mut points, mut count) = games
            .rows()
            .iter()
            .find(|r| r.kind == kind)
            .map_or((0.0, 0), |r| {
                (f64::from(r.white) + f64::from(r.draws) / 2.0, r.games)
            });
        let message = |points: f64, count: usize| match count {
            0 => kind.name().to_string(),
            _ => format!("{}: White {:.3}", kind.name(), points / count as f64),
        };
        let bar = progress_bar(
            mine.len() as u64,
            (mine.len() - todo.len()) as u64,
            message(points, count),
        );
        let mut line = out.as_ref().map_or(0, |(_, lines)| *lines);
        play_all(
            &todo,
            PlayerKind::Nash,
            PlayerKind::Nash,
            limits,
            args.jobs,
            &bar,
            |game, result| {
                let record = run.record(kind, game, result);
                line += 1;
                if let (Some((file, _)), Some(path)) = (&mut out, &args.out) {
                    // One write a line: a kill loses the games in play and at
                    // most this line's tail, which --resume drops.
                    file.write_all(format!("{}\n", record.to_line()).as_bytes())
                        .with_context(|| format!("cannot write {path}"))?;
                }
                games.add(&record, Place { source, line })?;
                points += match record.result {
                    Outcome::Win(Color::White) => 1.0,
                    Outcome::Draw => 0.5,
                    Outcome::Win(Color::Black) => 0.0,
                };
                count += 1;
                bar.set_message(message(points, count));
                Ok(())
            },
        )?;
        if let Some((_, lines)) = &mut out {
            *lines = line;
        }
        played += todo.len();
    }
    report(&games, args.json, args.plot.as_deref())?;
    if !args.json {
        let from = match (&args.out, resumed) {
            (Some(path), n) if n > 0 => format!("; {n} read from {path}"),
            _ => String::new(),
        };
        println!(
            "{played} games played in {:.0} s{from}",
            started.elapsed().as_secs_f64()
        );
    }
    Ok(())
}

fn merge(args: &MergeArgs) -> anyhow::Result<()> {
    if args.files.len() > MAX_FILES {
        bail!("{} files: at most {MAX_FILES} a merge", args.files.len());
    }
    let mut games = Collection::default();
    let mut read = 0usize;
    for path in &args.files {
        let source = games.source(path);
        let end = read_records(Path::new(path), |record, line| {
            read += 1;
            if read > MAX_RECORDS {
                bail!("{path} line {line}: more than {MAX_RECORDS} records in all");
            }
            games.add(&record, Place { source, line })?;
            Ok(())
        })?;
        if let Some(line) = end.dropped_line {
            eprintln!(
                "tempo: warning: {path} line {line}: an incomplete last line (a run killed while writing it?) is left out"
            );
        }
    }
    if games.len() == 0 {
        bail!("no game records in {}", args.files.join(", "));
    }
    if games.duplicates() > 0 {
        eprintln!(
            "tempo: note: {} records were exact duplicates and counted once",
            games.duplicates()
        );
    }
    report(&games, args.json, args.plot.as_deref())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shards_are_read_and_checked() {
        assert_eq!(parse_shard(None).unwrap(), (1, 1));
        assert_eq!(parse_shard(Some("3/8")).unwrap(), (3, 8));
        assert_eq!(parse_shard(Some("1000/1000")).unwrap(), (1000, 1000));
        for (text, says) in [
            ("3/2", "--shard 3/2: K must be from 1 to N"),
            ("0/2", "--shard 0/2: K must be from 1 to N"),
            ("1/0", "--shard 1/0: N must be from 1 to 1000"),
            ("1/1001", "N must be from 1 to 1000"),
            ("2", "--shard 2: expected K/N"),
            ("a/b", "expected K/N"),
        ] {
            let err = parse_shard(Some(text)).unwrap_err().to_string();
            assert!(err.contains(says), "{text}: {err}");
        }
    }

    #[test]
    fn a_second_run_on_one_out_file_is_refused_until_the_first_ends() {
        let path = std::env::temp_dir().join(format!(
            "tempo-study-lock-{}-{:x}.jsonl",
            std::process::id(),
            rand::random::<u64>()
        ));
        let path = path.to_str().unwrap();
        let first = lock_out(path).unwrap();
        // A second open file description: the lock excludes it as it
        // would another process.
        let err = lock_out(path).unwrap_err().to_string();
        assert!(
            err.contains(&format!("--out {path}: another run is writing this file")),
            "{err}"
        );
        drop(first);
        drop(lock_out(path).unwrap());
        std::fs::remove_file(path).unwrap();
    }
}
