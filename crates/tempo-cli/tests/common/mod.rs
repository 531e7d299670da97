//! Helpers shared by the tests that run the `tempo` binary as a process.
#![allow(dead_code)] // each test file uses its own part

use std::io::Write as _;
use std::path::PathBuf;
use std::process::{Command, Output, Stdio};

/// A new scratch directory `tempo-<name>-<pid>-<random>`.
pub fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!(
        "tempo-{name}-{}-{:x}",
        std::process::id(),
        rand::random::<u32>()
    ));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// `tempo ARGS` with `stdin` as its standard input, run to its end.
pub fn tempo_with_stdin(args: &[&str], stdin: &str) -> Output {
    let mut command = Command::new(env!("CARGO_BIN_EXE_tempo"));
    command.args(args);
    run_with_stdin(command, stdin)
}

/// Runs `command` to its end with `stdin` as its standard input, its
/// output captured.
pub fn run_with_stdin(mut command: Command, stdin: &str) -> Output {
    let mut child = command
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("runs");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(stdin.as_bytes())
        .unwrap();
    child.wait_with_output().expect("finishes")
}
