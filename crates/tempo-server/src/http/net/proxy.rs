//! Reverse proxies the operator trusts (`--trusted-proxy`): only from
//! them are `X-Forwarded-For` and `X-Forwarded-Proto` believed. Anyone
//! else could write those headers to pass for another address or for
//! HTTPS.

use std::net::IpAddr;
use std::str::FromStr;

use axum::http::HeaderMap;

use crate::http::peer::Peer;

/// An address or a network (`127.0.0.1`, `10.0.0.0/8`, `::1`, `fd00::/8`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TrustedProxy {
    network: IpAddr,
    prefix: u8,
}

/// A `--trusted-proxy` value that is neither an address nor a network.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0:?} is not an IP address or network (like 127.0.0.1 or 10.0.0.0/8)")]
pub struct BadProxy(String);

impl FromStr for TrustedProxy {
    type Err = BadProxy;

    fn from_str(text: &str) -> Result<TrustedProxy, BadProxy> {
        let bad = || BadProxy(text.to_string());
        let (address, prefix) = match text.trim().split_once('/') {
            Some((address, prefix)) => (address, Some(prefix)),
            None => (text.trim(), None),
        };
        let network = address.parse::<IpAddr>().map_err(|_| bad())?.to_canonical();
        let bits = if network.is_ipv4() { 32 } else { 128 };
        let prefix = match prefix {
            Some(prefix) => prefix
                .parse::<u8>()
                .ok()
                .filter(|p| *p <= bits)
                .ok_or_else(bad)?,
            None => bits,
        };
        Ok(TrustedProxy { network, prefix })
    }
}

impl std::fmt::Display for TrustedProxy {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}/{}", self.network, self.prefix)
    }
}

impl TrustedProxy {
    /// Whether `ip` is this address or in this network.
    pub fn contains(&self, ip: IpAddr) -> bool {
        match (self.network, ip.to_canonical()) {
            (IpAddr::V4(net), IpAddr::V4(ip)) => {
                prefix_matches(&net.octets(), &ip.octets(), self.prefix)
            }
            (IpAddr::V6(net), IpAddr::V6(ip)) => {
                prefix_matches(&net.octets(), &ip.octets(), self.prefix)
            }
            _ => false,
        }
    }
}

fn prefix_matches(network: &[u8], ip: &[u8], prefix: u8) -> bool {
    let (whole, rest) = (usize::from(prefix / 8), prefix % 8);
    if network[..whole] != ip[..whole] {
        return false;
    }
    rest == 0 || {
        let mask = 0xffu8 << (8 - rest);
        network[whole] & mask == ip[whole] & mask
    }
}

/// The trusted proxies of a server (none by default).
#[derive(Debug, Clone, Default)]
pub(crate) struct TrustedProxies(Vec<TrustedProxy>);

impl TrustedProxies {
    pub(crate) fn new(proxies: Vec<TrustedProxy>) -> TrustedProxies {
        TrustedProxies(proxies)
    }

    pub(crate) fn contains(&self, ip: IpAddr) -> bool {
        self.0.iter().any(|proxy| proxy.contains(ip))
    }

    /// The peer of a request that arrived on a connection from `ip`
    /// (`https`: over TLS). From a trusted proxy, `X-Forwarded-Proto:
    /// https` makes it HTTPS and the right-most address of
    /// `X-Forwarded-For` that is not a trusted proxy is the client (the
    /// ones left of it were written by the client itself, who may lie).
    pub(crate) fn peer(&self, ip: IpAddr, https: bool, headers: &HeaderMap) -> Peer {
        let ip = ip.to_canonical();
        if !self.contains(ip) {
            return Peer { ip, https };
        }
        let proto = last_value(headers, "x-forwarded-proto");
        let https = https || proto.is_some_and(|p| p.eq_ignore_ascii_case("https"));
        Peer {
            ip: self.forwarded_client(headers).unwrap_or(ip),
            https,
        }
    }

    /// The right-most untrusted address of `X-Forwarded-For`; `None` if
    /// the header is missing, names only trusted proxies, or has an entry
    /// that is no address before an untrusted one is found.
    fn forwarded_client(&self, headers: &HeaderMap) -> Option<IpAddr> {
        // Bytes, not text: what the client wrote (left of the proxy's own
        // entry) may be anything, and must not hide the entries after it.
        let lines = headers.get_all("x-forwarded-for");
        for line in lines.iter().rev() {
            for entry in line.as_bytes().rsplit(|b| *b == b',') {
                let entry = std::str::from_utf8(entry).ok()?;
                let ip = parse_forwarded_address(entry.trim())?.to_canonical();
                if !self.contains(ip) {
                    return Some(ip);
                }
            }
        }
        None
    }
}

/// The last comma-separated value of the last `name` header.
fn last_value<'a>(headers: &'a HeaderMap, name: &str) -> Option<&'a str> {
    let line = headers.get_all(name).iter().next_back()?.to_str().ok()?;
    line.rsplit(',').next().map(str::trim)
}

/// An address as proxies write them: `1.2.3.4`, `1.2.3.4:5678`, `::1`,
/// `[::1]:5678`.
fn parse_forwarded_address(text: &str) -> Option<IpAddr> {
    if let Ok(ip) = text.parse() {
        return Some(ip);
    }
    if let Ok(socket) = text.parse::<std::net::SocketAddr>() {
        return Some(socket.ip());
    }
    text.strip_prefix('[')?.strip_suffix(']')?.parse().ok()
}

#[cfg(test)]
mod tests {
    use axum::http::HeaderValue;

    use super::*;

    fn proxies(list: &[&str]) -> TrustedProxies {
        TrustedProxies::new(list.iter().map(|p| p.parse().unwrap()).collect())
    }

    fn headers(pairs: &[(&'static str, &str)]) -> HeaderMap {
        let mut map = HeaderMap::new();
        for (name, value) in pairs {
            map.append(*name, HeaderValue::from_str(value).unwrap());
        }
        map
    }

    fn ip(text: &str) -> IpAddr {
        text.parse().unwrap()
    }

    #[test]
    fn addresses_and_networks_parse_and_match() {
        let net: TrustedProxy = "10.1.0.0/16".parse().unwrap();
        assert!(net.contains(ip("10.1.200.3")));
        assert!(!net.contains(ip("10.2.0.1")));
        assert!(net.contains(ip("::ffff:10.1.0.9")), "v4-mapped");
        let odd: TrustedProxy = "192.168.0.128/25".parse().unwrap();
        assert!(odd.contains(ip("192.168.0.200")) && !odd.contains(ip("192.168.0.100")));
        let one: TrustedProxy = "::1".parse().unwrap();
        assert!(one.contains(ip("::1")) && !one.contains(ip("127.0.0.1")));
        assert!(
            "0.0.0.0/0"
                .parse::<TrustedProxy>()
                .unwrap()
                .contains(ip("8.8.8.8"))
        );
        for bad in ["", "localhost", "10.0.0.0/33", "10.0.0.0/x", "::/129"] {
            assert!(bad.parse::<TrustedProxy>().is_err(), "{bad}");
        }
    }

    #[test]
    fn forwarded_headers_count_only_from_a_trusted_proxy() {
        let trusted = proxies(&["127.0.0.1", "10.0.0.0/8"]);
        let forwarded = headers(&[
            ("x-forwarded-for", "6.6.6.6, 203.0.113.7"),
            ("x-forwarded-proto", "https"),
        ]);
        // From a stranger: ignored.
        let stranger = trusted.peer(ip("198.51.100.1"), false, &forwarded);
        assert_eq!(
            stranger,
            Peer {
                ip: ip("198.51.100.1"),
                https: false
            }
        );
        // From the proxy: the right-most untrusted address, and HTTPS.
        let proxied = trusted.peer(ip("127.0.0.1"), false, &forwarded);
        assert_eq!(
            proxied,
            Peer {
                ip: ip("203.0.113.7"),
                https: true
            }
        );
        // Trusted hops on the right are skipped; a second header line is
        // read after the first.
        let chain = headers(&[
            ("x-forwarded-for", "6.6.6.6"),
            ("x-forwarded-for", "203.0.113.9, 10.0.0.5"),
        ]);
        assert_eq!(
            trusted.peer(ip("10.0.0.1"), false, &chain).ip,
            ip("203.0.113.9")
        );
        // No header, or only proxies: the connection's address; plain HTTP.
        assert_eq!(
            trusted.peer(ip("127.0.0.1"), false, &HeaderMap::new()).ip,
            ip("127.0.0.1")
        );
        let garbage = headers(&[
            ("x-forwarded-for", "unknown"),
            ("x-forwarded-proto", "http"),
        ]);
        assert_eq!(
            trusted.peer(ip("127.0.0.1"), false, &garbage),
            Peer {
                ip: ip("127.0.0.1"),
                https: false
            }
        );
        // TLS on the connection itself is HTTPS whatever the headers say.
        assert!(
            proxies(&[])
                .peer(ip("198.51.100.1"), true, &HeaderMap::new())
                .https
        );
        // Ports and brackets as proxies write them.
        let ported = headers(&[("x-forwarded-for", "[2001:db8::1]:443, 203.0.113.1:80")]);
        assert_eq!(
            trusted.peer(ip("127.0.0.1"), false, &ported).ip,
            ip("203.0.113.1")
        );
    }

    #[test]
    fn bytes_a_client_writes_do_not_hide_the_address_its_proxy_adds() {
        let trusted = proxies(&["127.0.0.1"]);
        // nginx appends the client's address to what the client sent, here
        // a byte that is no text.
        let mut map = HeaderMap::new();
        map.append(
            "x-forwarded-for",
            HeaderValue::from_bytes(b"\xff\xfe, 203.0.113.7").unwrap(),
        );
        assert_eq!(
            trusted.peer(ip("127.0.0.1"), false, &map).ip,
            ip("203.0.113.7")
        );
        // The same on a line of its own before the proxy's line.
        let mut lines = HeaderMap::new();
        lines.append("x-forwarded-for", HeaderValue::from_bytes(b"\xff").unwrap());
        lines.append("x-forwarded-for", HeaderValue::from_static("203.0.113.8"));
        assert_eq!(
            trusted.peer(ip("127.0.0.1"), false, &lines).ip,
            ip("203.0.113.8")
        );
    }
}
