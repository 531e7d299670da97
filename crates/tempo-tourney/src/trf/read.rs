//! Reading TRF text into a [`Tournament`], line by line.

use std::str::FromStr;

use tempo_chess::Color;

use super::{Encoding, LineEnding, ParseError, ParseErrorKind as K, Slot, SlotKind, Syntax};
use crate::Tournament;
use crate::model::{
    Absence, AbsenceKind, Acceleration, ByeKind, ByeRequest, Chess960Rounds, ForbiddenPairs,
    InfoLine, LateEntry, Player, PlayerId, ResultCode, RoundEntry, Withdrawal,
};
use crate::points::{PointSystem, Points};

/// Reads TRF bytes: UTF-8, or Latin-1 when the bytes are not valid UTF-8.
pub fn read(bytes: &[u8]) -> Result<Tournament, ParseError> {
    match std::str::from_utf8(bytes) {
        Ok(text) => read_str(text, Encoding::Utf8),
        Err(_) => {
            let text: String = bytes.iter().map(|&b| char::from(b)).collect();
            read_str(&text, Encoding::Latin1)
        }
    }
}

/// Splits text into lines, accepting CR, LF and CR LF; returns the lines,
/// the first line ending seen and whether the text ends with one.
fn split_lines(text: &str) -> (Vec<&str>, Option<LineEnding>, bool) {
    let mut lines = Vec::new();
    let mut first_ending = None;
    let bytes = text.as_bytes();
    let mut start = 0;
    let mut i = 0;
    while i < bytes.len() {
        let ending = match bytes[i] {
            b'\r' if bytes.get(i + 1) == Some(&b'\n') => Some((LineEnding::CrLf, 2)),
            b'\r' => Some((LineEnding::Cr, 1)),
            b'\n' => Some((LineEnding::Lf, 1)),
            _ => None,
        };
        match ending {
            Some((kind, len)) => {
                lines.push(&text[start..i]);
                first_ending.get_or_insert(kind);
                i += len;
                start = i;
            }
            None => i += 1,
        }
    }
    let ends_with_newline = start == bytes.len() && !bytes.is_empty();
    if start < bytes.len() {
        lines.push(&text[start..]);
    }
    (lines, first_ending, ends_with_newline)
}

pub(crate) fn read_str(text: &str, encoding: Encoding) -> Result<Tournament, ParseError> {
    let byte_order_mark = text.starts_with('\u{feff}');
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let (lines, ending, final_line_ending) = split_lines(text);
    let mut t = Tournament::new();
    t.layout.byte_order_mark = byte_order_mark;
    t.layout.encoding = encoding;
    t.layout.line_ending = ending.unwrap_or_default();
    t.layout.final_line_ending = final_line_ending;
    for (index, raw) in lines.into_iter().enumerate() {
        let line = Line::new(raw, index + 1);
        let kind = read_line(&mut t, &line)?;
        t.layout.slots.push(Slot {
            raw: raw.to_string(),
            kind,
        });
    }
    // Settings that several lines can set (142 and XXR, 162 and BB?) are
    // compared with the value the whole file gave them.
    let (rounds, colour, points) = (t.total_rounds, t.initial_colour, t.point_system);
    for slot in &mut t.layout.slots {
        match &mut slot.kind {
            SlotKind::TotalRounds(_, old) => *old = rounds,
            SlotKind::InitialColour(_, old) => *old = colour,
            SlotKind::PointSystem(_, old) => *old = points,
            _ => {}
        }
    }
    Ok(t)
}

/// One line with 1-based column access (columns count characters).
pub(crate) struct Line {
    chars: Vec<char>,
    number: usize,
}

impl Line {
    fn new(raw: &str, number: usize) -> Line {
        Line {
            chars: raw.chars().collect(),
            number,
        }
    }

    fn len(&self) -> usize {
        self.chars.len()
    }

    fn tag(&self) -> String {
        self.chars.iter().take(3).collect()
    }

    /// Columns `first..=last` (1-based), shorter if the line is.
    fn field(&self, first: usize, last: usize) -> String {
        let from = (first - 1).min(self.len());
        let to = last.min(self.len());
        self.chars[from..to].iter().collect()
    }

    fn char_at(&self, column: usize) -> char {
        self.chars.get(column - 1).copied().unwrap_or(' ')
    }

    /// Everything from column `first` on.
    fn rest(&self, first: usize) -> String {
        self.chars.iter().skip(first - 1).collect()
    }

    fn err(&self, columns: Option<(usize, usize)>, kind: K) -> ParseError {
        ParseError {
            line: self.number,
            columns,
            kind,
        }
    }

    fn optional_text(&self, first: usize, last: usize) -> Option<String> {
        let text = self.field(first, last);
        let trimmed = text.trim();
        (!trimmed.is_empty()).then(|| trimmed.to_string())
    }

    /// A number in fixed columns; blank gives `None`.
    fn number<T: FromStr>(
        &self,
        first: usize,
        last: usize,
        field: &'static str,
    ) -> Result<Option<T>, ParseError> {
        self.parsed(first, last, |text| K::NotANumber { field, text })
    }

    /// A non-blank field parsed as `T`; a parse failure becomes the error
    /// kind `kind` makes of the field's text.
    fn parsed<T: FromStr>(
        &self,
        first: usize,
        last: usize,
        kind: impl FnOnce(String) -> K,
    ) -> Result<Option<T>, ParseError> {
        let text = self.field(first, last);
        let trimmed = text.trim();
        if trimmed.is_empty() {
            return Ok(None);
        }
        trimmed
            .parse()
            .map(Some)
            .map_err(|_| self.err(Some((first, last)), kind(trimmed.to_string())))
    }

    fn required<T: FromStr>(
        &self,
        first: usize,
        last: usize,
        field: &'static str,
    ) -> Result<T, ParseError> {
        self.number(first, last, field)?
            .ok_or_else(|| self.err(Some((first, last)), K::Missing { field }))
    }

    fn points(
        &self,
        first: usize,
        last: usize,
        field: &'static str,
    ) -> Result<Option<Points>, ParseError> {
        self.parsed(first, last, |text| K::NotPoints { field, text })
    }

    /// Whitespace-separated tokens after the tag, with their start columns.
    fn tokens(&self) -> Vec<(usize, String)> {
        let mut out = Vec::new();
        let mut current = String::new();
        let mut start = 0;
        for (i, &c) in self.chars.iter().enumerate().skip(3) {
            if c.is_whitespace() {
                if !current.is_empty() {
                    out.push((start, std::mem::take(&mut current)));
                }
            } else {
                if current.is_empty() {
                    start = i + 1;
                }
                current.push(c);
            }
        }
        if !current.is_empty() {
            out.push((start, current));
        }
        out
    }

    fn token_number<T: FromStr>(
        &self,
        token: Option<&(usize, String)>,
        field: &'static str,
    ) -> Result<T, ParseError> {
        let (column, text) = token.ok_or_else(|| self.err(None, K::Missing { field }))?;
        text.parse().map_err(|_| {
            self.err(
                Some((*column, column + text.chars().count() - 1)),
                K::NotANumber {
                    field,
                    text: text.clone(),
                },
            )
        })
    }

    /// Player ids in 4-column fields starting at `first`, every 5 columns.
    fn id_list(&self, first: usize) -> Result<Vec<PlayerId>, ParseError> {
        let mut ids = Vec::new();
        let mut column = first;
        while column <= self.len() {
            if let Some(id) = self.number::<PlayerId>(column, column + 3, "player id")? {
                ids.push(id);
            }
            column += 5;
        }
        Ok(ids)
    }
}

fn read_line(t: &mut Tournament, line: &Line) -> Result<SlotKind, ParseError> {
    if line.len() < 3 {
        return Ok(SlotKind::Verbatim);
    }
    let tag = line.tag();
    Ok(match tag.as_str() {
        "001" => {
            let player = read_player(line)?;
            if t.players.iter().any(|p| p.id == player.id) {
                return Err(line.err(Some((5, 8)), K::DuplicatePlayer(player.id)));
            }
            t.players.push(player.clone());
            SlotKind::Player(t.players.len() - 1, Box::new(player))
        }
        "142" | "XXR" => {
            let tokens = line.tokens();
            let n: u32 = line.token_number(tokens.first(), "number of rounds")?;
            if let Some((col, text)) = tokens.get(1) {
                return Err(line.err(Some((*col, *col)), K::Unexpected(text.clone())));
            }
            t.total_rounds = Some(n);
            let syntax = if tag == "142" {
                Syntax::Trf2026
            } else {
                Syntax::JaVaFo(Vec::new())
            };
            SlotKind::TotalRounds(syntax, t.total_rounds)
        }
        "152" => {
            let text = line.rest(5);
            t.initial_colour = Some(match text.trim().to_ascii_uppercase().as_str() {
                "W" => Color::White,
                "B" => Color::Black,
                _ => {
                    return Err(line.err(
                        Some((5, line.len().max(5))),
                        K::BadInitialColour(text.trim().to_string()),
                    ));
                }
            });
            SlotKind::InitialColour(Syntax::Trf2026, t.initial_colour)
        }
        "XXC" => {
            let mut extra = Vec::new();
            for (_, token) in line.tokens() {
                match token.to_ascii_lowercase().as_str() {
                    "white1" => t.initial_colour = Some(Color::White),
                    "black1" => t.initial_colour = Some(Color::Black),
                    _ => extra.push(token),
                }
            }
            SlotKind::InitialColour(Syntax::JaVaFo(extra), t.initial_colour)
        }
        "162" => {
            read_point_system(line, &mut t.point_system)?;
            SlotKind::PointSystem(Syntax::Trf2026, t.point_system)
        }
        "BBW" | "BBD" | "BBL" | "BBZ" | "BBF" | "BBU" => {
            let value = line
                .points(5, line.len().max(5), "points")?
                .ok_or_else(|| line.err(Some((5, 8)), K::Missing { field: "points" }))?;
            let letter = line.char_at(3);
            let s = &mut t.point_system;
            match letter {
                'W' => s.win = value,
                'D' => s.draw = value,
                'L' => s.loss = value,
                'Z' => s.zero_bye = value,
                'F' => s.forfeit_loss = value,
                _ => s.pairing_bye = Some(value),
            }
            SlotKind::PointSystem(Syntax::Bbp(letter), t.point_system)
        }
        "240" => {
            let kind = match line.char_at(5).to_ascii_uppercase() {
                'F' => ByeKind::FullPoint,
                'H' => ByeKind::HalfPoint,
                'Z' => ByeKind::ZeroPoint,
                c => return Err(line.err(Some((5, 5)), K::BadByeKind(c))),
            };
            let round = line.required(7, 9, "round")?;
            let players = line.id_list(11)?;
            t.bye_requests.push(ByeRequest {
                kind,
                round,
                players,
            });
            let i = t.bye_requests.len() - 1;
            SlotKind::ByeRequest(i, t.bye_requests[i].clone())
        }
        "250" => {
            let acc = Acceleration::Range {
                match_points: line.points(5, 8, "match points")?,
                points: line
                    .points(10, 13, "points")?
                    .ok_or_else(|| line.err(Some((10, 13)), K::Missing { field: "points" }))?,
                first_round: line.required(15, 17, "first round")?,
                last_round: line.required(19, 21, "last round")?,
                first_player: line.required(23, 26, "first player")?,
                last_player: line.required(28, 31, "last player")?,
            };
            t.accelerations.push(acc);
            let i = t.accelerations.len() - 1;
            SlotKind::Acceleration(i, t.accelerations[i].clone())
        }
        "XXA" => {
            let player = line.required(5, 8, "player id")?;
            let mut points = Vec::new();
            let mut column = 10;
            while column <= line.len() {
                points.push(
                    line.points(column, column + 3, "points")?
                        .unwrap_or_default(),
                );
                column += 5;
            }
            t.accelerations
                .push(Acceleration::PerRound { player, points });
            let i = t.accelerations.len() - 1;
            SlotKind::Acceleration(i, t.accelerations[i].clone())
        }
        "260" => {
            let first: u32 = line.required(5, 7, "first round")?;
            let last: u32 = line.required(9, 11, "last round")?;
            let players = line.id_list(13)?;
            t.forbidden_pairs.push(ForbiddenPairs {
                rounds: Some((first, last)),
                players,
            });
            let i = t.forbidden_pairs.len() - 1;
            SlotKind::Forbidden(i, t.forbidden_pairs[i].clone())
        }
        "XXP" => {
            let tokens = line.tokens();
            let players = tokens
                .iter()
                .map(|tok| line.token_number(Some(tok), "player id"))
                .collect::<Result<Vec<PlayerId>, _>>()?;
            t.forbidden_pairs.push(ForbiddenPairs {
                rounds: None,
                players,
            });
            let i = t.forbidden_pairs.len() - 1;
            SlotKind::Forbidden(i, t.forbidden_pairs[i].clone())
        }
        "XTA" | "XTW" | "XTL" | "XTC" | "XTK" | "XT9" => read_extension(t, line, &tag)?,
        _ if tag.len() == 3 && tag.ends_with('2') && tag.chars().all(|c| c.is_ascii_digit()) => {
            t.info.push(InfoLine {
                tag,
                text: line.rest(5),
            });
            let i = t.info.len() - 1;
            SlotKind::Info(i, t.info[i].clone())
        }
        _ => SlotKind::Verbatim,
    })
}

fn read_point_system(line: &Line, system: &mut PointSystem) -> Result<(), ParseError> {
    let mut column = 6;
    while column <= line.len() {
        let code = line.char_at(column);
        let value = line
            .points(column + 1, column + 4, "points")?
            .ok_or_else(|| {
                line.err(
                    Some((column + 1, column + 4)),
                    K::Missing { field: "points" },
                )
            })?;
        match code.to_ascii_uppercase() {
            'W' => system.win = value,
            'D' => system.draw = value,
            'L' => system.loss = value,
            'A' => {
                system.forfeit_loss = value;
                system.zero_bye = value;
            }
            'P' => system.pairing_bye = Some(value),
            'X' => system.unknown = Some(value),
            c => return Err(line.err(Some((column, column)), K::BadPointCode(c))),
        }
        let gap = line.field(column + 5, column + 8);
        if !gap.trim().is_empty() {
            return Err(line.err(
                Some((column + 5, column + 8)),
                K::Unexpected(gap.trim().to_string()),
            ));
        }
        column += 9;
    }
    Ok(())
}

fn read_player(line: &Line) -> Result<Player, ParseError> {
    // Separators next to the fields pairing depends on must be blank: text
    // there means the columns are shifted, and guessing would misread.
    for column in [4, 9, 80, 85, 90, 91] {
        let c = line.char_at(column);
        if !c.is_whitespace() {
            return Err(line.err(Some((column, column)), K::NotBlank(c)));
        }
    }
    let id: PlayerId = line.required(5, 8, "starting rank")?;
    if id == 0 {
        return Err(line.err(
            Some((5, 8)),
            K::Invalid("starting rank 0 is not allowed".into()),
        ));
    }
    let sex = Some(line.char_at(10)).filter(|c| !c.is_whitespace());
    let mut player = Player::new(
        id,
        line.field(15, 47).trim(),
        line.number(49, 52, "rating")?,
    );
    player.sex = sex;
    player.title = line.optional_text(11, 13);
    player.federation = line.optional_text(54, 56);
    player.fide_id = line.optional_text(58, 68);
    player.birth_date = line.optional_text(70, 79);
    player.points = line.points(81, 84, "points")?;
    player.rank = line.number(86, 89, "rank")?;
    let end = line
        .chars
        .iter()
        .rposition(|c| !c.is_whitespace())
        .map_or(0, |i| i + 1);
    let mut start = 92;
    while start <= end {
        player.rounds.push(read_round(line, start, id)?);
        start += 10;
    }
    Ok(player)
}

fn read_round(line: &Line, start: usize, id: PlayerId) -> Result<RoundEntry, ParseError> {
    let opponent = match line.number::<PlayerId>(start, start + 3, "opponent")? {
        Some(0) | None => None,
        Some(o) if o == id => {
            return Err(line.err(Some((start, start + 3)), K::SelfPairing(id)));
        }
        Some(o) => Some(o),
    };
    for column in [start + 4, start + 6, start + 8, start + 9] {
        let c = line.char_at(column);
        if !c.is_whitespace() {
            return Err(line.err(Some((column, column)), K::Unexpected(c.to_string())));
        }
    }
    let colour = match line.char_at(start + 5) {
        'w' | 'W' => Some(Color::White),
        'b' | 'B' => Some(Color::Black),
        '-' | ' ' => None,
        c => return Err(line.err(Some((start + 5, start + 5)), K::BadColour(c))),
    };
    let c = line.char_at(start + 7);
    let result = ResultCode::from_trf_char(c)
        .ok_or_else(|| line.err(Some((start + 7, start + 7)), K::BadResult(c)))?;
    Ok(RoundEntry {
        opponent,
        colour,
        result,
    })
}

fn read_extension(t: &mut Tournament, line: &Line, tag: &str) -> Result<SlotKind, ParseError> {
    let tokens = line.tokens();
    Ok(match tag {
        "XTA" => {
            let (col, kind_text) = tokens.first().ok_or_else(|| {
                line.err(
                    None,
                    K::Missing {
                        field: "absence kind",
                    },
                )
            })?;
            let letter = kind_text.chars().next().unwrap_or(' ');
            let kind = AbsenceKind::from_code(letter)
                .filter(|_| kind_text.chars().count() == 1)
                .ok_or_else(|| line.err(Some((*col, *col)), K::BadAbsenceKind(letter)))?;
            let round = line.token_number(tokens.get(1), "round")?;
            let players = tokens[2.min(tokens.len())..]
                .iter()
                .map(|tok| line.token_number(Some(tok), "player id"))
                .collect::<Result<Vec<PlayerId>, _>>()?;
            t.absences.push(Absence {
                round,
                kind,
                players,
            });
            let i = t.absences.len() - 1;
            SlotKind::Absence(i, t.absences[i].clone())
        }
        "XTW" => {
            let w = Withdrawal {
                player: line.token_number(tokens.first(), "player id")?,
                after_round: line.token_number(tokens.get(1), "round")?,
            };
            t.withdrawals.push(w);
            SlotKind::Withdrawal(t.withdrawals.len() - 1, w)
        }
        "XTL" => {
            let l = LateEntry {
                player: line.token_number(tokens.first(), "player id")?,
                first_round: line.token_number(tokens.get(1), "round")?,
            };
            t.late_entries.push(l);
            SlotKind::LateEntry(t.late_entries.len() - 1, l)
        }
        "XTC" => {
            let id: PlayerId = line.token_number(tokens.first(), "player id")?;
            let club = tokens
                .get(1)
                .map(|(col, _)| line.rest(*col).trim().to_string());
            match t.player_mut(id) {
                Some(p) => p.club = club.clone(),
                None => {
                    return Err(line.err(
                        None,
                        K::Invalid(format!("club for player {id}, who is not listed above")),
                    ));
                }
            }
            SlotKind::Club(id, club)
        }
        "XTK" => {
            let (col, key) = tokens
                .first()
                .ok_or_else(|| line.err(None, K::Missing { field: "setting" }))?;
            let value = line.rest(col + key.chars().count()).trim().to_string();
            t.keizer_settings.push((key.clone(), value));
            let i = t.keizer_settings.len() - 1;
            SlotKind::Keizer(i, t.keizer_settings[i].clone())
        }
        _ => {
            let word = tokens.first().map(|(_, w)| w.to_ascii_lowercase());
            let rounds = t.chess960.get_or_insert_with(Chess960Rounds::default);
            match word.as_deref() {
                Some("seed") => {
                    rounds.seed = Some(line.token_number(tokens.get(1), "seed")?);
                    SlotKind::Chess960Seed(rounds.seed)
                }
                Some("round") => {
                    let round = line.token_number(tokens.get(1), "round")?;
                    let number: u16 = line.token_number(tokens.get(2), "position number")?;
                    if number > 959 {
                        return Err(line.err(
                            tokens.get(2).map(|(c, s)| (*c, c + s.len() - 1)),
                            K::Invalid(format!("Chess960 position {number} is not in 0..=959")),
                        ));
                    }
                    rounds.positions.push((round, number));
                    let i = rounds.positions.len() - 1;
                    SlotKind::Chess960Position(i, rounds.positions[i])
                }
                _ => {
                    return Err(line.err(
                        None,
                        K::Invalid("XT9 expects 'seed S' or 'round R N'".into()),
                    ));
                }
            }
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splits_every_line_ending() {
        let (l, e, f) = split_lines("a\rb\r");
        assert_eq!((l, e, f), (vec!["a", "b"], Some(LineEnding::Cr), true));
        let (l, e, f) = split_lines("a\r\nb");
        assert_eq!((l, e, f), (vec!["a", "b"], Some(LineEnding::CrLf), false));
        let (l, e, f) = split_lines("a\n\nb\n");
        assert_eq!((l, e, f), (vec!["a", "", "b"], Some(LineEnding::Lf), true));
    }

    /// A valid player line with `text` put at 1-based `column`.
    fn player_line_with(column: usize, text: &str) -> String {
        let mut line: Vec<char> = format!(
            "001    1      A{:>37}{:>28}{:>4}{:>5}{:>6} w 1",
            1800, "", "1.0", 1, 2
        )
        .chars()
        .collect();
        for (i, c) in text.chars().enumerate() {
            line[column - 1 + i] = c;
        }
        line.into_iter().collect()
    }

    #[test]
    fn errors_name_line_and_columns() {
        let good = player_line_with(1, "0");
        let t = Tournament::from_trf_str(&good).unwrap();
        assert_eq!(t.players[0].rating, Some(1800));
        assert_eq!(t.players[0].points, Some(Points::ONE));
        assert_eq!(
            t.players[0].rounds[0],
            RoundEntry::game(2, Color::White, ResultCode::Win)
        );

        let text = format!("012 X\n{}", player_line_with(81, "x.5 "));
        let err = Tournament::from_trf_str(&text).unwrap_err();
        assert_eq!(
            err.to_string(),
            "line 2, columns 81-84: points field 'x.5' is not a number of points"
        );
        let err = Tournament::from_trf_str(&player_line_with(97, "q")).unwrap_err();
        assert_eq!(
            err.to_string(),
            "line 1, column 97: 'q' is not a colour (w, b, - or blank)"
        );
        let err = Tournament::from_trf_str(&player_line_with(99, "?")).unwrap_err();
        assert_eq!((err.line, err.columns), (1, Some((99, 99))));
        let err = Tournament::from_trf_str(&player_line_with(92, "   1")).unwrap_err();
        assert_eq!(err.kind, K::SelfPairing(1));
        let err = Tournament::from_trf_str(&player_line_with(49, "18x0")).unwrap_err();
        assert_eq!(
            err.to_string(),
            "line 1, columns 49-52: rating field '18x0' is not a number"
        );
        let twice = format!("{}\n{}", good, good);
        let err = Tournament::from_trf_str(&twice).unwrap_err();
        assert_eq!((err.line, err.kind), (2, K::DuplicatePlayer(1)));
    }

    #[test]
    fn reads_trf_2026_and_javafo_records() {
        let text = "012 Test\n142 9\n152 B\n162  W 3.0    D 1.0    A 0.5    P 1.0\n\
240 H 003    2    5\n250      1.0 001 003 0001 0010\n260 001 002    3    4    7\n\
XXP 5 6\nXXA    2  1.0  0.5\n### a comment\nXXC black1 rank\nBBL  0.5\n";
        let t = Tournament::from_trf_str(text).unwrap();
        assert_eq!(t.total_rounds, Some(9));
        assert_eq!(t.initial_colour, Some(Color::Black));
        let s = t.point_system;
        assert_eq!(
            (s.win.tenths(), s.draw.tenths(), s.loss.tenths()),
            (30, 10, 5)
        );
        assert_eq!((s.forfeit_loss.tenths(), s.zero_bye.tenths()), (5, 5));
        assert_eq!(s.pairing_bye_points().tenths(), 10);
        assert_eq!(t.requested_bye(5, 3), Some(ByeKind::HalfPoint));
        assert_eq!(t.requested_bye(5, 2), None);
        assert_eq!(t.acceleration(7, 2).tenths(), 10);
        assert_eq!(t.acceleration(2, 1).tenths(), 20);
        assert_eq!(t.acceleration(2, 2).tenths(), 15);
        assert_eq!(t.acceleration(11, 1).tenths(), 0);
        assert!(t.is_forbidden_pair(3, 7, 2));
        assert!(!t.is_forbidden_pair(3, 7, 3));
        assert!(t.is_forbidden_pair(6, 5, 30));
        assert_eq!(t.to_trf().unwrap(), text);
    }

    #[test]
    fn reads_the_tempo_extension() {
        let text = "001    1      A\n001    2      B\nXTA E 002    1\nXTA C 003    1    2\n\
XTW 0002 004\nXTL 0001 002\nXTC 0001 SC Wil 1920\nXTK top-value 50\nXT9 seed 7\nXT9 round 1 518\n";
        let t = Tournament::from_trf_str(text).unwrap();
        assert_eq!(t.absence_kind(1, 2), Some(AbsenceKind::Excused));
        assert_eq!(t.absence_kind(2, 3), Some(AbsenceKind::ClubDuty));
        assert!(t.is_active_in(2, 4) && !t.is_active_in(2, 5));
        assert!(!t.is_active_in(1, 1) && t.is_active_in(1, 2));
        assert_eq!(t.player(1).unwrap().club.as_deref(), Some("SC Wil 1920"));
        assert_eq!(t.keizer_settings, vec![("top-value".into(), "50".into())]);
        let c = t.chess960.as_ref().unwrap();
        assert_eq!((c.seed, c.position(1)), (Some(7), Some(518)));
        assert_eq!(t.to_trf().unwrap(), text);
        assert_eq!(t.to_trf_canonical().unwrap(), text);
    }
}
