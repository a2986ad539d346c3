//! Move-ordering memory: the history table of quiet moves (how often a quiet move caused a cutoff,
//! per side), the capture history (per side, moving piece and target, captured kind), the
//! continuation histories (a quiet move's record as the answer to the move one or two plies
//! before it) and killer moves (two quiet cutoff moves per ply).

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
        *v = gravity(*v, bonus);
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

/// The gravity update shared by every table: `v` moves towards ±[`HISTORY_MAX`] by `bonus`,
/// the more slowly the closer it is.
#[inline]
fn gravity(v: i32, bonus: i32) -> i32 {
    let bonus = bonus.clamp(-HISTORY_MAX, HISTORY_MAX);
    v + bonus - v * bonus.abs() / HISTORY_MAX
}

/// History of captures per side, indexed by the move's
/// [`history_index`](crate::search::TwoSided::history_index) and the captured kind
/// ([`captured_kind`](crate::search::TwoSided::captured_kind)): which captures tend to cut.
#[derive(Clone, Debug, Default)]
pub struct CaptureHistory {
    table: Vec<i16>,
    moves: usize,
    kinds: usize,
}

impl CaptureHistory {
    /// Makes room for `moves` move indices and `kinds` captured kinds, clearing on a change.
    pub fn ensure(&mut self, moves: usize, kinds: usize) {
        if (self.moves, self.kinds) != (moves, kinds) {
            (self.moves, self.kinds) = (moves, kinds);
            self.table = vec![0; 2 * moves * kinds];
        }
    }

    #[inline]
    fn slot(&self, side: usize, index: usize, kind: usize) -> Option<usize> {
        (index < self.moves && kind < self.kinds)
            .then(|| (side * self.moves + index) * self.kinds + kind)
    }

    /// The score of a capture.
    #[inline]
    pub fn get(&self, side: usize, index: usize, kind: usize) -> Score {
        self.slot(side, index, kind)
            .map_or(0, |i| self.table[i] as Score)
    }

    /// Rewards or punishes a capture.
    #[inline]
    pub fn update(&mut self, side: usize, index: usize, kind: usize, bonus: i32) {
        if let Some(i) = self.slot(side, index, kind) {
            self.table[i] = gravity(self.table[i] as i32, bonus) as i16;
        }
    }

    /// Forgets everything.
    pub fn clear(&mut self) {
        self.table.iter_mut().for_each(|v| *v = 0);
    }

    /// Halves every value.
    pub fn age(&mut self) {
        self.table.iter_mut().for_each(|v| *v /= 2);
    }
}

/// Largest continuation table indexed directly by the pair of move indices; games with more
/// pairs (Spider-Chess: ~8,500 piece-and-square indices) share a table of this size, each earlier
/// move's row of answers starting at a hashed slot (collisions only blur the ordering).
const CONTINUATION_SLOTS: usize = 1 << 21;
/// Shift that keeps a 64-bit hash's top bits, one per bit of a slot number.
const SLOT_SHIFT: u32 = 64 - CONTINUATION_SLOTS.trailing_zeros();

/// Continuation history: how good a quiet move (by its history index) was as the answer to a
/// given earlier move (by that move's history index), for one distance in plies.
#[derive(Clone, Debug, Default)]
pub struct ContinuationHistory {
    table: Vec<i16>,
    moves: usize,
    hashed: bool,
}

impl ContinuationHistory {
    /// Makes room for pairs of `moves` move indices, clearing on a change.
    pub fn ensure(&mut self, moves: usize) {
        if self.moves != moves || self.table.is_empty() {
            self.moves = moves;
            let pairs = moves.saturating_mul(moves);
            self.hashed = pairs > CONTINUATION_SLOTS;
            self.table = vec![0; pairs.clamp(1, CONTINUATION_SLOTS)];
        }
    }

    #[inline]
    fn slot(&self, prev: usize, index: usize) -> Option<usize> {
        if prev >= self.moves || index >= self.moves {
            return None;
        }
        Some(if self.hashed {
            // The earlier move picks where its row starts; the answers lie side by side from
            // there, so scoring one position's quiet moves reads one region, not scattered lines.
            let base = (prev as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15) >> SLOT_SHIFT;
            (base as usize + index) & (CONTINUATION_SLOTS - 1)
        } else {
            prev * self.moves + index
        })
    }

    /// The score of `index` answering `prev`.
    #[inline]
    pub fn get(&self, prev: usize, index: usize) -> Score {
        self.slot(prev, index).map_or(0, |i| self.table[i] as Score)
    }

    /// Rewards or punishes `index` as the answer to `prev`.
    #[inline]
    pub fn update(&mut self, prev: usize, index: usize, bonus: i32) {
        if let Some(i) = self.slot(prev, index) {
            self.table[i] = gravity(self.table[i] as i32, bonus) as i16;
        }
    }

    /// Forgets everything.
    pub fn clear(&mut self) {
        self.table.iter_mut().for_each(|v| *v = 0);
    }

    /// Halves every value.
    pub fn age(&mut self) {
        self.table.iter_mut().for_each(|v| *v /= 2);
    }
}

/// Every move-ordering table of a searcher, kept between searches.
#[derive(Clone, Debug)]
pub struct Heuristics<M> {
    /// Quiet moves per side.
    pub main: History,
    /// Captures per side.
    pub capture: CaptureHistory,
    /// Quiet moves after the move one ply (`[0]`) and two plies (`[1]`) before.
    pub continuation: [ContinuationHistory; 2],
    /// Quiet cutoff moves per ply.
    pub killers: Killers<M>,
}

impl<M: Copy + Eq> Default for Heuristics<M> {
    fn default() -> Self {
        Heuristics {
            main: History::default(),
            capture: CaptureHistory::default(),
            continuation: Default::default(),
            killers: Killers::default(),
        }
    }
}

impl<M: Copy + Eq> Heuristics<M> {
    /// Sizes the tables for a game (clearing those whose size changes).
    pub fn ensure(&mut self, moves: usize, kinds: usize) {
        self.main.ensure(moves);
        self.capture.ensure(moves, kinds);
        for c in &mut self.continuation {
            c.ensure(moves);
        }
    }

    /// Forgets everything (a new game).
    pub fn clear(&mut self) {
        self.main.clear();
        self.capture.clear();
        for c in &mut self.continuation {
            c.clear();
        }
        self.killers.clear();
    }

    /// Between searches: old knowledge fades, killers of the last search are dropped.
    pub fn age(&mut self) {
        self.main.age();
        self.capture.age();
        for c in &mut self.continuation {
            c.age();
        }
        self.killers.clear();
    }

    /// The ordering score of a quiet move with history index `index` for `side`, given the
    /// history indices of the moves one and two plies before (if any).
    #[inline]
    pub fn quiet_score(&self, side: usize, index: usize, prev: [Option<usize>; 2]) -> Score {
        let mut s = self.main.get(side, index);
        for (c, p) in self.continuation.iter().zip(prev) {
            if let Some(p) = p {
                s += c.get(p, index);
            }
        }
        s
    }

    /// Rewards (`bonus > 0`) or punishes a quiet move in the main and continuation histories.
    #[inline]
    pub fn update_quiet(
        &mut self,
        side: usize,
        index: usize,
        prev: [Option<usize>; 2],
        bonus: i32,
    ) {
        self.main.update(side, index, bonus);
        for (c, p) in self.continuation.iter_mut().zip(prev) {
            if let Some(p) = p {
                c.update(p, index, bonus);
            }
        }
    }
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
    fn capture_and_continuation_tables_keep_their_entries_apart() {
        let mut c = CaptureHistory::default();
        c.ensure(10, 3);
        c.update(0, 4, 2, 900);
        assert_eq!(c.get(0, 4, 2), 900);
        assert_eq!((c.get(1, 4, 2), c.get(0, 4, 1), c.get(0, 5, 2)), (0, 0, 0));
        c.update(0, 10, 0, 900);
        assert_eq!(c.get(0, 10, 0), 0, "out of range is ignored");
        for moves in [20, 5000] {
            let mut h = ContinuationHistory::default();
            h.ensure(moves);
            assert_eq!(h.hashed, moves * moves > CONTINUATION_SLOTS);
            h.update(3, 7, 1000);
            assert_eq!(h.get(3, 7), 1000);
            assert_eq!(h.get(7, 3), 0, "a pair is ordered");
            for _ in 0..200 {
                h.update(3, 7, -HISTORY_MAX);
            }
            assert!(h.get(3, 7) >= -HISTORY_MAX && h.get(3, 7) < -HISTORY_MAX / 2);
            h.age();
            assert_eq!(h.get(3, 7), -HISTORY_MAX / 2);
        }
        // Hashed, the answers to one earlier move still lie side by side (one region per
        // position's quiet moves), and different earlier moves start their rows apart.
        let mut h = ContinuationHistory::default();
        h.ensure(8_500);
        let row = |prev| h.slot(prev, 0).expect("in range");
        for i in [1, 17, 8_499] {
            assert_eq!(h.slot(42, i), Some((row(42) + i) % CONTINUATION_SLOTS));
        }
        assert_ne!(row(42), row(43));
        let mut all = Heuristics::<u8>::default();
        all.ensure(20, 2);
        all.update_quiet(1, 5, [Some(2), None], 400);
        assert_eq!(all.quiet_score(1, 5, [Some(2), None]), 800);
        assert_eq!(all.quiet_score(1, 5, [None, Some(2)]), 400);
        assert_eq!(all.quiet_score(0, 5, [None, None]), 0);
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
