//! Pair resolutions per second (generate both players' complete sets of
//! legal moves, pick one each, resolve the pair) from positions of random
//! playouts, beside the orthodox perft rate of the same run.
//!
//! `cargo bench -p tempo-bench --bench resolve`

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use tempo_bench::PairDriver;
use tempo_chess::{Position, perft};
use tempo_sync::playout::sample_pair_states;
use tempo_sync::{Rules, Variant};

fn resolutions(c: &mut Criterion) {
    for variant in [Variant::Synchronschach, Variant::Fairschach] {
        let states = sample_pair_states(Rules::new(variant), 2000, 1);
        let mut group = c.benchmark_group(format!("{variant}"));
        group.throughput(Throughput::Elements(states.len() as u64));
        group.bench_function("generate+resolve pairs", |b| {
            let mut driver = PairDriver::new();
            b.iter(|| black_box(driver.pass(&states)))
        });
        group.finish();
    }
    let mut group = c.benchmark_group("orthodox perft");
    let pos = Position::new();
    group.throughput(Throughput::Elements(perft(&pos, 4)));
    group.bench_function("start position depth 4", |b| {
        b.iter(|| perft(black_box(&pos), 4))
    });
    group.finish();
}

criterion_group!(benches, resolutions);
criterion_main!(benches);
