//! State-machine tests of the alternating clock, one or more per kind of
//! control, driven by a manual time source.

use tempo_chess::Color;
use tempo_clock::{
    AdjustReason, Clock, ClockError, ClockEvent, ClockState, ClockVerdict, ManualTime, Millis,
    TimeControl, TimeSource,
};

const W: Color = Color::White;
const B: Color = Color::Black;

fn s(n: i64) -> Millis {
    Millis::seconds(n)
}

fn clock(tc: &str) -> Clock {
    let mut c = Clock::new(tc.parse::<TimeControl>().unwrap()).unwrap();
    c.start(0).unwrap();
    c
}

fn flag_of(v: Option<ClockVerdict>) -> (Color, u64) {
    match v {
        Some(ClockVerdict::Flag(f)) => (f.side, f.at),
        other => panic!("expected a flag, got {other:?}"),
    }
}

#[test]
fn sudden_death_runs_and_flags_exactly() {
    let mut c = clock("60");
    assert_eq!(c.reading(W, 10_000), s(50));
    assert_eq!(c.reading(B, 10_000), s(60));
    c.commit(W, 10_000).unwrap();
    assert_eq!(c.reading(W, 30_000), s(50));
    assert_eq!(c.reading(B, 30_000), s(40));
    assert_eq!(c.fall_instant(), Some(70_000));
    assert_eq!(c.check_flag(69_999), None);
    assert_eq!(flag_of(c.check_flag(80_000)), (B, 70_000));
    assert_eq!(c.reading(B, 80_000), Millis::ZERO);
    assert_eq!(c.commit(B, 80_000), Err(ClockError::Flagged(B)));
}

#[test]
fn a_commit_at_the_fall_instant_is_too_late() {
    let mut c = clock("10");
    assert_eq!(c.commit(W, 10_000), Err(ClockError::Flagged(W)));
    let mut c = clock("10");
    assert!(c.commit(W, 9_999).is_ok());
}

#[test]
fn fischer_increment_after_each_move() {
    let mut c = clock("300+3");
    let r = c.commit(W, 10_000).unwrap().clone();
    assert_eq!((r.thinking, r.charged, r.increment), (s(10), s(10), s(3)));
    assert_eq!(r.readings, [s(293), s(300)]);
    c.commit(B, 12_000).unwrap();
    assert_eq!(c.reading(B, 12_000), s(301));
}

#[test]
fn simple_delay_shields_the_first_seconds() {
    let mut c = clock("60d5");
    assert_eq!(c.reading(W, 4_000), s(60));
    assert_eq!(c.reading(W, 8_000), s(57));
    c.commit(W, 3_000).unwrap(); // within the delay: nothing used
    assert_eq!(c.reading(W, 3_000), s(60));
    // Black's flag falls after 5 s delay + 60 s.
    assert_eq!(c.fall_instant(), Some(3_000 + 65_000));
    c.commit(B, 3_000 + 12_000).unwrap();
    assert_eq!(c.reading(B, 15_000), s(53));
}

#[test]
fn bronstein_gives_back_the_used_part_of_the_delay() {
    let mut c = clock("60b5");
    assert_eq!(c.reading(W, 3_000), s(57)); // the display runs
    let r = c.commit(W, 3_000).unwrap().clone();
    assert_eq!((r.charged, r.refund), (s(3), s(3)));
    assert_eq!(c.reading(W, 3_000), s(60));
    let r = c.commit(B, 3_000 + 8_000).unwrap().clone();
    assert_eq!((r.charged, r.refund), (s(8), s(5)));
    assert_eq!(c.reading(B, 11_000), s(57));
    // Bronstein does not delay the flag.
    assert_eq!(c.fall_instant(), Some(11_000 + 60_000));
}

#[test]
fn periods_flag_before_the_quota_and_bonus_at_it() {
    // 3 moves in 30 s, then 20 s for the rest, 1 s per move.
    let mut c = clock("3/30+1:20+1");
    let mut t = 0;
    for _ in 0..2 {
        t += 5_000;
        c.commit(W, t).unwrap();
        t += 1_000;
        c.commit(B, t).unwrap();
    }
    // White: 30 − 10 + 2 = 22 s before move 3; the bonus comes with move 3.
    assert_eq!(c.reading(W, t), s(22));
    t += 2_000;
    let r = c.commit(W, t).unwrap().clone();
    assert_eq!((r.increment, r.bonus), (s(1), s(20)));
    assert_eq!(c.reading(W, t), s(41));
    // Black has not reached the quota: the flag falls in period 1.
    let fall = c.fall_instant().unwrap();
    let verdict = c.check_flag(fall).unwrap();
    match verdict {
        ClockVerdict::Flag(f) => {
            assert_eq!((f.side, f.moves_done, f.in_last_period), (B, 2, false));
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn a_repeating_last_period_grants_its_time_every_quota() {
    let mut c = clock("2/10");
    let mut t = 0;
    for n in 1..=4 {
        t += 1_000;
        let r = c.commit(W, t).unwrap().clone();
        assert_eq!(
            r.bonus,
            if n % 2 == 0 { s(10) } else { Millis::ZERO },
            "move {n}"
        );
        t += 1_000;
        c.commit(B, t).unwrap();
    }
    assert_eq!(c.reading(W, t), s(10 + 20 - 4));
}

#[test]
fn hourglass_moves_time_to_the_opponent() {
    let mut c = clock("*60");
    assert_eq!(c.reading(B, 10_000), s(70));
    assert_eq!(c.reading(W, 10_000), s(50));
    c.commit(W, 10_000).unwrap();
    c.commit(B, 15_000).unwrap();
    assert_eq!(c.reading(W, 15_000), s(55));
    assert_eq!(c.reading(B, 15_000), s(65));
    assert_eq!(c.fall_instant(), Some(15_000 + 55_000));
}

#[test]
fn correspondence_days_per_move_does_not_accumulate() {
    let mut c = clock("1/259200"); // 3 days per move
    let day = Millis::DAY.as_millis() as u64;
    c.commit(W, day / 2).unwrap();
    assert_eq!(c.reading(W, day), Millis::days(3));
    c.commit(B, day * 3).unwrap();
    assert_eq!(c.reading(B, day * 3), Millis::days(3));
    assert_eq!(c.fall_instant(), Some(day * 3 + 3 * day));
}

#[test]
fn iccf_charges_whole_days_and_doubles_after_twenty() {
    let tc = tempo_clock::human::parse_human("ICCF 30d + 3d").unwrap();
    let mut c = Clock::new(tc).unwrap();
    c.start(0).unwrap();
    let day = Millis::DAY.as_millis() as u64;
    let hour = day / 24;
    // 23 hours: nothing charged, 3 days credited.
    let r = c.commit(W, 23 * hour).unwrap().clone();
    assert_eq!((r.charged, r.increment), (Millis::ZERO, Millis::days(3)));
    assert_eq!(c.reading(W, 23 * hour), Millis::days(33));
    // 23.5 days are charged as 26.
    let start = 23 * hour;
    let r = c.commit(B, start + 23 * day + 12 * hour).unwrap().clone();
    assert_eq!(r.charged, Millis::days(26));
    assert_eq!(c.reading(B, start + 24 * day), Millis::days(30 - 26 + 3));
    // White has 33 days: the flag falls when the charge exceeds them (day 27 -> 34).
    let turn = start + 23 * day + 12 * hour;
    assert_eq!(c.fall_instant(), Some(turn + 27 * day));
}

#[test]
fn pause_and_resume_do_not_count() {
    let t = ManualTime::new(1_000);
    let mut c = Clock::new("60".parse().unwrap()).unwrap();
    c.start(t.now()).unwrap();
    t.advance_secs(10);
    c.pause(t.now()).unwrap();
    t.advance_secs(100);
    assert_eq!(c.reading(W, t.now()), s(50));
    assert_eq!(c.commit(W, t.now()), Err(ClockError::Paused));
    c.resume(t.now()).unwrap();
    t.advance_secs(5);
    assert_eq!(c.reading(W, t.now()), s(45));
    assert_eq!(c.commit(W, t.now()).unwrap().thinking, s(15));
    assert_eq!(c.resume(t.now()), Err(ClockError::NotPaused));
}

#[test]
fn adjustments_and_penalties() {
    // Standard: +2 minutes to the opponent.
    let mut c = clock("5400+30");
    assert_eq!(c.penalty(W, 10_000).unwrap(), Millis::minutes(2));
    assert_eq!(c.reading(B, 10_000), Millis::minutes(92));
    // Blitz and rapid: +1 minute.
    let mut c = clock("180+2");
    assert_eq!(c.penalty(B, 1_000).unwrap(), Millis::minutes(1));
    assert_eq!(c.reading(W, 1_000), s(179 + 60));
    let mut c = clock("900+10");
    assert_eq!(c.penalty(B, 0).unwrap(), Millis::minutes(1));
    // An adjustment of the running side holds from that instant.
    let mut c = clock("60d5");
    c.adjust(W, s(30), 8_000).unwrap();
    assert_eq!(c.reading(W, 8_000), s(30));
    assert_eq!(c.reading(W, 10_000), s(28));
    assert!(matches!(
        c.adjust(W, s(-1), 10_000),
        Err(ClockError::NegativeSetting(_))
    ));
    let events = &c.history().events;
    assert!(events.iter().any(|e| matches!(
        e,
        ClockEvent::Adjusted {
            side: Color::White,
            reason: AdjustReason::Arbiter,
            ..
        }
    )));
    // No FIDE penalty in correspondence.
    let mut c = clock("1/86400");
    assert_eq!(c.penalty(W, 0), Err(ClockError::NoPenalty));
}

#[test]
fn restore_sets_counters_readings_and_turn() {
    let mut c = clock("40/5400+30:1800+30");
    let mut t = 0;
    for _ in 0..5 {
        t += 60_000;
        c.commit(W, t).unwrap();
        t += 60_000;
        c.commit(B, t).unwrap();
    }
    let w3 = c.history().reading_after(W, 3).unwrap();
    let b3 = c.history().reading_after(B, 3).unwrap();
    c.pause(t).unwrap();
    c.restore(t, W, [3, 3], [w3, b3]).unwrap();
    c.resume(t + 50_000).unwrap();
    assert_eq!(c.moves(W), 3);
    assert_eq!(c.reading(W, t + 50_000), w3);
    assert_eq!(c.reading(W, t + 60_000), w3 - s(10));
    let r = c.commit(W, t + 60_000).unwrap();
    assert_eq!(r.number, 4);
}

#[test]
fn history_keeps_every_reading() {
    let mut c = clock("300+3");
    c.commit(W, 5_000).unwrap();
    c.commit(B, 9_000).unwrap();
    c.commit(W, 10_000).unwrap();
    let h = c.history();
    assert_eq!(h.moves.len(), 3);
    assert_eq!(h.moves[1].readings, [s(298), s(299)]);
    assert_eq!(h.reading_after(W, 2), Some(s(300)));
    assert_eq!(h.moves_of(B).count(), 1);
}

#[test]
fn refusals() {
    assert_eq!(
        Clock::new(TimeControl::Unknown).unwrap_err(),
        ClockError::NoTimeLimit
    );
    assert_eq!(
        Clock::new(TimeControl::Unlimited).unwrap_err(),
        ClockError::NoTimeLimit
    );
    let mut c = Clock::new("60".parse().unwrap()).unwrap();
    assert_eq!(c.commit(W, 0), Err(ClockError::NotStarted));
    c.start(100).unwrap();
    assert_eq!(c.start(100), Err(ClockError::AlreadyStarted));
    assert_eq!(c.commit(B, 200), Err(ClockError::NotYourMove(B)));
    assert!(matches!(
        c.commit(W, 50),
        Err(ClockError::TimeWentBackwards { .. })
    ));
    c.commit(W, 200).unwrap();
    c.stop(300).unwrap();
    assert_eq!(c.state(), ClockState::Stopped);
    assert_eq!(c.reading(B, 5_000), s(60) - Millis(100));
    assert_eq!(c.commit(B, 400), Err(ClockError::GameOver));
}

#[test]
fn players_are_chess_colours_written_in_lowercase_and_named_capitalised() {
    let mut c = Clock::new("60".parse().unwrap()).unwrap();
    c.start(0).unwrap();
    let record = c.commit(W, 1_000).unwrap().clone();
    assert_eq!(record.side, Color::White);
    let json = serde_json::to_string(&record).unwrap();
    assert!(json.contains(r#""side":"white""#), "{json}");
    let back: tempo_clock::MoveRecord = serde_json::from_str(&json).unwrap();
    assert_eq!(back, record);
    let history = serde_json::to_string(c.history()).unwrap();
    assert_eq!(
        serde_json::from_str::<tempo_clock::History>(&history).unwrap(),
        *c.history()
    );
    assert_eq!(c.to_move(), !W);
    assert_eq!(
        ClockError::NotYourMove(B).to_string(),
        "it is not Black's move"
    );
    assert_eq!(
        ClockError::Flagged(W).to_string(),
        "the game is over: White's flag has fallen"
    );
    assert_eq!(
        ClockError::AlreadyCommitted(B).to_string(),
        "Black has already committed a move in this pair"
    );
}
