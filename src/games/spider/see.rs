//! Static exchange evaluation: the material balance of the capture sequence on one square when
//! both sides recapture with their least valuable attacker and may stop at any point.
//!
//! Attackers are found with the generator's attack tables ([`AttackRay`](super::variant::AttackRay)
//! walks and lame leaps) on the board with the pieces already exchanged treated as empty, so
//! riders and sliders behind an exchanged piece (x-rays, including through a nightrider's line)
//! join the sequence. A king recaptures only when the other side has no attacker left. Pins are
//! ignored at first; when that exchange fails, it is tried again without those of the
//! opponent's pieces in it that are pinned to their king on the board after the move (while
//! their pinner stands), so that a check to a square only a pinned piece covers, or a capture
//! only a pinned piece answers, is not taken for a loss (a queen's check that mates is otherwise
//! pruned as a lost queen). A pawn that promotes by the first capture counts as the promoted
//! piece; later recaptures do not promote (conservative).
//!
//! Used by the search for capture ordering, quiescence pruning and pruning of losing moves
//! ([`crate::search::TwoSided::see_ge`]).

use super::position::{Move, Position};
use super::square::Color;
use super::variant::{cell, cell_kind, AttackRay, EMPTY, OFF};
use crate::search::Score;

/// Most pieces an exchange removes before it is cut off (a longer one is scored as it stands).
const MAX_EXCHANGE: usize = 32;

/// Most of the opponent's pieces in an exchange that are tested for a pin.
const USED: usize = 8;

/// The squares of the opponent's pieces that took part in an exchange (the first [`USED`]).
#[derive(Default)]
struct Used {
    n: usize,
    sq: [u16; USED],
}

impl Used {
    fn push(&mut self, sq: u16) {
        if self.n < self.sq.len() {
            self.sq[self.n] = sq;
            self.n += 1;
        }
    }

    fn squares(&self) -> &[u16] {
        &self.sq[..self.n]
    }
}

impl Position {
    /// Value of a piece kind in exchanges (the royal piece counts 0: it only ever captures last).
    #[inline]
    fn exchange_value(&self, kind: u8) -> Score {
        self.variant.values[kind as usize]
    }

    /// The kind whose attack ends a least-attacker scan at once: the pawn when no piece is worth
    /// less (the royal piece aside), else none (`u8::MAX`).
    fn cheapest_attacker(&self) -> u8 {
        let v = &*self.variant;
        if v.pawn as usize >= v.values.len() {
            return u8::MAX;
        }
        let pawn = v.values[v.pawn as usize];
        let cheapest = v
            .values
            .iter()
            .enumerate()
            .all(|(k, &x)| k as u8 == v.royal || x >= pawn);
        if cheapest {
            v.pawn
        } else {
            u8::MAX
        }
    }

    /// The least valuable piece of `by` attacking `sq` on the board with the squares in `gone`
    /// treated as empty and the pinned pieces `pins` holds back ([`Held`]): its square and kind.
    fn least_attacker(
        &self,
        sq: usize,
        by: Color,
        gone: &[u16],
        pins: &[(u16, u16)],
    ) -> Option<(u16, u8)> {
        let cell = exchange_cells(&self.board, gone);
        let held = Held::new(pins, sq, gone);
        let mut best = Cheapest::new(self, self.cheapest_attacker(), Score::MIN, held);
        for ray in &self.variant.rays[by.index()] {
            if let Some((t, kind)) = ray.attacker(sq, by, &cell) {
                if best.consider(t, kind) {
                    break;
                }
            }
        }
        best.lame(sq, by, &cell)
    }

    /// Whether the exchange sequence started by `mv` (a legal move) gains at least `threshold`
    /// centipawns for the side to move. A non-capture counts as putting the piece where the
    /// opponent may take it.
    pub fn see_ge(&self, mv: Move, threshold: Score) -> bool {
        let mut used = Used::default();
        self.exchange_ge(mv, threshold, true, &[], &mut used)
            || self.pinned_exchange_ge(mv, threshold, &used)
    }

    /// The square of the piece of the side to move that pins the opponent's piece on `sq` to
    /// its king on the board `cell` shows: along a line of a rider or slider of the side to
    /// move, or on the path of its lame leap (`None` when the piece is not pinned).
    fn pinner<F: Fn(usize) -> u8>(&self, sq: usize, cell: &F) -> Option<u16> {
        let v = &*self.variant;
        let us = self.side;
        let them = us.opposite();
        let ksq = self.king[them.index()] as usize;
        let d = ksq as isize - sq as isize;
        for r in &v.rays[us.index()] {
            if r.max < 2 || d % r.delta != 0 || !(1..r.max as isize).contains(&(d / r.delta)) {
                continue;
            }
            if let Some((t, k, _)) = r.first_occupied(ksq, 1, cell) {
                if t == sq {
                    if let Some((p, k, c)) = r.first_occupied(sq, k + 1, cell) {
                        if r.captures(c, k, us) {
                            return Some(p as u16);
                        }
                    }
                }
            }
        }
        v.lame_attacks[us.index()]
            .iter()
            .find_map(|l| match l.screen(ksq, us, cell) {
                Some((s, p)) if s == sq => Some(p as u16),
                _ => None,
            })
    }

    /// The exchange of [`see_ge`](Self::see_ge) without the opponent's pieces that took part in
    /// the plain exchange (`used`) and are pinned to its king after `mv` (false when none is).
    fn pinned_exchange_ge(&self, mv: Move, threshold: Score, used: &Used) -> bool {
        if self.royal_square(self.side.opposite()).is_none() {
            return false;
        }
        let from = mv.drop_kind().is_none().then_some(mv.from as usize);
        let landed = cell(
            mv.promotion().unwrap_or_else(|| self.moving_kind(mv)),
            self.side,
        );
        let after = self.after_landing(from, mv.to as usize, landed);
        let mut pins = [(0u16, 0u16); USED];
        let mut n = 0;
        for &sq in used.squares() {
            if let Some(p) = self.pinner(sq as usize, &after) {
                pins[n] = (sq, p);
                n += 1;
            }
        }
        n > 0 && self.exchange_ge(mv, threshold, true, &pins[..n], &mut Used::default())
    }

    /// [`see_ge`](Self::see_ge), following the attack rays one by one through the exchange when
    /// `track` (else scanning every ray for every recapture: the plain algorithm, which the tests
    /// compare it with).
    /// `pins` (pinned square, pinner square) are the opponent's pieces that stay out of the
    /// exchange while their pinner is neither taken on the exchange square nor gone into it.
    /// `used` collects the squares of the opponent's pieces that took part.
    fn exchange_ge(
        &self,
        mv: Move,
        threshold: Score,
        track: bool,
        pins: &[(u16, u16)],
        used: &mut Used,
    ) -> bool {
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
        let stop_at = self.cheapest_attacker();
        let mut lines = Lines::new(self, track);
        let them = self.side.opposite();
        let held_by = |c: Color| if c == them { pins } else { &[] };
        // `res` is 1 when the side that made the last capture is ahead of the threshold.
        let mut res = 1;
        loop {
            stm = stm.opposite();
            // An attacker worth less than `swap + (res ^ 1)` ends the exchange (below), so the
            // scan may stop at the first such piece.
            let cut = swap.saturating_add(res ^ 1);
            let Some((sq, kind)) =
                lines.least(self, to, stm, &gone[..n], stop_at, cut, held_by(stm))
            else {
                break;
            };
            if stm == them {
                used.push(sq);
            }
            res ^= 1;
            if kind == v.royal {
                // The king may take only if the other side cannot take back.
                let other = lines.least(
                    self,
                    to,
                    stm.opposite(),
                    &gone[..n],
                    stop_at,
                    Score::MAX,
                    held_by(stm.opposite()),
                );
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
            lines.leave(self, sq, &gone[..n]);
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

/// The board as an exchange sees it: the squares in `gone` (pieces that already captured on the
/// exchange square) are empty.
#[inline(always)]
fn exchange_cells<'a>(board: &'a [u8], gone: &'a [u16]) -> impl Fn(usize) -> u8 + 'a {
    move |t: usize| {
        let c = board[t];
        // (A loop the compiler inlines: `contains` on a slice is an out-of-line call.)
        if c != EMPTY && c != OFF && gone.iter().any(|&g| g as usize == t) {
            EMPTY
        } else {
            c
        }
    }
}

/// Pinned pieces a least-attacker scan passes over: each `(pinned, pinner)` square while the
/// pinner is neither on the exchange square nor gone into the exchange.
#[derive(Clone, Copy)]
struct Held<'a> {
    pins: &'a [(u16, u16)],
    to: u16,
    gone: &'a [u16],
}

impl<'a> Held<'a> {
    fn new(pins: &'a [(u16, u16)], to: usize, gone: &'a [u16]) -> Self {
        Held {
            pins,
            to: to as u16,
            gone,
        }
    }

    /// Whether the piece on `t` stays out of the exchange (never, and at once, without pins).
    #[inline(always)]
    fn holds(&self, t: usize) -> bool {
        self.pins
            .iter()
            .any(|&(p, by)| p as usize == t && by != self.to && !self.gone.contains(&by))
    }
}

/// The running choice of a least-attacker scan: the cheapest attacker seen so far (the first of
/// equals; the royal piece last) and whether the scan may stop early: it found the pawn (which
/// nothing undercuts) or a piece worth less than `cut` (the exchange ends with that capture,
/// whichever piece makes it).
struct Cheapest<'a> {
    pos: &'a Position,
    /// Kind that ends the scan of the rays at once (see `cheapest_attacker`).
    stop_at: u8,
    /// A non-royal attacker worth less than this ends the scan.
    cut: Score,
    best: Option<(Score, u16, u8)>,
    done: bool,
    held: Held<'a>,
}

impl<'a> Cheapest<'a> {
    fn new(pos: &'a Position, stop_at: u8, cut: Score, held: Held<'a>) -> Self {
        Cheapest {
            pos,
            stop_at,
            cut,
            best: None,
            done: false,
            held,
        }
    }

    /// A piece of `kind` on `t` attacks the square along a ray; true when the scan may stop.
    #[inline(always)]
    fn consider(&mut self, t: usize, kind: u8) -> bool {
        if self.held.holds(t) {
            return false;
        }
        if kind == self.stop_at {
            self.best = Some((Score::MIN, t as u16, kind));
            self.done = true;
            return true;
        }
        self.consider_value(t, kind)
    }

    /// Like [`consider`](Self::consider) without the pawn's early stop (lame leaps).
    #[inline(always)]
    fn consider_value(&mut self, t: usize, kind: u8) -> bool {
        if self.held.holds(t) {
            return false;
        }
        let value = if kind == self.pos.variant.royal {
            Score::MAX
        } else {
            self.pos.exchange_value(kind)
        };
        if self.best.is_none_or(|b| value < b.0) {
            self.best = Some((value, t as u16, kind));
        }
        self.done = value < self.cut;
        self.done
    }

    /// Adds the lame leapers of `by` (unless the scan already stopped): the choice.
    fn lame<F: Fn(usize) -> u8>(mut self, sq: usize, by: Color, cell: &F) -> Option<(u16, u8)> {
        if !self.done {
            for l in &self.pos.variant.lame_attacks[by.index()] {
                if let Some((p, kind)) = l.attacker(sq, by, cell) {
                    if self.consider_value(p, kind) {
                        break;
                    }
                }
            }
        }
        self.best.map(|(_, t, k)| (t, k))
    }
}

/// Most attack rays per colour an exchange follows ray by ray ([`Lines`]); a variant with more
/// scans every ray at every recapture.
const TRACKED_RAYS: usize = 64;

/// What a colour's walk along one attack ray found: the first occupied cell looking back from
/// the exchange square (`NO_SQUARE`: none within reach), its distance in leaps, and the kind
/// attacking from there (`NO_KIND`: none).
#[derive(Clone, Copy)]
struct RayHit {
    at: u16,
    dist: u8,
    kind: u8,
}

const NO_SQUARE: u16 = u16::MAX;
const NO_KIND: u8 = u8::MAX;
const NO_HIT: RayHit = RayHit {
    at: NO_SQUARE,
    dist: 0,
    kind: NO_KIND,
};

/// The attack rays of both colours towards one exchange square, each ray walked once when first
/// needed (in ray order, so a scan that stops early resumes where it stopped). A recapture
/// empties one square, so afterwards only the rays that square blocked are walked again, from
/// it on, instead of every ray at every step.
struct Lines {
    /// Per colour: how many of its rays were walked.
    walked: [usize; 2],
    /// False when the variant has more than [`TRACKED_RAYS`] rays of a colour (or the caller
    /// asked for the plain scan).
    tracked: bool,
    hits: [[RayHit; TRACKED_RAYS]; 2],
}

impl Lines {
    /// Rays tracked when `track` and the variant has few enough.
    fn new(pos: &Position, track: bool) -> Self {
        let v = &*pos.variant;
        Lines {
            walked: [0; 2],
            tracked: track && v.rays[0].len() <= TRACKED_RAYS && v.rays[1].len() <= TRACKED_RAYS,
            hits: [[NO_HIT; TRACKED_RAYS]; 2],
        }
    }

    /// What `ray` of `by` shows from `from`, `k − 1` leaps from the exchange square, outwards.
    #[inline(always)]
    fn walk<F: Fn(usize) -> u8>(
        ray: &AttackRay,
        by: Color,
        from: usize,
        k: u8,
        cell: &F,
    ) -> RayHit {
        match ray.first_occupied(from, k, cell) {
            Some((t, k, c)) => RayHit {
                at: t as u16,
                dist: k,
                kind: if ray.captures(c, k, by) {
                    cell_kind(c)
                } else {
                    NO_KIND
                },
            },
            None => NO_HIT,
        }
    }

    /// The least valuable attacker of `by` on `to`, as [`Position::least_attacker`] finds it,
    /// except that the scan may stop at any attacker worth less than `cut` (the caller's exchange
    /// ends with that capture whichever piece makes it).
    #[allow(clippy::too_many_arguments)]
    fn least(
        &mut self,
        pos: &Position,
        to: usize,
        by: Color,
        gone: &[u16],
        stop_at: u8,
        cut: Score,
        pins: &[(u16, u16)],
    ) -> Option<(u16, u8)> {
        if !self.tracked {
            return pos.least_attacker(to, by, gone, pins);
        }
        let rays = &pos.variant.rays[by.index()];
        let cell = exchange_cells(&pos.board, gone);
        let c = by.index();
        let mut best = Cheapest::new(pos, stop_at, cut, Held::new(pins, to, gone));
        for (i, ray) in rays.iter().enumerate() {
            if i == self.walked[c] {
                self.hits[c][i] = Self::walk(ray, by, to, 1, &cell);
                self.walked[c] += 1;
            }
            let hit = self.hits[c][i];
            if hit.kind != NO_KIND && best.consider(hit.at as usize, hit.kind) {
                break;
            }
        }
        best.lame(to, by, &cell)
    }

    /// The piece on `sq` went to the exchange square (`gone` includes `sq` now): the rays it
    /// blocked see past it.
    fn leave(&mut self, pos: &Position, sq: u16, gone: &[u16]) {
        if !self.tracked {
            return;
        }
        let cell = exchange_cells(&pos.board, gone);
        for by in [Color::White, Color::Black] {
            let c = by.index();
            for (i, ray) in pos.variant.rays[c][..self.walked[c]].iter().enumerate() {
                let hit = self.hits[c][i];
                if hit.at == sq {
                    self.hits[c][i] = if hit.dist >= ray.max {
                        NO_HIT
                    } else {
                        Self::walk(ray, by, sq as usize, hit.dist + 1, &cell)
                    };
                }
            }
        }
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
        let v = super::super::variant::test_variant("chess");
        let pos = Position::from_fen(&v, "4k3/8/3p3p/4p3/8/5N2/8/4K3 w - - 0 1").unwrap();
        let take = pos.parse_move("f3e5").unwrap();
        assert_eq!(pos.see_value(take), value(&v, 'P') - value(&v, 'N'));
        assert!(!pos.see_ge(take, 0));
        assert!(!pos.see_ge(pos.parse_move("f3g5").unwrap(), 0));
        assert!(pos.see_ge(pos.parse_move("f3h4").unwrap(), 0));
    }

    #[test]
    fn a_defender_pinned_to_its_king_does_not_take_part() {
        let v = chess();
        let (r, q) = (value(&v, 'R'), value(&v, 'Q'));
        // The queen's check on h2 is covered by the knight on g4; the knight on f3 that also
        // covers h2 is pinned by the bishop on b7, and the king may not take: no loss.
        let fen = "4k3/1b6/8/4q3/6n1/5N2/8/7K b - - 0 1";
        let pos = Position::from_fen(&v, fen).unwrap();
        let check = pos.parse_move("e5h2").unwrap();
        assert!(
            !pos.exchange_ge(check, 0, true, &[], &mut Used::default()),
            "unpinned, the knight takes"
        );
        assert_eq!(pos.see_value(check), 0);
        // Without the bishop the knight takes the queen.
        assert_eq!(see("4k3/8/8/4q3/6n1/5N2/8/7K b - - 0 1", "e5h2"), -q);
        // Pins are read on the board after the move: the queen on e6 stands between the rook
        // and its pinner, so the rook takes it and is taken by the rook behind.
        assert_eq!(see("k3r3/8/q7/8/4R3/8/8/4K3 b - - 0 1", "a6e6"), r - q);
        // Off its line it does not: d4 is safe for the queen.
        assert_eq!(see("k3r3/8/8/8/q3R3/8/8/4K3 b - - 0 1", "a4d4"), 0);
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

    #[test]
    fn tracked_rays_agree_with_the_plain_scan() {
        // The exchange that follows the rays one by one (and stops a scan at a piece that ends
        // the exchange) decides like the plain one that scans every ray for every recapture:
        // every legal move, captures and quiet moves, at several thresholds, along random games
        // of Spider-Chess (riders, nightriders, lame leapers) and chess.
        use rand::{Rng, SeedableRng};
        use rand_chacha::ChaCha8Rng;
        let chess = super::super::variant::test_variant("chess");
        let mut rng = ChaCha8Rng::seed_from_u64(11);
        let mut checked = 0;
        let mut differ_from_zero = 0;
        for v in [Variant::spider_chess(), chess] {
            for _ in 0..4 {
                let mut pos = Position::startpos(&v);
                for _ in 0..100 {
                    let moves = pos.legal_moves();
                    if moves.is_empty() || pos.outcome().is_some() {
                        break;
                    }
                    for &m in moves.iter().step_by(3) {
                        for t in [-500, -120, -1, 0, 1, 120, 500] {
                            let tracked = pos.exchange_ge(m, t, true, &[], &mut Used::default());
                            assert_eq!(
                                tracked,
                                pos.exchange_ge(m, t, false, &[], &mut Used::default()),
                                "{} at {t} in {}",
                                pos.move_text(m),
                                pos.to_fen()
                            );
                            checked += 1;
                            differ_from_zero += (tracked
                                != pos.exchange_ge(m, 0, false, &[], &mut Used::default()))
                                as u32;
                        }
                    }
                    let captures: Vec<Move> = moves
                        .iter()
                        .copied()
                        .filter(|&m| pos.is_capture(m))
                        .collect();
                    let mv = if !captures.is_empty() && rng.gen_bool(0.6) {
                        captures[rng.gen_range(0..captures.len())]
                    } else {
                        moves[rng.gen_range(0..moves.len())]
                    };
                    pos.make_move(mv);
                }
            }
        }
        assert!(checked > 10_000, "only {checked} exchanges checked");
        assert!(
            differ_from_zero > 1_000,
            "thresholds hardly matter: {differ_from_zero}"
        );
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
        let Some((sq, kind)) = pos.least_attacker(to as usize, pos.side, &[], &[]) else {
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
