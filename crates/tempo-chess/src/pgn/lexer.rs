//! The PGN lexer: tokens with their line and column, read line by line
//! from any `BufRead` (large files are streamed).

use std::io::BufRead;

use super::{PgnError, PgnErrorKind};

/// A PGN token.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Token {
    OpenBracket,
    CloseBracket,
    OpenParen,
    CloseParen,
    Period,
    Star,
    /// A tag value, escapes resolved.
    Str(String),
    /// Move text, move numbers, results, tag names.
    Symbol(String),
    /// `$n`, or a suffix annotation `!`, `?`, `!!`, `??`, `!?`, `?!`
    /// turned into its NAG 1..6.
    Nag(u8),
    /// `{...}` or `; ...` comment text.
    Comment(String),
    Eof,
}

/// A token and where it starts (1-based line and column, in characters).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Spanned {
    pub token: Token,
    pub line: usize,
    pub column: usize,
}

pub(crate) struct Lexer<R> {
    src: R,
    line: Vec<u8>,
    /// Byte index into `line`.
    pos: usize,
    /// Where the line's text starts (after a byte-order mark).
    line_start: usize,
    /// 1-based number of the line in `line`.
    line_no: usize,
    /// 1-based column of the byte at `pos`.
    column: usize,
    eof: bool,
}

/// Comment text with whitespace normalised (runs of spaces, tabs and line
/// breaks become one space): line breaks in a comment are only the
/// writer's wrapping.
fn normalise_comment(bytes: &[u8]) -> String {
    let text = String::from_utf8_lossy(bytes);
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

fn is_symbol_start(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'-'
}

/// Characters the world writes that carry no meaning here: a byte-order
/// mark (also after a blank line, where editors leave it when files are
/// joined), a zero-width space and a no-break space.
const INVISIBLE: [&[u8]; 3] = [b"\xEF\xBB\xBF", b"\xE2\x80\x8B", b"\xC2\xA0"];

/// Spellings of result characters that are not ASCII, with their PGN form:
/// en and em dashes for `-`, the vulgar fraction for `1/2`.
const RESULT_SPELLINGS: [(&str, &str); 3] =
    [("\u{2013}", "-"), ("\u{2014}", "-"), ("\u{BD}", "1/2")];

/// Unicode annotation glyphs (as ChessBase and chess.com export them) and
/// their numeric annotation glyphs.
const GLYPH_NAGS: [(&str, u8); 14] = [
    ("\u{25A1}", 7),   // □ only move
    ("\u{221E}", 13),  // ∞ unclear
    ("\u{2A72}", 14),  // ⩲ White slightly better
    ("\u{2A71}", 15),  // ⩱ Black slightly better
    ("\u{B1}", 16),    // ± White better
    ("\u{2213}", 17),  // ∓ Black better
    ("+\u{2212}", 18), // +− White winning
    ("\u{2212}+", 19), // −+ Black winning
    ("\u{2A00}", 22),  // ⨀ zugzwang
    ("\u{27F3}", 32),  // ⟳ development
    ("\u{2191}", 36),  // ↑ initiative
    ("\u{2192}", 40),  // → attack
    ("\u{21C6}", 132), // ⇆ counterplay
    ("\u{2206}", 140), // ∆ with the idea
];

fn is_symbol_continue(b: u8) -> bool {
    b.is_ascii_alphanumeric() || matches!(b, b'_' | b'+' | b'#' | b'=' | b':' | b'-' | b'/')
}

impl<R: BufRead> Lexer<R> {
    pub(crate) fn new(src: R) -> Lexer<R> {
        Lexer {
            src,
            line: Vec::new(),
            pos: 0,
            line_start: 0,
            line_no: 0,
            column: 1,
            eof: false,
        }
    }

    fn error(&self, line: usize, column: usize, kind: PgnErrorKind) -> PgnError {
        PgnError { line, column, kind }
    }

    /// The next byte, loading the next line when needed.
    fn peek(&mut self) -> Result<Option<u8>, PgnError> {
        while self.pos >= self.line.len() {
            if self.eof {
                return Ok(None);
            }
            self.line.clear();
            self.pos = 0;
            self.column = 1;
            let read = self.src.read_until(b'\n', &mut self.line).map_err(|e| {
                self.eof = true;
                self.error(self.line_no + 1, 1, PgnErrorKind::Io(e.to_string()))
            })?;
            if read == 0 {
                self.eof = true;
                return Ok(None);
            }
            self.line_no += 1;
            if self.line_no == 1 && self.line.starts_with(b"\xEF\xBB\xBF") {
                self.pos = 3;
            }
            self.line_start = self.pos;
        }
        Ok(Some(self.line[self.pos]))
    }

    fn bump(&mut self) {
        if let Some(&b) = self.line.get(self.pos) {
            self.pos += 1;
            if b & 0xC0 != 0x80 {
                // Counts characters, not UTF-8 continuation bytes.
                self.column += 1;
            }
        }
    }

    /// The character at the current position (for error messages).
    fn current_char(&self) -> char {
        let rest = &self.line[self.pos..];
        let len = rest
            .iter()
            .skip(1)
            .take_while(|&&b| b & 0xC0 == 0x80)
            .count()
            + 1;
        String::from_utf8_lossy(&rest[..len.min(rest.len())])
            .chars()
            .next()
            .unwrap_or('\u{FFFD}')
    }

    pub(crate) fn next_token(&mut self) -> Result<Spanned, PgnError> {
        loop {
            let Some(b) = self.peek()? else {
                return Ok(self.spanned(Token::Eof, self.line_no.max(1), self.column));
            };
            let (line, column) = (self.line_no, self.column);
            if b == b'%' && self.pos == self.line_start {
                // Escape line: ignored.
                self.pos = self.line.len();
                continue;
            }
            if b.is_ascii_whitespace() {
                self.bump();
                continue;
            }
            if self.skip_invisible() {
                continue;
            }
            if let Some(nag) = self.glyph() {
                return Ok(self.spanned(nag, line, column));
            }
            let single = match b {
                b'[' => Some(Token::OpenBracket),
                b']' => Some(Token::CloseBracket),
                b'(' => Some(Token::OpenParen),
                b')' => Some(Token::CloseParen),
                b'.' => Some(Token::Period),
                b'*' => Some(Token::Star),
                _ => None,
            };
            if let Some(token) = single {
                self.bump();
                return Ok(self.spanned(token, line, column));
            }
            let token = match b {
                b'"' => self.string(line, column)?,
                b'{' => self.brace_comment(line, column)?,
                b';' => self.line_comment(),
                b'$' => self.nag(line, column)?,
                b'!' | b'?' => self.annotation(line, column)?,
                _ if is_symbol_start(b) || self.starts_result_spelling() => match self.symbol() {
                    Some(symbol) => symbol,
                    None => continue,
                },
                _ => {
                    let c = self.current_char();
                    // Skip the whole character so that the next call makes progress.
                    self.bump();
                    while self.pos < self.line.len() && self.line[self.pos] & 0xC0 == 0x80 {
                        self.pos += 1;
                    }
                    return Err(self.error(line, column, PgnErrorKind::UnexpectedChar(c)));
                }
            };
            return Ok(self.spanned(token, line, column));
        }
    }

    fn spanned(&self, token: Token, line: usize, column: usize) -> Spanned {
        Spanned {
            token,
            line,
            column,
        }
    }

    /// The bytes of the current line while `keep` holds.
    fn take_while(&mut self, keep: impl Fn(u8) -> bool) -> Vec<u8> {
        let mut out = Vec::new();
        while let Some(&b) = self.line.get(self.pos) {
            if !keep(b) {
                break;
            }
            out.push(b);
            self.bump();
        }
        out
    }

    /// A symbol; `None` for an en-passant mark (`e.p.`, `ep`), which says
    /// nothing the move does not.
    fn symbol(&mut self) -> Option<Token> {
        let mut text = String::new();
        loop {
            let bytes = self.take_while(is_symbol_continue);
            text.push_str(&String::from_utf8_lossy(&bytes));
            let rest = &self.line[self.pos..];
            let Some((spelling, ascii)) = RESULT_SPELLINGS
                .iter()
                .find(|(spelling, _)| rest.starts_with(spelling.as_bytes()))
            else {
                break;
            };
            text.push_str(ascii);
            for _ in 0..spelling.len() {
                self.bump();
            }
        }
        if text == "e" && self.line[self.pos..].starts_with(b".p") {
            self.bump();
            self.bump();
            if self.line.get(self.pos) == Some(&b'.') {
                self.bump();
            }
            return None;
        }
        if text == "ep" {
            return None;
        }
        if text.len() > 2 && self.line[self.pos..].starts_with(b".p") && text.ends_with('e') {
            // `bxa6e.p.`: the mark written against the move.
            text.pop();
            self.bump();
            self.bump();
            if self.line.get(self.pos) == Some(&b'.') {
                self.bump();
            }
        } else if text.len() > 4 && text.ends_with("ep") && text.as_bytes()[1] == b'x' {
            // `exf6ep`
            text.truncate(text.len() - 2);
        }
        Some(Token::Symbol(text))
    }

    /// Skips an invisible character at the current position, if any.
    fn skip_invisible(&mut self) -> bool {
        let rest = &self.line[self.pos..];
        let Some(found) = INVISIBLE.iter().find(|i| rest.starts_with(i)) else {
            return false;
        };
        self.pos += found.len();
        self.column += 1;
        true
    }

    /// A Unicode annotation glyph at the current position, as a NAG.
    fn glyph(&mut self) -> Option<Token> {
        let rest = &self.line[self.pos..];
        let (glyph, nag) = GLYPH_NAGS
            .iter()
            .find(|(g, _)| rest.starts_with(g.as_bytes()))?;
        self.pos += glyph.len();
        self.column += glyph.chars().count();
        Some(Token::Nag(*nag))
    }

    /// A result written with a vulgar fraction or dashes (`½-½`, `1–0`).
    fn starts_result_spelling(&self) -> bool {
        let rest = &self.line[self.pos..];
        RESULT_SPELLINGS
            .iter()
            .any(|(s, _)| rest.starts_with(s.as_bytes()))
    }

    fn string(&mut self, line: usize, column: usize) -> Result<Token, PgnError> {
        self.bump(); // opening quote
        let mut out = Vec::new();
        loop {
            match self.line.get(self.pos).copied() {
                None | Some(b'\n') | Some(b'\r') => {
                    // `[Event "Paris]`: the closing quote forgotten; the
                    // bracket ends the value, as python-chess reads it.
                    let text_end = out.trim_ascii_end().len();
                    if out[..text_end].ends_with(b"]") {
                        let back = out.len() - (text_end - 1);
                        self.pos -= back;
                        self.column -= back;
                        out.truncate(text_end - 1);
                        return Ok(Token::Str(String::from_utf8_lossy(&out).into_owned()));
                    }
                    return Err(self.error(line, column, PgnErrorKind::UnterminatedString));
                }
                Some(b'"') => {
                    self.bump();
                    return Ok(Token::Str(String::from_utf8_lossy(&out).into_owned()));
                }
                Some(b'\\') => {
                    self.bump();
                    match self.line.get(self.pos).copied() {
                        Some(c @ (b'"' | b'\\')) => {
                            out.push(c);
                            self.bump();
                        }
                        _ => out.push(b'\\'),
                    }
                }
                Some(c) => {
                    out.push(c);
                    self.bump();
                }
            }
        }
    }

    fn brace_comment(&mut self, line: usize, column: usize) -> Result<Token, PgnError> {
        self.bump(); // {
        let mut out = Vec::new();
        loop {
            match self.peek()? {
                None => return Err(self.error(line, column, PgnErrorKind::UnterminatedComment)),
                Some(b'}') => {
                    self.bump();
                    return Ok(Token::Comment(normalise_comment(&out)));
                }
                Some(c) => {
                    out.push(c);
                    self.bump();
                }
            }
        }
    }

    fn line_comment(&mut self) -> Token {
        self.bump(); // ;
        let bytes = self.take_while(|b| b != b'\n');
        Token::Comment(normalise_comment(&bytes))
    }

    fn nag(&mut self, line: usize, column: usize) -> Result<Token, PgnError> {
        self.bump(); // $
        let digits = self.take_while(|b| b.is_ascii_digit());
        let text = String::from_utf8_lossy(&digits).into_owned();
        text.parse::<u8>()
            .map(Token::Nag)
            .map_err(|_| self.error(line, column, PgnErrorKind::InvalidNag(format!("${text}"))))
    }

    fn annotation(&mut self, line: usize, column: usize) -> Result<Token, PgnError> {
        let bytes = self.take_while(|b| b == b'!' || b == b'?');
        let nag = match bytes.as_slice() {
            b"!" => 1,
            b"?" => 2,
            b"!!" => 3,
            b"??" => 4,
            b"!?" => 5,
            b"?!" => 6,
            other => {
                let text = String::from_utf8_lossy(other).into_owned();
                return Err(self.error(line, column, PgnErrorKind::InvalidAnnotation(text)));
            }
        };
        Ok(Token::Nag(nag))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tokens(text: &str) -> Vec<(Token, usize, usize)> {
        let mut lexer = Lexer::new(text.as_bytes());
        let mut out = Vec::new();
        loop {
            let t = lexer.next_token().unwrap();
            if t.token == Token::Eof {
                return out;
            }
            out.push((t.token, t.line, t.column));
        }
    }

    #[test]
    fn positions() {
        let toks = tokens("[Event \"a\\\"b\"]\n1. e4 {x\ny} e5!? $14 (1... d5) ; rest\n% skip\n*");
        assert_eq!(toks[0], (Token::OpenBracket, 1, 1));
        assert_eq!(toks[1], (Token::Symbol("Event".into()), 1, 2));
        assert_eq!(toks[2], (Token::Str("a\"b".into()), 1, 8));
        assert_eq!(toks[4], (Token::Symbol("1".into()), 2, 1));
        assert_eq!(toks[5], (Token::Period, 2, 2));
        assert_eq!(toks[6], (Token::Symbol("e4".into()), 2, 4));
        assert_eq!(toks[7], (Token::Comment("x y".into()), 2, 7));
        assert_eq!(toks[8], (Token::Symbol("e5".into()), 3, 4));
        assert_eq!(toks[9], (Token::Nag(5), 3, 6));
        assert_eq!(toks[10], (Token::Nag(14), 3, 9));
        assert_eq!(toks.last().unwrap(), &(Token::Star, 5, 1));
    }

    #[test]
    fn unicode_columns() {
        let mut lexer = Lexer::new("{é} ü e4".as_bytes());
        assert_eq!(
            lexer.next_token().unwrap().token,
            Token::Comment("é".into())
        );
        let err = lexer.next_token().unwrap_err();
        assert_eq!((err.line, err.column), (1, 5));
        assert_eq!(err.kind, PgnErrorKind::UnexpectedChar('ü'));
        assert_eq!(lexer.next_token().unwrap().column, 7);
    }
}
