//! Small games written for the search tests: tic-tac-toe and a subtraction game (exact values
//! known), an endless random-valued game (for limits and stopping), and a multi-seat take-away
//! game (for the multi-player searches).

use super::{MultiSided, Score, TwoSided, DRAW, MATE};

/// A 64-bit mixer, so that toy keys spread over the whole hash table.
pub fn mix(mut x: u64) -> u64 {
    x = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    x = (x ^ (x >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    x ^ (x >> 31)
}

const LINES: [[usize; 3]; 8] = [
    [0, 1, 2],
    [3, 4, 5],
    [6, 7, 8],
    [0, 3, 6],
    [1, 4, 7],
    [2, 5, 8],
    [0, 4, 8],
    [2, 4, 6],
];

/// Tic-tac-toe; cells 0..9 row by row; 1 = X (moves first), 2 = O.
#[derive(Clone, Debug, Default)]
pub struct TicTacToe {
    pub cells: [u8; 9],
    pub history: Vec<usize>,
}

impl TicTacToe {
    /// A position from a 9-character picture (`X`, `O`, `.`); the side to move follows from the
    /// counts.
    pub fn from_picture(p: &str) -> Self {
        let mut t = TicTacToe::default();
        for (i, c) in p.chars().enumerate() {
            t.cells[i] = match c {
                'X' => 1,
                'O' => 2,
                _ => 0,
            };
        }
        let filled = t.cells.iter().filter(|&&c| c != 0).count();
        t.history = (0..filled).map(|_| 9).collect();
        t
    }
    fn mover(&self) -> u8 {
        1 + (self.cells.iter().filter(|&&c| c != 0).count() % 2) as u8
    }
    fn has_line(&self, who: u8) -> bool {
        LINES
            .iter()
            .any(|l| l.iter().all(|&i| self.cells[i] == who))
    }
    fn last_mover_won(&self) -> bool {
        self.has_line(3 - self.mover())
    }
}

impl TwoSided for TicTacToe {
    type Move = usize;
    fn key(&self) -> u64 {
        mix(self.cells.iter().fold(0u64, |k, &c| k * 3 + c as u64))
    }
    fn legal_moves(&self, out: &mut Vec<usize>) {
        out.clear();
        if !self.last_mover_won() {
            out.extend((0..9).filter(|&i| self.cells[i] == 0));
        }
    }
    fn noisy_moves(&self, out: &mut Vec<usize>) {
        out.clear();
    }
    fn make(&mut self, mv: usize) {
        self.cells[mv] = self.mover();
        self.history.push(mv);
    }
    fn unmake(&mut self) {
        let mv = self.history.pop().expect("a move to take back");
        self.cells[mv] = 0;
    }
    fn make_null(&mut self) -> bool {
        false
    }
    fn unmake_null(&mut self) {}
    fn in_check(&self) -> bool {
        false
    }
    fn no_moves_score(&self) -> Score {
        if self.last_mover_won() {
            -MATE
        } else {
            DRAW
        }
    }
    fn rule_outcome(&self) -> Option<Score> {
        self.last_mover_won().then_some(-MATE)
    }
    fn evaluate(&self) -> Score {
        let me = self.mover();
        let open = |who: u8| {
            LINES
                .iter()
                .filter(|l| {
                    l.iter()
                        .all(|&i| self.cells[i] == 0 || self.cells[i] == who)
                })
                .count() as Score
        };
        open(me) - open(3 - me)
    }
    fn victim_value(&self, _: usize) -> Score {
        0
    }
    fn attacker_value(&self, _: usize) -> Score {
        0
    }
    fn history_index(&self, mv: usize) -> usize {
        mv
    }
    fn history_size(&self) -> usize {
        9
    }
    fn ply(&self) -> usize {
        self.history.len()
    }
}

/// The subtraction game: take 1, 3 or 4 stones; whoever cannot move (no stones) loses.
#[derive(Clone, Debug)]
pub struct Subtraction {
    pub pile: u32,
    pub history: Vec<u32>,
}

/// The stones one may take in [`Subtraction`].
pub const TAKES: [u32; 3] = [1, 3, 4];

impl TwoSided for Subtraction {
    type Move = u32;
    fn key(&self) -> u64 {
        mix(self.pile as u64 * 2 + (self.history.len() % 2) as u64)
    }
    fn legal_moves(&self, out: &mut Vec<u32>) {
        out.clear();
        out.extend(TAKES.iter().copied().filter(|&t| t <= self.pile));
    }
    fn noisy_moves(&self, out: &mut Vec<u32>) {
        out.clear();
    }
    fn make(&mut self, mv: u32) {
        self.pile -= mv;
        self.history.push(mv);
    }
    fn unmake(&mut self) {
        self.pile += self.history.pop().expect("a move to take back");
    }
    fn make_null(&mut self) -> bool {
        false
    }
    fn unmake_null(&mut self) {}
    fn in_check(&self) -> bool {
        false
    }
    fn no_moves_score(&self) -> Score {
        -MATE
    }
    fn rule_outcome(&self) -> Option<Score> {
        None
    }
    fn evaluate(&self) -> Score {
        0
    }
    fn victim_value(&self, _: u32) -> Score {
        0
    }
    fn attacker_value(&self, _: u32) -> Score {
        0
    }
    fn history_index(&self, mv: u32) -> usize {
        mv as usize
    }
    fn history_size(&self) -> usize {
        5
    }
    fn ply(&self) -> usize {
        self.history.len()
    }
}

/// Exact value of a subtraction-game pile by plain minimax: plies to the end, positive when the
/// side to move wins (it hurries), negative when it loses (it delays).
pub fn subtraction_value(pile: u32) -> i32 {
    let mut value = vec![0i32; pile as usize + 1];
    for n in 0..=pile as usize {
        let children: Vec<i32> = TAKES
            .iter()
            .filter(|&&t| t as usize <= n)
            .map(|&t| value[n - t as usize])
            .collect();
        value[n] = if children.is_empty() {
            0
        } else if let Some(fastest) = children.iter().filter(|&&c| c <= 0).map(|&c| -c).min() {
            fastest + 1
        } else {
            -(children.iter().max().unwrap() + 1)
        };
    }
    value[pile as usize]
}

/// An endless game with pseudo-random evaluations: six moves everywhere, the first two of them
/// captures while captures are left. Its tree is as large as the search wants.
#[derive(Clone, Debug)]
pub struct Wander {
    pub hash: u64,
    pub captures_left: u32,
    /// Whether some positions (one in five) count as "in check".
    pub checks: bool,
    pub stack: Vec<(u64, u32)>,
}

impl Wander {
    pub fn new(seed: u64) -> Self {
        Wander {
            hash: mix(seed),
            captures_left: 8,
            checks: false,
            stack: Vec::new(),
        }
    }

    /// The same game where one position in five is "in check" (extensions, evasions in
    /// quiescence, no null move there).
    pub fn with_checks(seed: u64) -> Self {
        Wander {
            checks: true,
            ..Wander::new(seed)
        }
    }
}

impl TwoSided for Wander {
    type Move = u8;
    fn key(&self) -> u64 {
        self.hash
    }
    fn legal_moves(&self, out: &mut Vec<u8>) {
        out.clear();
        let first = if self.captures_left > 0 { 0 } else { 2 };
        out.extend(first..6);
    }
    fn noisy_moves(&self, out: &mut Vec<u8>) {
        out.clear();
        if self.captures_left > 0 {
            out.extend(0..2);
        }
    }
    fn make(&mut self, mv: u8) {
        self.stack.push((self.hash, self.captures_left));
        self.hash = mix(self.hash ^ (mv as u64 + 1));
        if mv < 2 {
            self.captures_left -= 1;
        }
    }
    fn unmake(&mut self) {
        (self.hash, self.captures_left) = self.stack.pop().expect("a move to take back");
    }
    fn make_null(&mut self) -> bool {
        self.stack.push((self.hash, self.captures_left));
        self.hash = mix(self.hash ^ 0xDEAD);
        true
    }
    fn unmake_null(&mut self) {
        self.unmake();
    }
    fn in_check(&self) -> bool {
        self.checks && self.hash.is_multiple_of(5)
    }
    fn no_moves_score(&self) -> Score {
        DRAW
    }
    fn rule_outcome(&self) -> Option<Score> {
        None
    }
    fn evaluate(&self) -> Score {
        (mix(self.hash) % 201) as Score - 100
    }
    fn victim_value(&self, mv: u8) -> Score {
        if mv < 2 {
            100 + mv as Score
        } else {
            0
        }
    }
    fn attacker_value(&self, mv: u8) -> Score {
        mv as Score * 10
    }
    fn history_index(&self, mv: u8) -> usize {
        mv as usize
    }
    fn history_size(&self) -> usize {
        6
    }
    fn ply(&self) -> usize {
        self.stack.len()
    }
}

/// A move of [`TakeAway`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Take {
    Stones(u32),
    Pass,
}

/// Take-away for several seats: take 1 to 3 stones; whoever takes the last stone wins (with its
/// team). A frozen seat can only pass.
#[derive(Clone, Debug)]
pub struct TakeAway {
    pub pile: u32,
    pub to_move: usize,
    pub teams: Vec<usize>,
    pub frozen: Vec<bool>,
    pub winner: Option<usize>,
    pub stack: Vec<(u32, usize, Option<usize>)>,
}

impl TakeAway {
    /// `seats` seats, each its own team, seat 0 to move.
    pub fn new(seats: usize, pile: u32) -> Self {
        TakeAway {
            pile,
            to_move: 0,
            teams: (0..seats).collect(),
            frozen: vec![false; seats],
            winner: None,
            stack: Vec::new(),
        }
    }
}

impl MultiSided for TakeAway {
    type Move = Take;
    fn seats(&self) -> usize {
        self.teams.len()
    }
    fn to_move(&self) -> usize {
        self.to_move
    }
    fn team(&self, seat: usize) -> usize {
        self.teams[seat]
    }
    fn is_active(&self, _: usize) -> bool {
        true
    }
    fn key(&self) -> u64 {
        mix((self.pile as u64) << 8 | self.to_move as u64)
    }
    fn legal_moves(&self, out: &mut Vec<Take>) {
        out.clear();
        if self.winner.is_some() {
            return;
        }
        if self.frozen[self.to_move] {
            out.push(Take::Pass);
        } else {
            out.extend((1..=self.pile.min(3)).map(Take::Stones));
        }
    }
    fn noisy_moves(&self, out: &mut Vec<Take>) {
        out.clear();
    }
    fn make(&mut self, mv: Take) {
        self.stack.push((self.pile, self.to_move, self.winner));
        if let Take::Stones(n) = mv {
            self.pile -= n;
            if self.pile == 0 {
                self.winner = Some(self.to_move);
            }
        }
        self.to_move = (self.to_move + 1) % self.seats();
    }
    fn unmake(&mut self) {
        (self.pile, self.to_move, self.winner) = self.stack.pop().expect("a move to take back");
    }
    fn outcome(&self, rewards: &mut [f32]) -> bool {
        let Some(w) = self.winner else { return false };
        for (s, r) in rewards.iter_mut().enumerate() {
            *r = (self.teams[s] == self.teams[w]) as u8 as f32;
        }
        true
    }
    fn evaluate_for(&self, _: usize) -> Score {
        0
    }
    fn victim_value(&self, _: Take) -> Score {
        0
    }
    fn history_index(&self, mv: Take) -> usize {
        match mv {
            Take::Stones(n) => n as usize,
            Take::Pass => 0,
        }
    }
    fn history_size(&self) -> usize {
        4
    }
}

/// An endless multi-seat game with pseudo-random evaluations per seat; move 0 is a capture.
#[derive(Clone, Debug)]
pub struct Wander3 {
    pub hash: u64,
    pub to_move: usize,
    pub stack: Vec<u64>,
}

impl MultiSided for Wander3 {
    type Move = u8;
    fn seats(&self) -> usize {
        3
    }
    fn to_move(&self) -> usize {
        self.to_move
    }
    fn team(&self, seat: usize) -> usize {
        seat
    }
    fn is_active(&self, _: usize) -> bool {
        true
    }
    fn key(&self) -> u64 {
        self.hash
    }
    fn legal_moves(&self, out: &mut Vec<u8>) {
        out.clear();
        out.extend(0..5);
    }
    fn noisy_moves(&self, out: &mut Vec<u8>) {
        out.clear();
        out.push(0);
    }
    fn make(&mut self, mv: u8) {
        self.stack.push(self.hash);
        self.hash = mix(self.hash ^ (mv as u64 + 1));
        self.to_move = (self.to_move + 1) % 3;
    }
    fn unmake(&mut self) {
        self.hash = self.stack.pop().expect("a move to take back");
        self.to_move = (self.to_move + 2) % 3;
    }
    fn outcome(&self, _: &mut [f32]) -> bool {
        false
    }
    fn evaluate_for(&self, seat: usize) -> Score {
        (mix(self.hash ^ seat as u64) % 301) as Score - 150
    }
    fn victim_value(&self, mv: u8) -> Score {
        (mv == 0) as Score * 50
    }
    fn history_index(&self, mv: u8) -> usize {
        mv as usize
    }
    fn history_size(&self) -> usize {
        5
    }
}
