//! The bracket-by-bracket procedure (C.04.3 sections 3 and 4) on top of one
//! maximum-weight matching over all players of the round.
//!
//! The matching always covers the whole round, so every bracket is paired
//! knowing the rest can be completed (C4). Brackets are processed top-down;
//! in each, the weights of the bracket and of the next scoregroup are set,
//! and then the choices the handbook makes by its generation order are fixed
//! one after another, each by re-solving with a small bonus on the edges of
//! one player:
//!
//! 1. which moved-down players are paired in the bracket (highest first,
//!    4.3.x: MDPs are paired in order),
//! 2. their opponents (highest possible in S2 order),
//! 3. in the remainder, the fewest exchanges and the smallest difference of
//!    the exchanged BSNs (4.3.3), choosing the lowest S1 players to move
//!    down and the highest S2 players to move up,
//! 4. each S1 player's opponent (transpositions: the highest possible S2
//!    player, 4.2).
//!
//! Every fixed choice keeps the optimum of all higher criteria, so the
//! result does not depend on which optimal matching the solver returns.

use std::collections::HashMap;

use super::blossom::Blossom;
use super::weights::WeightContext;
use super::wide::Weight;

/// The pairs found (indices into the prepared players) and the unpaired
/// player, or `None` when no pairing satisfies the absolute criteria.
pub(crate) struct RawPairing {
    pub pairs: Vec<(usize, usize)>,
    pub bye: Option<usize>,
}

/// Pair the players (already sorted by score and rank).
pub(crate) fn run<W: Weight>(ctx: &mut WeightContext<'_>) -> Option<RawPairing> {
    let n = ctx.players.len();
    if n == 0 {
        return Some(RawPairing {
            pairs: Vec::new(),
            bye: None,
        });
    }
    let players = ctx.players;
    let score = |v: usize| players[v].score;
    let top_score = players[0].score;
    let mut m: Blossom<W> = Blossom::new(n);

    // Phase 1 (C4, C5): can the round be completed, and at which score does
    // the PAB go?
    for p in 0..n {
        for o in 0..p {
            let w = if n % 2 == 1 {
                ctx.bye_phase_weight::<W>(p, o, top_score)
            } else {
                ctx.weight::<W>(o, p, false, false)
            };
            m.set_weight(p, o, w);
        }
    }
    m.solve();
    let first = m.matching();
    // C4 and C2: everyone paired but at most one, who may get the PAB.
    let unmatched: Vec<usize> = (0..n).filter(|&v| first[v] == v).collect();
    if unmatched.len() > n % 2 || unmatched.iter().any(|&v| !players[v].bye_eligible) {
        return None;
    }
    let mut played_ranks = HashMap::new();
    if n % 2 == 1 {
        let bye = (0..n)
            .find(|&v| first[v] == v)
            .expect("odd round has a PAB");
        ctx.bye_score = score(bye);
        // C9 applies from the first bracket when the PAB goes to the top
        // scoregroup, which then has a single downfloater.
        ctx.single_downfloater_is_bye = ctx.bye_score >= top_score
            && (0..n)
                .take_while(|&v| score(v) >= top_score)
                .all(|v| score(first[v]) >= top_score);
        // C9: the PAB receiver should have as few unplayed games as
        // possible, so pairing players with more unplayed games (fewer
        // played ones) scores higher.
        let mut counts: Vec<u32> = (0..n)
            .filter(|&v| score(v) == ctx.bye_score)
            .map(|v| players[v].played_games)
            .collect();
        counts.sort_unstable_by(|a, b| b.cmp(a));
        for (rank, c) in counts.into_iter().enumerate() {
            played_ranks.insert(c, rank as u32);
        }
        let wctx = WeightContext {
            layout: ctx.layout,
            players,
            forbidden: ctx.forbidden,
            bye_score: ctx.bye_score,
            single_downfloater_is_bye: ctx.single_downfloater_is_bye,
            played_ranks: &played_ranks,
        };
        for p in 0..n {
            for o in 0..p {
                m.set_weight(p, o, wctx.weight::<W>(o, p, false, false));
            }
        }
    }
    let played_ranks = played_ranks;
    let mut bracket_state = Brackets {
        m,
        n,
        matched: vec![false; n],
        mate_of: vec![None; n],
    };
    bracket_state.pair_all(ctx, &played_ranks);
    let mut pairs = Vec::new();
    let mut bye = None;
    for v in 0..n {
        match bracket_state.mate_of[v] {
            Some(o) if v < o => pairs.push((v, o)),
            Some(_) => {}
            None => bye = Some(v),
        }
    }
    Some(RawPairing { pairs, bye })
}

struct Brackets<W: Weight> {
    m: Blossom<W>,
    n: usize,
    matched: Vec<bool>,
    mate_of: Vec<Option<usize>>,
}

impl<W: Weight> Brackets<W> {
    fn solve(&mut self) -> Vec<usize> {
        self.m.solve();
        self.m.matching()
    }

    /// Fix the pair `{a, b}`: it keeps a positive edge, every other edge of
    /// both is removed.
    fn finalize_pair(&mut self, a: usize, b: usize) {
        if self.m.retire_pair(a, b) {
            return;
        }
        let keep = self.m.weight(a, b);
        let keep = if keep.is_zero() { W::from_u64(1) } else { keep };
        for x in 0..self.n {
            if x != a && x != b {
                self.m.set_weight(a, x, W::zero());
                self.m.set_weight(b, x, W::zero());
            }
        }
        self.m.set_weight(a, b, keep);
    }

    fn pair_all(&mut self, ctx: &mut WeightContext<'_>, played_ranks: &HashMap<u32, u32>) {
        let n = self.n;
        let players = ctx.players;
        let score = |v: usize| players[v].score;
        // Vertices of the current bracket followed by the next scoregroup.
        let mut bracket: Vec<usize> = (0..n).take_while(|&v| score(v) >= score(0)).collect();
        let mut next_group = bracket.len();
        let mut mdp_count = 0usize; // moved-down players at the front of `bracket`
        let mut group_begin_vertex = 0usize;
        let mut stable: Vec<usize>;

        while bracket.len() > 1 || next_group < n {
            let next_begin = bracket.len();
            let next_begin_vertex = group_begin_vertex + (next_begin - mdp_count);
            let group_start = next_group;
            while next_group < n && score(next_group) >= score(group_start) {
                bracket.push(next_group);
                next_group += 1;
            }
            let in_bracket = |v: usize| v >= group_begin_vertex && v < next_begin_vertex;
            let forward =
                |stable: &[usize], v: usize| stable[v] > v && stable[v] < next_begin_vertex;

            // Base weights: base[larger][smaller] by bracket position.
            let size = bracket.len();
            let wctx = WeightContext {
                layout: ctx.layout,
                players: ctx.players,
                forbidden: ctx.forbidden,
                bye_score: ctx.bye_score,
                single_downfloater_is_bye: ctx.single_downfloater_is_bye,
                played_ranks,
            };
            let mut base: Vec<Vec<W>> = vec![Vec::new(); size];
            for larger in mdp_count..size {
                base[larger] = (0..larger)
                    .map(|smaller| {
                        wctx.weight::<W>(
                            bracket[smaller],
                            bracket[larger],
                            larger < next_begin,
                            larger >= next_begin,
                        )
                    })
                    .collect();
                for smaller in 0..larger {
                    self.m
                        .set_weight(bracket[larger], bracket[smaller], base[larger][smaller]);
                }
            }
            let s = ctx.layout.s;
            let remainder_weight = |base: &Vec<Vec<W>>,
                                    smaller: usize,
                                    larger: usize,
                                    index: usize,
                                    pairs: usize|
             -> W {
                let w = base[larger][smaller];
                if w.is_zero() {
                    return w;
                }
                let addend = W::from_u64((index < pairs) as u64)
                    .shl(2 * s)
                    .sub(W::from_u64(index as u64))
                    .shl(1);
                w.add(addend)
            };

            stable = self.solve();

            // 1. Which moved-down players are paired in this bracket.
            let mut group_score = 0;
            let mut remaining = 0usize;
            let mut remaining_matched = 0usize;
            for pi in 0..mdp_count {
                let v = bracket[pi];
                if pi == 0 || score(v) < group_score {
                    group_score = score(v);
                    remaining = 0;
                    remaining_matched = 0;
                    let mut k = pi;
                    while k < size && score(bracket[k]) >= group_score {
                        remaining += 1;
                        if in_bracket(stable[bracket[k]]) {
                            remaining_matched += 1;
                        }
                        k += 1;
                    }
                }
                if remaining_matched == 0 {
                    continue;
                }
                if remaining <= remaining_matched {
                    self.matched[v] = true;
                    continue;
                }
                remaining -= 1;
                if !in_bracket(stable[v]) {
                    for oi in mdp_count..next_begin {
                        let w = base[oi][pi];
                        if !w.is_zero() {
                            self.m.set_weight(v, bracket[oi], set_low_bit(w));
                        }
                    }
                    stable = self.solve();
                }
                if in_bracket(stable[v]) {
                    self.matched[v] = true;
                    remaining_matched -= 1;
                    for oi in mdp_count..next_begin {
                        let w = base[oi][pi];
                        if !w.is_zero() {
                            let w =
                                or_small(w, (next_begin - mdp_count) as u64).add(W::from_u64(1));
                            self.m.set_weight(v, bracket[oi], w);
                        }
                    }
                }
            }

            // 2. The opponents of the moved-down players.
            for pi in 0..mdp_count {
                let v = bracket[pi];
                if !self.matched[v] {
                    continue;
                }
                let mut addend = size as u64;
                for oi in (mdp_count..next_begin).rev() {
                    let o = bracket[oi];
                    if self.matched[o] {
                        continue;
                    }
                    let w = base[oi][pi];
                    if !w.is_zero() {
                        self.m.set_weight(v, o, w.add(W::from_u64(addend)));
                        addend += 1;
                    }
                }
                stable = self.solve();
                let mate = stable[v];
                self.matched[mate] = true;
                self.finalize_pair(v, mate);
            }

            // 3. The remainder: S1 / S2 and exchanges.
            let mut remainder: Vec<usize> = Vec::new();
            let mut remainder_pairs = 0usize;
            for (pi, &v) in bracket.iter().enumerate().take(next_begin).skip(mdp_count) {
                if stable[v] < group_begin_vertex {
                    continue;
                }
                remainder.push(pi);
                if stable[v] < v {
                    remainder_pairs += 1;
                }
            }
            if !remainder.is_empty() {
                for (oi_pos, &oi) in remainder.iter().enumerate() {
                    for (pi_pos, &pi) in remainder[..oi_pos].iter().enumerate() {
                        let w = remainder_weight(&base, pi, oi, pi_pos, remainder_pairs);
                        self.m.set_weight(bracket[pi], bracket[oi], w);
                    }
                }
                stable = self.solve();
                let first_group_end = remainder[remainder_pairs.min(remainder.len() - 1)];
                let mut exchange_count = 0usize;
                for &pi in &remainder {
                    if pi >= first_group_end || remainder_pairs == remainder.len() {
                        break;
                    }
                    let v = bracket[pi];
                    exchange_count += (!forward(&stable, v)) as usize;
                }

                // Lowest S1 players to be exchanged.
                let mut left = exchange_count;
                let mut pos = remainder_pairs;
                while pos > 0 && left > 0 {
                    pos -= 1;
                    let pi = remainder[pos];
                    let v = bracket[pi];
                    if forward(&stable, v) {
                        for &oi in &remainder[pos + 1..] {
                            let w = remainder_weight(&base, pi, oi, pos, remainder_pairs);
                            if !w.is_zero() {
                                self.m.set_weight(v, bracket[oi], w.sub(W::from_u64(1)));
                            }
                        }
                        stable = self.solve();
                    }
                    let exchange = !forward(&stable, v);
                    left -= exchange as usize;
                    for &oi in &remainder[pos + 1..] {
                        if exchange {
                            base[oi][pi] = W::zero();
                        }
                        let w = remainder_weight(&base, pi, oi, pos, remainder_pairs);
                        self.m.set_weight(v, bracket[oi], w);
                    }
                }

                // Highest S2 players to be exchanged.
                let mut left = exchange_count;
                let mut pos = remainder_pairs;
                while pos < remainder.len() && left > 1 {
                    let pi = remainder[pos];
                    let v = bracket[pi];
                    let already = forward(&stable, v);
                    if !already {
                        for &oi in &remainder[pos + 1..] {
                            let w = remainder_weight(&base, pi, oi, pos, remainder_pairs);
                            if !w.is_zero() {
                                self.m.set_weight(v, bracket[oi], w.add(W::from_u64(1)));
                            }
                        }
                        stable = self.solve();
                    }
                    let exchange = forward(&stable, v);
                    if exchange {
                        left -= 1;
                        for &oi in &remainder[..pos] {
                            base[pi][oi] = W::zero();
                            self.m.set_weight(v, bracket[oi], W::zero());
                        }
                        for oi in next_begin..size {
                            base[oi][pi] = W::zero();
                            self.m.set_weight(v, bracket[oi], W::zero());
                        }
                    }
                    if !already {
                        for &oi in &remainder[pos + 1..] {
                            let w = remainder_weight(&base, pi, oi, pos, remainder_pairs);
                            self.m.set_weight(v, bracket[oi], w);
                        }
                    }
                    pos += 1;
                }

                // Fix S1 and S2: only S1 -> S2 edges keep their weight.
                for (a_pos, &pi) in remainder.iter().enumerate() {
                    let pv = bracket[pi];
                    for &oi in &remainder[a_pos + 1..] {
                        let ov = bracket[oi];
                        if !forward(&stable, pv) || forward(&stable, ov) {
                            base[oi][pi] = W::zero();
                        }
                        self.m.set_weight(pv, ov, base[oi][pi]);
                    }
                }

                // 4. Each S1 player's opponent: the highest possible.
                for &pi in &remainder {
                    let pv = bracket[pi];
                    if !forward(&stable, pv) {
                        continue;
                    }
                    let mut addend = 0u64;
                    for &oi in remainder.iter().rev() {
                        let ov = bracket[oi];
                        if oi <= pi || self.matched[ov] {
                            continue;
                        }
                        let w = base[oi][pi];
                        if !w.is_zero() {
                            self.m.set_weight(pv, ov, w.add(W::from_u64(addend)));
                        }
                        addend += 1;
                    }
                    stable = self.solve();
                    let mate = stable[pv];
                    self.matched[pv] = true;
                    self.matched[mate] = true;
                    self.finalize_pair(pv, mate);
                }
            }

            // The next bracket: downfloaters, then the next scoregroup.
            let mut next_bracket = Vec::new();
            mdp_count = 0;
            // C9 applies to the next bracket when its downfloater is the PAB
            // receiver: the PAB score is at least that bracket's score and no
            // player carried into it is (in the stable matching) paired
            // below it, so all lower players pair among themselves.
            let next_score = (group_start < n).then(|| score(group_start));
            ctx.single_downfloater_is_bye =
                n % 2 == 1 && next_score.is_some_and(|s| ctx.bye_score >= s);
            for (pi, &v) in bracket.iter().enumerate() {
                if pi < next_begin && self.matched[v] {
                    self.mate_of[v] = Some(stable[v]);
                    self.mate_of[stable[v]] = Some(v);
                } else {
                    next_bracket.push(v);
                    if pi < next_begin {
                        mdp_count += 1;
                    }
                    if next_score.is_some_and(|s| score(stable[v]) < s) {
                        ctx.single_downfloater_is_bye = false;
                    }
                }
            }
            bracket = next_bracket;
            group_begin_vertex = next_begin_vertex;
        }
    }
}

fn set_low_bit<W: Weight>(w: W) -> W {
    if w.half().double() == w {
        w.add(W::from_u64(1))
    } else {
        w
    }
}

/// `w | small`, for a `small` that fits the ordering room.
fn or_small<W: Weight>(w: W, small: u64) -> W {
    let mut out = w;
    let mut bit = 0u32;
    let mut rest = small;
    while rest > 0 {
        if rest & 1 == 1 {
            let shifted = shr(w, bit);
            if shifted.half().double() == shifted {
                out = out.add(W::bit(bit));
            }
        }
        rest >>= 1;
        bit += 1;
    }
    out
}

fn shr<W: Weight>(w: W, bits: u32) -> W {
    let mut x = w;
    for _ in 0..bits {
        x = x.half();
    }
    x
}
