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
//!
//! Special rules (`i`, `e`, `j`, `p`, `g`), castling and drops are generated after the plain rules,
//! only in variants that have them. Where the enemy has special captures (hoppers: a move can give
//! them a screen), every move gets the full king-safety test and check detection scans those
//! pieces. En passant captures always get the full test; castling checks the royal piece's path.

use super::betza::Style;
use super::position::{Move, Position, CASTLE, DOUBLE, DROP, EN_PASSANT, NORMAL};
use super::square::Color;
use super::variant::{cell, cell_color, cell_kind, Special, EMPTY, NONE, OFF};

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

/// The piece whose moves are being generated, with what [`Position::push`] needs to know about
/// it: where its moves start in the output (for deduplication), whether they need the full
/// king-safety test, and the only targets that answer a check.
#[derive(Clone, Copy)]
struct Mover<'a> {
    from: usize,
    kind: u8,
    /// Index in the output of the piece's first move.
    start: usize,
    /// Whether two of its rules can reach the same square (moves are then listed once).
    dedup: bool,
    /// Whether every move is tested for king safety (pinned piece, king, in check).
    slow: bool,
    /// Out of a single check, the squares a non-king move must land on.
    only: Option<&'a [u16]>,
    /// The side to move's royal square.
    ksq: usize,
}

impl Position {
    /// Whether square `sq` (mailbox index) is attacked by a piece of `by`.
    #[inline]
    pub(crate) fn attacked(&self, sq: usize, by: Color) -> bool {
        let board = &self.board;
        self.attacked_with(sq, by, |t| board[t])
    }

    /// Attack test on the board as it would be after moving the piece on `from` to `to`.
    fn attacked_after(&self, sq: usize, by: Color, from: usize, to: usize) -> bool {
        self.attacked_with(sq, by, self.after_move(from, to))
    }

    /// The board's cells as they would be after moving the piece on `from` to `to`.
    #[inline(always)]
    fn after_move(&self, from: usize, to: usize) -> impl Fn(usize) -> u8 + '_ {
        self.after_landing(Some(from), to, self.board[from])
    }

    /// The board's cells as they would be with `landed` put on `to` and `from` (if any: a drop
    /// has none) left empty.
    #[inline(always)]
    pub(crate) fn after_landing(
        &self,
        from: Option<usize>,
        to: usize,
        landed: u8,
    ) -> impl Fn(usize) -> u8 + '_ {
        move |t| {
            if t == to {
                landed
            } else if Some(t) == from {
                EMPTY
            } else {
                self.board[t]
            }
        }
    }

    #[inline(always)]
    fn attacked_with<F: Fn(usize) -> u8>(&self, sq: usize, by: Color, cell: F) -> bool {
        let v = &*self.variant;
        v.rays[by.index()]
            .iter()
            .any(|ray| ray.attacker(sq, by, &cell).is_some())
            || v.lame_attacks[by.index()]
                .iter()
                .any(|l| l.attacker(sq, by, &cell).is_some())
            || v.special_attackers[by.index()] != 0 && self.special_attack(sq, by, &cell)
    }

    /// Attack test on the board with up to a few squares changed (castling, en passant, drops).
    pub(crate) fn attacked_view(&self, sq: usize, by: Color, changes: &[(usize, u8)]) -> bool {
        let board = &self.board;
        self.attacked_with(sq, by, |t| {
            for &(s, c) in changes {
                if s == t {
                    return c;
                }
            }
            board[t]
        })
    }

    /// Whether a piece of `by` attacks `sq` with a special rule (hopper, ski, jump, initial
    /// capture), on the board `cell` shows.
    fn special_attack<F: Fn(usize) -> u8>(&self, sq: usize, by: Color, cell: &F) -> bool {
        let v = &*self.variant;
        let c = by.index();
        for &p in &self.list[c] {
            let p = p as usize;
            let pc = cell(p);
            if pc == EMPTY || pc == OFF || cell_color(pc) != by {
                continue;
            }
            let kind = cell_kind(pc);
            if v.special_attackers[c] >> kind & 1 == 0 {
                continue;
            }
            for sp in v.specials[c][kind as usize]
                .iter()
                .filter(|s| s.can_capture)
            {
                if sp.initial && v.start_mask[c][p] >> kind & 1 == 0 {
                    continue;
                }
                if special_hits(p, sp, sq, cell) {
                    return true;
                }
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
    /// this side could not attack before it.
    pub(crate) fn check_after_move(&self, from: usize, to: usize) -> bool {
        let board = &self.board;
        let ksq = self.king[self.side.index()] as usize;
        self.attack_through(ksq, self.side.opposite(), from, to, &|t| board[t])
            .unwrap_or_else(|| self.compute_in_check())
    }

    /// Whether `by` attacks `ksq` on the board `cell` shows, where it did not before a move from
    /// `from` to `to`: only the rays through `from` (opened) or `to` (the moved piece) and the
    /// lame attacks can carry the attack, so only those are walked. `None` where the variant's
    /// ray lines cannot tell (more than 64 rays, or special attackers).
    #[inline(always)]
    fn attack_through<F: Fn(usize) -> u8>(
        &self,
        ksq: usize,
        by: Color,
        from: usize,
        to: usize,
        cell: &F,
    ) -> Option<bool> {
        let v = &*self.variant;
        let lines = &v.ray_lines[by.index()];
        if lines.is_empty() || v.special_attackers[by.index()] != 0 {
            return None;
        }
        let base = v.size as isize + ksq as isize;
        let mut mask =
            lines[(base - from as isize) as usize] | lines[(base - to as isize) as usize];
        let rays = &v.rays[by.index()];
        while mask != 0 {
            let ray = &rays[mask.trailing_zeros() as usize];
            mask &= mask - 1;
            if ray.attacker(ksq, by, cell).is_some() {
                return Some(true);
            }
        }
        Some(
            v.lame_attacks[by.index()]
                .iter()
                .any(|l| l.attacker(ksq, by, cell).is_some()),
        )
    }

    /// The square of `c`'s royal piece, when the board holds it there (a variant may have none).
    pub(crate) fn royal_square(&self, c: Color) -> Option<usize> {
        let ksq = self.king[c.index()] as usize;
        let kc = self.board[ksq];
        (kc != EMPTY && kc != OFF && cell_color(kc) == c && cell_kind(kc) == self.variant.royal)
            .then_some(ksq)
    }

    /// Whether `mv` (legal, by the side to move) attacks the enemy royal piece directly or by
    /// discovery. Worked out for ordinary moves without promotion only; `false` for the others.
    pub(crate) fn gives_check(&self, mv: Move) -> bool {
        if mv.flag > DOUBLE || mv.promo != 0 {
            return false;
        }
        let Some(ksq) = self.royal_square(self.side.opposite()) else {
            return false;
        };
        let (from, to) = (mv.from as usize, mv.to as usize);
        self.attack_through(ksq, self.side, from, to, &self.after_move(from, to))
            .unwrap_or_else(|| self.attacked_after(ksq, self.side, from, to))
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
        let board = |t: usize| self.board[t];
        for l in &v.lame_attacks[them.index()] {
            if let Some((s, _)) = l.screen(ksq as usize, them, &board) {
                if cell_color(self.board[s]) == us && !push(s as isize, &mut n) {
                    return None;
                }
            }
        }
        Some(n)
    }

    /// The legal moves of a generation mode ([`ALL`], [`NOISY`], [`QUIET`]) into `out`.
    pub(crate) fn generate<const MODE: u8>(&self, out: &mut Vec<Move>) {
        if self.variant.has_specials {
            self.generate_with::<MODE, true>(out)
        } else {
            self.generate_with::<MODE, false>(out)
        }
    }

    /// [`generate`](Self::generate), compiled with and without the special rules' loop.
    fn generate_with<const MODE: u8, const SPECIALS: bool>(&self, out: &mut Vec<Move>) {
        out.clear();
        let v = &*self.variant;
        let us = self.side;
        let them = us.opposite();
        let ksq = self.king[us.index()] as usize;
        let in_check = self.checked;
        // Enemy hoppers (and the like): a move can give them a screen, so every move is tested.
        let unsafe_lines = v.special_attackers[them.index()] != 0;
        let mut blocks = [0u16; MAX_BLOCKS];
        let evasion_targets = if in_check && !unsafe_lines {
            self.check_blocks(ksq, them, &mut blocks)
                .map(|n| &blocks[..n])
        } else {
            None
        };
        let mut pins = [0u16; MAX_PINS];
        let (all_slow, npins) = if in_check || unsafe_lines {
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
            let mover = Mover {
                from,
                kind,
                start: out.len(),
                dedup: v.dedup[kind as usize],
                slow,
                only,
                ksq,
            };
            // Whether a move to an empty square can be wanted: in noisy mode only a promoting
            // piece's (promotion).
            let empties = MODE != NOISY || v.promotes(kind);
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
                        let flag = if st.ep_create && c == EMPTY {
                            DOUBLE
                        } else {
                            NORMAL
                        };
                        self.push::<MODE>(out, &mover, to, c, flag);
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
                        self.push::<MODE>(out, &mover, to as usize, c, NORMAL);
                    }
                }
                if MODE != QUIET
                    && c != EMPTY
                    && c != OFF
                    && cell_color(c) == them
                    && st.can_capture
                {
                    self.push::<MODE>(out, &mover, to as usize, c, NORMAL);
                }
            }
            if SPECIALS {
                for sp in &v.specials[us.index()][kind as usize] {
                    self.gen_special::<MODE>(out, &mover, empties, sp);
                }
            }
        }
        if MODE != NOISY && !in_check && self.rights >> (2 * us.index()) & 3 != 0 {
            self.gen_castling(out);
        }
        if MODE != NOISY && v.drops {
            self.gen_drops(out, evasion_targets, unsafe_lines);
        }
    }

    /// The moves of one special rule of the piece on `from`.
    fn gen_special<const MODE: u8>(
        &self,
        out: &mut Vec<Move>,
        mover: &Mover,
        empties: bool,
        sp: &Special,
    ) {
        let (from, kind) = (mover.from, mover.kind);
        let v = &*self.variant;
        let us = self.side;
        let them = us.opposite();
        if sp.initial && v.start_mask[us.index()][from] >> kind & 1 == 0 {
            return;
        }
        let board = &self.board;
        let enemy = |c: u8| c != EMPTY && c != OFF && cell_color(c) == them;
        let f = from as isize;
        let emit = |out: &mut Vec<Move>, to: isize, c: u8, flag: u8| {
            self.push::<MODE>(out, mover, to as usize, c, flag);
        };
        match sp.style {
            Style::Plain | Style::Ski | Style::Jump => {
                if sp.lame_len > 0 {
                    let ok = (0..sp.lame_len as usize).all(|i| {
                        let c = board[(f + sp.lame[i]) as usize];
                        if sp.style == Style::Jump {
                            c != EMPTY && c != OFF
                        } else {
                            c == EMPTY
                        }
                    });
                    if !ok {
                        return;
                    }
                    let to = f + sp.delta;
                    let c = board[to as usize];
                    if c == EMPTY {
                        if sp.can_move && empties {
                            let flag = if sp.ep_create { DOUBLE } else { NORMAL };
                            emit(out, to, c, flag);
                        }
                        if sp.can_ep && MODE != QUIET && self.ep.contains(to as usize) {
                            self.push_ep(out, from, to as usize);
                        }
                    } else if MODE != QUIET && enemy(c) && sp.can_capture {
                        emit(out, to, c, NORMAL);
                    }
                    return;
                }
                let (mut to, mut k) = (f, 0u8);
                if sp.style == Style::Ski {
                    to += sp.delta;
                    k = 1;
                }
                let mut c = EMPTY;
                while k < sp.range {
                    k += 1;
                    to += sp.delta;
                    c = board[to as usize];
                    if c != EMPTY {
                        break;
                    }
                    if sp.can_move && empties {
                        emit(out, to, c, NORMAL);
                    }
                    if sp.can_ep && MODE != QUIET && self.ep.contains(to as usize) {
                        self.push_ep(out, from, to as usize);
                    }
                }
                if MODE != QUIET && enemy(c) && sp.can_capture {
                    emit(out, to, c, NORMAL);
                }
            }
            Style::Hop | Style::Grasshop => {
                let mut t = f + sp.delta;
                while board[t as usize] == EMPTY {
                    t += sp.delta;
                }
                if board[t as usize] == OFF {
                    return;
                }
                t += sp.delta;
                loop {
                    let c = board[t as usize];
                    if c == EMPTY {
                        if sp.can_move && empties {
                            emit(out, t, c, NORMAL);
                        }
                    } else {
                        if MODE != QUIET && enemy(c) && sp.can_capture {
                            emit(out, t, c, NORMAL);
                        }
                        break;
                    }
                    if sp.style == Style::Grasshop {
                        break;
                    }
                    t += sp.delta;
                }
            }
            Style::Castle => {}
        }
    }

    /// Adds an en passant capture from `from` to the empty square `to`, capturing the piece that
    /// passed it, after the full king-safety test.
    fn push_ep(&self, out: &mut Vec<Move>, from: usize, to: usize) {
        let v = &*self.variant;
        let us = self.side;
        let victim = self.ep.victim as usize;
        let mover = self.board[from];
        let kind = cell_kind(mover);
        if v.promotes(kind) && v.promo_dist[us.index()][to] != NONE {
            return;
        }
        if out
            .iter()
            .any(|m| m.flag == EN_PASSANT && m.from == from as u16 && m.to == to as u16)
        {
            return;
        }
        let ksq = self.king[us.index()] as usize;
        let king_to = if from == ksq { to } else { ksq };
        let changes = [(to, mover), (from, EMPTY), (victim, EMPTY)];
        if self.attacked_view(king_to, us.opposite(), &changes) {
            return;
        }
        out.push(Move {
            from: from as u16,
            to: to as u16,
            promo: 0,
            flag: EN_PASSANT,
        });
    }

    /// Castling moves of the side to move (not in check): with the partner nearest to the corner,
    /// every square between them empty, the royal piece's path and target not attacked.
    fn gen_castling(&self, out: &mut Vec<Move>) {
        let v = &*self.variant;
        let us = self.side.index();
        let them = self.side.opposite();
        let board = &self.board;
        let k = self.king[us] as isize;
        for cs in &v.castles[us] {
            if self.rights >> (2 * us + cs.side) & 1 == 0 {
                continue;
            }
            let ps = self.castle_sq[us][cs.side] as isize;
            let dir = cs.dir;
            if (ps - k) * dir < cs.dist as isize {
                continue;
            }
            let mut t = k + dir;
            while t != ps && board[t as usize] == EMPTY {
                t += dir;
            }
            if t != ps {
                continue;
            }
            let mut u = ps + dir;
            while board[u as usize] == EMPTY {
                u += dir;
            }
            if board[u as usize] != OFF {
                continue;
            }
            let kt = k + cs.dist as isize * dir;
            let pt = kt - dir;
            if (1..cs.dist as isize).any(|i| self.attacked((k + i * dir) as usize, them)) {
                continue;
            }
            let (kc, pc) = (board[k as usize], board[ps as usize]);
            let changes = [
                (kt as usize, kc),
                (pt as usize, pc),
                (k as usize, EMPTY),
                (ps as usize, EMPTY),
            ];
            if self.attacked_view(kt as usize, them, &changes) {
                continue;
            }
            out.push(Move {
                from: k as u16,
                to: kt as u16,
                promo: 0,
                flag: CASTLE,
            });
        }
    }

    /// Drops of the side to move: every kind in hand onto every empty square it may be dropped on;
    /// in check only where the drop blocks it.
    fn gen_drops(&self, out: &mut Vec<Move>, blocks: Option<&[u16]>, unsafe_lines: bool) {
        let v = &*self.variant;
        let us = self.side;
        let ksq = self.king[us.index()] as usize;
        let test = unsafe_lines || (self.checked && blocks.is_none());
        for kind in 0..v.pieces().len() as u8 {
            if self.hand[us.index()][kind as usize] == 0 {
                continue;
            }
            let c = cell(kind, us);
            for &sq in &v.playable {
                let sq = sq as usize;
                if self.board[sq] != EMPTY || v.drop_ok[us.index()][sq] >> kind & 1 == 0 {
                    continue;
                }
                if self.checked {
                    if let Some(b) = blocks {
                        if !b.contains(&(sq as u16)) {
                            continue;
                        }
                    }
                }
                if test && self.attacked_view(ksq, us.opposite(), &[(sq, c)]) {
                    continue;
                }
                out.push(Move {
                    from: kind as u16,
                    to: sq as u16,
                    promo: 0,
                    flag: DROP,
                });
            }
        }
    }

    /// Adds the move(s) from `from` to `to` (all promotion choices), after the checks it needs.
    #[inline(always)]
    fn push<const MODE: u8>(
        &self,
        out: &mut Vec<Move>,
        mover: &Mover,
        to: usize,
        target: u8,
        flag: u8,
    ) {
        let Mover {
            from,
            kind,
            start,
            dedup,
            slow,
            only,
            ksq,
        } = *mover;
        let v = &*self.variant;
        let us = self.side;
        let dist = if v.promotes(kind) {
            let d = v.promo_dist[us.index()][to];
            if d == NONE && v.promote_leaving_zone {
                v.promo_dist[us.index()][from]
            } else {
                d
            }
        } else {
            NONE
        };
        if MODE == NOISY && target == EMPTY && dist == NONE {
            return;
        }
        let plain = Move {
            from: from as u16,
            to: to as u16,
            promo: 0,
            flag,
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
        if dist == NONE {
            out.push(plain);
        } else {
            self.push_promotions::<MODE>(out, plain, kind, dist, target);
        }
    }

    /// The moves of a promoting piece landing `dist` ranks from the far end: staying unpromoted
    /// where the rules allow it and the piece could still move, then every allowed promotion.
    #[inline(never)]
    fn push_promotions<const MODE: u8>(
        &self,
        out: &mut Vec<Move>,
        plain: Move,
        kind: u8,
        dist: u8,
        target: u8,
    ) {
        let v = &*self.variant;
        let us = self.side.index();
        let movable = v.immobile[us][plain.to as usize] >> kind & 1 == 0;
        let allowed = |r: &super::variant::PromoRule| {
            (r.depth == 0 || dist < r.depth)
                && !(r.not_last && dist == 0)
                && (!r.from_hand || self.hand[us][r.kind as usize] > 0)
        };
        let shogi = v.promo_target[kind as usize];
        let stay = movable
            && (shogi != NONE || v.promo_rules.iter().any(|r| r.kind == kind && allowed(r)));
        if stay && !(MODE == NOISY && target == EMPTY) {
            out.push(plain);
        }
        if MODE == QUIET {
            return;
        }
        if shogi != NONE {
            out.push(Move {
                promo: shogi + 1,
                ..plain
            });
            return;
        }
        for r in &v.promo_rules {
            if r.kind != kind && allowed(r) {
                out.push(Move {
                    promo: r.kind + 1,
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
        match mv.flag {
            EN_PASSANT => true,
            CASTLE | DROP => false,
            _ => self.board[mv.to as usize] != EMPTY,
        }
    }

    /// The kind of the piece a move moves (the dropped kind for a drop).
    pub(crate) fn moving_kind(&self, mv: Move) -> u8 {
        if mv.flag == DROP {
            mv.from as u8
        } else {
            cell_kind(self.board[mv.from as usize])
        }
    }

    /// The kind of the piece a move captures, if any.
    pub(crate) fn captured_kind(&self, mv: Move) -> Option<u8> {
        let sq = match mv.flag {
            EN_PASSANT => self.ep.victim as usize,
            CASTLE | DROP => return None,
            _ => mv.to as usize,
        };
        let c = self.board[sq];
        (c != EMPTY && c != OFF).then(|| cell_kind(c))
    }
}

/// Whether the special rule `sp` of the piece on `p` captures on `sq` (or would, were an enemy
/// piece there), on the board `cell` shows.
fn special_hits<F: Fn(usize) -> u8>(p: usize, sp: &Special, sq: usize, cell: &F) -> bool {
    let (p, sq) = (p as isize, sq as isize);
    match sp.style {
        Style::Plain | Style::Ski => {
            if sp.lame_len > 0 {
                return p + sp.delta == sq
                    && (0..sp.lame_len as usize).all(|i| cell((p + sp.lame[i]) as usize) == EMPTY);
            }
            let (mut t, mut k) = (p, 0u8);
            if sp.style == Style::Ski {
                t += sp.delta;
                k = 1;
            }
            while k < sp.range {
                k += 1;
                t += sp.delta;
                if t == sq {
                    return true;
                }
                if cell(t as usize) != EMPTY {
                    return false;
                }
            }
            false
        }
        Style::Jump => {
            p + sp.delta == sq
                && (0..sp.lame_len as usize).all(|i| {
                    let c = cell((p + sp.lame[i]) as usize);
                    c != EMPTY && c != OFF
                })
        }
        Style::Hop | Style::Grasshop => {
            let mut t = p + sp.delta;
            while cell(t as usize) == EMPTY {
                t += sp.delta;
            }
            if cell(t as usize) == OFF {
                return false;
            }
            t += sp.delta;
            if sp.style == Style::Grasshop {
                return t == sq;
            }
            loop {
                if t == sq {
                    return true;
                }
                if cell(t as usize) != EMPTY {
                    return false;
                }
                t += sp.delta;
            }
        }
        Style::Castle => false,
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

    /// `gives_check` (before the move) agrees with the check flag after playing it, for every
    /// ordinary move without promotion, along random games that prefer checks and captures; in a
    /// variant with special attackers (hoppers) it may miss a check but never invents one.
    #[test]
    fn gives_check_agrees_with_playing_the_move() {
        use super::super::variant::test_variant;
        let variants = [
            (Variant::spider_chess(), true),
            (test_variant("chess"), true),
            (test_variant("moat"), true),
            (test_variant("nightrider-chess"), true),
            (test_variant("grasshopper-chess"), false),
        ];
        let mut rng = ChaCha8Rng::seed_from_u64(29);
        let mut moves = Vec::new();
        for (variant, exact) in &variants {
            let (mut checks, mut found) = (0, 0);
            for _ in 0..4 {
                let mut pos = Position::startpos(variant);
                for _ in 0..120 {
                    pos.generate::<ALL>(&mut moves);
                    if moves.is_empty() {
                        break;
                    }
                    let mut pick = moves[rng.gen_range(0..moves.len())];
                    for &m in &moves {
                        let predicted = pos.gives_check(m);
                        let ordinary = m.flag <= DOUBLE && m.promo == 0;
                        pos.make_move(m);
                        let checked = pos.in_check();
                        let interesting = checked || pos.undo.last().unwrap().captured != EMPTY;
                        pos.unmake_move();
                        assert!(!predicted || checked, "{m:?} in {}", pos.to_fen());
                        if ordinary && *exact {
                            assert_eq!(predicted, checked, "{m:?} in {}", pos.to_fen());
                        }
                        checks += (ordinary && checked) as usize;
                        found += predicted as usize;
                        if interesting && rng.gen_bool(0.3) {
                            pick = m;
                        }
                    }
                    pos.make_move(pick);
                }
            }
            assert!(checks > 0 && found > 0, "some moves gave check");
        }
    }
}
