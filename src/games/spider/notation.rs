//! The rule book's move notation: from-square, to-square and an optional lowercase promotion letter
//! (`m2m5`, `n18n19q`), parsed into a legal [`Move`] or a [`MoveError`] with the reason. Castling is
//! written as the royal piece's move (`e1g1`; `O-O` and `O-O-O` are read too), an en passant
//! capture as the capturing piece's move, a drop as `P@e4` (the letter in either case is read).

use super::position::{Move, Position, CASTLE, DROP};
use super::square::{file_char, square, square_name};
use super::variant::{cell_color, cell_kind, EMPTY, OFF};
use nom::{character::complete::satisfy, combinator::opt, sequence::tuple};
use std::fmt;

/// Why a move text was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MoveError {
    /// Not of the form `<square><square>[promotion letter]`.
    Syntax(String),
    /// A square outside the board.
    OffBoard(String),
    /// A square that is a hole.
    Hole(String),
    /// No piece on the from-square.
    NoPiece(String),
    /// The piece on the from-square belongs to the opponent.
    NotYourPiece(String),
    /// The piece cannot move that way.
    CannotReach(String),
    /// The move would leave (or put) one's own king in check.
    KingInCheck(String),
    /// A pawn reaching the last rank must name its promotion piece.
    MissingPromotion(String),
    /// Promotion to a piece not allowed, or on a move that does not promote.
    BadPromotion(String),
    /// A drop that is not legal here (no such piece in hand, occupied or forbidden square, the
    /// variant has no drops, or it leaves the king in check).
    BadDrop(String),
}

impl fmt::Display for MoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MoveError::Syntax(m) => {
                write!(f, "'{m}' is not a move (expected e.g. m2m5 or n18n19q)")
            }
            MoveError::OffBoard(s) => write!(f, "square {s} is off the board"),
            MoveError::Hole(s) => write!(f, "square {s} is a hole"),
            MoveError::NoPiece(s) => write!(f, "no piece on {s}"),
            MoveError::NotYourPiece(s) => write!(f, "the piece on {s} belongs to the opponent"),
            MoveError::CannotReach(m) => write!(f, "the piece cannot move like {m}"),
            MoveError::KingInCheck(m) => write!(f, "{m} leaves the king in check"),
            MoveError::MissingPromotion(m) => write!(f, "{m} must name a promotion piece"),
            MoveError::BadPromotion(m) => write!(f, "{m}: promotion not allowed"),
            MoveError::BadDrop(m) => write!(f, "{m}"),
        }
    }
}

impl std::error::Error for MoveError {}

impl Position {
    /// The move in the rule book's notation (`m2m5`, `n18n19q`, castling `e1g1`, drops `P@e4`).
    pub fn move_text(&self, mv: Move) -> String {
        let v = &*self.variant;
        if mv.flag == DROP {
            let letter = v.letter(mv.from as u8, super::square::Color::White);
            return format!("{letter}@{}", v.name_of(mv.to as usize));
        }
        let mut s = v.name_of(mv.from as usize);
        s.push_str(&v.name_of(mv.to as usize));
        if let Some(p) = mv.promotion() {
            s.push(v.letter(p, super::square::Color::Black));
        }
        s
    }

    /// Parses a move in the rule book's notation and checks it is legal here.
    pub fn parse_move(&self, text: &str) -> Result<Move, MoveError> {
        let syntax = || MoveError::Syntax(text.chars().take(40).collect());
        if let Some(side) = match text {
            "O-O" | "0-0" => Some(true),
            "O-O-O" | "0-0-0" => Some(false),
            _ => None,
        } {
            return self.parse_castling(text, side);
        }
        if let Some((letter, sq)) = text.split_once('@') {
            return self.parse_drop(text, letter, sq);
        }
        let parsed = tuple((square, square, opt(satisfy(|c| c.is_ascii_lowercase()))))(text);
        let (from, to, promo) = match parsed {
            Ok(("", t)) => t,
            _ => return Err(syntax()),
        };
        let v = &*self.variant;
        let mut idx = [0usize; 2];
        for (i, &(x, y)) in [from, to].iter().enumerate() {
            let name = format!("{}{}", file_char(x), y as u32 + 1);
            if x >= v.files() || y >= v.ranks() {
                return Err(MoveError::OffBoard(name));
            }
            if v.is_hole(x, y) {
                return Err(MoveError::Hole(name));
            }
            idx[i] = v.index(x, y);
        }
        let [f, t] = idx;
        let c = self.board[f];
        if c == EMPTY {
            return Err(MoveError::NoPiece(v.name_of(f)));
        }
        if cell_color(c) != self.side {
            return Err(MoveError::NotYourPiece(v.name_of(f)));
        }
        let promo_kind = match promo {
            None => None,
            Some(p) => match v.kind_of_letter(p).filter(|&k| {
                v.promo_rules.iter().any(|r| r.kind == k) || v.promo_target.contains(&k)
            }) {
                Some(k) => Some(k),
                None => return Err(MoveError::BadPromotion(text.to_string())),
            },
        };
        let legal = self.legal_moves();
        let promo_code = promo_kind.map_or(0, |k| k + 1);
        if let Some(&m) = legal.iter().find(|m| {
            m.flag != DROP && m.from == f as u16 && m.to == t as u16 && m.promo == promo_code
        }) {
            return Ok(m);
        }
        let wanted = Move {
            from: f as u16,
            to: t as u16,
            promo: promo_code,
            flag: 0,
        };
        let same_squares: Vec<&Move> = legal
            .iter()
            .filter(|m| m.flag != DROP && m.from == wanted.from && m.to == wanted.to)
            .collect();
        if !same_squares.is_empty() {
            return Err(if promo.is_none() {
                MoveError::MissingPromotion(text.to_string())
            } else {
                MoveError::BadPromotion(text.to_string())
            });
        }
        if self.reaches(f, t) {
            Err(MoveError::KingInCheck(text.to_string()))
        } else {
            Err(MoveError::CannotReach(text.to_string()))
        }
    }

    /// `O-O` (towards the higher files) or `O-O-O`: the only castling move that way.
    fn parse_castling(&self, text: &str, high: bool) -> Result<Move, MoveError> {
        let ways: Vec<Move> = self
            .legal_moves()
            .into_iter()
            .filter(|m| m.flag == CASTLE && (m.to > m.from) == high)
            .collect();
        match ways.as_slice() {
            [m] => Ok(*m),
            [] => Err(MoveError::CannotReach(text.to_string())),
            _ => Err(MoveError::Syntax(format!(
                "{text} is ambiguous here: give the royal piece's squares"
            ))),
        }
    }

    /// A drop `P@e4`.
    fn parse_drop(&self, text: &str, letter: &str, sq: &str) -> Result<Move, MoveError> {
        let v = &*self.variant;
        let mut chars = letter.chars();
        let (Some(c), None) = (chars.next(), chars.next()) else {
            return Err(MoveError::Syntax(text.chars().take(40).collect()));
        };
        let Some(kind) = v.kind_of_letter(c).filter(|_| c.is_ascii_alphabetic()) else {
            return Err(MoveError::BadDrop(format!(
                "{text}: no piece lettered '{c}'"
            )));
        };
        let (x, y) = match square(sq) {
            Ok(("", xy)) => xy,
            _ => return Err(MoveError::Syntax(text.chars().take(40).collect())),
        };
        let name = square_name(x, y);
        if x >= v.files() || y >= v.ranks() {
            return Err(MoveError::OffBoard(name));
        }
        if v.is_hole(x, y) {
            return Err(MoveError::Hole(name));
        }
        if !v.has_drops() {
            return Err(MoveError::BadDrop(format!(
                "{text}: this game has no drops"
            )));
        }
        if self.in_hand(self.side, kind) == 0 {
            return Err(MoveError::BadDrop(format!("{text}: no such piece in hand")));
        }
        let to = v.index(x, y) as u16;
        if let Some(m) = self
            .legal_moves()
            .into_iter()
            .find(|m| m.flag == DROP && m.from == kind as u16 && m.to == to)
        {
            return Ok(m);
        }
        Err(MoveError::BadDrop(if self.board[to as usize] != EMPTY {
            format!("{text}: {name} is occupied")
        } else if v.drop_ok[self.side.index()][to as usize] >> kind & 1 == 0 {
            format!("{text}: that piece may not be dropped on {name}")
        } else {
            format!("{text} leaves the king in check")
        }))
    }

    /// Parses and plays a move; on error the position is unchanged.
    pub fn play(&mut self, text: &str) -> Result<Move, MoveError> {
        let mv = self.parse_move(text)?;
        self.make_move(mv);
        Ok(mv)
    }

    /// Whether the piece on `from` could move to `to` ignoring king safety.
    fn reaches(&self, from: usize, to: usize) -> bool {
        let v = &*self.variant;
        let c = self.board[from];
        let (kind, us) = (cell_kind(c), cell_color(c));
        let target = self.board[to];
        let capture = target != EMPTY;
        if capture && cell_color(target) == us {
            return false;
        }
        v.steps[us.index()][kind as usize].iter().any(|st| {
            if (capture && !st.can_capture) || (!capture && !st.can_move) {
                return false;
            }
            if st.lame_len > 0 {
                return from as isize + st.delta == to as isize
                    && (0..st.lame_len as usize)
                        .all(|i| self.board[(from as isize + st.lame[i]) as usize] == EMPTY);
            }
            let mut sq = from as isize;
            for _ in 0..st.range {
                sq += st.delta;
                if sq == to as isize {
                    return true;
                }
                let b = self.board[sq as usize];
                if b != EMPTY || b == OFF {
                    return false;
                }
            }
            false
        })
    }
}
