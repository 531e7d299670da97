//! `tempo log verify`: checks a game log saved from the play server
//! (`GET /api/game/{id}/log`) offline.

use std::path::PathBuf;

use anyhow::Context;
use clap::{Args, Subcommand};
use tempo_host::chain::{VerifiedHead, hex, unhex, verify_log};

use super::CodedError;

#[derive(Debug, Args)]
pub(crate) struct LogArgs {
    #[command(subcommand)]
    command: LogCommand,
}

#[derive(Debug, Subcommand)]
enum LogCommand {
    /// Check a saved log: consecutive entries, each hash, each reveal
    /// against its commitment, and with --key the server's signature on
    /// the head (it proves the entries up to the signed seq). Without
    /// --key the signature is not checked, and the output says so. Exit 0,
    /// or 1 naming the first bad seq.
    Verify(VerifyArgs),
}

#[derive(Debug, Args)]
struct VerifyArgs {
    /// The log (NDJSON, one entry per line).
    file: PathBuf,
    /// The server's public key: 64 hex digits, or a file holding them or
    /// the JSON of `GET /api/server-key`.
    #[arg(long)]
    key: Option<String>,
}

/// Largest log read (a game's log is far smaller).
const MAX_LOG_BYTES: u64 = 256 << 20;

pub(crate) fn run(args: &LogArgs) -> anyhow::Result<()> {
    let LogCommand::Verify(args) = &args.command;
    let size = std::fs::metadata(&args.file)
        .with_context(|| format!("{}", args.file.display()))?
        .len();
    if size > MAX_LOG_BYTES {
        anyhow::bail!("{}: larger than {MAX_LOG_BYTES} bytes", args.file.display());
    }
    let text =
        std::fs::read_to_string(&args.file).with_context(|| format!("{}", args.file.display()))?;
    let key = args.key.as_deref().map(read_key).transpose()?;
    match verify_log(&text, key.as_ref()) {
        Ok(head) => {
            println!("{}", verdict(&head));
            Ok(())
        }
        Err(err) => Err(CodedError {
            code: 1,
            message: format!("{}: {err}", args.file.display()),
        }
        .into()),
    }
}

/// The one line of a log that verified: what the chain shows, and what a
/// signature proves — nothing without `--key` (anyone can rewrite a log
/// and compute its hashes again), and with it the entries up to the
/// signed seq only (a log saved earlier, or cut short, ends at a signed
/// head too).
fn verdict(head: &VerifiedHead) -> String {
    let chain = format!(
        "ok: chain intact, {} entries (seq 0..={}), head {}",
        head.seq + 1,
        head.seq,
        hex(&head.hash)
    );
    match head.signed_through {
        None => format!("{chain}; signature NOT checked (no --key)"),
        Some(signed) => format!(
            "{chain}; signature valid: the server signed the head at seq {signed}, which \
             proves entries 0..={signed} (not whether the game went on after it)"
        ),
    }
}

/// The key from hex, or from a file of hex or `{"key":"…"}`.
fn read_key(text: &str) -> anyhow::Result<ed25519_dalek::VerifyingKey> {
    let hex_text = if unhex::<32>(text).is_some() {
        text.to_string()
    } else {
        let content = std::fs::read_to_string(text)
            .with_context(|| format!("--key {text}: neither 64 hex digits nor a readable file"))?;
        match serde_json::from_str::<serde_json::Value>(&content) {
            Ok(value) => value["key"].as_str().unwrap_or_default().to_string(),
            Err(_) => content.trim().to_string(),
        }
    };
    let bytes =
        unhex::<32>(&hex_text).with_context(|| format!("--key {text}: not 64 hex digits"))?;
    ed25519_dalek::VerifyingKey::from_bytes(&bytes)
        .map_err(|e| anyhow::anyhow!("--key {text}: not an ed25519 public key: {e}"))
}
