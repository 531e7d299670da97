//! Commitments to hidden choices: `SHA-256("tempo-commit-v1" ‖ game id ‖
//! step ‖ colour ‖ choice ‖ nonce)` — the step as 4 bytes big-endian, the
//! colour as the letter `w` or `b`, the choice as the log writes it (UCI,
//! `x` + UCI, `-`), the nonce's 32 bytes — published when a player commits;
//! the reveal publishes the choice and the 32-byte nonce, so anyone can
//! check afterwards that the server did not change a move.

use serde_json::{Map, Value};
use sha2::{Digest, Sha256};
use tempo_chess::Color;

use crate::chain::{hex, unhex};

/// A nonce: 32 random bytes, drawn by the server for each commit.
pub type Nonce = [u8; 32];

/// The commitment (hex) to `choice` (the choice as written in the log:
/// UCI, `x` + UCI for an exchange capture, `-` for a decline) of `color`
/// in step `step` of game `game`.
pub(crate) fn commitment(
    game: &str,
    step: u32,
    color: Color,
    choice: &str,
    nonce: &Nonce,
) -> String {
    let mut hasher = Sha256::new();
    hasher.update(b"tempo-commit-v1");
    hasher.update(game.as_bytes());
    hasher.update(step.to_be_bytes());
    hasher.update([color.char() as u8]);
    hasher.update(choice.as_bytes());
    hasher.update(nonce);
    hex(&hasher.finalize())
}

/// The commitments of a log read so far, to check each reveal against
/// (by [`crate::chain::verify_log`]).
#[derive(Debug, Default)]
pub(crate) struct Commitments {
    /// `(step, colour letter)` → commitment.
    open: Vec<(u64, String, String)>,
}

impl Commitments {
    /// Takes note of a `committed` entry, or checks a `reveal` entry's
    /// choices against the commitments of its step; the colour whose
    /// choice does not match is the error.
    pub(crate) fn check(&mut self, game: &str, entry: &Map<String, Value>) -> Result<(), String> {
        let text = |v: &Value, k: &str| v.get(k).and_then(Value::as_str).map(str::to_string);
        let step = entry.get("step").and_then(Value::as_u64);
        match (entry.get("type").and_then(Value::as_str), step) {
            (Some("committed"), Some(step)) => {
                let object = Value::Object(entry.clone());
                if let (Some(color), Some(c)) =
                    (text(&object, "color"), text(&object, "commitment"))
                {
                    self.open.push((step, color, c));
                }
            }
            (Some("reveal"), Some(step)) => {
                for (open_step, color, open) in std::mem::take(&mut self.open) {
                    if open_step != step {
                        continue;
                    }
                    let revealed = entry.get(&color);
                    let choice = revealed.and_then(|r| text(r, "choice"));
                    let nonce = revealed
                        .and_then(|r| text(r, "nonce"))
                        .and_then(|n| unhex::<32>(&n));
                    let side = if color == "white" {
                        Color::White
                    } else {
                        Color::Black
                    };
                    let ok = match (choice, nonce, u32::try_from(step)) {
                        (Some(choice), Some(nonce), Ok(step)) => {
                            commitment(game, step, side, &choice, &nonce) == open
                        }
                        _ => false,
                    };
                    if !ok {
                        return Err(color);
                    }
                }
            }
            _ => {}
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn commitments_bind_every_field() {
        let nonce = [7u8; 32];
        let base = commitment("g1", 3, Color::White, "e2e4", &nonce);
        assert_eq!(base.len(), 64);
        assert_eq!(base, commitment("g1", 3, Color::White, "e2e4", &nonce));
        for other in [
            commitment("g2", 3, Color::White, "e2e4", &nonce),
            commitment("g1", 4, Color::White, "e2e4", &nonce),
            commitment("g1", 3, Color::Black, "e2e4", &nonce),
            commitment("g1", 3, Color::White, "e2e3", &nonce),
            commitment("g1", 3, Color::White, "e2e4", &[8u8; 32]),
        ] {
            assert_ne!(base, other);
        }
    }
}
