//! Correction history: how far searches found the static evaluation off in positions sharing a
//! structure (the game's [`structure_key`](crate::search::TwoSided::structure_key), e.g. the
//! pawns), per side to move; the search adds it to the static evaluation before pruning.

use crate::search::Score;

/// Slots per side (a power of two; the structure key's low bits pick one).
const SLOTS: usize = 1 << 14;
/// Fixed-point scale of an entry (an entry of `GRAIN` is one centipawn).
const GRAIN: i32 = 256;
/// Largest miss one update counts, in centipawns.
const MAX_MISS: Score = 96;
/// Largest share (of 256) an update moves an entry.
const MAX_WEIGHT: i32 = 128;

/// Running averages of `search result − static evaluation` per side and structure slot.
#[derive(Clone, Debug)]
pub struct Correction {
    table: Vec<i32>,
}

impl Default for Correction {
    fn default() -> Self {
        Correction {
            table: vec![0; 2 * SLOTS],
        }
    }
}

impl Correction {
    #[inline]
    fn slot(side: usize, key: u64) -> usize {
        side * SLOTS + (key as usize & (SLOTS - 1))
    }

    /// Forgets everything (a new game).
    pub fn clear(&mut self) {
        self.table.iter_mut().for_each(|v| *v = 0);
    }

    /// The correction, in centipawns, for `side` to move in a position of structure `key`.
    #[inline]
    pub fn get(&self, side: usize, key: u64) -> Score {
        self.table[Self::slot(side, key)] / GRAIN
    }

    /// Moves the entry towards `miss` (search result minus static evaluation, capped at
    /// ±[`MAX_MISS`]) by `min(d² + 2d + 1, 128)/256` of the way: deeper searches weigh more.
    pub fn update(&mut self, side: usize, key: u64, miss: Score, depth: i32) {
        let d = depth.max(0);
        let weight = (d * d + 2 * d + 1).min(MAX_WEIGHT);
        let target = miss.clamp(-MAX_MISS, MAX_MISS) * GRAIN;
        let entry = &mut self.table[Self::slot(side, key)];
        *entry += (target - *entry) * weight / 256;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_fresh_table_corrects_nothing() {
        let c = Correction::default();
        assert_eq!(c.get(0, 12345), 0);
        assert_eq!(c.get(1, u64::MAX), 0);
    }

    #[test]
    fn updates_move_towards_the_miss_and_deeper_ones_further() {
        let mut shallow = Correction::default();
        shallow.update(0, 7, 80, 1);
        let mut deep = Correction::default();
        deep.update(0, 7, 80, 12);
        // depth 1 weighs 4/256, depth 12 the maximum 128/256 (169 capped).
        assert_eq!(shallow.get(0, 7), 80 * 4 / 256);
        assert_eq!(deep.get(0, 7), 40);
        // The other side and other structures are untouched.
        assert_eq!(deep.get(1, 7), 0);
        assert_eq!(deep.get(0, 8), 0);
        for _ in 0..50 {
            deep.update(0, 7, 80, 12);
        }
        assert!((79..=80).contains(&deep.get(0, 7)));
    }

    #[test]
    fn misses_are_capped_and_clear_forgets() {
        let mut c = Correction::default();
        for _ in 0..50 {
            c.update(1, 3, -5_000, 20);
        }
        assert!((-MAX_MISS..=-MAX_MISS + 1).contains(&c.get(1, 3)));
        c.clear();
        assert_eq!(c.get(1, 3), 0);
    }
}
