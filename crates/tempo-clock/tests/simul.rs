//! State-machine tests of the simultaneous clock, including both flags in
//! one pair.

use tempo_chess::Color;
use tempo_clock::{
    AdjustReason, ClockError, ClockEvent, ClockVerdict, Millis, SimulClock, SimulState, TimeControl,
};

const W: Color = Color::White;
const B: Color = Color::Black;

fn s(n: i64) -> Millis {
    Millis::seconds(n)
}

fn clock(tc: &str) -> SimulClock {
    let mut c = SimulClock::new(tc.parse::<TimeControl>().unwrap()).unwrap();
    c.start(0).unwrap();
    c
}

#[test]
fn both_run_from_the_pair_start_and_stop_on_commit() {
    let mut c = clock("60+2");
    assert_eq!(c.reading(W, 5_000), s(55));
    assert_eq!(c.reading(B, 5_000), s(55));
    let done = c.commit(W, 5_000).unwrap();
    assert!(!done.pair_complete);
    assert_eq!(done.record.readings, [s(57), s(55)]);
    assert_eq!(c.reading(W, 9_000), s(57)); // stopped, increment credited
    assert_eq!(c.reading(B, 9_000), s(51));
    assert_eq!(c.commit(W, 9_000), Err(ClockError::AlreadyCommitted(W)));
    let done = c.commit(B, 9_000).unwrap();
    assert!(done.pair_complete);
    assert_eq!(c.pair(), 2);
    // The next pair started both at 9 s.
    assert_eq!(c.reading(W, 10_000), s(56));
    assert_eq!(c.reading(B, 10_000), s(52));
}

#[test]
fn a_committed_player_cannot_flag() {
    let mut c = clock("10");
    c.commit(W, 1_000).unwrap();
    assert_eq!(c.fall_instant(W), None);
    assert_eq!(c.fall_instant(B), Some(10_000));
    match c.check_flags(20_000) {
        Some(ClockVerdict::Flag(f)) => assert_eq!((f.side, f.at), (B, 10_000)),
        other => panic!("{other:?}"),
    }
    assert_eq!(c.reading(W, 20_000), s(9));
}

#[test]
fn both_flags_in_one_pair_the_earlier_loses() {
    let mut c = clock("10");
    c.commit(W, 2_000).unwrap();
    c.commit(B, 3_000).unwrap();
    // Pair 2 from 3 s: White has 8 s (falls at 11 s), Black 7 s (falls at 10 s).
    assert_eq!(c.fall_instant(W), Some(11_000));
    assert_eq!(c.fall_instant(B), Some(10_000));
    match c.check_flags(30_000) {
        Some(ClockVerdict::Flag(f)) => assert_eq!((f.side, f.at), (B, 10_000)),
        other => panic!("{other:?}"),
    }
    // A commit after the game ended on time is refused.
    assert_eq!(c.commit(W, 30_000), Err(ClockError::Flagged(B)));
}

#[test]
fn both_flags_at_the_same_instant_in_the_last_period_draw() {
    let mut c = clock("10+1");
    assert_eq!(
        c.check_flags(10_000),
        Some(ClockVerdict::BothFlagsDraw { at: 10_000 })
    );
    assert_eq!(
        c.state(),
        SimulState::Over(ClockVerdict::BothFlagsDraw { at: 10_000 })
    );
    assert_eq!(c.commit(W, 10_000), Err(ClockError::GameOver));
}

#[test]
fn both_flags_at_the_same_instant_before_the_quota_continue() {
    // 2 moves in 10 s, then 20 s for the rest.
    let mut c = clock("2/10:20");
    assert_eq!(c.check_flags(9_999), None);
    // Both fall at 10 s: the game continues with period 2's time.
    assert_eq!(c.check_flags(10_000), None);
    assert_eq!(c.reading(W, 10_000), s(20));
    assert!(c.history().events.iter().any(|e| matches!(
        e,
        ClockEvent::Adjusted {
            reason: AdjustReason::BothFlagsContinue,
            ..
        }
    )));
    c.commit(W, 12_000).unwrap();
    c.commit(B, 13_000).unwrap();
    // Move 2 fills the quota, but the bonus was already granted.
    let w = c.commit(W, 14_000).unwrap();
    assert_eq!(w.record.bonus, Millis::ZERO);
    // 30 s granted in all, 12 s + 1 s used.
    assert_eq!(c.reading(W, 14_000), s(30 - 13));
}

#[test]
fn increments_delays_and_periods_are_credited_on_commit() {
    let mut c = clock("2/30+1d2:60+1");
    c.commit(W, 1_000).unwrap(); // within the delay
    c.commit(B, 5_000).unwrap(); // 3 s charged
    assert_eq!(c.reading(W, 5_000), s(31));
    assert_eq!(c.reading(B, 5_000), s(28));
    let w = c.commit(W, 10_000).unwrap(); // move 2 fills the quota: +60 s
    assert_eq!((w.record.charged, w.record.bonus), (s(3), s(60)));
    assert_eq!(c.reading(W, 10_000), s(31 - 3 + 1 + 60));
}

#[test]
fn hourglass_in_simultaneous_play() {
    let mut c = clock("*30");
    // While both think the glasses balance.
    assert_eq!(c.reading(W, 20_000), s(30));
    assert_eq!(c.fall_instant(W), None);
    c.commit(B, 20_000).unwrap();
    // Black's 20 s went to White and White's 20 s to Black; now White
    // runs alone and the sand flows to Black.
    assert_eq!(c.reading(W, 20_000), s(30));
    assert_eq!(c.reading(B, 20_000), s(30));
    assert_eq!(c.reading(W, 25_000), s(25));
    assert_eq!(c.reading(B, 25_000), s(35));
    assert_eq!(c.fall_instant(W), Some(50_000));
    c.commit(W, 26_000).unwrap();
    assert_eq!(c.reading(W, 26_000), s(24));
    assert_eq!(c.reading(B, 26_000), s(36));
}

#[test]
fn pause_penalty_and_adjust() {
    let mut c = clock("600+5");
    c.pause(4_000).unwrap();
    assert_eq!(c.commit(W, 5_000), Err(ClockError::Paused));
    assert_eq!(c.penalty(W, 50_000).unwrap(), Millis::minutes(1)); // rapid
    c.adjust(W, s(500), 60_000).unwrap();
    c.resume(100_000).unwrap();
    assert_eq!(c.reading(B, 100_000), s(656));
    assert_eq!(c.reading(W, 110_000), s(490));
    c.commit(W, 110_000).unwrap();
    assert_eq!(c.history().moves[0].thinking, s(14));
}

#[test]
fn correspondence_per_move_in_simultaneous_play() {
    let mut c = clock("1/86400");
    let day = Millis::DAY.as_millis() as u64;
    c.commit(W, day / 2).unwrap();
    assert_eq!(c.reading(W, day / 2), Millis::DAY);
    assert_eq!(c.fall_instant(B), Some(day));
}

#[test]
fn restore_starts_a_fresh_pair() {
    let mut c = clock("300+3");
    for k in 1..=4u64 {
        c.commit(W, k * 10_000 - 5_000).unwrap();
        c.commit(B, k * 10_000).unwrap();
    }
    let h = c.history().clone();
    let readings = [
        h.reading_after(W, 2).unwrap(),
        h.reading_after(B, 2).unwrap(),
    ];
    c.restore(45_000, [2, 2], readings).unwrap();
    assert_eq!(c.moves(W), 2);
    assert_eq!(c.reading(W, 45_000), readings[0]);
    assert_eq!(c.reading(B, 46_000), readings[1] - s(1));
    assert_eq!(c.commit(B, 47_000).unwrap().record.number, 3);
}

#[test]
fn a_second_double_fall_before_the_same_quota_is_a_draw() {
    let mut c = clock("2/10");
    assert_eq!(c.check_flags(10_000), None); // continued with 10 s more each
    assert_eq!(c.reading(B, 15_000), s(5));
    assert_eq!(
        c.check_flags(20_000),
        Some(ClockVerdict::BothFlagsDraw { at: 20_000 })
    );
}
