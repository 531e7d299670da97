//! The connection layer of `tempo serve` as a process: idle and
//! slow-header floods at the usual 1,024-file limit, accept errors at the
//! file limit, built-in TLS and the session cookie's `Secure` flag,
//! trusted proxies, and JSON refusals of oversized heads.
//!
//! The flooding connections come from other loopback addresses
//! (127.0.0.2, …) than the test's own requests (127.0.0.1): the server
//! must keep room for a fresh address, whoever floods it.
#![cfg(target_os = "linux")]

use std::io::{BufRead, BufReader, ErrorKind, Read, Write};
use std::net::{IpAddr, Ipv4Addr, SocketAddr, TcpStream};
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

mod common;
use common::temp_dir;

fn tls_file(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/tls")
        .join(name)
}

/// Lets this process open `wanted` files (the floods need more than 1,024).
fn raise_own_file_limit(wanted: u64) {
    let mut limit = libc::rlimit {
        rlim_cur: 0,
        rlim_max: 0,
    };
    // SAFETY: getrlimit and setrlimit read and write only the struct given.
    unsafe {
        assert_eq!(libc::getrlimit(libc::RLIMIT_NOFILE, &mut limit), 0);
        if limit.rlim_cur < wanted as libc::rlim_t {
            assert!(
                limit.rlim_max >= wanted as libc::rlim_t,
                "the hard file limit {} is below {wanted}",
                limit.rlim_max
            );
            limit.rlim_cur = wanted as libc::rlim_t;
            assert_eq!(libc::setrlimit(libc::RLIMIT_NOFILE, &limit), 0);
        }
    }
}

/// A running `tempo serve`, killed when dropped.
struct Server {
    child: Child,
    address: SocketAddr,
    /// Standard error; the log lines go to standard output (`output`).
    log: PathBuf,
    output: Arc<Mutex<String>>,
    dir: PathBuf,
}

impl Server {
    /// `tempo serve` on a fresh store with `anna` and `ben` (passwords
    /// `anna-password`, `ben-password`), at most `files` open files, and
    /// `args`.
    fn start(name: &str, files: Option<u64>, args: &[&str]) -> Server {
        let dir = temp_dir(name);
        let data = dir.join("data");
        for user in ["anna", "ben"] {
            let added = tempo(
                &["user", "add", user, "--data", data.to_str().unwrap()],
                &format!("{user}-password\n"),
            );
            assert!(added.status.success(), "{added:?}");
        }
        let log = dir.join("server.log");
        let mut command = Command::new(env!("CARGO_BIN_EXE_tempo"));
        command
            .args(["serve", "--no-bots", "--listen", "127.0.0.1:0", "--data"])
            .arg(&data)
            .args(args)
            .env("RUST_LOG", "warn")
            .stdout(Stdio::piped())
            .stderr(std::fs::File::create(&log).unwrap());
        if let Some(files) = files {
            let limit = libc::rlimit {
                rlim_cur: files as libc::rlim_t,
                rlim_max: files as libc::rlim_t,
            };
            // SAFETY: between fork and exec the closure only calls
            // setrlimit (async-signal-safe) on a struct it owns.
            unsafe {
                command.pre_exec(move || {
                    if libc::setrlimit(libc::RLIMIT_NOFILE, &limit) != 0 {
                        return Err(std::io::Error::last_os_error());
                    }
                    Ok(())
                });
            }
        }
        let mut child = command.spawn().expect("tempo serve starts");
        let mut stdout = BufReader::new(child.stdout.take().unwrap());
        let mut line = String::new();
        stdout.read_line(&mut line).unwrap();
        let address = line
            .trim()
            .rsplit("://")
            .next()
            .and_then(|a| a.parse().ok())
            .unwrap_or_else(|| panic!("tempo serve printed {line:?}: {}", read(&log)));
        let output = Arc::new(Mutex::new(String::new()));
        let sink = output.clone();
        std::thread::spawn(move || {
            for line in stdout.lines().map_while(Result::ok) {
                let mut sink = sink.lock().unwrap();
                sink.push_str(&line);
                sink.push('\n');
            }
        });
        Server {
            child,
            address,
            log,
            output,
            dir,
        }
    }

    /// What the server has logged so far.
    fn log(&self) -> String {
        format!("{}{}", self.output.lock().unwrap(), read(&self.log))
    }

    fn alive(&mut self) -> bool {
        self.child.try_wait().unwrap().is_none()
    }

    /// CPU time the server has used (user and system), in clock ticks.
    fn cpu_ticks(&self) -> u64 {
        let stat = read(Path::new(&format!("/proc/{}/stat", self.child.id())));
        let fields: Vec<&str> = stat
            .rsplit_once(')')
            .unwrap()
            .1
            .split_whitespace()
            .collect();
        fields[11].parse::<u64>().unwrap() + fields[12].parse::<u64>().unwrap()
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_default()
}

fn tempo(args: &[&str], stdin: &str) -> std::process::Output {
    common::tempo_with_stdin(args, stdin)
}

/// A TCP connection to `to` from the loopback address `from`.
fn connect_from(from: Ipv4Addr, to: SocketAddr) -> std::io::Result<TcpStream> {
    use socket2::{Domain, SockAddr, Socket, Type};
    let socket = Socket::new(Domain::IPV4, Type::STREAM, None)?;
    socket.bind(&SockAddr::from(SocketAddr::new(IpAddr::V4(from), 0)))?;
    socket.connect_timeout(&SockAddr::from(to), Duration::from_secs(2))?;
    Ok(socket.into())
}

fn loopback(n: u8) -> Ipv4Addr {
    Ipv4Addr::new(127, 0, 0, n)
}

/// An answer: status, headers (lower-case names) and body.
#[derive(Debug)]
struct Answer {
    status: u16,
    headers: Vec<(String, String)>,
    body: String,
}

impl Answer {
    fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }
}

/// One HTTP/1.1 request (`Connection: close`) over `stream`.
fn exchange(
    mut stream: impl Read + Write,
    method: &str,
    path: &str,
    headers: &[(&str, &str)],
    body: &str,
) -> Answer {
    let mut head = format!(
        "{method} {path} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\
         Content-Type: application/json\r\nContent-Length: {}\r\n",
        body.len()
    );
    for (name, value) in headers {
        head.push_str(&format!("{name}: {value}\r\n"));
    }
    head.push_str("\r\n");
    // A server that refuses the connection may close it before reading.
    let _ = stream
        .write_all(head.as_bytes())
        .and_then(|()| stream.write_all(body.as_bytes()))
        .and_then(|()| stream.flush());
    let mut raw = Vec::new();
    // A TLS peer may end without close_notify; what arrived is the answer.
    let _ = stream.read_to_end(&mut raw);
    let text = String::from_utf8_lossy(&raw).to_string();
    let (head, body) = text.split_once("\r\n\r\n").unwrap_or((&text, ""));
    let mut lines = head.lines();
    let status = lines
        .next()
        .and_then(|l| l.split(' ').nth(1))
        .and_then(|s| s.parse().ok())
        .unwrap_or(0);
    let headers = lines
        .filter_map(|l| l.split_once(':'))
        .map(|(n, v)| (n.trim().to_lowercase(), v.trim().to_string()))
        .collect();
    Answer {
        status,
        headers,
        body: body.to_string(),
    }
}

fn request_from(from: Ipv4Addr, server: &Server, method: &str, path: &str) -> Answer {
    let stream = connect_from(from, server.address).unwrap();
    stream
        .set_read_timeout(Some(Duration::from_secs(10)))
        .unwrap();
    exchange(stream, method, path, &[], "")
}

/// `GET /healthz` from 127.0.0.1 answers 200 within `limit`.
fn assert_healthy_within(server: &Server, limit: Duration) {
    let started = Instant::now();
    let answer = request_from(loopback(1), server, "GET", "/healthz");
    let took = started.elapsed();
    assert_eq!(answer.status, 200, "{answer:?}; log: {}", server.log());
    assert!(took < limit, "/healthz took {took:?}");
}

/// Whether the server has closed `stream` (it reads end-of-file or an
/// error rather than "nothing yet").
fn closed_by_server(mut stream: &TcpStream) -> bool {
    stream.set_nonblocking(true).unwrap();
    let mut byte = [0u8; 1];
    let closed = match stream.read(&mut byte) {
        Ok(0) => true,
        Ok(_) => false,
        Err(e) if e.kind() == ErrorKind::WouldBlock => false,
        Err(_) => true,
    };
    stream.set_nonblocking(false).unwrap();
    closed
}

/// Polls `check` every 100 ms until it holds or `limit` passes.
fn eventually(limit: Duration, mut check: impl FnMut() -> bool) -> bool {
    let started = Instant::now();
    loop {
        if check() {
            return true;
        }
        if started.elapsed() > limit {
            return false;
        }
        std::thread::sleep(Duration::from_millis(100));
    }
}

#[test]
fn idle_connections_at_a_1024_file_limit_leave_room_for_healthz() {
    raise_own_file_limit(2_000);
    // Long timeouts: here only the caps keep the server reachable.
    let mut server = Server::start(
        "idle",
        Some(1024),
        &["--header-timeout", "60s", "--idle-timeout", "60s"],
    );
    // 1,100 connections that send nothing, from four addresses: each
    // address meets its cap (224 of the 896 the limit allows), together
    // they fill the server.
    let mut flood: Vec<(u8, TcpStream)> = Vec::new();
    for n in 0..1_100 {
        let from = 2 + (n % 4) as u8;
        flood.push((from, connect_from(loopback(from), server.address).unwrap()));
    }
    std::thread::sleep(Duration::from_millis(500));
    assert_healthy_within(&server, Duration::from_secs(3));
    assert_healthy_within(&server, Duration::from_secs(3));
    std::thread::sleep(Duration::from_millis(500));
    let mut open = [0usize; 6];
    for (from, stream) in &flood {
        if !closed_by_server(stream) {
            open[usize::from(*from)] += 1;
        }
    }
    let total: usize = open.iter().sum();
    assert!(
        (800..=896).contains(&total),
        "{total} flooding connections held"
    );
    assert!(
        open.iter().all(|n| *n <= 224),
        "one address over its cap: {open:?}"
    );
    drop(flood);
    assert_healthy_within(&server, Duration::from_secs(3));
    assert!(server.alive());
    let log = server.log();
    assert!(!log.contains("Too many open files"), "{log}");
    // What happened is said once, not once per connection.
    assert!(log.matches("connection cap reached").count() <= 1, "{log}");
}

/// A JSON request from 127.0.0.1, as `token`'s holder if given.
fn json_from_host(server: &Server, method: &str, path: &str, token: &str, body: &str) -> Answer {
    let stream = connect_from(loopback(1), server.address).unwrap();
    stream
        .set_read_timeout(Some(Duration::from_secs(10)))
        .unwrap();
    let bearer = format!("Bearer {token}");
    let headers: &[(&str, &str)] = if token.is_empty() {
        &[]
    } else {
        &[("Authorization", &bearer)]
    };
    exchange(stream, method, path, headers, body)
}

/// The value of `"key":"…"` in a JSON answer.
fn json_string(answer: &Answer, key: &str) -> String {
    let value: serde_json::Value =
        serde_json::from_str(&answer.body).unwrap_or_else(|e| panic!("{e}: {answer:?}"));
    value[key]
        .as_str()
        .unwrap_or_else(|| panic!("no {key}: {answer:?}"))
        .to_string()
}

#[test]
fn spectator_streams_holding_every_connection_make_room_for_a_fresh_address() {
    // Three addresses at their cap of 4 fill the cap of 12, every
    // connection busy with a public game stream (no login needed).
    let mut server = Server::start(
        "streams",
        None,
        &[
            "--max-connections",
            "12",
            "--max-per-address",
            "4",
            "--header-timeout",
            "60s",
            "--idle-timeout",
            "60s",
        ],
    );
    let token = |user: &str| {
        let body = format!(r#"{{"username":"{user}","password":"{user}-password"}}"#);
        json_string(
            &json_from_host(&server, "POST", "/api/token", "", &body),
            "token",
        )
    };
    let (anna, ben) = (token("anna"), token("ben"));
    let challenge = json_from_host(
        &server,
        "POST",
        "/api/challenge/ben",
        &anna,
        r#"{"variant":"synchronschach","color":"white"}"#,
    );
    let path = format!("/api/challenge/{}/accept", json_string(&challenge, "id"));
    let game = json_string(&json_from_host(&server, "POST", &path, &ben, ""), "gameId");

    let mut streams: Vec<TcpStream> = Vec::new();
    for n in 0..12 {
        let mut stream = connect_from(loopback(2 + (n % 3) as u8), server.address).unwrap();
        write!(
            stream,
            "GET /api/board/game/stream/{game} HTTP/1.1\r\nHost: localhost\r\n\r\n"
        )
        .unwrap();
        stream
            .set_read_timeout(Some(Duration::from_secs(5)))
            .unwrap();
        let mut seen = String::new();
        let mut buffer = [0u8; 4096];
        while !seen.contains("gameFull") {
            let n = stream.read(&mut buffer).expect("the stream begins");
            assert!(n > 0, "stream closed early: {seen}");
            seen.push_str(&String::from_utf8_lossy(&buffer[..n]));
        }
        streams.push(stream);
    }

    // The server is full of streams; a fresh address still gets in.
    assert_healthy_within(&server, Duration::from_secs(3));
    // One stream (the oldest of an address holding the most) was cut:
    // its connection closed, not left waiting for the stream to end.
    assert!(
        eventually(Duration::from_secs(3), || {
            streams.iter().filter(|s| closed_by_server(s)).count() == 1
        }),
        "{} streams closed; log: {}",
        streams.iter().filter(|s| closed_by_server(s)).count(),
        server.log()
    );
    let cut = streams.iter().position(closed_by_server).unwrap();
    assert!(cut < 3, "not an oldest stream: {cut}");
    // A player from a fresh address gets in the same way.
    let account = json_from_host(&server, "GET", "/api/account", &anna, "");
    assert_eq!(account.status, 200, "{account:?}");
    assert!(server.alive());
}

#[test]
fn slow_header_connections_are_closed_after_the_header_timeout() {
    raise_own_file_limit(2_000);
    let mut server = Server::start("slow", Some(1024), &["--header-timeout", "3s"]);
    let request = b"GET /healthz HTTP/1.1\r\nHost: localhost\r\nAccept: */*\r\n";
    let started = Instant::now();
    let mut slow: Vec<Option<TcpStream>> = (0..500)
        .map(|n| Some(connect_from(loopback(2 + (n % 3) as u8), server.address).unwrap()))
        .collect();
    // Byte by byte, every 200 ms, never finishing the head.
    let mut sent = 0;
    let mut drip = |slow: &mut Vec<Option<TcpStream>>| {
        for connection in slow.iter_mut() {
            if let Some(stream) = connection
                && stream.write_all(&request[sent..=sent]).is_err()
            {
                *connection = None;
            }
        }
        sent = (sent + 1).min(request.len() - 2);
    };
    drip(&mut slow);
    std::thread::sleep(Duration::from_millis(300));
    let held = slow
        .iter()
        .flatten()
        .filter(|s| !closed_by_server(s))
        .count();
    let elapsed = started.elapsed();
    assert!(
        held >= 490 || elapsed > Duration::from_secs(2),
        "only {held} of 500 held after {elapsed:?}, before the timeout"
    );
    assert_healthy_within(&server, Duration::from_secs(2));
    let all_closed = eventually(Duration::from_secs(8), || {
        drip(&mut slow);
        std::thread::sleep(Duration::from_millis(100));
        slow.iter().all(|c| c.as_ref().is_none_or(closed_by_server))
    });
    let took = started.elapsed();
    assert!(all_closed, "slow connections still open after {took:?}");
    assert!(took < Duration::from_secs(9), "{took:?}");
    assert_healthy_within(&server, Duration::from_secs(2));
    assert!(server.alive());
}

#[test]
fn accept_errors_at_the_file_limit_neither_spin_nor_stop_the_server() {
    raise_own_file_limit(2_000);
    // A cap above the file limit: the server runs out of descriptors.
    let mut server = Server::start(
        "emfile",
        Some(256),
        &[
            "--max-connections",
            "2000",
            "--max-per-address",
            "2000",
            "--header-timeout",
            "60s",
        ],
    );
    // Until the listen queue is full too: the server has stopped taking.
    let flood: Vec<TcpStream> = (0..400)
        .map_while(|_| connect_from(loopback(2), server.address).ok())
        .collect();
    assert!(flood.len() > 256, "only {} connections", flood.len());
    assert!(
        eventually(Duration::from_secs(5), || server
            .log()
            .contains("accepting connections fails")),
        "{}",
        server.log()
    );
    let before = server.cpu_ticks();
    std::thread::sleep(Duration::from_secs(2));
    let used = server.cpu_ticks() - before;
    // A loop retrying at once would use a whole core (about 200 ticks).
    assert!(
        used < 40,
        "{used} clock ticks of CPU in 2 s at the file limit"
    );
    drop(flood);
    assert!(
        eventually(Duration::from_secs(5), || request_from(
            loopback(1),
            &server,
            "GET",
            "/healthz"
        )
        .status
            == 200),
        "{}",
        server.log()
    );
    assert!(server.alive());
    assert!(
        server.log().matches("accepting connections fails").count() <= 1,
        "{}",
        server.log()
    );
}

/// A TLS client that trusts the test certificate.
fn tls_connect(address: SocketAddr) -> rustls::StreamOwned<rustls::ClientConnection, TcpStream> {
    use rustls::pki_types::pem::PemObject;
    use rustls::pki_types::{CertificateDer, ServerName};
    let mut roots = rustls::RootCertStore::empty();
    roots
        .add(CertificateDer::from_pem_file(tls_file("cert.pem")).unwrap())
        .unwrap();
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let config = rustls::ClientConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .unwrap()
        .with_root_certificates(roots)
        .with_no_client_auth();
    let name = ServerName::try_from("localhost").unwrap();
    let connection = rustls::ClientConnection::new(Arc::new(config), name).unwrap();
    let tcp = TcpStream::connect(address).unwrap();
    tcp.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
    rustls::StreamOwned::new(connection, tcp)
}

const LOGIN: &str = r#"{"username":"anna","password":"anna-password"}"#;

fn cookie_pair(answer: &Answer) -> String {
    let cookie = answer.header("set-cookie").expect("a session cookie");
    cookie.split(';').next().unwrap().to_string()
}

#[test]
fn over_tls_a_browser_logs_in_with_a_secure_cookie() {
    let cert = tls_file("cert.pem");
    let key = tls_file("key.pem");
    let server = Server::start(
        "tls",
        None,
        &[
            "--tls-cert",
            cert.to_str().unwrap(),
            "--tls-key",
            key.to_str().unwrap(),
        ],
    );
    let login = exchange(
        tls_connect(server.address),
        "POST",
        "/api/session",
        &[],
        LOGIN,
    );
    assert_eq!(login.status, 200, "{login:?}");
    let cookie = login.header("set-cookie").unwrap();
    assert!(cookie.contains("; Secure"), "{cookie}");
    let session = exchange(
        tls_connect(server.address),
        "GET",
        "/api/session",
        &[("Cookie", &cookie_pair(&login))],
        "",
    );
    assert_eq!(session.status, 200, "{session:?}");
    assert!(session.body.contains("\"anna\""), "{}", session.body);
    // Plain HTTP to a TLS port is no request.
    let plain = request_from(loopback(1), &server, "GET", "/healthz");
    assert_ne!(plain.status, 200);
}

#[test]
fn tls_files_that_cannot_serve_are_one_line_naming_the_file() {
    let dir = temp_dir("net-tls-errors");
    let data = dir.join("data");
    let cert = tls_file("cert.pem");
    let key = tls_file("key.pem");
    let other = tls_file("other-key.pem");
    let missing = dir.join("missing.pem");
    let cases: [(&[&Path], &str); 5] = [
        (&[&cert, &other], "does not match"),
        (&[&missing, &key], "missing.pem"),
        (&[&key, &key], "no PEM certificate"),
        (&[&cert, &cert], "no PEM private key"),
        (&[&cert], "--tls-key"),
    ];
    for (files, expected) in cases {
        let mut args = vec!["serve", "--listen", "127.0.0.1:0", "--data"];
        args.push(data.to_str().unwrap());
        args.extend(["--tls-cert", files[0].to_str().unwrap()]);
        if let Some(key) = files.get(1) {
            args.extend(["--tls-key", key.to_str().unwrap()]);
        }
        let out = tempo(&args, "");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success(), "{args:?} served");
        assert!(stderr.contains(expected), "{args:?}: {stderr}");
        assert_eq!(stderr.trim().lines().count(), 1, "{stderr}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn plain_http_cookies_are_not_secure_unless_a_trusted_proxy_says_https() {
    let server = Server::start("proxy", None, &["--trusted-proxy", "127.0.0.1"]);
    let login = |from: u8, headers: &[(&str, &str)]| {
        let stream = connect_from(loopback(from), server.address).unwrap();
        stream
            .set_read_timeout(Some(Duration::from_secs(10)))
            .unwrap();
        let answer = exchange(stream, "POST", "/api/session", headers, LOGIN);
        assert_eq!(answer.status, 200, "{answer:?}");
        answer.header("set-cookie").unwrap().to_string()
    };
    let https = [("X-Forwarded-Proto", "https")];
    // Plain HTTP (the club room): no Secure, so the browser keeps it.
    assert!(!login(1, &[]).contains("Secure"));
    // The trusted proxy says the client came over HTTPS.
    assert!(login(1, &https).contains("; Secure"));
    // Anyone else saying so is not believed.
    assert!(!login(2, &https).contains("Secure"));
    // The session works over plain HTTP.
    let cookie = login(2, &[]);
    let cookie = cookie.split(';').next().unwrap();
    let stream = connect_from(loopback(2), server.address).unwrap();
    stream
        .set_read_timeout(Some(Duration::from_secs(10)))
        .unwrap();
    let me = exchange(stream, "GET", "/api/me", &[("Cookie", cookie)], "");
    assert!(me.body.contains("\"anna\""), "{me:?}");
}

#[test]
fn oversized_request_heads_are_refused_with_json() {
    let server = Server::start("heads", None, &[]);
    let send = |path: &str, headers: &[(&str, &str)]| {
        let stream = TcpStream::connect(server.address).unwrap();
        stream
            .set_read_timeout(Some(Duration::from_secs(10)))
            .unwrap();
        exchange(stream, "GET", path, headers, "")
    };
    let long = format!("/api/users?q={}", "a".repeat(9_000));
    let answer = send(&long, &[]);
    assert_eq!(answer.status, 414, "{answer:?}");
    assert!(answer.body.starts_with("{\"error\":"), "{answer:?}");
    let big = "b".repeat(6_000);
    let answer = send("/healthz", &[("X-A", &big), ("X-B", &big), ("X-C", &big)]);
    assert_eq!(answer.status, 431, "{answer:?}");
    assert!(answer.body.starts_with("{\"error\":"), "{answer:?}");
    let names: Vec<String> = (0..120).map(|n| format!("X-N{n}")).collect();
    let many: Vec<(&str, &str)> = names.iter().map(|n| (n.as_str(), "1")).collect();
    let answer = send("/healthz", &many);
    assert_eq!(answer.status, 431, "{answer:?}");
    assert!(answer.body.starts_with("{\"error\":"), "{answer:?}");
    // Within the limits, the same request is served.
    assert_eq!(send("/healthz", &[("X-A", &big)]).status, 200);
}
