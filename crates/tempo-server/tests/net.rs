//! The connection layer in process (`tempo_server::serve_with` on a real
//! socket): a stream is never idle, idle connections close, and stopping
//! ends the streams and returns. The floods at a file limit, TLS and
//! trusted proxies are tested on the binary (tempo-cli's
//! tests/serve_net.rs).

mod support;

use std::time::{Duration, Instant};

use serde_json::json;
use support::TestServer;
use tempo_server::net::NetOptions;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

/// Serves `server`'s state on a fresh port with short timeouts; the
/// sender stops it, the handle yields when it has returned.
async fn serve(
    server: &TestServer,
) -> (
    std::net::SocketAddr,
    tokio::sync::oneshot::Sender<()>,
    tokio::task::JoinHandle<std::io::Result<()>>,
) {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let address = listener.local_addr().unwrap();
    let options = NetOptions {
        header_timeout: Duration::from_millis(500),
        idle_timeout: Duration::from_millis(500),
        ..NetOptions::default()
    };
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let serving = tokio::spawn(tempo_server::serve_with(
        listener,
        server.state.clone(),
        options,
        async {
            let _ = stopped.await;
        },
    ));
    (address, stop, serving)
}

/// Reads what arrives within `wait`; `None` once the server has closed.
async fn read_some(stream: &mut TcpStream, wait: Duration) -> Option<String> {
    let mut buffer = vec![0u8; 64 * 1024];
    match tokio::time::timeout(wait, stream.read(&mut buffer)).await {
        Ok(Ok(0)) | Ok(Err(_)) => None,
        Ok(Ok(n)) => Some(String::from_utf8_lossy(&buffer[..n]).to_string()),
        Err(_) => Some(String::new()),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn streams_outlive_the_idle_timeout_and_end_when_the_server_stops() {
    let server = TestServer::sqlite().await;
    let (game, _, _) = server.game(json!({"variant": "synchronschach"})).await;
    let (address, stop, serving) = serve(&server).await;

    let mut stream = TcpStream::connect(address).await.unwrap();
    let request = format!("GET /api/board/game/stream/{game} HTTP/1.1\r\nHost: t\r\n\r\n");
    stream.write_all(request.as_bytes()).await.unwrap();
    let mut first = String::new();
    let deadline = Instant::now() + Duration::from_secs(5);
    while !first.contains("gameFull") && Instant::now() < deadline {
        first += &read_some(&mut stream, Duration::from_secs(1))
            .await
            .unwrap();
    }
    assert!(first.contains("gameFull"), "{first}");

    // A keep-alive connection after its answer, and one that never speaks.
    let mut idle = TcpStream::connect(address).await.unwrap();
    idle.write_all(b"GET /healthz HTTP/1.1\r\nHost: t\r\n\r\n")
        .await
        .unwrap();
    let answer = read_some(&mut idle, Duration::from_secs(5)).await.unwrap();
    assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");
    let mut silent = TcpStream::connect(address).await.unwrap();

    // Past both timeouts: the idle and the silent one are closed; the
    // stream (a request in progress) is not.
    tokio::time::sleep(Duration::from_millis(1_500)).await;
    assert_eq!(read_some(&mut idle, Duration::from_millis(500)).await, None);
    assert_eq!(
        read_some(&mut silent, Duration::from_millis(500)).await,
        None
    );
    assert!(
        read_some(&mut stream, Duration::from_millis(200))
            .await
            .is_some(),
        "the stream was closed as idle"
    );

    let started = Instant::now();
    stop.send(()).unwrap();
    let ended = tokio::time::timeout(Duration::from_secs(5), async {
        while read_some(&mut stream, Duration::from_secs(5))
            .await
            .is_some()
        {}
    })
    .await;
    assert!(
        ended.is_ok(),
        "the stream did not end when the server stopped"
    );
    tokio::time::timeout(Duration::from_secs(5), serving)
        .await
        .expect("serve returns")
        .unwrap()
        .unwrap();
    assert!(started.elapsed() < Duration::from_secs(5));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_head_sent_byte_by_byte_is_cut_at_the_header_timeout() {
    let server = TestServer::sqlite().await;
    let (address, stop, serving) = serve(&server).await;
    let mut slow = TcpStream::connect(address).await.unwrap();
    let started = Instant::now();
    let mut closed_after = None;
    for byte in b"GET /healthz HTTP/1.1\r\nHost: slow-client.example\r\nX-Padding: 0123456789" {
        if slow.write_all(&[*byte]).await.is_err()
            || read_some(&mut slow, Duration::from_millis(100))
                .await
                .is_none()
        {
            closed_after = Some(started.elapsed());
            break;
        }
    }
    let closed_after = closed_after.expect("the slow head was never cut");
    assert!(
        closed_after >= Duration::from_millis(400) && closed_after < Duration::from_secs(2),
        "{closed_after:?}"
    );
    stop.send(()).unwrap();
    serving.await.unwrap().unwrap();
}
