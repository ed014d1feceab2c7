//! Sparse per-flow state: a hash map keyed by (source, destination), for lookup only.
//!
//! A network of N NICs has N^2 possible flows but only the active ones hold state (at most
//! one entry per queued destination, outstanding packet or throttled flow), so the memory
//! is per active flow, not per NIC pair (issue 43: 16,512 NICs would need 272 M flow
//! records). Nothing iterates these maps where the order could change a result: the order
//! of service lives in ordered lists (a NIC's round robin of destinations, `Nics::active`),
//! and the maps are only looked up. The hasher is fixed (no per-run random state), so even
//! a capacity-dependent layout is the same in every run.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

/// A flow's key: source in the high 32 bits, destination in the low.
#[inline]
pub fn key(src: u32, dst: u32) -> u64 {
    (src as u64) << 32 | dst as u64
}

/// A multiply-xorshift hasher for the u64 flow keys (no per-run random state).
#[derive(Clone, Copy, Debug, Default)]
pub struct FlowHasher(u64);

impl Hasher for FlowHasher {
    #[inline]
    fn finish(&self) -> u64 {
        // MurmurHash3's 64-bit finaliser: every key bit reaches the low (bucket) bits
        let mut h = self.0;
        h ^= h >> 33;
        h = h.wrapping_mul(0xFF51_AFD7_ED55_8CCD);
        h ^= h >> 33;
        h = h.wrapping_mul(0xC4CE_B9FE_1A85_EC53);
        h ^ (h >> 33)
    }
    #[inline]
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0.rotate_left(8) ^ b as u64).wrapping_mul(0x100_0000_01B3);
        }
    }
    #[inline]
    fn write_u64(&mut self, v: u64) {
        self.0 ^= v;
    }
    #[inline]
    fn write_u32(&mut self, v: u32) {
        self.0 ^= v as u64;
    }
}

/// Per-flow values of type `V`, keyed by [`key`]: a looked-up map, never iterated where
/// the order matters.
pub type FlowMap<V> = HashMap<u64, V, BuildHasherDefault<FlowHasher>>;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_are_distinct_and_maps_work() {
        let mut m: FlowMap<u32> = FlowMap::default();
        for s in 0..64 {
            for d in 0..64 {
                m.insert(key(s, d), s * 64 + d);
            }
        }
        assert_eq!(m.len(), 64 * 64);
        assert_eq!(m[&key(3, 5)], 3 * 64 + 5);
        assert_ne!(key(1, 0), key(0, 1));
    }
}
