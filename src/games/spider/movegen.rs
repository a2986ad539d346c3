//! Legal move generation and attack detection.
//!
//! Moves are generated pseudo-legally from the compiled rules; a move is tested for king safety only
//! when it can matter: the side is in check, the king moves, or the moving piece stands on a line
//! between its king and an enemy rider (or on the path of an enemy lame leap). Every other move
//! cannot expose the king, because vacating a square only opens lines through that square.
//! Out of a single check, a non-king move must land on the checker or on the check's path, so other
//! targets are dropped before that test.
//!
//! Three modes share the generator: every legal move ([`ALL`]), captures and promotions ([`NOISY`],
//! quiescence and the move picker's first stage; empty targets are only looked at for pawns) and
//! the rest ([`QUIET`], the picker's last stage), so a cut on a capture never pays for the ~300
//! quiet moves of a Spider-Chess position.

use super::position::{Move, Position};
use super::square::Color;
use super::variant::{cell_color, cell_kind, EMPTY, OFF};

/// Generation mode: every legal move.
pub(crate) const ALL: u8 = 0;
/// Generation mode: captures and promotions (quiescence, the picker's noisy stage).
pub(crate) const NOISY: u8 = 1;
/// Generation mode: the legal moves [`NOISY`] leaves out (the picker's quiet stage).
pub(crate) const QUIET: u8 = 2;

/// Most squares (checker and blocking squares) of a check tracked before falling back to testing
/// every move.
const MAX_BLOCKS: usize = 32;

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

    /// Whether the side to move has its royal piece attacked (kept up to date by make/unmake).
    #[inline]
    pub fn in_check(&self) -> bool {
        self.checked
    }

    /// [`in_check`](Self::in_check) after a move from `from` to `to` by the other side, whose king
    /// this side could not attack before it: only the rays through `from` (opened) or `to` (the
    /// moved piece) and the lame attacks can carry a check, so only those are walked.
    pub(crate) fn check_after_move(&self, from: usize, to: usize) -> bool {
        let v = &*self.variant;
        let by = self.side.opposite();
        let lines = &v.ray_lines[by.index()];
        if lines.is_empty() {
            return self.compute_in_check();
        }
        let ksq = self.king[self.side.index()] as isize;
        let base = v.size as isize + ksq;
        let mut mask =
            lines[(base - from as isize) as usize] | lines[(base - to as isize) as usize];
        let board = &self.board;
        let rays = &v.rays[by.index()];
        while mask != 0 {
            let ray = &rays[mask.trailing_zeros() as usize];
            mask &= mask - 1;
            let mut t = ksq;
            let mut k = 1u8;
            loop {
                t -= ray.delta;
                let c = board[t as usize];
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
            let p = ksq - l.delta;
            let c = board[p as usize];
            if c == EMPTY || c == OFF || cell_color(c) != by || l.kinds & (1 << cell_kind(c)) == 0 {
                continue;
            }
            if (0..l.len as usize).all(|i| board[(p + l.path[i]) as usize] == EMPTY) {
                return true;
            }
        }
        false
    }

    /// Computes [`in_check`](Self::in_check) from the board.
    pub(crate) fn compute_in_check(&self) -> bool {
        let us = self.side;
        self.attacked(self.king[us.index()] as usize, us.opposite())
    }

    /// The squares that resolve a check on `ksq` by a move of a piece other than the king: the
    /// single checker's square and the squares its attack passes (a slider's or rider's
    /// intermediate squares, a lame leap's path), written to `out`. `None` (no filtering) for a
    /// double check, a piece found attacking along two vectors, or too many squares.
    fn check_blocks(&self, ksq: usize, them: Color, out: &mut [u16; MAX_BLOCKS]) -> Option<usize> {
        let v = &*self.variant;
        let board = &self.board;
        let mut n = 0;
        let mut checkers = 0;
        for ray in &v.rays[them.index()] {
            let mut t = ksq as isize;
            let mut k = 1u8;
            loop {
                t -= ray.delta;
                let c = board[t as usize];
                if c == EMPTY {
                    if k >= ray.max {
                        break;
                    }
                    k += 1;
                    continue;
                }
                if c != OFF && cell_color(c) == them && ray.range[cell_kind(c) as usize] >= k {
                    checkers += 1;
                    if checkers > 1 || n + k as usize > MAX_BLOCKS {
                        return None;
                    }
                    for j in 1..=k as isize {
                        out[n] = (ksq as isize - j * ray.delta) as u16;
                        n += 1;
                    }
                }
                break;
            }
        }
        for l in &v.lame_attacks[them.index()] {
            let p = ksq as isize - l.delta;
            let c = board[p as usize];
            if c == EMPTY || c == OFF || cell_color(c) != them || l.kinds & (1 << cell_kind(c)) == 0
            {
                continue;
            }
            if (0..l.len as usize).all(|i| board[(p + l.path[i]) as usize] == EMPTY) {
                checkers += 1;
                if checkers > 1 || n + 1 + l.len as usize > MAX_BLOCKS {
                    return None;
                }
                out[n] = p as u16;
                n += 1;
                for i in 0..l.len as usize {
                    out[n] = (p + l.path[i]) as u16;
                    n += 1;
                }
            }
        }
        (checkers == 1).then_some(n)
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

    /// The legal moves of a generation mode ([`ALL`], [`NOISY`], [`QUIET`]) into `out`.
    pub(crate) fn generate<const MODE: u8>(&self, out: &mut Vec<Move>) {
        out.clear();
        let v = &*self.variant;
        let us = self.side;
        let them = us.opposite();
        let ksq = self.king[us.index()] as usize;
        let in_check = self.checked;
        let mut blocks = [0u16; MAX_BLOCKS];
        let evasion_targets = if in_check {
            self.check_blocks(ksq, them, &mut blocks)
                .map(|n| &blocks[..n])
        } else {
            None
        };
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
            // Out of a single check, a piece other than the king must land on the checker or on
            // the check's path: other targets are skipped before the (costly) king-safety test.
            let only = if from == ksq { None } else { evasion_targets };
            let start = out.len();
            let dedup = v.dedup[kind as usize];
            // Whether a move to an empty square can be wanted: in noisy mode only a pawn's
            // (promotion).
            let empties = MODE != NOISY || (kind == v.pawn && !v.promo_kinds.is_empty());
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
                        || (MODE != QUIET
                            && c != EMPTY
                            && c != OFF
                            && cell_color(c) == them
                            && st.can_capture)
                    {
                        self.push::<MODE>(out, start, dedup, slow, only, ksq, from, to, kind, c);
                    }
                    continue;
                }
                let mut to = from as isize;
                let mut k = 0u8;
                let mut c = EMPTY;
                while k < st.range {
                    k += 1;
                    to += st.delta;
                    c = board[to as usize];
                    if c != EMPTY {
                        break;
                    }
                    if empties && st.can_move {
                        self.push::<MODE>(
                            out,
                            start,
                            dedup,
                            slow,
                            only,
                            ksq,
                            from,
                            to as usize,
                            kind,
                            c,
                        );
                    }
                }
                if MODE != QUIET
                    && c != EMPTY
                    && c != OFF
                    && cell_color(c) == them
                    && st.can_capture
                {
                    self.push::<MODE>(
                        out,
                        start,
                        dedup,
                        slow,
                        only,
                        ksq,
                        from,
                        to as usize,
                        kind,
                        c,
                    );
                }
            }
        }
    }

    /// Adds the move(s) from `from` to `to` (all promotion choices), after the checks it needs.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn push<const MODE: u8>(
        &self,
        out: &mut Vec<Move>,
        start: usize,
        dedup: bool,
        slow: bool,
        only: Option<&[u16]>,
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
        if MODE == NOISY && target == EMPTY && promo == 0 {
            return;
        }
        if MODE == QUIET && promo == 2 {
            return;
        }
        let plain = Move {
            from: from as u16,
            to: to as u16,
            promo: 0,
        };
        if let Some(targets) = only {
            if !targets.contains(&plain.to) {
                return;
            }
        }
        if dedup && out[start..].iter().any(|m| m.to == plain.to) {
            return;
        }
        if slow {
            let king_to = if from == ksq { to } else { ksq };
            if self.attacked_after(king_to, us.opposite(), from, to) {
                return;
            }
        }
        if promo != 2 && !(MODE == NOISY && target == EMPTY) {
            out.push(plain);
        }
        if promo != 0 && MODE != QUIET {
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
        self.generate::<ALL>(&mut out);
        out
    }

    /// Legal moves into a reusable buffer (cleared first).
    pub fn legal_moves_into(&self, out: &mut Vec<Move>) {
        self.generate::<ALL>(out);
    }

    /// Legal captures and promotions into a reusable buffer (cleared first).
    pub fn noisy_moves_into(&self, out: &mut Vec<Move>) {
        self.generate::<NOISY>(out);
    }

    /// Whether the move captures a piece.
    pub fn is_capture(&self, mv: Move) -> bool {
        self.board[mv.to as usize] != EMPTY
    }
}

#[cfg(test)]
mod tests {
    use super::super::variant::Variant;
    use super::*;
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    /// Noisy and quiet generation split the legal moves exactly: captures and promotions on one
    /// side, everything else on the other; checked along random games (captures preferred).
    #[test]
    fn noisy_and_quiet_partition_the_legal_moves() {
        let variant = Variant::spider_chess();
        let mut rng = ChaCha8Rng::seed_from_u64(11);
        let (mut all, mut noisy, mut quiet) = (Vec::new(), Vec::new(), Vec::new());
        let mut checks = 0;
        for _ in 0..3 {
            let mut pos = Position::startpos(&variant);
            for _ in 0..200 {
                pos.generate::<ALL>(&mut all);
                pos.generate::<NOISY>(&mut noisy);
                pos.generate::<QUIET>(&mut quiet);
                checks += pos.in_check() as usize;
                assert_eq!(noisy.len() + quiet.len(), all.len(), "{}", pos.to_fen());
                for m in &all {
                    let is_noisy = pos.is_capture(*m) || m.promotion().is_some();
                    assert_eq!(noisy.contains(m), is_noisy, "{m:?} in {}", pos.to_fen());
                    assert_eq!(quiet.contains(m), !is_noisy, "{m:?} in {}", pos.to_fen());
                }
                if all.is_empty() {
                    break;
                }
                let mv = if !noisy.is_empty() && rng.gen_bool(0.6) {
                    noisy[rng.gen_range(0..noisy.len())]
                } else {
                    all[rng.gen_range(0..all.len())]
                };
                pos.make_move(mv);
            }
        }
        assert!(checks > 0, "the games reached some checks");
    }
}

#[cfg(test)]
mod check_tests {
    use super::super::variant::Variant;
    use super::*;
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    /// The check flag make computes from the lines through the move agrees with a full attack
    /// scan, along random games that prefer checks and captures.
    #[test]
    fn check_after_move_matches_a_full_scan() {
        let variant = Variant::spider_chess();
        let mut rng = ChaCha8Rng::seed_from_u64(23);
        let (mut moves, mut checks) = (Vec::new(), 0);
        for _ in 0..6 {
            let mut pos = Position::startpos(&variant);
            for _ in 0..150 {
                pos.generate::<ALL>(&mut moves);
                if moves.is_empty() {
                    break;
                }
                let mut pick = moves[rng.gen_range(0..moves.len())];
                for &m in &moves {
                    pos.make_move(m);
                    assert_eq!(pos.in_check(), pos.compute_in_check(), "{m:?}");
                    let interesting = pos.in_check() || pos.undo.last().unwrap().captured != EMPTY;
                    checks += pos.in_check() as usize;
                    pos.unmake_move();
                    if interesting && rng.gen_bool(0.3) {
                        pick = m;
                    }
                }
                pos.make_move(pick);
            }
        }
        assert!(checks > 0, "some moves gave check");
    }
}
