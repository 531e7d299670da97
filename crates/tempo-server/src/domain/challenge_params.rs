//! A challenge's parameters as lichess's clients send them (form-encoded or
//! JSON, every parameter not given as `null`) and as tempo's own body has
//! them, read into one request: the game, whether it is rated, the
//! challenger's colour. Each lichess parameter is applied, accepted and
//! ignored for a reason given below, or refused by name: a challenge never
//! silently asks for another game than its sender meant.

use std::collections::BTreeMap;

use serde::Deserialize;
use tempo_host::{GameSpec, Variant};
use utoipa::ToSchema;

use super::challenges::ColorChoice;

/// Lichess's days per move of a correspondence challenge.
pub const LICHESS_DAYS: [u64; 7] = [1, 2, 3, 5, 7, 10, 14];

/// Longest clock lichess offers (`clock.limit`, seconds): three hours.
pub const MAX_CLOCK_LIMIT: u64 = 10_800;

/// Largest increment lichess offers (`clock.increment`, seconds).
pub const MAX_CLOCK_INCREMENT: u64 = 180;

/// Lichess's variants that tempo does not play.
const LICHESS_ONLY_VARIANTS: [&str; 7] = [
    "crazyhouse",
    "antichess",
    "atomic",
    "horde",
    "kingOfTheHill",
    "racingKings",
    "threeCheck",
];

/// A value as JSON or a form gives it: `true`, `300`, or `"true"`, `"300"`.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(untagged)]
pub enum Loose {
    Flag(bool),
    Number(serde_json::Number),
    Text(String),
}

/// `rules`: tempo's variant options (an object, as `tempo sync` takes
/// them) or lichess's extra rules (a comma-separated string).
#[derive(Debug, Clone, PartialEq, Deserialize, ToSchema)]
#[serde(untagged)]
pub enum RulesParam {
    Options(BTreeMap<String, String>),
    Lichess(String),
}

/// A challenge's parameters: lichess's (`rated`, `clock.limit`,
/// `clock.increment`, `days`, `color`, `variant`, `fen`, `keepAliveStream`,
/// `message`, `acceptByToken`, `rules`, and `name` for an open challenge)
/// and tempo's own (`clock`, `chess960`, `rules` as an object). Any may be
/// `null`.
#[derive(Debug, Clone, Default, PartialEq, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ChallengeParams {
    /// `standard` (the default), `chess960`, `fromPosition` (orthodox
    /// chess from `fen`), `synchronschach`, `fairschach`.
    pub variant: Option<String>,
    /// tempo's clock: a PGN TimeControl (`300+3`, `1/259200`); not with
    /// `clock.limit` or `days`. None of the three: untimed.
    pub clock: Option<String>,
    /// Lichess's clock: initial time in seconds (with `clock.increment`).
    #[serde(rename = "clock.limit")]
    #[schema(value_type = Option<u64>)]
    pub clock_limit: Option<Loose>,
    /// Lichess's clock: increment in seconds (with `clock.limit`).
    #[serde(rename = "clock.increment")]
    #[schema(value_type = Option<u64>)]
    pub clock_increment: Option<Loose>,
    /// Days per move (correspondence): 1, 2, 3, 5, 7, 10 or 14.
    #[schema(value_type = Option<u64>)]
    pub days: Option<Loose>,
    /// The challenger's colour: `random` (the default), `white`, `black`.
    pub color: Option<String>,
    /// The start position (FEN); `fromPosition` needs it.
    pub fen: Option<String>,
    /// A Chess960 start position, 0-959; a Chess960 challenge without one
    /// (and without `fen`) gets one drawn when it is accepted.
    #[schema(value_type = Option<u16>)]
    pub chess960: Option<Loose>,
    /// tempo's variant options (`{"fsr8":"off"}`), or lichess's extra
    /// rules as a comma-separated string (see [`lichess_rules`]).
    pub rules: Option<RulesParam>,
    /// Whether the game counts for the club ratings (`false` if not given).
    #[schema(value_type = Option<bool>)]
    pub rated: Option<Loose>,
    /// Lichess streams its answer while this is `true`: refused (tempo's
    /// challenges to a member do not expire, so nothing needs keeping
    /// alive); `false` is accepted.
    #[serde(rename = "keepAliveStream")]
    #[schema(value_type = Option<bool>)]
    pub keep_alive_stream: Option<Loose>,
    /// Lichess's message to the opponent, sent with `acceptByToken`:
    /// accepted and ignored (tempo has no private messages).
    pub message: Option<String>,
    /// Lichess's acceptance with the opponent's token: refused.
    #[serde(rename = "acceptByToken")]
    pub accept_by_token: Option<String>,
    /// Lichess's name of an open challenge: accepted and ignored (tempo's
    /// lobby lists open challenges by challenger and game).
    pub name: Option<String>,
}

/// What a challenge asks for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ChallengeAsk {
    pub spec: GameSpec,
    pub rated: bool,
    pub color: ColorChoice,
}

/// Why a challenge's parameters are refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ParamError {
    #[error("color: white, black or random")]
    BadColor,
    /// A parameter's value cannot be read or is out of range.
    #[error("{field}: {reason}")]
    Bad { field: &'static str, reason: String },
    /// Parameters that exclude each other.
    #[error("{0}")]
    Conflict(&'static str),
    /// A lichess option or variant tempo does not offer.
    #[error("{field} '{value}' is not supported: {why}")]
    Unsupported {
        field: &'static str,
        value: String,
        why: &'static str,
    },
}

fn bad(field: &'static str, reason: impl Into<String>) -> ParamError {
    ParamError::Bad {
        field,
        reason: reason.into(),
    }
}

/// A yes or no: `true`/`false` as JSON or text.
fn flag(field: &'static str, value: Option<&Loose>) -> Result<Option<bool>, ParamError> {
    match value {
        None => Ok(None),
        Some(Loose::Flag(b)) => Ok(Some(*b)),
        Some(Loose::Text(t)) if t == "true" => Ok(Some(true)),
        Some(Loose::Text(t)) if t == "false" => Ok(Some(false)),
        Some(_) => Err(bad(field, "true or false")),
    }
}

/// A whole number from 0 to `max`, as JSON or text.
fn number(field: &'static str, value: Option<&Loose>, max: u64) -> Result<Option<u64>, ParamError> {
    let n = match value {
        None => return Ok(None),
        Some(Loose::Number(n)) => n.as_u64(),
        Some(Loose::Text(t)) => t.trim().parse::<u64>().ok(),
        Some(Loose::Flag(_)) => None,
    };
    match n {
        Some(n) if n <= max => Ok(Some(n)),
        _ => Err(bad(field, format!("a whole number from 0 to {max}"))),
    }
}

/// The variant a `variant` names, and whether it asks for a set-up
/// position (`fromPosition`).
fn variant(name: Option<&str>) -> Result<(Variant, bool), ParamError> {
    let Some(name) = name else {
        return Ok((Variant::Standard, false));
    };
    if name == "fromPosition" {
        return Ok((Variant::Standard, true));
    }
    if LICHESS_ONLY_VARIANTS.contains(&name) {
        return Err(ParamError::Unsupported {
            field: "variant",
            value: name.to_string(),
            why: "tempo plays standard, chess960, fromPosition, synchronschach and fairschach",
        });
    }
    name.parse::<Variant>()
        .map(|v| (v, false))
        .map_err(|_| bad("variant", format!("unknown variant '{name}'")))
}

/// Lichess's extra rules (`noAbort,noRematch`): the ones a tempo game
/// keeps by its nature are accepted, the others refused.
///
/// - `noGiveTime`, `noClaimWin`: tempo has neither giving time nor
///   claiming a win when the opponent leaves, so the rule holds.
/// - `noRematch`: a rematch in tempo is a new challenge the other player
///   may decline; nothing of the game changes.
/// - `noAbort`, `noEarlyDraw`: refused — a challenge's game may be
///   aborted before both first moves, and a draw offered at any time.
pub fn lichess_rules(text: &str) -> Result<(), ParamError> {
    for rule in text.split(',').map(str::trim).filter(|r| !r.is_empty()) {
        match rule {
            "noGiveTime" | "noClaimWin" | "noRematch" => {}
            "noAbort" | "noEarlyDraw" => {
                return Err(ParamError::Unsupported {
                    field: "rules",
                    value: rule.to_string(),
                    why: "tempo lets a game be aborted before both first moves and a draw be offered at any time",
                });
            }
            other => return Err(bad("rules", format!("unknown rule '{other}'"))),
        }
    }
    Ok(())
}

impl ChallengeParams {
    /// The challenge asked for, or why it cannot be.
    pub fn ask(self) -> Result<ChallengeAsk, ParamError> {
        if flag("keepAliveStream", self.keep_alive_stream.as_ref())? == Some(true) {
            return Err(ParamError::Unsupported {
                field: "keepAliveStream",
                value: "true".into(),
                why: "a challenge to a member waits until it is answered; follow GET /api/stream/event",
            });
        }
        if self
            .accept_by_token
            .as_deref()
            .is_some_and(|t| !t.is_empty())
        {
            // The token itself is not repeated in the answer.
            return Err(ParamError::Unsupported {
                field: "acceptByToken",
                value: "…".into(),
                why: "the challenged member accepts with their own call",
            });
        }
        let (variant, from_position) = variant(self.variant.as_deref())?;
        if from_position && self.fen.is_none() {
            return Err(bad("fen", "fromPosition needs a fen"));
        }
        let clock = self.clock_control(
            self.clock.clone(),
            number("clock.limit", self.clock_limit.as_ref(), MAX_CLOCK_LIMIT)?,
            number(
                "clock.increment",
                self.clock_increment.as_ref(),
                MAX_CLOCK_INCREMENT,
            )?,
            number("days", self.days.as_ref(), u64::MAX)?,
        )?;
        let chess960 = number("chess960", self.chess960.as_ref(), 959)?.map(|n| n as u16);
        let rules = match self.rules {
            None => BTreeMap::new(),
            Some(RulesParam::Options(options)) => options,
            Some(RulesParam::Lichess(text)) => {
                lichess_rules(&text)?;
                BTreeMap::new()
            }
        };
        let color = match self.color.as_deref() {
            None => ColorChoice::Random,
            Some(name) => ColorChoice::from_name(name).ok_or(ParamError::BadColor)?,
        };
        Ok(ChallengeAsk {
            spec: GameSpec {
                variant,
                clock,
                fen: self.fen,
                chess960,
                rules,
            },
            rated: flag("rated", self.rated.as_ref())?.unwrap_or(false),
            color,
        })
    }

    /// tempo's clock string from `clock`, lichess's `clock.limit` and
    /// `clock.increment`, or `days`: at most one of the three ways.
    fn clock_control(
        &self,
        clock: Option<String>,
        limit: Option<u64>,
        increment: Option<u64>,
        days: Option<u64>,
    ) -> Result<Option<String>, ParamError> {
        let lichess_clock = limit.is_some() || increment.is_some();
        match (clock.is_some(), lichess_clock, days.is_some()) {
            (true, true, _) => Err(ParamError::Conflict(
                "clock and clock.limit/clock.increment: give one of them",
            )),
            (true, _, true) => Err(ParamError::Conflict("clock and days: give one of them")),
            (_, true, true) => Err(ParamError::Conflict(
                "clock.limit/clock.increment and days: give one of them",
            )),
            (_, true, false) => match (limit, increment) {
                (Some(limit), Some(increment)) => Ok(Some(format!("{limit}+{increment}"))),
                (None, _) => Err(bad("clock.limit", "needed with clock.increment")),
                (_, None) => Err(bad("clock.increment", "needed with clock.limit")),
            },
            (_, false, true) => {
                let days = days.unwrap_or_default();
                if !LICHESS_DAYS.contains(&days) {
                    return Err(bad("days", "1, 2, 3, 5, 7, 10 or 14"));
                }
                Ok(Some(format!("1/{}", days * 86_400)))
            }
            _ => Ok(clock),
        }
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn ask(body: serde_json::Value) -> Result<ChallengeAsk, ParamError> {
        serde_json::from_value::<ChallengeParams>(body)
            .expect("parameters")
            .ask()
    }

    #[test]
    fn lichess_parameters_make_tempo_games() {
        let a = ask(
            json!({"rated": true, "clock.limit": 300, "clock.increment": 3,
            "days": null, "color": "white", "variant": "standard", "fen": null}),
        )
        .unwrap();
        assert_eq!(a.spec.clock.as_deref(), Some("300+3"));
        assert!(a.rated);
        assert_eq!(a.color, ColorChoice::White);
        // As a form sends them: text.
        let a = ask(
            json!({"rated": "false", "clock.limit": "60", "clock.increment": "0",
            "variant": "chess960"}),
        )
        .unwrap();
        assert_eq!(
            (a.spec.clock.as_deref(), a.rated, a.spec.variant),
            (Some("60+0"), false, Variant::Chess960)
        );
        assert_eq!(a.spec.chess960, None);
        let a = ask(json!({"days": 3})).unwrap();
        assert_eq!(a.spec.clock.as_deref(), Some("1/259200"));
        let a =
            ask(json!({"variant": "fromPosition", "fen": "8/8/8/8/8/8/8/K1k5 w - - 0 1"})).unwrap();
        assert_eq!(a.spec.variant, Variant::Standard);
        assert!(a.spec.fen.is_some());
        // Nothing at all: an untimed casual standard game, colour random.
        let a = ask(json!({})).unwrap();
        assert_eq!(
            (a.spec.clock, a.rated, a.color),
            (None, false, ColorChoice::Random)
        );
        // tempo's own body.
        let a = ask(json!({"variant": "fairschach", "clock": "300+3",
            "rules": {"fsr8": "off"}, "chess960": 518}))
        .unwrap();
        assert_eq!(a.spec.rules.get("fsr8").map(String::as_str), Some("off"));
        assert_eq!(a.spec.chess960, Some(518));
        let a = ask(json!({"rules": "noGiveTime,noClaimWin"})).unwrap();
        assert!(a.spec.rules.is_empty());
        assert!(ask(json!({"message": "hi", "name": "x", "keepAliveStream": false})).is_ok());
    }

    #[test]
    fn refusals_name_the_parameter() {
        let field = |body| match ask(body) {
            Err(ParamError::Bad { field, .. }) => field,
            Err(ParamError::Unsupported { field, .. }) => field,
            Err(ParamError::Conflict(text)) => text,
            Err(ParamError::BadColor) => "color",
            Ok(a) => panic!("accepted: {a:?}"),
        };
        assert_eq!(field(json!({"variant": "atomic"})), "variant");
        assert_eq!(field(json!({"variant": "nonsense"})), "variant");
        assert_eq!(field(json!({"variant": "fromPosition"})), "fen");
        assert_eq!(field(json!({"rated": "yes"})), "rated");
        assert_eq!(field(json!({"days": 4})), "days");
        assert_eq!(field(json!({"clock.limit": 300})), "clock.increment");
        assert_eq!(field(json!({"clock.increment": 3})), "clock.limit");
        assert_eq!(
            field(json!({"clock.limit": -1, "clock.increment": 0})),
            "clock.limit"
        );
        assert_eq!(
            field(json!({"clock.limit": 99999, "clock.increment": 0})),
            "clock.limit"
        );
        assert!(
            field(json!({"clock": "300+3", "clock.limit": 300, "clock.increment": 3}))
                .starts_with("clock and")
        );
        assert!(
            field(json!({"days": 1, "clock.limit": 60, "clock.increment": 0})).contains("days")
        );
        assert_eq!(field(json!({"keepAliveStream": true})), "keepAliveStream");
        assert_eq!(field(json!({"acceptByToken": "abc"})), "acceptByToken");
        assert_eq!(field(json!({"rules": "noAbort"})), "rules");
        assert_eq!(field(json!({"rules": "noSuchRule"})), "rules");
        assert_eq!(field(json!({"color": "green"})), "color");
        assert_eq!(field(json!({"chess960": 960})), "chess960");
        // An unknown field stays refused, by name.
        let err = serde_json::from_value::<ChallengeParams>(json!({"speed": "blitz"}))
            .unwrap_err()
            .to_string();
        assert!(err.contains("speed"), "{err}");
    }
}
