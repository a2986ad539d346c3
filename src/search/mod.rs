//! Game-agnostic search over small traits.
//!
//! - [`TwoSided`]: what alpha-beta needs from a game with two sides whose turns alternate
//!   (Spider-Chess, the Solar Chess duels and two-team setups).
//! - [`MultiSided`]: what the multi-player searches need (Solar Chess with three or more sides).
//! - [`Limits`]: what a `go` command asks of a search (depth, nodes, clocks).

mod limits;
mod multi;
mod traits;

pub use limits::{Clock, Limits};
pub use multi::MultiSided;
pub use traits::{Score, TwoSided, DRAW, INFINITY, MATE, MATE_BOUND};
