//! Move-ordering memory of quiet moves: the history table (how often a quiet move caused a
//! cutoff, per side) and killer moves (two quiet cutoff moves per ply).

use crate::search::Score;

/// Largest magnitude a history value reaches; updates shrink towards it ("gravity").
pub const HISTORY_MAX: i32 = 16_384;
/// Deepest ply killers are kept for.
pub const MAX_PLY: usize = 128;

/// History scores per side and per move index (the game's
/// [`history_index`](crate::search::TwoSided::history_index)).
#[derive(Clone, Debug, Default)]
pub struct History {
    table: Vec<i32>,
    per_side: usize,
}

impl History {
    /// Makes room for `size` move indices per side, clearing if the size changes.
    pub fn ensure(&mut self, size: usize) {
        if self.per_side != size {
            self.per_side = size;
            self.table = vec![0; 2 * size];
        }
    }

    /// Forgets everything.
    pub fn clear(&mut self) {
        self.table.iter_mut().for_each(|v| *v = 0);
    }

    /// The history score of a move index for a side (0 or 1).
    #[inline]
    pub fn get(&self, side: usize, index: usize) -> Score {
        self.table
            .get(side * self.per_side + index)
            .copied()
            .unwrap_or(0)
    }

    /// Rewards (`bonus > 0`) or punishes a move; values stay within ±[`HISTORY_MAX`].
    #[inline]
    pub fn update(&mut self, side: usize, index: usize, bonus: i32) {
        if index >= self.per_side {
            return;
        }
        let v = &mut self.table[side * self.per_side + index];
        let bonus = bonus.clamp(-HISTORY_MAX, HISTORY_MAX);
        *v += bonus - *v * bonus.abs() / HISTORY_MAX;
    }

    /// Halves every value (between searches), so old knowledge fades.
    pub fn age(&mut self) {
        self.table.iter_mut().for_each(|v| *v /= 2);
    }
}

/// The bonus for a cutoff at `depth`.
#[inline]
pub fn bonus(depth: i32) -> i32 {
    (depth * depth * 16).min(HISTORY_MAX / 2)
}

/// Two quiet moves per ply that caused a cutoff at that ply in a sibling position.
#[derive(Clone, Debug)]
pub struct Killers<M> {
    slots: Vec<[Option<M>; 2]>,
}

impl<M: Copy + Eq> Default for Killers<M> {
    fn default() -> Self {
        Killers {
            slots: vec![[None; 2]; MAX_PLY + 1],
        }
    }
}

impl<M: Copy + Eq> Killers<M> {
    /// The killers at `ply`.
    #[inline]
    pub fn get(&self, ply: usize) -> [Option<M>; 2] {
        self.slots.get(ply).copied().unwrap_or([None; 2])
    }

    /// Records a quiet cutoff move at `ply` (most recent first, no duplicates).
    #[inline]
    pub fn add(&mut self, ply: usize, mv: M) {
        if let Some(s) = self.slots.get_mut(ply) {
            if s[0] != Some(mv) {
                s[1] = s[0];
                s[0] = Some(mv);
            }
        }
    }

    /// Forgets every killer.
    pub fn clear(&mut self) {
        self.slots.iter_mut().for_each(|s| *s = [None; 2]);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn history_saturates() {
        let mut h = History::default();
        h.ensure(10);
        for _ in 0..1000 {
            h.update(1, 3, bonus(20));
        }
        assert!(h.get(1, 3) <= HISTORY_MAX && h.get(1, 3) > HISTORY_MAX / 2);
        assert_eq!(h.get(0, 3), 0);
        h.update(0, 99, 100);
        assert_eq!(h.get(0, 99), 0);
        for _ in 0..1000 {
            h.update(1, 3, -bonus(20));
        }
        assert!(h.get(1, 3) < 0 && h.get(1, 3) >= -HISTORY_MAX);
    }

    #[test]
    fn killers_keep_two_distinct() {
        let mut k = Killers::<u8>::default();
        k.add(3, 1);
        k.add(3, 1);
        assert_eq!(k.get(3), [Some(1), None]);
        k.add(3, 2);
        k.add(3, 5);
        assert_eq!(k.get(3), [Some(5), Some(2)]);
        k.add(MAX_PLY + 50, 1);
        assert_eq!(k.get(MAX_PLY + 50), [None, None]);
    }
}
