//! Fuzz the time-control readers (PGN `TimeControl`, human form, times)
//! and drive a clock with whatever they accept.
//!
//! Invariants: no panic; whatever is read is written back and read again
//! to the same control; a clock built from it survives any sequence of
//! commits, flag checks, pauses and penalties.

#![no_main]

use libfuzzer_sys::fuzz_target;
use tempo_chess::Color;
use tempo_clock::{Clock, Millis, SimulClock, TimeControl, human, pgn};

fuzz_target!(|data: &[u8]| {
    let split = data.iter().position(|&b| b == b'\n').unwrap_or(data.len());
    let Ok(text) = std::str::from_utf8(&data[..split]) else {
        return;
    };
    let steps = data.get(split + 1..).unwrap_or_default();
    let _ = text.parse::<Millis>();
    let mut controls = Vec::new();
    if let Ok(tc) = pgn::parse_pgn(text) {
        let written = pgn::write_pgn(&tc).expect("a control read from PGN has a PGN form");
        let again = pgn::parse_pgn(&written).expect("written PGN reads back");
        assert_eq!(again, tc);
        controls.push(tc);
    }
    if let Ok(tc) = human::parse_human(text) {
        // What PGN can express must read back as the same control.
        if let Some(written) = pgn::write_pgn(&tc) {
            assert_eq!(pgn::parse_pgn(&written).expect("written PGN reads back"), tc);
        }
        let again =
            human::parse_human(&human::write_human(&tc)).expect("written human form reads back");
        assert_eq!(again, tc);
        controls.push(tc);
    }
    for tc in controls {
        let _ = tc.category();
        drive(&tc, steps);
    }
});

fn drive(tc: &TimeControl, steps: &[u8]) {
    let (Ok(mut alt), Ok(mut sim)) = (Clock::new(tc.clone()), SimulClock::new(tc.clone())) else {
        return;
    };
    let mut at = 0u64;
    let _ = alt.start(at);
    let _ = sim.start(at);
    for &b in steps {
        at += u64::from(b & 0x3f) * 997;
        let side = if b & 0x40 == 0 {
            Color::White
        } else {
            Color::Black
        };
        match b >> 6 {
            0 => {
                let _ = alt.commit(alt.to_move(), at);
                let _ = sim.commit(side, at);
            }
            1 => {
                let _ = alt.check_flag(at);
                let _ = sim.check_flags(at);
            }
            2 => {
                let _ = alt.pause(at).or_else(|_| alt.resume(at));
                let _ = sim.pause(at).or_else(|_| sim.resume(at));
            }
            _ => {
                let _ = alt.penalty(side, at);
                let _ = sim.penalty(side, at);
            }
        }
        let _ = (alt.reading(side, at), sim.reading(side, at));
    }
}
