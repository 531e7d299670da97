//! Standings with every tie-break over the 150 corpus tournaments: no
//! panics, and the relations that must hold between the values.

use std::fs;
use std::path::PathBuf;

use tempo_tourney::Tournament;
use tempo_tourney::standings::{StandingsOptions, standings};
use tempo_tourney::tiebreak::{self, UnplayedRule};

const ALL: &str = "BH,BH-C1,BH-M1,SB,SB-C1,WIN,WON,BPG,BWG,GE,ARO,TPR,PS,KS,DE";

fn corpus() -> Vec<(String, Tournament)> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/swiss/trf");
    let mut files: Vec<_> = fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    files.sort();
    files
        .into_iter()
        .map(|p| {
            let t = Tournament::from_trf_bytes(&fs::read(&p).unwrap()).unwrap();
            (p.file_name().unwrap().to_string_lossy().into_owned(), t)
        })
        .collect()
}

#[test]
fn tie_break_relations_hold_everywhere() {
    let tiebreaks = tiebreak::parse_list(ALL).unwrap();
    let col = |name: &str| ALL.split(',').position(|n| n == name).unwrap();
    for (name, t) in corpus() {
        for rule in [
            UnplayedRule::Fide2023,
            UnplayedRule::VirtualOpponent,
            UnplayedRule::Ignore,
        ] {
            let mut options = StandingsOptions::swiss();
            options.tiebreaks = tiebreaks.clone();
            options.tiebreak_options.unplayed = rule;
            let s = standings(&t, &options);
            assert_eq!(s.rows.len(), t.players.len(), "{name}");
            let rounds = i64::from(s.rounds);
            for pair in s.rows.windows(2) {
                assert!(pair[0].score >= pair[1].score, "{name}: sorted by score");
                assert!(pair[0].rank <= pair[1].rank, "{name}: ranks ascend");
            }
            for r in &s.rows {
                let v = |n: &str| r.values[col(n)].hundredths();
                assert!(
                    v("BH") >= v("BH-C1") && v("BH-C1") >= v("BH-M1"),
                    "{name} {}",
                    r.id
                );
                assert!(v("SB") >= v("SB-C1"), "{name} {}", r.id);
                assert!(
                    v("WIN") >= v("WON") && v("WON") >= v("BWG"),
                    "{name} {}",
                    r.id
                );
                assert!(v("BPG") >= v("BWG") && v("BPG") <= 100 * rounds, "{name}");
                assert!(v("GE") <= 100 * rounds && v("GE") >= v("WON"), "{name}");
                if v("ARO") > 0 {
                    assert!((1000 * 100..=3000 * 100).contains(&v("ARO")), "{name}");
                    assert!((v("TPR") - v("ARO")).abs() <= 800 * 100, "{name}");
                }
                // The progressive score is at least the final score.
                assert!(v("PS") >= i64::from(r.score.tenths()) * 10, "{name}");
                assert!(v("KS") <= i64::from(r.score.tenths()) * 10, "{name}");
            }
        }
    }
}

#[test]
fn buchholz_without_unplayed_rounds_is_the_sum_of_opponents_scores() {
    // Where a player only played games, every rule gives the plain sum of
    // the opponents' scores (adjusted for opponents who withdrew).
    for (name, t) in corpus() {
        let calc = tiebreak::Calculator::new(&t, tiebreak::Options::default());
        let bh = "BH".parse().unwrap();
        for p in &t.players {
            if !p.rounds.iter().all(|e| e.is_played()) {
                continue;
            }
            let sum: i64 = p
                .rounds
                .iter()
                .map(|e| i64::from(calc.adjusted_score(e.opponent.unwrap()).tenths()) * 10)
                .sum();
            assert_eq!(calc.value(bh, p.id).hundredths(), sum, "{name}: {}", p.id);
        }
    }
}
