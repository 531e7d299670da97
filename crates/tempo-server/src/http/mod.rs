//! The HTTP edge (lichess-shaped): one module per resource, thin
//! handlers over the services, typed wire structs for every request and
//! answer, and the one error type ([`error::ApiError`]) that chooses
//! status codes. The endpoint table ([`table`]) makes the router, the
//! access checks and the OpenAPI document.

mod account;
mod arbiter;
mod board;
mod bot;
mod challenges;
pub(crate) mod codes;
pub(crate) mod endpoint;
pub(crate) mod error;
pub(crate) mod extract;
mod form;
mod games;
mod input;
mod lobby;
pub(crate) mod net;
mod openapi;
mod ops;
mod origin;
mod paging;
mod path;
pub(crate) mod peer;
mod printouts;
mod ratings;
mod session;
mod stream;
mod table;
mod tables;
mod tournament_reports;
mod tournaments;
mod users;
pub(crate) mod web;

pub(crate) use table::routes;
pub use table::{endpoints, openapi};

use axum::Json;
use serde::Serialize;
use utoipa::openapi::{ObjectBuilder, RefOr, Schema, Type};
use utoipa::{PartialSchema, ToSchema};

use error::ApiError;

type ApiResult<T> = Result<T, ApiError>;

/// The answer of a change that has nothing else to tell.
#[derive(Debug, Clone, Copy, Serialize, ToSchema)]
pub(crate) struct Done {
    /// Always `true`.
    pub ok: bool,
}

/// `{"ok": true}`.
fn done() -> Json<Done> {
    Json(Done { ok: true })
}

/// The schema of a side of the board: the names `tempo_chess::Color`
/// serialises as, read from the type itself (no second list to keep).
pub(crate) struct Side;

impl PartialSchema for Side {
    fn schema() -> RefOr<Schema> {
        names_schema(&tempo_chess::Color::ALL)
    }
}

impl ToSchema for Side {}

/// The schema of a kind of game: the names `tempo_host::Variant` (the one
/// game-kind type, `tempo_sync::GameKind`) serialises as.
pub(crate) struct GameKind;

impl PartialSchema for GameKind {
    fn schema() -> RefOr<Schema> {
        names_schema(&tempo_host::Variant::ALL)
    }
}

impl ToSchema for GameKind {}

/// A string schema whose values are the serialised names of `values`.
fn names_schema<T: Serialize>(values: &[T]) -> RefOr<Schema> {
    string_enum(values.iter().map(|value| {
        serde_json::to_value(value)
            .ok()
            .and_then(|name| name.as_str().map(str::to_string))
            .expect("a name serialises as a string")
    }))
}

/// A string schema whose values are `names`.
fn string_enum(names: impl IntoIterator<Item = String>) -> RefOr<Schema> {
    ObjectBuilder::new()
        .schema_type(Type::String)
        .enum_values(Some(names))
        .into()
}

/// Milliseconds since the epoch as the API writes instants (RFC 3339).
fn instant(millis: i64) -> String {
    tempo_host::chain::rfc3339_millis(millis.max(0) as u64)
}

#[cfg(test)]
mod tests {
    use utoipa::PartialSchema;
    use utoipa::openapi::{RefOr, Schema};

    use crate::http::tournaments::AttendanceStatus;
    use crate::http::{GameKind, Side};

    fn names(schema: RefOr<Schema>) -> Vec<String> {
        let value = serde_json::to_value(schema).expect("a schema serialises");
        serde_json::from_value(value["enum"].clone()).expect("an enum of names")
    }

    #[test]
    fn wire_names_come_from_the_types_themselves() {
        assert_eq!(names(Side::schema()), ["white", "black"]);
        assert_eq!(
            names(GameKind::schema()),
            ["standard", "chess960", "synchronschach", "fairschach"]
        );
        assert_eq!(
            names(AttendanceStatus::schema()),
            [
                "present",
                "excused",
                "unexcused",
                "club-duty",
                "half-point-bye",
                "full-point-bye"
            ]
        );
    }
}
