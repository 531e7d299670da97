//! Notation speed: SAN writing and reading of every legal move over many
//! positions (the PGN writer's and reader's inner loop), and writing and
//! reading whole PGN games.
//!
//! `cargo bench -p tempo-chess --bench notation`

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use tempo_chess::pgn::{self, PgnGame};
use tempo_chess::{Game, Position, chess960, san};

/// Positions from random playouts (orthodox and Chess960).
fn positions() -> Vec<Position> {
    let mut rng = ChaCha8Rng::seed_from_u64(1);
    let mut out = Vec::new();
    for game in 0..40 {
        let mut pos = if game % 2 == 0 {
            Position::new()
        } else {
            chess960::start_position(rng.random_range(0..960)).unwrap()
        };
        for _ in 0..80 {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            out.push(pos.clone());
            pos.play(moves[rng.random_range(0..moves.len())]);
        }
    }
    out
}

/// Random games as one PGN text.
fn games_text() -> (String, usize) {
    let mut rng = ChaCha8Rng::seed_from_u64(2);
    let mut text = String::new();
    let mut plies = 0;
    for _ in 0..50 {
        let mut game = Game::default();
        for _ in 0..100 {
            if game.outcome().is_some() {
                break;
            }
            let moves = game.position().legal_moves();
            game.play_unchecked(moves[rng.random_range(0..moves.len())]);
        }
        plies += game.moves().len();
        text.push_str(&PgnGame::from_game(&game).to_pgn());
    }
    (text, plies)
}

fn san_benches(c: &mut Criterion) {
    let positions = positions();
    let pairs: Vec<(Position, tempo_chess::Move)> = positions
        .iter()
        .flat_map(|p| {
            p.legal_moves()
                .iter()
                .map(|&m| (p.clone(), m))
                .collect::<Vec<_>>()
        })
        .collect();
    let texts: Vec<String> = pairs.iter().map(|(p, m)| san::write(p, *m)).collect();

    let mut group = c.benchmark_group("san");
    group.throughput(Throughput::Elements(pairs.len() as u64));
    group.bench_function("write", |b| {
        b.iter(|| {
            for (pos, mv) in &pairs {
                black_box(san::write(pos, *mv));
            }
        })
    });
    group.bench_function("read", |b| {
        b.iter(|| {
            for ((pos, _), text) in pairs.iter().zip(&texts) {
                black_box(san::parse(pos, text).unwrap());
            }
        })
    });
    group.finish();
}

fn pgn_benches(c: &mut Criterion) {
    let (text, plies) = games_text();
    let games: Vec<PgnGame> = pgn::read_games(&text)
        .into_iter()
        .map(|g| g.unwrap())
        .collect();
    let mut group = c.benchmark_group("pgn");
    group.throughput(Throughput::Elements(plies as u64));
    group.bench_function("read (moves replayed)", |b| {
        b.iter(|| black_box(pgn::read_games(&text).len()))
    });
    group.bench_function("write", |b| {
        b.iter(|| {
            for game in &games {
                black_box(game.to_pgn());
            }
        })
    });
    group.finish();
}

criterion_group!(benches, san_benches, pgn_benches);
criterion_main!(benches);
