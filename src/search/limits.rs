//! What a `go` command asks of a search.

use std::time::Duration;

/// Remaining time and increment of the seat the engine plays for.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Clock {
    /// Time left on the clock.
    pub remaining: Duration,
    /// Increment added after each move.
    pub increment: Duration,
    /// Moves until the next time control, if the control is not sudden death.
    pub moves_to_go: Option<u32>,
}

/// Limits of one search; every field that is set must be respected, the first one reached stops it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    /// Maximum nominal depth in plies.
    pub depth: Option<u32>,
    /// Maximum number of nodes.
    pub nodes: Option<u64>,
    /// Fixed time for this move.
    pub movetime: Option<Duration>,
    /// The clock of the seat to move; the time manager budgets from it.
    pub clock: Option<Clock>,
    /// Search until told to stop.
    pub infinite: bool,
    /// Safety margin subtracted from the clock for communication delays (`Move Overhead`).
    pub overhead: Duration,
}
