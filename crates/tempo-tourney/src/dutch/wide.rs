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
pub trait Weight: Copy + Eq + Ord + std::fmt::Debug {
    /// Zero.
    fn zero() -> Self;
    /// A small non-negative value.
    fn from_u64(v: u64) -> Self;
    /// `self + o` (wrapping).
    fn add(self, o: Self) -> Self;
    /// `self - o` (wrapping).
    fn sub(self, o: Self) -> Self;
    /// `self / 2`, rounding towards negative infinity.
    fn half(self) -> Self;
    /// `self << bits`.
    fn shl(self, bits: u32) -> Self;
    /// `1 << bit`.
    fn bit(bit: u32) -> Self {
        Self::from_u64(1).shl(bit)
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
pub struct Wide<const N: usize>(pub [u64; N]);

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
    fn negative(&self) -> bool {
        (self.0[N - 1] >> 63) == 1
    }
}

impl<const N: usize> Ord for Wide<N> {
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
    fn add(self, o: Self) -> Self {
        let mut out = [0u64; N];
        let mut carry = false;
        for (i, limb) in out.iter_mut().enumerate() {
            let (s1, c1) = self.0[i].overflowing_add(o.0[i]);
            let (s2, c2) = s1.overflowing_add(carry as u64);
            *limb = s2;
            carry = c1 || c2;
        }
        Wide(out)
    }
    #[inline]
    fn sub(self, o: Self) -> Self {
        let mut out = [0u64; N];
        let mut borrow = false;
        for (i, limb) in out.iter_mut().enumerate() {
            let (d1, b1) = self.0[i].overflowing_sub(o.0[i]);
            let (d2, b2) = d1.overflowing_sub(borrow as u64);
            *limb = d2;
            borrow = b1 || b2;
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
    #[inline]
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
                assert_eq!(w(a).cmp(&w(b)), a.cmp(&b), "{a} vs {b}");
            }
        }
    }
}
