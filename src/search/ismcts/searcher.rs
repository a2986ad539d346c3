//! Information-Set Monte Carlo Tree Search (Cowling, Powley & Whitehouse, *Information Set Monte
//! Carlo Tree Search*, IEEE TCIAIG 2012), single-observer, with vector rewards and decoupled
//! simultaneous moves.
//!
//! Each iteration samples a world consistent with the observation (a determinization), descends
//! the tree choosing actions by UCB1 with availability counts (an edge's exploration term counts
//! the iterations in which its action was legal, so actions that exist only in some worlds are
//! treated fairly), expands one node, plays out, and credits every edge with the reward of the
//! seat that chose it. In a simultaneous step every deciding seat picks from its own bandit at the
//! same node without seeing the others' picks; the joint pick leads to the child. Chance (card
//! draws) happens inside the sampled world.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use rand::{Rng, SeedableRng};

use super::tree::{Tree, NONE};
use super::{
    action_key, start_search, Found, HiddenInfo, HiddenSearch, Progress, SearchBudget, SearchError,
    SearchRng, REPORT_INTERVAL,
};

/// Mixed into the child key of a private-signature bandit node, apart from joint-action keys.
const SIGNATURE_TAG: u64 = 0x5a17_c0de_0b5e_55ed;

/// Default UCB exploration constant (rewards are in 0..=1).
pub const DEFAULT_EXPLORATION: f32 = 0.7;

/// The ISMCTS searcher: its tree, random generator, sampled world and buffers, all kept between
/// searches.
pub struct Ismcts<G: HiddenInfo> {
    tree: Tree<G::Action>,
    rng: SearchRng,
    /// UCB exploration constant.
    pub exploration: f32,
    /// In a simultaneous step, the child depends only on the observer's own choice: the other
    /// seats' choices are hidden from it when it decides, so its tree merges them (they still pick
    /// from their own bandits at the node). Off: every joint choice has its own child.
    pub merge_simultaneous: bool,
    /// The other seats decide by the game's default policy inside the tree (an opponent model)
    /// instead of by their own bandits.
    pub policy_opponents: bool,
    /// The other seats' bandits are kept apart by [`HiddenInfo::private_signature`] of their own
    /// cards in the sampled world (a bandit per summary, under the node), so their choices inside
    /// the tree depend on what they hold.
    pub private_opponents: bool,
    /// Iterations played in each sampled world (1: a new world every iteration). With more, the
    /// iterations of a batch meet the same hidden cards and, through a chance generator restarted
    /// from the batch's seed for each of them, the same chance in play and playout (common random
    /// numbers): the root actions tried in one batch are compared on the same deal.
    pub world_reuse: u32,
    base: G::World,
    chance: SearchRng,
    batch_seed: u64,
    world: G::World,
    deciders: Vec<usize>,
    acts: Vec<G::Action>,
    root_acts: Vec<G::Action>,
    joint: Vec<(usize, G::Action)>,
    path: Vec<(u32, usize)>,
    rewards: Vec<f32>,
}

impl<G: HiddenInfo> Ismcts<G> {
    /// A searcher whose tree holds at most about `tree_bytes`, seeded with `seed`.
    pub fn new(tree_bytes: usize, seed: u64) -> Self {
        Ismcts {
            tree: Tree::new(tree_bytes),
            rng: SearchRng::seed_from_u64(seed),
            exploration: DEFAULT_EXPLORATION,
            merge_simultaneous: true,
            policy_opponents: false,
            private_opponents: false,
            world_reuse: 1,
            base: G::World::default(),
            chance: SearchRng::seed_from_u64(0),
            batch_seed: 0,
            world: G::World::default(),
            deciders: Vec::new(),
            acts: Vec::new(),
            root_acts: Vec::new(),
            joint: Vec::new(),
            path: Vec::new(),
            rewards: Vec::new(),
        }
    }

    /// Restarts the random generator: the same seed, game and budget give the same search.
    pub fn reseed(&mut self, seed: u64) {
        self.rng = SearchRng::seed_from_u64(seed);
    }

    /// Changes the tree's memory bound.
    pub fn set_tree_bytes(&mut self, bytes: usize) {
        self.tree.set_budget(bytes);
    }

    /// The tree of the last search (for its statistics).
    pub fn tree(&self) -> &Tree<G::Action> {
        &self.tree
    }

    fn progress(
        &self,
        observer: usize,
        iterations: u64,
        start: Instant,
    ) -> Option<Progress<G::Action>> {
        let e = self.tree.edge(self.best(observer)?);
        Some(Progress {
            iterations,
            nodes: self.tree.stats().nodes,
            time: start.elapsed(),
            best: e.action,
            value: e.reward / e.visits.max(1) as f32,
        })
    }

    /// The observer's most visited root edge among the root actions.
    fn best(&self, observer: usize) -> Option<u32> {
        let mut best: Option<(u32, u32)> = None;
        let mut e = self.tree.head(0, observer);
        while e != NONE {
            let edge = self.tree.edge(e);
            if self.root_acts.contains(&edge.action) && best.is_none_or(|(v, _)| edge.visits > v) {
                best = Some((edge.visits, e));
            }
            e = edge.next;
        }
        best.map(|(_, e)| e)
    }

    /// One iteration in the sampled world: descend, expand one node, play out, back up.
    fn iterate(&mut self, game: &mut G) {
        let mut node = 0u32;
        self.path.clear();
        let mut finished = false;
        loop {
            if game.rewards(&self.world, &mut self.rewards) {
                finished = true;
                break;
            }
            game.deciders(&self.world, &mut self.deciders);
            if self.deciders.is_empty() {
                break;
            }
            self.joint.clear();
            let mut key = 0u64;
            let observer = game.observer();
            let hidden = self.merge_simultaneous && self.deciders.len() > 1;
            for i in 0..self.deciders.len() {
                let seat = self.deciders[i];
                if self.policy_opponents && seat != observer {
                    let a = game.policy(&self.world, seat, &mut self.rng);
                    if !hidden {
                        key = key.rotate_left(7) ^ action_key(seat, &a);
                    }
                    self.joint.push((seat, a));
                    continue;
                }
                if node == 0 && seat == observer {
                    // The root's actions are the same in every world (possibly fewer than the
                    // game lists there: equivalent ones left out).
                    self.acts.clone_from(&self.root_acts);
                } else {
                    game.actions(&self.world, seat, &mut self.acts);
                }
                let bandit = if self.private_opponents && seat != observer {
                    self.private_bandit(game, node, seat)
                } else {
                    node
                };
                let (e, a) = match self.select(bandit, seat) {
                    Some(e) => (e, self.tree.edge(e).action),
                    None => match self.acts.first() {
                        Some(&a) => (NONE, a),
                        None => continue,
                    },
                };
                if e != NONE {
                    self.path.push((e, seat));
                }
                if !hidden || seat == observer {
                    key = key.rotate_left(7) ^ action_key(seat, &a);
                }
                self.joint.push((seat, a));
            }
            if self.joint.is_empty() {
                break;
            }
            let chance = chance_rng(self.world_reuse, &mut self.chance, &mut self.rng);
            game.apply(&mut self.world, &self.joint, chance);
            match self.tree.child(node, key) {
                Some(c) => node = c,
                None => {
                    self.tree.add_child(node, key);
                    break;
                }
            }
        }
        if !finished {
            let chance = chance_rng(self.world_reuse, &mut self.chance, &mut self.rng);
            game.playout(&mut self.world, chance, &mut self.rewards);
        }
        for &(e, seat) in &self.path {
            let edge = self.tree.edge_mut(e);
            edge.visits += 1;
            edge.reward += self.rewards[seat];
        }
    }

    /// Sets up the world of iteration `i` under [`Ismcts::world_reuse`]: a new sampled world and
    /// chance seed at the start of each batch (the first batch keeps the world the search started
    /// from), then a fresh copy of it and the chance generator restarted for every iteration.
    fn next_world(&mut self, game: &mut G, i: u64) {
        if i.is_multiple_of(u64::from(self.world_reuse)) {
            if i == 0 {
                self.base.clone_from(&self.world);
            } else {
                game.sample(&mut self.rng, &mut self.base);
            }
            self.batch_seed = self.rng.gen();
        }
        if i > 0 {
            self.world.clone_from(&self.base);
        }
        self.chance = SearchRng::seed_from_u64(self.batch_seed);
    }

    /// The node holding `seat`'s bandit at `node` for its private signature in the sampled world:
    /// a pseudo-child of `node` per signature (`node` itself for signature 0 or a full tree).
    fn private_bandit(&mut self, game: &G, node: u32, seat: usize) -> u32 {
        let sig = game.private_signature(&self.world, seat);
        if sig == 0 {
            return node;
        }
        let key = SIGNATURE_TAG ^ action_key(seat, &sig);
        match self.tree.child(node, key) {
            Some(n) => n,
            None => self.tree.add_child(node, key).unwrap_or(node),
        }
    }

    /// UCB1 with availability over the edges of `seat` at `node` for the actions in `self.acts`
    /// (edges are made for new actions); an untried action first, at random among the untried.
    fn select(&mut self, node: u32, seat: usize) -> Option<u32> {
        let c = self.exploration;
        let mut best = (f32::NEG_INFINITY, NONE);
        let mut untried = 0u32;
        let mut pick = NONE;
        let mut prev = NONE;
        for i in 0..self.acts.len() {
            let a = self.acts[i];
            let from = if prev == NONE {
                self.tree.head(node, seat)
            } else {
                self.tree.edge(prev).next
            };
            let e = self.tree.find_or_add(node, seat, a, from, prev);
            if e == NONE {
                continue;
            }
            prev = e;
            let edge = self.tree.edge_mut(e);
            edge.avail += 1;
            if edge.visits == 0 {
                untried += 1;
                if self.rng.gen_range(0..untried) == 0 {
                    pick = e;
                }
                continue;
            }
            if untried > 0 {
                continue;
            }
            let n = edge.visits as f32;
            let v = edge.reward / n + c * ((edge.avail as f32).ln() / n).sqrt();
            if v > best.0 {
                best = (v, e);
            }
        }
        let chosen = if untried > 0 { pick } else { best.1 };
        (chosen != NONE).then_some(chosen)
    }
}

impl<G: HiddenInfo> HiddenSearch<G> for Ismcts<G> {
    /// Searches until the budget is spent or `stop` is set and returns the observer's most
    /// visited root action. `report` gets a [`Progress`] about once a second while it runs.
    fn search(
        &mut self,
        game: &mut G,
        budget: &SearchBudget,
        stop: &AtomicBool,
        report: &mut dyn FnMut(&Progress<G::Action>),
    ) -> Result<Found<G::Action>, SearchError> {
        let start = Instant::now();
        let observer = game.observer();
        self.tree.clear(game.seats());
        start_search(
            game,
            &mut self.rng,
            &mut self.world,
            &mut self.deciders,
            &mut self.root_acts,
            &mut self.rewards,
        )?;
        if self.root_acts.len() == 1 {
            return Ok(Found {
                action: self.root_acts[0],
                value: None,
                iterations: 0,
                nodes: 1,
                time: start.elapsed(),
            });
        }
        let mut iterations = 0u64;
        let mut next_report = REPORT_INTERVAL;
        loop {
            if iterations > 0 {
                if budget.iterations.is_some_and(|n| iterations >= n)
                    || stop.load(Ordering::Relaxed)
                {
                    break;
                }
                if iterations.is_multiple_of(32) {
                    let t = start.elapsed();
                    if budget.time.is_some_and(|limit| t >= limit) {
                        break;
                    }
                    if t >= next_report {
                        next_report = t + REPORT_INTERVAL;
                        if let Some(p) = self.progress(observer, iterations, start) {
                            report(&p);
                        }
                    }
                }
            }
            if self.world_reuse > 1 {
                self.next_world(game, iterations);
            } else if iterations > 0 {
                game.sample(&mut self.rng, &mut self.world);
            }
            iterations += 1;
            self.iterate(game);
        }
        let best = self.best(observer).ok_or(SearchError::NoAction)?;
        let e = self.tree.edge(best);
        let found = Found {
            action: e.action,
            value: Some(e.reward / e.visits.max(1) as f32),
            iterations,
            nodes: self.tree.stats().nodes,
            time: start.elapsed(),
        };
        Ok(found)
    }

    fn set_tree_bytes(&mut self, bytes: usize) {
        Ismcts::set_tree_bytes(self, bytes);
    }
}

/// The generator chance draws from in an iteration: the batch's restarted generator under world
/// reuse (common random numbers), else the search's own.
#[inline]
fn chance_rng<'a>(
    world_reuse: u32,
    batch: &'a mut SearchRng,
    search: &'a mut SearchRng,
) -> &'a mut SearchRng {
    if world_reuse > 1 {
        batch
    } else {
        search
    }
}
