//! Tie-break values checked by hand on a small Swiss with every kind of
//! unplayed round: a forfeit, two pairing-allocated byes, a half-point bye
//! and a withdrawal.
//!
//! Rounds (White first; ratings 1: 2000, 2: 1900, 3: 1800, 4: 1700, 5: 1600,
//! 6: 1500):
//! - R1: 1-4 1-0, 2-5 ½-½, 3-6 forfeit (6 wins, 3 did not come)
//! - R2: 6-1 0-1, 4-2 0-1, 5 half-point bye, 3 pairing-allocated bye
//! - R3: 1-2 ½-½, 3-5 1-0, 4 pairing-allocated bye, 6 withdrawn (absent)
//!
//! Scores: 1: 2.5, 2: 2.0, 3: 2.0, 4: 1.0, 5: 1.0, 6: 1.0.
//! VURs (unplayed, not won): 3 in R1, 5 in R2, 6 in R3. Player 6's last
//! round that is not a VUR is R2, so for the opponents' Buchholz his R3
//! counts as a draw: adjusted score 1.5.

use tempo_chess::Color;
use tempo_tourney::tiebreak::{Calculator, Options, TieBreak, UnplayedRule, Value};
use tempo_tourney::{ByeKind, Player, PlayerId, ResultCode, RoundEntry, Tournament};

use Color::{Black, White};
use ResultCode::{Draw, ForfeitLoss, ForfeitWin, Loss, Win};

fn tournament() -> Tournament {
    let ratings = [2000, 1900, 1800, 1700, 1600, 1500];
    let mut players: Vec<Player> = ratings
        .iter()
        .enumerate()
        .map(|(i, &r)| Player::new(i as u32 + 1, format!("Player {}", i + 1), Some(r)))
        .collect();
    let mut game = |round: u32, white: PlayerId, black: PlayerId, w: ResultCode, b: ResultCode| {
        players[white as usize - 1].set_entry(round, RoundEntry::game(black, White, w));
        players[black as usize - 1].set_entry(round, RoundEntry::game(white, Black, b));
    };
    game(1, 1, 4, Win, Loss);
    game(1, 2, 5, Draw, Draw);
    game(1, 3, 6, ForfeitLoss, ForfeitWin);
    game(2, 6, 1, Loss, Win);
    game(2, 4, 2, Loss, Win);
    game(3, 1, 2, Draw, Draw);
    game(3, 3, 5, Win, Loss);
    players[4].set_entry(2, RoundEntry::bye(ByeKind::HalfPoint));
    players[2].set_entry(2, RoundEntry::bye(ByeKind::PairingAllocated));
    players[3].set_entry(3, RoundEntry::bye(ByeKind::PairingAllocated));
    players[5].set_entry(3, RoundEntry::bye(ByeKind::ZeroPoint));
    let mut t = Tournament::new();
    t.players = players;
    // Through TRF and back, so the golden values also cover the reader.
    Tournament::from_trf_str(&t.to_trf().unwrap()).unwrap()
}

fn values(t: &Tournament, options: Options, name: &str) -> Vec<String> {
    let tb: TieBreak = name.parse().unwrap();
    let calc = Calculator::new(t, options);
    (1..=6)
        .map(|id| calc.value(tb, id).format(tb.is_integer()))
        .collect()
}

/// Values under C.07 (2023), the edition these hand computations follow.
fn check(name: &str, expected: [&str; 6]) {
    let t = tournament();
    let options = Options {
        unplayed: UnplayedRule::Fide2023,
        ..Options::default()
    };
    assert_eq!(values(&t, options, name), expected, "{name}");
}

#[test]
fn scores_and_adjusted_scores() {
    let t = tournament();
    let calc = Calculator::new(&t, Options::default());
    let scores: Vec<String> = (1..=6).map(|id| calc.score(id).to_string()).collect();
    assert_eq!(scores, ["2.5", "2.0", "2.0", "1.0", "1.0", "1.0"]);
    let adjusted: Vec<String> = (1..=6)
        .map(|id| calc.adjusted_score(id).to_string())
        .collect();
    assert_eq!(adjusted, ["2.5", "2.0", "2.0", "1.0", "1.0", "1.5"]);
}

#[test]
fn buchholz_2023() {
    // 3: forfeit R1 and PAB R2 against a dummy with his own 2.0, R3 vs 5 (1.0).
    // 4: 2.5 + 2.0 + dummy 1.0; 6: dummy 1.0 (forfeit win) + 2.5 + dummy 1.0.
    check("BH", ["4.5", "4.5", "5.0", "5.5", "5.0", "4.5"]);
}

#[test]
fn buchholz_2026_caps_the_dummy_opponent() {
    // The rules in force (the default): 3's dummy after his R1 forfeit scores
    // no more than the scheduled opponent 6's adjusted 1.5 (16.4.1), and in
    // his R2 PAB no more than half the maximum, 1.5 of 3 rounds (16.4.2):
    // 1.5 + 1.5 + 1.0. The others' dummies already score less than the caps.
    let t = tournament();
    assert_eq!(Options::default().unplayed, UnplayedRule::Fide2026);
    assert_eq!(
        values(&t, Options::default(), "BH"),
        ["4.5", "4.5", "4.0", "5.5", "5.0", "4.5"]
    );
    // SB: 3's PAB (1 point) times the capped dummy 1.5, plus 1.0 for the
    // win over 5 (2023: 2.0 + 1.0).
    assert_eq!(
        values(&t, Options::default(), "SB"),
        ["3.5", "2.75", "2.5", "1.0", "1.5", "1.0"]
    );
}

#[test]
fn buchholz_cut_1_cuts_voluntarily_unplayed_rounds_first() {
    // 3: the VUR (2.0) is cut, not the lowest value (1.0): 2.0 + 1.0.
    // 4: the PAB is not voluntary: the lowest (1.0) goes.
    check("BH-C1", ["3.5", "3.5", "3.0", "4.5", "4.0", "3.5"]);
}

#[test]
fn buchholz_median_1() {
    check("BH-M1", ["1.5", "1.0", "1.0", "2.0", "2.0", "1.0"]);
}

#[test]
fn sonneborn_berger() {
    // 2: 1.0 x ½ + 1.0 x 1 + 2.5 x ½.  3: dummy 2.0 x 0 + dummy 2.0 x 1 + 1.0 x 1.
    check("SB", ["3.5", "2.75", "3.0", "1.0", "1.5", "1.0"]);
}

#[test]
fn counts() {
    check("WIN", ["2", "1", "2", "1", "0", "1"]);
    check("WON", ["2", "1", "1", "0", "0", "0"]);
    check("BPG", ["1", "2", "0", "1", "2", "0"]);
    check("BWG", ["1", "1", "0", "0", "0", "0"]);
    check("GE", ["3", "3", "2", "3", "2", "2"]);
}

#[test]
fn ratings() {
    // 2: (1600 + 1700 + 2000) / 3 = 1766.67 -> 1767.
    check("ARO", ["1700", "1767", "1600", "1950", "1850", "2000"]);
    // 1: 2.5 / 3 = 83.33 % -> dp(83) = 273.  2: 66.67 % -> dp(67) = 125.
    check("TPR", ["1973", "1892", "2400", "1150", "1657", "1200"]);
    // ARO-C1 cuts the lowest-rated opponent of the played games (3 and 6
    // played one game each: nothing is left).
    check("ARO-C1", ["1800", "1850", "0", "2000", "1900", "0"]);
}

#[test]
fn progressive_and_koya() {
    check("PS", ["5.5", "4.0", "3.0", "1.0", "2.5", "3.0"]);
    check("PS-C1", ["4.5", "3.5", "3.0", "1.0", "2.0", "2.0"]);
    // Opponents with at least 1.5 of 3: players 1, 2 and 3.
    check("KS", ["0.5", "0.5", "0.0", "0.0", "0.5", "1.0"]);
}

#[test]
fn legacy_virtual_opponent() {
    let t = tournament();
    let legacy = Options {
        unplayed: UnplayedRule::VirtualOpponent,
        ..Options::default()
    };
    // Opponents' unplayed rounds count as draws: 4 -> 0.5, 6 -> 1.0, 5 -> 1.0.
    // 3: R1 virtual 0 + 1 + ½·2 = 2.0, R2 virtual 0 + 0 + ½·1 = 0.5, R3 vs 5: 1.0.
    // 5: vs 2: 2.0, R2 virtual ½ + ½ + ½·1 = 1.5, vs 3 (2.0 with draws).
    // 6: R1 virtual 0 + 0 + ½·2 = 1.0, R2 vs 1: 2.5, R3 virtual 1 + 1 + 0 = 2.0.
    assert_eq!(
        values(&t, legacy, "BH"),
        ["3.5", "4.0", "3.5", "4.5", "5.5", "5.5"]
    );
    let none = Options {
        unplayed: UnplayedRule::Ignore,
        ..Options::default()
    };
    assert_eq!(
        values(&t, none, "BH"),
        ["4.0", "4.5", "1.0", "4.5", "4.0", "2.5"]
    );
}

#[test]
fn forfeits_as_played() {
    // BH-P: 3's forfeit counts against 6 (adjusted 1.5), 6's against 3 (2.0).
    check("BH-P", ["4.5", "4.5", "4.5", "5.5", "5.0", "5.5"]);
}

#[test]
fn direct_encounter() {
    let t = tournament();
    let calc = Calculator::new(&t, Options::default());
    // 2 and 3 never met: nothing to separate.
    assert_eq!(
        calc.direct_encounter(&[2, 3], false),
        vec![Value::default(); 2]
    );
    // 1 beat 4 and drew 2 ... among {1, 2, 4}: 1 has 1.5, 2 has 1.5? No:
    // 1 vs 4 1-0, 1 vs 2 ½, 2 vs 4 1-0: 1 = 1.5, 2 = 1.5, 4 = 0: all met.
    assert_eq!(
        calc.direct_encounter(&[1, 2, 4], false),
        vec![Value::from_int(1), Value::from_int(1), Value::from_int(3)]
    );
    // {1, 4, 6}: 1 beat both, 4 and 6 never met: 1 first (2 points, no one
    // below can reach it), 4 and 6 stay tied.
    assert_eq!(
        calc.direct_encounter(&[1, 4, 6], false),
        vec![Value::from_int(1), Value::from_int(2), Value::from_int(2)]
    );
    // Forfeits as games: 6 beat 3.
    assert_eq!(
        calc.direct_encounter(&[3, 6], true),
        vec![Value::from_int(2), Value::from_int(1)]
    );
}
