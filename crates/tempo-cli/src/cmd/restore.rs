//! `tempo restore BACKUP --data DIR`: installs a backup as the SQLite
//! store of a stopped server. The backup is copied beside the store and
//! checked there (SQLite's integrity check, tempo's tables); the current
//! store is kept aside as `tempo.sqlite.before-restore-<UTC time>`, with
//! its write-ahead log, which may hold its last commits; then the copy
//! takes its name.

use std::path::{Path, PathBuf};

use anyhow::Context;
use clap::Args;

use super::backups::{now_millis, remove_if_present, sync_dir, utc_stamp};
use super::store_lock::{Holder, StoreLock};

#[derive(Debug, Args)]
pub(crate) struct RestoreArgs {
    /// The backup to install (written by `tempo backup` or `tempo serve
    /// --backup-every`).
    backup: PathBuf,
    /// The data directory of the SQLite store to replace; its server must
    /// be stopped.
    #[arg(long, env = "TEMPO_DATA", default_value = "tempo-data")]
    data: PathBuf,
}

const STORE: &str = "tempo.sqlite";
/// SQLite's companions of a database file in WAL mode.
const WAL: &str = "-wal";
const SHM: &str = "-shm";

pub(crate) fn run(args: &RestoreArgs) -> anyhow::Result<()> {
    let backup = &args.backup;
    let metadata = std::fs::metadata(backup).with_context(|| format!("{}", backup.display()))?;
    if !metadata.is_file() {
        anyhow::bail!("{}: not a file", backup.display());
    }
    let data = &args.data;
    let _lock = StoreLock::acquire(data, Holder::Restore)?;
    let staged = data.join(format!("{STORE}.restoring"));
    remove_with_companions(&staged)?;
    let copy = |from: &Path, to: &Path| {
        std::fs::copy(from, to)
            .with_context(|| format!("copying {} to {}", from.display(), to.display()))
    };
    copy(backup, &staged)?;
    // A store kept aside (or copied from a stopped server) may have its
    // last commits in its write-ahead log: they come with it, and the
    // check folds them into the copy.
    let backup_wal = companion(backup, WAL);
    if backup_wal.is_file() {
        copy(&backup_wal, &companion(&staged, WAL))?;
    }
    let checked = tokio::runtime::Builder::new_current_thread()
        .build()
        .context("starting the async runtime")?
        .block_on(tempo_server::store::check_store_file(&staged));
    let summary = match checked {
        Ok(summary) => summary,
        Err(e) => {
            let _ = remove_with_companions(&staged);
            anyhow::bail!("{}: not restored: {e}", backup.display());
        }
    };
    // The check folded the copy's log into it and closed; a stray log
    // must never be taken for the installed store's.
    remove_with_companions_only(&staged)?;
    std::fs::File::open(&staged)
        .and_then(|f| f.sync_all())
        .with_context(|| format!("{}: sync", staged.display()))?;

    let live = data.join(STORE);
    let aside = keep_aside(data, &live)?;
    std::fs::rename(&staged, &live)
        .with_context(|| format!("{} to {}", staged.display(), live.display()))?;
    sync_dir(data)?;
    let kept = match &aside {
        Some(aside) => format!("; the previous store is kept as {}", aside.display()),
        None => String::new(),
    };
    println!(
        "restored {} from {}: {} accounts, {} games{kept}",
        live.display(),
        backup.display(),
        summary.accounts,
        summary.games
    );
    Ok(())
}

/// Moves the current store (and its write-ahead log, whose commits belong
/// to it) to `tempo.sqlite.before-restore-<UTC time>`; the shared-memory
/// index is rebuilt by SQLite and is removed. The new name, if there was a
/// store.
fn keep_aside(data: &Path, live: &Path) -> anyhow::Result<Option<PathBuf>> {
    let live_wal = companion(live, WAL);
    if !live.exists() && !live_wal.exists() {
        remove_if_present(&companion(live, SHM))?;
        return Ok(None);
    }
    let stamp = utc_stamp(now_millis());
    let aside = (1..100)
        .map(|n| match n {
            1 => data.join(format!("{STORE}.before-restore-{stamp}")),
            n => data.join(format!("{STORE}.before-restore-{stamp}-{n}")),
        })
        .find(|aside| !aside.exists() && !companion(aside, WAL).exists())
        .with_context(|| format!("{}: too many stores kept aside this second", data.display()))?;
    if live.exists() {
        std::fs::rename(live, &aside)
            .with_context(|| format!("{} to {}", live.display(), aside.display()))?;
    }
    if live_wal.exists() {
        let aside_wal = companion(&aside, WAL);
        std::fs::rename(&live_wal, &aside_wal)
            .with_context(|| format!("{} to {}", live_wal.display(), aside_wal.display()))?;
    }
    remove_if_present(&companion(live, SHM))?;
    Ok(Some(aside))
}

/// `file` with SQLite's suffix (`tempo.sqlite-wal`).
fn companion(file: &Path, suffix: &str) -> PathBuf {
    let mut name = file.as_os_str().to_owned();
    name.push(suffix);
    PathBuf::from(name)
}

fn remove_with_companions(file: &Path) -> anyhow::Result<()> {
    remove_if_present(file)?;
    remove_with_companions_only(file)
}

fn remove_with_companions_only(file: &Path) -> anyhow::Result<()> {
    remove_if_present(&companion(file, WAL))?;
    remove_if_present(&companion(file, SHM))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn companions_are_named_as_sqlite_names_them() {
        let file = Path::new("/d/tempo.sqlite.before-restore-20261125T214012Z");
        assert_eq!(
            companion(file, WAL),
            Path::new("/d/tempo.sqlite.before-restore-20261125T214012Z-wal")
        );
    }
}
