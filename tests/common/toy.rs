//! A toy game for driving the protocol loop in-process: k-in-a-row ("tictactoe": 3×3, two seats;
//! "trio": 4×4, three seats), with a small max^n search that honours every limit and `stop`.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use orrery::protocol::{
    EngineGame, EngineOption, GameOutcome, OptionKind, ReportScore, SearchReport,
};
use orrery::search::Limits;

/// Board, seats and seat to move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Board {
    size: usize,
    seats: usize,
    cells: Vec<u8>,
    to_move: usize,
}

const MARKS: [char; 3] = ['x', 'o', 't'];

impl Board {
    fn empty(size: usize, seats: usize) -> Self {
        Board {
            size,
            seats,
            cells: vec![0; size * size],
            to_move: 1,
        }
    }

    fn winner(&self) -> Option<usize> {
        let n = self.size as i32;
        let at = |x: i32, y: i32| self.cells[(y * n + x) as usize];
        for y in 0..n {
            for x in 0..n {
                let s = at(x, y);
                if s == 0 {
                    continue;
                }
                for (dx, dy) in [(1, 0), (0, 1), (1, 1), (1, -1)] {
                    let (x2, y2) = (x + 2 * dx, y + 2 * dy);
                    if (0..n).contains(&x2)
                        && (0..n).contains(&y2)
                        && at(x + dx, y + dy) == s
                        && at(x2, y2) == s
                    {
                        return Some(s as usize);
                    }
                }
            }
        }
        None
    }

    fn moves(&self) -> Vec<u8> {
        if self.winner().is_some() {
            return Vec::new();
        }
        (0..self.cells.len() as u8)
            .filter(|&i| self.cells[i as usize] == 0)
            .collect()
    }

    fn play(&mut self, mv: u8) {
        self.cells[mv as usize] = self.to_move as u8;
        self.to_move = self.to_move % self.seats + 1;
    }

    fn square(&self, mv: u8) -> String {
        let i = mv as usize;
        format!(
            "{}{}",
            (b'a' + (i % self.size) as u8) as char,
            i / self.size + 1
        )
    }
}

/// A `Hash` size the toy refuses to allocate, to test the loop's handling of a failed allocation.
pub const REFUSED_HASH_MIB: usize = 3;

/// What the toy engine saw, for tests to inspect.
#[derive(Debug, Default)]
pub struct ToyLog {
    /// Limits of every search started.
    pub limits: Vec<Limits>,
    /// Last `Hash` size.
    pub hash_mib: Option<usize>,
    /// `new_game` calls.
    pub new_games: usize,
}

/// The toy engine.
pub struct Toy {
    /// Shared record of what the loop asked.
    pub log: Arc<Mutex<ToyLog>>,
    prefer_last: bool,
    panic_in_search: bool,
}

impl Toy {
    /// A toy engine and the handle to its log.
    pub fn new() -> (Self, Arc<Mutex<ToyLog>>) {
        let log = Arc::new(Mutex::new(ToyLog::default()));
        (
            Toy {
                log: Arc::clone(&log),
                prefer_last: false,
                panic_in_search: false,
            },
            log,
        )
    }
}

struct Searcher<'a> {
    stop: &'a AtomicBool,
    nodes: u64,
    node_limit: u64,
    deadline: Option<Instant>,
    aborted: bool,
}

impl Searcher<'_> {
    fn out_of_budget(&mut self) -> bool {
        if self.nodes >= self.node_limit
            || self.stop.load(Ordering::Relaxed)
            || self.deadline.is_some_and(|d| Instant::now() >= d)
        {
            self.aborted = true;
        }
        self.aborted
    }

    /// max^n: the score vector (index = seat - 1) and the best move.
    fn maxn(&mut self, b: &mut Board, depth: u32, ply: i32) -> ([i32; 3], Option<u8>) {
        self.nodes += 1;
        if let Some(w) = b.winner() {
            let mut s = [-(1000 - ply); 3];
            s[w - 1] = 1000 - ply;
            return (s, None);
        }
        let moves = b.moves();
        if moves.is_empty() || depth == 0 || self.out_of_budget() {
            return ([0; 3], None);
        }
        let me = b.to_move - 1;
        let mut best: Option<([i32; 3], u8)> = None;
        for mv in moves {
            let saved = b.clone();
            b.play(mv);
            let (s, _) = self.maxn(b, depth - 1, ply + 1);
            *b = saved;
            if self.aborted {
                break;
            }
            if best.is_none_or(|(bs, _)| s[me] > bs[me]) {
                best = Some((s, mv));
            }
        }
        match best {
            Some((s, m)) => (s, Some(m)),
            None => ([0; 3], None),
        }
    }
}

impl EngineGame for Toy {
    type Position = Board;
    type Move = u8;

    fn engine_name(&self) -> String {
        "Toy k-in-a-row".into()
    }

    fn variants(&self) -> Vec<String> {
        vec!["tictactoe".into(), "trio".into()]
    }

    fn start_position(&self, variant: &str) -> Result<Board, String> {
        match variant {
            "tictactoe" => Ok(Board::empty(3, 2)),
            "trio" => Ok(Board::empty(4, 3)),
            _ => Err(format!("unknown variant '{variant}'")),
        }
    }

    fn parse_position(&self, variant: &str, text: &str) -> Result<Board, String> {
        let mut b = self.start_position(variant)?;
        let (rows, side) = text
            .split_once(' ')
            .ok_or("expected '<rows> <mark to move>'")?;
        let rows: Vec<&str> = rows.split('/').collect();
        if rows.len() != b.size {
            return Err(format!("expected {} rows, got {}", b.size, rows.len()));
        }
        for (r, row) in rows.iter().enumerate() {
            if row.chars().count() != b.size {
                return Err(format!("row {} must have {} cells", r + 1, b.size));
            }
            for (x, c) in row.chars().enumerate() {
                let y = b.size - 1 - r;
                b.cells[y * b.size + x] = match c {
                    '.' => 0,
                    m => match MARKS[..b.seats].iter().position(|&k| k == m) {
                        Some(s) => s as u8 + 1,
                        None => return Err(format!("bad cell '{c}'")),
                    },
                };
            }
        }
        let marks = b.cells.iter().filter(|&&c| c != 0).count();
        b.to_move = marks % b.seats + 1;
        if side.trim() != MARKS[b.to_move - 1].to_string() {
            return Err("mark counts do not match the seat to move".into());
        }
        Ok(b)
    }

    fn position_text(&self, b: &Board) -> String {
        let rows: Vec<String> = (0..b.size)
            .rev()
            .map(|y| {
                (0..b.size)
                    .map(|x| match b.cells[y * b.size + x] {
                        0 => '.',
                        s => MARKS[s as usize - 1],
                    })
                    .collect()
            })
            .collect();
        format!("{} {}", rows.join("/"), MARKS[b.to_move - 1])
    }

    fn parse_move(&self, b: &Board, text: &str) -> Result<u8, String> {
        let mv = b
            .moves()
            .into_iter()
            .find(|&m| b.square(m) == text)
            .ok_or_else(|| format!("'{text}' is not an empty square on the board"));
        if b.winner().is_some() {
            return Err("the game is over".into());
        }
        mv
    }

    fn move_text(&self, b: &Board, mv: u8) -> String {
        b.square(mv)
    }

    fn play(&self, b: &mut Board, mv: u8) {
        b.play(mv);
    }

    fn outcome(&self, b: &Board) -> Option<GameOutcome> {
        match b.winner() {
            Some(s) => Some(GameOutcome::Win {
                seats: vec![s],
                reason: "three in a row".into(),
            }),
            None if b.cells.iter().all(|&c| c != 0) => Some(GameOutcome::Draw {
                reason: "full board".into(),
            }),
            None => None,
        }
    }

    fn seats(&self, b: &Board) -> usize {
        b.seats
    }

    fn seat_to_move(&self, b: &Board) -> usize {
        b.to_move
    }

    fn perft_divide(&self, b: &Board, depth: u32, stop: &AtomicBool) -> Option<Vec<(String, u64)>> {
        fn perft(b: &Board, depth: u32, stop: &AtomicBool) -> u64 {
            let moves = b.moves();
            if depth == 1 || stop.load(Ordering::Relaxed) {
                return moves.len() as u64;
            }
            moves
                .into_iter()
                .map(|m| {
                    let mut c = b.clone();
                    c.play(m);
                    perft(&c, depth - 1, stop)
                })
                .sum()
        }
        let divide = b
            .moves()
            .into_iter()
            .map(|m| {
                let mut c = b.clone();
                c.play(m);
                let n = if depth <= 1 {
                    1
                } else {
                    perft(&c, depth - 1, stop)
                };
                (b.square(m), n)
            })
            .collect();
        (!stop.load(Ordering::Relaxed)).then_some(divide)
    }

    fn options(&self) -> Vec<EngineOption> {
        vec![
            EngineOption {
                name: "Tie Break".into(),
                kind: OptionKind::Combo {
                    default: "first".into(),
                    choices: vec!["first".into(), "last".into()],
                },
            },
            EngineOption {
                name: "Panic In Search".into(),
                kind: OptionKind::Check { default: false },
            },
        ]
    }

    fn set_option(&mut self, name: &str, value: &str) -> Result<(), String> {
        match name {
            "Tie Break" => {
                self.prefer_last = value == "last";
                Ok(())
            }
            "Panic In Search" => {
                self.panic_in_search = value == "true";
                Ok(())
            }
            _ => Err(format!("unknown option '{name}'")),
        }
    }

    fn set_hash(&mut self, mib: usize) -> Result<(), String> {
        if mib == REFUSED_HASH_MIB {
            return Err(format!("cannot allocate {mib} MiB (toy refusal)"));
        }
        self.log.lock().unwrap().hash_mib = Some(mib);
        Ok(())
    }

    fn new_game(&mut self) {
        self.log.lock().unwrap().new_games += 1;
    }

    fn search(
        &mut self,
        pos: &Board,
        limits: &Limits,
        stop: &AtomicBool,
        report: &mut dyn FnMut(SearchReport),
    ) -> Option<u8> {
        self.log.lock().unwrap().limits.push(limits.clone());
        assert!(!self.panic_in_search, "toy search told to panic");
        let start = Instant::now();
        let budget = limits.movetime.or(limits.clock.map(|c| {
            let share = c.remaining / c.moves_to_go.unwrap_or(20).max(1) + c.increment / 2;
            share
                .saturating_sub(limits.overhead)
                .max(Duration::from_millis(1))
        }));
        let mut s = Searcher {
            stop,
            nodes: 0,
            node_limit: limits.nodes.unwrap_or(u64::MAX),
            deadline: budget.map(|b| start + b),
            aborted: false,
        };
        let moves = pos.moves();
        let mut best = if self.prefer_last {
            moves.last().copied()
        } else {
            moves.first().copied()
        };
        let max_depth = limits.depth.unwrap_or(u32::MAX).min(moves.len() as u32);
        for depth in 1..=max_depth {
            let mut b = pos.clone();
            let (scores, mv) = s.maxn(&mut b, depth, 0);
            if s.aborted {
                break;
            }
            best = mv.or(best);
            let cp = scores[pos.to_move - 1];
            report(SearchReport {
                depth,
                seldepth: depth,
                score: if cp.abs() > 900 {
                    let plies = 1000 - cp.abs();
                    ReportScore::Mate(cp.signum() * (plies + 1) / 2)
                } else {
                    ReportScore::Cp(cp)
                },
                nodes: s.nodes,
                time: start.elapsed(),
                pv: best.map(|m| vec![pos.square(m)]).unwrap_or_default(),
            });
        }
        // An exhausted tree ends the search even when infinite: the loop holds the move until
        // `stop`, as for every game.
        best
    }
}
