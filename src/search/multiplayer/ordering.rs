//! Move ordering for the multi-player alpha-beta searches: captures by victim value, killers per
//! ply, history per seat; also picks the "best-ordered move" BRS+ gives the opponents it does not
//! search.

use crate::search::alphabeta::history::{bonus, Killers, HISTORY_MAX, MAX_PLY};
use crate::search::MultiSided;

const CAPTURE: i32 = 1 << 26;
const KILLER: i32 = 1 << 25;

/// Per-seat history and per-ply killers, kept between searches.
#[derive(Debug)]
pub struct Ordering<M> {
    history: Vec<i32>,
    per_seat: usize,
    killers: Killers<M>,
    moves: Vec<Vec<M>>,
    scores: Vec<Vec<i32>>,
}

impl<M: Copy + Eq> Default for Ordering<M> {
    fn default() -> Self {
        Ordering {
            history: Vec::new(),
            per_seat: 0,
            killers: Killers::default(),
            moves: (0..=MAX_PLY).map(|_| Vec::with_capacity(128)).collect(),
            scores: (0..=MAX_PLY).map(|_| Vec::with_capacity(128)).collect(),
        }
    }
}

impl<M: Copy + Eq> Ordering<M> {
    /// Prepares the tables for a search of `pos` (history sized, aged; killers cleared).
    pub fn start<G: MultiSided<Move = M>>(&mut self, pos: &G) {
        let per_seat = pos.history_size();
        let len = per_seat * pos.seats();
        if self.per_seat != per_seat || self.history.len() != len {
            self.per_seat = per_seat;
            self.history = vec![0; len];
        }
        self.history.iter_mut().for_each(|v| *v /= 2);
        self.killers.clear();
    }

    /// Forgets everything (a new game).
    pub fn clear(&mut self) {
        self.history.iter_mut().for_each(|v| *v = 0);
        self.killers.clear();
    }

    fn score<G: MultiSided<Move = M>>(&self, pos: &G, ply: usize, mv: M) -> i32 {
        let victim = pos.victim_value(mv).clamp(0, 100_000);
        if victim > 0 {
            return CAPTURE + victim;
        }
        let k = self.killers.get(ply);
        if k[0] == Some(mv) {
            return KILLER + 1;
        }
        if k[1] == Some(mv) {
            return KILLER;
        }
        let i = pos.to_move() * self.per_seat + pos.history_index(mv);
        self.history.get(i).copied().unwrap_or(0)
    }

    /// Generates and scores the moves of `pos` into the buffers of `ply`, `hash_move` (if legal)
    /// first; returns how many.
    pub fn generate<G: MultiSided<Move = M>>(
        &mut self,
        pos: &G,
        ply: usize,
        hash_move: Option<M>,
    ) -> usize {
        let mut moves = std::mem::take(&mut self.moves[ply]);
        pos.legal_moves(&mut moves);
        let mut scores = std::mem::take(&mut self.scores[ply]);
        scores.clear();
        scores.extend(moves.iter().map(|&mv| {
            if Some(mv) == hash_move {
                i32::MAX
            } else {
                self.score(pos, ply, mv)
            }
        }));
        self.moves[ply] = moves;
        self.scores[ply] = scores;
        self.moves[ply].len()
    }

    /// Generates the captures of `pos` into the buffers of `ply`, most valuable victim first;
    /// returns how many.
    pub fn generate_noisy<G: MultiSided<Move = M>>(&mut self, pos: &G, ply: usize) -> usize {
        let mut moves = std::mem::take(&mut self.moves[ply]);
        pos.noisy_moves(&mut moves);
        let scores = &mut self.scores[ply];
        scores.clear();
        scores.extend(moves.iter().map(|&mv| pos.victim_value(mv)));
        self.moves[ply] = moves;
        self.moves[ply].len()
    }

    /// The `n`-th move of `ply` in order (selection sort step: call with n = 0, 1, 2, ...).
    pub fn pick(&mut self, ply: usize, n: usize) -> M {
        let (moves, scores) = (&mut self.moves[ply], &mut self.scores[ply]);
        let mut best = n;
        for i in n + 1..moves.len() {
            if scores[i] > scores[best] {
                best = i;
            }
        }
        moves.swap(n, best);
        scores.swap(n, best);
        moves[n]
    }

    /// The best-ordered move of the seat to move, without generating into a ply buffer twice:
    /// what BRS+ lets an unsearched opponent play. `None` when there is no legal move.
    pub fn best_ordered<G: MultiSided<Move = M>>(
        &mut self,
        pos: &G,
        ply: usize,
        hash_move: Option<M>,
    ) -> Option<M> {
        if self.generate(pos, ply, hash_move) == 0 {
            return None;
        }
        Some(self.pick(ply, 0))
    }

    /// Records a cutoff by a quiet move of the seat to move at `ply`.
    pub fn cutoff<G: MultiSided<Move = M>>(&mut self, pos: &G, ply: usize, mv: M, depth: i32) {
        if pos.victim_value(mv) > 0 {
            return;
        }
        self.killers.add(ply, mv);
        let i = pos.to_move() * self.per_seat + pos.history_index(mv);
        if let Some(v) = self.history.get_mut(i) {
            let b = bonus(depth);
            *v += b - *v * b / HISTORY_MAX;
        }
    }
}
