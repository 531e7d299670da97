//! The re-valuation methods on random seasons, against an independent
//! re-computation of every score from the values the ranking reports.

use proptest::prelude::*;
use tempo_tourney::keizer::{KeizerSettings, Method, Ranking, RoundOutcome, Score, Season};
use tempo_tourney::{AbsenceKind, Outcome};

/// A season of `n` players; each round pairs a random permutation, some
/// players absent (kinds cycle), results from the seed.
fn random_season(n: u32, rounds: &[(Vec<u32>, Vec<u8>)]) -> Season {
    let names: Vec<String> = (1..=n).map(|i| format!("P{i}")).collect();
    let mut s = Season::new(
        names
            .iter()
            .enumerate()
            .map(|(i, x)| (i as u32 + 1, x.as_str())),
    );
    for (perm, res) in rounds {
        let mut order: Vec<u32> = (1..=n).collect();
        // A permutation from the keys.
        order.sort_by_key(|id| perm[(*id - 1) as usize % perm.len()].wrapping_mul(*id));
        let absent_count = (res[0] % 3) as usize;
        let (absent, playing) = order.split_at(absent_count.min(order.len()));
        let kinds = [
            AbsenceKind::Excused,
            AbsenceKind::Unexcused,
            AbsenceKind::ClubDuty,
        ];
        let absences: Vec<(u32, AbsenceKind)> = absent
            .iter()
            .enumerate()
            .map(|(k, &id)| (id, kinds[k % 3]))
            .collect();
        let mut games = Vec::new();
        let mut bye = None;
        for (k, pair) in playing.chunks(2).enumerate() {
            match pair {
                [a, b] => games.push((
                    *a,
                    *b,
                    [Outcome::Win, Outcome::Draw, Outcome::Loss]
                        [(res[(k + 1) % res.len()] % 3) as usize],
                )),
                [a] => bye = Some(*a),
                _ => unreachable!(),
            }
        }
        s.add_round_with(&games, bye, &absences).unwrap();
    }
    s
}

/// Every score recomputed from the reported values: own value once, the
/// opponent's value for a win, half for a draw, 2/3 of the own value for a
/// bye, excused absence or club duty (the defaults).
fn check_scores(season: &Season, ranking: &Ranking) -> Result<(), TestCaseError> {
    let valued = |id: u32| ranking.standing(id).unwrap().valued_at;
    for p in &season.players {
        let own = valued(p.id);
        let mut expected = Score::whole(own);
        for o in p.rounds.iter().take(ranking.after_round as usize) {
            expected = expected
                + match *o {
                    RoundOutcome::Game {
                        opponent, result, ..
                    } => match result {
                        Outcome::Win => Score::whole(valued(opponent)),
                        Outcome::Draw => Score::half(valued(opponent)),
                        Outcome::Loss => Score::ZERO,
                    },
                    RoundOutcome::Bye
                    | RoundOutcome::Absent(AbsenceKind::Excused)
                    | RoundOutcome::Absent(AbsenceKind::ClubDuty) => Score::new(2 * own, 3),
                    _ => Score::ZERO,
                };
        }
        prop_assert_eq!(
            ranking.standing(p.id).unwrap().score,
            expected,
            "player {}",
            p.id
        );
    }
    // Best first, and each place has its value (50, 49, ...).
    for w in ranking.standings.windows(2) {
        prop_assert!(w[0].score >= w[1].score);
    }
    for (k, s) in ranking.standings.iter().enumerate() {
        prop_assert_eq!(s.place, k + 1);
        prop_assert_eq!(s.value, (50 - k as i64).max(1));
    }
    Ok(())
}

/// Rounds: a permutation key and result bytes each.
type Rounds = Vec<(Vec<u32>, Vec<u8>)>;

fn season_strategy() -> impl Strategy<Value = (u32, Rounds)> {
    (
        2u32..=14,
        proptest::collection::vec(
            (
                proptest::collection::vec(any::<u32>(), 1..20),
                proptest::collection::vec(any::<u8>(), 1..10),
            ),
            1..7,
        ),
    )
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    /// Method A: each ranking is valued with the previous one.
    #[test]
    fn method_a_values_with_the_previous_ranking((n, rounds) in season_strategy()) {
        let season = random_season(n, &rounds);
        let settings = KeizerSettings::default();
        let all = season.rankings(&settings).unwrap();
        for r in 1..all.len() {
            check_scores(&season, &all[r])?;
            for s in &all[r].standings {
                prop_assert_eq!(s.valued_at, all[r - 1].standing(s.id).unwrap().value);
            }
        }
    }

    /// Method B: when it settles, every player is valued at its own place.
    #[test]
    fn method_b_reaches_a_fixed_point((n, rounds) in season_strategy()) {
        let season = random_season(n, &rounds);
        let settings = KeizerSettings { method: Method::B, ..KeizerSettings::default() };
        let ranking = season.ranking(&settings, season.rounds).unwrap();
        check_scores(&season, &ranking)?;
        if ranking.converged {
            for s in &ranking.standings {
                prop_assert_eq!(s.valued_at, s.value);
            }
        }
    }

    /// Method C: the starting values all season.
    #[test]
    fn method_c_is_frozen((n, rounds) in season_strategy()) {
        let season = random_season(n, &rounds);
        let settings = KeizerSettings { method: Method::C, ..KeizerSettings::default() };
        let ranking = season.ranking(&settings, season.rounds).unwrap();
        check_scores(&season, &ranking)?;
        for s in &ranking.standings {
            prop_assert_eq!(s.valued_at, (51 - i64::from(s.id)).max(1));
        }
    }
}
