//! Game-agnostic search over small traits.
//!
//! - [`TwoSided`]: what alpha-beta needs from a game with two sides whose turns alternate
//!   (Spider-Chess, the Solar Chess duels and two-team setups); searched by [`Searcher`].
//! - [`MultiSided`]: what the multi-player searches need (Solar Chess with three or more sides);
//!   searched by [`MultiSearcher`] (BRS+, paranoid, MCTS with max^n backup).
//! - [`ismcts::HiddenInfo`]: what the searches for games of imperfect information with
//!   simultaneous moves need (Space Wars); searched by [`ismcts::Ismcts`] and [`ismcts::Pimc`].
//! - [`Limits`]: what a `go` command asks of a search (depth, nodes, clocks).
//! - [`Info`], [`Outcome`], [`UciScore`]: what a search reports.

pub mod alphabeta;
pub mod ismcts;
mod limits;
mod multi;
pub mod multiplayer;
mod report;
mod traits;

#[cfg(test)]
mod toys;

pub use alphabeta::{Budget, SearchOptions, Searcher};
pub use limits::{Clock, Limits};
pub use multi::MultiSided;
pub use multiplayer::{MultiAlgorithm, MultiOptions, MultiSearcher};
pub use report::{Info, Outcome, UciScore};
pub use traits::{Score, TwoSided, DRAW, INFINITY, MATE, MATE_BOUND};
