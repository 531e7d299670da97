//! `HostedGame::is_due`, the cheap question the server asks around every
//! command, agrees with the choices a side has, through random games of
//! every variant: due exactly when there is something to choose.

use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use tempo_chess::Color;
use tempo_host::{Command, GameSpec, Header, HostedGame, Variant};

#[test]
fn is_due_agrees_with_the_choices_in_random_games() {
    let mut rng = ChaCha8Rng::seed_from_u64(25);
    for variant in [
        Variant::Fairschach,
        Variant::Synchronschach,
        Variant::Standard,
    ] {
        for game_no in 0..20 {
            let spec = GameSpec {
                variant,
                ..GameSpec::default()
            };
            let header = Header::new("g", &spec, "anna", "ben").expect("a valid spec");
            let (mut game, _) = HostedGame::create(header, 1_000).expect("a game");
            for step in 0..120u64 {
                for color in [Color::White, Color::Black] {
                    assert_eq!(
                        game.is_due(color),
                        !game.choices(color).is_empty(),
                        "{variant:?} game {game_no} step {step} {color:?}"
                    );
                }
                let movers: Vec<Color> = [Color::White, Color::Black]
                    .into_iter()
                    .filter(|&c| !game.choices(c).is_empty())
                    .collect();
                let Some(&color) = movers.get(rng.random_range(0..movers.len().max(1))) else {
                    break;
                };
                let choices = game.choices(color);
                let choice = choices[rng.random_range(0..choices.len())].clone();
                let at = 2_000 + step * 10;
                game.handle(Command::Play { color, choice }, at, rng.random())
                    .expect("a listed choice is taken");
            }
        }
    }
}
