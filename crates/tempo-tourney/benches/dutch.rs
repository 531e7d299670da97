//! Dutch pairing of round 5 of a 400-player tournament (and, with
//! `DUTCH_BENCH_2000=1`, of a 2000-player one), the rounds the reference
//! engine bbpPairings needs 1.5 s and 222 s for on the 2-core dev machine.
//!
//! `cargo bench -p tempo-tourney --bench dutch`

use std::path::Path;

use criterion::{Criterion, criterion_group, criterion_main};
use tempo_tourney::Tournament;
use tempo_tourney::dutch::{DutchInput, input_for_round, pair};

fn input(name: &str) -> DutchInput {
    let dir = Path::new(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/swiss/perf"
    ));
    let bytes = std::fs::read(dir.join(format!("{name}.r05.in.trf"))).expect("perf data");
    let t = Tournament::from_trf_bytes(&bytes).expect("valid TRF");
    input_for_round(&t, t.paired_rounds() + 1).expect("valid round")
}

fn bench(c: &mut Criterion) {
    let mut group = c.benchmark_group("dutch");
    group.sample_size(10);
    let gen400 = input("gen400");
    group.bench_function("round5_400_players", |b| b.iter(|| pair(&gen400).unwrap()));
    if std::env::var("DUTCH_BENCH_2000").is_ok() {
        let gen2000 = input("gen2000");
        group.sample_size(10);
        group.bench_function("round5_2000_players", |b| {
            b.iter(|| pair(&gen2000).unwrap())
        });
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
