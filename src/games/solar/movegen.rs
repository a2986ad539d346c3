//! Move generation: steps and captures along orbit and missile rays, docks, drops (with
//! recolouring), the forced pass; and attack detection along the same rays walked backwards.

use super::geometry::Geometry;
use super::moves::Move;
use super::piece::{Colour, Kind, Piece, Seat};
use super::position::Position;
use super::tile::Tile;

/// Where one piece can go, as tile sets (bit `i` = tile `i`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Targets {
    /// Empty tiles it can move to.
    pub quiet: u128,
    /// Tiles of enemy or inactive pieces it can capture.
    pub captures: u128,
    /// Tiles of own or teammate's Motherships it can dock at.
    pub docks: u128,
}

/// Iterates the tiles of a tile set in index order.
pub fn tiles_of(mut set: u128) -> impl Iterator<Item = Tile> {
    std::iter::from_fn(move || {
        if set == 0 {
            return None;
        }
        let t = set.trailing_zeros() as u8;
        set &= set - 1;
        Some(Tile(t))
    })
}

impl Position {
    /// Whether a piece belongs to a seat on `team`'s side (owned by one of its seats).
    #[inline]
    fn friendly(&self, p: Piece, team: u8) -> bool {
        p.owner.is_some_and(|o| self.team[o as usize] == team)
    }

    /// Where the piece `p` standing on `from` can go (empty tiles, captures, docks).
    pub fn targets(&self, from: Tile, p: Piece) -> Targets {
        let g = Geometry::get();
        let team = p.owner.map_or(u8::MAX, |o| self.team[o as usize]);
        let mut out = Targets::default();
        let (orbit_far, missile_far) = match p.kind {
            Kind::Mothership => (true, true),
            Kind::Orbiter => (true, false),
            Kind::Missile => (false, true),
            Kind::Fighter => (false, false),
        };
        let orbit_any = p.kind != Kind::Missile;
        let missile_any = p.kind != Kind::Orbiter;
        let mut walk = |rays: &[super::geometry::Ray], far: bool| {
            for ray in rays {
                for &t in ray.tiles() {
                    match self.board[t as usize] {
                        None => out.quiet |= 1u128 << t,
                        Some(q) => {
                            if !self.friendly(q, team) {
                                out.captures |= 1u128 << t;
                            } else if q.kind == Kind::Mothership && p.kind != Kind::Mothership {
                                out.docks |= 1u128 << t;
                            }
                            break;
                        }
                    }
                    if !far {
                        break;
                    }
                }
            }
        };
        if orbit_any {
            walk(g.orbit_rays(from.0), orbit_far);
        }
        if missile_any {
            walk(g.missile_rays(from.0), missile_far);
        }
        out
    }

    /// Empty tiles next to a Mothership on `ship` where a piece of `kind` may be dropped.
    pub fn drop_tiles(&self, ship: Tile, kind: Kind) -> u128 {
        self.drop_tiles_with(ship, kind, self.occupied())
    }

    fn drop_tiles_with(&self, ship: Tile, kind: Kind, occupied: u128) -> u128 {
        let g = Geometry::get();
        let near = match kind {
            Kind::Orbiter => g.edge_mask(ship.0),
            Kind::Missile => g.vertex_mask(ship.0),
            Kind::Fighter => g.edge_mask(ship.0) | g.vertex_mask(ship.0),
            Kind::Mothership => 0,
        };
        near & !occupied
    }

    /// Set of occupied tiles.
    pub fn occupied(&self) -> u128 {
        self.occ
    }

    /// Every legal move of the seat to move into `out` (cleared first): empty only when the game
    /// is over; a lone forced pass when nothing else is possible.
    pub fn legal_moves(&self, out: &mut Vec<Move>) {
        out.clear();
        if self.is_over() {
            return;
        }
        let seat = self.to_move;
        self.piece_moves(seat, out, false);
        self.drops(seat, out);
        if out.is_empty() {
            out.push(Move::Pass);
        }
    }

    /// Legal captures of the seat to move into `out` (cleared first).
    pub fn capture_moves(&self, out: &mut Vec<Move>) {
        out.clear();
        if self.is_over() {
            return;
        }
        self.piece_moves(self.to_move, out, true);
    }

    fn piece_moves(&self, seat: Seat, out: &mut Vec<Move>, captures_only: bool) {
        for from in tiles_of(self.occ) {
            let Some(p) = self.board[from.index()] else {
                continue;
            };
            if p.owner != Some(seat) {
                continue;
            }
            let t = self.targets(from, p);
            let steps = if captures_only {
                t.captures
            } else {
                t.quiet | t.captures
            };
            for to in tiles_of(steps) {
                out.push(Move::Step { from, to });
            }
            if !captures_only {
                for to in tiles_of(t.docks) {
                    out.push(Move::Dock { from, to });
                }
            }
        }
    }

    fn drops(&self, seat: Seat, out: &mut Vec<Move>) {
        let ships = self.ships_of(seat);
        if ships == 0 {
            return;
        }
        let hand = self.hands[seat as usize];
        if hand.is_empty() {
            return;
        }
        let occupied = self.occupied();
        hand.for_each(|kind, hand_colour, _| {
            let matches = ships & (1 << hand_colour.index()) != 0;
            for colour in Colour::ALL {
                if ships & (1 << colour.index()) == 0 || (matches && colour != hand_colour) {
                    continue;
                }
                let Some(ship) = self.ship_at[colour.index()] else {
                    continue;
                };
                for to in tiles_of(self.drop_tiles_with(ship, kind, occupied)) {
                    out.push(Move::Drop {
                        kind,
                        hand: hand_colour,
                        colour,
                        to,
                    });
                }
            }
        });
    }

    /// Whether an active piece not on `team` could capture on `tile` (rays walked backwards).
    pub fn attacked_by_enemy(&self, tile: Tile, team: u8) -> bool {
        self.attackers(tile, team, true) > 0
    }

    /// Number of active pieces not on `team` that could capture on `tile`, or with `enemy` false
    /// the pieces of `team` that cover it (defenders).
    pub fn attackers(&self, tile: Tile, team: u8, enemy: bool) -> u32 {
        let g = Geometry::get();
        let mut n = 0;
        let mut walk = |rays: &[super::geometry::Ray], slider: Kind| {
            for ray in rays {
                for (d, &t) in ray.tiles().iter().enumerate() {
                    if let Some(q) = self.board[t as usize] {
                        let side_ok = match q.owner {
                            None => false,
                            Some(o) => (self.team[o as usize] == team) != enemy,
                        };
                        if side_ok
                            && (q.kind == slider
                                || q.kind == Kind::Mothership
                                || (q.kind == Kind::Fighter && d == 0))
                        {
                            n += 1;
                        }
                        break;
                    }
                }
            }
        };
        walk(g.orbit_rays(tile.0), Kind::Orbiter);
        walk(g.missile_rays(tile.0), Kind::Missile);
        n
    }
}
