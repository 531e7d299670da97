//! The edge weight of a candidate pair: every criterion of C.04.3 section 2
//! (C1-C21) packed into one wide integer, most significant first, so that a
//! maximum-weight matching optimises them lexicographically.
//!
//! Field layout, from the top (S = bits of the largest scoregroup size,
//! G = the sum over scoregroups of the bits of their sizes):
//!
//! | field | bits | criterion |
//! |---|---|---|
//! | completion and PAB candidates | 2 | C4 (the round can be completed), C2/C5 (who may get the PAB) |
//! | pairs in the current bracket | S | C6 (minimise the number of downfloaters) |
//! | scores paired in the bracket | G | C7 (minimise the scores of downfloaters) |
//! | pairs in the next bracket | S | C8 (next-bracket compliance) |
//! | scores paired in the next bracket | G | C8 |
//! | PAB receiver's played games | 2·S | C9 (minimise the unplayed games of the PAB receiver) |
//! | colour fields | 4·S | C10, C11 (topscorers), C12 (colour preferences), C13 (strong preferences) |
//! | repeated floats | 4·S | C14-C17 (downfloats/upfloats one and two rounds back) |
//! | float score differences | 4·G | C18-C21 |
//! | ordering room | 3·S+1 | the generation order of 4.2-4.3 (transpositions, exchanges) |

use std::collections::HashMap;

use super::prep::{Float, Prepared, prefs_compatible};
use super::wide::Weight;

/// Number of bits needed to write `x` (0 for 0).
pub(crate) fn bits(x: usize) -> u32 {
    usize::BITS - x.leading_zeros()
}

/// The per-round constants of the weight layout.
pub(crate) struct Layout {
    /// Bits of the largest scoregroup size (S).
    pub s: u32,
    /// Sum of the bits of all scoregroup sizes (G).
    pub g: u32,
    /// For each score, where its scoregroup's counter starts inside a G
    /// field.
    pub shift: HashMap<u32, u32>,
    /// Rounds paired so far.
    pub played: usize,
    /// Score above which a player is a topscorer in the last round (C.04.3
    /// 1.8: more than half the maximum).
    pub top_threshold: u32,
    /// Whether the round to pair is the last one (C3 exemption for
    /// topscorers).
    pub last_round: bool,
}

impl Layout {
    /// The total number of bits a weight can use.
    pub(crate) fn total_bits(&self) -> u32 {
        let (s, g) = (self.s, self.g);
        let mut total = 2 + s + g + s + g + 2 * s + 4 * s;
        if self.played >= 1 {
            total += 2 * s + 2 * g;
        }
        if self.played >= 2 {
            total += 2 * s + 2 * g;
        }
        total + 3 * s + 1
    }
}

/// The state of the round that the weights depend on.
pub(crate) struct WeightContext<'a> {
    pub layout: &'a Layout,
    pub players: &'a [Prepared],
    /// `forbidden[a * n + b]`: C1 rematch or a forbidden pair.
    pub forbidden: &'a [bool],
    /// Score of the PAB receiver (C5), once known.
    pub bye_score: u32,
    /// C9 applies in the current bracket.
    pub single_downfloater_is_bye: bool,
    /// Rank of each played-games count among the PAB candidates (C9).
    pub played_ranks: &'a HashMap<u32, u32>,
}

impl WeightContext<'_> {
    /// The absolute criteria C1 and C3 for the pair `a`, `b` (indices into
    /// `players`). C3 does not apply between topscorers in the last round.
    pub(crate) fn compatible(&self, a: usize, b: usize) -> bool {
        let n = self.players.len();
        if self.forbidden[a * n + b] {
            return false;
        }
        let (p, q) = (&self.players[a], &self.players[b]);
        !p.absolute()
            || !q.absolute()
            || p.pref != q.pref
            || (self.layout.last_round
                && (p.score > self.layout.top_threshold || q.score > self.layout.top_threshold))
    }

    fn bye_candidate(&self, p: &Prepared) -> bool {
        p.bye_eligible && p.score <= self.bye_score
    }

    fn shift_of(&self, score: u32) -> u32 {
        self.layout.shift[&score]
    }

    /// The weight of pairing `higher` with `lower` (indices into `players`,
    /// `higher` ranked above `lower`). `in_current`: `lower` is in the
    /// bracket being paired; `in_next`: `lower` is in the next scoregroup.
    pub(crate) fn weight<W: Weight>(
        &self,
        higher: usize,
        lower: usize,
        in_current: bool,
        in_next: bool,
    ) -> W {
        if !self.compatible(higher, lower) {
            return W::zero();
        }
        let l = self.layout;
        let (s, g) = (l.s, l.g);
        let (h, lo) = (&self.players[higher], &self.players[lower]);

        let mut w = Fields::<W>::new(l.total_bits());
        // C4 / C2 / C5: complete the round; keep PAB candidates free.
        w.field(
            2,
            1 + !self.bye_candidate(h) as u64 + !self.bye_candidate(lo) as u64,
        );
        // C6: pairs in the current bracket.
        w.field(s, in_current as u64);
        // C7: scores of the paired players (so the downfloaters' are low).
        let c7 = w.field(g, 0);
        if in_current {
            w.put(c7 + self.shift_of(h.score), 1);
        }
        // C8: pairs and scores in the next bracket.
        w.field(s, in_next as u64);
        let c8 = w.field(g, 0);
        if in_next {
            w.put(c8 + self.shift_of(h.score), 1);
        }
        // C9: the PAB receiver has played as many games as possible (the
        // ranks summed over the pairs need two S-wide fields).
        let c9 = w.field(2 * s, 0);
        if self.single_downfloater_is_bye {
            for p in [h, lo] {
                if p.score == self.bye_score {
                    w.put(c9, self.played_ranks[&p.played_games] as u64);
                }
            }
        }
        // C10-C13: colours (lower player's view, as in the handbook's
        // pairing of S1 with S2).
        self.colour_fields(&mut w, lo, h, in_current);
        // Floats one and two rounds back, as far as rounds were played.
        let floats = [(h.float1, lo.float1), (h.float2, lo.float2)];
        let floats = &floats[..l.played.min(2)];
        for &(hf, lf) in floats {
            self.float_counts(&mut w, h, lo, in_current, hf, lf);
        }
        for &(hf, lf) in floats {
            self.float_scores(&mut w, h, lo, in_current, hf, lf);
        }
        // Room for the generation order (transpositions and exchanges).
        w.field(3 * s + 1, 0);
        w.finish()
    }

    fn colour_fields<W: Weight>(&self, w: &mut Fields<W>, p: &Prepared, o: &Prepared, mask: bool) {
        let s = self.layout.s;
        // C10: no topscorer gets a colour difference beyond ±2.
        let c10 = !p.absolute_imbalance() || !o.absolute_imbalance() || p.pref != o.pref;
        // C11: no topscorer gets the same colour three times in a row.
        let c11 = !p.absolute()
            || !o.absolute()
            || p.pref != o.pref
            || if p.imbalance == o.imbalance {
                p.repeated.is_none() || p.repeated != o.repeated
            } else {
                let lesser = if p.imbalance > o.imbalance { o } else { p };
                lesser.repeated != p.pref.map(|c| c.other())
            };
        // C12: colour preferences met.
        let c12 = prefs_compatible(p.pref, o.pref);
        // C13: strong preferences met.
        let c13 = (!p.strong && !p.absolute())
            || (!o.strong && !o.absolute())
            || (p.absolute() && o.absolute())
            || p.pref != o.pref;
        for c in [c10, c11, c12, c13] {
            w.field(s, (mask && c) as u64);
        }
    }

    /// C14-C17: repeated downfloats and upfloats.
    fn float_counts<W: Weight>(
        &self,
        w: &mut Fields<W>,
        h: &Prepared,
        lo: &Prepared,
        mask: bool,
        hf: Float,
        lf: Float,
    ) {
        let s = self.layout.s;
        let down = (lf == Float::Down) as u64 + (h.score <= lo.score && hf == Float::Down) as u64;
        w.field(s, if mask { down } else { 0 });
        let up = !(h.score > lo.score && lf == Float::Up);
        w.field(s, (mask && up) as u64);
    }

    /// C18-C21: scores of repeated floaters.
    fn float_scores<W: Weight>(
        &self,
        w: &mut Fields<W>,
        h: &Prepared,
        lo: &Prepared,
        mask: bool,
        hf: Float,
        lf: Float,
    ) {
        let g = self.layout.g;
        let down = w.field(g, 0);
        if mask {
            if lf == Float::Down {
                w.put(down + self.shift_of(lo.score), 1);
            }
            if hf == Float::Down {
                w.put(down + self.shift_of(h.score), 1);
            }
        }
        let up = w.field(g, 0);
        if mask && !(lf == Float::Up && h.score > lo.score) {
            w.put(up + self.shift_of(h.score), 1);
        }
    }

    /// The weight used before the PAB receiver's score is known (odd
    /// number of players): complete the round and give the PAB to the
    /// lowest possible score (C5).
    pub(crate) fn bye_phase_weight<W: Weight>(&self, a: usize, b: usize, top_score: u32) -> W {
        if !self.compatible(a, b) {
            return W::zero();
        }
        let l = self.layout;
        let (p, o) = (&self.players[a], &self.players[b]);
        let w = W::from_u64(1 + !p.bye_eligible as u64 + !o.bye_eligible as u64).shl(l.g);
        let w = w.add(W::from_u64(
            (self.shift_of(p.score) + self.shift_of(o.score)) as u64,
        ));
        w.shl(l.s).add(W::from_u64((p.score >= top_score) as u64))
    }
}

/// A weight written field by field from the most significant end: each
/// field's value is placed at its final position instead of shifting the
/// whole wide number once per field.
struct Fields<W> {
    value: W,
    /// Bits still free below the fields written so far.
    free: u32,
}

impl<W: Weight> Fields<W> {
    fn new(total_bits: u32) -> Self {
        Fields {
            value: W::zero(),
            free: total_bits,
        }
    }

    /// Append a `bits`-wide field holding `x`; returns the field's lowest
    /// bit position (for [`Fields::put`]).
    fn field(&mut self, bits: u32, x: u64) -> u32 {
        self.free -= bits;
        self.put(self.free, x);
        self.free
    }

    /// Add `x << position`.
    fn put(&mut self, position: u32, x: u64) {
        if x != 0 {
            self.value = self.value.add(W::from_u64_shl(x, position));
        }
    }

    fn finish(self) -> W {
        debug_assert_eq!(self.free, 0, "the fields fill the layout");
        self.value
    }
}
