//! The tamper-evident log: each entry's hash covers the previous hash,
//! its sequence number and its canonical bytes; the server signs heads.
//!
//! An entry's public form is one JSON object (a line of the NDJSON log):
//! `seq`, `prev`, `hash`, `at` (RFC 3339, milliseconds, UTC), `type` and
//! the fields of its kind; the last line of a log the server hands out
//! also carries the server's `signature` on the head. Its **canonical
//! bytes** are that object without `seq`, `prev`, `hash` and `signature`,
//! keys sorted, no spaces (serde_json's compact
//! form of a `Value`, whose maps are sorted), so a saved log line can be
//! verified on its own. `hash = SHA-256(prev ‖ seq as 8 bytes big-endian
//! ‖ canonical bytes)`; the first entry's `prev` is 32 zero bytes.

use ed25519_dalek::{Signature, Signer, SigningKey, Verifier, VerifyingKey};
use serde_json::{Map, Value};
use sha2::{Digest, Sha256};

/// A 32-byte hash (SHA-256).
pub type Hash = [u8; 32];

/// The `prev` of the first entry.
pub const GENESIS: Hash = [0; 32];

/// Lowercase hexadecimal.
pub fn hex(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len() * 2);
    for b in bytes {
        out.push(char::from(b"0123456789abcdef"[usize::from(b >> 4)]));
        out.push(char::from(b"0123456789abcdef"[usize::from(b & 15)]));
    }
    out
}

/// Reads `2 * N` hexadecimal digits.
pub fn unhex<const N: usize>(text: &str) -> Option<[u8; N]> {
    let bytes = text.as_bytes();
    if bytes.len() != 2 * N {
        return None;
    }
    let digit = |c: u8| (c as char).to_digit(16).map(|d| d as u8);
    let mut out = [0u8; N];
    for (i, pair) in bytes.chunks_exact(2).enumerate() {
        out[i] = digit(pair[0])? << 4 | digit(pair[1])?;
    }
    Some(out)
}

/// The canonical bytes of a public entry object (see the module docs).
pub(crate) fn canonical(entry: &Map<String, Value>) -> Vec<u8> {
    let mut content = entry.clone();
    for key in ["seq", "prev", "hash", "signature"] {
        content.remove(key);
    }
    serde_json::to_vec(&Value::Object(content)).expect("a JSON value serialises")
}

/// The hash of an entry with these canonical bytes.
pub(crate) fn entry_hash(prev: &Hash, seq: u64, canonical: &[u8]) -> Hash {
    let mut hasher = Sha256::new();
    hasher.update(prev);
    hasher.update(seq.to_be_bytes());
    hasher.update(canonical);
    hasher.finalize().into()
}

/// Milliseconds since the Unix epoch as RFC 3339 UTC with milliseconds
/// (`2026-11-24T10:34:23.045Z`).
pub fn rfc3339_millis(at: u64) -> String {
    let (secs, millis) = (at / 1000, at % 1000);
    let (days, rest) = (secs / 86_400, secs % 86_400);
    let (year, month, day) = civil_from_days(days as i64);
    format!(
        "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}.{millis:03}Z",
        rest / 3600,
        rest % 3600 / 60,
        rest % 60
    )
}

/// The proleptic Gregorian date of a day number (days since 1970-01-01),
/// by Howard Hinnant's `civil_from_days`.
fn civil_from_days(z: i64) -> (i64, u32, u32) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let month = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let year = yoe + era * 400 + i64::from(month <= 2);
    (year, month, day)
}

/// The server's signature on a head: ed25519 over
/// `"tempo-head-v1" ‖ game id ‖ seq (8 bytes big-endian) ‖ hash`.
pub fn sign_head(key: &SigningKey, game: &str, seq: u64, head: &Hash) -> String {
    hex(&key.sign(&head_message(game, seq, head)).to_bytes())
}

/// Whether `signature` (hex) is `key`'s signature on the head.
pub(crate) fn verify_head(
    key: &VerifyingKey,
    game: &str,
    seq: u64,
    head: &Hash,
    signature: &str,
) -> bool {
    unhex::<64>(signature)
        .map(|bytes| Signature::from_bytes(&bytes))
        .is_some_and(|sig| key.verify(&head_message(game, seq, head), &sig).is_ok())
}

fn head_message(game: &str, seq: u64, head: &Hash) -> Vec<u8> {
    let mut message = b"tempo-head-v1".to_vec();
    message.extend_from_slice(game.as_bytes());
    message.extend_from_slice(&seq.to_be_bytes());
    message.extend_from_slice(head);
    message
}

/// Why a saved log does not verify.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum VerifyError {
    #[error("line {line}: not a JSON object: {reason}")]
    NotAnEntry { line: usize, reason: String },
    #[error("seq {seq}: expected seq {expected}")]
    Sequence { seq: u64, expected: u64 },
    #[error("seq {seq}: prev does not name the hash of the entry before")]
    Prev { seq: u64 },
    #[error("seq {seq}: hash does not match the entry's content")]
    Hash { seq: u64 },
    #[error("seq {seq}: the commitment of {color} does not match the revealed move")]
    Commitment { seq: u64, color: String },
    #[error("the signature on the head (seq {seq}) is not the server key's")]
    Signature { seq: u64 },
    /// A key was given, and no entry carries a signature to check.
    #[error("no signature in the log to check against the key (the last entry is seq {seq})")]
    Unsigned { seq: u64 },
    /// The last signature is on an earlier entry than the last: what
    /// follows it is not proven.
    #[error(
        "the signature proves entries 0..={signed} only; entries {}..={last} are unsigned",
        signed + 1
    )]
    UnsignedTail { signed: u64, last: u64 },
    #[error("the log is empty")]
    Empty,
}

impl VerifyError {
    /// The first bad `seq`, where the error names one.
    pub fn seq(&self) -> Option<u64> {
        match self {
            VerifyError::Sequence { seq, .. }
            | VerifyError::Prev { seq }
            | VerifyError::Hash { seq }
            | VerifyError::Commitment { seq, .. }
            | VerifyError::Signature { seq }
            | VerifyError::Unsigned { seq } => Some(*seq),
            VerifyError::UnsignedTail { signed, .. } => Some(signed + 1),
            VerifyError::NotAnEntry { .. } | VerifyError::Empty => None,
        }
    }
}

/// What a verified log ends with.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct VerifiedHead {
    /// The last entry's sequence number.
    pub seq: u64,
    /// Its hash.
    pub hash: Hash,
    /// Whether the last entry carries a signature, checked against the
    /// key.
    pub signed: bool,
    /// The last seq whose signature was checked: the log is proven up to
    /// it, and only up to it (a signed head says nothing of entries the
    /// game may have logged after it). `None` without a key.
    pub signed_through: Option<u64>,
}

/// Verifies a saved NDJSON log: consecutive `seq` from 0, each `prev` the
/// hash before, each `hash` its content's, every reveal matching its
/// commitments; the server's `signature` on the head (a field of the
/// last entry) is checked against `key` when given. With a key, a log
/// without a signature, or whose last signature is on an earlier entry
/// than its last, does not verify.
pub fn verify_log(text: &str, key: Option<&VerifyingKey>) -> Result<VerifiedHead, VerifyError> {
    let mut prev = GENESIS;
    let mut game = String::new();
    let mut commitments = crate::commit::Commitments::default();
    let mut head: Option<VerifiedHead> = None;
    let mut signed_through = None;
    for (index, line) in text
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
    {
        let not_entry = |reason: &str| VerifyError::NotAnEntry {
            line: index + 1,
            reason: reason.to_string(),
        };
        let value: Value = serde_json::from_str(line).map_err(|e| not_entry(&e.to_string()))?;
        let Value::Object(object) = value else {
            return Err(not_entry("not an object"));
        };
        let seq = object
            .get("seq")
            .and_then(Value::as_u64)
            .ok_or_else(|| not_entry("no seq"))?;
        let expected = head.as_ref().map_or(0, |h| h.seq + 1);
        if seq != expected {
            return Err(VerifyError::Sequence { seq, expected });
        }
        let field = |name: &str| {
            object
                .get(name)
                .and_then(Value::as_str)
                .and_then(unhex::<32>)
        };
        if field("prev") != Some(prev) {
            return Err(VerifyError::Prev { seq });
        }
        let hash = entry_hash(&prev, seq, &canonical(&object));
        if field("hash") != Some(hash) {
            return Err(VerifyError::Hash { seq });
        }
        if seq == 0 {
            game = object
                .get("id")
                .and_then(Value::as_str)
                .unwrap_or("")
                .to_string();
        }
        commitments
            .check(&game, &object)
            .map_err(|color| VerifyError::Commitment { seq, color })?;
        prev = hash;
        let mut signed = false;
        if let (Some(key), Some(signature)) = (key, object.get("signature").and_then(Value::as_str))
        {
            if !verify_head(key, &game, seq, &hash, signature) {
                return Err(VerifyError::Signature { seq });
            }
            signed = true;
            signed_through = Some(seq);
        }
        head = Some(VerifiedHead {
            seq,
            hash,
            signed,
            signed_through,
        });
    }
    let head = head.ok_or(VerifyError::Empty)?;
    if key.is_some() && !head.signed {
        return Err(match signed_through {
            None => VerifyError::Unsigned { seq: head.seq },
            Some(signed) => VerifyError::UnsignedTail {
                signed,
                last: head.seq,
            },
        });
    }
    Ok(head)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_are_rfc3339_utc() {
        assert_eq!(rfc3339_millis(0), "1970-01-01T00:00:00.000Z");
        assert_eq!(rfc3339_millis(951_782_400_007), "2000-02-29T00:00:00.007Z");
        assert_eq!(
            rfc3339_millis(1_795_516_463_045),
            "2026-11-24T10:34:23.045Z"
        );
    }

    #[test]
    fn hex_round_trips() {
        let bytes: [u8; 4] = [0, 0xab, 0x10, 0xff];
        assert_eq!(hex(&bytes), "00ab10ff");
        assert_eq!(unhex::<4>("00ab10ff"), Some(bytes));
        assert_eq!(unhex::<4>("00ab10f"), None);
        assert_eq!(unhex::<4>("00ab10fg"), None);
    }

    #[test]
    fn canonical_bytes_sort_keys_and_leave_out_the_chain_fields() {
        let line = r#"{"type":"x","seq":3,"hash":"h","prev":"p","b":1,"a":[2]}"#;
        let Value::Object(object) = serde_json::from_str(line).unwrap() else {
            unreachable!()
        };
        assert_eq!(canonical(&object), br#"{"a":[2],"b":1,"type":"x"}"#);
    }
}
