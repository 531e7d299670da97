//! Exact matching speed: maximum-weight matching on random complete graphs
//! (Edmonds' blossom algorithm, O(n³)), and a Keizer pairing of a large club.
//!
//! `cargo bench -p tempo-tourney --bench matching`

use std::hint::black_box;

use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use tempo_tourney::Outcome;
use tempo_tourney::keizer::{KeizerSettings, RematchRule, Season};
use tempo_tourney::matching::{Mode, max_weight_matching};

/// A small fixed-seed generator (SplitMix64), so runs are comparable.
struct SplitMix(u64);

impl SplitMix {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
}

fn complete_graph(n: usize, seed: u64) -> Vec<(usize, usize, i64)> {
    let mut rng = SplitMix(seed);
    let mut edges = Vec::new();
    for i in 0..n {
        for j in i + 1..n {
            edges.push((i, j, (rng.next() % 1_000_000) as i64));
        }
    }
    edges
}

fn bench_matching(c: &mut Criterion) {
    let mut group = c.benchmark_group("max_weight_matching/complete");
    group.sample_size(10);
    for n in [50, 100, 200] {
        let edges = complete_graph(n, 7);
        group.bench_with_input(BenchmarkId::from_parameter(n), &edges, |b, edges| {
            b.iter(|| max_weight_matching(n, black_box(edges), Mode::MaxCardinality).unwrap())
        });
    }
    group.finish();
}

fn bench_keizer(c: &mut Criterion) {
    // 80 players, 12 rounds of neighbour pairings with random results.
    let n = 80u32;
    let names: Vec<String> = (1..=n).map(|i| format!("P{i}")).collect();
    let mut season = Season::new(
        names
            .iter()
            .enumerate()
            .map(|(i, s)| (i as u32 + 1, s.as_str())),
    );
    let settings = KeizerSettings {
        rematch: RematchRule::Never,
        ..KeizerSettings::default()
    };
    let mut rng = SplitMix(11);
    let all: Vec<u32> = (1..=n).collect();
    for _ in 0..12 {
        let p = season.pair_next(&settings, &all, &|_, _| false).unwrap();
        let games: Vec<_> = p
            .boards
            .iter()
            .map(|b| {
                let r = [Outcome::Win, Outcome::Draw, Outcome::Loss][(rng.next() % 3) as usize];
                (b.white, b.black, r)
            })
            .collect();
        season.add_round(&games).unwrap();
    }
    c.bench_function("keizer/pair_next/80_players_round_13", |b| {
        b.iter(|| {
            season
                .pair_next(black_box(&settings), &all, &|_, _| false)
                .unwrap()
        })
    });
}

criterion_group!(benches, bench_matching, bench_keizer);
criterion_main!(benches);
