//! A random tournament generator (FIDE C.04.A asks endorsed programs for
//! one): players with random ratings, each round paired by this engine,
//! results drawn from the rating difference with a draw rate, plus
//! forfeits, half-point byes and zero-point absences at given rates.
//! Seeded (ChaCha8), so the same configuration gives the same file.

use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use tempo_chess::Color;

use crate::model::{ByeKind, InfoLine, Player, ResultCode, RoundEntry, Tournament};
use crate::points::Points;

use super::{DutchError, input_for_round, pair};

/// What to generate.
#[derive(Debug, Clone, PartialEq)]
pub struct GeneratorConfig {
    pub players: u32,
    pub rounds: u32,
    pub seed: u64,
    /// Share of games drawn (0-1).
    pub draw_rate: f64,
    /// Share of games forfeited (0-1).
    pub forfeit_rate: f64,
    /// Share of players taking a half-point bye in a round (0-1); a third
    /// as many are absent without points.
    pub bye_rate: f64,
}

impl Default for GeneratorConfig {
    fn default() -> Self {
        GeneratorConfig {
            players: 40,
            rounds: 7,
            seed: 1,
            draw_rate: 0.3,
            forfeit_rate: 0.02,
            bye_rate: 0.03,
        }
    }
}

/// Generate a tournament with all rounds paired and played.
pub fn generate(cfg: &GeneratorConfig) -> Result<Tournament, DutchError> {
    for (name, rate) in [
        ("draw rate", cfg.draw_rate),
        ("forfeit rate", cfg.forfeit_rate),
        ("bye rate", cfg.bye_rate),
    ] {
        if !(0.0..=1.0).contains(&rate) {
            return Err(DutchError::Invalid(format!(
                "{name} {rate} is not between 0 and 1"
            )));
        }
    }
    if cfg.players < 2 || cfg.rounds < 1 {
        return Err(DutchError::Invalid(
            "need at least 2 players and 1 round".into(),
        ));
    }
    if cfg.players as usize > super::MAX_PLAYERS {
        return Err(DutchError::TooManyPlayers(cfg.players as usize));
    }
    if cfg.rounds >= cfg.players {
        return Err(DutchError::Invalid(format!(
            "{} rounds for {} players: a Swiss has fewer rounds than players",
            cfg.rounds, cfg.players
        )));
    }
    let mut rng = ChaCha8Rng::seed_from_u64(cfg.seed);
    let mut ratings: Vec<u16> = (0..cfg.players)
        .map(|_| rng.random_range(1000..2700))
        .collect();
    ratings.sort_unstable_by(|a, b| b.cmp(a));
    let mut t = Tournament::new();
    t.info.push(InfoLine {
        tag: "012".into(),
        text: format!("tempo random tournament, seed {}", cfg.seed),
    });
    t.info.push(InfoLine {
        tag: "092".into(),
        text: "FIDE_DUTCH_2026".into(),
    });
    for (i, &rating) in ratings.iter().enumerate() {
        let id = i as u32 + 1;
        t.players
            .push(Player::new(id, format!("Player {id:04}"), Some(rating)));
    }
    t.total_rounds = Some(cfg.rounds);
    t.initial_colour = Some(if rng.random_bool(0.5) {
        Color::White
    } else {
        Color::Black
    });

    for round in 1..=cfg.rounds {
        for p in &mut t.players {
            let roll: f64 = rng.random();
            if roll < cfg.bye_rate {
                p.set_entry(round, RoundEntry::bye(ByeKind::HalfPoint));
            } else if roll < cfg.bye_rate * 4.0 / 3.0 {
                p.set_entry(round, RoundEntry::bye(ByeKind::ZeroPoint));
            }
        }
        let pairing = pair(&input_for_round(&t, round)?)?;
        for &(white, black) in &pairing.boards {
            let (rw, rb) = (rating_of(&t, white), rating_of(&t, black));
            let (w, b) = if rng.random_bool(cfg.forfeit_rate) {
                if rng.random_bool(0.5) {
                    (ResultCode::ForfeitWin, ResultCode::ForfeitLoss)
                } else {
                    (ResultCode::ForfeitLoss, ResultCode::ForfeitWin)
                }
            } else if rng.random_bool(cfg.draw_rate) {
                (ResultCode::Draw, ResultCode::Draw)
            } else {
                let expected = 1.0 / (1.0 + 10f64.powf(f64::from(rb - rw) / 400.0));
                if rng.random_bool(expected) {
                    (ResultCode::Win, ResultCode::Loss)
                } else {
                    (ResultCode::Loss, ResultCode::Win)
                }
            };
            set(
                &mut t,
                white,
                round,
                RoundEntry::game(black, Color::White, w),
            );
            set(
                &mut t,
                black,
                round,
                RoundEntry::game(white, Color::Black, b),
            );
        }
        if let Some(bye) = pairing.bye {
            set(
                &mut t,
                bye,
                round,
                RoundEntry::bye(ByeKind::PairingAllocated),
            );
        }
    }
    let last = cfg.rounds;
    let scores: Vec<Points> = t
        .players
        .iter()
        .map(|p| t.score_after(p.id, last))
        .collect();
    let mut order: Vec<usize> = (0..t.players.len()).collect();
    order.sort_by_key(|&i| (std::cmp::Reverse(scores[i]), t.players[i].id));
    for (place, &i) in order.iter().enumerate() {
        t.players[i].points = Some(scores[i]);
        t.players[i].rank = Some(place as u32 + 1);
    }
    Ok(t)
}

fn rating_of(t: &Tournament, id: u32) -> i32 {
    t.player(id).and_then(|p| p.rating).map_or(0, i32::from)
}

fn set(t: &mut Tournament, id: u32, round: u32, entry: RoundEntry) {
    if let Some(p) = t.player_mut(id) {
        p.set_entry(round, entry);
    }
}
