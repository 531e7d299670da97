//! The FIDE (Dutch) Swiss pairing system, Handbook C.04.3 (edition effective
//! 1 February 2026), with the general rules C.04.1 and C.04.2.
//!
//! The behaviour follows the handbook; it is cross-checked round by round
//! against the output of bbpPairings v6.0.0 (the reference implementation of
//! this edition) on a corpus of 150 tournaments. The handbook allows any
//! method that yields the same pairing as its generation order; this engine
//! uses maximum-weight matching with lexicographic weights (module
//! `weights`) and fixes the order-dependent choices one by one (module
//! `engine`).
//!
//! ```
//! use tempo_tourney::dutch::{pair, DutchInput, DutchPlayer, PointValues};
//! use tempo_chess::Color;
//! let players = (1..=4)
//!     .map(|id| DutchPlayer { id, history: vec![], accelerations: vec![], forbidden: vec![], available: true })
//!     .collect();
//! let input = DutchInput {
//!     players,
//!     rounds_played: 0,
//!     rounds_total: 3,
//!     points: PointValues::default(),
//!     initial_colour: Color::White,
//! };
//! let pairing = pair(&input).unwrap();
//! // Round 1: top half against bottom half, colours alternating.
//! assert_eq!(pairing.boards, vec![(1, 3), (4, 2)]);
//! assert_eq!(pairing.bye, None);
//! ```

mod adapter;
mod blossom;
mod colour;
mod engine;
pub mod generate;
mod input;
mod prep;
mod weights;
mod wide;

use std::collections::HashMap;

pub use adapter::input_for_round;
pub use generate::{GeneratorConfig, generate};
pub use input::{DutchInput, DutchPlayer, PointValues, RoundRecord};

use prep::Prepared;
use weights::{Layout, WeightContext, bits};
use wide::Wide;

/// Sort key of a board (see [`colour::board_key`]).
type BoardKey = (std::cmp::Reverse<u32>, std::cmp::Reverse<u32>, usize);

/// A round's pairing: boards in order as `(white, black)` pairing numbers,
/// and the player who gets the pairing-allocated bye.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DutchPairing {
    pub boards: Vec<(u32, u32)>,
    pub bye: Option<u32>,
}

/// The most players the Dutch engine pairs in one round: its weights take
/// memory with the square of the players (about 90 MB at 2,000).
pub const MAX_PLAYERS: usize = 5_000;

/// Why a round could not be paired.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DutchError {
    /// No pairing satisfies the absolute criteria C1-C3 (C4 fails).
    #[error(
        "no valid pairing exists: the players cannot all be paired without breaking an absolute criterion (C1-C3)"
    )]
    NoValidPairing,
    /// The weights would need more bits than supported.
    #[error("the round is too large for the pairing engine ({0} bits of weight)")]
    TooLarge(u32),
    /// The input is inconsistent.
    #[error("invalid input: {0}")]
    Invalid(String),
    /// More players than [`MAX_PLAYERS`].
    #[error("{0} players are too many for the pairing engine (at most {MAX_PLAYERS})")]
    TooManyPlayers(usize),
}

/// Pair the next round.
pub fn pair(input: &DutchInput) -> Result<DutchPairing, DutchError> {
    if input.players.len() > MAX_PLAYERS {
        return Err(DutchError::TooManyPlayers(input.players.len()));
    }
    let played = input.rounds_played;
    for p in &input.players {
        if p.history.len() < played {
            return Err(DutchError::Invalid(format!(
                "player {} has {} rounds of history, expected {played}",
                p.id,
                p.history.len()
            )));
        }
    }
    // Rank among valid players: those to be paired or paired before.
    let mut rank_of = vec![usize::MAX; input.players.len()];
    let mut next_rank = 0;
    for (i, p) in input.players.iter().enumerate() {
        if p.available || p.history.iter().any(|r| r.paired) {
            rank_of[i] = next_rank;
            next_rank += 1;
        }
    }
    let mut players: Vec<Prepared> = (0..input.players.len())
        .filter(|&i| input.players[i].available)
        .map(|i| prep::prepare(input, i, rank_of[i]))
        .collect();
    players.sort_by_key(|p| (std::cmp::Reverse(p.score), p.rank));
    let n = players.len();
    let mut position = vec![usize::MAX; input.players.len()];
    for (pos, p) in players.iter().enumerate() {
        position[p.index] = pos;
    }
    let mut forbidden = vec![false; n * n];
    for (a, p) in players.iter().enumerate() {
        let source = &input.players[p.index];
        let played_opponents = source
            .history
            .iter()
            .filter(|r| r.played)
            .filter_map(|r| r.opponent);
        for other in played_opponents.chain(source.forbidden.iter().copied()) {
            if let Some(&b) = position.get(other)
                && b != usize::MAX
            {
                forbidden[a * n + b] = true;
                forbidden[b * n + a] = true;
            }
        }
    }

    // Scoregroups, lowest first, for the score fields of the weights.
    let mut shift = HashMap::new();
    let mut g = 0;
    let mut max_group = 0;
    let mut i = n;
    while i > 0 {
        let score = players[i - 1].score;
        let mut j = i;
        while j > 0 && players[j - 1].score == score {
            j -= 1;
        }
        shift.insert(score, g);
        g += bits(i - j);
        max_group = max_group.max(i - j);
        i = j;
    }
    let layout = Layout {
        s: bits(max_group).max(1),
        g,
        shift,
        played,
        top_threshold: (played as u32 * input.points.win.max(input.points.draw)) / 2,
        last_round: played + 1 >= input.rounds_total,
    };
    let empty = HashMap::new();
    let mut ctx = WeightContext {
        layout: &layout,
        players: &players,
        forbidden: &forbidden,
        bye_score: 0,
        single_downfloater_is_bye: false,
        played_ranks: &empty,
    };
    let needed = layout.total_bits() + 8;
    let raw = match needed.div_ceil(64) {
        0..=2 => engine::run::<Wide<2>>(&mut ctx),
        3..=4 => engine::run::<Wide<4>>(&mut ctx),
        5..=6 => engine::run::<Wide<6>>(&mut ctx),
        7 => engine::run::<Wide<7>>(&mut ctx),
        8 => engine::run::<Wide<8>>(&mut ctx),
        9..=10 => engine::run::<Wide<10>>(&mut ctx),
        11..=12 => engine::run::<Wide<12>>(&mut ctx),
        13..=16 => engine::run::<Wide<16>>(&mut ctx),
        17..=24 => engine::run::<Wide<24>>(&mut ctx),
        25..=32 => engine::run::<Wide<32>>(&mut ctx),
        33..=48 => engine::run::<Wide<48>>(&mut ctx),
        49..=64 => engine::run::<Wide<64>>(&mut ctx),
        _ => return Err(DutchError::TooLarge(needed)),
    }
    .ok_or(DutchError::NoValidPairing)?;

    let mut boards: Vec<(u32, u32, BoardKey)> = raw
        .pairs
        .iter()
        .map(|&(a, b)| {
            let (p, o) = if players[a].id < players[b].id {
                (a, b)
            } else {
                (b, a)
            };
            let (p, o) = (&players[p], &players[o]);
            let key = colour::board_key(p, o);
            match colour::colour_of(p, o, input.initial_colour) {
                tempo_chess::Color::White => (p.id, o.id, key),
                tempo_chess::Color::Black => (o.id, p.id, key),
            }
        })
        .collect();
    boards.sort_by_key(|b| b.2);
    Ok(DutchPairing {
        boards: boards.into_iter().map(|(w, b, _)| (w, b)).collect(),
        bye: raw.bye.map(|v| players[v].id),
    })
}
