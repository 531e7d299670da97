//! Numbers in a route's path (a round, a player): a text that is no
//! number from 1 on names nothing, so it is not found.

use super::error::ApiError;
use crate::domain::tournaments::Refusal;

/// `text` as a number from 1, or 404 naming `what` and (the start of) `text`.
pub(super) fn number(what: &str, text: &str) -> Result<u32, ApiError> {
    text.parse::<u32>().ok().filter(|&n| n > 0).ok_or_else(|| {
        Refusal::NotFound(format!(
            "{what} {}",
            text.chars().take(12).collect::<String>()
        ))
        .into()
    })
}
