//! The alpha-beta searcher: iterative deepening with aspiration windows, principal variation
//! search, a transposition table, quiescence search on noisy moves, null-move pruning, reverse
//! futility and razoring, futility / late-move / history / exchange pruning, check and singular
//! extensions (negative when the hash move is not singular), late-move reductions and a static
//! evaluation corrected by what searches of the same structure found (correction history), over
//! any [`TwoSided`] game.

use std::sync::atomic::AtomicBool;

use crate::search::report::{mate_from_root, nps};
use crate::search::{Info, Limits, Outcome, Score, TwoSided, INFINITY, MATE, MATE_BOUND};

use super::correction::Correction;
use super::history::{bonus, Heuristics, MAX_PLY};
use super::movepicker::MovePicker;
use super::stats::{Counter, Stats};
use super::timeman::{Control, RootTrend};
use super::transposition::{from_tt, to_tt, Bound, TranspositionTable, NO_EVAL};

/// Deepest nominal depth iterative deepening goes to.
pub const MAX_DEPTH: u32 = 100;
/// Half-width of the first aspiration window, in centipawns.
const ASPIRATION: Score = 25;
/// Plies into quiescence within which a side in check searches all its evasions (beyond them
/// it stands pat like any other side).
const QS_EVASION_PLIES: u32 = 4;
/// Reverse futility: deepest depth, margin per ply.
const RFP_DEPTH: i32 = 8;
const RFP_MARGIN: Score = 90;
/// Razoring: deepest depth; margin `RAZOR_BASE + RAZOR_MARGIN·depth²` (steep, so that it acts
/// near the horizon only, where a quiet move rarely recovers that much).
const RAZOR_DEPTH: i32 = 3;
const RAZOR_BASE: Score = 465;
const RAZOR_MARGIN: Score = 300;
/// Futility of quiet moves: deepest (reduced) depth, base and per-ply margin.
const FUTILITY_DEPTH: i32 = 7;
const FUTILITY_BASE: Score = 100;
const FUTILITY_MARGIN: Score = 110;
/// Late-move pruning: deepest depth.
const LMP_DEPTH: i32 = 8;
/// History pruning: deepest (reduced) depth, and the history (per ply) below which a late
/// quiet move is skipped.
const HISTORY_PRUNE_DEPTH: i32 = 3;
const HISTORY_PRUNE: Score = -2_000;
/// Exchange pruning: quiet moves losing more than this times the squared reduced depth, noisy
/// moves losing more than this times the depth, are skipped near the horizon.
const SEE_QUIET_MARGIN: Score = -25;
const SEE_NOISY_MARGIN: Score = -90;
const SEE_PRUNE_DEPTH: i32 = 8;
/// Quiescence skips a capture when even winning the victim plus this margin stays below alpha.
const DELTA_MARGIN: Score = 200;
/// Singular extensions: shallowest depth, and how much shallower the hash entry may be.
const SINGULAR_DEPTH: i32 = 7;
const SINGULAR_TT_SLACK: i32 = 3;
/// Plies the hash move loses when it is not singular: when its stored score is at least beta,
/// and (fewer) at other expected-cut nodes.
const NEGATIVE_EXTENSION: i32 = 2;
const NEGATIVE_EXTENSION_CUT: i32 = 1;
/// History divisor for reductions: a move's history over this changes its reduction by a ply.
const LMR_HISTORY: Score = 8_000;
/// Null-move pruning: shallowest depth, and the gate on the static evaluation
/// (`beta + NULL_GATE_BASE - NULL_GATE_SLOPE * depth`): above beta at shallow depths only, so
/// that most expected-cut nodes try the null move (Fairy-Stockfish's gate, in centipawns).
const NULL_DEPTH: i32 = 3;
const NULL_GATE_BASE: Score = 95;
const NULL_GATE_SLOPE: Score = 25;

/// Switches for the pruning and ordering techniques (all on by default); turning them off gives a
/// plainer search for testing and comparison.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SearchOptions {
    /// Probe and store the transposition table.
    pub use_tt: bool,
    /// Null-move pruning (needs [`TwoSided::make_null`]).
    pub null_move: bool,
    /// Late-move reductions.
    pub lmr: bool,
    /// Aspiration windows around the previous iteration's score.
    pub aspiration: bool,
    /// Selectivity that changes what is searched to which depth: reverse futility, razoring,
    /// futility, late-move, history and exchange pruning, internal iterative reduction, singular
    /// extensions and the bound on check extensions (off: every check extends).
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

/// Late-move reductions, indexed `[depth][moves searched]`, from `0.75 + ln d · ln m / 2.25`.
struct Reductions {
    table: Vec<[u8; 64]>,
}

impl Reductions {
    fn new() -> Self {
        let table = (0..64)
            .map(|d| {
                let mut row = [0u8; 64];
                for (m, r) in row.iter_mut().enumerate() {
                    if d > 0 && m > 0 {
                        let x = 0.75 + (d as f64).ln() * (m as f64).ln() / 2.25;
                        *r = x.max(0.0) as u8;
                    }
                }
                row
            })
            .collect();
        Reductions { table }
    }

    #[inline]
    fn get(&self, depth: i32, moves: usize) -> i32 {
        self.table[depth.clamp(0, 63) as usize][moves.min(63)] as i32
    }
}

/// Late-move pruning: how many quiet moves a node at `depth` tries, improving or not.
#[inline]
fn lmp_limit(depth: i32, improving: bool) -> usize {
    let d = depth * depth;
    if improving {
        (4 + d) as usize
    } else {
        (2 + d / 2) as usize
    }
}

/// What the search remembers about each ply of the current line.
#[derive(Clone, Copy, Debug)]
struct Frame<M> {
    /// Static evaluation ([`NO_EVAL`] in check).
    eval: Score,
    /// History index of the move played from this ply (`None`: null move or none yet).
    moved: Option<usize>,
    /// A move not to search at this ply (singular-extension verification).
    excluded: Option<M>,
}

impl<M> Default for Frame<M> {
    fn default() -> Self {
        Frame {
            eval: NO_EVAL,
            moved: None,
            excluded: None,
        }
    }
}

/// Tables that live from one search to the next.
struct Tables<M> {
    tt: TranspositionTable<M>,
    heuristics: Heuristics<M>,
    correction: Correction,
    pickers: Vec<MovePicker<M>>,
    pv: Vec<Vec<M>>,
    frames: Vec<Frame<M>>,
    /// Per ply: the quiet and the noisy moves searched so far (history maluses on a cutoff).
    quiets: Vec<Vec<M>>,
    noisies: Vec<Vec<M>>,
    reductions: Reductions,
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
        let plies = MAX_PLY + 2;
        Searcher {
            tables: Tables {
                tt: TranspositionTable::new(hash_mib),
                heuristics: Heuristics::default(),
                correction: Correction::default(),
                pickers: (0..plies).map(|_| MovePicker::default()).collect(),
                pv: (0..plies)
                    .map(|_| Vec::with_capacity(MAX_PLY + 1))
                    .collect(),
                frames: vec![Frame::default(); plies],
                quiets: (0..plies).map(|_| Vec::new()).collect(),
                noisies: (0..plies).map(|_| Vec::new()).collect(),
                reductions: Reductions::new(),
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
        self.tables.heuristics.clear();
        self.tables.correction.clear();
    }

    /// The technique switches in use.
    pub fn options(&self) -> SearchOptions {
        self.options
    }

    /// Changes the technique switches.
    pub fn set_options(&mut self, options: SearchOptions) {
        self.options = options;
    }

    /// The correction history's entry for `side` (0 or 1: the parity of the ply) and a structure
    /// key, in centipawns.
    #[cfg(test)]
    pub(crate) fn correction(&self, side: usize, key: u64) -> Score {
        self.tables.correction.get(side, key)
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
        t.heuristics.ensure(pos.history_size(), pos.kinds());
        t.heuristics.age();
        t.frames.iter_mut().for_each(|f| *f = Frame::default());
        let mut w = Worker {
            t,
            opts: self.options,
            control: Control::new(limits, stop),
            nodes: 0,
            seldepth: 0,
            root_side: pos.ply() % 2,
            root_depth: 0,
            stats: Stats::default(),
        };
        let out = w.iterate(&mut pos, limits, on_info);
        if Stats::enabled() {
            log::info!("{}", w.stats.summary());
        }
        out
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
    /// Nominal depth of the current iteration.
    root_depth: i32,
    stats: Stats,
}

/// What a root iteration found before it finished or was stopped.
struct RootResult {
    score: Score,
    /// Whether some move's search completed and raised alpha (its score and PV are trustworthy).
    improved: bool,
}

/// The kind of node a search call is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Node {
    /// On the principal variation (open window).
    pv: bool,
    /// Expected to fail high (a zero-window child of a PV node, or alternate levels below).
    cut: bool,
}

const PV: Node = Node {
    pv: true,
    cut: false,
};

impl Node {
    fn non_pv(cut: bool) -> Node {
        Node { pv: false, cut }
    }
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
            picker.legal(pos, tt_move, &self.t.heuristics, self.root_side, [None; 2]);
            while let Some((mv, _)) = picker.next(pos, &self.t.heuristics) {
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
        let mut trend = RootTrend::default();
        let mut prev_best: Option<M> = None;
        for depth in 1..=max_depth as i32 {
            if depth > 1 && !self.control.may_start_iteration() {
                break;
            }
            self.seldepth = 0;
            self.root_depth = depth;
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
            let best_now = best_pv.first().copied();
            if prev_best.is_some() {
                trend.update(best_now != prev_best, prev, out.score);
                self.control.set_trend(&trend);
            }
            prev_best = best_now;
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
        let in_check = pos.in_check();
        self.t.frames[0] = Frame {
            eval: if in_check { NO_EVAL } else { pos.evaluate() },
            moved: None,
            excluded: None,
        };
        for i in 0..root_moves.len() {
            let mv = root_moves[i];
            self.t.frames[0].moved = Some(pos.history_index(mv));
            pos.make(mv);
            let score = if i == 0 {
                -self.negamax(pos, depth - 1, 1, -beta, -alpha, PV)
            } else {
                let s = -self.negamax(pos, depth - 1, 1, -alpha - 1, -alpha, Node::non_pv(true));
                if s > alpha && s < beta {
                    -self.negamax(pos, depth - 1, 1, -beta, -alpha, PV)
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
            let bound = Bound::of(best, original_alpha, beta);
            let eval = self.t.frames[0].eval;
            self.t
                .tt
                .store_with_eval(pos.key(), best_move, to_tt(best, 0), eval, depth, bound);
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

    /// History indices of the moves one and two plies before `ply`.
    #[inline]
    fn previous(&self, ply: usize) -> [Option<usize>; 2] {
        let f = &self.t.frames;
        [
            ply.checked_sub(1).and_then(|p| f[p].moved),
            ply.checked_sub(2).and_then(|p| f[p].moved),
        ]
    }

    /// A raw static evaluation plus the correction history's entry for `side` and the
    /// position's structure (unchanged without a structure key), kept off the mate scores.
    #[inline]
    fn corrected(&self, side: usize, structure: Option<u64>, raw: Score) -> Score {
        match structure {
            Some(k) => {
                (raw + self.t.correction.get(side, k)).clamp(-MATE_BOUND + 1, MATE_BOUND - 1)
            }
            None => raw,
        }
    }

    /// Whether the static evaluation at `ply` is better than two plies before (four if that one
    /// was in check).
    #[inline]
    fn improving(&self, ply: usize, eval: Score) -> bool {
        if eval == NO_EVAL {
            return false;
        }
        let f = &self.t.frames;
        let earlier = [2, 4]
            .iter()
            .filter_map(|&back| ply.checked_sub(back))
            .map(|p| f[p].eval)
            .find(|&e| e != NO_EVAL);
        earlier.is_none_or(|e| eval > e)
    }

    fn negamax<G: TwoSided<Move = M>>(
        &mut self,
        pos: &mut G,
        mut depth: i32,
        ply: usize,
        mut alpha: Score,
        beta: Score,
        node: Node,
    ) -> Score {
        self.t.pv[ply].clear();
        let excluded = self.t.frames[ply].excluded;
        if excluded.is_none() {
            if let Some(s) = pos.rule_outcome() {
                return mate_from_root(s, ply);
            }
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
        // Check extension, bounded (with the selective techniques on) to twice the iteration's
        // depth, so that lines of checks by riders cannot grow without end.
        if in_check
            && excluded.is_none()
            && (!self.opts.pruning || (ply as i32) < 2 * self.root_depth)
        {
            depth += 1;
        }
        if depth <= 0 {
            return self.qsearch(pos, ply, alpha, beta, 0);
        }
        if self.control.poll(self.nodes) {
            return 0;
        }
        self.nodes += 1;
        self.stats.bump(Counter::Main);
        self.seldepth = self.seldepth.max(ply);
        let pv_node = node.pv;

        let key = pos.key();
        let entry = if self.opts.use_tt && excluded.is_none() {
            self.t.tt.probe(key)
        } else {
            None
        };
        self.stats.bump(Counter::TtProbe);
        if let Some(e) = entry {
            self.stats.bump(Counter::TtHit);
            if !pv_node && e.depth as i32 >= depth {
                let s = from_tt(e.score, ply);
                let cut = match e.bound {
                    Bound::Exact => true,
                    Bound::Lower => s >= beta,
                    Bound::Upper => s <= alpha,
                };
                if cut {
                    self.stats.bump(Counter::TtCut);
                    return s;
                }
            }
        }
        let tt_move = entry.and_then(|e| e.mv);
        let tt_score = entry.map(|e| from_tt(e.score, ply));

        // Static evaluation (from the table when stored), refined by a table bound on its side.
        let raw_eval = if in_check {
            NO_EVAL
        } else if excluded.is_some() {
            self.t.frames[ply].eval
        } else {
            match entry {
                Some(e) if e.eval != NO_EVAL => e.eval,
                _ => pos.evaluate(),
            }
        };
        // The static evaluation corrected by what searches of this structure found (a singular
        // verification's frame holds it corrected already).
        let side = (self.root_side + ply) % 2;
        // The structure is looked up only where the correction is used and learned.
        let structure = if raw_eval != NO_EVAL && excluded.is_none() {
            pos.structure_key()
        } else {
            None
        };
        let static_eval = self.corrected(side, structure, raw_eval);
        let mut eval = static_eval;
        if let (Some(e), Some(s), false) = (entry, tt_score, in_check) {
            let usable = match e.bound {
                Bound::Exact => true,
                Bound::Lower => s > eval,
                Bound::Upper => s < eval,
            };
            if usable && s.abs() < MATE_BOUND {
                eval = s;
            }
        }
        self.t.frames[ply].eval = static_eval;
        self.t.frames[ply + 1].excluded = None;
        let improving = self.improving(ply, static_eval);
        let selective = self.opts.pruning;
        let prunable = !pv_node && !in_check && excluded.is_none() && beta.abs() < MATE_BOUND;

        if selective && prunable {
            // Reverse futility: far enough above beta near the horizon, the node fails high.
            if depth <= RFP_DEPTH
                && eval - RFP_MARGIN * (depth - improving as i32) >= beta
                && eval < MATE_BOUND
            {
                self.stats.bump(Counter::Rfp);
                return eval;
            }
            // Razoring: hopelessly below alpha, only a capture sequence could help.
            if depth <= RAZOR_DEPTH && eval + RAZOR_BASE + RAZOR_MARGIN * depth * depth < alpha {
                let s = self.qsearch(pos, ply, alpha - 1, alpha, 0);
                if self.control.stopped() {
                    return 0;
                }
                if s < alpha {
                    return s;
                }
            }
        }

        let null_ok = self.t.frames[ply.saturating_sub(1)].moved.is_some() || ply == 0;
        if self.opts.null_move
            && prunable
            && null_ok
            && depth >= NULL_DEPTH
            && eval >= beta
            && raw_eval >= beta - NULL_GATE_SLOPE * depth + NULL_GATE_BASE
            && pos.make_null()
        {
            let r = (3 + depth / 3 + ((eval - beta) / 200).min(3)).min(depth);
            self.stats.bump(Counter::NullTry);
            self.t.frames[ply].moved = None;
            let s = -self.negamax(
                pos,
                depth - r,
                ply + 1,
                -beta,
                -beta + 1,
                Node::non_pv(!node.cut),
            );
            pos.unmake_null();
            if self.control.stopped() {
                return 0;
            }
            if s >= beta {
                self.stats.bump(Counter::NullCut);
                return if s >= MATE_BOUND { beta } else { s };
            }
        }

        // Internal iterative reduction: without a hash move, a deep node is searched less deeply.
        if selective
            && excluded.is_none()
            && tt_move.is_none()
            && depth >= 4
            && (pv_node || node.cut)
        {
            depth -= 1;
        }

        let prev = self.previous(ply);
        let split = pos.exact_see();
        let mut picker = std::mem::take(&mut self.t.pickers[ply]);
        let killers = self.t.heuristics.killers.get(ply);
        picker.staged(tt_move, killers, side, prev, split);
        let mut quiets = std::mem::take(&mut self.t.quiets[ply]);
        let mut noisies = std::mem::take(&mut self.t.noisies[ply]);
        quiets.clear();
        noisies.clear();

        // Quiet moves are hopeless when even the first one, barely reduced, stays futile: do not
        // generate them at all, or (games that tell checks) look only at those that give check.
        let futility = |lmr_depth: i32| eval + FUTILITY_BASE + FUTILITY_MARGIN * lmr_depth;
        let mut pruned = false;
        let hopeless =
            selective && prunable && depth - 1 <= FUTILITY_DEPTH && futility(depth - 1) <= alpha;
        // Where only checks are looked at, even a quiet hash move or killer that gives none is
        // skipped.
        let checks_only = hopeless && G::TELLS_CHECKS;
        if hopeless {
            if checks_only {
                picker.only_checks();
            } else {
                picker.skip_quiets();
            }
            pruned = true;
        }
        let lmp = if selective && !pv_node && !in_check && depth <= LMP_DEPTH {
            lmp_limit(depth, improving)
        } else {
            usize::MAX
        };

        let original_alpha = alpha;
        let mut best = -INFINITY;
        let mut best_move = None;
        let mut searched = 0usize;
        let mut quiet_count = 0usize;
        // Late-move pruning or futility gave up on the rest of the quiet stage: of its moves only
        // the checks are looked at (games that tell checks; the others skip the stage).
        let mut quiets_futile = checks_only;
        while let Some((mv, order)) = picker.next(pos, &self.t.heuristics) {
            if Some(mv) == excluded {
                continue;
            }
            let quiet = pos.is_quiet(mv);
            let late = MovePicker::<M>::is_late_score(order) || (checks_only && quiet);
            let known_check = quiets_futile && quiet && late && pos.gives_check(mv);
            if quiets_futile && quiet && late && !known_check {
                self.stats.bump(Counter::Pruned);
                continue;
            }
            let index = pos.history_index(mv);
            let history = if quiet {
                self.t.heuristics.quiet_score(side, index, prev)
            } else {
                self.t
                    .heuristics
                    .capture
                    .get(side, index, pos.captured_kind(mv))
            };
            let reduction = self.t.reductions.get(depth, searched + 1);
            // Pruning of moves near the horizon, once a move that does not lose by force is known.
            if selective && !in_check && best > -MATE_BOUND && ply > 0 {
                let lmr_depth = (depth - 1 - reduction).max(0);
                if quiet && late && (known_check || pos.gives_check(mv)) {
                    // A quiet check is spared from the quiet moves' pruning; only an exchange
                    // loss prunes it, as for a capture.
                    if split
                        && depth <= SEE_PRUNE_DEPTH
                        && !pos.see_ge(mv, SEE_NOISY_MARGIN * depth)
                    {
                        pruned = true;
                        self.stats.bump(Counter::Pruned);
                        continue;
                    }
                } else if quiet && late {
                    if quiet_count >= lmp {
                        quiets_futile = true;
                        if !G::TELLS_CHECKS {
                            picker.skip_quiets();
                        }
                        pruned = true;
                        self.stats.bump(Counter::Pruned);
                        continue;
                    }
                    if !pv_node
                        && lmr_depth <= HISTORY_PRUNE_DEPTH
                        && history < HISTORY_PRUNE * depth
                    {
                        pruned = true;
                        self.stats.bump(Counter::Pruned);
                        continue;
                    }
                    if lmr_depth <= FUTILITY_DEPTH && futility(lmr_depth) <= alpha {
                        quiets_futile = true;
                        if !G::TELLS_CHECKS {
                            picker.skip_quiets();
                        }
                        pruned = true;
                        self.stats.bump(Counter::Pruned);
                        continue;
                    }
                    if split
                        && lmr_depth <= SEE_PRUNE_DEPTH
                        && !pos.see_ge(mv, SEE_QUIET_MARGIN * lmr_depth * lmr_depth)
                    {
                        pruned = true;
                        self.stats.bump(Counter::Pruned);
                        continue;
                    }
                } else if !quiet
                    && Some(mv) != tt_move
                    && split
                    && depth <= SEE_PRUNE_DEPTH
                    // A good capture passed the picker's exchange test at 0, so it passes this
                    // lower threshold too: no second evaluation.
                    && !MovePicker::<M>::is_good_noisy_score(order)
                    && !pos.see_ge(mv, SEE_NOISY_MARGIN * depth)
                {
                    pruned = true;
                    self.stats.bump(Counter::Pruned);
                    continue;
                }
            }

            // Singular extension: the hash move is the only good move if every other move fails
            // low against a bound a little below its score.
            let mut extension = 0;
            if selective
                && Some(mv) == tt_move
                && excluded.is_none()
                && ply > 0
                && depth >= SINGULAR_DEPTH
                && (ply as i32) < 2 * self.root_depth
            {
                if let (Some(e), Some(s)) = (entry, tt_score) {
                    if e.bound != Bound::Upper
                        && e.depth as i32 >= depth - SINGULAR_TT_SLACK
                        && s.abs() < MATE_BOUND
                    {
                        self.stats.bump(Counter::SingularTry);
                        let singular_beta = s - 2 * depth;
                        self.t.frames[ply].excluded = Some(mv);
                        let v = self.negamax(
                            pos,
                            (depth - 1) / 2,
                            ply,
                            singular_beta - 1,
                            singular_beta,
                            Node::non_pv(node.cut),
                        );
                        self.t.frames[ply].excluded = None;
                        self.t.frames[ply].eval = static_eval;
                        if self.control.stopped() {
                            self.finish_node(ply, picker, quiets, noisies);
                            return 0;
                        }
                        if v < singular_beta {
                            self.stats.bump(Counter::SingularExt);
                            extension = 1;
                        } else if singular_beta >= beta {
                            // Multi-cut: another move beats beta as well.
                            self.finish_node(ply, picker, quiets, noisies);
                            return singular_beta;
                        } else if s >= beta {
                            // Not singular, and its stored score already beats beta: another
                            // move is likely to cut as well, so the hash move is searched less.
                            extension = -NEGATIVE_EXTENSION;
                        } else if node.cut {
                            extension = -NEGATIVE_EXTENSION_CUT;
                        }
                    }
                }
            }

            self.t.frames[ply].moved = Some(index);
            pos.make(mv);
            self.t.tt.prefetch(pos.key());
            let gives_check = pos.in_check();
            searched += 1;
            if quiet {
                quiet_count += 1;
            }
            let new_depth = depth - 1 + extension;
            let mut score;
            if searched == 1 {
                let child = if pv_node { PV } else { Node::non_pv(!node.cut) };
                score = -self.negamax(pos, new_depth, ply + 1, -beta, -alpha, child);
            } else {
                let mut r = 0;
                if self.opts.lmr
                    && depth >= 3
                    && searched > 1 + pv_node as usize
                    && (late || !quiet)
                {
                    r = reduction;
                    if quiet {
                        r -= history / LMR_HISTORY;
                    } else {
                        // Captures: reduced only when losing by exchange (ordered last) or deep
                        // in the list, and less.
                        r = if order < 0 { r } else { r / 2 };
                    }
                    r += !improving as i32;
                    r += node.cut as i32;
                    r -= pv_node as i32;
                    r -= gives_check as i32;
                    r = r.clamp(0, (new_depth - 1).max(0));
                }
                if r > 0 {
                    self.stats.bump(Counter::Reduced);
                }
                score = -self.negamax(
                    pos,
                    new_depth - r,
                    ply + 1,
                    -alpha - 1,
                    -alpha,
                    Node::non_pv(true),
                );
                if score > alpha && r > 0 {
                    self.stats.bump(Counter::ReSearch);
                    score = -self.negamax(
                        pos,
                        new_depth,
                        ply + 1,
                        -alpha - 1,
                        -alpha,
                        Node::non_pv(!node.cut),
                    );
                }
                if score > alpha && score < beta && pv_node {
                    score = -self.negamax(pos, new_depth, ply + 1, -beta, -alpha, PV);
                }
            }
            pos.unmake();
            if self.control.stopped() {
                self.finish_node(ply, picker, quiets, noisies);
                return 0;
            }
            if score > best {
                best = score;
                if score > alpha {
                    alpha = score;
                    best_move = Some(mv);
                    if pv_node {
                        self.update_pv(ply, mv);
                    }
                    if score >= beta {
                        self.stats.bump(Counter::FailHigh);
                        if searched == 1 {
                            self.stats.bump(Counter::FailHighFirst);
                        }
                        if Stats::enabled() {
                            let stage =
                                MovePicker::<M>::stage_of(Some(mv) == tt_move, quiet, order);
                            self.stats.cut(stage, searched == 1);
                        }
                        self.reward(pos, ply, side, depth, mv, quiet, &quiets, &noisies);
                        break;
                    }
                }
            }
            if quiet {
                if quiets.len() < 64 {
                    quiets.push(mv);
                }
            } else if noisies.len() < 32 {
                noisies.push(mv);
            }
        }
        self.finish_node(ply, picker, quiets, noisies);
        if searched == 0 {
            if excluded.is_some() {
                return alpha;
            }
            if !pruned {
                return mate_from_root(pos.no_moves_score(), ply);
            }
        }
        // Pruned moves are assumed to fail low: the node's upper bound is alpha, not lower.
        if pruned && best < original_alpha {
            best = original_alpha;
        }
        let bound = Bound::of(best, original_alpha, beta);
        // A quiet (or no) best move whose score is on the trusted side of the bound tells how
        // far the static evaluation missed.
        if let Some(k) = structure {
            if best.abs() < MATE_BOUND
                && best_move.is_none_or(|m| pos.is_quiet(m))
                && !(bound == Bound::Lower && best <= static_eval)
                && !(bound == Bound::Upper && best >= static_eval)
            {
                self.t.correction.update(side, k, best - raw_eval, depth);
            }
        }
        if self.opts.use_tt && excluded.is_none() {
            self.t
                .tt
                .store_with_eval(key, best_move, to_tt(best, ply), raw_eval, depth, bound);
        }
        best
    }

    /// Gives the per-ply buffers back after a node.
    fn finish_node(&mut self, ply: usize, picker: MovePicker<M>, quiets: Vec<M>, noisies: Vec<M>) {
        self.t.pickers[ply] = picker;
        self.t.quiets[ply] = quiets;
        self.t.noisies[ply] = noisies;
    }

    /// History updates after `mv` caused a cutoff at `depth`: a bonus for it, a malus for the
    /// moves of its kind searched before it (and for the noisy ones, whatever cut).
    #[allow(clippy::too_many_arguments)]
    fn reward<G: TwoSided<Move = M>>(
        &mut self,
        pos: &G,
        ply: usize,
        side: usize,
        depth: i32,
        mv: M,
        quiet: bool,
        quiets: &[M],
        noisies: &[M],
    ) {
        let b = bonus(depth);
        let prev = self.previous(ply);
        let h = &mut self.t.heuristics;
        if quiet {
            h.killers.add(ply, mv);
            h.update_quiet(side, pos.history_index(mv), prev, b);
            for &q in quiets {
                h.update_quiet(side, pos.history_index(q), prev, -b);
            }
        } else {
            h.capture
                .update(side, pos.history_index(mv), pos.captured_kind(mv), b);
        }
        for &n in noisies {
            h.capture
                .update(side, pos.history_index(n), pos.captured_kind(n), -b);
        }
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
        self.stats.bump(Counter::Quiescence);
        self.seldepth = self.seldepth.max(ply);
        if let Some(s) = pos.rule_outcome() {
            return mate_from_root(s, ply);
        }
        if ply >= MAX_PLY {
            return pos.evaluate();
        }
        let key = pos.key();
        let entry = if self.opts.use_tt {
            self.t.tt.probe(key)
        } else {
            None
        };
        if let Some(e) = entry {
            let s = from_tt(e.score, ply);
            match e.bound {
                Bound::Exact => return s,
                Bound::Lower if s >= beta => return s,
                Bound::Upper if s <= alpha => return s,
                _ => {}
            }
        }
        let original_alpha = alpha;
        // Evasions only near the horizon: chains of checks must not grow without bound. A side
        // in check beyond that stands pat; that result depends on the path, so it is not stored.
        let checked = pos.in_check();
        let in_check = qply < QS_EVASION_PLIES && checked;
        let store = self.opts.use_tt && (in_check || !checked);
        let side = (self.root_side + ply) % 2;
        let mut picker = std::mem::take(&mut self.t.pickers[ply]);
        let mut best;
        let mut raw_eval = NO_EVAL;
        let exact = pos.exact_see();
        if in_check {
            self.stats.bump(Counter::QsEvasion);
            let prev = self.previous(ply);
            picker.legal(pos, None, &self.t.heuristics, side, prev);
            if picker.is_empty() {
                self.t.pickers[ply] = picker;
                return mate_from_root(pos.no_moves_score(), ply);
            }
            best = -INFINITY;
        } else {
            raw_eval = match entry {
                Some(e) if e.eval != NO_EVAL => e.eval,
                _ => pos.evaluate(),
            };
            // Stand pat on the evaluation corrected by what searches of this structure found.
            best = self.corrected(side, pos.structure_key(), raw_eval);
            if let (Some(e), false) = (entry, checked) {
                let s = from_tt(e.score, ply);
                let usable = match e.bound {
                    Bound::Exact => true,
                    Bound::Lower => s > best,
                    Bound::Upper => s < best,
                };
                if usable && s.abs() < MATE_BOUND {
                    best = s;
                }
            }
            if best >= beta {
                self.t.pickers[ply] = picker;
                if store && entry.is_none() {
                    self.t.tt.store_with_eval(
                        key,
                        None,
                        to_tt(best, ply),
                        raw_eval,
                        0,
                        Bound::Lower,
                    );
                }
                return best;
            }
            alpha = alpha.max(best);
            picker.quiescence(side);
        }
        let stand_pat = best;
        let mut best_move = None;
        loop {
            // Delta pruning: a capture that cannot lift the score near alpha is not tried (the
            // picker skips it before evaluating its exchange).
            if !in_check {
                picker.set_futile_victim(
                    alpha.saturating_sub(stand_pat.saturating_add(DELTA_MARGIN)),
                );
            }
            let Some((mv, _)) = picker.next(pos, &self.t.heuristics) else {
                break;
            };
            // Captures that lose material by static exchange are not tried either (the picker
            // drops them itself when the game's exchange evaluation is exact).
            if !in_check && !exact && !pos.see_ge(mv, 0) {
                self.stats.bump(Counter::QsPruned);
                continue;
            }
            pos.make(mv);
            self.t.tt.prefetch(pos.key());
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
        if store {
            let bound = if best >= beta {
                Bound::Lower
            } else if best > original_alpha && best_move.is_some() {
                Bound::Exact
            } else {
                Bound::Upper
            };
            self.t
                .tt
                .store_with_eval(key, best_move, to_tt(best, ply), raw_eval, 0, bound);
        }
        best
    }
}
