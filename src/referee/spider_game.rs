//! Spider-Chess for the referee: the spider rules core ([`crate::games::spider`]) behind
//! [`RefereeGame`]. The rules core parses and checks every move and decides the result.

use std::sync::Arc;

use crate::games::spider::{Color, Move, Position, Variant};

use super::game_adapter::{Outcome, RefereeGame, Refusal};

/// A Spider-Chess game as the referee keeps it.
#[derive(Clone)]
pub struct SpiderGame {
    pos: Position,
    start_fen: String,
    standard: bool,
    moves: Vec<String>,
}

impl SpiderGame {
    /// A game from the standard start, or from `fen` if given.
    pub fn new(fen: Option<&str>) -> Result<Self, String> {
        Self::with_variant(Variant::spider_chess(), fen)
    }

    /// A game of any loaded Interactive Diagram variant, from its start or from `fen`.
    pub fn with_variant(variant: Arc<Variant>, fen: Option<&str>) -> Result<Self, String> {
        let standard_fen = Position::startpos(&variant).to_fen();
        let pos = match fen {
            Some(f) => Position::from_fen(&variant, f).map_err(|e| format!("FEN {f:?}: {e}"))?,
            None => Position::startpos(&variant),
        };
        let start_fen = pos.to_fen();
        Ok(SpiderGame {
            standard: start_fen == standard_fen,
            pos,
            start_fen,
            moves: Vec::new(),
        })
    }

    /// The current position (for displays such as the GUI's board).
    pub fn position(&self) -> &Position {
        &self.pos
    }
}

fn seat_of(c: Color) -> usize {
    match c {
        Color::White => 0,
        Color::Black => 1,
    }
}

impl RefereeGame for SpiderGame {
    type Move = Move;
    fn seats(&self) -> usize {
        2
    }
    fn to_decide(&self) -> Vec<usize> {
        if self.pos.outcome().is_some() {
            Vec::new()
        } else {
            vec![seat_of(self.pos.side_to_move())]
        }
    }
    fn parse_move(&self, seat: usize, text: &str) -> Result<Move, Refusal> {
        if seat != seat_of(self.pos.side_to_move()) {
            return Err(Refusal(format!("seat {} is not to move", seat + 1)));
        }
        self.pos
            .parse_move(text)
            .map_err(|e| Refusal(e.to_string()))
    }
    fn move_text(&self, mv: &Move) -> String {
        self.pos.move_text(*mv)
    }
    fn apply(&mut self, _seat: usize, mv: Move) {
        self.moves.push(self.pos.move_text(mv));
        self.pos.make_move(mv);
    }
    fn legal_moves(&self) -> Vec<String> {
        if self.pos.outcome().is_some() {
            return Vec::new();
        }
        self.pos
            .legal_moves()
            .into_iter()
            .map(|m| self.pos.move_text(m))
            .collect()
    }
    fn outcome(&self) -> Option<Outcome> {
        let o = self.pos.outcome()?;
        let reason = o.reason.to_string();
        Some(match o.winner {
            Some(c) => Outcome::win(seat_of(c), 2, reason),
            None => Outcome::draw(2, reason),
        })
    }
    fn start_text(&self) -> String {
        self.start_fen.clone()
    }
    fn is_standard_start(&self) -> bool {
        self.standard
    }
    fn position_text(&self) -> String {
        self.pos.to_fen()
    }
    fn history(&self) -> Vec<String> {
        self.moves.clone()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::referee::game_adapter::DynGame;

    #[test]
    fn spider_moves_are_checked_by_the_rules_core() {
        let mut g = SpiderGame::new(None).unwrap();
        assert!(DynGame::is_standard_start(&g));
        assert_eq!(DynGame::to_decide(&g), vec![0]);
        assert!(g.play(0, "m2m9").is_err(), "the rules core refuses m2m9");
        assert!(g.play(1, "m2m5").is_err(), "not black's turn");
        assert_eq!(g.play(0, "m2m5").unwrap(), "m2m5");
        assert_eq!(DynGame::to_decide(&g), vec![1]);
        assert_eq!(
            DynGame::uci_position(&g, 1),
            vec!["position startpos moves m2m5".to_string()]
        );
        assert!(DynGame::legal_moves(&g).len() > 10);
        let fen = DynGame::position_text(&g);
        let h = SpiderGame::new(Some(&fen)).unwrap();
        assert!(!DynGame::is_standard_start(&h));
        assert!(SpiderGame::new(Some("not a fen")).is_err());
    }
}
