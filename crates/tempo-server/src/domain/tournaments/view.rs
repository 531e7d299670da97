//! What the API shows of a tournament: the whole of it, a round, the
//! standings (as `tempo standings` computes them) and the crosstable, as
//! typed views.

use std::collections::BTreeMap;

use serde::Serialize;
use tempo_host::Variant;
use tempo_tourney::standings::{StandingsOptions, standings};
use tempo_tourney::tiebreak::{self, TieBreak};
use tempo_tourney::{PlayerId, Tournament, keizer};
use utoipa::ToSchema;

use super::ratings::{self, DwzPreview, FidePreview};
use super::{LogEntry, Record, Refusal, RoundMode, System, invalid};

/// A round: boards (with results and games), the bye, the Chess960
/// position.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub(crate) struct RoundView {
    pub round: u32,
    pub boards: Vec<BoardView>,
    /// The player with the bye, if any.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub bye: Option<PlayerId>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub bye_name: Option<Option<String>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub chess960: Option<Chess960View>,
    /// Players without a board: the bye, byes asked for, absences.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub away: Vec<super::away::RoundAway>,
    /// How the round's games are played on the server: `online` (members'
    /// own devices) or `table` (table games at the club's tables).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mode: Option<RoundMode>,
}

/// One board of a round.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub(crate) struct BoardView {
    pub board: u32,
    pub white: PlayerId,
    pub black: PlayerId,
    /// `1-0`, `0-1`, `1/2-1/2`, `+-`, `-+`, or null while it has none.
    pub result: Option<String>,
    pub white_name: Option<String>,
    pub black_name: Option<String>,
    /// The server game, if the board is played online.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub game_id: Option<String>,
    /// The players' reports, on the boards of the current round
    /// ([`super::reports`]).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub report: Option<super::reports::BoardReport>,
    /// A table game's display (`/table/{gameId}`), for everyone.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub display: Option<String>,
    /// A table game's two seat links, for the tournament's directors only
    /// (filled in by the service, which knows the caller).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub seats: Option<SeatLinks>,
}

/// A table board's two seat links (`/table/{gameId}/play#{token}`): whoever
/// holds one plays that colour, so only a director is shown them. A seat
/// revoked (a lost phone) has none until the director renews it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, ToSchema)]
pub(crate) struct SeatLinks {
    pub white: Option<String>,
    pub black: Option<String>,
}

/// A board's display link, if its game is a table game.
pub(crate) fn display_link(mode: Option<RoundMode>, game: Option<&str>) -> Option<String> {
    match (mode, game) {
        (Some(RoundMode::Table), Some(game)) => Some(format!("/table/{game}")),
        _ => None,
    }
}

/// A round's Chess960 start position.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub(crate) struct Chess960View {
    pub number: u16,
    pub fen: String,
    /// The round (in the list of every round's position).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub round: Option<u32>,
}

/// A round.
pub(crate) fn round(record: &Record, round: u32) -> RoundView {
    let name = |id| record.t.player(id).map(|p| p.name.clone());
    let mut view = RoundView {
        round,
        boards: Vec::new(),
        bye: None,
        bye_name: None,
        chess960: chess960(record, round),
        away: super::away::away(record, round),
        mode: record.mode(round),
    };
    if let Some(b) = record.boards(round) {
        view.boards = b
            .boards
            .iter()
            .map(|board| BoardView {
                board: board.board,
                white: board.white,
                black: board.black,
                result: record.result(round, board),
                white_name: name(board.white),
                black_name: name(board.black),
                game_id: board.game_id.clone(),
                report: None,
                display: display_link(record.mode(round), board.game_id.as_deref()),
                seats: None,
            })
            .collect();
        view.bye = b.bye;
        view.bye_name = b.bye.map(name);
    }
    view
}

fn chess960(record: &Record, round: u32) -> Option<Chess960View> {
    if !record.s.chess960 {
        return None;
    }
    let number = record.t.chess960_position(round)?;
    let fen = tempo_chess::chess960::start_position(number).ok()?.to_fen();
    Some(Chess960View {
        number,
        fen,
        round: None,
    })
}

/// The whole tournament, for a director's page.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub(crate) struct DetailView {
    pub id: String,
    pub name: String,
    /// `dutch`, `keizer` or `round-robin`.
    pub system: String,
    #[schema(value_type = String)]
    pub variant: Variant,
    pub chess960: bool,
    pub clock: Option<String>,
    pub rules: BTreeMap<String, String>,
    pub double: bool,
    pub total_rounds: Option<u32>,
    pub paired_rounds: u32,
    pub complete_rounds: u32,
    pub tiebreaks: Vec<String>,
    pub players: Vec<PlayerView>,
    pub rounds: Vec<RoundView>,
    pub attendance: Vec<AttendanceView>,
    /// The attendance statuses the system accepts (check-in offers these).
    pub attendance_statuses: Vec<String>,
    /// Groups of players who must not meet.
    pub forbidden: Vec<Vec<PlayerId>>,
    /// Corrections of results, and results online games gave.
    #[schema(value_type = Vec<Object>)]
    pub log: Vec<LogEntry>,
    /// The Keizer settings (XTK), for a Keizer tournament.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub keizer: Option<BTreeMap<String, String>>,
    /// Every round's Chess960 position, for a Chess960 tournament.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub chess960_positions: Option<Vec<Chess960View>>,
}

/// A registered player.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub(crate) struct PlayerView {
    pub id: PlayerId,
    pub name: String,
    pub rating: Option<u16>,
    pub club: Option<String>,
    pub username: Option<String>,
    pub guest: bool,
    pub withdrawn_after: Option<u32>,
    pub first_round: u32,
}

/// A player's recorded attendance in a round.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub(crate) struct AttendanceView {
    pub round: u32,
    pub player: PlayerId,
    pub status: String,
}

/// The whole tournament.
pub(crate) fn detail(id: &str, record: &Record) -> DetailView {
    let t = &record.t;
    let paired = t.paired_rounds();
    let total = t.total_rounds.unwrap_or(paired);
    let players = t
        .players
        .iter()
        .map(|p| PlayerView {
            id: p.id,
            name: p.name.clone(),
            rating: p.rating,
            club: p.club.clone(),
            username: record.s.usernames.get(&p.id).cloned(),
            guest: record.s.guests.contains(&p.id),
            withdrawn_after: t
                .withdrawals
                .iter()
                .find(|w| w.player == p.id)
                .map(|w| w.after_round),
            first_round: t
                .late_entries
                .iter()
                .find(|l| l.player == p.id)
                .map_or(1, |l| l.first_round),
        })
        .collect();
    let keizer =
        (record.s.system == System::Keizer).then(|| t.keizer_settings.iter().cloned().collect());
    let chess960_positions = record.s.chess960.then(|| {
        (1..=total)
            .filter_map(|r| {
                chess960(record, r).map(|mut v| {
                    v.round = Some(r);
                    v
                })
            })
            .collect()
    });
    DetailView {
        id: id.to_string(),
        name: record.name(),
        system: record.s.system.as_str().to_string(),
        variant: record.s.variant,
        chess960: record.s.chess960,
        clock: record.s.clock.clone(),
        rules: record.s.rules.clone(),
        double: record.s.double,
        total_rounds: t.total_rounds,
        paired_rounds: paired,
        complete_rounds: record.complete_rounds(),
        tiebreaks: tiebreaks(record)
            .map(|l| l.iter().map(ToString::to_string).collect())
            .unwrap_or_default(),
        players,
        rounds: (1..=paired).map(|r| round(record, r)).collect(),
        attendance: attendance(record, total.max(paired + 1)),
        attendance_statuses: super::attendance_statuses(record.s.system)
            .into_iter()
            .map(String::from)
            .collect(),
        forbidden: t
            .forbidden_pairs
            .iter()
            .filter(|f| f.rounds.is_none())
            .map(|f| f.players.clone())
            .collect(),
        log: record.s.log.clone(),
        keizer,
        chess960_positions,
    }
}

/// Recorded attendance up to round `upto`: the XTA lines and the byes
/// asked for (in a player's own columns or a 240 line).
fn attendance(record: &Record, upto: u32) -> Vec<AttendanceView> {
    let t = &record.t;
    let mut marked: std::collections::BTreeSet<(u32, u32)> = t
        .absences
        .iter()
        .flat_map(|a| a.players.iter().map(move |&p| (a.round, p)))
        .collect();
    for p in &t.players {
        for (i, e) in p.rounds.iter().enumerate() {
            if e.opponent.is_none() && e.result != tempo_tourney::ResultCode::PairingBye {
                marked.insert((i as u32 + 1, p.id));
            }
        }
    }
    for b in &t.bye_requests {
        marked.extend(b.players.iter().map(|&p| (b.round, p)));
    }
    marked
        .into_iter()
        .filter(|&(r, _)| r <= upto)
        .filter_map(|(r, p)| {
            let status = record.status(p, r)?;
            Some(AttendanceView {
                round: r,
                player: p,
                status: status.as_str().to_string(),
            })
        })
        .collect()
}

/// The tie-breaks as `tempo standings` takes them
/// ([`tiebreak::for_tournament`]).
fn tiebreaks(record: &Record) -> Result<Vec<TieBreak>, Refusal> {
    tiebreak::for_tournament(&record.t, record.s.system)
        .map_err(|e| invalid(format!("tie-breaks: {}", e.error)))
}

/// The tournament up to round `rounds` (later columns left out).
fn up_to(t: &Tournament, rounds: u32) -> Tournament {
    let mut t = t.clone();
    for p in &mut t.players {
        p.rounds.truncate(rounds as usize);
    }
    t
}

/// The standings after a round.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub(crate) struct StandingsView {
    pub round: u32,
    pub system: String,
    /// The tie-breaks' names, in order.
    pub tiebreaks: Vec<String>,
    pub rows: Vec<StandingRow>,
}

/// One line of the standings.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(untagged)]
pub(crate) enum StandingRow {
    /// A Swiss or round robin: points and tie-breaks.
    Points(PointsRow),
    /// Keizer: the Keizer score.
    Keizer(KeizerRow),
}

/// A Swiss or round robin player's line.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub(crate) struct PointsRow {
    pub rank: u32,
    pub player: PlayerId,
    pub name: String,
    pub rating: Option<u16>,
    pub score: f64,
    pub score_text: String,
    /// Each tie-break's value by name.
    pub tiebreaks: BTreeMap<String, f64>,
    /// The FIDE rating change for the tournament, if rated with rated
    /// opponents (docs/ratings.md).
    pub fide: Option<FidePreview>,
    /// The DWZ preview, if the player and opponents have a DWZ.
    pub dwz: Option<DwzPreview>,
}

/// A Keizer player's line.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub(crate) struct KeizerRow {
    pub rank: usize,
    pub player: PlayerId,
    pub name: Option<String>,
    pub score: f64,
    pub score_text: String,
    /// Empty: Keizer ranks by its score.
    pub tiebreaks: BTreeMap<String, f64>,
    pub value: i64,
    pub games: u32,
    pub wins: u32,
    pub draws: u32,
    pub losses: u32,
    pub fide: Option<FidePreview>,
    pub dwz: Option<DwzPreview>,
}

/// The standings after round `after` (default: the last round with every
/// result in); `this_year` (the server's) is the rating figures'
/// evaluation year for a TRF without dates.
pub(crate) fn standings_view(
    record: &Record,
    after: Option<u32>,
    this_year: i32,
) -> Result<StandingsView, Refusal> {
    standings_of(record, after, Some(this_year))
}

/// The standings without the rating previews (`fide`, `dwz` null): ranks
/// and scores for the printouts, which show no previews.
pub(crate) fn standings_rows(
    record: &Record,
    after: Option<u32>,
) -> Result<StandingsView, Refusal> {
    standings_of(record, after, None)
}

fn standings_of(
    record: &Record,
    after: Option<u32>,
    this_year: Option<i32>,
) -> Result<StandingsView, Refusal> {
    let complete = record.complete_rounds();
    let round = after.unwrap_or(complete);
    if round > complete {
        return Err(Refusal::Conflict(format!(
            "standings after round {round}: only {complete} rounds have every result"
        )));
    }
    let t = up_to(&record.t, complete);
    let mut previews = this_year
        .map(|year| ratings::previews(record, &t, round, year))
        .unwrap_or_default();
    let rows = match record.s.system {
        System::Keizer => keizer_rows(&t, round, &mut previews)?,
        System::Dutch | System::RoundRobin => points_rows(record, &t, round, &mut previews)?,
    };
    let order = tiebreaks(record)?.iter().map(ToString::to_string).collect();
    Ok(StandingsView {
        round,
        system: record.s.system.as_str().to_string(),
        tiebreaks: order,
        rows,
    })
}

fn keizer_rows(
    t: &Tournament,
    round: u32,
    previews: &mut ratings::Previews,
) -> Result<Vec<StandingRow>, Refusal> {
    let settings =
        keizer::settings_from_tournament(t).map_err(|e| invalid(format!("keizer: {e}")))?;
    let ranking = keizer::standings(t, &settings, Some(round))
        .map_err(|e| Refusal::Conflict(e.to_string()))?;
    Ok(ranking
        .standings
        .iter()
        .map(|s| {
            StandingRow::Keizer(KeizerRow {
                rank: s.place,
                player: s.id,
                name: t.player(s.id).map(|p| p.name.clone()),
                score: s.score.as_f64(),
                score_text: score_text(s.score.numerator(), s.score.denominator()),
                tiebreaks: BTreeMap::new(),
                value: s.value,
                games: s.games,
                wins: s.wins,
                draws: s.draws,
                losses: s.losses,
                fide: previews.fide.remove(&s.id),
                dwz: previews.dwz.remove(&s.id),
            })
        })
        .collect())
}

fn points_rows(
    record: &Record,
    t: &Tournament,
    round: u32,
    previews: &mut ratings::Previews,
) -> Result<Vec<StandingRow>, Refusal> {
    let mut options = match record.s.system {
        System::RoundRobin => StandingsOptions::round_robin(),
        _ => StandingsOptions::swiss(),
    };
    options.tiebreaks = tiebreaks(record)?;
    options.tiebreak_options.rounds = Some(round);
    options.tiebreak_options.unplayed = t
        .tiebreak_edition()
        .map_err(|e| invalid(e.to_string()))?
        .unwrap_or_default();
    let s = standings(t, &options);
    Ok(s.rows
        .iter()
        .map(|r| {
            StandingRow::Points(PointsRow {
                rank: r.rank,
                player: r.id,
                name: r.name.clone(),
                rating: r.rating,
                score: r.score.as_f64(),
                score_text: r.score.to_string(),
                tiebreaks: s
                    .tiebreaks
                    .iter()
                    .zip(&r.values)
                    .map(|(tb, v)| (tb.to_string(), v.as_f64()))
                    .collect(),
                fide: previews.fide.remove(&r.id),
                dwz: previews.dwz.remove(&r.id),
            })
        })
        .collect())
}

/// A rational score as a decimal with at most two decimals.
fn score_text(numerator: i128, denominator: i128) -> String {
    if denominator == 0 {
        return "0".into();
    }
    let hundredths = (200 * numerator + denominator).div_euclid(2 * denominator);
    let (whole, frac) = (hundredths.div_euclid(100), hundredths.rem_euclid(100));
    if frac % 10 == 0 {
        format!("{whole}.{}", frac / 10)
    } else {
        format!("{whole}.{frac:02}")
    }
}

/// Each player's rounds.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub(crate) struct CrosstableView {
    /// The paired rounds.
    pub rounds: u32,
    pub players: Vec<CrosstableLine>,
}

/// A player's line of the crosstable.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub(crate) struct CrosstableLine {
    pub player: PlayerId,
    pub name: String,
    pub rating: Option<u16>,
    pub club: Option<String>,
    pub points: f64,
    pub rounds: Vec<CrosstableCell>,
}

/// A player's round: opponent, colour, result code (TRF's letters).
#[derive(Debug, Clone, Serialize, ToSchema)]
pub(crate) struct CrosstableCell {
    pub round: u32,
    pub opponent: Option<PlayerId>,
    /// `white` or `black`.
    pub colour: Option<String>,
    pub result: Option<String>,
    pub status: Option<String>,
}

/// Each player's rounds: opponent, colour, result code (TRF's letters).
pub(crate) fn crosstable(record: &Record) -> CrosstableView {
    let t = &record.t;
    let paired = t.paired_rounds();
    let players = t
        .players
        .iter()
        .map(|p| {
            let rounds = (1..=paired)
                .map(|r| {
                    let e = p.entry(r);
                    CrosstableCell {
                        round: r,
                        opponent: e.and_then(|e| e.opponent),
                        colour: e.and_then(|e| e.colour).map(|c| {
                            if c == tempo_chess::Color::White {
                                "white"
                            } else {
                                "black"
                            }
                            .to_string()
                        }),
                        result: e
                            .map(|e| e.result.trf_char().to_string())
                            .filter(|c| c.trim() != ""),
                        status: record.status(p.id, r).map(|s| s.as_str().to_string()),
                    }
                })
                .collect();
            CrosstableLine {
                player: p.id,
                name: p.name.clone(),
                rating: p.rating,
                club: p.club.clone(),
                points: t.score_after(p.id, paired).as_f64(),
                rounds,
            }
        })
        .collect();
    CrosstableView {
        rounds: paired,
        players,
    }
}
