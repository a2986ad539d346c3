//! The Space Wars engine: the players of the `space-wars` binary — Information-Set MCTS and
//! perfect-information Monte Carlo (the game-agnostic searches of [`crate::search::ismcts`] over
//! [`SpaceWarsSearch`]), the rule-based heuristic player and the random player — behind one
//! [`Player`] trait that decides from an [`Observation`] only, plus in-process self-play and the
//! bench.

pub mod bench;
pub mod protocol;
pub mod selfplay;

use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Duration;

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use crate::games::spacewars::abstraction::{concretize, Action};
use crate::games::spacewars::decision::Decision;
use crate::games::spacewars::heuristic;
use crate::games::spacewars::observation::Observation;
use crate::games::spacewars::random;
use crate::games::spacewars::ruleset::Ruleset;
use crate::games::spacewars::sampling::sample_world;
use crate::games::spacewars::search_bindings::SpaceWarsSearch;
use crate::games::spacewars::state::State;
use crate::search::ismcts::{Found, HiddenSearch, Ismcts, Pimc, Progress, SearchBudget};

/// ISMCTS iterations per sampled world by default (`Ismcts::world_reuse`).
pub const DEFAULT_WORLD_REUSE: u32 = 1;

/// Default memory bound of the ISMCTS tree, MiB (the protocol's `Hash` option sets it).
pub const DEFAULT_TREE_MIB: usize = 16;

/// A decision with what the search found out.
#[derive(Clone, Debug, PartialEq)]
pub struct Choice {
    /// The decision to play.
    pub decision: Decision,
    /// Iterations (playouts) run.
    pub iterations: u64,
    /// Expected reward of the decision for the deciding seat (0..1), when a search estimated it.
    pub value: Option<f32>,
    /// Tree nodes in use (0 without a tree).
    pub nodes: usize,
    /// Time spent.
    pub time: Duration,
}

/// A player: decides for the seat of an observation, never seeing more than it.
pub trait Player: Send {
    /// Name used in `selfplay --players` and the `Player` option.
    fn name(&self) -> &'static str;

    /// The decision the observing seat owes, within `budget`, stopping early when `stop` is set;
    /// `report` gets the current best decision about once a second during long searches.
    fn decide(
        &mut self,
        obs: &Observation,
        budget: &SearchBudget,
        stop: &AtomicBool,
        report: &mut dyn FnMut(&Choice),
    ) -> Result<Choice, String>;

    /// Bounds the search tree's memory (players without a tree ignore it).
    fn set_tree_bytes(&mut self, _bytes: usize) {}
}

/// Names of the built-in players.
pub const PLAYERS: [&str; 4] = ["ismcts", "pimc", "heuristic", "random"];

/// A built-in player with the settings of its search: what `selfplay --players` names
/// (`ismcts`, or with settings `ismcts:c=0.5:rounds=3`) and what the protocol's options set.
#[derive(Clone, Debug, PartialEq)]
pub struct PlayerSpec {
    /// One of [`PLAYERS`].
    pub name: String,
    /// ISMCTS exploration constant (`c=`).
    pub exploration: f32,
    /// Rounds a playout runs before the position is scored (`rounds=`).
    pub playout_rounds: u16,
    /// Probability of a random decision in playouts (`eps=`).
    pub playout_eps: f64,
    /// ISMCTS merges the other seats' simultaneous choices in its tree (`merge=0|1`).
    pub merge_simultaneous: bool,
    /// Iterations per decision, overriding the caller's budget (`it=`; self-play experiments).
    pub iterations: Option<u64>,
    /// ISMCTS lets the other seats play the heuristic inside its tree (`opp=policy`) instead of
    /// their own bandits (`opp=bandit`).
    pub policy_opponents: bool,
    /// Reward shaping by the winner's margin (`margin=`, 0..1; see `SpaceWarsSearch::margin`).
    pub margin: f32,
    /// ISMCTS keeps the other seats' bandits apart by a summary of their own cards (`opp=private`,
    /// the default).
    pub private_opponents: bool,
    /// ISMCTS iterations per sampled world (`reuse=`, at least 1; see `Ismcts::world_reuse`).
    pub world_reuse: u32,
}

impl PlayerSpec {
    /// The default settings of a player name (`None` for an unknown name).
    pub fn named(name: &str) -> Option<PlayerSpec> {
        PLAYERS.contains(&name).then(|| PlayerSpec {
            name: name.to_string(),
            exploration: crate::search::ismcts::DEFAULT_EXPLORATION,
            playout_rounds: crate::games::spacewars::search_bindings::PLAYOUT_ROUNDS,
            playout_eps: crate::games::spacewars::search_bindings::PLAYOUT_EPSILON,
            merge_simultaneous: true,
            iterations: None,
            policy_opponents: false,
            private_opponents: true,
            margin: 0.0,
            world_reuse: DEFAULT_WORLD_REUSE,
        })
    }

    /// The player, seeded.
    pub fn build(&self, seed: u64) -> Box<dyn Player> {
        let rules = Arc::new(Ruleset::default());
        match self.name.as_str() {
            "ismcts" => {
                let mut p = IsmctsPlayer::new(rules, seed);
                p.playout_rounds = self.playout_rounds;
                p.playout_eps = self.playout_eps;
                p.margin = self.margin;
                p.search.exploration = self.exploration;
                p.search.merge_simultaneous = self.merge_simultaneous;
                p.search.policy_opponents = self.policy_opponents;
                p.search.private_opponents = self.private_opponents;
                p.search.world_reuse = self.world_reuse;
                Box::new(p)
            }
            "pimc" => {
                let mut p = PimcPlayer::new(rules, seed);
                p.playout_rounds = self.playout_rounds;
                p.playout_eps = self.playout_eps;
                Box::new(p)
            }
            "heuristic" => Box::new(Simple::new(rules, seed, false)),
            _ => Box::new(Simple::new(rules, seed, true)),
        }
    }
}

impl std::str::FromStr for PlayerSpec {
    type Err = String;

    /// `name[:key=value]...` with keys `c`, `rounds`, `eps`, `margin`, `reuse`, `merge`, `it`, `opp`
    /// (`private`, `bandit`, `policy`).
    fn from_str(text: &str) -> Result<PlayerSpec, String> {
        let mut parts = text.split(':');
        let name = parts.next().unwrap_or("");
        let mut spec = PlayerSpec::named(name)
            .ok_or_else(|| format!("unknown player '{name}' (one of {})", PLAYERS.join(", ")))?;
        for part in parts {
            let (k, v) = part
                .split_once('=')
                .ok_or_else(|| format!("player setting '{part}' needs key=value"))?;
            let bad = || format!("bad value in player setting '{part}'");
            match k {
                "c" => spec.exploration = v.parse().map_err(|_| bad())?,
                "rounds" => spec.playout_rounds = v.parse().map_err(|_| bad())?,
                "eps" => spec.playout_eps = v.parse().map_err(|_| bad())?,
                "margin" => spec.margin = v.parse().map_err(|_| bad())?,
                "reuse" => spec.world_reuse = v.parse().map_err(|_| bad())?,
                "merge" => spec.merge_simultaneous = v != "0",
                "it" => spec.iterations = Some(v.parse().map_err(|_| bad())?),
                "opp" => {
                    (spec.policy_opponents, spec.private_opponents) = match v {
                        "policy" => (true, false),
                        "bandit" => (false, false),
                        "private" => (false, true),
                        _ => return Err(bad()),
                    }
                }
                _ => return Err(format!("unknown player setting '{k}'")),
            }
        }
        if spec.world_reuse == 0 {
            return Err("reuse must be at least 1".into());
        }
        if !(0.0..=1.0).contains(&spec.margin) {
            return Err(format!("margin must be in 0..1, got {}", spec.margin));
        }
        if !(0.0..=1.0).contains(&spec.playout_eps) {
            return Err(format!("eps must be in 0..1, got {}", spec.playout_eps));
        }
        Ok(spec)
    }
}

/// A built-in player by name (or [`PlayerSpec`] text), seeded.
pub fn make_player(spec: &str, seed: u64) -> Option<Box<dyn Player>> {
    spec.parse::<PlayerSpec>().ok().map(|s| s.build(seed))
}

/// Turns the searched root action into the observer's decision. The abstraction reads only the
/// observer's cards and public facts, so the problem's template world is enough; a decision the
/// rules refuse there (an abstraction slip) is replaced by the heuristic's.
fn root_decision(w: &State, seat: u8, a: Action) -> Decision {
    let d = concretize(w, seat, a);
    match w.check(seat, &d) {
        Ok(()) => d,
        Err(e) => {
            log::warn!("search action {a:?} gave an illegal decision {d:?}: {e}");
            let kind = w.pending_for(seat).expect("the seat decides");
            heuristic::decide(w, seat, kind)
        }
    }
}

fn choice_of(w: &State, seat: u8, f: Found<Action>) -> Choice {
    Choice {
        decision: root_decision(w, seat, f.action),
        iterations: f.iterations,
        value: f.value,
        nodes: f.nodes,
        time: f.time,
    }
}

fn progress_choice(w: &State, seat: u8, p: &Progress<Action>) -> Choice {
    Choice {
        decision: root_decision(w, seat, p.best),
        iterations: p.iterations,
        value: Some(p.value),
        nodes: p.nodes,
        time: p.time,
    }
}

/// A searching player: one of the generic searches of [`crate::search::ismcts`] over the
/// observation's [`SpaceWarsSearch`], with the playout settings it gives that problem.
pub struct SearchPlayer<S> {
    rules: Arc<Ruleset>,
    search: S,
    name: &'static str,
    /// Rounds a playout runs before the position is scored.
    pub playout_rounds: u16,
    /// Probability of a random decision in playouts.
    pub playout_eps: f64,
    /// Reward shaping by the winner's margin (`SpaceWarsSearch::margin`).
    pub margin: f32,
}

/// The ISMCTS player ([`crate::search::ismcts::Ismcts`] over [`SpaceWarsSearch`]).
pub type IsmctsPlayer = SearchPlayer<Ismcts<SpaceWarsSearch>>;

/// The PIMC player ([`crate::search::ismcts::Pimc`] over [`SpaceWarsSearch`]).
pub type PimcPlayer = SearchPlayer<Pimc<SpaceWarsSearch>>;

impl<S: HiddenSearch<SpaceWarsSearch>> SearchPlayer<S> {
    fn with(rules: Arc<Ruleset>, search: S, name: &'static str) -> SearchPlayer<S> {
        SearchPlayer {
            rules,
            search,
            name,
            playout_rounds: crate::games::spacewars::search_bindings::PLAYOUT_ROUNDS,
            playout_eps: crate::games::spacewars::search_bindings::PLAYOUT_EPSILON,
            margin: 0.0,
        }
    }

    /// The searcher (for its parameters and tree statistics).
    pub fn searcher(&mut self) -> &mut S {
        &mut self.search
    }

    /// Searches and returns the root action with the choice (its progress reported as choices).
    pub fn search(
        &mut self,
        obs: &Observation,
        budget: &SearchBudget,
        stop: &AtomicBool,
        report: &mut dyn FnMut(&Choice),
    ) -> Result<(Action, Choice), String> {
        let mut game = SpaceWarsSearch::new(obs, &self.rules)?;
        game.playout_rounds = self.playout_rounds;
        game.playout_eps = self.playout_eps;
        game.margin = self.margin;
        let seat = obs.seat();
        let template = game.template().clone();
        let found = self
            .search
            .search(&mut game, budget, stop, &mut |p| {
                report(&progress_choice(&template, seat, p))
            })
            .map_err(|e| e.to_string())?;
        let action = found.action;
        Ok((action, choice_of(&template, seat, found)))
    }
}

impl IsmctsPlayer {
    /// A seeded ISMCTS player with the default tree bound and parameters: the other seats'
    /// bandits kept apart by their private signature (`search_bindings::private_signature`).
    pub fn new(rules: Arc<Ruleset>, seed: u64) -> IsmctsPlayer {
        let mut search = Ismcts::new(DEFAULT_TREE_MIB << 20, seed);
        search.private_opponents = true;
        search.world_reuse = DEFAULT_WORLD_REUSE;
        SearchPlayer::with(rules, search, "ismcts")
    }
}

impl PimcPlayer {
    /// A seeded PIMC player.
    pub fn new(rules: Arc<Ruleset>, seed: u64) -> PimcPlayer {
        SearchPlayer::with(rules, Pimc::new(seed), "pimc")
    }
}

impl<S: HiddenSearch<SpaceWarsSearch> + Send> Player for SearchPlayer<S> {
    fn name(&self) -> &'static str {
        self.name
    }
    fn decide(
        &mut self,
        obs: &Observation,
        budget: &SearchBudget,
        stop: &AtomicBool,
        report: &mut dyn FnMut(&Choice),
    ) -> Result<Choice, String> {
        self.search(obs, budget, stop, report).map(|(_, c)| c)
    }
    fn set_tree_bytes(&mut self, bytes: usize) {
        self.search.set_tree_bytes(bytes);
    }
}

/// The random and heuristic players: their rules read only own and public cards, so one
/// sampled world serves.
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
    fn decide(
        &mut self,
        obs: &Observation,
        _: &SearchBudget,
        _: &AtomicBool,
        _: &mut dyn FnMut(&Choice),
    ) -> Result<Choice, String> {
        let kind = obs.pending().ok_or("no decision pending for this seat")?;
        let w: State = sample_world(obs, &self.rules, &mut self.rng)?;
        let decision = if self.random {
            random::decide(&w, obs.seat(), kind, &mut self.rng)
        } else {
            heuristic::decide(&w, obs.seat(), kind)
        };
        Ok(Choice {
            decision,
            iterations: 0,
            value: None,
            nodes: 0,
            time: Duration::ZERO,
        })
    }
}
