//! PGN for simultaneous-move games: the Seven Tag Roster, `Variant`
//! (`Synchronschach` or `Fairschach`), `SetUp`/`FEN` for another start
//! (the extended notation of [`crate::notation`]; Chess960 start
//! positions too), `VariantRules` for non-default options; the movetext is
//! the record, one step per line (the SAN record of [`crate::san`] as the
//! server and `--export pgn` write it, or the UCI pair record of
//! [`crate::record`]), then the result. [`read`] reads either back.

use tempo_chess::pgn::Tags;

use crate::error::{RecordError, RulesError};
use crate::game::SyncGame;
use crate::notation;
use crate::record::{self, RecordStep};
use crate::rules::{Rules, Variant};

/// A simultaneous-move game as PGN.
#[derive(Debug, Clone)]
pub struct SyncPgn {
    pub tags: Tags,
    pub start: SyncGame,
    /// The record lines (SAN, [`crate::san`], or UCI, [`crate::record`]).
    pub lines: Vec<String>,
}

const ROSTER: [(&str, &str); 7] = [
    ("Event", "?"),
    ("Site", "?"),
    ("Date", "????.??.??"),
    ("Round", "?"),
    ("White", "?"),
    ("Black", "?"),
    ("Result", "*"),
];

impl SyncPgn {
    /// The PGN text (ends with a blank line). `end` gives the result.
    pub fn to_pgn(&self, end: &SyncGame) -> String {
        let result = end.result().map_or("*".to_string(), |(r, _)| r.to_string());
        let termination = end.result().map(|(_, reason)| reason.name().to_string());
        self.write(&result, termination.as_deref())
    }

    /// The PGN text of a game that ended off the board (a resignation, a
    /// flag, an agreement, an arbiter's decision): `result` (`1-0`, …,
    /// `*`) and the `Termination` tag are given.
    pub fn to_pgn_ended(&self, result: &str, termination: &str) -> String {
        self.write(result, Some(termination))
    }

    fn write(&self, result: &str, termination: Option<&str>) -> String {
        let result = result.to_string();
        let rules = self.start.rules();
        let mut tags = self.tags.clone();
        tags.set("Result", &result);
        tags.set("Variant", rules.variant().name());
        let options = rules.options_string();
        if !options.is_empty() {
            tags.set("VariantRules", &options);
        }
        if let Some(termination) = termination {
            tags.set("Termination", termination);
        }
        let start = notation::write(&self.start);
        let orthodox = notation::write(&SyncGame::new(*rules));
        if start != orthodox {
            tags.set("SetUp", "1");
            tags.set("FEN", &start);
        }
        let mut out = String::new();
        for (name, default) in ROSTER {
            let value = tags.get(name).unwrap_or(default);
            out.push_str(&format!("[{name} \"{}\"]\n", escape(value)));
        }
        let mut rest: Vec<(&str, &str)> = tags
            .iter()
            .filter(|(n, _)| !ROSTER.iter().any(|(r, _)| r == n))
            .collect();
        rest.sort();
        for (name, value) in rest {
            out.push_str(&format!("[{name} \"{}\"]\n", escape(value)));
        }
        out.push('\n');
        for line in &self.lines {
            out.push_str(line);
            out.push('\n');
        }
        out.push_str(&result);
        out.push_str("\n\n");
        out
    }
}

fn escape(value: &str) -> String {
    value.replace('\\', "\\\\").replace('"', "\\\"")
}

/// Reads a PGN written by [`SyncPgn::to_pgn`] (or by hand in the same
/// form): tags, then the record. Returns the game, its steps and the
/// final state.
pub fn read(text: &str) -> Result<(SyncPgn, SyncGame, Vec<RecordStep>), RecordError> {
    let mut tags = Tags::new();
    let mut body_start = 0;
    let mut offset = 0;
    for (index, line) in text.split_inclusive('\n').enumerate() {
        let trimmed = line.trim();
        offset += line.len();
        if trimmed.is_empty() {
            if !tags.is_empty() {
                body_start = offset;
                break;
            }
            continue;
        }
        if !trimmed.starts_with('[') {
            body_start = offset - line.len();
            break;
        }
        let (name, value) = parse_tag(trimmed).ok_or_else(|| RecordError::Syntax {
            line: index + 1,
            reason: format!("invalid tag '{trimmed}' (expected [Name \"value\"])"),
        })?;
        tags.set(&name, &value);
        body_start = offset;
    }
    let variant: Variant = tags
        .get("Variant")
        .ok_or(RulesError::UnknownVariant("(no Variant tag)".to_string()))?
        .parse()?;
    let mut rules = Rules::new(variant);
    if let Some(options) = tags.get("VariantRules") {
        rules.apply_options(options)?;
    }
    let start = match tags.get("FEN") {
        Some(fen) => notation::read(rules, fen)?,
        None => SyncGame::new(rules),
    };
    let lines_before = text[..body_start].lines().count();
    let body = &text[body_start..];
    let (end, steps) = record::replay(&start, body).map_err(|e| shift_lines(e, lines_before))?;
    let lines = body
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !matches!(*l, "1-0" | "0-1" | "1/2-1/2" | "*"))
        .map(str::to_string)
        .collect();
    Ok((SyncPgn { tags, start, lines }, end, steps))
}

fn shift_lines(err: RecordError, by: usize) -> RecordError {
    match err {
        RecordError::Syntax { line, reason } => RecordError::Syntax {
            line: line + by,
            reason,
        },
        RecordError::Illegal {
            line,
            pair,
            player,
            reason,
        } => RecordError::Illegal {
            line: line + by,
            pair,
            player,
            reason,
        },
        RecordError::AfterEnd { line, result } => RecordError::AfterEnd {
            line: line + by,
            result,
        },
        other => other,
    }
}

fn parse_tag(line: &str) -> Option<(String, String)> {
    let inner = line.strip_prefix('[')?.strip_suffix(']')?.trim();
    let (name, rest) = inner.split_once(char::is_whitespace)?;
    if name.is_empty() || !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
        return None;
    }
    let rest = rest.trim();
    let quoted = rest.strip_prefix('"')?.strip_suffix('"')?;
    let mut value = String::new();
    let mut chars = quoted.chars();
    while let Some(c) = chars.next() {
        match c {
            '\\' => value.push(chars.next()?),
            '"' => return None,
            _ => value.push(c),
        }
    }
    Some((name.to_string(), value))
}
