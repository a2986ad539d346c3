//! Alpha-beta search for two-sided games ([`TwoSided`](crate::search::TwoSided)): iterative
//! deepening PVS with a transposition table, quiescence, null move, check extension, LMR, killers
//! and history, under a time manager. Entry point: [`Searcher`].

pub mod correction;
pub mod history;
pub mod movepicker;
pub mod searcher;
pub mod stats;
pub mod timeman;
pub mod transposition;

#[cfg(test)]
mod tests;

pub use crate::search::report::{Info, Outcome, UciScore};
pub use searcher::{SearchOptions, Searcher, MAX_DEPTH};
pub use timeman::{soft_scale, Budget, Control, RootTrend};
pub use transposition::{Bound, TranspositionTable};
