//! Who is at the other end of the connection: the client's address (for
//! rate limits and fairness) and whether the request came over HTTPS (for
//! the session cookie's `Secure` flag).
//!
//! The connection layer puts a [`Peer`] into every request it serves;
//! a router driven without one (tests calling it directly) sees a
//! loopback client over plain HTTP.

use std::convert::Infallible;
use std::net::{IpAddr, Ipv4Addr};

use axum::extract::FromRequestParts;
use axum::http::request::Parts;

/// The client of a request, as far as the server can trust what it sees.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Peer {
    /// The client's address (a trusted proxy's forwarded address, else the
    /// connection's).
    pub ip: IpAddr,
    /// Whether the client reached the server over HTTPS (directly, or
    /// through a trusted proxy that said so).
    pub https: bool,
}

impl Default for Peer {
    fn default() -> Self {
        Peer {
            ip: IpAddr::V4(Ipv4Addr::LOCALHOST),
            https: false,
        }
    }
}

impl Peer {
    /// The peer a request carries, or the default one.
    pub(crate) fn of(parts: &Parts) -> Peer {
        parts.extensions.get::<Peer>().copied().unwrap_or_default()
    }
}

impl<S: Send + Sync> FromRequestParts<S> for Peer {
    type Rejection = Infallible;

    async fn from_request_parts(parts: &mut Parts, _state: &S) -> Result<Self, Infallible> {
        Ok(Peer::of(parts))
    }
}
