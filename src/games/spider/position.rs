//! The position: a padded mailbox board, piece lists per side, Zobrist key, clocks and the undo
//! stack that make/unmake use.

use super::square::Color;
use super::variant::{cell, cell_color, cell_kind, Variant, EMPTY};
use std::sync::Arc;

/// Default number of plies without capture or pawn move after which the game is drawn.
pub const DEFAULT_FIFTY_MOVE_PLIES: u32 = 100;

/// A move: origin and target squares (mailbox indices of the position's variant) and an optional
/// promotion kind. Text form via [`Position::move_text`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Move {
    pub(crate) from: u16,
    pub(crate) to: u16,
    /// 0 for no promotion, else promoted kind + 1.
    pub(crate) promo: u8,
}

impl Move {
    /// The promotion kind, if the move promotes.
    pub fn promotion(self) -> Option<u8> {
        self.promo.checked_sub(1)
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
    pub psq: [i32; 2],
    pub checked: bool,
    pub shield: [i16; 2],
    pub near: [i16; 2],
    pub null: bool,
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
    pub(crate) halfmove: u32,
    pub(crate) fullmove: u32,
    pub(crate) undo: Vec<Undo>,
    /// Keys of every position since the root, the current one last.
    pub(crate) keys: Vec<u64>,
    pub(crate) fifty_limit: u32,
    /// Per side: the sum of the evaluation's piece-square entries of its pieces, kept by make/unmake.
    pub(crate) psq: [i32; 2],
    /// Whether the side to move's royal piece is attacked; set by setup and make, restored by
    /// unmake, so that the search's repeated check tests and the generator read a flag.
    pub(crate) checked: bool,
    /// Per side: own pieces next to its king (king-safety tally kept by make/unmake).
    pub(crate) shield: [i16; 2],
    /// Per side: enemy non-pawn, non-royal pieces near its king (king-safety tally).
    pub(crate) near: [i16; 2],
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
            halfmove: 0,
            fullmove: 1,
            undo: Vec::with_capacity(256),
            keys: Vec::with_capacity(256),
            fifty_limit: DEFAULT_FIFTY_MOVE_PLIES,
            psq: [0; 2],
            checked: false,
            shield: [0; 2],
            near: [0; 2],
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
        self.psq[color.index()] +=
            self.variant.pst[color.index()][kind as usize * self.variant.size + sq];
        if kind == self.variant.royal {
            self.king[color.index()] = sq as u16;
        } else {
            self.nonroyal[color.index()] += 1;
        }
    }

    /// Completes a setup: side key and the history's first entry.
    pub(crate) fn finish_setup(&mut self) {
        if self.side == Color::Black {
            self.hash ^= self.variant.side_key;
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

    /// Zobrist key of the position (board and side to move).
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
        (c != EMPTY && c != super::variant::OFF).then(|| (cell_kind(c), cell_color(c)))
    }

    /// Origin and target of a move as 0-based (file, rank) pairs.
    pub fn move_squares(&self, mv: Move) -> ((u8, u8), (u8, u8)) {
        (
            self.variant.coords(mv.from as usize),
            self.variant.coords(mv.to as usize),
        )
    }

    /// Number of non-royal pieces of a side (0 means its king is bare).
    pub fn non_royal_count(&self, color: Color) -> u32 {
        self.nonroyal[color.index()] as u32
    }

    #[inline]
    fn zob(&self, c: u8, sq: usize) -> u64 {
        self.variant.zobrist[c as usize * self.variant.size + sq]
    }

    #[inline]
    fn list_remove(&mut self, color: usize, sq: usize) {
        let i = self.list_index[sq] as usize;
        let last = self.list[color].pop().unwrap();
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

    /// Plays a move known to be legal (from the generator). Use [`Position::play`] for text input.
    pub fn make_move(&mut self, mv: Move) {
        let (from, to) = (mv.from as usize, mv.to as usize);
        let moved = self.board[from];
        let captured = self.board[to];
        self.undo.push(Undo {
            mv,
            moved,
            captured,
            halfmove: self.halfmove,
            hash: self.hash,
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
        if kind == self.variant.royal {
            self.king[us] = to as u16;
        }
        self.halfmove = if captured != EMPTY || kind == self.variant.pawn {
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
        self.psq = u.psq;
        self.checked = u.checked;
        self.shield = u.shield;
        self.near = u.near;
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

    /// Passes the turn (null move for the search).
    pub(crate) fn make_null_move(&mut self) {
        self.undo.push(Undo {
            mv: Move {
                from: 0,
                to: 0,
                promo: 0,
            },
            moved: EMPTY,
            captured: EMPTY,
            halfmove: self.halfmove,
            hash: self.hash,
            psq: self.psq,
            checked: self.checked,
            shield: self.shield,
            near: self.near,
            null: true,
        });
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
