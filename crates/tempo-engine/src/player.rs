//! Players: the engine (`nash`) and the baselines (`random`, `greedy`,
//! `minimax`), and complete games between two players.

use rand::{Rng, RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use tempo_chess::{Color, Outcome, Position};
use tempo_sync::Choice;

use crate::error::EngineError;
use crate::eval::material_cp;
use crate::search::{Config, Engine, Limits};
use crate::state::{State, immediate_gain};

/// The kinds of player.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum PlayerKind {
    /// Uniform over the legal choices (what `tempo sync random-games`
    /// plays).
    Random,
    /// One ply, best immediate material: the choice that captures the
    /// most valuable piece (or promotes), ties broken at random.
    Greedy,
    /// The same search as `nash`, assuming the opponent sees one's move:
    /// a pure strategy from the serialised bound (max-min for White,
    /// min-max for Black).
    Minimax,
    /// The engine: mixed strategies from the matrix games, the move
    /// sampled from the root strategy.
    Nash,
    /// The same search as `nash`, the root strategy purified: always its
    /// most probable choice. Deterministic, and so predictable by whoever
    /// can run the same search; where the evaluation is coarse it wins
    /// more than sampling, which plays the equilibrium's rarer choices as
    /// often as the matrix of estimates says (see docs/engine.md).
    Purified,
}

impl PlayerKind {
    pub(crate) const ALL: [PlayerKind; 5] = [
        PlayerKind::Nash,
        PlayerKind::Purified,
        PlayerKind::Minimax,
        PlayerKind::Greedy,
        PlayerKind::Random,
    ];

    pub fn name(self) -> &'static str {
        match self {
            PlayerKind::Random => "random",
            PlayerKind::Greedy => "greedy",
            PlayerKind::Minimax => "minimax",
            PlayerKind::Nash => "nash",
            PlayerKind::Purified => "purified",
        }
    }

    /// Every player's name, comma-separated (for messages).
    pub fn names() -> String {
        let names: Vec<&str> = PlayerKind::ALL.iter().map(|k| k.name()).collect();
        names.join(", ")
    }

    /// Whether the player searches (and so holds an engine).
    fn searches(self) -> bool {
        matches!(
            self,
            PlayerKind::Nash | PlayerKind::Purified | PlayerKind::Minimax
        )
    }
}

impl std::str::FromStr for PlayerKind {
    type Err = EngineError;

    fn from_str(s: &str) -> Result<PlayerKind, EngineError> {
        PlayerKind::ALL
            .into_iter()
            .find(|k| k.name() == s)
            .ok_or_else(|| EngineError::UnknownPlayer(s.to_string()))
    }
}

/// A player with its own seeded generator (and search, for `nash` and
/// `minimax`).
pub struct Player {
    kind: PlayerKind,
    limits: Limits,
    engine: Option<Engine>,
    rng: ChaCha8Rng,
}

impl Player {
    pub fn new(kind: PlayerKind, limits: Limits, seed: u64) -> Player {
        Player::with_config(kind, limits, seed, Config::default())
    }

    pub(crate) fn with_config(
        kind: PlayerKind,
        limits: Limits,
        seed: u64,
        config: Config,
    ) -> Player {
        let engine = kind.searches().then(|| Engine::new(config));
        Player {
            kind,
            limits,
            engine,
            rng: ChaCha8Rng::seed_from_u64(seed),
        }
    }

    /// The choice of `color` in `state` (`None` if it has none to make).
    pub fn choose(&mut self, state: &State, color: Color) -> Option<Choice> {
        let choices = state.choices(color);
        if choices.is_empty() {
            return None;
        }
        if choices.len() == 1 {
            return Some(choices[0]);
        }
        Some(match self.kind {
            PlayerKind::Random => choices[self.rng.random_range(0..choices.len())],
            PlayerKind::Greedy => greedy(state, color, &choices, &mut self.rng),
            kind => {
                let engine = self.engine.as_mut().expect("searching player");
                let analysis = if kind == PlayerKind::Minimax {
                    engine.analyse_serialised(state, self.limits, color)
                } else {
                    engine.analyse(state, self.limits)
                };
                let strategy = analysis.strategy(color);
                let choice = if kind == PlayerKind::Nash {
                    sample(strategy, &mut self.rng)
                } else {
                    // Pure: the strategy lists its most probable choice first.
                    strategy.first().map(|(c, _)| *c)
                };
                choice.unwrap_or(choices[0])
            }
        })
    }
}

/// A choice drawn from `strategy` (probabilities summing to 1).
pub(crate) fn sample<R: Rng + ?Sized>(strategy: &[(Choice, f64)], rng: &mut R) -> Option<Choice> {
    let mut r: f64 = rng.random_range(0.0..1.0);
    for &(choice, p) in strategy {
        if r < p {
            return Some(choice);
        }
        r -= p;
    }
    strategy.last().map(|(c, _)| *c)
}

fn greedy<R: Rng + ?Sized>(state: &State, color: Color, choices: &[Choice], rng: &mut R) -> Choice {
    let pos = state.position();
    let gain = |c: &Choice| match *c {
        Choice::Move(mv) | Choice::Capture(mv) => immediate_gain(pos, color, mv),
        Choice::Decline => 0,
    };
    let best = choices.iter().map(gain).max().unwrap_or(0);
    let top: Vec<Choice> = choices
        .iter()
        .copied()
        .filter(|c| gain(c) == best)
        .collect();
    top[rng.random_range(0..top.len())]
}

/// Moves (pairs) after which a game is adjudicated.
pub const MOVE_CAP: u32 = 150;
/// Material lead (centipawns) that wins an adjudicated game.
pub const ADJUDICATION_CP: i32 = 300;

/// A finished game.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GameOutcome {
    pub outcome: Outcome,
    pub reason: &'static str,
    /// Steps played (pairs, exchange steps, orthodox moves).
    pub steps: u32,
    /// The steps' words ([`State::step_words`]): one a step in orthodox
    /// chess, two (White's, Black's) in the variants.
    pub moves: Vec<String>,
}

/// Plays `white` against `black` from `start` to the end, or to move
/// [`MOVE_CAP`], where the game is adjudicated: a material lead of at
/// least [`ADJUDICATION_CP`] wins, anything else is a draw.
pub fn play_game(start: &State, white: &mut Player, black: &mut Player) -> GameOutcome {
    let mut state = start.clone();
    let first = state.move_number();
    let mut steps = 0;
    let mut moves = Vec::new();
    loop {
        if let Some(end) = state.ending() {
            return GameOutcome {
                outcome: end.outcome,
                reason: end.reason,
                steps,
                moves,
            };
        }
        if state.move_number() >= first + MOVE_CAP {
            return GameOutcome {
                outcome: adjudicate(state.position()),
                reason: "adjudicated",
                steps,
                moves,
            };
        }
        let w = white.choose(&state, Color::White);
        let b = black.choose(&state, Color::Black);
        state.step_words(w, b, &mut moves);
        state = state.play(w, b);
        steps += 1;
    }
}

/// The result of a game stopped at move [`MOVE_CAP`]: a material lead
/// of at least [`ADJUDICATION_CP`] (pawn 100, knight 320, bishop 330,
/// rook 500, queen 900) wins, anything less is a draw.
pub fn adjudicate(pos: &Position) -> Outcome {
    let material = material_cp(pos);
    if material >= ADJUDICATION_CP {
        Outcome::Win(Color::White)
    } else if material <= -ADJUDICATION_CP {
        Outcome::Win(Color::Black)
    } else {
        Outcome::Draw
    }
}

/// A score (wins + draws / 2 over games) with its 95 % Wilson score
/// interval, the score taken as a proportion of `n` games.
pub fn wilson(score: f64, n: usize) -> (f64, f64) {
    if n == 0 {
        return (0.0, 1.0);
    }
    let n = n as f64;
    let z = 1.959_963_984_540_054_f64;
    let p = score / n;
    let denom = 1.0 + z * z / n;
    let centre = (p + z * z / (2.0 * n)) / denom;
    let half = z * ((p * (1.0 - p) / n) + z * z / (4.0 * n * n)).sqrt() / denom;
    ((centre - half).max(0.0), (centre + half).min(1.0))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::state::GameStart;
    use tempo_sync::GameKind;

    #[test]
    fn wilson_brackets_the_score() {
        let (lo, hi) = wilson(385.0, 400);
        assert!(lo < 385.0 / 400.0 && 385.0 / 400.0 < hi);
        assert!(
            (lo - 0.937).abs() < 0.01 && (hi - 0.976).abs() < 0.01,
            "{lo} {hi}"
        );
        let (lo, hi) = wilson(5.0, 10);
        assert!(lo < 0.5 && hi > 0.5);
    }

    #[test]
    fn names_round_trip_and_unknown_is_an_error() {
        for k in PlayerKind::ALL {
            assert_eq!(k.name().parse::<PlayerKind>().unwrap(), k);
        }
        let message = "stockfish".parse::<PlayerKind>().unwrap_err().to_string();
        for k in PlayerKind::ALL {
            assert!(message.contains(k.name()), "{message}");
        }
    }

    #[test]
    fn games_end_and_are_deterministic() {
        for kind in GameKind::ALL {
            let start = kind.start(Some(100)).unwrap();
            let run = || {
                let mut a = Player::new(PlayerKind::Greedy, Limits::depth(1), 3);
                let mut b = Player::new(PlayerKind::Random, Limits::depth(1), 4);
                play_game(&start, &mut a, &mut b)
            };
            let first = run();
            assert_eq!(first, run());
            assert!(first.steps > 0);
        }
    }

    /// The choice of `color` named `word` in `state` (`None` for
    /// [`crate::NO_CHOICE`]).
    fn named(state: &State, color: Color, word: &str) -> Option<Choice> {
        if word == crate::NO_CHOICE {
            return None;
        }
        let found = state
            .choices(color)
            .into_iter()
            .find(|&c| state.choice_name(color, c) == word);
        assert!(found.is_some(), "{word} is not a choice of {color:?}");
        found
    }

    #[test]
    fn the_moves_replay_to_the_same_end() {
        for kind in GameKind::ALL {
            for seed in 0..3 {
                let start = kind.start(Some(300 + seed as u16)).unwrap();
                let mut a = Player::new(PlayerKind::Random, Limits::depth(1), seed);
                let mut b = Player::new(PlayerKind::Greedy, Limits::depth(1), seed + 10);
                let game = play_game(&start, &mut a, &mut b);
                let per_step = if kind.is_simultaneous() { 2 } else { 1 };
                assert_eq!(game.moves.len(), game.steps as usize * per_step, "{kind:?}");
                let mut state = start.clone();
                for step in game.moves.chunks(per_step) {
                    let (w, b) = if per_step == 2 {
                        (
                            named(&state, Color::White, &step[0]),
                            named(&state, Color::Black, &step[1]),
                        )
                    } else if state.choices(Color::White).is_empty() {
                        (None, named(&state, Color::Black, &step[0]))
                    } else {
                        (named(&state, Color::White, &step[0]), None)
                    };
                    state = state.play(w, b);
                }
                match state.ending() {
                    Some(end) => assert_eq!((end.outcome, end.reason), (game.outcome, game.reason)),
                    None => assert_eq!(game.reason, "adjudicated"),
                }
            }
        }
    }

    #[test]
    fn the_fen_reads_back() {
        for kind in GameKind::ALL {
            let mut state = kind.start(Some(7)).unwrap();
            let mut p = Player::new(PlayerKind::Random, Limits::depth(1), 9);
            for _ in 0..6 {
                let (w, b) = (
                    p.choose(&state, Color::White),
                    p.choose(&state, Color::Black),
                );
                state = state.play(w, b);
            }
            let again = kind.from_fen(&state.fen()).unwrap();
            assert_eq!(again.fen(), state.fen());
            assert_eq!(again.key(), state.key(), "{kind:?}");
        }
    }

    #[test]
    fn purified_plays_the_most_probable_choice_of_a_mixed_strategy() {
        // A position whose root strategies are mixed at depth 1.
        let (state, analysis) = crate::exact::POSITIONS
            .iter()
            .map(|&(kind, fen)| {
                let state = kind.from_fen(fen).unwrap();
                let analysis = Engine::new(Config::default()).analyse(&state, Limits::depth(1));
                (state, analysis)
            })
            .find(|(_, a)| a.white.len() > 1)
            .expect("a mixed root strategy among the fixed positions");
        let top = analysis.white[0];
        assert!(analysis.white.iter().all(|&(_, p)| p <= top.1));
        for seed in 0..8 {
            let mut p = Player::new(PlayerKind::Purified, Limits::depth(1), seed);
            assert_eq!(p.choose(&state, Color::White), Some(top.0), "seed {seed}");
        }
        // Sampling plays the others too.
        let sampled: std::collections::HashSet<Option<Choice>> = (0..64)
            .map(|seed| {
                Player::new(PlayerKind::Nash, Limits::depth(1), seed).choose(&state, Color::White)
            })
            .collect();
        assert!(sampled.len() > 1);
    }

    #[test]
    fn adjudication_goes_by_the_material_lead() {
        // White is a rook and a queen and two pawns up: 1,600 centipawns.
        let pos = Position::from_fen("4k3/8/8/8/8/8/PP6/RQ2K3 w - - 0 1").unwrap();
        assert_eq!(material_cp(&pos), 1600);
        assert_eq!(adjudicate(&pos), Outcome::Win(Color::White));
        assert_eq!(adjudicate(&pos.mirrored()), Outcome::Win(Color::Black));
        let close = Position::from_fen("4k3/p7/8/8/8/8/PP6/4K3 w - - 0 1").unwrap();
        assert_eq!(adjudicate(&close), Outcome::Draw);
    }

    #[test]
    fn greedy_takes_the_queen() {
        let state = GameKind::Synchronschach
            .from_fen("4k3/8/8/3q4/4P3/8/8/4K3 w - - 0 1")
            .unwrap();
        let mut p = Player::new(PlayerKind::Greedy, Limits::depth(1), 1);
        let c = p.choose(&state, Color::White).unwrap();
        assert_eq!(c.to_string(), "e4d5");
    }
}
