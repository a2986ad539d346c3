//! The full game state: board, hands, teams, seat to move, eliminations and counters, with
//! make/unmake on an undo stack and an incremental Zobrist key.

use super::geometry::TILES;
use super::hand::Hand;
use super::moves::Move;
use super::piece::{Colour, Kind, Piece, Seat, MAX_SEATS};
use super::tile::Tile;
use super::zobrist::Zobrist;

/// Default number of consecutive plies without a capture after which the game is drawn.
pub const DEFAULT_DRAW_PLIES: u32 = 200;

/// Why a game ended in a draw.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DrawReason {
    /// The same full position (board, hands, seat to move) for the third time.
    Repetition,
    /// The configured number of plies without a capture.
    NoCapture,
}

/// Where the game stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    /// Play goes on.
    Ongoing,
    /// One team (or single player, its own team) is the last with a Mothership.
    Won {
        /// The winning team's index (see [`Position::team`]).
        team: u8,
    },
    /// Drawn, shared by every player or team still in the game.
    Drawn(DrawReason),
}

#[derive(Clone, Copy, Debug)]
struct Undo {
    mv: Move,
    /// The piece that docked (for a dock).
    moved: Option<Piece>,
    captured: Option<Piece>,
    /// Whether a captured non-Mothership went to the capturer's hand.
    to_hand: bool,
    /// Whether a snapshot was pushed (Mothership captures).
    snapshot: bool,
    to_move: Seat,
    no_capture: u32,
    board_key: u64,
    hand_key: u64,
}

#[derive(Clone, Debug)]
struct Snapshot {
    board: [Option<Piece>; TILES],
    hands: [Hand; MAX_SEATS],
    ship_at: [Option<Tile>; 6],
}

/// A Solar Chess position with everything the rules need (see `docs/solar.md`).
#[derive(Clone, Debug)]
pub struct Position {
    pub(super) board: [Option<Piece>; TILES],
    pub(super) hands: [Hand; MAX_SEATS],
    pub(super) seats: u8,
    pub(super) team: [u8; MAX_SEATS],
    pub(super) to_move: Seat,
    pub(super) ship_at: [Option<Tile>; 6],
    /// Set of occupied tiles, kept in step with `board`.
    pub(super) occ: u128,
    pub(super) no_capture: u32,
    pub(super) ply: u32,
    pub(super) draw_plies: u32,
    board_key: u64,
    hand_key: u64,
    history: Vec<u64>,
    undo: Vec<Undo>,
    snapshots: Vec<Snapshot>,
}

impl Position {
    /// An empty position with `seats` seats and the given team of each seat; callers fill it and
    /// then call [`finish`](Position::finish).
    pub(super) fn empty(seats: u8, team: [u8; MAX_SEATS]) -> Position {
        Position {
            board: [None; TILES],
            hands: [Hand::default(); MAX_SEATS],
            seats,
            team,
            to_move: 0,
            ship_at: [None; 6],
            occ: 0,
            no_capture: 0,
            ply: 0,
            draw_plies: DEFAULT_DRAW_PLIES,
            board_key: 0,
            hand_key: 0,
            history: Vec::with_capacity(256),
            undo: Vec::with_capacity(256),
            snapshots: Vec::new(),
        }
    }

    /// Recomputes the derived fields (Mothership index, keys) after the board was filled.
    pub(super) fn finish(&mut self) {
        self.ship_at = [None; 6];
        self.occ = 0;
        for t in Tile::all() {
            if self.board[t.index()].is_some() {
                self.occ |= t.bit();
            }
            if let Some(p) = self.board[t.index()] {
                if p.kind == Kind::Mothership {
                    self.ship_at[p.colour.index()] = Some(t);
                }
            }
        }
        self.recompute_keys();
    }

    fn recompute_keys(&mut self) {
        let z = Zobrist::get();
        let mut bk = z.to_move(self.to_move as usize);
        for (t, p) in self.board.iter().enumerate() {
            if let Some(p) = p {
                bk ^= z.piece(t, *p);
            }
        }
        let mut hk = 0u64;
        for s in 0..self.seats as usize {
            for (k, c, n) in self.hands[s].entries() {
                hk = hk.wrapping_add(z.hand(s, k, c).wrapping_mul(n as u64));
            }
        }
        self.board_key = bk;
        self.hand_key = hk;
    }

    /// Number of seats, eliminated ones included.
    pub fn seats(&self) -> usize {
        self.seats as usize
    }

    /// The seat to move (0-based).
    pub fn to_move(&self) -> Seat {
        self.to_move
    }

    /// The team index of a seat (each seat its own team when there are no teams).
    pub fn team(&self, seat: Seat) -> u8 {
        self.team[seat as usize]
    }

    /// Number of teams.
    pub fn teams(&self) -> usize {
        (0..self.seats as usize)
            .map(|s| self.team[s])
            .max()
            .map_or(0, |t| t as usize + 1)
    }

    /// The seats of a team, in seat order (e.g. the winners of [`Status::Won`]).
    pub fn seats_of_team(&self, team: u8) -> impl Iterator<Item = Seat> + '_ {
        (0..self.seats).filter(move |&s| self.team[s as usize] == team)
    }

    /// Whether two seats are on the same team.
    pub fn same_team(&self, a: Seat, b: Seat) -> bool {
        self.team[a as usize] == self.team[b as usize]
    }

    /// Whether a seat has been eliminated.
    pub fn is_eliminated(&self, seat: Seat) -> bool {
        self.teams_with_ships() & (1 << self.team[seat as usize]) == 0
    }

    /// The piece on a tile.
    pub fn piece_at(&self, t: Tile) -> Option<Piece> {
        self.board[t.index()]
    }

    /// A seat's hand.
    pub fn hand(&self, seat: Seat) -> &Hand {
        &self.hands[seat as usize]
    }

    /// Tile of the Mothership of a colour, if it is on the board.
    pub fn ship_tile(&self, colour: Colour) -> Option<Tile> {
        self.ship_at[colour.index()]
    }

    /// The seat controlling the Mothership of a colour.
    pub fn ship_owner(&self, colour: Colour) -> Option<Seat> {
        self.ship_at[colour.index()].and_then(|t| self.board[t.index()].and_then(|p| p.owner))
    }

    /// Bit mask (by colour index) of the Motherships a seat controls.
    pub fn ships_of(&self, seat: Seat) -> u8 {
        let mut m = 0;
        for c in Colour::ALL {
            if self.ship_owner(c) == Some(seat) {
                m |= 1 << c.index();
            }
        }
        m
    }

    /// Whether a seat controls at least one Mothership.
    pub fn has_ship(&self, seat: Seat) -> bool {
        self.ships_of(seat) != 0
    }

    /// Bit mask of teams that still have a Mothership.
    pub fn teams_with_ships(&self) -> u8 {
        let mut m = 0;
        for c in Colour::ALL {
            if let Some(s) = self.ship_owner(c) {
                m |= 1 << self.team[s as usize];
            }
        }
        m
    }

    /// Whether only one team (or none) has Motherships left.
    pub fn is_over(&self) -> bool {
        self.teams_with_ships().count_ones() <= 1
    }

    /// Consecutive plies without a capture.
    pub fn no_capture_plies(&self) -> u32 {
        self.no_capture
    }

    /// Plies played in the game (as carried by the position string, plus moves made).
    pub fn ply(&self) -> u32 {
        self.ply
    }

    /// Plies made since this value was created or parsed (the undo stack depth).
    pub fn plies_made(&self) -> usize {
        self.undo.len()
    }

    /// The no-capture draw limit in plies.
    pub fn draw_plies(&self) -> u32 {
        self.draw_plies
    }

    /// Sets the no-capture draw limit (default [`DEFAULT_DRAW_PLIES`]).
    pub fn set_draw_plies(&mut self, plies: u32) {
        self.draw_plies = plies;
    }

    /// Hash key of board, hands and seat to move.
    pub fn key(&self) -> u64 {
        self.board_key ^ self.hand_key
    }

    /// How often the current position occurred before, since the last capture.
    pub fn repetitions(&self) -> usize {
        let key = self.key();
        let window = (self.no_capture as usize).min(self.history.len());
        self.history[self.history.len() - window..]
            .iter()
            .filter(|&&k| k == key)
            .count()
    }

    /// Win, draw (threefold repetition, no-capture limit) or ongoing.
    pub fn status(&self) -> Status {
        let teams = self.teams_with_ships();
        if teams.count_ones() <= 1 {
            return Status::Won {
                team: teams.trailing_zeros().min(7) as u8,
            };
        }
        if self.no_capture >= self.draw_plies {
            return Status::Drawn(DrawReason::NoCapture);
        }
        if self.repetitions() >= 2 {
            return Status::Drawn(DrawReason::Repetition);
        }
        Status::Ongoing
    }

    /// The next seat after `seat` that is still in the game.
    fn next_active(&self, seat: Seat) -> Seat {
        let mut s = seat;
        for _ in 0..self.seats {
            s = (s + 1) % self.seats;
            if !self.is_eliminated(s) {
                return s;
            }
        }
        seat
    }

    /// Plays a legal move (as produced by the move generator or the move parser); an illegal
    /// one may panic or leave an inconsistent position (use [`Position::play`] for text input).
    pub fn make(&mut self, mv: Move) {
        let z = Zobrist::get();
        let seat = self.to_move;
        let mut u = Undo {
            mv,
            moved: None,
            captured: None,
            to_hand: false,
            snapshot: false,
            to_move: seat,
            no_capture: self.no_capture,
            board_key: self.board_key,
            hand_key: self.hand_key,
        };
        self.history.push(self.key());
        self.no_capture += 1;
        match mv {
            Move::Step { from, to } => {
                let capturer_has_ship = self.has_ship(seat);
                let p = self.board[from.index()]
                    .take()
                    .expect("a step starts from an occupied tile");
                self.board_key ^= z.piece(from.index(), p);
                let captured = self.board[to.index()];
                u.captured = captured;
                if let Some(q) = captured {
                    self.no_capture = 0;
                    self.board_key ^= z.piece(to.index(), q);
                    if q.kind == Kind::Mothership {
                        u.snapshot = true;
                        let mut board = self.board;
                        board[from.index()] = Some(p);
                        self.snapshots.push(Snapshot {
                            board,
                            hands: self.hands,
                            ship_at: self.ship_at,
                        });
                        self.capture_ship(seat, capturer_has_ship, q);
                    } else if capturer_has_ship {
                        self.hands[seat as usize].add(q.kind, q.colour);
                        self.hand_key =
                            self.hand_key
                                .wrapping_add(z.hand(seat as usize, q.kind, q.colour));
                        u.to_hand = true;
                    }
                }
                self.board[to.index()] = Some(p);
                self.occ = (self.occ & !from.bit()) | to.bit();
                self.board_key ^= z.piece(to.index(), p);
                if p.kind == Kind::Mothership {
                    self.ship_at[p.colour.index()] = Some(to);
                }
            }
            Move::Dock { from, to } => {
                let p = self.board[from.index()]
                    .take()
                    .expect("a dock starts from an occupied tile");
                self.board_key ^= z.piece(from.index(), p);
                self.occ &= !from.bit();
                let ship = self.board[to.index()].expect("a dock targets a Mothership");
                let owner = ship.owner.unwrap_or(seat) as usize;
                self.hands[owner].add(p.kind, ship.colour);
                self.hand_key = self
                    .hand_key
                    .wrapping_add(z.hand(owner, p.kind, ship.colour));
                u.moved = Some(p);
            }
            Move::Drop {
                kind,
                hand,
                colour,
                to,
            } => {
                self.hands[seat as usize].remove(kind, hand);
                self.hand_key = self
                    .hand_key
                    .wrapping_sub(z.hand(seat as usize, kind, hand));
                let p = Piece {
                    kind,
                    colour,
                    owner: Some(seat),
                };
                self.board[to.index()] = Some(p);
                self.occ |= to.bit();
                self.board_key ^= z.piece(to.index(), p);
            }
            Move::Pass => {}
        }
        self.ply += 1;
        self.board_key ^= z.to_move(seat as usize);
        self.to_move = if self.is_over() {
            (seat + 1) % self.seats
        } else {
            self.next_active(seat)
        };
        self.board_key ^= z.to_move(self.to_move as usize);
        if u.snapshot {
            self.recompute_keys();
        }
        self.undo.push(u);
    }

    /// The hand transfers and eliminations of a captured Mothership (the board square itself is
    /// overwritten by the caller).
    fn capture_ship(&mut self, capturer: Seat, capturer_has_ship: bool, ship: Piece) {
        self.ship_at[ship.colour.index()] = None;
        let Some(victim) = ship.owner else { return };
        let mut gain = self.hands[victim as usize].take_colour(ship.colour);
        if !self.has_ship(victim) {
            let rest = self.hands[victim as usize].take_all();
            gain.absorb(&rest, Some(ship.colour));
        }
        if capturer_has_ship {
            self.hands[capturer as usize].absorb(&gain, None);
        }
        let victim_team = self.team[victim as usize];
        if self.teams_with_ships() & (1 << victim_team) == 0 {
            let mut out = 0u8;
            for s in 0..self.seats {
                if self.team[s as usize] == victim_team {
                    out |= 1 << s;
                }
            }
            for p in self.board.iter_mut().flatten() {
                if let Some(o) = p.owner {
                    if out & (1 << o) != 0 {
                        p.owner = None;
                    }
                }
            }
        }
    }

    /// Takes back the last move; does nothing when no move was made.
    pub fn unmake(&mut self) {
        let Some(u) = self.undo.pop() else { return };
        self.history.pop();
        self.to_move = u.to_move;
        self.no_capture = u.no_capture;
        self.board_key = u.board_key;
        self.hand_key = u.hand_key;
        self.ply -= 1;
        let seat = u.to_move as usize;
        match u.mv {
            Move::Step { from, to } => {
                if u.snapshot {
                    let s = self
                        .snapshots
                        .pop()
                        .expect("snapshot of a Mothership capture");
                    self.board = s.board;
                    self.hands = s.hands;
                    self.ship_at = s.ship_at;
                    self.occ |= from.bit();
                } else {
                    let p = self.board[to.index()].take().expect("moved piece");
                    self.board[from.index()] = Some(p);
                    if p.kind == Kind::Mothership {
                        self.ship_at[p.colour.index()] = Some(from);
                    }
                    self.board[to.index()] = u.captured;
                    self.occ |= from.bit();
                    if u.captured.is_none() {
                        self.occ &= !to.bit();
                    }
                    if u.to_hand {
                        if let Some(q) = u.captured {
                            self.hands[seat].remove(q.kind, q.colour);
                        }
                    }
                }
            }
            Move::Dock { from, to } => {
                let p = u.moved.expect("docked piece");
                self.board[from.index()] = Some(p);
                self.occ |= from.bit();
                let ship = self.board[to.index()].expect("Mothership of a dock");
                let owner = ship.owner.map_or(seat, |o| o as usize);
                self.hands[owner].remove(p.kind, ship.colour);
            }
            Move::Drop { kind, hand, to, .. } => {
                self.board[to.index()] = None;
                self.occ &= !to.bit();
                self.hands[seat].add(kind, hand);
            }
            Move::Pass => {}
        }
    }

    /// The last move made on this value, if any.
    pub fn last_move(&self) -> Option<Move> {
        self.undo.last().map(|u| u.mv)
    }

    /// Forgets the undo stack (keeping the repetition history), e.g. after a game's moves were
    /// applied and before a search starts from here.
    pub fn clear_undo(&mut self) {
        self.undo.clear();
        self.snapshots.clear();
    }
}

impl PartialEq for Position {
    /// Same board, hands, teams, seat to move, eliminations and counters (history ignored).
    fn eq(&self, o: &Position) -> bool {
        self.board == o.board
            && self.hands[..self.seats as usize] == o.hands[..o.seats as usize]
            && self.seats == o.seats
            && self.team[..self.seats as usize] == o.team[..o.seats as usize]
            && self.to_move == o.to_move
            && self.no_capture == o.no_capture
            && self.ply == o.ply
    }
}
