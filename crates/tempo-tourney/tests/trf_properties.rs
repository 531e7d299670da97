//! Property: any tournament tempo can hold is written as TRF and read back
//! unchanged (every record kind, every result code, all three line endings).

use proptest::prelude::*;
use proptest::sample::select;

use tempo_chess::Color;
use tempo_tourney::trf::LineEnding;
use tempo_tourney::{
    Absence, AbsenceKind, Acceleration, ByeKind, ByeRequest, Chess960Rounds, ForbiddenPairs,
    InfoLine, LateEntry, Player, PointSystem, Points, ResultCode, RoundEntry, Tournament,
    Withdrawal,
};

const RESULTS: [ResultCode; 13] = [
    ResultCode::Win,
    ResultCode::Draw,
    ResultCode::Loss,
    ResultCode::ForfeitWin,
    ResultCode::ForfeitLoss,
    ResultCode::UnratedWin,
    ResultCode::UnratedDraw,
    ResultCode::UnratedLoss,
    ResultCode::HalfPointBye,
    ResultCode::FullPointBye,
    ResultCode::PairingBye,
    ResultCode::ZeroPointBye,
    ResultCode::Blank,
];

fn points(max_tenths: i32) -> impl Strategy<Value = Points> {
    (-99..=max_tenths).prop_map(Points::from_tenths)
}

fn colour() -> impl Strategy<Value = Color> {
    prop_oneof![Just(Color::White), Just(Color::Black)]
}

fn entry(own: u32) -> impl Strategy<Value = RoundEntry> {
    (
        prop::option::of((1u32..=9999).prop_filter("not oneself", move |&o| o != own)),
        prop::option::of(colour()),
        select(&RESULTS[..]),
    )
        .prop_map(|(opponent, colour, result)| RoundEntry {
            opponent,
            colour,
            result,
        })
}

fn player(id: u32) -> impl Strategy<Value = Player> {
    (
        (
            prop::option::of(select(vec!['m', 'w'])),
            prop::option::of(select(vec!["GM", "IM", "WGM", "FM", "g"])),
            "([A-Za-z][A-Za-z ,.'-]{0,31}[A-Za-z])?",
            prop::option::of(0u16..=9999),
            prop::option::of("[A-Z]{3}"),
            prop::option::of("[0-9]{1,11}"),
            prop::option::of("(19|20)[0-9]{2}/[01][0-9]/[0-3][0-9]"),
        ),
        (
            prop::option::of(points(999)),
            prop::option::of(1u32..=9999),
            prop::collection::vec(entry(id), 0..8),
            prop::option::of("[A-Za-z][A-Za-z0-9 ]{0,12}[A-Za-z0-9]"),
        ),
    )
        .prop_map(
            move |((sex, title, name, rating, federation, fide_id, birth_date), rest)| {
                let (points, rank, rounds, club) = rest;
                Player {
                    id,
                    sex,
                    title: title.map(str::to_string),
                    name,
                    rating,
                    federation,
                    fide_id,
                    birth_date,
                    points,
                    rank,
                    rounds,
                    club,
                }
            },
        )
}

fn point_system() -> impl Strategy<Value = PointSystem> {
    (
        points(99),
        points(99),
        points(99),
        points(99),
        points(99),
        prop::option::of(points(99)),
        prop::option::of(points(99)),
    )
        .prop_map(
            |(win, draw, loss, forfeit_loss, zero_bye, pairing_bye, unknown)| PointSystem {
                win,
                draw,
                loss,
                forfeit_loss,
                zero_bye,
                pairing_bye,
                unknown,
            },
        )
}

fn ids() -> impl Strategy<Value = Vec<u32>> {
    prop::collection::vec(1u32..=9999, 0..4)
}

fn records() -> impl Strategy<Value = (Vec<ByeRequest>, Vec<Acceleration>, Vec<ForbiddenPairs>)> {
    let bye = (
        select(vec![
            ByeKind::FullPoint,
            ByeKind::HalfPoint,
            ByeKind::ZeroPoint,
        ]),
        1u32..=999,
        ids(),
    )
        .prop_map(|(kind, round, players)| ByeRequest {
            kind,
            round,
            players,
        });
    let range = (
        prop::option::of(points(999)),
        points(999),
        1u32..=999,
        1u32..=999,
        1u32..=9999,
        1u32..=9999,
    )
        .prop_map(
            |(match_points, points, first_round, last_round, first_player, last_player)| {
                Acceleration::Range {
                    match_points,
                    points,
                    first_round,
                    last_round,
                    first_player,
                    last_player,
                }
            },
        );
    let per_round = (1u32..=9999, prop::collection::vec(points(999), 0..5))
        .prop_map(|(player, points)| Acceleration::PerRound { player, points });
    let forbidden = (prop::option::of((1u32..=999, 1u32..=999)), ids())
        .prop_map(|(rounds, players)| ForbiddenPairs { rounds, players });
    (
        prop::collection::vec(bye, 0..3),
        prop::collection::vec(prop_oneof![range, per_round], 0..3),
        prop::collection::vec(forbidden, 0..3),
    )
}

type Extension = (
    Vec<Absence>,
    Vec<Withdrawal>,
    Vec<LateEntry>,
    Vec<(String, String)>,
    Option<Chess960Rounds>,
);

fn extension() -> impl Strategy<Value = Extension> {
    let absence = (
        select(vec![
            AbsenceKind::Excused,
            AbsenceKind::Unexcused,
            AbsenceKind::ClubDuty,
        ]),
        1u32..=2000,
        ids(),
    )
        .prop_map(|(kind, round, players)| Absence {
            round,
            kind,
            players,
        });
    let withdrawal = (1u32..=9999, 0u32..=99).prop_map(|(player, after_round)| Withdrawal {
        player,
        after_round,
    });
    let late = (1u32..=9999, 1u32..=99).prop_map(|(player, first_round)| LateEntry {
        player,
        first_round,
    });
    let setting = (
        "[a-z][a-z-]{0,12}",
        "([a-z0-9/:]([a-z0-9/: ]{0,8}[a-z0-9/:])?)?",
    );
    let chess960 = (
        prop::option::of(any::<u64>()),
        prop::collection::vec((1u32..=99, 0u16..=959), 0..4),
    )
        .prop_map(|(seed, positions)| {
            (seed.is_some() || !positions.is_empty()).then_some(Chess960Rounds { seed, positions })
        });
    (
        prop::collection::vec(absence, 0..3),
        prop::collection::vec(withdrawal, 0..2),
        prop::collection::vec(late, 0..2),
        prop::collection::vec(setting, 0..3),
        chess960,
    )
}

fn info() -> impl Strategy<Value = Vec<InfoLine>> {
    prop::collection::vec(
        (
            select(vec!["012", "022", "042", "092", "122", "202"]),
            "[A-Za-z0-9 ,/]{0,24}",
        )
            .prop_map(|(tag, text)| InfoLine {
                tag: tag.to_string(),
                text,
            }),
        0..4,
    )
}

fn tournament() -> impl Strategy<Value = Tournament> {
    (
        (1usize..10).prop_flat_map(|n| (1..=n as u32).map(player).collect::<Vec<_>>()),
        info(),
        prop::option::of(1u32..=99),
        prop::option::of(colour()),
        point_system(),
        records(),
        extension(),
        select(vec![LineEnding::Cr, LineEnding::Lf, LineEnding::CrLf]),
    )
        .prop_map(
            |(players, info, total_rounds, initial_colour, point_system, recs, ext, ending)| {
                let mut t = Tournament::new();
                t.players = players;
                t.info = info;
                t.total_rounds = total_rounds;
                t.initial_colour = initial_colour;
                t.point_system = point_system;
                (t.bye_requests, t.accelerations, t.forbidden_pairs) = recs;
                (
                    t.absences,
                    t.withdrawals,
                    t.late_entries,
                    t.keizer_settings,
                    t.chess960,
                ) = ext;
                t.set_line_ending(ending);
                t
            },
        )
}

fn assert_same(a: &Tournament, b: &Tournament) {
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

proptest! {
    #[test]
    fn written_tournaments_read_back(t in tournament()) {
        let text = t.to_trf().unwrap();
        let back = Tournament::from_trf_str(&text).unwrap();
        assert_same(&t, &back);
        prop_assert_eq!(back.line_ending(), t.line_ending());
        // What was read is written back byte for byte.
        prop_assert_eq!(back.to_trf().unwrap(), text.clone());
        let canonical = back.to_trf_canonical().unwrap();
        prop_assert_eq!(canonical, text);
    }
}
