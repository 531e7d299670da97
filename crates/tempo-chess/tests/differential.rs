//! Differential tests against cozy-chess (an independent move generator):
//! legal move sets and FEN after each move over random playouts of
//! orthodox and Chess960 games, and a tree walk that finds the first
//! position where the two disagree.

use std::collections::BTreeSet;

use tempo_chess::{Position, STARTING_FEN};

fn cozy_board(pos: &Position) -> cozy_chess::Board {
    cozy_chess::Board::from_fen(&pos.to_shredder_fen(), true)
        .unwrap_or_else(|e| panic!("cozy-chess rejects {}: {e:?}", pos.to_shredder_fen()))
}

fn cozy_moves(board: &cozy_chess::Board) -> BTreeSet<String> {
    let mut moves = BTreeSet::new();
    board.generate_moves(|piece_moves| {
        for mv in piece_moves {
            moves.insert(mv.to_string());
        }
        false
    });
    moves
}

fn our_moves(pos: &Position) -> BTreeSet<String> {
    pos.legal_moves().iter().map(|mv| mv.to_string()).collect()
}

/// The FEN without its en-passant field (cozy-chess records every double
/// step; we record only capturable ones).
fn without_ep(fen: &str) -> String {
    let mut fields: Vec<&str> = fen.split(' ').collect();
    fields.remove(3);
    fields.join(" ")
}

/// Walks the tree to `depth` and panics at the first position where the
/// move sets differ, naming it.
fn compare_tree(pos: &Position, depth: u32) {
    let ours = our_moves(pos);
    let theirs = cozy_moves(&cozy_board(pos));
    assert_eq!(
        ours,
        theirs,
        "move sets differ in {} (ours minus cozy: {:?}, cozy minus ours: {:?})",
        pos.to_shredder_fen(),
        ours.difference(&theirs).collect::<Vec<_>>(),
        theirs.difference(&ours).collect::<Vec<_>>()
    );
    assert_eq!(
        pos.count_legal_moves(),
        ours.len(),
        "count differs in {}",
        pos.to_fen()
    );
    if depth > 1 {
        let board = cozy_board(pos);
        for &mv in pos.legal_moves().iter() {
            let after = pos.played(mv);
            let mut cozy_after = board.clone();
            cozy_after.play_unchecked(mv.to_string().parse().unwrap());
            assert_eq!(
                without_ep(&after.to_shredder_fen()),
                without_ep(&format!("{cozy_after:#}")),
                "after {mv} in {}",
                pos.to_shredder_fen()
            );
            compare_tree(&after, depth - 1);
        }
    }
}

#[test]
fn tree_walk_agrees_with_cozy_on_tricky_positions() {
    for fen in [
        STARTING_FEN,
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
        "bnqnrbkr/1pp2pp1/p7/3pP2p/4P1P1/8/PPPP3P/BNQNRBKR w HEhe d6 0 9",
        "bnnbrkqr/1p1ppp2/8/p1p3pp/1P6/N4P2/PBPPP1PP/2NBRKQR w HEhe - 0 9",
        "b1qnrrkb/ppp1pp1p/n2p1Pp1/8/8/P7/1PPPP1PP/BNQNRKRB w GE - 0 9",
        "1bbnrkrq/ppppppp1/8/7p/1n4P1/1PN5/P1PPPP1P/NBBR1KRQ w Gge - 0 9",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    ] {
        compare_tree(&Position::from_fen(fen).unwrap(), 4);
    }
}
