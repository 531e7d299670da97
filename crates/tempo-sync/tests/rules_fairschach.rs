//! Hand-built scenarios for every rule of Fairschach (FSR 1-9, F-ep and
//! the author's alternatives), each with its expected result. Rule
//! numbers as in docs/rules/fairschach.md.

mod support;

use support::{Table, board, error, fen, has, state, step};
use tempo_chess::{Color, Role, Square};
use tempo_sync::{EndReason, Event, GameResult, Phase, Rules, Variant, VoidReason};

fn rules() -> Rules {
    Rules::new(Variant::Fairschach)
}

/// FSR 8 off, for the small positions of these scenarios (with six or
/// fewer pieces a check would switch to orthodox play).
fn few() -> Rules {
    with("fsr8=off")
}

fn with(options: &str) -> Rules {
    let mut rules = rules();
    rules.apply_options(options).unwrap();
    rules
}

/// FSR 1: only moves legal in orthodox chess in the current position.
#[test]
fn fsr1_orthodox_legality() {
    let game = state(few(), "4k3/8/8/8/1b6/8/8/1N2K3 w - - 0 1");
    assert!(error(&game, "b1a3", "e8e7").contains("does not parry"));
    let game = state(rules(), "4k3/8/8/8/8/8/8/4K2R w K - 0 1");
    assert!(error(&game, "h1g2", "e8d8").contains("White"));
    assert!(error(&game, "e1e2", "e8e6").contains("Black"));
}

/// FSR 2 / C2: a commit is hidden; the step resolves when both are in.
#[test]
fn fsr2_hidden_commit() {
    use tempo_sync::Choice;
    let mut game = Table::new(state(
        rules(),
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    ));
    let e4 = tempo_sync::record::parse_move(game.position(), Color::White, "e2e4").unwrap();
    let e5 = tempo_sync::record::parse_move(game.position(), Color::Black, "e7e5").unwrap();
    assert!(
        game.submit(Color::White, Choice::Move(e4))
            .unwrap()
            .is_none()
    );
    assert!(game.has_committed(Color::White) && !game.has_committed(Color::Black));
    assert!(game.submit(Color::White, Choice::Move(e4)).is_err()); // already committed
    assert_eq!(game.pair_number(), 1); // nothing shown yet
    assert!(
        game.submit(Color::Black, Choice::Move(e5))
            .unwrap()
            .is_some()
    );
    assert_eq!(game.pair_number(), 2);
    assert!(!game.has_committed(Color::White));
}

/// FSR 3 / C4: paths are judged before the pair.
#[test]
fn fsr3_paths_judged_before_the_pair() {
    let game = state(rules(), "7k/8/8/7r/8/8/8/R5K1 w - - 0 1");
    let (next, _) = step(&game, "a1a7", "h5a5");
    assert_eq!(board(&next), "7k/R7/8/r7/8/8/8/6K1");
}

/// FSR 4: the stronger piece captures the weaker on the same square.
#[test]
fn fsr4_stronger_captures_weaker() {
    let game = state(rules(), "4k3/p7/8/8/8/2n5/8/3QK3 w - - 0 1");
    let (next, events) = step(&game, "d1d5", "c3d5");
    assert_eq!(board(&next), "4k3/p7/8/3Q4/8/8/8/4K3");
    assert!(has(
        &events,
        &Event::Collision {
            square: Square::D5,
            white: Role::Queen,
            black: Role::Knight,
            white_removed: false,
            black_removed: true
        }
    ));
}

/// FSR 4: equally strong pieces (bishop = knight) capture each other.
#[test]
fn fsr4_equal_strength_both_removed() {
    let game = state(rules(), "4k3/p7/2n5/8/8/4B3/P7/4K3 w - - 0 1");
    let (next, _) = step(&game, "e3d4", "c6d4");
    assert_eq!(board(&next), "4k3/p7/8/8/8/8/P7/4K3");
}

/// FSR 4, alternatives: both captured; the weaker stays on its square.
#[test]
fn fsr4_alternatives() {
    let start = "4k3/p7/8/8/8/2n5/8/3QK3 w - - 0 1";
    let (next, _) = step(&state(with("same-square=both"), start), "d1d5", "c3d5");
    assert_eq!(board(&next), "4k3/p7/8/8/8/8/8/4K3");
    let (next, events) = step(
        &state(with("same-square=weaker-stays"), start),
        "d1d5",
        "c3d5",
    );
    assert_eq!(board(&next), "4k3/p7/8/3Q4/8/2n5/8/4K3");
    assert!(events.iter().any(|e| matches!(
        e,
        Event::Voided {
            color: Color::Black,
            reason: VoidReason::WeakerStays,
            ..
        }
    )));
}

/// FSR 4 (our decision): a promoting pawn collides with the strength of a
/// pawn.
#[test]
fn fsr4_promotion_counts_as_pawn() {
    let game = state(rules(), "r3k3/1P6/8/8/8/8/8/4K3 w - - 0 1");
    let (next, _) = step(&game, "b7b8q", "a8b8");
    assert_eq!(board(&next), "1r2k3/8/8/8/8/8/8/4K3");
}

/// FSR 4: the king is the strongest piece: it wins every collision.
#[test]
fn fsr4_king_wins_a_collision() {
    let game = state(rules(), "4k3/8/8/3p4/8/3K4/8/8 w - - 0 1");
    let (next, _) = step(&game, "d3d4", "d5d4");
    assert_eq!(board(&next), "4k3/8/8/8/3K4/8/8/8");
    assert_eq!(
        next.result(),
        Some((GameResult::Draw, EndReason::InsufficientMaterial))
    );
}

/// FSR 5 / C5: capture of a leaving piece captures nothing; swaps.
#[test]
fn fsr5_leaving_pieces() {
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
    let game = state(rules(), "4k3/8/8/3b4/4B3/8/8/4K3 w - - 0 1");
    let (next, _) = step(&game, "e4d5", "d5e4");
    assert_eq!(board(&next), "4k3/8/8/3B4/4b3/8/8/4K3");
}

/// FSR 6: the player in check moves first; the opponent's move follows
/// if it can still be executed (FSR 3: else it is void).
#[test]
fn fsr6_first_move_right() {
    let game = state(few(), "4k3/8/8/8/1b6/8/8/1N2K3 w - - 0 1");
    assert_eq!(
        game.phase(),
        Phase::FirstMoveRight {
            color: Color::White
        }
    );
    // The bishop's capture of the king is blocked by the parry: void.
    let (next, events) = step(&game, "b1d2", "b4e1");
    assert!(has(
        &events,
        &Event::FirstMove {
            color: Color::White
        }
    ));
    assert!(events.iter().any(|e| matches!(
        e,
        Event::Voided {
            color: Color::Black,
            reason: VoidReason::NotExecutable,
            ..
        }
    )));
    assert_eq!(board(&next), "4k3/8/8/8/1b6/8/3N4/4K3");
    assert_eq!(next.phase(), Phase::Pair);
    // Executed one after the other: the bishop's step to c3 now captures
    // the knight that parried there.
    let (next, _) = step(&game, "b1c3", "b4c3");
    assert_eq!(board(&next), "4k3/8/8/8/8/2b5/8/4K3");
    assert_eq!(
        next.phase(),
        Phase::FirstMoveRight {
            color: Color::White
        }
    );
}

/// FSR 7: the first move gives check and the other move does not parry:
/// void, and a new parry with first-move right.
#[test]
fn fsr7_new_parry() {
    let game = state(few(), "1k6/8/8/8/1b6/8/8/1R2K3 w - - 0 1");
    let (next, events) = step(&game, "b1b4", "b8b7");
    assert!(events.iter().any(|e| matches!(
        e,
        Event::Voided {
            color: Color::Black,
            reason: VoidReason::DoesNotParry,
            ..
        }
    )));
    assert_eq!(
        next.phase(),
        Phase::NewParry {
            color: Color::Black
        }
    );
    assert_eq!(fen(&next), "1k6/8/8/8/1R6/8/8/4K3 nb - - b4 0 2");
    // Black's new parry goes first, then White's move.
    let (after, events) = step(&next, "e1d2", "b8c7");
    assert!(has(
        &events,
        &Event::FirstMove {
            color: Color::Black
        }
    ));
    assert_eq!(board(&after), "8/2k5/8/8/1R6/8/3K4/8");
    // A parrying entered move is executed.
    let (next, events) = step(&game, "b1b4", "b8c8");
    assert!(!events.iter().any(|e| matches!(e, Event::Voided { .. })));
    assert_eq!(board(&next), "2k5/8/8/8/1R6/8/8/4K3");
}

/// FSR 7, last sentence: both kings attacked: a normal pair.
#[test]
fn fsr7_both_in_check_is_a_normal_pair() {
    let game = state(rules(), "4k3/p7/8/1B6/1b6/8/P7/4K3 w - - 0 1");
    assert_eq!(game.phase(), Phase::Pair);
    let (next, events) = step(&game, "e1f1", "e8f8");
    assert!(!events.iter().any(|e| matches!(e, Event::FirstMove { .. })));
    assert_eq!(board(&next), "5k2/p7/8/1B6/1b6/8/P7/5K2");
}

/// FSR 8: few pieces and a check: orthodox alternating moves, the
/// attacked player first.
#[test]
fn fsr8_switch_to_orthodox() {
    let game = state(rules(), "4k3/8/8/8/8/8/8/R3K3 w - - 0 1");
    let (next, events) = step(&game, "a1d1", "e8d8");
    assert!(has(
        &events,
        &Event::SwitchedToOrthodox {
            to_move: Color::Black
        }
    ));
    assert_eq!(
        next.phase(),
        Phase::Alternating {
            to_move: Color::Black
        }
    );
    assert_eq!(fen(&next), "3k4/8/8/8/8/8/8/3RK3 ab - - - 2 2");
    let (after, _) = step(&next, "..", "d8e7");
    assert_eq!(
        after.phase(),
        Phase::Alternating {
            to_move: Color::White
        }
    );
    assert_eq!(after.expected(Color::Black), tempo_sync::Expected::Nothing);
    // Off: a first-move right instead.
    let (next, _) = step(
        &state(with("fsr8=off"), "4k3/8/8/8/8/8/8/R3K3 w - - 0 1"),
        "a1d1",
        "e8d8",
    );
    assert_eq!(
        next.phase(),
        Phase::FirstMoveRight {
            color: Color::Black
        }
    );
    // More pieces than the threshold: no switch.
    let game = state(rules(), "4k3/5ppp/8/8/8/8/7P/R3K3 w - - 0 1");
    let (next, _) = step(&game, "a1a8", "h7h6");
    assert_eq!(
        next.phase(),
        Phase::FirstMoveRight {
            color: Color::Black
        }
    );
}

/// The configured switch: after N pairs, at the next check.
#[test]
fn switch_after_n_pairs() {
    let start = "4k3/1ppp4/8/8/8/8/1PPP4/R3K3 w - - 0 1";
    let rules = with("fsr8=off orthodox-after=1");
    let (next, _) = step(&state(rules, start), "a1a8", "b7b6");
    assert_eq!(
        next.phase(),
        Phase::Alternating {
            to_move: Color::Black
        }
    );
    let rules = with("fsr8=off orthodox-after=2");
    let (next, _) = step(&state(rules, start), "a1a8", "b7b6");
    assert_eq!(
        next.phase(),
        Phase::FirstMoveRight {
            color: Color::Black
        }
    );
}

/// FSR 9: a piece that just moved pauses for one pair (not the king).
#[test]
fn fsr9_pause() {
    let game = state(
        rules(),
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    );
    let (next, events) = step(&game, "g1f3", "e7e5");
    assert_eq!(
        fen(&next),
        "rnbqkbnr/pppp1ppp/8/4p3/8/5N2/PPPPPPPP/RNBQKB1R s KQkq - f3e5 0 2"
    );
    assert!(has(
        &events,
        &Event::Paused {
            color: Color::White,
            squares: tempo_chess::Bitboard::from_square(Square::F3)
        }
    ));
    let err = error(&next, "f3e5", "d7d6");
    assert!(err.contains("paused"), "{err}");
    assert!(err.contains("White"), "{err}");
    // One pair later it may move again.
    let (later, _) = step(&next, "d2d3", "d7d6");
    assert!(!later.position().paused().contains(Square::F3));
    // Kings never pause.
    let game = state(rules(), "4k3/p7/8/8/8/8/P7/4K3 w - - 0 1");
    let (next, _) = step(&game, "e1e2", "e8e7");
    assert!(next.position().paused().is_empty());
}

/// FSR 9: a paused piece may move when its king is attacked.
#[test]
fn fsr9_pause_lifted_in_check() {
    let game = state(few(), "4k3/8/8/8/1b6/8/8/1N2K3 s - - b1 0 3");
    assert!(game.position().paused().is_empty());
    let (next, _) = step(&game, "b1d2", "e8e7");
    assert_eq!(board(&next), "8/4k3/8/8/1b6/8/3N4/4K3");
}

/// FSR 9, milder option: only pieces moved onto a capturable square pause.
#[test]
fn fsr9_only_capturable_option() {
    let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    let (next, _) = step(&state(with("pause=capturable"), start), "g1f3", "d7d5");
    assert!(next.position().paused().is_empty());
    let (next, _) = step(&state(with("pause=capturable"), start), "e2e4", "d7d5");
    assert_eq!(
        next.position().paused(),
        tempo_chess::Bitboard::from_square(Square::E4).with(Square::D5)
    );
    let (next, _) = step(&state(with("pause=none"), start), "e2e4", "d7d5");
    assert!(next.position().paused().is_empty());
}

/// Our decision: a pause never takes away a side's last legal moves.
#[test]
fn pause_never_stalemates() {
    let game = state(rules(), "4k2N/8/8/8/8/2nn4/8/K7 s - - h8 0 5");
    assert_eq!(game.phase(), Phase::Pair);
    assert!(game.position().paused().is_empty());
    assert!(!game.legal_moves(Color::White).is_empty());
}

/// F-ep: en passant only in the next pair, and only if the pawn stays.
#[test]
fn f_ep_en_passant() {
    let game = state(with("pause=none"), "4k3/8/8/8/3p4/8/4P3/4K3 w - - 0 1");
    let (next, _) = step(&game, "e2e4", "e8e7");
    assert_eq!(fen(&next), "8/4k3/8/8/3pP3/8/8/4K3 s - e3 - 0 2");
    let (took, _) = step(&next, "e1d1", "d4e3");
    assert_eq!(board(&took), "8/4k3/8/8/8/4p3/8/3K4");
    // The pawn moves on in the same pair: nothing is captured.
    let (missed, events) = step(&next, "e4e5", "d4e3");
    assert_eq!(board(&missed), "8/4k3/8/4P3/8/4p3/8/4K3");
    assert!(has(
        &events,
        &Event::Evaded {
            color: Color::Black,
            square: Square::E4
        }
    ));
    // Only in the next pair.
    let (later, _) = step(&next, "e1d1", "e7e6");
    assert!(error(&later, "d1c1", "d4e3").contains("cannot move there"));
}

/// C7: 50 pairs, stalemate, only kings.
#[test]
fn c7_draw_rules() {
    let game = state(rules(), "4k3/8/8/8/8/8/8/R3K3 w - - 98 60");
    let (next, _) = step(&game, "a1a2", "e8d7");
    assert_eq!(
        next.result(),
        Some((GameResult::Draw, EndReason::FiftyMoves))
    );
    let game = state(rules(), "7k/8/6Q1/8/8/8/8/K7 w - - 0 1");
    assert_eq!(
        game.result(),
        Some((GameResult::Draw, EndReason::Stalemate))
    );
    let game = state(rules(), "4k3/8/8/8/8/8/8/4K3 w - - 0 1");
    assert_eq!(
        game.result(),
        Some((GameResult::Draw, EndReason::InsufficientMaterial))
    );
}

/// S3-like checkmate at the start of a pair, Fairschach.
#[test]
fn checkmate() {
    let game = state(rules(), "4k3/8/8/8/8/1P6/r4PPP/6K1 w - - 0 1");
    let (next, _) = step(&game, "b3b4", "a2a1");
    assert_eq!(
        next.result(),
        Some((GameResult::Win(Color::Black), EndReason::Checkmate))
    );
}
