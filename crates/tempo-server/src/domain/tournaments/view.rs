//! What the API shows of a tournament: the whole of it, a round, the
//! standings (as `tempo standings` computes them) and the crosstable.

use serde_json::{Value, json};
use tempo_tourney::standings::{StandingsOptions, standings};
use tempo_tourney::tiebreak::{self, TieBreak};
use tempo_tourney::{Tournament, keizer};

use super::{Record, Refusal, System, invalid};

/// A round: boards (with results and games), the bye, the Chess960
/// position.
pub fn round(record: &Record, round: u32) -> Value {
    let boards = record.boards(round);
    let name = |id| record.t.player(id).map(|p| p.name.clone());
    let mut value = json!({"round": round, "boards": []});
    if let Some(b) = &boards {
        value["boards"] = b
            .boards
            .iter()
            .map(|board| {
                let mut v = json!({"board": board.board, "white": board.white,
                    "black": board.black, "result": record.result(round, board),
                    "whiteName": name(board.white), "blackName": name(board.black)});
                if let Some(game) = &board.game_id {
                    v["gameId"] = game.clone().into();
                }
                v
            })
            .collect();
        if let Some(bye) = b.bye {
            value["bye"] = bye.into();
            value["byeName"] = name(bye).into();
        }
    }
    if let Some(position) = chess960(record, round) {
        value["chess960"] = position;
    }
    value
}

fn chess960(record: &Record, round: u32) -> Option<Value> {
    if !record.s.chess960 {
        return None;
    }
    let number = record.t.chess960_position(round)?;
    let fen = tempo_chess::chess960::start_position(number).ok()?.to_fen();
    Some(json!({"number": number, "fen": fen}))
}

/// The whole tournament, for a director's page.
pub fn detail(id: &str, record: &Record) -> Value {
    let t = &record.t;
    let paired = t.paired_rounds();
    let total = t.total_rounds.unwrap_or(paired);
    let players: Vec<Value> = t
        .players
        .iter()
        .map(|p| {
            let withdrawn = t.withdrawals.iter().find(|w| w.player == p.id);
            let late = t.late_entries.iter().find(|l| l.player == p.id);
            json!({
                "id": p.id,
                "name": p.name,
                "rating": p.rating,
                "club": p.club,
                "username": record.s.usernames.get(&p.id),
                "guest": record.s.guests.contains(&p.id),
                "withdrawnAfter": withdrawn.map(|w| w.after_round),
                "firstRound": late.map_or(1, |l| l.first_round),
            })
        })
        .collect();
    // Recorded attendance: the XTA lines and the byes asked for (in a
    // player's own columns or a 240 line).
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
    let attendance: Vec<Value> = marked
        .into_iter()
        .filter(|&(r, _)| r <= total.max(paired + 1))
        .filter_map(|(r, p)| {
            let status = record.status(p, r)?;
            Some(json!({"round": r, "player": p, "status": status.as_str()}))
        })
        .collect();
    let keizer: serde_json::Map<String, Value> = t
        .keizer_settings
        .iter()
        .map(|(k, v)| (k.clone(), Value::String(v.clone())))
        .collect();
    let mut value = json!({
        "id": id,
        "name": record.name(),
        "system": record.s.system.as_str(),
        "variant": record.s.variant,
        "chess960": record.s.chess960,
        "clock": record.s.clock,
        "rules": record.s.rules,
        "double": record.s.double,
        "totalRounds": t.total_rounds,
        "pairedRounds": paired,
        "completeRounds": record.complete_rounds(),
        "tiebreaks": tiebreaks(record).map(|l| l.iter().map(ToString::to_string).collect::<Vec<_>>()).unwrap_or_default(),
        "players": players,
        "rounds": (1..=paired).map(|r| round(record, r)).collect::<Vec<_>>(),
        "attendance": attendance,
        "forbidden": t.forbidden_pairs.iter().filter(|f| f.rounds.is_none()).map(|f| &f.players).collect::<Vec<_>>(),
        "log": record.s.log,
    });
    if record.s.system == System::Keizer {
        value["keizer"] = Value::Object(keizer);
    }
    if record.s.chess960 {
        value["chess960Positions"] = (1..=total)
            .filter_map(|r| {
                chess960(record, r).map(|mut v| {
                    v["round"] = r.into();
                    v
                })
            })
            .collect();
    }
    value
}

/// The tie-breaks as `tempo standings` takes them: the file's 202 line,
/// else its 212 line without PTS, else the system's default.
fn tiebreaks(record: &Record) -> Result<Vec<TieBreak>, Refusal> {
    let t = &record.t;
    if record.s.system == System::Keizer {
        return Ok(Vec::new());
    }
    if let Some(list) = t.info_text("202").filter(|s| !s.is_empty()) {
        return tiebreak::parse_list(list).map_err(|e| invalid(format!("tie-breaks: {e}")));
    }
    if let Some(list) = t.info_text("212").filter(|s| !s.is_empty()) {
        let without: Vec<&str> = list
            .split(',')
            .map(str::trim)
            .filter(|c| !c.eq_ignore_ascii_case("PTS"))
            .collect();
        return tiebreak::parse_list(&without.join(","))
            .map_err(|e| invalid(format!("tie-breaks: {e}")));
    }
    Ok(match record.s.system {
        System::RoundRobin => TieBreak::round_robin_default(),
        _ => TieBreak::swiss_default(),
    })
}

/// The tournament up to round `rounds` (later columns left out).
fn up_to(t: &Tournament, rounds: u32) -> Tournament {
    let mut t = t.clone();
    for p in &mut t.players {
        p.rounds.truncate(rounds as usize);
    }
    t
}

/// The standings after round `after` (default: the last round with every
/// result in).
pub fn standings_json(record: &Record, after: Option<u32>) -> Result<Value, Refusal> {
    let complete = record.complete_rounds();
    let round = after.unwrap_or(complete);
    if round > complete {
        return Err(Refusal::Conflict(format!(
            "standings after round {round}: only {complete} rounds have every result"
        )));
    }
    let t = up_to(&record.t, complete);
    let rows: Vec<Value> = match record.s.system {
        System::Keizer => {
            let settings = keizer::settings_from_tournament(&t)
                .map_err(|e| invalid(format!("keizer: {e}")))?;
            let ranking = keizer::standings(&t, &settings, Some(round))
                .map_err(|e| Refusal::Conflict(e.to_string()))?;
            ranking
                .standings
                .iter()
                .map(|s| {
                    json!({
                        "rank": s.place,
                        "player": s.id,
                        "name": t.player(s.id).map(|p| p.name.clone()),
                        "score": s.score.as_f64(),
                        "scoreText": score_text(s.score.numerator(), s.score.denominator()),
                        "tiebreaks": {},
                        "value": s.value,
                        "games": s.games,
                        "wins": s.wins,
                        "draws": s.draws,
                        "losses": s.losses,
                    })
                })
                .collect()
        }
        System::Dutch | System::RoundRobin => {
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
            let s = standings(&t, &options);
            s.rows
                .iter()
                .map(|r| {
                    let tbs: serde_json::Map<String, Value> = s
                        .tiebreaks
                        .iter()
                        .zip(&r.values)
                        .map(|(tb, v)| (tb.to_string(), v.as_f64().into()))
                        .collect();
                    json!({
                        "rank": r.rank,
                        "player": r.id,
                        "name": r.name,
                        "rating": r.rating,
                        "score": r.score.as_f64(),
                        "scoreText": r.score.to_string(),
                        "tiebreaks": tbs,
                    })
                })
                .collect()
        }
    };
    let order: Vec<String> = tiebreaks(record)?.iter().map(ToString::to_string).collect();
    Ok(
        json!({"round": round, "system": record.s.system.as_str(), "tiebreaks": order, "rows": rows}),
    )
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

/// Each player's rounds: opponent, colour, result code (TRF's letters).
pub fn crosstable(record: &Record) -> Value {
    let t = &record.t;
    let paired = t.paired_rounds();
    let players: Vec<Value> = t
        .players
        .iter()
        .map(|p| {
            let rounds: Vec<Value> = (1..=paired)
                .map(|r| {
                    let e = p.entry(r);
                    json!({
                        "round": r,
                        "opponent": e.and_then(|e| e.opponent),
                        "colour": e.and_then(|e| e.colour).map(|c| if c == tempo_chess::Color::White { "white" } else { "black" }),
                        "result": e.map(|e| e.result.trf_char().to_string()).filter(|c| c.trim() != ""),
                        "status": record.status(p.id, r).map(|s| s.as_str()),
                    })
                })
                .collect();
            json!({
                "player": p.id,
                "name": p.name,
                "rating": p.rating,
                "club": p.club,
                "points": t.score_after(p.id, paired).as_f64(),
                "rounds": rounds,
            })
        })
        .collect();
    json!({"rounds": paired, "players": players})
}
