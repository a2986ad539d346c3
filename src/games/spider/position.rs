//! The position: a padded mailbox board, piece lists per side, Zobrist key, clocks, castling and
//! en passant rights, pieces in hand, and the undo stack that make/unmake use.
//!
//! Variants without castling, en passant or hands (Spider-Chess) take the short make/unmake
//! path; the others the general one, which keeps its extra state on a second undo stack.

use super::definition::Holdings;
use super::square::Color;
use super::variant::{cell, cell_color, cell_kind, Variant, EMPTY, MAX_KINDS, NONE, NO_PAWN, OFF};
use std::sync::Arc;

/// Default number of plies without capture or pawn move after which the game is drawn.
pub const DEFAULT_FIFTY_MOVE_PLIES: u32 = 100;

/// [`Move::flag`]: an ordinary move or capture.
pub(crate) const NORMAL: u8 = 0;
/// [`Move::flag`]: a lame straight leap that leaves en passant rights on the squares it passed.
pub(crate) const DOUBLE: u8 = 1;
/// [`Move::flag`]: an en passant capture (the victim is not on the target square).
pub(crate) const EN_PASSANT: u8 = 2;
/// [`Move::flag`]: castling; `from`/`to` are the royal piece's squares.
pub(crate) const CASTLE: u8 = 3;
/// [`Move::flag`]: a drop from the hand; `from` is the dropped kind.
pub(crate) const DROP: u8 = 4;

/// A move: origin and target squares (mailbox indices of the position's variant), an optional
/// promotion kind and what kind of move it is. Text form via [`Position::move_text`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Move {
    /// Origin square; for a drop, the dropped kind.
    pub(crate) from: u16,
    pub(crate) to: u16,
    /// 0 for no promotion, else promoted kind + 1.
    pub(crate) promo: u8,
    /// [`NORMAL`], [`DOUBLE`], [`EN_PASSANT`], [`CASTLE`] or [`DROP`].
    pub(crate) flag: u8,
}

impl Move {
    /// The promotion kind, if the move promotes.
    pub fn promotion(self) -> Option<u8> {
        self.promo.checked_sub(1)
    }

    /// The kind dropped from the hand, if the move is a drop.
    pub fn drop_kind(self) -> Option<u8> {
        (self.flag == DROP).then_some(self.from as u8)
    }

    /// Whether the move castles.
    pub fn is_castling(self) -> bool {
        self.flag == CASTLE
    }

    /// Whether the move captures en passant.
    pub fn is_en_passant(self) -> bool {
        self.flag == EN_PASSANT
    }
}

/// En passant rights: the squares the last move's piece passed over (`victim`'s lame leap), on
/// which an enemy `e` rule may capture it. `victim == 0`: none.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Ep {
    pub victim: u16,
    pub n: u8,
    pub sq: [u16; 2],
}

impl Ep {
    /// Whether `sq` is an en passant square.
    #[inline]
    pub fn contains(&self, sq: usize) -> bool {
        self.victim != 0 && self.sq[..self.n as usize].contains(&(sq as u16))
    }
}

/// What `unmake` needs to restore.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Undo {
    pub mv: Move,
    pub moved: u8,
    pub captured: u8,
    pub halfmove: u32,
    pub hash: u64,
    pub pawn_hash: u64,
    pub psq: [i32; 2],
    pub checked: bool,
    pub shield: [i16; 2],
    pub near: [i16; 2],
    pub null: bool,
}

/// What the general make path changes beyond [`Undo`].
#[derive(Clone, Copy, Debug)]
pub(crate) struct UndoExtra {
    pub rights: u8,
    pub ep: Ep,
    /// Square of the captured piece (the target, or the en passant victim's square).
    pub capsq: u16,
    /// Castling partner's origin and target.
    pub partner: (u16, u16),
    /// Hand that received the captured piece (`NONE`: none) and the kind it received.
    pub to_hand: (u8, u8),
}

/// A Spider-Chess (or other loaded variant) position with its game history.
#[derive(Clone, Debug)]
pub struct Position {
    pub(crate) variant: Arc<Variant>,
    pub(crate) board: Vec<u8>,
    pub(crate) list: [Vec<u16>; 2],
    pub(crate) list_index: Vec<u16>,
    pub(crate) king: [u16; 2],
    pub(crate) nonroyal: [u16; 2],
    pub(crate) side: Color,
    pub(crate) hash: u64,
    /// Zobrist key of the pawns alone (both sides), kept by make/unmake: the structure key.
    pub(crate) pawn_hash: u64,
    pub(crate) halfmove: u32,
    pub(crate) fullmove: u32,
    pub(crate) undo: Vec<Undo>,
    /// The general path's extra undo records, one per move made on that path.
    pub(crate) extra: Vec<UndoExtra>,
    /// Keys of every position since the root, the current one last.
    pub(crate) keys: Vec<u64>,
    pub(crate) fifty_limit: u32,
    /// Per side: the sum of the evaluation's piece-square entries of its pieces (and the values of
    /// its pieces in hand, where they are dropped), kept by make/unmake.
    pub(crate) psq: [i32; 2],
    /// Whether the side to move's royal piece is attacked; set by setup and make, restored by
    /// unmake, so that the search's repeated check tests and the generator read a flag.
    pub(crate) checked: bool,
    /// Per side: own pieces next to its king (king-safety tally kept by make/unmake).
    pub(crate) shield: [i16; 2],
    /// Per side: enemy non-pawn, non-royal pieces near its king (king-safety tally).
    pub(crate) near: [i16; 2],
    /// Castling rights: bit `2 * color + side` (side 0: towards lower files).
    pub(crate) rights: u8,
    /// Per colour and side: the castling partner's square while the right exists.
    pub(crate) castle_sq: [[u16; 2]; 2],
    /// En passant rights.
    pub(crate) ep: Ep,
    /// Per colour and kind: pieces in hand.
    pub(crate) hand: [[u8; MAX_KINDS]; 2],
}

impl Position {
    /// An empty board of the variant (no pieces), White to move; filled by setup or FEN code.
    pub(crate) fn empty(variant: &Arc<Variant>) -> Position {
        Position {
            variant: variant.clone(),
            board: variant.template.clone(),
            list: [Vec::with_capacity(64), Vec::with_capacity(64)],
            list_index: vec![0; variant.size],
            king: [0; 2],
            nonroyal: [0; 2],
            side: Color::White,
            hash: 0,
            pawn_hash: 0,
            halfmove: 0,
            fullmove: 1,
            undo: Vec::with_capacity(256),
            extra: Vec::new(),
            keys: Vec::with_capacity(256),
            fifty_limit: DEFAULT_FIFTY_MOVE_PLIES,
            psq: [0; 2],
            checked: false,
            shield: [0; 2],
            near: [0; 2],
            rights: 0,
            castle_sq: [[0; 2]; 2],
            ep: Ep::default(),
            hand: [[0; MAX_KINDS]; 2],
        }
    }

    /// The variant's start position.
    pub fn startpos(variant: &Arc<Variant>) -> Position {
        let mut pos = Position::empty(variant);
        for (kind, p) in variant.definition().pieces.iter().enumerate() {
            for (color, squares) in [(Color::White, &p.white), (Color::Black, &p.black)] {
                for &(x, y) in squares {
                    pos.put(variant.index(x, y), kind as u8, color);
                }
                // Where the FEN leaves the hand out, it holds only the kinds a promotion takes
                // from it (as `from_fen` derives it): a count for any other kind is never used.
                let kept = variant.hand_in_fen || variant.promo_hand_kinds >> kind & 1 != 0;
                if p.hand > 0 && variant.has_hands() && kept {
                    pos.set_hand(color, kind as u8, p.hand);
                }
            }
        }
        for c in 0..2 {
            for side in 0..2 {
                if variant.partner_kind[c][side] != NONE {
                    if let Some(p) = pos.corner_piece(c, side) {
                        pos.castle_sq[c][side] = p as u16;
                        pos.rights |= 1 << (2 * c + side);
                    }
                }
            }
        }
        pos.finish_setup();
        pos
    }

    /// Places a piece on an empty square (setup only; updates lists and key).
    pub(crate) fn put(&mut self, sq: usize, kind: u8, color: Color) {
        let c = cell(kind, color);
        self.board[sq] = c;
        self.list_index[sq] = self.list[color.index()].len() as u16;
        self.list[color.index()].push(sq as u16);
        self.hash ^= self.variant.zobrist[c as usize * self.variant.size + sq];
        self.pawn_hash ^= self.pawn_zob(c, sq);
        self.psq[color.index()] +=
            self.variant.pst[color.index()][kind as usize * self.variant.size + sq];
        if kind == self.variant.royal {
            self.king[color.index()] = sq as u16;
        } else {
            self.nonroyal[color.index()] += 1;
        }
    }

    /// Sets a hand count (setup only, before [`finish_setup`](Self::finish_setup)).
    pub(crate) fn set_hand(&mut self, color: Color, kind: u8, count: u8) {
        let c = color.index();
        if self.variant.drops {
            self.psq[c] += (count as i32 - self.hand[c][kind as usize] as i32)
                * self.variant.values[kind as usize];
        }
        self.hand[c][kind as usize] = count;
    }

    /// The own piece nearest to the corner on the royal piece's rank towards `side` (the last piece
    /// before the edge of the board or a hole), if it stands at least the shortest castling
    /// distance away: the castling partner that side.
    pub(crate) fn corner_piece(&self, color: usize, side: usize) -> Option<usize> {
        let v = &*self.variant;
        let dir: isize = if side == 0 { -1 } else { 1 };
        let ksq = self.king[color] as isize;
        let mut t = ksq + dir;
        let mut last = None;
        while self.board[t as usize] != OFF {
            if self.board[t as usize] != EMPTY {
                last = Some(t);
            }
            t += dir;
        }
        let p = last?;
        if cell_color(self.board[p as usize]).index() != color {
            return None;
        }
        let min = v.castles[color]
            .iter()
            .filter(|s| s.side == side)
            .map(|s| s.dist)
            .min()?;
        ((p - ksq).unsigned_abs() >= min as usize).then_some(p as usize)
    }

    /// Completes a setup: side, castling, en passant and hand keys, and the history's first entry.
    pub(crate) fn finish_setup(&mut self) {
        let v = &*self.variant;
        if self.side == Color::Black {
            self.hash ^= v.side_key;
        }
        self.hash ^= v.castle_keys[self.rights as usize];
        if self.ep.victim != 0 {
            self.hash ^= v.ep_keys[self.ep.victim as usize];
        }
        for c in 0..2 {
            for k in 0..MAX_KINDS {
                self.hash ^= v.hand_key(c, k as u8, self.hand[c][k]);
            }
        }
        self.keys.clear();
        self.keys.push(self.hash);
        self.checked = self.compute_in_check();
        self.recount_king_zones();
    }

    /// The variant this position belongs to.
    pub fn variant(&self) -> &Arc<Variant> {
        &self.variant
    }

    /// The side to move.
    pub fn side_to_move(&self) -> Color {
        self.side
    }

    /// Zobrist key of the position (board, side to move, castling and en passant rights, hands).
    pub fn hash(&self) -> u64 {
        self.hash
    }

    /// Plies since the last capture or pawn move.
    pub fn halfmove_clock(&self) -> u32 {
        self.halfmove
    }

    /// Full-move number (starts at 1, grows after Black's move).
    pub fn fullmove_number(&self) -> u32 {
        self.fullmove
    }

    /// The 50-move limit in plies (default 100).
    pub fn fifty_move_limit(&self) -> u32 {
        self.fifty_limit
    }

    /// Sets the 50-move limit in plies (0 disables the rule).
    pub fn set_fifty_move_limit(&mut self, plies: u32) {
        self.fifty_limit = plies;
    }

    /// Number of moves played since this position's root (the FEN or start position).
    pub fn plies_played(&self) -> usize {
        self.undo.len()
    }

    /// The piece on (x, y): kind and colour, or `None` for an empty square or hole.
    pub fn piece_at(&self, x: u8, y: u8) -> Option<(u8, Color)> {
        if x >= self.variant.files() || y >= self.variant.ranks() {
            return None;
        }
        let c = self.board[self.variant.index(x, y)];
        (c != EMPTY && c != OFF).then(|| (cell_kind(c), cell_color(c)))
    }

    /// How many pieces of `kind` `color` has in hand.
    pub fn in_hand(&self, color: Color, kind: u8) -> u8 {
        self.hand[color.index()]
            .get(kind as usize)
            .copied()
            .unwrap_or(0)
    }

    /// Origin and target of a move as 0-based (file, rank) pairs (a drop's origin is its target).
    pub fn move_squares(&self, mv: Move) -> ((u8, u8), (u8, u8)) {
        let to = self.variant.coords(mv.to as usize);
        if mv.flag == DROP {
            return (to, to);
        }
        (self.variant.coords(mv.from as usize), to)
    }

    /// Number of non-royal pieces of a side on the board (0 means its king is bare).
    pub fn non_royal_count(&self, color: Color) -> u32 {
        self.nonroyal[color.index()] as u32
    }

    /// Whether side `c` has a piece other than pawns and its royal piece, on the board or in hand.
    pub(crate) fn has_pieces(&self, c: usize) -> bool {
        let v = &*self.variant;
        self.list[c].iter().any(|&sq| {
            let k = cell_kind(self.board[sq as usize]);
            k != v.pawn && k != v.royal
        }) || self.hand[c].iter().any(|&n| n > 0)
    }

    /// Zobrist key of the pawns of both sides alone (`None` in a variant without pawns): the
    /// structure the search's correction history is kept by.
    #[inline]
    pub(crate) fn pawn_key(&self) -> Option<u64> {
        (self.variant.pawn != NO_PAWN).then_some(self.pawn_hash)
    }

    /// [`pawn_key`](Self::pawn_key) counted afresh from the piece lists.
    #[cfg(test)]
    pub(crate) fn pawn_key_recount(&self) -> Option<u64> {
        let pawn = self.variant.pawn;
        if pawn == NO_PAWN {
            return None;
        }
        let mut key = 0;
        for list in &self.list {
            for &sq in list {
                key ^= self.pawn_zob(self.board[sq as usize], sq as usize);
            }
        }
        Some(key)
    }

    #[inline]
    fn zob(&self, c: u8, sq: usize) -> u64 {
        self.variant.zobrist[c as usize * self.variant.size + sq]
    }

    /// A piece's share of the pawn key: its Zobrist entry if it is a pawn, else nothing.
    #[inline]
    fn pawn_zob(&self, c: u8, sq: usize) -> u64 {
        if cell_kind(c) == self.variant.pawn {
            self.zob(c, sq)
        } else {
            0
        }
    }

    #[inline]
    fn list_remove(&mut self, color: usize, sq: usize) {
        let i = self.list_index[sq] as usize;
        let last = self.list[color].pop().expect("a listed piece");
        if i < self.list[color].len() {
            self.list[color][i] = last;
            self.list_index[last as usize] = i as u16;
        }
    }

    #[inline]
    fn list_add(&mut self, color: usize, sq: usize) {
        self.list_index[sq] = self.list[color].len() as u16;
        self.list[color].push(sq as u16);
    }

    /// Moves two pieces of `color` at once, `a.0` to `a.1` and `b.0` to `b.1` (castling's royal
    /// piece and partner, either way), keeping the piece list; every square is read before any is
    /// written, so the two may pass each other. Returns the two pieces moved.
    fn move_pair(&mut self, color: usize, a: (usize, usize), b: (usize, usize)) -> (u8, u8) {
        let (ac, bc) = (self.board[a.0], self.board[b.0]);
        let (ia, ib) = (self.list_index[a.0], self.list_index[b.0]);
        self.board[a.0] = EMPTY;
        self.board[b.0] = EMPTY;
        self.board[a.1] = ac;
        self.board[b.1] = bc;
        self.list[color][ia as usize] = a.1 as u16;
        self.list_index[a.1] = ia;
        self.list[color][ib as usize] = b.1 as u16;
        self.list_index[b.1] = ib;
        (ac, bc)
    }

    /// Plays a move known to be legal (from the generator). Use [`Position::play`] for text input.
    pub fn make_move(&mut self, mv: Move) {
        if !self.variant.plain {
            self.make_general(mv);
            return;
        }
        let (from, to) = (mv.from as usize, mv.to as usize);
        let moved = self.board[from];
        let captured = self.board[to];
        self.undo.push(Undo {
            mv,
            moved,
            captured,
            halfmove: self.halfmove,
            hash: self.hash,
            pawn_hash: self.pawn_hash,
            psq: self.psq,
            checked: self.checked,
            shield: self.shield,
            near: self.near,
            null: false,
        });
        let us = self.side.index();
        let kind = cell_kind(moved);
        let v = &*self.variant;
        let size = v.size;
        if captured != EMPTY {
            self.psq[1 - us] -= v.pst[1 - us][cell_kind(captured) as usize * size + to];
            self.list_remove(1 - us, to);
            self.nonroyal[1 - us] -= 1;
            self.hash ^= self.zob(captured, to);
            self.pawn_hash ^= self.pawn_zob(captured, to);
        }
        let placed = match mv.promo {
            0 => moved,
            p => cell(p - 1, self.side),
        };
        let v = &*self.variant;
        self.psq[us] += v.pst[us][cell_kind(placed) as usize * size + to]
            - v.pst[us][kind as usize * size + from];
        self.board[from] = EMPTY;
        self.board[to] = placed;
        let i = self.list_index[from];
        self.list[us][i as usize] = to as u16;
        self.list_index[to] = i;
        self.hash ^= self.zob(moved, from) ^ self.zob(placed, to);
        self.pawn_hash ^= self.pawn_zob(moved, from) ^ self.pawn_zob(placed, to);
        if kind == self.variant.royal {
            self.king[us] = to as u16;
        }
        self.halfmove = if captured != EMPTY || self.variant.promotes(kind) {
            0
        } else {
            self.halfmove + 1
        };
        if self.side == Color::Black {
            self.fullmove += 1;
        }
        self.side = self.side.opposite();
        self.hash ^= self.variant.side_key;
        self.keys.push(self.hash);
        self.update_king_zones(us, from, to, moved, placed, captured);
        self.checked = self.check_after_move(from, to);
    }

    /// Takes back the last move made with [`Position::make_move`]; does nothing at the root.
    pub fn unmake_move(&mut self) {
        let Some(u) = self.undo.pop() else { return };
        self.keys.pop();
        self.side = self.side.opposite();
        if self.side == Color::Black {
            self.fullmove -= 1;
        }
        self.halfmove = u.halfmove;
        self.hash = u.hash;
        self.pawn_hash = u.pawn_hash;
        self.psq = u.psq;
        self.checked = u.checked;
        self.shield = u.shield;
        self.near = u.near;
        if !self.variant.plain {
            self.unmake_general(u);
            return;
        }
        if u.null {
            return;
        }
        let us = self.side.index();
        let (from, to) = (u.mv.from as usize, u.mv.to as usize);
        self.board[from] = u.moved;
        self.board[to] = u.captured;
        let i = self.list_index[to];
        self.list[us][i as usize] = from as u16;
        self.list_index[from] = i;
        if cell_kind(u.moved) == self.variant.royal {
            self.king[us] = from as u16;
        }
        if u.captured != EMPTY {
            self.list_add(1 - us, to);
            self.nonroyal[1 - us] += 1;
        }
    }

    /// Changes a hand count, keeping the key (and, where hand pieces are dropped, the material).
    #[inline]
    fn add_to_hand(&mut self, color: usize, kind: u8, delta: i8) {
        let v = &*self.variant;
        let k = kind as usize;
        let old = self.hand[color][k];
        let new = (old as i16 + delta as i16) as u8;
        self.hash ^= v.hand_key(color, kind, old) ^ v.hand_key(color, kind, new);
        if v.drops {
            self.psq[color] += delta as i32 * v.values[k];
        }
        self.hand[color][k] = new;
    }

    /// Sets new castling rights, keeping the key.
    #[inline]
    fn set_rights(&mut self, rights: u8) {
        let v = &*self.variant;
        self.hash ^= v.castle_keys[self.rights as usize] ^ v.castle_keys[rights as usize];
        self.rights = rights;
    }

    /// The en passant rights a [`DOUBLE`] move from `from` to `to` leaves: the squares it passed
    /// over, if an enemy `e` rule could capture on one of them.
    fn ep_after_double(&self, from: usize, to: usize) -> Ep {
        let v = &*self.variant;
        let (fx, fy) = v.coords(from);
        let (tx, ty) = v.coords(to);
        let (dx, dy) = (tx as isize - fx as isize, ty as isize - fy as isize);
        let n = dx.abs().max(dy.abs());
        let unit = (dy / n) * v.stride as isize + dx / n;
        let mut ep = Ep {
            victim: to as u16,
            n: (n - 1).min(2) as u8,
            sq: [0; 2],
        };
        for k in 0..ep.n as isize {
            ep.sq[k as usize] = (from as isize + (k + 1) * unit) as u16;
        }
        let them = self.side.opposite();
        let capturable = ep.sq[..ep.n as usize].iter().any(|&s| {
            v.ep_attacks[them.index()].iter().any(|&(delta, kinds)| {
                let c = self.board[(s as isize - delta) as usize];
                c != EMPTY && c != OFF && cell_color(c) == them && kinds >> cell_kind(c) & 1 != 0
            })
        });
        if capturable {
            ep
        } else {
            Ep::default()
        }
    }

    /// Make for variants with castling, en passant or hands.
    fn make_general(&mut self, mv: Move) {
        let v = Arc::clone(&self.variant);
        let size = v.size;
        let us = self.side.index();
        let them = 1 - us;
        let (from, to) = (mv.from as usize, mv.to as usize);
        let mut extra = UndoExtra {
            rights: self.rights,
            ep: self.ep,
            capsq: to as u16,
            partner: (0, 0),
            to_hand: (NONE, 0),
        };
        let mut undo = Undo {
            mv,
            moved: EMPTY,
            captured: EMPTY,
            halfmove: self.halfmove,
            hash: self.hash,
            pawn_hash: self.pawn_hash,
            psq: self.psq,
            checked: self.checked,
            shield: self.shield,
            near: self.near,
            null: false,
        };
        if self.ep.victim != 0 {
            self.hash ^= v.ep_keys[self.ep.victim as usize];
            self.ep = Ep::default();
        }
        let mut reset = false;
        match mv.flag {
            DROP => {
                let kind = mv.from as u8;
                let c = cell(kind, self.side);
                self.add_to_hand(us, kind, -1);
                self.psq[us] += v.pst[us][kind as usize * size + to];
                self.board[to] = c;
                self.list_add(us, to);
                self.nonroyal[us] += 1;
                self.hash ^= self.zob(c, to);
                self.pawn_hash ^= self.pawn_zob(c, to);
                undo.moved = c;
                reset = v.promotes(kind);
            }
            CASTLE => {
                let dir: isize = if to > from { 1 } else { -1 };
                let mut ps = from as isize + dir;
                while self.board[ps as usize] == EMPTY {
                    ps += dir;
                }
                let (ps, pt) = (ps as usize, (to as isize - dir) as usize);
                let (kc, pc) = self.move_pair(us, (from, to), (ps, pt));
                self.hash ^=
                    self.zob(kc, from) ^ self.zob(kc, to) ^ self.zob(pc, ps) ^ self.zob(pc, pt);
                self.pawn_hash ^= self.pawn_zob(kc, from)
                    ^ self.pawn_zob(kc, to)
                    ^ self.pawn_zob(pc, ps)
                    ^ self.pawn_zob(pc, pt);
                let (kk, pk) = (cell_kind(kc) as usize, cell_kind(pc) as usize);
                self.psq[us] += v.pst[us][pk * size + pt] - v.pst[us][pk * size + ps]
                    + v.pst[us][kk * size + to]
                    - v.pst[us][kk * size + from];
                self.king[us] = to as u16;
                undo.moved = kc;
                extra.partner = (ps as u16, pt as u16);
                self.set_rights(self.rights & !(3 << (2 * us)));
            }
            _ => {
                let capsq = if mv.flag == EN_PASSANT {
                    extra.ep.victim as usize
                } else {
                    to
                };
                extra.capsq = capsq as u16;
                let moved = self.board[from];
                let captured = self.board[capsq];
                let kind = cell_kind(moved);
                undo.moved = moved;
                undo.captured = captured;
                if captured != EMPTY {
                    let ck = cell_kind(captured);
                    self.psq[them] -= v.pst[them][ck as usize * size + capsq];
                    self.list_remove(them, capsq);
                    self.nonroyal[them] -= 1;
                    self.hash ^= self.zob(captured, capsq);
                    self.pawn_hash ^= self.pawn_zob(captured, capsq);
                    self.board[capsq] = EMPTY;
                    let hand = match v.holdings {
                        Holdings::None => None,
                        Holdings::Owner => Some(them),
                        Holdings::Capturer => Some(us),
                    };
                    if let Some(h) = hand {
                        let dk = v.demote[ck as usize];
                        self.add_to_hand(h, dk, 1);
                        extra.to_hand = (h as u8, dk);
                    }
                }
                let placed = match mv.promo {
                    0 => moved,
                    p => {
                        if v.promo_hand_kinds >> (p - 1) & 1 != 0 {
                            self.add_to_hand(us, p - 1, -1);
                        }
                        cell(p - 1, self.side)
                    }
                };
                self.psq[us] += v.pst[us][cell_kind(placed) as usize * size + to]
                    - v.pst[us][kind as usize * size + from];
                self.board[from] = EMPTY;
                self.board[to] = placed;
                let i = self.list_index[from];
                self.list[us][i as usize] = to as u16;
                self.list_index[to] = i;
                self.hash ^= self.zob(moved, from) ^ self.zob(placed, to);
                self.pawn_hash ^= self.pawn_zob(moved, from) ^ self.pawn_zob(placed, to);
                if kind == v.royal {
                    self.king[us] = to as u16;
                }
                if self.rights != 0 {
                    let mut rights = self.rights;
                    if kind == v.royal {
                        rights &= !(3 << (2 * us));
                    }
                    for c in 0..2 {
                        for side in 0..2 {
                            let sq = self.castle_sq[c][side] as usize;
                            if rights >> (2 * c + side) & 1 != 0 && (sq == from || sq == capsq) {
                                rights &= !(1 << (2 * c + side));
                            }
                        }
                    }
                    if rights != self.rights {
                        self.set_rights(rights);
                    }
                }
                if mv.flag == DOUBLE {
                    let ep = self.ep_after_double(from, to);
                    if ep.victim != 0 {
                        self.hash ^= v.ep_keys[ep.victim as usize];
                        self.ep = ep;
                    }
                }
                reset = captured != EMPTY || v.promotes(kind);
            }
        }
        self.halfmove = if reset { 0 } else { self.halfmove + 1 };
        if self.side == Color::Black {
            self.fullmove += 1;
        }
        self.side = self.side.opposite();
        self.hash ^= v.side_key;
        self.keys.push(self.hash);
        let simple = mv.flag == NORMAL || mv.flag == DOUBLE;
        if simple {
            self.update_king_zones(us, from, to, undo.moved, self.board[to], undo.captured);
        } else {
            self.recount_king_zones();
        }
        self.undo.push(undo);
        self.extra.push(extra);
        self.checked = if simple && v.special_attackers[us] == 0 {
            self.check_after_move(from, to)
        } else {
            self.compute_in_check()
        };
    }

    /// Unmake for variants with castling, en passant or hands (the clocks, key and tallies are
    /// already restored from `u`).
    fn unmake_general(&mut self, u: Undo) {
        let x = self.extra.pop().expect("an extra record per general move");
        self.rights = x.rights;
        self.ep = x.ep;
        if u.null {
            return;
        }
        let us = self.side.index();
        let them = 1 - us;
        let (from, to) = (u.mv.from as usize, u.mv.to as usize);
        match u.mv.flag {
            DROP => {
                self.board[to] = EMPTY;
                self.list_remove(us, to);
                self.nonroyal[us] -= 1;
                self.hand[us][u.mv.from as usize] += 1;
            }
            CASTLE => {
                let (ps, pt) = (x.partner.0 as usize, x.partner.1 as usize);
                self.move_pair(us, (to, from), (pt, ps));
                self.king[us] = from as u16;
            }
            _ => {
                self.board[to] = EMPTY;
                self.board[from] = u.moved;
                let i = self.list_index[to];
                self.list[us][i as usize] = from as u16;
                self.list_index[from] = i;
                if cell_kind(u.moved) == self.variant.royal {
                    self.king[us] = from as u16;
                }
                if let Some(p) = u.mv.promotion() {
                    if self.variant.promo_hand_kinds >> p & 1 != 0 {
                        self.hand[us][p as usize] += 1;
                    }
                }
                if u.captured != EMPTY {
                    let capsq = x.capsq as usize;
                    self.board[capsq] = u.captured;
                    self.list_add(them, capsq);
                    self.nonroyal[them] += 1;
                    if x.to_hand.0 != NONE {
                        self.hand[x.to_hand.0 as usize][x.to_hand.1 as usize] -= 1;
                    }
                }
            }
        }
    }

    /// Passes the turn (null move for the search).
    pub(crate) fn make_null_move(&mut self) {
        self.undo.push(Undo {
            mv: Move {
                from: 0,
                to: 0,
                promo: 0,
                flag: NORMAL,
            },
            moved: EMPTY,
            captured: EMPTY,
            halfmove: self.halfmove,
            hash: self.hash,
            pawn_hash: self.pawn_hash,
            psq: self.psq,
            checked: self.checked,
            shield: self.shield,
            near: self.near,
            null: true,
        });
        if !self.variant.plain {
            self.extra.push(UndoExtra {
                rights: self.rights,
                ep: self.ep,
                capsq: 0,
                partner: (0, 0),
                to_hand: (NONE, 0),
            });
            if self.ep.victim != 0 {
                self.hash ^= self.variant.ep_keys[self.ep.victim as usize];
                self.ep = Ep::default();
            }
        }
        self.halfmove += 1;
        if self.side == Color::Black {
            self.fullmove += 1;
        }
        self.side = self.side.opposite();
        self.hash ^= self.variant.side_key;
        self.keys.push(self.hash);
        self.checked = self.compute_in_check();
    }

    /// Whether the current position occurred before with the same side to move, counting back only
    /// through reversible moves; returns the number of earlier occurrences.
    pub fn repetitions(&self) -> usize {
        let n = self.keys.len();
        let window = (self.halfmove as usize).min(n - 1);
        let mut count = 0;
        let mut back = 2;
        while back <= window {
            if self.keys[n - 1 - back] == self.hash {
                count += 1;
            }
            back += 2;
        }
        count
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::spider::variant::test_variant;
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    #[test]
    fn the_pawn_key_kept_by_make_and_unmake_is_the_one_counted_afresh() {
        // Random games through captures, promotions, drops, castling and en passant: after every
        // make and every unmake the kept key equals a recount of the pawns.
        for name in [
            "chess",
            "crazyhouse",
            "capablanca",
            "grand",
            "spider-chess",
            "moat",
        ] {
            let v = test_variant(name);
            for game in 0..6u64 {
                let mut pos = Position::startpos(&v);
                let mut rng = ChaCha8Rng::seed_from_u64(game + 1);
                let mut played = 0;
                for _ in 0..160 {
                    let moves = pos.legal_moves();
                    if moves.is_empty() {
                        break;
                    }
                    pos.make_move(moves[rng.gen_range(0..moves.len())]);
                    played += 1;
                    assert_eq!(pos.pawn_key(), pos.pawn_key_recount(), "{name} game {game}");
                }
                for _ in 0..played {
                    pos.unmake_move();
                    assert_eq!(pos.pawn_key(), pos.pawn_key_recount(), "{name} game {game}");
                }
                assert_eq!(pos.pawn_key(), Position::startpos(&v).pawn_key());
            }
        }
    }
}
