//! `POST /api/arbiter/clock-reset`: `tempo arbiter clock-reset` for the
//! web app's calculator. The same function as the command
//! ([`tempo_clock::arbiter::correct_control`]) with every step's value, so
//! the page shows the steps (2)-(4) and formula (5) with numbers.

use axum::Json;
use serde::Deserialize;
use serde_json::{Value, json};
use tempo_clock::arbiter::{self, Correction, Warning};
use tempo_clock::{Millis, TimeControl};

use crate::error::{ApiError, ApiJson};

/// One player's counts and clock display.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PlayerInput {
    /// The player's own completed moves at the discovery.
    pub played: u32,
    /// The player's own legal moves (before the restored position).
    pub legal: u32,
    /// The clock's display (time left): `H:MM:SS`, `M:SS` or with units.
    pub displayed: String,
}

/// The calculator's input: a time control and one or both players.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ClockResetRequest {
    /// PGN `TimeControl` or the human form, as `--control` takes it.
    pub control: String,
    pub white: Option<PlayerInput>,
    pub black: Option<PlayerInput>,
}

/// The JSON schema of [`ClockResetRequest`] (for the API's document).
pub fn body_schema() -> Value {
    let player = json!({"type": "object", "additionalProperties": false,
        "required": ["played", "legal", "displayed"], "properties": {
        "played": {"type": "integer", "minimum": 0},
        "legal": {"type": "integer", "minimum": 0},
        "displayed": {"type": "string", "description": "time left: H:MM:SS, M:SS or units (20m)"}}});
    json!({"type": "object", "additionalProperties": false, "required": ["control"], "properties": {
        "control": {"type": "string", "description": "PGN TimeControl or human form, as tempo arbiter clock-reset --control"},
        "white": player.clone(),
        "black": player,
    }})
}

fn warning(w: &Warning) -> Value {
    match w {
        Warning::DisplayAboveAllotted {
            displayed,
            allotted,
        } => json!({
            "kind": "displayAboveAllotted",
            "displayed": displayed.hms_exact(),
            "allotted": allotted.hms_exact(),
            "text": w.to_string(),
        }),
        Warning::NoTimeLeft { estimate } => json!({
            "kind": "noTimeLeft",
            "estimate": estimate.hms_exact(),
            "text": w.to_string(),
        }),
    }
}

/// One player's correction with each step's value (times as `H:MM:SS`
/// with exact milliseconds, as `--explain` prints them).
fn explained(control: &TimeControl, c: &Correction) -> Value {
    let periods = control.periods().expect("correct_control accepted it");
    let several = periods.periods().len() > 1;
    let alloc = |n: u32| {
        let increments: Millis = (1..=n).map(|m| periods.period_for_move(m).increment).sum();
        let bonuses = periods.alloc(n) - periods.initial() - increments;
        json!({
            "moves": n,
            "total": periods.alloc(n).hms_exact(),
            "base": periods.initial().hms_exact(),
            "bonuses": bonuses.hms_exact(),
            "increments": increments.hms_exact(),
        })
    };
    json!({
        "played": c.played,
        "legal": c.legal,
        "displayed": c.displayed.hms_exact(),
        "unchanged": c.played == 0,
        "allocPlayed": alloc(c.played),
        "allocLegal": alloc(c.legal),
        "step2Used": c.used.hms_exact(),
        "step3LegalUsed": c.legal_used.millis().hms_exact(),
        "step4Set": c.set.millis().hms_exact(),
        "formula5": c.formula_5.millis().hms_exact(),
        "formula5Agrees": c.formula_5 == c.set,
        "set": c.set_display().hms(),
        "setMillis": c.set_millis().0,
        "warnings": c.warnings.iter().map(warning).collect::<Vec<_>>(),
        "severalPeriods": several,
    })
}

/// The corrections of the players given, with the control as read.
pub fn compute(req: &ClockResetRequest) -> Result<Value, String> {
    let control: TimeControl = req
        .control
        .trim()
        .parse()
        .map_err(|e| format!("control: {e}"))?;
    let periods = control.periods().ok_or_else(|| {
        format!(
            "control {}: an hourglass or per-move control has no allotment to reason from",
            control.human()
        )
    })?;
    if req.white.is_none() && req.black.is_none() {
        return Err("give white's or black's counts and display (or both)".into());
    }
    let first = periods.periods()[0];
    let mut answer = json!({
        "control": {
            "pgn": control.to_string(),
            "human": control.human(),
            "initial": periods.initial().hms_exact(),
            "increment": first.increment.hms_exact(),
            "severalPeriods": periods.periods().len() > 1,
        },
    });
    for (name, input) in [("white", &req.white), ("black", &req.black)] {
        let Some(p) = input else { continue };
        let displayed: Millis = p
            .displayed
            .trim()
            .parse()
            .map_err(|e| format!("{name}: displayed: {e}"))?;
        let c = arbiter::correct_control(&control, p.played, p.legal, displayed)
            .map_err(|e| format!("{name}: {e}"))?;
        answer[name] = explained(&control, &c);
    }
    Ok(answer)
}

/// `POST /api/arbiter/clock-reset`.
pub async fn clock_reset(
    ApiJson(req): ApiJson<ClockResetRequest>,
) -> Result<Json<Value>, ApiError> {
    compute(&req).map(Json).map_err(ApiError::bad_request)
}
