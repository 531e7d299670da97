//! The tournaments' routes and their rows of the endpoint table. Reading
//! is public (a pairing list or standings on a club's projector needs no
//! login); every change needs a director: the arbiter or admin role.

use axum::Json;
use axum::body::Bytes;
use axum::extract::{Path, Query, State};
use axum::http::header;
use axum::response::{IntoResponse, Response};
use axum::routing::{delete, get, post};
use serde::{Deserialize, Serialize};
use tempo_tourney::director::Attendance;
use utoipa::openapi::{RefOr, Schema};
use utoipa::{PartialSchema, ToSchema};

use super::endpoint::{Access, Endpoint};
use super::error::{ApiError, ApiJson};
use super::extract::{Caller, MaybeCaller};
use super::path::number;
use super::{ApiResult, Done, done, instant, string_enum};
use crate::domain::tournaments::view::{
    self, CrosstableView, DetailView, RoundView, StandingsView,
};
use crate::domain::tournaments::{CreateRequest, RatingFacts, RoundMode, parse_attendance};
use crate::service::AppState;
use crate::service::tournaments::{self, NewPlayer};

/// The tournaments listed at most.
const LIST_LIMIT: i64 = 500;

/// What a player without the role is told.
const DIRECTORS_ONLY: &str = "tournament changes need a director: the arbiter or admin role";

/// A tournament made.
#[derive(Debug, Serialize, ToSchema)]
pub(super) struct Created {
    pub id: String,
}

/// The tournaments.
#[derive(Debug, Serialize, ToSchema)]
pub(super) struct TournamentList {
    pub tournaments: Vec<TournamentLine>,
}

/// One tournament of the list.
#[derive(Debug, Serialize, ToSchema)]
pub(super) struct TournamentLine {
    pub id: String,
    pub name: String,
    pub system: String,
    /// RFC 3339.
    pub created: String,
}

/// A player to register.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub(super) struct PlayerRequest {
    #[schema(max_length = 33)]
    pub name: String,
    #[schema(maximum = 9999)]
    pub rating: Option<u32>,
    /// The player's account.
    pub username: Option<String>,
    #[schema(max_length = 40)]
    pub club: Option<String>,
    /// A guest, not a club member.
    #[serde(default)]
    pub guest: bool,
    /// For the rating previews beside the standings (docs/ratings.md):
    /// the birth year (age for the FIDE junior K and the DWZ).
    #[schema(minimum = 1900, maximum = 2100)]
    pub birth_year: Option<u32>,
    /// The player's DWZ.
    #[schema(minimum = 1, maximum = 3500)]
    pub dwz: Option<u32>,
    /// The DWZ's index.
    #[schema(maximum = 9999)]
    pub dwz_index: Option<u32>,
    /// The player's FIDE K (40, 20, 10); without it the regulation's K
    /// for the rating and age.
    #[schema(minimum = 1, maximum = 40)]
    pub fide_k: Option<u32>,
}

/// A registered player's starting rank.
#[derive(Debug, Serialize, ToSchema)]
pub(super) struct PlayerAdded {
    pub id: u32,
}

/// Players who must not be paired with each other.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub(super) struct ForbidRequest {
    #[schema(min_items = 2)]
    pub players: Vec<u32>,
}

/// A withdrawal.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub(super) struct Withdrawn {
    pub ok: bool,
    pub player: u32,
    /// The last round the player is in.
    pub after_round: u32,
}

/// A player's attendance in a round.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub(super) struct AttendanceRequest {
    #[schema(minimum = 1)]
    pub round: u32,
    #[schema(minimum = 1)]
    pub player: u32,
    #[schema(value_type = AttendanceStatus)]
    pub status: String,
}

/// The schema of an attendance a director may record: the names of
/// `tempo_tourney::director::Attendance`, read from the type.
pub(super) struct AttendanceStatus;

impl PartialSchema for AttendanceStatus {
    fn schema() -> RefOr<Schema> {
        string_enum(Attendance::ALL.iter().map(|a| a.as_str().to_string()))
    }
}

impl ToSchema for AttendanceStatus {}

/// The attendance recorded.
#[derive(Debug, Serialize, ToSchema)]
pub(super) struct AttendanceAnswer {
    pub ok: bool,
    pub round: u32,
    pub player: u32,
    pub status: String,
}

/// How to pair a round.
#[derive(Debug, Deserialize, Default, ToSchema)]
#[serde(deny_unknown_fields)]
pub(super) struct PairRequest {
    /// `true`: also create the games of the boards whose two players have
    /// accounts, each played from the players' own devices; `"table"`: a
    /// table game for every board (members and guests: two phones as
    /// hidden inputs, one display), its seat links for the directors;
    /// `false` (or none): over the board, results entered.
    #[serde(default)]
    #[schema(value_type = PairOnline)]
    pub online: serde_json::Value,
}

/// What the refusal of another `online` says.
const ONLINE_VALUES: &str = r#"online: true, false or "table""#;

impl PairRequest {
    /// How the round's games are played: `None` over the board.
    fn mode(&self) -> Result<Option<RoundMode>, ApiError> {
        use serde_json::Value;
        match &self.online {
            Value::Null | Value::Bool(false) => Ok(None),
            Value::Bool(true) => Ok(Some(RoundMode::Online)),
            Value::String(s) if s == "table" => Ok(Some(RoundMode::Table)),
            _ => Err(ApiError::bad_request(ONLINE_VALUES)),
        }
    }
}

/// The schema of `online`: a boolean, or `"table"`.
pub(super) struct PairOnline;

impl PartialSchema for PairOnline {
    fn schema() -> RefOr<Schema> {
        use utoipa::openapi::schema::{ObjectBuilder, OneOfBuilder, Type};
        OneOfBuilder::new()
            .item(ObjectBuilder::new().schema_type(Type::Boolean))
            .item(string_enum(["table".to_string()]))
            .into()
    }
}

impl ToSchema for PairOnline {}

/// A round's pairing deleted.
#[derive(Debug, Serialize, ToSchema)]
pub(super) struct Unpaired {
    pub ok: bool,
    pub round: u32,
}

/// A board's result.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub(super) struct ResultRequest {
    #[schema(minimum = 1)]
    pub board: u32,
    #[schema(value_type = BoardResult)]
    pub result: String,
}

/// A result a director enters.
#[derive(Debug, ToSchema)]
#[allow(dead_code)] // Only a schema: the values are parsed by `Record::set_result`.
pub(super) enum BoardResult {
    #[schema(rename = "1-0")]
    WhiteWins,
    #[schema(rename = "0-1")]
    BlackWins,
    #[schema(rename = "1/2-1/2")]
    Draw,
    #[schema(rename = "+-")]
    WhiteForfeitWin,
    #[schema(rename = "-+")]
    BlackForfeitWin,
}

/// The round after a result, and whether the result changed.
#[derive(Debug, Serialize, ToSchema)]
pub(super) struct ResultAnswer {
    #[serde(flatten)]
    pub round: RoundView,
    pub changed: bool,
}

/// Which standings.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct StandingsQuery {
    round: Option<u32>,
}

/// `POST /api/tournaments`.
async fn create(
    State(state): State<AppState>,
    ApiJson(req): ApiJson<CreateRequest>,
) -> ApiResult<Json<Created>> {
    let id = tournaments::create(&state, &req).await?;
    Ok(Json(Created { id }))
}

/// `GET /api/tournaments`: the newest first.
async fn list(State(state): State<AppState>) -> ApiResult<Json<TournamentList>> {
    let rows = tournaments::list(&state.store, LIST_LIMIT).await?;
    Ok(Json(TournamentList {
        tournaments: rows
            .into_iter()
            .map(|s| TournamentLine {
                id: s.id,
                name: s.name,
                system: s.system,
                created: instant(s.created),
            })
            .collect(),
    }))
}

/// `GET /api/tournaments/{id}` (a director also sees the seat links of
/// the boards at tables).
async fn detail(
    State(state): State<AppState>,
    MaybeCaller(viewer): MaybeCaller,
    Path(id): Path<String>,
) -> ApiResult<Json<DetailView>> {
    let (record, _) = tournaments::load(&state.store, &id).await?;
    let mut detail = view::detail(&id, &record);
    tournaments::annotate_detail(&state.store, &record, &mut detail).await?;
    tournaments::seat_detail(&state, viewer.as_ref(), &mut detail).await?;
    Ok(Json(detail))
}

/// `POST /api/tournaments/{id}/players` → `{"id": startRank}`.
async fn add_player(
    State(state): State<AppState>,
    Path(id): Path<String>,
    ApiJson(req): ApiJson<PlayerRequest>,
) -> ApiResult<Json<PlayerAdded>> {
    let player = NewPlayer {
        name: &req.name,
        rating: req.rating,
        username: req.username.as_deref(),
        club: req.club.as_deref(),
        guest: req.guest,
        ratings: RatingFacts::new(req.birth_year, req.dwz, req.dwz_index, req.fide_k)?,
    };
    let id = tournaments::add_player(&state.store, &id, &player).await?;
    Ok(Json(PlayerAdded { id }))
}

/// `POST /api/tournaments/{id}/forbidden`: players who must not meet.
async fn forbid(
    State(state): State<AppState>,
    Path(id): Path<String>,
    ApiJson(req): ApiJson<ForbidRequest>,
) -> ApiResult<Json<Done>> {
    tournaments::modify(&state.store, &id, |r| r.forbid(&req.players)).await?;
    Ok(done())
}

/// `POST /api/tournaments/{id}/players/{player}/withdraw`.
async fn withdraw(
    State(state): State<AppState>,
    Path((id, player)): Path<(String, String)>,
) -> ApiResult<Json<Withdrawn>> {
    let player = number("player", &player)?;
    let (after_round, _) = tournaments::modify(&state.store, &id, |r| r.withdraw(player)).await?;
    Ok(Json(Withdrawn {
        ok: true,
        player,
        after_round,
    }))
}

/// `POST /api/tournaments/{id}/attendance`.
async fn attendance(
    State(state): State<AppState>,
    Path(id): Path<String>,
    ApiJson(req): ApiJson<AttendanceRequest>,
) -> ApiResult<Json<AttendanceAnswer>> {
    let status = parse_attendance(&req.status)?;
    tournaments::modify(&state.store, &id, |r| {
        r.set_attendance(req.round, req.player, status)
    })
    .await?;
    Ok(Json(AttendanceAnswer {
        ok: true,
        round: req.round,
        player: req.player,
        status: status.as_str().to_string(),
    }))
}

/// `POST /api/tournaments/{id}/rounds` (body optional: `{"online":true}`
/// also creates the members' games, `{"online":"table"}` a table game for
/// every board): the new round's pairings.
async fn pair(
    State(state): State<AppState>,
    Caller(user): Caller,
    Path(id): Path<String>,
    body: Bytes,
) -> ApiResult<Json<RoundView>> {
    let text = String::from_utf8_lossy(&body);
    let req: PairRequest = if matches!(text.trim(), "" | "null") {
        PairRequest::default()
    } else {
        serde_json::from_slice(&body).map_err(|e| ApiError::bad_request(format!("body: {e}")))?
    };
    let mode = req.mode()?;
    let (round, record) = tournaments::pair(&state, &id, mode, &user.name).await?;
    let mut view = view::round(&record, round);
    tournaments::seat_round(&state, Some(&user), &mut view).await?;
    Ok(Json(view))
}

/// `GET /api/tournaments/{id}/rounds/{round}`: a round's pairing list
/// (a director also sees a table round's seat links).
async fn round(
    State(state): State<AppState>,
    MaybeCaller(viewer): MaybeCaller,
    Path((id, round)): Path<(String, String)>,
) -> ApiResult<Json<RoundView>> {
    let round = number("round", &round)?;
    let record = tournaments::paired(&state.store, &id, round).await?;
    let mut view = tournaments::round_view(&state.store, &id, &record, round).await?;
    tournaments::seat_round(&state, viewer.as_ref(), &mut view).await?;
    Ok(Json(view))
}

/// `DELETE /api/tournaments/{id}/rounds/{round}`: the last round's
/// pairing goes (to pair it again).
async fn unpair(
    State(state): State<AppState>,
    Path((id, round)): Path<(String, String)>,
) -> ApiResult<Json<Unpaired>> {
    let round = number("round", &round)?;
    tournaments::modify(&state.store, &id, |r| r.unpair(round)).await?;
    tournaments::unpaired(&state, &id, round).await?;
    Ok(Json(Unpaired { ok: true, round }))
}

/// `POST /api/tournaments/{id}/rounds/{round}/games`: the round's games on
/// the server, for the boards whose players have accounts (a round at
/// tables: for every board), and again for a board whose game was aborted.
async fn games(
    State(state): State<AppState>,
    Caller(user): Caller,
    Path((id, round)): Path<(String, String)>,
) -> ApiResult<Json<RoundView>> {
    let round = number("round", &round)?;
    tournaments::paired(&state.store, &id, round).await?;
    let record = tournaments::create_games(&state, &id, round, &user.name).await?;
    tournaments::round_changed(&state, &id, round).await;
    let mut view = view::round(&record, round);
    tournaments::seat_round(&state, Some(&user), &mut view).await?;
    Ok(Json(view))
}

/// `POST /api/tournaments/{id}/rounds/{round}/results`: a board's result,
/// or a logged correction.
async fn result(
    State(state): State<AppState>,
    Caller(user): Caller,
    Path((id, round)): Path<(String, String)>,
    ApiJson(req): ApiJson<ResultRequest>,
) -> ApiResult<Json<ResultAnswer>> {
    let round = number("round", &round)?;
    let now = state.clock.now();
    let (changed, record) = tournaments::modify(&state.store, &id, |r| {
        r.set_result(round, req.board, &req.result, &user.name, now, false)
    })
    .await?;
    // The director's result settles the players' reports of the board.
    tournaments::settled(&state, &id, round, req.board).await?;
    let mut view = tournaments::round_view(&state.store, &id, &record, round).await?;
    tournaments::seat_round(&state, Some(&user), &mut view).await?;
    Ok(Json(ResultAnswer {
        round: view,
        changed,
    }))
}

/// `GET /api/tournaments/{id}/standings[?round=N]`.
async fn standings(
    State(state): State<AppState>,
    Path(id): Path<String>,
    Query(query): Query<StandingsQuery>,
) -> ApiResult<Json<StandingsView>> {
    let (record, _) = tournaments::load(&state.store, &id).await?;
    let year = tournaments::this_year(&state);
    Ok(Json(view::standings_view(&record, query.round, year)?))
}

/// `GET /api/tournaments/{id}/crosstable`.
async fn crosstable(
    State(state): State<AppState>,
    Path(id): Path<String>,
) -> ApiResult<Json<CrosstableView>> {
    let (record, _) = tournaments::load(&state.store, &id).await?;
    Ok(Json(view::crosstable(&record)))
}

/// `GET /api/tournaments/{id}/trf`: the tournament as TRF.
async fn trf(State(state): State<AppState>, Path(id): Path<String>) -> ApiResult<Response> {
    let (record, _) = tournaments::load(&state.store, &id).await?;
    let (text, _) = record.to_texts()?;
    Ok(([(header::CONTENT_TYPE, "text/plain; charset=utf-8")], text).into_response())
}

/// The tournaments' rows of the endpoint table.
pub(super) fn endpoints() -> Vec<Endpoint> {
    use Access::{Arbiter, Public};
    let e = Endpoint::new;
    let director = |endpoint: Endpoint| endpoint.forbidden(DIRECTORS_ONLY);
    vec![
        director(e(
            "post",
            "/api/tournaments",
            "Creates a tournament (dutch, keizer or round-robin), or imports one from TRF → {id}",
            Arbiter,
            || post(create),
        ))
        .body::<CreateRequest>()
        .json::<Created>(),
        e("get", "/api/tournaments", "The tournaments, newest first", Public, || get(list))
            .json::<TournamentList>(),
        e(
            "get",
            "/api/tournaments/{id}",
            "A tournament: settings, players, rounds with boards and results, attendance, the log of corrections",
            Public,
            || get(detail),
        )
        .json::<DetailView>(),
        director(e(
            "post",
            "/api/tournaments/{id}/players",
            "Registers a player (a late entry once rounds are paired) → {id: starting rank}",
            Arbiter,
            || post(add_player),
        ))
        .body::<PlayerRequest>()
        .json::<PlayerAdded>(),
        director(e(
            "post",
            "/api/tournaments/{id}/players/{player}/withdraw",
            "Withdraws a player after the last paired round",
            Arbiter,
            || post(withdraw),
        ))
        .json::<Withdrawn>(),
        director(e(
            "post",
            "/api/tournaments/{id}/forbidden",
            "Players who must not be paired with each other (TRF's XXP line; Dutch and Keizer)",
            Arbiter,
            || post(forbid),
        ))
        .body::<ForbidRequest>()
        .json::<Done>(),
        director(e(
            "post",
            "/api/tournaments/{id}/attendance",
            "A player's attendance in a round: present, excused, unexcused, club-duty (Swiss and round robin also half-point-bye, full-point-bye)",
            Arbiter,
            || post(attendance),
        ))
        .body::<AttendanceRequest>()
        .json::<AttendanceAnswer>(),
        director(e(
            "post",
            "/api/tournaments/{id}/rounds",
            "Pairs the next round (every earlier game needs a result); {online:true} also creates the members' games, {online:\"table\"} a table game for every board (members and guests; seat links for the directors)",
            Arbiter,
            || post(pair),
        ))
        .body::<PairRequest>()
        .json::<RoundView>(),
        e(
            "get",
            "/api/tournaments/{id}/rounds/{round}",
            "A round's pairing list: boards, results, games (a table game's display; its seat links for a director only), bye, Chess960 position",
            Public,
            || get(round),
        )
        .json::<RoundView>(),
        director(e(
            "delete",
            "/api/tournaments/{id}/rounds/{round}",
            "Deletes the last round's pairing and results, to pair it again (not once played online)",
            Arbiter,
            || delete(unpair),
        ))
        .json::<Unpaired>(),
        director(e(
            "post",
            "/api/tournaments/{id}/rounds/{round}/games",
            "Creates the round's games on the server for boards whose players have accounts (at tables: every board), again for aborted ones",
            Arbiter,
            || post(games),
        ))
        .json::<RoundView>(),
        director(e(
            "post",
            "/api/tournaments/{id}/rounds/{round}/results",
            "A board's result; changing one is a logged correction",
            Arbiter,
            || post(result),
        ))
        .body::<ResultRequest>()
        .json::<ResultAnswer>(),
    ]
    .into_iter()
    .chain(super::tournament_reports::endpoints())
    .chain([
        e(
            "get",
            "/api/tournaments/{id}/standings",
            "Standings after the last complete round (?round=N for an earlier one), with tie-breaks; Keizer: the Keizer score",
            Public,
            || get(standings),
        )
        .json::<StandingsView>(),
        e(
            "get",
            "/api/tournaments/{id}/crosstable",
            "Each player's opponents, colours and results by round",
            Public,
            || get(crosstable),
        )
        .json::<CrosstableView>(),
        e(
            "get",
            "/api/tournaments/{id}/trf",
            "The tournament as TRF (tempo pair and tempo standings read it)",
            Public,
            || get(trf),
        )
        .content("text/plain"),
    ])
    .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mode_of(body: &str) -> Result<Option<RoundMode>, String> {
        let req: PairRequest = serde_json::from_str(body).map_err(|e| e.to_string())?;
        req.mode().map_err(|e| e.message)
    }

    /// `true` and `false` mean what they always meant; `"table"` is new;
    /// anything else is refused naming the field and its values.
    #[test]
    fn online_is_true_false_or_table() {
        assert_eq!(mode_of("{}"), Ok(None));
        assert_eq!(mode_of(r#"{"online":false}"#), Ok(None));
        assert_eq!(mode_of(r#"{"online":true}"#), Ok(Some(RoundMode::Online)));
        assert_eq!(mode_of(r#"{"online":"table"}"#), Ok(Some(RoundMode::Table)));
        for bad in [
            r#""tables""#,
            r#""TABLE""#,
            "1",
            "[]",
            r#"{"table":1}"#,
            r#""true""#,
        ] {
            let refused = mode_of(&format!(r#"{{"online":{bad}}}"#));
            assert_eq!(refused, Err(ONLINE_VALUES.to_string()), "{bad}");
        }
        assert!(mode_of(r#"{"online":true,"tables":1}"#).is_err());
    }
}
