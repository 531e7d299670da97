//! Perft against the public suites in `tests/data/` (orthodox and the 960
//! Chess960 positions): every position to the largest depth whose
//! expected count is at most one million. The full depths (up to 6) run
//! with `cargo test -p tempo-chess --release -- --ignored`.

use tempo_chess::{Position, perft};

const STANDARD: &str = include_str!("data/standard.epd");
const CHESS960: &str = include_str!("data/chess960-positions.epd");

/// One EPD line: the FEN and the expected counts by depth.
struct Case {
    fen: String,
    depths: Vec<(u32, u64)>,
}

fn cases(suite: &str) -> Vec<Case> {
    suite
        .lines()
        .filter(|line| !line.trim().is_empty())
        .map(|line| {
            let mut parts = line.split(';');
            let fen = parts.next().unwrap().trim().to_owned();
            let depths = parts
                .map(|part| {
                    let part = part.trim();
                    let (depth, count) = part.split_once(' ').unwrap();
                    let depth = depth.trim_start_matches('D').parse().unwrap();
                    (depth, count.trim().parse().unwrap())
                })
                .collect();
            Case { fen, depths }
        })
        .collect()
}

/// Runs the cases with index `i % parts == part`, each to the deepest depth
/// whose count is at most `limit` (all depths if `limit` is `None`).
fn run(suite: &str, part: usize, parts: usize, limit: Option<u64>) {
    let all = cases(suite);
    assert!(!all.is_empty());
    for (i, case) in all.iter().enumerate().filter(|(i, _)| i % parts == part) {
        let pos = Position::from_fen(&case.fen).unwrap_or_else(|e| panic!("line {}: {e}", i + 1));
        let chosen: Vec<&(u32, u64)> = match limit {
            Some(limit) => {
                // The deepest fitting depth; a line that lists only larger
                // counts runs its shallowest one.
                let fitting = case.depths.iter().filter(|(_, n)| *n <= limit);
                let chosen = fitting
                    .max_by_key(|(d, _)| *d)
                    .or_else(|| case.depths.iter().min_by_key(|(d, _)| *d));
                chosen.into_iter().collect()
            }
            None => case.depths.iter().collect(),
        };
        for &&(depth, expected) in &chosen {
            assert_eq!(
                perft(&pos, depth),
                expected,
                "line {}: {} depth {depth}",
                i + 1,
                case.fen
            );
        }
    }
}

const LIMIT: Option<u64> = Some(1_000_000);

#[test]
fn standard_suite_part_1() {
    run(STANDARD, 0, 2, LIMIT);
}

#[test]
fn standard_suite_part_2() {
    run(STANDARD, 1, 2, LIMIT);
}

#[test]
fn chess960_suite_part_1() {
    run(CHESS960, 0, 4, LIMIT);
}

#[test]
fn chess960_suite_part_2() {
    run(CHESS960, 1, 4, LIMIT);
}

#[test]
fn chess960_suite_part_3() {
    run(CHESS960, 2, 4, LIMIT);
}

#[test]
fn chess960_suite_part_4() {
    run(CHESS960, 3, 4, LIMIT);
}

#[test]
fn start_position_depth_5() {
    assert_eq!(perft(&Position::new(), 5), 4_865_609);
}

#[test]
#[ignore = "slow: full depth of both suites (minutes in release mode)"]
fn standard_suite_full_depth() {
    run(STANDARD, 0, 1, None);
}

#[test]
#[ignore = "slow: all 960 Chess960 positions to depth 5 (minutes in release mode)"]
fn chess960_suite_depth_5() {
    run(CHESS960, 0, 1, Some(100_000_000));
}

#[test]
#[ignore = "slow: all 960 Chess960 positions to depth 6 (hours)"]
fn chess960_suite_full_depth() {
    run(CHESS960, 0, 1, None);
}
