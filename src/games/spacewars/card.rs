//! Playing cards: the 52 standard cards plus the joker, their codes (`TD`, `QH`, `X`) and values.

use nom::{
    branch::alt,
    character::complete::{char, one_of},
    combinator::{map, map_opt},
    sequence::pair,
    IResult,
};
use std::fmt;

/// A card suit.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Suit {
    /// ♣ clubs: crew.
    Clubs,
    /// ♦ diamonds: lasers and shields.
    Diamonds,
    /// ♥ hearts: missiles.
    Hearts,
    /// ♠ spades: ECM.
    Spades,
}

impl Suit {
    /// All suits in code order.
    pub const ALL: [Suit; 4] = [Suit::Clubs, Suit::Diamonds, Suit::Hearts, Suit::Spades];

    /// The suit's letter in card codes.
    pub fn code(self) -> char {
        ['C', 'D', 'H', 'S'][self as usize]
    }
}

/// One card; cards are not unique across decks (two `QH` may exist). Index 0..52 for the standard
/// cards (suit-major), 52 for the joker.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Card(u8);

/// Number of distinct card kinds (52 standard + joker), the size of per-kind tables.
pub const KINDS: usize = 53;

impl Card {
    /// The joker.
    pub const JOKER: Card = Card(52);

    /// A standard card from its rank (1 = ace .. 13 = king) and suit; `None` for a rank out of range.
    pub fn new(rank: u8, suit: Suit) -> Option<Card> {
        (1..=13)
            .contains(&rank)
            .then(|| Card(suit as u8 * 13 + rank - 1))
    }

    /// The card with a table index (`0..KINDS`).
    pub fn from_index(i: usize) -> Option<Card> {
        (i < KINDS).then_some(Card(i as u8))
    }

    /// Index into per-kind tables.
    pub fn index(self) -> usize {
        self.0 as usize
    }

    /// Whether this is a joker.
    pub fn is_joker(self) -> bool {
        self.0 == 52
    }

    /// Rank 1 (ace) ..= 13 (king); `None` for the joker.
    pub fn rank(self) -> Option<u8> {
        (!self.is_joker()).then(|| self.0 % 13 + 1)
    }

    /// Suit; `None` for the joker.
    pub fn suit(self) -> Option<Suit> {
        (!self.is_joker()).then(|| Suit::ALL[(self.0 / 13) as usize])
    }

    /// Value: ace 1, 2–10 face value, jack 11, queen 12, king 13; the joker has none (0).
    pub fn value(self) -> u8 {
        self.rank().unwrap_or(0)
    }

    /// Every card kind in index order.
    pub fn all() -> impl Iterator<Item = Card> {
        (0..KINDS as u8).map(Card)
    }
}

const RANKS: &str = "A23456789TJQK";

impl fmt::Display for Card {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.rank(), self.suit()) {
            (Some(r), Some(s)) => write!(
                f,
                "{}{}",
                RANKS.as_bytes()[r as usize - 1] as char,
                s.code()
            ),
            _ => f.write_str("X"),
        }
    }
}

/// nom parser for one card code: rank `A 2..9 T J Q K` + suit `C D H S`, or `X`.
pub fn card(input: &str) -> IResult<&str, Card> {
    alt((
        map(char('X'), |_| Card::JOKER),
        map_opt(
            pair(one_of(RANKS), one_of("CDHS")),
            |(r, s): (char, char)| {
                let rank = RANKS.find(r)? as u8 + 1;
                let suit = Suit::ALL["CDHS".find(s)?];
                Card::new(rank, suit)
            },
        ),
    ))(input)
}

impl std::str::FromStr for Card {
    type Err = String;
    fn from_str(s: &str) -> Result<Card, String> {
        match card(s) {
            Ok(("", c)) => Ok(c),
            _ => Err(format!("malformed card code '{s}'")),
        }
    }
}

/// A multiset of cards as a count per kind: the card counter of the engines and the fast
/// "does this hand hold these cards" check of the rules core.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CardCounts(pub [u8; KINDS]);

impl Default for CardCounts {
    fn default() -> Self {
        CardCounts([0; KINDS])
    }
}

impl CardCounts {
    /// Counts of the cards in a slice.
    pub fn of(cards: &[Card]) -> CardCounts {
        let mut c = CardCounts::default();
        for &k in cards {
            c.0[k.index()] += 1;
        }
        c
    }

    /// Whether every card of `sub` (with multiplicity) is in `self`.
    pub fn contains(&self, sub: &CardCounts) -> bool {
        self.0.iter().zip(sub.0.iter()).all(|(a, b)| a >= b)
    }

    /// Total number of cards.
    pub fn total(&self) -> usize {
        self.0.iter().map(|&n| n as usize).sum()
    }
}

/// Formats cards as a comma-joined list of codes (`-` for none).
pub fn join_cards(cards: &[Card]) -> String {
    if cards.is_empty() {
        return "-".into();
    }
    let v: Vec<String> = cards.iter().map(|c| c.to_string()).collect();
    v.join(",")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_round_trip() {
        for c in Card::all() {
            let s = c.to_string();
            assert_eq!(s.parse::<Card>().unwrap(), c);
        }
        assert_eq!("TD".parse::<Card>().unwrap().value(), 10);
        assert_eq!("AS".parse::<Card>().unwrap().value(), 1);
        assert!("1D".parse::<Card>().is_err());
        assert!("QZ".parse::<Card>().is_err());
        assert!("QHX".parse::<Card>().is_err());
    }
}
