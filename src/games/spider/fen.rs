//! FEN in the rule book's format: ranks from the last down to 1 separated by `/`, one- or two-digit
//! counts of empty playable squares, `*` for holes, then side to move, castling rights, en passant
//! square(s), halfmove clock and fullmove number.
//!
//! For variants with castling the castling field is `KQkq` style (`K`: with the partner towards the
//! higher files); Shredder-style file letters are read too. The en passant field names the square(s)
//! the last move passed over, written only when an enemy piece could capture there (as other
//! engines do). Where pieces in hand are dropped (or taken for promotion from captured enemy pieces)
//! the hand follows the board in brackets, `[Pn]` (white uppercase); where the hand only holds a
//! side's own lost pieces for promotion (Grand Chess) it follows from the board and is not written.
//! A `~` after a piece letter (other engines' "promoted" mark) is read and ignored.

use super::position::{Ep, Position};
use super::square::{file_index, parse_square, square_name, Color};
use super::variant::{cell_color, cell_kind, Variant, EMPTY, MAX_KINDS, OFF};
use std::fmt;
use std::sync::Arc;

/// Why a FEN was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FenError(pub String);

impl fmt::Display for FenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "bad FEN: {}", self.0)
    }
}

impl std::error::Error for FenError {}

fn err<T>(msg: impl Into<String>) -> Result<T, FenError> {
    Err(FenError(msg.into()))
}

impl Position {
    /// Reads a FEN; refuses wrong rank or file counts, pieces on holes, `*` on playable squares,
    /// unknown letters, missing or extra kings, promoting pieces where they could never move,
    /// castling rights without their pieces, en passant squares no piece passed, and positions
    /// where the side not to move is in check.
    pub fn from_fen(variant: &Arc<Variant>, fen: &str) -> Result<Position, FenError> {
        let fields: Vec<&str> = fen.split_whitespace().collect();
        if fields.len() < 2 {
            return err("expected at least the board and the side to move");
        }
        if fields.len() > 6 {
            return err(format!("too many fields ({})", fields.len()));
        }
        let (board_text, hand_text) = match fields[0].split_once('[') {
            None => (fields[0], None),
            Some((b, h)) => match h.strip_suffix(']') {
                Some(h) if !h.contains(['[', ']']) => (b, Some(h)),
                _ => return err(format!("hand '[{h}' must end with ']'")),
            },
        };
        let (files, ranks) = (variant.files(), variant.ranks());
        let rows: Vec<&str> = board_text.split('/').collect();
        if rows.len() != ranks as usize {
            return err(format!("{} ranks given, the board has {ranks}", rows.len()));
        }
        let mut pos = Position::empty(variant);
        let mut kings = [0u32; 2];
        for (i, row) in rows.iter().enumerate() {
            let y = ranks - 1 - i as u8;
            let mut x: u32 = 0;
            let chars: Vec<char> = row.chars().collect();
            let mut j = 0;
            while j < chars.len() {
                let c = chars[j];
                if c.is_ascii_digit() {
                    let mut k = j;
                    while k < chars.len() && chars[k].is_ascii_digit() {
                        k += 1;
                    }
                    let text: String = chars[j..k].iter().collect();
                    let n: u32 = match text.parse() {
                        Ok(n) if n >= 1 && n <= files as u32 && !text.starts_with('0') => n,
                        _ => {
                            return err(format!(
                                "bad empty-square count '{text}' on rank {}",
                                y + 1
                            ))
                        }
                    };
                    for _ in 0..n {
                        if x >= files as u32 {
                            return err(format!("rank {} has more than {files} files", y + 1));
                        }
                        if variant.is_hole(x as u8, y) {
                            return err(format!(
                                "{} is a hole but is counted as an empty square",
                                square_name(x as u8, y)
                            ));
                        }
                        x += 1;
                    }
                    j = k;
                    continue;
                }
                if x >= files as u32 {
                    return err(format!("rank {} has more than {files} files", y + 1));
                }
                let (xs, name) = (x as u8, square_name(x as u8, y));
                if c == '*' {
                    if !variant.is_hole(xs, y) {
                        return err(format!("'*' on {name}, which is not a hole"));
                    }
                } else {
                    let Some(kind) = variant
                        .kind_of_letter(c)
                        .filter(|_| c.is_ascii_alphabetic())
                    else {
                        return err(format!("unknown piece letter '{c}' on {name}"));
                    };
                    if variant.is_hole(xs, y) {
                        return err(format!("piece '{c}' on {name}, which is a hole"));
                    }
                    let color = if c.is_ascii_uppercase() {
                        Color::White
                    } else {
                        Color::Black
                    };
                    let sq = variant.index(xs, y);
                    if variant.promotes(kind)
                        && variant.immobile[color.index()][sq] >> kind & 1 != 0
                    {
                        return err(if variant.promo_dist[color.index()][sq] == 0 {
                            format!("pawn '{c}' on {name}, its last rank")
                        } else {
                            format!("'{c}' on {name}, where it could never move")
                        });
                    }
                    if kind == variant.royal {
                        kings[color.index()] += 1;
                    }
                    pos.put(sq, kind, color);
                    if chars.get(j + 1) == Some(&'~') {
                        j += 1;
                    }
                }
                x += 1;
                j += 1;
            }
            if x != files as u32 {
                return err(format!(
                    "rank {} has {x} files, the board has {files}",
                    y + 1
                ));
            }
        }
        for (color, n) in [("White", kings[0]), ("Black", kings[1])] {
            if n != 1 {
                return err(format!("{color} has {n} kings, needs exactly 1"));
            }
        }
        pos.side = match fields[1] {
            "w" => Color::White,
            "b" => Color::Black,
            s => return err(format!("side to move '{s}' is not w or b")),
        };
        pos.read_hand(hand_text)?;
        if let Some(&f) = fields.get(2) {
            pos.read_castling(f)?;
        }
        if let Some(&f) = fields.get(3) {
            pos.read_en_passant(f)?;
        }
        if let Some(&f) = fields.get(4) {
            pos.halfmove = f
                .parse()
                .map_err(|_| FenError(format!("halfmove clock '{f}' is not a number")))?;
        }
        if let Some(&f) = fields.get(5) {
            pos.fullmove = match f.parse() {
                Ok(n) if n >= 1 => n,
                _ => return err(format!("fullmove number '{f}' is not a positive number")),
            };
        }
        let them = pos.side.opposite();
        if pos.attacked(pos.king[them.index()] as usize, pos.side) {
            return err("the side not to move is in check");
        }
        pos.finish_setup();
        Ok(pos)
    }

    /// The hand from the bracketed part of the board field (or, where the hand follows from the
    /// board, derived from it and checked against what was given).
    fn read_hand(&mut self, text: Option<&str>) -> Result<(), FenError> {
        let v = Arc::clone(&self.variant);
        let mut given = [[0u8; MAX_KINDS]; 2];
        for c in text.unwrap_or("").chars() {
            let Some(kind) = v.kind_of_letter(c).filter(|_| c.is_ascii_alphabetic()) else {
                return err(format!("unknown piece letter '{c}' in the hand"));
            };
            if kind == v.royal {
                return err(format!("the royal piece '{c}' cannot be in hand"));
            }
            let color = if c.is_ascii_uppercase() { 0 } else { 1 };
            let n = &mut given[color][kind as usize];
            *n = n
                .checked_add(1)
                .ok_or_else(|| FenError("too many pieces in hand".into()))?;
        }
        if !v.has_hands() {
            if given.iter().flatten().any(|&n| n > 0) {
                return err("this game has no pieces in hand");
            }
            return Ok(());
        }
        if v.hand_in_fen {
            for (c, color) in [Color::White, Color::Black].into_iter().enumerate() {
                for (k, &n) in given[c].iter().enumerate().take(v.pieces().len()) {
                    self.set_hand(color, k as u8, n);
                }
            }
            return Ok(());
        }
        // The hand holds each side's own lost pieces: what is missing from the board.
        let mut counts = [[0u8; MAX_KINDS]; 2];
        for (c, list) in self.list.iter().enumerate() {
            for &sq in list {
                let k = cell_kind(self.board[sq as usize]) as usize;
                counts[c][k] = counts[c][k].saturating_add(1);
            }
        }
        for (c, color) in [Color::White, Color::Black].into_iter().enumerate() {
            for k in 0..v.pieces().len() {
                let derived = if v.promo_hand_kinds >> k & 1 != 0 {
                    v.initial_total[c][k].saturating_sub(counts[c][k])
                } else {
                    0
                };
                if text.is_some() && given[c][k] != derived {
                    return err(format!(
                        "the hand must hold the pieces missing from the board ({} {} of '{}')",
                        derived,
                        if c == 0 { "white" } else { "black" },
                        v.pieces()[k].letter
                    ));
                }
                self.set_hand(color, k as u8, derived);
            }
        }
        Ok(())
    }

    /// The castling field: `-`, `KQkq` letters or Shredder-style file letters.
    fn read_castling(&mut self, f: &str) -> Result<(), FenError> {
        if f == "-" {
            return Ok(());
        }
        let v = Arc::clone(&self.variant);
        if !v.has_castling() {
            return err(format!(
                "castling field '{f}' must be '-' (this game has none)"
            ));
        }
        for ch in f.chars() {
            let color = if ch.is_ascii_uppercase() { 0 } else { 1 };
            let side = match ch.to_ascii_uppercase() {
                'K' => 1,
                'Q' => 0,
                up => {
                    let Some(file) = file_index(up.to_ascii_lowercase()) else {
                        return err(format!(
                            "castling field '{f}': '{ch}' is not K, Q or a file"
                        ));
                    };
                    let (kx, _) = v.coords(self.king[color] as usize);
                    if file == kx {
                        return err(format!("castling field '{f}': '{ch}' is the king's file"));
                    }
                    (file > kx) as usize
                }
            };
            let name = if color == 0 { "White" } else { "Black" };
            if self.king[color] != v.royal_start[color] {
                return err(format!(
                    "castling right '{ch}', but {name}'s royal piece is not on its start square"
                ));
            }
            let partner = self
                .corner_piece(color, side)
                .filter(|&p| cell_kind(self.board[p]) == v.partner_kind[color][side]);
            let Some(p) = partner else {
                return err(format!(
                    "castling right '{ch}', but {name} has no castling partner on that side"
                ));
            };
            if !ch.eq_ignore_ascii_case(&'K') && !ch.eq_ignore_ascii_case(&'Q') {
                let (px, _) = v.coords(p);
                if Some(px) != file_index(ch.to_ascii_lowercase()) {
                    return err(format!(
                        "castling right '{ch}': the partner nearest the corner is on another file"
                    ));
                }
            }
            self.rights |= 1 << (2 * color + side);
            self.castle_sq[color][side] = p as u16;
        }
        Ok(())
    }

    /// The en passant field: `-` or the square(s) the last move passed over.
    fn read_en_passant(&mut self, f: &str) -> Result<(), FenError> {
        if f == "-" {
            return Ok(());
        }
        let v = Arc::clone(&self.variant);
        if !v.has_ep {
            return err(format!(
                "en passant field '{f}' must be '-' (this game has none)"
            ));
        }
        let mut squares = Vec::new();
        let chars: Vec<char> = f.chars().collect();
        let mut i = 0;
        while i < chars.len() {
            let mut j = i + 1;
            while j < chars.len() && chars[j].is_ascii_digit() {
                j += 1;
            }
            let name: String = chars[i..j].iter().collect();
            let (x, y) = parse_square(&name, v.files(), v.ranks())
                .map_err(|e| FenError(format!("en passant field '{f}': {e}")))?;
            squares.push(v.index(x, y));
            if squares.len() > 2 {
                return err(format!("en passant field '{f}': more than two squares"));
            }
            i = j;
        }
        let mover = self.side.opposite();
        let m = mover.index();
        // The piece that passed them: a lame straight leap of its kind from an empty square.
        let mut found = None;
        for &p in &self.list[m] {
            let p = p as usize;
            let kind = cell_kind(self.board[p]) as usize;
            let plain = v.steps[m][kind]
                .iter()
                .filter(|s| s.ep_create)
                .map(|s| (s.delta, s.lame, s.lame_len));
            let special = v.specials[m][kind]
                .iter()
                .filter(|s| s.ep_create)
                .map(|s| (s.delta, s.lame, s.lame_len));
            for (delta, lame, len) in plain.chain(special) {
                let origin = p as isize - delta;
                if origin < 0 || origin as usize >= v.size || self.board[origin as usize] != EMPTY {
                    continue;
                }
                let path: Vec<usize> = (0..len as usize)
                    .map(|i| (origin + lame[i]) as usize)
                    .collect();
                if squares.iter().all(|s| path.contains(s))
                    && path.iter().all(|&s| self.board[s] == EMPTY)
                {
                    found = Some((p, path));
                }
            }
        }
        let Some((victim, path)) = found else {
            return err(format!(
                "en passant field '{f}': no piece of the side that just moved passed it"
            ));
        };
        let mut ep = Ep {
            victim: victim as u16,
            n: path.len().min(2) as u8,
            sq: [0; 2],
        };
        for (i, &s) in path.iter().take(2).enumerate() {
            ep.sq[i] = s as u16;
        }
        let them = self.side;
        let capturable = ep.sq[..ep.n as usize].iter().any(|&s| {
            v.ep_attacks[them.index()].iter().any(|&(delta, kinds)| {
                let c = self.board[(s as isize - delta) as usize];
                c != EMPTY && c != OFF && cell_color(c) == them && kinds >> cell_kind(c) & 1 != 0
            })
        });
        if capturable {
            self.ep = ep;
        }
        Ok(())
    }

    /// Writes the position as FEN.
    pub fn to_fen(&self) -> String {
        let v = &*self.variant;
        let mut s = String::with_capacity(200);
        for y in (0..v.ranks()).rev() {
            let mut run = 0;
            for x in 0..v.files() {
                let c = self.board[v.index(x, y)];
                if c == EMPTY {
                    run += 1;
                    continue;
                }
                if run > 0 {
                    s.push_str(&run.to_string());
                    run = 0;
                }
                if c == OFF {
                    s.push('*');
                } else {
                    s.push(v.letter(cell_kind(c), cell_color(c)));
                }
            }
            if run > 0 {
                s.push_str(&run.to_string());
            }
            if y > 0 {
                s.push('/');
            }
        }
        if v.hand_in_fen {
            s.push('[');
            for (c, color) in [Color::White, Color::Black].into_iter().enumerate() {
                for k in 0..v.pieces().len() {
                    for _ in 0..self.hand[c][k] {
                        s.push(v.letter(k as u8, color));
                    }
                }
            }
            s.push(']');
        }
        let side = if self.side == Color::White { 'w' } else { 'b' };
        let mut castling = String::new();
        for (bit, ch) in [(2, 'K'), (1, 'Q'), (8, 'k'), (4, 'q')] {
            if self.rights & bit != 0 {
                castling.push(ch);
            }
        }
        if castling.is_empty() {
            castling.push('-');
        }
        let mut ep = String::new();
        if self.ep.victim != 0 {
            for &sq in &self.ep.sq[..self.ep.n as usize] {
                ep.push_str(&v.name_of(sq as usize));
            }
        } else {
            ep.push('-');
        }
        format!(
            "{s} {side} {castling} {ep} {} {}",
            self.halfmove, self.fullmove
        )
    }
}

/// A text diagram like the rule book's: ranks from the top, `#` holes, `.` empty squares, then the
/// file letters and the FEN.
impl fmt::Display for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let v = &*self.variant;
        for y in (0..v.ranks()).rev() {
            write!(f, "{:>2} ", y as u32 + 1)?;
            for x in 0..v.files() {
                let c = self.board[v.index(x, y)];
                let ch = match c {
                    EMPTY => '.',
                    OFF => '#',
                    c => v.letter(cell_kind(c), cell_color(c)),
                };
                write!(f, " {ch}")?;
            }
            writeln!(f)?;
        }
        write!(f, "   ")?;
        for x in 0..v.files() {
            write!(f, " {}", super::square::file_char(x))?;
        }
        writeln!(f)?;
        write!(f, "{}", self.to_fen())
    }
}
