//! The `n`-th member of a bitboard, for drawing a move by its index:
//! BMI2's `pdep` where the CPU has it and runs it fast, a branch-free
//! binary search on population counts everywhere else.
//!
//! The build targets x86-64-v2, which has no BMI2, so `pdep` is used only
//! after asking the CPU at run time ([`pdep_is_fast`]), in code compiled
//! for BMI2 by `#[target_feature]`; the search is the fallback and the
//! only way on other architectures.

use crate::{Bitboard, Square};

/// The square of the `n`-th member (from a1 on, counting from 0) of `set`,
/// which has more than `n` members: the byte holding it found by a
/// branch-free binary search on population counts, the bit in the byte
/// looked up. Portable (the fallback of [`nth_square_pdep`]).
#[inline(always)]
pub(super) fn nth_square_search(set: Bitboard, n: u32) -> Square {
    let (mut bits, mut n, mut base) = (set.0, n, 0u32);
    for width in [32u32, 16, 8] {
        let low = (bits & ((1u64 << width) - 1)).count_ones();
        // Selects (conditional moves) rather than masks: a shift by a
        // constant, no shift by a register.
        let above = n >= low;
        n = if above { n - low } else { n };
        base = if above { base + width } else { base };
        bits = if above { bits >> width } else { bits };
    }
    let in_byte = NTH_BIT_OF_BYTE[(bits & 0xff) as usize][(n & 7) as usize];
    Square::new_masked(base + u32::from(in_byte))
}

/// `NTH_BIT_OF_BYTE[byte][n]`: the position of the `n`-th set bit of
/// `byte` (0 where it has no such bit).
static NTH_BIT_OF_BYTE: [[u8; 8]; 256] = {
    let mut table = [[0u8; 8]; 256];
    let mut byte = 0;
    while byte < 256 {
        let (mut bit, mut n) = (0, 0);
        while bit < 8 {
            if byte & (1 << bit) != 0 {
                table[byte][n] = bit as u8;
                n += 1;
            }
            bit += 1;
        }
        byte += 1;
    }
    table
};

/// [`nth_square_search`] by `pdep`: the bit `1 << n` deposited into the
/// `n`-th set bit of `set`, its index counted by `tzcnt` (four
/// instructions). Compiled for BMI1 and BMI2, so callable without
/// `unsafe` only from functions compiled for both (inlined there); any
/// other caller must make sure that the CPU has them.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "bmi1,bmi2")]
#[inline]
pub(super) fn nth_square_pdep(set: Bitboard, n: u32) -> Square {
    debug_assert!(n < set.count(), "member {n} of {set:?}");
    let deposited = std::arch::x86_64::_pdep_u64(1u64 << (n & 63), set.0);
    Square::new_masked(deposited.trailing_zeros())
}

/// Whether this CPU has BMI1 and BMI2 and runs `pdep` in hardware:
/// asked once, then read from a cache (one load and compare).
///
/// AMD CPUs before Zen 3 (families 0x17 and below, and Hygon's Zen-based
/// family 0x18) have BMI2 but run `pdep` in microcode, its latency growing
/// with the set bits of the mask (tens to hundreds of cycles for a bitboard
/// of targets), slower than the search it would replace: they take the
/// search. Intel has run `pdep` in 3 cycles since its first BMI2 CPU
/// (Haswell), AMD since Zen 3 (the gain: docs/performance.md).
#[cfg(target_arch = "x86_64")]
#[inline(always)]
pub(super) fn pdep_is_fast() -> bool {
    use std::sync::atomic::Ordering;
    let state = PDEP.load(Ordering::Relaxed);
    // The fast answer first: one compare on the CPUs that use `pdep`.
    if state == PDEP_FAST {
        true
    } else {
        state == PDEP_UNKNOWN && detect_pdep()
    }
}

/// [`pdep_is_fast`]'s cache: not asked yet, slow or missing, fast.
#[cfg(target_arch = "x86_64")]
static PDEP: std::sync::atomic::AtomicU8 = std::sync::atomic::AtomicU8::new(PDEP_UNKNOWN);
#[cfg(target_arch = "x86_64")]
const PDEP_UNKNOWN: u8 = 0;
#[cfg(target_arch = "x86_64")]
const PDEP_SLOW: u8 = 1;
#[cfg(target_arch = "x86_64")]
const PDEP_FAST: u8 = 2;

/// Asks the CPU (see [`pdep_is_fast`]) and caches the answer (a race only
/// stores the same answer twice).
#[cfg(target_arch = "x86_64")]
#[cold]
#[inline(never)]
fn detect_pdep() -> bool {
    let fast = std::arch::is_x86_feature_detected!("bmi1")
        && std::arch::is_x86_feature_detected!("bmi2")
        && !microcoded_pdep(cpu_vendor_and_family());
    let state = if fast { PDEP_FAST } else { PDEP_SLOW };
    PDEP.store(state, std::sync::atomic::Ordering::Relaxed);
    fast
}

/// Whether a CPU of this vendor (the 12 bytes of CPUID leaf 0) and family
/// (base plus extended family of leaf 1) runs `pdep` in microcode: AMD
/// before Zen 3 (family 0x19), and Hygon (Zen 1, family 0x18).
#[cfg(target_arch = "x86_64")]
fn microcoded_pdep((vendor, family): ([u8; 12], u32)) -> bool {
    match &vendor {
        b"AuthenticAMD" => family < 0x19,
        b"HygonGenuine" => true,
        _ => false,
    }
}

/// The CPU's vendor string and family (CPUID leaves 0 and 1).
#[cfg(target_arch = "x86_64")]
fn cpu_vendor_and_family() -> ([u8; 12], u32) {
    use std::arch::x86_64::__cpuid;
    let leaf0 = __cpuid(0);
    let mut vendor = [0u8; 12];
    for (chunk, word) in vendor
        .chunks_exact_mut(4)
        .zip([leaf0.ebx, leaf0.edx, leaf0.ecx])
    {
        chunk.copy_from_slice(&word.to_le_bytes());
    }
    let eax = __cpuid(1).eax;
    let base = (eax >> 8) & 0xf;
    let family = if base == 0xf {
        base + ((eax >> 20) & 0xff)
    } else {
        base
    };
    (vendor, family)
}

#[cfg(test)]
mod tests {
    use rand::{RngExt, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    use super::nth_square_search;
    use crate::{Bitboard, Square};

    /// Every member of random sets, and the extremes, by `f`.
    fn assert_finds_every_member(f: impl Fn(Bitboard, u32) -> Square) {
        let mut rng = ChaCha8Rng::seed_from_u64(31);
        for _ in 0..2_000 {
            let set = Bitboard(rng.random::<u64>() & rng.random::<u64>());
            for (n, sq) in set.into_iter().enumerate() {
                assert_eq!(f(set, n as u32), sq, "member {n} of {set:?}");
            }
        }
        assert_eq!(f(Bitboard::FULL, 63), Square::H8);
        assert_eq!(f(Bitboard::FULL, 0), Square::A1);
        assert_eq!(f(Bitboard::from(Square::A1), 0), Square::A1);
        assert_eq!(f(Bitboard::from(Square::H8), 0), Square::H8);
    }

    #[test]
    fn search_finds_every_member() {
        assert_finds_every_member(nth_square_search);
    }

    /// The `pdep` way, where this CPU has BMI2 (fast or not: it is tested
    /// wherever it can run).
    #[cfg(target_arch = "x86_64")]
    #[test]
    fn pdep_finds_every_member() {
        if std::arch::is_x86_feature_detected!("bmi1")
            && std::arch::is_x86_feature_detected!("bmi2")
        {
            // SAFETY: the CPU has BMI1 and BMI2 (just asked).
            assert_finds_every_member(|set, n| unsafe { super::nth_square_pdep(set, n) });
        }
    }

    /// The cached answer is the detected one, and stays.
    #[cfg(target_arch = "x86_64")]
    #[test]
    fn pdep_detection_is_cached() {
        let first = super::pdep_is_fast();
        assert_eq!(super::detect_pdep(), first);
        assert_eq!(super::pdep_is_fast(), first);
        if !std::arch::is_x86_feature_detected!("bmi2") {
            assert!(!first);
        }
    }

    #[cfg(target_arch = "x86_64")]
    #[test]
    fn slow_pdep_on_amd_before_zen_3() {
        assert!(super::microcoded_pdep((*b"AuthenticAMD", 0x17))); // Zen 1, Zen 2
        assert!(super::microcoded_pdep((*b"AuthenticAMD", 0x15))); // Excavator
        assert!(!super::microcoded_pdep((*b"AuthenticAMD", 0x19))); // Zen 3, Zen 4
        assert!(!super::microcoded_pdep((*b"AuthenticAMD", 0x1a))); // Zen 5
        assert!(super::microcoded_pdep((*b"HygonGenuine", 0x18)));
        assert!(!super::microcoded_pdep((*b"GenuineIntel", 0x6)));
    }
}
