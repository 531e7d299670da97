//! Fuzz the PGN reader: arbitrary bytes must give games or errors with a
//! line and column inside the input, never a panic; every game read must
//! survive a write -> read round trip.
#![no_main]

use libfuzzer_sys::fuzz_target;
use tempo_chess::pgn::{Reader, read_game};

fuzz_target!(|data: &[u8]| {
    let lines = data.iter().filter(|&&b| b == b'\n').count() + 1;
    for result in Reader::new(data) {
        match result {
            Ok(game) => {
                let text = game.to_pgn();
                let again = read_game(&text).expect("written PGN reads back");
                assert_eq!(again.moves, game.moves, "{text}");
                assert_eq!(again.start, game.start, "{text}");
                assert_eq!(again.result, game.result, "{text}");
            }
            Err(err) => {
                assert!(err.line >= 1 && err.line <= lines, "{err}");
                assert!(err.column >= 1, "{err}");
                let _ = err.to_string();
            }
        }
    }
});
