//! The host's path through a game: commit hidden, resolve when both are in,
//! and write the record from the resolution alone.

mod support;

use support::Table;
use tempo_chess::Color;
use tempo_sync::{Choice, Rules, SyncGame, Variant, record};

fn choice(game: &SyncGame, color: Color, uci: &str) -> Choice {
    Choice::Move(record::parse_move(game.position(), color, uci).unwrap())
}

#[test]
fn a_resolution_carries_both_choices_and_the_record_lines() {
    let mut game = Table::new(SyncGame::new(Rules::new(Variant::Synchronschach)));
    let e4 = choice(&game, Color::White, "e2e4");
    let d5 = choice(&game, Color::Black, "d7d5");
    assert_eq!(game.submit(Color::White, e4).unwrap(), None);
    assert!(game.has_committed(Color::White) && !game.has_committed(Color::Black));
    let first = game.submit(Color::Black, d5).unwrap().unwrap();
    assert_eq!((first.white, first.black), (Some(e4), Some(d5)));
    assert_eq!(first.record, "1. e2e4 d7d5");
    assert_eq!(first.digits, "1 65254 64745");
    // 2. exd5 Nf6: Black may take back on d5, an exchange step (2x.).
    let exd5 = choice(&game, Color::White, "e4d5");
    let nf6 = choice(&game, Color::Black, "g8f6");
    game.submit(Color::White, exd5).unwrap();
    let second = game.submit(Color::Black, nf6).unwrap().unwrap();
    assert_eq!(second.record, "2. e4d5 g8f6 {exchange black d5}");
    let take_back = game
        .choices(Color::Black)
        .into_iter()
        .find(|c| matches!(c, Choice::Capture(mv) if mv.from == tempo_chess::Square::D8))
        .unwrap();
    let exchange = game.submit(Color::Black, take_back).unwrap().unwrap();
    assert_eq!((exchange.white, exchange.black), (None, Some(take_back)));
    assert_eq!(exchange.record, "2x. .. xd8d5");
    assert!(!exchange.events.is_empty());
}
