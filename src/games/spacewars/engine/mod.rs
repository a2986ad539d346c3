//! The players of the `space-wars` binary: Information-Set MCTS ([`ismcts`]), perfect-information
//! Monte Carlo ([`pimc`]), the rule-based [`heuristic`] player and the [`random`] player. Every
//! player decides from an [`Observation`] only; the searches sample worlds from it.

pub mod abstraction;
pub mod heuristic;
pub mod ismcts;
pub mod pimc;
pub mod random;

use super::decision::{Decision, DecisionKind};
use super::observation::Observation;
use super::ruleset::Ruleset;
use super::sampling::sample_world;
use super::state::State;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Duration;

/// How long a search may run: the first limit reached stops it (at least one iteration runs).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Budget {
    /// Maximum iterations (playouts).
    pub iterations: Option<u64>,
    /// Maximum thinking time.
    pub time: Option<Duration>,
}

impl Budget {
    /// A budget of `n` iterations.
    pub fn iterations(n: u64) -> Budget {
        Budget {
            iterations: Some(n),
            time: None,
        }
    }
}

/// A decision with what the search found out.
#[derive(Clone, Debug, PartialEq)]
pub struct Choice {
    /// The decision to play.
    pub decision: Decision,
    /// Iterations (playouts) run.
    pub iterations: u64,
    /// Expected reward of the decision for the deciding seat (0..1), when a search estimated it.
    pub value: Option<f32>,
}

/// A player: decides for the seat of an observation.
pub trait Player: Send {
    /// Name used in `selfplay --players` and the `Player` option.
    fn name(&self) -> &'static str;
    /// The decision the observing seat owes, within `budget`, stopping early when `stop` is set.
    fn decide(
        &mut self,
        obs: &Observation,
        budget: &Budget,
        stop: &AtomicBool,
    ) -> Result<Choice, String>;
}

/// Names of the built-in players.
pub const PLAYERS: [&str; 4] = ["ismcts", "pimc", "heuristic", "random"];

/// A built-in player by name, seeded.
pub fn make_player(name: &str, seed: u64) -> Option<Box<dyn Player>> {
    let rules = Arc::new(Ruleset::default());
    match name {
        "ismcts" => Some(Box::new(ismcts::Ismcts::new(rules, seed))),
        "pimc" => Some(Box::new(pimc::Pimc::new(rules, seed))),
        "heuristic" => Some(Box::new(Simple::new(rules, seed, false))),
        "random" => Some(Box::new(Simple::new(rules, seed, true))),
        _ => None,
    }
}

/// The random and heuristic players: one sampled world (their rules read only own and public
/// cards, so the world's guesses never matter).
pub struct Simple {
    rules: Arc<Ruleset>,
    rng: ChaCha8Rng,
    random: bool,
}

impl Simple {
    /// A heuristic (`random == false`) or random player.
    pub fn new(rules: Arc<Ruleset>, seed: u64, random: bool) -> Simple {
        Simple {
            rules,
            rng: ChaCha8Rng::seed_from_u64(seed),
            random,
        }
    }
}

impl Player for Simple {
    fn name(&self) -> &'static str {
        if self.random {
            "random"
        } else {
            "heuristic"
        }
    }
    fn decide(&mut self, obs: &Observation, _: &Budget, _: &AtomicBool) -> Result<Choice, String> {
        let kind = obs.pending().ok_or("no decision pending for this seat")?;
        let w = sample_world(obs, &self.rules, &mut self.rng)?;
        let decision = if self.random {
            random::decide(&w, obs.seat(), kind, &mut self.rng)
        } else {
            heuristic::decide(&w, obs.seat(), kind)
        };
        Ok(Choice {
            decision,
            iterations: 0,
            value: None,
        })
    }
}

/// Applies `d` for `seat`; a decision the rules refuse (an abstraction slip) is replaced by a
/// random legal one so a playout goes on. False when no legal decision was found (a world where
/// the seat cannot decide at all); the caller then stops playing that world.
pub(crate) fn apply_or_random<R: Rng>(
    w: &mut State,
    seat: u8,
    kind: DecisionKind,
    d: &Decision,
    rng: &mut R,
) -> bool {
    if let Err(e) = w.apply(seat, d) {
        log::debug!("abstraction produced an illegal {d:?}: {e}");
        let d = random::decide(w, seat, kind, rng);
        if let Err(e) = w.apply(seat, &d) {
            log::warn!("no legal decision for seat {} ({kind:?}): {e}", seat + 1);
            return false;
        }
    }
    true
}

/// Evaluation of an unfinished world for each seat: its share of all hull cards and ships.
pub fn evaluate(w: &State, rewards: &mut [f32]) {
    rewards.iter_mut().for_each(|r| *r = 0.0);
    let mut total = 0.0;
    for s in w.ships.iter().filter(|s| s.alive) {
        let v = s.hull.len() as f32 + 2.0;
        rewards[s.owner as usize] += v;
        total += v;
    }
    if total > 0.0 {
        rewards.iter_mut().for_each(|r| *r /= total);
    }
}

/// Plays `w` on with the heuristic policy (a random decision with probability `eps`) until the
/// game ends or `rounds` more rounds have begun; writes each seat's reward.
pub fn playout<R: Rng>(
    w: &mut State,
    rng: &mut R,
    rounds: u16,
    eps: f64,
    rewards: &mut [f32],
    buf: &mut Vec<(u8, DecisionKind)>,
) {
    let stop_round = w.round.saturating_add(rounds);
    loop {
        if let Some(o) = w.outcome() {
            for (s, r) in rewards.iter_mut().enumerate() {
                *r = o.reward(s as u8);
            }
            return;
        }
        if w.round > stop_round {
            evaluate(w, rewards);
            return;
        }
        w.pending(buf);
        if buf.is_empty() {
            evaluate(w, rewards);
            return;
        }
        for &(seat, kind) in buf.iter() {
            let d = if eps > 0.0 && rng.gen_bool(eps) {
                random::decide(w, seat, kind, rng)
            } else {
                heuristic::decide(w, seat, kind)
            };
            if !apply_or_random(w, seat, kind, &d, rng) {
                evaluate(w, rewards);
                return;
            }
        }
    }
}
