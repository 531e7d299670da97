//! The connection layer: accepts TCP connections (optionally TLS), admits
//! them under the connection caps ([`registry`]), closes the silent, the
//! slow and the idle ones, serves HTTP/1.1 and HTTP/2 with hyper, and
//! tells each request who is at the other end ([`Peer`]).
//!
//! It replaces `axum::serve`, which has no header or idle timeout and no
//! cap: 1,100 connections that send nothing used to take every file
//! descriptor of a server at the usual 1,024-file limit.

pub(crate) mod head;
pub(crate) mod proxy;
pub(crate) mod registry;
pub(crate) mod tls;

use std::convert::Infallible;
use std::future::Future;
use std::io;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::Duration;

use axum::Router;
use axum::body::{Body, Bytes};
use axum::http::Request;
use http_body::{Frame, SizeHint};
use hyper::body::Incoming;
use hyper_util::rt::{TokioExecutor, TokioIo, TokioTimer};
use hyper_util::server::conn::auto;
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{mpsc, watch};
use tokio::time::Instant;
use tower::ServiceExt;

use proxy::TrustedProxies;
pub use proxy::{BadProxy, TrustedProxy};
use registry::{Active, Caps, Live, Refusal, Registry, Slot, Timeouts};
pub use tls::{Tls, TlsError};

use crate::http::peer::Peer;

/// hyper's own limit on a request head's bytes (its read buffer): above
/// [`head::MAX_HEAD_BYTES`], so that heads between the two get a JSON 431.
pub(crate) const HYPER_MAX_BUF: usize = 64 * 1024;
/// hyper's own limit on header lines, above [`head::MAX_HEADERS`].
pub(crate) const HYPER_MAX_HEADERS: usize = 2 * head::MAX_HEADERS;
/// Most requests in progress at once on one HTTP/2 connection: without a
/// bound, one connection (one slot of the caps) could carry hundreds of
/// streams. A browser's page uses a handful.
pub const MAX_HTTP2_STREAMS: u32 = 32;
/// Most connections by default, whatever the file limit.
pub const MAX_CONNECTIONS_CEILING: usize = 16_384;
/// How long the accept loop rests after an error such as "too many open
/// files" (the pending connection stays queued; retrying at once would
/// spin).
const ACCEPT_BACKOFF: Duration = Duration::from_millis(100);
/// Longest wait for a connection told to make room to close.
const EVICTION_WAIT: Duration = Duration::from_secs(1);
/// At most one log line per kind of trouble in this time.
const LOG_EVERY: Duration = Duration::from_secs(60);
/// How long a stopping server waits for answers in progress.
const SHUTDOWN_GRACE: Duration = Duration::from_secs(15);

/// How the server treats connections.
#[derive(Debug, Clone)]
pub struct NetOptions {
    /// Most connections at once ([`default_max_connections`]).
    pub max_connections: usize,
    /// Most connections from one address ([`default_max_per_address`]);
    /// trusted proxies have no such cap.
    pub max_per_address: usize,
    /// A new connection's first request head, and any request head from
    /// its first byte, must arrive within this.
    pub header_timeout: Duration,
    /// A connection with no request in progress closes after this.
    pub idle_timeout: Duration,
    /// Proxies whose `X-Forwarded-For` and `X-Forwarded-Proto` are believed.
    pub trusted_proxies: Vec<TrustedProxy>,
    /// Serve HTTPS with this certificate and key.
    pub tls: Option<Tls>,
}

/// The default header timeout.
pub const HEADER_TIMEOUT: Duration = Duration::from_secs(10);
/// The default idle (keep-alive) timeout.
pub const IDLE_TIMEOUT: Duration = Duration::from_secs(30);

impl Default for NetOptions {
    fn default() -> NetOptions {
        let max_connections = default_max_connections();
        NetOptions {
            max_connections,
            max_per_address: default_max_per_address(max_connections),
            header_timeout: HEADER_TIMEOUT,
            idle_timeout: IDLE_TIMEOUT,
            trusted_proxies: Vec::new(),
            tls: None,
        }
    }
}

/// The process's limit on open files (the soft `RLIMIT_NOFILE`), if known.
pub fn file_limit() -> Option<u64> {
    #[cfg(unix)]
    {
        let mut limit = libc::rlimit {
            rlim_cur: 0,
            rlim_max: 0,
        };
        // SAFETY: getrlimit only writes the struct it is given, which is
        // ours and of the type it expects.
        let status = unsafe { libc::getrlimit(libc::RLIMIT_NOFILE, &mut limit) };
        // rlim_t is u64 on Linux, not everywhere.
        #[allow(clippy::unnecessary_cast)]
        let current = limit.rlim_cur as u64;
        (status == 0).then_some(current)
    }
    #[cfg(not(unix))]
    {
        None
    }
}

/// Most connections by default: the file limit less an eighth (at least
/// 64) kept for the store, backups and logs, at most
/// [`MAX_CONNECTIONS_CEILING`]: 896 at the common limit of 1,024.
pub fn default_max_connections() -> usize {
    cap_for_file_limit(file_limit().unwrap_or(1024))
}

fn cap_for_file_limit(limit: u64) -> usize {
    let limit = limit.min(1 << 24) as usize;
    let reserve = (limit / 8).max(64);
    limit
        .saturating_sub(reserve)
        .clamp(16, MAX_CONNECTIONS_CEILING)
}

/// Most connections per address by default: a quarter of the total (a
/// club behind one router still fits), at least 16.
pub fn default_max_per_address(max_connections: usize) -> usize {
    (max_connections / 4).max(16)
}

/// What every connection's task shares.
struct Shared {
    builder: auto::Builder<TokioExecutor>,
    router: Router,
    proxies: TrustedProxies,
    tls: Option<tokio_rustls::TlsAcceptor>,
    timeouts: Timeouts,
}

/// Serves `router` on `listener` until `shutdown` completes; then stops
/// accepting, lets every connection finish its answers in progress
/// (`stopping` ends the streams) and returns.
pub(crate) async fn serve(
    listener: TcpListener,
    router: Router,
    options: NetOptions,
    stopping: watch::Receiver<bool>,
    shutdown: impl Future<Output = ()>,
) -> io::Result<()> {
    if let Some(limit) = file_limit()
        && options.max_connections as u64 + 64 > limit
    {
        tracing::warn!(
            max_connections = options.max_connections,
            file_limit = limit,
            "the connection cap leaves too few of the process's files for the store; \
             raise the limit (LimitNOFILE=) or lower --max-connections"
        );
    }
    let mut builder = auto::Builder::new(TokioExecutor::new());
    builder
        .http1()
        .timer(TokioTimer::new())
        // The watchdog times heads and idle connections (hyper's own
        // header timer would also cut idle keep-alive connections).
        .header_read_timeout(None)
        .max_buf_size(HYPER_MAX_BUF)
        .max_headers(HYPER_MAX_HEADERS);
    builder
        .http2()
        .timer(TokioTimer::new())
        .max_concurrent_streams(MAX_HTTP2_STREAMS)
        .max_header_list_size(HYPER_MAX_BUF as u32);
    let proxies = TrustedProxies::new(options.trusted_proxies.clone());
    let registry = Registry::new(Caps {
        total: options.max_connections.max(1),
        per_address: options.max_per_address.max(1),
        exempt: proxies.clone(),
    });
    let shared = Arc::new(Shared {
        builder,
        router,
        proxies,
        tls: options
            .tls
            .map(|tls| tokio_rustls::TlsAcceptor::from(tls.config)),
        timeouts: Timeouts {
            header: options.header_timeout,
            idle: options.idle_timeout,
        },
    });
    // Each connection's task holds a sender: when all are dropped, every
    // connection has closed.
    let (open, mut all_closed) = mpsc::channel::<()>(1);
    let mut accept_trouble = Throttle::default();
    let mut refusals = Throttle::default();
    let mut evictions = Throttle::default();
    let mut evicted_before = 0;
    tokio::pin!(shutdown);
    loop {
        let (stream, address) = tokio::select! {
            () = &mut shutdown => break,
            accepted = listener.accept() => match accepted {
                Ok(accepted) => accepted,
                // The client gave up before we took its connection.
                Err(e) if matches!(
                    e.kind(),
                    io::ErrorKind::ConnectionAborted
                        | io::ErrorKind::ConnectionReset
                        | io::ErrorKind::Interrupted
                ) => continue,
                Err(e) => {
                    if let Some(times) = accept_trouble.note() {
                        tracing::error!(
                            error = %e,
                            times,
                            "accepting connections fails (retrying every {} ms); \
                             if it is \"too many open files\", raise the file limit or lower --max-connections",
                            ACCEPT_BACKOFF.as_millis()
                        );
                    }
                    tokio::time::sleep(ACCEPT_BACKOFF).await;
                    continue;
                }
            },
        };
        let ip = address.ip().to_canonical();
        let slot = match registry.admit(ip) {
            Ok(admitted) => {
                if let Some(victim) = admitted.made_room {
                    // Its descriptor is free once its task has ended (at
                    // once: it is idle, or cut). Waiting keeps a burst of
                    // newcomers from holding more descriptors than the cap.
                    let _ = tokio::time::timeout(EVICTION_WAIT, victim.closed.notified()).await;
                }
                admitted.slot
            }
            Err(refusal) => {
                if let Some(times) = refusals.note() {
                    let why = match refusal {
                        Refusal::AddressFull => "an address holds its cap of busy connections",
                        Refusal::ServerFull => "the server holds its cap of busy connections",
                    };
                    tracing::warn!(%ip, times, "connections refused: {why}");
                }
                drop(stream);
                continue;
            }
        };
        let evicted = registry.evictions();
        if evicted > evicted_before {
            if let Some(times) = evictions.note() {
                tracing::warn!(
                    connections = registry.total(),
                    times,
                    "connection cap reached: connections of the largest holder (idle ones first) close for newcomers"
                );
            }
            evicted_before = evicted;
        }
        let _ = stream.set_nodelay(true);
        tokio::spawn(connection(
            stream,
            slot,
            shared.clone(),
            stopping.clone(),
            open.clone(),
        ));
    }
    // No new connections; those open finish what they are answering.
    drop(listener);
    drop(open);
    if tokio::time::timeout(SHUTDOWN_GRACE, all_closed.recv())
        .await
        .is_err()
    {
        tracing::warn!(
            connections = registry.total(),
            "stopping with connections still open"
        );
    }
    Ok(())
}

/// Serves one connection until it ends, times out, gives way or the
/// server stops.
async fn connection(
    stream: TcpStream,
    slot: Slot,
    shared: Arc<Shared>,
    stopping: watch::Receiver<bool>,
    _open: mpsc::Sender<()>,
) {
    let live = slot.live.clone();
    let io = Watched {
        inner: stream,
        live: live.clone(),
    };
    match &shared.tls {
        None => drive(io, false, &shared, &live, stopping).await,
        Some(acceptor) => {
            // The handshake is part of the head: it too must arrive in time.
            let handshake = tokio::select! {
                handshake = acceptor.accept(io) => handshake,
                () = live.expired(shared.timeouts) => return,
                () = live.evicted.notified() => return,
            };
            match handshake {
                Ok(tls) => drive(tls, true, &shared, &live, stopping).await,
                Err(e) => tracing::debug!(error = %e, ip = %live.ip, "TLS handshake"),
            }
        }
    }
    drop(slot);
}

/// Serves HTTP on an (already secured) connection.
async fn drive<I>(
    io: I,
    https: bool,
    shared: &Shared,
    live: &Arc<Live>,
    mut stopping: watch::Receiver<bool>,
) where
    I: AsyncRead + AsyncWrite + Unpin + Send + 'static,
{
    let service = {
        let router = shared.router.clone();
        let proxies = shared.proxies.clone();
        let live = live.clone();
        hyper::service::service_fn(move |mut request: Request<Incoming>| {
            let active = live.begin();
            let peer: Peer = proxies.peer(live.ip, https, request.headers());
            request.extensions_mut().insert(peer);
            let router = router.clone();
            async move {
                let response = router
                    .oneshot(request)
                    .await
                    .unwrap_or_else(|never| match never {});
                Ok::<_, Infallible>(response.map(|body| {
                    Body::new(Tracked {
                        body,
                        _active: active,
                    })
                }))
            }
        })
    };
    let connection = shared
        .builder
        .serve_connection_with_upgrades(TokioIo::new(io), service);
    tokio::pin!(connection);
    let mut closing = false;
    loop {
        tokio::select! {
            result = connection.as_mut() => {
                if let Err(e) = result {
                    tracing::debug!(error = %e, ip = %live.ip, "connection");
                }
                return;
            }
            _ = stopping.wait_for(|stopping| *stopping), if !closing => {
                connection.as_mut().graceful_shutdown();
                closing = true;
            }
            () = live.expired(shared.timeouts), if !closing => {
                if live.is_idle() {
                    return;
                }
                connection.as_mut().graceful_shutdown();
                closing = true;
            }
            () = live.evicted.notified(), if !closing => {
                // Chosen busy, or idle and still idle: returning drops the
                // connection, its socket and its answers' bodies (a
                // stream's subscription with them).
                if live.is_cut() || live.is_idle() {
                    return;
                }
                // A request began as it was chosen idle: it finishes first.
                connection.as_mut().graceful_shutdown();
                closing = true;
            }
        }
    }
}

/// A connection's byte stream, telling its [`Live`] when bytes arrive
/// (the first byte of a request head starts the header timeout).
struct Watched<S> {
    inner: S,
    live: Arc<Live>,
}

impl<S: AsyncRead + Unpin> AsyncRead for Watched<S> {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let before = buf.filled().len();
        let result = Pin::new(&mut self.inner).poll_read(cx, buf);
        if matches!(result, Poll::Ready(Ok(()))) && buf.filled().len() > before {
            self.live.on_read();
        }
        result
    }
}

impl<S: AsyncWrite + Unpin> AsyncWrite for Watched<S> {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.inner).poll_write(cx, buf)
    }

    fn poll_write_vectored(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.inner).poll_write_vectored(cx, bufs)
    }

    fn is_write_vectored(&self) -> bool {
        self.inner.is_write_vectored()
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.inner).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.inner).poll_shutdown(cx)
    }
}

/// An answer's body that keeps its request in progress (its connection
/// not idle) until it has been sent or dropped: a stream is never idle.
struct Tracked {
    body: Body,
    _active: Active,
}

impl http_body::Body for Tracked {
    type Data = Bytes;
    type Error = axum::Error;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, axum::Error>>> {
        Pin::new(&mut self.body).poll_frame(cx)
    }

    fn is_end_stream(&self) -> bool {
        self.body.is_end_stream()
    }

    fn size_hint(&self) -> SizeHint {
        self.body.size_hint()
    }
}

/// Says a kind of trouble once, then at most once per [`LOG_EVERY`] with
/// how often it happened meanwhile: a flood is one line, not one per
/// connection.
#[derive(Debug, Default)]
struct Throttle {
    last: Option<Instant>,
    since: u64,
}

impl Throttle {
    /// Counts one occurrence; `Some(count)` when a line is due.
    fn note(&mut self) -> Option<u64> {
        self.since += 1;
        if self.last.is_some_and(|last| last.elapsed() < LOG_EVERY) {
            return None;
        }
        self.last = Some(Instant::now());
        Some(std::mem::take(&mut self.since))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test(start_paused = true)]
    async fn trouble_is_logged_once_a_minute_with_its_count() {
        let mut throttle = Throttle::default();
        assert_eq!(throttle.note(), Some(1));
        for _ in 0..999 {
            assert_eq!(throttle.note(), None);
        }
        tokio::time::advance(LOG_EVERY).await;
        assert_eq!(throttle.note(), Some(1000));
    }

    #[test]
    fn the_default_cap_leaves_room_at_a_1024_file_limit() {
        assert_eq!(cap_for_file_limit(1024), 896);
        assert_eq!(cap_for_file_limit(256), 192);
        assert_eq!(cap_for_file_limit(1 << 40), MAX_CONNECTIONS_CEILING);
        assert_eq!(cap_for_file_limit(10), 16);
        assert_eq!(default_max_per_address(896), 224);
        assert_eq!(default_max_per_address(20), 16);
    }
}
