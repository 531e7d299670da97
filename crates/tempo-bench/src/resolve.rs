//! Pair resolutions from sampled states: with the moves generated per
//! pair ([`PairDriver`]) or beforehand ([`ResolveDriver`]).

use tempo_chess::Color;
use tempo_sync::{Choice, Event, Node, SyncGame};
use tempo_testkit::PickRng;

/// The pair loop of [`measure_resolutions`]: a seeded pick generator and
/// the buffers reused from pair to pair (no allocation in the loop). One
/// driver per measurement, so that every measurement draws the same
/// pairs.
#[derive(Debug)]
pub struct PairDriver {
    rng: PickRng,
    leaf: SyncGame,
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
            leaf: Node::default().into_game(),
            events: Vec::with_capacity(16),
        }
    }

    /// One pair from each of `states` (at the start of a pair): both
    /// players' moves generated (a node borrowing the state), one of each
    /// picked, the pair resolved into a bare state. Returns a checksum of
    /// the results.
    #[inline]
    pub fn pass(&mut self, states: &[SyncGame]) -> usize {
        let Some(first) = states.first() else {
            return 0;
        };
        let mut node = Node::new(first);
        let mut sink = 0usize;
        for game in states {
            node.set(game);
            let (white, black) = (node.moves(Color::White), node.moves(Color::Black));
            let (i, j) = self.rng.pick2(white.len(), black.len());
            let Some((w, b)) = node.pair(i, j) else {
                unreachable!("indices below the set sizes");
            };
            node.play(
                Some(Choice::Move(w)),
                Some(Choice::Move(b)),
                &mut self.leaf,
                &mut self.events,
            );
            sink = sink.wrapping_add(self.events.len() + self.leaf.pair_number() as usize);
        }
        sink
    }
}

/// Pair resolutions per second over `states` for about `seconds`
/// (passes of a [`PairDriver`]).
pub fn measure_resolutions(states: &[SyncGame], seconds: f64) -> f64 {
    let mut driver = PairDriver::new();
    crate::rate(seconds, || (states.len() as u64, driver.pass(states)))
}

/// Random pairs picked per state by [`ResolveDriver`].
pub const PAIRS_PER_STATE: usize = 16;

/// The loop of [`measure_resolutions_only`]: a node per state, its moves
/// generated once, and [`PAIRS_PER_STATE`] pairs of move indices per
/// state picked with a fixed seed.
#[derive(Debug)]
pub struct ResolveDriver {
    nodes: Vec<Node>,
    /// (node, White's move, Black's move).
    pairs: Vec<(usize, Choice, Choice)>,
    leaf: SyncGame,
    events: Vec<Event>,
}

impl ResolveDriver {
    /// The nodes of `states` (each at the start of a pair) and their
    /// picked pairs.
    pub fn new(states: &[SyncGame]) -> ResolveDriver {
        let mut rng = PickRng::new(0x2545_F491_4F6C_DD1D);
        let nodes: Vec<Node> = states.iter().cloned().map(Node::new).collect();
        let mut pairs = Vec::with_capacity(states.len() * PAIRS_PER_STATE);
        for (index, node) in nodes.iter().enumerate() {
            let (white, black) = (node.moves(Color::White), node.moves(Color::Black));
            for _ in 0..PAIRS_PER_STATE {
                let (i, j) = rng.pick2(white.len(), black.len());
                let (w, b) = node.pair(i, j).expect("indices below the set sizes");
                pairs.push((index, Choice::Move(w), Choice::Move(b)));
            }
        }
        ResolveDriver {
            leaf: states
                .first()
                .cloned()
                .unwrap_or_else(|| Node::default().into_game()),
            nodes,
            pairs,
            events: Vec::with_capacity(16),
        }
    }

    /// The number of pairs a pass resolves.
    pub fn pairs(&self) -> usize {
        self.pairs.len()
    }

    /// Resolves every picked pair once; returns a checksum of the results.
    pub fn pass(&mut self) -> usize {
        let mut sink = 0usize;
        for &(index, white, black) in &self.pairs {
            self.nodes[index].play(Some(white), Some(black), &mut self.leaf, &mut self.events);
            sink = sink.wrapping_add(self.events.len() + self.leaf.pair_number() as usize);
        }
        sink
    }
}

/// Pair resolutions per second over `states` with the choices generated
/// beforehand ([`ResolveDriver`]): the cost of resolving alone.
pub fn measure_resolutions_only(states: &[SyncGame], seconds: f64) -> f64 {
    let mut driver = ResolveDriver::new(states);
    let pairs = driver.pairs() as u64;
    crate::rate(seconds, || (pairs, driver.pass()))
}

#[cfg(test)]
mod tests {
    use tempo_chess::MoveList;
    use tempo_sync::playout::sample_pair_states;
    use tempo_sync::{Rules, Variant};

    use super::*;

    /// The pair step plays the moves the lists hold at the picked
    /// indices, with the events of the checked resolution.
    #[test]
    fn pair_step_picks_the_listed_moves() {
        let (mut wl, mut bl) = (MoveList::new(), MoveList::new());
        for variant in [Variant::Synchronschach, Variant::Fairschach] {
            let states = sample_pair_states(Rules::new(variant), 1000, 5);
            let mut driver = PairDriver::new();
            let mut listed_rng = PickRng::new(0x9E37_79B9_7F4A_7C15);
            for game in &states {
                driver.pass(std::slice::from_ref(game));
                game.position().legal_moves_both_into(&mut wl, &mut bl);
                let (i, j) = listed_rng.pick2(wl.len(), bl.len());
                let (w, b) = (Choice::Move(wl[i]), Choice::Move(bl[j]));
                let (listed, events) = game.resolve(Some(w), Some(b)).expect("legal moves");
                assert_eq!(driver.events, events);
                assert_eq!(driver.leaf.position(), listed.position());
            }
        }
    }

    /// A resolution pass resolves the picked pairs as the checked entry
    /// does.
    #[test]
    fn resolve_driver_resolves_legal_pairs() {
        let states = sample_pair_states(Rules::new(Variant::Synchronschach), 100, 7);
        let mut driver = ResolveDriver::new(&states);
        assert_eq!(driver.pairs(), 100 * PAIRS_PER_STATE);
        driver.pass();
        let &(index, white, black) = driver.pairs.last().expect("pairs");
        let (last, _) = states[index]
            .resolve(Some(white), Some(black))
            .expect("legal");
        assert_eq!(driver.leaf.position(), last.position());
    }
}
