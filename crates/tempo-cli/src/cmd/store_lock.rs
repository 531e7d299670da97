//! One server per SQLite store: `tempo serve --data DIR` holds an
//! exclusive lock on `DIR/tempo.lock` for its lifetime, and so does
//! `tempo restore` while it swaps the store. SQLite's own locking lets two
//! servers share the file, but each keeps its games in memory, so both
//! would show stale state.
//!
//! The lock is the operating system's (`flock` on Unix): it ends with the
//! process, also on `kill -9`, so a stale file never blocks a start. The
//! file is left in place on exit; removing it would let a third process
//! lock a new file while a second still waits on the old one.

use std::fs::{File, OpenOptions, TryLockError};
use std::io::{Read as _, Seek as _, Write as _};
use std::path::Path;

use anyhow::Context;

/// The lock file's name in the data directory.
const LOCK_FILE: &str = "tempo.lock";

/// Who holds (or wants) the lock, for messages.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Holder {
    Serve,
    Restore,
}

impl Holder {
    fn command(self) -> &'static str {
        match self {
            Holder::Serve => "tempo serve",
            Holder::Restore => "tempo restore",
        }
    }
}

/// The held lock; released when dropped (or when the process ends).
#[derive(Debug)]
pub(crate) struct StoreLock {
    _file: File,
}

impl StoreLock {
    /// Locks the data directory `dir` (created if missing) for `holder`,
    /// or says which process holds it.
    pub(crate) fn acquire(dir: &Path, holder: Holder) -> anyhow::Result<StoreLock> {
        std::fs::create_dir_all(dir).with_context(|| format!("--data {}", dir.display()))?;
        let path = dir.join(LOCK_FILE);
        // Not truncated on open: the holder's pid stays readable until
        // this process has the lock.
        let mut file = OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(false)
            .open(&path)
            .with_context(|| format!("--data {}: cannot open {LOCK_FILE}", dir.display()))?;
        match file.try_lock() {
            Ok(()) => {}
            Err(TryLockError::WouldBlock) => {
                let other = describe_holder(&mut file);
                anyhow::bail!(
                    "--data {}: {other} is using this store already; {}",
                    dir.display(),
                    match holder {
                        Holder::Serve => "one server per SQLite store",
                        Holder::Restore => "stop the server before restoring",
                    }
                );
            }
            Err(TryLockError::Error(e)) => {
                return Err(e).with_context(|| format!("{}: cannot lock it", path.display()));
            }
        }
        let written = file
            .set_len(0)
            .and_then(|()| file.rewind())
            .and_then(|()| writeln!(file, "{}\n{}", std::process::id(), holder.command()));
        written.with_context(|| format!("{}: cannot write it", path.display()))?;
        Ok(StoreLock { _file: file })
    }
}

/// "tempo serve (pid 4242)" from the lock file, or a vaguer phrase when
/// the holder has not written it yet.
fn describe_holder(file: &mut File) -> String {
    let mut text = String::new();
    let _ = file.take(256).read_to_string(&mut text);
    let mut lines = text.lines();
    let pid = lines.next().and_then(|l| l.trim().parse::<u32>().ok());
    let command = lines
        .next()
        .filter(|c| *c == "tempo serve" || *c == "tempo restore")
        .unwrap_or("another tempo process");
    match pid {
        Some(pid) => format!("{command} (pid {pid})"),
        None => command.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_second_lock_on_a_directory_is_refused_with_the_holders_pid() {
        let dir = std::env::temp_dir().join(format!(
            "tempo-lock-{}-{:x}",
            std::process::id(),
            rand::random::<u64>()
        ));
        let first = StoreLock::acquire(&dir, Holder::Serve).unwrap();
        // A second open file description: the lock excludes it as it
        // would another process.
        let err = StoreLock::acquire(&dir, Holder::Serve).unwrap_err();
        let message = err.to_string();
        assert!(message.contains(&dir.display().to_string()), "{message}");
        assert!(
            message.contains(&format!("tempo serve (pid {})", std::process::id())),
            "{message}"
        );
        let restore = StoreLock::acquire(&dir, Holder::Restore).unwrap_err();
        assert!(restore.to_string().contains("stop the server"), "{restore}");
        drop(first);
        let again = StoreLock::acquire(&dir, Holder::Restore).unwrap();
        let text = std::fs::read_to_string(dir.join(LOCK_FILE)).unwrap();
        assert_eq!(text, format!("{}\ntempo restore\n", std::process::id()));
        drop(again);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
