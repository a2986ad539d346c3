//! Perft: counts the leaves of the legal move tree (bulk-counted at the last ply), per root move
//! (divide), with timing for the `perft` command.

use super::position::{Move, Position};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// Number of legal move sequences of length `depth` (draw rules are not applied).
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

/// [`perft`] that gives up as soon as `stop` is set (checked at every node above the last ply,
/// so a stop is noticed within one node's move generations); the count is then meaningless.
fn perft_until(pos: &mut Position, depth: u32, stop: &AtomicBool) -> u64 {
    perft_inner(pos, depth, &mut ply_buffers(depth), stop)
}

/// One move buffer per ply of a `depth`-ply count (at least one), reused by every node.
fn ply_buffers(depth: u32) -> Vec<Vec<Move>> {
    (0..depth.max(1)).map(|_| Vec::with_capacity(256)).collect()
}

fn perft_inner(
    pos: &mut Position,
    depth: u32,
    buffers: &mut [Vec<Move>],
    stop: &AtomicBool,
) -> u64 {
    if depth == 0 {
        return 1;
    }
    let (moves, rest) = buffers.split_first_mut().unwrap();
    pos.legal_moves_into(moves);
    if depth == 1 {
        return moves.len() as u64;
    }
    if stop.load(Ordering::Relaxed) {
        return 0;
    }
    let mut total = 0;
    for &mv in moves.iter() {
        pos.make_move(mv);
        total += perft_inner(pos, depth - 1, rest, stop);
        pos.unmake_move();
    }
    total
}

/// Perft per root move, in generation order: `(move, leaves below it)`.
///
/// # Panics
/// When `depth` exceeds [`MAX_PERFT_DEPTH`](crate::games::MAX_PERFT_DEPTH) (callers refuse it).
pub fn divide(pos: &mut Position, depth: u32) -> Vec<(Move, u64)> {
    divide_until(pos, depth, &AtomicBool::new(false)).expect("a flag nobody sets never stops it")
}

/// [`divide`] that can be stopped from another thread (the engines' protocol `perft`): `None`
/// when `stop` was set before every root move was counted.
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
    let moves = pos.legal_moves();
    let mut lines = Vec::with_capacity(moves.len());
    let mut buffers = ply_buffers(depth - 1);
    for mv in moves {
        pos.make_move(mv);
        let n = perft_inner(pos, depth - 1, &mut buffers, stop);
        pos.unmake_move();
        if stop.load(Ordering::Relaxed) {
            return None;
        }
        lines.push((mv, n));
    }
    Some(lines)
}

/// A timed perft run: the divide lines, the total and the leaf rate.
#[derive(Clone, Debug)]
pub struct PerftReport {
    /// Each root move in notation with its leaf count.
    pub divide: Vec<(String, u64)>,
    /// Total number of leaves.
    pub nodes: u64,
    /// Wall time of the run.
    pub elapsed: Duration,
}

impl PerftReport {
    /// Leaves per second.
    pub fn nodes_per_second(&self) -> u64 {
        let s = self.elapsed.as_secs_f64();
        if s > 0.0 {
            (self.nodes as f64 / s) as u64
        } else {
            0
        }
    }
}

/// Runs a divide at `depth` and measures it.
pub fn perft_report(pos: &mut Position, depth: u32) -> PerftReport {
    let start = Instant::now();
    let lines = divide(pos, depth);
    let elapsed = start.elapsed();
    let divide: Vec<(String, u64)> = lines.iter().map(|&(m, n)| (pos.move_text(m), n)).collect();
    let nodes = if depth == 0 {
        1
    } else {
        lines.iter().map(|l| l.1).sum()
    };
    PerftReport {
        divide,
        nodes,
        elapsed,
    }
}
