//! Club tournaments: creating, loading and changing them (a change is
//! stored over the version it was made from), their online boards
//! ([`online`]) and boards at tables ([`at_tables`]).

mod at_tables;
mod online;
mod reports;

pub(crate) use at_tables::{seat_detail, seat_list, seat_round};
pub(crate) use online::{create_games, follow_game_ends};
pub(crate) use reports::{annotate_detail, report, round_view, settled, unpaired};

use tempo_host::HostError;

use crate::domain::accounts::{AccountError, check_name};
use crate::domain::random_id;
use crate::domain::tournaments::{
    CreateRequest, MAX_TOURNAMENTS, RatingFacts, Record, Refusal, RoundMode,
};
use crate::service::AppState;
use crate::service::events::UserEvent;
use crate::service::games::GameError;
use crate::service::lobby::tell_everyone;
use crate::service::tables::TableError;
use crate::storage::{Store, StoreError, TournamentSummary, TournamentTexts};

/// Why a tournament request is refused.
#[derive(Debug, thiserror::Error)]
pub(crate) enum TournamentError {
    /// The tournament's rules refuse it.
    #[error(transparent)]
    Refused(#[from] Refusal),
    /// A player's report of a result is refused.
    #[error(transparent)]
    Report(#[from] crate::domain::tournaments::ReportRefusal),
    #[error(transparent)]
    BadUsername(#[from] AccountError),
    #[error("username: no user named {0}")]
    NoSuchUser(String),
    #[error("the tournament is busy, try again")]
    Busy,
    #[error("the change failed")]
    Failed,
    /// A board's game cannot be made.
    #[error(transparent)]
    Game(#[from] GameError),
    /// A board's table game cannot be made or read.
    #[error(transparent)]
    Table(#[from] TableError),
    #[error(transparent)]
    Store(#[from] StoreError),
}

impl From<HostError> for TournamentError {
    fn from(err: HostError) -> TournamentError {
        TournamentError::Game(GameError::Rejected(err))
    }
}

/// Ids longer than any made here name nothing.
const MAX_ID: usize = 64;

fn not_found() -> TournamentError {
    Refusal::NotFound("tournament".into()).into()
}

/// Stores a new tournament (or an imported one); its id.
pub(crate) async fn create(
    state: &AppState,
    req: &CreateRequest,
) -> Result<String, TournamentError> {
    let record = Record::create(req, rand::random())?;
    let id = random_id();
    let (trf, settings) = record.to_texts()?;
    let texts = texts(&record, &trf, &settings);
    let now = state.clock.now() as i64;
    if !state.store.insert_tournament(&id, &texts, now).await? {
        return Err(Refusal::Conflict(format!(
            "the server holds {MAX_TOURNAMENTS} tournaments, the most it takes"
        ))
        .into());
    }
    Ok(id)
}

fn texts<'a>(record: &'a Record, trf: &'a str, settings: &'a str) -> TournamentTexts<'a> {
    TournamentTexts {
        name: record.t.name().unwrap_or(""),
        system: record.s.system.as_str(),
        trf,
        settings,
    }
}

/// The newest tournaments, at most `limit`.
pub(crate) async fn list(
    store: &Store,
    limit: i64,
) -> Result<Vec<TournamentSummary>, TournamentError> {
    Ok(store.tournaments(limit).await?)
}

/// A tournament and its version.
pub(crate) async fn load(store: &Store, id: &str) -> Result<(Record, i64), TournamentError> {
    if id.len() > MAX_ID {
        return Err(not_found());
    }
    store.tournament(id).await?.ok_or_else(not_found)
}

/// Writes `record` over `version`; `false` if another change came first.
async fn save(
    store: &Store,
    id: &str,
    version: i64,
    record: &Record,
) -> Result<bool, TournamentError> {
    let (trf, settings) = record.to_texts()?;
    Ok(store
        .save_tournament(id, version, &texts(record, &trf, &settings))
        .await?)
}

/// Changes writes of this instance wait for each other (other instances
/// are kept apart by the version).
fn writing() -> &'static tokio::sync::Mutex<()> {
    static LOCK: std::sync::OnceLock<tokio::sync::Mutex<()>> = std::sync::OnceLock::new();
    LOCK.get_or_init(|| tokio::sync::Mutex::new(()))
}

/// Tries of a change before it gives up (other instances changed the
/// tournament each time).
pub(super) const TRIES: usize = 5;

/// Loads a tournament, applies `change` and stores the result; tried
/// again from a fresh copy if another instance changed it meanwhile.
/// Returns what `change` returned and the tournament as stored.
pub(crate) async fn modify<T>(
    store: &Store,
    id: &str,
    mut change: impl FnMut(&mut Record) -> Result<T, Refusal>,
) -> Result<(T, Record), TournamentError> {
    let _guard = writing().lock().await;
    for _ in 0..TRIES {
        let (mut record, version) = load(store, id).await?;
        let out = change(&mut record)?;
        if save(store, id, version, &record).await? {
            return Ok((out, record));
        }
    }
    Err(TournamentError::Busy)
}

/// [`modify`] for a change that takes time (pairing a round): it runs on
/// a blocking thread, not on the server's workers.
pub(crate) async fn modify_blocking<T, F>(
    store: &Store,
    id: &str,
    change: F,
) -> Result<(T, Record), TournamentError>
where
    T: Send + 'static,
    F: Fn(&mut Record) -> Result<T, Refusal> + Clone + Send + 'static,
{
    let _guard = writing().lock().await;
    for _ in 0..TRIES {
        let (record, version) = load(store, id).await?;
        let change = change.clone();
        let (out, record) = tokio::task::spawn_blocking(move || {
            let mut record = record;
            let out = change(&mut record);
            (out, record)
        })
        .await
        .map_err(|_| TournamentError::Failed)?;
        let out = out?;
        if save(store, id, version, &record).await? {
            return Ok((out, record));
        }
    }
    Err(TournamentError::Busy)
}

/// A player to register.
#[derive(Debug, Clone)]
pub(crate) struct NewPlayer<'a> {
    pub name: &'a str,
    pub rating: Option<u32>,
    /// The player's account, if they have one.
    pub username: Option<&'a str>,
    pub club: Option<&'a str>,
    pub guest: bool,
    /// Birth year, DWZ, FIDE K for the rating previews.
    pub ratings: RatingFacts,
}

/// Registers a player (their account, if named, must exist); their
/// starting rank.
pub(crate) async fn add_player(
    store: &Store,
    id: &str,
    player: &NewPlayer<'_>,
) -> Result<u32, TournamentError> {
    let username = match player.username {
        Some(name) => {
            check_name(name)?;
            let (user, _) = store
                .user(name)
                .await?
                .ok_or_else(|| TournamentError::NoSuchUser(name.to_string()))?;
            Some(user.name)
        }
        None => None,
    };
    let (rank, _) = modify(store, id, |r| {
        let rank = r.add_player(
            player.name,
            player.rating,
            username.as_deref(),
            player.club,
            player.guest,
        )?;
        r.set_rating_facts(rank, player.ratings.clone())?;
        Ok(rank)
    })
    .await?;
    Ok(rank)
}

/// Tells the members' streams that `round` of tournament `id` changed as
/// a whole (board 0), so that round pages refresh.
pub(crate) async fn round_changed(state: &AppState, id: &str, round: u32) {
    tell_everyone(state, UserEvent::tournament_board(id, round, 0)).await;
}

/// Pairs the next round and, with a `mode`, creates its games (`online`:
/// the boards of two members; `table`: every board, as a table game that
/// `director` creates); the round's number and the tournament as stored.
pub(crate) async fn pair(
    state: &AppState,
    id: &str,
    mode: Option<RoundMode>,
    director: &str,
) -> Result<(u32, Record), TournamentError> {
    let (round, mut record) = modify_blocking(&state.store, id, move |r| {
        let round = r.pair_next()?;
        if let Some(mode) = mode {
            r.set_mode(round, mode);
        }
        Ok(round)
    })
    .await?;
    let games = if mode.is_some() {
        create_games(state, id, round, director).await.map(Some)
    } else {
        Ok(None)
    };
    // Round pages follow the stream, also when the round was paired but
    // its games could not all be made.
    round_changed(state, id, round).await;
    if let Some(with_games) = games? {
        record = with_games;
    }
    Ok((round, record))
}

/// The current year by the server's clock: the rating figures'
/// evaluation year for a tournament whose TRF has no dates.
pub(crate) fn this_year(state: &AppState) -> i32 {
    crate::domain::tournaments::year_at(state.clock.now())
}

/// A paired round's tournament, or 404 for a round not paired.
pub(crate) async fn paired(store: &Store, id: &str, round: u32) -> Result<Record, TournamentError> {
    let (record, _) = load(store, id).await?;
    if record.boards(round).is_none() {
        return Err(Refusal::NotFound(format!("round {round}")).into());
    }
    Ok(record)
}
