//! Arbiters: an action on a game (logged with name and reason), and
//! `POST /api/arbiter/clock-reset`, `tempo arbiter clock-reset` for the
//! web app's calculator — the same function as the command
//! ([`tempo_clock::arbiter::correct_control`]) with every step's value, so
//! the page shows the steps (2)-(4) and formula (5) with numbers.

use axum::Json;
use axum::extract::{Path, State};
use axum::routing::post;
use serde::{Deserialize, Serialize};
use tempo_chess::Color;
use tempo_clock::arbiter::{self, Correction, Warning};
use tempo_clock::{Millis, TimeControl};
use tempo_host::{ArbiterAction, ClockRestore, Command};
use utoipa::ToSchema;

use super::endpoint::{Access, Endpoint};
use super::error::{ApiError, ApiJson};
use super::extract::Caller;
use super::{ApiResult, Done, Side, done};
use crate::service::AppState;
use crate::service::games;

/// An arbiter's action with its reason.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub(super) struct ArbiterRequest {
    pub action: ArbiterActionWire,
    #[schema(max_length = 500)]
    pub reason: String,
}

/// What an arbiter may do (`tempo_host::ArbiterAction` on the wire).
#[derive(Debug, Deserialize, ToSchema)]
#[serde(tag = "kind", rename_all = "camelCase")]
pub enum ArbiterActionWire {
    Pause,
    Resume,
    /// Sets `color`'s clock to `millis`.
    SetClock {
        #[schema(value_type = Side)]
        color: Color,
        millis: i64,
    },
    /// Gives `color` `millis` more (or less, if negative).
    AddTime {
        #[schema(value_type = Side)]
        color: Color,
        millis: i64,
    },
    /// FIDE 7.5.5: the offender's opponent gets time.
    Penalty {
        #[schema(value_type = Side)]
        offender: Color,
    },
    /// FIDE 7.5.1: back to the position before step `step` (0 = the start).
    Restore {
        step: u32,
        #[schema(value_type = RestoreClock)]
        clock: ClockRestore,
    },
    /// Declares the result.
    SetResult {
        #[schema(value_type = DeclaredResult)]
        result: String,
    },
}

/// The clocks after a restore (`tempo_host::ClockRestore`).
#[derive(Debug, ToSchema)]
#[schema(rename_all = "lowercase")]
#[allow(dead_code)] // Only a schema: the values are `tempo_host::ClockRestore`.
pub(super) enum RestoreClock {
    Exact,
    Proportional,
    Keep,
}

/// A result an arbiter declares.
#[derive(Debug, ToSchema)]
#[allow(dead_code)] // Only a schema: the values are strings.
pub(super) enum DeclaredResult {
    #[schema(rename = "1-0")]
    WhiteWins,
    #[schema(rename = "0-1")]
    BlackWins,
    #[schema(rename = "1/2-1/2")]
    Draw,
    #[schema(rename = "*")]
    Unfinished,
}

impl From<ArbiterActionWire> for ArbiterAction {
    fn from(wire: ArbiterActionWire) -> ArbiterAction {
        use ArbiterActionWire as W;
        match wire {
            W::Pause => ArbiterAction::Pause,
            W::Resume => ArbiterAction::Resume,
            W::SetClock { color, millis } => ArbiterAction::SetClock { color, millis },
            W::AddTime { color, millis } => ArbiterAction::AddTime { color, millis },
            W::Penalty { offender } => ArbiterAction::Penalty { offender },
            W::Restore { step, clock } => ArbiterAction::Restore { step, clock },
            W::SetResult { result } => ArbiterAction::SetResult { result },
        }
    }
}

/// `POST /api/game/{id}/arbiter` (arbiters and admins who do not play
/// in the game).
async fn act(
    State(state): State<AppState>,
    Caller(user): Caller,
    Path(id): Path<String>,
    ApiJson(req): ApiJson<ArbiterRequest>,
) -> ApiResult<Json<Done>> {
    games::arbitrate(&state, &user, &id, |arbiter| Command::Arbiter {
        arbiter,
        reason: req.reason,
        action: req.action.into(),
    })
    .await?;
    Ok(done())
}

/// One player's counts and clock display.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub(super) struct PlayerInput {
    /// The player's own completed moves at the discovery.
    pub played: u32,
    /// The player's own legal moves (before the restored position).
    pub legal: u32,
    /// The clock's display (time left): `H:MM:SS`, `M:SS` or with units (`20m`).
    pub displayed: String,
}

/// The calculator's input: a time control and one or both players.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub(super) struct ClockResetRequest {
    /// PGN `TimeControl` or the human form, as `tempo arbiter clock-reset --control` takes it.
    pub control: String,
    pub white: Option<PlayerInput>,
    pub black: Option<PlayerInput>,
}

/// The corrections of the players given, with the control as read.
#[derive(Debug, Serialize, ToSchema)]
pub(super) struct ClockResetAnswer {
    pub control: ControlView,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub white: Option<PlayerCorrection>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub black: Option<PlayerCorrection>,
}

/// The time control as read.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub(super) struct ControlView {
    pub pgn: String,
    pub human: String,
    pub initial: String,
    pub increment: String,
    pub several_periods: bool,
}

/// The time allotted for a number of moves, and its parts.
#[derive(Debug, Serialize, ToSchema)]
pub(super) struct Allotment {
    pub moves: u32,
    pub total: String,
    pub base: String,
    pub bonuses: String,
    pub increments: String,
}

/// A warning about the inputs.
#[derive(Debug, Serialize, ToSchema)]
#[serde(tag = "kind", rename_all = "camelCase")]
pub(super) enum WarningView {
    DisplayAboveAllotted {
        displayed: String,
        allotted: String,
        text: String,
    },
    NoTimeLeft {
        estimate: String,
        text: String,
    },
}

/// One player's correction with each step's value (times as `H:MM:SS`
/// with exact milliseconds, as `--explain` prints them).
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub(super) struct PlayerCorrection {
    pub played: u32,
    pub legal: u32,
    pub displayed: String,
    pub unchanged: bool,
    pub alloc_played: Allotment,
    pub alloc_legal: Allotment,
    pub step2_used: String,
    pub step3_legal_used: String,
    pub step4_set: String,
    pub formula5: String,
    pub formula5_agrees: bool,
    pub set: String,
    pub set_millis: i64,
    pub warnings: Vec<WarningView>,
    pub several_periods: bool,
}

fn warning(w: &Warning) -> WarningView {
    match w {
        Warning::DisplayAboveAllotted {
            displayed,
            allotted,
        } => WarningView::DisplayAboveAllotted {
            displayed: displayed.hms_exact(),
            allotted: allotted.hms_exact(),
            text: w.to_string(),
        },
        Warning::NoTimeLeft { estimate } => WarningView::NoTimeLeft {
            estimate: estimate.hms_exact(),
            text: w.to_string(),
        },
    }
}

fn explained(control: &TimeControl, c: &Correction) -> PlayerCorrection {
    let periods = control.periods().expect("correct_control accepted it");
    let alloc = |n: u32| {
        let increments: Millis = (1..=n).map(|m| periods.period_for_move(m).increment).sum();
        let bonuses = periods.alloc(n) - periods.initial() - increments;
        Allotment {
            moves: n,
            total: periods.alloc(n).hms_exact(),
            base: periods.initial().hms_exact(),
            bonuses: bonuses.hms_exact(),
            increments: increments.hms_exact(),
        }
    };
    PlayerCorrection {
        played: c.played,
        legal: c.legal,
        displayed: c.displayed.hms_exact(),
        unchanged: c.played == 0,
        alloc_played: alloc(c.played),
        alloc_legal: alloc(c.legal),
        step2_used: c.used.hms_exact(),
        step3_legal_used: c.legal_used.millis().hms_exact(),
        step4_set: c.set.millis().hms_exact(),
        formula5: c.formula_5.millis().hms_exact(),
        formula5_agrees: c.formula_5 == c.set,
        set: c.set_display().hms(),
        set_millis: c.set_millis().0,
        warnings: c.warnings.iter().map(warning).collect(),
        several_periods: periods.periods().len() > 1,
    }
}

/// The corrections of the players given, with the control as read.
fn compute(req: &ClockResetRequest) -> Result<ClockResetAnswer, ApiError> {
    let refuse = |message: String| ApiError::bad_request(message);
    let control: TimeControl = req
        .control
        .trim()
        .parse()
        .map_err(|e| refuse(format!("control: {e}")))?;
    let periods = control.periods().ok_or_else(|| {
        refuse(format!(
            "control {}: an hourglass or per-move control has no allotment to reason from",
            control.human()
        ))
    })?;
    if req.white.is_none() && req.black.is_none() {
        return Err(ApiError::bad_request(
            "give white's or black's counts and display (or both)",
        ));
    }
    let first = periods.periods()[0];
    let correction = |name: &str, input: &Option<PlayerInput>| {
        let Some(p) = input else { return Ok(None) };
        let displayed: Millis = p
            .displayed
            .trim()
            .parse()
            .map_err(|e| refuse(format!("{name}: displayed: {e}")))?;
        let c = arbiter::correct_control(&control, p.played, p.legal, displayed)
            .map_err(|e| refuse(format!("{name}: {e}")))?;
        Ok::<_, ApiError>(Some(explained(&control, &c)))
    };
    Ok(ClockResetAnswer {
        control: ControlView {
            pgn: control.to_string(),
            human: control.human(),
            initial: periods.initial().hms_exact(),
            increment: first.increment.hms_exact(),
            several_periods: periods.periods().len() > 1,
        },
        white: correction("white", &req.white)?,
        black: correction("black", &req.black)?,
    })
}

/// `POST /api/arbiter/clock-reset`.
async fn clock_reset(
    ApiJson(req): ApiJson<ClockResetRequest>,
) -> ApiResult<Json<ClockResetAnswer>> {
    compute(&req).map(Json)
}

/// The rows of the endpoint table.
pub(super) fn endpoints() -> Vec<Endpoint> {
    use Access::*;
    let e = Endpoint::new;
    vec![
        e(
            "post",
            "/api/game/{id}/arbiter",
            "An arbiter's action, logged with name and reason",
            Arbiter,
            || post(act),
        )
        .body::<ArbiterRequest>()
        .json::<Done>(),
        e(
            "post",
            "/api/arbiter/clock-reset",
            "The clock correction after a late-discovered illegal move (tempo arbiter clock-reset), with the steps (2)-(4) and formula (5)",
            Public,
            || post(clock_reset),
        )
        .body::<ClockResetRequest>()
        .json::<ClockResetAnswer>(),
    ]
}
