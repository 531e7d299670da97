//! Scheduled online backups of the SQLite store while `tempo serve` runs
//! (`--backup-every 6h --backup-keep 14`): every turn a consistent copy
//! (the store's `VACUUM INTO`) is written under a temporary name, synced,
//! and renamed to `tempo-<UTC time>.sqlite`; then the oldest beyond the
//! number kept are removed. A failed turn is logged and the next one tries
//! again: backups never stop the server.

use std::path::{Path, PathBuf};
use std::time::Duration;

use anyhow::Context;
use clap::Args;
use tempo_server::store::Store;

use super::settings::Location;

/// Shortest interval (tests use seconds) and longest (a year).
const MIN_INTERVAL: Duration = Duration::from_secs(1);
const MAX_INTERVAL: Duration = Duration::from_secs(366 * 86_400);

/// Most backups kept.
const MAX_KEEP: u32 = 10_000;

/// The name of a finished backup: `tempo-20261125T214012Z.sqlite`.
const PREFIX: &str = "tempo-";
const SUFFIX: &str = "Z.sqlite";
/// A backup being written: hidden, and never taken for a finished one.
const PARTIAL_SUFFIX: &str = ".partial";

#[derive(Debug, Args)]
pub(crate) struct ScheduleArgs {
    /// Back the SQLite store up this often while serving: a number and a
    /// unit, s, m, h or d (30m, 6h, 1d).
    #[arg(long, env = "TEMPO_BACKUP_EVERY", value_name = "DURATION", value_parser = parse_interval)]
    backup_every: Option<Duration>,
    /// How many scheduled backups to keep; the oldest beyond are removed.
    #[arg(
        long,
        env = "TEMPO_BACKUP_KEEP",
        value_name = "N",
        default_value_t = 14,
        value_parser = clap::value_parser!(u32).range(1..=i64::from(MAX_KEEP))
    )]
    backup_keep: u32,
    /// Where scheduled backups are written [default: <data>/backups].
    #[arg(long, env = "TEMPO_BACKUP_DIR", value_name = "DIR")]
    backup_dir: Option<PathBuf>,
}

/// What the backup task does.
#[derive(Debug, Clone)]
pub(crate) struct Plan {
    every: Duration,
    keep: usize,
    dir: PathBuf,
    /// Held while the server runs: one server backs up into a directory,
    /// so that none prunes another's backups or removes its partial copy.
    _lock: std::sync::Arc<std::fs::File>,
}

impl ScheduleArgs {
    /// The plan for a server on `location`, if backups are asked for; the
    /// directory is created, and what an interrupted turn left is removed.
    pub(crate) fn plan(&self, location: &Location) -> anyhow::Result<Option<Plan>> {
        let Some(every) = self.backup_every else {
            return Ok(None);
        };
        let data = match location {
            Location::Sqlite(data) => data,
            Location::Postgres(_) => anyhow::bail!(
                "--backup-every: scheduled backups are of the SQLite store; \
                 back a PostgreSQL database up with pg_dump (docs/deploy.md)"
            ),
        };
        let dir = self
            .backup_dir
            .clone()
            .unwrap_or_else(|| data.join("backups"));
        std::fs::create_dir_all(&dir).with_context(|| format!("--backup-dir {}", dir.display()))?;
        let lock = lock_dir(&dir)?;
        remove_partials(&dir).with_context(|| format!("--backup-dir {}", dir.display()))?;
        Ok(Some(Plan {
            every,
            keep: self.backup_keep as usize,
            dir,
            _lock: std::sync::Arc::new(lock),
        }))
    }
}

/// The lock file that keeps a backup directory to one server.
const DIR_LOCK: &str = ".tempo-backups.lock";

/// Locks `dir` for this server's backups, or says that another holds it.
fn lock_dir(dir: &Path) -> anyhow::Result<std::fs::File> {
    let path = dir.join(DIR_LOCK);
    let file = std::fs::OpenOptions::new()
        .create(true)
        .write(true)
        .truncate(false)
        .open(&path)
        .with_context(|| format!("--backup-dir {}: cannot open {DIR_LOCK}", dir.display()))?;
    match file.try_lock() {
        Ok(()) => Ok(file),
        Err(std::fs::TryLockError::WouldBlock) => anyhow::bail!(
            "--backup-dir {}: another tempo serve backs up into this directory; \
             give each store a directory of its own",
            dir.display()
        ),
        Err(std::fs::TryLockError::Error(e)) => Err(e)
            .with_context(|| format!("--backup-dir {}: cannot lock {DIR_LOCK}", dir.display())),
    }
}

impl Plan {
    /// Where the backups go.
    pub(crate) fn dir(&self) -> &Path {
        &self.dir
    }

    /// How many are kept.
    pub(crate) fn keep(&self) -> usize {
        self.keep
    }

    /// The interval as it is written (`6h`).
    pub(crate) fn every_text(&self) -> String {
        interval_text(self.every)
    }
}

/// An interval in its largest whole unit (`6h`).
fn interval_text(every: Duration) -> String {
    let seconds = every.as_secs();
    match [(86_400, "d"), (3_600, "h"), (60, "m")]
        .into_iter()
        .find(|(unit, _)| seconds.is_multiple_of(*unit))
    {
        Some((unit, name)) => format!("{}{name}", seconds / unit),
        None => format!("{seconds}s"),
    }
}

/// `30m`, `6h`, `1d`, `2s`: a whole number and one unit.
fn parse_interval(text: &str) -> Result<Duration, String> {
    let interval =
        super::settings::parse_duration(text, MIN_INTERVAL, MAX_INTERVAL, "1s and 366d")?;
    if interval.subsec_nanos() != 0 {
        return Err(format!("{text:?}: whole seconds (s, m, h or d, as in 6h)"));
    }
    Ok(interval)
}

/// Backs `store` up by `plan` until the runtime ends. The first backup is
/// one interval after the start, so that a server restarting in a loop
/// does not replace the good backups with copies of a bad state.
pub(crate) fn spawn(plan: Plan, store: Store) -> tokio::task::JoinHandle<()> {
    tokio::spawn(async move {
        let mut ticks =
            tokio::time::interval_at(tokio::time::Instant::now() + plan.every, plan.every);
        ticks.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            ticks.tick().await;
            match back_up(&plan, &store).await {
                Ok((file, removed)) => {
                    tracing::info!(file = %file.display(), removed, "backup written")
                }
                Err(e) => tracing::error!(
                    dir = %plan.dir.display(),
                    error = format!("{e:#}"),
                    "backup failed; the next turn tries again"
                ),
            }
        }
    })
}

/// One turn: the new backup's path and how many old ones were removed.
async fn back_up(plan: &Plan, store: &Store) -> anyhow::Result<(PathBuf, usize)> {
    let name = backup_name(now_millis());
    let file = plan.dir.join(&name);
    if file.exists() {
        anyhow::bail!("{}: exists already", file.display());
    }
    let partial = plan.dir.join(format!(".{name}{PARTIAL_SUFFIX}"));
    remove_if_present(&partial)?;
    if let Err(e) = store.backup_to(&partial).await {
        let _ = remove_if_present(&partial);
        return Err(e).context("VACUUM INTO");
    }
    let (plan, done) = (plan.clone(), file.clone());
    let removed = tokio::task::spawn_blocking(move || {
        let installed = install(&partial, &done, plan.keep);
        if installed.is_err() {
            let _ = remove_if_present(&partial);
        }
        installed
    })
    .await
    .context("the backup task")??;
    Ok((file, removed))
}

/// Makes the written copy durable, gives it its name, and only then
/// removes the oldest beyond the `keep` newest: a crash leaves the old
/// backups and either no new one or a complete one (for a moment there is
/// one more than `keep`). How many old ones were removed.
fn install(partial: &Path, file: &Path, keep: usize) -> anyhow::Result<usize> {
    std::fs::File::open(partial)
        .and_then(|f| f.sync_all())
        .with_context(|| format!("{}: sync", partial.display()))?;
    let dir = file.parent().unwrap_or(Path::new("."));
    std::fs::rename(partial, file).with_context(|| format!("{}: rename", file.display()))?;
    sync_dir(dir)?;
    prune(dir, keep)
}

/// Persists the directory's entries (a rename) on Unix; elsewhere the
/// rename itself is all there is.
pub(crate) fn sync_dir(dir: &Path) -> anyhow::Result<()> {
    #[cfg(unix)]
    std::fs::File::open(dir)
        .and_then(|d| d.sync_all())
        .with_context(|| format!("{}: sync", dir.display()))?;
    #[cfg(not(unix))]
    let _ = dir;
    Ok(())
}

/// The file name of a backup taken at `millis`.
fn backup_name(millis: i64) -> String {
    format!("{PREFIX}{}.sqlite", utc_stamp(millis))
}

/// `millis` as the UTC second, compact for file names: `20261125T214012Z`.
pub(crate) fn utc_stamp(millis: i64) -> String {
    let stamp = tempo_host::chain::rfc3339_millis(millis.max(0) as u64);
    // 2026-11-25T21:40:12.345Z → 20261125T214012Z
    let compact: String = stamp[..19]
        .chars()
        .filter(|c| *c != '-' && *c != ':')
        .collect();
    format!("{compact}Z")
}

/// Whether `name` is a finished backup's name (only those are pruned).
fn is_backup_name(name: &str) -> bool {
    let Some(stamp) = name
        .strip_prefix(PREFIX)
        .and_then(|rest| rest.strip_suffix(SUFFIX))
    else {
        return false;
    };
    let bytes = stamp.as_bytes();
    bytes.len() == 15
        && bytes[8] == b'T'
        && bytes
            .iter()
            .enumerate()
            .all(|(i, b)| i == 8 || b.is_ascii_digit())
}

/// Removes the oldest backups in `dir` beyond the newest `keep`; their
/// names sort by time. How many went.
fn prune(dir: &Path, keep: usize) -> anyhow::Result<usize> {
    let mut names = backup_names(dir)?;
    names.sort();
    let excess = names.len().saturating_sub(keep);
    for name in &names[..excess] {
        std::fs::remove_file(dir.join(name))
            .with_context(|| format!("{}: remove", dir.join(name).display()))?;
    }
    Ok(excess)
}

/// The finished backups in `dir`, by name.
fn backup_names(dir: &Path) -> anyhow::Result<Vec<String>> {
    let mut names = Vec::new();
    for entry in std::fs::read_dir(dir).with_context(|| format!("{}", dir.display()))? {
        let entry = entry.with_context(|| format!("{}", dir.display()))?;
        if let Some(name) = entry.file_name().to_str()
            && is_backup_name(name)
            && entry.file_type().is_ok_and(|t| t.is_file())
        {
            names.push(name.to_string());
        }
    }
    Ok(names)
}

/// Removes what an interrupted turn left (`.tempo-….sqlite.partial`).
fn remove_partials(dir: &Path) -> anyhow::Result<()> {
    for entry in std::fs::read_dir(dir)? {
        let entry = entry?;
        if let Some(name) = entry.file_name().to_str()
            && let Some(inner) = name
                .strip_prefix('.')
                .and_then(|n| n.strip_suffix(PARTIAL_SUFFIX))
            && is_backup_name(inner)
        {
            remove_if_present(&entry.path())?;
        }
    }
    Ok(())
}

pub(crate) fn remove_if_present(file: &Path) -> anyhow::Result<()> {
    match std::fs::remove_file(file) {
        Err(e) if e.kind() != std::io::ErrorKind::NotFound => {
            Err(e).with_context(|| format!("{}: remove", file.display()))
        }
        _ => Ok(()),
    }
}

/// Milliseconds since the Unix epoch.
pub(crate) fn now_millis() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as i64)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn intervals_read_a_number_and_a_unit() {
        assert_eq!(parse_interval("2s"), Ok(Duration::from_secs(2)));
        assert_eq!(parse_interval("30m"), Ok(Duration::from_secs(1800)));
        assert_eq!(parse_interval("6h"), Ok(Duration::from_secs(6 * 3600)));
        assert_eq!(parse_interval("1d"), Ok(Duration::from_secs(86_400)));
        for bad in [
            "",
            "6",
            "h",
            "6x",
            "-1h",
            "1.5h",
            "0s",
            "367d",
            "6 h",
            "99999999999999999999d",
            "1500ms",
        ] {
            assert!(parse_interval(bad).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn intervals_are_written_in_their_largest_whole_unit() {
        for text in ["2s", "90s", "30m", "6h", "1d", "36h"] {
            let every = parse_interval(text).unwrap();
            assert_eq!(interval_text(every), text);
        }
    }

    #[test]
    fn backup_names_are_the_utc_second_and_sort_by_time() {
        // 2026-11-25T21:40:12.345Z
        let name = backup_name(1_795_642_812_345);
        assert_eq!(name, "tempo-20261125T214012Z.sqlite");
        assert!(is_backup_name(&name));
        assert!(backup_name(1_795_642_812_345) < backup_name(1_795_642_813_000));
        for other in [
            "tempo.sqlite",
            "tempo-20261125T214012Z.sqlite.partial",
            ".tempo-20261125T214012Z.sqlite.partial",
            "tempo-2026112XT214012Z.sqlite",
            "tempo-20261125T21401Z.sqlite",
            "notes.txt",
        ] {
            assert!(!is_backup_name(other), "{other}");
        }
    }

    #[test]
    fn one_server_backs_up_into_a_directory() {
        let dir = std::env::temp_dir().join(format!(
            "tempo-backup-lock-{}-{:x}",
            std::process::id(),
            rand::random::<u64>()
        ));
        std::fs::create_dir_all(&dir).unwrap();
        let first = lock_dir(&dir).unwrap();
        let second = lock_dir(&dir).unwrap_err().to_string();
        assert!(second.contains("another tempo serve backs up"), "{second}");
        drop(first);
        assert!(lock_dir(&dir).is_ok(), "the lock ends with its holder");
        std::fs::remove_dir_all(&dir).ok();
    }

    #[test]
    fn installing_a_backup_keeps_the_old_ones_until_it_is_complete() {
        let dir = std::env::temp_dir().join(format!(
            "tempo-install-{}-{:x}",
            std::process::id(),
            rand::random::<u64>()
        ));
        std::fs::create_dir_all(&dir).unwrap();
        let old = dir.join(backup_name(1_000_000_000_000));
        std::fs::write(&old, b"old").unwrap();
        // A partial copy that cannot be installed (it is gone): the only
        // backup stays.
        let missing = dir.join(format!(
            ".{}{PARTIAL_SUFFIX}",
            backup_name(2_000_000_000_000)
        ));
        let new = dir.join(backup_name(2_000_000_000_000));
        assert!(install(&missing, &new, 1).is_err());
        assert!(old.exists(), "the last good backup was removed first");
        // A complete one: it takes its name, then the old one goes.
        std::fs::write(&missing, b"new").unwrap();
        assert_eq!(install(&missing, &new, 1).unwrap(), 1);
        assert!(!old.exists() && new.exists());
        std::fs::remove_dir_all(&dir).ok();
    }

    #[test]
    fn pruning_keeps_the_newest_and_touches_nothing_else() {
        let dir = std::env::temp_dir().join(format!(
            "tempo-prune-{}-{:x}",
            std::process::id(),
            rand::random::<u64>()
        ));
        std::fs::create_dir_all(&dir).unwrap();
        let times = [
            3_000_000_000_000i64,
            1_000_000_000_000,
            2_000_000_000_000,
            4_000_000_000_000,
        ];
        for t in times {
            std::fs::write(dir.join(backup_name(t)), b"x").unwrap();
        }
        std::fs::write(dir.join("keep-me.sqlite"), b"x").unwrap();
        let partial = format!(".{}{PARTIAL_SUFFIX}", backup_name(5_000_000_000_000));
        std::fs::write(dir.join(&partial), b"x").unwrap();
        assert_eq!(prune(&dir, 2).unwrap(), 2);
        let mut left = backup_names(&dir).unwrap();
        left.sort();
        assert_eq!(
            left,
            [
                backup_name(3_000_000_000_000),
                backup_name(4_000_000_000_000)
            ]
        );
        assert!(dir.join("keep-me.sqlite").exists());
        assert_eq!(prune(&dir, 2).unwrap(), 0);
        remove_partials(&dir).unwrap();
        assert!(!dir.join(&partial).exists());
        assert!(dir.join("keep-me.sqlite").exists());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
