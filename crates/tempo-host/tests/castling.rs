//! Castling is taken in both spellings in every variant, as the board
//! lets a player enter it: the king's step to its castling square
//! (`e1g1`) or the king onto its own rook (`e1h1`). The web app sends the
//! spelling the game lists; a client or a typed move may send the other.

use tempo_chess::Color;
use tempo_host::view::Audience;
use tempo_host::{Command, GameSpec, Header, HostedGame, Variant};

const START: &str = "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1";
/// Chess960 with the kings on d1/d8: O-O takes the king three squares.
const START_960: &str = "r2k3r/pppppppp/8/8/8/8/PPPPPPPP/R2K3R w KQkq - 0 1";
const CASTLED: &str = "r4rk1/pppppppp/8/8/8/8/PPPPPPPP/R4RK1";

fn castle(variant: Variant, fen: &str, white: &str, black: &str) -> String {
    let spec = GameSpec {
        variant,
        fen: Some(fen.to_string()),
        ..GameSpec::default()
    };
    let header = Header::new("g1", &spec, "anna", "ben").expect("a valid spec");
    let (mut game, _) = HostedGame::create(header, 1_000).expect("a game");
    for (color, choice, at) in [(Color::White, white, 2_000), (Color::Black, black, 3_000)] {
        let command = Command::Play {
            color,
            choice: choice.into(),
        };
        if let Err(e) = game.handle(command, at, [at as u8; 32]) {
            panic!("{variant:?}: {choice}: {e}");
        }
    }
    let fen = game.state(Audience::Public, 4_000)["fen"].to_string();
    fen.trim_matches('"')
        .split(' ')
        .next()
        .unwrap_or("")
        .to_string()
}

#[test]
fn both_castling_spellings_castle_in_every_variant() {
    for variant in [
        Variant::Standard,
        Variant::Synchronschach,
        Variant::Fairschach,
    ] {
        assert_eq!(
            castle(variant, START, "e1g1", "e8h8"),
            CASTLED,
            "{variant:?}"
        );
        assert_eq!(
            castle(variant, START, "e1h1", "e8g8"),
            CASTLED,
            "{variant:?}"
        );
    }
    assert_eq!(
        castle(Variant::Chess960, START_960, "d1g1", "d8h8"),
        CASTLED
    );
    assert_eq!(
        castle(Variant::Chess960, START_960, "d1h1", "d8g8"),
        CASTLED
    );
}

#[test]
fn a_chess960_king_step_that_is_an_ordinary_move_stays_one() {
    // King b1, rook a1: b1c1 is the king's step, not the long castling.
    let fen = "rk5r/pppppppp/8/8/8/8/PPPPPPPP/RK5R w AHah - 0 1";
    assert_eq!(
        castle(Variant::Chess960, fen, "b1c1", "b8c8"),
        "r1k4r/pppppppp/8/8/8/8/PPPPPPPP/R1K4R"
    );
}
