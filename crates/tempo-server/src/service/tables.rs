//! Table games (issue #29): a game at a table in the club room, each
//! player's phone a hidden input holding a seat token, one screen the
//! display. A table game is an ordinary game (its log, its clocks, its
//! archive entry) with a director and two seats; members sit under their
//! username (and may also play from their account), guests under a key no
//! username can equal ([`guest_key`]).

use std::sync::atomic::Ordering::Relaxed;

use tempo_chess::Color;
use tempo_host::{EndReason, EndResult, GameSpec, Header, HostError, HostedGame};

use crate::domain::accounts::User;
use crate::domain::challenges::{check_spec, game_spec};
use crate::domain::random_id;
use crate::domain::ratings::RatingGroup;
use crate::domain::tables::{
    MAX_OPEN_TABLES, SeatKey, SitterNameError, guest_key, is_guest_key, is_seat_token, same_sitter,
    seat_hash, seat_url, sitter_name,
};
use crate::service::AppState;
use crate::service::access::{Credential, Ended};
use crate::service::game_events::{GameFacts, tell_players};
use crate::storage::{GameLink, NewTable, SeatChange, StoreError};

/// How long a table game waits for the first moves (its clocks stand until
/// both players have moved): the players sit down and scan their seats'
/// codes first. A side that has not moved by then aborts the game.
pub(crate) const TABLE_FIRST_MOVE_MS: u64 = 30 * 60 * 1000;

/// Generations a seat may have (a new token for a lost phone is one).
pub(crate) const MAX_SEAT_GENERATIONS: u32 = 100;

/// A player as seated at a table.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Sitter {
    /// A member's name as registered, or a guest's name as given.
    pub name: String,
    pub member: bool,
}

/// A seat's token and the input page that takes it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct SeatPass {
    /// Empty when the seat has no live token (revoked, or the game over).
    pub token: String,
    /// `/table/{id}/play#{token}`; empty as `token` is.
    pub url: String,
    /// Whether the token is accepted now.
    pub live: bool,
}

/// A table game and its seats.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct TableGame {
    pub game_id: String,
    pub white: Sitter,
    pub black: Sitter,
    /// White's seat, then Black's.
    pub seats: [SeatPass; 2],
    /// Lowercase.
    pub director: String,
    /// Lichess's status name of the game (`started`, `mate`, …).
    pub status: String,
    pub finished: bool,
    /// A tournament board's game.
    pub tournament: bool,
}

impl TableGame {
    /// Whether member `name` plays in this game.
    pub(crate) fn seated(&self, name: &str) -> bool {
        [&self.white, &self.black]
            .iter()
            .any(|sitter| sitter.member && sitter.name.eq_ignore_ascii_case(name))
    }
}

/// Why a table request is refused.
#[derive(Debug, thiserror::Error)]
pub(crate) enum TableError {
    #[error(transparent)]
    Name(#[from] SitterNameError),
    /// The game asked for cannot be made.
    #[error(transparent)]
    Spec(#[from] HostError),
    #[error(
        "at most {MAX_OPEN_TABLES} unfinished table games a director: finish or abort one first"
    )]
    TooMany,
    #[error("table game not found")]
    NotFound,
    #[error("no member is called {0}")]
    NoSuchMember(String),
    #[error("only the table game's director (its creator, an arbiter or an admin) may do this")]
    NotDirector,
    #[error("the game is over: its seats ended with it")]
    Over,
    #[error("this seat has had {MAX_SEAT_GENERATIONS} tokens: no more")]
    TooManyTokens,
    #[error("the seat has no live token (revoked, or the game over)")]
    SeatNotLive,
    #[error(transparent)]
    Store(#[from] StoreError),
}

/// Why a seat token is not taken.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub(crate) enum SeatRefusal {
    #[error("unknown seat token")]
    Unknown,
    #[error("this seat token was revoked: ask the director for a new one")]
    Revoked,
    #[error("this seat token ended with its game")]
    GameOver,
    /// The store did not answer (logged): nothing is known of the token.
    #[error("storage unavailable, try again")]
    Unavailable,
}

/// A caller by seat token: the game and colour it plays, and the token's
/// stored hash (its streams end when it is revoked).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct SeatCaller {
    pub game: String,
    pub color: Color,
    pub hash: String,
}

fn status_name(end: Option<(EndResult, EndReason)>) -> String {
    tempo_host::lichess::status(end).name().to_string()
}

fn seat_key(state: &AppState) -> SeatKey {
    SeatKey::from_seed(&state.key.to_bytes())
}

/// Who sits at a seat, as the caller names them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Seating {
    /// The member of this username (any case) if there is one, else a guest
    /// of this name (`POST /api/tables`).
    ByName(String),
    /// The member of this username (any case); none is an error.
    Member(String),
    /// A guest of this name, even if a member has it as username (a
    /// tournament's player without an account).
    Guest(String),
}

impl Seating {
    fn name(&self) -> &str {
        match self {
            Seating::ByName(name) | Seating::Member(name) | Seating::Guest(name) => name,
        }
    }
}

/// The player `seating` names (its name checked as `side`'s): the stored
/// player (the games row's column) and the sitter.
async fn sitter(
    state: &AppState,
    side: &'static str,
    seating: &Seating,
) -> Result<(String, Sitter), TableError> {
    let name = sitter_name(side, seating.name())?;
    if !matches!(seating, Seating::Guest(_))
        && let Some((user, _)) = state.store.user(&name).await?
    {
        let key = user.name.to_lowercase();
        let sitter = Sitter {
            name: user.name,
            member: true,
        };
        return Ok((key, sitter));
    }
    if let Seating::Member(_) = seating {
        return Err(TableError::NoSuchMember(name));
    }
    let sitter = Sitter {
        name: name.clone(),
        member: false,
    };
    // Lowercase, as every stored player (names compare without case).
    Ok((guest_key(&name).to_lowercase(), sitter))
}

/// The live pass of seat `color` of `game` in `generation`.
fn pass(key: &SeatKey, game: &str, color: Color, generation: u32) -> SeatPass {
    let token = key.token(game, color, generation);
    SeatPass {
        url: seat_url(game, &token),
        token,
        live: true,
    }
}

fn dead_pass() -> SeatPass {
    SeatPass {
        token: String::new(),
        url: String::new(),
        live: false,
    }
}

/// Creates a table game; `link` ties it to a tournament board (then it is
/// stored with its link in one transaction, rated only if both players are
/// members), `None` for a friendly (unrated) game. A name that is a
/// member's username (any case) seats that member, any other a guest. A
/// director has at most [`MAX_OPEN_TABLES`] unfinished friendly table
/// games.
// The interface of the tournaments' table boards (`{"online":"table"}`);
// the HTTP route names its players outright ([`create_seated`]).
#[allow(dead_code)]
pub(crate) async fn create(
    state: &AppState,
    director: &str,
    spec: GameSpec,
    white: &str,
    black: &str,
    link: Option<GameLink>,
) -> Result<TableGame, TableError> {
    let seating = [
        Seating::ByName(white.to_string()),
        Seating::ByName(black.to_string()),
    ];
    create_seated(state, director, spec, seating, link).await
}

/// As [`create`], with each seat's player named as a member or a guest
/// outright (White's, then Black's).
pub(crate) async fn create_seated(
    state: &AppState,
    director: &str,
    spec: GameSpec,
    [white, black]: [Seating; 2],
    link: Option<GameLink>,
) -> Result<TableGame, TableError> {
    let (white_key, white) = sitter(state, "white", &white).await?;
    let (black_key, black) = sitter(state, "black", &black).await?;
    // A friendly game's two names must differ (case aside): who would
    // tell the seats apart? A tournament board's players are two entries
    // of the tournament whatever their names (two guests may both be
    // "Müller"): only one member on both seats is refused.
    let same = match link {
        None => white_key == black_key || same_sitter(&white.name, &black.name),
        Some(_) => white.member && black.member && white_key == black_key,
    };
    if same {
        return Err(SitterNameError::Same.into());
    }
    check_spec(&spec)?;
    let spec = game_spec(&spec);
    let game_id = random_id();
    let mut header = Header::new(&game_id, &spec, &white.name, &black.name)?;
    // The clocks stand until both have moved, however long the players
    // take to sit down: the first-move rule with a table's patience. A
    // timed game without the rule is one by correspondence (days per
    // move): not a game for one evening at a table.
    match (
        &header.clock,
        header.clone().with_first_move_rule().first_move,
    ) {
        (_, Some(_)) => header.first_move = Some(TABLE_FIRST_MOVE_MS),
        (Some(clock), None) => {
            return Err(HostError::Spec(format!(
                "clock '{clock}': a table game is played in one sitting, not by correspondence"
            ))
            .into());
        }
        (None, None) => {}
    }
    let now = state.clock.now();
    let (game, first) = HostedGame::create(header, now)?;
    let key = seat_key(state);
    let seats = Color::ALL.map(|color| pass(&key, &game_id, color, 1));
    let hashes = [seat_hash(&seats[0].token), seat_hash(&seats[1].token)];
    let rated =
        (link.is_some() && white.member && black.member).then(|| RatingGroup::of(spec.variant));
    let stored = state
        .store
        .add_table_game(&NewTable {
            game: &game_id,
            players: (&white_key, &black_key),
            first: &first,
            director,
            seat_hashes: [&hashes[0], &hashes[1]],
            link: link.as_ref(),
            rated,
            most_open: link.is_none().then_some(MAX_OPEN_TABLES),
        })
        .await?;
    if !stored {
        return Err(TableError::TooMany);
    }
    state
        .mail
        .stored(&game_id, &game, std::slice::from_ref(&first));
    let facts = GameFacts::of(&game_id, &game, now);
    state.hub.insert(&game_id, white_key, black_key, game);
    state.metrics.games_created.fetch_add(1, Relaxed);
    tell_players(state, &facts, false).await;
    Ok(TableGame {
        game_id,
        white,
        black,
        seats,
        director: director.to_lowercase(),
        status: status_name(None),
        finished: false,
        tournament: link.is_some(),
    })
}

/// The table game `id` with its live seats (tokens re-derived), if `id`
/// is one. A finished game's seats are not live.
pub(crate) async fn table(state: &AppState, id: &str) -> Result<Option<TableGame>, TableError> {
    let Some(row) = state.store.table_game(id).await? else {
        return Ok(None);
    };
    let (white, black, status) = {
        let slot = state
            .hub
            .slot(&state.store, id)
            .await
            .map_err(|e| match e {
                crate::service::games::GameError::Store(e) => TableError::Store(e),
                _ => TableError::NotFound,
            })?;
        let game = slot.game.lock().await;
        let header = game.header();
        (
            header.white.clone(),
            header.black.clone(),
            status_name(game.ending()),
        )
    };
    let live = state.store.live_seats(id).await?;
    let key = seat_key(state);
    let seats = Color::ALL.map(|color| match live[color.index()] {
        Some(generation) if !row.finished => pass(&key, id, color, generation),
        _ => dead_pass(),
    });
    Ok(Some(TableGame {
        game_id: id.to_string(),
        white: Sitter {
            name: white,
            member: !is_guest_key(&row.players.0),
        },
        black: Sitter {
            name: black,
            member: !is_guest_key(&row.players.1),
        },
        seats,
        director: row.director,
        status,
        finished: row.finished,
        tournament: row.linked,
    }))
}

/// Table game `id` if `user` directs it: its creator, or any arbiter or
/// admin (tournaments are directed by the arbiters, so a tournament's
/// table games are theirs too) — but not a director who plays in it: the
/// other seat's token would let them read the opponent's sealed choice.
/// The creator of a friendly table game is the exception: they were given
/// both tokens as they created it.
pub(crate) async fn directed(
    state: &AppState,
    user: &User,
    id: &str,
) -> Result<TableGame, TableError> {
    let table = table(state, id).await?.ok_or(TableError::NotFound)?;
    let creator = table.director.eq_ignore_ascii_case(&user.name);
    let gave_tokens = creator && !table.tournament;
    if table.seated(&user.name) && !gave_tokens {
        return Err(TableError::NotDirector);
    }
    if user.role.is_arbiter() || creator {
        Ok(table)
    } else {
        Err(TableError::NotDirector)
    }
}

/// A new token for seat `color` of table game `id` (a lost phone): the
/// seat's tokens before it are revoked at once, their streams end. The
/// table game afterwards.
pub(crate) async fn renew_seat(
    state: &AppState,
    user: &User,
    id: &str,
    color: Color,
) -> Result<TableGame, TableError> {
    change_seat(state, user, id, color, true).await
}

/// Revokes seat `color` of table game `id` (no token plays it until one is
/// renewed); its streams end. The table game afterwards.
pub(crate) async fn revoke_seat(
    state: &AppState,
    user: &User,
    id: &str,
    color: Color,
) -> Result<TableGame, TableError> {
    change_seat(state, user, id, color, false).await
}

async fn change_seat(
    state: &AppState,
    user: &User,
    id: &str,
    color: Color,
    renew: bool,
) -> Result<TableGame, TableError> {
    let before = directed(state, user, id).await?;
    if before.finished {
        return Err(TableError::Over);
    }
    let key = seat_key(state);
    let hash_of = |generation: u32| seat_hash(&key.token(id, color, generation));
    let old = before.seats[color.index()]
        .live
        .then(|| seat_hash(&before.seats[color.index()].token));
    let change = state
        .store
        .replace_seat(
            id,
            color,
            renew.then_some(&hash_of as &(dyn Fn(u32) -> String + Sync)),
            MAX_SEAT_GENERATIONS,
            state.clock.now() as i64,
        )
        .await?;
    if change == SeatChange::TooMany {
        return Err(TableError::TooManyTokens);
    }
    if let Some(old) = old {
        state.access_ends.tell(Ended::Token(old));
    }
    table(state, id).await?.ok_or(TableError::NotFound)
}

/// The seat a Bearer token `token` (one that [`is_seat_token`]) holds now.
pub(crate) async fn seat_caller(state: &AppState, token: &str) -> Result<SeatCaller, SeatRefusal> {
    debug_assert!(is_seat_token(token));
    let hash = seat_hash(token);
    let row = match state.store.seat(&hash).await {
        Ok(Some(row)) => row,
        Ok(None) => return Err(SeatRefusal::Unknown),
        Err(e) => {
            tracing::error!(error = %e, "looking up a seat token");
            return Err(SeatRefusal::Unavailable);
        }
    };
    if row.revoked {
        return Err(SeatRefusal::Revoked);
    }
    if row.finished {
        return Err(SeatRefusal::GameOver);
    }
    Ok(SeatCaller {
        game: row.game,
        color: row.color,
        hash,
    })
}

/// Whether a seat token of stored hash `hash` was ever made (a known
/// seat token on a route that takes none is refused as forbidden, an
/// unknown one as unauthorised).
pub(crate) async fn seat_known(state: &AppState, token: &str) -> Result<bool, TableError> {
    Ok(state.store.seat(&seat_hash(token)).await?.is_some())
}

/// Completes when the seat `seat` no longer plays: its token revoked (here
/// at once, on another instance within a recheck) or its game over.
pub(crate) fn until_unseated(
    state: &AppState,
    seat: &SeatCaller,
) -> impl std::future::Future<Output = ()> + Send + 'static {
    let looks = state.clone();
    state.access_ends.until_ended(
        Credential::Token(seat.hash.clone()),
        String::new(),
        move |credential| {
            let state = looks.clone();
            async move {
                let Credential::Token(hash) = credential else {
                    return false;
                };
                match state.store.seat(&hash).await {
                    Ok(Some(row)) => !row.revoked,
                    Ok(None) => false,
                    // The store's trouble does not end a stream.
                    Err(_) => true,
                }
            }
        },
    )
}
