//! The game records of `tempo study fairness --out` (one JSON object a
//! line) and their collection into the study's table: the study and
//! `tempo study merge` both count games only through [`Collection`], so
//! they cannot disagree.

use std::collections::{BTreeSet, HashMap};
use std::fmt;
use std::hash::{Hash, Hasher};
use std::io::{BufRead, BufReader, Read};
use std::path::Path;

use anyhow::{Context, bail};
use serde::{Deserialize, Serialize};
use tempo_chess::{Color, Outcome};
use tempo_engine::PlayerKind;
use tempo_sync::GameKind;

/// Longest line read (a game of 150 pairs with exchange steps takes about
/// 3 kB).
pub(crate) const MAX_LINE: usize = 1 << 20;
/// Most records one merge (or one resumed file) reads, duplicates
/// included.
pub(crate) const MAX_RECORDS: usize = 10_000_000;
/// Most files one merge reads.
pub(crate) const MAX_FILES: usize = 1000;
/// Longest opening (random steps) a study plays.
pub(crate) const MAX_OPENING: u32 = 20;

/// One finished game of a study, as written (field order kept).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub(crate) struct GameRecord {
    #[serde(with = "kind_name")]
    pub variant: GameKind,
    /// The study's seed (with `game`, the game's place in its schedule).
    pub seed: u64,
    /// Index of the game in the variant's schedule.
    pub game: u32,
    /// The game again (kept from when games were played in colour-swapped
    /// pairs: a record's format does not change).
    pub pair: u32,
    /// The Chess960 start the game was drawn from, if any.
    pub chess960: Option<u16>,
    /// The state after the opening's random steps ([`tempo_engine::State::fen`]).
    pub start: String,
    /// The opening's random steps, as `moves` writes them.
    pub opening: String,
    /// The game's steps from `start` (UCI; two words a step in the
    /// variants, White's then Black's, `0000` for a side with no choice).
    pub moves: String,
    /// `1-0`, `0-1` or `1/2-1/2`.
    #[serde(with = "result_text")]
    pub result: Outcome,
    /// Why the game ended (`checkmate`, `adjudicated`, …).
    pub termination: String,
    /// Steps played from `start`.
    pub steps: u32,
    pub white: String,
    pub black: String,
    /// `depth 2` or `100 ms/move`.
    pub budget: String,
    /// Random steps asked for before each pair (`--opening`).
    pub opening_steps: u32,
    pub move_cap: u32,
    pub adjudication_cp: i32,
    /// Games per variant of the run that played it (`--games`).
    pub games: u32,
    /// Time the game took.
    pub seconds: f64,
    /// The engine that played it: tempo's version and the engine's
    /// signature ([`tempo_engine::signature`]); absent in records written
    /// before it was recorded.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub engine: Option<String>,
}

mod kind_name {
    use serde::{Deserialize, Deserializer, Serializer};
    use tempo_sync::GameKind;

    pub fn serialize<S: Serializer>(kind: &GameKind, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(kind.name())
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<GameKind, D::Error> {
        let text = String::deserialize(d)?;
        text.parse().map_err(serde::de::Error::custom)
    }
}

mod result_text {
    use serde::{Deserialize, Deserializer, Serializer};
    use tempo_chess::Outcome;

    pub fn serialize<S: Serializer>(outcome: &Outcome, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(outcome.pgn())
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Outcome, D::Error> {
        let text = String::deserialize(d)?;
        Outcome::from_pgn(&text).ok_or_else(|| {
            serde::de::Error::custom(format!("result {text:?}: expected 1-0, 0-1 or 1/2-1/2"))
        })
    }
}

/// What must be the same for records to be counted in one table.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Settings {
    pub white: String,
    pub black: String,
    pub budget: String,
    pub opening_steps: u32,
    pub move_cap: u32,
    pub adjudication_cp: i32,
    /// `None`: not recorded.
    pub engine: Option<String>,
}

impl fmt::Display for Settings {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} vs {}, {}, opening {}, move cap {}, adjudication {} cp",
            self.white,
            self.black,
            self.budget,
            self.opening_steps,
            self.move_cap,
            self.adjudication_cp
        )?;
        match &self.engine {
            Some(engine) => write!(f, ", engine {engine}"),
            None => write!(f, ", engine not recorded"),
        }
    }
}

impl GameRecord {
    pub(crate) fn settings(&self) -> Settings {
        Settings {
            white: self.white.clone(),
            black: self.black.clone(),
            budget: self.budget.clone(),
            opening_steps: self.opening_steps,
            move_cap: self.move_cap,
            adjudication_cp: self.adjudication_cp,
            engine: self.engine.clone(),
        }
    }

    /// The line written for it (without the newline).
    pub(crate) fn to_line(&self) -> String {
        serde_json::to_string(self).expect("a record is plain data")
    }

    /// Reads and checks one line.
    pub(crate) fn parse(line: &str) -> anyhow::Result<GameRecord> {
        let record: GameRecord = serde_json::from_str(line).map_err(|e| {
            // serde_json's message ends in "at line 1 column N"; the column
            // is what helps here.
            anyhow::anyhow!("not a game record: {e}")
        })?;
        record.check()?;
        Ok(record)
    }

    /// What JSON cannot say: the numbers in range, the fields agreeing
    /// with each other.
    fn check(&self) -> anyhow::Result<()> {
        if self.game >= super::engine::MAX_GAMES as u32 {
            bail!(
                "game {}: at most {} games",
                self.game,
                super::engine::MAX_GAMES
            );
        }
        if self.games == 0
            || self.games as usize > super::engine::MAX_GAMES
            || self.game >= self.games
        {
            bail!("game {} of games {}: out of range", self.game, self.games);
        }
        // Each game of the study has a start of its own: its pair is itself.
        if self.pair != self.game {
            bail!(
                "game {} is its own pair, not in pair {}",
                self.game,
                self.pair
            );
        }
        if let Some(n) = self.chess960
            && n >= 960
        {
            bail!("chess960 {n}: must be from 0 to 959");
        }
        if self.opening_steps > MAX_OPENING {
            bail!(
                "opening_steps {}: at most {MAX_OPENING}",
                self.opening_steps
            );
        }
        for (name, player) in [("white", &self.white), ("black", &self.black)] {
            if player.parse::<PlayerKind>().is_err() {
                bail!(
                    "{name} {player:?}: not a player (one of {})",
                    PlayerKind::names()
                );
            }
        }
        let word_ok = |w: &str| {
            (1..=12).contains(&w.len())
                && w.bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b == b'x' || b == b'-' || b == b'=')
        };
        for (name, text) in [("moves", &self.moves), ("opening", &self.opening)] {
            if let Some(bad) = text.split(' ').find(|&w| !text.is_empty() && !word_ok(w)) {
                bail!("{name}: {bad:?} is not a move");
            }
        }
        let per_step = if self.variant.is_simultaneous() { 2 } else { 1 };
        let words = |t: &str| {
            if t.is_empty() {
                0
            } else {
                t.split(' ').count()
            }
        };
        if words(&self.moves) != self.steps as usize * per_step {
            bail!(
                "{} steps need {} words of moves, not {}",
                self.steps,
                self.steps as usize * per_step,
                words(&self.moves)
            );
        }
        if words(&self.opening) > self.opening_steps as usize * per_step {
            bail!("opening: more than {} steps", self.opening_steps);
        }
        let short =
            |t: &str, max: usize| !t.is_empty() && t.len() <= max && !t.contains(char::is_control);
        if !short(self.start.as_str(), 200) {
            bail!("start: a FEN of at most 200 characters expected");
        }
        if !short(self.termination.as_str(), 40) || !short(self.budget.as_str(), 40) {
            bail!("termination and budget: at most 40 characters each");
        }
        if !(self.seconds.is_finite() && self.seconds >= 0.0) {
            bail!("seconds {}: must be a time", self.seconds);
        }
        Ok(())
    }

    /// A hash of the game itself (not of when or how long it was played,
    /// nor of the run's size): two records of one game are the same game
    /// exactly when these agree.
    fn digest(&self) -> u64 {
        // DefaultHasher::new() has fixed keys: the same within a process,
        // which is all a merge needs.
        let mut h = std::collections::hash_map::DefaultHasher::new();
        (
            self.chess960,
            &self.start,
            &self.opening,
            &self.moves,
            self.result.pgn(),
            &self.termination,
            self.steps,
            &self.white,
            &self.black,
        )
            .hash(&mut h);
        h.finish()
    }
}

/// Where a record came from: a file and line, or this run.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Place {
    /// Index into [`Collection::sources`].
    pub source: u32,
    pub line: u64,
}

/// What the table needs of one game.
#[derive(Debug, Clone, Copy)]
struct Entry {
    outcome: Outcome,
    adjudicated: bool,
    /// Whole milliseconds, so that sums do not depend on the order.
    millis: u64,
    digest: u64,
    place: Place,
}

/// One variant's figures.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Row {
    pub kind: GameKind,
    pub games: usize,
    pub white: u32,
    pub black: u32,
    pub draws: u32,
    pub adjudicated: usize,
    /// The games' times added up (ms).
    pub millis: u64,
}

/// The games of one table: of one setting, each game once.
#[derive(Debug, Default)]
pub(crate) struct Collection {
    /// File names (or "this run") that [`Place::source`] points into.
    pub sources: Vec<String>,
    settings: Option<(Settings, Place)>,
    games: HashMap<(GameKind, u64, u32), Entry>,
    seeds: BTreeSet<u64>,
    duplicates: usize,
}

impl Collection {
    /// A source's index for [`Place::source`].
    pub(crate) fn source(&mut self, name: &str) -> u32 {
        self.sources.push(name.to_string());
        (self.sources.len() - 1) as u32
    }

    pub(crate) fn place_name(&self, place: Place) -> String {
        format!(
            "{} line {}",
            self.sources[place.source as usize], place.line
        )
    }

    /// Adds a record; an exact duplicate of one already there is dropped
    /// (`Ok(false)`); another game under the same variant, seed and index,
    /// or other settings than the first record's, is an error.
    pub(crate) fn add(&mut self, record: &GameRecord, place: Place) -> anyhow::Result<bool> {
        let settings = record.settings();
        if settings.white != settings.black {
            bail!(
                "{}: {} vs {} is not a fairness study game (identical engines)",
                self.place_name(place),
                settings.white,
                settings.black
            );
        }
        match &self.settings {
            None => self.settings = Some((settings, place)),
            Some((first, at)) if *first != settings => bail!(
                "mixed settings: {} has {first}, {} has {settings}; a table counts games of one setting (merge each setting on its own)",
                self.place_name(*at),
                self.place_name(place)
            ),
            Some(_) => {}
        }
        let entry = Entry {
            outcome: record.result,
            adjudicated: record.termination == "adjudicated",
            millis: (record.seconds * 1000.0).round() as u64,
            digest: record.digest(),
            place,
        };
        let key = (record.variant, record.seed, record.game);
        if let Some(old) = self.games.get(&key) {
            if old.digest != entry.digest {
                bail!(
                    "conflicting records of {} seed {} game {}: {} and {} hold different games (two runs of the same schedule with a time budget play differently: merge only one of them)",
                    record.variant.name(),
                    record.seed,
                    record.game,
                    self.place_name(old.place),
                    self.place_name(place)
                );
            }
            self.duplicates += 1;
            return Ok(false);
        }
        self.games.insert(key, entry);
        self.seeds.insert(record.seed);
        Ok(true)
    }

    /// Whether the game is there.
    pub(crate) fn has(&self, kind: GameKind, seed: u64, game: u32) -> bool {
        self.games.contains_key(&(kind, seed, game))
    }

    pub(crate) fn len(&self) -> usize {
        self.games.len()
    }

    /// Exact duplicates dropped.
    pub(crate) fn duplicates(&self) -> usize {
        self.duplicates
    }

    pub(crate) fn settings(&self) -> Option<&Settings> {
        self.settings.as_ref().map(|(s, _)| s)
    }

    pub(crate) fn seeds(&self) -> &BTreeSet<u64> {
        &self.seeds
    }

    /// The rows of the variants with games, in [`GameKind::ALL`] order.
    pub(crate) fn rows(&self) -> Vec<Row> {
        let mut rows: Vec<Row> = GameKind::ALL
            .into_iter()
            .map(|kind| Row {
                kind,
                games: 0,
                white: 0,
                black: 0,
                draws: 0,
                adjudicated: 0,
                millis: 0,
            })
            .collect();
        for (&(kind, _, _), e) in &self.games {
            let row = rows
                .iter_mut()
                .find(|r| r.kind == kind)
                .expect("every kind");
            row.games += 1;
            match e.outcome {
                Outcome::Win(Color::White) => row.white += 1,
                Outcome::Win(Color::Black) => row.black += 1,
                Outcome::Draw => row.draws += 1,
            }
            row.adjudicated += usize::from(e.adjudicated);
            row.millis += e.millis;
        }
        rows.retain(|r| r.games > 0);
        rows
    }
}

/// How a file's reading ended.
#[derive(Debug, Default)]
pub(crate) struct ReadEnd {
    /// Records read.
    pub records: usize,
    /// Bytes up to the end of the last record kept (for a plain file).
    pub kept_bytes: u64,
    /// Lines up to the end of the last record kept.
    pub kept_lines: u64,
    /// The file is gzip-compressed.
    pub gzip: bool,
    /// The last record kept has no newline after it.
    pub unterminated: bool,
    /// An incomplete last line (a run killed while writing it) was left
    /// out: its number.
    pub dropped_line: Option<u64>,
}

/// Reads the records of `path` (gzip-compressed if it starts as gzip
/// does), handing each with its line number to `each`. Blank lines are
/// skipped; a bad line is an error naming the file and line, except a last
/// line without a newline that does not parse (what a kill in the middle
/// of a write leaves), which is reported in [`ReadEnd::dropped_line`].
pub(crate) fn read_records(
    path: &Path,
    mut each: impl FnMut(GameRecord, u64) -> anyhow::Result<()>,
) -> anyhow::Result<ReadEnd> {
    let name = path.display();
    let mut file = std::fs::File::open(path).with_context(|| format!("cannot read {name}"))?;
    let mut magic = [0u8; 2];
    let n = read_up_to(&mut file, &mut magic).with_context(|| format!("cannot read {name}"))?;
    let head = std::io::Cursor::new(magic[..n].to_vec());
    let gzip = magic[..n] == [0x1f, 0x8b];
    let reader: Box<dyn Read> = if gzip {
        Box::new(flate2::read::MultiGzDecoder::new(head.chain(file)))
    } else {
        Box::new(head.chain(file))
    };
    let mut reader = BufReader::new(reader);
    let mut end = ReadEnd::default();
    let mut offset = 0u64;
    let mut buf = Vec::new();
    let mut line_no = 0u64;
    loop {
        buf.clear();
        let got = (&mut reader)
            .take(MAX_LINE as u64 + 1)
            .read_until(b'\n', &mut buf)
            .with_context(|| format!("cannot read {name} (line {})", line_no + 1))?;
        if got == 0 {
            break;
        }
        line_no += 1;
        let terminated = buf.last() == Some(&b'\n');
        if !terminated && buf.len() > MAX_LINE {
            bail!("{name} line {line_no}: longer than {MAX_LINE} bytes (not a game record file?)");
        }
        offset += got as u64;
        let text = match std::str::from_utf8(&buf) {
            Ok(t) => t.trim_end_matches(['\n', '\r']),
            Err(_) if !terminated => {
                end.dropped_line = Some(line_no);
                break;
            }
            Err(e) => bail!("{name} line {line_no}: not UTF-8 text ({e})"),
        };
        if text.trim().is_empty() {
            end.kept_bytes = offset;
            end.kept_lines = line_no;
            continue;
        }
        match GameRecord::parse(text) {
            Ok(record) => {
                if end.records >= MAX_RECORDS {
                    bail!("{name}: more than {MAX_RECORDS} records");
                }
                end.records += 1;
                end.kept_bytes = offset;
                end.kept_lines = line_no;
                end.unterminated = !terminated;
                each(record, line_no)?;
            }
            Err(_) if !terminated => {
                end.dropped_line = Some(line_no);
                break;
            }
            Err(e) => bail!("{name} line {line_no}: {e:#}"),
        }
    }
    end.gzip = gzip;
    Ok(end)
}

/// Reads up to `buf.len()` bytes (fewer only at the end of the file).
fn read_up_to(r: &mut impl Read, buf: &mut [u8]) -> std::io::Result<usize> {
    let mut n = 0;
    while n < buf.len() {
        match r.read(&mut buf[n..])? {
            0 => break,
            k => n += k,
        }
    }
    Ok(n)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> GameRecord {
        GameRecord {
            variant: GameKind::Synchronschach,
            seed: 7,
            game: 3,
            pair: 3,
            chess960: None,
            start: "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 s".to_string(),
            opening: "e2e4 e7e5".to_string(),
            moves: "d1h5 0000 xh5f7 -".to_string(),
            result: Outcome::Win(Color::White),
            termination: "checkmate".to_string(),
            steps: 2,
            white: "nash".to_string(),
            black: "nash".to_string(),
            budget: "depth 1".to_string(),
            opening_steps: 2,
            move_cap: 150,
            adjudication_cp: 300,
            games: 4,
            seconds: 0.012,
            engine: Some("tempo 0.1.0 bench 1234".to_string()),
        }
    }

    #[test]
    fn a_record_reads_back_as_written() {
        let r = sample();
        let line = r.to_line();
        assert!(
            line.starts_with(
                r#"{"variant":"synchronschach","seed":7,"game":3,"pair":3,"chess960":null,"#
            ),
            "{line}"
        );
        assert!(line.contains(r#""result":"1-0""#));
        assert_eq!(GameRecord::parse(&line).unwrap(), r);
    }

    #[test]
    fn bad_records_say_what_is_wrong() {
        let line = sample().to_line();
        for (from, to, says) in [
            (
                r#""result":"1-0""#,
                r#""result":"2-0""#,
                "expected 1-0, 0-1 or 1/2-1/2",
            ),
            (
                r#""variant":"synchronschach""#,
                r#""variant":"losers""#,
                "losers",
            ),
            (
                r#""pair":3"#,
                r#""pair":1"#,
                "is its own pair, not in pair 1",
            ),
            (r#""steps":2"#, r#""steps":3"#, "3 steps need 6 words"),
            (
                r#""white":"nash""#,
                r#""white":"stockfish""#,
                "not a player",
            ),
            (r#""chess960":null"#, r#""chess960":960"#, "chess960 960"),
            (r#""game":3"#, r#""game":4"#, "out of range"),
            (r#""seed":7,"#, "", "missing field `seed`"),
        ] {
            let bad = line.replacen(from, to, 1);
            assert_ne!(bad, line);
            let err = format!("{:#}", GameRecord::parse(&bad).unwrap_err());
            assert!(err.contains(says), "{from}: {err}");
        }
        assert!(GameRecord::parse("[1, 2]").is_err());
        assert!(GameRecord::parse(&line[..line.len() - 5]).is_err());
    }

    fn place(line: u64) -> Place {
        Place { source: 0, line }
    }

    #[test]
    fn duplicates_are_dropped_and_conflicts_refused() {
        let mut c = Collection::default();
        c.source("a.jsonl");
        let r = sample();
        assert!(c.add(&r, place(1)).unwrap());
        // The same game played again (another time, another run size).
        let again = GameRecord {
            seconds: 9.0,
            games: 100,
            ..r.clone()
        };
        assert!(!c.add(&again, place(2)).unwrap());
        assert_eq!((c.len(), c.duplicates()), (1, 1));
        let other = GameRecord {
            result: Outcome::Draw,
            ..r.clone()
        };
        let err = c.add(&other, place(3)).unwrap_err().to_string();
        assert!(err.contains("conflicting records of synchronschach seed 7 game 3: a.jsonl line 1 and a.jsonl line 3"), "{err}");
        let deeper = GameRecord {
            game: 1,
            pair: 1,
            budget: "depth 2".into(),
            ..r.clone()
        };
        let err = c.add(&deeper, place(4)).unwrap_err().to_string();
        assert!(
            err.contains("mixed settings: a.jsonl line 1 has nash vs nash, depth 1"),
            "{err}"
        );
        assert!(
            err.contains("a.jsonl line 4 has nash vs nash, depth 2"),
            "{err}"
        );
        let unequal = GameRecord {
            black: "greedy".into(),
            ..r
        };
        assert!(
            c.add(&unequal, place(5))
                .unwrap_err()
                .to_string()
                .contains("not a fairness study game")
        );
    }

    #[test]
    fn rows_count_by_variant_in_order() {
        let mut c = Collection::default();
        c.source("x");
        let r = sample();
        let results = [
            Outcome::Win(Color::White),
            Outcome::Draw,
            Outcome::Win(Color::Black),
        ];
        for (i, outcome) in results.into_iter().enumerate() {
            let g = i as u32;
            let rec = GameRecord {
                game: g,
                pair: g,
                result: outcome,
                ..r.clone()
            };
            c.add(&rec, place(g.into())).unwrap();
        }
        let std = GameRecord {
            variant: GameKind::Standard,
            moves: "e2e4 e7e5".into(),
            termination: "adjudicated".into(),
            ..r
        };
        c.add(&std, place(9)).unwrap();
        let rows = c.rows();
        assert_eq!(rows.len(), 2);
        assert_eq!(rows[0].kind, GameKind::Standard);
        assert_eq!(
            (rows[0].games, rows[0].white, rows[0].adjudicated),
            (1, 1, 1)
        );
        assert_eq!(
            (rows[1].games, rows[1].white, rows[1].draws, rows[1].black),
            (3, 1, 1, 1)
        );
    }

    #[test]
    fn a_cut_last_line_is_dropped_and_a_bad_line_named() {
        let dir = std::env::temp_dir().join(format!("tempo-records-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let line = sample().to_line();
        let path = dir.join("cut.jsonl");
        std::fs::write(&path, format!("{line}\n\n{}", &line[..40])).unwrap();
        let mut seen = Vec::new();
        let end = read_records(&path, |r, n| {
            seen.push((r.game, n));
            Ok(())
        })
        .unwrap();
        assert_eq!(seen, [(3, 1)]);
        assert_eq!(end.dropped_line, Some(3));
        assert_eq!((end.kept_bytes, end.kept_lines), (line.len() as u64 + 2, 2));
        // A complete last record without its newline is kept.
        std::fs::write(&path, &line).unwrap();
        let end = read_records(&path, |_, _| Ok(())).unwrap();
        assert!(end.unterminated && end.dropped_line.is_none() && end.records == 1);
        // A bad line in the middle is an error with its place.
        std::fs::write(&path, format!("{line}\n{{\"oops\":1}}\n{line}\n")).unwrap();
        let err = format!("{:#}", read_records(&path, |_, _| Ok(())).unwrap_err());
        assert!(err.contains("cut.jsonl line 2: not a game record"), "{err}");
        // Gzip.
        let gz = dir.join("two.jsonl.gz");
        let mut enc = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
        std::io::Write::write_all(&mut enc, format!("{line}\n{line}\n").as_bytes()).unwrap();
        std::fs::write(&gz, enc.finish().unwrap()).unwrap();
        let end = read_records(&gz, |_, _| Ok(())).unwrap();
        assert_eq!(end.records, 2);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
