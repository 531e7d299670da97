//! Game status by the FIDE Laws: checkmate, stalemate, threefold
//! (claim) and fivefold (automatic) repetition, 50-move (claim) and
//! 75-move (automatic) rules with mate taking precedence, insufficient
//! material.

use tempo_chess::has_insufficient_material;
use tempo_chess::{Color, Game, Outcome, Position, Termination, is_insufficient_material, san};

fn game_from(fen: &str) -> Game {
    Game::new(fen.parse().unwrap())
}

fn play(game: &mut Game, moves: &str) {
    for text in moves.split_whitespace() {
        let mv = san::parse(game.position(), text).unwrap();
        game.play(mv).unwrap();
    }
}

#[test]
fn checkmate_and_stalemate() {
    let mut game = Game::default();
    play(&mut game, "e4 e5 Bc4 Nc6 Qh5 Nf6 Qxf7#");
    assert_eq!(
        game.outcome(),
        Some((Outcome::Win(Color::White), Termination::Checkmate))
    );
    assert_eq!(game.outcome().unwrap().0.pgn(), "1-0");

    let mut game = game_from("7k/8/6Q1/8/8/8/8/K7 w - - 0 1");
    assert_eq!(game.outcome(), None);
    play(&mut game, "Qf7");
    assert_eq!(
        game.outcome(),
        Some((Outcome::Draw, Termination::Stalemate))
    );
}

#[test]
fn threefold_is_a_claim_and_fivefold_ends_the_game() {
    let mut game = Game::default();
    let shuffle = "Nf3 Nf6 Ng1 Ng8";
    assert_eq!(game.repetitions(), 1);
    play(&mut game, shuffle);
    assert_eq!(game.repetitions(), 2);
    assert_eq!(game.claimable_draw(), None);
    // The claim may be made with the move that repeats (FIDE 9.2.1.1).
    play(&mut game, "Nf3 Nf6 Ng1");
    let repeat = san::parse(game.position(), "Ng8").unwrap();
    assert_eq!(
        game.claimable_draw_with(repeat),
        Some(Termination::ThreefoldRepetition)
    );
    game.play(repeat).unwrap();
    assert_eq!(game.repetitions(), 3);
    assert_eq!(
        game.claimable_draw(),
        Some(Termination::ThreefoldRepetition)
    );
    assert_eq!(game.outcome(), None);
    play(&mut game, shuffle);
    assert_eq!(game.outcome(), None);
    play(&mut game, shuffle);
    assert_eq!(game.repetitions(), 5);
    assert_eq!(
        game.outcome(),
        Some((Outcome::Draw, Termination::FivefoldRepetition))
    );
    // Taking back a move undoes the repetition.
    game.undo();
    assert_eq!(game.outcome(), None);
}

#[test]
fn castling_rights_and_en_passant_make_positions_differ() {
    // After Ke2 Ke7 Ke1 Ke8 the pieces stand as at the start but the
    // castling rights are gone: not a repetition of the start.
    let mut game = Game::default();
    play(&mut game, "e4 e5 Ke2 Ke7 Ke1 Ke8");
    assert_eq!(game.repetitions(), 1);
    play(&mut game, "Ke2 Ke7 Ke1 Ke8");
    assert_eq!(game.repetitions(), 2);

    // A position with a legal en-passant capture differs from the same
    // placement without it.
    let mut game = game_from("4k3/8/8/8/5p2/8/4P1N1/4K3 w - - 0 1");
    play(&mut game, "e4");
    assert_eq!(game.position().ep_square(), Some(tempo_chess::Square::E3));
    play(&mut game, "Kd7 Nh4 Ke8 Ng2");
    // Same placement, Black to move, but no en passant any more.
    assert_eq!(game.repetitions(), 1);
    play(&mut game, "Kd7 Nh4 Ke8 Ng2");
    assert_eq!(game.repetitions(), 2);
}

#[test]
fn fifty_and_seventy_five_moves() {
    let mut game = game_from("8/8/4k3/8/8/3K4/8/R7 w - - 99 80");
    assert_eq!(game.claimable_draw(), None);
    play(&mut game, "Ra2");
    assert_eq!(game.claimable_draw(), Some(Termination::FiftyMoves));
    assert_eq!(game.outcome(), None);

    let mut game = game_from("8/8/4k3/8/8/3K4/8/R7 w - - 149 100");
    play(&mut game, "Ra2");
    assert_eq!(
        game.outcome(),
        Some((Outcome::Draw, Termination::SeventyFiveMoves))
    );
    // A capture or pawn move resets the count.
    let mut game = game_from("8/8/4k3/8/8/3K4/P7/R7 w - - 149 100");
    play(&mut game, "a3");
    assert_eq!(game.outcome(), None);
    assert_eq!(game.claimable_draw(), None);
}

#[test]
fn mate_on_the_seventy_fifth_move_wins() {
    // 9.6.2: if the last move gave mate, the mate stands.
    let mut game = game_from("6k1/5ppp/8/8/8/8/8/R5K1 w - - 149 120");
    play(&mut game, "Ra8#");
    assert_eq!(game.position().halfmove_clock(), 150);
    assert_eq!(
        game.outcome(),
        Some((Outcome::Win(Color::White), Termination::Checkmate))
    );
}

#[test]
fn insufficient_material() {
    let dead = [
        "8/8/4k3/8/8/3K4/8/8 w - - 0 1",       // K v K
        "8/8/4k3/8/8/3K4/8/6N1 w - - 0 1",     // K+N v K
        "8/8/4k3/8/8/3K4/8/6b1 b - - 0 1",     // K v K+B
        "8/8/4k3/8/1b6/3K4/8/2B5 w - - 0 1",   // bishops on dark squares only
        "8/2b1k3/8/8/8/3K4/8/2B1B3 w - - 0 1", // several, one colour
    ];
    for fen in dead {
        let pos: Position = fen.parse().unwrap();
        assert!(is_insufficient_material(&pos), "{fen}");
        assert_eq!(
            Game::new(pos).outcome(),
            Some((Outcome::Draw, Termination::InsufficientMaterial)),
            "{fen}"
        );
    }
    let alive = [
        "8/8/4k3/8/8/3K4/8/5NN1 w - - 0 1", // K+N+N v K: mate possible (helpmate)
        "8/8/4k3/8/8/3K4/8/2B2B2 w - - 0 1", // bishops on both colours
        "8/8/4k3/8/8/3K4/8/2b2B2 w - - 0 1", // opposite-coloured bishops
        "8/8/4k3/8/8/3K4/8/5nN1 w - - 0 1", // knight each
        "8/8/4k3/8/8/3K4/4P3/8 w - - 0 1",  // a pawn
        "8/8/4k3/8/8/3K4/8/4r3 b - - 0 1",  // a rook
    ];
    for fen in alive {
        let pos: Position = fen.parse().unwrap();
        assert!(!is_insufficient_material(&pos), "{fen}");
    }
    // Flag-fall helper: with K+N v K+Q the knight side cannot mate, the
    // queen side can.
    let pos: Position = "8/8/4k3/4q3/8/3K4/8/6N1 w - - 0 1".parse().unwrap();
    assert!(has_insufficient_material(&pos, Color::White));
    assert!(!has_insufficient_material(&pos, Color::Black));
}

#[test]
fn illegal_moves_are_refused() {
    let mut game = Game::default();
    let bad = tempo_chess::Move::new(tempo_chess::Square::E2, tempo_chess::Square::E5, None);
    let err = game.play(bad).unwrap_err();
    assert!(
        err.to_string()
            .starts_with("illegal move e2e5 in position rnbqkbnr")
    );
    assert!(game.moves().is_empty());
}
