//! Round trips of the PGN `TimeControl` and human forms, and that no text
//! makes the readers panic.

use proptest::prelude::*;
use tempo_clock::{Correspondence, Delay, Millis, Period, Periods, TimeControl, human, pgn};

fn millis() -> impl Strategy<Value = Millis> {
    prop_oneof![
        (0i64..20_000).prop_map(Millis::seconds),
        (0i64..300).prop_map(Millis::minutes),
        (0i64..5_000_000).prop_map(Millis),
    ]
}

fn delay() -> impl Strategy<Value = Delay> {
    prop_oneof![
        Just(Delay::None),
        (1i64..30).prop_map(|s| Delay::Simple(Millis::seconds(s))),
        (1i64..30_000).prop_map(|ms| Delay::Bronstein(Millis(ms))),
    ]
}

fn period() -> impl Strategy<Value = Period> {
    (millis(), millis(), delay()).prop_map(|(base, increment, delay)| Period {
        moves: None,
        base,
        increment,
        delay,
    })
}

fn periods() -> impl Strategy<Value = Periods> {
    (
        proptest::collection::vec((2u32..60, period()), 0..3),
        period(),
        proptest::option::of(2u32..60),
        any::<bool>(),
    )
        .prop_filter_map("valid", |(quota_periods, last, last_quota, uniform)| {
            let mut list: Vec<Period> = quota_periods
                .into_iter()
                .map(|(q, p)| Period {
                    moves: Some(q),
                    ..p
                })
                .collect();
            list.push(Period {
                moves: last_quota,
                ..last
            });
            if uniform {
                let (inc, delay) = (list[0].increment, list[0].delay);
                for p in &mut list {
                    p.increment = inc;
                    p.delay = delay;
                }
            }
            Periods::new(list).ok()
        })
}

fn control() -> impl Strategy<Value = TimeControl> {
    prop_oneof![
        4 => periods().prop_map(TimeControl::Periods),
        1 => (1i64..100_000).prop_map(|s| TimeControl::Hourglass { total: Millis::seconds(s) }),
        1 => (1i64..30).prop_map(|d| TimeControl::Correspondence(Correspondence::PerMove {
            limit: Millis::days(d)
        })),
        1 => Just(TimeControl::Unknown),
        1 => Just(TimeControl::Unlimited),
    ]
}

proptest! {
    #[test]
    fn pgn_round_trip(tc in control()) {
        let Some(text) = pgn::write_pgn(&tc) else {
            // Only a repeating one-move period of whole days has no PGN form
            // (it would read back as days per move); no ICCF is generated.
            prop_assert!(matches!(&tc, TimeControl::Periods(p) if p.periods().len() == 1));
            return Ok(());
        };
        prop_assert_eq!(pgn::parse_pgn(&text).unwrap(), tc.clone(), "{}", text);
        prop_assert_eq!(text.parse::<TimeControl>().unwrap(), tc);
    }

    #[test]
    fn human_round_trip(tc in control()) {
        let text = human::write_human(&tc);
        prop_assert_eq!(human::parse_human(&text).unwrap(), tc, "{}", text);
    }

    #[test]
    fn iccf_human_round_trip(p in periods()) {
        let tc = TimeControl::Correspondence(Correspondence::Iccf(p));
        let text = human::write_human(&tc);
        prop_assert_eq!(human::parse_human(&text).unwrap(), tc, "{}", text);
    }

    #[test]
    fn readers_never_panic(text in "[0-9/+:*?dbms hDIELAYCOVRNUTPKF;.-]{0,30}") {
        let _ = pgn::parse_pgn(&text);
        let _ = human::parse_human(&text);
        let _ = text.parse::<Millis>();
    }
}

#[test]
fn serde_round_trip_and_validation() {
    let tc: TimeControl = "40/5400+30:1800+30d5".parse().unwrap();
    let json = serde_json::to_string(&tc).unwrap();
    assert_eq!(serde_json::from_str::<TimeControl>(&json).unwrap(), tc);
    // Deserialising checks the same rules as Periods::new.
    let bad = r#"{"Periods":[{"moves":null,"base":1000,"increment":0,"delay":"None"},{"moves":40,"base":1000,"increment":0,"delay":"None"}]}"#;
    let err = serde_json::from_str::<TimeControl>(bad)
        .unwrap_err()
        .to_string();
    assert!(err.contains("rest of the game"), "{err}");
}
