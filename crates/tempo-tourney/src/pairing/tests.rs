use super::*;
use crate::keizer::KeizerError;
use crate::model::{Absence, AbsenceKind, Player};

/// A tournament of `players` by rating order, `rounds` rounds if given.
fn tournament(players: u32, rounds: Option<u32>) -> Tournament {
    let mut t = Tournament::new();
    t.players = (1..=players)
        .map(|id| Player::new(id, format!("P{id}"), Some(2000 - id as u16)))
        .collect();
    t.total_rounds = rounds;
    t
}

fn pair(t: &Tournament, system: System) -> Result<Pairing, PairingError> {
    pair_next(t, system, &Options::default())
}

/// Enters white wins on every board of the last paired round.
fn white_wins(t: &mut Tournament, pairing: &Pairing) {
    for &(white, black) in &pairing.boards {
        let round = pairing.round;
        let win = RoundEntry::game(black, Color::White, ResultCode::Win);
        t.player_mut(white).unwrap().set_entry(round, win);
        let loss = RoundEntry::game(white, Color::Black, ResultCode::Loss);
        t.player_mut(black).unwrap().set_entry(round, loss);
    }
}

fn seated(pairing: &Pairing) -> Vec<PlayerId> {
    let mut ids: Vec<PlayerId> = pairing.boards.iter().flat_map(|&(w, b)| [w, b]).collect();
    ids.sort_unstable();
    ids
}

#[test]
fn dutch_pairs_top_half_against_bottom_half_and_the_last_gets_the_bye() {
    let t = tournament(5, Some(3));
    let pairing = pair(&t, System::Dutch).unwrap();
    assert_eq!(pairing.system, System::Dutch);
    assert_eq!(pairing.round, 1);
    assert_eq!(pairing.boards, [(1, 3), (4, 2)]);
    assert_eq!(
        pairing.bye,
        Some(Bye {
            player: 5,
            kind: ByeKind::PairingAllocated
        })
    );
    assert!(pairing.forfeits.is_empty() && pairing.warnings.is_empty());
    assert_eq!(pairing.total_rounds, None);
}

#[test]
fn dutch_pairs_the_round_after_the_entered_one() {
    let mut t = tournament(4, Some(3));
    let first = pair(&t, System::Dutch).unwrap();
    first.write_to(&mut t);
    white_wins(&mut t, &first);
    let second = pair(&t, System::Dutch).unwrap();
    assert_eq!(second.round, 2);
    assert_eq!(seated(&second), [1, 2, 3, 4]);
    // No rematch of round 1.
    for &(w, b) in &second.boards {
        assert!(!first.boards.contains(&(w, b)) && !first.boards.contains(&(b, w)));
    }
}

#[test]
fn keizer_pairs_neighbours_with_the_pairing_allocated_bye() {
    let t = tournament(3, None);
    let pairing = pair(&t, System::Keizer).unwrap();
    assert_eq!(pairing.system, System::Keizer);
    assert_eq!(seated(&pairing), [1, 2]);
    assert_eq!(
        pairing.bye,
        Some(Bye {
            player: 3,
            kind: ByeKind::PairingAllocated
        })
    );
    assert!(pairing.warnings.is_empty());
}

#[test]
fn keizer_settings_come_from_the_file_unless_given() {
    let mut t = tournament(4, None);
    t.keizer_settings = vec![("top".into(), "lots".into())];
    assert!(matches!(
        pair(&t, System::Keizer),
        Err(PairingError::KeizerSettings(_))
    ));
    let options = Options {
        keizer: Some(KeizerSettings::default()),
        ..Options::default()
    };
    assert_eq!(
        pair_next(&t, System::Keizer, &options)
            .unwrap()
            .boards
            .len(),
        2
    );
}

#[test]
fn a_round_robin_follows_the_berger_table_with_forfeits_for_absentees() {
    let mut t = tournament(4, None);
    t.absences.push(Absence {
        round: 1,
        kind: AbsenceKind::Unexcused,
        players: vec![4],
    });
    let pairing = pair(&t, System::RoundRobin).unwrap();
    assert_eq!(pairing.boards, [(1, 4), (2, 3)]);
    assert_eq!(
        pairing.forfeits,
        [Forfeit {
            board: 1,
            winner: Color::White
        }]
    );
    assert_eq!(pairing.forfeit(2), None);
    assert_eq!(pairing.bye, None);
    assert_eq!(pairing.total_rounds, Some(3));
    pairing.write_to(&mut t);
    assert_eq!(t.total_rounds, Some(3));
    assert_eq!(t.entry(1, 1).unwrap().result, ResultCode::ForfeitWin);
    assert_eq!(t.entry(4, 1).unwrap().result, ResultCode::ForfeitLoss);
    assert_eq!(
        t.entry(2, 1),
        Some(&RoundEntry::game(3, Color::White, ResultCode::Blank))
    );
    assert_eq!(
        t.entry(3, 1),
        Some(&RoundEntry::game(2, Color::Black, ResultCode::Blank))
    );
}

#[test]
fn a_withdrawn_player_loses_a_round_robin_board_as_black_too() {
    let mut t = tournament(4, None);
    t.withdrawals.push(crate::model::Withdrawal {
        player: 3,
        after_round: 0,
    });
    let pairing = pair(&t, System::RoundRobin).unwrap();
    assert_eq!(
        pairing.forfeits,
        [Forfeit {
            board: 2,
            winner: Color::White
        }]
    );
    let mut t = tournament(4, None);
    t.withdrawals.push(crate::model::Withdrawal {
        player: 1,
        after_round: 0,
    });
    let pairing = pair(&t, System::RoundRobin).unwrap();
    assert_eq!(
        pairing.forfeits,
        [Forfeit {
            board: 1,
            winner: Color::Black
        }]
    );
}

#[test]
fn a_round_robin_free_round_is_a_zero_point_bye() {
    let mut t = tournament(3, None);
    let pairing = pair(&t, System::RoundRobin).unwrap();
    let bye = pairing.bye.unwrap();
    assert_eq!(bye.kind, ByeKind::ZeroPoint);
    pairing.write_to(&mut t);
    assert_eq!(
        t.entry(bye.player, 1),
        Some(&RoundEntry::bye(ByeKind::ZeroPoint))
    );
}

#[test]
fn a_double_round_robin_has_twice_the_rounds() {
    let t = tournament(3, None);
    let options = Options {
        double_round_robin: true,
        ..Options::default()
    };
    let pairing = pair_next(&t, System::RoundRobin, &options).unwrap();
    assert_eq!(pairing.total_rounds, Some(6));
}

#[test]
fn a_round_robin_ends_with_its_table() {
    let mut t = tournament(2, Some(7));
    // The table, not the file's round count, decides at round 1.
    let first = pair(&t, System::RoundRobin).unwrap();
    first.write_to(&mut t);
    white_wins(&mut t, &first);
    assert_eq!(
        pair(&t, System::RoundRobin),
        Err(PairingError::AllRoundsPaired { total: 1 })
    );
    // Even where the file's count is larger.
    t.total_rounds = Some(7);
    assert_eq!(
        pair(&t, System::RoundRobin),
        Err(PairingError::AllRoundsPaired { total: 1 })
    );
}

#[test]
fn a_round_robin_needs_two_players_and_a_table_within_the_limit() {
    assert_eq!(
        pair(&tournament(1, None), System::RoundRobin),
        Err(PairingError::TooFewPlayers)
    );
    let options = Options {
        max_rounds: Some(2),
        ..Options::default()
    };
    assert_eq!(
        pair_next(&tournament(4, None), System::RoundRobin, &options),
        Err(PairingError::TableTooLong { rounds: 3, max: 2 })
    );
}

#[test]
fn the_round_limit_holds_for_every_system() {
    let options = Options {
        max_rounds: Some(1),
        ..Options::default()
    };
    for system in System::ALL {
        // Two players: a round robin's table of one round is within the limit.
        let mut t = tournament(2, Some(5));
        let first = pair_next(&t, system, &options).unwrap();
        first.write_to(&mut t);
        white_wins(&mut t, &first);
        assert_eq!(
            pair_next(&t, system, &options),
            Err(PairingError::RoundLimit { max: 1 }),
            "{system}"
        );
    }
}

#[test]
fn the_dutch_system_needs_the_number_of_rounds() {
    let t = tournament(4, None);
    assert_eq!(
        pair(&t, System::Dutch),
        Err(PairingError::TotalRoundsUnknown)
    );
    // Keizer and round robin do without.
    assert!(pair(&t, System::Keizer).is_ok());
    assert!(pair(&t, System::RoundRobin).is_ok());
}

#[test]
fn no_round_after_the_last() {
    for system in [System::Dutch, System::Keizer] {
        let mut t = tournament(4, Some(1));
        let first = pair(&t, system).unwrap();
        first.write_to(&mut t);
        white_wins(&mut t, &first);
        assert_eq!(
            pair(&t, system),
            Err(PairingError::AllRoundsPaired { total: 1 }),
            "{system}"
        );
    }
}

#[test]
fn every_earlier_result_is_entered_first() {
    for system in [System::Dutch, System::RoundRobin] {
        let mut t = tournament(4, Some(3));
        pair(&t, system).unwrap().write_to(&mut t);
        match pair(&t, system) {
            Err(PairingError::MissingResult(missing)) => assert_eq!(missing.round, 1),
            other => panic!("{system}: {other:?}"),
        }
    }
    let mut t = tournament(4, Some(3));
    pair(&t, System::Keizer).unwrap().write_to(&mut t);
    assert!(matches!(
        pair(&t, System::Keizer),
        Err(PairingError::Keizer(KeizerError::MissingResult {
            round: 1,
            ..
        }))
    ));
}

#[test]
fn a_round_without_a_game_is_refused() {
    let mut t = tournament(3, Some(3));
    for id in [2, 3] {
        t.player_mut(id)
            .unwrap()
            .set_entry(1, RoundEntry::bye(ByeKind::HalfPoint));
    }
    assert_eq!(
        pair(&t, System::Dutch),
        Err(PairingError::NobodyToPair { round: 1 })
    );
}

#[test]
fn dutch_engine_errors_name_the_round() {
    let mut t = tournament(2, Some(3));
    t.forbidden_pairs.push(crate::model::ForbiddenPairs {
        rounds: None,
        players: vec![1, 2],
    });
    let error = pair(&t, System::Dutch).unwrap_err();
    assert!(matches!(
        error,
        PairingError::Dutch {
            round: 1,
            error: DutchError::NoValidPairing
        }
    ));
    assert!(
        error.to_string().starts_with("round 1: no valid pairing"),
        "{error}"
    );
}

#[test]
fn keizer_warnings_read_as_the_command_line_prints_them() {
    let relaxation = Relaxation::ForbiddenPair { a: 1, b: 2 };
    let warning = PairingWarning::Relaxed {
        round: 4,
        relaxation: relaxation.clone(),
    };
    assert_eq!(warning.to_string(), format!("round 4: {relaxation}"));
    let mut t = tournament(2, None);
    t.forbidden_pairs.push(crate::model::ForbiddenPairs {
        rounds: None,
        players: vec![1, 2],
    });
    let pairing = pair(&t, System::Keizer).unwrap();
    assert!(matches!(
        pairing.warnings.as_slice(),
        [PairingWarning::Relaxed { round: 1, .. }]
    ));
}
