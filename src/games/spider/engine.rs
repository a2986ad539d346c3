//! The alpha-beta search interface ([`TwoSided`]) for Spider-Chess positions.

use super::movegen::{ALL, NOISY, QUIET};
use super::outcome::Baring;
use super::position::{Move, Position};
use crate::search::{Score, TwoSided, DRAW, MATE};

/// Value used for the king as an attacker in MVV/LVA ordering.
const KING_ORDER_VALUE: Score = 10_000;

impl TwoSided for Position {
    type Move = Move;

    fn key(&self) -> u64 {
        self.hash
    }

    fn legal_moves(&self, out: &mut Vec<Move>) {
        self.generate::<ALL>(out);
    }

    fn noisy_moves(&self, out: &mut Vec<Move>) {
        self.generate::<NOISY>(out);
    }

    fn quiet_moves(&self, _noisy: &[Move], out: &mut Vec<Move>) {
        self.generate::<QUIET>(out);
    }

    fn make(&mut self, mv: Move) {
        self.make_move(mv);
    }

    fn unmake(&mut self) {
        self.unmake_move();
    }

    fn make_null(&mut self) -> bool {
        // Without a piece other than pawns and the royal piece, passing is often the only thing
        // a side cannot do (zugzwang), so a null move would prove nothing.
        if Position::in_check(self) || !self.has_pieces(self.side.index()) {
            return false;
        }
        self.make_null_move();
        true
    }

    fn unmake_null(&mut self) {
        self.unmake_move();
    }

    fn in_check(&self) -> bool {
        Position::in_check(self)
    }

    fn no_moves_score(&self) -> Score {
        use super::definition::StalemateRule;
        if Position::in_check(self) {
            return -MATE;
        }
        match self.variant.stalemate() {
            StalemateRule::Loses => -MATE,
            StalemateRule::Draw => DRAW,
            StalemateRule::Wins => MATE,
        }
    }

    fn rule_outcome(&self) -> Option<Score> {
        match self.baring() {
            Baring::BothBare => return Some(DRAW),
            Baring::Win => return Some(MATE),
            Baring::Loss => return Some(-MATE),
            Baring::Pending | Baring::None => {}
        }
        if self.fifty_limit > 0 && self.halfmove >= self.fifty_limit {
            return Some(DRAW);
        }
        if self.repetitions() >= 1 {
            return Some(DRAW);
        }
        None
    }

    fn evaluate(&self) -> Score {
        Position::evaluate(self)
    }

    fn structure_key(&self) -> Option<u64> {
        self.pawn_key()
    }

    fn victim_value(&self, mv: Move) -> Score {
        let captured = self
            .captured_kind(mv)
            .map_or(0, |k| self.variant.values[k as usize]);
        let promo = match mv.promotion() {
            Some(k) => {
                self.variant.values[k as usize] - self.variant.values[self.moving_kind(mv) as usize]
            }
            None => 0,
        };
        captured + promo
    }

    fn attacker_value(&self, mv: Move) -> Score {
        let kind = self.moving_kind(mv);
        if kind == self.variant.royal {
            KING_ORDER_VALUE
        } else {
            self.variant.values[kind as usize]
        }
    }

    const TELLS_CHECKS: bool = true;

    fn gives_check(&self, mv: Move) -> bool {
        Position::gives_check(self, mv)
    }

    fn see_ge(&self, mv: Move, threshold: Score) -> bool {
        Position::see_ge(self, mv, threshold)
    }

    fn exact_see(&self) -> bool {
        true
    }

    fn captured_kind(&self, mv: Move) -> usize {
        // En passant victims stand elsewhere; castling and drops capture nothing.
        Position::captured_kind(self, mv).map_or(0, usize::from)
    }

    fn kinds(&self) -> usize {
        self.variant.pieces().len()
    }

    fn history_index(&self, mv: Move) -> usize {
        let kind = self.moving_kind(mv) as usize;
        kind * self.variant.size + mv.to as usize
    }

    fn history_size(&self) -> usize {
        self.variant.pieces().len() * self.variant.size
    }

    fn ply(&self) -> usize {
        self.undo.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::spider::variant::{test_variant, Variant};
    use std::sync::Arc;

    #[test]
    fn no_null_move_for_a_side_with_only_pawns() {
        let chess = test_variant("chess");
        let at = |fen: &str| Position::from_fen(&chess, fen).unwrap();
        // King and pawns against king and knight: White may not pass, Black may.
        let mut white = at("4k3/8/8/3n4/8/8/3PP3/4K3 w - - 0 1");
        assert!(!white.make_null(), "pawns only: zugzwang is likely");
        assert_eq!(white.to_fen(), "4k3/8/8/3n4/8/8/3PP3/4K3 w - - 0 1");
        let mut black = at("4k3/8/8/3n4/8/8/3PP3/4K3 b - - 0 1");
        let before = black.to_fen();
        assert!(black.make_null());
        black.unmake_null();
        assert_eq!(black.to_fen(), before);
        // A side in check may not pass either.
        let mut checked = at("4k3/8/8/8/8/8/3N4/r3K3 w - - 0 1");
        assert!(!checked.make_null());
        // Pieces in hand count (crazyhouse): a pawn-only board with a knight to drop may pass.
        let house = test_variant("crazyhouse");
        let mut hand = Position::from_fen(&house, "4k3/8/8/8/8/8/3PP3/4K3[N] w - - 0 1").unwrap();
        assert!(hand.make_null());
    }

    /// The score of a search of chess position `fen` to `depth`, with every selective technique
    /// or none.
    fn searched(fen: &str, depth: u32, selective: bool) -> (Score, Option<Move>) {
        searched_in("chess", fen, depth, selective)
    }

    /// [`searched`] in the test variant `variant`.
    fn searched_in(variant: &str, fen: &str, depth: u32, selective: bool) -> (Score, Option<Move>) {
        use crate::search::{Limits, SearchOptions, Searcher};
        let v = test_variant(variant);
        let pos = Position::from_fen(&v, fen).unwrap();
        let mut searcher = Searcher::<Position>::new(16);
        if !selective {
            searcher.set_options(SearchOptions {
                null_move: false,
                lmr: false,
                pruning: false,
                ..SearchOptions::default()
            });
        }
        let limits = Limits {
            depth: Some(depth),
            ..Limits::default()
        };
        let stop = std::sync::atomic::AtomicBool::new(false);
        let out = searcher.search(&pos, &limits, &stop, &mut |_| {});
        (out.score, out.best)
    }

    #[test]
    fn the_selective_search_keeps_the_forced_mates_a_full_width_search_finds() {
        use crate::search::MATE;
        // Mates in two and three (the full-width search proves them); the selective search goes
        // on to depth 12, where its pruning, reductions and extensions act around the mate.
        for (fen, plies) in [
            (
                "r2qkb1r/pp2nppp/3p4/2pNN1B1/2BnP3/3P4/PPP2PPP/R2bK2R w KQkq - 1 1",
                3,
            ),
            (
                "r1b1kb1r/pppp1ppp/5q2/4n3/3KP3/2N3PN/PPP4P/R1BQ1B1R b kq - 0 1",
                5,
            ),
        ] {
            let (full, mating) = searched(fen, plies, false);
            assert_eq!(full, MATE - plies as Score, "{fen}: full width");
            assert!(mating.is_some(), "{fen}");
            let (selective, best) = searched(fen, 12, true);
            assert_eq!(selective, full, "{fen}: selective, depth 12");
            assert_eq!(best, mating, "{fen}: the same first move");
        }
    }

    #[test]
    fn a_quiet_check_that_mates_is_seen_where_the_quiet_moves_are_futile() {
        use crate::search::MATE;
        // Moat, from a lost game: White is a rook and more down, and mates in two with a
        // nightrider sacrifice and then a quiet queen check (g4f6 d8f6 c5c7). Where White's
        // static evaluation is far below alpha the quiet moves are futile, but the checks among
        // them are still searched: the selective search finds the mate at depth 3, as the
        // full-width one does (it had taken 9 plies).
        let fen = "4r1s5/2r8p/p1Rb2pppc2/1p1k5p2/*P2*2*2p*/*1Q1*2*3*/P5HP4/3PP1P5/1P2KP6/7Bq3 \
                   w - - 8 64";
        let (full, mating) = searched_in("moat", fen, 3, false);
        assert_eq!(full, MATE - 3);
        let (selective, best) = searched_in("moat", fen, 3, true);
        assert_eq!(selective, full);
        assert_eq!(best, mating);
    }

    #[test]
    fn a_picker_asked_for_checks_yields_the_noisy_moves_and_only_the_quiet_checks() {
        use crate::search::alphabeta::history::Heuristics;
        use crate::search::alphabeta::movepicker::MovePicker;
        let chess = test_variant("chess");
        // White's queen and rook have quiet checks, a capture (e4xd5) and many quiet moves.
        let pos = Position::from_fen(&chess, "3k4/8/8/3p4/4P3/8/1Q6/R3K3 w - - 0 1").unwrap();
        let mut h = Heuristics::default();
        h.ensure(pos.history_size(), pos.kinds());
        let legal = pos.legal_moves();
        let quiet_checks: Vec<Move> = legal
            .iter()
            .copied()
            .filter(|&m| pos.is_quiet(m) && pos.gives_check(m))
            .collect();
        assert!(quiet_checks.len() >= 4, "{quiet_checks:?}");
        // A killer that gives no check is dropped with the other quiet moves.
        let quiet_killer = legal
            .iter()
            .copied()
            .find(|&m| pos.is_quiet(m) && !pos.gives_check(m))
            .unwrap();
        let mut picker = MovePicker::default();
        picker.staged(None, [Some(quiet_killer), None], 0, [None; 2], true);
        picker.only_checks();
        let picked: Vec<Move> =
            std::iter::from_fn(|| picker.next(&pos, &h).map(|(m, _)| m)).collect();
        let mut quiets: Vec<Move> = picked
            .iter()
            .copied()
            .filter(|&m| pos.is_quiet(m))
            .collect();
        let mut expected = quiet_checks.clone();
        quiets.sort_by_key(|m| format!("{m:?}"));
        expected.sort_by_key(|m| format!("{m:?}"));
        assert_eq!(quiets, expected);
        let noisy = legal.iter().filter(|&&m| !pos.is_quiet(m)).count();
        assert_eq!(picked.len(), quiet_checks.len() + noisy);
        assert!(noisy >= 1);
    }

    #[test]
    fn the_structure_key_is_the_pawns() {
        let chess = test_variant("chess");
        let key = |fen: &str| Position::from_fen(&chess, fen).unwrap().structure_key();
        let start = key("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
        assert!(start.is_some());
        // A knight move keeps the pawns (the side to move is the table's, not the key's).
        let knight = key("rnbqkbnr/pppppppp/8/8/8/5N2/PPPPPPPP/RNBQKB1R b KQkq - 1 1");
        assert_eq!(knight, start);
        // A pawn move, or a pawn of the other colour on the same square, changes it.
        let pawn = key("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1");
        assert_ne!(pawn, start);
        let white = key("4k3/8/8/8/8/8/3P4/4K3 w - - 0 1");
        let black = key("4k3/8/8/8/8/8/3p4/4K3 w - - 0 1");
        assert_ne!(white, black);
        assert_ne!(white, key("4k3/8/8/8/8/8/8/4K3 w - - 0 1"));
        // A variant without pawns has no structure to learn by.
        let text = "files=8\nranks=8\nrook:R:R::a1,h1\nking:K:K::e1\n";
        let rooks = Arc::new(Variant::from_definition(text).unwrap());
        let pos = Position::startpos(&rooks);
        assert_eq!(pos.structure_key(), None);
    }
}
