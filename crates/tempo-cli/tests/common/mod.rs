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

/// Starts `command` (a `tempo serve … --listen HOST:0`) and waits for its
/// first line, `tempo: serving on http://ADDRESS`; the rest of its output
/// is drained so the pipe never fills. The process and its address.
pub fn start_serve(mut command: Command) -> (std::process::Child, String) {
    use std::io::{BufRead as _, BufReader, Read as _};
    let mut child = command
        .env("RUST_LOG", "warn")
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .expect("tempo serve starts");
    let mut stdout = BufReader::new(child.stdout.take().unwrap());
    let mut line = String::new();
    stdout.read_line(&mut line).unwrap();
    let address = line
        .trim()
        .strip_prefix("tempo: serving on http://")
        .unwrap_or_else(|| panic!("tempo serve printed {line:?}"))
        .to_string();
    std::thread::spawn(move || {
        let mut sink = String::new();
        let _ = stdout.read_to_string(&mut sink);
    });
    (child, address)
}
