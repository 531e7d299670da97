//! The checks of a state: which kings are attacked, and their events.

use tempo_chess::{Color, Position};

use crate::event::Event;

/// Reports the checks in `pos` as events and returns them.
pub(super) fn push_checks(pos: &Position, events: &mut Vec<Event>) -> [bool; 2] {
    let checks = checks(pos);
    report_checks(checks, events);
    checks
}

/// The events of `checks` (which sides are in check).
#[inline(always)]
pub(super) fn report_checks(checks: [bool; 2], events: &mut Vec<Event>) {
    for color in Color::ALL {
        if checks[color.index()] {
            events.push(Event::Check { color });
        }
    }
}

/// Whether each side's king is attacked ([`Position::is_in_check`] for
/// both, in one call). Inlined everywhere: at the start of each pair it
/// saves a call (docs/performance.md), elsewhere it costs little code.
#[inline(always)]
pub(super) fn checks(pos: &Position) -> [bool; 2] {
    let occupied = pos.occupied();
    let attacked = |c: Color| {
        pos.king(c)
            .is_some_and(|king| pos.is_attacked(king, !c, occupied))
    };
    [attacked(Color::White), attacked(Color::Black)]
}
