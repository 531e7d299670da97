//! Limits on a request's head, checked before routing so that the refusal
//! is the API's one line of JSON. They sit below hyper's own limits
//! ([`super::HYPER_MAX_BUF`], [`super::HYPER_MAX_HEADERS`]), which answer
//! with an empty body: only a head too large even for those, or one that
//! is not HTTP, gets hyper's bare answer.

use axum::extract::Request;
use axum::http::StatusCode;
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

use crate::http::error::ApiError;

/// Longest request target (path and query).
pub const MAX_URI_BYTES: usize = 8 * 1024;
/// Largest request head: the target and every header's name and value.
pub const MAX_HEAD_BYTES: usize = 16 * 1024;
/// Most header lines in a request.
pub const MAX_HEADERS: usize = 100;

/// Refuses a request whose target is too long (414) or whose headers are
/// too many or too large (431).
pub(crate) async fn limits(request: Request, next: Next) -> Response {
    let uri = request.uri().to_string().len();
    if uri > MAX_URI_BYTES {
        return ApiError::of_status(
            StatusCode::URI_TOO_LONG,
            format!("the request target is {uri} bytes; at most {MAX_URI_BYTES}"),
        )
        .into_response();
    }
    let headers = request.headers();
    if headers.len() > MAX_HEADERS {
        return too_large(format!(
            "{} header lines; at most {MAX_HEADERS}",
            headers.len()
        ));
    }
    let head = uri
        + headers
            .iter()
            .map(|(name, value)| name.as_str().len() + value.len() + 4)
            .sum::<usize>();
    if head > MAX_HEAD_BYTES {
        return too_large(format!(
            "the request head is {head} bytes; at most {MAX_HEAD_BYTES}"
        ));
    }
    next.run(request).await
}

fn too_large(message: String) -> Response {
    ApiError::of_status(StatusCode::REQUEST_HEADER_FIELDS_TOO_LARGE, message).into_response()
}
