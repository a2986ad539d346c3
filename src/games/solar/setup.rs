//! The ten named setups of the rule book, as data: who holds which Motherships, and the teams.

use super::piece::Colour;

/// A named starting setup: per seat the colours of its Motherships, and the teams.
#[derive(Clone, Copy, Debug)]
pub struct SetupSpec {
    /// Name as used by `position startpos <name>` and `perft`.
    pub name: &'static str,
    /// For each seat in player order, the letters of its Motherships' colours.
    pub ships: &'static [&'static str],
    /// Teams as strings of 1-based seat digits; empty when every seat plays alone.
    pub teams: &'static [&'static str],
}

/// Every Mothership colour with the tile it starts on (the kite facing its edge of the board).
pub const START_TILES: [(Colour, &str); 6] = [
    (Colour::White, "n3"),
    (Colour::Silver, "i4"),
    (Colour::Red, "e5"),
    (Colour::Black, "f6"),
    (Colour::Gold, "k1"),
    (Colour::Blue, "o2"),
];

/// How many pieces of each droppable type a Mothership brings into its owner's hand.
pub const PIECES_PER_SHIP: u8 = 2;

/// The rule book's ten setups.
pub const SETUPS: &[SetupSpec] = &[
    SetupSpec {
        name: "duel",
        ships: &["w", "k"],
        teams: &[],
    },
    SetupSpec {
        name: "duel-2",
        ships: &["wg", "ks"],
        teams: &[],
    },
    SetupSpec {
        name: "duel-3",
        ships: &["wrg", "kus"],
        teams: &[],
    },
    SetupSpec {
        name: "trio",
        ships: &["w", "r", "g"],
        teams: &[],
    },
    SetupSpec {
        name: "trio-2",
        ships: &["wk", "ru", "gs"],
        teams: &[],
    },
    SetupSpec {
        name: "quad",
        ships: &["w", "r", "k", "u"],
        teams: &[],
    },
    SetupSpec {
        name: "six",
        ships: &["w", "s", "r", "k", "g", "u"],
        teams: &[],
    },
    SetupSpec {
        name: "teams-2x2",
        ships: &["w", "r", "k", "u"],
        teams: &["13", "24"],
    },
    SetupSpec {
        name: "teams-2x3",
        ships: &["w", "s", "r", "k", "g", "u"],
        teams: &["135", "246"],
    },
    SetupSpec {
        name: "teams-3x2",
        ships: &["w", "s", "r", "k", "g", "u"],
        teams: &["14", "25", "36"],
    },
];

/// The names of all setups, in table order.
pub fn setup_names() -> impl Iterator<Item = &'static str> {
    SETUPS.iter().map(|s| s.name)
}

/// The setup with this name.
pub fn find_setup(name: &str) -> Option<&'static SetupSpec> {
    SETUPS.iter().find(|s| s.name == name)
}

/// The tile name a Mothership of this colour starts on.
pub fn start_tile(colour: Colour) -> &'static str {
    START_TILES
        .iter()
        .find(|(c, _)| *c == colour)
        .map(|(_, t)| *t)
        .unwrap_or("n3")
}
