//! The club's members: the list a caller challenges from, and an admin's
//! new accounts.

use axum::Json;
use axum::extract::{Query, State};
use axum::routing::{get, post};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::ApiResult;
use super::endpoint::{Access, Endpoint};
use super::error::ApiJson;
use super::extract::Caller;
use super::paging::{PageQuery, next_page};
use crate::domain::accounts::Role;
use crate::service::{AppState, accounts};

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
    Ok(Json(MembersAnswer {
        page: page.index,
        next_page: next_page(page, more),
        users: users
            .into_iter()
            .map(|u| Member {
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
            "The club's members (name and role), by name, 2000 a page (?page=0, ?nb=); nextPage is the page after, null on the last",
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
    ]
}
