//! TRF reading never panics; whatever it accepts is written back and read
//! again to the same tournament, both as kept text and in fresh columns.
#![no_main]

use libfuzzer_sys::fuzz_target;
use tempo_tourney::Tournament;

fn same(a: &Tournament, b: &Tournament) {
    assert_eq!(a.players, b.players);
    assert_eq!(a.info, b.info);
    assert_eq!(a.total_rounds, b.total_rounds);
    assert_eq!(a.initial_colour, b.initial_colour);
    assert_eq!(a.point_system, b.point_system);
    assert_eq!(a.bye_requests, b.bye_requests);
    assert_eq!(a.accelerations, b.accelerations);
    assert_eq!(a.forbidden_pairs, b.forbidden_pairs);
    assert_eq!(a.absences, b.absences);
    assert_eq!(a.withdrawals, b.withdrawals);
    assert_eq!(a.late_entries, b.late_entries);
    assert_eq!(a.keizer_settings, b.keizer_settings);
    assert_eq!(a.chess960, b.chess960);
}

fuzz_target!(|data: &[u8]| {
    let Ok(t) = Tournament::from_trf_bytes(data) else {
        return;
    };
    // Derived values and the consistency checks must not panic either.
    let rounds = t.paired_rounds();
    let _ = t.check_consistency();
    let _ = t.consistency_warnings();
    let _ = t.check_results_entered(rounds);
    for p in &t.players {
        let _ = t.score(p.id);
        let _ = t.acceleration(p.id, rounds + 1);
    }
    let kept = tempo_tourney::trf::write(&t).expect("an unchanged file can be written");
    let again = Tournament::from_trf_bytes(&kept).expect("written text reads back");
    same(&t, &again);
    if let Ok(fresh) = t.to_trf_canonical() {
        let again = Tournament::from_trf_str(&fresh).expect("canonical text reads back");
        same(&t, &again);
    }
});
