//! lichess's Bot API: a member upgrades their account to a bot, and a bot
//! plays through `/api/bot/…` — the board routes' own handlers behind a
//! check that the caller is a bot (403 `not_a_bot` otherwise, as
//! lichess). The board routes take bots too (tempo's own computer
//! opponents play through them): what marks a bot is its account, not
//! the route. Also the games' chat (board and bot routes alike), the
//! online bots and `POST /api/token/test`.

use std::collections::{BTreeMap, HashMap};

use axum::Json;
use axum::body::Body;
use axum::extract::{Path, Query, State};
use axum::http::HeaderMap;
use axum::response::Response;
use axum::routing::{get, post};
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};

use super::board::{self, MoveQuery};
use super::endpoint::{Access, Endpoint, NDJSON};
use super::extract::{Caller, PlayAs, Viewer};
use super::form::FormOrJson;
use super::games::GameView;
use super::origin::Origin;
use super::users::LichessProfile;
use super::{ApiResult, Done, done};
use crate::service::AppState;
use crate::service::bots::{self, TokenScopes};
use crate::service::chat;
use crate::service::games::Player;

/// `POST /api/bot/account/upgrade`: the caller's account becomes a bot.
async fn upgrade(State(state): State<AppState>, Caller(user): Caller) -> ApiResult<Json<Done>> {
    bots::upgrade(&state, &user).await?;
    Ok(done())
}

/// `GET /api/bot/game/stream/{id}`: the game stream, for a bot.
async fn stream(
    State(state): State<AppState>,
    headers: HeaderMap,
    Caller(user): Caller,
    Path(id): Path<String>,
) -> ApiResult<Response> {
    bots::require_bot(&state, &user).await?;
    super::stream::game_stream(
        State(state),
        headers,
        Viewer(Some(Player::Member(user))),
        Path(id),
    )
    .await
}

/// `POST /api/bot/game/{id}/move/{move}[?offeringDraw=true]`.
async fn play(
    State(state): State<AppState>,
    Caller(user): Caller,
    Path(path): Path<(String, String)>,
    query: Query<MoveQuery>,
) -> ApiResult<Json<Done>> {
    bots::require_bot(&state, &user).await?;
    board::play(
        State(state),
        PlayAs(Player::Member(user)),
        Path(path),
        query,
    )
    .await
}

/// `POST /api/bot/game/{id}/{resign|abort|claim-draw}`.
async fn action(
    State(state): State<AppState>,
    Caller(user): Caller,
    Path(path): Path<(String, String)>,
) -> ApiResult<Json<Done>> {
    bots::require_bot(&state, &user).await?;
    board::action(State(state), PlayAs(Player::Member(user)), Path(path)).await
}

/// `POST /api/bot/game/{id}/draw/{yes|no}`.
async fn draw(
    State(state): State<AppState>,
    Caller(user): Caller,
    Path(path): Path<(String, String)>,
) -> ApiResult<Json<Done>> {
    bots::require_bot(&state, &user).await?;
    board::draw(State(state), PlayAs(Player::Member(user)), Path(path)).await
}

/// A chat line to write (a form, as lichess's clients send it, or JSON).
#[derive(Debug, Deserialize, ToSchema)]
pub(super) struct ChatRequest {
    /// `player` (the two players) or `spectator` (everyone).
    pub room: String,
    /// 1 to 140 characters, no control characters.
    pub text: String,
}

/// A line of the player room.
#[derive(Debug, Serialize, ToSchema)]
pub(super) struct ChatEntry {
    pub user: String,
    pub text: String,
}

/// `POST /api/board/game/{id}/chat`.
async fn say(
    State(state): State<AppState>,
    Caller(user): Caller,
    Path(id): Path<String>,
    FormOrJson(req): FormOrJson<ChatRequest>,
) -> ApiResult<Json<Done>> {
    chat::say(&state, &user, &id, &req.room, &req.text).await?;
    Ok(done())
}

/// The player room's lines, oldest first (a JSON array, as lichess).
#[derive(Debug, Serialize, ToSchema)]
#[serde(transparent)]
pub(super) struct ChatLines(pub Vec<ChatEntry>);

/// `GET /api/board/game/{id}/chat`: the player room, oldest first.
async fn read(
    State(state): State<AppState>,
    Caller(user): Caller,
    Path(id): Path<String>,
) -> ApiResult<Json<ChatLines>> {
    let lines = chat::player_room(&state, &user, &id).await?;
    Ok(Json(ChatLines(
        lines
            .into_iter()
            .map(|l| ChatEntry {
                user: l.username,
                text: l.text,
            })
            .collect(),
    )))
}

/// `POST /api/bot/game/{id}/chat`.
async fn bot_say(
    State(state): State<AppState>,
    Caller(user): Caller,
    path: Path<String>,
    body: FormOrJson<ChatRequest>,
) -> ApiResult<Json<Done>> {
    bots::require_bot(&state, &user).await?;
    say(State(state), Caller(user), path, body).await
}

/// `GET /api/bot/game/{id}/chat`.
async fn bot_read(
    State(state): State<AppState>,
    Caller(user): Caller,
    path: Path<String>,
) -> ApiResult<Json<ChatLines>> {
    bots::require_bot(&state, &user).await?;
    read(State(state), Caller(user), path).await
}

/// How many online bots to list.
#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub(super) struct OnlineQuery {
    /// 1 to 300 (50 if not given).
    #[param(minimum = 1, maximum = 300)]
    pub nb: Option<u32>,
}

/// Bots listed at most, and by default.
const MAX_ONLINE: u32 = 300;
const ONLINE: u32 = 50;

/// `GET /api/bot/online[?nb=]`: NDJSON, the bots with an event stream
/// open on this instance.
async fn online(
    State(state): State<AppState>,
    Origin(origin): Origin,
    Query(query): Query<OnlineQuery>,
) -> ApiResult<Response> {
    let nb = query.nb.unwrap_or(ONLINE);
    if !(1..=MAX_ONLINE).contains(&nb) {
        return Err(super::error::ApiError::bad_request(format!(
            "nb: 1 to {MAX_ONLINE}, not {nb}"
        )));
    }
    let mut text = String::new();
    for user in bots::online_bots(&state, nb as usize).await? {
        let profile = LichessProfile::new(user, &origin);
        text.push_str(&serde_json::to_string(&profile).expect("a profile serialises"));
        text.push('\n');
    }
    Ok(Response::builder()
        .header(axum::http::header::CONTENT_TYPE, NDJSON)
        .body(Body::from(text))
        .expect("a response"))
}

/// What `POST /api/token/test` says of a token.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub(super) struct TokenTest {
    /// lichess's scope names, comma-separated: `bot:play` for a bot's.
    pub scopes: String,
    /// The account's lowercase name.
    pub user_id: String,
    /// When the token lapses (ms since the epoch); `null`: it does not.
    pub expires: Option<i64>,
}

/// Each token asked about, `null` for one unknown, revoked or lapsed.
#[derive(Debug, Serialize, ToSchema)]
#[serde(transparent)]
#[schema(value_type = Object)]
pub(super) struct TokenTestAnswer(pub BTreeMap<String, Option<TokenTest>>);

/// `POST /api/token/test`: the body is tokens separated by commas (plain
/// text), at most 1,000.
async fn test_tokens(
    State(state): State<AppState>,
    peer: super::peer::Peer,
    body: String,
) -> ApiResult<Json<TokenTestAnswer>> {
    let tokens: Vec<String> = body
        .split(',')
        .map(str::trim)
        .filter(|t| !t.is_empty())
        .map(str::to_string)
        .collect();
    // Each distinct token once.
    let distinct: HashMap<&str, ()> = tokens.iter().map(|t| (t.as_str(), ())).collect();
    let distinct: Vec<String> = distinct.into_keys().map(str::to_string).collect();
    let answers = bots::test_tokens(&state, peer.ip, &distinct).await?;
    Ok(Json(TokenTestAnswer(
        answers
            .into_iter()
            .map(|(token, scopes)| {
                let view = scopes.map(
                    |TokenScopes {
                         scopes,
                         user_id,
                         expires,
                     }| TokenTest {
                        scopes: scopes.to_string(),
                        user_id,
                        expires,
                    },
                );
                (token, view)
            })
            .collect(),
    )))
}

/// The rows of the endpoint table.
pub(super) fn endpoints() -> Vec<Endpoint> {
    use Access::*;
    let e = Endpoint::new;
    vec![
        e(
            "post",
            "/api/bot/account/upgrade",
            "The caller's account becomes a bot, for good (lichess's Bot API); refused once it has played a game",
            Token,
            || post(upgrade),
        )
        .json::<Done>(),
        e(
            "get",
            "/api/bot/online",
            "The bots with an event stream open on this instance, as NDJSON user objects (?nb=, 1 to 300, default 50)",
            Token,
            || get(online),
        )
        .query::<OnlineQuery>()
        .ndjson::<LichessProfile>(),
        e(
            "get",
            "/api/bot/game/stream/{id}",
            "A bot's game stream: as GET /api/board/game/stream/{id}",
            Token,
            || get(stream),
        )
        .ndjson::<GameView>(),
        e(
            "post",
            "/api/bot/game/{id}/move/{choice}",
            "A bot's move (as the board route; ?offeringDraw=true also offers or accepts a draw)",
            Token,
            || post(play),
        )
        .query::<MoveQuery>()
        .json::<Done>(),
        e(
            "post",
            "/api/bot/game/{id}/draw/{answer}",
            "A bot offers or accepts (yes) or declines (no) a draw",
            Token,
            || post(draw),
        )
        .json::<Done>(),
        e(
            "post",
            "/api/bot/game/{id}/{action}",
            "A bot's resign, abort or claim-draw",
            Token,
            || post(action),
        )
        .json::<Done>(),
        e(
            "post",
            "/api/bot/game/{id}/chat",
            "A bot writes in a game's chat: room (player or spectator), text (form or JSON)",
            Token,
            || post(bot_say),
        )
        .body::<ChatRequest>()
        .json::<Done>(),
        e(
            "get",
            "/api/bot/game/{id}/chat",
            "A bot's game's player room: [{user, text}], oldest first",
            Token,
            || get(bot_read),
        )
        .json::<ChatLines>(),
        e(
            "post",
            "/api/board/game/{id}/chat",
            "Writes in a game's chat: room (player: the two players; spectator: any member), text of 1 to 140 characters (form or JSON); told on the game stream as chatLine",
            Token,
            || post(say),
        )
        .body::<ChatRequest>()
        .json::<Done>(),
        e(
            "get",
            "/api/board/game/{id}/chat",
            "The game's player room, for its players: [{user, text}], oldest first (the newest 200)",
            Token,
            || get(read),
        )
        .json::<ChatLines>(),
        e(
            "post",
            "/api/token/test",
            "What tokens may do: the body is tokens separated by commas (plain text, at most 1,000) → {token: {scopes, userId, expires} or null}",
            Public,
            || post(test_tokens),
        )
        .json::<TokenTestAnswer>(),
    ]
}
