//! The readers of simultaneous-move records give a value or a typed error,
//! never a panic: the extended position notation, pair records, the digit
//! code and PGN, on arbitrary text and on text shaped like each format. The
//! cargo-fuzz target `sync_record` searches the same space far longer.

use proptest::prelude::*;
use tempo_sync::{Rules, SyncGame, Variant, digits, notation, pgn, record};

const NOTATION_TEXT: &str = "[pnbrqkPNBRQK1-8/]{0,40} (s|nw|nb|aw|ab|x:[a-h][1-8]:[a-h][1-8]:[a-h1-8]{0,4}|#1-0:[a-z\\-]{0,12}) [KQkq\\-]{1,4} [a-h1-8\\-]{1,4} [a-h1-8\\-]{1,4} [0-9]{1,3} [0-9]{1,3}";
const RECORD_TEXT: &str = "(([0-9]{1,2}(x|\\.\\.)?\\. )?([a-h][1-8][a-h][1-8][qrbn]?|x[a-h][1-8][a-h][1-8]|-|\\.\\.) ([a-h][1-8][a-h][1-8]|x[a-h][1-8][a-h][1-8]|-|\\.\\.)( \\{[a-z ]{0,6}\\})?\n){0,12}";
const DIGIT_TEXT: &str = "([0-9]{1,2} [0-9\\-/]{1,7} [0-9\\-/]{1,7}\n){0,12}";

fn games() -> Vec<SyncGame> {
    [Variant::Synchronschach, Variant::Fairschach]
        .into_iter()
        .map(|v| SyncGame::new(Rules::new(v)))
        .collect()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn notation_reading_never_panics(text in prop_oneof![".{0,80}", NOTATION_TEXT]) {
        for variant in [Variant::Synchronschach, Variant::Fairschach] {
            if let Ok(game) = notation::read(Rules::new(variant), &text) {
                let _ = notation::write(&game);
                let _ = game.choices(tempo_chess::Color::White);
            }
        }
    }

    #[test]
    fn records_never_panic(text in prop_oneof![".{0,120}", RECORD_TEXT], code in prop_oneof![".{0,60}", DIGIT_TEXT]) {
        for game in games() {
            let _ = record::replay(&game, &text);
            let _ = digits::replay(&game, &code);
        }
        let _ = pgn::read(&format!("[Variant \"Synchronschach\"]\n\n{text}"));
        let _ = pgn::read(&text);
    }
}
