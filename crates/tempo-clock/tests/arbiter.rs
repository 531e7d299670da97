//! The arbiter's clock correction: the spec's worked examples as golden
//! tests, and property tests tying the formulas together.

use proptest::prelude::*;
use tempo_chess::Color;
use tempo_clock::arbiter;
use tempo_clock::{ArbiterError, Clock, Millis, Period, Periods, TimeControl};

fn m(n: i64) -> Millis {
    Millis::minutes(n)
}

#[test]
fn golden_pure_fischer_90m_30s() {
    // 90 min + 30 s, played 40, legal 35, displayed 20:00 -> 28:45.
    let five = arbiter::formula_5(m(90), 40, 35, m(20)).unwrap();
    let steps = arbiter::stepwise(m(90), Millis::seconds(30), 40, 35, m(20)).unwrap();
    assert_eq!(five.display().hms(), "0:28:45");
    assert_eq!(steps.set.display().hms(), "0:28:45");
    assert_eq!(steps.used, m(90)); // 90 + 40 × 0.5 − 20
    assert_eq!(steps.legal_used.millis(), m(78) + Millis::seconds(45));
    let tc: TimeControl = "5400+30".parse().unwrap();
    let c = arbiter::correct_control(&tc, 40, 35, m(20)).unwrap();
    assert_eq!(c.set, five);
    assert_eq!(c.set_display().hms(), "0:28:45");
}

#[test]
fn golden_two_periods() {
    // 40 moves in 90 min, then 30 min, 30 s per move from move 1; played 45,
    // legal 38, displayed 25:00 -> 9:46.7, where (5) would give 35:07.
    let tc: TimeControl = "40/5400+30:1800+30".parse().unwrap();
    assert_eq!(
        tc,
        tempo_clock::human::parse_human("90m/40 + 30m + 30s").unwrap()
    );
    let c = arbiter::correct_control(&tc, 45, 38, m(25)).unwrap();
    assert_eq!(c.alloc_played, m(142) + Millis::seconds(30));
    assert_eq!(c.alloc_legal, m(109));
    assert_eq!(c.set.millis(), Millis(586_667));
    assert_eq!(c.set_display().hms(), "0:09:47");
    assert_eq!(c.formula_5.display().hms(), "0:35:07");
    assert!(c.warnings.is_empty());
}

#[test]
fn golden_analogue_formula_1() {
    // 40 played, 30 legal, 1:40 used -> 1:15 used to set.
    assert_eq!(
        arbiter::formula_1(40, 30, m(100)).unwrap().display().hms(),
        "1:15:00"
    );
}

#[test]
fn the_bonus_counts_from_the_quota_move_on() {
    let tc: TimeControl = "40/5400+30:1800+30".parse().unwrap();
    // Legal 40: the 30 minutes of period 2 are already granted.
    let c = arbiter::correct_control(&tc, 45, 40, m(25)).unwrap();
    assert_eq!(c.alloc_legal, m(90) + m(20) + m(30));
    // Both counts before the quota: (5) is exact.
    let c = arbiter::correct_control(&tc, 39, 30, m(25)).unwrap();
    assert_eq!(c.set, c.formula_5);
}

#[test]
fn errors_for_impossible_input() {
    let tc: TimeControl = "5400+30".parse().unwrap();
    assert_eq!(
        arbiter::correct_control(&tc, 10, 11, m(20)).unwrap_err(),
        ArbiterError::LegalExceedsPlayed {
            played: 10,
            legal: 11
        }
    );
    assert!(matches!(
        arbiter::correct_control(&tc, 10, 5, m(-20)),
        Err(ArbiterError::NegativeTime { .. })
    ));
    assert_eq!(
        arbiter::stepwise(m(90), Millis::ZERO, 0, 0, m(20)).unwrap_err(),
        ArbiterError::NothingPlayed
    );
    let hourglass: TimeControl = "*180".parse().unwrap();
    assert!(matches!(
        arbiter::correct_control(&hourglass, 10, 5, m(1)),
        Err(ArbiterError::UnsupportedControl(_))
    ));
}

#[test]
fn exact_restore_from_a_clock_history() {
    let tc: TimeControl = "40/5400+30:1800+30".parse().unwrap();
    let mut clock = Clock::new(tc).unwrap();
    clock.start(0).unwrap();
    let mut t = 0u64;
    for n in 1..=45u64 {
        t += 60_000 + n * 1_000; // White thinks 61 s, 62 s, ...
        clock.commit(Color::White, t).unwrap();
        t += 30_000;
        clock.commit(Color::Black, t).unwrap();
    }
    let h = clock.history();
    // After White's 38th move: 90 min + 38 × 30 s − Σ(60 + n) s for n ≤ 38.
    let used: i64 = (1..=38).map(|n| 60 + n).sum();
    let expect = m(90) + Millis::seconds(38 * 30) - Millis::seconds(used);
    assert_eq!(arbiter::restore_exact(h, Color::White, 38).unwrap(), expect);
    assert_eq!(arbiter::restore_exact(h, Color::Black, 0).unwrap(), m(90));
    // Black: 30 s thinking and 30 s increment each move, +30 min at move 40.
    assert_eq!(arbiter::restore_exact(h, Color::Black, 41).unwrap(), m(120));
    assert_eq!(
        arbiter::restore_exact(h, Color::White, 46).unwrap_err(),
        ArbiterError::NotInHistory {
            side: Color::White,
            moves: 46
        }
    );
    assert_eq!(
        arbiter::restore_exact(h, Color::White, 46)
            .unwrap_err()
            .to_string(),
        "the clock history has no record of White's move 46"
    );
}

proptest! {
    /// (5) equals (2)-(4) for every pure-Fischer input, exactly.
    #[test]
    fn formula_5_equals_the_three_steps(
        initial_s in 0i64..36_000,
        increment_ms in 0i64..120_000,
        played in 1u32..400,
        legal_frac in 0.0f64..=1.0,
        displayed_ms in 0i64..40_000_000,
    ) {
        let legal = ((f64::from(played) * legal_frac) as u32).min(played);
        let initial = Millis::seconds(initial_s);
        let displayed = Millis(displayed_ms);
        let five = arbiter::formula_5(initial, played, legal, displayed).unwrap();
        let steps = arbiter::stepwise(initial, Millis(increment_ms), played, legal, displayed).unwrap();
        prop_assert_eq!(five, steps.set);
        let periods = Periods::new(vec![Period::rest_of_game(initial, Millis(increment_ms))]);
        if let Ok(periods) = periods {
            let general = arbiter::correct(&periods, played, legal, displayed).unwrap();
            prop_assert_eq!(general.set, five);
        }
    }

    /// The general form reduces to (5) when no period bonus is granted
    /// (later periods with base 0), whatever the quotas and increment.
    #[test]
    fn general_form_reduces_to_5_without_bonuses(
        base_s in 1i64..20_000,
        increment_s in 0i64..60,
        quotas in proptest::collection::vec(1u32..50, 0..4),
        played in 1u32..300,
        legal_frac in 0.0f64..=1.0,
        displayed_s in 0i64..30_000,
    ) {
        let legal = ((f64::from(played) * legal_frac) as u32).min(played);
        let inc = Millis::seconds(increment_s);
        let mut list: Vec<Period> = quotas
            .iter()
            .enumerate()
            .map(|(i, &q)| Period::quota(q, if i == 0 { Millis::seconds(base_s) } else { Millis::ZERO }, inc))
            .collect();
        let base_last = if list.is_empty() { Millis::seconds(base_s) } else { Millis::ZERO };
        list.push(Period::rest_of_game(base_last, inc));
        let periods = Periods::new(list).unwrap();
        let displayed = Millis::seconds(displayed_s);
        let general = arbiter::correct(&periods, played, legal, displayed).unwrap();
        let five = arbiter::formula_5(Millis::seconds(base_s), played, legal, displayed).unwrap();
        prop_assert_eq!(general.set, five);
    }

    /// With a bonus at move 40, (5) (which knows only the first base) is
    /// right exactly when no bonus was granted yet, or nothing is taken
    /// back, or everything is.
    #[test]
    fn formula_5_is_exact_only_before_the_bonus(
        played in 1u32..120,
        legal_frac in 0.0f64..=1.0,
        displayed_s in 0i64..9_000,
    ) {
        let legal = ((f64::from(played) * legal_frac) as u32).min(played);
        let tc: TimeControl = "40/5400+30:1800+30".parse().unwrap();
        let c = arbiter::correct_control(&tc, played, legal, Millis::seconds(displayed_s)).unwrap();
        let five_is_exact = played < 40 || legal == played || legal == 0;
        prop_assert_eq!(c.set == c.formula_5, five_is_exact);
    }
}
