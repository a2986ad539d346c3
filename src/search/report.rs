//! What a search reports while it runs ([`Info`]) and when it ends ([`Outcome`]), shared by the
//! two-sided and the multi-player searches, and the UCI text of a score ([`UciScore`]).

use std::fmt;
use std::time::Duration;

use super::{Score, MATE, MATE_BOUND};

/// Progress of a search after an iteration, for `info` lines.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Info<M> {
    /// Nominal depth completed (for MCTS: the deepest tree level reached).
    pub depth: u32,
    /// Deepest ply reached, quiescence included.
    pub seldepth: u32,
    /// Score for the side (seat) to move at the root.
    pub score: Score,
    /// Nodes visited so far (for MCTS: playouts).
    pub nodes: u64,
    /// Time since the search started.
    pub time: Duration,
    /// Nodes per second.
    pub nps: u64,
    /// Principal variation from the root.
    pub pv: Vec<M>,
    /// Transposition-table fill in permille (0 where the search has none).
    pub hashfull: u32,
}

/// Result of a search: the move to play and what the search knew about it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Outcome<M> {
    /// The move to play; `None` only when the root has no legal move.
    pub best: Option<M>,
    /// The expected reply (second move of the principal variation), for `bestmove ... ponder`.
    pub ponder: Option<M>,
    /// Score of `best` for the side (seat) to move at the root.
    pub score: Score,
    /// Depth of the last completed iteration (0 if none completed).
    pub depth: u32,
    /// Nodes visited (for MCTS: playouts).
    pub nodes: u64,
}

/// Nodes per second, without dividing by zero.
pub(crate) fn nps(nodes: u64, time: Duration) -> u64 {
    let micros = time.as_micros().max(1);
    (nodes as u128 * 1_000_000 / micros).min(u64::MAX as u128) as u64
}

/// A score written as UCI wants it: `cp N`, or `mate N` in moves (negative when the side to move
/// is mated). `format!("{}", UciScore(s))`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct UciScore(pub Score);

impl UciScore {
    /// Plies (not moves) to mate, positive when the side to move mates; `None` for a plain
    /// score. Multi-seat protocols turn plies into rounds with their own seat count.
    pub fn plies_to_mate(self) -> Option<i32> {
        let s = self.0;
        if s >= MATE_BOUND {
            Some(MATE - s)
        } else if s <= -MATE_BOUND {
            Some(-(MATE + s))
        } else {
            None
        }
    }

    /// Moves (not plies) to mate, positive when the side to move mates; `None` for a plain score.
    pub fn mate_in(self) -> Option<i32> {
        let s = self.0;
        if s >= MATE_BOUND {
            Some((MATE - s + 1) / 2)
        } else if s <= -MATE_BOUND {
            Some(-((MATE + s) / 2))
        } else {
            None
        }
    }
}

impl fmt::Display for UciScore {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.mate_in() {
            Some(moves) => write!(f, "mate {moves}"),
            None => write!(f, "cp {}", self.0),
        }
    }
}

/// Moves a mate score found at the root of a subtree `ply` plies deep so that it counts plies from
/// the search root; plain scores are unchanged.
pub(crate) fn mate_from_root(score: Score, ply: usize) -> Score {
    let ply = ply as Score;
    if score >= MATE_BOUND {
        score - ply
    } else if score <= -MATE_BOUND {
        score + ply
    } else {
        score
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn uci_text_of_scores() {
        assert_eq!(UciScore(35).to_string(), "cp 35");
        assert_eq!(UciScore(-120).to_string(), "cp -120");
        assert_eq!(UciScore(MATE - 1).to_string(), "mate 1");
        assert_eq!(UciScore(MATE - 3).to_string(), "mate 2");
        assert_eq!(UciScore(MATE - 4).to_string(), "mate 2");
        assert_eq!(UciScore(-MATE).to_string(), "mate 0");
        assert_eq!(UciScore(-(MATE - 2)).to_string(), "mate -1");
        assert_eq!(UciScore(-(MATE - 4)).to_string(), "mate -2");
        assert_eq!(UciScore(MATE - 5).plies_to_mate(), Some(5));
        assert_eq!(UciScore(-(MATE - 4)).plies_to_mate(), Some(-4));
        assert_eq!(UciScore(250).plies_to_mate(), None);
    }

    #[test]
    fn mate_scores_shift_by_ply() {
        assert_eq!(mate_from_root(-MATE, 3), -MATE + 3);
        assert_eq!(mate_from_root(MATE, 2), MATE - 2);
        assert_eq!(mate_from_root(57, 9), 57);
    }
}
