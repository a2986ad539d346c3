//! Piece kinds, colours and pieces on the board, with the rule book's letters.

use std::fmt;

/// Most seats a position may have (one per Mothership colour).
pub const MAX_SEATS: usize = 6;

/// A seat (player), 0-based; the text forms use 1-based numbers.
pub type Seat = u8;

/// A piece type.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Kind {
    /// The royal piece: moves as an Orbiter or a Missile; losing all of them eliminates a player.
    Mothership,
    /// Rook-like: slides round planets through opposite edges.
    Orbiter,
    /// Bishop-like: slides through opposite vertices.
    Missile,
    /// One step as an Orbiter or a Missile.
    Fighter,
}

impl Kind {
    /// The kinds that can be in hand, in hand-table order.
    pub const IN_HAND: [Kind; 3] = [Kind::Orbiter, Kind::Missile, Kind::Fighter];

    /// Rule-book letter: `S O M F`.
    pub fn letter(self) -> char {
        match self {
            Kind::Mothership => 'S',
            Kind::Orbiter => 'O',
            Kind::Missile => 'M',
            Kind::Fighter => 'F',
        }
    }

    /// The kind written with this letter.
    pub fn from_letter(c: char) -> Option<Kind> {
        match c {
            'S' => Some(Kind::Mothership),
            'O' => Some(Kind::Orbiter),
            'M' => Some(Kind::Missile),
            'F' => Some(Kind::Fighter),
            _ => None,
        }
    }

    /// Index `0..4`.
    pub fn index(self) -> usize {
        self as usize
    }

    /// Index in a hand table (`Orbiter` 0, `Missile` 1, `Fighter` 2); `None` for the Mothership.
    pub fn hand_index(self) -> Option<usize> {
        match self {
            Kind::Mothership => None,
            k => Some(k as usize - 1),
        }
    }

    /// English name.
    pub fn name(self) -> &'static str {
        match self {
            Kind::Mothership => "Mothership",
            Kind::Orbiter => "Orbiter",
            Kind::Missile => "Missile",
            Kind::Fighter => "Fighter",
        }
    }
}

/// One of the six colours; each Mothership's colour is unique in a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Colour {
    /// `w`
    White,
    /// `k`
    Black,
    /// `r`
    Red,
    /// `u`
    Blue,
    /// `g`
    Gold,
    /// `s`
    Silver,
}

impl Colour {
    /// All colours in letter-table order `w k r u g s`.
    pub const ALL: [Colour; 6] = [
        Colour::White,
        Colour::Black,
        Colour::Red,
        Colour::Blue,
        Colour::Gold,
        Colour::Silver,
    ];

    /// Rule-book letter.
    pub fn letter(self) -> char {
        b"wkrugs"[self as usize] as char
    }

    /// The colour written with this letter.
    pub fn from_letter(c: char) -> Option<Colour> {
        "wkrugs".find(c).map(|i| Colour::ALL[i])
    }

    /// Index `0..6`.
    pub fn index(self) -> usize {
        self as usize
    }

    /// English name.
    pub fn name(self) -> &'static str {
        ["White", "Black", "Red", "Blue", "Gold", "Silver"][self as usize]
    }
}

/// A piece on the board: type, colour and owner (`None` once its player is eliminated).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Piece {
    /// Piece type.
    pub kind: Kind,
    /// Colour.
    pub colour: Colour,
    /// Owning seat, or `None` for an inactive piece of an eliminated player.
    pub owner: Option<Seat>,
}

impl fmt::Display for Piece {
    /// Position-string form: kind letter, colour letter, 1-based owner or `-`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.kind.letter(), self.colour.letter())?;
        match self.owner {
            Some(s) => write!(f, "{}", s + 1),
            None => f.write_str("-"),
        }
    }
}
