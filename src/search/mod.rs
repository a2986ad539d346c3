//! Game-agnostic search over small traits.
//!
//! - [`TwoSided`]: what alpha-beta needs from a game with two sides whose turns alternate
//!   (Spider-Chess, the Solar Chess duels and two-team setups).
//! - [`Limits`]: what a `go` command asks of a search (depth, nodes, clocks).

mod limits;
mod traits;

pub use limits::{Clock, Limits};
pub use traits::{Score, TwoSided, DRAW, INFINITY, MATE, MATE_BOUND};
