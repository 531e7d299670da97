//! Reading a tournament file and everything computed from what was read
//! gives a value or a typed error, never a panic, for arbitrary bytes and for
//! lines shaped like TRF. The cargo-fuzz targets `trf` and `keizer` search
//! the same space far longer.

use proptest::prelude::*;
use tempo_tourney::Tournament;
use tempo_tourney::keizer::{self, KeizerSettings};
use tempo_tourney::tiebreak::{Calculator, Options, TieBreak, UnplayedRule};

/// A player line with up to four round entries, columns as TRF has them
/// (sometimes shifted, to reach the column checks).
fn player_line(id: u32) -> impl Strategy<Value = String> {
    (
        Just(id),
        "[A-Za-z ,]{0,20}",
        prop::collection::vec((0u32..14, "[wb\\- ]", "[10=+\\-WDLHFUZ ]"), 0..5),
        0usize..20,
    )
        .prop_map(|(id, name, rounds, shift)| {
            let mut line = format!("001 {id:>4}      {name:<33}{:33}{:>4} {id:>4}", "", "1.0");
            for (opp, colour, result) in rounds {
                line.push_str(&format!("  {opp:>4} {colour} {result}"));
            }
            if shift == 0 {
                line.insert(10, ' ');
            }
            line
        })
}

fn trf_text() -> impl Strategy<Value = String> {
    (
        (0u32..10).prop_flat_map(|n| (1..=n).map(player_line).collect::<Vec<_>>()),
        prop::collection::vec("(XXR [0-9]{1,2}|XTE [0-9]{4}|XTK [a-z\\-]{1,10} [0-9a-z/:]{0,5}|XTA [EUC] [0-9]{3} [0-9 ]{0,9}|XTW [0-9]{4} [0-9]{3}|XT9 (seed|round) [0-9 ]{1,7}|260 [0-9 ]{0,10}|250 [0-9. ]{0,20}|162 [WDLAPX= 0-9.]{0,12}|[0-9]{3} .{0,20})", 0..3),
    )
        .prop_map(|(players, extra)| {
            let mut lines = vec!["012 Fuzz".to_string()];
            lines.extend(players);
            lines.extend(extra);
            lines.join("\n")
        })
}

fn use_everything(t: &Tournament) {
    let _ = t.check_consistency();
    let _ = t.consistency_warnings();
    let _ = t.check_results_entered(t.paired_rounds());
    let _ = t.tiebreak_edition();
    for rule in [
        UnplayedRule::Fide2026,
        UnplayedRule::Fide2023,
        UnplayedRule::VirtualOpponent,
    ] {
        for round_robin in [false, true] {
            let calc = Calculator::new(
                t,
                Options {
                    unplayed: rule,
                    round_robin,
                    unrated_rating: Some(1000),
                    ..Options::default()
                },
            );
            for p in &t.players {
                for name in ["BH-C1", "BH-M1", "SB", "ARO", "TPR", "PS", "KS", "WIN"] {
                    let tb: TieBreak = name.parse().unwrap();
                    let _ = calc.value(tb, p.id);
                }
            }
            let ids: Vec<u32> = t.players.iter().map(|p| p.id).collect();
            let _ = calc.direct_encounter(&ids, false);
        }
    }
    if let Ok(settings) = keizer::settings_from_tournament(t) {
        let _ = keizer::pair_tournament(t, &settings);
    }
    let _ = t.to_trf();
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn arbitrary_bytes_never_panic(bytes in prop::collection::vec(any::<u8>(), 0..400)) {
        if let Ok(t) = Tournament::from_trf_bytes(&bytes) {
            use_everything(&t);
        }
    }

    #[test]
    fn trf_shaped_text_never_panics(text in trf_text()) {
        if let Ok(t) = Tournament::from_trf_str(&text) {
            use_everything(&t);
        }
    }

    #[test]
    fn keizer_settings_never_panic(key in "[a-z\\-]{0,16}", value in ".{0,12}") {
        let mut settings = KeizerSettings::default();
        let _ = settings.apply(&key, &value);
    }
}

/// The TRF-shaped texts reach beyond the reader: a good share of them is read.
#[test]
fn trf_shaped_text_is_mostly_read() {
    use proptest::strategy::ValueTree;
    use proptest::test_runner::TestRunner;
    let mut runner = TestRunner::deterministic();
    let strategy = trf_text();
    let read = (0..200)
        .filter(|_| {
            let text = strategy.new_tree(&mut runner).unwrap().current();
            Tournament::from_trf_str(&text).is_ok_and(|t| !t.players.is_empty())
        })
        .count();
    assert!(read >= 40, "only {read} of 200 read");
}
