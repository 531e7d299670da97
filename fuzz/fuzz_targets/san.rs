//! Fuzz SAN, UCI and ICCF reading: the input's first line is a FEN, the
//! second a move text. Reading never panics, and a move that is read
//! writes back to text that reads as the same move.
#![no_main]

use libfuzzer_sys::fuzz_target;
use tempo_chess::{Position, iccf, san, uci};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let (fen, mv_text) = text.split_once('\n').unwrap_or(("", text));
    let pos = if fen.trim().is_empty() {
        Position::new()
    } else {
        match Position::from_fen(fen) {
            Ok(pos) if pos.validate().is_ok() => pos,
            _ => return,
        }
    };
    if let Ok(mv) = san::parse(&pos, mv_text) {
        assert_eq!(san::parse(&pos, &san::write(&pos, mv)), Ok(mv));
    } else {
        let _ = mv_text.parse::<san::San>();
    }
    if let Ok(mv) = uci::parse(&pos, mv_text) {
        assert_eq!(uci::parse(&pos, &uci::write(&pos, mv)), Ok(mv));
    }
    if let Ok(mv) = iccf::parse(&pos, mv_text) {
        assert_eq!(iccf::parse(&pos, &iccf::write(&pos, mv)), Ok(mv));
    }
});
