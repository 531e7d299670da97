//! Every ` ```console ` example of `README.md` and `docs/**/*.md` runs as shown.
//!
//! A line starting with `$ ` is a command (a line ending in `\` continues on the next); the
//! lines after it, up to the next command or the end of the block, are what it prints,
//! standard output and standard error together. A command ending in `# output varies` must
//! succeed, but its output is not compared. `TEMPO_BLESS_DOCS=1` rewrites the expected outputs
//! in place (see `docs/development.md`).

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

const VARIES: &str = "# output varies";

/// One `$ command` of a console block and the lines it must print.
struct Example {
    /// 1-based line of the `$ ` line.
    line: usize,
    command: String,
    /// Index range (0-based, end exclusive) of the expected lines in the file's lines.
    expected: std::ops::Range<usize>,
}

fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn markdown_files(root: &Path) -> Vec<PathBuf> {
    let mut files = vec![root.join("README.md")];
    let mut dirs = vec![root.join("docs")];
    while let Some(dir) = dirs.pop() {
        for entry in fs::read_dir(&dir).expect("docs/ is readable") {
            let path = entry.expect("a docs/ entry").path();
            if path.is_dir() {
                dirs.push(path);
            } else if path.extension().is_some_and(|e| e == "md") {
                files.push(path);
            }
        }
    }
    files.sort();
    files
}

fn examples(lines: &[&str]) -> Vec<Example> {
    let mut found = Vec::new();
    let mut in_console = false;
    let mut i = 0;
    while i < lines.len() {
        let line = lines[i];
        if !in_console {
            in_console = line.trim_end() == "```console";
            i += 1;
            continue;
        }
        if line.starts_with("```") {
            in_console = false;
            i += 1;
            continue;
        }
        let Some(first) = line.strip_prefix("$ ") else {
            panic!(
                "line {}: console block text outside a command's output",
                i + 1
            );
        };
        let start_line = i + 1;
        let mut command = first.to_string();
        while command.ends_with('\\') && i + 1 < lines.len() {
            command.pop();
            i += 1;
            command.push_str(lines[i]);
        }
        i += 1;
        let out_start = i;
        while i < lines.len() && !lines[i].starts_with("$ ") && !lines[i].starts_with("```") {
            i += 1;
        }
        found.push(Example {
            line: start_line,
            command,
            expected: out_start..i,
        });
    }
    assert!(!in_console, "a ```console block is not closed");
    found
}

/// Runs `command` with `sh` from the repository root, the built `tempo` first on `PATH`.
fn run(root: &Path, command: &str) -> (bool, String) {
    let bin_dir = Path::new(env!("CARGO_BIN_EXE_tempo")).parent().unwrap();
    let path = format!(
        "{}:{}",
        bin_dir.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let output = Command::new("sh")
        .arg("-c")
        .arg(format!("{{\n{command}\n}} 2>&1"))
        .current_dir(root)
        .env("PATH", path)
        .output()
        .expect("sh runs");
    let text = String::from_utf8_lossy(&output.stdout).into_owned();
    (
        output.status.success(),
        text.trim_end_matches('\n').to_string(),
    )
}

#[test]
fn documentation_examples_run_as_shown() {
    let root = repo_root();
    let bless = std::env::var_os("TEMPO_BLESS_DOCS").is_some();
    let mut failures = Vec::new();
    let mut count = 0;
    for file in markdown_files(&root) {
        let text = fs::read_to_string(&file).expect("markdown is readable");
        let lines: Vec<&str> = text.lines().collect();
        let mut rewritten: Vec<String> = Vec::new();
        let mut copied = 0;
        let name = file
            .strip_prefix(&root)
            .unwrap_or(&file)
            .display()
            .to_string();
        for example in examples(&lines) {
            count += 1;
            let (ok, actual) = run(&root, &example.command);
            let expected = lines[example.expected.clone()].join("\n");
            let varies = example.command.trim_end().ends_with(VARIES);
            if varies {
                if !ok {
                    failures.push(format!(
                        "{name}:{}: `{}` failed:\n{actual}",
                        example.line, example.command
                    ));
                }
                continue;
            }
            if actual != expected {
                if bless {
                    rewritten.extend(
                        lines[copied..example.expected.start]
                            .iter()
                            .map(|l| l.to_string()),
                    );
                    rewritten.extend(actual.lines().map(str::to_string));
                    copied = example.expected.end;
                } else {
                    failures.push(format!(
                        "{name}:{}: `{}`\n--- documented\n{expected}\n--- printed\n{actual}",
                        example.line, example.command
                    ));
                }
            }
        }
        if bless && copied > 0 {
            rewritten.extend(lines[copied..].iter().map(|l| l.to_string()));
            fs::write(&file, rewritten.join("\n") + "\n").expect("markdown is writable");
        }
    }
    assert!(count > 0, "no documentation examples found");
    assert!(
        failures.is_empty(),
        "{} of {count} documentation examples differ (TEMPO_BLESS_DOCS=1 rewrites them):\n\n{}",
        failures.len(),
        failures.join("\n\n")
    );
}

#[test]
fn console_blocks_are_parsed_into_commands_and_outputs() {
    let text = "text\n```console\n$ tempo a \\\n  --b\none\ntwo\n$ tempo c # output varies\n```\n";
    let lines: Vec<&str> = text.lines().collect();
    let found = examples(&lines);
    assert_eq!(found.len(), 2);
    assert_eq!(found[0].command, "tempo a   --b");
    assert_eq!(found[0].line, 3);
    assert_eq!(lines[found[0].expected.clone()], ["one", "two"]);
    assert!(found[1].expected.is_empty());
}
