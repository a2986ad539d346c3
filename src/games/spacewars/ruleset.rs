//! The rules as data: card roles, ship classes, decks per player count, hand size, round limit.
//! [`Ruleset::default`] is the rule book (`rules/space-wars.md`); another table needs no code change.

use super::card::{Card, Suit, KINDS};

/// What a card does when it is placed as an attack.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum AttackRole {
    /// Blocked by cards that block lasers (shields and ECM by default).
    Laser,
    /// Blocked by cards that block missiles (ECM by default).
    Missile,
    /// Boarding action: the attacker sends one crew card.
    Boarding,
}

/// How a ship card (the card placed face down to pick a class) must look.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Marker {
    /// Any card of this rank (12 = queen).
    Rank(u8),
    /// A joker.
    Joker,
    /// Any card at all.
    Any,
}

impl Marker {
    /// Whether `card` may serve as this marker.
    pub fn accepts(self, card: Card) -> bool {
        match self {
            Marker::Rank(r) => card.rank() == Some(r),
            Marker::Joker => card.is_joker(),
            Marker::Any => true,
        }
    }
}

/// One ship class of the table.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ShipClass {
    /// Name used in the protocol (`battleship`).
    pub name: &'static str,
    /// One-letter code used in position lines (`B`).
    pub code: char,
    /// Which card must be placed to choose it.
    pub marker: Marker,
    /// Whether the marker stays on the table (else it is discarded on reveal).
    pub marker_stays: bool,
    /// Number of ships the class gives.
    pub ships: u8,
    /// Starting size of each ship (repairs never exceed it).
    pub size: u8,
    /// Cards drawn from the draw pile on reveal.
    pub draw_on_reveal: u8,
}

/// The whole rules table.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ruleset {
    /// Attack role of each card kind (`None`: cannot attack).
    pub attack: [Option<AttackRole>; KINDS],
    /// Whether a card kind blocks lasers.
    pub blocks_laser: [bool; KINDS],
    /// Whether a card kind blocks missiles.
    pub blocks_missile: [bool; KINDS],
    /// Whether a card kind is crew (sent as boarders, played to repel them).
    pub crew: [bool; KINDS],
    /// The ship classes; index = class id.
    pub classes: Vec<ShipClass>,
    /// Cards dealt to each player.
    pub hand_size: u8,
    /// After this many rounds the game is a draw among those still in it.
    pub round_limit: u16,
    /// Jokers in each deck.
    pub jokers_per_deck: u8,
    /// Number of decks for 0..=8 players (index = player count).
    pub decks_by_players: [u8; 9],
}

impl Default for Ruleset {
    fn default() -> Self {
        let mut attack = [None; KINDS];
        let mut blocks_laser = [false; KINDS];
        let mut blocks_missile = [false; KINDS];
        let mut crew = [false; KINDS];
        for c in Card::all() {
            let (Some(rank), Some(suit)) = (c.rank(), c.suit()) else {
                continue;
            };
            let i = c.index();
            if rank >= 11 {
                attack[i] = Some(AttackRole::Boarding);
                continue;
            }
            match suit {
                Suit::Diamonds => {
                    attack[i] = Some(AttackRole::Laser);
                    blocks_laser[i] = true;
                }
                Suit::Hearts => attack[i] = Some(AttackRole::Missile),
                Suit::Spades => {
                    blocks_laser[i] = true;
                    blocks_missile[i] = true;
                }
                Suit::Clubs => crew[i] = true,
            }
        }
        Ruleset {
            attack,
            blocks_laser,
            blocks_missile,
            crew,
            classes: vec![
                ShipClass {
                    name: "battleship",
                    code: 'B',
                    marker: Marker::Rank(12),
                    marker_stays: true,
                    ships: 1,
                    size: 9,
                    draw_on_reveal: 0,
                },
                ShipClass {
                    name: "mothership",
                    code: 'M',
                    marker: Marker::Joker,
                    marker_stays: true,
                    ships: 1,
                    size: 12,
                    draw_on_reveal: 3,
                },
                ShipClass {
                    name: "fighters",
                    code: 'F',
                    marker: Marker::Any,
                    marker_stays: false,
                    ships: 3,
                    size: 3,
                    draw_on_reveal: 0,
                },
            ],
            hand_size: 10,
            round_limit: 100,
            jokers_per_deck: 2,
            decks_by_players: [2, 2, 2, 2, 2, 2, 3, 3, 3],
        }
    }
}

impl Ruleset {
    /// Whether `blocker` blocks an attack of `role`.
    pub fn blocks(&self, blocker: Card, role: AttackRole) -> bool {
        match role {
            AttackRole::Laser => self.blocks_laser[blocker.index()],
            AttackRole::Missile => self.blocks_missile[blocker.index()],
            AttackRole::Boarding => false,
        }
    }

    /// Attack role of a card.
    pub fn attack_role(&self, c: Card) -> Option<AttackRole> {
        self.attack[c.index()]
    }

    /// Whether a card is crew.
    pub fn is_crew(&self, c: Card) -> bool {
        self.crew[c.index()]
    }

    /// Number of decks for a player count.
    pub fn decks(&self, players: usize) -> u8 {
        self.decks_by_players[players.min(8)]
    }

    /// The full shuffled-together pack for a player count, in a fixed order.
    pub fn pack(&self, players: usize) -> Vec<Card> {
        let mut v = Vec::new();
        for _ in 0..self.decks(players) {
            v.extend(Card::all().filter(|c| !c.is_joker()));
            v.extend(std::iter::repeat_n(
                Card::JOKER,
                self.jokers_per_deck as usize,
            ));
        }
        v
    }

    /// Class id by name or one-letter code.
    pub fn class_by_name(&self, name: &str) -> Option<u8> {
        self.classes
            .iter()
            .position(|c| c.name == name || (name.len() == 1 && name.starts_with(c.code)))
            .map(|i| i as u8)
    }
}
