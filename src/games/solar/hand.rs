//! A player's hand: counts of droppable pieces by type and colour.

use super::piece::{Colour, Kind};

/// Pieces in one player's hand, counted by (type, colour); never holds Motherships.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Hand {
    counts: [[u8; 6]; 3],
}

impl Hand {
    /// How many pieces of this type and colour are in hand (0 for Motherships).
    pub fn count(&self, kind: Kind, colour: Colour) -> u8 {
        kind.hand_index()
            .map_or(0, |k| self.counts[k][colour.index()])
    }

    /// Adds one piece (a Mothership is ignored: it never goes to hand).
    pub fn add(&mut self, kind: Kind, colour: Colour) {
        if let Some(k) = kind.hand_index() {
            self.counts[k][colour.index()] += 1;
        }
    }

    /// Adds `n` pieces.
    pub fn add_n(&mut self, kind: Kind, colour: Colour, n: u8) {
        if let Some(k) = kind.hand_index() {
            self.counts[k][colour.index()] += n;
        }
    }

    /// Removes one piece; the caller guarantees it is there.
    pub fn remove(&mut self, kind: Kind, colour: Colour) {
        if let Some(k) = kind.hand_index() {
            self.counts[k][colour.index()] -= 1;
        }
    }

    /// Sets the count of one (type, colour).
    pub fn set(&mut self, kind: Kind, colour: Colour, n: u8) {
        if let Some(k) = kind.hand_index() {
            self.counts[k][colour.index()] = n;
        }
    }

    /// Whether the hand holds nothing.
    pub fn is_empty(&self) -> bool {
        self.total() == 0
    }

    /// Number of pieces in hand.
    pub fn total(&self) -> u32 {
        self.counts.iter().flatten().map(|&n| n as u32).sum()
    }

    /// Number of pieces of each droppable type (`Kind::IN_HAND` order), all colours together.
    pub fn kind_totals(&self) -> [u32; 3] {
        let mut out = [0; 3];
        for (o, row) in out.iter_mut().zip(&self.counts) {
            *o = row.iter().map(|&n| n as u32).sum();
        }
        out
    }

    /// Calls `f` for every (type, colour, count) with a positive count, in text order; the
    /// allocation- and closure-chain-free form of [`entries`](Hand::entries) for hot paths.
    #[inline]
    pub fn for_each(&self, mut f: impl FnMut(Kind, Colour, u8)) {
        for (k, row) in self.counts.iter().enumerate() {
            for (c, &n) in row.iter().enumerate() {
                if n > 0 {
                    f(Kind::IN_HAND[k], Colour::ALL[c], n);
                }
            }
        }
    }

    /// Every (type, colour, count) with a positive count, in text order (O M F; w k r u g s).
    pub fn entries(&self) -> impl Iterator<Item = (Kind, Colour, u8)> + '_ {
        Kind::IN_HAND.into_iter().flat_map(move |k| {
            Colour::ALL.into_iter().filter_map(move |c| {
                let n = self.count(k, c);
                (n > 0).then_some((k, c, n))
            })
        })
    }

    /// Takes every piece of one colour out of the hand, returning them as a hand.
    pub fn take_colour(&mut self, colour: Colour) -> Hand {
        let mut out = Hand::default();
        for k in 0..3 {
            out.counts[k][colour.index()] = std::mem::take(&mut self.counts[k][colour.index()]);
        }
        out
    }

    /// Takes every piece out of the hand.
    pub fn take_all(&mut self) -> Hand {
        std::mem::take(self)
    }

    /// Adds every piece of `other`, recoloured to `colour` when given.
    pub fn absorb(&mut self, other: &Hand, colour: Option<Colour>) {
        for (k, c, n) in other.entries() {
            self.add_n(k, colour.unwrap_or(c), n);
        }
    }
}
