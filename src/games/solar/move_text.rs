//! Reading moves from text: exactly the canonical strings of legal moves are accepted, anything
//! else is refused with the reason.
//!
//! A step and a dock are both written `<from><to>`; they never share a text because a dock's
//! target is a tile holding an own or teammate's Mothership, which no step can target.

use super::moves::Move;
use super::piece::{Colour, Kind, Seat};
use super::position::Position;
use super::tile::Tile;
use std::fmt;

/// Why a move text was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MoveError {
    /// Not of the form `j1f4`, `Fw@n2`, `Okw@n4` or `0000`.
    Syntax(String),
    /// The game is over; nobody moves.
    GameOver,
    /// The move was given for a seat that is not to move.
    NotYourTurn {
        /// Seat named (0-based).
        seat: Seat,
        /// Seat to move (0-based).
        to_move: Seat,
    },
    /// The move was given for an eliminated seat.
    Eliminated(Seat),
    /// `0000` while another move exists.
    PassNotAllowed,
    /// No piece on the start tile.
    NoPiece(Tile),
    /// The piece on the start tile belongs to another seat or is inactive (`None`).
    NotYours(Tile, Option<Seat>),
    /// A Mothership cannot be dropped (it is never in hand).
    DropMothership,
    /// A seat without Motherships cannot drop.
    NoShipToDrop,
    /// The piece is not in the hand of the seat to move.
    NotInHand(Kind, Colour),
    /// A piece whose colour matches an own Mothership cannot be recoloured.
    CannotRecolour(Colour),
    /// Recolouring written with the colour the piece already has.
    SameColour(Colour),
    /// The seat controls no Mothership of this colour.
    NoShipOfColour(Colour),
    /// The piece's colour matches no own Mothership: the new colour must be written.
    MustRecolour(Colour),
    /// The drop target is occupied.
    Occupied(Tile),
    /// The drop target is not next to the Mothership in the way the piece moves.
    NotNextToShip {
        /// Piece type.
        kind: Kind,
        /// Target tile.
        to: Tile,
        /// Mothership tile.
        ship: Tile,
    },
    /// The target holds an own or teammate's piece that is not a Mothership to dock at.
    OwnPiece(Tile),
    /// A Mothership cannot dock.
    MothershipDock,
    /// The piece cannot reach the target.
    Unreachable(Tile, Tile),
    /// Start and target are the same tile: the board must change.
    SameTile(Tile),
}

impl fmt::Display for MoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use MoveError::*;
        match self {
            Syntax(s) => write!(f, "'{s}' is not a move (forms: j1f4, Fw@n2, Okw@n4, 0000)"),
            GameOver => f.write_str("the game is over"),
            NotYourTurn { seat, to_move } => {
                write!(
                    f,
                    "seat {} is not to move (seat {} is)",
                    seat + 1,
                    to_move + 1
                )
            }
            Eliminated(s) => write!(f, "seat {} is eliminated", s + 1),
            PassNotAllowed => f.write_str("0000 (pass) is only allowed when no other move exists"),
            NoPiece(t) => write!(f, "no piece on {t}"),
            NotYours(t, Some(s)) => write!(f, "the piece on {t} belongs to seat {}", s + 1),
            NotYours(t, None) => write!(
                f,
                "the piece on {t} is inactive (its player was eliminated)"
            ),
            DropMothership => f.write_str("a Mothership cannot be dropped"),
            NoShipToDrop => f.write_str("a player without a Mothership cannot drop"),
            NotInHand(k, c) => write!(f, "no {} {} in hand", c.name(), k.name()),
            CannotRecolour(c) => write!(
                f,
                "a {} piece matches one of your Motherships and cannot be recoloured",
                c.name()
            ),
            SameColour(c) => write!(f, "the piece is already {}; write no new colour", c.name()),
            NoShipOfColour(c) => write!(f, "you control no {} Mothership", c.name()),
            MustRecolour(c) => write!(
                f,
                "{} matches none of your Motherships: write the new colour (e.g. F{}w@..)",
                c.name(),
                c.letter()
            ),
            Occupied(t) => write!(f, "{t} is occupied"),
            NotNextToShip { kind, to, ship } => {
                let how = match kind {
                    Kind::Orbiter => "edge-adjacent to",
                    Kind::Missile => "vertex-adjacent (one shared vertex) to",
                    _ => "adjacent to",
                };
                let article = if *kind == Kind::Orbiter { "an" } else { "a" };
                write!(
                    f,
                    "{article} {} must be dropped {how} its Mothership on {ship}, {to} is not",
                    kind.name()
                )
            }
            OwnPiece(t) => write!(
                f,
                "{t} holds your own (or a teammate's) piece and is no Mothership to dock at"
            ),
            MothershipDock => f.write_str("a Mothership cannot dock"),
            Unreachable(a, b) => write!(f, "the piece on {a} cannot reach {b}"),
            SameTile(t) => write!(f, "{t}{t} does not move: the board must change"),
        }
    }
}

impl std::error::Error for MoveError {}

fn tile(s: &str, whole: &str) -> Result<Tile, MoveError> {
    Tile::from_name(s).ok_or_else(|| MoveError::Syntax(whole.to_string()))
}

impl Position {
    /// Reads a move of `seat` (0-based), refusing it with the reason unless it is legal now.
    pub fn parse_move_for(&self, seat: Seat, text: &str) -> Result<Move, MoveError> {
        if (seat as usize) < self.seats() && self.is_eliminated(seat) {
            return Err(MoveError::Eliminated(seat));
        }
        if seat != self.to_move() {
            return Err(MoveError::NotYourTurn {
                seat,
                to_move: self.to_move(),
            });
        }
        self.parse_move(text)
    }

    /// Reads and plays a move of the seat to move; on error nothing changes.
    pub fn play(&mut self, text: &str) -> Result<Move, MoveError> {
        let mv = self.parse_move(text)?;
        self.make(mv);
        Ok(mv)
    }

    /// Reads a move of the seat to move in canonical text, refusing anything not legal now.
    pub fn parse_move(&self, text: &str) -> Result<Move, MoveError> {
        if self.is_over() {
            return Err(MoveError::GameOver);
        }
        let seat = self.to_move();
        let mv = if text == "0000" {
            Move::Pass
        } else if let Some((piece, to)) = text.split_once('@') {
            let to = tile(to, text)?;
            let cs: Vec<char> = piece.chars().collect();
            if !(2..=3).contains(&cs.len()) {
                return Err(MoveError::Syntax(text.to_string()));
            }
            let kind = Kind::from_letter(cs[0]).ok_or_else(|| MoveError::Syntax(text.into()))?;
            let hand = Colour::from_letter(cs[1]).ok_or_else(|| MoveError::Syntax(text.into()))?;
            let new = match cs.get(2) {
                Some(&c) => {
                    Some(Colour::from_letter(c).ok_or_else(|| MoveError::Syntax(text.into()))?)
                }
                None => None,
            };
            self.check_drop(seat, kind, hand, new, to)?
        } else {
            if text.len() < 4 || !text.is_ascii() {
                return Err(MoveError::Syntax(text.to_string()));
            }
            let split = (2..=text.len() - 2)
                .find(|&i| {
                    Tile::from_name(&text[..i]).is_some() && Tile::from_name(&text[i..]).is_some()
                })
                .ok_or_else(|| MoveError::Syntax(text.to_string()))?;
            let from = tile(&text[..split], text)?;
            let to = tile(&text[split..], text)?;
            self.check_step(seat, from, to)?
        };
        let mut legal = Vec::new();
        self.legal_moves(&mut legal);
        if legal.contains(&mv) {
            Ok(mv)
        } else if mv == Move::Pass {
            Err(MoveError::PassNotAllowed)
        } else {
            Err(MoveError::Syntax(text.to_string()))
        }
    }

    fn check_drop(
        &self,
        seat: Seat,
        kind: Kind,
        hand: Colour,
        new: Option<Colour>,
        to: Tile,
    ) -> Result<Move, MoveError> {
        if kind == Kind::Mothership {
            return Err(MoveError::DropMothership);
        }
        let ships = self.ships_of(seat);
        if ships == 0 {
            return Err(MoveError::NoShipToDrop);
        }
        if self.hand(seat).count(kind, hand) == 0 {
            return Err(MoveError::NotInHand(kind, hand));
        }
        let own = |c: Colour| ships & (1 << c.index()) != 0;
        let colour = match new {
            Some(c) if c == hand => return Err(MoveError::SameColour(c)),
            Some(_) if own(hand) => return Err(MoveError::CannotRecolour(hand)),
            Some(c) if !own(c) => return Err(MoveError::NoShipOfColour(c)),
            Some(c) => c,
            None if !own(hand) => return Err(MoveError::MustRecolour(hand)),
            None => hand,
        };
        let ship = self
            .ship_tile(colour)
            .ok_or(MoveError::NoShipOfColour(colour))?;
        if self.piece_at(to).is_some() {
            return Err(MoveError::Occupied(to));
        }
        if self.drop_tiles(ship, kind) & to.bit() == 0 {
            return Err(MoveError::NotNextToShip { kind, to, ship });
        }
        Ok(Move::Drop {
            kind,
            hand,
            colour,
            to,
        })
    }

    fn check_step(&self, seat: Seat, from: Tile, to: Tile) -> Result<Move, MoveError> {
        let p = self.piece_at(from).ok_or(MoveError::NoPiece(from))?;
        if p.owner != Some(seat) {
            return Err(MoveError::NotYours(from, p.owner));
        }
        if from == to {
            return Err(MoveError::SameTile(from));
        }
        let t = self.targets(from, p);
        if t.docks & to.bit() != 0 {
            return Ok(Move::Dock { from, to });
        }
        if (t.quiet | t.captures) & to.bit() != 0 {
            return Ok(Move::Step { from, to });
        }
        match self.piece_at(to) {
            Some(q) if q.owner.is_some_and(|o| self.same_team(o, seat)) => {
                if q.kind == Kind::Mothership && p.kind == Kind::Mothership {
                    Err(MoveError::MothershipDock)
                } else if q.kind == Kind::Mothership {
                    Err(MoveError::Unreachable(from, to))
                } else {
                    Err(MoveError::OwnPiece(to))
                }
            }
            _ => Err(MoveError::Unreachable(from, to)),
        }
    }
}
