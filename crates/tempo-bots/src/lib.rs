//! The play server's computer opponents: member accounts played by
//! tempo-engine through the server's own API, as a person's client would.
//!
//! A bot accepts challenges from its event stream, follows each game's
//! stream and posts its choices; it learns an opponent's hidden move only
//! from the reveal, like anyone else. The bots run inside the server's
//! process and call its router directly (no socket), so they need nothing
//! but an [`AppState`].
//!
//! # Example
//!
//! Start the bots beside the server (this is what `tempo serve` does
//! unless it is given `--no-bots`):
//!
//! ```no_run
//! # async fn serve(state: tempo_server::AppState, now_millis: i64) -> Result<(), tempo_bots::StartError> {
//! tempo_bots::start(&state, now_millis).await?;
//! let names: Vec<&str> = tempo_bots::BOTS.iter().map(|bot| bot.name).collect();
//! assert_eq!(names, ["bot-random", "bot-greedy", "bot-nash", "bot-nash-strong"]);
//! # Ok(())
//! # }
//! ```

use std::collections::HashSet;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::Router;
use axum::body::Body;
use axum::http::{Method, Request};
use futures_util::StreamExt;
use serde_json::Value;
use tempo_chess::Color;
use tempo_engine::{GameStart, Limits, Player, PlayerKind};
use tempo_server::auth::{self, AccountError, Role, User};
use tempo_server::store::StoreError;
use tempo_server::{AppState, BotLevel};
use tempo_sync::GameKind;
use tower::ServiceExt;

/// Why the bots could not start.
#[derive(Debug, thiserror::Error)]
pub enum StartError {
    /// Reading or writing a bot's account or token failed.
    #[error(transparent)]
    Store(#[from] StoreError),
    /// A new bot account's password could not be hashed.
    #[error(transparent)]
    Account(#[from] AccountError),
}

/// One computer opponent: its account name, how it plays, and its time.
#[derive(Debug, Clone, Copy)]
pub struct Bot {
    /// The account's name (reserved: see `tempo_server::auth::BOT_PREFIX`).
    pub name: &'static str,
    /// The engine's player.
    pub kind: PlayerKind,
    /// Thinking time per choice (the nash player), milliseconds.
    pub movetime: u64,
    /// Its strength on Stockfish's calibrated Elo scale in orthodox chess,
    /// measured at this time a move (docs/engine.md, "The computer
    /// opponents' levels").
    pub level: BotLevel,
}

/// The strengths a club gets: a beginner's, the greedy one every other
/// implementation has, and the engine at two speeds.
pub const BOTS: &[Bot] = &[
    Bot {
        name: "bot-random",
        kind: PlayerKind::Random,
        movetime: 0,
        level: BotLevel::below(1080),
    },
    Bot {
        name: "bot-greedy",
        kind: PlayerKind::Greedy,
        movetime: 0,
        level: BotLevel::below(1080),
    },
    Bot {
        name: "bot-nash",
        kind: PlayerKind::Nash,
        movetime: 300,
        level: BotLevel::about(1734, 1564, 1885),
    },
    Bot {
        name: "bot-nash-strong",
        kind: PlayerKind::Nash,
        movetime: 2000,
        level: BotLevel::about(1742, 1530, 1940),
    },
];

/// Creates the bots' accounts if missing (`now` is their creation time,
/// Unix milliseconds) and starts each bot as tasks of the current Tokio
/// runtime, with a token of its own for this instance.
///
/// Several instances may run bots on one store: each start holds its own
/// tokens, leased for [`TOKEN_LEASE`] and renewed while it runs, and ends
/// only tokens whose lease has lapsed (an earlier start's that stopped, or
/// a token from a release before leases), so the bots of instances still
/// running keep theirs. A game is played by one instance's bot: the one
/// holding its lease (see [`GAME_LEASE`]); another instance's bot takes it
/// over once that lease lapses.
///
/// # Errors
///
/// When the store cannot read or write a bot's account or token.
pub async fn start(state: &AppState, now: i64) -> Result<(), StartError> {
    let router = tempo_server::router(state.clone());
    state.store.end_lapsed_bot_games(state.clock.now()).await?;
    for bot in BOTS {
        if state.store.user(bot.name).await?.is_none() {
            // Nobody logs in as a bot: its password is random and unknown.
            let password = auth::new_token().0;
            let user = User {
                name: bot.name.into(),
                role: Role::Player,
            };
            state
                .store
                .add_user(&user, &auth::hash_password(&password)?, now)
                .await?;
        }
        state.bot_levels.set(bot.name, bot.level);
        let runner = Runner {
            bot: *bot,
            state: state.clone(),
            token: Arc::new(Mutex::new(Token::default())),
            router: router.clone(),
            games: Arc::default(),
        };
        runner.end_lapsed_tokens().await?;
        runner.new_token().await?;
        let keeper = runner.clone();
        tokio::spawn(async move { keeper.keep().await });
        tokio::spawn(async move { runner.events().await });
    }
    Ok(())
}

/// How long a bot's token lives without renewal: an instance that stops
/// leaves tokens that any instance's bots end once this has passed.
pub const TOKEN_LEASE: Duration = Duration::from_secs(10 * 60);
/// How often a running bot renews its token's lease.
const TOKEN_RENEWAL: Duration = Duration::from_secs(60);
/// How long a bot's claim on a game lasts without renewal: if the
/// instance playing it stops, another instance's bot takes the game over
/// after this (and after at most [`LOOK_FOR_GAMES`]).
pub const GAME_LEASE: Duration = Duration::from_secs(15);
/// How often a bot renews its claim on a game it plays.
const GAME_RENEWAL: Duration = Duration::from_secs(5);
/// How often a bot looks in the store for games of its that no instance
/// plays (their instance stopped).
pub const LOOK_FOR_GAMES: Duration = Duration::from_secs(5);

fn millis(d: Duration) -> u64 {
    d.as_millis() as u64
}

/// Most games a bot plays at once, and with one member at once: a bot's
/// time is the server's CPU.
const MAX_GAMES: usize = 4;
const MAX_GAMES_WITH_ONE: usize = 1;

/// The engine thinks for one bot at a time, leaving the other core to the
/// server.
static THINKING: tokio::sync::Semaphore = tokio::sync::Semaphore::const_new(1);

/// A bot's token and the hash the store keeps of it.
#[derive(Debug, Default)]
struct Token {
    token: String,
    hash: String,
}

#[derive(Clone)]
struct Runner {
    bot: Bot,
    state: AppState,
    token: Arc<Mutex<Token>>,
    router: Router,
    /// The games this runner plays now.
    games: Arc<Mutex<HashSet<String>>>,
}

impl Runner {
    /// A new token for the bot, leased for [`TOKEN_LEASE`] (the one it had
    /// may have ended: its lease lapsed while this instance was stalled).
    async fn new_token(&self) -> Result<(), StoreError> {
        let (token, hash) = auth::new_token();
        let now = self.state.clock.now();
        self.state
            .store
            .add_leased_token(&hash, self.bot.name, now, now + millis(TOKEN_LEASE))
            .await?;
        *self.token.lock().expect("not poisoned") = Token { token, hash };
        Ok(())
    }

    /// Ends the bot's tokens whose lease lapsed (instances that stopped).
    async fn end_lapsed_tokens(&self) -> Result<(), StoreError> {
        let now = self.state.clock.now();
        for hash in self
            .state
            .store
            .end_lapsed_tokens(self.bot.name, now)
            .await?
        {
            self.state.tokens.forget(&hash);
        }
        Ok(())
    }

    /// While the instance runs: renews the token's lease, ends lapsed
    /// tokens, and takes up the bot's games that no instance plays.
    async fn keep(self) {
        let mut look = tokio::time::interval(LOOK_FOR_GAMES);
        let mut renew = tokio::time::interval(TOKEN_RENEWAL);
        look.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        renew.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            tokio::select! {
                _ = renew.tick() => {
                    if let Err(e) = self.renew_token().await {
                        tracing::error!(bot = self.bot.name, error = %e, "renewing a bot's token");
                    }
                }
                _ = look.tick() => {
                    let Ok(ids) = self.state.store.unfinished_games(Some(self.bot.name)).await else {
                        continue;
                    };
                    for id in ids {
                        self.play(id);
                    }
                }
            }
        }
    }

    async fn renew_token(&self) -> Result<(), StoreError> {
        let hash = self.token.lock().expect("not poisoned").hash.clone();
        let until = self.state.clock.now() + millis(TOKEN_LEASE);
        if !self.state.store.renew_token(&hash, until).await? {
            self.new_token().await?;
        }
        self.end_lapsed_tokens().await
    }

    /// Takes or renews this instance's claim on playing `game`.
    async fn claim(&self, game: &str) -> bool {
        let now = self.state.clock.now();
        let claimed = self
            .state
            .store
            .claim_bot_game(
                game,
                self.bot.name,
                &self.state.instance,
                now,
                now + millis(GAME_LEASE),
            )
            .await;
        claimed.unwrap_or_else(|e| {
            tracing::error!(bot = self.bot.name, game, error = %e, "claiming a bot's game");
            false
        })
    }

    async fn call(&self, method: Method, uri: &str) -> Option<axum::response::Response> {
        let token = self.token.lock().expect("not poisoned").token.clone();
        let request = Request::builder()
            .method(method)
            .uri(uri)
            .header("authorization", format!("Bearer {token}"))
            .body(Body::empty())
            .ok()?;
        self.router.clone().oneshot(request).await.ok()
    }

    /// An NDJSON stream of the API, read a JSON value a line.
    async fn open(&self, uri: &str) -> Option<Lines> {
        let response = self.call(Method::GET, uri).await?;
        if response.status() == axum::http::StatusCode::UNAUTHORIZED {
            let _ = self.new_token().await;
            return None;
        }
        if !response.status().is_success() {
            return None;
        }
        Some(Lines {
            body: response.into_body().into_data_stream(),
            buffer: Vec::new(),
        })
    }

    /// The bot's event stream: accept every challenge, play every game.
    async fn events(self) {
        loop {
            if let Some(mut events) = self.open("/api/stream/event").await {
                while let Some(event) = events.next().await {
                    self.on_event(&event).await;
                }
            }
            // The stream ended (a restart of the stream, or shutdown).
            tokio::time::sleep(std::time::Duration::from_secs(2)).await;
        }
    }

    async fn on_event(&self, event: &Value) {
        match event["type"].as_str() {
            Some("challenge") => self.answer_challenges().await,
            Some("gameStart") => {
                if let Some(id) = event["game"]["id"].as_str() {
                    self.play(id.to_string());
                }
            }
            _ => {}
        }
    }

    /// Accepts the pending challenges it has room for; declines games
    /// without a running clock (they might never end) and challenges
    /// beyond its limits. The limits count the bot's games in the store,
    /// so that the bots of every instance answer alike (of two answers to
    /// one challenge, one wins).
    async fn answer_challenges(&self) {
        let Some(pending) = self.get_json("/api/challenge").await else {
            return;
        };
        let Some(mut opponents) = self.opponents().await else {
            return;
        };
        for challenge in pending["in"].as_array().into_iter().flatten() {
            let (Some(id), Some(from)) = (
                challenge["id"].as_str(),
                challenge["challenger"]["name"].as_str(),
            ) else {
                continue;
            };
            let timed = challenge["clock"]
                .as_str()
                .is_some_and(|c| !c.starts_with("1/"));
            let with_them = opponents
                .iter()
                .filter(|o| o.eq_ignore_ascii_case(from))
                .count();
            let accept = timed && opponents.len() < MAX_GAMES && with_them < MAX_GAMES_WITH_ONE;
            let answer = if accept { "accept" } else { "decline" };
            let answered = self
                .call(Method::POST, &format!("/api/challenge/{id}/{answer}"))
                .await;
            if accept && answered.is_some_and(|r| r.status().is_success()) {
                opponents.push(from.to_string());
            }
        }
    }

    /// The opponents of the bot's games in play, as the store has them.
    async fn opponents(&self) -> Option<Vec<String>> {
        let store = &self.state.store;
        let mut opponents = Vec::new();
        for id in store.unfinished_games(Some(self.bot.name)).await.ok()? {
            if let Ok(Some((white, black))) = store.game_players(&id).await {
                let bot = self.bot.name;
                opponents.push(if white.eq_ignore_ascii_case(bot) {
                    black
                } else {
                    white
                });
            }
        }
        Some(opponents)
    }

    async fn get_json(&self, uri: &str) -> Option<Value> {
        let response = self.call(Method::GET, uri).await?;
        let bytes = axum::body::to_bytes(response.into_body(), 1 << 20)
            .await
            .ok()?;
        serde_json::from_slice(&bytes).ok()
    }

    /// Plays `game` if this runner does not play it yet and this instance
    /// gets the claim on it.
    fn play(&self, game: String) {
        if !self
            .games
            .lock()
            .expect("not poisoned")
            .insert(game.clone())
        {
            return;
        }
        let me = self.clone();
        tokio::spawn(async move {
            if me.claim(&game).await {
                me.follow(&game).await;
                me.release(&game).await;
            }
            me.games.lock().expect("not poisoned").remove(&game);
        });
    }

    async fn release(&self, game: &str) {
        let released = self
            .state
            .store
            .release_bot_game(game, self.bot.name, &self.state.instance)
            .await;
        if let Err(e) = released {
            tracing::error!(bot = self.bot.name, game, error = %e, "releasing a bot's game");
        }
    }

    /// Follows a game's stream and answers every state that asks for a
    /// choice of the bot's colour.
    async fn follow(&self, game: &str) {
        let Some(mut lines) = self.open(&format!("/api/board/game/stream/{game}")).await else {
            return;
        };
        let mut seat: Option<(GameKind, Color)> = None;
        let mut answered = HashSet::new();
        let mut renew = tokio::time::interval(GAME_RENEWAL);
        renew.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            let line = tokio::select! {
                line = lines.next() => line,
                _ = renew.tick() => {
                    // Lost (this instance stalled past the lease): the
                    // instance that took the game plays it.
                    if !self.claim(game).await {
                        return;
                    }
                    continue;
                }
            };
            let Some(line) = line else { return };
            let state = match line["type"].as_str() {
                Some("gameFull") => {
                    seat = seat_of(&line, self.bot.name);
                    line["state"].clone()
                }
                Some("gameState") => line,
                _ => continue,
            };
            let Some((kind, color)) = seat else { return };
            // Lichess's status names: `started` while the game goes on,
            // any other once it is over.
            if state["status"] != "started" {
                return;
            }
            if state["committed"][color_name(color)] == true {
                continue;
            }
            let legal: Vec<String> = state["legal"]
                .as_array()
                .map(|a| {
                    a.iter()
                        .filter_map(|v| v.as_str().map(str::to_string))
                        .collect()
                })
                .unwrap_or_default();
            if legal.is_empty() || !answered.insert((state["step"].as_u64(), state["seq"].as_u64()))
            {
                continue;
            }
            let fen = state["fen"].as_str().unwrap_or("").to_string();
            let bot = self.bot;
            let Ok(_permit) = THINKING.acquire().await else {
                return;
            };
            let choice = tokio::task::spawn_blocking(move || think(bot, kind, &fen, color, &legal))
                .await
                .ok()
                .flatten();
            if let Some(choice) = choice {
                self.call(
                    Method::POST,
                    &format!("/api/board/game/{game}/move/{choice}"),
                )
                .await;
            }
        }
    }
}

/// The lines of an NDJSON answer.
struct Lines {
    body: axum::body::BodyDataStream,
    buffer: Vec<u8>,
}

impl Lines {
    async fn next(&mut self) -> Option<Value> {
        loop {
            if let Some(end) = self.buffer.iter().position(|&b| b == b'\n') {
                let line: Vec<u8> = self.buffer.drain(..=end).collect();
                match serde_json::from_slice::<Value>(&line) {
                    Ok(value) => return Some(value),
                    Err(_) => continue, // keep-alive blank lines
                }
            }
            let chunk = self.body.next().await?.ok()?;
            self.buffer.extend_from_slice(&chunk);
        }
    }
}

fn color_name(color: Color) -> &'static str {
    if color == Color::White {
        "white"
    } else {
        "black"
    }
}

fn seat_of(full: &Value, name: &str) -> Option<(GameKind, Color)> {
    // Lichess's variant object: `fromPosition` is orthodox chess from a
    // set-up position; every other key is tempo's variant name.
    let kind: GameKind = match full["variant"]["key"].as_str()? {
        "fromPosition" => GameKind::Standard,
        key => key.parse().ok()?,
    };
    let is = |c: &str| {
        full[c]["name"]
            .as_str()
            .is_some_and(|n| n.eq_ignore_ascii_case(name))
    };
    if is("white") {
        Some((kind, Color::White))
    } else if is("black") {
        Some((kind, Color::Black))
    } else {
        None
    }
}

/// The bot's choice for the position `fen`, one of `legal` (the server's
/// list decides; should the engine name another, a legal one is played).
fn think(bot: Bot, kind: GameKind, fen: &str, color: Color, legal: &[String]) -> Option<String> {
    let limits = if bot.movetime > 0 {
        Limits::movetime(bot.movetime)
    } else {
        Limits::depth(1)
    };
    let chosen = kind.from_fen(fen).ok().and_then(|state| {
        let mut player = Player::new(bot.kind, limits, rand::random());
        let choice = player.choose(&state, color)?;
        Some(state.choice_name(color, choice))
    });
    match chosen {
        Some(choice) if legal.contains(&choice) => Some(choice),
        _ => legal.get(rand::random_range(0..legal.len())).cloned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_bot_answers_with_a_legal_choice_in_every_variant() {
        let cases = [
            (
                GameKind::Standard,
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            ),
            (
                GameKind::Fairschach,
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR s KQkq - - 0 1",
            ),
            (
                GameKind::Synchronschach,
                "rnbqkb1r/ppp1pppp/5n2/3P4/8/8/PPPP1PPP/RNBQKBNR x:-:d5:- KQkq - - 0 2",
            ),
        ];
        for bot in &BOTS[..3] {
            let bot = Bot {
                movetime: bot.movetime.min(50),
                ..*bot
            };
            for (kind, fen) in cases {
                let color = if kind == GameKind::Synchronschach {
                    Color::Black
                } else {
                    Color::White
                };
                let state = kind.from_fen(fen).unwrap();
                let legal: Vec<String> = state
                    .choices(color)
                    .into_iter()
                    .map(|c| state.choice_name(color, c))
                    .collect();
                let choice = think(bot, kind, fen, color, &legal).expect("a choice");
                assert!(
                    legal.contains(&choice),
                    "{} in {fen}: {choice} not in {legal:?}",
                    bot.name
                );
            }
        }
    }
}
