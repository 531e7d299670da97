//! What the edge lets in: path parameters, query strings and JSON bodies
//! are checked here, once for every endpoint, before a handler or the
//! store sees them. A NUL byte, for one, is text SQLite stores and
//! PostgreSQL refuses; it is refused here alike on both (400), and an id
//! or a name that cannot exist is not looked up (404).

use axum::extract::FromRequestParts;
use axum::extract::RawPathParams;
use axum::extract::rejection::RawPathParamsRejection;
use axum::http::request::Parts;

use crate::domain::accounts::check_name;
use crate::domain::is_id;

/// Why the edge refuses a request's input (`super::error` makes it an
/// answer: 400, or 404 for what names nothing).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub(crate) enum BadInput {
    #[error("{0}")]
    Malformed(String),
    /// An id or a name that cannot exist: `what` is not found.
    #[error("{0} not found")]
    NoSuch(&'static str),
}

/// Checks the request's path parameters and query string. `resource` is
/// what an `{id}` of this path names (`game`, `challenge`, `tournament`).
pub(crate) async fn check_request(
    parts: &mut Parts,
    resource: &'static str,
) -> Result<(), BadInput> {
    if let Some(query) = parts.uri.query()
        && let Some(byte) = encoded_control(query)
    {
        return Err(BadInput::Malformed(format!(
            "query: a control character (%{byte:02X}) is not allowed"
        )));
    }
    let params = match RawPathParams::from_request_parts(parts, &()).await {
        Ok(params) => params,
        Err(RawPathParamsRejection::InvalidUtf8InPathParam(rejection)) => {
            return Err(BadInput::Malformed(rejection.body_text()));
        }
        // A path without parameters.
        Err(_) => return Ok(()),
    };
    for (key, value) in &params {
        if value.chars().any(char::is_control) {
            return Err(BadInput::Malformed(format!(
                "{key}: control characters are not allowed"
            )));
        }
        match key {
            "id" if !is_id(value) => return Err(BadInput::NoSuch(resource)),
            "username" if check_name(value).is_err() => return Err(BadInput::NoSuch("user")),
            _ => {}
        }
    }
    Ok(())
}

/// The first percent-encoded control character of a query string (the
/// raw bytes of a URI cannot be control characters).
fn encoded_control(query: &str) -> Option<u8> {
    let digit = |b: u8| char::from(b).to_digit(16);
    query.as_bytes().windows(3).find_map(|w| {
        let byte = (w[0] == b'%')
            .then_some(())
            .and_then(|()| Some(digit(w[1])? * 16 + digit(w[2])?))?;
        (byte < 0x20 || byte == 0x7f).then_some(byte as u8)
    })
}

/// Whether a JSON text holds a string with a NUL character (`\u0000`:
/// JSON cannot hold it raw). Every backslash in JSON begins an escape, so
/// walking escape by escape finds exactly the NULs (`\\u0000` is a
/// backslash and the text `u0000`).
pub(crate) fn holds_nul(json: &[u8]) -> bool {
    let mut i = 0;
    while i < json.len() {
        if json[i] == b'\\' {
            if json[i + 1..].starts_with(b"u0000") {
                return true;
            }
            i += 2;
        } else {
            i += 1;
        }
    }
    false
}

/// The refusal of a JSON body with a NUL.
pub(crate) fn nul_refused() -> BadInput {
    BadInput::Malformed(
        "body: a string holds a NUL character (\\u0000), which is not allowed".into(),
    )
}

#[cfg(test)]
mod tests {
    use axum::Router;
    use axum::body::Body;
    use axum::extract::Request;
    use axum::http::StatusCode;
    use axum::middleware::{Next, from_fn};
    use axum::response::{IntoResponse, Response};
    use axum::routing::get;
    use tower::ServiceExt;

    use super::{BadInput, check_request, encoded_control, holds_nul};

    /// A route behind the check: whether a request reaches its handler.
    async fn answer(uri: &str) -> (StatusCode, String) {
        async fn checked(request: Request, next: Next) -> Response {
            let (mut parts, body) = request.into_parts();
            match check_request(&mut parts, "game").await {
                Ok(()) => next.run(Request::from_parts(parts, body)).await,
                Err(refusal @ BadInput::Malformed(_)) => {
                    (StatusCode::BAD_REQUEST, refusal.to_string()).into_response()
                }
                Err(refusal @ BadInput::NoSuch(_)) => {
                    (StatusCode::NOT_FOUND, refusal.to_string()).into_response()
                }
            }
        }
        let router = Router::new()
            .route("/g/{id}", get(|| async { "reached" }))
            .route("/u/{username}/{choice}", get(|| async { "reached" }))
            .route("/plain", get(|| async { "reached" }))
            .route_layer(from_fn(checked));
        let response = router
            .oneshot(Request::get(uri).body(Body::empty()).unwrap())
            .await
            .unwrap();
        let status = response.status();
        let bytes = axum::body::to_bytes(response.into_body(), 1024)
            .await
            .unwrap();
        (status, String::from_utf8_lossy(&bytes).into_owned())
    }

    #[tokio::test]
    async fn what_cannot_be_an_id_or_a_name_never_reaches_a_handler() {
        for uri in [
            "/g/Ab3_-x",
            "/u/anna/e2e4",
            "/u/anna/%C3%A4",
            "/plain",
            "/plain?page=2",
        ] {
            assert_eq!(
                answer(uri).await,
                (StatusCode::OK, "reached".into()),
                "{uri}"
            );
        }
        let refused = [
            ("/g/a.b", StatusCode::NOT_FOUND, "game not found"),
            ("/g/%E2%98%83", StatusCode::NOT_FOUND, "game not found"),
            ("/u/a%20b/x", StatusCode::NOT_FOUND, "user not found"),
            (
                "/g/a%00b",
                StatusCode::BAD_REQUEST,
                "id: control characters",
            ),
            (
                "/u/anna/e2%0Ae4",
                StatusCode::BAD_REQUEST,
                "choice: control characters",
            ),
            ("/g/%FF", StatusCode::BAD_REQUEST, "Invalid UTF-8"),
            (
                "/plain?user=a%00",
                StatusCode::BAD_REQUEST,
                "query: a control character (%00)",
            ),
        ];
        for (uri, status, error) in refused {
            let (got, body) = answer(uri).await;
            assert_eq!(got, status, "{uri}: {body}");
            assert!(body.contains(error), "{uri}: {body}");
        }
        let long = format!("/g/{}", "a".repeat(65));
        assert_eq!(answer(&long).await.0, StatusCode::NOT_FOUND);
    }

    #[test]
    fn a_nul_is_found_in_any_string_and_only_a_nul() {
        assert!(holds_nul(br#"{"username":"a\u0000b"}"#));
        assert!(holds_nul(br#"{"a\u0000":1}"#));
        assert!(holds_nul(br#"["x\\\u0000"]"#));
        assert!(!holds_nul(br#"{"reason":"\\u0000 is how JSON writes it"}"#));
        assert!(!holds_nul(br#"{"reason":"\u0001 \n \" ok"}"#));
        assert!(!holds_nul(br#"{"text":"u0000"}"#));
        assert!(!holds_nul(b"\\"));
    }

    #[test]
    fn an_encoded_control_character_in_a_query_is_found() {
        assert_eq!(encoded_control("user=a%00b"), Some(0));
        assert_eq!(encoded_control("user=a%1fb&page=1"), Some(0x1f));
        assert_eq!(encoded_control("user=%7F"), Some(0x7f));
        assert_eq!(encoded_control("user=%20anna%C3%A4&page=2"), None);
        assert_eq!(encoded_control("user=%0"), None);
        assert_eq!(encoded_control("user=%+1"), None);
    }
}
