//! Ships on the table and the attack cards placed at them.

use super::card::Card;

/// A ship: a stack of cards (its hull) held by its owner. Ship ids are stable for the whole game
/// (0-based here, 1-based on the wire); a player's "ship order" is increasing id.
#[derive(Debug, PartialEq, Eq)]
pub struct Ship {
    /// Stable id.
    pub id: u8,
    /// Owning seat (0-based); changes on capture.
    pub owner: u8,
    /// Class id in the ruleset.
    pub class: u8,
    /// Starting size: repairs never take the hull above it.
    pub size: u8,
    /// The cards of the ship; empty once destroyed.
    pub hull: Vec<Card>,
    /// False once destroyed.
    pub alive: bool,
}

impl Clone for Ship {
    fn clone(&self) -> Ship {
        let mut s = Ship {
            id: 0,
            owner: 0,
            class: 0,
            size: 0,
            hull: Vec::new(),
            alive: false,
        };
        s.clone_from(self);
        s
    }

    /// Copies `other` into `self`, reusing the hull's storage (the searches copy worlds often).
    fn clone_from(&mut self, other: &Ship) {
        self.id = other.id;
        self.owner = other.owner;
        self.class = other.class;
        self.size = other.size;
        self.hull.clone_from(&other.hull);
        self.alive = other.alive;
    }
}

/// An attack card placed at a ship during Engage.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Attack {
    /// The card.
    pub card: Card,
    /// Ship that fired it.
    pub from: u8,
    /// Ship attacked.
    pub target: u8,
    /// Seat that placed it (the owner of `from` at Engage).
    pub attacker: u8,
    /// Turned face up (in Battle-stations).
    pub face_up: bool,
}
