//! A reader that closes the pipe early (`tempo … | head -1`) ends tempo
//! quietly, as any Unix filter: no panic, no message.

#[cfg(unix)]
#[test]
fn closed_pipe_ends_quietly() {
    use std::io::Read;
    use std::os::unix::process::ExitStatusExt;
    use std::process::{Command, Stdio};

    let mut child = Command::new(env!("CARGO_BIN_EXE_tempo"))
        .args(["berger", "400"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("tempo runs");
    let mut first = [0u8; 16];
    child
        .stdout
        .take()
        .expect("piped stdout")
        .read_exact(&mut first)
        .expect("some output");
    // The read end is closed here, long before 79,800 lines (1.2 MB) are written.
    let output = child.wait_with_output().expect("tempo ends");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(!stderr.contains("panicked"), "{stderr}");
    assert!(
        output.status.success() || output.status.signal() == Some(13),
        "{:?}",
        output.status
    );
}
