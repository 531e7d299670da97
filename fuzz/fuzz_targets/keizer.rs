//! Fuzz the Keizer settings reader (`XTK key value` lines and the
//! `--keizer-*` flags share it) and the Keizer engine on whatever TRF the
//! reader accepts.
//!
//! Invariants: no panic; accepted settings written as key/value pairs read
//! back to the same settings; a pairing pairs every present player exactly
//! once, with the bye only for an odd count.

#![no_main]

use libfuzzer_sys::fuzz_target;
use tempo_tourney::Tournament;
use tempo_tourney::keizer::{self, KeizerSettings};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    // Settings: every line "key value".
    let mut settings = KeizerSettings::default();
    for line in text.lines().take(64) {
        let (key, value) = line.split_once(' ').unwrap_or((line, ""));
        let _ = settings.apply(key, value);
    }
    let mut again = KeizerSettings::default();
    for (k, v) in settings.to_key_values() {
        again.apply(&k, &v).expect("written settings read back");
    }
    assert_eq!(again, settings);

    // The engine on a TRF (small ones: pairing is O(n³)).
    let Ok(t) = Tournament::from_trf_str(text) else {
        return;
    };
    if t.players.len() > 64 || t.rounds_in_file() > 40 {
        return;
    }
    let Ok(settings) = keizer::settings_from_tournament(&t) else {
        return;
    };
    let _ = keizer::standings(&t, &settings, None);
    if let Ok(pairing) = keizer::pair_tournament(&t, &settings) {
        let present = keizer::present_players(&t, pairing.round);
        let mut seen: Vec<u32> = pairing
            .boards
            .iter()
            .flat_map(|b| [b.white, b.black])
            .chain(pairing.bye)
            .collect();
        seen.sort_unstable();
        let mut want = present.clone();
        want.sort_unstable();
        want.dedup();
        assert_eq!(seen, want);
        assert_eq!(pairing.bye.is_some(), want.len() % 2 == 1);
    }
});
