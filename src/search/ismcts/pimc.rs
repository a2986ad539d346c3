//! Perfect-information Monte Carlo (determinized flat Monte Carlo): sample a world consistent
//! with the observation, try every root action in it — the other deciding seats playing the
//! default policy — each followed by a playout, and play the action with the best mean reward over
//! all worlds. It suffers the known strategy fusion of determinization (each world is played as if
//! its hidden cards were known) and spreads its iterations evenly over the root actions; it is the
//! baseline ISMCTS is measured against.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use rand::SeedableRng;

use super::{
    start_search, Found, HiddenInfo, HiddenSearch, Progress, SearchBudget, SearchError, SearchRng,
    REPORT_INTERVAL,
};

/// The PIMC searcher with its random generator, worlds and buffers, kept between searches.
pub struct Pimc<G: HiddenInfo> {
    rng: SearchRng,
    world: G::World,
    trial: G::World,
    deciders: Vec<usize>,
    acts: Vec<G::Action>,
    joint: Vec<(usize, G::Action)>,
    totals: Vec<(f64, u32)>,
    rewards: Vec<f32>,
}

impl<G: HiddenInfo> Pimc<G> {
    /// A seeded PIMC searcher.
    pub fn new(seed: u64) -> Self {
        Pimc {
            rng: SearchRng::seed_from_u64(seed),
            world: G::World::default(),
            trial: G::World::default(),
            deciders: Vec::new(),
            acts: Vec::new(),
            joint: Vec::new(),
            totals: Vec::new(),
            rewards: Vec::new(),
        }
    }

    /// Restarts the random generator.
    pub fn reseed(&mut self, seed: u64) {
        self.rng = SearchRng::seed_from_u64(seed);
    }

    fn best(&self) -> (usize, f32) {
        self.totals
            .iter()
            .enumerate()
            .map(|(i, &(r, n))| {
                (
                    i,
                    if n == 0 {
                        0.0
                    } else {
                        (r / f64::from(n)) as f32
                    },
                )
            })
            .fold((0, f32::NEG_INFINITY), |b, x| if x.1 > b.1 { x } else { b })
    }
}

impl<G: HiddenInfo> HiddenSearch<G> for Pimc<G> {
    /// Searches until the budget is spent or `stop` is set (one iteration: one root action tried
    /// in one world) and returns the root action with the best mean reward.
    fn search(
        &mut self,
        game: &mut G,
        budget: &SearchBudget,
        stop: &AtomicBool,
        report: &mut dyn FnMut(&Progress<G::Action>),
    ) -> Result<Found<G::Action>, SearchError> {
        let start = Instant::now();
        let observer = game.observer();
        start_search(
            game,
            &mut self.rng,
            &mut self.world,
            &mut self.deciders,
            &mut self.acts,
            &mut self.rewards,
        )?;
        self.totals.clear();
        self.totals.resize(self.acts.len(), (0.0, 0));
        let mut iterations = 0u64;
        let mut next_report = REPORT_INTERVAL;
        let progress = |s: &Self, iterations| {
            let (i, value) = s.best();
            Progress {
                iterations,
                nodes: 0,
                time: start.elapsed(),
                best: s.acts[i],
                value,
            }
        };
        if self.acts.len() > 1 {
            'worlds: loop {
                if iterations > 0 {
                    game.sample(&mut self.rng, &mut self.world);
                }
                for i in 0..self.acts.len() {
                    if iterations > 0 {
                        if budget.iterations.is_some_and(|n| iterations >= n)
                            || stop.load(Ordering::Relaxed)
                        {
                            break 'worlds;
                        }
                        let t = start.elapsed();
                        if budget.time.is_some_and(|limit| t >= limit) {
                            break 'worlds;
                        }
                        if t >= next_report {
                            next_report = t + REPORT_INTERVAL;
                            report(&progress(self, iterations));
                        }
                    }
                    iterations += 1;
                    self.trial.clone_from(&self.world);
                    game.deciders(&self.trial, &mut self.deciders);
                    self.joint.clear();
                    for k in 0..self.deciders.len() {
                        let seat = self.deciders[k];
                        let a = if seat == observer {
                            self.acts[i]
                        } else {
                            game.policy(&self.trial, seat, &mut self.rng)
                        };
                        self.joint.push((seat, a));
                    }
                    game.apply(&mut self.trial, &self.joint, &mut self.rng);
                    if !game.rewards(&self.trial, &mut self.rewards) {
                        game.playout(&mut self.trial, &mut self.rng, &mut self.rewards);
                    }
                    let t = &mut self.totals[i];
                    t.0 += f64::from(self.rewards[observer]);
                    t.1 += 1;
                }
            }
        }
        let (i, value) = self.best();
        Ok(Found {
            action: self.acts[i],
            value: (iterations > 0).then_some(value),
            iterations,
            nodes: 0,
            time: start.elapsed(),
        })
    }
}
