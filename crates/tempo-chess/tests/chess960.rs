//! Chess960 start positions: the standard numbering (checked against
//! cozy-chess for all 960), number <-> position round trips, the dice
//! procedure (every roll sequence without re-rolls hits each position
//! exactly twice) and replayable seeded draws.

use tempo_chess::chess960::{self, Chess960Error};
use tempo_chess::{CastlingNotation, Position};

#[test]
fn known_set_ups() {
    assert_eq!(chess960::back_rank_string(0).unwrap(), "BBQNNRKR");
    assert_eq!(chess960::back_rank_string(518).unwrap(), "RNBQKBNR");
    assert_eq!(chess960::back_rank_string(959).unwrap(), "RKRNNQBB");
    assert_eq!(
        chess960::start_position(518).unwrap().to_fen(),
        tempo_chess::STARTING_FEN
    );
    assert_eq!(
        chess960::start_position(0).unwrap().to_fen(),
        "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w KQkq - 0 1"
    );
    assert_eq!(
        chess960::start_position(960).unwrap_err(),
        Chess960Error::NumberOutOfRange(960)
    );
}

#[test]
fn numbering_matches_cozy_chess_for_all_960() {
    for n in 0..chess960::COUNT {
        let ours = chess960::start_position(n).unwrap();
        let cozy = cozy_chess::Board::chess960_startpos(u32::from(n));
        let theirs = Position::from_fen(&format!("{cozy:#}")).unwrap();
        assert_eq!(ours.board_fen(), theirs.board_fen(), "number {n}");
        assert_eq!(
            ours.castling_rights(),
            theirs.castling_rights(),
            "number {n}"
        );
    }
}

#[test]
fn number_round_trips_through_fen() {
    for n in 0..chess960::COUNT {
        let pos = chess960::start_position(n).unwrap();
        for notation in [CastlingNotation::XFen, CastlingNotation::Shredder] {
            let fen = pos.fen_with(notation);
            let read = Position::from_fen(&fen).unwrap();
            assert_eq!(chess960::number_of(&read), Ok(n), "{fen}");
        }
        let rank = chess960::back_rank_string(n).unwrap();
        assert_eq!(chess960::number_of_back_rank_str(&rank), Ok(n));
        assert_eq!(
            chess960::number_of_back_rank_str(&rank.to_lowercase()),
            Ok(n)
        );
    }
}

#[test]
fn non_start_positions_are_rejected() {
    let after_e4: Position = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"
        .parse()
        .unwrap();
    assert!(matches!(
        chess960::number_of(&after_e4),
        Err(Chess960Error::NotAStartPosition(_))
    ));
    // Black not mirroring White.
    let asymmetric: Position = "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1"
        .parse()
        .unwrap();
    assert!(chess960::number_of(&asymmetric).is_err());
    for bad in [
        "KRBQNBNR",
        "RNBQKBN",
        "RNBQKBNRR",
        "RNBQKBNX",
        "BBNNQRRK",
        "RNBQQBNR",
    ] {
        let err = chess960::number_of_back_rank_str(bad).unwrap_err();
        assert!(
            matches!(err, Chess960Error::InvalidBackRank { .. }),
            "{bad}"
        );
    }
    // Same-coloured bishops.
    assert!(chess960::number_of_back_rank_str("BRBQKNNR").is_err());
}

#[test]
fn dice_without_rerolls_hits_every_position_twice() {
    let mut hits = vec![0u32; 960];
    for dark in 1..=4u8 {
        for light in 1..=4u8 {
            for queen in 1..=6u8 {
                for knight1 in 1..=5u8 {
                    for knight2 in 1..=4u8 {
                        let mut rolls = [dark, light, queen, knight1, knight2].into_iter();
                        let n = chess960::dice(|| rolls.next()).unwrap();
                        assert_eq!(rolls.next(), None, "all five rolls used");
                        hits[usize::from(n)] += 1;
                    }
                }
            }
        }
    }
    assert!(hits.iter().all(|&h| h == 2));
}

#[test]
fn dice_follows_the_procedure() {
    // a1/c1/e1/g1 for the dark bishop: 1 -> a1; 4 -> h1 for the light one;
    // queen on the 1st free square (b1); knights on the 1st and 1st free
    // squares (c1, d1); king in the middle of e1, f1, g1.
    let mut rolls = [1, 4, 1, 1, 1].into_iter();
    let n = chess960::dice(|| rolls.next()).unwrap();
    assert_eq!(chess960::back_rank_string(n).unwrap(), "BQNNRKRB");
    // Re-rolls: 5 and 6 for bishops, 6 for the first knight, 5/6 for the
    // second; they are skipped, not errors.
    let mut rolls = [6, 5, 1, 5, 4, 1, 6, 1, 6, 5, 1].into_iter();
    assert_eq!(chess960::dice(|| rolls.next()), Ok(n));
    let mut rolls = [1, 4, 0].into_iter();
    assert_eq!(
        chess960::dice(|| rolls.next()),
        Err(Chess960Error::InvalidRoll(0))
    );
}

#[test]
fn seeded_draws_replay_and_spread() {
    let mut counts = vec![0u32; 960];
    for seed in 0..48_000u64 {
        let draw = chess960::draw(seed);
        assert_eq!(draw.seed, seed);
        counts[usize::from(draw.number)] += 1;
    }
    // 50 expected per position; a fair generator stays well inside.
    assert!(counts.iter().all(|&c| (15..=90).contains(&c)), "{counts:?}");
    assert_eq!(chess960::draw(12345), chess960::draw(12345));
    let dice = chess960::draw_with_dice(99);
    assert_eq!(dice, chess960::draw_with_dice(99));
    let mut rolls = dice.rolls.iter().copied();
    assert_eq!(chess960::dice(|| rolls.next()), Ok(dice.number));
    assert!(dice.rolls.len() >= 5);
}
