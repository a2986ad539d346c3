//! The move picker: yields a node's moves in stages so that a cutoff often comes before the
//! expensive full generation — the hash move first (no generation at all), then noisy moves by
//! MVV/LVA (`noisy_moves`, cheap), then the remaining legal moves with the two killers first and
//! the rest by history. Within a stage the best remaining move is picked one at a time.

use crate::search::{Score, TwoSided};

use super::history::{History, HISTORY_MAX};

const TT_MOVE: i32 = i32::MAX;
const NOISY: i32 = 1 << 26;
const KILLER: i32 = 1 << 25;
/// Picks made by selection (one scan each) before the rest of a quiet list is sorted at once: a
/// cut usually comes in the first moves, and an all-node then pays `n log n`, not `n²`.
const SELECT_PICKS: usize = 3;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Stage {
    HashMove,
    GenerateNoisy,
    Noisy,
    GenerateQuiet,
    Quiet,
    /// Every legal move was generated and scored at once (root, evasions in quiescence).
    All,
}

/// Reusable buffers of one ply and the state of its staged generation. The default allocates
/// nothing (the searcher `mem::take`s a ply's picker at every node); buffers grow on first use.
#[derive(Clone, Debug)]
pub struct MovePicker<M> {
    stage: Stage,
    tt_move: Option<M>,
    killers: [Option<M>; 2],
    side: usize,
    noisy: Vec<M>,
    noisy_scores: Vec<i32>,
    moves: Vec<M>,
    scores: Vec<i32>,
    next: usize,
    /// Whether `moves[next..]` is already sorted best first.
    sorted: bool,
    /// Buffer for sorting `moves` with their scores.
    pairs: Vec<(i64, M)>,
    yielded: Vec<M>,
}

impl<M> Default for MovePicker<M> {
    fn default() -> Self {
        MovePicker {
            stage: Stage::All,
            tt_move: None,
            killers: [None, None],
            side: 0,
            noisy: Vec::new(),
            noisy_scores: Vec::new(),
            moves: Vec::new(),
            scores: Vec::new(),
            next: 0,
            sorted: false,
            pairs: Vec::new(),
            yielded: Vec::new(),
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

/// Index of the best score at or after `from` (first of equals).
#[inline]
fn best_from(scores: &[i32], from: usize) -> usize {
    let mut best = from;
    for i in from + 1..scores.len() {
        if scores[i] > scores[best] {
            best = i;
        }
    }
    best
}

impl<M: Copy + Eq> MovePicker<M> {
    /// Prepares staged generation for a main-search node. `tt_move` must be legal here (it comes
    /// from this position's own hash entry, whose key determines the legal moves).
    pub fn staged(&mut self, tt_move: Option<M>, killers: [Option<M>; 2], side: usize) {
        self.stage = Stage::HashMove;
        self.tt_move = tt_move;
        self.killers = killers;
        self.side = side;
        self.yielded.clear();
    }

    /// Generates every legal move of `pos` at once, ordered as the stages would order them.
    pub fn legal<G: TwoSided<Move = M>>(
        &mut self,
        pos: &G,
        tt_move: Option<M>,
        killers: [Option<M>; 2],
        history: &History,
        side: usize,
    ) {
        self.stage = Stage::All;
        self.tt_move = tt_move;
        self.killers = killers;
        self.side = side;
        self.yielded.clear();
        pos.legal_moves(&mut self.moves);
        self.scores.clear();
        self.next = 0;
        self.sorted = false;
        for i in 0..self.moves.len() {
            let mv = self.moves[i];
            let s = if Some(mv) == tt_move {
                TT_MOVE
            } else if !pos.is_quiet(mv) {
                NOISY + mvv_lva(pos, mv)
            } else {
                self.quiet_score(pos, mv, history)
            };
            self.scores.push(s);
        }
    }

    /// Generates the noisy moves of `pos` by MVV/LVA (quiescence).
    pub fn noisy<G: TwoSided<Move = M>>(&mut self, pos: &G) {
        self.stage = Stage::All;
        self.yielded.clear();
        pos.noisy_moves(&mut self.moves);
        self.scores.clear();
        self.next = 0;
        self.sorted = false;
        for i in 0..self.moves.len() {
            let s = mvv_lva(pos, self.moves[i]);
            self.scores.push(s);
        }
    }

    fn quiet_score<G: TwoSided<Move = M>>(&self, pos: &G, mv: M, history: &History) -> i32 {
        if Some(mv) == self.killers[0] {
            KILLER + 1
        } else if Some(mv) == self.killers[1] {
            KILLER
        } else {
            history
                .get(self.side, pos.history_index(mv))
                .clamp(-HISTORY_MAX, HISTORY_MAX)
        }
    }

    /// The next move to search with its ordering score, or `None` when every move was yielded.
    pub fn next<G: TwoSided<Move = M>>(
        &mut self,
        pos: &G,
        history: &History,
    ) -> Option<(M, Score)> {
        loop {
            match self.stage {
                Stage::HashMove => {
                    self.stage = Stage::GenerateNoisy;
                    if let Some(mv) = self.tt_move {
                        self.yielded.push(mv);
                        return Some((mv, TT_MOVE));
                    }
                }
                Stage::GenerateNoisy => {
                    pos.noisy_moves(&mut self.noisy);
                    self.noisy_scores.clear();
                    for i in 0..self.noisy.len() {
                        let s = mvv_lva(pos, self.noisy[i]);
                        self.noisy_scores.push(s);
                    }
                    self.next = 0;
                    self.sorted = false;
                    self.stage = Stage::Noisy;
                }
                Stage::Noisy => {
                    if self.next >= self.noisy.len() {
                        self.stage = Stage::GenerateQuiet;
                        continue;
                    }
                    let best = best_from(&self.noisy_scores, self.next);
                    self.noisy.swap(self.next, best);
                    self.noisy_scores.swap(self.next, best);
                    let (mv, s) = (self.noisy[self.next], self.noisy_scores[self.next]);
                    self.next += 1;
                    if Some(mv) != self.tt_move {
                        self.yielded.push(mv);
                        return Some((mv, NOISY + s));
                    }
                }
                Stage::GenerateQuiet => {
                    pos.quiet_moves(&self.noisy, &mut self.moves);
                    if let Some(tt) = self.tt_move {
                        if let Some(i) = self.moves.iter().position(|&m| m == tt) {
                            self.moves.remove(i);
                        }
                    }
                    self.scores.clear();
                    for i in 0..self.moves.len() {
                        let s = self.quiet_score(pos, self.moves[i], history);
                        self.scores.push(s);
                    }
                    self.next = 0;
                    self.sorted = false;
                    self.stage = Stage::Quiet;
                }
                Stage::Quiet | Stage::All => {
                    if self.next >= self.moves.len() {
                        return None;
                    }
                    if self.next >= SELECT_PICKS && !self.sorted {
                        self.sort_rest();
                    }
                    if !self.sorted {
                        let best = best_from(&self.scores, self.next);
                        self.moves.swap(self.next, best);
                        self.scores.swap(self.next, best);
                    }
                    let (mv, s) = (self.moves[self.next], self.scores[self.next]);
                    self.next += 1;
                    self.yielded.push(mv);
                    return Some((mv, s));
                }
            }
        }
    }

    /// Sorts `moves[next..]` (with their scores) best first, equal scores in list order.
    fn sort_rest(&mut self) {
        self.pairs.clear();
        for i in self.next..self.moves.len() {
            // Unique keys: the score, then the list position (earlier first).
            let key = ((self.scores[i] as i64) << 32) - i as i64;
            self.pairs.push((key, self.moves[i]));
        }
        self.pairs.sort_unstable_by_key(|p| std::cmp::Reverse(p.0));
        for (k, &(key, mv)) in self.pairs.iter().enumerate() {
            self.moves[self.next + k] = mv;
            self.scores[self.next + k] = (key >> 32) as i32 + (key & 0xffff_ffff != 0) as i32;
        }
        self.sorted = true;
    }

    /// Whether a full generation ([`legal`](Self::legal), [`noisy`](Self::noisy)) found no move.
    pub fn is_empty(&self) -> bool {
        self.stage == Stage::All && self.moves.is_empty()
    }

    /// The moves yielded so far, in order (for history maluses on a cutoff).
    pub fn yielded(&self) -> &[M] {
        &self.yielded
    }

    /// Whether an ordering score is that of a quiet move that is neither the hash move nor a
    /// killer (a candidate for reductions).
    pub fn is_late_quiet_score(score: Score) -> bool {
        score < KILLER
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::toys::Wander;

    fn drain(p: &mut MovePicker<u8>, pos: &Wander, h: &History) -> Vec<u8> {
        std::iter::from_fn(|| p.next(pos, h).map(|(m, _)| m)).collect()
    }

    #[test]
    fn stages_yield_every_legal_move_once_in_order() {
        let pos = Wander::new(1);
        let mut h = History::default();
        h.ensure(pos.history_size());
        h.update(0, 4, 500);
        let mut p = MovePicker::default();
        p.staged(Some(3), [Some(5), Some(2)], 0);
        // Hash move, captures by MVV/LVA (1 takes the bigger victim), killers, history.
        assert_eq!(drain(&mut p, &pos, &h), [3, 1, 0, 5, 2, 4]);
        assert_eq!(p.yielded(), [3, 1, 0, 5, 2, 4]);
        p.staged(Some(0), [None, None], 1);
        let all = drain(&mut p, &pos, &h);
        assert_eq!(all, [0, 1, 2, 3, 4, 5]);
        let mut l = MovePicker::default();
        l.legal(&pos, Some(3), [Some(5), Some(2)], &h, 0);
        assert_eq!(drain(&mut l, &pos, &h), [3, 1, 0, 5, 2, 4]);
    }

    #[test]
    fn no_captures_left_means_quiet_moves_only() {
        let mut pos = Wander::new(2);
        pos.captures_left = 0;
        let h = History::default();
        let mut p = MovePicker::default();
        p.staged(None, [Some(0), None], 0);
        assert_eq!(
            drain(&mut p, &pos, &h),
            [2, 3, 4, 5],
            "a stale killer is never yielded"
        );
    }
}
