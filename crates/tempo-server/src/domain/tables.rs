//! Table games (issue #29): a game played at a table in the club room,
//! each player's phone a hidden input holding a **seat token**. Pure: the
//! players' names, the keys they sit under, the tokens and their hashes.
//!
//! A seat token is `seat_` and 64 hex digits: HMAC-SHA256 over the game,
//! the colour and the seat's generation, with a key derived from the
//! server's signing seed. It is never stored (only its SHA-256, as any
//! token's): the director's page can show a live one again by deriving it.

use sha2::{Digest, Sha256};
use tempo_chess::Color;
use tempo_host::chain::hex;

/// What every seat token begins with (an account's token never does).
pub(crate) const SEAT_PREFIX: &str = "seat_";

/// What the stored player of a guest begins with. A username is 1-32 of
/// `[A-Za-z0-9_-]`, so no member's name can equal a guest's key: no member
/// takes a guest's seat by name.
pub(crate) const GUEST_PREFIX: &str = "guest:";

/// Longest player name at a table, in characters.
pub(crate) const MAX_SITTER_NAME: usize = 50;

/// Longest player name in bytes (the game header's limit).
const MAX_SITTER_BYTES: usize = tempo_host::MAX_NAME;

/// Unfinished friendly table games a director may have at once.
pub(crate) const MAX_OPEN_TABLES: i64 = 50;

/// The label that makes the seat tokens' key from the signing seed (the
/// seed signs logs too; a key of its own for each use).
const SEAT_KEY_LABEL: &[u8] = b"tempo seat tokens v1";

/// Why a player's name at a table is refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub(crate) enum SitterNameError {
    #[error("{0}.name: 1 to {MAX_SITTER_NAME} characters")]
    Length(&'static str),
    #[error("{0}.name: no control characters")]
    Control(&'static str),
    #[error("white and black must be two different players")]
    Same,
}

/// A player's name as given, trimmed and checked (`side` names the field).
pub(crate) fn sitter_name(side: &'static str, name: &str) -> Result<String, SitterNameError> {
    let name = name.trim();
    let chars = name.chars().count();
    if chars == 0 || chars > MAX_SITTER_NAME || name.len() > MAX_SITTER_BYTES {
        return Err(SitterNameError::Length(side));
    }
    if name.chars().any(char::is_control) {
        return Err(SitterNameError::Control(side));
    }
    Ok(name.to_string())
}

/// Whether two names at one table are one player's (case aside).
pub(crate) fn same_sitter(a: &str, b: &str) -> bool {
    a.to_lowercase() == b.to_lowercase()
}

/// The stored player (the games row's column) of a guest named `name`.
pub(crate) fn guest_key(name: &str) -> String {
    format!("{GUEST_PREFIX}{name}")
}

/// Whether a game's stored player is a guest (no account).
pub(crate) fn is_guest_key(key: &str) -> bool {
    key.starts_with(GUEST_PREFIX)
}

/// Whether a Bearer token is meant as a seat token.
pub(crate) fn is_seat_token(token: &str) -> bool {
    token.starts_with(SEAT_PREFIX)
}

/// HMAC-SHA256 (RFC 2104) of `message` under `key`.
fn hmac_sha256(key: &[u8], message: &[u8]) -> [u8; 32] {
    const BLOCK: usize = 64;
    let mut block = [0u8; BLOCK];
    if key.len() > BLOCK {
        block[..32].copy_from_slice(&Sha256::digest(key));
    } else {
        block[..key.len()].copy_from_slice(key);
    }
    let pad = |byte: u8| block.map(|b| b ^ byte);
    let inner = Sha256::new()
        .chain_update(pad(0x36))
        .chain_update(message)
        .finalize();
    Sha256::new()
        .chain_update(pad(0x5c))
        .chain_update(inner)
        .finalize()
        .into()
}

/// The key of seat tokens, from the server's signing seed.
#[derive(Clone)]
pub(crate) struct SeatKey([u8; 32]);

impl std::fmt::Debug for SeatKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("SeatKey(…)")
    }
}

impl SeatKey {
    pub(crate) fn from_seed(seed: &[u8; 32]) -> SeatKey {
        SeatKey(hmac_sha256(seed, SEAT_KEY_LABEL))
    }

    /// The token of seat `color` of game `game` in its `generation`.
    pub(crate) fn token(&self, game: &str, color: Color, generation: u32) -> String {
        // The game id holds no newline (ids are [A-Za-z0-9_-]).
        let message = format!("{game}\n{color}\n{generation}");
        format!(
            "{SEAT_PREFIX}{}",
            hex(&hmac_sha256(&self.0, message.as_bytes()))
        )
    }
}

/// The stored form of a seat token (as of an account's token).
pub(crate) fn seat_hash(token: &str) -> String {
    crate::domain::accounts::token_hash(token)
}

/// The input page of a seat: the token in the fragment, which a browser
/// sends to no server (not in the request line, not in a Referer).
pub(crate) fn seat_url(game: &str, token: &str) -> String {
    format!("/table/{game}/play#{token}")
}

/// The display page of a table game.
pub(crate) fn display_url(game: &str) -> String {
    format!("/table/{game}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hmac_matches_rfc_4231() {
        // Test case 2.
        let mac = hmac_sha256(b"Jefe", b"what do ya want for nothing?");
        assert_eq!(
            hex(&mac),
            "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"
        );
        // Test case 6: a key longer than a block.
        let mac = hmac_sha256(
            &[0xaa; 131],
            b"Test Using Larger Than Block-Size Key - Hash Key First",
        );
        assert_eq!(
            hex(&mac),
            "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54"
        );
    }

    #[test]
    fn tokens_differ_by_game_colour_generation_and_key() {
        let key = SeatKey::from_seed(&[7; 32]);
        let token = key.token("g1", Color::White, 1);
        assert!(
            token.starts_with(SEAT_PREFIX) && token.len() == 5 + 64,
            "{token}"
        );
        assert!(is_seat_token(&token));
        assert_eq!(token, key.token("g1", Color::White, 1));
        for other in [
            key.token("g2", Color::White, 1),
            key.token("g1", Color::Black, 1),
            key.token("g1", Color::White, 2),
            SeatKey::from_seed(&[8; 32]).token("g1", Color::White, 1),
        ] {
            assert_ne!(token, other);
        }
        assert_ne!(seat_hash(&token), token);
    }

    #[test]
    fn names_are_trimmed_and_bounded() {
        assert_eq!(sitter_name("white", "  Anna B. ").unwrap(), "Anna B.");
        assert_eq!(
            sitter_name("white", "   "),
            Err(SitterNameError::Length("white"))
        );
        let long = "x".repeat(MAX_SITTER_NAME + 1);
        assert_eq!(
            sitter_name("black", &long),
            Err(SitterNameError::Length("black"))
        );
        assert!(sitter_name("black", &"ü".repeat(MAX_SITTER_NAME)).is_err());
        assert!(sitter_name("black", &"ü".repeat(30)).is_ok());
        assert_eq!(
            sitter_name("white", "a\u{7}b"),
            Err(SitterNameError::Control("white"))
        );
        assert!(same_sitter("Anna", "aNNA"));
        assert!(!same_sitter("Anna", "Ann"));
    }

    #[test]
    fn a_guest_key_is_no_username() {
        let key = guest_key("anna");
        assert!(is_guest_key(&key));
        assert!(crate::domain::accounts::check_name(&key).is_err());
        assert!(!is_guest_key("anna"));
    }

    #[test]
    fn the_seat_url_keeps_the_token_in_the_fragment() {
        assert_eq!(seat_url("g1", "seat_ab"), "/table/g1/play#seat_ab");
        assert_eq!(display_url("g1"), "/table/g1");
    }
}
