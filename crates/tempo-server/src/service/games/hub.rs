//! The games in play: each a [`HostedGame`] behind a lock, fed commands
//! and the time, its entries stored before anyone hears of them, then
//! fanned out as public lines. Only public forms ever enter a channel:
//! a sealed choice stays in the game and the store.

use std::collections::HashMap;
use std::sync::Arc;

use serde_json::{Map, Value};
use tempo_chess::Color;
use tempo_host::view::Audience;
use tempo_host::{Command, Entry, HostedGame};
use tokio::sync::{Mutex, broadcast};

use super::error::GameError;
use super::writer::Writer;
use crate::domain::tables::is_guest_key;
use crate::service::events::UserEvent;
use crate::service::game_facts::{GameFacts, News};
use crate::service::mail::Mail;
use crate::storage::{NextFlag, Store, StoreError};

/// A public log line, shared by every subscriber.
pub(crate) type Line = Arc<PublicLine>;

/// An entry as its streams send it: the public JSON line with the log's
/// `head`, written once for every reader.
#[derive(Debug)]
pub struct PublicLine {
    /// The line, newline included.
    pub text: String,
    /// Whether the state changed beyond a commit (then the readers'
    /// states follow the line).
    pub changes_state: bool,
    /// Whether this is the game's end (nothing follows it: the game
    /// takes no command once ended).
    pub ends_game: bool,
}

/// One game in memory.
#[derive(Debug)]
pub struct Slot {
    pub id: String,
    /// Lowercase names of the players.
    pub white: String,
    pub black: String,
    pub game: Mutex<HostedGame>,
    pub lines: broadcast::Sender<Line>,
    /// The next flag this instance last stored for the game (`None`:
    /// unknown, as after loading it or another instance's write); read
    /// and written with `game` locked.
    stored_flag: std::sync::Mutex<Option<Option<u64>>>,
}

impl Slot {
    /// A game's slot with room for `room` lines in its channel.
    fn new(id: &str, white: String, black: String, game: HostedGame, room: usize) -> Slot {
        Slot {
            id: id.to_string(),
            white,
            black,
            game: Mutex::new(game),
            lines: broadcast::channel(room).0,
            stored_flag: std::sync::Mutex::new(None),
        }
    }

    /// What an append after which the game's next flag falls at `next`
    /// does to the stored one: it stays when it is no later (an early
    /// instant only makes the sweep look once too soon).
    fn next_flag(&self, next: Option<u64>) -> NextFlag {
        let known = *self.stored_flag.lock().expect("not poisoned");
        NextFlag::for_append(known, next)
    }

    /// Notes what the store now holds as the game's next flag.
    fn stored(&self, update: NextFlag) {
        if let NextFlag::Set(at) = update {
            *self.stored_flag.lock().expect("not poisoned") = Some(at);
        }
    }

    /// Forgets the stored next flag (another instance may have written).
    fn forget_stored_flag(&self) {
        *self.stored_flag.lock().expect("not poisoned") = None;
    }

    /// The seat of `user` (any case) in this game.
    pub fn seat(&self, user: &str) -> Option<Color> {
        let user = user.to_lowercase();
        if user == self.white {
            Some(Color::White)
        } else if user == self.black {
            Some(Color::Black)
        } else {
            None
        }
    }

    /// What `user` may see: a player's own view, or the public one.
    pub fn audience(&self, user: Option<&str>) -> Audience {
        user.and_then(|u| self.seat(u))
            .map_or(Audience::Public, Audience::Player)
    }
}

/// The games in memory and each user's event channel.
#[derive(Debug, Default)]
pub struct Hub {
    games: std::sync::Mutex<HashMap<String, Arc<Slot>>>,
    users: std::sync::Mutex<HashMap<String, broadcast::Sender<UserEvent>>>,
    /// Each member's name as registered, by its lowercase key, for the
    /// list of who is online (kept for those who opened a stream).
    names: std::sync::Mutex<HashMap<String, String>>,
    /// Told the id of each game that ends on this instance (tournaments
    /// take the results of their online boards from it).
    ended: std::sync::Mutex<Option<tokio::sync::mpsc::UnboundedSender<String>>>,
    /// Told the players' news of each write on this instance (their turn,
    /// the end), for their event streams on every instance.
    news: std::sync::Mutex<Option<tokio::sync::mpsc::Sender<News>>>,
    /// Told the entries this instance stores (correspondence mails), when
    /// mail is on.
    mail: std::sync::OnceLock<Mail>,
}

/// What a game expects of its players, before and after a write: whose
/// move (or commit) is due, and whether it has ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Turns {
    due: [bool; 2],
    over: bool,
}

impl Turns {
    fn of(game: &HostedGame) -> Turns {
        let due = |color| game.is_due(color);
        Turns {
            due: [due(Color::White), due(Color::Black)],
            over: game.end().is_some(),
        }
    }
}

/// What settling a game's flag came to.
enum Settled {
    /// No flag was due.
    NotDue,
    /// The flag's end is stored and published.
    Stored,
    /// Another instance had written first: the game is read again.
    Reloaded,
    /// Storing failed (logged); the game is as the store holds it.
    Failed,
}

/// Events waiting in a channel before a slow reader misses some (it then
/// gets the full state again).
const CHANNEL_ROOM: usize = 256;

impl Hub {
    /// The slot of game `id`, loaded from the store on first use.
    pub async fn slot(&self, store: &Store, id: &str) -> Result<Arc<Slot>, GameError> {
        if let Some(slot) = self.games.lock().expect("not poisoned").get(id) {
            return Ok(slot.clone());
        }
        let (white, black) = store.game_players(id).await?.ok_or(GameError::NotFound)?;
        let entries = store.entries(id).await?;
        let game = HostedGame::replay(&entries).map_err(|e| {
            tracing::error!(game = id, error = %e, "a stored log does not replay");
            GameError::Unloadable
        })?;
        if game.end().is_some() {
            // A finished game is only read: it is not kept, so that
            // visitors of the archive cannot fill the server's memory.
            return Ok(Arc::new(Slot::new(id, white, black, game, 1)));
        }
        Ok(self.insert(id, white, black, game))
    }

    /// Puts a game in memory (or returns the one already there).
    pub fn insert(&self, id: &str, white: String, black: String, game: HostedGame) -> Arc<Slot> {
        let mut games = self.games.lock().expect("not poisoned");
        games
            .entry(id.to_string())
            .or_insert_with(|| Arc::new(Slot::new(id, white, black, game, CHANNEL_ROOM)))
            .clone()
    }

    /// Every game in memory.
    pub fn slots(&self) -> Vec<Arc<Slot>> {
        self.games
            .lock()
            .expect("not poisoned")
            .values()
            .cloned()
            .collect()
    }

    /// Runs `command` on the game at `now`: flags due first, then the
    /// command, on a copy; the entries are stored (group commit), then the
    /// copy becomes the game, then the public lines go out. A refused
    /// command still stores the flags it settled. If another instance
    /// wrote to the game meanwhile, the game is reloaded and the command
    /// tried once more.
    pub async fn command(
        &self,
        store: &Store,
        writer: &Writer,
        slot: &Slot,
        command: Command,
        now: u64,
    ) -> Result<(), GameError> {
        let mut game = slot.game.lock().await;
        for attempt in 0..2 {
            let known = game.head().0;
            let before = Turns::of(&game);
            // Applied to the game in place; should storing fail, the game
            // is read back from the store, which holds the truth.
            let mut entries = game.tick(now)?;
            let outcome = game
                .handle(command.clone(), now, rand::random())
                .map(|more| entries.extend(more));
            if entries.is_empty() {
                return outcome.map_err(GameError::from);
            }
            let flag = slot.next_flag(game.next_deadline());
            match writer.append(&slot.id, entries, flag).await {
                Ok(stored) => {
                    slot.stored(flag);
                    publish(slot, &stored);
                    self.tell_news(slot, before, &game, &stored, now);
                    self.tell_mail(slot, &game, &stored);
                    self.forget_if_over(slot, &game);
                    return outcome.map_err(GameError::from);
                }
                Err(StoreError::SeqTaken { .. }) if attempt == 0 => {
                    self.reload(store, slot, &mut game, known).await?;
                }
                Err(e) => {
                    let _ = self.reload(store, slot, &mut game, known).await;
                    return Err(e.into());
                }
            }
        }
        Err(GameError::Busy)
    }

    /// Replaces `game` by what the store holds (another instance wrote to
    /// it) and sends the entries after `known`, the last one this
    /// instance sent out.
    async fn reload(
        &self,
        store: &Store,
        slot: &Slot,
        game: &mut HostedGame,
        known: u64,
    ) -> Result<(), GameError> {
        slot.forget_stored_flag();
        let entries = store.entries(&slot.id).await?;
        *game = HostedGame::replay(&entries).map_err(|e| {
            tracing::error!(game = slot.id, error = %e, "a stored log does not replay");
            GameError::Unloadable
        })?;
        publish(
            slot,
            entries
                .iter()
                .filter(|e| e.seq > known)
                .cloned()
                .collect::<Vec<_>>()
                .as_slice(),
        );
        Ok(())
    }

    /// Another instance stored entries of game `id`: bring it up to date,
    /// if it is in memory here.
    pub async fn refresh(&self, store: &Store, id: &str) {
        let slot = self.games.lock().expect("not poisoned").get(id).cloned();
        if let Some(slot) = slot {
            let mut game = slot.game.lock().await;
            // Our own writes notify too: nothing new then.
            if store.last_seq(id).await.ok().flatten() <= Some(game.head().0) {
                return;
            }
            let known = game.head().0;
            if let Err(e) = self.reload(store, &slot, &mut game, known).await {
                tracing::error!(game = id, error = %e, "refreshing a game");
            }
        }
    }

    /// Settles the flags due by `now` in every game in memory (a game
    /// busy with a command settles its own first).
    pub async fn settle_flags(&self, store: &Store, writer: &Writer, now: u64) {
        for slot in self.slots() {
            let Ok(mut game) = slot.game.try_lock() else {
                continue;
            };
            self.settle(store, writer, &slot, &mut game, now).await;
        }
    }

    /// Settles the flag the store says is due in game `slot` (the sweep
    /// holds its lease): through the same path as a game in memory, so
    /// that the end is published and a tournament takes the result. If
    /// nothing was due, the stored deadline is set to the game's own.
    pub async fn settle_due(&self, store: &Store, writer: &Writer, slot: &Slot, now: u64) {
        let mut game = slot.game.lock().await;
        // Once more after a reload: another instance wrote meanwhile.
        for _ in 0..2 {
            match self.settle(store, writer, slot, &mut game, now).await {
                Settled::Stored | Settled::Failed => return,
                Settled::Reloaded => continue,
                Settled::NotDue => break,
            }
        }
        let next = game.next_deadline();
        match store.set_next_flag(&slot.id, game.head().0, next).await {
            Ok(true) => slot.stored(NextFlag::Set(next)),
            Ok(false) => {}
            Err(e) => tracing::error!(game = slot.id, error = %e, "storing a game's next flag"),
        }
    }

    /// Settles the flag due by `now` in `game`, if any.
    async fn settle(
        &self,
        store: &Store,
        writer: &Writer,
        slot: &Slot,
        game: &mut HostedGame,
        now: u64,
    ) -> Settled {
        if game.next_deadline().is_none_or(|d| d > now) {
            return Settled::NotDue;
        }
        let known = game.head().0;
        let before = Turns::of(game);
        let entries = match game.tick(now) {
            Ok(entries) if !entries.is_empty() => entries,
            _ => return Settled::NotDue,
        };
        let flag = slot.next_flag(game.next_deadline());
        match writer.append(&slot.id, entries, flag).await {
            Ok(stored) => {
                slot.stored(flag);
                publish(slot, &stored);
                self.tell_news(slot, before, game, &stored, now);
                self.tell_mail(slot, game, &stored);
                self.forget_if_over(slot, game);
                Settled::Stored
            }
            // Another instance settled it (or played) first: take its entries.
            Err(StoreError::SeqTaken { .. }) => match self.reload(store, slot, game, known).await {
                Ok(()) => Settled::Reloaded,
                Err(_) => Settled::Failed,
            },
            Err(e) => {
                tracing::error!(game = slot.id, error = %e, "storing a flag");
                let _ = self.reload(store, slot, game, known).await;
                Settled::Failed
            }
        }
    }

    /// Lets a finished game leave memory (open streams keep their slot; a
    /// later reader loads it from the store), so that a long-running
    /// server holds only the games in play.
    fn forget_if_over(&self, slot: &Slot, game: &HostedGame) {
        if game.end().is_some() {
            self.games.lock().expect("not poisoned").remove(&slot.id);
            if let Some(ended) = self.ended.lock().expect("not poisoned").as_ref() {
                let _ = ended.send(slot.id.clone());
            }
        }
    }

    /// Tells `mail` of the entries stored from now on.
    pub(crate) fn mail_to(&self, mail: Mail) {
        let _ = self.mail.set(mail);
    }

    /// Tells the mail queue of `entries` just stored by this instance
    /// (another instance's entries are its own to mail).
    fn tell_mail(&self, slot: &Slot, game: &HostedGame, entries: &[Entry]) {
        if let Some(mail) = self.mail.get() {
            mail.stored(&slot.id, game, entries);
        }
    }

    /// Sends the id of every game that ends from now on to `ended`.
    pub fn on_end(&self, ended: tokio::sync::mpsc::UnboundedSender<String>) {
        *self.ended.lock().expect("not poisoned") = Some(ended);
    }

    /// Sends the players' news of every write from now on to `news`.
    pub fn on_news(&self, news: tokio::sync::mpsc::Sender<News>) {
        *self.news.lock().expect("not poisoned") = Some(news);
    }

    /// Tells the players what a write (`stored`) changed for them: the
    /// game's end, or a move now due from a player of whom none was before
    /// or, after a reveal, the next step's from each. Only the instance that
    /// wrote tells (one that reloads another's entries does not), so each
    /// player hears it once.
    fn tell_news(&self, slot: &Slot, before: Turns, game: &HostedGame, stored: &[Entry], now: u64) {
        let news = self.news.lock().expect("not poisoned");
        let Some(news) = news.as_ref() else {
            return;
        };
        // A full queue drops the news (a notification, not the game's
        // truth: a stream that begins, or the game page, shows the state).
        let send = |item: News| {
            if news.try_send(item).is_err() {
                tracing::warn!(game = slot.id, "players' news dropped: the queue is full");
            }
        };
        let after = Turns::of(game);
        if game.end().is_some() && !before.over {
            send(News::Finished(Box::new(GameFacts::of(&slot.id, game, now))));
            return;
        }
        // A reveal begins a new step: due from a player who was due before
        // too (who committed last), but a new move all the same.
        let new_step = stored
            .iter()
            .any(|e| matches!(e.body, tempo_host::Body::Reveal { .. }));
        for (i, player) in [&slot.white, &slot.black].into_iter().enumerate() {
            // A table game's guest has no account, so no events to hear.
            if is_guest_key(player) {
                continue;
            }
            if after.due[i] && (new_step || !before.due[i]) {
                send(News::Tell(
                    vec![player.clone()],
                    UserEvent::your_turn(&slot.id),
                ));
            }
        }
    }

    /// The event channel of `user`.
    pub fn user_channel(&self, user: &str) -> broadcast::Sender<UserEvent> {
        self.users
            .lock()
            .expect("not poisoned")
            .entry(user.to_lowercase())
            .or_insert_with(|| broadcast::channel(CHANNEL_ROOM).0)
            .clone()
    }

    /// A new reader of `user`'s events (`user` as registered: the list
    /// of who is online shows it so).
    pub fn subscribe(&self, user: &str) -> broadcast::Receiver<UserEvent> {
        self.names
            .lock()
            .expect("not poisoned")
            .insert(user.to_lowercase(), user.to_string());
        self.user_channel(user).subscribe()
    }

    /// Tells `user`'s event streams about something.
    pub fn notify(&self, user: &str, event: UserEvent) {
        let _ = self.user_channel(user).send(event);
    }

    /// Tells every open event stream on this instance about something.
    pub fn notify_everyone(&self, event: &UserEvent) {
        for sender in self.users.lock().expect("not poisoned").values() {
            if sender.receiver_count() > 0 {
                let _ = sender.send(event.clone());
            }
        }
    }

    /// The members with an event stream open on this instance, by name,
    /// at most `limit` of them.
    pub fn online(&self, limit: usize) -> Vec<String> {
        let keys: Vec<String> = {
            let users = self.users.lock().expect("not poisoned");
            users
                .iter()
                .filter(|(_, sender)| sender.receiver_count() > 0)
                .map(|(key, _)| key.clone())
                .collect()
        };
        let names = self.names.lock().expect("not poisoned");
        let mut online: Vec<String> = keys
            .into_iter()
            .map(|key| names.get(&key).cloned().unwrap_or(key))
            .collect();
        online.sort_by_key(|name| name.to_lowercase());
        online.truncate(limit);
        online
    }
}

/// Sends the public lines of `entries` (no receiver is no error).
fn publish(slot: &Slot, entries: &[Entry]) {
    for entry in entries {
        let mut object: Map<String, Value> = entry.public();
        let hash = object.get("hash").cloned().unwrap_or(Value::Null);
        object.insert("head".into(), hash);
        let mut text = Value::Object(object).to_string();
        text.push('\n');
        let changes_state = !matches!(entry.body, tempo_host::Body::Committed { .. });
        let ends_game = matches!(entry.body, tempo_host::Body::End(_));
        let _ = slot.lines.send(Arc::new(PublicLine {
            text,
            changes_state,
            ends_game,
        }));
    }
}
