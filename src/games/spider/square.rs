//! Square names (`a1`, `m10`, `y19`) and the two colours.

use nom::{
    character::complete::{digit1, satisfy},
    combinator::map_res,
    sequence::pair,
    IResult,
};

/// Largest number of files or ranks a variant may have.
pub const MAX_SIDE: u8 = 32;

/// A side in the game; White moves first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Color {
    /// The side that moves first (uppercase letters).
    White = 0,
    /// The side that moves second (lowercase letters).
    Black = 1,
}

impl Color {
    /// The other side.
    pub fn opposite(self) -> Color {
        match self {
            Color::White => Color::Black,
            Color::Black => Color::White,
        }
    }

    /// 0 for White, 1 for Black: an index into per-side arrays.
    pub fn index(self) -> usize {
        self as usize
    }
}

/// The letter of file `x` (0-based): `a`..`z`, then `A`..`F` for files 27..32.
pub fn file_char(x: u8) -> char {
    if x < 26 {
        (b'a' + x) as char
    } else {
        (b'A' + x - 26) as char
    }
}

/// The file index of a file letter, if it is one.
pub fn file_index(c: char) -> Option<u8> {
    match c {
        'a'..='z' => Some(c as u8 - b'a'),
        'A'..='F' => Some(c as u8 - b'A' + 26),
        _ => None,
    }
}

/// The name of square (x, y), both 0-based: `square_name(12, 9)` is `m10`.
pub fn square_name(x: u8, y: u8) -> String {
    format!("{}{}", file_char(x), y as u32 + 1)
}

/// nom parser of a square name into 0-based (file, rank), without range checks against a board.
pub fn square(input: &str) -> IResult<&str, (u8, u8)> {
    let file = map_res(satisfy(|c| file_index(c).is_some()), |c| {
        file_index(c).ok_or("file")
    });
    let rank = map_res(digit1, |d: &str| match d.parse::<u8>() {
        Ok(r) if r >= 1 && !d.starts_with('0') => Ok(r - 1),
        _ => Err("rank"),
    });
    pair(file, rank)(input)
}

/// Parses a whole square name and checks it lies within `files` x `ranks`.
pub fn parse_square(text: &str, files: u8, ranks: u8) -> Result<(u8, u8), String> {
    match square(text) {
        Ok(("", (x, y))) if x < files && y < ranks => Ok((x, y)),
        Ok(("", _)) => Err(format!("square '{text}' is off the board")),
        _ => Err(format!("'{text}' is not a square name")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        assert_eq!(square_name(12, 9), "m10");
        assert_eq!(parse_square("y19", 25, 19), Ok((24, 18)));
        assert!(parse_square("z19", 25, 19).is_err());
        assert!(parse_square("a20", 25, 19).is_err());
        assert!(parse_square("a0", 25, 19).is_err());
        assert!(parse_square("a01", 25, 19).is_err());
        assert!(parse_square("a", 25, 19).is_err());
        assert!(parse_square("a1x", 25, 19).is_err());
        assert_eq!(parse_square("B32", 32, 32), Ok((27, 31)));
    }
}
