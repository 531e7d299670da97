//! Random playouts, pair after pair: the loop of an engine's playouts.

use tempo_chess::Color;
use tempo_sync::{Choice, Event, Expected, Node, Phase, Rules, SyncGame};
use tempo_testkit::PickRng;

/// Random playouts, pair after pair. Each pair draws one move of each
/// player from the current [`Node`] and plays them into the other of two
/// nodes, which receives the new state's moves from its mate and
/// stalemate test: the next pair's choices. A pair allocates nothing
/// but, every eighth reversible pair, a chunk of the repetition history.
///
/// Games start alternately from the orthodox set-up and Chess960
/// positions. Exchange steps (Synchronschach, S5-S7) are played with
/// random choices; a game that ends, or leaves simultaneous play (FSR 8),
/// is followed by a new one. Only pairs count; the rest is done in the
/// measured time too.
#[derive(Debug)]
pub struct PlayoutDriver {
    rules: Rules,
    rng: PickRng,
    /// The current node and the one the next step is played into.
    nodes: [Node; 2],
    current: usize,
    events: Vec<Event>,
    games: u32,
}

impl PlayoutDriver {
    /// A driver whose playouts are drawn from `seed`.
    pub fn new(rules: Rules, seed: u64) -> PlayoutDriver {
        let node = Node::new(SyncGame::new(rules));
        PlayoutDriver {
            rules,
            rng: PickRng::new(seed ^ 0x9E37_79B9_7F4A_7C15),
            nodes: [node.clone(), node],
            current: 0,
            events: Vec::with_capacity(16),
            games: 1,
        }
    }

    /// The current state and its moves.
    pub fn node(&self) -> &Node {
        &self.nodes[self.current]
    }

    /// Plays `pairs` pairs; returns a checksum of the results (so that no
    /// work can be left out).
    pub fn play(&mut self, pairs: u64) -> usize {
        let mut sink = 0usize;
        let mut done = 0;
        while done < pairs {
            let node = &self.nodes[self.current];
            if node.game().phase().is_pair() {
                let (white, black) = (node.moves(Color::White), node.moves(Color::Black));
                let (i, j) = self.rng.pick2(white.len(), black.len());
                let Some((w, b)) = node.pair(i, j) else {
                    unreachable!("indices below the set sizes of a pair in play");
                };
                self.step(Some(Choice::Move(w)), Some(Choice::Move(b)));
                sink = sink.wrapping_add(self.events.len());
                done += 1;
            } else {
                self.step_between_pairs();
            }
        }
        sink.wrapping_add(self.node().game().pair_number() as usize)
    }

    /// Plays the current node's step into the other node, which becomes
    /// the current one.
    #[inline(always)]
    fn step(&mut self, white: Option<Choice>, black: Option<Choice>) {
        let [first, second] = &mut self.nodes;
        let (from, to) = if self.current == 0 {
            (&*first, second)
        } else {
            (&*second, first)
        };
        from.play(white, black, to, &mut self.events);
        self.current ^= 1;
    }

    /// Moves on from a state that is not at the start of a pair: an
    /// exchange step with random choices, or a new game.
    #[cold]
    fn step_between_pairs(&mut self) {
        if let Phase::Exchange(_) = self.node().game().phase() {
            let [white, black] = Color::ALL.map(|color| self.random_exchange_choice(color));
            self.step(white, black);
        } else {
            let game = if self.games.is_multiple_of(2) {
                SyncGame::new(self.rules)
            } else {
                SyncGame::chess960(self.rules, (self.games % 960) as u16).expect("0..960")
            };
            self.games = self.games.wrapping_add(1);
            self.nodes[self.current].set(&game);
        }
    }

    /// A uniformly random choice of `color` in an exchange step: one of
    /// its captures or the decline (`None` if it has nothing to choose),
    /// without allocating the list of [`SyncGame::choices`].
    fn random_exchange_choice(&mut self, color: Color) -> Option<Choice> {
        let game = self.nodes[self.current].game();
        if game.expected(color) == Expected::Nothing {
            return None;
        }
        let captures = game.legal_moves(color);
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
    crate::rate(seconds, || (PAIRS_PER_CHECK, driver.play(PAIRS_PER_CHECK)))
}

/// Pairs between two looks at the clock in [`measure_playout_pairs`].
const PAIRS_PER_CHECK: u64 = 2000;

#[cfg(test)]
mod tests {
    use tempo_sync::Variant;

    use super::*;

    /// The driver's playouts: every state at the start of a pair comes
    /// with both players' moves exactly, and the driver plays through
    /// exchanges and new games.
    #[test]
    fn playout_driver_keeps_each_pairs_moves() {
        for variant in [Variant::Synchronschach, Variant::Fairschach] {
            let mut driver = PlayoutDriver::new(Rules::new(variant), 3);
            let (mut games, mut exchanges) = (0, 0);
            for _ in 0..6000 {
                let before = driver.node().game().pair_number();
                driver.play(1);
                let node = driver.node();
                let game = node.game();
                if game.phase().is_pair() {
                    for color in Color::ALL {
                        let list = game.legal_moves(color);
                        assert!(node.moves(color).iter().eq(list.iter().copied()));
                    }
                } else if matches!(game.phase(), Phase::Exchange(_)) {
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
}
