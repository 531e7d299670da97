//! Small hand-made cases for the absolute criteria and the PAB.

use tempo_chess::Color;
use tempo_tourney::Outcome;
use tempo_tourney::dutch::{DutchError, DutchInput, DutchPlayer, PointValues, RoundRecord, pair};

fn player(id: u32, history: Vec<RoundRecord>) -> DutchPlayer {
    DutchPlayer {
        id,
        history,
        accelerations: vec![],
        forbidden: vec![],
        available: true,
    }
}

fn input(players: Vec<DutchPlayer>, played: usize) -> DutchInput {
    DutchInput {
        players,
        rounds_played: played,
        rounds_total: 5,
        points: PointValues::default(),
        initial_colour: Color::White,
    }
}

fn game(opponent: usize, colour: Color, outcome: Outcome) -> RoundRecord {
    RoundRecord {
        opponent: Some(opponent),
        colour: Some(colour),
        played: true,
        outcome,
        paired: true,
    }
}

#[test]
fn a_rematch_is_never_paired_c1() {
    let players = vec![
        player(1, vec![game(1, Color::White, Outcome::Win)]),
        player(2, vec![game(0, Color::Black, Outcome::Loss)]),
    ];
    assert_eq!(pair(&input(players, 1)), Err(DutchError::NoValidPairing));
}

#[test]
fn forbidden_pairs_are_respected() {
    let mut players: Vec<DutchPlayer> = (1..=4).map(|id| player(id, vec![])).collect();
    players[0].forbidden = vec![2];
    players[2].forbidden = vec![0];
    let p = pair(&input(players, 0)).unwrap();
    assert!(
        !p.boards
            .iter()
            .any(|&(w, b)| (w, b) == (1, 3) || (w, b) == (3, 1))
    );
    assert_eq!(p.boards.len(), 2);
}

#[test]
fn the_pab_goes_to_the_lowest_eligible_player_c2_c5() {
    // Round 2 of three players: 3 had the PAB in round 1 and may not get it
    // again (C2); 2 has the lowest score (C5) and gets it.
    let pab = RoundRecord {
        opponent: None,
        colour: None,
        played: false,
        outcome: Outcome::Win,
        paired: true,
    };
    let players = vec![
        player(1, vec![game(1, Color::White, Outcome::Win)]),
        player(2, vec![game(0, Color::Black, Outcome::Loss)]),
        player(3, vec![pab]),
    ];
    let p = pair(&input(players, 1)).unwrap();
    assert_eq!(p.bye, Some(2));
    assert_eq!(p.boards.len(), 1);
}

#[test]
fn absent_players_are_not_paired() {
    let mut players: Vec<DutchPlayer> = (1..=5).map(|id| player(id, vec![])).collect();
    players[4].available = false;
    let p = pair(&input(players, 0)).unwrap();
    assert_eq!(p.bye, None);
    assert!(p.boards.iter().all(|&(w, b)| w != 5 && b != 5));
}
