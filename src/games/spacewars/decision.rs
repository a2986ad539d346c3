//! Every decision a seat makes, the kinds of pending decisions, and why a decision is refused.

use super::card::Card;
use std::fmt;

/// One attack card placed in the Tactical step: `card` from ship `from` at ship `target`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct AttackOrder {
    /// Ship the card comes from (must be the seat's).
    pub from: u8,
    /// The attack card.
    pub card: Card,
    /// Ship attacked (another player's).
    pub target: u8,
}

/// A decision of one seat; ship ids 0-based.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Decision {
    /// Choose a ship class by placing `card` (a queen for a battleship, a joker for a mother ship,
    /// any card for fighters).
    Class {
        /// Class id in the ruleset.
        class: u8,
        /// The ship card.
        card: Card,
    },
    /// Split the hand into piles, one per fighter.
    Split(Vec<Vec<Card>>),
    /// Discard cards from a hand larger than the class allows.
    Discard(Vec<Card>),
    /// The Tactical step: every attack card and its target (possibly none).
    Attack(Vec<AttackOrder>),
    /// Battle-stations: the next of the seat's attacked ships to defend.
    Defend(u8),
    /// Battle-stations: the next attack card to resolve on the ship being defended.
    Resolve {
        /// The attack card.
        card: Card,
        /// Ship that fired it.
        from: u8,
    },
    /// Blocking cards against the laser or missile being resolved.
    Block(Vec<Card>),
    /// Cards lost for unblocked points.
    Lose(Vec<Card>),
    /// The attacker's crew card for a boarding action.
    Crew(Card),
    /// The defender's clubs against boarders.
    Repel(Vec<Card>),
}

/// A decision whose cards are borrowed from the caller's buffers: what the rules core checks and
/// plays ([`State::check_play`](super::State::check_play),
/// [`State::play_unchecked`](super::State::play_unchecked)), so the searches can play decisions
/// without allocating. [`Decision::as_play`] borrows an owned decision.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Play<'a> {
    /// See [`Decision::Class`].
    Class {
        /// Class id in the ruleset.
        class: u8,
        /// The ship card.
        card: Card,
    },
    /// See [`Decision::Split`].
    Split(&'a [Vec<Card>]),
    /// See [`Decision::Discard`].
    Discard(&'a [Card]),
    /// See [`Decision::Attack`].
    Attack(&'a [AttackOrder]),
    /// See [`Decision::Defend`].
    Defend(u8),
    /// See [`Decision::Resolve`].
    Resolve {
        /// The attack card.
        card: Card,
        /// Ship that fired it.
        from: u8,
    },
    /// See [`Decision::Block`].
    Block(&'a [Card]),
    /// See [`Decision::Lose`].
    Lose(&'a [Card]),
    /// See [`Decision::Crew`].
    Crew(Card),
    /// See [`Decision::Repel`].
    Repel(&'a [Card]),
}

impl Play<'_> {
    /// The keyword of the decision's text form.
    pub fn keyword(&self) -> &'static str {
        match self {
            Play::Class { .. } => "class",
            Play::Split(_) => "split",
            Play::Discard(_) => "discard",
            Play::Attack(_) => "attack",
            Play::Defend(_) => "defend",
            Play::Resolve { .. } => "resolve",
            Play::Block(_) => "block",
            Play::Lose(_) => "lose",
            Play::Crew(_) => "crew",
            Play::Repel(_) => "repel",
        }
    }

    /// An owned copy.
    pub fn to_decision(&self) -> Decision {
        match *self {
            Play::Class { class, card } => Decision::Class { class, card },
            Play::Split(p) => Decision::Split(p.to_vec()),
            Play::Discard(c) => Decision::Discard(c.to_vec()),
            Play::Attack(o) => Decision::Attack(o.to_vec()),
            Play::Defend(s) => Decision::Defend(s),
            Play::Resolve { card, from } => Decision::Resolve { card, from },
            Play::Block(c) => Decision::Block(c.to_vec()),
            Play::Lose(c) => Decision::Lose(c.to_vec()),
            Play::Crew(c) => Decision::Crew(c),
            Play::Repel(c) => Decision::Repel(c.to_vec()),
        }
    }
}

/// What kind of decision a seat owes now.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DecisionKind {
    /// [`Decision::Class`].
    Class,
    /// [`Decision::Split`].
    Split,
    /// [`Decision::Discard`] of this many cards.
    Discard(u8),
    /// [`Decision::Attack`].
    Attack,
    /// [`Decision::Defend`].
    Defend,
    /// [`Decision::Resolve`].
    Resolve,
    /// [`Decision::Block`].
    Block,
    /// [`Decision::Lose`] of this many cards.
    Lose(u8),
    /// [`Decision::Crew`].
    Crew,
    /// [`Decision::Repel`].
    Repel,
}

impl DecisionKind {
    /// The keyword of the decision's text form.
    pub fn keyword(self) -> &'static str {
        match self {
            DecisionKind::Class => "class",
            DecisionKind::Split => "split",
            DecisionKind::Discard(_) => "discard",
            DecisionKind::Attack => "attack",
            DecisionKind::Defend => "defend",
            DecisionKind::Resolve => "resolve",
            DecisionKind::Block => "block",
            DecisionKind::Lose(_) => "lose",
            DecisionKind::Crew => "crew",
            DecisionKind::Repel => "repel",
        }
    }
}

impl Decision {
    /// The keyword of this decision's text form (equals its kind's keyword).
    pub fn keyword(&self) -> &'static str {
        self.as_play().keyword()
    }

    /// The decision with its cards borrowed, as the rules core checks and plays it.
    pub fn as_play(&self) -> Play<'_> {
        match self {
            Decision::Class { class, card } => Play::Class {
                class: *class,
                card: *card,
            },
            Decision::Split(p) => Play::Split(p),
            Decision::Discard(c) => Play::Discard(c),
            Decision::Attack(o) => Play::Attack(o),
            Decision::Defend(s) => Play::Defend(*s),
            Decision::Resolve { card, from } => Play::Resolve {
                card: *card,
                from: *from,
            },
            Decision::Block(c) => Play::Block(c),
            Decision::Lose(c) => Play::Lose(c),
            Decision::Crew(c) => Play::Crew(*c),
            Decision::Repel(c) => Play::Repel(c),
        }
    }
}

/// Why the rules core refused a decision (the state is unchanged).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Illegal {
    /// The game is over.
    GameOver,
    /// This seat owes no decision now.
    NotPending {
        /// 0-based seat.
        seat: u8,
    },
    /// The seat owes another kind of decision.
    WrongKind {
        /// What is expected.
        expected: DecisionKind,
        /// What was given.
        got: &'static str,
    },
    /// No such seat at this table.
    NoSuchSeat(u8),
    /// No such ship class.
    NoSuchClass(u8),
    /// The card does not fit the chosen class's marker rule.
    WrongMarker(Card),
    /// The seat (or ship) does not hold this card (counting duplicates).
    NotHeld(Card),
    /// Wrong number of cards or piles.
    WrongCount {
        /// Expected number.
        expected: usize,
        /// Given number.
        got: usize,
    },
    /// A fighter pile is empty or larger than the ship size.
    BadPile(usize),
    /// No such (living) ship.
    NoSuchShip(u8),
    /// The ship is not the seat's.
    NotYourShip(u8),
    /// The card cannot attack.
    NotAnAttackCard(Card),
    /// Attacks must target another player's ship.
    OwnShipTarget(u8),
    /// The ship has no attack cards on it.
    NotAttacked(u8),
    /// No such attack card on the ship being defended.
    NoSuchAttack(Card, u8),
    /// The card does not block this attack / is not crew.
    WrongRole(Card),
    /// The set does not reach the value while the ship's cards could.
    TooLow {
        /// Value to reach.
        need: u8,
        /// Value played.
        got: u8,
    },
    /// A card could be taken back with the rest still reaching the value.
    NotMinimal,
    /// The ship cannot reach the value, so it must play all these cards.
    MustPlayAll,
}

impl fmt::Display for Illegal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Illegal::GameOver => write!(f, "the game is over"),
            Illegal::NotPending { seat } => write!(f, "seat {} owes no decision now", seat + 1),
            Illegal::WrongKind { expected, got } => write!(
                f,
                "wrong decision type: expected '{}', got '{}'",
                expected.keyword(),
                got
            ),
            Illegal::NoSuchSeat(s) => write!(f, "no seat {}", *s as u16 + 1),
            Illegal::NoSuchClass(c) => write!(f, "no ship class {c}"),
            Illegal::WrongMarker(c) => write!(f, "{c} cannot be the ship card of that class"),
            Illegal::NotHeld(c) => write!(f, "card {c} is not held there"),
            Illegal::WrongCount { expected, got } => {
                write!(f, "expected {expected} items, got {got}")
            }
            Illegal::BadPile(i) => write!(f, "pile {} has a wrong size", i + 1),
            Illegal::NoSuchShip(s) => write!(f, "no living ship {}", *s as u16 + 1),
            Illegal::NotYourShip(s) => write!(f, "ship {} is not yours", *s as u16 + 1),
            Illegal::NotAnAttackCard(c) => write!(f, "{c} is not an attack card"),
            Illegal::OwnShipTarget(s) => write!(
                f,
                "ship {} is your own: attacks must target another player's ship",
                *s as u16 + 1
            ),
            Illegal::NotAttacked(s) => {
                write!(f, "ship {} has no attack cards on it", *s as u16 + 1)
            }
            Illegal::NoSuchAttack(c, s) => {
                write!(f, "no attack {c} from ship {} here", *s as u16 + 1)
            }
            Illegal::WrongRole(c) => write!(f, "{c} cannot be played for this"),
            Illegal::TooLow { need, got } => {
                write!(f, "total {got} does not reach {need} though the ship could")
            }
            Illegal::NotMinimal => write!(f, "set is not minimal: a card could be taken back"),
            Illegal::MustPlayAll => write!(
                f,
                "the ship cannot reach the value: it must play all such cards"
            ),
        }
    }
}

impl std::error::Error for Illegal {}
