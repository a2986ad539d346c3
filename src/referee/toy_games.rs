//! Two small games that exercise the referee without a real rules core: tic-tac-toe (two seats,
//! squares `a1`..`c3`) and a counting race for any number of seats (say 1, 2 or 3; who reaches
//! the target first wins). Used by the tests with scripted engines and selectable on the command
//! line (`--game tic-tac-toe`, `--game race --setup 3`).

use super::game_adapter::{Outcome, RefereeGame, Refusal};

/// Tic-tac-toe: seat 0 is `x`, seat 1 is `o`; `x` moves first on the standard start.
#[derive(Clone, Debug)]
pub struct TicTacToe {
    start: [u8; 9],
    start_to_move: usize,
    board: [u8; 9],
    to_move: usize,
    moves: Vec<String>,
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

fn square_name(i: usize) -> String {
    let file = (b'a' + (i % 3) as u8) as char;
    format!("{}{}", file, i / 3 + 1)
}

impl TicTacToe {
    /// The empty board, `x` to move.
    pub fn new() -> Self {
        Self::from_text("........./x").expect("standard start parses")
    }

    /// A position `<9 cells of x, o or .>/<x|o>`, cells a1 b1 c1 a2 ... c3.
    pub fn from_text(text: &str) -> Result<Self, String> {
        let (cells, side) = text
            .trim()
            .split_once('/')
            .ok_or_else(|| format!("position {text:?}: expected <cells>/<side>"))?;
        if cells.len() != 9 {
            return Err(format!("position {text:?}: expected 9 cells"));
        }
        let mut board = [b'.'; 9];
        for (i, c) in cells.bytes().enumerate() {
            if !matches!(c, b'x' | b'o' | b'.') {
                return Err(format!("position {text:?}: bad cell {:?}", c as char));
            }
            board[i] = c;
        }
        let to_move = match side {
            "x" => 0,
            "o" => 1,
            _ => return Err(format!("position {text:?}: side must be x or o")),
        };
        Ok(TicTacToe {
            start: board,
            start_to_move: to_move,
            board,
            to_move,
            moves: Vec::new(),
        })
    }

    fn winner(&self) -> Option<u8> {
        LINES.iter().find_map(|l| {
            let c = self.board[l[0]];
            (c != b'.' && c == self.board[l[1]] && c == self.board[l[2]]).then_some(c)
        })
    }

    fn text_of(board: &[u8; 9], to_move: usize) -> String {
        format!(
            "{}/{}",
            String::from_utf8_lossy(board),
            if to_move == 0 { 'x' } else { 'o' }
        )
    }
}

impl Default for TicTacToe {
    fn default() -> Self {
        Self::new()
    }
}

impl RefereeGame for TicTacToe {
    type Move = usize;
    fn seats(&self) -> usize {
        2
    }
    fn to_decide(&self) -> Vec<usize> {
        if self.outcome().is_some() {
            Vec::new()
        } else {
            vec![self.to_move]
        }
    }
    fn parse_move(&self, seat: usize, text: &str) -> Result<usize, Refusal> {
        if seat != self.to_move {
            return Err(Refusal(format!("seat {} is not to move", seat + 1)));
        }
        let b = text.as_bytes();
        if b.len() != 2 || !(b'a'..=b'c').contains(&b[0]) || !(b'1'..=b'3').contains(&b[1]) {
            return Err(Refusal(format!("{text:?} is not a square a1..c3")));
        }
        let i = (b[0] - b'a') as usize + 3 * (b[1] - b'1') as usize;
        if self.board[i] != b'.' {
            return Err(Refusal(format!("square {text} is occupied")));
        }
        Ok(i)
    }
    fn move_text(&self, mv: &usize) -> String {
        square_name(*mv)
    }
    fn apply(&mut self, seat: usize, mv: usize) {
        self.board[mv] = if seat == 0 { b'x' } else { b'o' };
        self.moves.push(square_name(mv));
        self.to_move = 1 - self.to_move;
    }
    fn legal_moves(&self) -> Vec<String> {
        if self.outcome().is_some() {
            return Vec::new();
        }
        (0..9)
            .filter(|&i| self.board[i] == b'.')
            .map(square_name)
            .collect()
    }
    fn outcome(&self) -> Option<Outcome> {
        match self.winner() {
            Some(b'x') => Some(Outcome::win(0, 2, "three in a row")),
            Some(_) => Some(Outcome::win(1, 2, "three in a row")),
            None if self.board.iter().all(|&c| c != b'.') => Some(Outcome::draw(2, "board full")),
            None => None,
        }
    }
    fn start_text(&self) -> String {
        Self::text_of(&self.start, self.start_to_move)
    }
    fn is_standard_start(&self) -> bool {
        self.start == [b'.'; 9] && self.start_to_move == 0
    }
    fn position_text(&self) -> String {
        Self::text_of(&self.board, self.to_move)
    }
    fn history(&self) -> Vec<String> {
        self.moves.clone()
    }
}

/// Counting race: seats in turn add 1, 2 or 3 to a shared total; who reaches the target first
/// wins, all others share the remaining places. Position text `<total>/<target>/<seat to move>`.
#[derive(Clone, Debug)]
pub struct Race {
    seats: usize,
    target: u32,
    start_total: u32,
    total: u32,
    to_move: usize,
    moves: Vec<String>,
    winner: Option<usize>,
}

impl Race {
    /// A race for `seats` seats (2..=8) to `target`, seat 1 first.
    pub fn new(seats: usize, target: u32) -> Result<Self, String> {
        if !(2..=8).contains(&seats) {
            return Err(format!("race: {seats} seats, expected 2..=8"));
        }
        Ok(Race {
            seats,
            target,
            start_total: 0,
            total: 0,
            to_move: 0,
            moves: Vec::new(),
            winner: None,
        })
    }
}

impl RefereeGame for Race {
    type Move = u32;
    fn seats(&self) -> usize {
        self.seats
    }
    fn to_decide(&self) -> Vec<usize> {
        if self.winner.is_some() {
            Vec::new()
        } else {
            vec![self.to_move]
        }
    }
    fn parse_move(&self, seat: usize, text: &str) -> Result<u32, Refusal> {
        if seat != self.to_move {
            return Err(Refusal(format!("seat {} is not to move", seat + 1)));
        }
        match text {
            "1" | "2" | "3" => Ok(text.parse().expect("digit")),
            _ => Err(Refusal(format!("{text:?} is not 1, 2 or 3"))),
        }
    }
    fn move_text(&self, mv: &u32) -> String {
        mv.to_string()
    }
    fn apply(&mut self, seat: usize, mv: u32) {
        self.total += mv;
        self.moves.push(mv.to_string());
        if self.total >= self.target {
            self.winner = Some(seat);
        }
        self.to_move = (self.to_move + 1) % self.seats;
    }
    fn legal_moves(&self) -> Vec<String> {
        if self.winner.is_some() {
            Vec::new()
        } else {
            vec!["1".into(), "2".into(), "3".into()]
        }
    }
    fn outcome(&self) -> Option<Outcome> {
        self.winner
            .map(|w| Outcome::win(w, self.seats, "reached the target"))
    }
    fn start_text(&self) -> String {
        format!("{}/{}/1", self.start_total, self.target)
    }
    fn is_standard_start(&self) -> bool {
        true
    }
    fn position_text(&self) -> String {
        format!("{}/{}/{}", self.total, self.target, self.to_move + 1)
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
    fn tictactoe_plays_and_refuses() {
        let mut g = TicTacToe::new();
        assert_eq!(g.play(0, "b2").unwrap(), "b2");
        assert!(g.play(1, "b2").is_err());
        assert!(g.play(1, "z9").is_err());
        assert!(g.play(0, "a1").is_err(), "not seat 0's turn");
        assert_eq!(DynGame::position_text(&g), "....x..../o");
        for (s, m) in [(1, "a1"), (0, "a2"), (1, "c3"), (0, "c2")] {
            g.play(s, m).unwrap();
        }
        let o = DynGame::outcome(&g).unwrap();
        assert_eq!(o.result_text(), "1-0");
        assert_eq!(
            DynGame::uci_position(&g, 1),
            vec!["position startpos moves b2 a1 a2 c3 c2".to_string()]
        );
        let h = TicTacToe::from_text("xo......./x").unwrap();
        assert_eq!(
            DynGame::uci_position(&h, 0),
            vec!["position fen xo......./x".to_string()]
        );
        assert!(TicTacToe::from_text("xo/x").is_err());
    }

    #[test]
    fn race_ranks_the_winner_first() {
        let mut r = Race::new(3, 5).unwrap();
        r.play(0, "3").unwrap();
        r.play(1, "1").unwrap();
        assert!(DynGame::outcome(&r).is_none());
        r.play(2, "2").unwrap();
        let o = DynGame::outcome(&r).unwrap();
        assert_eq!(o.ranks, vec![2.5, 2.5, 1.0]);
    }
}
