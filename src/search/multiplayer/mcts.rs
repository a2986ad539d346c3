//! Monte-Carlo tree search with max^n backup: every node keeps the summed reward of each seat; a
//! seat to move selects by UCT on its own reward, with a progressive bias towards valuable
//! captures and first-play urgency; a decisive capture (one that knocks another team's seat out)
//! is the only child kept; playouts are short (capture-greedy or captures only), scored by the
//! game's result or by a softmax of each team's change of evaluation since the root.
//!
//! Limits: `nodes` counts iterations (playouts), time ends it at the soft limit, and `depth N`
//! bounds the tree's depth and ends the search once the tree to that depth is complete (every
//! node within N plies visited, every one above N expanded).

use rand::Rng;
use rand_chacha::rand_core::SeedableRng;
use rand_chacha::ChaCha8Rng;

use crate::search::alphabeta::Control;
use crate::search::report::nps;
use crate::search::{Info, Limits, MultiSided, Outcome, Score, MATE_BOUND};

use super::MultiOptions;

const NONE: u32 = u32::MAX;

/// How often (in iterations) the clock and the stop flag are read.
const CHECK_EVERY: u64 = 16;

#[derive(Clone, Debug)]
struct Node<M> {
    mv: Option<M>,
    first_child: u32,
    children: u32,
    visits: u32,
    /// Progressive bias of `mv` in 0..1 (from the value it captures), fading with visits.
    prior: f32,
    /// The seat that played `mv` (whose reward UCT maximises when choosing this node).
    mover: u8,
    expanded: bool,
    /// Plies from the root.
    depth: u16,
    /// Visited, and expanded unless it ends the game or sits at the depth limit.
    settled: bool,
    /// Nodes of this subtree (itself included) that are not settled yet; a depth-limited search
    /// is complete when the root's count is 0.
    open: u32,
}

/// One MCTS run over a tree stored in an arena.
pub(super) struct Mcts<'a, G: MultiSided> {
    options: MultiOptions,
    control: Control<'a>,
    nodes: Vec<Node<G::Move>>,
    /// Summed rewards, `seats` values per node.
    rewards: Vec<f32>,
    seats: usize,
    rng: ChaCha8Rng,
    moves: Vec<G::Move>,
    path: Vec<u32>,
    reward: Vec<f32>,
    team_value: Vec<f64>,
    /// Each seat's evaluation at the root: leaf evaluations count relative to it, so that the
    /// softmax does not saturate when a side is already far ahead.
    root_value: Vec<f64>,
    scored: Vec<(Score, G::Move)>,
    iterations: u64,
    seldepth: usize,
    /// A depth limit was given: selection completes the tree to that depth (it descends only
    /// into subtrees with open nodes), the search ends when it is complete, and the move is the
    /// root child with the best mean reward.
    complete: bool,
}

impl<'a, G: MultiSided> Mcts<'a, G> {
    /// A search of `root` with the given knobs.
    pub fn new(root: &G, options: MultiOptions, control: Control<'a>) -> Self {
        let seats = root.seats();
        Mcts {
            options,
            control,
            nodes: Vec::new(),
            rewards: Vec::new(),
            seats,
            rng: ChaCha8Rng::seed_from_u64(options.seed),
            moves: Vec::with_capacity(128),
            path: Vec::with_capacity(64),
            reward: vec![0.0; seats],
            team_value: vec![0.0; seats],
            root_value: (0..seats).map(|s| root.evaluate_for(s) as f64).collect(),
            scored: Vec::with_capacity(128),
            iterations: 0,
            seldepth: 0,
            complete: false,
        }
    }

    fn push_node(&mut self, mv: Option<G::Move>, mover: usize, prior: f32, depth: u16) -> u32 {
        self.nodes.push(Node {
            mv,
            first_child: NONE,
            children: 0,
            visits: 0,
            prior,
            mover: mover as u8,
            expanded: false,
            depth,
            settled: false,
            open: 1,
        });
        self.rewards.extend(std::iter::repeat_n(0.0, self.seats));
        (self.nodes.len() - 1) as u32
    }

    fn mean(&self, node: u32, seat: usize) -> f32 {
        let n = &self.nodes[node as usize];
        if n.visits == 0 {
            0.0
        } else {
            self.rewards[node as usize * self.seats + seat] / n.visits as f32
        }
    }

    /// Runs iterations until a limit, then returns the most visited root move.
    pub fn run(
        &mut self,
        root: &G,
        limits: &Limits,
        on_info: &mut dyn FnMut(&Info<G::Move>),
    ) -> Outcome<G::Move> {
        let mut pos = root.clone();
        let root_seat = pos.to_move();
        pos.legal_moves(&mut self.moves);
        let Some(&first) = self.moves.first() else {
            let mut r = vec![0.0; self.seats];
            let score = if pos.outcome(&mut r) {
                to_score(r[root_seat])
            } else {
                pos.evaluate_for(root_seat)
            };
            return Outcome {
                best: None,
                ponder: None,
                score,
                depth: 0,
                nodes: 0,
            };
        };
        self.push_node(None, self.seats, 0.0, 0);
        let max_iterations = limits.nodes.unwrap_or(u64::MAX);
        let max_tree_depth = limits
            .depth
            .map_or(usize::MAX, |d| d.clamp(1, u32::from(u16::MAX - 1)) as usize);
        self.complete = limits.depth.is_some();
        let mut next_report = 256;
        let single = self.moves.len() == 1 && self.control.is_timed();
        while self.iterations < max_iterations {
            // MCTS has no iterations to finish: it stops at the soft limit.
            if self.iterations.is_multiple_of(CHECK_EVERY) && !self.control.may_deepen() {
                break;
            }
            self.iterate(&mut pos, max_tree_depth);
            self.iterations += 1;
            // A depth limit ends the search once the tree to that depth is complete, or when the
            // memory bound stops it from growing there.
            if self.complete
                && (self.nodes[0].open == 0 || self.nodes.len() >= self.options.max_tree_nodes)
            {
                break;
            }
            if self.iterations == next_report {
                next_report *= 2;
                on_info(&self.info(root_seat));
            }
            if single {
                break;
            }
        }
        let info = self.info(root_seat);
        if log::log_enabled!(log::Level::Debug) {
            let r = &self.nodes[0];
            let mut kids: Vec<u32> = (r.first_child..r.first_child + r.children).collect();
            kids.sort_by_key(|&c| std::cmp::Reverse(self.nodes[c as usize].visits));
            for &c in kids.iter().take(4) {
                let n = &self.nodes[c as usize];
                log::debug!(
                    "mcts root child {:?} visits {} mean {:.3} prior {:.2}",
                    n.mv,
                    n.visits,
                    self.mean(c, root_seat),
                    n.prior
                );
            }
            log::debug!(
                "mcts iterations {} root children {}",
                self.iterations,
                r.children
            );
        }
        if self.iterations > 0 {
            on_info(&info);
        }
        Outcome {
            best: info.pv.first().copied().or(Some(first)),
            ponder: info.pv.get(1).copied(),
            score: info.score,
            depth: info.depth,
            nodes: self.iterations,
        }
    }

    /// The most visited line from the root, and the root seat's expected reward along it.
    fn info(&self, root_seat: usize) -> Info<G::Move> {
        let mut pv = Vec::new();
        let mut node = 0u32;
        let mut score = 0;
        loop {
            let n = &self.nodes[node as usize];
            if n.children == 0 {
                break;
            }
            let kids = n.first_child..n.first_child + n.children;
            let best = if self.complete {
                // Every line was looked at about equally often: choose by the mover's mean.
                kids.filter(|&c| self.nodes[c as usize].visits > 0)
                    .max_by(|&a, &b| {
                        let mean = |c: u32| self.mean(c, self.nodes[c as usize].mover as usize);
                        mean(a).total_cmp(&mean(b))
                    })
            } else {
                kids.max_by_key(|&c| self.nodes[c as usize].visits)
                    .filter(|&c| self.nodes[c as usize].visits > 0)
            };
            let Some(best) = best else { break };
            if node == 0 {
                score = to_score(self.mean(best, root_seat));
            }
            pv.push(self.nodes[best as usize].mv.expect("children carry moves"));
            node = best;
        }
        let time = self.control.elapsed();
        Info {
            depth: pv.len() as u32,
            seldepth: self.seldepth as u32,
            score,
            nodes: self.iterations,
            time,
            nps: nps(self.iterations, time),
            pv,
            hashfull: 0,
        }
    }

    fn iterate(&mut self, pos: &mut G, max_tree_depth: usize) {
        let mut node = 0u32;
        let mut made = 0usize;
        self.path.clear();
        self.path.push(0);
        let mut finished = pos.outcome(&mut self.reward);
        // Selection and expansion.
        while !finished {
            if !self.nodes[node as usize].expanded {
                if made >= max_tree_depth || self.nodes.len() >= self.options.max_tree_nodes {
                    break;
                }
                self.expand(pos, node);
            }
            let n = &self.nodes[node as usize];
            if n.children == 0 {
                break;
            }
            let child = self.select(node);
            pos.make(self.nodes[child as usize].mv.expect("children carry moves"));
            made += 1;
            node = child;
            self.path.push(node);
            finished = pos.outcome(&mut self.reward);
            if self.nodes[child as usize].visits == 0 {
                break;
            }
        }
        self.seldepth = self.seldepth.max(made);
        self.settle_path(finished, max_tree_depth);
        // Playout: up to `playout_depth` plies, each the most valuable capture (with probability
        // `greedy_playouts`, else a random move); it ends early when a quiet position is reached
        // in capture-only mode, and is scored by evaluation.
        if !finished {
            let mut plies = 0;
            loop {
                if pos.outcome(&mut self.reward) {
                    break;
                }
                if plies >= self.options.playout_depth {
                    self.heuristic_reward(pos);
                    break;
                }
                let Some(mv) = self.playout_move(pos) else {
                    self.heuristic_reward(pos);
                    break;
                };
                pos.make(mv);
                made += 1;
                plies += 1;
            }
        }
        for _ in 0..made {
            pos.unmake();
        }
        // Backup: every node on the path adds the whole reward vector.
        for &id in &self.path {
            self.nodes[id as usize].visits += 1;
            let base = id as usize * self.seats;
            for (s, r) in self.reward.iter().enumerate() {
                self.rewards[base + s] += r;
            }
        }
    }

    /// Marks the nodes of the selected path that are now settled: the last one is about to be
    /// visited (it ends the game when `finished`), the ones above it are visited and expanded.
    fn settle_path(&mut self, finished: bool, max_tree_depth: usize) {
        let last = self.path.len() - 1;
        for i in 0..self.path.len() {
            let n = &mut self.nodes[self.path[i] as usize];
            if n.settled {
                continue;
            }
            let leaf_done = i == last && (finished || n.depth as usize >= max_tree_depth);
            if n.expanded || leaf_done {
                n.settled = true;
                for &up in &self.path[..=i] {
                    self.nodes[up as usize].open -= 1;
                }
            }
        }
    }

    fn expand(&mut self, pos: &mut G, node: u32) {
        pos.legal_moves(&mut self.moves);
        // Captures first, so that they are tried before quiet moves.
        let mut order = std::mem::take(&mut self.scored);
        order.clear();
        order.extend(self.moves.iter().map(|&m| (pos.victim_value(m), m)));
        order.sort_by_key(|&(v, _)| std::cmp::Reverse(v));
        // A decisive move (a capture that puts a seat of another team out of the game) is the
        // only child kept: the tree then sees at once what leaving a Mothership en prise costs.
        if let Some(d) = self.decisive(pos, &order) {
            order.clear();
            order.push(d);
        }
        let first = self.nodes.len() as u32;
        let mover = pos.to_move();
        let scale = 2.0 * self.options.temperature.max(1) as f32;
        let depth = self.nodes[node as usize].depth + 1;
        for &(v, mv) in &order {
            let v = v.max(0) as f32;
            self.push_node(Some(mv), mover, v / (v + scale), depth);
        }
        let children = order.len() as u32;
        self.scored = order;
        // `node` is the last node of the path: its ancestors' subtrees grow by the new children.
        for &up in &self.path {
            self.nodes[up as usize].open += children;
        }
        let n = &mut self.nodes[node as usize];
        n.first_child = first;
        n.children = children;
        n.expanded = true;
    }

    /// The first capture in `order` after which a seat of another team is out of the game.
    fn decisive(&self, pos: &mut G, order: &[(Score, G::Move)]) -> Option<(Score, G::Move)> {
        let mover_team = pos.team(pos.to_move());
        let mut active = 0u64;
        for s in 0..self.seats {
            if pos.team(s) != mover_team && pos.is_active(s) {
                active |= 1 << s;
            }
        }
        for &(v, m) in order.iter().take_while(|&&(v, _)| v > 0) {
            pos.make(m);
            let knocked_out = (0..self.seats).any(|s| active & (1 << s) != 0 && !pos.is_active(s));
            pos.unmake();
            if knocked_out {
                return Some((v, m));
            }
        }
        None
    }

    /// UCT on the mover's mean reward, plus a progressive bias from the capture value; an
    /// unvisited child counts as the parent's mean for that seat less the first-play reduction.
    fn select(&self, node: u32) -> u32 {
        let n = &self.nodes[node as usize];
        let ln = (n.visits.max(1) as f32).ln();
        let o = &self.options;
        let mut best = n.first_child;
        let mut best_value = f32::NEG_INFINITY;
        // Completing the tree to a depth limit: only subtrees with open nodes are candidates.
        let only_open = self.complete
            && (n.first_child..n.first_child + n.children).any(|c| self.nodes[c as usize].open > 0);
        for c in n.first_child..n.first_child + n.children {
            let child = &self.nodes[c as usize];
            if only_open && child.open == 0 {
                continue;
            }
            let value = if child.visits == 0 {
                if o.fpu_reduction < 0.0 {
                    return c;
                }
                self.mean(node, child.mover as usize) - o.fpu_reduction
                    + o.exploration * ln.sqrt()
                    + o.prior_weight * child.prior
            } else {
                let v = child.visits as f32;
                self.mean(c, child.mover as usize)
                    + o.exploration * (ln / v).sqrt()
                    + o.prior_weight * child.prior / (v + 1.0)
            };
            if value > best_value {
                best_value = value;
                best = c;
            }
        }
        best
    }

    /// The next playout move, or `None` to stop and evaluate.
    fn playout_move(&mut self, pos: &G) -> Option<G::Move> {
        if self.options.capture_playouts {
            pos.noisy_moves(&mut self.moves);
        } else if self.rng.gen::<f32>() < self.options.greedy_playouts {
            pos.noisy_moves(&mut self.moves);
            if self.moves.is_empty() {
                pos.legal_moves(&mut self.moves);
            }
        } else {
            pos.legal_moves(&mut self.moves);
            return self.random_move();
        }
        let best = self.moves.iter().map(|&m| pos.victim_value(m)).max()?;
        if best <= 0 {
            return self.random_move();
        }
        let ties = self
            .moves
            .iter()
            .filter(|&&m| pos.victim_value(m) == best)
            .count();
        let pick = self.rng.gen_range(0..ties);
        self.moves
            .iter()
            .copied()
            .filter(|&m| pos.victim_value(m) == best)
            .nth(pick)
    }

    fn random_move(&mut self) -> Option<G::Move> {
        if self.moves.is_empty() {
            None
        } else {
            Some(self.moves[self.rng.gen_range(0..self.moves.len())])
        }
    }

    /// Rewards from evaluations: a softmax over the active teams of their evaluations' changes
    /// since the root (at `temperature` centipawns), each seat getting its team's share; inactive
    /// seats get 0.
    fn heuristic_reward(&mut self, pos: &G) {
        let t = self.options.temperature.max(1) as f64;
        // Each team is represented by its lowest seat; `team_value[s]` is NaN for other seats.
        let mut max = f64::NEG_INFINITY;
        for s in 0..self.seats {
            let team = pos.team(s);
            let first = (0..s).all(|o| pos.team(o) != team);
            let active = (s..self.seats).any(|o| pos.team(o) == team && pos.is_active(o));
            self.team_value[s] = if first && active {
                let v = (pos.evaluate_for(s) as f64 - self.root_value[s]) / t;
                max = max.max(v);
                v
            } else {
                f64::NAN
            };
        }
        let mut total = 0.0;
        for v in self.team_value.iter_mut().filter(|v| !v.is_nan()) {
            *v = (*v - max).exp();
            total += *v;
        }
        for s in 0..self.seats {
            let team = pos.team(s);
            let rep = (0..=s).find(|&o| pos.team(o) == team).unwrap_or(s);
            let v = self.team_value[rep];
            self.reward[s] = if pos.is_active(s) && !v.is_nan() && total > 0.0 {
                (v / total) as f32
            } else {
                0.0
            };
        }
    }
}

/// An expected reward in 0..=1 as a centipawn-like score (logistic, 0.5 is 0).
fn to_score(p: f32) -> Score {
    let p = p.clamp(0.001, 0.999) as f64;
    ((200.0 * (p / (1.0 - p)).ln()) as Score).clamp(-MATE_BOUND + 1, MATE_BOUND - 1)
}
