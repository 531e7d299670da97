//! The web app: its files are embedded in the binary (see `build.rs`) and
//! served from `/assets/…`; every page address answers with the app's one
//! HTML page, whose script shows the page the address names.

use std::collections::HashMap;
use std::sync::OnceLock;

use axum::body::Body;
use axum::http::{HeaderMap, HeaderValue, Method, StatusCode, Uri, header};
use axum::response::{IntoResponse, Response};
use sha2::{Digest, Sha256};

use super::error::ApiError;

mod embedded {
    include!(concat!(env!("OUT_DIR"), "/assets.rs"));
}

/// The addresses of the app's pages (the first path segment; `""` is home).
pub(crate) const PAGES: &[&str] = &[
    "",
    "login",
    "game",
    "archive",
    "log",
    "arbiter",
    "rules",
    "tournaments",
    "account",
    // A member's page (lichess's address: /@/{username}) and the ratings list.
    "@",
    "ratings",
    // Table games (issue #29): a table's display and its seats' input
    // pages (/table/{id}, /table/{id}/play), the director's pages (/tables/…).
    "table",
    "tables",
    // An open challenge's page (the lobby, showing it).
    "challenge",
];

/// The page's security policy: nothing from elsewhere, no inline script.
const CSP: &str = "default-src 'self'; script-src 'self'; style-src 'self'; \
     img-src 'self' data:; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; \
     form-action 'self'";

struct Asset {
    bytes: &'static [u8],
    etag: String,
}

fn assets() -> &'static HashMap<&'static str, Asset> {
    static ASSETS: OnceLock<HashMap<&'static str, Asset>> = OnceLock::new();
    ASSETS.get_or_init(|| {
        embedded::ASSETS
            .iter()
            .map(|&(name, bytes)| {
                let digest = Sha256::digest(bytes);
                let etag = format!("\"{}\"", tempo_host::chain::hex(&digest[..12]));
                (name, Asset { bytes, etag })
            })
            .collect()
    })
}

/// The names of the embedded files (for tests and the guide).
pub fn asset_names() -> impl Iterator<Item = &'static str> {
    embedded::ASSETS.iter().map(|&(name, _)| name)
}

fn content_type(name: &str) -> &'static str {
    match name.rsplit('.').next() {
        Some("html") => "text/html; charset=utf-8",
        Some("js") => "text/javascript; charset=utf-8",
        Some("css") => "text/css; charset=utf-8",
        Some("svg") => "image/svg+xml",
        Some("json") => "application/json",
        Some("png") => "image/png",
        Some("ico") => "image/x-icon",
        Some("txt" | "md") => "text/plain; charset=utf-8",
        _ => "application/octet-stream",
    }
}

fn file(name: &str, request: &HeaderMap) -> Option<Response> {
    let asset = assets().get(name)?;
    let mut response = if request
        .get(header::IF_NONE_MATCH)
        .is_some_and(|tag| tag.as_bytes() == asset.etag.as_bytes())
    {
        StatusCode::NOT_MODIFIED.into_response()
    } else {
        Body::from(asset.bytes).into_response()
    };
    let headers = response.headers_mut();
    headers.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static(content_type(name)),
    );
    // Revalidated on every load: a new binary brings new files at once.
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
    headers.insert(
        header::ETAG,
        HeaderValue::from_str(&asset.etag).expect("hex is a header value"),
    );
    headers.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    if name.ends_with(".html") {
        headers.insert(
            header::CONTENT_SECURITY_POLICY,
            HeaderValue::from_static(CSP),
        );
        headers.insert(header::X_FRAME_OPTIONS, HeaderValue::from_static("DENY"));
        headers.insert(
            header::REFERRER_POLICY,
            HeaderValue::from_static("same-origin"),
        );
    }
    Some(response)
}

/// Whether `path` is one of the app's pages.
fn is_page(path: &str) -> bool {
    let first = path.trim_start_matches('/').split('/').next().unwrap_or("");
    PAGES.contains(&first) && path.len() <= 200
}

/// The router's fallback: an embedded file under `/assets/`, the app's
/// page for a page address, else the API's JSON 404.
pub(crate) async fn fallback(method: Method, uri: Uri, headers: HeaderMap) -> Response {
    let path = uri.path();
    if method == Method::GET || method == Method::HEAD {
        if let Some(name) = path.strip_prefix("/assets/")
            && let Some(response) = file(name, &headers)
        {
            return response;
        }
        if path == "/favicon.ico"
            && let Some(response) = file("favicon.svg", &headers)
        {
            return response;
        }
        if !path.starts_with("/api/")
            && is_page(path)
            && let Some(response) = file("index.html", &headers)
        {
            return response;
        }
    }
    ApiError::not_found("route").into_response()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_app_is_embedded() {
        let names: Vec<_> = asset_names().collect();
        for name in ["index.html", "app.js", "style.css"] {
            assert!(names.contains(&name), "{name} missing from {names:?}");
        }
    }

    #[test]
    fn page_addresses_are_known_first_segments() {
        assert!(is_page("/"));
        assert!(is_page("/game/abc123"));
        assert!(is_page("/rules"));
        assert!(is_page("/challenge/abc123"));
        assert!(!is_page("/nonsense"));
        assert!(!is_page("/api"));
    }
}
