//! Writing PGN export format.

use super::{PgnGame, PgnMove};
use crate::{Color, Position, STARTING_FEN, san};

/// The Seven Tag Roster, in export order, with the value for "unknown".
const SEVEN_TAG_ROSTER: [(&str, &str); 7] = [
    ("Event", "?"),
    ("Site", "?"),
    ("Date", "????.??.??"),
    ("Round", "?"),
    ("White", "?"),
    ("Black", "?"),
    ("Result", "*"),
];

/// Export lines have fewer than 80 characters.
const MAX_LINE: usize = 79;

fn escape(value: &str) -> String {
    value
        .replace('\\', "\\\\")
        .replace('"', "\\\"")
        .replace(['\n', '\r'], " ")
}

/// The tags as written: STR first, then the rest in ASCII order, with
/// `Result`, `SetUp`, `FEN` and `Variant` made consistent with the game.
fn export_tags(game: &PgnGame) -> Vec<(String, String)> {
    let mut tags = game.tags.clone();
    tags.set("Result", &game.result);
    let start_fen = game.start.to_fen();
    if start_fen != STARTING_FEN || game.tags.get("FEN").is_some() {
        tags.set("SetUp", "1");
        tags.set("FEN", &start_fen);
    }
    if game.start.is_chess960() {
        tags.set("Variant", "Chess960");
    }
    let mut out: Vec<(String, String)> = SEVEN_TAG_ROSTER
        .iter()
        .map(|&(name, unknown)| {
            let value = tags.get(name).unwrap_or(unknown);
            (name.to_string(), value.to_string())
        })
        .collect();
    let mut rest: Vec<(String, String)> = tags
        .iter()
        .filter(|(name, _)| !SEVEN_TAG_ROSTER.iter().any(|(n, _)| n == name))
        .map(|(n, v)| (n.to_string(), v.to_string()))
        .collect();
    rest.sort();
    out.extend(rest);
    out
}

/// Collects movetext tokens into lines of at most [`MAX_LINE`] characters.
struct Lines {
    text: String,
    line_len: usize,
    /// `(` waiting to be glued to the next token.
    open_paren: bool,
}

impl Lines {
    fn push(&mut self, token: &str) {
        if self.open_paren {
            self.open_paren = false;
            return self.push(&format!("({token}"));
        }
        let len = token.chars().count();
        if self.line_len > 0 && self.line_len + 1 + len > MAX_LINE {
            self.text.push('\n');
            self.line_len = 0;
        }
        if self.line_len > 0 {
            self.text.push(' ');
            self.line_len += 1;
        }
        self.text.push_str(token);
        self.line_len += len;
    }

    /// `)` glued to the last token if the line has room.
    fn close_paren(&mut self) {
        if self.open_paren {
            self.open_paren = false;
            self.push("()");
        } else if self.line_len > 0 && self.line_len < MAX_LINE {
            self.text.push(')');
            self.line_len += 1;
        } else {
            self.push(")");
        }
    }

    /// A comment, wrapped at word boundaries. A `}` cannot stand in a
    /// brace comment, so such a comment is written as a `;` comment that
    /// ends its line.
    fn push_comment(&mut self, comment: &str) {
        let words: Vec<&str> = comment.split_whitespace().collect();
        if comment.contains('}') {
            self.push(&format!(";{}", words.join(" ")));
            self.text.push('\n');
            self.line_len = 0;
            return;
        }
        if words.is_empty() {
            self.push("{}");
            return;
        }
        // Words become tokens; a word starting with `%` stays on the line
        // of the word before (a line starting with `%` would be skipped).
        let mut tokens: Vec<String> = Vec::new();
        for word in words {
            match tokens.last_mut() {
                Some(last) if word.starts_with('%') => {
                    last.push(' ');
                    last.push_str(word);
                }
                _ => tokens.push(word.to_string()),
            }
        }
        tokens[0].insert(0, '{');
        tokens.last_mut().expect("not empty").push('}');
        for token in &tokens {
            self.push(token);
        }
    }
}

/// The whole game in export format, ending with a blank line.
pub(crate) fn write_game(game: &PgnGame) -> String {
    let mut out = String::new();
    for (name, value) in export_tags(game) {
        out.push_str(&format!("[{name} \"{}\"]\n", escape(&value)));
    }
    out.push('\n');
    let mut lines = Lines {
        text: String::new(),
        line_len: 0,
        open_paren: false,
    };
    for comment in &game.comments {
        lines.push_comment(comment);
    }
    write_moves(&mut lines, &game.start, &game.moves);
    lines.push(&game.result);
    out.push_str(&lines.text);
    out.push_str("\n\n");
    out
}

/// A line of moves from `start`, variations included (recursively).
fn write_moves(lines: &mut Lines, start: &Position, moves: &[PgnMove]) {
    let mut pos = start.clone();
    // Black's move needs its number at the start of a line and after a
    // comment or variation.
    let mut need_number = true;
    for m in moves {
        let number = pos.fullmove_number();
        match pos.turn() {
            Color::White => lines.push(&format!("{number}.")),
            Color::Black if need_number => lines.push(&format!("{number}...")),
            Color::Black => {}
        }
        lines.push(&san::write(&pos, m.mv));
        for nag in &m.nags {
            lines.push(&format!("${nag}"));
        }
        for comment in &m.comments {
            lines.push_comment(comment);
        }
        need_number = !m.comments.is_empty() || !m.variations.is_empty();
        for variation in &m.variations {
            lines.open_paren = true;
            for comment in &variation.comments {
                lines.push_comment(comment);
            }
            write_moves(lines, &pos, &variation.moves);
            lines.close_paren();
        }
        pos.play(m.mv);
    }
}
