//! Reading PGN: one game per iteration, streamed from a `BufRead`.

use std::io::BufRead;

use super::lexer::{Lexer, Spanned, Token};
use super::{PgnError, PgnErrorKind, PgnGame, PgnMove, PgnWarning, Tags, Variation};
use crate::{Color, FenErrorKind, Position, san};

/// Reads games one by one from `src`. Each item is one game or the first
/// error found in it (the reader then skips to the next game). An I/O
/// error ends the iteration after being reported.
///
/// ```
/// use tempo_chess::pgn::Reader;
///
/// let text = "1. e4 e5 1-0\n\n1. e4 e5 2. Ke3 *\n\n1. f3 e5 2. g4 Qh4# 0-1\n";
/// let results: Vec<_> = Reader::new(text.as_bytes()).collect();
/// assert_eq!(results.len(), 3);
/// let err = results[1].as_ref().unwrap_err();
/// assert_eq!((err.line, err.column), (3, 13));
/// assert!(results[2].is_ok());
/// ```
pub struct Reader<R> {
    lexer: Lexer<R>,
    pending: Option<Spanned>,
    done: bool,
}

/// All games of `text` (each a game or its first error).
pub fn read_games(text: &str) -> Vec<Result<PgnGame, PgnError>> {
    Reader::new(text.as_bytes()).collect()
}

/// The first game of `text`. An input without any game is an error.
pub fn read_game(text: &str) -> Result<PgnGame, PgnError> {
    Reader::new(text.as_bytes()).next().unwrap_or_else(|| {
        Err(PgnError {
            line: 1,
            column: 1,
            kind: PgnErrorKind::Unexpected {
                expected: "a game",
                found: "end of input".into(),
            },
        })
    })
}

impl<R: BufRead> Reader<R> {
    pub fn new(src: R) -> Reader<R> {
        Reader {
            lexer: Lexer::new(src),
            pending: None,
            done: false,
        }
    }

    fn next_token(&mut self) -> Result<Spanned, PgnError> {
        match self.pending.take() {
            Some(token) => Ok(token),
            None => self.lexer.next_token(),
        }
    }
}

impl<R: BufRead> Iterator for Reader<R> {
    type Item = Result<PgnGame, PgnError>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.done {
            return None;
        }
        let mut builder = Builder::default();
        let mut error: Option<PgnError> = None;
        let mut started = false;
        loop {
            let tok = match self.next_token() {
                Ok(tok) => tok,
                Err(err) => {
                    started = true;
                    let fatal = matches!(err.kind, PgnErrorKind::Io(_));
                    if error.is_none() {
                        builder.start_skipping(false);
                    }
                    error.get_or_insert(err);
                    if fatal {
                        self.done = true;
                        break;
                    }
                    continue;
                }
            };
            if tok.token == Token::Eof {
                self.done = true;
                break;
            }
            if tok.token == Token::OpenBracket && builder.movetext_seen && !builder.in_tag {
                self.pending = Some(tok);
                break;
            }
            // Comments before any tag or move belong to no game yet.
            if !started && matches!(tok.token, Token::Comment(_)) {
                continue;
            }
            started = true;
            if error.is_some() {
                if builder.skip_token(&tok.token) {
                    break;
                }
                continue;
            }
            let opens_tag = tok.token == Token::OpenBracket;
            match builder.feed(tok) {
                Ok(true) => break,
                Ok(false) => {}
                Err(err) => {
                    builder.start_skipping(opens_tag);
                    error = Some(err);
                }
            }
        }
        if !started {
            return None;
        }
        if let Some(err) = error {
            return Some(Err(err));
        }
        Some(builder.finish())
    }
}

/// Where the reader is inside a tag pair.
#[derive(Debug, Default)]
enum TagState {
    #[default]
    Outside,
    Open,
    Name(String),
    Value(String, String, usize, usize),
}

/// A line of moves being read: the main line or an open variation.
struct Line {
    /// Where its '(' stands.
    at: (usize, usize),
    /// Comments before its first move.
    comments: Vec<String>,
    moves: Vec<PgnMove>,
    /// The position after its moves.
    position: Position,
    /// The position before its last move (where a variation starts).
    before_last: Option<Position>,
}

impl Line {
    fn new(at: (usize, usize), position: Position) -> Line {
        Line {
            at,
            comments: Vec::new(),
            moves: Vec::new(),
            position,
            before_last: None,
        }
    }
}

/// Collects one game while its tokens arrive.
#[derive(Default)]
struct Builder {
    tags: Tags,
    /// Where the FEN and Variant tag values start (for errors).
    fen_at: (usize, usize),
    variant_at: (usize, usize),
    tag: TagState,
    in_tag: bool,
    movetext_seen: bool,
    start: Option<Position>,
    /// Comments before the first move.
    comments: Vec<String>,
    warnings: Vec<PgnWarning>,
    /// The main line, then the open variations (innermost last).
    lines: Vec<Line>,
    result: Option<String>,
    /// Where the game's last token was (for errors at the end).
    last_at: (usize, usize),
}

fn found(token: &Token) -> String {
    match token {
        Token::OpenBracket => "'['".into(),
        Token::CloseBracket => "']'".into(),
        Token::OpenParen => "'('".into(),
        Token::CloseParen => "')'".into(),
        Token::Period => "'.'".into(),
        Token::Star => "'*'".into(),
        Token::Str(s) => format!("string \"{s}\""),
        Token::Symbol(s) => format!("'{s}'"),
        Token::Nag(n) => format!("NAG ${n}"),
        Token::Comment(_) => "a comment".into(),
        Token::Eof => "end of input".into(),
    }
}

/// How deep variations may nest: far beyond any annotated game, and shallow
/// enough that the recursive game tree is built, compared and dropped
/// without exhausting the stack.
pub const MAX_VARIATION_DEPTH: usize = 100;

fn is_result(symbol: &str) -> bool {
    matches!(symbol, "1-0" | "0-1" | "1/2-1/2")
}

/// The variants read as orthodox chess or Chess960 (lower case).
fn variant_is_chess960(value: &str) -> Option<bool> {
    let v = value.trim().to_ascii_lowercase();
    match v.as_str() {
        "" | "standard" | "chess" | "normal" | "orthodox" | "from position" | "fromposition" => {
            Some(false)
        }
        "chess960"
        | "chess 960"
        | "chess-960"
        | "960"
        | "fischerandom"
        | "fischer random"
        | "fischerrandom"
        | "fischer random chess"
        | "fischer-random"
        | "frc" => Some(true),
        _ => None,
    }
}

impl Builder {
    fn error(line: usize, column: usize, kind: PgnErrorKind) -> PgnError {
        PgnError { line, column, kind }
    }

    /// After an error: the rest of the game is only followed for its
    /// structure. `in_tag` says whether the erroneous token opened a tag.
    fn start_skipping(&mut self, in_tag: bool) {
        self.in_tag = in_tag;
        self.tag = TagState::Outside;
    }

    /// Follows the structure while skipping an erroneous game; true when
    /// the game's end (its result) was consumed.
    fn skip_token(&mut self, token: &Token) -> bool {
        match token {
            Token::OpenBracket if !self.movetext_seen => self.in_tag = true,
            Token::CloseBracket => self.in_tag = false,
            Token::Str(_) => {}
            Token::Symbol(s) if !self.in_tag && is_result(s) => return true,
            Token::Star if !self.in_tag => return true,
            _ if !self.in_tag => self.movetext_seen = true,
            _ => {}
        }
        false
    }

    /// Takes one token; true when the game is complete.
    fn feed(&mut self, tok: Spanned) -> Result<bool, PgnError> {
        let Spanned {
            token,
            line,
            column,
        } = tok;
        self.last_at = (line, column);
        let unexpected = |expected: &'static str, token: &Token| {
            Builder::error(
                line,
                column,
                PgnErrorKind::Unexpected {
                    expected,
                    found: found(token),
                },
            )
        };
        match std::mem::take(&mut self.tag) {
            TagState::Outside => {}
            TagState::Open => {
                return match token {
                    Token::Symbol(name) => {
                        self.tag = TagState::Name(name);
                        Ok(false)
                    }
                    other => Err(unexpected("a tag name", &other)),
                };
            }
            TagState::Name(name) => {
                return match token {
                    Token::Str(value) => {
                        self.tag = TagState::Value(name, value, line, column);
                        Ok(false)
                    }
                    other => Err(unexpected("a tag value in quotes", &other)),
                };
            }
            TagState::Value(name, value, vline, vcolumn) => {
                return match token {
                    Token::CloseBracket => {
                        self.in_tag = false;
                        match name.as_str() {
                            "FEN" => self.fen_at = (vline, vcolumn),
                            "Variant" => self.variant_at = (vline, vcolumn),
                            _ => {}
                        }
                        self.tags.set(&name, &value);
                        Ok(false)
                    }
                    other => Err(unexpected("']' after the tag value", &other)),
                };
            }
        }
        match token {
            Token::OpenBracket => {
                // (After movetext the reader ends the game before this.)
                self.in_tag = true;
                self.tag = TagState::Open;
                Ok(false)
            }
            Token::Comment(text) => {
                let main = self.lines.len() <= 1;
                match self.lines.last_mut() {
                    Some(line) => match line.moves.last_mut() {
                        Some(last) => last.comments.push(text),
                        None if main => self.comments.push(text),
                        None => line.comments.push(text),
                    },
                    None => self.comments.push(text),
                }
                Ok(false)
            }
            Token::Eof => Ok(true),
            other => {
                self.movetext_seen = true;
                self.start_position()?;
                self.movetext(other, line, column)
            }
        }
    }

    /// Builds the start position from the tags (once).
    fn start_position(&mut self) -> Result<(), PgnError> {
        if !self.lines.is_empty() {
            return Ok(());
        }
        let chess960 = match self.tags.get("Variant") {
            None => false,
            Some(value) => variant_is_chess960(value).ok_or_else(|| {
                let (line, column) = self.variant_at;
                Builder::error(
                    line,
                    column,
                    PgnErrorKind::UnsupportedVariant(value.to_string()),
                )
            })?,
        };
        let mut pos = match self.tags.get("FEN") {
            None => Position::new(),
            Some(fen) => {
                let (pos, dropped) = position_from_fen_tag(fen).map_err(|err| {
                    let (line, column) = self.fen_at;
                    // Point at the offending character inside the quoted value.
                    Builder::error(line, column + err.column, PgnErrorKind::Fen(err))
                })?;
                let (line, column) = self.fen_at;
                self.warnings.extend(dropped.into_iter().map(|right| {
                    PgnWarning::DroppedCastlingRight {
                        line,
                        column,
                        right,
                    }
                }));
                pos
            }
        };
        if chess960 {
            pos.set_chess960(true);
        }
        if let Err(err) = pos.validate() {
            let (line, column) = self.fen_at;
            return Err(Builder::error(
                line,
                column,
                PgnErrorKind::InvalidPosition(err),
            ));
        }
        self.start = Some(pos.clone());
        self.lines.push(Line::new((0, 0), pos));
        Ok(())
    }

    fn top(&mut self) -> &mut Line {
        self.lines.last_mut().expect("start_position ran")
    }

    fn movetext(&mut self, token: Token, line: usize, column: usize) -> Result<bool, PgnError> {
        let error = |kind| Builder::error(line, column, kind);
        match token {
            Token::Period => Ok(false),
            Token::Star => self.result("*", line, column),
            Token::Symbol(s) if is_result(&s) => self.result(&s, line, column),
            Token::Symbol(s) if s.bytes().all(|b| b.is_ascii_digit()) => Ok(false),
            Token::Symbol(s) => self.play(&s, line, column).map(|()| false),
            Token::Nag(nag) => {
                if let Some(last) = self.top().moves.last_mut() {
                    last.nags.push(nag);
                }
                Ok(false)
            }
            Token::OpenParen => {
                let Some(before) = self.top().before_last.clone() else {
                    return Err(error(PgnErrorKind::VariationWithoutMove));
                };
                if self.lines.len() > MAX_VARIATION_DEPTH {
                    return Err(error(PgnErrorKind::VariationTooDeep));
                }
                self.lines.push(Line::new((line, column), before));
                Ok(false)
            }
            Token::CloseParen => {
                if self.lines.len() <= 1 {
                    return Err(error(PgnErrorKind::UnmatchedParenthesis));
                }
                let done = self.lines.pop().expect("an open variation");
                let variation = Variation {
                    comments: done.comments,
                    moves: done.moves,
                };
                self.top()
                    .moves
                    .last_mut()
                    .expect("a variation opens after a move")
                    .variations
                    .push(variation);
                Ok(false)
            }
            other => Err(error(PgnErrorKind::Unexpected {
                expected: "a move, comment or result",
                found: found(&other),
            })),
        }
    }

    fn result(&mut self, result: &str, line: usize, column: usize) -> Result<bool, PgnError> {
        if self.lines.len() > 1 {
            return Err(Builder::error(
                line,
                column,
                PgnErrorKind::ResultInVariation(result.to_string()),
            ));
        }
        self.result = Some(result.to_string());
        Ok(true)
    }

    fn play(&mut self, text: &str, line: usize, column: usize) -> Result<(), PgnError> {
        let top = self.top();
        let pos = &top.position;
        let side = match pos.turn() {
            Color::White => "White",
            Color::Black => "Black",
        };
        let number = format!("{}, {side}", pos.fullmove_number());
        if matches!(text, "--" | "Z0" | "0000" | "@@@@") {
            return Err(Builder::error(
                line,
                column,
                PgnErrorKind::NullMove(text.to_string()),
            ));
        }
        // python-chess and lichess also read UCI moves (`g1f3`) in movetext.
        let mv = match san::parse(pos, text) {
            Ok(mv) => mv,
            Err(error) => crate::uci::parse(pos, text)
                .map_err(|_| Builder::error(line, column, PgnErrorKind::Move { number, error }))?,
        };
        top.before_last = Some(top.position.clone());
        top.position.play(mv);
        top.moves.push(PgnMove::new(mv));
        Ok(())
    }

    fn finish(mut self) -> Result<PgnGame, PgnError> {
        if let Some(open) = self.lines.get(1) {
            let (line, column) = open.at;
            return Err(Builder::error(
                line,
                column,
                PgnErrorKind::UnclosedVariation { line, column },
            ));
        }
        if !matches!(self.tag, TagState::Outside) {
            let (line, column) = self.last_at;
            return Err(Builder::error(
                line,
                column,
                PgnErrorKind::Unexpected {
                    expected: "the rest of the tag pair",
                    found: "end of input".into(),
                },
            ));
        }
        self.start_position()?;
        let result = self
            .result
            .or_else(|| self.tags.get("Result").map(str::to_string))
            .filter(|r| is_result(r) || r == "*")
            .unwrap_or_else(|| "*".to_string());
        Ok(PgnGame {
            tags: self.tags,
            start: self.start.expect("start_position ran"),
            comments: self.comments,
            moves: self.lines.pop().map(|main| main.moves).unwrap_or_default(),
            result,
            warnings: self.warnings,
        })
    }
}

/// Reads a FEN tag as python-chess and lichess do: a castling right that no
/// king and rook support is dropped (and returned) instead of refusing the
/// game.
fn position_from_fen_tag(fen: &str) -> Result<(Position, Vec<char>), crate::FenError> {
    let mut fen = fen.trim().to_string();
    let mut dropped = Vec::new();
    loop {
        match Position::from_fen(&fen) {
            Ok(pos) => return Ok((pos, dropped)),
            Err(err) => match err.kind {
                FenErrorKind::NoCastlingRook(right) | FenErrorKind::NoCastlingKing(right)
                    if dropped.len() < 4 =>
                {
                    fen = without_castling_right(&fen, right);
                    dropped.push(right);
                }
                _ => return Err(err),
            },
        }
    }
}

/// `fen` with the castling letter `right` removed from its third field.
fn without_castling_right(fen: &str, right: char) -> String {
    let mut fields: Vec<String> = fen.split_whitespace().map(str::to_string).collect();
    if let Some(castling) = fields.get_mut(2) {
        let kept: String = castling.chars().filter(|&c| c != right).collect();
        *castling = if kept.is_empty() {
            "-".to_string()
        } else {
            kept
        };
    }
    fields.join(" ")
}
