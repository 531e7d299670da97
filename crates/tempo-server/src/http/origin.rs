//! The address of this server as a caller reached it, for the absolute
//! addresses an answer names (a challenge's page).

use std::convert::Infallible;

use axum::extract::FromRequestParts;
use axum::http::request::Parts;
use axum::http::{HeaderMap, Uri, header};

use super::peer::Peer;

/// `https://club.example:8443`, as the request named the server.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Origin(pub String);

impl<S: Send + Sync> FromRequestParts<S> for Origin {
    type Rejection = Infallible;

    async fn from_request_parts(parts: &mut Parts, _state: &S) -> Result<Self, Infallible> {
        let https = Peer::of(parts).https;
        Ok(Origin(origin(https, &parts.uri, &parts.headers)))
    }
}

/// The address of this server as the caller reached it: the request's
/// authority (HTTP/2's `:authority`, or an absolute request target), else
/// its `Host`, if that is a plain host name or address (with a port);
/// else `localhost`.
fn origin(https: bool, uri: &Uri, headers: &HeaderMap) -> String {
    let plain = |h: &&str| {
        !h.is_empty()
            && h.len() <= 255
            && h.chars()
                .all(|c| c.is_ascii_alphanumeric() || ".-:[]".contains(c))
    };
    let from_host = || headers.get(header::HOST).and_then(|h| h.to_str().ok());
    let host = uri
        .authority()
        .map(|a| a.as_str())
        .filter(plain)
        .or_else(|| from_host().filter(plain))
        .unwrap_or("localhost");
    let scheme = if https { "https" } else { "http" };
    format!("{scheme}://{host}")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn with_host(host: &str) -> HeaderMap {
        let mut headers = HeaderMap::new();
        headers.insert(header::HOST, host.parse().unwrap());
        headers
    }

    #[test]
    fn the_origin_prefers_the_requests_authority_to_its_host() {
        let path: Uri = "/api/challenge/open".parse().unwrap();
        // HTTP/2: the authority is in the URI, no Host header.
        let h2: Uri = "https://club.example:8443/api/challenge/open"
            .parse()
            .unwrap();
        assert_eq!(
            origin(true, &h2, &HeaderMap::new()),
            "https://club.example:8443"
        );
        assert_eq!(
            origin(true, &h2, &with_host("other.example")),
            "https://club.example:8443"
        );
        assert_eq!(
            origin(false, &path, &with_host("10.0.0.2:8080")),
            "http://10.0.0.2:8080"
        );
        // Neither, or neither plain: localhost.
        assert_eq!(origin(false, &path, &HeaderMap::new()), "http://localhost");
        assert_eq!(origin(false, &path, &with_host("a/b")), "http://localhost");
    }
}
