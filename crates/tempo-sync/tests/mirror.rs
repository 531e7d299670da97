//! Colour-mirror property: resolving the mirrored state with the mirrored
//! choices (White's become Black's) gives the mirrored result — position,
//! phase, paused pieces, en passant, counters and events.

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use tempo_chess::Color;
use tempo_sync::playout::random_choice;
use tempo_sync::{Event, FairRules, PauseRule, Rules, SameSquareRule, SyncGame, Variant, notation};

/// The notation, without the move number in orthodox play (where it
/// follows FEN's convention of counting after Black's move, the one
/// deliberate colour asymmetry).
fn state(game: &SyncGame, orthodox: bool) -> String {
    let text = notation::write(game);
    if orthodox {
        let mut fields: Vec<&str> = text.split(' ').collect();
        fields.pop();
        return fields.join(" ");
    }
    text
}

fn sorted(events: &[Event]) -> Vec<String> {
    let mut out: Vec<String> = events.iter().map(|e| format!("{e:?}")).collect();
    out.sort();
    out
}

/// Plays random games from `rules` and checks the mirror property at
/// every step until `pairs_wanted` pairs (steps that start a pair; the
/// exchange steps and orthodox moves between them are checked too) have
/// been checked; returns the number of pairs.
fn check(rules: Rules, pairs_wanted: usize, seed: u64) -> usize {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut checked = 0;
    let mut game_index = 0u16;
    while checked < pairs_wanted {
        let mut game = if game_index.is_multiple_of(2) {
            SyncGame::new(rules)
        } else {
            SyncGame::chess960(rules, game_index % 960).unwrap()
        };
        game_index += 1;
        while !game.is_over() && checked < pairs_wanted {
            let white = random_choice(&game, Color::White, &mut rng);
            let black = random_choice(&game, Color::Black, &mut rng);
            let (next, events) = game.resolve(white, black).unwrap();
            let mirror = game.mirrored();
            assert_eq!(
                notation::write(&mirror.mirrored()),
                notation::write(&game),
                "mirroring twice is the identity"
            );
            let (mnext, mevents) = mirror
                .resolve(black.map(|c| c.mirrored()), white.map(|c| c.mirrored()))
                .unwrap_or_else(|e| {
                    panic!("{} {:?} {:?}: {e}", notation::write(&game), white, black)
                });
            let expected: Vec<Event> = events.iter().map(Event::mirrored).collect();
            // The repetition history is not mirrored, so compare states that
            // did not end by repetition through the notation.
            if !matches!(next.result(), Some((_, tempo_sync::EndReason::Repetition))) {
                let orthodox = matches!(game.phase(), tempo_sync::Phase::Alternating { .. });
                assert_eq!(
                    state(&mnext, orthodox),
                    state(&next.mirrored(), orthodox),
                    "state {} choices {white:?} {black:?}",
                    notation::write(&game)
                );
                assert_eq!(
                    sorted(&mevents),
                    sorted(&expected),
                    "state {}",
                    notation::write(&game)
                );
            }
            if game.phase().is_pair() {
                checked += 1;
            }
            game = next;
        }
    }
    checked
}

#[test]
fn mirror_synchronschach() {
    assert_eq!(
        check(Rules::new(Variant::Synchronschach), 45_000, 7),
        45_000
    );
}

#[test]
fn mirror_fairschach_defaults() {
    assert_eq!(check(Rules::new(Variant::Fairschach), 45_000, 8), 45_000);
}

#[test]
fn mirror_fairschach_options() {
    let mut total = 0;
    for (i, (same_square, pause)) in [
        (SameSquareRule::BothCaptured, PauseRule::OnlyCapturable),
        (SameSquareRule::WeakerStays, PauseRule::None),
    ]
    .into_iter()
    .enumerate()
    {
        let rules = Rules::Fairschach(FairRules {
            same_square,
            pause,
            orthodox_threshold: Some(8),
            orthodox_after_pairs: Some(20),
        });
        total += check(rules, 10_000, 9 + i as u64);
    }
    assert_eq!(total, 20_000);
}
