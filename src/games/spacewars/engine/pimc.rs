//! Perfect-information Monte Carlo: sample worlds consistent with the observation, and in each
//! world try every root action followed by a heuristic playout; play the action with the best mean
//! reward over all worlds. Its known weakness (strategy fusion: it assumes it will know the hidden
//! cards after this decision) is what ISMCTS is compared against.

use super::super::observation::Observation;
use super::super::ruleset::Ruleset;
use super::super::sampling::sample_world;
use super::abstraction::{actions, concretize};
use super::{apply_or_random, heuristic, playout, Budget, Choice, Player};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Instant;

/// The PIMC player.
pub struct Pimc {
    rules: Arc<Ruleset>,
    rng: ChaCha8Rng,
    /// Rounds a playout runs before the position is evaluated.
    pub playout_rounds: u16,
}

impl Pimc {
    /// A seeded PIMC player.
    pub fn new(rules: Arc<Ruleset>, seed: u64) -> Pimc {
        Pimc {
            rules,
            rng: ChaCha8Rng::seed_from_u64(seed),
            playout_rounds: 8,
        }
    }
}

impl Player for Pimc {
    fn name(&self) -> &'static str {
        "pimc"
    }
    fn decide(
        &mut self,
        obs: &Observation,
        budget: &Budget,
        stop: &AtomicBool,
    ) -> Result<Choice, String> {
        let seat = obs.seat();
        let kind = obs.pending().ok_or("no decision pending for this seat")?;
        let first = sample_world(obs, &self.rules, &mut self.rng)?;
        let mut acts = Vec::new();
        actions(&first, seat, kind, &mut acts);
        if acts.is_empty() {
            return Err("no action available".into());
        }
        let mut totals = vec![(0.0f32, 0u32); acts.len()];
        let mut rewards = vec![0.0f32; obs.players()];
        let mut pend = Vec::new();
        let mut buf = Vec::new();
        let start = Instant::now();
        let mut iterations = 0u64;
        if acts.len() > 1 {
            'outer: loop {
                let world = sample_world(obs, &self.rules, &mut self.rng)?;
                for (i, &a) in acts.iter().enumerate() {
                    if iterations > 0
                        && (budget.iterations.is_some_and(|n| iterations >= n)
                            || stop.load(Ordering::Relaxed)
                            || budget.time.is_some_and(|t| start.elapsed() >= t))
                    {
                        break 'outer;
                    }
                    iterations += 1;
                    let mut w = world.clone();
                    w.pending(&mut pend);
                    let d = concretize(&w, seat, a);
                    for &(s, k) in pend.iter() {
                        let d = if s == seat {
                            d.clone()
                        } else {
                            heuristic::decide(&w, s, k)
                        };
                        if !apply_or_random(&mut w, s, k, &d, &mut self.rng) {
                            break;
                        }
                    }
                    playout(
                        &mut w,
                        &mut self.rng,
                        self.playout_rounds,
                        0.1,
                        &mut rewards,
                        &mut buf,
                    );
                    totals[i].0 += rewards[seat as usize];
                    totals[i].1 += 1;
                }
            }
        }
        let (best, mean) = totals
            .iter()
            .enumerate()
            .map(|(i, &(r, n))| (i, if n == 0 { 0.0 } else { r / n as f32 }))
            .fold((0, f32::NEG_INFINITY), |b, x| if x.1 > b.1 { x } else { b });
        Ok(Choice {
            decision: concretize(&first, seat, acts[best]),
            iterations,
            value: (iterations > 0).then_some(mean),
        })
    }
}
