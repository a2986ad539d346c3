//! Searches for games of imperfect information with simultaneous moves ([`HiddenInfo`]):
//! Information-Set MCTS ([`Ismcts`]) and perfect-information Monte Carlo ([`Pimc`]).
//!
//! Both see a game only through a small trait: sample a world consistent with what the searching
//! seat has observed, list a seat's decisions, apply the decisions of the seats that owe one, and
//! read each seat's reward. Neither ever holds the true state, so the hidden information a seat may
//! not see cannot reach its search. Both keep their storage between searches (the tree, the
//! sampled worlds, every buffer), so a search allocates nothing per iteration once warm.

mod pimc;
mod rng;
mod searcher;
mod tree;

#[cfg(test)]
mod tests;

use std::fmt::Debug;
use std::hash::Hash;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use super::Limits;

pub use pimc::Pimc;
pub use rng::WyRand;
pub use searcher::{Ismcts, DEFAULT_EXPLORATION};
pub use tree::{Tree, TreeStats};

/// The random number generator the searches and the games' sampling and playouts share.
pub type SearchRng = WyRand;

/// What the searches need from a game of imperfect information with simultaneous moves, as seen
/// by one seat (the observer), for one search.
///
/// A value of this trait is built from the observer's observation: it samples full worlds
/// consistent with it and plays them. Seats are numbered from 0. Several seats may owe a decision
/// at once (a simultaneous step); they decide without seeing each other's choices and
/// [`apply`](HiddenInfo::apply) plays them together.
pub trait HiddenInfo {
    /// A full game state (a determinization); the searches own a few and reuse them, so its
    /// `clone_from` should reuse storage.
    type World: Clone + Default;
    /// A decision as the searches branch on it (often an abstraction of the game's decisions).
    /// The observer's actions at the root must mean the same choice in every sampled world, since
    /// their statistics are shared across worlds.
    type Action: Copy + Eq + Hash + Debug;

    /// Number of seats, eliminated ones included.
    fn seats(&self) -> usize;

    /// The seat the search decides for.
    fn observer(&self) -> usize;

    /// Overwrites `world` with a world drawn at random among those consistent with the
    /// observation (reusing `world`'s storage).
    fn sample(&mut self, rng: &mut SearchRng, world: &mut Self::World);

    /// The seats that owe a decision in `world` (several in a simultaneous step), into `out`
    /// (cleared first); empty when the game is over.
    fn deciders(&self, world: &Self::World, out: &mut Vec<usize>);

    /// The actions of `seat` in `world` into `out` (cleared first); never empty for a decider.
    fn actions(&mut self, world: &Self::World, seat: usize, out: &mut Vec<Self::Action>);

    /// The observer's actions at the root, in `world` (the first sampled world), into `out`
    /// (cleared first). The default is [`actions`](HiddenInfo::actions); a game may leave out
    /// actions that mean the same decision there. The searches branch on these at the root.
    fn root_actions(&mut self, world: &Self::World, out: &mut Vec<Self::Action>) {
        let observer = self.observer();
        self.actions(world, observer, out);
    }

    /// A coarse summary of what `seat` holds privately in `world` (0: nothing worth telling
    /// apart). With [`Ismcts::private_opponents`] the other seats' bandits are kept per summary, so
    /// an opponent inside the observer's tree chooses as if it saw its own cards (roughly), instead
    /// of one choice for every world the observer cannot tell apart. The default is 0.
    fn private_signature(&self, _world: &Self::World, _seat: usize) -> u64 {
        0
    }

    /// Plays one action for each seat that owes a decision (in [`deciders`](HiddenInfo::deciders)
    /// order), then whatever follows by rule or by chance until decisions are owed again.
    fn apply(
        &mut self,
        world: &mut Self::World,
        joint: &[(usize, Self::Action)],
        rng: &mut SearchRng,
    );

    /// When the game is over in `world`, writes each seat's reward in `0..=1` (win 1, a k-way
    /// draw 1/k, loss 0) into `out` and returns `true`.
    fn rewards(&self, world: &Self::World, out: &mut [f32]) -> bool;

    /// The default policy's action for `seat` (used by PIMC for the other seats at the root, and
    /// by the default [`playout`](HiddenInfo::playout)).
    fn policy(&mut self, world: &Self::World, seat: usize, rng: &mut SearchRng) -> Self::Action;

    /// Plays `world` on with the default policy and writes each seat's reward in `0..=1` into
    /// `out`. The default plays [`policy`](HiddenInfo::policy) actions to the end (at most
    /// [`PLAYOUT_CAP`] steps, then an equal share); games override it for a horizon with an
    /// evaluation, or for speed.
    fn playout(&mut self, world: &mut Self::World, rng: &mut SearchRng, out: &mut [f32]) {
        let mut deciders = Vec::new();
        let mut joint = Vec::new();
        for _ in 0..PLAYOUT_CAP {
            if self.rewards(world, out) {
                return;
            }
            self.deciders(world, &mut deciders);
            if deciders.is_empty() {
                break;
            }
            joint.clear();
            for &seat in &deciders {
                let a = self.policy(world, seat, rng);
                joint.push((seat, a));
            }
            self.apply(world, &joint, rng);
        }
        if !self.rewards(world, out) {
            let share = 1.0 / out.len().max(1) as f32;
            out.iter_mut().for_each(|r| *r = share);
        }
    }
}

/// A search over a [`HiddenInfo`] game as an engine drives it ([`Ismcts`], [`Pimc`]).
pub trait HiddenSearch<G: HiddenInfo> {
    /// Searches until the budget is spent or `stop` is set and returns the observer's action;
    /// `report` gets a [`Progress`] about once a second while it runs.
    fn search(
        &mut self,
        game: &mut G,
        budget: &SearchBudget,
        stop: &AtomicBool,
        report: &mut dyn FnMut(&Progress<G::Action>),
    ) -> Result<Found<G::Action>, SearchError>;

    /// Bounds the memory of the search's tree (searches without a tree ignore it).
    fn set_tree_bytes(&mut self, _bytes: usize) {}
}

/// The start both searches share: one reward slot per seat in `rewards`, the first sampled
/// world in `world`, and the observer's actions there in `acts` (never empty on success).
pub(crate) fn start_search<G: HiddenInfo>(
    game: &mut G,
    rng: &mut SearchRng,
    world: &mut G::World,
    deciders: &mut Vec<usize>,
    acts: &mut Vec<G::Action>,
    rewards: &mut Vec<f32>,
) -> Result<(), SearchError> {
    let observer = game.observer();
    rewards.clear();
    rewards.resize(game.seats(), 0.0);
    game.sample(rng, world);
    game.deciders(world, deciders);
    if !deciders.contains(&observer) {
        return Err(SearchError::NotToDecide);
    }
    game.root_actions(world, acts);
    if acts.is_empty() {
        return Err(SearchError::NoAction);
    }
    Ok(())
}

/// Steps after which the default playout gives up and scores an equal share.
pub const PLAYOUT_CAP: usize = 10_000;

/// How long a search may run; the first limit reached ends it, and at least one iteration runs.
/// Without any limit a search runs until its stop flag is set.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SearchBudget {
    /// Most iterations (one iteration: sample a world, descend, play out, back up).
    pub iterations: Option<u64>,
    /// Most thinking time.
    pub time: Option<Duration>,
}

impl SearchBudget {
    /// A budget of `n` iterations.
    pub fn iterations(n: u64) -> SearchBudget {
        SearchBudget {
            iterations: Some(n),
            time: None,
        }
    }

    /// A budget of `t` thinking time.
    pub fn time(t: Duration) -> SearchBudget {
        SearchBudget {
            iterations: None,
            time: Some(t),
        }
    }

    /// The budget a `go` asks for: `nodes` as iterations, `movetime`, or from the seat's clock a
    /// thirtieth of the remaining time plus half the increment (at most the clock minus the
    /// overhead, at least 1 ms). `default_iterations` applies when `go` set no limit and is not
    /// infinite.
    pub fn from_limits(limits: &Limits, default_iterations: u64) -> SearchBudget {
        let mut b = SearchBudget {
            iterations: limits.nodes.map(|n| n.max(1)),
            time: limits.movetime,
        };
        if let Some(c) = limits.clock {
            let moves = u128::from(c.moves_to_go.unwrap_or(30).clamp(1, 30));
            let share = c.remaining.as_millis() / moves + c.increment.as_millis() / 2;
            let cap = c
                .remaining
                .as_millis()
                .saturating_sub(limits.overhead.as_millis());
            let ms = share.min(cap).max(1).min(u128::from(u64::MAX)) as u64;
            let t = Duration::from_millis(ms);
            b.time = Some(b.time.map_or(t, |x| x.min(t)));
        }
        if b.iterations.is_none() && b.time.is_none() && !limits.infinite {
            b.iterations = Some(default_iterations.max(1));
        }
        b
    }
}

/// Why a search could not decide.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SearchError {
    /// The observer owes no decision in the sampled world.
    NotToDecide,
    /// The observer has no action.
    NoAction,
}

impl std::fmt::Display for SearchError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SearchError::NotToDecide => f.write_str("the seat owes no decision here"),
            SearchError::NoAction => f.write_str("the seat has no action"),
        }
    }
}

impl std::error::Error for SearchError {}

/// What a search found: the observer's action and what it knows about it.
#[derive(Clone, Debug, PartialEq)]
pub struct Found<A> {
    /// The action to play.
    pub action: A,
    /// Its mean reward for the observer (0..=1), when the search estimated it.
    pub value: Option<f32>,
    /// Iterations run.
    pub iterations: u64,
    /// Tree nodes in use at the end (0 for searches without a tree).
    pub nodes: usize,
    /// Time spent.
    pub time: Duration,
}

/// A report of a running search, given about once a second while it runs.
#[derive(Clone, Debug, PartialEq)]
pub struct Progress<A> {
    /// Iterations so far.
    pub iterations: u64,
    /// Tree nodes in use.
    pub nodes: usize,
    /// Time since the search started.
    pub time: Duration,
    /// The action the search would play now.
    pub best: A,
    /// Its mean reward for the observer.
    pub value: f32,
}

/// Interval between [`Progress`] reports.
pub const REPORT_INTERVAL: Duration = Duration::from_secs(1);

/// Hashes an action (with its seat) into a child key; FxHash-style mixing, no allocation.
pub(crate) fn action_key<A: Hash>(seat: usize, a: &A) -> u64 {
    let mut h = KeyHasher(seat as u64 ^ 0x9e37_79b9_7f4a_7c15);
    a.hash(&mut h);
    h.0
}

struct KeyHasher(u64);

impl std::hash::Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u64(u64::from(b));
        }
    }
    fn write_u8(&mut self, i: u8) {
        self.write_u64(u64::from(i));
    }
    fn write_u16(&mut self, i: u16) {
        self.write_u64(u64::from(i));
    }
    fn write_u32(&mut self, i: u32) {
        self.write_u64(u64::from(i));
    }
    fn write_usize(&mut self, i: usize) {
        self.write_u64(i as u64);
    }
    fn write_u64(&mut self, i: u64) {
        self.0 = (self.0.rotate_left(5) ^ i).wrapping_mul(0x517c_c1b7_2722_0a95);
    }
}
