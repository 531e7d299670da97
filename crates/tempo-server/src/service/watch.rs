//! What the lobby shows of the club besides challenges: the games being
//! played now (to watch, as small boards with clocks) and who is online.

use serde_json::Value;
use tempo_host::Variant;
use tempo_host::view::Audience;

use crate::domain::Page;
use crate::service::AppState;
use crate::service::games::GameError;

/// A game in play as a spectator sees it.
#[derive(Debug, Clone)]
pub(crate) struct RunningGame {
    pub id: String,
    pub white: String,
    pub black: String,
    pub variant: Variant,
    pub clock: Option<String>,
    /// The host's public state now, cut to the position, the clocks and
    /// who is to choose.
    pub state: Value,
}

/// The games in play, newest first, one page of them; and whether more
/// follow. Each is read through the hub (games in play are in memory); a
/// game that cannot be read is left out, so that one damaged log does not
/// take the list away from everyone.
pub(crate) async fn running(
    state: &AppState,
    page: Page,
) -> Result<(Vec<RunningGame>, bool), GameError> {
    let size = i64::from(page.size);
    let mut ids = state.store.running_games(size + 1, page.offset()).await?;
    let more = ids.len() as i64 > size;
    ids.truncate(page.size as usize);
    let now = state.clock.now();
    let mut games = Vec::with_capacity(ids.len());
    for id in ids {
        if state.unloadable.known(&id) {
            continue;
        }
        let slot = match state.hub.slot(&state.store, &id).await {
            Ok(slot) => slot,
            Err(GameError::Unloadable) => {
                if state.unloadable.note(&id) {
                    tracing::warn!(game = %id, "left out of the games in play: its log does not replay");
                }
                continue;
            }
            // Gone since the query (or a passing store error): this poll
            // goes without it.
            Err(e) => {
                tracing::warn!(game = %id, error = %e, "left out of the games in play");
                continue;
            }
        };
        let game = slot.game.lock().await;
        let header = game.header();
        games.push(RunningGame {
            white: header.white.clone(),
            black: header.black.clone(),
            variant: header.variant,
            clock: header.clock.clone(),
            state: board_and_clocks(game.state(Audience::Public, now)),
            id,
        });
    }
    Ok((games, more))
}

/// The fields of a public `gameState` a small board with clocks shows:
/// the rest (the record above all) stays with the game's own page, so
/// that a lobby polling a dozen games reads little.
const BOARD_FIELDS: [&str; 10] = [
    "fen",
    "clockRunning",
    "paused",
    "phase",
    "due",
    "committed",
    "wtime",
    "btime",
    "status",
    "seq",
];

fn board_and_clocks(state: Value) -> Value {
    let Value::Object(mut all) = state else {
        return state;
    };
    all.retain(|key, _| BOARD_FIELDS.contains(&key.as_str()));
    Value::Object(all)
}

/// Who is online: the members with an event stream open on this instance
/// (every page of the web app keeps one), by name, at most `limit`.
pub(crate) fn online(state: &AppState, limit: usize) -> Vec<String> {
    state.hub.online(limit)
}
