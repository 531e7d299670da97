//! The domain: pure types and rules — accounts, challenges, the server's
//! clock, rate limits, tournaments. Nothing here stores, serves or waits.

pub(crate) mod accounts;
pub(crate) mod challenge_params;
pub(crate) mod challenges;
pub(crate) mod clock;
pub(crate) mod limits;
pub(crate) mod mail;
pub(crate) mod qr;
pub(crate) mod ratings;
pub(crate) mod tables;
pub(crate) mod tournaments;

/// A new random id: 12 URL-safe characters (8 bytes of randomness, as
/// lichess's ids), for challenges, games and tournaments.
pub(crate) fn random_id() -> String {
    const ALPHABET: &[u8] = b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
    (0..12)
        .map(|_| char::from(ALPHABET[rand::random_range(0..ALPHABET.len())]))
        .collect()
}

/// Whether `text` could be an id of this server: 1 to 64 ASCII letters,
/// digits, `_` or `-` (what [`random_id`] makes, and room for ids made by
/// hand, as in tests). Anything else names nothing and is not looked up.
pub(crate) fn is_id(text: &str) -> bool {
    (1..=64).contains(&text.len())
        && text
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-')
}

/// A page of a list: `size` items from the `index`-th page (from 0).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Page {
    pub index: u32,
    pub size: u32,
}

impl Page {
    /// The items before the page.
    pub fn offset(self) -> i64 {
        i64::from(self.index) * i64::from(self.size)
    }

    /// The items of the page out of all of `items`, and whether more
    /// follow.
    pub fn of<T>(self, items: Vec<T>) -> (Vec<T>, bool) {
        let start = usize::try_from(self.offset()).unwrap_or(usize::MAX);
        let total = items.len();
        let page: Vec<T> = items
            .into_iter()
            .skip(start)
            .take(self.size as usize)
            .collect();
        let more = start.saturating_add(page.len()) < total;
        (page, more)
    }
}
