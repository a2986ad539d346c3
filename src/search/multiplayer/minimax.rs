//! The two minimax-family searches for games with more than two sides, both scoring positions for
//! the root seat's team and searched with alpha-beta under iterative deepening:
//!
//! - **Paranoid**: every seat outside the root team minimises the root team's score; every ply is
//!   a layer.
//! - **BRS+** (Esser, Gras, Winands, Schadd, Lanctot 2013): the consecutive turns of the opponents
//!   between two turns of the root team form one min layer in which exactly one opponent replies
//!   with every move it has, while the others play their best-ordered move (instead of passing, as
//!   plain BRS would), so that every searched position can arise. Teammates are max layers.

use crate::search::alphabeta::history::MAX_PLY;
use crate::search::alphabeta::Control;
use crate::search::report::nps;
use crate::search::{Info, Limits, MultiSided, Outcome, Score, DRAW, INFINITY, MATE, MATE_BOUND};

use super::ordering::Ordering;
use crate::search::alphabeta::{Bound, TranspositionTable};

/// One running BRS+ or paranoid search.
pub(super) struct Minimax<'a, G: MultiSided> {
    pub order: &'a mut Ordering<G::Move>,
    /// Best move per position from earlier iterations (move ordering only; scores unused).
    pub tt: &'a mut TranspositionTable<G::Move>,
    pub pv: &'a mut [Vec<G::Move>],
    pub control: Control<'a>,
    pub nodes: u64,
    seldepth: usize,
    root_seat: usize,
    root_team: usize,
    rewards: Vec<f32>,
    brs: bool,
    /// Plies of capture-only search beyond the horizon (0: none).
    quiescence: u32,
}

struct RootResult {
    score: Score,
    improved: bool,
}

impl<'a, G: MultiSided> Minimax<'a, G> {
    /// A search of `root` as BRS+ (`brs = true`) or paranoid.
    pub fn new(
        root: &G,
        brs: bool,
        quiescence: u32,
        order: &'a mut Ordering<G::Move>,
        tt: &'a mut TranspositionTable<G::Move>,
        pv: &'a mut [Vec<G::Move>],
        control: Control<'a>,
    ) -> Self {
        let root_seat = root.to_move();
        Minimax {
            order,
            tt,
            pv,
            control,
            nodes: 0,
            seldepth: 0,
            root_seat,
            root_team: root.team(root_seat),
            rewards: vec![0.0; root.seats()],
            brs,
            quiescence,
        }
    }

    /// The score of a finished game (or of the root team's elimination) for the root team.
    fn terminal(&mut self, pos: &G, ply: usize) -> Option<Score> {
        let ply = ply as Score;
        if pos.outcome(&mut self.rewards) {
            let r = self.rewards[self.root_seat];
            return Some(if r >= 0.999 {
                MATE - ply
            } else if r <= 0.001 {
                -MATE + ply
            } else {
                DRAW
            });
        }
        let alive = (0..pos.seats()).any(|s| pos.team(s) == self.root_team && pos.is_active(s));
        (!alive).then_some(-MATE + ply)
    }

    fn hash_move(&self, pos: &G) -> Option<G::Move> {
        self.tt.probe(pos.key()).and_then(|e| e.mv)
    }

    fn remember(&mut self, pos: &G, mv: Option<G::Move>, depth: i32) {
        if mv.is_some() {
            self.tt.store(pos.key(), mv, 0, depth, Bound::Exact);
        }
    }

    fn ours(&self, pos: &G) -> bool {
        pos.team(pos.to_move()) == self.root_team
    }

    fn update_pv(&mut self, ply: usize, mv: G::Move) {
        let (head, tail) = self.pv.split_at_mut(ply + 1);
        let line = &mut head[ply];
        line.clear();
        line.push(mv);
        line.extend_from_slice(&tail[0]);
    }

    /// Iterative deepening from the root; `on_info` after every completed depth.
    pub fn iterate(
        &mut self,
        pos: &mut G,
        limits: &Limits,
        on_info: &mut dyn FnMut(&Info<G::Move>),
    ) -> Outcome<G::Move> {
        let hash_move = self.hash_move(pos);
        let n = self.order.generate(pos, 0, hash_move);
        let mut root_moves: Vec<G::Move> = (0..n).map(|i| self.order.pick(0, i)).collect();
        let Some(&first) = root_moves.first() else {
            let score = self
                .terminal(pos, 0)
                .unwrap_or_else(|| pos.evaluate_for(self.root_seat));
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
        let mut best_pv = vec![first];
        let max_depth = limits
            .depth
            .unwrap_or(MAX_PLY as u32 / 2)
            .clamp(1, MAX_PLY as u32 / 2);
        for depth in 1..=max_depth as i32 {
            if depth > 1 && !self.control.may_deepen() {
                break;
            }
            self.seldepth = 0;
            let r = self.root(pos, depth, &mut root_moves);
            if self.control.stopped() {
                if r.improved && !self.pv[0].is_empty() {
                    best_pv.clone_from(&self.pv[0]);
                    out.score = r.score;
                }
                break;
            }
            best_pv.clone_from(&self.pv[0]);
            out.score = r.score;
            out.depth = depth as u32;
            let time = self.control.elapsed();
            on_info(&Info {
                depth: depth as u32,
                seldepth: self.seldepth as u32,
                score: out.score,
                nodes: self.nodes,
                time,
                nps: nps(self.nodes, time),
                pv: best_pv.clone(),
                hashfull: 0,
            });
            let timed = self.control.is_timed();
            if timed && root_moves.len() == 1 {
                break;
            }
            if out.score.abs() >= MATE_BOUND && MATE - out.score.abs() < depth && timed {
                break;
            }
        }
        out.best = best_pv.first().copied().or(Some(first));
        out.ponder = best_pv.get(1).copied();
        out.nodes = self.nodes;
        out
    }

    fn root(&mut self, pos: &mut G, depth: i32, root_moves: &mut [G::Move]) -> RootResult {
        self.pv[0].clear();
        self.nodes += 1;
        let (mut alpha, beta) = (-INFINITY, INFINITY);
        let mut best = -INFINITY;
        let mut improved = false;
        for i in 0..root_moves.len() {
            let mv = root_moves[i];
            pos.make(mv);
            let s = self.child(pos, depth - 1, 1, alpha, beta);
            pos.unmake();
            if self.control.stopped() {
                break;
            }
            best = best.max(s);
            if s > alpha {
                alpha = s;
                improved = true;
                self.update_pv(0, mv);
                root_moves[..=i].rotate_right(1);
            }
        }
        RootResult {
            score: best,
            improved,
        }
    }

    fn child(&mut self, pos: &mut G, depth: i32, ply: usize, alpha: Score, beta: Score) -> Score {
        if self.brs {
            self.best_reply(pos, depth, ply, alpha, beta, false)
        } else {
            self.paranoid(pos, depth, ply, alpha, beta)
        }
    }

    /// Common node entry: PV reset, game end, node count and limits. `Err(score)` ends the node.
    fn enter(&mut self, pos: &G, ply: usize) -> Result<(), Score> {
        self.pv[ply].clear();
        if let Some(s) = self.terminal(pos, ply) {
            return Err(s);
        }
        if self.control.poll(self.nodes) {
            return Err(0);
        }
        self.nodes += 1;
        self.seldepth = self.seldepth.max(ply);
        Ok(())
    }

    fn leaf(&self, pos: &G) -> Score {
        pos.evaluate_for(self.root_seat)
            .clamp(-MATE_BOUND + 1, MATE_BOUND - 1)
    }

    /// The value at the horizon of a node already entered: the evaluation, or with `plies` left a
    /// paranoid quiescence search — the seat to move may stand pat or capture, the root team
    /// maximising and everyone else minimising.
    fn horizon(
        &mut self,
        pos: &mut G,
        ply: usize,
        mut alpha: Score,
        mut beta: Score,
        plies: u32,
    ) -> Score {
        let stand = self.leaf(pos);
        if plies == 0 || ply >= MAX_PLY {
            return stand;
        }
        let max_node = self.ours(pos);
        if max_node {
            if stand >= beta {
                return stand;
            }
            alpha = alpha.max(stand);
        } else {
            if stand <= alpha {
                return stand;
            }
            beta = beta.min(stand);
        }
        let mut best = stand;
        let n = self.order.generate_noisy(pos, ply);
        for i in 0..n {
            let mv = self.order.pick(ply, i);
            pos.make(mv);
            let s = match self.enter(pos, ply + 1) {
                Err(s) => s,
                Ok(()) => self.horizon(pos, ply + 1, alpha, beta, plies - 1),
            };
            pos.unmake();
            if self.control.stopped() {
                return 0;
            }
            if max_node && s > best {
                best = s;
                if s > alpha {
                    alpha = s;
                    self.update_pv(ply, mv);
                }
            } else if !max_node && s < best {
                best = s;
                if s < beta {
                    beta = s;
                    self.update_pv(ply, mv);
                }
            }
            if alpha >= beta {
                break;
            }
        }
        best
    }

    fn paranoid(
        &mut self,
        pos: &mut G,
        depth: i32,
        ply: usize,
        mut alpha: Score,
        mut beta: Score,
    ) -> Score {
        if let Err(s) = self.enter(pos, ply) {
            return s;
        }
        if depth <= 0 {
            return self.horizon(pos, ply, alpha, beta, self.quiescence);
        }
        if ply >= MAX_PLY {
            return self.leaf(pos);
        }
        let n = self.order.generate(pos, ply, self.hash_move(pos));
        if n == 0 {
            return self.leaf(pos);
        }
        let max_node = self.ours(pos);
        let mut best = if max_node { -INFINITY } else { INFINITY };
        let mut best_move = None;
        for i in 0..n {
            let mv = self.order.pick(ply, i);
            pos.make(mv);
            let s = self.paranoid(pos, depth - 1, ply + 1, alpha, beta);
            pos.unmake();
            if self.control.stopped() {
                return 0;
            }
            if (max_node && s > best) || (!max_node && s < best) {
                best_move = Some(mv);
            }
            if max_node && s > best {
                best = s;
                if s > alpha {
                    alpha = s;
                    self.update_pv(ply, mv);
                }
            } else if !max_node && s < best {
                best = s;
                if s < beta {
                    beta = s;
                    self.update_pv(ply, mv);
                }
            }
            if alpha >= beta {
                self.order.cutoff(pos, ply, mv, depth);
                break;
            }
        }
        self.remember(pos, best_move, depth);
        best
    }

    /// A BRS+ node. `replied`: within the current run of opponent turns, the one opponent allowed
    /// to search all its moves has already moved, so this opponent plays its best-ordered move.
    fn best_reply(
        &mut self,
        pos: &mut G,
        depth: i32,
        ply: usize,
        mut alpha: Score,
        mut beta: Score,
        replied: bool,
    ) -> Score {
        if let Err(s) = self.enter(pos, ply) {
            return s;
        }
        if ply >= MAX_PLY {
            return self.leaf(pos);
        }
        if self.ours(pos) {
            if depth <= 0 {
                return self.horizon(pos, ply, alpha, beta, self.quiescence);
            }
            let n = self.order.generate(pos, ply, self.hash_move(pos));
            if n == 0 {
                return self.leaf(pos);
            }
            let mut best = -INFINITY;
            let mut best_move = None;
            for i in 0..n {
                let mv = self.order.pick(ply, i);
                pos.make(mv);
                let s = self.best_reply(pos, depth - 1, ply + 1, alpha, beta, false);
                pos.unmake();
                if self.control.stopped() {
                    return 0;
                }
                if s > best {
                    best = s;
                    best_move = Some(mv);
                    if s > alpha {
                        alpha = s;
                        self.update_pv(ply, mv);
                    }
                }
                if alpha >= beta {
                    self.order.cutoff(pos, ply, mv, depth);
                    break;
                }
            }
            self.remember(pos, best_move, depth);
            return best;
        }
        if replied {
            let Some(mv) = self.order.best_ordered(pos, ply, None) else {
                return self.leaf(pos);
            };
            pos.make(mv);
            let s = self.best_reply(pos, depth, ply + 1, alpha, beta, true);
            pos.unmake();
            if !self.control.stopped() {
                self.update_pv(ply, mv);
            }
            return s;
        }
        if depth <= 0 {
            return self.horizon(pos, ply, alpha, beta, self.quiescence);
        }
        let n = self.order.generate(pos, ply, self.hash_move(pos));
        if n == 0 {
            return self.leaf(pos);
        }
        let mut best = INFINITY;
        let mut best_move = None;
        for i in 0..n {
            let mv = self.order.pick(ply, i);
            pos.make(mv);
            let s = self.best_reply(pos, depth - 1, ply + 1, alpha, beta, true);
            pos.unmake();
            if self.control.stopped() {
                return 0;
            }
            if s < best {
                best = s;
                best_move = Some(mv);
                if s < beta {
                    beta = s;
                    self.update_pv(ply, mv);
                }
            }
            if alpha >= beta {
                self.order.cutoff(pos, ply, mv, depth);
                self.remember(pos, best_move, depth);
                return best;
            }
        }
        self.remember(pos, best_move, depth);
        // Or a later opponent of this run replies, and this one plays its best-ordered move
        // (by move ordering alone, so that it does not depend on the hash table's contents).
        let Some(quiet) = self.order.best_ordered(pos, ply, None) else {
            return best;
        };
        pos.make(quiet);
        if !self.ours(pos) {
            let s = self.best_reply(pos, depth, ply + 1, alpha, beta, false);
            if !self.control.stopped() && s < best {
                best = s;
                if s < beta {
                    self.update_pv(ply, quiet);
                }
            }
        }
        pos.unmake();
        if self.control.stopped() {
            return 0;
        }
        best
    }
}
