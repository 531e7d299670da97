//! Paged lists: `?page=` (from 0) and `?nb=` (items a page, lichess's
//! name), and `nextPage` in the answer — the page to ask for next, `null`
//! on the last — so a client walks a list of any length. A client that
//! sends neither gets the first page at the list's largest size, as the
//! unpaged list answered before.

use axum::http::StatusCode;
use serde::Deserialize;
use utoipa::IntoParams;

use super::codes::Code;
use super::error::ApiError;
use crate::domain::Page;

/// Pages a list has at most (with `nb=1`, a list of this many items).
pub(crate) const MAX_PAGE: u32 = 1_000_000;

/// Which page of a list.
#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub(crate) struct PageQuery {
    /// The page, from 0.
    #[serde(default)]
    #[param(minimum = 0, maximum = 1_000_000)]
    pub page: u32,
    /// Items a page: 1 to the list's largest (its default).
    #[param(minimum = 1)]
    pub nb: Option<u32>,
}

impl PageQuery {
    /// The page asked for, in a list of at most `largest` items a page.
    pub(crate) fn page(&self, largest: u32) -> Result<Page, ApiError> {
        let size = match self.nb {
            None => largest,
            Some(nb) if (1..=largest).contains(&nb) => nb,
            Some(nb) => {
                return Err(ApiError::new(
                    StatusCode::BAD_REQUEST,
                    Code::BadPage,
                    format!("nb: 1 to {largest} items a page, not {nb}"),
                ));
            }
        };
        if self.page > MAX_PAGE {
            return Err(ApiError::new(
                StatusCode::BAD_REQUEST,
                Code::BadPage,
                format!("page: 0 to {MAX_PAGE}, not {}", self.page),
            ));
        }
        Ok(Page {
            index: self.page,
            size,
        })
    }
}

/// The `nextPage` of an answer: the page after `page` if `more` follow.
pub(crate) fn next_page(page: Page, more: bool) -> Option<u32> {
    more.then_some(page.index + 1)
}
