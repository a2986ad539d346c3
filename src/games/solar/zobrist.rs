//! Zobrist keys for board pieces (type, colour, owner), hand counts and the seat to move.

use super::geometry::TILES;
use super::piece::{Colour, Kind, Piece, MAX_SEATS};
use std::sync::OnceLock;

/// The random keys, generated once from a fixed seed.
pub struct Zobrist {
    piece: Vec<u64>,
    hand: Vec<u64>,
    to_move: [u64; MAX_SEATS],
}

fn splitmix(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

impl Zobrist {
    /// The keys.
    pub fn get() -> &'static Zobrist {
        static Z: OnceLock<Zobrist> = OnceLock::new();
        Z.get_or_init(|| {
            let mut s = 0x5014_C0DE_u64;
            let piece = (0..TILES * 4 * 6 * (MAX_SEATS + 1))
                .map(|_| splitmix(&mut s))
                .collect();
            let hand = (0..MAX_SEATS * 3 * 6).map(|_| splitmix(&mut s)).collect();
            let mut to_move = [0; MAX_SEATS];
            for k in &mut to_move {
                *k = splitmix(&mut s);
            }
            Zobrist {
                piece,
                hand,
                to_move,
            }
        })
    }

    /// Key of a piece on a tile (XORed in and out).
    #[inline]
    pub fn piece(&self, tile: usize, p: Piece) -> u64 {
        let owner = p.owner.map_or(MAX_SEATS, |s| s as usize);
        self.piece[((tile * 4 + p.kind.index()) * 6 + p.colour.index()) * (MAX_SEATS + 1) + owner]
    }

    /// Key of one piece in a seat's hand; hand keys are added (wrapping) once per piece held.
    #[inline]
    pub fn hand(&self, seat: usize, kind: Kind, colour: Colour) -> u64 {
        let k = kind.hand_index().unwrap_or(0);
        self.hand[(seat * 3 + k) * 6 + colour.index()]
    }

    /// Key of the seat to move.
    #[inline]
    pub fn to_move(&self, seat: usize) -> u64 {
        self.to_move[seat]
    }
}
