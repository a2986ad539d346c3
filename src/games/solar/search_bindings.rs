//! Solar Chess positions as seen by the shared searches: [`TwoSided`] for setups whose two sides
//! alternate (the duels, `teams-2x2`, `teams-2x3`: a side is a team), [`MultiSided`] for all.
//!
//! Conventions:
//! - `in_check`: the side to move has exactly one Mothership left and an enemy can capture it
//!   (losing it ends the game); with several Motherships it is `false`.
//! - `rule_outcome`: a side without Motherships has lost (`-MATE`; after the winning capture the
//!   turn passes to the next seat in order, i.e. to the loser, so the winner sees `+MATE` one ply
//!   up); the no-capture limit and any repetition inside the search are draws (the game itself,
//!   [`Position::status`], needs a threefold repetition).
//! - `no_moves_score`: cannot happen (a forced pass is a move); returns `-MATE`.
//! - `outcome` (multi): winners 1 per seat, losers 0; a draw splits 1 equally between the teams
//!   still in, each seat of a team getting its team's share.

use super::eval::value;
use super::moves::Move;
use super::piece::{Kind, Seat};
use super::position::{Position, Status};
use crate::search::{MultiSided, Score, TwoSided, DRAW, MATE};

impl Position {
    /// Whether the seats' turns alternate between exactly two sides (so [`TwoSided`] applies).
    pub fn is_two_sided(&self) -> bool {
        self.teams() == 2
            && (0..self.seats())
                .all(|s| self.team(s as Seat) != self.team(((s + 1) % self.seats()) as Seat))
    }

    /// Whether the side to move has one Mothership left and it is attacked.
    pub fn last_ship_attacked(&self) -> bool {
        let team = self.team(self.to_move());
        let mut ships = super::tile::Tile::all().filter(|&t| {
            self.piece_at(t).is_some_and(|p| {
                p.kind == Kind::Mothership && p.owner.is_some_and(|o| self.team(o) == team)
            })
        });
        match (ships.next(), ships.next()) {
            (Some(t), None) => self.attacked_by_enemy(t, team),
            _ => false,
        }
    }

    /// Value of the piece a move captures (0 for non-captures).
    pub fn capture_value(&self, mv: Move) -> Score {
        match mv {
            Move::Step { to, .. } => self.piece_at(to).map_or(0, |p| value(p.kind)),
            _ => 0,
        }
    }

    /// Dense index of a move for history tables (moving or dropped piece type, target tile).
    pub fn move_history_index(&self, mv: Move) -> usize {
        match mv {
            Move::Step { from, to } | Move::Dock { from, to } => {
                let k = self.piece_at(from).map_or(0, |p| p.kind.index());
                k * 72 + to.index()
            }
            Move::Drop { kind, to, .. } => (4 + kind.index() - 1) * 72 + to.index(),
            Move::Pass => 7 * 72,
        }
    }
}

/// Size of the history table [`Position::move_history_index`] indexes.
pub const HISTORY_SIZE: usize = 7 * 72 + 1;

impl TwoSided for Position {
    type Move = Move;

    fn key(&self) -> u64 {
        Position::key(self)
    }
    fn legal_moves(&self, out: &mut Vec<Move>) {
        Position::legal_moves(self, out)
    }
    fn noisy_moves(&self, out: &mut Vec<Move>) {
        self.capture_moves(out)
    }
    fn make(&mut self, mv: Move) {
        Position::make(self, mv)
    }
    fn unmake(&mut self) {
        Position::unmake(self)
    }
    fn make_null(&mut self) -> bool {
        if self.is_over() || self.last_ship_attacked() {
            return false;
        }
        Position::make(self, Move::Pass);
        true
    }
    fn unmake_null(&mut self) {
        Position::unmake(self)
    }
    fn in_check(&self) -> bool {
        self.last_ship_attacked()
    }
    fn no_moves_score(&self) -> Score {
        -MATE
    }
    fn rule_outcome(&self) -> Option<Score> {
        if self.is_over() {
            let me = self.team(self.to_move());
            return Some(if self.teams_with_ships() & (1 << me) != 0 {
                MATE
            } else {
                -MATE
            });
        }
        if self.no_capture_plies() >= self.draw_plies() || self.repetitions() >= 1 {
            return Some(DRAW);
        }
        None
    }
    fn evaluate(&self) -> Score {
        self.evaluate_team(self.team(self.to_move()))
    }
    fn victim_value(&self, mv: Move) -> Score {
        self.capture_value(mv)
    }
    fn attacker_value(&self, mv: Move) -> Score {
        match mv {
            Move::Step { from, .. } | Move::Dock { from, .. } => {
                self.piece_at(from).map_or(0, |p| value(p.kind))
            }
            Move::Drop { kind, .. } => value(kind),
            Move::Pass => 0,
        }
    }
    fn history_index(&self, mv: Move) -> usize {
        self.move_history_index(mv)
    }
    fn history_size(&self) -> usize {
        HISTORY_SIZE
    }
    fn ply(&self) -> usize {
        self.plies_made()
    }
}

impl MultiSided for Position {
    type Move = Move;

    fn seats(&self) -> usize {
        Position::seats(self)
    }
    fn to_move(&self) -> usize {
        Position::to_move(self) as usize
    }
    fn team(&self, seat: usize) -> usize {
        Position::team(self, seat as Seat) as usize
    }
    fn is_active(&self, seat: usize) -> bool {
        !self.is_eliminated(seat as Seat)
    }
    fn key(&self) -> u64 {
        Position::key(self)
    }
    fn legal_moves(&self, out: &mut Vec<Move>) {
        Position::legal_moves(self, out)
    }
    fn noisy_moves(&self, out: &mut Vec<Move>) {
        self.capture_moves(out)
    }
    fn make(&mut self, mv: Move) {
        Position::make(self, mv)
    }
    fn unmake(&mut self) {
        Position::unmake(self)
    }
    fn outcome(&self, rewards: &mut [f32]) -> bool {
        let n = Position::seats(self);
        match self.status() {
            Status::Ongoing => false,
            Status::Won { team } => {
                for (s, r) in rewards.iter_mut().enumerate().take(n) {
                    *r = if Position::team(self, s as Seat) == team {
                        1.0
                    } else {
                        0.0
                    };
                }
                true
            }
            Status::Drawn(_) => {
                let alive = self.teams_with_ships();
                let share = 1.0 / alive.count_ones().max(1) as f32;
                for (s, r) in rewards.iter_mut().enumerate().take(n) {
                    let t = Position::team(self, s as Seat);
                    *r = if alive & (1 << t) != 0 { share } else { 0.0 };
                }
                true
            }
        }
    }
    fn evaluate_for(&self, seat: usize) -> Score {
        self.evaluate_team(Position::team(self, seat as Seat))
    }
    fn victim_value(&self, mv: Move) -> Score {
        self.capture_value(mv)
    }
    fn history_index(&self, mv: Move) -> usize {
        self.move_history_index(mv)
    }
    fn history_size(&self) -> usize {
        HISTORY_SIZE
    }
}
