//! TRF reading and writing over the Dutch-system corpus (150 tournaments,
//! bare CR line endings, some with a `162` point system).

use std::fs;
use std::path::PathBuf;

use tempo_chess::Color;
use tempo_tourney::trf::LineEnding;
use tempo_tourney::{Points, ResultCode, Tournament};

fn corpus() -> Vec<(String, Vec<u8>)> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/swiss/trf");
    let mut files: Vec<_> = fs::read_dir(&dir)
        .expect("tests/data/swiss/trf")
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "trf"))
        .collect();
    files.sort();
    files
        .into_iter()
        .map(|p| {
            let name = p.file_name().unwrap().to_string_lossy().into_owned();
            (name, fs::read(&p).unwrap())
        })
        .collect()
}

#[test]
fn corpus_has_150_files() {
    assert_eq!(corpus().len(), 150);
}

#[test]
fn every_file_round_trips_byte_for_byte() {
    for (name, bytes) in corpus() {
        let t = Tournament::from_trf_bytes(&bytes).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(t.line_ending(), LineEnding::Cr, "{name}");
        let written = tempo_tourney::trf::write(&t).unwrap();
        assert!(written == bytes, "{name}: write differs from input");
    }
}

#[test]
fn every_file_is_reproduced_by_the_column_writer() {
    // Rendering every player line afresh must give the same bytes: the
    // corpus is canonical TRF, so this checks the writer, not the cache.
    for (name, bytes) in corpus() {
        let t = Tournament::from_trf_bytes(&bytes).unwrap();
        let canonical = t.to_trf_canonical().unwrap();
        let original = String::from_utf8(bytes).unwrap();
        for (a, b) in canonical.split('\r').zip(original.split('\r')) {
            assert_eq!(a, b, "{name}");
        }
        assert_eq!(canonical, original, "{name}");
    }
}

#[test]
fn scores_agree_with_the_points_column() {
    let mut three_point = 0;
    for (name, bytes) in corpus() {
        let t = Tournament::from_trf_bytes(&bytes).unwrap();
        if t.point_system.win == Points::from_tenths(30) {
            three_point += 1;
            assert_eq!(t.point_system.draw, Points::ONE, "{name}");
        }
        let rounds = t.paired_rounds();
        assert_eq!(rounds, t.rounds_in_file(), "{name}");
        for p in &t.players {
            assert_eq!(Some(t.score(p.id)), p.points, "{name}: player {}", p.id);
        }
    }
    assert_eq!(three_point, 12);
}

#[test]
fn opponents_agree() {
    for (name, bytes) in corpus() {
        let t = Tournament::from_trf_bytes(&bytes).unwrap();
        assert_eq!(t.inconsistencies(), vec![], "{name}");
        for p in &t.players {
            for (i, e) in p.rounds.iter().enumerate() {
                let round = i as u32 + 1;
                let Some(o) = e.opponent else {
                    assert!(e.bye_kind().is_some(), "{name}: {} r{round}", p.id);
                    continue;
                };
                let back = t.entry(o, round).unwrap();
                assert_eq!(back.opponent, Some(p.id), "{name}");
                assert_eq!(back.colour, e.colour.map(Color::other), "{name}");
                assert_eq!(back.is_played(), e.is_played(), "{name}");
                let sum =
                    t.point_system.points_for(e.result) + t.point_system.points_for(back.result);
                if e.is_played() {
                    assert!(
                        sum == t.point_system.win || sum == t.point_system.draw * 2,
                        "{name}"
                    );
                }
            }
        }
    }
}

#[test]
fn line_endings_are_kept_in_every_style() {
    let (_, bytes) = &corpus()[0];
    let text = String::from_utf8(bytes.clone()).unwrap();
    let cr = Tournament::from_trf_str(&text).unwrap();
    for (style, ending) in [("\n", LineEnding::Lf), ("\r\n", LineEnding::CrLf)] {
        let converted = text.replace('\r', style);
        let t = Tournament::from_trf_str(&converted).unwrap();
        assert_eq!(t.line_ending(), ending);
        assert_eq!(t.players, cr.players);
        assert_eq!(t.to_trf().unwrap(), converted);
        assert_eq!(t.to_trf_canonical().unwrap(), converted);
    }
}

#[test]
fn a_changed_result_rewrites_only_its_lines() {
    let (_, bytes) = &corpus()[0];
    let original = String::from_utf8(bytes.clone()).unwrap();
    let mut t = Tournament::from_trf_str(&original).unwrap();
    let p = t.player_mut(1).unwrap();
    p.rounds[0].result = ResultCode::Win;
    p.points = Some(Points::from_tenths(60));
    let written = t.to_trf().unwrap();
    let old: Vec<&str> = original.split('\r').collect();
    let new: Vec<&str> = written.split('\r').collect();
    assert_eq!(old.len(), new.len());
    let changed: Vec<usize> = (0..old.len()).filter(|&i| old[i] != new[i]).collect();
    assert_eq!(changed, vec![1]);
    assert!(new[1].contains("  6.0    1    10 b 1"), "{}", new[1]);
    let again = Tournament::from_trf_str(&written).unwrap();
    assert_eq!(again.players, t.players);
}

#[test]
fn new_settings_are_appended_and_read_back() {
    let (_, bytes) = &corpus()[0];
    let mut t = Tournament::from_trf_bytes(bytes).unwrap();
    t.total_rounds = Some(9);
    t.initial_colour = Some(Color::Black);
    let written = t.to_trf().unwrap();
    assert!(
        written.ends_with("092 FIDE_DUTCH_2025\r142 9\r152 B\r"),
        "{written}"
    );
    let back = Tournament::from_trf_str(&written).unwrap();
    assert_eq!(back.total_rounds, Some(9));
    assert_eq!(back.initial_colour, Some(Color::Black));
}

#[test]
fn contradictions_are_found() {
    let (_, bytes) = &corpus()[0];
    let mut t = Tournament::from_trf_bytes(bytes).unwrap();
    // Player 1 met 10 in round 1 (1 had Black); make 10 list 12 instead,
    // and give player 2 and 11 (round 1) the same colour.
    t.player_mut(10).unwrap().rounds[0].opponent = Some(12);
    t.player_mut(11).unwrap().rounds[0].colour = Some(Color::White);
    let found: Vec<String> = t
        .inconsistencies()
        .iter()
        .map(ToString::to_string)
        .collect();
    assert!(
        found.contains(&"round 1: player 1 lists 10 as opponent, but 10 lists 12".to_string()),
        "{found:?}"
    );
    assert!(
        found.contains(&"round 1: players 2 and 11 have the same colour".to_string()),
        "{found:?}"
    );
}

#[test]
fn latin1_files_stay_latin1() {
    let (_, bytes) = &corpus()[0];
    // Put "é" (Latin-1 0xE9) into player 1's name: "Test0001 Player0001".
    let mut latin1 = bytes.clone();
    let at = latin1.windows(8).position(|w| w == b"Player00").unwrap();
    latin1[at + 1] = 0xE9;
    let t = Tournament::from_trf_bytes(&latin1).unwrap();
    assert_eq!(t.encoding(), tempo_tourney::trf::Encoding::Latin1);
    assert_eq!(t.player(1).unwrap().name, "Test0001 P\u{e9}ayer0001");
    assert!(tempo_tourney::trf::write(&t).unwrap() == latin1);
    let mut changed = t.clone();
    changed.player_mut(1).unwrap().rating = Some(2001);
    let written = tempo_tourney::trf::write(&changed).unwrap();
    assert!(
        written.contains(&0xE9),
        "still Latin-1 after re-rendering the line"
    );
    let back = Tournament::from_trf_bytes(&written).unwrap();
    assert_eq!(back.player(1).unwrap().rating, Some(2001));
    assert_eq!(back.player(1).unwrap().name, "Test0001 P\u{e9}ayer0001");
}

#[test]
fn byte_order_mark_is_kept() {
    let (_, bytes) = &corpus()[0];
    let mut with_bom = "\u{feff}".as_bytes().to_vec();
    with_bom.extend_from_slice(bytes);
    let t = Tournament::from_trf_bytes(&with_bom).unwrap();
    assert_eq!(t.name(), Some("AutoTest Tournament 1"));
    assert!(tempo_tourney::trf::write(&t).unwrap() == with_bom);
}
