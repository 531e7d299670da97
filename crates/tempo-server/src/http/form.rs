//! A body as lichess's clients send it: form-encoded
//! (`application/x-www-form-urlencoded`, every value text) or JSON; an
//! empty body is an empty object (lichess's parameters are optional).

use axum::extract::{FromRequest, Request};
use axum::http::{StatusCode, header};
use serde::de::DeserializeOwned;
use serde_json::{Map, Value};

use super::error::ApiError;

/// A body read from a form or from JSON into `T`.
pub(crate) struct FormOrJson<T>(pub T);

/// Whether the request says its body is a form.
fn is_form(req: &Request) -> bool {
    req.headers()
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| {
            v.split(';').next().is_some_and(|m| {
                m.trim()
                    .eq_ignore_ascii_case("application/x-www-form-urlencoded")
            })
        })
}

/// A form's fields as a JSON object of texts; a field given twice, or a
/// NUL in any, is refused.
fn form_object(bytes: &[u8]) -> Result<Map<String, Value>, ApiError> {
    let pairs: Vec<(String, String)> = serde_urlencoded::from_bytes(bytes)
        .map_err(|e| ApiError::of_status(StatusCode::BAD_REQUEST, format!("form body: {e}")))?;
    let mut object = Map::new();
    for (key, value) in pairs {
        if key.contains('\0') || value.contains('\0') {
            return Err(super::input::nul_refused().into());
        }
        if object.contains_key(&key) {
            return Err(ApiError::of_status(
                StatusCode::BAD_REQUEST,
                format!("form body: {key} given twice"),
            ));
        }
        object.insert(key, Value::String(value));
    }
    Ok(object)
}

impl<S, T> FromRequest<S> for FormOrJson<T>
where
    S: Send + Sync,
    T: DeserializeOwned,
{
    type Rejection = ApiError;

    async fn from_request(req: Request, state: &S) -> Result<Self, ApiError> {
        let form = is_form(&req);
        let bytes = axum::body::Bytes::from_request(req, state)
            .await
            .map_err(|rejection| ApiError::of_status(rejection.status(), rejection.body_text()))?;
        let value = if bytes.iter().all(u8::is_ascii_whitespace) {
            Value::Object(Map::new())
        } else if form {
            Value::Object(form_object(&bytes)?)
        } else {
            if super::input::holds_nul(&bytes) {
                return Err(super::input::nul_refused().into());
            }
            serde_json::from_slice(&bytes).map_err(|e| {
                ApiError::of_status(StatusCode::BAD_REQUEST, format!("JSON body: {e}"))
            })?
        };
        serde_json::from_value(value).map(FormOrJson).map_err(|e| {
            ApiError::of_status(
                StatusCode::UNPROCESSABLE_ENTITY,
                format!("Failed to deserialize the body: {e}"),
            )
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_form_reads_as_an_object_of_texts() {
        let object =
            form_object(b"rated=true&clock.limit=300&clock.increment=3&variant=standard").unwrap();
        assert_eq!(object["rated"], "true");
        assert_eq!(object["clock.limit"], "300");
        assert_eq!(object.len(), 4);
        assert_eq!(form_object(b"a=%20b+c").unwrap()["a"], " b c");
        assert!(form_object(b"a=1&a=2").is_err());
        assert!(form_object(b"a=%00").is_err());
    }
}
