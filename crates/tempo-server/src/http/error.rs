//! API errors: an HTTP status and one line of JSON, `{"error":"…"}`.

use axum::Json;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use serde_json::json;

use crate::store::StoreError;

/// An error answer.
#[derive(Debug)]
pub struct ApiError {
    pub status: StatusCode,
    pub message: String,
}

impl ApiError {
    pub fn new(status: StatusCode, message: impl Into<String>) -> ApiError {
        ApiError {
            status,
            message: message.into(),
        }
    }

    pub fn bad_request(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::BAD_REQUEST, message)
    }

    pub fn unauthorized(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::UNAUTHORIZED, message)
    }

    pub fn forbidden(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::FORBIDDEN, message)
    }

    pub fn not_found(what: &str) -> ApiError {
        ApiError::new(StatusCode::NOT_FOUND, format!("{what} not found"))
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        (self.status, Json(json!({ "error": self.message }))).into_response()
    }
}

impl From<StoreError> for ApiError {
    fn from(err: StoreError) -> ApiError {
        // The detail goes to the log, not to the client.
        tracing::error!(error = %err, "storage");
        ApiError::new(
            StatusCode::SERVICE_UNAVAILABLE,
            "storage unavailable, try again",
        )
    }
}

impl From<tempo_host::HostError> for ApiError {
    fn from(err: tempo_host::HostError) -> ApiError {
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

/// A JSON body whose rejection is an [`ApiError`] (one line of JSON, the
/// problem named), not axum's plain text.
#[derive(Debug, Clone, Copy, Default)]
pub struct ApiJson<T>(pub T);

impl<S, T> axum::extract::FromRequest<S> for ApiJson<T>
where
    Json<T>: axum::extract::FromRequest<S, Rejection = axum::extract::rejection::JsonRejection>,
    S: Send + Sync,
{
    type Rejection = ApiError;

    async fn from_request(req: axum::extract::Request, state: &S) -> Result<Self, ApiError> {
        Json::<T>::from_request(req, state)
            .await
            .map(|Json(value)| ApiJson(value))
            .map_err(|rejection| ApiError::new(rejection.status(), rejection.body_text()))
    }
}

/// Makes every error answer one line of JSON, also those axum writes
/// itself as plain text (a path that does not decode, a method the route
/// lacks, a body over the limit, a timeout).
pub async fn json_errors(mut response: axum::response::Response) -> axum::response::Response {
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
