//! Hand-built scenarios for every rule of Synchronschach (S1-S7, C1-C7),
//! each with its expected result. Rule numbers as in
//! docs/rules/synchronschach.md.

mod support;

use support::{board, error, fen, has, state, step};
use tempo_chess::{Color, Role, Square};
use tempo_sync::{EndReason, Event, Exchange, GameResult, Phase, Rules, Variant};

fn rules() -> Rules {
    Rules::new(Variant::Synchronschach)
}

/// C1/C2/C4: both moves judged in the same position and executed together.
#[test]
fn c1_c4_pair_executes_both_moves() {
    let game = state(
        rules(),
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    );
    let (next, _) = step(&game, "e2e4", "e7e5");
    assert_eq!(
        fen(&next),
        "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR s KQkq - - 0 2"
    );
    assert_eq!(next.phase(), Phase::Pair);
}

/// C4: pieces do not block each other: paths are judged before the pair.
#[test]
fn c4_paths_judged_before_the_pair() {
    // White's rook a1-a7 and Black's rook h5-a5 cross on a5.
    let game = state(rules(), "7k/8/8/7r/8/8/8/R5K1 w - - 0 1");
    let (next, _) = step(&game, "a1a7", "h5a5");
    assert_eq!(board(&next), "7k/R7/8/r7/8/8/8/6K1");
    // a5 was attacked by the rook before the pair: White may take there,
    // even with the rook that just moved (S5, S7).
    assert!(matches!(next.phase(), Phase::Exchange(x) if x.white == Some(Square::A5)));
    // And a move through the square another piece enters at the same time.
    let game = state(rules(), "7k/8/8/8/8/8/1n6/R6K w - - 0 1");
    let (next, _) = step(&game, "a1g1", "b2d1");
    assert_eq!(board(&next), "7k/8/8/8/8/8/8/3n2RK");
}

/// C5: a piece moving onto a square its occupant leaves captures nothing.
#[test]
fn c5_capture_of_a_leaving_piece_captures_nothing() {
    let game = state(rules(), "4k3/8/8/3p4/8/2N5/8/4K3 w - - 0 1");
    let (next, events) = step(&game, "c3d5", "d5d4");
    assert_eq!(board(&next), "4k3/8/8/3N4/3p4/8/8/4K3");
    assert!(has(
        &events,
        &Event::Evaded {
            color: Color::White,
            square: Square::D5
        }
    ));
    assert_eq!(next.position().halfmove_clock(), 0); // the pawn moved
}

/// C5: mutual "captures" swap the two pieces.
#[test]
fn c5_mutual_captures_swap() {
    let game = state(rules(), "4k3/8/8/3b4/4B3/8/8/4K3 w - - 0 1");
    let (next, events) = step(&game, "e4d5", "d5e4");
    assert_eq!(board(&next), "4k3/8/8/3B4/4b3/8/8/4K3");
    assert!(has(
        &events,
        &Event::Swap {
            white_from: Square::E4,
            black_from: Square::D5
        }
    ));
    assert_eq!(next.position().halfmove_clock(), 2); // nothing captured
}

/// C5: a piece that stays is captured.
#[test]
fn c5_stationary_piece_is_captured() {
    let game = state(rules(), "4k3/p7/8/8/8/8/4n3/4K2R w - - 0 1");
    let (next, _) = step(&game, "e1e2", "a7a6");
    assert_eq!(board(&next), "4k3/8/p7/8/8/8/4K3/7R");
}

/// S1: two pieces moving to the same square are both removed.
#[test]
fn s1_same_square_removes_both() {
    let game = state(rules(), "4k3/p7/2n5/8/8/8/P3N3/4K3 w - - 0 1");
    let (next, events) = step(&game, "e2d4", "c6d4");
    assert_eq!(board(&next), "4k3/p7/8/8/8/8/P7/4K3");
    assert!(has(
        &events,
        &Event::Collision {
            square: Square::D4,
            white: Role::Knight,
            black: Role::Knight,
            white_removed: true,
            black_removed: true
        }
    ));
    assert_eq!(next.phase(), Phase::Pair);
}

/// S1 + S4: a king colliding with a pawn push is removed too: its side loses.
#[test]
fn s1_s4_king_in_a_collision_loses() {
    let game = state(rules(), "4k3/8/8/3p4/8/3K4/8/8 w - - 0 1");
    let (next, events) = step(&game, "d3d4", "d5d4");
    assert_eq!(
        next.result(),
        Some((GameResult::Win(Color::Black), EndReason::KingCaptured))
    );
    assert!(has(
        &events,
        &Event::GameOver {
            result: GameResult::Win(Color::Black),
            reason: EndReason::KingCaptured
        }
    ));
}

/// S2: castling is allowed (both sides at once).
#[test]
fn s2_castling_allowed() {
    let game = state(rules(), "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    let (next, events) = step(&game, "e1g1", "e8c8");
    assert_eq!(fen(&next), "2kr3r/8/8/8/8/8/8/R4RK1 s - - - 2 2");
    assert_eq!(
        events
            .iter()
            .filter(|e| matches!(e, Event::Moved { castling: true, .. }))
            .count(),
        4
    );
}

/// C1: no castling through an attacked square.
#[test]
fn c1_no_castling_through_check() {
    let game = state(rules(), "4k3/8/8/8/8/8/5r2/4K2R w K - 0 1");
    let err = error(&game, "e1g1", "e8d8");
    assert!(
        err.contains("castling out of, through or into check"),
        "{err}"
    );
}

/// S2: no en passant at all, even if the FEN names a square.
#[test]
fn s2_no_en_passant() {
    let game = state(rules(), "4k3/8/8/8/3p4/8/4P3/4K3 w - - 0 1");
    let (next, _) = step(&game, "e2e4", "e8e7");
    assert_eq!(fen(&next), "8/4k3/8/8/3pP3/8/8/4K3 s - - - 0 2");
    let err = error(&next, "e1d1", "d4e3");
    assert!(err.contains("cannot move there"), "{err}");
    let from_fen = state(rules(), "4k3/8/8/8/3pP3/8/8/4K3 b - e3 0 1");
    assert!(fen(&from_fen).contains(" s - - - "));
}

/// S3: a player in check must parry.
#[test]
fn s3_check_must_be_parried() {
    let game = state(rules(), "4k3/8/8/8/1b6/8/8/1N2K3 w - - 0 1");
    let err = error(&game, "b1a3", "e8e7");
    assert!(err.contains("does not parry"), "{err}");
}

/// S3: no parry = checkmated as the result of the previous pair.
#[test]
fn s3_checkmate() {
    let game = state(rules(), "4k3/8/8/8/8/1P6/r4PPP/6K1 w - - 0 1");
    let (next, _) = step(&game, "b3b4", "a2a1");
    assert_eq!(
        next.result(),
        Some((GameResult::Win(Color::Black), EndReason::Checkmate))
    );
}

/// S3 consequence 1: both checkmated at once is a draw.
#[test]
fn s3_double_checkmate_is_a_draw() {
    let game = state(rules(), "6k1/5ppp/R7/p7/P7/r7/5PPP/6K1 w - - 0 1");
    let (next, _) = step(&game, "a6a8", "a3a1");
    assert_eq!(
        next.result(),
        Some((GameResult::Draw, EndReason::DoubleCheckmate))
    );
}

/// S3 consequence 2: no legal move and not in check is stalemate, a draw.
#[test]
fn s3_stalemate() {
    let game = state(rules(), "7k/8/6Q1/8/8/8/8/K7 w - - 0 1");
    assert_eq!(
        game.result(),
        Some((GameResult::Draw, EndReason::Stalemate))
    );
    // Nothing can be resolved after the end.
    let err = game.resolve(None, None).unwrap_err().to_string();
    assert_eq!(err, "the game is over: 1/2-1/2 (stalemate)");
    assert_eq!(game.expected(Color::White), tempo_sync::Expected::Nothing);
}

/// S4: the king captured directly: the interposing parry does not stop
/// the simultaneous capture.
#[test]
fn s4_king_captured_directly() {
    let game = state(rules(), "4k3/8/8/8/1b6/8/8/1N2K3 w - - 0 1");
    let (next, events) = step(&game, "b1d2", "b4e1");
    assert_eq!(
        next.result(),
        Some((GameResult::Win(Color::Black), EndReason::KingCaptured))
    );
    assert!(has(
        &events,
        &Event::Captured {
            color: Color::White,
            role: Role::King,
            square: Square::E1
        }
    ));
    // The king stepping aside is safe: the bishop captures nothing.
    let (next, events) = step(&game, "e1f2", "b4e1");
    assert!(next.result().is_none());
    assert!(has(
        &events,
        &Event::Evaded {
            color: Color::Black,
            square: Square::E1
        }
    ));
}

/// S5: a piece landing on a square the opponent attacked or defended
/// before the pair may be captured in the exchange phase.
#[test]
fn s5_exchange_right_and_capture() {
    let game = state(rules(), "4k3/p4p2/8/8/2B5/8/8/4K3 w - - 0 1");
    let (next, events) = step(&game, "c4f7", "a7a6");
    assert!(has(
        &events,
        &Event::ExchangeRight {
            color: Color::Black,
            square: Square::F7
        }
    ));
    assert_eq!(
        next.phase(),
        Phase::Exchange(Exchange {
            white: None,
            black: Some(Square::F7),
            moved: tempo_chess::Bitboard::EMPTY
        })
    );
    assert_eq!(fen(&next), "4k3/5B2/p7/8/8/8/8/4K3 x:-:f7:- - - - 0 1");
    // Only captures on f7 are allowed.
    let err = error(&next, "..", "xe8d8");
    assert!(err.contains("only captures on f7"), "{err}");
    let (after, _) = step(&next, "..", "xe8f7");
    assert_eq!(fen(&after), "8/5k2/p7/8/8/8/8/4K3 s - - - 0 2");
    // Declining ends the phase; Black is then in check and must parry.
    let (declined, events) = step(&next, "..", "-");
    assert!(has(
        &events,
        &Event::ExchangeEnded {
            color: Color::Black,
            square: Square::F7,
            declined: true
        }
    ));
    assert_eq!(declined.phase(), Phase::Pair);
    assert!(declined.position().is_in_check(Color::Black));
}

/// S5: no right where the square was not attacked before the pair, or no
/// legal capture exists after it.
#[test]
fn s5_no_right_without_attack_or_capture() {
    let game = state(rules(), "4k3/p4p2/8/8/2B5/8/8/4K3 w - - 0 1");
    let (next, _) = step(&game, "c4b5", "a7a5");
    assert_eq!(next.phase(), Phase::Pair);
    let (next, _) = step(&game, "c4f7", "e8d8");
    assert_eq!(next.phase(), Phase::Pair);
}

/// S5: the exchange goes on by alternating captures on that square.
#[test]
fn s5_exchange_continues_alternately() {
    let game = state(rules(), "7k/8/3p4/8/8/5N2/8/4R2K w - - 0 1");
    let (x1, _) = step(&game, "f3e5", "h8h7");
    assert_eq!(fen(&x1), "8/7k/3p4/4N3/8/8/8/4R2K x:-:e5:- - - - 2 1");
    let (x2, _) = step(&x1, "..", "xd6e5");
    assert_eq!(fen(&x2), "8/7k/8/4p3/8/8/8/4R2K x:e5:-:e5 - - - 0 1");
    let (done, events) = step(&x2, "xe1e5", "..");
    assert!(has(
        &events,
        &Event::ExchangeEnded {
            color: Color::Black,
            square: Square::E5,
            declined: false
        }
    ));
    assert_eq!(fen(&done), "8/7k/8/4R3/8/8/8/7K s - - - 0 2");
}

/// S6: both players get a right: captures are chosen simultaneously and
/// the exchanges run synchronously.
#[test]
fn s6_synchronous_exchanges() {
    let game = state(rules(), "4k3/p4p2/8/2b5/2B5/8/P4P2/4K3 w - - 0 1");
    let (x, _) = step(&game, "c4f7", "c5f2");
    assert_eq!(
        x.phase(),
        Phase::Exchange(Exchange {
            white: Some(Square::F2),
            black: Some(Square::F7),
            moved: tempo_chess::Bitboard::EMPTY
        })
    );
    let (done, _) = step(&x, "xe1f2", "xe8f7");
    assert_eq!(fen(&done), "8/p4k2/8/8/8/8/P4K2/8 s - - - 0 2");
    // One declines, the other captures: the other square runs on alone.
    let (done, events) = step(&x, "-", "xe8f7");
    assert!(has(
        &events,
        &Event::ExchangeEnded {
            color: Color::White,
            square: Square::F2,
            declined: true
        }
    ));
    assert_eq!(board(&done), "8/p4k2/8/8/8/8/P4b2/4K3");
}

/// S7: a piece moves at most once in the exchange phase.
#[test]
fn s7_each_piece_moves_once_in_the_phase() {
    let game = state(rules(), "3r3k/8/8/1N6/8/1n6/8/3R3K w - - 0 1");
    let (x, _) = step(&game, "b5d6", "b3d4");
    assert_eq!(fen(&x), "3r3k/8/3N4/8/3n4/8/8/3R3K x:d4:d6:- - - - 2 1");
    let (done, _) = step(&x, "xd1d4", "xd8d6");
    // Rd4xd6 and Rd6xd4 would be legal captures, but both rooks have moved.
    assert_eq!(fen(&done), "7k/8/3r4/8/3R4/8/8/7K s - - - 0 2");
}

/// C7: 50 pairs without capture or pawn move (100 half-moves) draw.
#[test]
fn c7_fifty_pairs() {
    let game = state(rules(), "4k3/8/8/8/8/8/8/R3K3 w - - 98 60");
    let (next, _) = step(&game, "a1a2", "e8d7");
    assert_eq!(
        next.result(),
        Some((GameResult::Draw, EndReason::FiftyMoves))
    );
}

/// C7: the third repetition of a pair-start state draws.
#[test]
fn c7_repetition() {
    let mut game = state(
        rules(),
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    );
    for (w, b) in [("g1f3", "g8f6"), ("f3g1", "f6g8"), ("g1f3", "g8f6")] {
        game = step(&game, w, b).0;
        assert!(game.result().is_none());
    }
    let (next, _) = step(&game, "f3g1", "f6g8");
    assert_eq!(
        next.result(),
        Some((GameResult::Draw, EndReason::Repetition))
    );
}

/// C7: dead position: only the kings are left.
#[test]
fn c7_only_kings_is_dead() {
    let game = state(rules(), "4k3/5p2/8/2b5/2B5/8/5P2/4K3 w - - 0 1");
    let (x, _) = step(&game, "c4f7", "c5f2");
    let (done, _) = step(&x, "xe1f2", "xe8f7");
    assert_eq!(
        done.result(),
        Some((GameResult::Draw, EndReason::InsufficientMaterial))
    );
    // King and knight against king is not dead here (see the docs).
    let game = state(rules(), "4k3/8/8/8/8/8/8/4KN2 w - - 0 1");
    assert!(game.result().is_none());
}
