//! The one error of the HTTP edge: a status and one line of JSON,
//! `{"error":"…"}`. Each service's error becomes one here, and only here
//! is a status chosen.

use axum::Json;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use serde::Serialize;
use tempo_host::HostError;
use utoipa::ToSchema;

use super::input::BadInput;
use crate::domain::tournaments::Refusal;
use crate::service::accounts::AccountsError;
use crate::service::challenges::ChallengeError;
use crate::service::games::GameError;
use crate::service::tournaments::TournamentError;
use crate::storage::StoreError;

/// A refusal as the API answers it.
#[derive(Debug, Serialize, ToSchema)]
pub(crate) struct ErrorAnswer {
    /// What went wrong, in one line.
    pub error: String,
}

/// An error answer.
#[derive(Debug)]
pub(crate) struct ApiError {
    pub status: StatusCode,
    pub message: String,
    /// Seconds for a `Retry-After` header (a refusal for load).
    pub retry_after: Option<u64>,
}

impl ApiError {
    pub(crate) fn new(status: StatusCode, message: impl Into<String>) -> ApiError {
        ApiError {
            status,
            message: message.into(),
            retry_after: None,
        }
    }

    pub(crate) fn bad_request(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::BAD_REQUEST, message)
    }

    pub(crate) fn unauthorized(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::UNAUTHORIZED, message)
    }

    pub(crate) fn forbidden(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::FORBIDDEN, message)
    }

    pub(crate) fn not_found(what: &str) -> ApiError {
        ApiError::new(StatusCode::NOT_FOUND, format!("{what} not found"))
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let answer = ErrorAnswer {
            error: self.message,
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
            return ApiError::bad_request(
                "the request holds text that cannot be stored (a NUL or an invalid character)",
            );
        }
        // The detail goes to the log, not to the client.
        tracing::error!(error = %err, "storage");
        ApiError::new(
            StatusCode::SERVICE_UNAVAILABLE,
            "storage unavailable, try again",
        )
    }
}

impl From<HostError> for ApiError {
    fn from(err: HostError) -> ApiError {
        use tempo_host::HostError as E;
        let status = match err {
            E::GameOver { .. }
            | E::FlagDue
            | E::Paused
            | E::AlreadyCommitted
            | E::TooLateToAbort => StatusCode::CONFLICT,
            _ => StatusCode::BAD_REQUEST,
        };
        ApiError::new(status, err.to_string())
    }
}

impl From<GameError> for ApiError {
    fn from(err: GameError) -> ApiError {
        let status = match err {
            GameError::Rejected(host) => return host.into(),
            GameError::Store(store) => return store.into(),
            GameError::NotFound => StatusCode::NOT_FOUND,
            GameError::NotSeated | GameError::OwnGame => StatusCode::FORBIDDEN,
            GameError::ChoiceTooLong => StatusCode::BAD_REQUEST,
            GameError::Unloadable | GameError::Busy => StatusCode::SERVICE_UNAVAILABLE,
        };
        ApiError::new(status, err.to_string())
    }
}

impl From<AccountsError> for ApiError {
    fn from(err: AccountsError) -> ApiError {
        use AccountsError as E;
        let retry_after = err.retry_after();
        let status = match err {
            E::Store(store) => return store.into(),
            E::AddressLimited(_) | E::AccountLimited(_) | E::HashingFull(_) => {
                StatusCode::TOO_MANY_REQUESTS
            }
            E::Rules(_) | E::BadRole | E::Mail(_) => StatusCode::BAD_REQUEST,
            E::WrongPassword | E::UnknownToken | E::SessionEnded => StatusCode::UNAUTHORIZED,
            E::OldPasswordWrong | E::NotAdmin => StatusCode::FORBIDDEN,
            E::NameTaken(_) => StatusCode::CONFLICT,
            E::NoSuchUser => StatusCode::NOT_FOUND,
            E::Busy => StatusCode::SERVICE_UNAVAILABLE,
        };
        ApiError {
            retry_after,
            ..ApiError::new(status, err.to_string())
        }
    }
}

impl From<ChallengeError> for ApiError {
    fn from(err: ChallengeError) -> ApiError {
        use ChallengeError as E;
        let status = match err {
            E::Spec(host) => return host.into(),
            E::Store(store) => return store.into(),
            E::BadColor | E::Yourself => StatusCode::BAD_REQUEST,
            E::NoSuchUser | E::NotFound => StatusCode::NOT_FOUND,
            E::TooMany => StatusCode::TOO_MANY_REQUESTS,
            E::NotTheChallenged | E::NotYours(_) => StatusCode::FORBIDDEN,
            E::Closed(_) | E::NoLongerOpen => StatusCode::CONFLICT,
        };
        ApiError::new(status, err.to_string())
    }
}

impl From<Refusal> for ApiError {
    fn from(refusal: Refusal) -> ApiError {
        let status = match refusal {
            Refusal::Invalid(_) => StatusCode::BAD_REQUEST,
            Refusal::Conflict(_) => StatusCode::CONFLICT,
            Refusal::NotFound(_) => StatusCode::NOT_FOUND,
            Refusal::Forbidden(_) => StatusCode::FORBIDDEN,
        };
        ApiError::new(status, refusal.to_string())
    }
}

impl From<TournamentError> for ApiError {
    fn from(err: TournamentError) -> ApiError {
        use TournamentError as E;
        let status = match err {
            E::Refused(refusal) => return refusal.into(),
            E::Game(game) => return game.into(),
            E::Store(store) => return store.into(),
            E::BadUsername(_) | E::NoSuchUser(_) => StatusCode::BAD_REQUEST,
            E::Busy => StatusCode::SERVICE_UNAVAILABLE,
            E::Failed => StatusCode::INTERNAL_SERVER_ERROR,
        };
        ApiError::new(status, err.to_string())
    }
}

impl From<BadInput> for ApiError {
    fn from(bad: BadInput) -> ApiError {
        let status = match bad {
            BadInput::Malformed(_) => StatusCode::BAD_REQUEST,
            BadInput::NoSuch(_) => StatusCode::NOT_FOUND,
        };
        ApiError::new(status, bad.to_string())
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
                .map_err(|rejection| ApiError::new(rejection.status(), rejection.body_text()))?;
        if super::input::holds_nul(&bytes) {
            return Err(super::input::nul_refused().into());
        }
        let mut again = axum::extract::Request::new(axum::body::Body::from(bytes));
        *again.headers_mut() = headers;
        Json::<T>::from_request(again, state)
            .await
            .map(|Json(value)| ApiJson(value))
            .map_err(|rejection| ApiError::new(rejection.status(), rejection.body_text()))
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
    let mut response = ApiError::new(status, message).into_response();
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
