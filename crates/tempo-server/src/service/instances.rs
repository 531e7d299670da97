//! Several instances on one store (PostgreSQL): each hears of the others'
//! game entries and members' events (LISTEN/NOTIFY), and flags fall even
//! in games that no live instance has in memory (a sweep of the store,
//! each due game settled under a lease by exactly one instance).

use std::time::Duration;

use crate::service::AppState;
use crate::service::chat::{self, CHAT_CHANNEL};
use crate::service::games::GameError;
use crate::service::lobby::{self, LOBBY_CHANNEL};

/// The channel on which an append names its game (`storage::games`).
const GAMES_CHANNEL: &str = "tempo_events";

/// How often the store is swept for due flags.
pub const SWEEP_INTERVAL: Duration = Duration::from_millis(500);
/// How long after its instant a flag is left to an instance that has the
/// game in memory (its ticker looks every 50 ms) before the sweep takes it.
pub const SWEEP_GRACE: Duration = Duration::from_millis(500);
/// How long a sweep's claim on a game lasts: if the instance that claimed
/// it stops before settling, another takes it after this.
pub const SWEEP_LEASE: Duration = Duration::from_secs(5);
/// Most games one sweep claims.
const SWEEP_BATCH: i64 = 64;

fn millis(d: Duration) -> u64 {
    d.as_millis() as u64
}

/// Sweeps the store for due flags every [`SWEEP_INTERVAL`], for ever.
pub async fn sweep_flags(state: AppState) {
    let mut interval = tokio::time::interval(SWEEP_INTERVAL);
    interval.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        interval.tick().await;
        sweep_once(&state).await;
    }
}

/// Claims the games whose flag fell more than [`SWEEP_GRACE`] ago and
/// that no instance holds a lease on, and settles each through the game's
/// own path (its end is published, a tournament takes the result); how
/// many were claimed.
pub async fn sweep_once(state: &AppState) -> usize {
    let now = state.clock.now();
    let claimed = state
        .store
        .claim_due_flags(
            &state.instance,
            now.saturating_sub(millis(SWEEP_GRACE)),
            now,
            now + millis(SWEEP_LEASE),
            SWEEP_BATCH,
        )
        .await;
    let ids = match claimed {
        Ok(ids) => ids,
        Err(e) => {
            tracing::error!(error = %e, "sweeping for due flags");
            return 0;
        }
    };
    for id in &ids {
        match state.hub.slot(&state.store, id).await {
            Ok(slot) => {
                state
                    .hub
                    .settle_due(&state.store, &state.writer, &slot, state.clock.now())
                    .await
            }
            Err(GameError::Unloadable) => {
                // Logged by the hub; not swept again (it never loads).
                if let Ok(Some(seq)) = state.store.last_seq(id).await {
                    let _ = state.store.set_next_flag(id, seq, None).await;
                }
            }
            Err(e) => tracing::error!(game = id, error = %e, "loading a game with a due flag"),
        }
    }
    ids.len()
}

/// On PostgreSQL, several instances may serve the same games and members:
/// each hears of the others' entries and brings its games and streams up
/// to date, and hears of the events they made for members whose streams
/// it serves. Reconnects after a lost connection (what was sent while
/// disconnected is not heard again: a game is read afresh on its next
/// command, and an event stream that begins lists what is open).
pub async fn follow_other_instances(state: AppState) {
    let Some(url) = state.store.postgres_url().map(str::to_string) else {
        return;
    };
    let lobby_notes = lobby::HeardNotes::start(state.clone());
    loop {
        match sqlx::postgres::PgListener::connect(&url).await {
            Ok(mut listener) => {
                let channels = [GAMES_CHANNEL, LOBBY_CHANNEL, CHAT_CHANNEL];
                if let Err(e) = listener.listen_all(channels).await {
                    tracing::error!(error = %e, "LISTEN {channels:?}");
                } else {
                    while let Ok(notification) = listener.recv().await {
                        if notification.channel() == LOBBY_CHANNEL {
                            lobby_notes.heard(&state, notification.payload());
                        } else if notification.channel() == CHAT_CHANNEL {
                            chat::heard(&state, notification.payload());
                        } else {
                            state
                                .hub
                                .refresh(&state.store, notification.payload())
                                .await;
                        }
                    }
                }
            }
            Err(e) => tracing::error!(error = %e, "connecting for notifications"),
        }
        tokio::time::sleep(Duration::from_secs(1)).await;
    }
}
