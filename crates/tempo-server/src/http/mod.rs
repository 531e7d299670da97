//! The HTTP edge (lichess-shaped): one module per resource, thin
//! handlers over the services, typed wire structs for every request and
//! answer, and the one error type ([`error::ApiError`]) that chooses
//! status codes. The endpoint table ([`table`]) makes the router, the
//! access checks and the OpenAPI document.

mod account;
mod arbiter;
mod board;
mod challenges;
pub mod endpoint;
pub mod error;
pub mod extract;
mod games;
mod openapi;
mod ops;
mod session;
mod stream;
mod table;
mod tournaments;
mod users;
pub mod web;

pub use table::{endpoints, openapi, routes};

use axum::Json;
use serde::Serialize;
use utoipa::ToSchema;

use error::ApiError;

type ApiResult<T> = Result<T, ApiError>;

/// The answer of a change that has nothing else to tell.
#[derive(Debug, Clone, Copy, Serialize, ToSchema)]
pub struct Done {
    /// Always `true`.
    pub ok: bool,
}

/// `{"ok": true}`.
fn done() -> Json<Done> {
    Json(Done { ok: true })
}

/// A side of the board, as the wire names it (`tempo_chess::Color`).
#[derive(Debug, Clone, Copy, Serialize, ToSchema)]
#[serde(rename_all = "lowercase")]
#[allow(dead_code)] // Only a schema: the values are `tempo_chess::Color`.
pub enum Side {
    White,
    Black,
}

/// A kind of game, as the wire names it (`tempo_host::Variant`).
#[derive(Debug, Clone, Copy, Serialize, ToSchema)]
#[serde(rename_all = "lowercase")]
#[allow(dead_code)] // Only a schema: the values are `tempo_host::Variant`.
pub enum GameKind {
    Standard,
    Chess960,
    Synchronschach,
    Fairschach,
}

/// Milliseconds since the epoch as the API writes instants (RFC 3339).
fn instant(millis: i64) -> String {
    tempo_host::chain::rfc3339_millis(millis.max(0) as u64)
}
