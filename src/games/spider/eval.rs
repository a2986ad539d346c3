//! Static evaluation, cheap enough for every quiescence node.
//!
//! - **Material**: each piece type's value is derived from its mobility on this board: the average
//!   number of moves it has from every playable square of the empty board (holes included), computed
//!   once when the variant loads, so any loaded variant gets values. The pawn is
//!   fixed at 100; every other piece is worth `MOBILITY_VALUE` centipawns per average move (at least
//!   a pawn). The royal piece has no material value.
//! - **Reach** (static mobility): `REACH_WEIGHT` per square a non-pawn, non-royal piece reaches on
//!   the empty board within `REACH_LEAPS` leaps of each ray from its square. It rewards central
//!   squares away from holes. (Counting real pseudo-legal moves of 27 riders per side cost ~60% of
//!   the search time for little gain; this term is free.)
//! - **Pawn advancement**: a bonus growing with the square of the ranks a pawn has advanced.
//! - **King safety**: a bonus per own piece next to the king, a penalty per enemy non-pawn piece
//!   within `KING_ZONE` squares (king distance) of it.
//! - **Tempo**: a small bonus for the side to move.
//!
//! Material, reach and advancement depend on one piece and its square only: they are looked up in
//! piece-square tables ([`piece_square_tables`]) whose per-side sums the position keeps up to date
//! in make/unmake, so a leaf evaluation costs only the two king-zone scans.

use super::position::Position;
use super::square::Color;
use super::variant::{cell_color, cell_kind, Variant, EMPTY, OFF};
use crate::search::Score;

const PAWN_VALUE: i32 = 100;
const MOBILITY_VALUE: f64 = 28.0;
const REACH_WEIGHT: i32 = 2;
const REACH_LEAPS: u8 = 2;
const KING_SHIELD: i32 = 8;
const KING_ZONE: isize = 3;
const KING_ATTACKER: i32 = 12;
const TEMPO: i32 = 10;

/// Names, mobility and derived values of every piece type of a variant.
pub(crate) fn piece_infos(v: &Variant) -> Vec<super::variant::PieceInfo> {
    let def = v.definition();
    def.pieces
        .iter()
        .enumerate()
        .map(|(kind, p)| {
            let mut total = 0usize;
            let mut seen: Vec<usize> = Vec::with_capacity(128);
            for &sq in &v.playable {
                seen.clear();
                for st in &v.steps[0][kind] {
                    let from = sq as isize;
                    if st.lame_len > 0 {
                        let clear = (0..st.lame_len as usize)
                            .all(|i| v.template[(from + st.lame[i]) as usize] == EMPTY);
                        let to = (from + st.delta) as usize;
                        if clear && v.template[to] == EMPTY && !seen.contains(&to) {
                            seen.push(to);
                        }
                        continue;
                    }
                    let mut to = from;
                    for _ in 0..st.range {
                        to += st.delta;
                        if v.template[to as usize] != EMPTY {
                            break;
                        }
                        if !seen.contains(&(to as usize)) {
                            seen.push(to as usize);
                        }
                    }
                }
                total += seen.len();
            }
            let mobility = total as f64 / v.playable.len().max(1) as f64;
            let value = if Some(kind) == def.pawn {
                PAWN_VALUE
            } else if p.letter == def.royal {
                0
            } else {
                ((mobility * MOBILITY_VALUE).round() as i32).max(PAWN_VALUE)
            };
            super::variant::PieceInfo {
                name: p.name.clone(),
                letter: p.letter,
                betza: p.betza.clone(),
                mobility,
                value,
            }
        })
        .collect()
}

/// Piece-square tables per colour, indexed `kind * size + square`: everything of the evaluation that
/// depends on one piece and its square alone, so that [`Position`] keeps their sum up to date in
/// make/unmake.
///
/// An entry is the piece's material value plus, for a pawn, the advancement bonus, and for any
/// other non-royal piece `REACH_WEIGHT` per square it reaches on the empty board within
/// `REACH_LEAPS` leaps of each of its rays (holes block as in play): a static stand-in for
/// mobility that rewards central squares away from holes. The royal piece's entries are 0.
pub(crate) fn piece_square_tables(v: &Variant) -> [Vec<i32>; 2] {
    let kinds = v.definition().pieces.len();
    let mut tables = [vec![0; kinds * v.size], vec![0; kinds * v.size]];
    let mut seen: Vec<isize> = Vec::with_capacity(128);
    for (c, table) in tables.iter_mut().enumerate() {
        for kind in 0..kinds {
            let k = kind as u8;
            if k == v.royal {
                continue;
            }
            for &sq in &v.playable {
                let sq = sq as usize;
                let bonus = if k == v.pawn {
                    let a = v.advance[c][sq] as i32;
                    a * a / 2
                } else {
                    seen.clear();
                    for st in &v.steps[c][kind] {
                        if st.lame_len > 0 {
                            continue;
                        }
                        let mut to = sq as isize;
                        for _ in 0..st.range.min(REACH_LEAPS) {
                            to += st.delta;
                            if v.template[to as usize] != EMPTY {
                                break;
                            }
                            if !seen.contains(&to) {
                                seen.push(to);
                            }
                        }
                    }
                    REACH_WEIGHT * seen.len() as i32
                };
                table[kind * v.size + sq] = v.values[kind] + bonus;
            }
        }
    }
    tables
}

impl Position {
    /// Static evaluation in centipawns from the side to move's point of view: the incrementally
    /// kept piece-square sums, king safety and tempo.
    pub fn evaluate(&self) -> Score {
        let s = self.psq[0] - self.psq[1] + self.king_safety();
        TEMPO
            + match self.side {
                Color::White => s,
                Color::Black => -s,
            }
    }

    /// King safety from White's point of view from the king-zone tallies the position keeps:
    /// `KING_SHIELD` per own piece next to the king, `KING_ATTACKER` per enemy non-pawn, non-royal
    /// piece within `KING_ZONE` (king distance) of it.
    #[inline]
    fn king_safety(&self) -> i32 {
        let shield = (self.shield[0] - self.shield[1]) as i32;
        let near = (self.near[0] - self.near[1]) as i32;
        KING_SHIELD * shield - KING_ATTACKER * near
    }

    /// King distance (Chebyshev) between two mailbox squares.
    #[inline]
    fn king_distance(&self, a: usize, b: usize) -> i16 {
        let xy = &self.variant.xy;
        let (a, b) = (xy[a], xy[b]);
        (a.0 - b.0).abs().max((a.1 - b.1).abs())
    }

    /// Whether a piece kind counts as a king attacker (neither pawn nor royal).
    #[inline]
    fn attacker_kind(&self, kind: u8) -> bool {
        kind != self.variant.pawn && kind != self.variant.royal
    }

    /// The king-zone tallies of side `c` counted on the board: own pieces next to its king, enemy
    /// attacker-kind pieces within `KING_ZONE` of it.
    pub(crate) fn count_king_zone(&self, c: usize) -> (i16, i16) {
        let stride = self.variant.stride as isize;
        let ksq = self.king[c] as isize;
        let (mut shield, mut near) = (0, 0);
        for dy in -KING_ZONE..=KING_ZONE {
            let row = ksq + dy * stride;
            for dx in -KING_ZONE..=KING_ZONE {
                let t = self.board[(row + dx) as usize];
                if t == EMPTY || t == OFF {
                    continue;
                }
                if cell_color(t).index() == c {
                    shield += (dx.abs().max(dy.abs()) == 1) as i16;
                } else {
                    near += self.attacker_kind(cell_kind(t)) as i16;
                }
            }
        }
        (shield, near)
    }

    /// Recounts both sides' king-zone tallies (setup).
    pub(crate) fn recount_king_zones(&mut self) {
        for c in 0..2 {
            (self.shield[c], self.near[c]) = self.count_king_zone(c);
        }
    }

    /// Updates the king-zone tallies for a move of side `us` just played on the board: `moved`
    /// left `from`, `placed` (differs on promotion) stands on `to`, `captured` was taken there.
    pub(crate) fn update_king_zones(
        &mut self,
        us: usize,
        from: usize,
        to: usize,
        moved: u8,
        placed: u8,
        captured: u8,
    ) {
        let zone = KING_ZONE as i16;
        let (ours, theirs) = (self.king[us] as usize, self.king[1 - us] as usize);
        let royal_moved = cell_kind(moved) == self.variant.royal;
        if captured != EMPTY {
            self.shield[1 - us] -= (self.king_distance(theirs, to) == 1) as i16;
            if !royal_moved
                && self.attacker_kind(cell_kind(captured))
                && self.king_distance(ours, to) <= zone
            {
                self.near[us] -= 1;
            }
        }
        if royal_moved {
            (self.shield[us], self.near[us]) = self.count_king_zone(us);
            return;
        }
        self.shield[us] += (self.king_distance(ours, to) == 1) as i16
            - (self.king_distance(ours, from) == 1) as i16;
        if self.attacker_kind(cell_kind(moved)) && self.king_distance(theirs, from) <= zone {
            self.near[1 - us] -= 1;
        }
        if self.attacker_kind(cell_kind(placed)) && self.king_distance(theirs, to) <= zone {
            self.near[1 - us] += 1;
        }
    }

    /// The piece-square sums recomputed from the board (a cross-check for tests).
    #[cfg(test)]
    pub(crate) fn psq_from_scratch(&self) -> [i32; 2] {
        let v = &*self.variant;
        let mut sums = [0; 2];
        for (c, sum) in sums.iter_mut().enumerate() {
            for &sq in &self.list[c] {
                let kind = cell_kind(self.board[sq as usize]) as usize;
                *sum += v.pst[c][kind * v.size + sq as usize];
            }
        }
        sums
    }
}

#[cfg(test)]
mod tests {
    use super::super::variant::Variant;
    use super::*;
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    #[test]
    fn start_position_is_balanced() {
        let pos = Position::startpos(&Variant::spider_chess());
        assert_eq!(pos.psq[0], pos.psq[1], "mirrored setup, equal sums");
        assert_eq!(pos.evaluate(), TEMPO);
    }

    #[test]
    fn incremental_sums_match_a_recount_through_random_games() {
        let variant = Variant::spider_chess();
        let mut rng = ChaCha8Rng::seed_from_u64(7);
        let mut moves = Vec::new();
        for _ in 0..4 {
            let mut pos = Position::startpos(&variant);
            let mut trail = Vec::new();
            for _ in 0..120 {
                pos.legal_moves_into(&mut moves);
                if moves.is_empty() {
                    break;
                }
                // Prefer captures so that material changes hands often.
                let captures: Vec<_> = moves
                    .iter()
                    .copied()
                    .filter(|&m| pos.is_capture(m))
                    .collect();
                let mv = if !captures.is_empty() && rng.gen_bool(0.7) {
                    captures[rng.gen_range(0..captures.len())]
                } else {
                    moves[rng.gen_range(0..moves.len())]
                };
                pos.make_move(mv);
                trail.push(pos.psq);
                assert_eq!(pos.psq, pos.psq_from_scratch(), "after {mv:?}");
                for c in 0..2 {
                    let kept = (pos.shield[c], pos.near[c]);
                    assert_eq!(kept, pos.count_king_zone(c), "side {c} after {mv:?}");
                }
            }
            while pos.plies_played() > 0 {
                assert_eq!(pos.psq, trail.pop().unwrap());
                pos.unmake_move();
                assert_eq!(pos.psq, pos.psq_from_scratch());
                for c in 0..2 {
                    assert_eq!((pos.shield[c], pos.near[c]), pos.count_king_zone(c));
                }
            }
        }
    }

    #[test]
    fn a_captured_piece_costs_its_value() {
        let variant = Variant::spider_chess();
        let base = Position::startpos(&variant);
        let e0 = base.psq[1];
        // Black without its a-side rook (k19): Black's sum drops by the rook's table entry.
        let fen = base.to_fen().replacen("r", "1", 1);
        let fewer = Position::from_fen(&variant, &fen).expect("edited start FEN loads");
        let rook = variant
            .definition()
            .pieces
            .iter()
            .position(|p| p.letter == 'R')
            .unwrap();
        let k19 = variant.index(10, 18);
        assert_eq!(e0 - fewer.psq[1], variant.pst[1][rook * variant.size + k19]);
        assert!(variant.pst[1][rook * variant.size + k19] >= variant.values[rook]);
        assert!(fewer.evaluate() > base.evaluate() + variant.values[rook] / 2);
    }
}
