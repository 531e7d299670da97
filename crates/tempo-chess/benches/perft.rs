//! Perft throughput of tempo-chess and cozy-chess in the same run.
//!
//! Both count leaves the same way: legal move generation at inner nodes,
//! copy-make, bulk counting (number of legal moves) at the last ply.
//! Positions: start position depth 5 and Kiwipete depth 4 (depth 6 / 5
//! take several seconds per iteration, too long for criterion's sampling;
//! `tempo bench perft --full` runs those). Throughput is reported as
//! elements (= leaf nodes) per second.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use tempo_chess::{Position, perft};

const POSITIONS: [(&str, &str, u32); 2] = [
    (
        "start",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        5,
    ),
    (
        "kiwipete",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        4,
    ),
];

fn cozy_perft(board: &cozy_chess::Board, depth: u32) -> u64 {
    match depth {
        0 => 1,
        1 => {
            let mut nodes = 0;
            board.generate_moves(|moves| {
                nodes += moves.len() as u64;
                false
            });
            nodes
        }
        _ => {
            let mut nodes = 0;
            board.generate_moves(|moves| {
                for mv in moves {
                    let mut child = board.clone();
                    child.play_unchecked(mv);
                    nodes += cozy_perft(&child, depth - 1);
                }
                false
            });
            nodes
        }
    }
}

fn bench_perft(c: &mut Criterion) {
    for (name, fen, depth) in POSITIONS {
        let pos = Position::from_fen(fen).unwrap();
        let board = cozy_chess::Board::from_fen(fen, false).unwrap();
        let nodes = perft(&pos, depth);
        assert_eq!(nodes, cozy_perft(&board, depth));
        let mut group = c.benchmark_group(format!("perft/{name}/depth{depth}"));
        group.throughput(Throughput::Elements(nodes));
        group.sample_size(10);
        group.bench_function("tempo", |b| b.iter(|| perft(&pos, depth)));
        group.bench_function("cozy-chess", |b| b.iter(|| cozy_perft(&board, depth)));
        group.finish();
    }
}

criterion_group!(benches, bench_perft);
criterion_main!(benches);
