//! The domain: pure types and rules — accounts, challenges, the server's
//! clock, rate limits, tournaments. Nothing here stores, serves or waits.

pub(crate) mod accounts;
pub(crate) mod challenges;
pub(crate) mod clock;
pub(crate) mod limits;
pub(crate) mod tournaments;

/// A new random id: 12 URL-safe characters (8 bytes of randomness, as
/// lichess's ids), for challenges, games and tournaments.
pub(crate) fn random_id() -> String {
    const ALPHABET: &[u8] = b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
    (0..12)
        .map(|_| char::from(ALPHABET[rand::random_range(0..ALPHABET.len())]))
        .collect()
}
