//! A Solar Chess move: a step (possibly capturing), a dock, a drop, or the forced pass.

use super::piece::{Colour, Kind};
use super::tile::Tile;
use std::fmt;

/// One legal action of the seat to move. Text forms: `j1f4` (step or dock), `Fw@n2` / `Okw@n4`
/// (drop, with the new colour only when recoloured), `0000` (forced pass).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Move {
    /// A piece moves from one tile to another, capturing what stands there (if anything).
    Step {
        /// Start tile.
        from: Tile,
        /// Target tile.
        to: Tile,
    },
    /// A non-Mothership piece docks at an own or teammate's Mothership on `to` and goes to that
    /// Mothership owner's hand in the Mothership's colour.
    Dock {
        /// Tile of the docking piece.
        from: Tile,
        /// Tile of the Mothership.
        to: Tile,
    },
    /// A piece from hand is put on an empty tile next to a Mothership of colour `colour`.
    Drop {
        /// Piece type (never a Mothership).
        kind: Kind,
        /// Colour of the piece in hand.
        hand: Colour,
        /// Colour after the drop (differs from `hand` when recoloured).
        colour: Colour,
        /// Target tile.
        to: Tile,
    },
    /// The forced pass of a seat with no other move.
    Pass,
}

impl Move {
    /// The target tile, if the move has one.
    pub fn to(self) -> Option<Tile> {
        match self {
            Move::Step { to, .. } | Move::Dock { to, .. } | Move::Drop { to, .. } => Some(to),
            Move::Pass => None,
        }
    }

    /// The start tile of a step or dock.
    pub fn from(self) -> Option<Tile> {
        match self {
            Move::Step { from, .. } | Move::Dock { from, .. } => Some(from),
            _ => None,
        }
    }
}

impl fmt::Display for Move {
    /// The canonical text of the move.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Move::Step { from, to } | Move::Dock { from, to } => write!(f, "{from}{to}"),
            Move::Drop {
                kind,
                hand,
                colour,
                to,
            } => {
                write!(f, "{}{}", kind.letter(), hand.letter())?;
                if colour != hand {
                    write!(f, "{}", colour.letter())?;
                }
                write!(f, "@{to}")
            }
            Move::Pass => f.write_str("0000"),
        }
    }
}
