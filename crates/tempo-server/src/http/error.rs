//! The one error of the HTTP edge: a status and one line of JSON,
//! `{"error":"…","code":"…"}`. Each service's error becomes one here, and
//! only here are a status and a machine code ([`Code`]) chosen, from the
//! typed error's variant (never from its English text).

use axum::Json;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use serde::Serialize;
use tempo_host::HostError;
use utoipa::ToSchema;

use super::codes::Code;
use super::input::BadInput;
use crate::domain::challenge_params::ParamError;
use crate::domain::tournaments::Refusal;
use crate::service::accounts::AccountsError;
use crate::service::bots::BotError;
use crate::service::challenges::ChallengeError;
use crate::service::chat::ChatError;
use crate::service::games::GameError;
use crate::service::ratings::RatingsError;
use crate::service::tables::TableError;
use crate::service::tournaments::TournamentError;
use crate::storage::StoreError;

/// A refusal as the API answers it.
#[derive(Debug, Serialize, ToSchema)]
pub(crate) struct ErrorAnswer {
    /// What went wrong, in one line of English.
    pub error: String,
    /// What went wrong, as a stable machine code (for a client's own text).
    pub code: Code,
}

/// An error answer.
#[derive(Debug)]
pub(crate) struct ApiError {
    pub status: StatusCode,
    pub code: Code,
    pub message: String,
    /// Seconds for a `Retry-After` header (a refusal for load).
    pub retry_after: Option<u64>,
}

impl ApiError {
    pub(crate) fn new(status: StatusCode, code: Code, message: impl Into<String>) -> ApiError {
        ApiError {
            status,
            code,
            message: message.into(),
            retry_after: None,
        }
    }

    pub(crate) fn bad_request(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::BAD_REQUEST, Code::BadRequest, message)
    }

    /// A route that needs a caller, asked without one.
    pub(crate) fn unauthorized(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::UNAUTHORIZED, Code::LoginRequired, message)
    }

    /// A route the caller's role may not use.
    pub(crate) fn forbidden(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::FORBIDDEN, Code::RoleRequired, message)
    }

    /// `what` (a route, a game, a challenge, a tournament, a user) is not
    /// found.
    pub(crate) fn not_found(what: &str) -> ApiError {
        let code = match what {
            "route" => Code::RouteNotFound,
            "game" => Code::GameNotFound,
            "challenge" => Code::ChallengeNotFound,
            "tournament" => Code::TournamentNotFound,
            "user" => Code::UserNotFound,
            _ => Code::NotFound,
        };
        ApiError::new(StatusCode::NOT_FOUND, code, format!("{what} not found"))
    }

    /// An answer of `status` written by a layer, not by a handler: its code
    /// follows from the status alone.
    pub(crate) fn of_status(status: StatusCode, message: impl Into<String>) -> ApiError {
        let code = match status {
            StatusCode::NOT_FOUND => Code::RouteNotFound,
            StatusCode::METHOD_NOT_ALLOWED => Code::MethodNotAllowed,
            StatusCode::PAYLOAD_TOO_LARGE => Code::BodyTooLarge,
            StatusCode::UNSUPPORTED_MEDIA_TYPE => Code::UnsupportedMediaType,
            StatusCode::UNPROCESSABLE_ENTITY => Code::BadBody,
            StatusCode::URI_TOO_LONG => Code::UriTooLong,
            StatusCode::REQUEST_HEADER_FIELDS_TOO_LARGE => Code::HeadersTooLarge,
            StatusCode::REQUEST_TIMEOUT => Code::Timeout,
            StatusCode::UNAUTHORIZED => Code::LoginRequired,
            StatusCode::FORBIDDEN => Code::RoleRequired,
            StatusCode::SERVICE_UNAVAILABLE => Code::Busy,
            s if s.is_server_error() => Code::InternalError,
            _ => Code::BadRequest,
        };
        ApiError::new(status, code, message)
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let answer = ErrorAnswer {
            error: self.message,
            code: self.code,
        };
        let mut response = (self.status, Json(answer)).into_response();
        if let Some(seconds) = self.retry_after {
            response
                .headers_mut()
                .insert(axum::http::header::RETRY_AFTER, seconds.into());
        }
        response
    }
}

impl From<StoreError> for ApiError {
    fn from(err: StoreError) -> ApiError {
        // A safety net behind the edge's checks (`super::input`): text the
        // store cannot hold is the request's fault, not an outage.
        if err.is_unstorable_text() {
            tracing::warn!(error = %err, "storage refused the request's text");
            return ApiError::new(
                StatusCode::BAD_REQUEST,
                Code::UnstorableText,
                "the request holds text that cannot be stored (a NUL or an invalid character)",
            );
        }
        // The detail goes to the log, not to the client.
        tracing::error!(error = %err, "storage");
        ApiError::new(
            StatusCode::SERVICE_UNAVAILABLE,
            Code::StorageUnavailable,
            "storage unavailable, try again",
        )
    }
}

impl From<HostError> for ApiError {
    fn from(err: HostError) -> ApiError {
        use tempo_host::HostError as E;
        let code = match err {
            E::Spec(_) => Code::BadGameSpec,
            E::GameOver { .. } => Code::GameOver,
            E::FlagDue => Code::FlagDue,
            E::Paused => Code::Paused,
            E::NotYourTurn => Code::NotYourTurn,
            E::AlreadyCommitted => Code::AlreadyCommitted,
            E::Illegal(_) => Code::IllegalMove,
            E::TooLateToAbort => Code::TooLateToAbort,
            E::DrawAlreadyOffered => Code::DrawAlreadyOffered,
            E::NoDrawOffer => Code::NoDrawOffer,
            E::NoDrawToClaim => Code::NoDrawToClaim,
            E::Clock(_) => Code::BadClock,
            E::Replay { .. } => Code::GameUnloadable,
        };
        let status = match err {
            E::GameOver { .. }
            | E::FlagDue
            | E::Paused
            | E::AlreadyCommitted
            | E::TooLateToAbort => StatusCode::CONFLICT,
            _ => StatusCode::BAD_REQUEST,
        };
        ApiError::new(status, code, err.to_string())
    }
}

impl From<GameError> for ApiError {
    fn from(err: GameError) -> ApiError {
        use StatusCode as S;
        let (status, code) = match err {
            GameError::Rejected(host) => return host.into(),
            GameError::Store(store) => return store.into(),
            GameError::NotFound => (S::NOT_FOUND, Code::GameNotFound),
            GameError::NotSeated => (S::FORBIDDEN, Code::NotAPlayer),
            GameError::OwnGame => (S::FORBIDDEN, Code::OwnGame),
            GameError::ChoiceTooLong => (S::BAD_REQUEST, Code::ChoiceTooLong),
            GameError::Unloadable => (S::SERVICE_UNAVAILABLE, Code::GameUnloadable),
            GameError::Busy => (S::SERVICE_UNAVAILABLE, Code::Busy),
        };
        ApiError::new(status, code, err.to_string())
    }
}

impl From<RatingsError> for ApiError {
    fn from(err: RatingsError) -> ApiError {
        let (status, code) = match err {
            RatingsError::Store(store) => return store.into(),
            RatingsError::UnknownVariant(_) => (StatusCode::BAD_REQUEST, Code::UnknownVariant),
            RatingsError::NoSuchUser => (StatusCode::NOT_FOUND, Code::UserNotFound),
        };
        ApiError::new(status, code, err.to_string())
    }
}

impl From<AccountsError> for ApiError {
    fn from(err: AccountsError) -> ApiError {
        use crate::domain::accounts::AccountError as R;
        use AccountsError as E;
        use StatusCode as S;
        let retry_after = err.retry_after();
        let (status, code) = match err {
            E::Store(store) => return store.into(),
            E::AddressLimited(_) => (S::TOO_MANY_REQUESTS, Code::RateLimited),
            E::AccountLimited(_) => (S::TOO_MANY_REQUESTS, Code::AccountRateLimited),
            E::HashingFull(_) => (S::TOO_MANY_REQUESTS, Code::Busy),
            E::Rules(R::BadName(_)) => (S::BAD_REQUEST, Code::BadUsername),
            E::Rules(R::BadPassword) => (S::BAD_REQUEST, Code::BadPassword),
            E::Rules(R::Taken(_)) => (S::BAD_REQUEST, Code::NameTaken),
            E::Rules(R::Reserved(_) | R::RouteName(_)) => (S::BAD_REQUEST, Code::NameReserved),
            E::BadRole => (S::BAD_REQUEST, Code::BadRole),
            E::Mail(_) => (S::BAD_REQUEST, Code::BadEmail),
            E::WrongPassword => (S::UNAUTHORIZED, Code::WrongPassword),
            E::UnknownToken => (S::UNAUTHORIZED, Code::UnknownToken),
            E::SessionEnded => (S::UNAUTHORIZED, Code::SessionEnded),
            E::OldPasswordWrong => (S::FORBIDDEN, Code::OldPasswordWrong),
            E::NotAdmin => (S::FORBIDDEN, Code::NotAdmin),
            E::NameTaken(_) => (S::CONFLICT, Code::NameTaken),
            E::NoSuchUser => (S::NOT_FOUND, Code::UserNotFound),
            E::Busy => (S::SERVICE_UNAVAILABLE, Code::Busy),
        };
        ApiError {
            retry_after,
            ..ApiError::new(status, code, err.to_string())
        }
    }
}

impl From<ChallengeError> for ApiError {
    fn from(err: ChallengeError) -> ApiError {
        use ChallengeError as E;
        use StatusCode as S;
        let (status, code) = match err {
            E::Spec(host) => return host.into(),
            E::Store(store) => return store.into(),
            E::TooFast(wait) => {
                let mut answer = ApiError::new(
                    S::TOO_MANY_REQUESTS,
                    Code::TooManyOpenChallenges,
                    err.to_string(),
                );
                answer.retry_after = Some(wait.seconds());
                return answer;
            }
            E::Params(ref params) => match params {
                ParamError::BadColor => (S::BAD_REQUEST, Code::BadColor),
                ParamError::Bad { .. } | ParamError::Conflict(_) => {
                    (S::BAD_REQUEST, Code::BadChallengeParameter)
                }
                ParamError::Unsupported { .. } => {
                    (S::BAD_REQUEST, Code::UnsupportedChallengeOption)
                }
            },
            E::Yourself => (S::BAD_REQUEST, Code::ChallengeYourself),
            E::OwnChallenge => (S::BAD_REQUEST, Code::OwnChallenge),
            E::NoSuchUser => (S::NOT_FOUND, Code::UserNotFound),
            E::NotFound => (S::NOT_FOUND, Code::ChallengeNotFound),
            E::TooMany => (S::TOO_MANY_REQUESTS, Code::TooManyChallenges),
            E::TooManySeeks => (S::TOO_MANY_REQUESTS, Code::TooManyOpenChallenges),
            E::NotTheChallenged => (S::FORBIDDEN, Code::NotTheChallenged),
            E::NotYours(_) => (S::FORBIDDEN, Code::NotYourChallenge),
            E::Closed(_) | E::NoLongerOpen => (S::CONFLICT, Code::ChallengeClosed),
        };
        ApiError::new(status, code, err.to_string())
    }
}

impl From<TableError> for ApiError {
    fn from(err: TableError) -> ApiError {
        use StatusCode as S;
        use TableError as E;
        let (status, code) = match err {
            E::Spec(host) => return host.into(),
            E::Store(store) => return store.into(),
            E::Name(_) => (S::BAD_REQUEST, Code::BadPlayerName),
            E::TooMany => (S::TOO_MANY_REQUESTS, Code::TooManyTables),
            E::NotFound => (S::NOT_FOUND, Code::TableNotFound),
            E::NoSuchMember(_) => (S::NOT_FOUND, Code::UserNotFound),
            E::NotDirector => (S::FORBIDDEN, Code::NotTheDirector),
            E::Over => (S::CONFLICT, Code::GameOver),
            E::TooManyTokens => (S::CONFLICT, Code::TooManySeatTokens),
            E::SeatNotLive => (S::NOT_FOUND, Code::TableNotFound),
        };
        ApiError::new(status, code, err.to_string())
    }
}

impl From<BotError> for ApiError {
    fn from(err: BotError) -> ApiError {
        use BotError as E;
        use StatusCode as S;
        let (status, code) = match err {
            E::Store(store) => return store.into(),
            E::NotABot => (S::FORBIDDEN, Code::NotABot),
            E::AlreadyBot => (S::BAD_REQUEST, Code::AlreadyBot),
            E::HasPlayed => (S::BAD_REQUEST, Code::BotHasPlayed),
            E::NoSuchUser => (S::NOT_FOUND, Code::UserNotFound),
            E::TooManyTokens => (S::BAD_REQUEST, Code::BadRequest),
            E::TooFast(wait) => {
                let mut answer = ApiError::new(
                    S::TOO_MANY_REQUESTS,
                    Code::TokenTestRateLimited,
                    err.to_string(),
                );
                answer.retry_after = Some(wait.seconds());
                return answer;
            }
        };
        ApiError::new(status, code, err.to_string())
    }
}

impl From<ChatError> for ApiError {
    fn from(err: ChatError) -> ApiError {
        use ChatError as E;
        use StatusCode as S;
        let (status, code) = match err {
            E::Store(store) => return store.into(),
            E::TooFast(wait) => {
                let mut answer =
                    ApiError::new(S::TOO_MANY_REQUESTS, Code::ChatRateLimited, err.to_string());
                answer.retry_after = Some(wait.seconds());
                return answer;
            }
            E::BadRoom | E::BadText => (S::BAD_REQUEST, Code::BadChatLine),
            E::NoSuchGame => (S::NOT_FOUND, Code::GameNotFound),
            E::PlayersOnly => (S::FORBIDDEN, Code::ChatPlayersOnly),
        };
        ApiError::new(status, code, err.to_string())
    }
}

impl From<Refusal> for ApiError {
    fn from(refusal: Refusal) -> ApiError {
        use StatusCode as S;
        let (status, code) = match &refusal {
            Refusal::Invalid(_) => (S::BAD_REQUEST, Code::TournamentInvalid),
            Refusal::Conflict(_) => (S::CONFLICT, Code::TournamentConflict),
            Refusal::NotFound(what) if what == "tournament" => {
                (S::NOT_FOUND, Code::TournamentNotFound)
            }
            Refusal::NotFound(_) => (S::NOT_FOUND, Code::NotFound),
            Refusal::Forbidden(_) => (S::FORBIDDEN, Code::TournamentForbidden),
        };
        ApiError::new(status, code, refusal.to_string())
    }
}

impl From<TournamentError> for ApiError {
    fn from(err: TournamentError) -> ApiError {
        use StatusCode as S;
        use TournamentError as E;
        let (status, code) = match err {
            E::Refused(refusal) => return refusal.into(),
            E::Game(game) => return game.into(),
            E::Table(table) => return table.into(),
            E::Store(store) => return store.into(),
            E::Report(ref refusal) => {
                use crate::domain::tournaments::ReportRefusal as R;
                match refusal {
                    R::NotYourBoard { .. } => (S::FORBIDDEN, Code::NotYourBoard),
                    R::RoundNotCurrent { .. } => (S::CONFLICT, Code::RoundNotCurrent),
                    R::BoardNotFound { .. } => (S::NOT_FOUND, Code::BoardNotFound),
                    R::BoardHasResult { .. } => (S::CONFLICT, Code::BoardHasResult),
                    R::OnlineBoard { .. } => (S::CONFLICT, Code::OnlineBoard),
                    R::Forfeit(_) => (S::BAD_REQUEST, Code::ForfeitNotReported),
                    R::BadResult(_) => (S::BAD_REQUEST, Code::BadReportResult),
                }
            }
            E::BadUsername(_) => (S::BAD_REQUEST, Code::BadUsername),
            E::NoSuchUser(_) => (S::BAD_REQUEST, Code::UserNotFound),
            E::Busy => {
                // Other changes came in between each try: a moment later
                // one will get through.
                let mut answer = ApiError::new(S::SERVICE_UNAVAILABLE, Code::Busy, err.to_string());
                answer.retry_after = Some(1);
                return answer;
            }
            E::Failed => (S::INTERNAL_SERVER_ERROR, Code::InternalError),
        };
        ApiError::new(status, code, err.to_string())
    }
}

impl From<BadInput> for ApiError {
    fn from(bad: BadInput) -> ApiError {
        match bad {
            BadInput::Malformed(message) => ApiError::bad_request(message),
            BadInput::NoSuch(what) => ApiError::not_found(what),
        }
    }
}

/// A JSON body whose rejection is an [`ApiError`] (one line of JSON, the
/// problem named), not axum's plain text.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct ApiJson<T>(pub T);

impl<S, T> axum::extract::FromRequest<S> for ApiJson<T>
where
    Json<T>: axum::extract::FromRequest<S, Rejection = axum::extract::rejection::JsonRejection>,
    S: Send + Sync,
{
    type Rejection = ApiError;

    async fn from_request(req: axum::extract::Request, state: &S) -> Result<Self, ApiError> {
        // The body is read once, checked for a NUL in any string (see
        // `super::input`), then parsed as before with its headers.
        let (parts, body) = req.into_parts();
        let headers = parts.headers.clone();
        let bytes =
            axum::body::Bytes::from_request(axum::extract::Request::from_parts(parts, body), state)
                .await
                .map_err(|rejection| {
                    ApiError::of_status(rejection.status(), rejection.body_text())
                })?;
        if super::input::holds_nul(&bytes) {
            return Err(super::input::nul_refused().into());
        }
        let mut again = axum::extract::Request::new(axum::body::Body::from(bytes));
        *again.headers_mut() = headers;
        Json::<T>::from_request(again, state)
            .await
            .map(|Json(value)| ApiJson(value))
            .map_err(|rejection| ApiError::of_status(rejection.status(), rejection.body_text()))
    }
}

/// Makes every error answer one line of JSON, also those axum writes
/// itself as plain text (a path that does not decode, a method the route
/// lacks, a body over the limit, a timeout).
pub(crate) async fn json_errors(
    mut response: axum::response::Response,
) -> axum::response::Response {
    // No answer is ever to be read as another type than it says.
    response.headers_mut().insert(
        axum::http::header::X_CONTENT_TYPE_OPTIONS,
        axum::http::HeaderValue::from_static("nosniff"),
    );
    let status = response.status();
    let is_json = response
        .headers()
        .get(axum::http::header::CONTENT_TYPE)
        .is_some_and(|v| v.as_bytes().starts_with(b"application/json"));
    if !(status.is_client_error() || status.is_server_error()) || is_json {
        return response;
    }
    let bytes = axum::body::to_bytes(response.into_body(), 4096)
        .await
        .unwrap_or_default();
    let text = String::from_utf8_lossy(&bytes);
    let message = match text.lines().next().map(str::trim) {
        Some(line) if !line.is_empty() => line.to_string(),
        _ => status
            .canonical_reason()
            .unwrap_or("request refused")
            .to_lowercase(),
    };
    let mut response = ApiError::of_status(status, message).into_response();
    response.headers_mut().insert(
        axum::http::header::X_CONTENT_TYPE_OPTIONS,
        axum::http::HeaderValue::from_static("nosniff"),
    );
    response
}

#[cfg(test)]
mod tests {
    use axum::http::StatusCode;

    use super::ApiError;
    use crate::storage::StoreError;

    /// The safety net: PostgreSQL's refusal of a NUL becomes a 400, not a
    /// 503 (run with `TEMPO_TEST_DATABASE_URL`; SQLite stores a NUL).
    #[tokio::test]
    async fn text_postgresql_cannot_hold_is_a_400() {
        let Ok(url) = std::env::var("TEMPO_TEST_DATABASE_URL") else {
            eprintln!("skipped: TEMPO_TEST_DATABASE_URL not set (PostgreSQL tests)");
            return;
        };
        sqlx::any::install_default_drivers();
        let pool = sqlx::AnyPool::connect(&url).await.expect("PostgreSQL");
        let Err(err) = sqlx::query("SELECT $1")
            .bind("anna\0")
            .fetch_one(&pool)
            .await
        else {
            panic!("PostgreSQL took a NUL");
        };
        let err = StoreError::from(err);
        assert!(err.is_unstorable_text(), "{err}");
        assert_eq!(ApiError::from(err).status, StatusCode::BAD_REQUEST);
        let other = StoreError::Damaged("x".into());
        assert!(!other.is_unstorable_text());
        assert_eq!(
            ApiError::from(other).status,
            StatusCode::SERVICE_UNAVAILABLE
        );
    }
}
