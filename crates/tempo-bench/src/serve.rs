//! `tempo bench serve`: games of simultaneous pairs driven over real
//! sockets on loopback against an in-process server; commits
//! acknowledged per second, the time from a step's last commit to its
//! reveal reaching both players, and the storage ceiling of the same run
//! (the same entries appended straight to a fresh store).

use std::sync::Arc;
use std::time::{Duration, Instant};

use bytes::Bytes;
use http_body_util::{BodyExt, Empty, Full};
use hyper::Request;
use hyper::client::conn::http1::SendRequest;
use hyper_util::rt::TokioIo;
use rand::{RngExt, SeedableRng};
use serde_json::{Value, json};
use tempo_chess::Color;
use tempo_server::AppState;
use tempo_server::auth::{Role, User};
use tempo_server::store::{NextFlag, Store};
use tempo_sync::{Rules, SyncGame, Variant};
use tokio::sync::mpsc;

/// What to run.
#[derive(Debug, Clone)]
pub struct ServeBench {
    pub games: usize,
    pub pairs: usize,
    /// `None`: SQLite in a temporary directory.
    pub database: Option<String>,
    pub seed: u64,
    /// Commits per second offered in all (each game's steps are spread
    /// evenly, as players think); `None`: as fast as they are answered.
    pub rate: Option<f64>,
}

/// What it measured.
#[derive(Debug, Clone)]
pub struct ServeFigures {
    pub commits: u64,
    pub seconds: f64,
    /// Milliseconds from a step's last commit to its reveal on both
    /// players' streams, sorted.
    pub latencies: Vec<f64>,
    /// Entries appended per second straight to a fresh store.
    pub ceiling_appends: f64,
    /// Appends (commands) the run stored.
    pub appends: u64,
}

impl ServeFigures {
    pub fn commits_per_second(&self) -> f64 {
        self.commits as f64 / self.seconds
    }

    /// The `q` quantile of the latencies (0 ≤ q ≤ 1).
    pub fn latency(&self, q: f64) -> f64 {
        if self.latencies.is_empty() {
            return f64::NAN;
        }
        let index = ((self.latencies.len() - 1) as f64 * q).round() as usize;
        self.latencies[index]
    }
}

/// Users the games are shared among (a user plays many games at once).
const USERS: usize = 40;

type Error = Box<dyn std::error::Error + Send + Sync>;

/// Runs the benchmark; `progress` hears of each finished game.
pub async fn run(
    bench: &ServeBench,
    progress: impl Fn() + Send + Sync + 'static,
) -> Result<ServeFigures, Error> {
    let dir = std::env::temp_dir().join(format!("tempo-bench-serve-{}", std::process::id()));
    let store = match &bench.database {
        Some(url) => Store::connect(url).await?,
        None => Store::open_dir(&dir).await?,
    };
    let state = AppState::new(store.clone()).await?;
    let tokens = users(&store).await?;
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
    let address = listener.local_addr()?;
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    // Every player is this process on loopback: one address holds all the
    // connections, so the per-address cap (a defence against one client
    // taking the server) is the whole cap here.
    let mut options = tempo_server::net::NetOptions::default();
    options.max_per_address = options.max_connections;
    let server = tokio::spawn(tempo_server::serve_with(listener, state, options, async {
        let _ = stopped.await;
    }));

    let mut games = Vec::with_capacity(bench.games);
    let mut setup = connect(address).await?;
    for g in 0..bench.games {
        let (white, black) = (g * 2 % USERS, (g * 2 + 1) % USERS);
        let id = create_game(&mut setup, &tokens[white], &tokens[black]).await?;
        games.push((id, tokens[white].clone(), tokens[black].clone()));
    }
    let progress = Arc::new(progress);
    // Every game connects and opens its streams first; the clock starts
    // when all are ready.
    let ready = Arc::new(tokio::sync::Barrier::new(bench.games + 1));
    let mut tasks = Vec::new();
    for (index, (id, white, black)) in games.iter().cloned().enumerate() {
        let progress = progress.clone();
        let ready = ready.clone();
        let (pairs, seed) = (bench.pairs, bench.seed ^ index as u64);
        // Two commits a step: a game's steps follow each other by this.
        let interval = bench
            .rate
            .map(|rate| Duration::from_secs_f64(2.0 * bench.games as f64 / rate));
        tasks.push(tokio::spawn(async move {
            let result = play_game(
                address,
                &id,
                [&white, &black],
                pairs,
                seed,
                interval,
                &ready,
            )
            .await;
            progress();
            result
        }));
    }
    ready.wait().await;
    let start = Instant::now();
    let (mut commits, mut latencies) = (0u64, Vec::new());
    for task in tasks {
        let (c, l) = task.await??;
        commits += c;
        latencies.extend(l);
    }
    let seconds = start.elapsed().as_secs_f64();
    latencies.sort_by(f64::total_cmp);
    let _ = stop.send(());
    let _ = server.await;

    let mut logs = Vec::new();
    for (id, _, _) in &games {
        logs.push((id.clone(), store.entries(id).await?));
    }
    let appends = logs.iter().map(|(_, e)| e.len() as u64).sum();
    let ceiling_appends = storage_ceiling(bench, &logs).await?;
    let _ = std::fs::remove_dir_all(&dir);
    Ok(ServeFigures {
        commits,
        seconds,
        latencies,
        ceiling_appends,
        appends,
    })
}

/// Accounts and their tokens, made straight in the store (hashing a
/// password per account would only time Argon2).
async fn users(store: &Store) -> Result<Vec<String>, Error> {
    let hash = tempo_server::auth::hash_password("bench-password")?;
    let mut tokens = Vec::new();
    for i in 0..USERS {
        let user = User {
            name: format!("bench{i}"),
            role: Role::Player,
        };
        store.add_user(&user, &hash, 0).await?;
        let (token, token_hash) = tempo_server::auth::new_token();
        store.add_token(&token_hash, &user.name, 0).await?;
        tokens.push(token);
    }
    Ok(tokens)
}

/// A keep-alive HTTP/1.1 connection.
async fn connect(address: std::net::SocketAddr) -> Result<SendRequest<Full<Bytes>>, Error> {
    let stream = tokio::net::TcpStream::connect(address).await?;
    stream.set_nodelay(true)?;
    let (sender, connection) = hyper::client::conn::http1::handshake(TokioIo::new(stream)).await?;
    tokio::spawn(connection);
    Ok(sender)
}

async fn call(
    conn: &mut SendRequest<Full<Bytes>>,
    method: &str,
    path: &str,
    token: &str,
    body: Option<Value>,
) -> Result<Value, Error> {
    conn.ready().await?;
    let request = Request::builder()
        .method(method)
        .uri(path)
        .header("host", "bench")
        .header("authorization", format!("Bearer {token}"))
        .header("content-type", "application/json")
        .body(Full::new(Bytes::from(
            body.map(|b| b.to_string()).unwrap_or_default(),
        )))?;
    let response = conn.send_request(request).await?;
    let status = response.status();
    let bytes = response.into_body().collect().await?.to_bytes();
    let value: Value = serde_json::from_slice(&bytes).unwrap_or(Value::Null);
    if !status.is_success() {
        return Err(format!("{method} {path}: {status} {value}").into());
    }
    Ok(value)
}

async fn create_game(
    conn: &mut SendRequest<Full<Bytes>>,
    white: &str,
    black: &str,
) -> Result<String, Error> {
    let black_name = call(conn, "GET", "/api/account", black, None).await?["username"]
        .as_str()
        .unwrap_or_default()
        .to_string();
    let spec = json!({"variant": "fairschach", "color": "white"});
    let challenge = call(
        conn,
        "POST",
        &format!("/api/challenge/{black_name}"),
        white,
        Some(spec),
    )
    .await?;
    let id = challenge["id"].as_str().unwrap_or_default();
    let accepted = call(
        conn,
        "POST",
        &format!("/api/challenge/{id}/accept"),
        black,
        None,
    )
    .await?;
    Ok(accepted["gameId"].as_str().unwrap_or_default().to_string())
}

/// Opens a player's game stream; each reveal's step arrives on the
/// returned channel with the instant it was read.
async fn reveals(
    address: std::net::SocketAddr,
    game: &str,
    token: &str,
) -> Result<mpsc::UnboundedReceiver<(u64, Instant)>, Error> {
    let stream = tokio::net::TcpStream::connect(address).await?;
    stream.set_nodelay(true)?;
    let (mut sender, connection) =
        hyper::client::conn::http1::handshake::<_, Empty<Bytes>>(TokioIo::new(stream)).await?;
    tokio::spawn(connection);
    let request = Request::builder()
        .uri(format!("/api/board/game/stream/{game}"))
        .header("host", "bench")
        .header("authorization", format!("Bearer {token}"))
        .body(Empty::new())?;
    let mut body = sender.send_request(request).await?.into_body();
    let (tx, rx) = mpsc::unbounded_channel();
    tokio::spawn(async move {
        let _keep = sender;
        let mut buffer = Vec::new();
        while let Some(Ok(frame)) = body.frame().await {
            let Ok(data) = frame.into_data() else {
                continue;
            };
            let now = Instant::now();
            buffer.extend_from_slice(&data);
            while let Some(end) = buffer.iter().position(|&b| b == b'\n') {
                let line: Vec<u8> = buffer.drain(..=end).collect();
                // Only reveal lines are read whole: the client's work is
                // kept small, as it shares the machine with the server.
                if !contains(&line, br#""type":"reveal""#) {
                    continue;
                }
                if let Ok(value) = serde_json::from_slice::<Value>(&line) {
                    let _ = tx.send((value["step"].as_u64().unwrap_or(0), now));
                }
            }
        }
    });
    Ok(rx)
}

/// Plays up to `pairs` steps of one game with random choices (a local
/// copy of the game picks them); returns the commits acknowledged and
/// the latency of each step.
async fn play_game(
    address: std::net::SocketAddr,
    game: &str,
    tokens: [&str; 2],
    pairs: usize,
    seed: u64,
    interval: Option<Duration>,
    ready: &tokio::sync::Barrier,
) -> Result<(u64, Vec<f64>), Error> {
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
    // Each game starts at its own moment within the first interval.
    let phase = interval.map(|i| i.mul_f64(rng.random::<f64>()));
    let setup = async {
        let conn = connect(address).await?;
        let white = reveals(address, game, tokens[0]).await?;
        let black = reveals(address, game, tokens[1]).await?;
        Ok::<_, Error>((conn, [white, black]))
    }
    .await;
    // Every game reaches the barrier, also one whose set-up failed.
    ready.wait().await;
    let (mut conn, mut streams) = setup?;
    let mut local = SyncGame::new(Rules::new(Variant::Fairschach));
    let (mut commits, mut latencies) = (0u64, Vec::new());
    let start = Instant::now() + phase.unwrap_or_default();
    for step in 0..pairs as u64 {
        if local.is_over() {
            break;
        }
        if let Some(interval) = interval {
            // On schedule; a step that is late starts at once.
            tokio::time::sleep_until((start + interval * step as u32).into()).await;
        }
        let choices = Color::ALL.map(|c| {
            let options = local.choices(c);
            (!options.is_empty()).then(|| options[rng.random_range(0..options.len())])
        });
        let mut last = Instant::now();
        for color in Color::ALL {
            let Some(choice) = choices[color.index()] else {
                continue;
            };
            last = Instant::now();
            let path = format!("/api/board/game/{game}/move/{choice}");
            call(&mut conn, "POST", &path, tokens[color.index()], None).await?;
            commits += 1;
        }
        let mut arrived = last;
        for stream in &mut streams {
            loop {
                let (revealed, at) = tokio::time::timeout(Duration::from_secs(30), stream.recv())
                    .await?
                    .ok_or("a stream closed")?;
                if revealed == step {
                    arrived = arrived.max(at);
                    break;
                }
            }
        }
        latencies.push(arrived.duration_since(last).as_secs_f64() * 1e3);
        local = local.resolve(choices[0], choices[1])?.0;
    }
    Ok((commits, latencies))
}

fn contains(haystack: &[u8], needle: &[u8]) -> bool {
    haystack.windows(needle.len()).any(|w| w == needle)
}

/// Appends per second of the run's entries straight into a fresh store,
/// each command's entries as one job of the same group-committing writer,
/// every game at once.
async fn storage_ceiling(
    bench: &ServeBench,
    logs: &[(String, Vec<tempo_host::Entry>)],
) -> Result<f64, Error> {
    let dir = std::env::temp_dir().join(format!("tempo-bench-ceiling-{}", std::process::id()));
    let store = match &bench.database {
        // The same database: the copies go under new game ids.
        Some(url) => Store::connect(url).await?,
        None => Store::open_dir(&dir).await?,
    };
    let writer = tempo_server::writer::Writer::start(store.clone());
    let prefix = format!("ceiling{}", rand::random::<u32>());
    for (id, entries) in logs {
        if let Some(first) = entries.first() {
            store
                .add_game("bench0", "bench1", first, &format!("{prefix}{id}"))
                .await
                .ok();
        }
    }
    let start = Instant::now();
    let mut tasks = Vec::new();
    let mut count = 0u64;
    for (id, entries) in logs {
        let (writer, id) = (writer.clone(), format!("{prefix}{id}"));
        let entries: Vec<_> = entries.iter().skip(1).cloned().collect();
        count += entries.len() as u64;
        tasks.push(tokio::spawn(async move {
            // The bench's games are untimed: no flag ever falls, and the
            // stored one is kept as the server's hub keeps it.
            let mut stored = None;
            for entry in entries {
                let flag = NextFlag::for_append(stored, None);
                writer.append(&id, vec![entry], flag).await?;
                if let NextFlag::Set(at) = flag {
                    stored = Some(at);
                }
            }
            Ok::<(), tempo_server::store::StoreError>(())
        }));
    }
    for task in tasks {
        task.await??;
    }
    let rate = count as f64 / start.elapsed().as_secs_f64();
    let _ = std::fs::remove_dir_all(&dir);
    Ok(rate)
}
