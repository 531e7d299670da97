use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use super::{MoveSet, START_WINDOW, nth_square_search};
use crate::movegen::both::tests::{
    assert_attack_map, for_random_game_positions, moves_from_own_pieces, random_position,
};
use crate::{Color, Move, PausedInCheck, Position, Role, Square};

/// The sets equal the lists of `legal_moves_for` (same moves, same
/// order), `get` agrees with the iteration at every index and beyond,
/// the one-colour and both-colour generators agree; the both-colour
/// sets hold each colour's attacked squares, the one-colour ones none.
fn assert_same(pos: &Position) {
    let (mut white, mut black) = (MoveSet::new(), MoveSet::new());
    pos.legal_move_sets_into(&mut white, &mut black, PausedInCheck::Stay);
    assert_attacks(pos, &white, &black);
    for (color, set) in [(Color::White, &white), (Color::Black, &black)] {
        let list = pos.legal_moves_for(color);
        let listed: Vec<Move> = set.iter().collect();
        assert_eq!(
            listed,
            &list[..],
            "{color:?} in {pos:?} paused {:?}",
            pos.paused()
        );
        assert_eq!(set.len(), list.len());
        assert_eq!(set.iter().len(), list.len());
        assert_eq!(set.is_empty(), list.is_empty());
        for (i, &mv) in list.iter().enumerate() {
            assert_eq!(set.get(i), Some(mv), "index {i} of {color:?} in {pos:?}");
        }
        assert_both_ways_of_getting(set, &list);
        for i in 0..=list.len() {
            for j in [0, i / 2, list.len(), usize::MAX] {
                let pair = MoveSet::get_pair(set, i, &black, j);
                assert_eq!(pair, (set.get(i), black.get(j)), "{i} {j} in {pos:?}");
            }
        }
        assert_eq!(set.get(list.len()), None);
        assert_eq!(set.get(usize::MAX), None);
        assert_eq!(&pos.legal_move_set_for(color), set);
        let mut one = MoveSet::new();
        pos.legal_move_set_for_into(!color, &mut one);
        pos.legal_move_set_for_into(color, &mut one);
        assert_eq!(&one, set);
        assert_eq!(one.attacks(), None);
    }
}

/// `white` and `black` hold the squares each colour attacks in `pos`:
/// exactly those where `is_attacked` says yes.
fn assert_attacks(pos: &Position, white: &MoveSet, black: &MoveSet) {
    for (color, set) in [(Color::White, white), (Color::Black, black)] {
        let attacks = set.attacks().expect("the both-colour generator's map");
        assert_attack_map(pos, color, attacks);
    }
}

/// The generator that sets aside the pauses of a colour in check
/// gives the sets of the position without those pauses (and their
/// attacked squares), and says which colours are in check — also
/// where a colour has no king or two.
#[test]
fn unpausing_checked_sets_equal_sets_without_those_pauses() {
    let mut rng = ChaCha8Rng::seed_from_u64(59);
    let (mut white, mut black) = (MoveSet::new(), MoveSet::new());
    let (mut lifted, mut apart) = (0, 0);
    for _ in 0..50_000 {
        let pos = random_position(&mut rng);
        let checks = pos.legal_move_sets_into(&mut white, &mut black, PausedInCheck::Move);
        assert_eq!(checks, Color::ALL.map(|c| pos.is_in_check(c)), "{pos:?}");
        let mut unpaused = pos.clone();
        for color in Color::ALL {
            if checks[color.index()] {
                unpaused.set_paused(unpaused.paused() & !pos.by_color(color));
            }
        }
        lifted += usize::from(unpaused.paused() != pos.paused());
        apart += usize::from(pos.king(Color::White).is_none() || pos.king(Color::Black).is_none());
        assert_attacks(&pos, &white, &black);
        for (color, set) in [(Color::White, &white), (Color::Black, &black)] {
            let list = unpaused.legal_moves_for(color);
            assert!(
                set.iter().eq(list.iter().copied()),
                "{color:?} in {pos:?} paused {:?}",
                pos.paused()
            );
        }
    }
    assert!(lifted > 2_000, "{lifted} positions with pauses set aside");
    assert!(
        apart > 2_000,
        "{apart} positions without a single king on a side"
    );
}

/// Positions where a colour has no king or two (the generator makes
/// each colour's set apart there): the maps are the attacked squares
/// all the same, the kings' attacks included.
#[test]
fn sets_hold_the_attacks_without_a_single_king() {
    let (mut white, mut black) = (MoveSet::new(), MoveSet::new());
    for fen in [
        "8/8/8/3q4/8/8/8/4K3 w - - 0 1",
        "4k3/8/8/8/2B5/8/8/8 w - - 0 1",
        "4k3/8/8/8/8/8/8/4K1K1 w - - 0 1",
        "k1k5/8/8/3n4/8/8/2P5/4K1K1 w - - 0 1",
        "8/8/8/8/8/8/8/8 w - - 0 1",
    ] {
        let pos = Position::from_fen(fen).unwrap();
        pos.legal_move_sets_into(&mut white, &mut black, PausedInCheck::Stay);
        assert_attacks(&pos, &white, &black);
    }
    let mut rng = ChaCha8Rng::seed_from_u64(53);
    let mut apart = 0;
    while apart < 2_000 {
        let pos = random_position(&mut rng);
        if pos.king(Color::White).is_some() && pos.king(Color::Black).is_some() {
            continue;
        }
        apart += 1;
        pos.legal_move_sets_into(&mut white, &mut black, PausedInCheck::Stay);
        assert_attacks(&pos, &white, &black);
    }
}

/// Both ways of finding a target (`get` takes one, by the CPU) draw
/// the listed move at every index: the portable search (the fallback)
/// and, where this CPU has BMI2, `pdep`.
fn assert_both_ways_of_getting(set: &MoveSet, list: &[Move]) {
    assert!(set.len() < 255, "byte starts need fewer than 255 moves");
    for (i, &mv) in list.iter().enumerate() {
        assert_eq!(set.get_short(i, nth_square_search), mv, "index {i}");
        assert_eq!(set.get_portable(i), Some(mv), "index {i}");
        assert_eq!(set.get_from_long(i), mv, "index {i}");
    }
    assert_eq!(set.get_portable(list.len()), None);
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("bmi1") && std::arch::is_x86_feature_detected!("bmi2") {
        for (i, &mv) in list.iter().enumerate() {
            // SAFETY: the CPU has BMI1 and BMI2 (just asked).
            assert_eq!(unsafe { set.get_short_pdep(i) }, mv, "index {i}");
        }
    }
}

#[test]
fn sets_equal_the_lists_on_random_positions() {
    let mut rng = ChaCha8Rng::seed_from_u64(21);
    for _ in 0..50_000 {
        assert_same(&random_position(&mut rng));
    }
}

#[test]
fn sets_equal_the_lists_in_random_games() {
    for_random_game_positions(23, 200, assert_same);
}

/// Sets reused from position to position (as the simultaneous-move
/// benchmark does): what an earlier, longer generation left behind
/// never shows in `get`, `iter` or `contains`.
#[test]
fn reused_sets_forget_earlier_positions() {
    let mut rng = ChaCha8Rng::seed_from_u64(37);
    let (mut white, mut black) = (MoveSet::new(), MoveSet::new());
    let mut one = MoveSet::new();
    for _ in 0..20_000 {
        let pos = random_position(&mut rng);
        pos.legal_move_sets_into(&mut white, &mut black, PausedInCheck::Stay);
        assert_attacks(&pos, &white, &black);
        for (color, set) in [(Color::White, &white), (Color::Black, &black)] {
            let list = pos.legal_moves_for(color);
            assert!(set.iter().eq(list.iter().copied()), "{color:?} in {pos:?}");
            for (i, &mv) in list.iter().enumerate() {
                assert_eq!(set.get(i), Some(mv), "index {i} of {color:?} in {pos:?}");
            }
            assert_eq!(set.get(list.len()), None);
            pos.legal_move_set_for_into(color, &mut one);
            assert_eq!(&one, set);
            assert_eq!(one.attacks(), None);
            if let Some(&last) = list.last() {
                assert_eq!(one.get(list.len() - 1), Some(last));
            }
        }
    }
}

/// `contains` says yes exactly to the listed moves, for every move
/// from an own piece with every promotion role (and none).
#[test]
fn contains_equals_membership_in_the_list() {
    let mut rng = ChaCha8Rng::seed_from_u64(29);
    for _ in 0..1_500 {
        let pos = random_position(&mut rng);
        for color in Color::ALL {
            let list = pos.legal_moves_for(color);
            let set = pos.legal_move_set_for(color);
            for mv in moves_from_own_pieces(&pos, color) {
                assert_eq!(set.contains(mv), list.contains(&mv), "{mv} in {pos:?}");
            }
        }
    }
}

#[test]
fn promotions_count_four_each() {
    // Two pawns promote by a push and a capture each; Black's promote
    // on the first rank (listed before its other moves).
    let pos = Position::from_fen("1n2k3/P1P5/8/8/8/8/p7/1N2K3 w - - 0 1").unwrap();
    for color in Color::ALL {
        let set = pos.legal_move_set_for(color);
        let list = pos.legal_moves_for(color);
        assert_eq!(set.len(), list.len());
        assert!(set.iter().eq(list.iter().copied()));
        let promotions = list.iter().filter(|mv| mv.promotion.is_some()).count();
        assert_eq!(promotions % 4, 0);
        assert!(promotions >= 8, "{color:?}: {list:?}");
    }
}

/// Boards far more crowded than chess allows (up to 40 queens of one
/// colour with moves) stay within the entry capacity.
#[test]
fn crowded_boards_fit_the_set() {
    let mut most_entries = 0;
    for pattern in 0..16u32 {
        let mut pos = Position::empty();
        for sq in Square::ALL {
            let (f, r) = (sq.file() as u32, sq.rank() as u32);
            let role = if r % 2 == pattern % 2 {
                Role::Queen
            } else {
                Role::Rook
            };
            if (f * 7 + r * (pattern + 3)) % 8 < 5 {
                pos.put(sq, crate::Piece::new(Color::White, role));
            }
        }
        for color in Color::ALL {
            let set = pos.legal_move_set_for(color);
            let list = pos.legal_moves_for(color);
            assert!(set.iter().eq(list.iter().copied()));
            for (i, &mv) in list.iter().enumerate() {
                assert_eq!(set.get(i), Some(mv), "index {i} in {pos:?}");
            }
            assert_both_ways_of_getting(&set, &list);
            most_entries = most_entries.max(set.entry_count);
        }
    }
    // `get` searched beyond its first two windows of starts.
    assert!(most_entries > 2 * START_WINDOW, "{most_entries} entries");
}

#[test]
fn empty_and_cleared_sets() {
    let set = MoveSet::default();
    assert!(set.is_empty());
    assert_eq!(set.get(0), None);
    assert_eq!(set.iter().next(), None);
    assert_eq!(set.attacks(), None);
    let mut set = Position::new().legal_move_set_for(Color::White);
    assert_eq!(set.len(), 20);
    set.clear();
    assert!(set.is_empty() && set.iter().next().is_none());
    let (mut white, mut black) = (MoveSet::new(), MoveSet::new());
    Position::new().legal_move_sets_into(&mut white, &mut black, PausedInCheck::Stay);
    assert!(white.attacks().is_some());
    white.clear();
    assert_eq!(white.attacks(), None);
    assert_eq!(set.get(0), None);
    assert_eq!(format!("{:?}", MoveSet::new()), "[]");
}

/// Sets of 255 moves or more (counted, not found by byte starts; here a
/// ring of queens, 282 moves, found by a search) through `get` and
/// `get_pair`, also paired with a short set either way.
#[test]
fn long_sets_through_get_and_get_pair() {
    let pos = Position::from_fen("BQQQQQq1/Q5QP/Q6Q/Q6Q/Q6Q/Q6Q/Q6Q/QQQQQQQQ w - - 0 1").unwrap();
    let long = pos.legal_move_set_for(Color::White);
    let list = pos.legal_moves_for(Color::White);
    assert!(long.len() >= 255, "{} moves", long.len());
    let short = Position::new().legal_move_set_for(Color::Black);
    for (i, &mv) in list.iter().enumerate() {
        assert_eq!(long.get(i), Some(mv), "index {i}");
        let j = i % short.len();
        let (pair, reversed) = (
            MoveSet::get_pair(&long, i, &short, j),
            MoveSet::get_pair(&short, j, &long, i),
        );
        assert_eq!(pair, (Some(mv), short.get(j)), "index {i}");
        assert_eq!(reversed, (short.get(j), Some(mv)), "index {i}");
    }
    assert_eq!(long.get(list.len()), None);
    let beyond = MoveSet::get_pair(&long, list.len(), &short, 0);
    assert_eq!(beyond, (None, short.get(0)));
}
