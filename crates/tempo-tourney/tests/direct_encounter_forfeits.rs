//! Direct encounter and forfeits (C.07 6.1.1 with 15.2), computed by hand
//! on two small round robins.
//!
//! C.07 6.1.1 leaves out of direct encounter the "forfeit wins or losses not
//! covered by Article 15.2 ... unless the specific regulations of the
//! tournament state otherwise"; 15.2: "In tournaments with pre-determined
//! pairings, forfeit wins or losses (the only possible unplayed rounds) are
//! treated as regular games". So in a round robin a forfeit counts in the
//! direct encounter with its result, and in a Swiss only with `DE-P`.
//!
//! Both tournaments: four players, Berger table 1-4 2-3 / 4-3 1-2 / 2-4 3-1,
//! and in round 1 player 3 does not come to the board against 2
//! (2 wins by forfeit).

use tempo_chess::Color;
use tempo_tourney::standings::{StandingsOptions, standings};
use tempo_tourney::tiebreak::{Calculator, Options, Value};
use tempo_tourney::{Player, PlayerId, ResultCode, RoundEntry, Tournament};

use ResultCode::{Draw, ForfeitLoss, ForfeitWin, Loss, Win};

/// Round 1's 1-4 result, round 2's 4-3 and 1-2, round 3's 2-4 and 3-1
/// (White's results).
fn round_robin(r1: ResultCode, r2: [ResultCode; 2], r3: [ResultCode; 2]) -> Tournament {
    let mut players: Vec<Player> = (1..=4)
        .map(|i| Player::new(i, format!("P{i}"), Some(2000 - 50 * i as u16)))
        .collect();
    let mut game = |round: u32, white: PlayerId, black: PlayerId, w: ResultCode| {
        let b = match w {
            Win => Loss,
            Loss => Win,
            ForfeitWin => ForfeitLoss,
            ForfeitLoss => ForfeitWin,
            other => other,
        };
        players[white as usize - 1].set_entry(round, RoundEntry::game(black, Color::White, w));
        players[black as usize - 1].set_entry(round, RoundEntry::game(white, Color::Black, b));
    };
    game(1, 1, 4, r1);
    game(1, 2, 3, ForfeitWin);
    game(2, 4, 3, r2[0]);
    game(2, 1, 2, r2[1]);
    game(3, 2, 4, r3[0]);
    game(3, 3, 1, r3[1]);
    let mut t = Tournament::new();
    t.players = players;
    // Through TRF and back: the forfeits are read as the file writes them.
    Tournament::from_trf_str(&t.to_trf().unwrap()).unwrap()
}

fn round_robin_options() -> Options {
    StandingsOptions::round_robin().tiebreak_options
}

/// (start number, rank) in standings order.
fn ranks(t: &Tournament) -> Vec<(PlayerId, u32)> {
    standings(t, &StandingsOptions::round_robin())
        .rows
        .iter()
        .map(|r| (r.id, r.rank))
        .collect()
}

/// 1-4 ½-½, 3 beats 4, 1 beats 2, 4 beats 2, 1 beats 3. Scores: 1: 2.5,
/// 4: 1.5, 2 and 3: 1.0. Between 2 and 3 only the forfeit: 2 is ahead.
/// Without it they would be level, and Sonneborn-Berger (2: 1.0 for the
/// forfeit against 3; 3: 1.5 for the win against 4) would put 3 ahead.
#[test]
fn a_round_robin_forfeit_decides_the_encounter_of_two() {
    let t = round_robin(Draw, [Loss, Win], [Loss, Loss]);
    let calc = Calculator::new(&t, round_robin_options());
    assert_eq!(
        calc.direct_encounter(&[2, 3], false),
        [Value::from_int(1), Value::from_int(2)]
    );
    assert_eq!(ranks(&t), [(1, 1), (4, 2), (2, 3), (3, 4)]);
}

/// 1 beats everyone; 2 beats 3 by forfeit, 3 beats 4, 4 beats 2: 2, 3 and 4
/// have 1.0 each and one point each among themselves, a circle that direct
/// encounter cannot break. Leaving the forfeit out would put 3 first
/// (1 point, and the win over 4), 4 second and 2 last.
#[test]
fn a_round_robin_forfeit_closes_a_circle_of_three() {
    let t = round_robin(Win, [Loss, Win], [Loss, Loss]);
    let calc = Calculator::new(&t, round_robin_options());
    assert_eq!(
        calc.direct_encounter(&[2, 3, 4], false),
        [Value::default(); 3]
    );
    // WIN, SB and KS are level too: 2, 3 and 4 share second place.
    assert_eq!(ranks(&t), [(1, 1), (2, 2), (3, 2), (4, 2)]);
}

/// In a Swiss (pairings made round by round, 15.3) the same forfeit stays
/// out of direct encounter unless the tie-break says `DE-P`.
#[test]
fn a_swiss_forfeit_counts_only_with_the_p_modifier() {
    let t = round_robin(Draw, [Loss, Win], [Loss, Loss]);
    let calc = Calculator::new(&t, Options::default());
    assert_eq!(calc.direct_encounter(&[2, 3], false), [Value::default(); 2]);
    assert_eq!(
        calc.direct_encounter(&[2, 3], true),
        [Value::from_int(1), Value::from_int(2)]
    );
}
