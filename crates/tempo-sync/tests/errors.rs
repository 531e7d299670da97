//! Errors are typed values a host can act on, with the messages users read.

use tempo_chess::{Color, Position, PositionError, Square};
use tempo_sync::{
    ChoiceError, EndReason, GameResult, RecordError, Rules, StartError, StepError, SyncError,
    Variant, notation, record,
};

fn rules() -> Rules {
    Rules::new(Variant::Synchronschach)
}

#[test]
fn start_positions_are_refused_with_a_reason() {
    let two_kings = Position::from_fen("4k3/8/8/8/8/8/8/K3K3 w - - 0 1").unwrap();
    assert_eq!(
        tempo_sync::SyncGame::from_position(rules(), two_kings).unwrap_err(),
        SyncError::InvalidStart(StartError::Kings {
            color: Color::White,
            kings: 2
        })
    );
    let pawn = Position::from_fen("4k3/8/8/8/8/8/8/K2P4 w - - 0 1").unwrap();
    let err = tempo_sync::SyncGame::from_position(rules(), pawn).unwrap_err();
    assert_eq!(
        err,
        SyncError::InvalidStart(StartError::Board(PositionError::PawnOnBackRank(Square::D1)))
    );
    assert_eq!(
        err.to_string(),
        "invalid start position: pawn on the back rank at d1"
    );
    assert!(matches!(
        tempo_sync::SyncGame::chess960(rules(), 960),
        Err(SyncError::InvalidStart(StartError::Chess960(_)))
    ));
}

#[test]
fn a_finished_game_says_how_it_ended() {
    let over = notation::read(rules(), "4k3/8/8/8/8/8/8/8 #0-1:king-captured - - - 0 9").unwrap();
    let err = over.resolve(None, None).unwrap_err();
    assert_eq!(
        err,
        SyncError::GameOver {
            result: GameResult::Win(Color::Black),
            reason: EndReason::KingCaptured
        }
    );
}

#[test]
fn record_errors_carry_the_choice_problem() {
    let game = tempo_sync::SyncGame::new(rules());
    let err = record::replay(&game, "1. e2e4 xd7d5\n").unwrap_err();
    assert!(matches!(
        err,
        RecordError::Illegal {
            line: 1,
            reason: StepError::Choice(ChoiceError::CaptureOutsideExchange(_)),
            ..
        }
    ));
    assert_eq!(
        err.to_string(),
        "line 1, pair 1, Black: 'xd7d5': a capture choice outside the exchange phase"
    );
}
