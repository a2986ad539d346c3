//! Information-Set MCTS (Cowling, Powley & Whitehouse 2012), single-observer tree with vector
//! rewards for N seats.
//!
//! Each iteration samples a world consistent with the observation (determinization), descends the
//! tree choosing abstract [`Action`]s by UCB with availability counts (a branch counts as "tried"
//! only in iterations where its action was legal in the sampled world), expands one node, plays
//! out with the heuristic policy and backs up each seat's own reward on that seat's edges.
//! Simultaneous steps (class choice, fighter split, Tactical) are decoupled: every seat owing a
//! decision picks from its own bandit at the same node without seeing the others' picks, and the
//! joint pick leads to the child. Card draws are chance resolved inside the sampled world.

use super::super::decision::DecisionKind;
use super::super::observation::Observation;
use super::super::ruleset::Ruleset;
use super::super::sampling::sample_world;
use super::abstraction::{actions, concretize, Action};
use super::{apply_or_random, heuristic, playout, Budget, Choice, Player};
use rand::{seq::SliceRandom, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::hash::{Hash, Hasher};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Instant;

#[derive(Clone, Debug)]
struct Edge {
    seat: u8,
    action: Action,
    visits: u32,
    avail: u32,
    reward: f32,
}

#[derive(Clone, Debug, Default)]
struct Node {
    edges: Vec<Edge>,
    children: Vec<(u64, u32)>,
}

struct Fnv(u64);
impl Hasher for Fnv {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for b in bytes {
            self.0 = (self.0 ^ *b as u64).wrapping_mul(0x100_0000_01b3);
        }
    }
}

/// The ISMCTS player.
pub struct Ismcts {
    rules: Arc<Ruleset>,
    rng: ChaCha8Rng,
    /// UCB exploration constant (rewards are in 0..1).
    pub exploration: f32,
    /// Rounds a playout runs before the position is evaluated.
    pub playout_rounds: u16,
    /// Probability of a random decision in playouts.
    pub playout_eps: f64,
    /// Other seats decide by the heuristic policy inside the tree (an opponent model, as in
    /// PIMC) instead of by their own bandits.
    pub opponent_model: bool,
    nodes: Vec<Node>,
    idx: Vec<usize>,
    fresh: Vec<usize>,
}

impl Ismcts {
    /// A seeded ISMCTS player with default parameters.
    pub fn new(rules: Arc<Ruleset>, seed: u64) -> Ismcts {
        Ismcts {
            rules,
            rng: ChaCha8Rng::seed_from_u64(seed),
            exploration: 0.7,
            playout_rounds: 8,
            playout_eps: 0.1,
            opponent_model: false,
            nodes: Vec::new(),
            idx: Vec::new(),
            fresh: Vec::new(),
        }
    }

    /// Reseeds the player's random number generator.
    pub fn reseed(&mut self, seed: u64) {
        self.rng = ChaCha8Rng::seed_from_u64(seed);
    }

    fn select(&mut self, node: usize, seat: u8, acts: &[Action]) -> usize {
        let n = &mut self.nodes[node];
        let (idx, fresh) = (&mut self.idx, &mut self.fresh);
        idx.clear();
        fresh.clear();
        for &a in acts {
            let i = match n.edges.iter().position(|e| e.seat == seat && e.action == a) {
                Some(i) => i,
                None => {
                    n.edges.push(Edge {
                        seat,
                        action: a,
                        visits: 0,
                        avail: 0,
                        reward: 0.0,
                    });
                    n.edges.len() - 1
                }
            };
            n.edges[i].avail += 1;
            idx.push(i);
        }
        let mut best = (f32::NEG_INFINITY, usize::MAX);
        for &i in idx.iter() {
            let e = &n.edges[i];
            if e.visits == 0 {
                fresh.push(i);
                continue;
            }
            let v = e.reward / e.visits as f32
                + self.exploration * ((e.avail as f32).ln() / e.visits as f32).sqrt();
            if v > best.0 {
                best = (v, i);
            }
        }
        if let Some(&i) = fresh.choose(&mut self.rng) {
            return i;
        }
        best.1
    }

    /// Runs the search from `obs` and returns the most visited root action with its statistics.
    pub fn search(
        &mut self,
        obs: &Observation,
        budget: &Budget,
        stop: &AtomicBool,
    ) -> Result<(Action, Choice), String> {
        let root_seat = obs.seat();
        let root_kind = obs.pending().ok_or("no decision pending for this seat")?;
        self.nodes.clear();
        self.nodes.push(Node::default());
        let players = obs.players();
        let mut rewards = vec![0.0f32; players];
        let mut pend = Vec::new();
        let mut buf = Vec::new();
        let mut acts = Vec::new();
        let mut chosen: Vec<(u8, DecisionKind, Action)> = Vec::new();
        let mut path: Vec<(u32, u32)> = Vec::new();
        let start = Instant::now();
        let mut iterations = 0u64;
        let first_world = sample_world(obs, &self.rules, &mut self.rng)?;
        actions(&first_world, root_seat, root_kind, &mut acts);
        let root_acts = acts.clone();
        if acts.is_empty() {
            return Err("no action available".into());
        }
        if acts.len() == 1 {
            let a = acts[0];
            let decision = concretize(&first_world, root_seat, a);
            return Ok((
                a,
                Choice {
                    decision,
                    iterations: 0,
                    value: None,
                },
            ));
        }
        loop {
            if iterations > 0 {
                if budget.iterations.is_some_and(|n| iterations >= n)
                    || stop.load(Ordering::Relaxed)
                {
                    break;
                }
                if iterations.is_multiple_of(16)
                    && budget.time.is_some_and(|t| start.elapsed() >= t)
                {
                    break;
                }
            }
            iterations += 1;
            let mut w = sample_world(obs, &self.rules, &mut self.rng)?;
            let mut node = 0usize;
            path.clear();
            loop {
                if w.is_over() {
                    break;
                }
                w.pending(&mut pend);
                if pend.is_empty() {
                    break;
                }
                chosen.clear();
                let mut h = Fnv(0xcbf2_9ce4_8422_2325);
                for &(seat, kind) in pend.iter() {
                    if self.opponent_model && seat != root_seat {
                        continue;
                    }
                    actions(&w, seat, kind, &mut acts);
                    if acts.is_empty() {
                        continue;
                    }
                    let e = self.select(node, seat, &acts);
                    path.push((node as u32, e as u32));
                    let a = self.nodes[node].edges[e].action;
                    (seat, a).hash(&mut h);
                    chosen.push((seat, kind, a));
                }
                let mut decided: Vec<_> = chosen
                    .iter()
                    .map(|&(seat, kind, a)| (seat, kind, concretize(&w, seat, a)))
                    .collect();
                for &(seat, kind) in pend.iter() {
                    if self.opponent_model && seat != root_seat {
                        decided.push((seat, kind, heuristic::decide(&w, seat, kind)));
                    }
                }
                if decided.is_empty() {
                    break;
                }
                let mut stuck = false;
                for (seat, kind, d) in &decided {
                    stuck |= !apply_or_random(&mut w, *seat, *kind, d, &mut self.rng);
                }
                if stuck {
                    break;
                }
                let key = h.finish();
                let child = self.nodes[node]
                    .children
                    .iter()
                    .find(|(k, _)| *k == key)
                    .map(|&(_, c)| c as usize);
                match child {
                    Some(c) => node = c,
                    None => {
                        let c = self.nodes.len();
                        self.nodes.push(Node::default());
                        self.nodes[node].children.push((key, c as u32));
                        break;
                    }
                }
            }
            playout(
                &mut w,
                &mut self.rng,
                self.playout_rounds,
                self.playout_eps,
                &mut rewards,
                &mut buf,
            );
            for &(n, e) in &path {
                let edge = &mut self.nodes[n as usize].edges[e as usize];
                edge.visits += 1;
                edge.reward += rewards[edge.seat as usize];
            }
        }
        let best = self.nodes[0]
            .edges
            .iter()
            .filter(|e| e.seat == root_seat && root_acts.contains(&e.action))
            .max_by_key(|e| e.visits)
            .ok_or("search found no action")?;
        let value = best.reward / best.visits.max(1) as f32;
        let a = best.action;
        log::debug!(
            "ismcts: {iterations} iterations, {} nodes, best {a:?} value {value:.3}",
            self.nodes.len()
        );
        let decision = concretize(&first_world, root_seat, a);
        Ok((
            a,
            Choice {
                decision,
                iterations,
                value: Some(value),
            },
        ))
    }
}

impl Player for Ismcts {
    fn name(&self) -> &'static str {
        "ismcts"
    }
    fn decide(
        &mut self,
        obs: &Observation,
        budget: &Budget,
        stop: &AtomicBool,
    ) -> Result<Choice, String> {
        self.search(obs, budget, stop).map(|(_, c)| c)
    }
}
