//! The searches' random number generator: wyrand (Wang Yi's 64-bit generator), seeded through
//! SplitMix64. Small, fast (one multiply per 64 bits) and fully specified here, so a seeded search
//! gives the same result whatever the `rand` version.

use rand::{Error, RngCore, SeedableRng};

/// The generator behind [`SearchRng`](super::SearchRng).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WyRand(u64);

impl WyRand {
    /// The next 64 random bits.
    #[inline]
    pub fn next_bits(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0xa076_1d64_78bd_642f);
        let t = u128::from(self.0) * u128::from(self.0 ^ 0xe703_7ed1_a0b4_28db);
        ((t >> 64) as u64) ^ (t as u64)
    }
}

impl RngCore for WyRand {
    #[inline]
    fn next_u32(&mut self) -> u32 {
        (self.next_bits() >> 32) as u32
    }
    #[inline]
    fn next_u64(&mut self) -> u64 {
        self.next_bits()
    }
    fn fill_bytes(&mut self, dest: &mut [u8]) {
        for chunk in dest.chunks_mut(8) {
            let v = self.next_bits().to_le_bytes();
            chunk.copy_from_slice(&v[..chunk.len()]);
        }
    }
    fn try_fill_bytes(&mut self, dest: &mut [u8]) -> Result<(), Error> {
        self.fill_bytes(dest);
        Ok(())
    }
}

impl SeedableRng for WyRand {
    type Seed = [u8; 8];
    fn from_seed(seed: [u8; 8]) -> WyRand {
        WyRand(u64::from_le_bytes(seed))
    }
    fn seed_from_u64(seed: u64) -> WyRand {
        // SplitMix64 of the seed, so nearby seeds give unrelated streams.
        let mut z = seed.wrapping_add(0x9e37_79b9_7f4a_7c15);
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        WyRand(z ^ (z >> 31))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::Rng;

    #[test]
    fn seeded_streams_repeat_and_spread() {
        let mut a = WyRand::seed_from_u64(7);
        let mut b = WyRand::seed_from_u64(7);
        let xs: Vec<u64> = (0..4).map(|_| a.next_bits()).collect();
        let ys: Vec<u64> = (0..4).map(|_| b.next_bits()).collect();
        assert_eq!(xs, ys);
        assert_ne!(WyRand::seed_from_u64(8).next_bits(), xs[0]);
        let mut counts = [0u32; 10];
        for _ in 0..100_000 {
            counts[a.gen_range(0..10)] += 1;
        }
        assert!(
            counts.iter().all(|&c| (9_000..11_000).contains(&c)),
            "{counts:?}"
        );
    }
}
