//! FEN in the rule book's format: ranks from the last down to 1 separated by `/`, one- or two-digit
//! counts of empty playable squares, `*` for holes, then side to move, `-`, `-`, halfmove clock and
//! fullmove number.

use super::position::Position;
use super::square::{square_name, Color};
use super::variant::{cell_color, cell_kind, Variant, EMPTY, OFF};
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
    /// unknown letters, missing or extra kings, pawns on their last rank and positions where the
    /// side not to move is in check.
    pub fn from_fen(variant: &Arc<Variant>, fen: &str) -> Result<Position, FenError> {
        let fields: Vec<&str> = fen.split_whitespace().collect();
        if fields.len() < 2 {
            return err("expected at least the board and the side to move");
        }
        if fields.len() > 6 {
            return err(format!("too many fields ({})", fields.len()));
        }
        let (files, ranks) = (variant.files(), variant.ranks());
        let rows: Vec<&str> = fields[0].split('/').collect();
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
                    if kind == variant.pawn
                        && !variant.promo_kinds.is_empty()
                        && variant.promo[color.index()][sq] == 2
                    {
                        return err(format!("pawn '{c}' on {name}, its last rank"));
                    }
                    if kind == variant.royal {
                        kings[color.index()] += 1;
                    }
                    pos.put(sq, kind, color);
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
        for (i, what) in [(2, "castling"), (3, "en passant")] {
            if let Some(&f) = fields.get(i) {
                if f != "-" {
                    return err(format!(
                        "{what} field '{f}' must be '-' (this game has none)"
                    ));
                }
            }
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
        let side = if self.side == Color::White { 'w' } else { 'b' };
        format!("{s} {side} - - {} {}", self.halfmove, self.fullmove)
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
