//! Keizer settings one by one: absences and caps, byes, rematch rules,
//! colours, relaxations, and the pairing's optimality against brute force.

use proptest::prelude::*;
use tempo_tourney::keizer::{
    ByeRule, KeizerSettings, NonGame, Relaxation, RematchRule, Score, Season,
};
use tempo_tourney::{AbsenceKind, Outcome};

fn season(n: u32) -> Season {
    let names: Vec<String> = (1..=n).map(|i| format!("P{i}")).collect();
    Season::new(
        names
            .iter()
            .enumerate()
            .map(|(i, s)| (i as u32 + 1, s.as_str())),
    )
}

fn all(n: u32) -> Vec<u32> {
    (1..=n).collect()
}

fn no_forbidden(_: u32, _: u32) -> bool {
    false
}

#[test]
fn excused_absence_earns_two_thirds_of_the_current_value() {
    // The source: rank 7 is worth 44, so an excused absence gives 29.33.
    let mut s = season(10);
    s.add_round_with(
        &[
            (1, 2, Outcome::Draw),
            (3, 4, Outcome::Draw),
            (5, 6, Outcome::Draw),
            (8, 9, Outcome::Draw),
        ],
        Some(10),
        &[(7, AbsenceKind::Excused)],
    )
    .unwrap();
    let r = s.ranking(&KeizerSettings::default(), 1).unwrap();
    let p7 = r.standing(7).unwrap();
    assert_eq!(p7.valued_at, 44);
    assert_eq!(p7.score, Score::whole(44) + Score::new(88, 3));
    assert_eq!((p7.score + Score::new(-44, 1)).to_string(), "29.33");
    // The bye: 2/3 of 41.
    assert_eq!(
        r.standing(10).unwrap().score,
        Score::whole(41) + Score::new(82, 3)
    );
}

#[test]
fn caps_turn_further_absences_into_unexcused_ones() {
    let mut s = season(4);
    for _ in 0..3 {
        s.add_round_with(
            &[(1, 2, Outcome::Draw)],
            None,
            &[(3, AbsenceKind::Excused), (4, AbsenceKind::ClubDuty)],
        )
        .unwrap();
    }
    let mut settings = KeizerSettings {
        method: tempo_tourney::keizer::Method::C,
        ..KeizerSettings::default()
    };
    settings.excused = NonGame {
        fraction: "1/2".parse().unwrap(),
        cap: Some(2),
    };
    settings.club_duty = NonGame {
        fraction: "1".parse().unwrap(),
        cap: Some(1),
    };
    settings.unexcused.fraction = "1/4".parse().unwrap();
    let r = s.ranking(&settings, 3).unwrap();
    // Player 3 (value 48): 48 + 24 + 24 + 12 (third excused: unexcused 1/4).
    assert_eq!(r.standing(3).unwrap().score, Score::whole(108));
    // Player 4 (value 47): 47 + 47 + 47/4 + 47/4.
    assert_eq!(
        r.standing(4).unwrap().score,
        Score::new(47 * 4 + 47 * 4 + 47 + 47, 4)
    );
}

#[test]
fn own_value_kinds() {
    use tempo_tourney::keizer::OwnValue;
    let mut s = season(4);
    s.add_round(&[(1, 2, Outcome::Loss), (3, 4, Outcome::Draw)])
        .unwrap();
    s.add_round(&[(1, 3, Outcome::Draw), (2, 4, Outcome::Draw)])
        .unwrap();
    let with = |own_value| KeizerSettings {
        own_value,
        ..KeizerSettings::default()
    };
    // Round 1 is valued with the starting list whatever the bonus.
    let current = s.ranking(&with(OwnValue::Current), 1).unwrap();
    let none = s.ranking(&with(OwnValue::None), 1).unwrap();
    for id in 1..=4 {
        let start_value = 51 - i64::from(id);
        assert_eq!(
            current.standing(id).unwrap().score,
            none.standing(id).unwrap().score + Score::whole(start_value)
        );
    }
    // Round 2 is valued with the ranking after round 1 (the same for
    // current and start, which agree in round 1): only the bonus differs.
    let current = s.ranking(&with(OwnValue::Current), 2).unwrap();
    let start = s.ranking(&with(OwnValue::Start), 2).unwrap();
    for id in 1..=4 {
        let c = current.standing(id).unwrap();
        let st = start.standing(id).unwrap();
        assert_eq!(
            c.score + Score::whole(51 - i64::from(id)),
            st.score + Score::whole(c.valued_at),
            "{id}"
        );
    }
    // Player 2 (starting value 49) beat player 1 and is now first: worth 50.
    assert_eq!(current.standing(2).unwrap().valued_at, 50);
}

#[test]
fn fewest_byes_first_skips_a_player_who_had_one() {
    let mut s = season(5);
    s.add_round_with(&[(1, 2, Outcome::Win), (3, 4, Outcome::Win)], Some(5), &[])
        .unwrap();
    let lowest = s
        .pair_next(&KeizerSettings::default(), &all(5), &no_forbidden)
        .unwrap();
    let last = *lowest.ranking.order().last().unwrap();
    assert_eq!(lowest.bye, Some(last));
    let settings = KeizerSettings {
        bye_rule: ByeRule::FewestByesFirst,
        ..KeizerSettings::default()
    };
    let fewest = s.pair_next(&settings, &all(5), &no_forbidden).unwrap();
    assert_ne!(fewest.bye, Some(5));
    assert!(fewest.relaxed.is_empty());
    assert_eq!(fewest.boards.len(), 2);
}

#[test]
fn not_within_and_at_most() {
    let mut s = season(4);
    // 1-2 meet in rounds 1 and 2 (all draws, so they stay neighbours).
    s.add_round(&[(1, 2, Outcome::Draw), (3, 4, Outcome::Draw)])
        .unwrap();
    s.add_round(&[(2, 1, Outcome::Draw), (4, 3, Outcome::Draw)])
        .unwrap();
    let pair_of_1 = |rule| {
        let settings = KeizerSettings {
            rematch: rule,
            ..KeizerSettings::default()
        };
        let p = s.pair_next(&settings, &all(4), &no_forbidden).unwrap();
        assert!(p.relaxed.is_empty(), "{rule:?}: {:?}", p.relaxed);
        p.boards
            .iter()
            .find_map(|b| match (b.white, b.black) {
                (1, x) | (x, 1) => Some(x),
                _ => None,
            })
            .unwrap()
    };
    assert_eq!(pair_of_1(RematchRule::Allowed), 2);
    assert_ne!(pair_of_1(RematchRule::Never), 2);
    assert_ne!(pair_of_1(RematchRule::NotWithin(1)), 2);
    assert_eq!(pair_of_1(RematchRule::AtMost(3)), 2);
    assert_ne!(pair_of_1(RematchRule::AtMost(2)), 2);
}

#[test]
fn impossible_rules_are_relaxed_and_named() {
    let mut s = season(2);
    s.add_round(&[(1, 2, Outcome::Draw)]).unwrap();
    let settings = KeizerSettings {
        rematch: RematchRule::Never,
        ..KeizerSettings::default()
    };
    let p = s
        .pair_next(&settings, &all(2), &|a, b| (a, b) == (1, 2))
        .unwrap();
    assert_eq!(p.boards.len(), 1);
    assert_eq!(
        p.relaxed,
        vec![
            Relaxation::ForbiddenPair { a: 1, b: 2 },
            Relaxation::Rematch {
                rule: RematchRule::Never,
                a: 1,
                b: 2,
                meetings: 1,
                last_round: 1
            }
        ]
    );
    assert_eq!(
        p.relaxed[1].to_string(),
        "rematch rule 'never' relaxed: 1-2 meet again (1 earlier game(s), last in round 1)"
    );
}

#[test]
fn the_bye_moves_up_when_that_avoids_a_rematch() {
    // Three present: 1 and 2 met; the lowest-ranked (3, absent in round 1)
    // would get the bye, leaving 1-2 again. The bye moves to 1 or 2
    // instead and says so.
    let mut s = season(3);
    s.add_round_with(
        &[(1, 2, Outcome::Draw)],
        None,
        &[(3, AbsenceKind::Unexcused)],
    )
    .unwrap();
    let settings = KeizerSettings {
        rematch: RematchRule::Never,
        ..KeizerSettings::default()
    };
    let p = s.pair_next(&settings, &all(3), &no_forbidden).unwrap();
    let named = *p.ranking.order().last().unwrap();
    assert_eq!(named, 3);
    assert_ne!(p.bye, Some(named));
    assert_eq!(p.boards.len(), 1);
    assert!(
        matches!(p.relaxed.as_slice(), [Relaxation::Bye { rule_names, .. }] if *rule_names == named)
    );
}

#[test]
fn colour_streak_limit() {
    let mut s = season(4);
    s.add_round(&[(1, 2, Outcome::Draw), (3, 4, Outcome::Draw)])
        .unwrap();
    s.add_round(&[(1, 3, Outcome::Draw), (2, 4, Outcome::Draw)])
        .unwrap();
    // 1 has had White twice; with a limit of 2 it must get Black now.
    let settings = KeizerSettings {
        max_same_colour: Some(2),
        rematch: RematchRule::Never,
        ..KeizerSettings::default()
    };
    let p = s.pair_next(&settings, &all(4), &no_forbidden).unwrap();
    for b in &p.boards {
        assert_ne!(b.white, 1);
        assert_ne!(b.black, 4);
    }
}

#[test]
fn absent_players_are_not_paired() {
    let s = season(7);
    let p = s
        .pair_next(&KeizerSettings::default(), &[1, 2, 4, 6, 7], &no_forbidden)
        .unwrap();
    let got: Vec<(u32, u32)> = p.boards.iter().map(|b| (b.black, b.white)).collect();
    assert_eq!(got, vec![(1, 2), (4, 6)]);
    assert_eq!(p.bye, Some(7));
}

/// The (rematches, squared distance) of a set of boards.
type CostFn<'a> = dyn Fn(&[(u32, u32)]) -> (u32, i64) + 'a;

/// Random seasons: the pairing pairs every present player once (the bye
/// iff the count is odd) and is optimal: no perfect matching has fewer
/// rematch violations, or as few with a smaller sum of squared ranking
/// distances (brute force over all pairings).
fn check_optimal(n: u32, results: &[Vec<u8>], present_mask: u32) -> Result<(), TestCaseError> {
    let mut s = season(n);
    for (r, round) in results.iter().enumerate() {
        // Pair the round by a rotating scheme so that rematches accumulate.
        let mut games = Vec::new();
        let ids: Vec<u32> = (1..=n).collect();
        let shift = r % (n as usize);
        let mut rotated: Vec<u32> = ids[shift..].to_vec();
        rotated.extend_from_slice(&ids[..shift]);
        for (k, pair) in rotated.chunks(2).enumerate() {
            if let [a, b] = pair {
                let res = match round[k % round.len()] % 3 {
                    0 => Outcome::Win,
                    1 => Outcome::Draw,
                    _ => Outcome::Loss,
                };
                games.push((*a, *b, res));
            }
        }
        s.add_round(&games)
            .map_err(|e| TestCaseError::fail(e.to_string()))?;
    }
    let present: Vec<u32> = (1..=n).filter(|i| present_mask & (1 << i) != 0).collect();
    let settings = KeizerSettings {
        rematch: RematchRule::Never,
        ..KeizerSettings::default()
    };
    let p = s.pair_next(&settings, &present, &no_forbidden).unwrap();
    let mut seen: Vec<u32> = p.boards.iter().flat_map(|b| [b.white, b.black]).collect();
    seen.extend(p.bye);
    seen.sort_unstable();
    prop_assert_eq!(&seen, &present);
    prop_assert_eq!(p.bye.is_some(), present.len() % 2 == 1);

    let order: Vec<u32> = p
        .ranking
        .order()
        .into_iter()
        .filter(|id| present.contains(id))
        .collect();
    let pos = |id: u32| order.iter().position(|&x| x == id).unwrap() as i64;
    let met = |a: u32, b: u32| {
        s.players[(a - 1) as usize].rounds.iter().any(|o| {
            matches!(o, tempo_tourney::keizer::RoundOutcome::Game { opponent, .. } if *opponent == b)
        })
    };
    let cost = |pairs: &[(u32, u32)]| -> (u32, i64) {
        pairs.iter().fold((0, 0), |(v, d), &(a, b)| {
            (v + u32::from(met(a, b)), d + (pos(a) - pos(b)).pow(2))
        })
    };
    let ours: Vec<(u32, u32)> = p.boards.iter().map(|b| (b.white, b.black)).collect();
    let ours_cost = cost(&ours);
    // Brute force with the same bye (the bye tier ranks above distance).
    let rest: Vec<u32> = order
        .iter()
        .copied()
        .filter(|&x| Some(x) != p.bye)
        .collect();
    fn best(rest: &[u32], cost: &CostFn, acc: &mut Vec<(u32, u32)>) -> (u32, i64) {
        if rest.is_empty() {
            return cost(acc);
        }
        let first = rest[0];
        let mut b = (u32::MAX, i64::MAX);
        for k in 1..rest.len() {
            let mut others: Vec<u32> = rest[1..].to_vec();
            let partner = others.remove(k - 1);
            acc.push((first, partner));
            b = b.min(best(&others, cost, acc));
            acc.pop();
        }
        b
    }
    let optimum = best(&rest, &cost, &mut Vec::new());
    prop_assert_eq!(ours_cost, optimum);
    // Rematches only if unavoidable; if the bye could avoid them, it does.
    if ours_cost.0 > 0 && p.bye.is_some() {
        for &bye in &order {
            let others: Vec<u32> = order.iter().copied().filter(|&x| x != bye).collect();
            prop_assert!(best(&others, &cost, &mut Vec::new()).0 >= ours_cost.0);
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(150))]
    #[test]
    fn pairing_is_optimal(
        n in 2u32..=9,
        results in proptest::collection::vec(proptest::collection::vec(0u8..3, 5), 0..6),
        present_mask in any::<u32>(),
    ) {
        check_optimal(n, &results, present_mask)?;
    }

    /// Without constraints the pairing is always 1-2, 3-4, … of the ranking.
    #[test]
    fn neighbours_are_paired(
        n in 2u32..=12,
        results in proptest::collection::vec(proptest::collection::vec(0u8..3, 6), 0..5),
    ) {
        let mut s = season(n);
        for round in &results {
            let games: Vec<_> = (1..=n).collect::<Vec<_>>().chunks(2).enumerate().filter_map(|(k, c)| match c {
                [a, b] => Some((*a, *b, [Outcome::Win, Outcome::Draw, Outcome::Loss][round[k % round.len()] as usize])),
                _ => None,
            }).collect();
            s.add_round(&games).unwrap();
        }
        let p = s.pair_next(&KeizerSettings::default(), &all(n), &no_forbidden).unwrap();
        let order = p.ranking.order();
        for (k, b) in p.boards.iter().enumerate() {
            let mut pair = [b.white, b.black];
            pair.sort_by_key(|id| order.iter().position(|x| x == id));
            prop_assert_eq!(pair, [order[2 * k], order[2 * k + 1]]);
        }
        prop_assert_eq!(p.bye, (n % 2 == 1).then(|| *order.last().unwrap()));
    }
}

/// Greedy top-down pairing fails on the last boards: with 3-4 a forbidden
/// rematch, 1-2 leaves only 3-4. The exact matching finds 1-3, 2-4 (the
/// smaller squared distance of the two rematch-free pairings).
#[test]
fn exact_matching_beats_greedy_on_the_last_boards() {
    let mut s = season(4);
    s.add_round_with(
        &[(3, 4, Outcome::Draw)],
        None,
        &[(1, AbsenceKind::Excused), (2, AbsenceKind::Excused)],
    )
    .unwrap();
    let settings = KeizerSettings {
        rematch: RematchRule::Never,
        ..KeizerSettings::default()
    };
    let p = s.pair_next(&settings, &all(4), &no_forbidden).unwrap();
    assert_eq!(p.ranking.order(), vec![1, 2, 3, 4]);
    assert!(p.relaxed.is_empty());
    let mut pairs: Vec<(u32, u32)> = p
        .boards
        .iter()
        .map(|b| (b.white.min(b.black), b.white.max(b.black)))
        .collect();
    pairs.sort_unstable();
    assert_eq!(pairs, vec![(1, 3), (2, 4)]);
}
