//! Perft: counting leaf nodes of the legal-move tree (draw rules not applied; a finished game has
//! no moves; a forced pass is one move), with a per-root-move divide and timing.

use super::moves::Move;
use super::position::Position;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// Result of a perft run with divide.
#[derive(Clone, Debug)]
pub struct PerftReport {
    /// Leaf count below each root move, in generation order.
    pub divide: Vec<(Move, u64)>,
    /// Total leaf count.
    pub nodes: u64,
    /// Wall time taken.
    pub elapsed: Duration,
}

impl PerftReport {
    /// The divide as `(move text, count)` pairs, for the protocol's `perft` output.
    pub fn divide_text(&self) -> Vec<(String, u64)> {
        self.divide
            .iter()
            .map(|(m, n)| (m.to_string(), *n))
            .collect()
    }

    /// Leaf nodes per second.
    pub fn nps(&self) -> u64 {
        let s = self.elapsed.as_secs_f64();
        if s > 0.0 {
            (self.nodes as f64 / s) as u64
        } else {
            0
        }
    }
}

/// Counts below `pos`; gives up (the count is then meaningless) once `stop` is set, checked at
/// every node above the last ply.
fn perft_rec(pos: &mut Position, depth: u32, buffers: &mut [Vec<Move>], stop: &AtomicBool) -> u64 {
    let (buf, rest) = buffers.split_first_mut().expect("one buffer per ply");
    pos.legal_moves(buf);
    if depth == 1 {
        return buf.len() as u64;
    }
    if stop.load(Ordering::Relaxed) {
        return 0;
    }
    let mut n = 0;
    for &mv in buf.iter() {
        pos.make(mv);
        n += perft_rec(pos, depth - 1, rest, stop);
        pos.unmake();
    }
    n
}

/// Number of leaf nodes `depth` plies below `pos` (1 at depth 0).
///
/// # Panics
/// When `depth` exceeds [`MAX_PERFT_DEPTH`](crate::games::MAX_PERFT_DEPTH) (callers refuse it).
pub fn perft(pos: &mut Position, depth: u32) -> u64 {
    assert!(
        depth <= crate::games::MAX_PERFT_DEPTH,
        "perft depth {depth} is beyond the limit"
    );
    perft_until(pos, depth, &AtomicBool::new(false))
}

fn perft_until(pos: &mut Position, depth: u32, stop: &AtomicBool) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut buffers = vec![Vec::with_capacity(256); depth as usize];
    perft_rec(pos, depth, &mut buffers, stop)
}

/// Perft with the count below each root move and the time taken.
///
/// # Panics
/// When `depth` exceeds [`MAX_PERFT_DEPTH`](crate::games::MAX_PERFT_DEPTH) (callers refuse it).
pub fn perft_divide(pos: &mut Position, depth: u32) -> PerftReport {
    let start = Instant::now();
    let divide = divide_until(pos, depth, &AtomicBool::new(false))
        .expect("a flag nobody sets never stops it");
    let nodes = if depth == 0 {
        1
    } else {
        divide.iter().map(|d| d.1).sum()
    };
    PerftReport {
        divide,
        nodes,
        elapsed: start.elapsed(),
    }
}

/// The count below each root move, in generation order (none at depth 0), that can be stopped
/// from another thread (the engine's protocol `perft`): `None` when `stop` was set before every
/// root move was counted.
///
/// # Panics
/// When `depth` exceeds [`MAX_PERFT_DEPTH`](crate::games::MAX_PERFT_DEPTH) (callers refuse it).
pub fn divide_until(pos: &mut Position, depth: u32, stop: &AtomicBool) -> Option<Vec<(Move, u64)>> {
    assert!(
        depth <= crate::games::MAX_PERFT_DEPTH,
        "perft depth {depth} is beyond the limit"
    );
    if depth == 0 {
        return Some(Vec::new());
    }
    let mut roots = Vec::new();
    pos.legal_moves(&mut roots);
    let mut divide = Vec::with_capacity(roots.len());
    let mut buffers = vec![Vec::with_capacity(256); depth as usize - 1];
    for mv in roots {
        pos.make(mv);
        let n = if depth == 1 {
            1
        } else {
            perft_rec(pos, depth - 1, &mut buffers, stop)
        };
        pos.unmake();
        if stop.load(Ordering::Relaxed) {
            return None;
        }
        divide.push((mv, n));
    }
    Some(divide)
}
