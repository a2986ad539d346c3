//! The alpha-beta searcher: iterative deepening with aspiration windows, principal variation
//! search, a transposition table, quiescence search on noisy moves, null-move pruning, check
//! extension and late-move reductions, over any [`TwoSided`] game.

use std::sync::atomic::AtomicBool;

use crate::search::report::{mate_from_root, nps};
use crate::search::{Info, Limits, Outcome, Score, TwoSided, INFINITY, MATE, MATE_BOUND};

use super::history::{bonus, History, Killers, MAX_PLY};
use super::movepicker::MovePicker;
use super::timeman::Control;
use super::transposition::{from_tt, to_tt, Bound, TranspositionTable};

/// Deepest nominal depth iterative deepening goes to.
pub const MAX_DEPTH: u32 = 100;
/// Half-width of the first aspiration window, in centipawns.
const ASPIRATION: Score = 30;
/// Plies into quiescence within which a side in check searches all its evasions (beyond them
/// it stands pat like any other side).
const QS_EVASION_PLIES: u32 = 4;
/// Reverse futility margin per ply of depth.
const RFP_MARGIN: Score = 120;
/// Futility margin per ply of depth.
const FUTILITY_MARGIN: Score = 150;
/// Quiescence skips a capture when even winning the victim plus this margin stays below alpha.
const DELTA_MARGIN: Score = 200;

/// Switches for the pruning and ordering techniques (all on by default); turning them off gives a
/// plainer search for testing and comparison.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SearchOptions {
    /// Probe and store the transposition table.
    pub use_tt: bool,
    /// Null-move pruning (needs [`TwoSided::make_null`]).
    pub null_move: bool,
    /// Late-move reductions of quiet moves.
    pub lmr: bool,
    /// Aspiration windows around the previous iteration's score.
    pub aspiration: bool,
    /// Reverse futility, futility and late-move pruning near the horizon.
    pub pruning: bool,
}

impl Default for SearchOptions {
    fn default() -> Self {
        SearchOptions {
            use_tt: true,
            null_move: true,
            lmr: true,
            aspiration: true,
            pruning: true,
        }
    }
}

/// Tables that live from one search to the next.
struct Tables<M> {
    tt: TranspositionTable<M>,
    history: History,
    killers: Killers<M>,
    pickers: Vec<MovePicker<M>>,
    pv: Vec<Vec<M>>,
}

/// An alpha-beta searcher for one game type; keeps its hash table and move-ordering tables between
/// searches (reuse one per game; [`clear`](Searcher::clear) on a new game).
pub struct Searcher<G: TwoSided> {
    tables: Tables<G::Move>,
    options: SearchOptions,
}

impl<G: TwoSided> Searcher<G> {
    /// A searcher with a transposition table of `hash_mib` MiB.
    pub fn new(hash_mib: usize) -> Self {
        Searcher {
            tables: Tables {
                tt: TranspositionTable::new(hash_mib),
                history: History::default(),
                killers: Killers::default(),
                pickers: (0..=MAX_PLY + 1).map(|_| MovePicker::default()).collect(),
                pv: (0..=MAX_PLY + 1)
                    .map(|_| Vec::with_capacity(MAX_PLY + 1))
                    .collect(),
            },
            options: SearchOptions::default(),
        }
    }

    /// Resizes the transposition table (its contents are lost).
    pub fn resize(&mut self, hash_mib: usize) {
        self.tables.tt.resize(hash_mib);
    }

    /// Like [`resize`](Self::resize), but a table that cannot be allocated is an error and the
    /// old one is kept.
    pub fn try_resize(&mut self, hash_mib: usize) -> Result<(), String> {
        self.tables.tt.try_resize(hash_mib)
    }

    /// Forgets everything learned (a new game: `ucinewgame`, `new`).
    pub fn clear(&mut self) {
        self.tables.tt.clear();
        self.tables.history.clear();
        self.tables.killers.clear();
    }

    /// The technique switches in use.
    pub fn options(&self) -> SearchOptions {
        self.options
    }

    /// Changes the technique switches.
    pub fn set_options(&mut self, options: SearchOptions) {
        self.options = options;
    }

    /// Searches `root` within `limits` until a limit is reached or `stop` is set, calling `on_info`
    /// after every completed iteration. Returns a move whenever the root has one, even when
    /// stopped at once.
    pub fn search(
        &mut self,
        root: &G,
        limits: &Limits,
        stop: &AtomicBool,
        on_info: &mut dyn FnMut(&Info<G::Move>),
    ) -> Outcome<G::Move> {
        let mut pos = root.clone();
        let t = &mut self.tables;
        t.tt.new_search();
        t.history.ensure(pos.history_size());
        t.history.age();
        t.killers.clear();
        let mut w = Worker {
            t,
            opts: self.options,
            control: Control::new(limits, stop),
            nodes: 0,
            seldepth: 0,
            root_side: pos.ply() % 2,
        };
        w.iterate(&mut pos, limits, on_info)
    }
}

/// One running search.
struct Worker<'a, M> {
    t: &'a mut Tables<M>,
    opts: SearchOptions,
    control: Control<'a>,
    nodes: u64,
    seldepth: usize,
    root_side: usize,
}

/// What a root iteration found before it finished or was stopped.
struct RootResult {
    score: Score,
    /// Whether some move's search completed and raised alpha (its score and PV are trustworthy).
    improved: bool,
}

impl<M: Copy + Eq + std::fmt::Debug> Worker<'_, M> {
    fn iterate<G: TwoSided<Move = M>>(
        &mut self,
        pos: &mut G,
        limits: &Limits,
        on_info: &mut dyn FnMut(&Info<M>),
    ) -> Outcome<M> {
        let mut root_moves = Vec::new();
        {
            let tt_move = self.t.tt.probe(pos.key()).and_then(|e| e.mv);
            let mut picker = std::mem::take(&mut self.t.pickers[0]);
            picker.legal(pos, tt_move, [None; 2], &self.t.history, self.root_side);
            while let Some((mv, _)) = picker.next(pos, &self.t.history) {
                root_moves.push(mv);
            }
            self.t.pickers[0] = picker;
        }
        let Some(&first) = root_moves.first() else {
            let score = pos.rule_outcome().unwrap_or_else(|| pos.no_moves_score());
            return Outcome {
                best: None,
                ponder: None,
                score,
                depth: 0,
                nodes: 0,
            };
        };
        let mut out = Outcome {
            best: Some(first),
            ponder: None,
            score: 0,
            depth: 0,
            nodes: 0,
        };
        let mut best_pv: Vec<M> = vec![first];
        let max_depth = limits.depth.unwrap_or(MAX_DEPTH).clamp(1, MAX_DEPTH);
        let mut prev = 0;
        for depth in 1..=max_depth as i32 {
            if depth > 1 && !self.control.may_deepen() {
                break;
            }
            self.seldepth = 0;
            let mut delta = ASPIRATION;
            let (mut alpha, mut beta) = if self.opts.aspiration && depth >= 4 {
                ((prev - delta).max(-INFINITY), (prev + delta).min(INFINITY))
            } else {
                (-INFINITY, INFINITY)
            };
            let completed = loop {
                let r = self.root(pos, depth, alpha, beta, &mut root_moves);
                if self.control.stopped() {
                    if r.improved && !self.t.pv[0].is_empty() {
                        best_pv.clone_from(&self.t.pv[0]);
                        out.score = r.score;
                    }
                    break false;
                }
                if r.score <= alpha && alpha > -INFINITY {
                    beta = (alpha + beta) / 2;
                    alpha = (r.score - delta).max(-INFINITY);
                } else if r.score >= beta && beta < INFINITY {
                    beta = (r.score + delta).min(INFINITY);
                    if r.improved {
                        best_pv.clone_from(&self.t.pv[0]);
                    }
                } else {
                    best_pv.clone_from(&self.t.pv[0]);
                    out.score = r.score;
                    break true;
                }
                delta = delta.saturating_mul(2);
                if delta > 1000 {
                    alpha = -INFINITY;
                    beta = INFINITY;
                }
            };
            if !completed {
                break;
            }
            prev = out.score;
            out.depth = depth as u32;
            let time = self.control.elapsed();
            let info = Info {
                depth: depth as u32,
                seldepth: self.seldepth as u32,
                score: out.score,
                nodes: self.nodes,
                time,
                nps: nps(self.nodes, time),
                pv: best_pv.clone(),
                hashfull: self.t.tt.hashfull(),
            };
            log::debug!("depth {depth} score {} nodes {}", out.score, self.nodes);
            (on_info)(&info);
            let timed = self.control.is_timed();
            if timed && root_moves.len() == 1 {
                break;
            }
            if timed && out.score.abs() >= MATE_BOUND && MATE - out.score.abs() < depth {
                break;
            }
        }
        out.best = best_pv.first().copied().or(Some(first));
        out.ponder = best_pv.get(1).copied();
        out.nodes = self.nodes;
        out
    }

    /// Searches every root move at `depth`; a move that raises alpha goes to the front of
    /// `root_moves` so the next iteration tries it first.
    fn root<G: TwoSided<Move = M>>(
        &mut self,
        pos: &mut G,
        depth: i32,
        mut alpha: Score,
        beta: Score,
        root_moves: &mut [M],
    ) -> RootResult {
        self.t.pv[0].clear();
        self.nodes += 1;
        let original_alpha = alpha;
        let mut best = -INFINITY;
        let mut best_move = None;
        let mut improved = false;
        for i in 0..root_moves.len() {
            let mv = root_moves[i];
            pos.make(mv);
            let score = if i == 0 {
                -self.negamax(pos, depth - 1, 1, -beta, -alpha, true, true)
            } else {
                let s = -self.negamax(pos, depth - 1, 1, -alpha - 1, -alpha, false, true);
                if s > alpha && s < beta {
                    -self.negamax(pos, depth - 1, 1, -beta, -alpha, true, true)
                } else {
                    s
                }
            };
            pos.unmake();
            if self.control.stopped() {
                break;
            }
            if score > best {
                best = score;
            }
            if score > alpha {
                alpha = score;
                best_move = Some(mv);
                improved = true;
                self.update_pv(0, mv);
                root_moves[..=i].rotate_right(1);
                if score >= beta {
                    break;
                }
            }
        }
        if !self.control.stopped() && self.opts.use_tt {
            let bound = if best >= beta {
                Bound::Lower
            } else if best > original_alpha {
                Bound::Exact
            } else {
                Bound::Upper
            };
            self.t
                .tt
                .store(pos.key(), best_move, to_tt(best, 0), depth, bound);
        }
        RootResult {
            score: best,
            improved,
        }
    }

    fn update_pv(&mut self, ply: usize, mv: M) {
        let (head, tail) = self.t.pv.split_at_mut(ply + 1);
        let line = &mut head[ply];
        line.clear();
        line.push(mv);
        line.extend_from_slice(&tail[0]);
    }

    #[allow(clippy::too_many_arguments)]
    fn negamax<G: TwoSided<Move = M>>(
        &mut self,
        pos: &mut G,
        mut depth: i32,
        ply: usize,
        mut alpha: Score,
        beta: Score,
        pv_node: bool,
        null_ok: bool,
    ) -> Score {
        self.t.pv[ply].clear();
        if let Some(s) = pos.rule_outcome() {
            return mate_from_root(s, ply);
        }
        // Mate-distance pruning: no line from here can beat a mate already found nearer the root.
        let mated_here = (-MATE + ply as Score).max(alpha);
        if mated_here >= (MATE - ply as Score - 1).min(beta) {
            return mated_here;
        }
        if ply >= MAX_PLY {
            return pos.evaluate();
        }
        let in_check = pos.in_check();
        if in_check {
            depth += 1;
        }
        if depth <= 0 {
            return self.qsearch(pos, ply, alpha, beta, 0);
        }
        if self.control.poll(self.nodes) {
            return 0;
        }
        self.nodes += 1;
        self.seldepth = self.seldepth.max(ply);

        let key = pos.key();
        let entry = if self.opts.use_tt {
            self.t.tt.probe(key)
        } else {
            None
        };
        if let Some(e) = entry {
            if !pv_node && e.depth as i32 >= depth {
                let s = from_tt(e.score, ply);
                match e.bound {
                    Bound::Exact => return s,
                    Bound::Lower if s >= beta => return s,
                    Bound::Upper if s <= alpha => return s,
                    _ => {}
                }
            }
        }
        let tt_move = entry.and_then(|e| e.mv);

        // Static evaluation, for the pruning decisions of non-PV nodes out of check.
        let prunable = !pv_node && !in_check && beta.abs() < MATE_BOUND && alpha.abs() < MATE_BOUND;
        let eval = if prunable { pos.evaluate() } else { 0 };
        // Reverse futility: far enough above beta near the horizon, the node fails high.
        if self.opts.pruning && prunable && depth <= 3 && eval - RFP_MARGIN * depth >= beta {
            return eval;
        }
        // Futility: too far below alpha near the horizon for a quiet move to help.
        let futile = self.opts.pruning
            && prunable
            && depth <= 2
            && eval + FUTILITY_MARGIN * depth + FUTILITY_MARGIN / 2 <= alpha;
        // Late-move pruning: near the horizon only the first quiet moves are tried.
        let late_limit = if self.opts.pruning && prunable && depth <= 3 {
            4 + 3 * (depth * depth) as usize
        } else {
            usize::MAX
        };

        if self.opts.null_move
            && null_ok
            && prunable
            && depth >= 3
            && eval >= beta
            && pos.make_null()
        {
            let r = 2 + depth / 4;
            let s = -self.negamax(pos, depth - 1 - r, ply + 1, -beta, -beta + 1, false, false);
            pos.unmake_null();
            if self.control.stopped() {
                return 0;
            }
            if s >= beta {
                return if s >= MATE_BOUND { beta } else { s };
            }
        }

        let side = (self.root_side + ply) % 2;
        let mut picker = std::mem::take(&mut self.t.pickers[ply]);
        picker.staged(tt_move, self.t.killers.get(ply), side);
        let original_alpha = alpha;
        let mut best = -INFINITY;
        let mut best_move = None;
        let mut searched = 0;
        let mut pruned = false;
        while let Some((mv, order)) = picker.next(pos, &self.t.history) {
            let quiet = pos.is_quiet(mv);
            let late = MovePicker::<M>::is_late_quiet_score(order);
            pos.make(mv);
            let gives_check = pos.in_check();
            if searched > 0 && quiet && late && !gives_check && (futile || searched >= late_limit) {
                pos.unmake();
                pruned = true;
                continue;
            }
            let new_depth = depth - 1;
            let mut score;
            if searched == 0 {
                score = -self.negamax(pos, new_depth, ply + 1, -beta, -alpha, pv_node, true);
            } else {
                let mut r = 0;
                if self.opts.lmr
                    && depth >= 3
                    && searched >= 3
                    && quiet
                    && !in_check
                    && !gives_check
                    && late
                {
                    r = 1 + (searched >= 8) as i32 + (depth >= 8) as i32 - pv_node as i32;
                    r = r.clamp(0, new_depth - 1);
                }
                score = -self.negamax(pos, new_depth - r, ply + 1, -alpha - 1, -alpha, false, true);
                if score > alpha && r > 0 {
                    score = -self.negamax(pos, new_depth, ply + 1, -alpha - 1, -alpha, false, true);
                }
                if score > alpha && score < beta && pv_node {
                    score = -self.negamax(pos, new_depth, ply + 1, -beta, -alpha, true, true);
                }
            }
            pos.unmake();
            searched += 1;
            if self.control.stopped() {
                self.t.pickers[ply] = picker;
                return 0;
            }
            if score > best {
                best = score;
                if score > alpha {
                    alpha = score;
                    best_move = Some(mv);
                    self.update_pv(ply, mv);
                    if score >= beta {
                        if quiet {
                            self.t.killers.add(ply, mv);
                            let b = bonus(depth);
                            for &other in picker.yielded() {
                                if other != mv && pos.is_quiet(other) {
                                    self.t.history.update(side, pos.history_index(other), -b);
                                }
                            }
                            self.t.history.update(side, pos.history_index(mv), b);
                        }
                        break;
                    }
                }
            }
        }
        self.t.pickers[ply] = picker;
        if searched == 0 {
            return mate_from_root(pos.no_moves_score(), ply);
        }
        // Pruned moves are assumed to fail low: the node's upper bound is alpha, not lower.
        if pruned && best < original_alpha {
            best = original_alpha;
        }
        if self.opts.use_tt {
            let bound = if best >= beta {
                Bound::Lower
            } else if best > original_alpha {
                Bound::Exact
            } else {
                Bound::Upper
            };
            self.t
                .tt
                .store(key, best_move, to_tt(best, ply), depth, bound);
        }
        best
    }

    fn qsearch<G: TwoSided<Move = M>>(
        &mut self,
        pos: &mut G,
        ply: usize,
        mut alpha: Score,
        beta: Score,
        qply: u32,
    ) -> Score {
        self.t.pv[ply].clear();
        if self.control.poll(self.nodes) {
            return 0;
        }
        self.nodes += 1;
        self.seldepth = self.seldepth.max(ply);
        if let Some(s) = pos.rule_outcome() {
            return mate_from_root(s, ply);
        }
        if ply >= MAX_PLY {
            return pos.evaluate();
        }
        let key = pos.key();
        if self.opts.use_tt {
            if let Some(e) = self.t.tt.probe(key) {
                let s = from_tt(e.score, ply);
                match e.bound {
                    Bound::Exact => return s,
                    Bound::Lower if s >= beta => return s,
                    Bound::Upper if s <= alpha => return s,
                    _ => {}
                }
            }
        }
        let original_alpha = alpha;
        // Evasions only near the horizon: chains of checks must not grow without bound.
        let in_check = qply < QS_EVASION_PLIES && pos.in_check();
        let mut picker = std::mem::take(&mut self.t.pickers[ply]);
        let mut best;
        if in_check {
            let side = (self.root_side + ply) % 2;
            picker.legal(pos, None, [None; 2], &self.t.history, side);
            if picker.is_empty() {
                self.t.pickers[ply] = picker;
                return mate_from_root(pos.no_moves_score(), ply);
            }
            best = -INFINITY;
        } else {
            best = pos.evaluate();
            if best >= beta {
                self.t.pickers[ply] = picker;
                return best;
            }
            alpha = alpha.max(best);
            picker.noisy(pos);
        }
        let stand_pat = best;
        let mut best_move = None;
        while let Some((mv, _)) = picker.next(pos, &self.t.history) {
            // Delta pruning: a capture that cannot lift the score near alpha is not tried.
            // Captures that lose material by static exchange are not tried either.
            if !in_check {
                let victim = pos.victim_value(mv);
                if (victim > 0 && stand_pat + victim + DELTA_MARGIN <= alpha) || !pos.see_ge(mv, 0)
                {
                    continue;
                }
            }
            pos.make(mv);
            let score = -self.qsearch(pos, ply + 1, -beta, -alpha, qply + 1);
            pos.unmake();
            if self.control.stopped() {
                self.t.pickers[ply] = picker;
                return 0;
            }
            if score > best {
                best = score;
                if score > alpha {
                    alpha = score;
                    best_move = Some(mv);
                    self.update_pv(ply, mv);
                    if score >= beta {
                        break;
                    }
                }
            }
        }
        self.t.pickers[ply] = picker;
        if self.opts.use_tt {
            let bound = if best >= beta {
                Bound::Lower
            } else if best > original_alpha && best_move.is_some() {
                Bound::Exact
            } else {
                Bound::Upper
            };
            self.t.tt.store(key, best_move, to_tt(best, ply), 0, bound);
        }
        best
    }
}
