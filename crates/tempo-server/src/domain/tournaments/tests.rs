//! The tournament model without storage or HTTP.

use super::{Attendance, CreateRequest, Record, Refusal, System, parse_attendance};

fn new(system: &str, rounds: Option<u32>, players: u32) -> Record {
    let req = CreateRequest {
        name: Some("Test".into()),
        system: Some(system.into()),
        rounds,
        ..CreateRequest::default()
    };
    let mut r = Record::create(&req, 7).unwrap();
    for i in 1..=players {
        assert_eq!(
            r.add_player(&format!("P{i}"), Some(2000 - i), None, None, false),
            Ok(i)
        );
    }
    r
}

/// The record as stored and read back.
fn reread(r: &Record) -> Record {
    let (trf, settings) = r.to_texts().unwrap();
    Record::load(&trf, &settings).unwrap()
}

#[test]
fn statuses_read_as_directors_write_them() {
    assert_eq!(parse_attendance("club duty"), Ok(Attendance::ClubDuty));
    assert_eq!(parse_attendance("Club_Duty"), Ok(Attendance::ClubDuty));
    assert_eq!(parse_attendance("excused"), Ok(Attendance::Excused));
    assert!(matches!(
        parse_attendance("asleep"),
        Err(Refusal::Invalid(_))
    ));
}

#[test]
fn a_round_needs_every_result_before_the_next() {
    let mut r = new("dutch", Some(3), 4);
    assert_eq!(r.pair_next(), Ok(1));
    assert!(matches!(r.pair_next(), Err(Refusal::Conflict(_))));
    let boards = r.boards(1).unwrap().boards;
    assert_eq!(boards.len(), 2);
    assert!(matches!(
        r.set_result(1, 1, "2-0", "arb", 0, false),
        Err(Refusal::Invalid(_))
    ));
    assert!(matches!(
        r.set_result(1, 3, "1-0", "arb", 0, false),
        Err(Refusal::NotFound(_))
    ));
    // A director who plays on a board does not enter its result; the
    // game itself still may.
    r.s.usernames.insert(boards[0].black, "Arb".into());
    assert!(matches!(
        r.set_result(1, 1, "0-1", "arb", 0, false),
        Err(Refusal::Forbidden(_))
    ));
    r.s.usernames.clear();
    assert_eq!(r.set_result(1, 1, "1-0", "arb", 0, false), Ok(true));
    assert_eq!(r.set_result(1, 2, "+-", "arb", 0, false), Ok(true));
    assert_eq!(r.complete_rounds(), 1);
    // A game's result does not replace the director's; a correction is logged.
    assert_eq!(r.set_result(1, 1, "0-1", "game x", 0, true), Ok(false));
    assert_eq!(r.set_result(1, 1, "0-1", "arb", 5, false), Ok(true));
    assert_eq!(r.s.log.len(), 1);
    assert_eq!(r.s.log[0].from.as_deref(), Some("1-0"));
    let r = reread(&r);
    assert_eq!(r.result(1, &boards[0]).as_deref(), Some("0-1"));
    assert_eq!(r.result(1, &boards[1]).as_deref(), Some("+-"));
}

#[test]
fn swiss_attendance_is_for_the_next_round_and_keizer_any() {
    let mut r = new("dutch", Some(5), 4);
    assert!(matches!(
        r.set_attendance(3, 1, Attendance::Excused),
        Err(Refusal::Conflict(_))
    ));
    r.set_attendance(1, 4, Attendance::HalfPointBye).unwrap();
    assert_eq!(r.status(4, 1), Some(Attendance::HalfPointBye));
    r.set_attendance(1, 4, Attendance::Present).unwrap();
    assert_eq!(r.status(4, 1), None);
    assert!(r.t.players[3].rounds.is_empty());

    let mut k = new("keizer", Some(5), 4);
    k.set_attendance(3, 2, Attendance::ClubDuty).unwrap();
    assert_eq!(k.status(2, 3), Some(Attendance::ClubDuty));
    // Nothing written before round 3: everyone plays round 1.
    assert_eq!(k.pair_next(), Ok(1));
    assert_eq!(k.boards(1).unwrap().boards.len(), 2);
    assert!(matches!(
        k.set_attendance(1, 1, Attendance::HalfPointBye),
        Err(Refusal::Invalid(_))
    ));
}

#[test]
fn a_round_robin_follows_the_table_with_forfeits_for_absentees() {
    let mut r = new("round-robin", None, 4);
    assert_eq!(r.s.system, System::RoundRobin);
    r.set_attendance(1, 4, Attendance::Unexcused).unwrap();
    assert_eq!(r.pair_next(), Ok(1));
    assert_eq!(r.t.total_rounds, Some(3));
    let boards = r.boards(1).unwrap().boards;
    let pairs: Vec<(u32, u32)> = boards.iter().map(|b| (b.white, b.black)).collect();
    assert_eq!(pairs, [(1, 4), (2, 3)]);
    assert_eq!(r.result(1, &boards[0]).as_deref(), Some("+-"));
    assert!(matches!(
        r.add_player("Late", None, None, None, false),
        Err(Refusal::Conflict(_))
    ));
    // The last round can be taken back.
    assert!(matches!(r.unpair(2), Err(Refusal::NotFound(_))));
    r.unpair(1).unwrap();
    assert_eq!(r.t.paired_rounds(), 0);
    assert!(r.s.rounds.is_empty());
}

#[test]
fn late_entries_and_withdrawals() {
    let mut r = new("keizer", Some(4), 3);
    assert_eq!(r.pair_next(), Ok(1));
    assert_eq!(r.boards(1).unwrap().bye, Some(3));
    r.set_result(1, 1, "1/2-1/2", "arb", 0, false).unwrap();
    assert_eq!(r.add_player("Late", None, Some("anna"), None, true), Ok(4));
    assert_eq!(r.t.late_entries[0].first_round, 2);
    assert!(matches!(
        r.add_player("Again", None, Some("Anna"), None, false),
        Err(Refusal::Conflict(_))
    ));
    assert_eq!(r.withdraw(1), Ok(1));
    assert!(matches!(r.withdraw(1), Err(Refusal::Conflict(_))));
    assert!(matches!(r.withdraw(9), Err(Refusal::NotFound(_))));
    let r = reread(&r);
    assert!(r.s.guests.contains(&4));
    assert_eq!(r.s.usernames.get(&4).map(String::as_str), Some("anna"));
    let mut r = r;
    assert_eq!(r.pair_next(), Ok(2));
    let round = r.boards(2).unwrap();
    let seated: Vec<u32> = round
        .boards
        .iter()
        .flat_map(|b| [b.white, b.black])
        .chain(round.bye)
        .collect();
    assert_eq!(seated.len(), 3);
    assert!(seated.contains(&4) && !seated.contains(&1));
}

#[test]
fn bad_settings_are_refused() {
    let bad = |req: CreateRequest| matches!(Record::create(&req, 1), Err(Refusal::Invalid(_)));
    let base = || CreateRequest {
        name: Some("X".into()),
        system: Some("dutch".into()),
        rounds: Some(5),
        ..CreateRequest::default()
    };
    assert!(bad(CreateRequest {
        double: Some(true),
        ..base()
    }));
    assert!(bad(CreateRequest {
        variant: Some("bughouse".into()),
        ..base()
    }));
    assert!(bad(CreateRequest {
        name: Some("\u{7}".into()),
        ..base()
    }));
    assert!(bad(CreateRequest {
        rounds: None,
        ..base()
    }));
    let mut keizer = serde_json::Map::new();
    keizer.insert("preset".into(), "club".into());
    assert!(bad(CreateRequest {
        keizer: Some(keizer.clone()),
        ..base()
    }));
    let r = Record::create(
        &CreateRequest {
            system: Some("keizer".into()),
            keizer: Some(keizer),
            ..base()
        },
        1,
    )
    .unwrap();
    assert_eq!(r.t.keizer_settings, [("preset".into(), "club".into())]);
}

#[test]
fn clocks_and_tiebreaks_in_either_form() {
    let r = Record::create(
        &CreateRequest {
            name: Some("X".into()),
            system: Some("dutch".into()),
            rounds: Some(5),
            clock: Some(serde_json::json!({"limit": 300, "increment": 3})),
            tiebreaks: Some("BH-C1, SB".into()),
            chess960: Some(true),
            ..CreateRequest::default()
        },
        1,
    )
    .unwrap();
    assert_eq!(r.s.clock.as_deref(), Some("300+3"));
    assert_eq!(r.t.info_text("202"), Some("BH-C1,SB"));
    assert_eq!(r.game_spec(1).variant, tempo_host::Variant::Chess960);
    assert!(r.game_spec(1).chess960.is_some());
}

#[test]
fn forbidden_pairs_keep_players_apart() {
    let mut r = new("keizer", Some(3), 4);
    assert!(matches!(r.forbid(&[1]), Err(Refusal::Invalid(_))));
    assert!(matches!(r.forbid(&[1, 9]), Err(Refusal::NotFound(_))));
    r.forbid(&[2, 1]).unwrap();
    let mut r = reread(&r);
    assert_eq!(r.pair_next(), Ok(1));
    let boards = r.boards(1).unwrap().boards;
    assert!(
        boards
            .iter()
            .all(|b| (b.white.min(b.black), b.white.max(b.black)) != (1, 2))
    );
}

#[test]
fn a_double_round_robin_by_name() {
    let mut r = new("double-round-robin", None, 3);
    assert!(r.s.double);
    assert_eq!(r.pair_next(), Ok(1));
    assert_eq!(r.t.total_rounds, Some(6));
}

/// A round's mode is kept with the tournament; only a round at tables
/// shows its boards' displays, and no view of the model names a seat (the
/// service adds seat links for a director).
#[test]
fn a_round_at_tables_keeps_its_mode() {
    use super::RoundMode;
    let mut r = new("dutch", Some(3), 4);
    assert_eq!(r.pair_next(), Ok(1));
    assert_eq!(r.mode(1), None);
    r.set_mode(1, RoundMode::Table);
    r.set_game(1, 1, "g1");
    let r = reread(&r);
    assert_eq!(r.mode(1), Some(RoundMode::Table));
    let round = super::view::round(&r, 1);
    assert_eq!(round.mode, Some(RoundMode::Table));
    assert_eq!(round.boards[0].display.as_deref(), Some("/table/g1"));
    assert_eq!(round.boards[1].display, None, "a board without its game");
    assert!(round.boards.iter().all(|b| b.seats.is_none()));
    let list = super::print::pairing_list(&r, 1).unwrap();
    assert_eq!(list.boards[0].display.as_deref(), Some("/table/g1"));
    assert!(list.boards.iter().all(|b| b.seats.is_none()));
    let json = serde_json::to_value(&round).unwrap();
    assert_eq!(json["mode"], "table");
    // An online round's game has no display.
    let mut online = new("dutch", Some(3), 4);
    online.pair_next().unwrap();
    online.set_mode(1, RoundMode::Online);
    online.set_game(1, 1, "g2");
    let round = super::view::round(&reread(&online), 1);
    assert_eq!(round.mode, Some(RoundMode::Online));
    assert_eq!(round.boards[0].display, None);
    // A round before modes were kept reads as over the board.
    let (trf, settings) = online.to_texts().unwrap();
    let old = settings.replace(r#","mode":"online""#, "");
    assert_ne!(old, settings);
    assert_eq!(Record::load(&trf, &old).unwrap().mode(1), None);
}
