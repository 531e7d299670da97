//! Maximum-weight perfect matching on a complete graph, re-solvable after
//! edge-weight changes.
//!
//! Why not the general matcher in `crate::matching`: the Dutch engine solves
//! one graph (all players of the round) hundreds of times, each time after
//! changing the weights of a few vertices' edges, and its weights are wide
//! integers ([`super::wide::Wide`]). This solver is Edmonds' primal-dual
//! blossom algorithm in its O(n³) dense form, generic over the weight type,
//! with a warm start: after weight changes only the vertices concerned are
//! freed (the blossoms around them are dissolved with their duals pushed down
//! to the vertices, which keeps the dual feasible), and the search resumes
//! from the current matching and duals.
//!
//! The graph is complete; weight 0 means "no real edge". A perfect matching
//! always exists (an odd vertex count gets a dummy vertex), and a maximum
//! weight perfect matching restricted to its positive edges is a maximum
//! weight matching. Dual values are free (perfect matching), so exposed
//! vertices need not share a dual value; a stage grows its forest from two
//! exposed vertices of equal dual parity ([`ROOTS_PER_STAGE`]), which keeps
//! every dual change integral.
//!
//! Weights are stored once per distinct value: each ordered vertex pair
//! holds a 4-byte index into the table of values, row by row, so a scan of
//! one vertex's edges reads memory in order.

use std::collections::{HashMap, VecDeque};

use super::wide::Weight;

const NONE: u32 = 0;

/// How many exposed vertices a stage grows its alternating forest from.
///
/// Dual values are free here, so the forest need not hold every exposed
/// vertex: a root-limited forest stays sound as long as its roots share the
/// parity of their duals (then every dual step is integral), and reaching an
/// exposed vertex outside it is an augmenting path. After a warm start many
/// vertices are exposed at once; growing from all of them makes each stage
/// scan every root before the first augmentation, so the stages cost
/// quadratically in the exposed count. Two roots are best on the Dutch
/// engine's rounds (one root makes the trees deep, more roots rescan roots;
/// docs/performance.md). The matching's weight does not depend on it,
/// and the engine's pairing does not depend on which optimum is returned.
const ROOTS_PER_STAGE: usize = 2;

/// A warm-startable maximum-weight matching on the complete graph over
/// vertices `0..len`.
pub(crate) struct Blossom<W: Weight> {
    /// Real vertex count.
    real: usize,
    /// Vertex count including the dummy (even).
    n: usize,
    /// Highest blossom index in use.
    nx: usize,
    /// For every ordered pair of vertices (row-major, 0-based, `n` by
    /// `n`), the index of its doubled weight (the dual constraints use 2w)
    /// in `values`. Few distinct weights exist, so a row of small indices
    /// replaces a row of wide integers: the scans read 4 bytes per edge
    /// instead of a whole wide integer, in memory order.
    weight_ids: Vec<u32>,
    /// The distinct doubled weights; index 0 is zero.
    values: Vec<W>,
    value_ids: HashMap<W, u32>,
    lab: Vec<W>,
    mate: Vec<u32>,
    slack: Vec<u32>,
    /// `e_delta` of the edge `slack[x]`–`x`, kept up to date through dual
    /// changes.
    slack_val: Vec<W>,
    st: Vec<u32>,
    pa: Vec<u32>,
    parent: Vec<u32>,
    label: Vec<i8>,
    vis: Vec<u32>,
    vis_stamp: u32,
    flower: Vec<Vec<u32>>,
    /// For blossom `b`, row `b - n - 1` of length `n + 1`: the child of `b`
    /// containing each vertex.
    flower_from: Vec<u32>,
    /// For blossom `b`, row `b - n - 1` of length `2n + 1`: the
    /// representative (least-slack) edge from `b` to every index.
    rep: Vec<(u32, u32)>,
    queue: VecDeque<u32>,
    /// Scratch for `add_blossom`: the slack of each new representative edge.
    rep_slack: Vec<W>,
    dirty: Vec<bool>,
    dirty_list: Vec<u32>,
    solved: bool,
    /// The vertices still in the problem, ascending; retired pairs
    /// ([`Blossom::retire_pair`]) are left out of every scan.
    active: Vec<u32>,
    retired: Vec<bool>,
}

impl<W: Weight> Blossom<W> {
    /// A graph on `len` vertices with all weights zero.
    pub(crate) fn new(len: usize) -> Self {
        let n = len + (len & 1);
        let size = 2 * n + 1;
        Blossom {
            real: len,
            n,
            nx: n,
            weight_ids: vec![0; n * n],
            values: vec![W::zero()],
            value_ids: HashMap::from([(W::zero(), 0)]),
            lab: vec![W::zero(); size],
            mate: vec![NONE; size],
            slack: vec![NONE; size],
            slack_val: vec![W::zero(); size],
            st: (0..size as u32).collect(),
            pa: vec![NONE; size],
            parent: vec![NONE; size],
            label: vec![-1; size],
            vis: vec![0; size],
            vis_stamp: 0,
            flower: vec![Vec::new(); size],
            flower_from: vec![NONE; n * (n + 1)],
            rep: vec![(NONE, NONE); n * size],
            queue: VecDeque::new(),
            rep_slack: vec![W::zero(); size],
            dirty: vec![false; n + 1],
            dirty_list: Vec::new(),
            solved: false,
            active: (1..=n as u32).collect(),
            retired: vec![false; n + 1],
        }
    }

    /// Twice the weight of edge `{u, v}` (1-based).
    #[inline(always)]
    fn w2(&self, u: u32, v: u32) -> W {
        self.values[self.weight_ids[(u as usize - 1) * self.n + v as usize - 1] as usize]
    }

    fn value_id(&mut self, value: W) -> u32 {
        if let Some(&id) = self.value_ids.get(&value) {
            return id;
        }
        let id = self.values.len() as u32;
        self.values.push(value);
        self.value_ids.insert(value, id);
        id
    }

    /// The weight of edge `{u, v}` (0-based).
    pub(crate) fn weight(&self, u: usize, v: usize) -> W {
        self.w2(u as u32 + 1, v as u32 + 1).half()
    }

    /// Set the weight of edge `{u, v}` (0-based, `u != v`).
    pub(crate) fn set_weight(&mut self, u: usize, v: usize, weight: W) {
        let (a, b) = (u as u32 + 1, v as u32 + 1);
        let weight = weight.double();
        // A retired pair is out of the problem: its edges keep the weights
        // they had (so `matching` still reports the pair).
        if self.w2(a, b) == weight || self.retired[a as usize] || self.retired[b as usize] {
            return;
        }
        let id = self.value_id(weight);
        self.weight_ids[u * self.n + v] = id;
        self.weight_ids[v * self.n + u] = id;
        if !self.solved {
            return;
        }
        let tight_ok = self.mate[a as usize] != b
            && self.st[a as usize] == a
            && self.st[b as usize] == b
            && self.e_delta(a, b) >= W::zero();
        if !tight_ok {
            // Freeing one endpoint is enough: its dual is reset to a
            // feasible value, its mate is released, the blossoms around it
            // are dissolved and every blossom's edge to it is recomputed.
            if self.dirty[b as usize] && !self.dirty[a as usize] {
                self.mark_dirty(b);
            } else {
                self.mark_dirty(a);
            }
        }
    }

    fn mark_dirty(&mut self, v: u32) {
        if !self.dirty[v as usize] {
            self.dirty[v as usize] = true;
            self.dirty_list.push(v);
        }
    }

    /// The mate of every vertex (0-based); an unmatched vertex (or one
    /// matched by a zero-weight edge) is its own mate.
    pub(crate) fn matching(&self) -> Vec<usize> {
        (1..=self.real as u32)
            .map(|v| {
                let m = self.mate[v as usize];
                if m == NONE || m as usize > self.real || self.w2(v, m).is_zero() {
                    v as usize - 1
                } else {
                    m as usize - 1
                }
            })
            .collect()
    }

    /// Take the matched pair `{a, b}` (0-based) out of the problem for
    /// good: later solves keep it and never scan its edges again, so its
    /// weights no longer matter. Possible only right after a solve and while
    /// both are outside blossoms; returns whether the pair was retired.
    pub(crate) fn retire_pair(&mut self, a: usize, b: usize) -> bool {
        let (a, b) = (a as u32 + 1, b as u32 + 1);
        let ready = self.solved
            && self.dirty_list.is_empty()
            && self.mate[a as usize] == b
            && self.st[a as usize] == a
            && self.st[b as usize] == b;
        if ready {
            self.retired[a as usize] = true;
            self.retired[b as usize] = true;
            self.active.retain(|&v| v != a && v != b);
        }
        ready
    }

    /// Compute a maximum-weight matching for the current weights.
    pub(crate) fn solve(&mut self) {
        if self.n == 0 {
            return;
        }
        if !self.solved {
            let mut max = W::zero();
            for &w in &self.values {
                if w > max {
                    max = w;
                }
            }
            // Duals start at the largest weight (the stored values are doubled).
            let max = max.half();
            for u in 1..=self.n {
                self.lab[u] = max;
            }
            self.solved = true;
            for v in self.dirty_list.drain(..) {
                self.dirty[v as usize] = false;
            }
        } else {
            self.repair();
        }
        while self.stage() {}
    }

    // ----- warm start -------------------------------------------------

    fn repair(&mut self) {
        if self.dirty_list.is_empty() {
            return;
        }
        let touched: Vec<u32> = std::mem::take(&mut self.dirty_list);
        for &v in &touched {
            self.dirty[v as usize] = false;
        }
        // Cheap repair first: a matched pair of top-level vertices stays
        // matched if its edge can stay tight with every edge at both
        // feasible. Each side gets the least dual its other edges need; the
        // pair fits if the two needs leave the matched edge tight. Each
        // step keeps every edge at the vertices handled so far feasible, so
        // the pairs kept need no second check.
        let mut dirty = Vec::new();
        let mut kept = Vec::new();
        for &u in &touched {
            let m = self.mate[u as usize];
            if self.retired[u as usize] || (m != NONE && self.retired[m as usize]) {
                continue;
            }
            if m == NONE || self.st[u as usize] != u || self.st[m as usize] != m {
                dirty.push(u);
                continue;
            }
            if kept.contains(&m) {
                continue;
            }
            let need_u = self.least_dual(u, m);
            let need_m = self.least_dual(m, u);
            let w = self.w2(u, m);
            if need_u.add(need_m) <= w {
                self.lab[u as usize] = need_u;
                self.lab[m as usize] = w.sub(need_u);
                kept.push(u);
            } else {
                dirty.push(u);
            }
        }
        let mut work: Vec<u32> = Vec::new();
        for &v in &dirty {
            self.free_vertex(v, &mut work);
        }
        while let Some(x) = work.pop() {
            if self.mate[x as usize] == NONE {
                self.free_vertex(x, &mut work);
            }
        }
        for &v in &touched {
            self.refresh_reps_to(v);
        }
        // Reset the duals of exposed vertices: the least feasible value of
        // even parity.
        for xi in 0..self.active.len() {
            let x = self.active[xi];
            if self.mate[x as usize] != NONE {
                continue;
            }
            debug_assert_eq!(self.st[x as usize], x);
            let mut value = self.least_dual(x, x);
            if value.sub(value.half().double()) != W::zero() {
                value = value.add(W::from_u64(1));
            }
            self.lab[x as usize] = value;
        }
    }

    /// The least dual of `x` that keeps its edges feasible, leaving out
    /// the edge to `except` (`except == x` leaves none out).
    fn least_dual(&self, x: u32, except: u32) -> W {
        let mut need: Option<W> = None;
        for &j in &self.active {
            if j != x && j != except {
                let req = self.w2(x, j).sub(self.lab[j as usize]);
                if need.is_none_or(|n| req > n) {
                    need = Some(req);
                }
            }
        }
        need.unwrap_or(W::zero())
    }

    /// Make `x` an exposed top-level singleton; newly exposed vertices go to
    /// `work`.
    fn free_vertex(&mut self, x: u32, work: &mut Vec<u32>) {
        while self.st[x as usize] != x {
            let top = self.st[x as usize];
            self.dissolve_top(top, work);
        }
        let y = self.mate[x as usize];
        if y != NONE {
            self.mate[x as usize] = NONE;
            self.clear_match_chain(y);
            work.push(y);
        }
    }

    /// Clear the mate of vertex `y` and of every blossom it is the base of.
    fn clear_match_chain(&mut self, y: u32) {
        let mut z = y;
        while z != NONE {
            self.mate[z as usize] = NONE;
            z = self.parent[z as usize];
        }
    }

    fn dissolve_top(&mut self, b: u32, work: &mut Vec<u32>) {
        let bu = b as usize;
        let t = self.lab[bu].half();
        if !t.is_zero() {
            let mut members = Vec::new();
            self.collect_vertices(b, &mut members);
            for m in members {
                self.lab[m as usize] = self.lab[m as usize].add(t);
            }
        }
        let children = std::mem::take(&mut self.flower[bu]);
        for &c in &children {
            self.set_st(c, c);
            self.parent[c as usize] = NONE;
        }
        if !t.is_zero() && self.mate[bu] != NONE {
            let y = self.mate[bu];
            let mut base = children[0];
            while base as usize > self.n {
                base = self.flower[base as usize][0];
            }
            self.clear_match_chain(base);
            self.clear_match_chain(y);
            work.push(base);
            work.push(y);
        }
        self.st[bu] = NONE;
        self.lab[bu] = W::zero();
        self.mate[bu] = NONE;
        drop(children);
    }

    fn collect_vertices(&self, b: u32, out: &mut Vec<u32>) {
        if b as usize <= self.n {
            out.push(b);
        } else {
            for &c in &self.flower[b as usize] {
                self.collect_vertices(c, out);
            }
        }
    }

    /// Recompute every blossom's representative edge to vertex `v`.
    fn refresh_reps_to(&mut self, v: u32) {
        for b in self.n as u32 + 1..=self.nx as u32 {
            if self.st[b as usize] == b {
                self.refresh_rep(b, v);
            }
        }
    }

    fn refresh_rep(&mut self, b: u32, v: u32) {
        let children = std::mem::take(&mut self.flower[b as usize]);
        let mut best: (u32, u32) = (NONE, NONE);
        for &c in &children {
            if c as usize > self.n {
                self.refresh_rep(c, v);
            }
            let e = self.g(c, v);
            if best.0 == NONE || self.e_delta(e.0, e.1) < self.e_delta(best.0, best.1) {
                best = e;
            }
        }
        self.flower[b as usize] = children;
        let row = self.rep_row(b);
        self.rep[row + v as usize] = best;
    }

    // ----- the dense blossom algorithm ---------------------------------

    #[inline]
    fn rep_row(&self, b: u32) -> usize {
        (b as usize - self.n - 1) * (2 * self.n + 1)
    }

    #[inline]
    fn ff(&self, b: u32, x: u32) -> u32 {
        if b as usize <= self.n {
            if b == x { b } else { NONE }
        } else {
            self.flower_from[(b as usize - self.n - 1) * (self.n + 1) + x as usize]
        }
    }

    /// The representative edge (vertex in `x`, vertex in `y`).
    #[inline]
    fn g(&self, x: u32, y: u32) -> (u32, u32) {
        let n = self.n as u32;
        if x > n {
            self.rep[self.rep_row(x) + y as usize]
        } else if y > n {
            let (a, b) = self.rep[self.rep_row(y) + x as usize];
            (b, a)
        } else {
            (x, y)
        }
    }

    #[inline(always)]
    fn e_delta(&self, u: u32, v: u32) -> W {
        self.lab[u as usize].add_sub(self.lab[v as usize], self.w2(u, v))
    }

    fn update_slack(&mut self, u: u32, x: u32) {
        let e1 = self.g(u, x);
        let value = self.e_delta(e1.0, e1.1);
        self.update_slack_with(u, x, value);
    }

    #[inline]
    fn update_slack_with(&mut self, u: u32, x: u32, value: W) {
        if self.slack[x as usize] == NONE || value < self.slack_val[x as usize] {
            self.slack[x as usize] = u;
            self.slack_val[x as usize] = value;
        }
    }

    fn set_slack(&mut self, x: u32) {
        self.slack[x as usize] = NONE;
        for ui in 0..self.active.len() {
            let u = self.active[ui];
            if self.st[u as usize] != x && self.label[self.st[u as usize] as usize] == 0 {
                self.update_slack(u, x);
            }
        }
    }

    fn q_push(&mut self, x: u32) {
        if x as usize <= self.n {
            self.queue.push_back(x);
        } else {
            for i in 0..self.flower[x as usize].len() {
                let c = self.flower[x as usize][i];
                self.q_push(c);
            }
        }
    }

    fn set_st(&mut self, x: u32, b: u32) {
        self.st[x as usize] = b;
        if x as usize > self.n {
            for i in 0..self.flower[x as usize].len() {
                let c = self.flower[x as usize][i];
                self.set_st(c, b);
            }
        }
    }

    fn get_pr(&mut self, b: u32, xr: u32) -> usize {
        let f = &mut self.flower[b as usize];
        let pr = f.iter().position(|&c| c == xr).expect("child of blossom");
        if pr % 2 == 1 {
            f[1..].reverse();
            f.len() - pr
        } else {
            pr
        }
    }

    fn set_match(&mut self, u: u32, v: u32) {
        let e = self.g(u, v);
        self.mate[u as usize] = e.1;
        if u as usize > self.n {
            let xr = self.ff(u, e.0);
            let pr = self.get_pr(u, xr);
            for i in 0..pr {
                let a = self.flower[u as usize][i];
                let b = self.flower[u as usize][i ^ 1];
                self.set_match(a, b);
            }
            self.set_match(xr, v);
            self.flower[u as usize].rotate_left(pr);
        }
    }

    fn augment(&mut self, mut u: u32, mut v: u32) {
        loop {
            let xnv = self.st[self.mate[u as usize] as usize];
            self.set_match(u, v);
            if xnv == NONE {
                return;
            }
            let next = self.st[self.pa[xnv as usize] as usize];
            self.set_match(xnv, next);
            u = next;
            v = xnv;
        }
    }

    fn get_lca(&mut self, mut u: u32, mut v: u32) -> u32 {
        if self.vis_stamp == u32::MAX {
            self.vis.fill(0);
            self.vis_stamp = 0;
        }
        self.vis_stamp += 1;
        let t = self.vis_stamp;
        while u != NONE || v != NONE {
            if u != NONE {
                if self.vis[u as usize] == t {
                    return u;
                }
                self.vis[u as usize] = t;
                u = self.st[self.mate[u as usize] as usize];
                if u != NONE {
                    u = self.st[self.pa[u as usize] as usize];
                }
            }
            std::mem::swap(&mut u, &mut v);
        }
        NONE
    }

    fn add_blossom(&mut self, u: u32, lca: u32, v: u32) {
        let mut b = self.n as u32 + 1;
        while (b as usize) <= self.nx && self.st[b as usize] != NONE {
            b += 1;
        }
        if b as usize > self.nx {
            self.nx += 1;
        }
        let bu = b as usize;
        self.lab[bu] = W::zero();
        self.label[bu] = 0;
        self.mate[bu] = self.mate[lca as usize];
        let mut f = vec![lca];
        let mut x = u;
        while x != lca {
            f.push(x);
            let y = self.st[self.mate[x as usize] as usize];
            f.push(y);
            self.q_push(y);
            x = self.st[self.pa[y as usize] as usize];
        }
        f[1..].reverse();
        let mut x = v;
        while x != lca {
            f.push(x);
            let y = self.st[self.mate[x as usize] as usize];
            f.push(y);
            self.q_push(y);
            x = self.st[self.pa[y as usize] as usize];
        }
        for &c in &f {
            self.parent[c as usize] = b;
        }
        self.flower[bu] = f;
        self.set_st(b, b);
        let row = self.rep_row(b);
        let fr = (bu - self.n - 1) * (self.n + 1);
        for x in 0..=2 * self.n {
            self.rep[row + x] = (NONE, NONE);
        }
        for x in 0..=self.n {
            self.flower_from[fr + x] = NONE;
        }
        let children = self.flower[bu].clone();
        for &xs in &children {
            for x in 1..=self.nx as u32 {
                if x == b
                    || (x as usize > self.n && self.st[x as usize] == NONE)
                    || (x as usize <= self.n && self.retired[x as usize])
                {
                    continue;
                }
                if self.st[x as usize] == b {
                    continue;
                }
                let cand = self.g(xs, x);
                let cur = self.rep[row + x as usize];
                let cand_slack = self.e_delta(cand.0, cand.1);
                if cur.0 == NONE || cand_slack < self.rep_slack[x as usize] {
                    self.rep_slack[x as usize] = cand_slack;
                    self.rep[row + x as usize] = cand;
                    if x as usize > self.n {
                        let r2 = self.rep_row(x);
                        self.rep[r2 + bu] = (cand.1, cand.0);
                    }
                }
            }
            for x in 1..=self.n as u32 {
                if self.ff(xs, x) != NONE {
                    self.flower_from[fr + x as usize] = xs;
                }
            }
        }
        self.set_slack(b);
    }

    fn expand_blossom(&mut self, b: u32) {
        let bu = b as usize;
        let children = self.flower[bu].clone();
        for &c in &children {
            self.set_st(c, c);
            self.parent[c as usize] = NONE;
        }
        let e = self.g(b, self.pa[bu]);
        let xr = self.ff(b, e.0);
        let pr = self.get_pr(b, xr);
        let f = self.flower[bu].clone();
        let mut i = 0;
        while i < pr {
            let xs = f[i];
            let xns = f[i + 1];
            self.pa[xs as usize] = self.g(xns, xs).0;
            self.label[xs as usize] = 1;
            self.label[xns as usize] = 0;
            self.slack[xs as usize] = NONE;
            self.set_slack(xns);
            self.q_push(xns);
            i += 2;
        }
        self.label[xr as usize] = 1;
        self.pa[xr as usize] = self.pa[bu];
        for &xs in &f[pr + 1..] {
            self.label[xs as usize] = -1;
            self.set_slack(xs);
        }
        self.st[bu] = NONE;
        self.flower[bu].clear();
        self.mate[bu] = NONE;
        self.lab[bu] = W::zero();
    }

    fn on_found_edge(&mut self, eu: u32, ev: u32) -> bool {
        let u = self.st[eu as usize];
        let v = self.st[ev as usize];
        if self.label[v as usize] == -1 && self.mate[v as usize] == NONE {
            // An exposed vertex outside the tree: augmenting path.
            self.augment(u, v);
            self.augment(v, u);
            return true;
        } else if self.label[v as usize] == -1 {
            self.pa[v as usize] = eu;
            self.label[v as usize] = 1;
            let nu = self.st[self.mate[v as usize] as usize];
            self.slack[v as usize] = NONE;
            self.slack[nu as usize] = NONE;
            self.label[nu as usize] = 0;
            self.q_push(nu);
        } else if self.label[v as usize] == 0 {
            let lca = self.get_lca(u, v);
            if lca == NONE {
                self.augment(u, v);
                self.augment(v, u);
                return true;
            }
            self.add_blossom(u, lca, v);
        }
        false
    }

    /// One augmentation; false when the matching is perfect.
    fn stage(&mut self) -> bool {
        let n = self.n as u32;
        for x in 1..=self.nx {
            self.label[x] = -1;
            self.slack[x] = NONE;
        }
        self.queue.clear();
        let mut roots = 0usize;
        let mut parity: Option<bool> = None;
        for x in 1..=self.nx as u32 {
            if self.st[x as usize] == x && self.mate[x as usize] == NONE {
                let mut v = x;
                while v as usize > self.n {
                    v = self.flower[v as usize][0];
                }
                let lv = self.lab[v as usize];
                let odd = lv != lv.half().double();
                if *parity.get_or_insert(odd) != odd {
                    continue;
                }
                self.pa[x as usize] = NONE;
                self.label[x as usize] = 0;
                self.q_push(x);
                roots += 1;
                if roots == ROOTS_PER_STAGE {
                    break;
                }
            }
        }
        if self.queue.is_empty() {
            return false;
        }
        loop {
            while let Some(u) = self.queue.pop_front() {
                if self.label[self.st[u as usize] as usize] == 1 {
                    continue;
                }
                // Neither the dual of `u` nor its row changes during its
                // scan; its top-level blossom may (a new blossom).
                let lab_u = self.lab[u as usize];
                let row = (u as usize - 1) * self.n;
                let mut st_u = self.st[u as usize];
                for vi in 0..self.active.len() {
                    let v = self.active[vi];
                    let sv = self.st[v as usize];
                    if st_u == sv || self.label[sv as usize] == 1 {
                        continue;
                    }
                    let weight = self.values[self.weight_ids[row + v as usize - 1] as usize];
                    let value = lab_u.add_sub(self.lab[v as usize], weight);
                    if value.is_zero() {
                        if self.on_found_edge(u, v) {
                            return true;
                        }
                        st_u = self.st[u as usize];
                    } else if sv == v {
                        self.update_slack_with(u, v, value);
                    } else {
                        self.update_slack(u, sv);
                    }
                }
            }
            let mut d: Option<W> = None;
            let mut consider = |c: W| {
                if d.is_none_or(|d| c < d) {
                    d = Some(c);
                }
            };
            for b in n + 1..=self.nx as u32 {
                if self.st[b as usize] == b && self.label[b as usize] == 1 {
                    consider(self.lab[b as usize].half());
                }
            }
            for x in 1..=self.nx as u32 {
                let s = self.slack[x as usize];
                if self.st[x as usize] == x && s != NONE {
                    match self.label[x as usize] {
                        -1 => consider(self.slack_val[x as usize]),
                        0 => consider(self.slack_val[x as usize].half()),
                        _ => {}
                    }
                }
            }
            let d = d.expect("a complete graph always offers a dual step");
            for u in 1..=n as usize {
                match self.label[self.st[u] as usize] {
                    0 => self.lab[u] = self.lab[u].sub(d),
                    1 => self.lab[u] = self.lab[u].add(d),
                    _ => {}
                }
            }
            for b in n as usize + 1..=self.nx {
                if self.st[b] == b as u32 {
                    match self.label[b] {
                        0 => self.lab[b] = self.lab[b].add(d.double()),
                        1 => self.lab[b] = self.lab[b].sub(d.double()),
                        _ => {}
                    }
                }
            }
            for x in 1..=self.nx {
                if self.st[x] == x as u32 && self.slack[x] != NONE {
                    match self.label[x] {
                        -1 => self.slack_val[x] = self.slack_val[x].sub(d),
                        0 => self.slack_val[x] = self.slack_val[x].sub(d.double()),
                        _ => {}
                    }
                }
            }
            self.queue.clear();
            for x in 1..=self.nx as u32 {
                let s = self.slack[x as usize];
                if self.st[x as usize] == x
                    && s != NONE
                    && self.st[s as usize] != x
                    && self.slack_val[x as usize].is_zero()
                {
                    let e = self.g(s, x);
                    if self.on_found_edge(e.0, e.1) {
                        return true;
                    }
                }
            }
            for b in n + 1..=self.nx as u32 {
                if self.st[b as usize] == b
                    && self.label[b as usize] == 1
                    && self.lab[b as usize].is_zero()
                {
                    self.expand_blossom(b);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{RngExt, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    /// Maximum matching weight by exhaustive search.
    fn brute(n: usize, w: &[Vec<i64>]) -> i64 {
        fn go(used: &mut Vec<bool>, w: &[Vec<i64>]) -> i64 {
            let Some(i) = used.iter().position(|&u| !u) else {
                return 0;
            };
            used[i] = true;
            let mut best = go(used, w);
            for j in i + 1..used.len() {
                if !used[j] && w[i][j] > 0 {
                    used[j] = true;
                    best = best.max(w[i][j] + go(used, w));
                    used[j] = false;
                }
            }
            used[i] = false;
            best
        }
        go(&mut vec![false; n], w)
    }

    fn value(m: &[usize], w: &[Vec<i64>]) -> i64 {
        let mut total = 0;
        for (i, &j) in m.iter().enumerate() {
            assert_eq!(m[j], i, "matching is symmetric");
            if j > i {
                total += w[i][j];
            }
        }
        total
    }

    #[test]
    #[allow(clippy::needless_range_loop)]
    fn matches_brute_force_and_warm_starts() {
        let mut rng = ChaCha8Rng::seed_from_u64(7);
        for round in 0..600 {
            let n = rng.random_range(1..=11);
            let top = if round % 2 == 0 { 4 } else { 40 };
            let density = rng.random_range(0.2..1.0);
            let mut w = vec![vec![0i64; n]; n];
            let mut solver = Blossom::<i64>::new(n);
            for i in 0..n {
                for j in 0..i {
                    if rng.random_bool(density) {
                        let x = rng.random_range(1..top);
                        w[i][j] = x;
                        w[j][i] = x;
                        solver.set_weight(i, j, x);
                    }
                }
            }
            solver.solve();
            assert_eq!(value(&solver.matching(), &w), brute(n, &w), "cold {round}");
            for step in 0..8 {
                let k = rng.random_range(1..=3);
                for _ in 0..k {
                    if n < 2 {
                        break;
                    }
                    let v = rng.random_range(0..n);
                    for j in 0..n {
                        if j != v && rng.random_bool(0.5) {
                            let x = if rng.random_bool(0.3) {
                                0
                            } else {
                                rng.random_range(1..60)
                            };
                            w[v][j] = x;
                            w[j][v] = x;
                            solver.set_weight(v, j, x);
                        }
                    }
                }
                solver.solve();
                assert_eq!(
                    value(&solver.matching(), &w),
                    brute(n, &w),
                    "warm {round}/{step}"
                );
            }
        }
    }

    /// Larger graphs than brute force can check, against the general
    /// matcher: warm starts over many weight changes, retired pairs and
    /// root-limited stages.
    #[test]
    fn matches_general_matcher_with_retired_pairs() {
        use crate::matching::{Mode, max_weight_matching};
        let mut rng = ChaCha8Rng::seed_from_u64(11);
        let mut retirements = 0;
        for round in 0..40 {
            let n = rng.random_range(20..=70);
            let top = if round % 2 == 0 { 6 } else { 1000 };
            let mut w = vec![vec![0i64; n]; n];
            let mut solver = Blossom::<i64>::new(n);
            let set = |w: &mut Vec<Vec<i64>>, solver: &mut Blossom<i64>, i: usize, j: usize, x| {
                w[i][j] = x;
                w[j][i] = x;
                solver.set_weight(i, j, x);
            };
            for i in 0..n {
                for j in 0..i {
                    if rng.random_bool(0.7) {
                        let x = rng.random_range(1..top);
                        set(&mut w, &mut solver, i, j, x);
                    }
                }
            }
            let mut retired = vec![false; n];
            for step in 0..12 {
                solver.solve();
                let m = solver.matching();
                for v in 0..n {
                    if retired[v] {
                        assert!(
                            m[v] != v && retired[m[v]],
                            "retired pair kept {round}/{step}"
                        );
                    }
                }
                let active: Vec<usize> = (0..n).filter(|&v| !retired[v]).collect();
                let edges: Vec<(usize, usize, i64)> = active
                    .iter()
                    .enumerate()
                    .flat_map(|(a, &i)| {
                        let w = &w;
                        active[..a]
                            .iter()
                            .enumerate()
                            .filter_map(move |(b, &j)| (w[i][j] > 0).then_some((a, b, w[i][j])))
                    })
                    .collect();
                let expected = max_weight_matching(active.len(), &edges, Mode::MaxWeight)
                    .unwrap()
                    .total_weight(&edges);
                let got: i64 = active
                    .iter()
                    .filter(|&&v| m[v] > v && !retired[m[v]])
                    .map(|&v| w[v][m[v]])
                    .sum();
                assert_eq!(got, expected, "round {round} step {step}");
                // Retire a matched pair now and then, then change the
                // weights of a few active vertices.
                if step % 3 == 1
                    && let Some(&v) = active.iter().find(|&&v| m[v] != v && w[v][m[v]] > 0)
                    && solver.retire_pair(v, m[v])
                {
                    retired[v] = true;
                    retired[m[v]] = true;
                    retirements += 1;
                }
                let active: Vec<usize> = (0..n).filter(|&v| !retired[v]).collect();
                for _ in 0..rng.random_range(1..=6) {
                    let v = active[rng.random_range(0..active.len())];
                    for &j in &active {
                        if j != v && rng.random_bool(0.4) {
                            let x = if rng.random_bool(0.2) {
                                0
                            } else {
                                rng.random_range(1..top)
                            };
                            set(&mut w, &mut solver, v, j, x);
                        }
                    }
                }
            }
        }
        assert!(retirements > 40, "the test retires pairs ({retirements})");
    }
}
