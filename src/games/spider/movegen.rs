//! Legal move generation and attack detection.
//!
//! Moves are generated pseudo-legally from the compiled rules; a move is tested for king safety only
//! when it can matter: the side is in check, the king moves, or the moving piece stands on a line
//! between its king and an enemy rider (or on the path of an enemy lame leap). Every other move
//! cannot expose the king, because vacating a square only opens lines through that square.

use super::position::{Move, Position};
use super::square::Color;
use super::variant::{cell_color, cell_kind, EMPTY, OFF};

/// Most pinned pieces tracked before falling back to testing every move.
const MAX_PINS: usize = 64;

impl Position {
    /// Whether square `sq` (mailbox index) is attacked by a piece of `by`.
    #[inline]
    pub(crate) fn attacked(&self, sq: usize, by: Color) -> bool {
        let board = &self.board;
        self.attacked_with(sq, by, |t| board[t])
    }

    /// Attack test on the board as it would be after moving the piece on `from` to `to`.
    fn attacked_after(&self, sq: usize, by: Color, from: usize, to: usize) -> bool {
        let mover = self.board[from];
        let board = &self.board;
        self.attacked_with(sq, by, |t| {
            if t == from {
                EMPTY
            } else if t == to {
                mover
            } else {
                board[t]
            }
        })
    }

    #[inline(always)]
    fn attacked_with<F: Fn(usize) -> u8>(&self, sq: usize, by: Color, cell: F) -> bool {
        let v = &*self.variant;
        for ray in &v.rays[by.index()] {
            let mut t = sq as isize;
            let mut k = 1u8;
            loop {
                t -= ray.delta;
                let c = cell(t as usize);
                if c == EMPTY {
                    if k >= ray.max {
                        break;
                    }
                    k += 1;
                    continue;
                }
                if c != OFF && cell_color(c) == by && ray.range[cell_kind(c) as usize] >= k {
                    return true;
                }
                break;
            }
        }
        for l in &v.lame_attacks[by.index()] {
            let p = sq as isize - l.delta;
            let c = cell(p as usize);
            if c == EMPTY || c == OFF || cell_color(c) != by || l.kinds & (1 << cell_kind(c)) == 0 {
                continue;
            }
            if (0..l.len as usize).all(|i| cell((p + l.path[i]) as usize) == EMPTY) {
                return true;
            }
        }
        false
    }

    /// Whether the side to move has its royal piece attacked.
    pub fn in_check(&self) -> bool {
        let us = self.side;
        self.attacked(self.king[us.index()] as usize, us.opposite())
    }

    /// Squares of our pieces that may be pinned to our king; `None` when there are too many.
    fn pinned(&self, pins: &mut [u16; MAX_PINS]) -> Option<usize> {
        let v = &*self.variant;
        let us = self.side;
        let them = us.opposite();
        let ksq = self.king[us.index()] as isize;
        let mut n = 0;
        let mut push = |sq: isize, n: &mut usize| -> bool {
            if *n == MAX_PINS {
                return false;
            }
            pins[*n] = sq as u16;
            *n += 1;
            true
        };
        for ray in &v.rays[them.index()] {
            if ray.max < 2 {
                continue;
            }
            let mut t = ksq;
            let mut k = 0u8;
            let mut blocker = None;
            loop {
                t -= ray.delta;
                k += 1;
                let c = self.board[t as usize];
                if c == EMPTY {
                    if k >= ray.max {
                        break;
                    }
                    continue;
                }
                if c == OFF {
                    break;
                }
                if cell_color(c) == us {
                    if blocker.is_some() || k >= ray.max {
                        break;
                    }
                    blocker = Some(t);
                    continue;
                }
                if let Some(b) = blocker {
                    if ray.range[cell_kind(c) as usize] >= k && !push(b, &mut n) {
                        return None;
                    }
                }
                break;
            }
        }
        for l in &v.lame_attacks[them.index()] {
            let p = ksq - l.delta;
            let c = self.board[p as usize];
            if c == EMPTY || c == OFF || cell_color(c) != them || l.kinds & (1 << cell_kind(c)) == 0
            {
                continue;
            }
            let mut ours = None;
            let mut blocked = false;
            for i in 0..l.len as usize {
                let s = p + l.path[i];
                match self.board[s as usize] {
                    EMPTY => {}
                    c if c != OFF && cell_color(c) == us && ours.is_none() => ours = Some(s),
                    _ => blocked = true,
                }
            }
            if let (Some(s), false) = (ours, blocked) {
                if !push(s, &mut n) {
                    return None;
                }
            }
        }
        Some(n)
    }

    /// Every legal move (or, with `NOISY`, every legal capture and promotion) into `out`.
    pub(crate) fn generate<const NOISY: bool>(&self, out: &mut Vec<Move>) {
        out.clear();
        let v = &*self.variant;
        let us = self.side;
        let them = us.opposite();
        let ksq = self.king[us.index()] as usize;
        let in_check = self.attacked(ksq, them);
        let mut pins = [0u16; MAX_PINS];
        let (all_slow, npins) = if in_check {
            (true, 0)
        } else {
            match self.pinned(&mut pins) {
                Some(n) => (false, n),
                None => (true, 0),
            }
        };
        let board = &self.board;
        for &from in &self.list[us.index()] {
            let from = from as usize;
            let kind = cell_kind(board[from]);
            let slow = all_slow || from == ksq || pins[..npins].contains(&(from as u16));
            let start = out.len();
            let dedup = v.dedup[kind as usize];
            for st in &v.steps[us.index()][kind as usize] {
                if st.lame_len > 0 {
                    let clear = (0..st.lame_len as usize)
                        .all(|i| board[(from as isize + st.lame[i]) as usize] == EMPTY);
                    if !clear {
                        continue;
                    }
                    let to = (from as isize + st.delta) as usize;
                    let c = board[to];
                    if (c == EMPTY && st.can_move)
                        || (c != EMPTY && c != OFF && cell_color(c) == them && st.can_capture)
                    {
                        self.push::<NOISY>(out, start, dedup, slow, ksq, from, to, kind, c);
                    }
                    continue;
                }
                let mut to = from as isize;
                let mut k = 0u8;
                while k < st.range {
                    k += 1;
                    to += st.delta;
                    let c = board[to as usize];
                    if c == EMPTY {
                        if st.can_move {
                            self.push::<NOISY>(
                                out,
                                start,
                                dedup,
                                slow,
                                ksq,
                                from,
                                to as usize,
                                kind,
                                c,
                            );
                        }
                        continue;
                    }
                    if c != OFF && cell_color(c) == them && st.can_capture {
                        self.push::<NOISY>(
                            out,
                            start,
                            dedup,
                            slow,
                            ksq,
                            from,
                            to as usize,
                            kind,
                            c,
                        );
                    }
                    break;
                }
            }
        }
    }

    /// Adds the move(s) from `from` to `to` (all promotion choices), after the checks it needs.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn push<const NOISY: bool>(
        &self,
        out: &mut Vec<Move>,
        start: usize,
        dedup: bool,
        slow: bool,
        ksq: usize,
        from: usize,
        to: usize,
        kind: u8,
        target: u8,
    ) {
        let v = &*self.variant;
        let us = self.side;
        let promo = if kind == v.pawn && !v.promo_kinds.is_empty() {
            v.promo[us.index()][to]
        } else {
            0
        };
        if NOISY && target == EMPTY && promo == 0 {
            return;
        }
        let plain = Move {
            from: from as u16,
            to: to as u16,
            promo: 0,
        };
        if dedup && out[start..].iter().any(|m| m.to == plain.to) {
            return;
        }
        if slow {
            let king_to = if from == ksq { to } else { ksq };
            if self.attacked_after(king_to, us.opposite(), from, to) {
                return;
            }
        }
        if promo != 2 && !(NOISY && target == EMPTY) {
            out.push(plain);
        }
        if promo != 0 {
            for &p in &v.promo_kinds {
                out.push(Move {
                    promo: p + 1,
                    ..plain
                });
            }
        }
    }

    /// Every legal move of the side to move.
    pub fn legal_moves(&self) -> Vec<Move> {
        let mut out = Vec::with_capacity(256);
        self.generate::<false>(&mut out);
        out
    }

    /// Legal moves into a reusable buffer (cleared first).
    pub fn legal_moves_into(&self, out: &mut Vec<Move>) {
        self.generate::<false>(out);
    }

    /// Legal captures and promotions into a reusable buffer (cleared first).
    pub fn noisy_moves_into(&self, out: &mut Vec<Move>) {
        self.generate::<true>(out);
    }

    /// Whether the move captures a piece.
    pub fn is_capture(&self, mv: Move) -> bool {
        self.board[mv.to as usize] != EMPTY
    }
}
