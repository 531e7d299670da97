//! The hooks of a UCI front end: an external stop flag and a callback per
//! completed iteration.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use tempo_engine::{Config, Engine, GameStart, Iteration, Limits};
use tempo_sync::GameKind;

#[test]
fn a_set_stop_flag_ends_an_unlimited_search_after_depth_one() {
    let state = GameKind::Standard.start(None).unwrap();
    let mut engine = Engine::new(Config::default());
    let stop = Arc::new(AtomicBool::new(true));
    engine.set_stop(Some(Arc::clone(&stop)));
    let started = Instant::now();
    let analysis = engine.analyse(&state, Limits::default());
    // Depth 1 is always completed; the flag is looked at every 512 nodes,
    // which the start's depth 2 does not reach, so it may complete too.
    assert!((1..=3).contains(&analysis.depth), "{}", analysis.depth);
    assert!(started.elapsed() < Duration::from_secs(5));
    assert_eq!(analysis.white.len(), 1);

    // Cleared, the same engine searches to the depth asked.
    stop.store(false, Ordering::Relaxed);
    assert_eq!(engine.analyse(&state, Limits::depth(3)).depth, 3);
}

#[test]
fn a_stop_from_another_thread_ends_the_search() {
    let state = GameKind::Standard.start(None).unwrap();
    let mut engine = Engine::new(Config::default());
    let stop = Arc::new(AtomicBool::new(false));
    engine.set_stop(Some(Arc::clone(&stop)));
    let setter = std::thread::spawn(move || {
        std::thread::sleep(Duration::from_millis(200));
        stop.store(true, Ordering::Relaxed);
    });
    let started = Instant::now();
    // Unlimited: only the flag can end it (or a forced result, which the
    // start does not have).
    let analysis = engine.analyse(&state, Limits::default());
    setter.join().unwrap();
    assert!(started.elapsed() >= Duration::from_millis(200));
    assert!(started.elapsed() < Duration::from_secs(30));
    assert!(analysis.depth >= 1 && analysis.depth < 64);
}

#[test]
fn progress_reports_every_completed_iteration_with_its_line() {
    let state = GameKind::Standard
        .from_fen("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1")
        .unwrap();
    let seen: Arc<Mutex<Vec<Iteration>>> = Arc::default();
    let mut engine = Engine::new(Config::default());
    let sink = Arc::clone(&seen);
    engine.set_progress(Some(Box::new(move |it: &Iteration| {
        sink.lock().unwrap().push(it.clone())
    })));
    let analysis = engine.analyse(&state, Limits::depth(3));
    let seen = seen.lock().unwrap();
    let depths: Vec<u32> = seen.iter().map(|it| it.depth).collect();
    // The mate in one ends the deepening early: every iteration up to the
    // analysis's depth, in order.
    assert_eq!(depths, (1..=analysis.depth).collect::<Vec<_>>());
    let last = seen.last().unwrap();
    assert_eq!(last.value, analysis.value);
    assert!(!last.pv.is_empty());
    assert_eq!(last.pv[0], analysis.pv[0]);
    assert!(seen.windows(2).all(|w| w[0].nodes <= w[1].nodes));
}
