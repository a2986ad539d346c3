//! The interface between a game with more than two sides and the multi-player searches
//! (Best-Reply Search BRS+, paranoid, MCTS with max^n backup).

use super::Score;

/// What the multi-player searches need from a game with 2..=8 seats, possibly in teams.
///
/// Seats are numbered from 0 here (protocol seat `n` is index `n - 1`). A forced pass is an ordinary
/// move in [`legal_moves`](MultiSided::legal_moves). Implementors keep their own undo stack.
pub trait MultiSided: Clone + Send + 'static {
    /// A move (a forced pass included).
    type Move: Copy + Eq + Send + Sync + std::fmt::Debug + 'static;

    /// Number of seats, eliminated ones included.
    fn seats(&self) -> usize;

    /// The seat to move.
    fn to_move(&self) -> usize;

    /// The team a seat belongs to (each seat its own team when there are no teams).
    fn team(&self, seat: usize) -> usize;

    /// Whether a seat is still in the game.
    fn is_active(&self, seat: usize) -> bool;

    /// Hash key of the position (board, hands, seat to move).
    fn key(&self) -> u64;

    /// Every legal move of the seat to move into `out` (cleared first); empty only when the game is
    /// over.
    fn legal_moves(&self, out: &mut Vec<Self::Move>);

    /// Legal captures of the seat to move into `out` (cleared first), for quiescence.
    fn noisy_moves(&self, out: &mut Vec<Self::Move>);

    /// Plays a legal move.
    fn make(&mut self, mv: Self::Move);

    /// Takes back the last move.
    fn unmake(&mut self);

    /// When the game is over (by win or by a draw rule), writes each seat's reward (1 for a win,
    /// 0 for a loss, shares for a draw; teammates share their team's reward) into `rewards` and
    /// returns `true`.
    fn outcome(&self, rewards: &mut [f32]) -> bool;

    /// Heuristic value of the position for `seat`, in centipawns, higher is better for that seat.
    fn evaluate_for(&self, seat: usize) -> Score;

    /// Value of the piece a move captures (0 for a non-capture), for move ordering.
    fn victim_value(&self, mv: Self::Move) -> Score;

    /// A dense index of a move for history tables, below [`history_size`](MultiSided::history_size).
    fn history_index(&self, mv: Self::Move) -> usize;

    /// Size of the table [`history_index`](MultiSided::history_index) indexes.
    fn history_size(&self) -> usize;
}
