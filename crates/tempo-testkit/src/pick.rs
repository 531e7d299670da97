//! [`PickRng`]: the draw of move indices of the benchmarks and the
//! rules' digest tests.

/// A small seeded generator of choice indices (wyrand: one multiplication
/// per draw, reproducible), so that the generator costs little beside
/// what is measured.
#[derive(Debug, Clone)]
pub struct PickRng(u64);

impl PickRng {
    /// A generator whose draws depend only on `seed`.
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

#[cfg(test)]
mod tests {
    use super::PickRng;

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
