//! Club ratings (Glicko-2 per variant group): a group's list and a
//! member's ratings with their history.

use axum::Json;
use axum::extract::{Path, Query, State};
use axum::routing::get;
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};

use super::endpoint::{Access, Endpoint};
use super::extract::Caller;
use super::paging::{PageQuery, next_page};
use super::{ApiResult, instant};
use crate::domain::ratings::{HistoryEntry, RatingGroup};
use crate::service::AppState;
use crate::service::ratings::{self, GroupRating};

/// Members one page of a list names at most (and by default).
const LIST_PAGE: u32 = 200;

/// History rows one page names at most (and by default).
const HISTORY_PAGE: u32 = 200;

/// Which group's list.
#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub(super) struct RatingsQuery {
    /// A variant (`standard`, `chess960`, `synchronschach`, `fairschach`)
    /// or a group (`orthodox`: standard and Chess960 share one rating).
    pub variant: String,
    /// The page, from 0.
    #[serde(default)]
    pub page: u32,
    /// Members a page: 1 to 200 (the default).
    pub nb: Option<u32>,
}

/// A group's rated members, highest rating first.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub(super) struct RatingList {
    /// The variant as asked (lowercase).
    pub variant: String,
    /// Its group, whose rating this is: `orthodox` (for `standard` and
    /// `chess960`), `synchronschach` or `fairschach`.
    pub group: String,
    pub rows: Vec<RatingRow>,
    /// This page (from 0).
    pub page: u32,
    /// The page to ask for next, `null` on the last.
    pub next_page: Option<u32>,
}

/// A rated member.
#[derive(Debug, Serialize, ToSchema)]
pub(super) struct RatingRow {
    pub username: String,
    /// Glicko-2 rating, rounded.
    pub rating: i64,
    /// Rating deviation as it stands now (grown since the last game), rounded.
    pub rd: i64,
    /// Rated games in the group.
    pub games: i64,
}

/// A member's ratings.
#[derive(Debug, Serialize, ToSchema)]
pub(super) struct MemberRatings {
    pub username: String,
    /// One per group: orthodox, synchronschach, fairschach.
    pub ratings: Vec<MemberRating>,
}

/// A member's rating in one group.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub(super) struct MemberRating {
    /// The group.
    pub variant: String,
    pub rating: i64,
    pub rd: i64,
    pub volatility: f64,
    pub games: i64,
    /// RD 110 or more: shown with `?` (lichess's rule).
    pub provisional: bool,
    /// The newest rated games, newest first (at most 100).
    pub history: Vec<HistoryPoint>,
    /// Older rated games exist (the history route pages through all).
    pub more_history: bool,
}

/// One rated game of a member.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub(super) struct HistoryPoint {
    pub game_id: String,
    /// RFC 3339: when the game ended.
    pub at: String,
    /// Rating and RD before the game (the RD as grown by the days since
    /// the game before) and after it, rounded to one decimal.
    pub rating_before: f64,
    pub rd_before: f64,
    pub rating_after: f64,
    pub rd_after: f64,
}

/// A page of a member's history in one group.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub(super) struct HistoryList {
    pub username: String,
    pub variant: String,
    pub history: Vec<HistoryPoint>,
    pub page: u32,
    pub next_page: Option<u32>,
}

fn tenth(x: f64) -> f64 {
    (x * 10.0).round() / 10.0
}

impl From<HistoryEntry> for HistoryPoint {
    fn from(h: HistoryEntry) -> HistoryPoint {
        HistoryPoint {
            game_id: h.game,
            at: instant(h.at),
            rating_before: tenth(h.before.0),
            rd_before: tenth(h.before.1),
            rating_after: tenth(h.after.0),
            rd_after: tenth(h.after.1),
        }
    }
}

impl From<GroupRating> for MemberRating {
    fn from(g: GroupRating) -> MemberRating {
        MemberRating {
            variant: g.group.as_str().into(),
            rating: g.standing.rating.rating.round() as i64,
            rd: g.standing.rating.deviation.round() as i64,
            volatility: (g.standing.rating.volatility * 1e6).round() / 1e6,
            games: g.standing.games,
            provisional: g.provisional,
            history: g.history.into_iter().map(HistoryPoint::from).collect(),
            more_history: g.more_history,
        }
    }
}

/// `GET /api/ratings?variant=V[&page=&nb=]`.
async fn list(
    State(state): State<AppState>,
    Caller(_): Caller,
    Query(query): Query<RatingsQuery>,
) -> ApiResult<Json<RatingList>> {
    let group = ratings::group(&query.variant)?;
    let page = PageQuery {
        page: query.page,
        nb: query.nb,
    }
    .page(LIST_PAGE)?;
    let (rows, more) = ratings::list(&state, group, page).await?;
    Ok(Json(RatingList {
        variant: query.variant.to_ascii_lowercase(),
        group: group.as_str().into(),
        rows: rows
            .into_iter()
            .map(|m| RatingRow {
                username: m.name,
                rating: m.standing.rating.rating.round() as i64,
                rd: m.standing.rating.deviation.round() as i64,
                games: m.standing.games,
            })
            .collect(),
        page: page.index,
        next_page: next_page(page, more),
    }))
}

/// `GET /api/users/{username}/ratings`.
async fn member(
    State(state): State<AppState>,
    Caller(_): Caller,
    Path(username): Path<String>,
) -> ApiResult<Json<MemberRatings>> {
    let (name, groups) = ratings::member(&state, &username).await?;
    Ok(Json(MemberRatings {
        username: name,
        ratings: groups.into_iter().map(MemberRating::from).collect(),
    }))
}

/// `GET /api/users/{username}/ratings/{variant}/history[?page=&nb=]`.
async fn history(
    State(state): State<AppState>,
    Caller(_): Caller,
    Path((username, variant)): Path<(String, String)>,
    Query(query): Query<PageQuery>,
) -> ApiResult<Json<HistoryList>> {
    let group: RatingGroup = ratings::group(&variant)?;
    let page = query.page(HISTORY_PAGE)?;
    let (name, rows, more) = ratings::history_page(&state, &username, group, page).await?;
    Ok(Json(HistoryList {
        username: name,
        variant: group.as_str().into(),
        history: rows.into_iter().map(HistoryPoint::from).collect(),
        page: page.index,
        next_page: next_page(page, more),
    }))
}

/// The rows of the endpoint table.
pub(super) fn endpoints() -> Vec<Endpoint> {
    use Access::*;
    let e = Endpoint::new;
    vec![
        e(
            "get",
            "/api/ratings",
            "The club's Glicko-2 ratings of a variant group (?variant=standard|chess960|synchronschach|fairschach; standard and chess960 are the group orthodox), highest first, 200 a page (?page=0, ?nb=); nextPage is the page after, null on the last",
            Token,
            || get(list),
        )
        .query::<RatingsQuery>()
        .json::<RatingList>(),
        e(
            "get",
            "/api/users/{username}/ratings",
            "A member's rating in each variant group (RD as it stands now, provisional from RD 110) with the newest 100 rated games",
            Token,
            || get(member),
        )
        .json::<MemberRatings>(),
        e(
            "get",
            "/api/users/{username}/ratings/{variant}/history",
            "A member's rated games in a variant group, newest first, 200 a page (?page=0, ?nb=); nextPage is the page after, null on the last",
            Token,
            || get(history),
        )
        .query::<PageQuery>()
        .json::<HistoryList>(),
    ]
}
