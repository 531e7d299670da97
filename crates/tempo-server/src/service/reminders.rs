//! Reminders before a correspondence move's deadline: the store is
//! looked through every minute for games whose reminder is due (its
//! instant set by the mail worker after each turn), each claimed there
//! so that one instance sends it, once.

use std::time::Duration;

use tempo_chess::Color;

use crate::service::AppState;

/// How often the store is looked through for reminders due.
pub const REMIND_INTERVAL: Duration = Duration::from_secs(60);
/// Most reminders one look sends.
const REMIND_BATCH: i64 = 64;

/// Looks for reminders due every [`REMIND_INTERVAL`], for ever.
pub async fn remind(state: AppState) {
    let mut interval = tokio::time::interval(REMIND_INTERVAL);
    interval.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        interval.tick().await;
        remind_once(&state, state.clock.now()).await;
    }
}

/// Sends the reminders due by `now`: each game's claimed in the store
/// first (one instance sends it, once; a restart does not send it again),
/// then mailed to each player still to move. How many games were reminded.
pub async fn remind_once(state: &AppState, now: u64) -> usize {
    let due = match state.store.due_reminders(now, REMIND_BATCH).await {
        Ok(due) => due,
        Err(e) => {
            tracing::error!(error = %e, "looking for reminders");
            return 0;
        }
    };
    let mut sent = 0;
    for (id, at) in due {
        match state.store.claim_reminder(&id, at).await {
            Ok(true) => {}
            Ok(false) => continue,
            Err(e) => {
                tracing::error!(game = id, error = %e, "claiming a reminder");
                continue;
            }
        }
        let slot = match state.hub.slot(&state.store, &id).await {
            Ok(slot) => slot,
            Err(e) => {
                tracing::error!(game = id, error = %e, "loading a game to remind");
                continue;
            }
        };
        let game = slot.game.lock().await;
        let header = game.header();
        for color in Color::ALL {
            if game.choices(color).is_empty() {
                continue;
            }
            let Some(left) = game.reading(color, now) else {
                continue;
            };
            state.mail.remind(
                color.fold(&header.white, &header.black),
                &id,
                color.fold(&header.black, &header.white),
                now.saturating_add(left.0.max(0) as u64),
            );
        }
        sent += 1;
    }
    sent
}
