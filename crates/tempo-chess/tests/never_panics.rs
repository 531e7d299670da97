//! Every reader of outside text gives a value or a typed error, never a
//! panic: FEN, SAN, UCI, ICCF digits and PGN, on arbitrary text and on text
//! made of the characters each format uses (which reaches deeper). The
//! cargo-fuzz targets in `fuzz/` search the same space far longer.

use proptest::prelude::*;
use tempo_chess::pgn::Reader;
use tempo_chess::{Position, iccf, san, uci};

/// Text from the FEN alphabet, so that most cases pass the first checks.
const FEN_TEXT: &str = "[pnbrqkPNBRQK1-8/ wb\\-KQkqa-hA-H0-9]{0,90}";
const MOVE_TEXT: &str = "[a-hKQRBNOxX0-9=+#!?\\-]{0,8}";
const PGN_TEXT: &str = "(\\[[A-Za-z]{0,6} \"[^\"\n]{0,10}\"\\]\n|[0-9]{1,2}\\.{1,3} |[a-hKQRBNO1-8x=+#-]{1,6} |\\{[^}]{0,8}\\}|\\(|\\)|\\$[0-9]{1,3}|[!?]{1,2}|1-0|0-1|1/2-1/2|\\*|\n|;[^\n]{0,5}\n|%[^\n]{0,5}\n|\u{FEFF}|\u{BD}|\u{2013}|\u{B1}|e\\.p\\.){0,40}";

fn positions() -> Vec<Position> {
    [
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
        "8/2P5/8/8/8/8/5p2/K6k w - - 0 1",
    ]
    .iter()
    .map(|f| Position::from_fen(f).unwrap())
    .collect()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn fen_reading_never_panics(text in prop_oneof![".{0,100}", FEN_TEXT]) {
        if let Ok(pos) = Position::from_fen(&text) {
            let _ = pos.validate();
            prop_assert_eq!(Position::from_fen(&pos.to_fen()).map(|p| p.board_fen()), Ok(pos.board_fen()));
        }
    }

    #[test]
    fn move_reading_never_panics(text in prop_oneof![".{0,10}", MOVE_TEXT]) {
        for pos in positions() {
            let _ = san::parse(&pos, &text);
            let _ = uci::parse(&pos, &text);
            let _ = iccf::parse(&pos, &text);
        }
    }

    #[test]
    fn pgn_reading_never_panics(text in prop_oneof![".{0,200}", PGN_TEXT], bytes in prop::collection::vec(any::<u8>(), 0..200)) {
        for input in [text.as_bytes(), &bytes[..]] {
            for game in Reader::new(input).take(50).flatten() {
                let _ = game.to_pgn();
            }
        }
    }
}
