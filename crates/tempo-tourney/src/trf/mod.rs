//! TRF16 and TRF-2026 (FIDE's Tournament Report File), JaVaFo's `XX?` and
//! bbpPairings' `BB?` lines, and tempo's own `XT?` extension lines.
//!
//! Reading keeps a record of every line, so that writing an unchanged
//! tournament gives back the very same bytes (line endings and unknown lines
//! included). Changed or new items are written in TRF's fixed columns.
//!
//! ```
//! use tempo_tourney::Tournament;
//! let text = "012 Club Championship\r\
//! 001    1      Smith, Ann                        1800                             1.0    1     2 w 1\r\
//! 001    2      Jones, Bob                        1700                             0.0    2     1 b 0\r";
//! let t = Tournament::from_trf_str(text).unwrap();
//! assert_eq!(t.name(), Some("Club Championship"));
//! assert_eq!(t.score(1).to_string(), "1.0");
//! assert_eq!(t.to_trf().unwrap(), text);
//! ```
//!
//! The extension lines (documented in `docs/trf-extension.md`):
//!
//! | line | meaning |
//! |---|---|
//! | `XTA k rrr iiii iiii ...` | absence kind `k` (`E` excused, `U` unexcused, `C` club duty) in round `rrr` |
//! | `XTW iiii rrr` | player `iiii` withdrew after round `rrr` |
//! | `XTL iiii rrr` | player `iiii` entered late, first round `rrr` |
//! | `XTC iiii club` | player's club |
//! | `XTK key value` | a Keizer setting |
//! | `XT9 seed S` / `XT9 round R N` | Chess960: seed, and position `N` of round `R` |

mod consistency;
mod read;
mod write;

use std::fmt;

use tempo_chess::Color;

use crate::Tournament;
use crate::model::{
    Absence, Acceleration, ByeRequest, ForbiddenPairs, InfoLine, LateEntry, Player, PlayerId,
    Withdrawal,
};
use crate::points::PointSystem;

pub use consistency::{ConsistencyError, ConsistencyWarning, MissingResult, round_columns};
pub use read::read;
pub use write::write;

/// How lines end.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum LineEnding {
    /// `\r`, as the TRF standard says.
    Cr,
    /// `\n`.
    Lf,
    /// `\r\n` (default for new files: the standard's CR, readable everywhere).
    #[default]
    CrLf,
}

impl LineEnding {
    /// The characters.
    pub(crate) fn as_str(self) -> &'static str {
        match self {
            LineEnding::Cr => "\r",
            LineEnding::Lf => "\n",
            LineEnding::CrLf => "\r\n",
        }
    }
}

/// The text encoding a file was read in (TRF files from older programs are
/// often Latin-1).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Encoding {
    #[default]
    Utf8,
    Latin1,
}

/// What a TRF line could not say.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ParseErrorKind {
    #[error("{field} field '{text}' is not a number")]
    NotANumber { field: &'static str, text: String },
    #[error("{field} field '{text}' is not a number of points")]
    NotPoints { field: &'static str, text: String },
    #[error("{field} field is missing")]
    Missing { field: &'static str },
    #[error("'{0}' is not a colour (w, b, - or blank)")]
    BadColour(char),
    #[error("'{0}' is not a result code (1 = 0 + - W D L H F U Z or blank)")]
    BadResult(char),
    #[error("'{0}' is not a bye kind (F, H or Z)")]
    BadByeKind(char),
    #[error("'{0}' is not an absence kind (E, U or C)")]
    BadAbsenceKind(char),
    #[error("'{0}' is not a point-system code (W D L A P X)")]
    BadPointCode(char),
    #[error("'{0}' is not an initial colour (W or B)")]
    BadInitialColour(String),
    #[error("player {0} plays against itself")]
    SelfPairing(PlayerId),
    #[error("starting rank {0} appears twice")]
    DuplicatePlayer(PlayerId),
    #[error("unexpected text '{0}'")]
    Unexpected(String),
    #[error("'{0}' where a blank separator belongs (are the columns shifted?)")]
    NotBlank(char),
    #[error("{0}")]
    Invalid(String),
}

/// A TRF reading error, naming the line and (where it can) the columns.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParseError {
    /// 1-based line number.
    pub line: usize,
    /// 1-based first and last column of the field.
    pub columns: Option<(usize, usize)>,
    pub kind: ParseErrorKind,
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.columns {
            Some((a, b)) if a == b => write!(f, "line {}, column {a}: {}", self.line, self.kind),
            Some((a, b)) => write!(f, "line {}, columns {a}-{b}: {}", self.line, self.kind),
            None => write!(f, "line {}: {}", self.line, self.kind),
        }
    }
}

impl std::error::Error for ParseError {}

/// Why a tournament cannot be written as TRF.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum WriteError {
    #[error("player {player}: {field} '{value}' does not fit in {width} columns")]
    TooWide {
        player: PlayerId,
        field: &'static str,
        value: String,
        width: usize,
    },
    #[error("record {record}: {field} '{value}' does not fit in {width} columns")]
    FieldTooWide {
        record: &'static str,
        field: &'static str,
        value: String,
        width: usize,
    },
    #[error("{0} cannot be written in {1}")]
    NotEncodable(char, &'static str),
}

/// Which syntax a line used, so a changed value is written the same way.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Syntax {
    /// TRF-2026 (`142`, `152`, `162`).
    Trf2026,
    /// JaVaFo (`XXR`, `XXC` with extra tokens kept).
    JaVaFo(Vec<String>),
    /// bbpPairings (`BBW`, `BBD`, ... : the letter after `BB`).
    Bbp(char),
}

/// What one line of the original file held, with the value it had then.
#[derive(Debug, Clone)]
pub(crate) enum SlotKind {
    Verbatim,
    Info(usize, InfoLine),
    Player(usize, Box<Player>),
    TotalRounds(Syntax, Option<u32>),
    InitialColour(Syntax, Option<Color>),
    PointSystem(Syntax, PointSystem),
    ByeRequest(usize, ByeRequest),
    Acceleration(usize, Acceleration),
    Forbidden(usize, ForbiddenPairs),
    Absence(usize, Absence),
    Withdrawal(usize, Withdrawal),
    LateEntry(usize, LateEntry),
    Club(PlayerId, Option<String>),
    Keizer(usize, (String, String)),
    Chess960Seed(Option<u64>),
    Chess960Position(usize, (u32, u16)),
}

#[derive(Debug, Clone)]
pub(crate) struct Slot {
    pub raw: String,
    pub kind: SlotKind,
}

/// The shape of the file a tournament was read from.
#[derive(Debug, Clone)]
pub(crate) struct Layout {
    pub slots: Vec<Slot>,
    pub line_ending: LineEnding,
    pub final_line_ending: bool,
    pub encoding: Encoding,
    pub byte_order_mark: bool,
}

impl Default for Layout {
    fn default() -> Layout {
        Layout {
            slots: Vec::new(),
            line_ending: LineEnding::default(),
            final_line_ending: true,
            encoding: Encoding::default(),
            byte_order_mark: false,
        }
    }
}

impl Tournament {
    /// Reads a TRF file's text.
    pub fn from_trf_str(text: &str) -> Result<Tournament, ParseError> {
        read::read_str(text, Encoding::Utf8)
    }

    /// Reads a TRF file's bytes (UTF-8, or Latin-1 if not valid UTF-8).
    pub fn from_trf_bytes(bytes: &[u8]) -> Result<Tournament, ParseError> {
        read(bytes)
    }

    /// Writes the tournament as TRF text; an unchanged tournament gives back
    /// the text it was read from.
    pub fn to_trf(&self) -> Result<String, WriteError> {
        write::write_string(self, false)
    }

    /// Writes every modelled line afresh in TRF's columns (unknown lines,
    /// comments and blank lines are still kept).
    pub fn to_trf_canonical(&self) -> Result<String, WriteError> {
        write::write_string(self, true)
    }

    /// The edition of FIDE's tie-break rules the file asks for, from
    /// tempo's extension line `XTE 2023` or `XTE 2026` (C.07 in force since
    /// 1 March 2026); `None` without such a line.
    pub fn tiebreak_edition(&self) -> Result<Option<crate::tiebreak::UnplayedRule>, ParseError> {
        use crate::tiebreak::UnplayedRule;
        let mut edition = None;
        for (index, slot) in self.layout.slots.iter().enumerate() {
            let Some(value) = slot.raw.strip_prefix("XTE") else {
                continue;
            };
            edition = Some(match value.trim() {
                "2023" | "2024" => UnplayedRule::Fide2023,
                "2026" => UnplayedRule::Fide2026,
                other => {
                    return Err(ParseError {
                        line: index + 1,
                        columns: Some((5, 4 + other.len().max(1))),
                        kind: ParseErrorKind::Invalid(format!(
                            "tie-break edition '{other}' is not 2023 or 2026"
                        )),
                    });
                }
            });
        }
        Ok(edition)
    }

    /// The line ending used when writing (the input's, or CR LF for new
    /// tournaments).
    pub fn line_ending(&self) -> LineEnding {
        self.layout.line_ending
    }

    /// Sets the line ending used when writing.
    pub fn set_line_ending(&mut self, ending: LineEnding) {
        self.layout.line_ending = ending;
        self.layout.final_line_ending = true;
    }

    /// The encoding the file was read in (also used when writing bytes).
    pub fn encoding(&self) -> Encoding {
        self.layout.encoding
    }
}
