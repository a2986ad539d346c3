//! Static exchange evaluation: the material balance of the capture sequence on one square when
//! both sides recapture with their least valuable attacker and may stop at any point.
//!
//! Attackers are found with the generator's attack tables ([`AttackRay`](super::variant::AttackRay)
//! walks and lame leaps) on the board with the pieces already exchanged treated as empty, so
//! riders and sliders behind an exchanged piece (x-rays, including through a nightrider's line)
//! join the sequence. Pins are ignored, as usual. A king recaptures only when the other side has
//! no attacker left. A pawn that promotes by the first capture counts as the promoted piece; later
//! recaptures do not promote (conservative).
//!
//! Used by the search for capture ordering, quiescence pruning and pruning of losing moves
//! ([`crate::search::TwoSided::see_ge`]).

use super::position::{Move, Position};
use super::square::Color;
use super::variant::{EMPTY, OFF};
use crate::search::Score;

/// Most pieces an exchange removes before it is cut off (a longer one is scored as it stands).
const MAX_EXCHANGE: usize = 32;

impl Position {
    /// Value of a piece kind in exchanges (the royal piece counts 0: it only ever captures last).
    #[inline]
    fn exchange_value(&self, kind: u8) -> Score {
        self.variant.values[kind as usize]
    }

    /// The least valuable piece of `by` attacking `sq` on the board with the squares in `gone`
    /// treated as empty: its square and kind.
    pub(crate) fn least_attacker(&self, sq: usize, by: Color, gone: &[u16]) -> Option<(u16, u8)> {
        let v = &*self.variant;
        // A pawn found attacking ends the scan when no piece is worth less.
        let cheapest = if v.pawn as usize >= v.values.len() {
            u8::MAX
        } else if v
            .values
            .iter()
            .enumerate()
            .all(|(k, &x)| k as u8 == v.royal || x >= v.values[v.pawn as usize])
        {
            v.pawn
        } else {
            u8::MAX
        };
        let board = &self.board;
        let cell = |t: usize| {
            let c = board[t];
            if c != EMPTY && c != OFF && gone.contains(&(t as u16)) {
                EMPTY
            } else {
                c
            }
        };
        let royal = v.royal;
        // (value, square, kind); the royal piece sorts last.
        let mut best: Option<(Score, u16, u8)> = None;
        let mut consider = |t: usize, kind: u8| {
            let value = if kind == royal {
                Score::MAX
            } else {
                self.exchange_value(kind)
            };
            if best.is_none_or(|b| value < b.0) {
                best = Some((value, t as u16, kind));
            }
        };
        for ray in &v.rays[by.index()] {
            if let Some((t, kind)) = ray.attacker(sq, by, &cell) {
                // Nothing is cheaper than a pawn: no need to look further.
                if kind == cheapest {
                    return Some((t as u16, kind));
                }
                consider(t, kind);
            }
        }
        for l in &v.lame_attacks[by.index()] {
            if let Some((p, kind)) = l.attacker(sq, by, &cell) {
                consider(p, kind);
            }
        }
        best.map(|(_, t, k)| (t, k))
    }

    /// Whether the exchange sequence started by `mv` (a legal move) gains at least `threshold`
    /// centipawns for the side to move. A non-capture counts as putting the piece where the
    /// opponent may take it.
    pub fn see_ge(&self, mv: Move, threshold: Score) -> bool {
        let v = &*self.variant;
        let (from, to) = (mv.from as usize, mv.to as usize);
        // A drop's origin is its kind and an en passant victim stands beside the target: the
        // position's helpers know (castling and drops capture nothing).
        let moved = self.moving_kind(mv);
        let victim = self.captured_kind(mv).map_or(0, |k| self.exchange_value(k));
        let (standing, promo_gain) = match mv.promotion() {
            Some(p) => (p, self.exchange_value(p) - self.exchange_value(moved)),
            None => (moved, 0),
        };
        let mut swap = victim + promo_gain - threshold;
        if swap < 0 {
            return false;
        }
        swap = if standing == v.royal {
            0
        } else {
            self.exchange_value(standing)
        } - swap;
        if swap <= 0 {
            return true;
        }
        let mut gone = [0u16; MAX_EXCHANGE];
        gone[0] = from as u16;
        let mut n = 1;
        let mut stm = self.side;
        // `res` is 1 when the side that made the last capture is ahead of the threshold.
        let mut res = 1;
        loop {
            stm = stm.opposite();
            let Some((sq, kind)) = self.least_attacker(to, stm, &gone[..n]) else {
                break;
            };
            res ^= 1;
            if kind == v.royal {
                // The king may take only if the other side cannot take back.
                let other = self.least_attacker(to, stm.opposite(), &gone[..n]);
                return if other.is_some() { res ^ 1 } else { res } == 1;
            }
            swap = self.exchange_value(kind) - swap;
            if swap < res {
                break;
            }
            if n == MAX_EXCHANGE {
                break;
            }
            gone[n] = sq;
            n += 1;
        }
        res == 1
    }

    /// The exact static exchange value of `mv` (for tests and diagnostics): the largest threshold
    /// `see_ge` accepts, found by bisection.
    pub fn see_value(&self, mv: Move) -> Score {
        let (mut lo, mut hi) = (-100_000, 100_000);
        while lo < hi {
            let mid = lo + (hi - lo + 1) / 2;
            if self.see_ge(mv, mid) {
                lo = mid;
            } else {
                hi = mid - 1;
            }
        }
        lo
    }
}

#[cfg(test)]
mod tests {
    use super::super::variant::{cell_kind, Variant};
    use super::*;
    use std::sync::Arc;

    /// Plain chess pieces on an 8x8 board without holes, to reason about exchanges by hand.
    fn chess() -> Arc<Variant> {
        Arc::new(
            Variant::from_definition(
                "files=8 ranks=8 promoZone=1 promoChoice=QRBN royal=K \
                 pawn:P:fmWfcF:pawn:a2,b2,c2,d2,e2,f2,g2,h2 knight:N:N:knight:b1,g1 \
                 bishop:B:B:bishop:c1,f1 rook:R:R:rook:a1,h1 queen:Q:Q:queen:d1 \
                 king:K:K:king:e1",
            )
            .expect("chess loads"),
        )
    }

    fn value(v: &Variant, letter: char) -> Score {
        v.values[v.kind_of_letter(letter).unwrap() as usize]
    }

    fn see(fen: &str, mv: &str) -> Score {
        let v = chess();
        let pos = Position::from_fen(&v, fen).expect("test FEN");
        let m = pos.parse_move(mv).expect("test move");
        pos.see_value(m)
    }

    #[test]
    fn pawns_that_capture_en_passant_defend_too() {
        // The chess pawn of the Interactive Diagram (`fceF`: its capture includes en passant)
        // recaptures like any other piece: a knight taking a pawn-defended pawn loses material,
        // and so does a knight moving next to an enemy pawn.
        let v = Arc::new(
            Variant::from_definition(include_str!("../../../tests/data/variants/chess.txt"))
                .expect("chess loads"),
        );
        let pos = Position::from_fen(&v, "4k3/8/3p3p/4p3/8/5N2/8/4K3 w - - 0 1").unwrap();
        let take = pos.parse_move("f3e5").unwrap();
        assert_eq!(pos.see_value(take), value(&v, 'P') - value(&v, 'N'));
        assert!(!pos.see_ge(take, 0));
        assert!(!pos.see_ge(pos.parse_move("f3g5").unwrap(), 0));
        assert!(pos.see_ge(pos.parse_move("f3h4").unwrap(), 0));
    }

    #[test]
    fn undefended_and_defended_victims() {
        let v = chess();
        let (p, n, r, q) = (
            value(&v, 'P'),
            value(&v, 'N'),
            value(&v, 'R'),
            value(&v, 'Q'),
        );
        // Rook takes an undefended pawn.
        assert_eq!(see("4k3/8/8/3p4/8/8/8/3RK3 w - - 0 1", "d1d5"), p);
        // Rook takes a pawn defended by a pawn: loses the rook for a pawn.
        assert_eq!(see("4k3/8/4p3/3p4/8/8/8/3RK3 w - - 0 1", "d1d5"), p - r);
        // Queen takes an undefended rook: the victim-minus-attacker estimate would call it bad.
        assert_eq!(see("4k3/8/8/3r4/8/8/8/3QK3 w - - 0 1", "d1d5"), r);
        // Knight takes a knight defended by a queen: an even trade.
        assert_eq!(see("4k3/8/2q5/3n4/8/4N3/8/4K3 w - - 0 1", "e3d5"), n - n);
        // Queen takes a knight defended by a pawn: loses the queen for a knight.
        assert_eq!(see("4k3/8/2p5/3n4/8/8/8/3QK3 w - - 0 1", "d1d5"), n - q);
    }

    #[test]
    fn x_rays_join_the_exchange() {
        let v = chess();
        let (p, r) = (value(&v, 'P'), value(&v, 'R'));
        // Doubled rooks against a pawn defended by one rook: R takes, r takes, R takes: +p.
        assert_eq!(see("3rk3/8/8/3p4/8/8/3R4/3RK3 w - - 0 1", "d2d5"), p);
        // Without the second rook it is a rook for a pawn.
        assert_eq!(see("3rk3/8/8/3p4/8/8/3R4/4K3 w - - 0 1", "d2d5"), p - r);
    }

    #[test]
    fn king_recaptures_only_when_safe() {
        let v = chess();
        let (p, n) = (value(&v, 'P'), value(&v, 'N'));
        // Knight takes a pawn next to the black king: the king takes back (safe): p - n.
        assert_eq!(see("8/8/8/3k4/4p3/8/3N4/K7 w - - 0 1", "d2e4"), p - n);
        // Same with a white rook covering e4 from e1: the king cannot take back: +p.
        assert_eq!(see("8/8/8/3k4/4p3/8/3N4/K3R3 w - - 0 1", "d2e4"), p);
    }

    #[test]
    fn quiet_moves_onto_attacked_squares() {
        let v = chess();
        let n = value(&v, 'N');
        let pos = Position::from_fen(&v, "4k3/8/8/2p5/8/8/8/1N2K3 w - - 0 1").unwrap();
        // Nb1-d4?? walks into the pawn: -n; Nb1-c3 is safe: 0.
        let bad = pos.parse_move("b1d2").unwrap();
        assert_eq!(pos.see_value(bad), 0);
        let hang = Position::from_fen(&v, "4k3/8/8/2p5/8/1N6/8/4K3 w - - 0 1").unwrap();
        assert_eq!(hang.see_value(hang.parse_move("b3d4").unwrap()), -n);
        assert!(hang.see_ge(hang.parse_move("b3d4").unwrap(), -n));
        assert!(!hang.see_ge(hang.parse_move("b3d4").unwrap(), -n + 1));
    }

    #[test]
    fn spider_chess_exchanges_agree_with_a_brute_force_swap() {
        // Along random Spider-Chess games, the SEE of captures equals a minimax over the capture
        // sequence on the square played out with the real move generator (each side recaptures
        // with the piece the scan names, or stops): it checks the attack scan, the x-rays and the
        // arithmetic. Exchanges with a pinned recapturer (which SEE ignores) are skipped.
        use rand::{Rng, SeedableRng};
        use rand_chacha::ChaCha8Rng;
        let v = Variant::spider_chess();
        let mut rng = ChaCha8Rng::seed_from_u64(5);
        let mut checked = 0;
        for _ in 0..6 {
            let mut pos = Position::startpos(&v);
            for _ in 0..120 {
                let moves = pos.legal_moves();
                if moves.is_empty() || pos.outcome().is_some() {
                    break;
                }
                let captures: Vec<Move> = moves
                    .iter()
                    .copied()
                    .filter(|&m| pos.is_capture(m) && m.promotion().is_none())
                    .collect();
                for &c in captures.iter().take(4) {
                    if let Some(exact) = brute_swap(&mut pos, c) {
                        assert_eq!(
                            pos.see_value(c),
                            exact,
                            "{} in {}",
                            pos.move_text(c),
                            pos.to_fen()
                        );
                        checked += 1;
                    }
                }
                let mv = if !captures.is_empty() && rng.gen_bool(0.5) {
                    captures[rng.gen_range(0..captures.len())]
                } else {
                    moves[rng.gen_range(0..moves.len())]
                };
                pos.make_move(mv);
            }
        }
        assert!(checked > 100, "only {checked} exchanges checked");
    }

    /// Value of the exchange `first` starts, by playing captures on its square with the generator:
    /// each side recaptures with a least valuable piece or stops. `None` when a recapture the
    /// attack scan sees is illegal (a pin), or when the king would be captured: cases SEE
    /// simplifies on purpose.
    fn brute_swap(pos: &mut Position, first: Move) -> Option<Score> {
        let to = first.to;
        let victim = pos.exchange_value(cell_kind(pos.board[to as usize]));
        pos.make_move(first);
        let rest = brute_rest(pos, to);
        pos.unmake_move();
        rest.map(|r| victim - r)
    }

    /// Best the side to move gets from recapturing on `to` (0 if it stops), recapturing from
    /// the square the attack scan names (so the order is SEE's; the generator checks the scan).
    fn brute_rest(pos: &mut Position, to: u16) -> Option<Score> {
        let recaptures: Vec<Move> = pos
            .legal_moves()
            .into_iter()
            .filter(|m| m.to == to && m.promotion().is_none())
            .collect();
        let Some((sq, kind)) = pos.least_attacker(to as usize, pos.side, &[]) else {
            assert!(
                recaptures.is_empty(),
                "a capture on {to} the attack scan misses"
            );
            return Some(0);
        };
        let Some(&m) = recaptures.iter().find(|m| m.from == sq) else {
            // The king may not take a defended piece; any other piece here is pinned.
            return (kind == pos.variant.royal).then_some(0);
        };
        let victim = pos.exchange_value(cell_kind(pos.board[to as usize]));
        pos.make_move(m);
        let r = brute_rest(pos, to);
        pos.unmake_move();
        Some((victim - r?).max(0))
    }
}
