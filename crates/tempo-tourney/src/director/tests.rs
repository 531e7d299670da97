use super::*;
use crate::pairing::{Options, pair_next};

fn tournament(system: System, players: u32, rounds: Option<u32>) -> Tournament {
    let mut t = Tournament::new();
    t.total_rounds = rounds;
    for i in 1..=players {
        let player = t.add_player(system, format!("P{i}"), Some(2000 - i as u16));
        assert_eq!(player.unwrap().id, i);
    }
    t
}

fn pair(t: &mut Tournament, system: System) -> crate::pairing::Pairing {
    let pairing = pair_next(t, system, &Options::default()).unwrap();
    pairing.write_to(t);
    pairing
}

#[test]
fn board_results_read_back_by_name_and_code() {
    for result in BoardResult::ALL {
        assert_eq!(result.as_str().parse(), Ok(result));
        let (white, black) = result.codes();
        assert_eq!(BoardResult::from_white_code(white), Some(result));
        assert_eq!(white.outcome(), black.outcome().reversed());
    }
    for draw in ["½-½", "0.5-0.5", "1/2", "½", "=", " 1/2-1/2 "] {
        assert_eq!(draw.parse(), Ok(BoardResult::Draw), "{draw}");
    }
    assert_eq!(
        BoardResult::from_white_code(ResultCode::UnratedLoss),
        Some(BoardResult::BlackWins)
    );
    assert_eq!(BoardResult::from_white_code(ResultCode::PairingBye), None);
    let error = format!(" {} ", "x".repeat(60))
        .parse::<BoardResult>()
        .unwrap_err();
    assert_eq!(error.text, "x".repeat(40));
    assert_eq!(
        "2-0".parse::<BoardResult>().unwrap_err().to_string(),
        "result '2-0': 1-0, 0-1, 1/2-1/2, +- or -+"
    );
}

#[test]
fn attendance_reads_as_directors_write_it() {
    for attendance in Attendance::ALL {
        assert_eq!(attendance.as_str().parse(), Ok(attendance));
        assert!(attendance.is_known_to(System::Dutch));
    }
    assert_eq!("club duty".parse(), Ok(Attendance::ClubDuty));
    assert_eq!("Club_Duty".parse(), Ok(Attendance::ClubDuty));
    assert_eq!("clubduty".parse(), Ok(Attendance::ClubDuty));
    assert_eq!(
        "asleep".parse::<Attendance>().unwrap_err().to_string(),
        "status 'asleep': present, excused, unexcused, club-duty, half-point-bye or full-point-bye"
    );
    assert!(!Attendance::FullPointBye.is_known_to(System::Keizer));
    assert!(Attendance::ClubDuty.is_known_to(System::Keizer));
}

#[test]
fn a_swiss_records_attendance_for_the_next_round_in_the_players_column() {
    let mut t = tournament(System::Dutch, 4, Some(5));
    assert_eq!(
        t.set_attendance(System::Dutch, 3, 1, Attendance::Excused),
        Err(AttendanceError::BeyondNextRound { next: 1 })
    );
    assert_eq!(
        t.set_attendance(System::Dutch, 6, 1, Attendance::Excused),
        Err(AttendanceError::NoSuchRound { round: 6 })
    );
    assert_eq!(
        t.set_attendance(System::Dutch, 1, 9, Attendance::Excused),
        Err(AttendanceError::UnknownPlayer(9))
    );
    t.set_attendance(System::Dutch, 1, 4, Attendance::HalfPointBye)
        .unwrap();
    assert_eq!(t.requested_bye(4, 1), Some(ByeKind::HalfPoint));
    assert_eq!(
        t.attendance(System::Dutch, 4, 1),
        Some(Attendance::HalfPointBye)
    );
    // Keizer reads the same bye as an excused absence.
    assert_eq!(
        t.attendance(System::Keizer, 4, 1),
        Some(Attendance::Excused)
    );
    t.set_attendance(System::Dutch, 1, 3, Attendance::Excused)
        .unwrap();
    assert_eq!(t.requested_bye(3, 1), Some(ByeKind::ZeroPoint));
    assert_eq!(t.attendance(System::Dutch, 3, 1), Some(Attendance::Excused));
    t.set_attendance(System::Dutch, 1, 4, Attendance::Present)
        .unwrap();
    assert_eq!(t.attendance(System::Dutch, 4, 1), None);
    assert!(t.players[3].rounds.is_empty());
}

#[test]
fn a_paired_round_takes_only_absences_of_players_it_left_out() {
    let mut t = tournament(System::Dutch, 3, Some(3));
    t.set_attendance(System::Dutch, 1, 3, Attendance::HalfPointBye)
        .unwrap();
    pair(&mut t, System::Dutch);
    assert_eq!(
        t.set_attendance(System::Dutch, 1, 1, Attendance::Excused),
        Err(AttendanceError::Paired {
            player: 1,
            round: 1
        })
    );
    assert_eq!(
        t.set_attendance(System::Dutch, 1, 3, Attendance::Present),
        Err(AttendanceError::PairedWithout {
            player: 3,
            round: 1
        })
    );
    t.set_attendance(System::Dutch, 1, 3, Attendance::Unexcused)
        .unwrap();
    assert_eq!(
        t.attendance(System::Dutch, 3, 1),
        Some(Attendance::Unexcused)
    );
}

#[test]
fn keizer_records_absences_for_any_round_and_no_byes() {
    let mut t = tournament(System::Keizer, 4, Some(5));
    t.set_attendance(System::Keizer, 3, 2, Attendance::ClubDuty)
        .unwrap();
    assert_eq!(
        t.attendance(System::Keizer, 2, 3),
        Some(Attendance::ClubDuty)
    );
    assert_eq!(t.absence_kind(2, 3), Some(AbsenceKind::ClubDuty));
    assert!(
        t.players[1].rounds.is_empty(),
        "nothing in the player's line"
    );
    assert_eq!(
        t.set_attendance(System::Keizer, 1, 1, Attendance::HalfPointBye),
        Err(AttendanceError::UnknownToSystem {
            system: System::Keizer,
            attendance: Attendance::HalfPointBye
        })
    );
    t.set_attendance(System::Keizer, 3, 2, Attendance::Present)
        .unwrap();
    assert!(t.absences.is_empty());
}

#[test]
fn late_entries_start_after_the_paired_rounds_except_in_a_round_robin() {
    let mut t = tournament(System::Keizer, 3, Some(4));
    pair(&mut t, System::Keizer);
    let late = t.add_player(System::Keizer, "Late", None).unwrap();
    assert_eq!(late.id, 4);
    assert_eq!(
        t.late_entries,
        [LateEntry {
            player: 4,
            first_round: 2
        }]
    );
    assert!(!t.is_active_in(4, 1));
    assert_eq!(
        t.set_attendance(System::Keizer, 1, 4, Attendance::Excused),
        Err(AttendanceError::NotInTournament {
            player: 4,
            round: 1
        })
    );

    let mut rr = tournament(System::RoundRobin, 4, None);
    pair(&mut rr, System::RoundRobin);
    assert_eq!(
        rr.add_player(System::RoundRobin, "Late", None).unwrap_err(),
        EntryError::RoundRobinStarted
    );
}

#[test]
fn a_player_withdraws_once_after_the_paired_rounds() {
    let mut t = tournament(System::Dutch, 4, Some(5));
    assert_eq!(t.withdraw(2), Ok(0));
    assert_eq!(t.withdraw(2), Err(WithdrawalError::AlreadyWithdrawn(2)));
    assert_eq!(t.withdraw(7), Err(WithdrawalError::UnknownPlayer(7)));
    assert!(!t.is_active_in(2, 1));
}

#[test]
fn results_complete_rounds_in_order() {
    let mut t = tournament(System::RoundRobin, 4, None);
    let first = pair(&mut t, System::RoundRobin);
    assert_eq!(t.complete_rounds(), 0);
    for &(white, black) in &first.boards {
        assert_eq!(t.board_result(1, white), None);
        t.set_board_result(1, white, black, BoardResult::Draw);
        assert_eq!(t.board_result(1, white), Some(Ok(BoardResult::Draw)));
    }
    assert_eq!(t.complete_rounds(), 1);
    let second = pair(&mut t, System::RoundRobin);
    let (white, black) = second.boards[1];
    t.set_board_result(2, white, black, BoardResult::BlackWinsByForfeit);
    assert_eq!(t.complete_rounds(), 1, "board 1 of round 2 is open");
    assert_eq!(t.score_after(black, 2).to_string(), "1.5");
}

#[test]
fn only_the_last_paired_round_is_taken_back_with_its_bye() {
    let mut t = tournament(System::RoundRobin, 3, None);
    let first = pair(&mut t, System::RoundRobin);
    for &(white, black) in &first.boards {
        t.set_board_result(1, white, black, BoardResult::WhiteWins);
    }
    let second = pair(&mut t, System::RoundRobin);
    let free = second.bye.unwrap().player;
    assert_eq!(t.entry(free, 2).unwrap().result, ResultCode::ZeroPointBye);
    assert_eq!(
        t.unpair_last(1, None),
        Err(UnpairError::NotLast { round: 1, last: 2 })
    );
    assert_eq!(
        t.unpair_last(3, None),
        Err(UnpairError::NotPaired { round: 3 })
    );
    assert_eq!(t.check_unpair(0), Err(UnpairError::NotPaired { round: 0 }));
    t.unpair_last(2, Some(free)).unwrap();
    assert_eq!(t.paired_rounds(), 1);
    assert_eq!(t.rounds_in_file(), 1);
    assert_eq!(t.complete_rounds(), 1);
}

#[test]
fn a_requested_bye_stays_when_the_round_is_taken_back() {
    let mut t = tournament(System::Dutch, 3, Some(3));
    t.set_attendance(System::Dutch, 1, 3, Attendance::HalfPointBye)
        .unwrap();
    let pairing = pair(&mut t, System::Dutch);
    assert_eq!(pairing.bye, None);
    t.unpair_last(1, None).unwrap();
    assert_eq!(t.paired_rounds(), 0);
    assert_eq!(t.requested_bye(3, 1), Some(ByeKind::HalfPoint));
    assert!(t.players[0].rounds.is_empty());
}

#[test]
fn clearing_an_entry_drops_the_blank_tail() {
    let mut p = Player::new(1, "Ann", None);
    p.set_entry(3, RoundEntry::bye(ByeKind::FullPoint));
    assert_eq!(p.rounds.len(), 3);
    p.clear_entry(3);
    assert!(p.rounds.is_empty());
    p.clear_entry(0);
    assert!(p.rounds.is_empty());
}

#[test]
fn recorded_games_come_from_the_entries() {
    let mut t = tournament(System::Keizer, 5, Some(3));
    let pairing = pair(&mut t, System::Keizer);
    let (mut games, bye) = t.recorded_games(1);
    let mut paired = pairing.boards.clone();
    games.sort_unstable();
    paired.sort_unstable();
    assert_eq!(games, paired);
    assert_eq!(bye, pairing.bye.map(|b| b.player));
    assert_eq!(t.recorded_games(2), (Vec::new(), None));
}
