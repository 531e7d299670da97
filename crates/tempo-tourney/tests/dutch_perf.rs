//! The benchmark rounds (round 5 of a 400- and a 2000-player tournament)
//! must be paired exactly as the reference did. Timing is measured by the
//! bench (`cargo bench -p tempo-tourney --bench dutch`), not here. Both run
//! in the default test (the 2000-player round takes about 8 s in the test
//! profile).

use std::path::Path;

use tempo_tourney::Tournament;
use tempo_tourney::dutch::{input_for_round, pair};

fn check(name: &str) {
    let dir = Path::new(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/swiss/perf"
    ));
    let t =
        Tournament::from_trf_bytes(&std::fs::read(dir.join(format!("{name}.r05.in.trf"))).unwrap())
            .unwrap();
    let expected = std::fs::read_to_string(dir.join(format!("{name}.r05.pairs"))).unwrap();
    let start = std::time::Instant::now();
    let p = pair(&input_for_round(&t, t.paired_rounds() + 1).unwrap()).unwrap();
    eprintln!("{name}: {:?}", start.elapsed());
    let mut got = format!("{}\n", p.boards.len() + p.bye.is_some() as usize);
    for (w, b) in &p.boards {
        got += &format!("{w} {b}\n");
    }
    if let Some(b) = p.bye {
        got += &format!("{b} 0\n");
    }
    assert!(
        got.split_whitespace().eq(expected.split_whitespace()),
        "{name} differs"
    );
}

#[test]
fn perf_400_is_identical() {
    check("gen400");
}

#[test]
fn perf_2000_is_identical() {
    check("gen2000");
}
