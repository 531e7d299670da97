//! A stored game (serde) restores to the same game: every later step gives
//! the same events and states, repetition draws included, which the
//! extended position notation alone would miss.

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use tempo_chess::Color;
use tempo_sync::playout::random_choice;
use tempo_sync::{
    EndReason, MAX_HISTORY, RestoreError, Rules, StoredGame, SyncGame, Variant, notation,
};

fn round_trip(game: &SyncGame) -> SyncGame {
    let json = serde_json::to_string(&game.stored()).unwrap();
    let stored: StoredGame = serde_json::from_str(&json).unwrap();
    SyncGame::restore(&stored).unwrap()
}

#[test]
fn restored_games_continue_exactly_as_the_original() {
    let mut repetitions = 0;
    for seed in 0..120u64 {
        let variant = if seed % 2 == 0 {
            Variant::Synchronschach
        } else {
            Variant::Fairschach
        };
        let mut rules = Rules::new(variant);
        if seed % 4 == 1 {
            rules.apply_options("pause=capturable fsr8=off").unwrap();
        }
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut game = SyncGame::new(rules);
        let mut steps = 0;
        while !game.is_over() && steps < 600 {
            let restored = round_trip(&game);
            assert_eq!(
                restored.stored(),
                game.stored(),
                "seed {seed}, step {steps}"
            );
            let white = random_choice(&game, Color::White, &mut rng);
            let black = random_choice(&game, Color::Black, &mut rng);
            let (next, events) = game.resolve(white, black).unwrap();
            let (again, again_events) = restored.resolve(white, black).unwrap();
            assert_eq!(events, again_events, "seed {seed}, step {steps}");
            assert_eq!(next.stored(), again.stored(), "seed {seed}, step {steps}");
            game = next;
            steps += 1;
        }
        if game
            .result()
            .is_some_and(|(_, reason)| reason == EndReason::Repetition)
        {
            repetitions += 1;
        }
    }
    assert!(
        repetitions > 0,
        "no game ended by repetition: the history went untested"
    );
}

#[test]
fn the_notation_alone_loses_the_history() {
    // Knights out and back twice: the start position occurs three times.
    let mut game = SyncGame::new(Rules::new(Variant::Synchronschach));
    let moves = [
        ("g1f3", "g8f6"),
        ("f3g1", "f6g8"),
        ("g1f3", "g8f6"),
        ("f3g1", "f6g8"),
    ];
    for (white, black) in moves {
        let w = tempo_sync::record::parse_move(game.position(), Color::White, white).unwrap();
        let b = tempo_sync::record::parse_move(game.position(), Color::Black, black).unwrap();
        game = game
            .resolve(
                Some(tempo_sync::Choice::Move(w)),
                Some(tempo_sync::Choice::Move(b)),
            )
            .unwrap()
            .0;
    }
    assert_eq!(
        game.result().map(|(_, reason)| reason),
        Some(EndReason::Repetition)
    );
    let before_last = {
        let mut g = SyncGame::new(Rules::new(Variant::Synchronschach));
        for (white, black) in &moves[..3] {
            let w = tempo_sync::record::parse_move(g.position(), Color::White, white).unwrap();
            let b = tempo_sync::record::parse_move(g.position(), Color::Black, black).unwrap();
            g = g
                .resolve(
                    Some(tempo_sync::Choice::Move(w)),
                    Some(tempo_sync::Choice::Move(b)),
                )
                .unwrap()
                .0;
        }
        g
    };
    let fen_only = notation::read(*before_last.rules(), &notation::write(&before_last)).unwrap();
    assert!(fen_only.history().len() < before_last.history().len());
    assert_eq!(round_trip(&before_last).history(), before_last.history());
}

#[test]
fn bad_stored_games_are_refused() {
    let mut stored = SyncGame::new(Rules::new(Variant::Fairschach)).stored();
    stored.history = vec![1; MAX_HISTORY + 1];
    assert_eq!(
        SyncGame::restore(&stored).unwrap_err(),
        RestoreError::HistoryTooLong(MAX_HISTORY + 1)
    );
    let mut stored = SyncGame::new(Rules::new(Variant::Fairschach)).stored();
    stored.variant = "bughouse".into();
    assert!(matches!(
        SyncGame::restore(&stored),
        Err(RestoreError::Rules(_))
    ));
    let mut stored = SyncGame::new(Rules::new(Variant::Fairschach)).stored();
    stored.position = "8/8 s".into();
    assert!(matches!(
        SyncGame::restore(&stored),
        Err(RestoreError::Position(_))
    ));
}
