//! Solar Chess for the referee: the solar rules core ([`crate::games::solar`]) behind
//! [`RefereeGame`], any setup with 2–6 seats and teams. Seats are told the game as
//! `position fen <setup name> moves ...` or `position fen <position string> moves ...` (the
//! solar engine takes either after `fen`), and the setup as `UCI_Variant`.

use crate::games::solar::{DrawReason, Move, Position, Status};

use super::game_adapter::{Outcome, RefereeGame, Refusal};

/// A Solar Chess game as the referee keeps it.
#[derive(Clone)]
pub struct SolarGame {
    pos: Position,
    setup: String,
    start: String,
    standard: bool,
    moves: Vec<String>,
}

impl SolarGame {
    /// A game from the setup's start, or from a position string if given.
    pub fn new(setup: &str, position: Option<&str>) -> Result<Self, String> {
        let pos = match position {
            Some(p) => {
                Position::from_setup_or_string(p).map_err(|e| format!("position {p:?}: {e}"))?
            }
            None => Position::from_setup(setup).map_err(|e| format!("setup {setup:?}: {e}"))?,
        };
        Ok(SolarGame {
            start: pos.to_string(),
            standard: position.is_none(),
            setup: setup.to_string(),
            pos,
            moves: Vec::new(),
        })
    }

    /// The current position (for displays such as the GUI's board).
    pub fn position(&self) -> &Position {
        &self.pos
    }

    /// The setup name the game was started with.
    pub fn setup(&self) -> &str {
        &self.setup
    }
}

impl RefereeGame for SolarGame {
    type Move = Move;
    fn seats(&self) -> usize {
        self.pos.seats()
    }
    fn to_decide(&self) -> Vec<usize> {
        if self.pos.status() == Status::Ongoing {
            vec![self.pos.to_move() as usize]
        } else {
            Vec::new()
        }
    }
    fn parse_move(&self, seat: usize, text: &str) -> Result<Move, Refusal> {
        let seat = u8::try_from(seat).map_err(|_| Refusal(format!("no seat {}", seat + 1)))?;
        self.pos
            .parse_move_for(seat, text)
            .map_err(|e| Refusal(e.to_string()))
    }
    fn move_text(&self, mv: &Move) -> String {
        mv.to_string()
    }
    fn apply(&mut self, _seat: usize, mv: Move) {
        self.moves.push(mv.to_string());
        self.pos.make(mv);
    }
    fn legal_moves(&self) -> Vec<String> {
        if self.pos.status() != Status::Ongoing {
            return Vec::new();
        }
        let mut out = Vec::new();
        self.pos.legal_moves(&mut out);
        out.iter().map(|m| m.to_string()).collect()
    }
    fn outcome(&self) -> Option<Outcome> {
        let n = self.pos.seats();
        match self.pos.status() {
            Status::Ongoing => None,
            Status::Won { team } => {
                let places: Vec<u32> = (0..n)
                    .map(|s| if self.pos.team(s as u8) == team { 1 } else { 2 })
                    .collect();
                Some(Outcome::from_places(&places, "last team with a Mothership"))
            }
            Status::Drawn(reason) => {
                let places: Vec<u32> = (0..n)
                    .map(|s| {
                        if self.pos.is_eliminated(s as u8) {
                            2
                        } else {
                            1
                        }
                    })
                    .collect();
                let why = match reason {
                    DrawReason::Repetition => "draw by threefold repetition",
                    DrawReason::NoCapture => "draw by the no-capture rule",
                };
                Some(Outcome::from_places(&places, why))
            }
        }
    }
    fn start_text(&self) -> String {
        self.start.clone()
    }
    fn is_standard_start(&self) -> bool {
        self.standard
    }
    fn position_text(&self) -> String {
        self.pos.to_string()
    }
    fn history(&self) -> Vec<String> {
        self.moves.clone()
    }
    fn uci_position(&self, _seat: usize) -> Vec<String> {
        let mut line = if self.standard {
            format!("position fen {}", self.setup)
        } else {
            format!("position fen {}", self.start)
        };
        if !self.moves.is_empty() {
            line.push_str(" moves ");
            line.push_str(&self.moves.join(" "));
        }
        vec![line]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::referee::game_adapter::DynGame;

    #[test]
    fn six_seats_play_through_the_rules_core() {
        let mut g = SolarGame::new("six", None).unwrap();
        assert_eq!(DynGame::seats(&g), 6);
        assert_eq!(DynGame::to_decide(&g), vec![0]);
        let legal = DynGame::legal_moves(&g);
        assert!(!legal.is_empty());
        assert!(g.play(1, &legal[0]).is_err(), "not seat 2's turn");
        assert!(g.play(0, "zz99").is_err());
        let first = g.play(0, &legal[0]).unwrap();
        assert_eq!(DynGame::to_decide(&g), vec![1]);
        assert_eq!(
            DynGame::uci_position(&g, 1),
            vec![format!("position fen six moves {first}")]
        );
        let text = DynGame::position_text(&g);
        let h = SolarGame::new("six", Some(&text)).unwrap();
        assert!(DynGame::uci_position(&h, 1)[0].starts_with("position fen board="));
        assert!(SolarGame::new("nonesuch", None).is_err());
        let named = SolarGame::new("duel", Some("six")).unwrap();
        assert_eq!(DynGame::seats(&named), 6);
    }
}
