//! What the match loop needs from a game's rules core: a start position, who decides now, parsing
//! and applying a decision (refused with a reason, state unchanged), the outcome, the text sent to
//! each seat, and position text for records. Adapters for each game implement [`RefereeGame`].

use serde_json::Value;

use super::clock::GoStyle;

/// How a game ended: every seat's rank, the result text and the reason.
#[derive(Clone, Debug, PartialEq)]
pub struct Outcome {
    /// Rank of each seat, 1 = best; tied seats share the mean of their places (a two-seat draw
    /// gives both 1.5).
    pub ranks: Vec<f64>,
    /// Why the game ended ("checkmate", "time forfeit", "illegal move e2e5: ...").
    pub reason: String,
}

impl Outcome {
    /// Seat `winner` first; all others share the remaining places.
    pub fn win(winner: usize, seats: usize, reason: impl Into<String>) -> Self {
        let rest = if seats > 1 {
            (2.0 + seats as f64) / 2.0
        } else {
            1.0
        };
        let ranks = (0..seats)
            .map(|s| if s == winner { 1.0 } else { rest })
            .collect();
        Outcome {
            ranks,
            reason: reason.into(),
        }
    }

    /// Every seat shares every place.
    pub fn draw(seats: usize, reason: impl Into<String>) -> Self {
        let mid = (1.0 + seats as f64) / 2.0;
        Outcome {
            ranks: vec![mid; seats],
            reason: reason.into(),
        }
    }

    /// Seat `loser` last; all others share the other places (an engine fault).
    pub fn forfeit(loser: usize, seats: usize, reason: impl Into<String>) -> Self {
        let rest = (seats as f64) / 2.0;
        let ranks = (0..seats)
            .map(|s| if s == loser { seats as f64 } else { rest })
            .collect();
        Outcome {
            ranks,
            reason: reason.into(),
        }
    }

    /// Ranks given as places with ties (1 = best, equal numbers tie): converted to shared means.
    pub fn from_places(places: &[u32], reason: impl Into<String>) -> Self {
        let ranks = places
            .iter()
            .map(|&p| {
                let better = places.iter().filter(|&&q| q < p).count() as f64;
                let equal = places.iter().filter(|&&q| q == p).count() as f64;
                better + (1.0 + equal) / 2.0
            })
            .collect();
        Outcome {
            ranks,
            reason: reason.into(),
        }
    }

    /// Score of a seat in 0..=1: 1 for sole first, 0 for sole last, (N - rank) / (N - 1).
    pub fn score(&self, seat: usize) -> f64 {
        let n = self.ranks.len() as f64;
        if n < 2.0 {
            return 1.0;
        }
        (n - self.ranks[seat]) / (n - 1.0)
    }

    /// Result text: `1-0`, `0-1`, `1/2-1/2` for two seats; scores joined by `-` for more.
    pub fn result_text(&self) -> String {
        let fmt = |s: f64| {
            if s == 1.0 {
                "1".to_string()
            } else if s == 0.0 {
                "0".to_string()
            } else if s == 0.5 {
                "1/2".to_string()
            } else {
                format!("{s:.2}")
            }
        };
        (0..self.ranks.len())
            .map(|s| fmt(self.score(s)))
            .collect::<Vec<_>>()
            .join("-")
    }
}

/// A decision refused by the rules core.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Refusal(pub String);

/// A game's rules as the referee uses them. The state is changed only by [`RefereeGame::apply`].
pub trait RefereeGame {
    /// A decision parsed against the current position.
    type Move: Clone;
    /// Number of seats.
    fn seats(&self) -> usize;
    /// Seats whose decision is awaited now (one for turn-based games; several for simultaneous
    /// steps, each parsed against the same state and applied once all are in). Empty when over.
    fn to_decide(&self) -> Vec<usize>;
    /// Parses `text` as a decision of `seat` in the current state.
    fn parse_move(&self, seat: usize, text: &str) -> Result<Self::Move, Refusal>;
    /// The canonical text of a decision.
    fn move_text(&self, mv: &Self::Move) -> String;
    /// Applies a decision of `seat` that [`RefereeGame::parse_move`] accepted.
    fn apply(&mut self, seat: usize, mv: Self::Move);
    /// Legal decisions for the seat to move, as text (random opening plies); may be empty for
    /// games without openings.
    fn legal_moves(&self) -> Vec<String>;
    /// The outcome once the game is over, decided by the rules.
    fn outcome(&self) -> Option<Outcome>;
    /// The start position as text (FEN / position string / deal description).
    fn start_text(&self) -> String;
    /// True when the start position is the variant's standard one (`position startpos`).
    fn is_standard_start(&self) -> bool;
    /// The current position as text, for records.
    fn position_text(&self) -> String;
    /// Decisions made so far (canonical text), in order.
    fn history(&self) -> Vec<String>;
    /// Lines a seat receives before `go` in the UCI-style dialect. The default suits perfect
    /// information games: `position startpos|fen <start> moves ...`.
    fn uci_position(&self, _seat: usize) -> Vec<String> {
        let mut line = if self.is_standard_start() {
            "position startpos".to_string()
        } else {
            format!("position fen {}", self.start_text())
        };
        let moves = self.history();
        if !moves.is_empty() {
            line.push_str(" moves");
            for m in moves {
                line.push(' ');
                line.push_str(&m);
            }
        }
        vec![line]
    }
    /// Data revealed in the record after the game (deal seed, hidden cards); `Null` if none.
    fn record_extra(&self) -> Value {
        Value::Null
    }
    /// How `go` carries the clock for this game.
    fn go_style(&self) -> GoStyle {
        GoStyle::SeatClocks
    }
}

/// Object-safe view of a [`RefereeGame`] for the match loop: decisions as text.
pub trait DynGame: Send {
    /// Number of seats.
    fn seats(&self) -> usize;
    /// Seats whose decision is awaited now.
    fn to_decide(&self) -> Vec<usize>;
    /// Parses and applies `text` for `seat`; returns its canonical text, or the refusal with the
    /// state unchanged.
    fn play(&mut self, seat: usize, text: &str) -> Result<String, Refusal>;
    /// Parses and applies a set of simultaneous decisions; all or none are applied.
    fn play_all(&mut self, decisions: &[(usize, String)]) -> Result<Vec<String>, (usize, Refusal)>;
    /// Legal decisions for the seat to move as text.
    fn legal_moves(&self) -> Vec<String>;
    /// The outcome once over.
    fn outcome(&self) -> Option<Outcome>;
    /// Start position text.
    fn start_text(&self) -> String;
    /// Whether the start is the variant's standard start.
    fn is_standard_start(&self) -> bool;
    /// Current position text.
    fn position_text(&self) -> String;
    /// Decisions so far.
    fn history(&self) -> Vec<String>;
    /// Lines for a seat before `go`.
    fn uci_position(&self, seat: usize) -> Vec<String>;
    /// Revealed data for the record.
    fn record_extra(&self) -> Value;
    /// How `go` carries the clock.
    fn go_style(&self) -> GoStyle;
}

impl<G: RefereeGame + Send> DynGame for G {
    fn seats(&self) -> usize {
        RefereeGame::seats(self)
    }
    fn to_decide(&self) -> Vec<usize> {
        RefereeGame::to_decide(self)
    }
    fn play(&mut self, seat: usize, text: &str) -> Result<String, Refusal> {
        let mv = self.parse_move(seat, text)?;
        let canon = self.move_text(&mv);
        self.apply(seat, mv);
        Ok(canon)
    }
    fn play_all(&mut self, decisions: &[(usize, String)]) -> Result<Vec<String>, (usize, Refusal)> {
        let mut parsed = Vec::with_capacity(decisions.len());
        for (seat, text) in decisions {
            let mv = self.parse_move(*seat, text).map_err(|r| (*seat, r))?;
            parsed.push((*seat, mv));
        }
        let mut out = Vec::with_capacity(parsed.len());
        for (seat, mv) in parsed {
            out.push(self.move_text(&mv));
            self.apply(seat, mv);
        }
        Ok(out)
    }
    fn legal_moves(&self) -> Vec<String> {
        RefereeGame::legal_moves(self)
    }
    fn outcome(&self) -> Option<Outcome> {
        RefereeGame::outcome(self)
    }
    fn start_text(&self) -> String {
        RefereeGame::start_text(self)
    }
    fn is_standard_start(&self) -> bool {
        RefereeGame::is_standard_start(self)
    }
    fn position_text(&self) -> String {
        RefereeGame::position_text(self)
    }
    fn history(&self) -> Vec<String> {
        RefereeGame::history(self)
    }
    fn uci_position(&self, seat: usize) -> Vec<String> {
        RefereeGame::uci_position(self, seat)
    }
    fn record_extra(&self) -> Value {
        RefereeGame::record_extra(self)
    }
    fn go_style(&self) -> GoStyle {
        RefereeGame::go_style(self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn outcome_scores_and_text() {
        let w = Outcome::win(0, 2, "mate");
        assert_eq!(w.ranks, vec![1.0, 2.0]);
        assert_eq!(w.result_text(), "1-0");
        let d = Outcome::draw(2, "stalemate");
        assert_eq!(d.result_text(), "1/2-1/2");
        let f = Outcome::forfeit(0, 2, "crash");
        assert_eq!(f.result_text(), "0-1");
        let six = Outcome::win(2, 6, "last standing");
        assert_eq!(six.score(2), 1.0);
        assert_eq!(six.ranks[0], 4.0);
        assert!((six.score(0) - 0.4).abs() < 1e-12);
        let p = Outcome::from_places(&[2, 1, 2, 4], "x");
        assert_eq!(p.ranks, vec![2.5, 1.0, 2.5, 4.0]);
        let f6 = Outcome::forfeit(3, 6, "hang");
        assert_eq!(f6.ranks[3], 6.0);
        assert_eq!(f6.ranks[0], 3.0);
        let total: f64 = f6.ranks.iter().sum();
        assert_eq!(total, 21.0);
    }
}
