//! Fixed-width signed integers for the lexicographic edge weights.
//!
//! The Dutch criteria are compared lexicographically; packed into one number
//! per edge they need several hundred bits at a few hundred players, far more
//! than `i128`. [`Wide<N>`] is a two's-complement integer of `N` 64-bit limbs
//! with exactly the operations the matching needs (add, subtract, halve,
//! shift, compare). The width is chosen per round from the bit budget.

use std::cmp::Ordering;

/// Arithmetic a matching weight needs. Implemented for `i64` (tests) and
/// [`Wide<N>`].
pub(crate) trait Weight: Copy + Eq + Ord + std::hash::Hash + std::fmt::Debug {
    /// Zero.
    fn zero() -> Self;
    /// A small non-negative value.
    fn from_u64(v: u64) -> Self;
    /// `self + o` (wrapping).
    fn add(self, o: Self) -> Self;
    /// `self - o` (wrapping).
    fn sub(self, o: Self) -> Self;
    /// `self + b - c` (wrapping), in one pass where that is faster.
    fn add_sub(self, b: Self, c: Self) -> Self {
        self.add(b).sub(c)
    }
    /// `self / 2`, rounding towards negative infinity.
    fn half(self) -> Self;
    /// `self << bits`.
    fn shl(self, bits: u32) -> Self;
    /// `1 << bit`.
    fn bit(bit: u32) -> Self {
        Self::from_u64(1).shl(bit)
    }
    /// `v << bits` for a small `v` that fits at that place.
    fn from_u64_shl(v: u64, bits: u32) -> Self {
        Self::from_u64(v).shl(bits)
    }
    /// `self * 2`.
    fn double(self) -> Self {
        self.add(self)
    }
    /// Whether the value is zero.
    fn is_zero(self) -> bool {
        self == Self::zero()
    }
}

impl Weight for i64 {
    fn zero() -> Self {
        0
    }
    fn from_u64(v: u64) -> Self {
        v as i64
    }
    fn add(self, o: Self) -> Self {
        self.wrapping_add(o)
    }
    fn sub(self, o: Self) -> Self {
        self.wrapping_sub(o)
    }
    fn half(self) -> Self {
        self >> 1
    }
    fn shl(self, bits: u32) -> Self {
        self << bits
    }
}

/// A signed two's-complement integer of `N` little-endian 64-bit limbs.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) struct Wide<const N: usize>(pub [u64; N]);

impl<const N: usize> std::fmt::Debug for Wide<N> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "0x")?;
        for limb in self.0.iter().rev() {
            write!(f, "{limb:016x}")?;
        }
        Ok(())
    }
}

impl<const N: usize> Wide<N> {
    #[inline(always)]
    fn negative(&self) -> bool {
        (self.0[N - 1] >> 63) == 1
    }
}

impl<const N: usize> Ord for Wide<N> {
    #[inline(always)]
    fn cmp(&self, other: &Self) -> Ordering {
        match (self.negative(), other.negative()) {
            (true, false) => return Ordering::Less,
            (false, true) => return Ordering::Greater,
            _ => {}
        }
        for i in (0..N).rev() {
            match self.0[i].cmp(&other.0[i]) {
                Ordering::Equal => {}
                unequal => return unequal,
            }
        }
        Ordering::Equal
    }
}

impl<const N: usize> PartialOrd for Wide<N> {
    #[inline(always)]
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl<const N: usize> Weight for Wide<N> {
    fn zero() -> Self {
        Wide([0; N])
    }
    fn from_u64(v: u64) -> Self {
        let mut limbs = [0; N];
        limbs[0] = v;
        Wide(limbs)
    }
    #[inline]
    fn from_u64_shl(v: u64, bits: u32) -> Self {
        let mut limbs = [0; N];
        let (limb, rest) = ((bits / 64) as usize, bits % 64);
        if limb < N {
            limbs[limb] = v << rest;
        }
        if rest > 0 && limb + 1 < N {
            limbs[limb + 1] = v >> (64 - rest);
        }
        Wide(limbs)
    }
    #[inline(always)]
    fn add(self, o: Self) -> Self {
        let mut out = [0u64; N];
        let mut carry = false;
        for (i, limb) in out.iter_mut().enumerate() {
            (*limb, carry) = self.0[i].carrying_add(o.0[i], carry);
        }
        Wide(out)
    }
    #[inline(always)]
    fn sub(self, o: Self) -> Self {
        let mut out = [0u64; N];
        let mut borrow = false;
        for (i, limb) in out.iter_mut().enumerate() {
            (*limb, borrow) = self.0[i].borrowing_sub(o.0[i], borrow);
        }
        Wide(out)
    }
    #[inline(always)]
    fn add_sub(self, b: Self, c: Self) -> Self {
        let mut out = [0u64; N];
        let (mut carry, mut borrow) = (false, false);
        for (i, limb) in out.iter_mut().enumerate() {
            let sum;
            (sum, carry) = self.0[i].carrying_add(b.0[i], carry);
            (*limb, borrow) = sum.borrowing_sub(c.0[i], borrow);
        }
        Wide(out)
    }
    fn half(self) -> Self {
        let mut out = [0u64; N];
        for (i, limb) in out.iter_mut().enumerate() {
            let high = if i + 1 < N {
                self.0[i + 1] << 63
            } else if self.negative() {
                1 << 63
            } else {
                0
            };
            *limb = (self.0[i] >> 1) | high;
        }
        Wide(out)
    }
    #[inline(always)]
    fn is_zero(self) -> bool {
        self.0.iter().all(|&l| l == 0)
    }
    fn shl(self, bits: u32) -> Self {
        let limbs = (bits / 64) as usize;
        let rest = bits % 64;
        let mut out = [0u64; N];
        for i in (limbs..N).rev() {
            let src = i - limbs;
            let mut v = self.0[src] << rest;
            if rest > 0 && src > 0 {
                v |= self.0[src - 1] >> (64 - rest);
            }
            out[i] = v;
        }
        Wide(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn w(v: i128) -> Wide<2> {
        Wide([v as u64, (v >> 64) as u64])
    }

    #[test]
    fn arithmetic_matches_i128() {
        let values: [i128; 9] = [
            0,
            1,
            -1,
            7,
            -8,
            1 << 70,
            -(1 << 70),
            i64::MAX as i128,
            12345678901234567890,
        ];
        for &a in &values {
            assert_eq!(w(a).half(), w(a >> 1), "half {a}");
            assert_eq!(w(a).shl(3), w(a.wrapping_shl(3)));
            assert_eq!(w(a).shl(64), w(a.wrapping_shl(64)));
            for &b in &values {
                assert_eq!(w(a).add(w(b)), w(a.wrapping_add(b)));
                assert_eq!(w(a).sub(w(b)), w(a.wrapping_sub(b)));
                for &c in &values {
                    let sum = a.wrapping_add(b).wrapping_sub(c);
                    assert_eq!(w(a).add_sub(w(b), w(c)), w(sum));
                }
                assert_eq!(w(a).cmp(&w(b)), a.cmp(&b), "{a} vs {b}");
            }
        }
    }

    #[test]
    fn placed_small_values_match_shifting() {
        for v in [0u64, 1, 3, 255, u64::MAX >> 1, u64::MAX] {
            for bits in [0, 1, 5, 63, 64, 65, 100, 127, 128, 190, 191, 192, 250] {
                assert_eq!(
                    Wide::<3>::from_u64_shl(v, bits),
                    Wide::<3>::from_u64(v).shl(bits),
                    "{v} << {bits}"
                );
            }
        }
    }
}
