//! Static evaluation, cheap enough for every quiescence node.
//!
//! - **Material**: each piece type's value is derived from its mobility on this board: the average
//!   number of moves it has from every playable square of the empty board (holes included), computed
//!   once when the variant loads, so any loaded variant gets values. The pawn is
//!   fixed at 100; every other piece is worth `MOBILITY_VALUE` centipawns per average move (at least
//!   a pawn). The royal piece has no material value.
//! - **Mobility**: `MOBILITY_WEIGHT` per pseudo-legal move target of each non-pawn, non-royal piece.
//! - **King safety**: a bonus per own piece next to the king, a penalty per enemy non-pawn piece
//!   within `KING_ZONE` squares (king distance) of it.
//! - **Pawn advancement**: a bonus growing with the square of the ranks a pawn has advanced.
//! - **Tempo**: a small bonus for the side to move.

use super::position::Position;
use super::square::Color;
use super::variant::{cell_color, cell_kind, Variant, EMPTY, OFF};
use crate::search::Score;

const PAWN_VALUE: i32 = 100;
const MOBILITY_VALUE: f64 = 28.0;
const MOBILITY_WEIGHT: i32 = 2;
const KING_SHIELD: i32 = 8;
const KING_ZONE: i32 = 3;
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

impl Position {
    /// Static evaluation in centipawns from the side to move's point of view.
    pub fn evaluate(&self) -> Score {
        let white = self.side_score(Color::White);
        let black = self.side_score(Color::Black);
        let s = white - black;
        TEMPO
            + match self.side {
                Color::White => s,
                Color::Black => -s,
            }
    }

    fn side_score(&self, color: Color) -> i32 {
        let v = &*self.variant;
        let c = color.index();
        let board = &self.board;
        let stride = v.stride as i32;
        let mut score = 0;
        let ksq = self.king[c] as i32;
        let enemy_king = self.king[1 - c] as i32;
        let (ekx, eky) = (enemy_king % stride, enemy_king / stride);
        for &sq in &self.list[c] {
            let sq = sq as usize;
            let kind = cell_kind(board[sq]);
            if kind == v.royal {
                continue;
            }
            score += v.values[kind as usize];
            if kind == v.pawn {
                let a = v.advance[c][sq] as i32;
                score += a * a / 2;
                continue;
            }
            let mut mobility = 0;
            for st in &v.steps[c][kind as usize] {
                if st.lame_len > 0 {
                    continue;
                }
                let mut to = sq as isize;
                for _ in 0..st.range {
                    to += st.delta;
                    let t = board[to as usize];
                    if t == EMPTY {
                        mobility += 1;
                        continue;
                    }
                    if t != OFF && cell_color(t) != color {
                        mobility += 1;
                    }
                    break;
                }
            }
            score += MOBILITY_WEIGHT * mobility;
            let (x, y) = (sq as i32 % stride, sq as i32 / stride);
            if (x - ekx).abs().max((y - eky).abs()) <= KING_ZONE {
                score += KING_ATTACKER;
            }
        }
        for dy in -1..=1 {
            for dx in -1..=1 {
                let t = board[(ksq + dy * stride + dx) as usize];
                if t != EMPTY && t != OFF && cell_color(t) == color && (dx, dy) != (0, 0) {
                    score += KING_SHIELD;
                }
            }
        }
        score
    }
}
