//! Fuzz the FEN reader: any input must give a position or a FenError,
//! never a panic. A position must write back to a FEN that reads to the
//! same position, and move generation / playing a move must not panic.
#![no_main]

use libfuzzer_sys::fuzz_target;
use tempo_chess::{Color, Position};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let Ok(pos) = Position::from_fen(text) else {
        return;
    };
    for fen in [pos.to_fen(), pos.to_shredder_fen()] {
        let mut again = Position::from_fen(&fen).expect("written FEN must read back");
        again.set_chess960(pos.is_chess960());
        assert_eq!(again, pos, "{fen}");
    }
    assert_eq!(pos.hash(), pos.compute_hash());
    let _ = pos.validate();
    for color in Color::ALL {
        let legal = pos.legal_moves_for(color);
        let pseudo = pos.pseudo_legal_moves_for(color);
        assert_eq!(legal.len(), pos.count_legal_moves_for(color));
        assert!(legal.iter().all(|mv| pseudo.contains(mv)));
    }
    let moves = pos.legal_moves();
    if let Some(&mv) = moves.first() {
        let after = pos.played(mv);
        assert_eq!(after.hash(), after.compute_hash());
        let _ = after.to_fen();
        let _ = after.legal_moves();
    }
    if let Some(&mv) = moves.last() {
        let _ = pos.played(mv).legal_moves();
    }
});
