//! The primal-dual blossom algorithm itself.
//!
//! Conventions (after van Rantwijk's description): edge `k` has the two
//! *endpoints* `2k` (its first vertex) and `2k + 1` (its second); `p ^ 1` is
//! the other end of the same edge. Blossoms are numbered `n..2n`, vertices
//! `0..n` are the trivial blossoms. Vertex duals are stored doubled, so the
//! slack of edge `(i, j, w)` is `dual[i] + dual[j] − 2w`; with integer
//! weights the slack between two S-vertices is always even.

use super::Weight;

const NONE: usize = usize::MAX;

/// The three labels of a top-level blossom during a stage, plus the
/// "visited" flag `scan_blossom` uses temporarily.
const FREE: u8 = 0;
const OUTER: u8 = 1; // S
const INNER: u8 = 2; // T
const BREADCRUMB: u8 = 4;

struct Solver<'a, W: Weight> {
    n: usize,
    edges: &'a [(usize, usize, W)],
    /// `endpoint[p]`: the vertex at endpoint `p`.
    endpoint: Vec<usize>,
    /// `neighbend[v]`: the remote endpoints of the edges at `v`.
    neighbend: Vec<Vec<usize>>,
    /// `mate[v]`: the remote endpoint of `v`'s matched edge, or NONE.
    mate: Vec<usize>,
    label: Vec<u8>,
    /// The endpoint through which a labelled blossom got its label.
    labelend: Vec<usize>,
    inblossom: Vec<usize>,
    blossomparent: Vec<usize>,
    blossomchilds: Vec<Vec<usize>>,
    blossombase: Vec<usize>,
    blossomendps: Vec<Vec<usize>>,
    /// Least-slack edge to a different S-blossom (for δ₂/δ₃).
    bestedge: Vec<usize>,
    blossombestedges: Vec<Option<Vec<usize>>>,
    unusedblossoms: Vec<usize>,
    dualvar: Vec<W>,
    allowedge: Vec<bool>,
    queue: Vec<usize>,
}

/// Solves the matching; returns each vertex's partner.
pub(super) fn solve<W: Weight>(
    n: usize,
    edges: &[(usize, usize, W)],
    max_cardinality: bool,
) -> Vec<Option<usize>> {
    if edges.is_empty() {
        return vec![None; n];
    }
    let mut solver = Solver::new(n, edges);
    solver.run(max_cardinality);
    solver
        .mate
        .iter()
        .map(|&p| (p != NONE).then(|| solver.endpoint[p]))
        .collect()
}

fn index_of(list: &[usize], item: usize) -> usize {
    list.iter()
        .position(|&x| x == item)
        .expect("sub-blossom is a child of its parent")
}

/// Python-style indexing with a possibly negative index.
fn at(list: &[usize], j: isize) -> usize {
    let len = list.len() as isize;
    list[j.rem_euclid(len) as usize]
}

impl<'a, W: Weight> Solver<'a, W> {
    fn new(n: usize, edges: &'a [(usize, usize, W)]) -> Self {
        let max_weight = edges.iter().map(|e| e.2).fold(W::ZERO, Ord::max);
        let mut endpoint = Vec::with_capacity(2 * edges.len());
        let mut neighbend = vec![Vec::new(); n];
        for (k, &(i, j, _)) in edges.iter().enumerate() {
            endpoint.push(i);
            endpoint.push(j);
            neighbend[i].push(2 * k + 1);
            neighbend[j].push(2 * k);
        }
        let mut dualvar = vec![max_weight; n];
        dualvar.extend(std::iter::repeat_n(W::ZERO, n));
        Solver {
            n,
            edges,
            endpoint,
            neighbend,
            mate: vec![NONE; n],
            label: vec![FREE; 2 * n],
            labelend: vec![NONE; 2 * n],
            inblossom: (0..n).collect(),
            blossomparent: vec![NONE; 2 * n],
            blossomchilds: vec![Vec::new(); 2 * n],
            blossombase: (0..n).chain(std::iter::repeat_n(NONE, n)).collect(),
            blossomendps: vec![Vec::new(); 2 * n],
            bestedge: vec![NONE; 2 * n],
            blossombestedges: vec![None; 2 * n],
            unusedblossoms: (n..2 * n).collect(),
            dualvar,
            allowedge: vec![false; edges.len()],
            queue: Vec::new(),
        }
    }

    fn slack(&self, k: usize) -> W {
        let (i, j, w) = self.edges[k];
        self.dualvar[i] + self.dualvar[j] - (w + w)
    }

    fn leaves(&self, b: usize) -> Vec<usize> {
        let mut out = Vec::new();
        self.collect_leaves(b, &mut out);
        out
    }

    fn collect_leaves(&self, b: usize, out: &mut Vec<usize>) {
        if b < self.n {
            out.push(b);
        } else {
            for &t in &self.blossomchilds[b] {
                self.collect_leaves(t, out);
            }
        }
    }

    /// Labels the top-level blossom of `w` with `t`, reached through
    /// endpoint `p`; a T-blossom's mate becomes an S-blossom.
    fn assign_label(&mut self, w: usize, t: u8, p: usize) {
        let mut w = w;
        let mut t = t;
        let mut p = p;
        loop {
            let b = self.inblossom[w];
            debug_assert!(self.label[w] == FREE && self.label[b] == FREE);
            self.label[w] = t;
            self.label[b] = t;
            self.labelend[w] = p;
            self.labelend[b] = p;
            self.bestedge[w] = NONE;
            self.bestedge[b] = NONE;
            if t == OUTER {
                let leaves = self.leaves(b);
                self.queue.extend(leaves);
                return;
            }
            let base = self.blossombase[b];
            debug_assert!(self.mate[base] != NONE);
            let m = self.mate[base];
            w = self.endpoint[m];
            t = OUTER;
            p = m ^ 1;
        }
    }

    /// Traces back from `v` and `w` to find a new blossom's base, or NONE
    /// if the two roots differ (an augmenting path).
    fn scan_blossom(&mut self, v: usize, w: usize) -> usize {
        let mut path = Vec::new();
        let mut base = NONE;
        let (mut v, mut w) = (v, w);
        while v != NONE || w != NONE {
            let mut b = self.inblossom[v];
            if self.label[b] & BREADCRUMB != 0 {
                base = self.blossombase[b];
                break;
            }
            debug_assert_eq!(self.label[b], OUTER);
            path.push(b);
            self.label[b] = OUTER | BREADCRUMB;
            if self.labelend[b] == NONE {
                v = NONE;
            } else {
                v = self.endpoint[self.labelend[b]];
                b = self.inblossom[v];
                debug_assert_eq!(self.label[b], INNER);
                v = self.endpoint[self.labelend[b]];
            }
            if w != NONE {
                std::mem::swap(&mut v, &mut w);
            }
        }
        for b in path {
            self.label[b] = OUTER;
        }
        base
    }

    /// Shrinks the odd cycle through edge `k` with the given base into a
    /// new S-blossom.
    fn add_blossom(&mut self, base: usize, k: usize) {
        let (v, w, _) = self.edges[k];
        let bb = self.inblossom[base];
        let mut bv = self.inblossom[v];
        let mut bw = self.inblossom[w];
        let b = self.unusedblossoms.pop().expect("at most n blossoms");
        self.blossombase[b] = base;
        self.blossomparent[b] = NONE;
        self.blossomparent[bb] = b;
        let mut path = Vec::new();
        let mut endps = Vec::new();
        while bv != bb {
            self.blossomparent[bv] = b;
            path.push(bv);
            endps.push(self.labelend[bv]);
            let v = self.endpoint[self.labelend[bv]];
            bv = self.inblossom[v];
        }
        path.push(bb);
        path.reverse();
        endps.reverse();
        endps.push(2 * k);
        while bw != bb {
            self.blossomparent[bw] = b;
            path.push(bw);
            endps.push(self.labelend[bw] ^ 1);
            let w = self.endpoint[self.labelend[bw]];
            bw = self.inblossom[w];
        }
        debug_assert_eq!(self.label[bb], OUTER);
        self.label[b] = OUTER;
        self.labelend[b] = self.labelend[bb];
        self.dualvar[b] = W::ZERO;
        self.blossomchilds[b] = path.clone();
        for leaf in self.leaves(b) {
            if self.label[self.inblossom[leaf]] == INNER {
                // Former T-vertices become S-vertices and must be scanned.
                self.queue.push(leaf);
            }
            self.inblossom[leaf] = b;
        }
        // Least-slack edges from the new blossom to each other S-blossom.
        let mut bestedgeto = vec![NONE; 2 * self.n];
        for &sub in &path {
            let lists: Vec<Vec<usize>> = match self.blossombestedges[sub].take() {
                Some(list) => vec![list],
                None => self
                    .leaves(sub)
                    .into_iter()
                    .map(|leaf| self.neighbend[leaf].iter().map(|p| p / 2).collect())
                    .collect(),
            };
            for list in lists {
                for k in list {
                    let (i, j, _) = self.edges[k];
                    let j = if self.inblossom[j] == b { i } else { j };
                    let bj = self.inblossom[j];
                    if bj != b
                        && self.label[bj] == OUTER
                        && (bestedgeto[bj] == NONE || self.slack(k) < self.slack(bestedgeto[bj]))
                    {
                        bestedgeto[bj] = k;
                    }
                }
            }
            self.bestedge[sub] = NONE;
        }
        let best: Vec<usize> = bestedgeto.into_iter().filter(|&k| k != NONE).collect();
        self.bestedge[b] = NONE;
        for &k in &best {
            if self.bestedge[b] == NONE || self.slack(k) < self.slack(self.bestedge[b]) {
                self.bestedge[b] = k;
            }
        }
        self.blossomendps[b] = endps;
        self.blossombestedges[b] = Some(best);
    }

    /// Dissolves blossom `b` into its sub-blossoms (at the end of a stage,
    /// or mid-stage when a T-blossom's dual reaches zero).
    fn expand_blossom(&mut self, b: usize, endstage: bool) {
        let children = self.blossomchilds[b].clone();
        for &s in &children {
            self.blossomparent[s] = NONE;
            if s < self.n {
                self.inblossom[s] = s;
            } else if endstage && self.dualvar[s] == W::ZERO {
                self.expand_blossom(s, endstage);
            } else {
                for leaf in self.leaves(s) {
                    self.inblossom[leaf] = s;
                }
            }
        }
        if !endstage && self.label[b] == INNER {
            // Relabel the sub-blossoms on the even path from the entry
            // point to the base as T/S; the rest become free (or are
            // relabelled T if reachable through an edge already seen).
            debug_assert!(self.labelend[b] != NONE);
            let entrychild = self.inblossom[self.endpoint[self.labelend[b] ^ 1]];
            let mut j = index_of(&children, entrychild) as isize;
            let (jstep, endptrick): (isize, usize) = if j & 1 != 0 {
                j -= children.len() as isize;
                (1, 0)
            } else {
                (-1, 1)
            };
            let endps = self.blossomendps[b].clone();
            let mut p = self.labelend[b];
            while j != 0 {
                let q = self.endpoint[p ^ 1];
                self.label[q] = FREE;
                let r = self.endpoint[at(&endps, j - endptrick as isize) ^ endptrick ^ 1];
                self.label[r] = FREE;
                self.assign_label(q, INNER, p);
                self.allowedge[at(&endps, j - endptrick as isize) / 2] = true;
                j += jstep;
                p = at(&endps, j - endptrick as isize) ^ endptrick;
                self.allowedge[p / 2] = true;
                j += jstep;
            }
            let bv = at(&children, j);
            let q = self.endpoint[p ^ 1];
            self.label[q] = INNER;
            self.label[bv] = INNER;
            self.labelend[q] = p;
            self.labelend[bv] = p;
            self.bestedge[bv] = NONE;
            j += jstep;
            while at(&children, j) != entrychild {
                let bv = at(&children, j);
                if self.label[bv] == OUTER {
                    j += jstep;
                    continue;
                }
                let reached = self
                    .leaves(bv)
                    .into_iter()
                    .find(|&leaf| self.label[leaf] != FREE);
                if let Some(v) = reached {
                    debug_assert_eq!(self.label[v], INNER);
                    debug_assert_eq!(self.inblossom[v], bv);
                    self.label[v] = FREE;
                    let m = self.endpoint[self.mate[self.blossombase[bv]]];
                    self.label[m] = FREE;
                    let p = self.labelend[v];
                    self.assign_label(v, INNER, p);
                }
                j += jstep;
            }
        }
        self.label[b] = FREE;
        self.labelend[b] = NONE;
        self.blossomchilds[b] = Vec::new();
        self.blossomendps[b] = Vec::new();
        self.blossombase[b] = NONE;
        self.blossombestedges[b] = None;
        self.bestedge[b] = NONE;
        self.unusedblossoms.push(b);
    }

    /// Swaps matched and unmatched edges along the even path through
    /// blossom `b` from vertex `v` to the base; `v` becomes the new base.
    fn augment_blossom(&mut self, b: usize, v: usize) {
        let mut t = v;
        while self.blossomparent[t] != b {
            t = self.blossomparent[t];
        }
        if t >= self.n {
            self.augment_blossom(t, v);
        }
        let children = self.blossomchilds[b].clone();
        let endps = self.blossomendps[b].clone();
        let i = index_of(&children, t);
        let mut j = i as isize;
        let (jstep, endptrick): (isize, usize) = if i & 1 != 0 {
            j -= children.len() as isize;
            (1, 0)
        } else {
            (-1, 1)
        };
        while j != 0 {
            j += jstep;
            let t = at(&children, j);
            let p = at(&endps, j - endptrick as isize) ^ endptrick;
            if t >= self.n {
                self.augment_blossom(t, self.endpoint[p]);
            }
            j += jstep;
            let t = at(&children, j);
            if t >= self.n {
                self.augment_blossom(t, self.endpoint[p ^ 1]);
            }
            self.mate[self.endpoint[p]] = p ^ 1;
            self.mate[self.endpoint[p ^ 1]] = p;
        }
        let mut children = children;
        let mut endps = endps;
        children.rotate_left(i);
        endps.rotate_left(i);
        self.blossombase[b] = self.blossombase[children[0]];
        self.blossomchilds[b] = children;
        self.blossomendps[b] = endps;
        debug_assert_eq!(self.blossombase[b], v);
    }

    /// Augments the matching along the path through edge `k` between two
    /// S-vertices of different trees.
    fn augment_matching(&mut self, k: usize) {
        let (v, w, _) = self.edges[k];
        for (s, p) in [(v, 2 * k + 1), (w, 2 * k)] {
            let (mut s, mut p) = (s, p);
            loop {
                let bs = self.inblossom[s];
                debug_assert_eq!(self.label[bs], OUTER);
                if bs >= self.n {
                    self.augment_blossom(bs, s);
                }
                self.mate[s] = p;
                if self.labelend[bs] == NONE {
                    break; // reached a root
                }
                let t = self.endpoint[self.labelend[bs]];
                let bt = self.inblossom[t];
                debug_assert_eq!(self.label[bt], INNER);
                s = self.endpoint[self.labelend[bt]];
                let j = self.endpoint[self.labelend[bt] ^ 1];
                debug_assert_eq!(self.blossombase[bt], t);
                if bt >= self.n {
                    self.augment_blossom(bt, j);
                }
                self.mate[j] = self.labelend[bt];
                p = self.labelend[bt] ^ 1;
            }
        }
    }

    fn run(&mut self, max_cardinality: bool) {
        let n = self.n;
        for _stage in 0..n {
            self.label.fill(FREE);
            self.bestedge.fill(NONE);
            for b in n..2 * n {
                self.blossombestedges[b] = None;
            }
            self.allowedge.fill(false);
            self.queue.clear();
            for v in 0..n {
                if self.mate[v] == NONE && self.label[self.inblossom[v]] == FREE {
                    self.assign_label(v, OUTER, NONE);
                }
            }
            let augmented = self.grow_until_augmented(max_cardinality);
            if !augmented {
                break;
            }
            for b in n..2 * n {
                if self.blossomparent[b] == NONE
                    && self.blossombase[b] != NONE
                    && self.label[b] == OUTER
                    && self.dualvar[b] == W::ZERO
                {
                    self.expand_blossom(b, true);
                }
            }
        }
    }

    /// One stage: grows alternating trees, adjusting duals, until an
    /// augmenting path is found (true) or no improvement is possible.
    fn grow_until_augmented(&mut self, max_cardinality: bool) -> bool {
        loop {
            if self.scan_queue() {
                return true;
            }
            if !self.adjust_duals(max_cardinality) {
                return false;
            }
        }
    }

    /// Scans the S-vertices in the queue; true once the matching was
    /// augmented.
    fn scan_queue(&mut self) -> bool {
        while let Some(v) = self.queue.pop() {
            debug_assert_eq!(self.label[self.inblossom[v]], OUTER);
            for idx in 0..self.neighbend[v].len() {
                let p = self.neighbend[v][idx];
                let k = p / 2;
                let w = self.endpoint[p];
                if self.inblossom[v] == self.inblossom[w] {
                    continue;
                }
                let mut kslack = W::ZERO;
                if !self.allowedge[k] {
                    kslack = self.slack(k);
                    if kslack <= W::ZERO {
                        self.allowedge[k] = true;
                    }
                }
                let bw = self.inblossom[w];
                if self.allowedge[k] {
                    if self.label[bw] == FREE {
                        self.assign_label(w, INNER, p ^ 1);
                    } else if self.label[bw] == OUTER {
                        let base = self.scan_blossom(v, w);
                        if base != NONE {
                            self.add_blossom(base, k);
                        } else {
                            self.augment_matching(k);
                            return true;
                        }
                    } else if self.label[w] == FREE {
                        debug_assert_eq!(self.label[bw], INNER);
                        self.label[w] = INNER;
                        self.labelend[w] = p ^ 1;
                    }
                } else if self.label[bw] == OUTER {
                    let b = self.inblossom[v];
                    if self.bestedge[b] == NONE || kslack < self.slack(self.bestedge[b]) {
                        self.bestedge[b] = k;
                    }
                } else if self.label[w] == FREE
                    && (self.bestedge[w] == NONE || kslack < self.slack(self.bestedge[w]))
                {
                    self.bestedge[w] = k;
                }
            }
        }
        false
    }

    /// Chooses and applies the largest safe dual change; false when the
    /// stage (and so the algorithm) is finished.
    fn adjust_duals(&mut self, max_cardinality: bool) -> bool {
        let n = self.n;
        #[derive(PartialEq)]
        enum Kind {
            None,
            Finish,
            FreeEdge(usize),
            OuterEdge(usize),
            ExpandBlossom(usize),
        }
        let mut kind = Kind::None;
        let mut delta = W::ZERO;
        if !max_cardinality {
            kind = Kind::Finish;
            delta = *self.dualvar[..n].iter().min().expect("n > 0");
        }
        for v in 0..n {
            if self.label[self.inblossom[v]] == FREE && self.bestedge[v] != NONE {
                let d = self.slack(self.bestedge[v]);
                if kind == Kind::None || d < delta {
                    delta = d;
                    kind = Kind::FreeEdge(self.bestedge[v]);
                }
            }
        }
        for b in 0..2 * n {
            if self.blossomparent[b] == NONE && self.label[b] == OUTER && self.bestedge[b] != NONE {
                let d = self.slack(self.bestedge[b]).half();
                if kind == Kind::None || d < delta {
                    delta = d;
                    kind = Kind::OuterEdge(self.bestedge[b]);
                }
            }
        }
        for b in n..2 * n {
            if self.blossombase[b] != NONE
                && self.blossomparent[b] == NONE
                && self.label[b] == INNER
                && (kind == Kind::None || self.dualvar[b] < delta)
            {
                delta = self.dualvar[b];
                kind = Kind::ExpandBlossom(b);
            }
        }
        if kind == Kind::None {
            // Maximum cardinality reached: finish with a last dual update.
            kind = Kind::Finish;
            delta = (*self.dualvar[..n].iter().min().expect("n > 0")).max(W::ZERO);
        }
        for v in 0..n {
            match self.label[self.inblossom[v]] {
                OUTER => self.dualvar[v] = self.dualvar[v] - delta,
                INNER => self.dualvar[v] = self.dualvar[v] + delta,
                _ => {}
            }
        }
        for b in n..2 * n {
            if self.blossombase[b] != NONE && self.blossomparent[b] == NONE {
                match self.label[b] {
                    OUTER => self.dualvar[b] = self.dualvar[b] + delta,
                    INNER => self.dualvar[b] = self.dualvar[b] - delta,
                    _ => {}
                }
            }
        }
        match kind {
            Kind::None | Kind::Finish => return false,
            Kind::FreeEdge(k) => {
                self.allowedge[k] = true;
                let (mut i, j, _) = self.edges[k];
                if self.label[self.inblossom[i]] == FREE {
                    i = j;
                }
                debug_assert_eq!(self.label[self.inblossom[i]], OUTER);
                self.queue.push(i);
            }
            Kind::OuterEdge(k) => {
                self.allowedge[k] = true;
                let (i, _, _) = self.edges[k];
                debug_assert_eq!(self.label[self.inblossom[i]], OUTER);
                self.queue.push(i);
            }
            Kind::ExpandBlossom(b) => self.expand_blossom(b, false),
        }
        true
    }
}
