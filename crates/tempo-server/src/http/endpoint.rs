//! One row of the API's table: an endpoint's method, path, handler, who
//! may call it, its wire types and what its documentation says.

use axum::routing::MethodRouter;
use utoipa::openapi::path::{Parameter, ParameterIn};
use utoipa::openapi::{RefOr, Schema};
use utoipa::{IntoParams, ToSchema};

use crate::service::AppState;

/// Who may call an endpoint.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Access {
    /// Anyone.
    Public,
    /// Anyone; a token shows the caller's own view.
    Optional,
    /// A token (or a browser session) is needed.
    Token,
    /// A token of an arbiter or admin.
    Arbiter,
    /// A browser's session cookie is needed.
    Session,
}

/// The schema of a wire type, its components collected on the way.
pub(crate) type SchemaFn = fn(&mut Vec<(String, RefOr<Schema>)>) -> RefOr<Schema>;

/// The schema of `T` as a reference, `T` and what it names collected.
fn schema_of<T: ToSchema>(components: &mut Vec<(String, RefOr<Schema>)>) -> RefOr<Schema> {
    T::schemas(components);
    components.push((T::name().into_owned(), T::schema()));
    RefOr::Ref(utoipa::openapi::Ref::from_schema_name(T::name()))
}

/// The content type of JSON answers and bodies.
pub(crate) const JSON: &str = "application/json";
/// The content type of streams and logs.
pub(crate) const NDJSON: &str = "application/x-ndjson";

/// The message of a refusal to a player on an arbiter's endpoint.
const ARBITERS_ONLY: &str = "arbiter actions need the arbiter role";

/// One endpoint.
pub struct Endpoint {
    pub method: &'static str,
    pub path: &'static str,
    pub summary: &'static str,
    pub access: Access,
    /// The schema of the request body, if it takes one.
    pub body: Option<SchemaFn>,
    /// The content type of a successful answer.
    pub answer: &'static str,
    /// The schema of a successful answer, if it has one.
    pub answer_schema: Option<SchemaFn>,
    /// What a caller without the role is told ([`Access::Arbiter`]).
    pub forbidden: &'static str,
    /// The query parameters it reads, if any.
    pub query: Option<fn() -> Vec<Parameter>>,
    /// Whether a table game's seat token may call it (for its own game's
    /// `{id}`); every other route refuses one.
    pub seat: bool,
    /// The status of a successful answer.
    pub success: u16,
    pub(crate) handler: fn() -> MethodRouter<AppState>,
}

impl Endpoint {
    /// An endpoint answering JSON, without a body or a schema yet.
    pub(crate) fn new(
        method: &'static str,
        path: &'static str,
        summary: &'static str,
        access: Access,
        handler: fn() -> MethodRouter<AppState>,
    ) -> Endpoint {
        Endpoint {
            method,
            path,
            summary,
            access,
            body: None,
            answer: JSON,
            answer_schema: None,
            forbidden: ARBITERS_ONLY,
            query: None,
            seat: false,
            success: 200,
            handler,
        }
    }

    /// The endpoint takes a JSON body of type `T`.
    pub(crate) fn body<T: ToSchema>(mut self) -> Endpoint {
        self.body = Some(schema_of::<T>);
        self
    }

    /// The endpoint reads the query parameters of `T`.
    pub(crate) fn query<T: IntoParams>(mut self) -> Endpoint {
        self.query = Some(|| T::into_params(|| Some(ParameterIn::Query)));
        self
    }

    /// The endpoint answers JSON of type `T`.
    pub(crate) fn json<T: ToSchema>(mut self) -> Endpoint {
        self.answer = JSON;
        self.answer_schema = Some(schema_of::<T>);
        self
    }

    /// The endpoint answers NDJSON, each line of type `T`.
    pub(crate) fn ndjson<T: ToSchema>(mut self) -> Endpoint {
        self.answer = NDJSON;
        self.answer_schema = Some(schema_of::<T>);
        self
    }

    /// The endpoint answers another content type.
    pub(crate) fn content(mut self, content_type: &'static str) -> Endpoint {
        self.answer = content_type;
        self.answer_schema = None;
        self
    }

    /// A table game's seat token may call it, for its own game.
    pub(crate) fn seat(mut self) -> Endpoint {
        self.seat = true;
        self
    }

    /// A successful answer is `201 Created`.
    pub(crate) fn created(mut self) -> Endpoint {
        self.success = 201;
        self
    }

    /// What a caller without the arbiter role is told.
    pub(crate) fn forbidden(mut self, message: &'static str) -> Endpoint {
        self.forbidden = message;
        self
    }
}
