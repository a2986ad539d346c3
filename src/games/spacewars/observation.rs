//! What one seat may see: built by the rules core from the true state ([`Observation::of`]) or
//! parsed from a `position` line. Other seats' hands and hulls are counts and unknown face-down
//! attack cards are `None`, so an observation cannot carry another seat's hidden card.

use super::card::Card;
use super::decision::DecisionKind;
use super::state::{Outcome, State, Step};

/// Cards whose identity the observer may or may not know.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Cards {
    /// The observer's own cards.
    Own(Vec<Card>),
    /// Someone else's cards: only their number.
    Count(u8),
}

impl Cards {
    /// Number of cards.
    pub fn len(&self) -> usize {
        match self {
            Cards::Own(v) => v.len(),
            Cards::Count(n) => *n as usize,
        }
    }
    /// Whether there are no cards.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
    /// The cards, when they are the observer's.
    pub fn own(&self) -> Option<&[Card]> {
        match self {
            Cards::Own(v) => Some(v),
            Cards::Count(_) => None,
        }
    }
}

/// A seat as seen by everyone.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SeatView {
    /// Still in the game.
    pub active: bool,
    /// Class and ship card, once revealed.
    pub class: Option<(u8, Card)>,
    /// Hand during setup (before ships are formed).
    pub hand: Cards,
}

/// A ship as seen by the observer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ShipView {
    /// Stable id (0-based).
    pub id: u8,
    /// Owning seat.
    pub owner: u8,
    /// Class id.
    pub class: u8,
    /// Starting size.
    pub size: u8,
    /// False once destroyed.
    pub alive: bool,
    /// Hull: own cards, or a count.
    pub hull: Cards,
}

/// An attack card on the table; `card` is `None` while face down and not the observer's.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AttackView {
    /// Firing ship.
    pub from: u8,
    /// Attacked ship.
    pub target: u8,
    /// Seat that placed it.
    pub attacker: u8,
    /// The card, if the observer may know it.
    pub card: Option<Card>,
    /// Turned face up.
    pub face_up: bool,
}

/// Everything a person at `seat` could see.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Observation {
    pub(crate) seat: u8,
    pub(crate) players: u8,
    pub(crate) round: u16,
    pub(crate) round_limit: u16,
    pub(crate) draw: u16,
    pub(crate) discard: Vec<Card>,
    pub(crate) seats: Vec<SeatView>,
    pub(crate) ships: Vec<ShipView>,
    pub(crate) attacks: Vec<AttackView>,
    pub(crate) step: Step,
    pub(crate) pending: Option<DecisionKind>,
    pub(crate) result: Option<Outcome>,
}

impl Observation {
    /// The observation of `seat` (0-based) from the true state.
    pub fn of(state: &State, seat: u8) -> Observation {
        let mine = |owner: u8, cards: &Vec<Card>| {
            if owner == seat {
                Cards::Own(cards.clone())
            } else {
                Cards::Count(cards.len() as u8)
            }
        };
        Observation {
            seat,
            players: state.players,
            round: state.round,
            round_limit: state.rules.round_limit,
            draw: state.draw.len() as u16,
            discard: state.discard.clone(),
            seats: (0..state.players)
                .map(|s| SeatView {
                    active: state.active[s as usize],
                    class: state.classes[s as usize],
                    hand: mine(s, &state.hands[s as usize]),
                })
                .collect(),
            ships: state
                .ships
                .iter()
                .map(|sh| ShipView {
                    id: sh.id,
                    owner: sh.owner,
                    class: sh.class,
                    size: sh.size,
                    alive: sh.alive,
                    hull: if sh.alive {
                        mine(sh.owner, &sh.hull)
                    } else {
                        Cards::Count(0)
                    },
                })
                .collect(),
            attacks: state
                .attacks
                .iter()
                .map(|a| AttackView {
                    from: a.from,
                    target: a.target,
                    attacker: a.attacker,
                    card: (a.face_up || a.attacker == seat).then_some(a.card),
                    face_up: a.face_up,
                })
                .collect(),
            step: state.step,
            pending: state.pending_for(seat),
            result: state.result,
        }
    }

    /// The observing seat (0-based).
    pub fn seat(&self) -> u8 {
        self.seat
    }
    /// Number of seats.
    pub fn players(&self) -> usize {
        self.players as usize
    }
    /// Current round (0 during setup).
    pub fn round(&self) -> u16 {
        self.round
    }
    /// The decision this seat owes now.
    pub fn pending(&self) -> Option<DecisionKind> {
        self.pending
    }
    /// The step of the game.
    pub fn step(&self) -> Step {
        self.step
    }
    /// Ships as seen by this seat.
    pub fn ships(&self) -> &[ShipView] {
        &self.ships
    }
    /// Seats as seen by this seat.
    pub fn seats(&self) -> &[SeatView] {
        &self.seats
    }
    /// Attack cards on the table as seen by this seat.
    pub fn attacks(&self) -> &[AttackView] {
        &self.attacks
    }
    /// The face-up discard pile.
    pub fn discard(&self) -> &[Card] {
        &self.discard
    }
    /// Size of the draw pile.
    pub fn draw_len(&self) -> usize {
        self.draw as usize
    }
    /// The result, once the game is over.
    pub fn outcome(&self) -> Option<Outcome> {
        self.result
    }
}
