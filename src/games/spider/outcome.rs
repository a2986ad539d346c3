//! How a game ends: checkmate, stalemate (per the variant's rule), bare king, repetition, 50 moves.

use super::definition::StalemateRule;
use super::position::Position;
use super::square::Color;
use std::fmt;

/// Why a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reason {
    /// The side to move is in check and has no legal move.
    Checkmate,
    /// The side to move has no legal move and is not in check.
    Stalemate,
    /// A side was reduced to its lone king and could not bare the other king in reply.
    BareKing,
    /// Both kings are bare.
    BothKingsBare,
    /// The same position occurred three times with the same side to move.
    Repetition,
    /// The 50-move rule (configurable number of plies without capture or pawn move).
    FiftyMoves,
}

impl fmt::Display for Reason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Reason::Checkmate => "checkmate",
            Reason::Stalemate => "stalemate",
            Reason::BareKing => "bare king",
            Reason::BothKingsBare => "both kings bare",
            Reason::Repetition => "threefold repetition",
            Reason::FiftyMoves => "50-move rule",
        })
    }
}

/// A finished game: the winner (`None` for a draw) and why.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Outcome {
    /// The winning side, or `None` for a draw.
    pub winner: Option<Color>,
    /// The rule that ended the game.
    pub reason: Reason,
}

impl Outcome {
    /// The result in PGN form: `1-0`, `0-1` or `1/2-1/2`.
    pub fn result_text(&self) -> &'static str {
        match self.winner {
            Some(Color::White) => "1-0",
            Some(Color::Black) => "0-1",
            None => "1/2-1/2",
        }
    }
}

/// The bare-king rule's verdict, from the side to move's view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Baring {
    /// Nobody is bare (or the rule is off).
    None,
    /// Both kings are bare: draw.
    BothBare,
    /// The side to move wins: the opponent is bare and had its reply.
    Win,
    /// The side to move is bare and cannot bare the opponent in one move: it loses.
    Loss,
    /// The side to move is bare but may still capture the opponent's last piece.
    Pending,
}

impl Position {
    /// The bare-king verdict for the side to move.
    pub(crate) fn baring(&self) -> Baring {
        if !self.variant.baring() {
            return Baring::None;
        }
        let us = self.side.index();
        let (ours, theirs) = (self.nonroyal[us], self.nonroyal[1 - us]);
        match (ours, theirs) {
            (0, 0) => Baring::BothBare,
            (_, 0) => Baring::Win,
            (0, 1) => {
                let last = self.list[1 - us]
                    .iter()
                    .copied()
                    .find(|&sq| sq != self.king[1 - us])
                    .unwrap_or(0);
                if self.legal_moves().iter().any(|m| m.to == last) {
                    Baring::Pending
                } else {
                    Baring::Loss
                }
            }
            (0, _) => Baring::Loss,
            _ => Baring::None,
        }
    }

    /// The result if the game is over in this position, else `None`. Checks, in order: bare king,
    /// no legal move (checkmate / stalemate per the variant), the 50-move rule, threefold repetition.
    pub fn outcome(&self) -> Option<Outcome> {
        let us = self.side;
        let end = |winner, reason| Some(Outcome { winner, reason });
        match self.baring() {
            Baring::BothBare => return end(None, Reason::BothKingsBare),
            Baring::Win => return end(Some(us), Reason::BareKing),
            Baring::Loss => return end(Some(us.opposite()), Reason::BareKing),
            Baring::Pending | Baring::None => {}
        }
        if self.legal_moves().is_empty() {
            if self.in_check() {
                return end(Some(us.opposite()), Reason::Checkmate);
            }
            return match self.variant.stalemate() {
                StalemateRule::Loses => end(Some(us.opposite()), Reason::Stalemate),
                StalemateRule::Draw => end(None, Reason::Stalemate),
                StalemateRule::Wins => end(Some(us), Reason::Stalemate),
            };
        }
        if self.fifty_limit > 0 && self.halfmove >= self.fifty_limit {
            return end(None, Reason::FiftyMoves);
        }
        if self.repetitions() >= 2 {
            return end(None, Reason::Repetition);
        }
        None
    }
}
