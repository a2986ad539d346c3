//! Static evaluation, from one team's point of view, in centipawns.
//!
//! Per team, summed over the pieces its seats own and hold:
//! - **material**: [`value`] of every piece on the board and in hand (a piece in hand counts as
//!   much as on the board: it can be dropped next to any own Mothership);
//! - **Mothership safety**: for each Mothership, [`ATTACKED`] off when an enemy can capture it
//!   (more when it is the team's last one), [`DEFENDED`] on when a teammate piece covers its tile,
//!   and [`ESCAPE`] per empty tile it could move to (up to [`MAX_ESCAPES`]);
//! - **drop potential**: [`DROP_SPOT`] per empty tile next to an own Mothership, counted only while
//!   the team has pieces in hand;
//! - **mobility**: [`MOBILITY`] per tile a non-Mothership piece can move to or capture on.
//!
//! A position's score for a team is its own total minus the mean total of the other teams still
//! in the game. Inactive pieces count for nobody.

use super::geometry::Geometry;
use super::piece::{Colour, Kind, Seat, MAX_SEATS};
use super::position::Position;
use crate::search::Score;

/// Material value of a piece type.
pub fn value(kind: Kind) -> Score {
    match kind {
        Kind::Mothership => 1500,
        Kind::Orbiter => 500,
        Kind::Missile => 400,
        Kind::Fighter => 300,
    }
}

/// Penalty for a Mothership an enemy can capture.
pub const ATTACKED: Score = 350;
/// Bonus for a Mothership covered by a teammate piece.
pub const DEFENDED: Score = 40;
/// Bonus per empty tile a Mothership could flee to.
pub const ESCAPE: Score = 6;
/// Most escape tiles that count.
pub const MAX_ESCAPES: u32 = 8;
/// Bonus per empty drop tile next to an own Mothership while the team holds pieces.
pub const DROP_SPOT: Score = 5;
/// Bonus per target tile of a non-Mothership piece.
pub const MOBILITY: Score = 3;

impl Position {
    /// The evaluation totals of every team (indexed by team), before comparing them; one pass
    /// over the board.
    pub fn team_totals(&self) -> [Score; MAX_SEATS] {
        let g = Geometry::get();
        let mut score = [0; MAX_SEATS];
        let mut hand_pieces = [0u32; MAX_SEATS];
        let mut ships = [0u32; MAX_SEATS];
        for s in 0..self.seats() as Seat {
            let team = self.team(s) as usize;
            for (k, n) in Kind::IN_HAND.into_iter().zip(self.hand(s).kind_totals()) {
                score[team] += value(k) * n as Score;
                hand_pieces[team] += n;
            }
        }
        for c in Colour::ALL {
            if let Some(o) = self.ship_owner(c) {
                ships[self.team(o) as usize] += 1;
            }
        }
        let occupied = self.occupied();
        for t in super::movegen::tiles_of(occupied) {
            let Some(p) = self.piece_at(t) else { continue };
            let Some(owner) = p.owner else { continue };
            let team = self.team(owner);
            let ti = team as usize;
            score[ti] += value(p.kind);
            let targets = self.targets(t, p);
            if p.kind == Kind::Mothership {
                if self.attacked_by_enemy(t, team) {
                    score[ti] -= if ships[ti] == 1 {
                        2 * ATTACKED
                    } else {
                        ATTACKED
                    };
                }
                if self.attackers(t, team, false) > 0 {
                    score[ti] += DEFENDED;
                }
                score[ti] += ESCAPE * targets.quiet.count_ones().min(MAX_ESCAPES) as Score;
                if hand_pieces[ti] > 0 {
                    let near = (g.edge_mask(t.0) | g.vertex_mask(t.0)) & !occupied;
                    score[ti] += DROP_SPOT * near.count_ones() as Score;
                }
            } else {
                score[ti] += MOBILITY * (targets.quiet | targets.captures).count_ones() as Score;
            }
        }
        score
    }

    /// The evaluation total of one team, before comparing with the others.
    pub fn team_total(&self, team: u8) -> Score {
        self.team_totals()[team as usize]
    }

    /// Heuristic value of the position for `team`: its total minus the mean of the other live
    /// teams' totals.
    pub fn evaluate_team(&self, team: u8) -> Score {
        let alive = self.teams_with_ships();
        let totals = self.team_totals();
        let (mut sum, mut n) = (0, 0);
        for (t, &total) in totals.iter().enumerate().take(self.teams()) {
            if t != team as usize && alive & (1 << t) != 0 {
                sum += total;
                n += 1;
            }
        }
        let own = totals[team as usize];
        if n == 0 {
            own
        } else {
            own - sum / n
        }
    }
}
