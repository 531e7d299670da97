//! Round trips of every legal move through SAN, UCI (both castling
//! styles) and ICCF numeric notation: over random playouts from the
//! orthodox and from random Chess960 start positions, and over every
//! position of the perft suites (promotions, en passant, odd castlings).

use proptest::prelude::*;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use tempo_chess::uci::CastlingStyle;
use tempo_chess::{Move, Position, chess960, iccf, san, uci};

const STANDARD: &str = include_str!("data/standard.epd");
const CHESS960: &str = include_str!("data/chess960-positions.epd");

/// Every legal move of `pos` survives write -> read in every notation.
fn check_all_moves(pos: &Position) {
    for &mv in pos.legal_moves().iter() {
        check_move(pos, mv);
    }
}

fn check_move(pos: &Position, mv: Move) {
    let text = san::write(pos, mv);
    assert_eq!(san::parse(pos, &text), Ok(mv), "SAN {text} in {pos}");
    let bare = san::write_without_suffix(pos, mv);
    assert_eq!(san::parse(pos, &bare), Ok(mv), "SAN {bare} in {pos}");

    let text = uci::write_with(pos, mv, CastlingStyle::Chess960);
    assert_eq!(uci::parse(pos, &text), Ok(mv), "UCI {text} in {pos}");
    assert_eq!(text, mv.to_string());
    if !pos.is_chess960() {
        let text = uci::write_with(pos, mv, CastlingStyle::Standard);
        assert_eq!(uci::parse(pos, &text), Ok(mv), "UCI {text} in {pos}");
    }

    let text = iccf::write(pos, mv);
    assert_eq!(iccf::parse(pos, &text), Ok(mv), "ICCF {text} in {pos}");
}

/// A random playout of up to `plies` moves from `start`, checking every
/// legal move of every position on the way.
fn playout(start: Position, seed: u64, plies: usize) {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut pos = start;
    for _ in 0..plies {
        check_all_moves(&pos);
        let moves = pos.legal_moves();
        if moves.is_empty() {
            break;
        }
        let mv = moves[rng.random_range(0..moves.len())];
        pos.play(mv);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn orthodox_playouts(seed in any::<u64>()) {
        playout(Position::new(), seed, 120);
    }

    #[test]
    fn chess960_playouts(number in 0u16..960, seed in any::<u64>()) {
        playout(chess960::start_position(number).unwrap(), seed, 120);
    }
}

fn suite_positions(suite: &str) -> impl Iterator<Item = Position> + '_ {
    suite.lines().filter(|l| !l.trim().is_empty()).map(|line| {
        let fen = line.split(';').next().unwrap().trim();
        Position::from_fen(fen).unwrap()
    })
}

#[test]
fn perft_suite_positions_and_their_children() {
    for pos in suite_positions(STANDARD).chain(suite_positions(CHESS960)) {
        check_all_moves(&pos);
        for &mv in pos.legal_moves().iter() {
            check_all_moves(&pos.played(mv));
        }
    }
}

#[test]
fn orthodox_castling_spellings() {
    let pos: Position = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1".parse().unwrap();
    let short = uci::parse(&pos, "e1g1").unwrap();
    let long = uci::parse(&pos, "e1c1").unwrap();
    assert_eq!(short.to_string(), "e1h1");
    assert_eq!(long.to_string(), "e1a1");
    assert_eq!(san::write(&pos, short), "O-O");
    assert_eq!(san::write(&pos, long), "O-O-O");
    assert_eq!(iccf::write(&pos, short), "5171");
    assert_eq!(iccf::write(&pos, long), "5131");
    assert_eq!(uci::write(&pos, short), "e1g1");
    let mut c960 = pos.clone();
    c960.set_chess960(true);
    assert_eq!(uci::write(&c960, short), "e1h1");
}

#[test]
fn en_passant_and_promotion() {
    let pos: Position = "4k3/1P6/8/3pP3/8/8/8/4K3 w - d6 0 1".parse().unwrap();
    let ep = san::parse(&pos, "exd6").unwrap();
    assert_eq!(ep.to_string(), "e5d6");
    assert_eq!(san::write(&pos, ep), "exd6");
    assert_eq!(iccf::write(&pos, ep), "5546");
    let promo = iccf::parse(&pos, "27284").unwrap();
    assert_eq!(san::write(&pos, promo), "b8=N");
    assert_eq!(uci::write(&pos, promo), "b7b8n");
    let queen = san::parse(&pos, "b8Q").unwrap();
    assert_eq!(san::write(&pos, queen), "b8=Q+");
    assert_eq!(iccf::write(&pos, queen), "27281");
}
