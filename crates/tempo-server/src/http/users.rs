//! The club's members: the list a caller challenges from, an admin's
//! new accounts, and a member's public profile (lichess's user object).

use std::collections::BTreeMap;

use axum::Json;
use axum::extract::{Path, Query, State};
use axum::routing::{get, post};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::ApiResult;
use super::endpoint::{Access, Endpoint};
use super::error::ApiJson;
use super::extract::Caller;
use super::origin::Origin;
use super::paging::{PageQuery, next_page};
use crate::domain::accounts::Role;
use crate::service::bot_levels::BotLevel;
use crate::service::bots::{self, Perf, PublicUser};
use crate::service::{AppState, accounts, lichess};

/// A member's rating under a lichess perf name.
#[derive(Debug, Serialize, ToSchema)]
pub(super) struct PerfView {
    pub games: i64,
    pub rating: i64,
    pub rd: i64,
    /// Always 0 (tempo keeps no progress figure).
    pub prog: i64,
    /// Whether the rating is still provisional (RD 110 or more).
    pub prov: bool,
}

impl From<Perf> for PerfView {
    fn from(p: Perf) -> PerfView {
        PerfView {
            games: p.games,
            rating: p.rating,
            rd: p.rd,
            prog: 0,
            prov: p.provisional,
        }
    }
}

/// A member as lichess's user object shows them.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub(super) struct LichessProfile {
    /// The name in lower case.
    pub id: String,
    /// The name as registered.
    pub username: String,
    /// `BOT` for a bot account, else `null`.
    pub title: Option<String>,
    /// The member's page.
    pub url: String,
    /// When the account was made (ms since the epoch).
    pub created_at: i64,
    /// The club ratings by lichess's perf names (`blitz`, `chess960`, …:
    /// one orthodox rating for all of them) and tempo's variants.
    pub perfs: BTreeMap<String, PerfView>,
}

impl LichessProfile {
    /// `user`'s profile on the server reached at `origin`.
    pub(super) fn new(user: PublicUser, origin: &str) -> LichessProfile {
        LichessProfile {
            id: user.name.to_lowercase(),
            title: lichess::title(&user.name, user.bot),
            url: format!("{origin}/@/{}", user.name),
            created_at: user.created,
            perfs: user
                .perfs
                .into_iter()
                .map(|(key, perf)| (key.to_string(), perf.into()))
                .collect(),
            username: user.name,
        }
    }
}

/// `GET /api/user/{username}`: a member's profile (for members: the
/// club's list and ratings are not public).
async fn profile(
    State(state): State<AppState>,
    Origin(origin): Origin,
    Path(username): Path<String>,
) -> ApiResult<Json<LichessProfile>> {
    let user = bots::public_user(&state, &username).await?;
    Ok(Json(LichessProfile::new(user, &origin)))
}

/// Members listed a page at most (and by default).
const MEMBERS_PAGE: u32 = 2000;

/// A page of the members, by name.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub(super) struct MembersAnswer {
    pub users: Vec<Member>,
    /// This page (from 0).
    pub page: u32,
    /// The page to ask for next (`?page=`), `null` on the last.
    pub next_page: Option<u32>,
}

/// A member.
#[derive(Debug, Serialize, ToSchema)]
pub(super) struct Member {
    pub name: String,
    pub role: Role,
    /// `BOT` for a bot account (lichess's title), else `null`.
    pub title: Option<String>,
    /// A computer opponent's strength on a known Elo scale; absent for
    /// everyone else.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub level: Option<BotLevel>,
}

/// A new member.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub(super) struct NewUserRequest {
    pub username: String,
    pub password: String,
    /// `player` if not given.
    #[serde(default = "player")]
    #[schema(value_type = Role)]
    pub role: String,
}

fn player() -> String {
    Role::Player.as_str().into()
}

/// The member added.
#[derive(Debug, Serialize, ToSchema)]
pub(super) struct NewUserAnswer {
    pub ok: bool,
    pub name: String,
    pub role: Role,
}

/// `GET /api/users[?page=&nb=]`: the members a caller may challenge, a
/// page at a time.
async fn members(
    State(state): State<AppState>,
    Caller(_): Caller,
    Query(query): Query<PageQuery>,
) -> ApiResult<Json<MembersAnswer>> {
    let page = query.page(MEMBERS_PAGE)?;
    let (users, more) = accounts::members(&state.store, page).await?;
    let names: Vec<String> = users.iter().map(|u| u.name.clone()).collect();
    let bots = bots::bots_among(&state, &names).await?;
    Ok(Json(MembersAnswer {
        page: page.index,
        next_page: next_page(page, more),
        users: users
            .into_iter()
            .map(|u| Member {
                title: lichess::title(&u.name, bots.contains(&u.name.to_lowercase())),
                level: state.bot_levels.get(&u.name),
                name: u.name,
                role: u.role,
            })
            .collect(),
    }))
}

/// `POST /api/users`: an admin adds a member.
async fn add_member(
    State(state): State<AppState>,
    Caller(admin): Caller,
    ApiJson(req): ApiJson<NewUserRequest>,
) -> ApiResult<Json<NewUserAnswer>> {
    let user = accounts::add_member(&state, &admin, &req.username, req.password, &req.role).await?;
    Ok(Json(NewUserAnswer {
        ok: true,
        name: user.name,
        role: user.role,
    }))
}

/// The rows of the endpoint table.
pub(super) fn endpoints() -> Vec<Endpoint> {
    use Access::*;
    let e = Endpoint::new;
    vec![
        e(
            "get",
            "/api/users",
            "The club's members (name, role, title: BOT for bots; level: a computer opponent's Elo on Stockfish's scale), by name, 2000 a page (?page=0, ?nb=); nextPage is the page after, null on the last",
            Token,
            || get(members),
        )
        .query::<PageQuery>()
        .json::<MembersAnswer>(),
        e(
            "post",
            "/api/users",
            "An admin adds a member: username, password (8+ characters), role",
            Token,
            || post(add_member),
        )
        .body::<NewUserRequest>()
        .json::<NewUserAnswer>(),
        e(
            "get",
            "/api/user/{username}",
            "A member's profile as lichess's user object: id, username, title (BOT for bots), url, createdAt, perfs (members only, as the members' list and ratings)",
            Token,
            || get(profile),
        )
        .json::<LichessProfile>(),
    ]
}
