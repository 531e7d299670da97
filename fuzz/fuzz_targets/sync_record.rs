//! Fuzz tempo-sync's readers: the extended position notation, the pair
//! record, the digit code and the sync PGN. Any input must give a value
//! or a typed error, never a panic; a state read from the notation must
//! write back to the same text, and its legal choices must resolve.
#![no_main]

use libfuzzer_sys::fuzz_target;
use tempo_chess::Color;
use tempo_sync::{Rules, SyncGame, Variant, digits, notation, pgn, record};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    for variant in [Variant::Synchronschach, Variant::Fairschach] {
        let rules = Rules::new(variant);
        if let Ok(game) = notation::read(rules, text) {
            let written = notation::write(&game);
            let again = notation::read(rules, &written).expect("written notation must read back");
            assert_eq!(notation::write(&again), written);
            if !game.is_over() {
                let white = game.choices(Color::White).first().copied();
                let black = game.choices(Color::Black).first().copied();
                let _ = game
                    .resolve(white, black)
                    .expect("listed choices are legal");
            }
        }
        let start = SyncGame::new(rules);
        let _ = record::replay(&start, text);
        let _ = digits::replay(&start, text);
    }
    let _ = pgn::read(text);
});
