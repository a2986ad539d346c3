//! Terms that depend on how far the game has gone, for every loaded variant: the phase is the
//! non-pawn, non-royal material left against the start's, and as it falls
//!
//! - **King centre**: the royal piece's centrality (playable squares within two king steps, so
//!   holes and edges count against a square) is worth more, scaled by the endgame share;
//! - **Pawn endgame**: each pawn is worth more, scaled the same way;
//! - **Endgame values**: each other piece's value changes by its kind's weight per eighth of
//!   the endgame share (a tapered value: the start's at the start, the endgame's at the end);
//! - **Passed endgame**: each passed-pawn unit (counted with the board-dependent terms) is worth
//!   more, scaled by the endgame share, as a passed pawn runs more freely with fewer pieces;
//! - **Endgame squares**: each piece's square bonus changes by its kind's and square's weight per
//!   eighth of the endgame share (a tapered piece-square table);
//!
//! and, at any phase, the **pair**: a side with pieces of one colour-bound kind (the bishop, the
//! alfil) on squares of both colours.
//!
//! Each is a feature of `eval_features`; a side's tally is recounted from its piece list (a few
//! dozen lookups) and skipped while their weights are all 0 (Spider-Chess).

use super::super::position::Position;
use super::super::variant::{cell_kind, Variant, EMPTY, MAX_KINDS};
use super::EvalWeights;

/// The endgame share's scale: 0 with the start's material on the board, `ENDGAME` without any.
pub(crate) const ENDGAME: i32 = 64;
/// The steps of the endgame share that scale the endgame values (eighths: a weight of 1 is 8
/// centipawns at the end, so a weight keeps a fine unit with integer features).
pub(crate) const EIGHTHS: i32 = 8;

/// Per variant: the tables of these terms.
#[derive(Clone, Debug, Default)]
pub(crate) struct PhaseTables {
    /// Per square: playable squares within two king steps (itself included).
    pub centre: Vec<u8>,
    /// Non-pawn, non-royal material of both sides at the start (at least 1).
    pub start_material: i32,
    /// Bit per kind: every rule of the kind keeps the piece on squares of one colour.
    pub colour_bound: u32,
    /// Per colour, indexed `kind * size + square` (mailbox): the endgame square weight of a
    /// piece there (empty while they are all 0).
    pub squares: [Vec<i32>; 2],
    /// Whether any weight of these terms is nonzero (else the evaluation skips them).
    pub on: bool,
}

/// White-minus-Black features of these terms.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Phase {
    /// Endgame share times the royal pieces' centrality difference, over `ENDGAME`.
    pub king_centre: i32,
    /// Endgame share times the pawn-count difference, over `ENDGAME`.
    pub pawns: i32,
    /// Whether White has a colour-bound pair, minus the same for Black.
    pub pair: i32,
    /// Per kind: the endgame share in eighths times the piece-count difference (board and
    /// hand); 0 for the pawn and the royal piece.
    pub kinds: [i32; MAX_KINDS],
    /// The endgame share, 0 to `ENDGAME`.
    pub endgame: i32,
    /// The endgame square weights of White's pieces minus Black's, times the endgame share in
    /// eighths: already weighted (their features are counted by `eval_features`).
    pub squares: i32,
}

impl Phase {
    /// White's score of these terms under weights `w`, `passed` White's passed-pawn units minus
    /// Black's (0 when the board-dependent terms are off).
    #[inline]
    pub(crate) fn score(&self, w: &EvalWeights, passed: i32) -> i32 {
        let values: i32 = w.endgame.iter().zip(&self.kinds).map(|(w, n)| w * n).sum();
        w.king_centre * self.king_centre
            + w.pawn_endgame * self.pawns
            + w.pair * self.pair
            + w.passed_endgame * self.passed_endgame(passed)
            + values
            + self.squares
    }

    /// The passed-endgame feature of a White-minus-Black difference of passed-pawn units: the
    /// endgame share times it, over `ENDGAME`.
    #[inline]
    pub(crate) fn passed_endgame(&self, passed: i32) -> i32 {
        self.endgame * passed / ENDGAME
    }
}

impl PhaseTables {
    /// The tables of `v` (its weights decide [`on`](Self::on) and the start's material).
    pub(crate) fn new(v: &Variant) -> PhaseTables {
        // Two king steps stay inside the mailbox's padding, as the king-zone scan does.
        let stride = v.stride as isize;
        let mut centre = vec![0u8; v.size];
        for &sq in &v.playable {
            let s = sq as isize;
            centre[sq as usize] = (-2..=2isize)
                .flat_map(|dy| (-2..=2isize).map(move |dx| s + dy * stride + dx))
                .filter(|&t| v.template[t as usize] == EMPTY)
                .count() as u8;
        }
        let w = &v.weights;
        let mut start_material = 0;
        for counts in &v.initial_total {
            for (k, &n) in counts.iter().enumerate() {
                if k as u8 != v.pawn && k as u8 != v.royal {
                    start_material += n as i32 * w.values.get(k).copied().unwrap_or(0);
                }
            }
        }
        let tapered = w.endgame_squares.iter().any(|&x| x != 0);
        let squares = if tapered {
            super::mailbox_tables(v, &w.endgame_squares)
        } else {
            [Vec::new(), Vec::new()]
        };
        PhaseTables {
            centre,
            start_material: start_material.max(1),
            colour_bound: colour_bound_kinds(v),
            squares,
            on: w.king_centre != 0
                || w.pawn_endgame != 0
                || w.pair != 0
                || w.passed_endgame != 0
                || w.endgame.iter().any(|&x| x != 0)
                || tapered,
        }
    }
}

/// Bit per kind whose every rule (plain and special, for White) moves by an even number of files
/// plus ranks, so that its pieces never change square colour.
fn colour_bound_kinds(v: &Variant) -> u32 {
    // Offsets are read from the middle of the mailbox, where no step wraps a row.
    let stride = v.stride as isize;
    let mid = (v.size as isize / stride / 2) * stride + stride / 2;
    let parity = |delta: isize| {
        let to = mid + delta;
        if to < 0 || to as usize >= v.size {
            return 1;
        }
        let (a, b) = (v.xy[mid as usize], v.xy[to as usize]);
        ((a.0 + a.1 + b.0 + b.1) & 1) as u32
    };
    let mut out = 0;
    for k in 0..v.definition().pieces.len() {
        let plain = &v.steps[0][k];
        let special = &v.specials[0][k];
        if plain.is_empty() && special.is_empty() {
            continue;
        }
        let odd = plain.iter().map(|s| parity(s.delta)).sum::<u32>()
            + special.iter().map(|s| parity(s.delta)).sum::<u32>();
        if odd == 0 {
            out |= 1 << k;
        }
    }
    out
}

impl Position {
    /// The phase terms' features, counted on the board.
    pub(crate) fn phase_terms(&self) -> Phase {
        let v = &*self.variant;
        let t = &v.phase;
        let mut material = 0;
        let mut pawns = [0i32; 2];
        let mut pair = [0i32; 2];
        let mut count = [0i32; MAX_KINDS];
        let mut squares = 0;
        for (c, list) in self.list.iter().enumerate() {
            let sign = 1 - 2 * c as i32;
            // Per colour-bound kind: bit 0 a piece on a light square, bit 1 on a dark one.
            let mut seen = [0u8; MAX_KINDS];
            let table = &t.squares[c];
            for &sq in list {
                let kind = cell_kind(self.board[sq as usize]);
                if !table.is_empty() {
                    squares += sign * table[kind as usize * v.size + sq as usize];
                }
                if kind == v.pawn {
                    pawns[c] += 1;
                } else if kind != v.royal {
                    material += v.values[kind as usize];
                    count[kind as usize] += sign;
                    if t.colour_bound >> kind & 1 != 0 {
                        let (x, y) = v.xy[sq as usize];
                        seen[kind as usize] |= 1 << ((x + y) & 1);
                    }
                }
            }
            pair[c] = seen.contains(&3) as i32;
            if v.drops {
                let kinds = v.pieces().len();
                for (k, &n) in self.hand[c][..kinds].iter().enumerate() {
                    if k as u8 != v.pawn && k as u8 != v.royal {
                        count[k] += sign * n as i32;
                    }
                }
            }
        }
        let endgame = ENDGAME - (ENDGAME * material / t.start_material).min(ENDGAME);
        let centre = |c: usize| t.centre[self.king[c] as usize] as i32;
        let eighths = endgame * EIGHTHS / ENDGAME;
        Phase {
            king_centre: endgame * (centre(0) - centre(1)) / ENDGAME,
            pawns: endgame * (pawns[0] - pawns[1]) / ENDGAME,
            pair: pair[0] - pair[1],
            kinds: count.map(|n| eighths * n),
            endgame,
            squares: eighths * squares,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::super::variant::test_variant;
    use super::*;

    fn at(name: &str, fen: &str) -> Position {
        let v = test_variant(name);
        Position::from_fen(&v, fen).unwrap()
    }

    #[test]
    fn only_the_bishop_is_colour_bound_in_chess_and_both_minor_pieces_in_shatranj() {
        let chess = test_variant("chess");
        let letters = |v: &Variant| -> Vec<char> {
            v.pieces()
                .iter()
                .enumerate()
                .filter(|(k, _)| v.phase.colour_bound >> k & 1 != 0)
                .map(|(_, p)| p.letter)
                .collect()
        };
        assert_eq!(letters(&chess), vec!['B']);
        let shatranj = test_variant("shatranj");
        let mut s = letters(&shatranj);
        s.sort();
        assert_eq!(s, vec!['B', 'Q'], "elephant (alfil) and general (ferz)");
    }

    #[test]
    fn the_endgame_share_grows_as_material_leaves() {
        let start = at(
            "chess",
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        );
        let p = start.phase_terms();
        assert_eq!(p, Phase::default(), "symmetric start, no endgame share");
        // Kings and pawns only: full endgame share; White's king central, Black's in a corner,
        // White a pawn up.
        let bare = at("chess", "7k/6pp/8/8/3K4/8/5PPP/8 w - - 0 1");
        let b = bare.phase_terms();
        assert_eq!(b.pawns, 1);
        assert_eq!(b.king_centre, 25 - 9, "d4 sees 25 squares, h8 nine");
        // With a rook each the share is smaller, so the same difference counts less.
        let rooks = at("chess", "r6k/6pp/8/8/3K4/8/5PPP/R7 w - - 0 1");
        let r = rooks.phase_terms();
        assert!(r.king_centre > 0 && r.king_centre < b.king_centre);
        assert!(r.pawns <= b.pawns);
    }

    #[test]
    fn endgame_values_taper_with_the_share_in_eighths() {
        let v = test_variant("chess");
        let rook = v.pieces().iter().position(|p| p.letter == 'R').unwrap();
        let start = Position::startpos(&v);
        assert_eq!(
            start.phase_terms().kinds,
            [0; MAX_KINDS],
            "no endgame share"
        );
        // White a rook up, three rooks of the start's 7,196 of material left: the share is
        // 64 - 64 * 1,662 / 7,196 = 50 sixty-fourths, 6 eighths.
        let fen = "r6k/6pp/8/8/3K4/8/5PPP/R6R w - - 0 1";
        let p = Position::from_fen(&v, fen).unwrap().phase_terms();
        assert_eq!(p.kinds[rook], 6);
        assert_eq!(
            p.kinds.iter().filter(|&&n| n != 0).count(),
            1,
            "only rooks differ"
        );
        // The weight moves White's evaluation by weight times eighths, either way.
        for weight in [5, -7] {
            let mut w = v.weights().clone();
            w.endgame[rook] = weight;
            let tapered = std::sync::Arc::new(Variant::clone(&v).with_weights(w).unwrap());
            assert!(tapered.phase.on);
            let before = Position::from_fen(&v, fen).unwrap().evaluate();
            let after = Position::from_fen(&tapered, fen).unwrap().evaluate();
            assert_eq!(after - before, 6 * weight);
        }
    }

    #[test]
    fn passed_pawns_gain_with_the_endgame_share() {
        let v = test_variant("chess");
        let mut w = v.weights().clone();
        w.passed_endgame = 10;
        let on = std::sync::Arc::new(Variant::clone(&v).with_weights(w).unwrap());
        assert!(on.phase.on && on.activity.on);
        let gain = |fen: &str| {
            let at = |v: &std::sync::Arc<Variant>| Position::from_fen(v, fen).unwrap().evaluate();
            at(&on) - at(&v)
        };
        // White's passed pawn on d5 (rank 5: 9 units). Kings and pawns only: the whole share.
        let bare = "7k/6pp/8/3P4/8/8/6PP/6K1 w - - 0 1";
        assert_eq!(gain(bare), 10 * 9);
        // With a rook each the share is 50 sixty-fourths (see the endgame values above).
        assert_eq!(
            gain("r6k/6pp/8/3P4/8/8/6PP/R5K1 w - - 0 1"),
            10 * (50 * 9 / 64)
        );
        // From Black's side the sign turns; without a passed pawn nothing changes.
        assert_eq!(gain("7k/6pp/8/3P4/8/8/6PP/6K1 b - - 0 1"), -10 * 9);
        assert_eq!(gain("7k/6pp/8/8/8/8/6PP/6K1 w - - 0 1"), 0);
        assert_eq!(
            gain("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"),
            0,
            "no share at the start"
        );
    }

    #[test]
    fn a_pair_needs_pieces_on_both_colours() {
        // White: bishops on c1 and f1 (two colours); Black's on c8 and f8, then on c8 and e6 (one).
        let p = at("chess", "2b1kb2/8/8/8/8/8/8/2B1KB2 w - - 0 1");
        assert_eq!(p.phase_terms().pair, 0, "both sides have the pair");
        let q = at("chess", "2b1k3/8/4b3/8/8/8/8/2B1KB2 w - - 0 1");
        assert_eq!(q.phase_terms().pair, 1, "Black's bishops share a colour");
    }
}
