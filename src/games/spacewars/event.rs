//! Public and private events of a game, as the rules core logs them; [`Event::line_for`] masks
//! what a seat may not see, so the referee can forward `event` lines to each seat.

use super::card::{join_cards, Card};
use super::ruleset::Ruleset;
use super::state::Outcome;

/// Something that happened at the table (ids and seats 0-based).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Event {
    /// A hand dealt (private to the seat).
    Dealt { seat: u8, cards: Vec<Card> },
    /// A ship card turned face up.
    Revealed { seat: u8, class: u8, card: Card },
    /// A card drawn by a seat (private), onto a ship if `ship` is set.
    Drew {
        seat: u8,
        ship: Option<u8>,
        card: Card,
    },
    /// Cards discarded face up by a seat (setup discards, fighter ship cards).
    Discarded { seat: u8, cards: Vec<Card> },
    /// A ship formed (its cards private to the owner).
    Formed {
        ship: u8,
        owner: u8,
        class: u8,
        cards: Vec<Card>,
    },
    /// After Engage: `count` face-down cards from `from` at `target`.
    Engaged { from: u8, target: u8, count: u8 },
    /// Attack cards on a ship turned face up (card, from).
    FaceUp { target: u8, cards: Vec<(Card, u8)> },
    /// An attack card starts to resolve.
    Resolving { target: u8, card: Card, from: u8 },
    /// Blocking cards played.
    Blocked { ship: u8, cards: Vec<Card> },
    /// Cards lost for unblocked points.
    Lost { ship: u8, cards: Vec<Card> },
    /// Crew sent from a ship.
    Crew { ship: u8, card: Card },
    /// Clubs played against boarders.
    Repelled { ship: u8, cards: Vec<Card> },
    /// A ship taken by boarders.
    Captured { ship: u8, by: u8 },
    /// A boarding action that failed (no crew, own ship, crew not higher).
    BoardingFailed { ship: u8 },
    /// A ship destroyed.
    Destroyed { ship: u8 },
    /// Attack cards discarded unresolved (their target was destroyed).
    Unresolved { ship: u8, cards: Vec<Card> },
    /// The discard pile shuffled into a new draw pile.
    Reshuffled { count: u16 },
    /// A seat with no ships left is out.
    Out { seat: u8 },
    /// A round begins.
    Round { n: u16 },
    /// The game ended.
    Over(Outcome),
}

fn id(x: u8) -> u16 {
    x as u16 + 1
}

impl Event {
    /// The event as seat `seat` may see it (hidden cards shown as `?` or as a count), in the
    /// text form sent after `event`.
    pub fn line_for(&self, seat: u8, rules: &Ruleset) -> String {
        self.line(Some(seat), rules)
    }

    /// The event with every card shown (the referee's view, and game records).
    pub fn line_all(&self, rules: &Ruleset) -> String {
        self.line(None, rules)
    }

    fn line(&self, viewer: Option<u8>, rules: &Ruleset) -> String {
        let sees = |s: &u8| viewer.is_none_or(|v| v == *s);
        let code = |c: &u8| rules.classes.get(*c as usize).map_or('?', |k| k.code);
        match self {
            Event::Dealt { seat: s, cards } => {
                if sees(s) {
                    format!("dealt {} {}", id(*s), join_cards(cards))
                } else {
                    format!("dealt {} #{}", id(*s), cards.len())
                }
            }
            Event::Revealed {
                seat: s,
                class,
                card,
            } => {
                format!("revealed {} {} {}", id(*s), code(class), card)
            }
            Event::Drew {
                seat: s,
                ship,
                card,
            } => {
                let shown = if sees(s) {
                    card.to_string()
                } else {
                    "?".into()
                };
                match ship {
                    Some(sh) => format!("drew {} ship {} {}", id(*s), id(*sh), shown),
                    None => format!("drew {} hand {}", id(*s), shown),
                }
            }
            Event::Discarded { seat: s, cards } => {
                format!("discarded {} {}", id(*s), join_cards(cards))
            }
            Event::Formed {
                ship,
                owner,
                class,
                cards,
            } => {
                let shown = if sees(owner) {
                    join_cards(cards)
                } else {
                    format!("#{}", cards.len())
                };
                format!(
                    "formed {} {} {} {}",
                    id(*ship),
                    id(*owner),
                    code(class),
                    shown
                )
            }
            Event::Engaged {
                from,
                target,
                count,
            } => {
                format!("engaged {}>{} #{}", id(*from), id(*target), count)
            }
            Event::FaceUp { target, cards } => {
                let v: Vec<String> = cards
                    .iter()
                    .map(|(c, f)| format!("{c}:{}", id(*f)))
                    .collect();
                format!("faceup {} {}", id(*target), v.join(","))
            }
            Event::Resolving { target, card, from } => {
                format!("resolving {} {}:{}", id(*target), card, id(*from))
            }
            Event::Blocked { ship, cards } => {
                format!("blocked {} {}", id(*ship), join_cards(cards))
            }
            Event::Lost { ship, cards } => format!("lost {} {}", id(*ship), join_cards(cards)),
            Event::Crew { ship, card } => format!("crew {} {}", id(*ship), card),
            Event::Repelled { ship, cards } => {
                format!("repelled {} {}", id(*ship), join_cards(cards))
            }
            Event::Captured { ship, by } => format!("captured {} by {}", id(*ship), id(*by)),
            Event::BoardingFailed { ship } => format!("boardingfailed {}", id(*ship)),
            Event::Destroyed { ship } => format!("destroyed {}", id(*ship)),
            Event::Unresolved { ship, cards } => {
                format!("unresolved {} {}", id(*ship), join_cards(cards))
            }
            Event::Reshuffled { count } => format!("reshuffled #{count}"),
            Event::Out { seat: s } => format!("out {}", id(*s)),
            Event::Round { n } => format!("round {n}"),
            Event::Over(o) => format!("over {}", o.text()),
        }
    }
}
