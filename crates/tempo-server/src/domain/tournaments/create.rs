//! Making a tournament: from the director's settings, or by importing a
//! TRF (any file `tempo pair` reads) to continue it.

use std::collections::BTreeMap;

use serde::Deserialize;
use serde_json::Value;
use tempo_host::{GameSpec, Header, Variant};
use tempo_tourney::{InfoLine, Tournament, keizer, tiebreak};

use super::model::{Record, Settings, System, check_text, short};
use super::{MAX_NAME, MAX_PLAYERS, MAX_ROUNDS, Refusal, invalid};

/// `POST /api/tournaments`: a new tournament, or `trf` to import one.
#[derive(Debug, Default, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub struct CreateRequest {
    pub name: Option<String>,
    pub system: Option<String>,
    pub rounds: Option<u32>,
    pub variant: Option<String>,
    pub chess960: Option<bool>,
    /// A PGN TimeControl (`"300+3"`), or `{"limit": seconds, "increment": seconds}`.
    pub clock: Option<Value>,
    pub rules: Option<BTreeMap<String, String>>,
    #[schema(value_type = Option<Object>)]
    pub keizer: Option<serde_json::Map<String, Value>>,
    /// `["BH-C1","BH"]` or `"BH-C1,BH"`.
    pub tiebreaks: Option<Value>,
    pub double: Option<bool>,
    pub trf: Option<String>,
}

fn parse_variant(text: &str) -> Result<Variant, Refusal> {
    text.parse().map_err(|_| {
        invalid(format!(
            "variant '{}': standard, chess960, synchronschach or fairschach",
            short(&text.to_ascii_lowercase())
        ))
    })
}

fn set_info(t: &mut Tournament, tag: &str, text: String) {
    match t.info.iter_mut().find(|l| l.tag == tag) {
        Some(line) => line.text = text,
        None => t.info.push(InfoLine {
            tag: tag.into(),
            text,
        }),
    }
}

/// The `XTK` pairs of a `keizer` object: `preset` first, then the others.
fn keizer_pairs(map: &serde_json::Map<String, Value>) -> Result<Vec<(String, String)>, Refusal> {
    let mut pairs = Vec::new();
    for (key, value) in map {
        let text = match value {
            Value::String(s) => s.clone(),
            Value::Number(n) => n.to_string(),
            _ => {
                return Err(invalid(format!(
                    "keizer.{}: a string or a number",
                    short(key)
                )));
            }
        };
        if key.chars().any(char::is_whitespace) || text.chars().any(char::is_control) {
            return Err(invalid(format!("keizer.{}: no spaces in keys", short(key))));
        }
        pairs.push((key.to_ascii_lowercase(), text.trim().to_string()));
    }
    pairs.sort_by_key(|(k, _)| k != "preset");
    let mut check = keizer::KeizerSettings::default();
    for (k, v) in &pairs {
        check
            .apply(k, v)
            .map_err(|e| invalid(format!("keizer: {e}")))?;
    }
    Ok(pairs)
}

/// The clock as a PGN TimeControl.
fn clock_text(clock: &Value) -> Result<String, Refusal> {
    let seconds = |key: &str| clock.get(key).map(|v| v.as_u64().ok_or(()));
    match clock {
        Value::String(text) => Ok(text.trim().to_string()),
        Value::Object(_) => {
            let limit = seconds("limit").or_else(|| seconds("initial"));
            match (limit, seconds("increment").unwrap_or(Ok(0))) {
                (Some(Ok(limit)), Ok(increment)) => Ok(format!("{limit}+{increment}")),
                _ => Err(invalid(
                    "clock: a TimeControl like \"300+3\", or {\"limit\": seconds, \"increment\": seconds}",
                )),
            }
        }
        _ => Err(invalid("clock: a TimeControl like \"300+3\"")),
    }
}

/// The tie-breaks as a list of names.
fn tiebreak_names(value: &Value) -> Result<Vec<String>, Refusal> {
    match value {
        Value::String(text) => Ok(text.split(',').map(|s| s.trim().to_string()).collect()),
        Value::Array(items) => items
            .iter()
            .map(|v| v.as_str().map(str::to_string))
            .collect::<Option<Vec<_>>>()
            .ok_or_else(|| invalid("tiebreaks: a list of names like [\"BH-C1\",\"BH\"]")),
        _ => Err(invalid(
            "tiebreaks: a list of names like [\"BH-C1\",\"BH\"]",
        )),
    }
}

fn tiebreak_line(list: &[String]) -> Result<String, Refusal> {
    if list.len() > 20 {
        return Err(invalid("tiebreaks: at most 20"));
    }
    let joined = list.join(",");
    tiebreak::parse_list(&joined).map_err(|e| invalid(format!("tiebreaks: {e}")))?;
    Ok(joined)
}

impl Record {
    /// A new tournament (or an imported one) from a request; `seed` draws
    /// the Chess960 positions.
    pub fn create(req: &CreateRequest, seed: u64) -> Result<Record, Refusal> {
        let mut t = match &req.trf {
            Some(text) => {
                let t = Tournament::from_trf_str(text).map_err(|e| invalid(format!("trf: {e}")))?;
                t.check_consistency()
                    .map_err(|e| invalid(format!("trf: {e}")))?;
                t
            }
            None => Tournament::new(),
        };
        let imported = req.trf.is_some();
        if t.players.len() > MAX_PLAYERS {
            return Err(invalid(format!("at most {MAX_PLAYERS} players")));
        }
        let double = req.double.unwrap_or(false)
            || req
                .system
                .as_deref()
                .is_some_and(System::is_double_round_robin_name);
        let system = match (&req.system, imported) {
            (Some(s), _) => s.parse::<System>().map_err(|e| invalid(e.to_string()))?,
            (None, true) if req.keizer.is_some() => System::Keizer,
            (None, true) => System::detect(&t),
            (None, false) => return Err(invalid("system: dutch, keizer or round-robin")),
        };
        let name = match (&req.name, t.name()) {
            (Some(n), _) => check_text("name", n, MAX_NAME)?,
            (None, Some(n)) if !n.is_empty() => n.to_string(),
            (None, _) if imported => "Imported tournament".to_string(),
            (None, _) => return Err(invalid("name: the tournament's name is needed")),
        };
        set_info(&mut t, "012", name);
        if let Some(rounds) = req.rounds {
            if !(1..=MAX_ROUNDS).contains(&rounds) {
                return Err(invalid(format!("rounds: 1 to {MAX_ROUNDS}")));
            }
            if rounds < t.paired_rounds() {
                return Err(invalid("rounds: fewer than the rounds already paired"));
            }
            t.total_rounds = Some(rounds);
        }
        if t.total_rounds.is_none() && system != System::RoundRobin {
            return Err(invalid("rounds: the number of rounds is needed"));
        }
        if t.total_rounds.is_some_and(|r| r > MAX_ROUNDS) {
            return Err(invalid(format!("rounds: at most {MAX_ROUNDS}")));
        }
        let variant = match &req.variant {
            Some(v) => parse_variant(v)?,
            None => Variant::Standard,
        };
        let chess960 =
            req.chess960.unwrap_or(false) || variant == Variant::Chess960 || t.chess960.is_some();
        if double && system != System::RoundRobin {
            return Err(invalid("double: only for a round robin"));
        }
        if let Some(map) = &req.keizer {
            if system != System::Keizer {
                return Err(invalid("keizer: settings only for the keizer system"));
            }
            t.keizer_settings.extend(keizer_pairs(map)?);
        }
        if system == System::Keizer {
            keizer::settings_from_tournament(&t).map_err(|e| invalid(format!("keizer: {e}")))?;
        }
        if let Some(list) = &req.tiebreaks {
            if system == System::Keizer {
                return Err(invalid("tiebreaks: Keizer ranks by its own score"));
            }
            set_info(&mut t, "202", tiebreak_line(&tiebreak_names(list)?)?);
        } else if let Some(line) = t.info_text("202").filter(|l| !l.is_empty()) {
            tiebreak::parse_list(line).map_err(|e| invalid(format!("trf: 202 line: {e}")))?;
        }
        let rules = req.rules.clone().unwrap_or_default();
        let clock = req.clock.as_ref().map(clock_text).transpose()?;
        // The games' spec is checked now, so that an online round cannot fail on it.
        let spec = GameSpec {
            variant,
            clock: clock.clone(),
            fen: None,
            chess960: chess960.then_some(518),
            rules: rules.clone(),
        };
        Header::new("check", &spec, "white", "black").map_err(|e| invalid(e.to_string()))?;
        if let Some(clock) = &clock
            && !imported
        {
            set_info(&mut t, "122", clock.clone());
        }
        if !imported {
            set_info(&mut t, "092", system.type_line(double).into());
        }
        let mut record = Record {
            t,
            s: Settings {
                system,
                variant,
                chess960,
                clock,
                rules,
                double,
                usernames: BTreeMap::new(),
                guests: Default::default(),
                rounds: Vec::new(),
                log: Vec::new(),
                ratings: BTreeMap::new(),
            },
        };
        if chess960 {
            if record.t.chess960.as_ref().is_none_or(|c| c.seed.is_none()) {
                record.t.chess960.get_or_insert_with(Default::default).seed = Some(seed);
            }
            let upto = record.t.total_rounds.unwrap_or(1).max(1);
            record.ensure_position(upto)?;
        }
        Ok(record)
    }
}
