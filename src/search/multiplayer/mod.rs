//! Searches for games with more than two sides ([`MultiSided`]): Best-Reply Search BRS+, paranoid
//! alpha-beta as a baseline, and MCTS with max^n backup, behind one entry point,
//! [`MultiSearcher::search`].

mod mcts;
mod minimax;
mod ordering;

#[cfg(test)]
mod tests;

use std::sync::atomic::AtomicBool;

use crate::search::alphabeta::history::MAX_PLY;
use crate::search::alphabeta::{Control, TranspositionTable};
use crate::search::{Info, Limits, MultiSided, Outcome, Score};

use minimax::Minimax;
use ordering::Ordering;

/// Which multi-player search to run.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum MultiAlgorithm {
    /// Best-Reply Search BRS+: one opponent replies per min layer, the others play their
    /// best-ordered move.
    #[default]
    BrsPlus,
    /// Paranoid: every other team minimises the root team's score.
    Paranoid,
    /// Monte-Carlo tree search with max^n backup (vector rewards, UCT per seat).
    Mcts,
}

impl MultiAlgorithm {
    /// Every algorithm, for option lists.
    pub const ALL: [MultiAlgorithm; 3] = [
        MultiAlgorithm::BrsPlus,
        MultiAlgorithm::Paranoid,
        MultiAlgorithm::Mcts,
    ];

    /// The option-value name: `brs+`, `paranoid`, `mcts`.
    pub fn name(self) -> &'static str {
        match self {
            MultiAlgorithm::BrsPlus => "brs+",
            MultiAlgorithm::Paranoid => "paranoid",
            MultiAlgorithm::Mcts => "mcts",
        }
    }
}

impl std::str::FromStr for MultiAlgorithm {
    type Err = String;

    /// Parses an option value, case-insensitively (`brs+`/`brs`, `paranoid`, `mcts`).
    fn from_str(s: &str) -> Result<Self, String> {
        match s.trim().to_ascii_lowercase().as_str() {
            "brs+" | "brs" | "brsplus" => Ok(MultiAlgorithm::BrsPlus),
            "paranoid" => Ok(MultiAlgorithm::Paranoid),
            "mcts" => Ok(MultiAlgorithm::Mcts),
            other => Err(format!(
                "unknown search algorithm '{other}' (expected brs+, paranoid or mcts)"
            )),
        }
    }
}

/// Knobs of the multi-player searches (MCTS mostly).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MultiOptions {
    /// Seed of the MCTS random playouts (same seed, same search).
    pub seed: u64,
    /// UCT exploration constant (rewards are in 0..=1).
    pub exploration: f32,
    /// Plies a playout runs before it is scored by evaluation.
    pub playout_depth: usize,
    /// Probability that a playout move is the most valuable capture instead of a random move.
    pub greedy_playouts: f32,
    /// Playouts made only of captures (most valuable first), ending at the first quiet position.
    pub capture_playouts: bool,
    /// Weight of the progressive bias towards valuable captures in the MCTS selection.
    pub prior_weight: f32,
    /// First-play urgency: an unvisited child counts as its parent's mean less this (negative:
    /// every child is tried once before any is tried twice).
    pub fpu_reduction: f32,
    /// Centipawns per unit of the softmax turning evaluations into rewards.
    pub temperature: Score,
    /// Plies of capture-only (quiescence) search at the horizon of BRS+ and paranoid (0: none).
    pub quiescence: u32,
    /// Largest MCTS tree, in nodes (memory bound); beyond it playouts go on without expansion.
    pub max_tree_nodes: usize,
}

impl Default for MultiOptions {
    fn default() -> Self {
        MultiOptions {
            seed: 0x0,
            exploration: 0.3,
            playout_depth: 0,
            greedy_playouts: 0.5,
            capture_playouts: false,
            prior_weight: 0.5,
            fpu_reduction: 0.1,
            temperature: 150,
            quiescence: 4,
            max_tree_nodes: 1 << 20,
        }
    }
}

/// The multi-player searcher; keeps move-ordering tables between searches.
pub struct MultiSearcher<G: MultiSided> {
    order: Ordering<G::Move>,
    tt: TranspositionTable<G::Move>,
    pv: Vec<Vec<G::Move>>,
    options: MultiOptions,
}

impl<G: MultiSided> Default for MultiSearcher<G> {
    fn default() -> Self {
        Self::new(MultiOptions::default())
    }
}

impl<G: MultiSided> MultiSearcher<G> {
    /// A searcher with the given knobs and a 16 MiB table of best moves (see
    /// [`resize`](Self::resize)).
    pub fn new(options: MultiOptions) -> Self {
        MultiSearcher {
            order: Ordering::default(),
            tt: TranspositionTable::new(16),
            pv: (0..=MAX_PLY + 1)
                .map(|_| Vec::with_capacity(MAX_PLY + 1))
                .collect(),
            options,
        }
    }

    /// The knobs in use.
    pub fn options(&self) -> MultiOptions {
        self.options
    }

    /// Changes the knobs (for example a new seed).
    pub fn set_options(&mut self, options: MultiOptions) {
        self.options = options;
    }

    /// Resizes the table of best moves BRS+ and paranoid order by (its contents are lost).
    pub fn resize(&mut self, hash_mib: usize) {
        self.tt.resize(hash_mib);
    }

    /// Like [`resize`](Self::resize), but a table that cannot be allocated is an error and the
    /// old one is kept.
    pub fn try_resize(&mut self, hash_mib: usize) -> Result<(), String> {
        self.tt.try_resize(hash_mib)
    }

    /// Forgets the move-ordering tables (a new game).
    pub fn clear(&mut self) {
        self.order.clear();
        self.tt.clear();
    }

    /// Searches `root` for the seat to move with `algorithm` until a limit is reached or `stop` is
    /// set. Scores are for the root seat (its team). Returns a move whenever one is legal, even a
    /// forced pass, even when stopped at once.
    ///
    /// For MCTS, `limits.nodes` counts playouts and `limits.depth` bounds the tree's depth.
    pub fn search(
        &mut self,
        root: &G,
        algorithm: MultiAlgorithm,
        limits: &Limits,
        stop: &AtomicBool,
        on_info: &mut dyn FnMut(&Info<G::Move>),
    ) -> Outcome<G::Move> {
        let control = Control::new(limits, stop);
        match algorithm {
            MultiAlgorithm::BrsPlus | MultiAlgorithm::Paranoid => {
                self.order.start(root);
                self.tt.new_search();
                let brs = algorithm == MultiAlgorithm::BrsPlus;
                let mut pos = root.clone();
                let mut m = Minimax::new(
                    root,
                    brs,
                    self.options.quiescence,
                    &mut self.order,
                    &mut self.tt,
                    &mut self.pv,
                    control,
                );
                m.iterate(&mut pos, limits, on_info)
            }
            MultiAlgorithm::Mcts => {
                mcts::Mcts::new(root, self.options, control).run(root, limits, on_info)
            }
        }
    }
}
