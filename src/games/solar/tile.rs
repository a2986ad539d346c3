//! A tile (kite) of the board by its index in rule-book order, named like `j1`.

use super::geometry::{Geometry, TILES};
use std::fmt;

/// One of the 72 kites, indexed in the rule book's order (`a3` = 0 ... `s6` = 71).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Tile(pub u8);

impl Tile {
    /// Every tile in rule-book order.
    pub fn all() -> impl Iterator<Item = Tile> {
        (0..TILES as u8).map(Tile)
    }

    /// The tile with this exact name (`"j1"`), if any.
    pub fn from_name(name: &str) -> Option<Tile> {
        Geometry::get().index(name).map(Tile)
    }

    /// The tile's name.
    pub fn name(self) -> &'static str {
        Geometry::get().name(self.0)
    }

    /// Index `0..72`, for tables.
    pub fn index(self) -> usize {
        self.0 as usize
    }

    /// Bit of this tile in a 128-bit tile set.
    pub fn bit(self) -> u128 {
        1u128 << self.0
    }
}

impl fmt::Display for Tile {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}
