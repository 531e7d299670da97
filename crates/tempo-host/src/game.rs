//! [`HostedGame`]: the state a log builds, and the commands that extend it.

use tempo_chess::{Color, Outcome, Position};
use tempo_clock::{Clock, ClockVerdict, Millis, SimulClock};
use tempo_sync::{Expected, SyncGame};

use crate::chain::{GENESIS, Hash, canonical, entry_hash};
use crate::commit::{Nonce, commitment};
use crate::end::{End, EndReason, EndResult};
use crate::entry::{Body, Entry, Revealed, Sealed};
use crate::first::FirstMove;
use crate::header::Header;
use crate::{Command, HostError};

/// The board of a hosted game.
#[derive(Debug, Clone)]
pub(crate) enum Board {
    /// Alternating moves (orthodox chess, Chess960).
    Orthodox(tempo_chess::Game),
    /// Simultaneous moves (Synchronschach, Fairschach).
    Sync(SyncGame),
}

/// The clock of a timed game.
#[derive(Debug, Clone)]
pub(crate) enum GameClock {
    Alternating(Clock),
    Simul(SimulClock),
}

/// A point the arbiter can restore: the board before a step, and each
/// player's completed clock moves then.
#[derive(Debug, Clone)]
pub(crate) struct Snapshot {
    pub(crate) board: Board,
    pub(crate) moves: [u32; 2],
    /// The length of `HostedGame::uci` before the step.
    pub(crate) uci_len: usize,
}

/// A game as the server hosts it: a deterministic state machine. Commands
/// and the time go in ([`HostedGame::handle`], [`HostedGame::tick`]),
/// hash-chained [`Entry`]s come out; the state is what the entries say
/// ([`HostedGame::replay`] rebuilds it from them).
#[derive(Debug, Clone)]
pub struct HostedGame {
    header: Header,
    pub(crate) board: Board,
    pub(crate) clock: Option<GameClock>,
    /// The number of the step being chosen (resolved steps so far).
    pub(crate) step: u32,
    /// The hidden choices of this step.
    pub(crate) sealed: [Option<Sealed>; 2],
    pub(crate) draw_offer: Option<Color>,
    pub(crate) paused: bool,
    pub(crate) end: Option<(EndResult, EndReason)>,
    /// The SAN record lines (simultaneous, [`tempo_sync::san`]) or SAN
    /// moves (alternating).
    pub(crate) record: Vec<String>,
    pub(crate) snapshots: Vec<Snapshot>,
    /// Each player's completed clock moves when this step began.
    pub(crate) step_moves: [u32; 2],
    /// The first-move timer while the clocks wait for it ([`crate::first`]).
    pub(crate) first_move: Option<FirstMove>,
    /// Every move (every revealed choice) so far in UCI as lichess writes
    /// it, space-separated (`state.moves`): kept here as entries come so
    /// that a stream's line does not replay the game to write it.
    pub(crate) uci: String,
    /// When the header was logged (ms since the epoch).
    pub(crate) created_at: u64,
    /// When the last move or reveal was logged (the creation before one).
    pub(crate) last_move_at: u64,
    head: Hash,
    next_seq: u64,
}

impl HostedGame {
    /// A new game with `header`, started at `at`; the first entry is the
    /// header.
    pub fn create(header: Header, at: u64) -> Result<(HostedGame, Entry), HostError> {
        let board = header.board()?;
        let mut game = HostedGame::empty(header.clone(), board);
        let entry = game.seal(Body::GameCreated(header), at, None);
        game.evolve(&entry)?;
        Ok((game, entry))
    }

    fn empty(header: Header, board: Board) -> HostedGame {
        HostedGame {
            header,
            board,
            clock: None,
            step: 0,
            sealed: [None, None],
            draw_offer: None,
            paused: false,
            end: None,
            record: Vec::new(),
            snapshots: Vec::new(),
            step_moves: [0, 0],
            first_move: None,
            uci: String::new(),
            created_at: 0,
            last_move_at: 0,
            head: GENESIS,
            next_seq: 0,
        }
    }

    /// Rebuilds a game from its stored entries (sealed choices included),
    /// checking the chain.
    pub fn replay(entries: &[Entry]) -> Result<HostedGame, HostError> {
        let Some(Body::GameCreated(header)) = entries.first().map(|e| &e.body) else {
            return Err(HostError::Replay {
                seq: 0,
                reason: "the first entry is not the header".into(),
            });
        };
        let mut game = HostedGame::empty(header.clone(), header.board()?);
        for entry in entries {
            let expected = game.entry(entry.body.clone(), entry.at, entry.sealed.clone());
            if expected.hash != entry.hash || expected.seq != entry.seq {
                return Err(HostError::Replay {
                    seq: entry.seq,
                    reason: "hash or seq does not follow the entries before".into(),
                });
            }
            game.head = entry.hash;
            game.next_seq = entry.seq + 1;
            game.evolve(entry).map_err(|e| HostError::Replay {
                seq: entry.seq,
                reason: e.to_string(),
            })?;
        }
        Ok(game)
    }

    pub fn header(&self) -> &Header {
        &self.header
    }

    /// The head of the log: the last entry's seq and hash.
    pub fn head(&self) -> (u64, Hash) {
        (self.next_seq.saturating_sub(1), self.head)
    }

    /// The result and reason, once the game is over, by their names
    /// (`1-0`, `checkmate`); [`HostedGame::ending`] gives them typed.
    pub fn end(&self) -> Option<(&'static str, &'static str)> {
        self.end
            .map(|(result, reason)| (result.as_str(), reason.name()))
    }

    /// The result and reason, once the game is over.
    pub fn ending(&self) -> Option<(EndResult, EndReason)> {
        self.end
    }

    /// Whether `color` has committed a hidden choice for this step.
    pub fn has_committed(&self, color: Color) -> bool {
        self.sealed[color.index()].is_some()
    }

    /// The hidden choice `color` committed (for that player alone).
    pub(crate) fn own_commit(&self, color: Color) -> Option<tempo_sync::Choice> {
        self.sealed[color.index()].as_ref().map(|s| s.choice)
    }

    /// Whether a move (or a hidden commit) is due from `color` now: the
    /// game goes on, `color` has not committed, and its move is expected.
    /// Cheap (no move generation): the server asks it around every command.
    pub fn is_due(&self, color: Color) -> bool {
        if self.end.is_some() || self.has_committed(color) {
            return false;
        }
        match &self.board {
            Board::Orthodox(game) => game.position().turn() == color,
            Board::Sync(game) => !matches!(game.expected(color), Expected::Nothing),
        }
    }

    /// The choices `color` may make now, written as [`Command::Play`]
    /// takes them (empty when nothing is expected of `color`): for that
    /// player's own move entry, never for another audience.
    pub fn choices(&self, color: Color) -> Vec<String> {
        if self.end.is_some() || self.has_committed(color) {
            return Vec::new();
        }
        match &self.board {
            Board::Orthodox(game) if game.position().turn() == color => game
                .position()
                .legal_moves()
                .iter()
                .map(|&mv| tempo_chess::uci::write(game.position(), mv))
                .collect(),
            Board::Orthodox(_) => Vec::new(),
            Board::Sync(game) => game
                .choices(color)
                .into_iter()
                .map(|c| c.to_string())
                .collect(),
        }
    }

    /// The game as PGN (ends with a blank line): players, the variant and
    /// its rules, the start, the time control, the moves (for a
    /// simultaneous game, its record lines), the result and how it came.
    pub fn pgn(&self) -> String {
        let header = &self.header;
        let (result, termination) = self.end().unwrap_or(("*", "unterminated"));
        let mut tags = tempo_chess::pgn::Tags::new();
        tags.set("Event", "tempo game");
        tags.set("Site", &header.id);
        tags.set("White", &header.white);
        tags.set("Black", &header.black);
        if let Some(clock) = &header.clock {
            tags.set("TimeControl", clock);
        }
        match (&self.board, header.board()) {
            (Board::Sync(_), Ok(Board::Sync(start))) => tempo_sync::pgn::SyncPgn {
                tags,
                start,
                lines: self.record.clone(),
            }
            .to_pgn_ended(result, termination),
            (Board::Orthodox(game), _) => {
                let mut pgn = tempo_chess::pgn::PgnGame::from_game(game);
                pgn.tags = tags;
                if header.variant == crate::Variant::Chess960 {
                    pgn.tags.set("Variant", "Chess960");
                }
                pgn.tags.set("Termination", termination);
                pgn.tags.set("Result", result);
                pgn.result = result.to_string();
                pgn.to_pgn()
            }
            _ => unreachable!("a game keeps the kind of board it started with"),
        }
    }

    /// When a flag falls if nothing happens first (a timer for the server).
    /// Under the first-move rule, the instant the pending first move is
    /// due (the game is aborted then).
    pub fn next_deadline(&self) -> Option<u64> {
        if self.end.is_some() || self.paused {
            return None;
        }
        if self.first_move.is_some() {
            return self.first_move_deadline();
        }
        match self.clock.as_ref()? {
            GameClock::Alternating(clock) => clock.fall_instant(),
            GameClock::Simul(clock) => Color::ALL
                .iter()
                .filter_map(|&c| clock.fall_instant(c))
                .min(),
        }
    }

    /// `color`'s clock reading at `at`.
    pub fn reading(&self, color: Color, at: u64) -> Option<Millis> {
        Some(match self.clock.as_ref()? {
            GameClock::Alternating(clock) => clock.reading(color, at),
            GameClock::Simul(clock) => clock.reading(color, at),
        })
    }

    /// Settles the flags due by `at`: the game's end on time, at the
    /// instant the flag fell, if it did; under the first-move rule, the
    /// abort at the instant a first move was due.
    pub fn tick(&mut self, at: u64) -> Result<Vec<Entry>, HostError> {
        if let Some(expired) = self.first_move_expired(at) {
            return expired;
        }
        let Some(deadline) = self.next_deadline() else {
            return Ok(Vec::new());
        };
        if deadline > at {
            return Ok(Vec::new());
        }
        let mut clock = self.clock.clone().expect("a deadline comes from a clock");
        let verdict = match &mut clock {
            GameClock::Alternating(c) => c.check_flag(at),
            GameClock::Simul(c) => c.check_flags(at),
        };
        let Some(verdict) = verdict else {
            // Both flags at once in a period with a quota: the clock went
            // on with the next period's time; nothing to log.
            self.clock = Some(clock);
            return Ok(Vec::new());
        };
        let (result, when) = match verdict {
            ClockVerdict::Flag(fall) => {
                let winner = !fall.side;
                let result = if self.can_mate(winner) {
                    Outcome::Win(winner)
                } else {
                    Outcome::Draw
                };
                (result, fall.at)
            }
            ClockVerdict::BothFlagsDraw { at } => (Outcome::Draw, at),
        };
        Ok(vec![self.append(
            end(result, EndReason::Timeout),
            when,
            None,
        )?])
    }

    /// FIDE Article 6.9: a flag fall loses only where the opponent could
    /// still mate.
    fn can_mate(&self, color: Color) -> bool {
        !tempo_chess::has_insufficient_material(self.position(), color)
    }

    /// The position now.
    pub fn position(&self) -> &Position {
        match &self.board {
            Board::Orthodox(game) => game.position(),
            Board::Sync(game) => game.position(),
        }
    }

    /// Handles `command` at `at`; `nonce` (random, from the caller) seals
    /// a commit. Returns the new entries (already applied). A flag due by
    /// `at` must be settled first ([`HostedGame::tick`]).
    pub fn handle(
        &mut self,
        command: Command,
        at: u64,
        nonce: Nonce,
    ) -> Result<Vec<Entry>, HostError> {
        if let Some((result, reason)) = self.end {
            return Err(HostError::GameOver { result, reason });
        }
        if self.next_deadline().is_some_and(|d| d <= at) {
            return Err(HostError::FlagDue);
        }
        if self.paused && !matches!(command, Command::Arbiter { .. }) {
            return Err(HostError::Paused);
        }
        match command {
            Command::Play { color, choice } => self.play(color, &choice, at, nonce),
            Command::Resign { color } => {
                let body = end(Outcome::Win(!color), EndReason::Resign);
                Ok(vec![self.append(body, at, None)?])
            }
            Command::Abort { color: _ } => {
                if !self.abortable() {
                    return Err(HostError::TooLateToAbort);
                }
                let body = Body::End(End::new(EndResult::NoResult, EndReason::Aborted));
                Ok(vec![self.append(body, at, None)?])
            }
            Command::OfferDraw { color } => self.offer_draw(color, at),
            Command::DeclineDraw { color } => {
                if self.draw_offer != Some(!color) {
                    return Err(HostError::NoDrawOffer);
                }
                Ok(vec![self.append(Body::DrawDecline { color }, at, None)?])
            }
            Command::ClaimDraw { color: _ } => self.claim_draw(at),
            Command::Arbiter {
                arbiter,
                reason,
                action,
            } => self.arbiter(arbiter, reason, action, at),
        }
    }

    fn offer_draw(&mut self, color: Color, at: u64) -> Result<Vec<Entry>, HostError> {
        match self.draw_offer {
            Some(offerer) if offerer == !color => Ok(vec![self.append(
                end(Outcome::Draw, EndReason::Agreement),
                at,
                None,
            )?]),
            Some(_) => Err(HostError::DrawAlreadyOffered),
            None => Ok(vec![self.append(Body::DrawOffer { color }, at, None)?]),
        }
    }

    /// Whether a draw claim would be granted now (repetition or the
    /// 50-move rule in alternating play; the simultaneous variants end by
    /// those rules themselves).
    pub fn draw_claimable(&self) -> bool {
        match &self.board {
            Board::Orthodox(game) => self.end.is_none() && game.claimable_draw().is_some(),
            Board::Sync(_) => false,
        }
    }

    fn claim_draw(&mut self, at: u64) -> Result<Vec<Entry>, HostError> {
        match &self.board {
            Board::Orthodox(game) => match game.claimable_draw() {
                Some(termination) => Ok(vec![self.append(
                    end(Outcome::Draw, termination.into()),
                    at,
                    None,
                )?]),
                None => Err(HostError::NoDrawToClaim),
            },
            // Repetition and the 50-move rule end these games by themselves.
            Board::Sync(_) => Err(HostError::NoDrawToClaim),
        }
    }

    fn play(
        &mut self,
        color: Color,
        text: &str,
        at: u64,
        nonce: Nonce,
    ) -> Result<Vec<Entry>, HostError> {
        let normalized = self.as_uci(color, text);
        let text = normalized.as_deref().unwrap_or(text);
        match &self.board {
            Board::Orthodox(game) => {
                if game.position().turn() != color {
                    return Err(HostError::NotYourTurn);
                }
                let mv = tempo_chess::uci::parse(game.position(), text)
                    .map_err(|e| HostError::Illegal(format!("'{text}': {e}")))?;
                let mut next = game.clone();
                let san = tempo_chess::san::write(game.position(), mv);
                let uci = tempo_chess::uci::write(game.position(), mv);
                next.play(mv)
                    .map_err(|e| HostError::Illegal(format!("'{text}': {e}")))?;
                let fen = next.position().to_fen();
                let body = Body::Move {
                    color,
                    uci,
                    san,
                    fen,
                };
                let mut entries = vec![self.append(body, at, None)?];
                if let Some((outcome, termination)) = next.outcome() {
                    entries.push(self.append(end(outcome, termination.into()), at, None)?);
                }
                Ok(entries)
            }
            Board::Sync(game) => {
                if self.has_committed(color) {
                    return Err(HostError::AlreadyCommitted);
                }
                let choice = tempo_sync::record::parse_choice(game, color, text)
                    .map_err(|e| HostError::Illegal(format!("'{text}': {e}")))?
                    .ok_or(HostError::NotYourTurn)?;
                let choice = game
                    .check_choice(color, choice)
                    .map_err(|e| HostError::Illegal(e.to_string()))?;
                let mut sealed = self.sealed.clone();
                sealed[color.index()] = Some(Sealed { choice, nonce });
                let ready = Color::ALL
                    .iter()
                    .all(|&c| game.expected(c) == Expected::Nothing || sealed[c.index()].is_some());
                if !ready {
                    let body = Body::Committed {
                        color,
                        step: self.step,
                        commitment: commitment(
                            &self.header.id,
                            self.step,
                            color,
                            &choice.to_string(),
                            &nonce,
                        ),
                    };
                    let seal = sealed[color.index()].clone();
                    return Ok(vec![self.append(body, at, seal)?]);
                }
                self.reveal(sealed, at)
            }
        }
    }

    /// Resolves the step with every choice in `sealed` (checked when they
    /// were committed).
    fn reveal(&mut self, sealed: [Option<Sealed>; 2], at: u64) -> Result<Vec<Entry>, HostError> {
        let Board::Sync(game) = &self.board else {
            unreachable!("reveals in simultaneous games only");
        };
        let [white, black] = sealed.clone().map(|s| s.map(|s| s.choice));
        let (next, resolution) = game
            .step(white, black)
            .map_err(|e| HostError::Illegal(e.to_string()))?;
        let revealed = |c: Color| {
            sealed[c.index()].as_ref().map(|s| Revealed {
                choice: s.choice,
                nonce: crate::chain::hex(&s.nonce),
            })
        };
        let body = Body::Reveal {
            step: self.step,
            white: revealed(Color::White),
            black: revealed(Color::Black),
            record: resolution.record,
            events: resolution
                .events
                .iter()
                .map(|e| serde_json::to_value(e).expect("events serialise"))
                .collect(),
            fen: tempo_sync::notation::write(&next),
        };
        let mut entries = vec![self.append(body, at, None)?];
        if let Some((result, reason)) = next.result() {
            entries.push(self.append(end(result, reason), at, None)?);
        }
        Ok(entries)
    }

    /// The next entry with `body`, not yet applied.
    pub(crate) fn entry(&self, body: Body, at: u64, sealed: Option<Sealed>) -> Entry {
        let mut entry = Entry {
            seq: self.next_seq,
            prev: self.head,
            hash: [0; 32],
            at,
            body,
            sealed,
        };
        entry.hash = entry_hash(&entry.prev, entry.seq, &canonical(&entry.public()));
        entry
    }

    /// Makes the next entry without applying it (the header's).
    fn seal(&mut self, body: Body, at: u64, sealed: Option<Sealed>) -> Entry {
        let entry = self.entry(body, at, sealed);
        self.head = entry.hash;
        self.next_seq += 1;
        entry
    }

    /// Makes the next entry and applies it.
    pub(crate) fn append(
        &mut self,
        body: Body,
        at: u64,
        sealed: Option<Sealed>,
    ) -> Result<Entry, HostError> {
        let entry = self.entry(body, at, sealed);
        self.evolve(&entry)?;
        self.head = entry.hash;
        self.next_seq += 1;
        Ok(entry)
    }

    /// Applies an entry to the state.
    pub(crate) fn evolve(&mut self, entry: &Entry) -> Result<(), HostError> {
        let at = entry.at;
        match &entry.body {
            Body::GameCreated(header) => {
                self.created_at = at;
                self.last_move_at = at;
                if let Some(control) = header.time_control() {
                    let clock_error = |e: tempo_clock::ClockError| HostError::Clock(e.to_string());
                    let mut clock = if header.variant.is_simultaneous() {
                        GameClock::Simul(SimulClock::new(control).map_err(clock_error)?)
                    } else {
                        GameClock::Alternating(Clock::new(control).map_err(clock_error)?)
                    };
                    // Under the first-move rule the clock waits for the
                    // first moves (crate::first).
                    match (&mut clock, header.first_move) {
                        (_, Some(timer)) => self.first_move = Some(FirstMove { timer, since: at }),
                        (GameClock::Alternating(c), None) => c.start(at).map_err(clock_error)?,
                        (GameClock::Simul(c), None) => c.start(at).map_err(clock_error)?,
                    }
                    self.clock = Some(clock);
                    self.begin_step();
                    self.commit_idle_sides(at)?;
                }
            }
            Body::Committed { color, .. } => {
                let sealed = entry.sealed.clone().ok_or_else(|| HostError::Replay {
                    seq: entry.seq,
                    reason: "a commit without its sealed choice".into(),
                })?;
                self.clock_commit(*color, at)?;
                self.sealed[color.index()] = Some(sealed);
            }
            Body::Reveal { white, black, .. } => {
                self.snapshot();
                let Board::Sync(game) = &self.board else {
                    return Err(HostError::Illegal("a reveal in an alternating game".into()));
                };
                let choice = |r: &Option<Revealed>| r.as_ref().map(|r| r.choice);
                let (w, b) = (choice(white), choice(black));
                let (next, events) = game
                    .resolve(w, b)
                    .map_err(|e| HostError::Illegal(e.to_string()))?;
                // The logged line is the UCI pair record (hashed, kept as
                // it was written); people and the PGN get it in SAN,
                // derived here so that old logs show SAN as well.
                let san = tempo_sync::san::write_step(game, w, b, &events);
                let style = crate::lichess::castling_style(&self.header);
                // Two words a step, White's then Black's, so that a
                // reader tells whose each is by its place; `0000`
                // (lichess's null move) for a side with nothing to choose.
                for choice in [w, b] {
                    let text = choice.map_or_else(
                        || NO_CHOICE.to_string(),
                        |choice| crate::lichess::choice_uci(game.position(), choice, style),
                    );
                    push_word(&mut self.uci, &text);
                }
                for (color, choice) in [(Color::White, &w), (Color::Black, &b)] {
                    if choice.is_some() && self.sealed[color.index()].is_none() {
                        self.clock_commit(color, at)?;
                    }
                }
                self.board = Board::Sync(next);
                self.sealed = [None, None];
                self.step += 1;
                self.draw_offer = None;
                self.record.push(san);
                self.last_move_at = at;
                self.first_move_made(at)?;
                self.begin_step();
                self.commit_idle_sides(at)?;
            }
            Body::Move {
                color, uci, san, ..
            } => {
                self.snapshot();
                let Board::Orthodox(game) = &mut self.board else {
                    return Err(HostError::Illegal("a move in a simultaneous game".into()));
                };
                let mv = tempo_chess::uci::parse(game.position(), uci)
                    .map_err(|e| HostError::Illegal(e.to_string()))?;
                let style = crate::lichess::castling_style(&self.header);
                let text = tempo_chess::uci::write_with(game.position(), mv, style);
                push_word(&mut self.uci, &text);
                game.play(mv)
                    .map_err(|e| HostError::Illegal(e.to_string()))?;
                self.clock_commit(*color, at)?;
                self.step += 1;
                self.draw_offer = None;
                self.record.push(san.clone());
                self.last_move_at = at;
                self.first_move_made(at)?;
                self.begin_step();
            }
            Body::DrawOffer { color } => self.draw_offer = Some(*color),
            Body::DrawDecline { .. } => self.draw_offer = None,
            Body::End(end) => {
                if let Some(clock) = &mut self.clock {
                    // A clock already over on time, or stopped, stays so.
                    let _ = match clock {
                        GameClock::Alternating(c) => c.check_flag(at).map(|_| ()),
                        GameClock::Simul(c) => c.check_flags(at).map(|_| ()),
                    };
                    let _ = match clock {
                        GameClock::Alternating(c) => c.stop(at),
                        GameClock::Simul(c) => c.stop(at),
                    };
                }
                self.end = Some((end.result, end.reason));
                self.sealed = [None, None];
            }
            Body::Arbiter { action, .. } => self.evolve_arbiter(action, at)?,
        }
        Ok(())
    }

    /// Keeps the board and clock counts of the step being resolved.
    fn snapshot(&mut self) {
        self.snapshots.push(Snapshot {
            board: self.board.clone(),
            moves: self.step_moves,
            uci_len: self.uci.len(),
        });
    }

    /// Notes the clock counts as a step begins.
    pub(crate) fn begin_step(&mut self) {
        self.step_moves = match &self.clock {
            Some(GameClock::Alternating(c)) => Color::ALL.map(|s| c.moves(s)),
            Some(GameClock::Simul(c)) => Color::ALL.map(|s| c.moves(s)),
            None => [0, 0],
        };
    }

    /// `color`'s clock stops for a move; before the first moves the clock
    /// stands ([`crate::first`]).
    fn clock_commit(&mut self, color: Color, at: u64) -> Result<(), HostError> {
        if self.first_move.is_some() {
            return Ok(());
        }
        let clock_error = |e: tempo_clock::ClockError| HostError::Clock(e.to_string());
        match &mut self.clock {
            None => Ok(()),
            Some(GameClock::Alternating(c)) => c.commit(color, at).map(|_| ()).map_err(clock_error),
            Some(GameClock::Simul(c)) => c.commit(color, at).map(|_| ()).map_err(clock_error),
        }
    }

    /// In a simultaneous game, a side with nothing to choose in this step
    /// (an exchange right of the other side only, orthodox play after
    /// FSR 8) is done with it at once: its clock stops when the step
    /// starts.
    pub(crate) fn commit_idle_sides(&mut self, at: u64) -> Result<(), HostError> {
        let Board::Sync(game) = &self.board else {
            return Ok(());
        };
        if game.is_over()
            || self.first_move.is_some()
            || !matches!(self.clock, Some(GameClock::Simul(_)))
        {
            return Ok(());
        }
        let idle: Vec<Color> = Color::ALL
            .into_iter()
            .filter(|&c| game.expected(c) == Expected::Nothing)
            .collect();
        for color in idle {
            self.clock_commit(color, at)?;
        }
        Ok(())
    }
}

impl HostedGame {
    /// A move written in SAN (`Nf3`) or in ICCF digits (`7163`) as UCI,
    /// read in the position as if `color` were to move (the pieces a
    /// variant pauses count as free here: the legality check comes
    /// after); an exchange capture keeps its `x` prefix. `None` if the
    /// text is UCI already, or nothing this reads.
    fn as_uci(&self, color: Color, text: &str) -> Option<String> {
        let (prefix, rest) = match text.strip_prefix('x') {
            Some(rest) if matches!(self.board, Board::Sync(_)) => ("x", rest),
            _ => ("", text),
        };
        if rest.parse::<tempo_chess::uci::Uci>().is_ok() {
            return None;
        }
        let mut pos = self.position().clone();
        pos.set_turn(color);
        pos.set_paused(tempo_chess::Bitboard::EMPTY);
        let mv = if rest.bytes().all(|b| b.is_ascii_digit()) {
            tempo_chess::iccf::parse(&pos, rest).ok()?
        } else {
            tempo_chess::san::parse(&pos, rest).ok()?
        };
        Some(format!("{prefix}{}", tempo_chess::uci::write(&pos, mv)))
    }
}

/// What `state.moves` writes for a side with nothing to choose in a
/// simultaneous step (the other side's exchange right, the side not to
/// move after Fairschach's switch to orthodox play).
pub const NO_CHOICE: &str = "0000";

/// Appends `word` to a space-separated list.
fn push_word(list: &mut String, word: &str) {
    if !list.is_empty() {
        list.push(' ');
    }
    list.push_str(word);
}

/// The `end` entry of `outcome` by `reason`.
fn end(outcome: Outcome, reason: EndReason) -> Body {
    Body::End(End::new(outcome.into(), reason))
}
