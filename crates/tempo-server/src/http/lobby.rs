//! The lobby's views of the club: the games in play to watch (small
//! boards with both clocks) and who is online to challenge.

use axum::Json;
use axum::extract::{Query, State};
use axum::routing::get;
use serde::Serialize;
use serde_json::Value;
use tempo_host::Variant;
use utoipa::ToSchema;

use super::endpoint::{Access, Endpoint};
use super::extract::Caller;
use super::paging::{PageQuery, next_page};
use super::{ApiResult, GameKind};
use crate::service::watch::{self, RunningGame};
use crate::service::{AppState, bots};

/// Games in play one page lists at most (the lobby shows 12).
const RUNNING_PAGE: u32 = 24;
/// Members the list of who is online names at most.
const ONLINE_LIMIT: usize = 200;

/// A page of the games in play.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub(super) struct RunningAnswer {
    pub games: Vec<RunningView>,
    pub page: u32,
    /// The page after this one; `null` on the last.
    pub next_page: Option<u32>,
}

/// A game in play as anyone may watch it.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub(super) struct RunningView {
    pub game_id: String,
    pub white: String,
    pub black: String,
    #[schema(value_type = GameKind)]
    pub variant: Variant,
    pub clock: Option<String>,
    /// Of the public `gameState`: `fen`, `phase`, `due`, `committed`,
    /// `wtime`/`btime` (ms), `status`, `seq`.
    #[schema(value_type = Object)]
    pub state: Value,
}

impl From<RunningGame> for RunningView {
    fn from(g: RunningGame) -> RunningView {
        RunningView {
            game_id: g.id,
            white: g.white,
            black: g.black,
            variant: g.variant,
            clock: g.clock,
            state: g.state,
        }
    }
}

/// Who is online.
#[derive(Debug, Serialize, ToSchema)]
pub(super) struct OnlineAnswer {
    /// Members' names as registered, by name.
    pub users: Vec<String>,
    /// Those of `users` that are bots (lichess's title `BOT`).
    pub bots: Vec<String>,
}

/// `GET /api/games/playing[?page=&nb=]`: the games in play, newest first.
async fn running(
    State(state): State<AppState>,
    Query(query): Query<PageQuery>,
) -> ApiResult<Json<RunningAnswer>> {
    let page = query.page(RUNNING_PAGE)?;
    let (games, more) = watch::running(&state, page).await?;
    Ok(Json(RunningAnswer {
        games: games.into_iter().map(RunningView::from).collect(),
        page: page.index,
        next_page: next_page(page, more),
    }))
}

/// `GET /api/users/online`: the members with an event stream open.
async fn online(State(state): State<AppState>, Caller(_): Caller) -> ApiResult<Json<OnlineAnswer>> {
    let users = watch::online(&state, ONLINE_LIMIT);
    let bots = bots::bots_among(&state, &users).await?;
    Ok(Json(OnlineAnswer {
        bots: users
            .iter()
            .filter(|u| bots.contains(&u.to_lowercase()))
            .cloned()
            .collect(),
        users,
    }))
}

/// The rows of the endpoint table.
pub(super) fn endpoints() -> Vec<Endpoint> {
    use Access::*;
    let e = Endpoint::new;
    vec![
        e(
            "get",
            "/api/games/playing",
            "The games in play, newest first, with each one's public state (position, clocks), 24 a page (?page=0, ?nb=); nextPage is the page after, null on the last",
            Public,
            || get(running),
        )
        .query::<PageQuery>()
        .json::<RunningAnswer>(),
        e(
            "get",
            "/api/users/online",
            "The members with an event stream open on this instance (at most 200), by name; bots: those of them that are bots",
            Token,
            || get(online),
        )
        .json::<OnlineAnswer>(),
    ]
}
