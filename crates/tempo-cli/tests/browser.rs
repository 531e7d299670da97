//! The web app in real Chromium: starts `tempo serve` on a fresh store,
//! adds the accounts, and runs the browser suite of `tests/browser/`
//! (Node + playwright-core driving Debian's `chromium`; see
//! docs/development.md, "Browser tests").
//!
//! Without chromium, node or the suite's `node_modules` the test says
//! `skipped: …` and passes, unless `TEMPO_REQUIRE_BROWSER=1` (`.ci/run`
//! sets it), when it fails naming what is missing.

mod common;

use std::io::{Read, Write};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// The accounts the suite plays with (name, password, role).
const ACCOUNTS: &[(&str, &str, &str)] = &[
    ("anna", "anna-password", "player"),
    ("ben", "ben-password", "player"),
    ("carl", "carl-password", "player"),
    ("arbi", "arbi-password", "arbiter"),
    // Only the notification test's receiver: no games of hers change its count.
    ("dora", "dora-password", "player"),
    // Only the ratings test's two players: no other games move their ratings.
    ("ella", "ella-password", "player"),
    ("finn", "finn-password", "player"),
];
const ADMIN_PASSWORD: &str = "admin-password";
/// The whole suite must finish within this (a few minutes; run.mjs's own
/// watchdog stops it after 900 s).
const SUITE_LIMIT: Duration = Duration::from_secs(960);

fn suite_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/browser")
}

/// `target/browser-screenshots`, next to the profile directory that holds
/// the `tempo` binary (so `CARGO_TARGET_DIR` is respected).
fn screenshot_dir() -> PathBuf {
    let exe = Path::new(env!("CARGO_BIN_EXE_tempo"));
    let target = exe
        .parent()
        .and_then(Path::parent)
        .map(Path::to_path_buf)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../../target"));
    target.join("browser-screenshots")
}

fn chromium() -> PathBuf {
    std::env::var_os("TEMPO_CHROMIUM")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from("/usr/bin/chromium"))
}

/// What the suite needs and this machine lacks, if anything.
fn missing() -> Option<String> {
    let chromium = chromium();
    if !chromium.is_file() {
        return Some(format!(
            "{} not found (apt-get install chromium, or set TEMPO_CHROMIUM)",
            chromium.display()
        ));
    }
    let node = Command::new("node")
        .arg("--version")
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .output();
    match node {
        Ok(out) if out.status.success() => {
            let version = String::from_utf8_lossy(&out.stdout);
            let major: u32 = version
                .trim()
                .trim_start_matches('v')
                .split('.')
                .next()
                .and_then(|m| m.parse().ok())
                .unwrap_or(0);
            if major < 20 {
                return Some(format!("node {} is too old (20 or later)", version.trim()));
            }
        }
        _ => return Some("node not found (Node.js 20 or later)".into()),
    }
    let modules = suite_dir().join("node_modules");
    for package in ["playwright-core", "axe-core"] {
        if !modules.join(package).join("package.json").is_file() {
            return Some(format!(
                "{} missing (run `npm ci` in {})",
                modules.join(package).display(),
                suite_dir().display()
            ));
        }
    }
    None
}

/// A running `tempo serve`; killed when dropped.
struct Server {
    child: Child,
    address: String,
    data: PathBuf,
}

impl Server {
    fn start() -> Server {
        Server::start_on("127.0.0.1:0")
    }

    /// `tempo serve --listen LISTEN`; `address` is where the server says it
    /// serves.
    fn start_on(listen: &str) -> Server {
        let data = std::env::temp_dir().join(format!(
            "tempo-browser-{}-{:x}",
            std::process::id(),
            rand::random::<u32>()
        ));
        std::fs::create_dir_all(&data).unwrap();
        let mut serve = Command::new(env!("CARGO_BIN_EXE_tempo"));
        serve
            .args(["serve", "--listen", listen, "--data"])
            .arg(&data)
            .env("TEMPO_ADMIN_PASSWORD", ADMIN_PASSWORD);
        // The rest of its output (the first admin's note) is drained.
        let (child, address) = common::start_serve(serve);
        Server {
            child,
            address,
            data,
        }
    }

    /// One HTTP/1.1 request; the status, the `set-cookie` value and the body.
    fn request(
        &self,
        method: &str,
        path: &str,
        headers: &[(&str, &str)],
        body: &str,
    ) -> (u16, Option<String>, String) {
        let mut stream = TcpStream::connect(&self.address).unwrap();
        stream
            .set_read_timeout(Some(Duration::from_secs(30)))
            .unwrap();
        let mut head = format!(
            "{method} {path} HTTP/1.1\r\nHost: {}\r\nConnection: close\r\n\
             Content-Type: application/json\r\nContent-Length: {}\r\n",
            self.address,
            body.len()
        );
        for (name, value) in headers {
            head.push_str(&format!("{name}: {value}\r\n"));
        }
        head.push_str("\r\n");
        stream.write_all(head.as_bytes()).unwrap();
        stream.write_all(body.as_bytes()).unwrap();
        let mut answer = String::new();
        stream.read_to_string(&mut answer).unwrap();
        let (head, body) = answer.split_once("\r\n\r\n").unwrap_or((&answer, ""));
        let status = head
            .split(' ')
            .nth(1)
            .and_then(|s| s.parse().ok())
            .unwrap_or(0);
        let cookie = head.lines().find_map(|l| {
            let (name, value) = l.split_once(':')?;
            name.eq_ignore_ascii_case("set-cookie")
                .then(|| value.trim().split(';').next().unwrap_or("").to_string())
        });
        (status, cookie, body.to_string())
    }

    /// Logs in as the first admin and adds `ACCOUNTS` through the API.
    fn add_accounts(&self) {
        let login = serde_json::json!({"username": "admin", "password": ADMIN_PASSWORD});
        let (status, cookie, body) = self.request("POST", "/api/session", &[], &login.to_string());
        assert_eq!(status, 200, "admin login: {body}");
        let cookie = cookie.expect("a session cookie");
        let session: serde_json::Value = serde_json::from_str(&body).unwrap();
        let csrf = session["csrf"].as_str().expect("a CSRF token").to_string();
        for (name, password, role) in ACCOUNTS {
            let user = serde_json::json!({"username": name, "password": password, "role": role});
            let (status, _, body) = self.request(
                "POST",
                "/api/users",
                &[("Cookie", &cookie), ("x-csrf-token", &csrf)],
                &user.to_string(),
            );
            assert_eq!(status, 200, "adding {name}: {body}");
        }
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        let _ = std::fs::remove_dir_all(&self.data);
    }
}

/// `ACCOUNTS` as the suite's scripts read it: `name:password:role,…`.
fn accounts_env() -> String {
    ACCOUNTS
        .iter()
        .map(|(name, password, role)| format!("{name}:{password}:{role}"))
        .collect::<Vec<_>>()
        .join(",")
}

fn browser_required() -> bool {
    std::env::var("TEMPO_REQUIRE_BROWSER").is_ok_and(|v| v == "1")
}

/// Fails if browser tests are required, else says why this one is
/// skipped.
fn skip(what: &str) {
    if browser_required() {
        panic!("browser tests required (TEMPO_REQUIRE_BROWSER=1), but {what}");
    }
    // Straight to the process's stderr: the test harness would swallow
    // an eprintln! of a passing test.
    let _ = writeln!(
        std::io::stderr(),
        "skipped: browser tests: {what} (TEMPO_REQUIRE_BROWSER=1 makes this fail)"
    );
}

/// Waits for `node`, killing it past `limit`.
fn wait_for_node(node: &mut Child, limit: Duration) -> std::process::ExitStatus {
    let started = Instant::now();
    loop {
        if let Some(status) = node.try_wait().unwrap() {
            return status;
        }
        if started.elapsed() > limit {
            let _ = node.kill();
            let _ = node.wait();
            panic!("the browser suite took longer than {} s", limit.as_secs());
        }
        std::thread::sleep(Duration::from_millis(100));
    }
}

#[test]
fn web_app_in_chromium() {
    if let Some(what) = missing() {
        skip(&what);
        return;
    }
    let server = Server::start();
    server.add_accounts();
    let screenshots = screenshot_dir();
    let mut node = Command::new("node")
        .arg("run.mjs")
        .current_dir(suite_dir())
        .env("BASE_URL", format!("http://{}", server.address))
        .env("TEMPO_BIN", env!("CARGO_BIN_EXE_tempo"))
        .env("CHROMIUM", chromium())
        .env("SCREENSHOT_DIR", &screenshots)
        .env("ADMIN_PASSWORD", ADMIN_PASSWORD)
        .env("ACCOUNTS", accounts_env())
        .stdin(Stdio::null())
        .spawn()
        .expect("node starts");
    let status = wait_for_node(&mut node, SUITE_LIMIT);
    drop(server);
    assert!(
        status.success(),
        "the browser suite failed ({status}); its output is above, screenshots in {}",
        screenshots.display()
    );
}

#[cfg(unix)]
/// The machine's first IPv4 address that is not loopback (nor link-local),
/// from the interfaces themselves: no packet is sent to find it.
fn lan_address() -> Option<std::net::Ipv4Addr> {
    let mut list: *mut libc::ifaddrs = std::ptr::null_mut();
    // SAFETY: getifaddrs writes the head of a list it allocates into `list`.
    if unsafe { libc::getifaddrs(&mut list) } != 0 {
        return None;
    }
    let mut found = None;
    let mut cursor = list;
    while !cursor.is_null() {
        // SAFETY: `cursor` is a node of the list getifaddrs made, not freed
        // before the end of this function.
        let entry = unsafe { &*cursor };
        cursor = entry.ifa_next;
        if entry.ifa_addr.is_null() {
            continue;
        }
        // SAFETY: a non-null ifa_addr points to a socket address whose
        // family field says what it is; an AF_INET one is a sockaddr_in.
        let ip = unsafe {
            if i32::from((*entry.ifa_addr).sa_family) != libc::AF_INET {
                continue;
            }
            let address = &*(entry.ifa_addr as *const libc::sockaddr_in);
            std::net::Ipv4Addr::from(u32::from_be(address.sin_addr.s_addr))
        };
        if !ip.is_loopback() && !ip.is_unspecified() && !ip.is_link_local() {
            found = Some(ip);
            break;
        }
    }
    // SAFETY: `list` came from getifaddrs and is freed once.
    unsafe { libc::freeifaddrs(list) };
    found
}

/// The club room: the server on every interface, Chromium at the
/// machine's network address over plain HTTP (not localhost, where
/// browsers accept Secure cookies without TLS and offer WebCrypto),
/// logging in through the page and checking a game's log there
/// (`tests/browser/lan.mjs`).
#[cfg(unix)]
#[test]
fn lan_login_in_chromium() {
    if let Some(what) = missing() {
        skip(&what);
        return;
    }
    let Some(ip) = lan_address() else {
        skip("this machine has no IPv4 address but loopback");
        return;
    };
    let server = Server::start_on("0.0.0.0:0");
    server.add_accounts();
    let port = server.address.rsplit(':').next().unwrap().to_string();
    let base = format!("http://{ip}:{port}");
    let mut node = Command::new("node")
        .arg("lan.mjs")
        .current_dir(suite_dir())
        .env("BASE_URL", &base)
        .env("TEMPO_BIN", env!("CARGO_BIN_EXE_tempo"))
        .env("CHROMIUM", chromium())
        .env("SCREENSHOT_DIR", screenshot_dir())
        .env("ADMIN_PASSWORD", ADMIN_PASSWORD)
        .env("ACCOUNTS", accounts_env())
        .stdin(Stdio::null())
        .spawn()
        .expect("node starts");
    let status = wait_for_node(&mut node, Duration::from_secs(120));
    drop(server);
    assert!(status.success(), "lan.mjs at {base} failed (output above)");
}

/// Runs the script `script` of `tests/browser/` against a fresh server
/// with `ACCOUNTS`, with `env` added to the suite's environment, and fails
/// if it does.
fn run_script(script: &str, env: &[(&str, &Path)], limit: Duration) {
    if let Some(what) = missing() {
        skip(&what);
        return;
    }
    let server = Server::start();
    server.add_accounts();
    let mut command = Command::new("node");
    command
        .arg(script)
        .current_dir(suite_dir())
        .env("BASE_URL", format!("http://{}", server.address))
        .env("TEMPO_BIN", env!("CARGO_BIN_EXE_tempo"))
        .env("CHROMIUM", chromium())
        .env("SCREENSHOT_DIR", screenshot_dir())
        .env("ADMIN_PASSWORD", ADMIN_PASSWORD)
        .env("ACCOUNTS", accounts_env())
        .stdin(Stdio::null());
    for (name, value) in env {
        command.env(name, value);
    }
    let mut node = command.spawn().expect("node starts");
    let status = wait_for_node(&mut node, limit);
    drop(server);
    assert!(
        status.success(),
        "{script} failed ({status}); its output is above"
    );
}

/// The guide's screenshots (docs/web.md, "Screenshots"): the main pages
/// at desktop and phone size in German and English, written into
/// `docs/screenshots/`. Not a test of the pages (the suite above is);
/// run it after changing them:
/// `cargo test -p tempo-cli --test browser -- --ignored screenshots_for_the_guide`.
#[test]
#[ignore = "writes docs/screenshots/; run by name"]
fn screenshots_for_the_guide() {
    let out = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs/screenshots");
    std::fs::create_dir_all(&out).unwrap();
    run_script(
        "screenshots.mjs",
        &[("GUIDE_DIR", &out)],
        Duration::from_secs(600),
    );
}

/// The play feel in figures for docs/performance.md ("The web app"):
/// reveal latency on both players' pages and a spectator's, and each main
/// page's requests and bytes on a cold load. A measurement that prints
/// its figures, not a timed test: it fails only if the pages do.
/// `cargo test -p tempo-cli --test browser -- --ignored measure_play_feel --nocapture`.
#[test]
#[ignore = "a measurement; run by name"]
fn measure_play_feel() {
    run_script("measure.mjs", &[], Duration::from_secs(900));
}
