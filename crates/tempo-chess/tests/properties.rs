//! Property tests over random playouts of orthodox and Chess960 games:
//! FEN round trips, the incremental hash, colour-mirror symmetry, and
//! agreement with cozy-chess (legal move sets and the FEN after each move).

use std::collections::BTreeSet;

use proptest::prelude::*;
use tempo_chess::{Position, perft};

/// A start position: orthodox, or Chess960 number `n` (from cozy-chess's
/// numbering, used here only as a source of set-ups).
fn start(chess960: Option<u32>) -> Position {
    match chess960 {
        None => Position::new(),
        Some(n) => {
            let board = cozy_chess::Board::chess960_startpos(n);
            let mut pos = Position::from_fen(&format!("{board:#}")).unwrap();
            pos.set_chess960(true);
            pos
        }
    }
}

fn cozy_board(pos: &Position) -> cozy_chess::Board {
    cozy_chess::Board::from_fen(&pos.to_shredder_fen(), true).unwrap()
}

fn cozy_moves(board: &cozy_chess::Board) -> BTreeSet<String> {
    let mut moves = BTreeSet::new();
    board.generate_moves(|piece_moves| {
        moves.extend(piece_moves.into_iter().map(|mv| mv.to_string()));
        false
    });
    moves
}

/// The FEN without the en-passant field (cozy-chess records every double
/// step, we only capturable ones; legality of ep is compared via moves).
fn without_ep(fen: &str) -> String {
    let mut fields: Vec<&str> = fen.split(' ').collect();
    fields.remove(3);
    fields.join(" ")
}

fn start_strategy() -> impl Strategy<Value = Option<u32>> {
    prop_oneof![Just(None), (0u32..960).prop_map(Some)]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn fen_round_trips_and_hash_is_incremental(
        chess960 in start_strategy(),
        choices in prop::collection::vec(any::<u16>(), 0..120),
    ) {
        let mut pos = start(chess960);
        for choice in choices {
            for fen in [pos.to_fen(), pos.to_shredder_fen()] {
                let mut parsed = Position::from_fen(&fen).unwrap();
                parsed.set_chess960(pos.is_chess960());
                prop_assert_eq!(&parsed, &pos, "{}", fen);
                prop_assert_eq!(parsed.to_fen(), pos.to_fen());
            }
            prop_assert_eq!(pos.hash(), pos.compute_hash());
            prop_assert_eq!(pos.validate(), Ok(()));
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            pos.play(moves[choice as usize % moves.len()]);
        }
    }

    #[test]
    fn move_generation_agrees_with_cozy_chess(
        chess960 in start_strategy(),
        choices in prop::collection::vec(any::<u16>(), 0..160),
    ) {
        let mut pos = start(chess960);
        let mut board = cozy_board(&pos);
        for choice in choices {
            let ours: BTreeSet<String> = pos.legal_moves().iter().map(|mv| mv.to_string()).collect();
            prop_assert_eq!(&ours, &cozy_moves(&board), "{}", pos.to_shredder_fen());
            prop_assert_eq!(pos.count_legal_moves(), ours.len());
            let pseudo: BTreeSet<String> = pos
                .pseudo_legal_moves_for(pos.turn())
                .iter()
                .map(|mv| mv.to_string())
                .collect();
            prop_assert!(ours.is_subset(&pseudo), "{}", pos.to_fen());
            // The other colour's moves from the same position equal
            // cozy-chess's moves with the turn flipped (when that is a
            // valid position: the side to move now is not in check).
            if !pos.is_check() {
                let mut flipped = pos.clone();
                flipped.set_turn(!pos.turn());
                flipped.set_en_passant_squares(tempo_chess::Bitboard::EMPTY);
                let theirs: BTreeSet<String> = pos
                    .legal_moves_for(!pos.turn())
                    .iter()
                    .map(|mv| mv.to_string())
                    .collect();
                prop_assert_eq!(&theirs, &cozy_moves(&cozy_board(&flipped)), "{}", pos.to_fen());
            }
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            let mv = moves[choice as usize % moves.len()];
            prop_assert!(pos.is_legal(mv));
            pos.play(mv);
            board.play(mv.to_string().parse().unwrap());
            prop_assert_eq!(without_ep(&pos.to_shredder_fen()), without_ep(&format!("{board:#}")));
        }
    }

    #[test]
    fn colour_mirror_is_symmetric(
        chess960 in start_strategy(),
        choices in prop::collection::vec(any::<u16>(), 0..80),
    ) {
        let mut pos = start(chess960);
        for choice in choices {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            pos.play(moves[choice as usize % moves.len()]);
        }
        let mirror = pos.mirrored();
        prop_assert_eq!(mirror.mirrored(), pos.clone());
        prop_assert_eq!(mirror.validate(), Ok(()));
        prop_assert_eq!(perft(&mirror, 2), perft(&pos, 2));
        let flipped: BTreeSet<String> = mirror
            .legal_moves()
            .iter()
            .map(|mv| format!("{}{}", mv.from.flip_rank(), mv.to.flip_rank()))
            .collect();
        let ours: BTreeSet<String> = pos
            .legal_moves()
            .iter()
            .map(|mv| format!("{}{}", mv.from, mv.to))
            .collect();
        prop_assert_eq!(flipped, ours);
    }
}
