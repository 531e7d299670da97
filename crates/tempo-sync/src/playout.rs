//! Random legal play: random choices, random complete games (for tests,
//! the benchmark and `tempo sync random-games`). Seeded and reproducible.

use rand::{Rng, RngExt};
use tempo_chess::{Color, Move, MoveSet};

use crate::event::Event;
use crate::game::{Choice, Expected, PairMoves, SyncGame};
use crate::outcome::{EndReason, Result as GameResult};
use crate::phase::Phase;
use crate::record::write_step;
use crate::rules::Rules;

/// A uniformly random choice of `color` among [`SyncGame::choices`]
/// (`None` if nothing is to be chosen).
pub fn random_choice<R: Rng + ?Sized>(
    game: &SyncGame,
    color: Color,
    rng: &mut R,
) -> Option<Choice> {
    let choices = game.choices(color);
    if choices.is_empty() {
        return None;
    }
    Some(choices[rng.random_range(0..choices.len())])
}

/// A finished random game.
#[derive(Debug, Clone)]
pub struct RandomGame {
    pub end: SyncGame,
    pub result: GameResult,
    pub reason: EndReason,
    /// Steps resolved (pairs, exchange steps, orthodox moves).
    pub steps: usize,
    /// Pairs completed (the pair number at the end minus one).
    pub pairs: u32,
    /// The record, one line per step (if asked for).
    pub record: Vec<String>,
}

/// Plays random choices from `start` until the game ends. Termination is
/// guaranteed by the rules (50-move rule, finite exchange phases).
pub fn random_game<R: Rng + ?Sized>(
    start: &SyncGame,
    rng: &mut R,
    keep_record: bool,
) -> RandomGame {
    let mut game = start.clone();
    let mut steps = 0;
    let mut record = Vec::new();
    loop {
        if let Some((result, reason)) = game.result() {
            return RandomGame {
                pairs: game.pair_number().saturating_sub(start.pair_number()),
                end: game,
                result,
                reason,
                steps,
                record,
            };
        }
        let white = random_choice(&game, Color::White, rng);
        let black = random_choice(&game, Color::Black, rng);
        let (next, events): (SyncGame, Vec<Event>) = game
            .resolve(white, black)
            .expect("random choices are legal choices");
        if keep_record {
            record.push(write_step(&game, white, black, &events));
        }
        game = next;
        steps += 1;
    }
}

/// `count` states at the start of a pair, taken from random playouts
/// (every state of each game, orthodox start and Chess960 alternating),
/// for benchmarks.
pub fn sample_pair_states(rules: Rules, count: usize, seed: u64) -> Vec<SyncGame> {
    use rand::SeedableRng;
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
    let mut out = Vec::with_capacity(count);
    let mut game_index = 0u16;
    while out.len() < count {
        let mut game = if game_index.is_multiple_of(2) {
            SyncGame::new(rules)
        } else {
            SyncGame::chess960(rules, game_index % 960).expect("0..960")
        };
        game_index = game_index.wrapping_add(1);
        while !game.is_over() && out.len() < count {
            if game.phase().is_pair() {
                out.push(game.clone());
            }
            let white = random_choice(&game, Color::White, &mut rng);
            let black = random_choice(&game, Color::Black, &mut rng);
            game = game.resolve(white, black).expect("legal").0;
        }
    }
    out
}

/// A small seeded generator of choice indices for the benchmarks
/// (wyrand: one multiplication per draw, reproducible).
#[derive(Debug, Clone)]
pub struct PickRng(u64);

impl PickRng {
    pub fn new(seed: u64) -> PickRng {
        PickRng(seed)
    }

    /// An index below `n` (non-zero).
    #[inline]
    pub fn pick(&mut self, n: usize) -> usize {
        self.pick2(n, 1).0
    }

    /// Two indices, below `a` and below `b` (both non-zero), from one draw
    /// (the draw's two halves scaled by multiplication, no division).
    #[inline]
    pub fn pick2(&mut self, a: usize, b: usize) -> (usize, usize) {
        self.0 = self.0.wrapping_add(0xa076_1d64_78bd_642f);
        let t = u128::from(self.0) * u128::from(self.0 ^ 0xe703_7ed1_a0b4_28db);
        let r = (t >> 64) as u64 ^ t as u64;
        let scale = |half: u64, n: usize| ((half * n as u64) >> 32) as usize;
        (scale(r & 0xffff_ffff, a), scale(r >> 32, b))
    }
}

/// The benchmark's pair loop: a seeded pick generator and the buffers
/// reused from pair to pair (no allocation in the loop). One driver per
/// measurement, so that every measurement draws the same pairs.
#[derive(Debug)]
pub struct PairDriver {
    rng: PickRng,
    moves: PairMoves,
    events: Vec<Event>,
}

impl Default for PairDriver {
    fn default() -> PairDriver {
        PairDriver::new()
    }
}

impl PairDriver {
    /// A driver with the benchmark's fixed pick seed.
    pub fn new() -> PairDriver {
        PairDriver {
            rng: PickRng::new(0x9E37_79B9_7F4A_7C15),
            moves: PairMoves::new(),
            events: Vec::with_capacity(16),
        }
    }

    /// One pair from each of `states` ([`generate_pick_resolve`]); returns
    /// a checksum of the results (so that no work can be left out).
    #[inline]
    pub fn pass(&mut self, states: &[SyncGame]) -> usize {
        let mut sink = 0usize;
        for game in states {
            let next =
                generate_pick_resolve(game, &mut self.rng, &mut self.moves, &mut self.events);
            sink = sink.wrapping_add(self.events.len() + next.pair_number() as usize);
        }
        sink
    }
}

/// Pair resolutions per second over `states` for about `seconds`: each
/// resolution generates both players' complete sets of legal moves (both
/// in one pass, as compact [`tempo_chess::MoveSet`]s in [`PairMoves`]:
/// [`tempo_chess::Position::legal_move_sets_both_into`]), picks one move
/// of each by its index ([`PickRng`], [`MoveSet::get_pair`]) and
/// resolves the pair with every rule and event
/// ([`SyncGame::resolve_drawn_pair_into`]); passes of a [`PairDriver`].
pub fn measure_resolutions(states: &[SyncGame], seconds: f64) -> f64 {
    let start = std::time::Instant::now();
    let mut driver = PairDriver::new();
    let (mut done, mut sink) = (0u64, 0usize);
    while start.elapsed().as_secs_f64() < seconds {
        sink = sink.wrapping_add(driver.pass(states));
        done += states.len() as u64;
    }
    std::hint::black_box(sink);
    done as f64 / start.elapsed().as_secs_f64()
}

/// One pair of the benchmark from `game` (at the start of a pair, where
/// both players have a move): generates both players' legal moves into
/// `moves`, picks one of each with `rng` and resolves them
/// ([`SyncGame::resolve_drawn_pair_into`]), the events into `events`. The
/// benchmarks' common step.
#[inline]
pub fn generate_pick_resolve(
    game: &SyncGame,
    rng: &mut PickRng,
    moves: &mut PairMoves,
    events: &mut Vec<Event>,
) -> SyncGame {
    moves.fill(game);
    let (white, black) = (moves.of(Color::White), moves.of(Color::Black));
    let (i, j) = rng.pick2(white.len(), black.len());
    let (Some(w), Some(b)) = MoveSet::get_pair(white, i, black, j) else {
        unreachable!("indices below the set sizes");
    };
    game.resolve_drawn_pair_into(w, b, moves, events)
}

/// Random playouts, pair after pair: the loop of an engine's playouts,
/// and the third figure of `tempo sync bench`. A pair allocates nothing
/// but, every eighth reversible pair, a chunk of the repetition history.
/// Each pair draws one move of each player from the state's
/// [`PairMoves`] ([`PickRng`], [`MoveSet::get_pair`]) and resolves them
/// with every rule and event ([`SyncGame::resolve_drawn_pair_with`]),
/// which generates both players' complete move sets of the new state at
/// its start (the checks and the mate and stalemate test read them): the
/// next pair's choices.
///
/// Games start alternately from the orthodox set-up and Chess960
/// positions, as in [`sample_pair_states`]. Exchange steps (Synchronschach,
/// S5-S7) are played with random choices; a game that ends, or leaves
/// simultaneous play (FSR 8), is followed by a new one. Only pairs count;
/// the rest (exchange steps, new games and their first moves) is done in
/// the measured time too.
#[derive(Debug)]
pub struct PlayoutDriver {
    rules: Rules,
    rng: PickRng,
    game: SyncGame,
    /// The moves of `game` when it is at the start of a pair.
    moves: PairMoves,
    events: Vec<Event>,
    games: u32,
}

impl PlayoutDriver {
    /// A driver whose playouts are drawn from `seed`.
    pub fn new(rules: Rules, seed: u64) -> PlayoutDriver {
        let game = SyncGame::new(rules);
        let mut moves = PairMoves::new();
        moves.fill(&game);
        PlayoutDriver {
            rules,
            rng: PickRng::new(seed ^ 0x9E37_79B9_7F4A_7C15),
            game,
            moves,
            events: Vec::with_capacity(16),
            games: 1,
        }
    }

    /// The current state.
    pub fn game(&self) -> &SyncGame {
        &self.game
    }

    /// Both players' moves in [`PlayoutDriver::game`] when it is at the start
    /// of a pair.
    pub fn moves(&self) -> &PairMoves {
        &self.moves
    }

    /// Plays `pairs` pairs; returns a checksum of the results (so that no
    /// work can be left out).
    pub fn play(&mut self, pairs: u64) -> usize {
        let mut sink = 0usize;
        let mut done = 0;
        while done < pairs {
            if self.game.phase().is_pair() {
                let white = self.moves.of(Color::White);
                let black = self.moves.of(Color::Black);
                let (i, j) = self.rng.pick2(white.len(), black.len());
                let (Some(w), Some(b)) = MoveSet::get_pair(white, i, black, j) else {
                    unreachable!("indices below the set sizes of a pair in play");
                };
                self.game =
                    self.game
                        .resolve_drawn_pair_with(w, b, &mut self.events, &mut self.moves);
                sink = sink.wrapping_add(self.events.len());
                done += 1;
            } else {
                self.step_between_pairs();
            }
        }
        sink.wrapping_add(self.game.pair_number() as usize)
    }

    /// Moves on from a state that is not at the start of a pair: an
    /// exchange step with random choices, or a new game.
    #[cold]
    fn step_between_pairs(&mut self) {
        if let Phase::Exchange(_) = self.game.phase() {
            let choices = Color::ALL.map(|color| self.random_exchange_choice(color));
            self.game = self.game.resolve_legal_with(
                choices[0],
                choices[1],
                &mut self.events,
                &mut self.moves,
            );
        } else {
            self.game = if self.games.is_multiple_of(2) {
                SyncGame::new(self.rules)
            } else {
                SyncGame::chess960(self.rules, (self.games % 960) as u16).expect("0..960")
            };
            self.games = self.games.wrapping_add(1);
            self.moves.fill(&self.game);
        }
    }

    /// A uniformly random choice of `color` in an exchange step: one of
    /// its captures or the decline (`None` if it has nothing to choose);
    /// the draw of [`random_choice`] without allocating the list of
    /// [`SyncGame::choices`]: an exchange step follows about one pair in
    /// five, and listing the choices showed in the playout figure.
    fn random_exchange_choice(&mut self, color: Color) -> Option<Choice> {
        if self.game.expected(color) == Expected::Nothing {
            return None;
        }
        let captures = self.game.legal_moves(color);
        let i = self.rng.pick(captures.len() + 1);
        Some(
            captures
                .get(i)
                .map_or(Choice::Decline, |&mv| Choice::Capture(mv)),
        )
    }
}

/// Pairs per second of random playouts ([`PlayoutDriver`]) for about
/// `seconds` (exchange steps and new games in the time, not counted).
pub fn measure_playout_pairs(rules: Rules, seconds: f64, seed: u64) -> f64 {
    let mut driver = PlayoutDriver::new(rules, seed);
    let start = std::time::Instant::now();
    let (mut done, mut sink) = (0u64, 0usize);
    while start.elapsed().as_secs_f64() < seconds {
        sink = sink.wrapping_add(driver.play(PAIRS_PER_CHECK));
        done += PAIRS_PER_CHECK;
    }
    std::hint::black_box(sink);
    done as f64 / start.elapsed().as_secs_f64()
}

/// Pairs between two looks at the clock in [`measure_playout_pairs`].
const PAIRS_PER_CHECK: u64 = 2000;

/// Random pairs picked per state by [`picked_pairs`].
pub const PAIRS_PER_STATE: usize = 16;

/// [`PAIRS_PER_STATE`] random pairs of legal moves for each of `states`
/// (at the start of a pair), as (state index, White's move, Black's
/// move), picked with a fixed seed: the input of the resolution-only
/// measurements.
pub fn picked_pairs(states: &[SyncGame]) -> Vec<(usize, Move, Move)> {
    let mut rng = PickRng::new(0x2545_F491_4F6C_DD1D);
    let mut pairs = Vec::with_capacity(states.len() * PAIRS_PER_STATE);
    for (index, game) in states.iter().enumerate() {
        let w = game.position().legal_moves_for(Color::White);
        let b = game.position().legal_moves_for(Color::Black);
        for _ in 0..PAIRS_PER_STATE {
            let (i, j) = rng.pick2(w.len(), b.len());
            pairs.push((index, w[i], b[j]));
        }
    }
    pairs
}

/// Pair resolutions per second over `states` with the choices generated
/// beforehand ([`picked_pairs`]): the cost of resolving alone.
pub fn measure_resolutions_only(states: &[SyncGame], seconds: f64) -> f64 {
    let pairs = picked_pairs(states);
    let mut events = Vec::with_capacity(16);
    let start = std::time::Instant::now();
    let mut done = 0u64;
    let mut sink = 0usize;
    while start.elapsed().as_secs_f64() < seconds {
        for &(index, w, b) in &pairs {
            let next = states[index].resolve_legal_pair_into(w, b, &mut events);
            sink = sink.wrapping_add(events.len() + next.pair_number() as usize);
            done += 1;
        }
    }
    std::hint::black_box(sink);
    done as f64 / start.elapsed().as_secs_f64()
}

#[cfg(test)]
mod tests {
    use tempo_chess::{Color, MoveList, MoveSet};

    use super::{PickRng, PlayoutDriver, generate_pick_resolve, sample_pair_states};
    use crate::PairMoves;
    use crate::{Rules, Variant};

    /// The one-pass generation of both lists (the lists behind the sets of
    /// the bench, and the path the trace digests pin) gives each player's
    /// choices exactly (same moves, same order) on playout states, with
    /// their checks, pauses and en-passant squares.
    #[test]
    fn both_lists_in_one_pass_equal_each_players_moves() {
        let (mut white, mut black) = (MoveList::new(), MoveList::new());
        for variant in [Variant::Synchronschach, Variant::Fairschach] {
            for game in sample_pair_states(Rules::new(variant), 3000, 17) {
                game.position()
                    .legal_moves_both_into(&mut white, &mut black);
                assert_eq!(&white[..], &game.legal_moves(Color::White)[..]);
                assert_eq!(&black[..], &game.legal_moves(Color::Black)[..]);
            }
        }
    }

    /// The bench's sets of both players' moves hold each player's choices
    /// exactly (same moves, same order, `get` agreeing with the order) on
    /// playout states, with their checks, pauses and en-passant squares.
    #[test]
    fn both_sets_in_one_pass_equal_each_players_moves() {
        let (mut white, mut black) = (MoveSet::new(), MoveSet::new());
        for variant in [Variant::Synchronschach, Variant::Fairschach] {
            for game in sample_pair_states(Rules::new(variant), 3000, 19) {
                game.position()
                    .legal_move_sets_both_into(&mut white, &mut black);
                for (set, color) in [(&white, Color::White), (&black, Color::Black)] {
                    let list = game.legal_moves(color);
                    assert_eq!(set.len(), list.len());
                    assert!(set.iter().eq(list.iter().copied()));
                    for (i, &mv) in list.iter().enumerate() {
                        assert_eq!(set.get(i), Some(mv));
                    }
                }
            }
        }
    }

    /// The bench's pair step plays the moves the lists hold at the picked
    /// indices (the step before the compact sets), with the same events.
    #[test]
    fn pair_step_picks_the_listed_moves() {
        let mut moves = PairMoves::new();
        let (mut wl, mut bl) = (MoveList::new(), MoveList::new());
        let (mut events, mut listed_events) = (Vec::new(), Vec::new());
        for variant in [Variant::Synchronschach, Variant::Fairschach] {
            let states = sample_pair_states(Rules::new(variant), 1000, 5);
            let (mut rng, mut listed_rng) = (PickRng::new(8), PickRng::new(8));
            for game in &states {
                let next = generate_pick_resolve(game, &mut rng, &mut moves, &mut events);
                game.position().legal_moves_both_into(&mut wl, &mut bl);
                let (i, j) = listed_rng.pick2(wl.len(), bl.len());
                let listed = game.resolve_legal_pair_into(wl[i], bl[j], &mut listed_events);
                assert_eq!(events, listed_events);
                assert_eq!(next.position(), listed.position());
            }
        }
    }

    /// The driver's playouts: every state at the start of a pair comes
    /// with both players' moves exactly (the sets made by the mate test of
    /// the resolution before, or at a new game or after an exchange), and
    /// the driver plays through exchanges and new games.
    #[test]
    fn playout_driver_keeps_each_pairs_moves() {
        for variant in [Variant::Synchronschach, Variant::Fairschach] {
            let mut driver = PlayoutDriver::new(Rules::new(variant), 3);
            let (mut games, mut exchanges) = (0, 0);
            for _ in 0..6000 {
                let before = driver.game().pair_number();
                driver.play(1);
                let game = driver.game();
                if game.phase().is_pair() {
                    for color in [Color::White, Color::Black] {
                        let list = game.legal_moves(color);
                        assert!(driver.moves().of(color).iter().eq(list.iter().copied()));
                    }
                } else if matches!(game.phase(), crate::Phase::Exchange(_)) {
                    exchanges += 1;
                }
                if game.pair_number() < before {
                    games += 1;
                }
            }
            assert!(games > 3, "{variant}: {games} new games");
            if variant == Variant::Synchronschach {
                assert!(exchanges > 50, "{exchanges} exchange phases");
            }
        }
    }

    /// The picks stay in range, cover every index and are reproducible.
    #[test]
    fn picks_cover_the_range_reproducibly() {
        let mut rng = PickRng::new(3);
        let mut seen = [[0u32; 7]; 2];
        for _ in 0..7000 {
            let (i, j) = rng.pick2(7, 5);
            assert!(i < 7 && j < 5);
            seen[0][i] += 1;
            seen[1][j] += 1;
        }
        assert!(seen[0].iter().all(|&n| n > 800));
        assert!(seen[1][..5].iter().all(|&n| n > 1100));
        let (mut a, mut b) = (PickRng::new(9), PickRng::new(9));
        assert!((0..100).all(|_| a.pick2(40, 30) == b.pick2(40, 30)));
        assert_eq!(PickRng::new(1).pick2(1, 1), (0, 0));
    }
}
