//! Writing a [`Tournament`] as TRF: unchanged lines as they were read,
//! changed and new ones in TRF's fixed columns.

use tempo_chess::Color;

use super::{Encoding, SlotKind, Syntax, WriteError};
use crate::Tournament;
use crate::model::{
    Absence, Acceleration, ByeKind, ByeRequest, ForbiddenPairs, InfoLine, Player, PlayerId,
    RoundEntry,
};
use crate::points::{PointSystem, Points};

/// Writes a tournament as TRF bytes, in the encoding it was read in.
pub fn write(t: &Tournament) -> Result<Vec<u8>, WriteError> {
    let text = write_string(t, false)?;
    match t.layout.encoding {
        Encoding::Utf8 => Ok(text.into_bytes()),
        Encoding::Latin1 => text
            .chars()
            .map(|c| u8::try_from(u32::from(c)).map_err(|_| WriteError::NotEncodable(c, "Latin-1")))
            .collect(),
    }
}

/// Which items of the tournament have been written already.
#[derive(Default)]
struct Written {
    info: Vec<bool>,
    players: Vec<bool>,
    byes: Vec<bool>,
    accelerations: Vec<bool>,
    forbidden: Vec<bool>,
    absences: Vec<bool>,
    withdrawals: Vec<bool>,
    late: Vec<bool>,
    keizer: Vec<bool>,
    clubs: Vec<PlayerId>,
    positions: Vec<bool>,
    total_rounds: bool,
    initial_colour: bool,
    point_system: bool,
    seed: bool,
}

fn mark(flags: &mut [bool], i: usize) -> bool {
    match flags.get_mut(i) {
        Some(f) => {
            *f = true;
            true
        }
        None => false,
    }
}

pub(crate) fn write_string(t: &Tournament, canonical: bool) -> Result<String, WriteError> {
    check_widths(t)?;
    let mut w = Written {
        info: vec![false; t.info.len()],
        players: vec![false; t.players.len()],
        byes: vec![false; t.bye_requests.len()],
        accelerations: vec![false; t.accelerations.len()],
        forbidden: vec![false; t.forbidden_pairs.len()],
        absences: vec![false; t.absences.len()],
        withdrawals: vec![false; t.withdrawals.len()],
        late: vec![false; t.late_entries.len()],
        keizer: vec![false; t.keizer_settings.len()],
        positions: vec![false; t.chess960.as_ref().map_or(0, |c| c.positions.len())],
        ..Written::default()
    };
    let slots = &t.layout.slots;
    let last_info = slots
        .iter()
        .rposition(|s| matches!(s.kind, SlotKind::Info(..)));
    let last_player = slots
        .iter()
        .rposition(|s| matches!(s.kind, SlotKind::Player(..)));
    let mut out: Vec<String> = Vec::new();
    if last_info.is_none() {
        // Header lines come first in a new file.
        out.extend(new_info(t, &mut w));
        if last_player.is_none() {
            out.extend(new_players(t, &mut w)?);
        }
    }
    for (index, slot) in slots.iter().enumerate() {
        if let Some(line) = write_slot(t, &slot.kind, &slot.raw, canonical, &mut w)? {
            out.push(line);
        }
        if Some(index) == last_info {
            out.extend(new_info(t, &mut w));
            if last_player.is_none() {
                out.extend(new_players(t, &mut w)?);
            }
        }
        if Some(index) == last_player {
            out.extend(new_players(t, &mut w)?);
        }
    }
    out.extend(new_others(t, &mut w)?);

    let ending = t.layout.line_ending.as_str();
    let mut text = if t.layout.byte_order_mark {
        String::from("\u{feff}")
    } else {
        String::new()
    };
    text.push_str(&out.join(ending));
    if t.layout.final_line_ending && !out.is_empty() {
        text.push_str(ending);
    }
    Ok(text)
}

/// The line for one slot of the original file: the original text if the
/// item is unchanged (and not canonical), a fresh rendering if it changed,
/// nothing if it was removed.
fn write_slot(
    t: &Tournament,
    kind: &SlotKind,
    raw: &str,
    canonical: bool,
    w: &mut Written,
) -> Result<Option<String>, WriteError> {
    let keep = |same: bool| !canonical && same;
    Ok(match kind {
        SlotKind::Verbatim => Some(raw.to_string()),
        SlotKind::Info(i, old) => t.info.get(*i).filter(|_| mark(&mut w.info, *i)).map(|cur| {
            if keep(cur == old) {
                raw.to_string()
            } else {
                render_info(cur)
            }
        }),
        SlotKind::Player(i, old) => match t.players.get(*i) {
            Some(cur) if mark(&mut w.players, *i) => Some(if keep(cur == old.as_ref()) {
                raw.to_string()
            } else {
                render_player(cur)?
            }),
            _ => None,
        },
        SlotKind::TotalRounds(syntax, old) => {
            w.total_rounds = true;
            t.total_rounds.map(|n| {
                if keep(t.total_rounds == *old) {
                    raw.to_string()
                } else {
                    render_total_rounds(syntax, n)
                }
            })
        }
        SlotKind::InitialColour(syntax, old) => {
            w.initial_colour = true;
            if keep(t.initial_colour == *old) {
                Some(raw.to_string())
            } else {
                render_initial_colour(syntax, t.initial_colour)
            }
        }
        SlotKind::PointSystem(syntax, old) => {
            w.point_system = true;
            if keep(t.point_system == *old) {
                Some(raw.to_string())
            } else {
                render_point_system(syntax, &t.point_system)
            }
        }
        SlotKind::ByeRequest(i, old) => t
            .bye_requests
            .get(*i)
            .filter(|_| mark(&mut w.byes, *i))
            .map(|cur| {
                if keep(cur == old) {
                    raw.to_string()
                } else {
                    render_bye(cur)
                }
            }),
        SlotKind::Acceleration(i, old) => t
            .accelerations
            .get(*i)
            .filter(|_| mark(&mut w.accelerations, *i))
            .map(|cur| {
                if keep(cur == old) {
                    raw.to_string()
                } else {
                    render_acceleration(cur)
                }
            }),
        SlotKind::Forbidden(i, old) => t
            .forbidden_pairs
            .get(*i)
            .filter(|_| mark(&mut w.forbidden, *i))
            .map(|cur| {
                if keep(cur == old) {
                    raw.to_string()
                } else {
                    render_forbidden(cur)
                }
            }),
        SlotKind::Absence(i, old) => t
            .absences
            .get(*i)
            .filter(|_| mark(&mut w.absences, *i))
            .map(|cur| {
                if keep(cur == old) {
                    raw.to_string()
                } else {
                    render_absence(cur)
                }
            }),
        SlotKind::Withdrawal(i, old) => t
            .withdrawals
            .get(*i)
            .filter(|_| mark(&mut w.withdrawals, *i))
            .map(|cur| {
                if keep(cur == old) {
                    raw.to_string()
                } else {
                    format!("XTW {:04} {:03}", cur.player, cur.after_round)
                }
            }),
        SlotKind::LateEntry(i, old) => t
            .late_entries
            .get(*i)
            .filter(|_| mark(&mut w.late, *i))
            .map(|cur| {
                if keep(cur == old) {
                    raw.to_string()
                } else {
                    format!("XTL {:04} {:03}", cur.player, cur.first_round)
                }
            }),
        SlotKind::Club(id, old) => {
            w.clubs.push(*id);
            let cur = t.player(*id).and_then(|p| p.club.as_ref());
            cur.map(|club| {
                if keep(Some(club) == old.as_ref()) {
                    raw.to_string()
                } else {
                    render_club(*id, club)
                }
            })
        }
        SlotKind::Keizer(i, old) => t
            .keizer_settings
            .get(*i)
            .filter(|_| mark(&mut w.keizer, *i))
            .map(|cur| {
                if keep(cur == old) {
                    raw.to_string()
                } else {
                    render_keizer(cur)
                }
            }),
        SlotKind::Chess960Seed(old) => {
            w.seed = true;
            let cur = t.chess960.as_ref().and_then(|c| c.seed);
            cur.map(|seed| {
                if keep(cur == *old) {
                    raw.to_string()
                } else {
                    format!("XT9 seed {seed}")
                }
            })
        }
        SlotKind::Chess960Position(i, old) => t
            .chess960
            .as_ref()
            .and_then(|c| c.positions.get(*i))
            .filter(|_| mark(&mut w.positions, *i))
            .map(|cur| {
                if keep(cur == old) {
                    raw.to_string()
                } else {
                    render_position(*cur)
                }
            }),
    })
}

fn new_info(t: &Tournament, w: &mut Written) -> Vec<String> {
    let mut out = Vec::new();
    for (i, info) in t.info.iter().enumerate() {
        if !w.info[i] {
            w.info[i] = true;
            out.push(render_info(info));
        }
    }
    out
}

fn new_players(t: &Tournament, w: &mut Written) -> Result<Vec<String>, WriteError> {
    let mut out = Vec::new();
    for (i, p) in t.players.iter().enumerate() {
        if !w.players[i] {
            w.players[i] = true;
            out.push(render_player(p)?);
        }
    }
    Ok(out)
}

fn new_others(t: &Tournament, w: &mut Written) -> Result<Vec<String>, WriteError> {
    let mut out = Vec::new();
    if !w.total_rounds
        && let Some(n) = t.total_rounds
    {
        out.push(render_total_rounds(&Syntax::Trf2026, n));
    }
    if !w.initial_colour
        && let Some(line) = render_initial_colour(&Syntax::Trf2026, t.initial_colour)
    {
        out.push(line);
    }
    if !w.point_system {
        out.extend(render_point_system(&Syntax::Trf2026, &t.point_system));
        if t.point_system.zero_bye != t.point_system.forfeit_loss {
            // 162's `A` covers both; bbpPairings' BBZ says the zero-point bye.
            out.extend(render_point_system(&Syntax::Bbp('Z'), &t.point_system));
        }
    }
    let pending = |flags: &[bool], i: usize| !flags.get(i).copied().unwrap_or(false);
    for (i, b) in t.bye_requests.iter().enumerate() {
        if pending(&w.byes, i) {
            out.push(render_bye(b));
        }
    }
    for (i, a) in t.accelerations.iter().enumerate() {
        if pending(&w.accelerations, i) {
            out.push(render_acceleration(a));
        }
    }
    for (i, f) in t.forbidden_pairs.iter().enumerate() {
        if pending(&w.forbidden, i) {
            out.push(render_forbidden(f));
        }
    }
    for (i, a) in t.absences.iter().enumerate() {
        if pending(&w.absences, i) {
            out.push(render_absence(a));
        }
    }
    for (i, x) in t.withdrawals.iter().enumerate() {
        if pending(&w.withdrawals, i) {
            out.push(format!("XTW {:04} {:03}", x.player, x.after_round));
        }
    }
    for (i, x) in t.late_entries.iter().enumerate() {
        if pending(&w.late, i) {
            out.push(format!("XTL {:04} {:03}", x.player, x.first_round));
        }
    }
    for p in &t.players {
        if let Some(club) = &p.club
            && !w.clubs.contains(&p.id)
        {
            out.push(render_club(p.id, club));
        }
    }
    for (i, k) in t.keizer_settings.iter().enumerate() {
        if pending(&w.keizer, i) {
            out.push(render_keizer(k));
        }
    }
    if let Some(c) = &t.chess960 {
        if !w.seed
            && let Some(seed) = c.seed
        {
            out.push(format!("XT9 seed {seed}"));
        }
        for (i, p) in c.positions.iter().enumerate() {
            if pending(&w.positions, i) {
                out.push(render_position(*p));
            }
        }
    }
    Ok(out)
}

/// Points in at most four columns (`11.5`; whole numbers that do not fit
/// with a decimal are written without it: `9999`).
fn points4(p: Points) -> Option<String> {
    let text = format!("{p:>4}");
    if text.len() <= 4 {
        return Some(text);
    }
    let whole = format!("{:>4}", p.tenths() / 10);
    (p.tenths() % 10 == 0 && whole.len() <= 4).then_some(whole)
}

/// Every value of a fixed-column record must fit its columns.
fn check_widths(t: &Tournament) -> Result<(), WriteError> {
    let too_wide = |record: &'static str, field: &'static str, value: String, width: usize| {
        Err(WriteError::FieldTooWide {
            record,
            field,
            value,
            width,
        })
    };
    let points = |record, field, p: Points| match points4(p) {
        Some(_) => Ok(()),
        None => too_wide(record, field, p.to_string(), 4),
    };
    let round = |record, r: u32| {
        if r > 999 {
            too_wide(record, "round", r.to_string(), 3)
        } else {
            Ok(())
        }
    };
    let ids = |record, ids: &[PlayerId]| match ids.iter().find(|&&i| i > 9999) {
        Some(i) => too_wide(record, "player id", i.to_string(), 4),
        None => Ok(()),
    };
    let s = &t.point_system;
    for (field, p) in [
        ("win", s.win),
        ("draw", s.draw),
        ("loss", s.loss),
        ("forfeit loss", s.forfeit_loss),
        ("pairing-allocated bye", s.pairing_bye_points()),
        ("unknown result", s.unknown_points()),
    ] {
        points("162", field, p)?;
    }
    for b in &t.bye_requests {
        round("240", b.round)?;
        ids("240", &b.players)?;
    }
    for a in &t.accelerations {
        match a {
            Acceleration::Range {
                match_points,
                points: p,
                first_round,
                last_round,
                first_player,
                last_player,
            } => {
                if let Some(m) = match_points {
                    points("250", "match points", *m)?;
                }
                points("250", "points", *p)?;
                round("250", *first_round)?;
                round("250", *last_round)?;
                ids("250", &[*first_player, *last_player])?;
            }
            Acceleration::PerRound { player, points: ps } => {
                ids("XXA", &[*player])?;
                for p in ps {
                    points("XXA", "points", *p)?;
                }
            }
        }
    }
    for f in &t.forbidden_pairs {
        if let Some((a, b)) = f.rounds {
            round("260", a)?;
            round("260", b)?;
            ids("260", &f.players)?;
        }
    }
    // The XT lines are read by words, not columns: no limits there.
    Ok(())
}

fn render_info(info: &InfoLine) -> String {
    format!("{} {}", info.tag, info.text)
}

fn render_total_rounds(syntax: &Syntax, n: u32) -> String {
    match syntax {
        Syntax::JaVaFo(_) => format!("XXR {n}"),
        _ => format!("142 {n}"),
    }
}

fn render_initial_colour(syntax: &Syntax, colour: Option<Color>) -> Option<String> {
    match syntax {
        Syntax::JaVaFo(extra) => {
            let mut words: Vec<String> = colour
                .map(|c| match c {
                    Color::White => "white1".to_string(),
                    Color::Black => "black1".to_string(),
                })
                .into_iter()
                .collect();
            words.extend(extra.iter().cloned());
            (!words.is_empty()).then(|| format!("XXC {}", words.join(" ")))
        }
        _ => colour.map(|c| match c {
            Color::White => "152 W".to_string(),
            Color::Black => "152 B".to_string(),
        }),
    }
}

fn render_point_system(syntax: &Syntax, s: &PointSystem) -> Option<String> {
    let fide = PointSystem::FIDE;
    match syntax {
        Syntax::Bbp(letter) => {
            let value = match letter {
                'W' => s.win,
                'D' => s.draw,
                'L' => s.loss,
                'Z' => s.zero_bye,
                'F' => s.forfeit_loss,
                _ => s.pairing_bye_points(),
            };
            Some(format!("BB{letter} {value:>4}"))
        }
        _ => {
            let mut entries = Vec::new();
            let mut add = |code: char, value: Points, default: Points| {
                if value != default {
                    entries.push(format!("{code}{}", points4(value).unwrap_or_default()));
                }
            };
            add('W', s.win, fide.win);
            add('D', s.draw, fide.draw);
            add('L', s.loss, fide.loss);
            add('A', s.forfeit_loss, fide.forfeit_loss);
            // P and X are written when set, even to their default, so that
            // the file says what the model says.
            if let Some(p) = s.pairing_bye {
                entries.push(format!("P{}", points4(p).unwrap_or_default()));
            }
            if let Some(x) = s.unknown {
                entries.push(format!("X{}", points4(x).unwrap_or_default()));
            }
            (!entries.is_empty()).then(|| format!("162  {}", entries.join("    ")))
        }
    }
}

fn id_fields(ids: &[PlayerId]) -> String {
    ids.iter().map(|id| format!(" {id:>4}")).collect()
}

fn render_bye(b: &ByeRequest) -> String {
    let kind = match b.kind {
        ByeKind::FullPoint => 'F',
        ByeKind::HalfPoint => 'H',
        // 240 has no pairing-allocated bye for individuals; Z is the safe reading.
        ByeKind::ZeroPoint | ByeKind::PairingAllocated => 'Z',
    };
    format!("240 {kind} {:03}{}", b.round, id_fields(&b.players))
}

fn render_acceleration(a: &Acceleration) -> String {
    match a {
        Acceleration::Range {
            match_points,
            points,
            first_round,
            last_round,
            first_player,
            last_player,
        } => {
            let mp = match_points.map_or("    ".to_string(), |m| points4(m).unwrap_or_default());
            let points = points4(*points).unwrap_or_default();
            format!(
                "250 {mp} {points} {first_round:03} {last_round:03} {first_player:04} {last_player:04}"
            )
        }
        Acceleration::PerRound { player, points } => {
            let values: String = points
                .iter()
                .map(|p| format!(" {}", points4(*p).unwrap_or_default()))
                .collect();
            format!("XXA {player:>4}{values}")
        }
    }
}

fn render_forbidden(f: &ForbiddenPairs) -> String {
    match f.rounds {
        Some((first, last)) => format!("260 {first:03} {last:03}{}", id_fields(&f.players)),
        None => {
            let ids: Vec<String> = f.players.iter().map(u32::to_string).collect();
            format!("XXP {}", ids.join(" "))
        }
    }
}

fn render_absence(a: &Absence) -> String {
    format!(
        "XTA {} {:03}{}",
        a.kind.code(),
        a.round,
        id_fields(&a.players)
    )
}

fn render_club(id: PlayerId, club: &str) -> String {
    format!("XTC {id:04} {club}")
}

fn render_keizer((key, value): &(String, String)) -> String {
    format!("XTK {key} {value}")
}

fn render_position((round, number): (u32, u16)) -> String {
    format!("XT9 round {round} {number}")
}

/// A `001` line in TRF's columns, trailing blanks removed.
pub(crate) fn render_player(p: &Player) -> Result<String, WriteError> {
    let mut line: Vec<char> = vec![' '; 89 + 10 * p.rounds.len()];
    let too_wide = |field: &'static str, value: String, width: usize| WriteError::TooWide {
        player: p.id,
        field,
        value,
        width,
    };
    let mut put = |first: usize, text: &str| {
        for (i, c) in text.chars().enumerate() {
            line[first - 1 + i] = c;
        }
    };
    let fit = |field: &'static str, text: String, width: usize| {
        if text.chars().count() > width {
            Err(too_wide(field, text, width))
        } else {
            Ok(text)
        }
    };
    put(1, "001");
    put(5, &fit("starting rank", format!("{:>4}", p.id), 4)?);
    if let Some(sex) = p.sex {
        put(10, &sex.to_string());
    }
    if let Some(title) = &p.title {
        put(11, &fit("title", format!("{title:>3}"), 3)?);
    }
    // Names longer than TRF's 33 columns are cut, as every TRF writer does.
    let name: String = p.name.chars().take(33).collect();
    put(15, &name);
    if let Some(rating) = p.rating {
        put(49, &fit("rating", format!("{rating:>4}"), 4)?);
    }
    if let Some(fed) = &p.federation {
        put(54, &fit("federation", fed.clone(), 3)?);
    }
    if let Some(id) = &p.fide_id {
        put(58, &fit("FIDE id", format!("{id:>11}"), 11)?);
    }
    if let Some(date) = &p.birth_date {
        put(70, &fit("birth date", date.clone(), 10)?);
    }
    if let Some(points) = p.points {
        // "100.0" does not fit: whole numbers drop the decimal ("100").
        let text = points4(points).unwrap_or_else(|| points.to_string());
        put(81, &fit("points", text, 4)?);
    }
    if let Some(rank) = p.rank {
        put(86, &fit("rank", format!("{rank:>4}"), 4)?);
    }
    for (i, entry) in p.rounds.iter().enumerate() {
        let start = 92 + 10 * i;
        put(start, &fit("opponent", render_round(entry), 8)?);
    }
    let text: String = line.into_iter().collect();
    Ok(text.trim_end().to_string())
}

fn render_round(e: &RoundEntry) -> String {
    // A blank entry is written `0000 -` and a blank result, so that it
    // survives as an entry even at the end of the line.
    let opponent = e.opponent.map_or("0000".to_string(), |o| format!("{o:>4}"));
    let colour = e.colour.map_or('-', Color::char);
    format!("{opponent} {colour} {}", e.result.trf_char())
}
