//! The move picker: yields a node's moves in stages so that a cutoff often comes before the
//! expensive full generation — the hash move first (no generation at all), then the noisy moves
//! that do not lose material by static exchange (`noisy_moves`, cheap; by victim value and capture
//! history), then the quiet moves (killers first, the rest by history and continuation history),
//! then the losing captures. Within a stage the best remaining move is picked one at a time.
//!
//! The search may tell the picker to skip the quiet moves ([`MovePicker::skip_quiets`]); when that
//! happens before the quiet stage, they are never generated — on a board with ~300 moves per
//! position this is most of the cost of a frontier node.

use crate::search::{Score, TwoSided};

use super::history::{Heuristics, HISTORY_MAX};
use super::stats::CutStage;

const TT_MOVE: i32 = i32::MAX;
const NOISY: i32 = 1 << 26;
const KILLER: i32 = 1 << 25;
/// Ordering score of a losing capture (after every quiet move).
const BAD_NOISY: i32 = -(1 << 26);
/// Picks made by selection (one scan each) before the rest of a quiet list is sorted at once: a
/// cut usually comes in the first moves, and an all-node then pays `n log n`, not `n²`.
const SELECT_PICKS: usize = 3;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Stage {
    HashMove,
    GenerateNoisy,
    GoodNoisy,
    GenerateQuiet,
    Quiet,
    BadNoisy,
    /// Every legal move was generated and scored at once (root, evasions in quiescence).
    All,
    /// Quiescence: generate the noisy moves.
    QuiescenceGenerate,
    /// Quiescence: the noisy moves that do not lose material, nothing else.
    QuiescenceNoisy,
    Done,
}

/// Reusable buffers of one ply and the state of its staged generation. The default allocates
/// nothing (the searcher `mem::take`s a ply's picker at every node); buffers grow on first use.
#[derive(Clone, Debug)]
pub struct MovePicker<M> {
    stage: Stage,
    tt_move: Option<M>,
    killers: [Option<M>; 2],
    side: usize,
    /// History indices of the moves one and two plies before (continuation history).
    prev: [Option<usize>; 2],
    /// Whether to split captures by static exchange (the game has a real one).
    split: bool,
    skip_quiets: bool,
    /// Whether the quiet stage holds only the moves that give check (see
    /// [`only_checks`](Self::only_checks)).
    only_checks: bool,
    /// Quiescence: noisy moves whose victim is worth more than 0 and at most this are skipped
    /// before their exchange is evaluated (delta pruning; see [`set_futile_victim`](Self::set_futile_victim)).
    futile_victim: Score,
    noisy: Vec<M>,
    noisy_scores: Vec<i32>,
    bad: Vec<M>,
    bad_next: usize,
    moves: Vec<M>,
    scores: Vec<i32>,
    next: usize,
    /// Whether `moves[next..]` is already sorted best first.
    sorted: bool,
    /// Buffer for sorting `moves` with their scores.
    pairs: Vec<(i64, M)>,
}

impl<M> Default for MovePicker<M> {
    fn default() -> Self {
        MovePicker {
            stage: Stage::Done,
            tt_move: None,
            killers: [None, None],
            side: 0,
            prev: [None; 2],
            split: false,
            skip_quiets: false,
            only_checks: false,
            futile_victim: Score::MIN,
            noisy: Vec::new(),
            noisy_scores: Vec::new(),
            bad: Vec::new(),
            bad_next: 0,
            moves: Vec::new(),
            scores: Vec::new(),
            next: 0,
            sorted: false,
            pairs: Vec::new(),
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

/// Ordering score of a noisy move from the victim's value and the capture history.
#[inline]
fn noisy_score<G: TwoSided>(pos: &G, mv: G::Move, side: usize, h: &Heuristics<G::Move>) -> i32 {
    if !pos.exact_see() {
        return mvv_lva(pos, mv);
    }
    let victim = pos.victim_value(mv).clamp(0, 100_000);
    let history = h
        .capture
        .get(side, pos.history_index(mv), pos.captured_kind(mv));
    victim * 16 + history
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
    /// from this position's own hash entry, whose key determines the legal moves). `prev` holds
    /// the history indices of the moves one and two plies before; `split` whether to put captures
    /// that lose material by static exchange after the quiet moves.
    pub fn staged(
        &mut self,
        tt_move: Option<M>,
        killers: [Option<M>; 2],
        side: usize,
        prev: [Option<usize>; 2],
        split: bool,
    ) {
        self.stage = Stage::HashMove;
        self.tt_move = tt_move;
        self.killers = killers;
        self.side = side;
        self.prev = prev;
        self.split = split;
        self.skip_quiets = false;
        self.only_checks = false;
        self.bad.clear();
        self.bad_next = 0;
    }

    /// Generates every legal move of `pos` at once, ordered as the stages would order them
    /// (losing captures by static exchange are not moved back here).
    pub fn legal<G: TwoSided<Move = M>>(
        &mut self,
        pos: &G,
        tt_move: Option<M>,
        h: &Heuristics<M>,
        side: usize,
        prev: [Option<usize>; 2],
    ) {
        self.stage = Stage::All;
        self.tt_move = tt_move;
        self.killers = [None; 2];
        self.side = side;
        self.prev = prev;
        self.skip_quiets = false;
        pos.legal_moves(&mut self.moves);
        self.scores.clear();
        self.next = 0;
        self.sorted = false;
        for i in 0..self.moves.len() {
            let mv = self.moves[i];
            let s = if Some(mv) == tt_move {
                TT_MOVE
            } else if !pos.is_quiet(mv) {
                NOISY + noisy_score(pos, mv, side, h)
            } else {
                self.quiet_score(pos, mv, h)
            };
            self.scores.push(s);
        }
    }

    /// Prepares the noisy moves of a quiescence node: those that do not lose material by static
    /// exchange, best first (with the pessimistic default exchange test, every noisy move; the
    /// search applies that test itself).
    pub fn quiescence(&mut self, side: usize) {
        self.stage = Stage::QuiescenceGenerate;
        self.tt_move = None;
        self.killers = [None; 2];
        self.side = side;
        self.prev = [None; 2];
        self.split = true;
        self.skip_quiets = true;
        self.futile_victim = Score::MIN;
        self.bad.clear();
        self.bad_next = 0;
    }

    /// Quiescence: from now on skip the noisy moves whose victim is worth more than 0 and at
    /// most `limit` (those that cannot lift the score to alpha), before the exchange evaluation
    /// the picker would otherwise spend on them.
    pub fn set_futile_victim(&mut self, limit: Score) {
        self.futile_victim = limit;
    }

    /// From now on no quiet move is yielded (and none generated if the quiet stage has not begun).
    pub fn skip_quiets(&mut self) {
        self.skip_quiets = true;
    }

    /// Before the quiet stage begins: of the quiet moves (killers included) only those that give
    /// check ([`TwoSided::gives_check`]) are kept, so that the others are neither scored nor
    /// picked where the search would skip them anyway.
    pub fn only_checks(&mut self) {
        self.only_checks = true;
    }

    fn quiet_score<G: TwoSided<Move = M>>(&self, pos: &G, mv: M, h: &Heuristics<M>) -> i32 {
        if Some(mv) == self.killers[0] {
            KILLER + 1
        } else if Some(mv) == self.killers[1] {
            KILLER
        } else {
            h.quiet_score(self.side, pos.history_index(mv), self.prev)
                .clamp(-3 * HISTORY_MAX, 3 * HISTORY_MAX)
        }
    }

    fn generate_noisy<G: TwoSided<Move = M>>(&mut self, pos: &G, h: &Heuristics<M>) {
        pos.noisy_moves(&mut self.noisy);
        self.noisy_scores.clear();
        for i in 0..self.noisy.len() {
            let s = noisy_score(pos, self.noisy[i], self.side, h);
            self.noisy_scores.push(s);
        }
        self.next = 0;
    }

    /// The next noisy move of the good-capture stage, moving the losing ones aside (or, in
    /// quiescence, dropping them and the futile ones).
    fn next_good_noisy<G: TwoSided<Move = M>>(&mut self, pos: &G, keep_bad: bool) -> Option<M> {
        while self.next < self.noisy.len() {
            let best = best_from(&self.noisy_scores, self.next);
            self.noisy.swap(self.next, best);
            self.noisy_scores.swap(self.next, best);
            let mv = self.noisy[self.next];
            self.next += 1;
            if Some(mv) == self.tt_move {
                continue;
            }
            if !keep_bad {
                let victim = pos.victim_value(mv);
                if victim > 0 && victim <= self.futile_victim {
                    continue;
                }
            }
            if self.split && pos.exact_see() && !pos.see_ge(mv, 0) {
                if keep_bad {
                    self.bad.push(mv);
                }
                continue;
            }
            return Some(mv);
        }
        None
    }

    /// The next move to search with its ordering score, or `None` when every move was yielded.
    pub fn next<G: TwoSided<Move = M>>(
        &mut self,
        pos: &G,
        h: &Heuristics<M>,
    ) -> Option<(M, Score)> {
        loop {
            match self.stage {
                Stage::HashMove => {
                    self.stage = Stage::GenerateNoisy;
                    if let Some(mv) = self.tt_move {
                        return Some((mv, TT_MOVE));
                    }
                }
                Stage::GenerateNoisy => {
                    self.generate_noisy(pos, h);
                    self.stage = Stage::GoodNoisy;
                }
                Stage::QuiescenceGenerate => {
                    self.generate_noisy(pos, h);
                    self.stage = Stage::QuiescenceNoisy;
                }
                Stage::QuiescenceNoisy => match self.next_good_noisy(pos, false) {
                    Some(mv) => return Some((mv, NOISY)),
                    None => {
                        self.stage = Stage::Done;
                        return None;
                    }
                },
                Stage::GoodNoisy => match self.next_good_noisy(pos, true) {
                    Some(mv) => return Some((mv, NOISY)),
                    None => self.stage = Stage::GenerateQuiet,
                },
                Stage::GenerateQuiet => {
                    if self.skip_quiets {
                        self.stage = Stage::BadNoisy;
                        continue;
                    }
                    pos.quiet_moves(&self.noisy, &mut self.moves);
                    if let Some(tt) = self.tt_move {
                        if let Some(i) = self.moves.iter().position(|&m| m == tt) {
                            self.moves.swap_remove(i);
                        }
                    }
                    if self.only_checks {
                        self.moves.retain(|&m| pos.gives_check(m));
                    }
                    self.scores.clear();
                    for i in 0..self.moves.len() {
                        let s = self.quiet_score(pos, self.moves[i], h);
                        self.scores.push(s);
                    }
                    self.next = 0;
                    self.sorted = false;
                    self.stage = Stage::Quiet;
                }
                Stage::Quiet => {
                    if self.skip_quiets || self.next >= self.moves.len() {
                        self.stage = Stage::BadNoisy;
                        continue;
                    }
                    return Some(self.pick_listed());
                }
                Stage::BadNoisy => {
                    if self.bad_next >= self.bad.len() {
                        self.stage = Stage::Done;
                        return None;
                    }
                    let mv = self.bad[self.bad_next];
                    self.bad_next += 1;
                    return Some((mv, BAD_NOISY));
                }
                Stage::All => {
                    if self.next >= self.moves.len() {
                        self.stage = Stage::Done;
                        return None;
                    }
                    return Some(self.pick_listed());
                }
                Stage::Done => return None,
            }
        }
    }

    /// The best remaining move of `moves` (selection first, then one sort).
    fn pick_listed(&mut self) -> (M, Score) {
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
        (mv, s)
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

    /// Whether a full generation ([`legal`](Self::legal)) found no move.
    pub fn is_empty(&self) -> bool {
        self.stage == Stage::All && self.moves.is_empty()
    }

    /// Whether an ordering score is that of a quiet move that is neither the hash move nor a
    /// killer, or a losing capture (candidates for reductions and pruning).
    pub fn is_late_score(score: Score) -> bool {
        score < KILLER
    }

    /// Whether an ordering score is that of a noisy move of the good-capture stage of a staged
    /// node: one that does not lose material by the game's exact exchange evaluation (when the
    /// picker splits captures by it).
    pub fn is_good_noisy_score(score: Score) -> bool {
        score == NOISY
    }

    /// The stage a searched move came from, by its ordering score (`hash`: it is the hash move;
    /// `quiet`: it is neither a capture nor a promotion), for the search's counters.
    pub fn stage_of(hash: bool, quiet: bool, score: Score) -> CutStage {
        if hash {
            CutStage::Hash
        } else if !quiet {
            if Self::is_good_noisy_score(score) {
                CutStage::GoodNoisy
            } else {
                CutStage::BadNoisy
            }
        } else if Self::is_late_score(score) {
            CutStage::Quiet
        } else {
            CutStage::Killer
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stage_of_reads_the_ordering_score() {
        type P = MovePicker<u8>;
        assert_eq!(P::stage_of(true, true, KILLER), CutStage::Hash);
        assert_eq!(P::stage_of(false, false, NOISY), CutStage::GoodNoisy);
        assert_eq!(P::stage_of(false, false, BAD_NOISY), CutStage::BadNoisy);
        assert_eq!(P::stage_of(false, true, KILLER), CutStage::Killer);
        assert_eq!(P::stage_of(false, true, KILLER - 1), CutStage::Quiet);
    }
    use crate::search::toys::Wander;

    fn drain(p: &mut MovePicker<u8>, pos: &Wander, h: &Heuristics<u8>) -> Vec<u8> {
        std::iter::from_fn(|| p.next(pos, h).map(|(m, _)| m)).collect()
    }

    #[test]
    fn stages_yield_every_legal_move_once_in_order() {
        let pos = Wander::new(1);
        let mut h = Heuristics::default();
        h.ensure(pos.history_size(), 1);
        h.main.update(0, 4, 500);
        let mut p = MovePicker::default();
        p.staged(Some(3), [Some(5), Some(2)], 0, [None; 2], true);
        // Hash move, captures by MVV/LVA (1 takes the bigger victim), killers, history.
        assert_eq!(drain(&mut p, &pos, &h), [3, 1, 0, 5, 2, 4]);
        p.staged(Some(0), [None, None], 1, [None; 2], true);
        let all = drain(&mut p, &pos, &h);
        assert_eq!(all, [0, 1, 2, 3, 4, 5]);
        let mut l = MovePicker::default();
        l.legal(&pos, Some(3), &h, 0, [None; 2]);
        assert_eq!(drain(&mut l, &pos, &h), [3, 1, 0, 4, 2, 5]);
    }

    #[test]
    fn continuation_history_orders_quiet_moves() {
        let pos = Wander::new(1);
        let mut h = Heuristics::default();
        h.ensure(pos.history_size(), 1);
        h.continuation[0].update(1, 5, 800);
        h.continuation[1].update(0, 3, 500);
        let mut p = MovePicker::default();
        p.staged(None, [None; 2], 0, [Some(1), Some(0)], true);
        assert_eq!(drain(&mut p, &pos, &h), [1, 0, 5, 3, 4, 2]);
        p.staged(None, [None; 2], 0, [None, None], true);
        assert_eq!(drain(&mut p, &pos, &h), [1, 0, 2, 3, 4, 5]);
    }

    #[test]
    fn skipping_quiets_leaves_the_noisy_moves() {
        let pos = Wander::new(1);
        let h = Heuristics::default();
        let mut p = MovePicker::default();
        p.staged(Some(4), [Some(5), None], 0, [None; 2], true);
        p.skip_quiets();
        assert_eq!(drain(&mut p, &pos, &h), [4, 1, 0]);
        let mut q = MovePicker::default();
        q.quiescence(0);
        assert_eq!(drain(&mut q, &pos, &h), [1, 0]);
    }

    #[test]
    fn quiescence_skips_futile_victims() {
        let pos = Wander::new(1);
        let h = Heuristics::default();
        let mut q = MovePicker::default();
        // Victims worth more than 0 and at most the limit are skipped (move 0 takes 100, 1 101).
        q.quiescence(0);
        q.set_futile_victim(100);
        assert_eq!(drain(&mut q, &pos, &h), [1]);
        q.quiescence(0);
        q.set_futile_victim(101);
        assert_eq!(drain(&mut q, &pos, &h), Vec::<u8>::new());
        q.quiescence(0);
        assert_eq!(drain(&mut q, &pos, &h), [1, 0], "no limit: every capture");
    }

    #[test]
    fn no_captures_left_means_quiet_moves_only() {
        let mut pos = Wander::new(2);
        pos.captures_left = 0;
        let h = Heuristics::default();
        let mut p = MovePicker::default();
        p.staged(None, [Some(0), None], 0, [None; 2], true);
        assert_eq!(
            drain(&mut p, &pos, &h),
            [2, 3, 4, 5],
            "a stale killer is never yielded"
        );
    }
}
