//! The move picker: orders a node's moves lazily — the TT move first, then noisy moves by MVV/LVA,
//! then the two killers, then quiet moves by history — picking the best remaining one at a time so
//! that a cutoff after the first move costs no sorting.

use crate::search::{Score, TwoSided};

use super::history::{History, HISTORY_MAX};

const TT_MOVE: i32 = i32::MAX;
const NOISY: i32 = 1 << 26;
const KILLER: i32 = 1 << 25;

/// Reusable buffers of one ply: the moves and their ordering scores.
#[derive(Clone, Debug)]
pub struct MovePicker<M> {
    moves: Vec<M>,
    scores: Vec<i32>,
    next: usize,
}

impl<M> Default for MovePicker<M> {
    fn default() -> Self {
        MovePicker {
            moves: Vec::with_capacity(256),
            scores: Vec::with_capacity(256),
            next: 0,
        }
    }
}

/// Ordering score of a noisy move: most valuable victim first, least valuable attacker next.
#[inline]
pub fn mvv_lva<G: TwoSided>(pos: &G, mv: G::Move) -> i32 {
    let victim = pos.victim_value(mv).clamp(0, 100_000);
    let attacker = pos.attacker_value(mv).clamp(0, 100_000);
    victim * 64 - attacker / 16
}

impl<M: Copy + Eq> MovePicker<M> {
    /// Fills the picker with every legal move of `pos`, scored for a main-search node.
    pub fn legal<G: TwoSided<Move = M>>(
        &mut self,
        pos: &G,
        tt_move: Option<M>,
        killers: [Option<M>; 2],
        history: &History,
        side: usize,
    ) {
        pos.legal_moves(&mut self.moves);
        self.scores.clear();
        self.next = 0;
        for &mv in &self.moves {
            let s = if Some(mv) == tt_move {
                TT_MOVE
            } else if !pos.is_quiet(mv) {
                NOISY + mvv_lva(pos, mv)
            } else if Some(mv) == killers[0] {
                KILLER + 1
            } else if Some(mv) == killers[1] {
                KILLER
            } else {
                history
                    .get(side, pos.history_index(mv))
                    .clamp(-HISTORY_MAX, HISTORY_MAX)
            };
            self.scores.push(s);
        }
    }

    /// Fills the picker with the noisy moves of `pos` by MVV/LVA (quiescence).
    pub fn noisy<G: TwoSided<Move = M>>(&mut self, pos: &G) {
        pos.noisy_moves(&mut self.moves);
        self.scores.clear();
        self.next = 0;
        for &mv in &self.moves {
            self.scores.push(mvv_lva(pos, mv));
        }
    }

    /// Number of moves generated.
    pub fn len(&self) -> usize {
        self.moves.len()
    }

    /// Whether no move was generated.
    pub fn is_empty(&self) -> bool {
        self.moves.is_empty()
    }

    /// The best-scored move not yet returned, with its ordering score.
    #[inline]
    pub fn next(&mut self) -> Option<(M, Score)> {
        let start = self.next;
        if start >= self.moves.len() {
            return None;
        }
        let mut best = start;
        for i in start + 1..self.moves.len() {
            if self.scores[i] > self.scores[best] {
                best = i;
            }
        }
        self.moves.swap(start, best);
        self.scores.swap(start, best);
        self.next += 1;
        Some((self.moves[start], self.scores[start]))
    }

    /// The moves returned so far, in order (for history maluses on a cutoff).
    pub fn picked(&self) -> &[M] {
        &self.moves[..self.next]
    }

    /// Whether an ordering score is that of a quiet move (for reductions and history).
    pub fn is_quiet_score(score: Score) -> bool {
        score < KILLER
    }
}
