//! The engine loop over the real Spider-Chess rules and the shared alpha-beta search, through a
//! test-local `EngineGame` adapter: the bad-input file in both dialects, and a short game in each.
//! (The binary's own adapter is wired by the lead; this checks the trait fits the real game and
//! that every line of `bad_input.txt` is really refused by Spider-Chess.)

mod common;

use std::sync::atomic::AtomicBool;
use std::sync::Arc;

use common::bad_input::{check, load_default, Dialect};
use common::engine_io::EngineIo;
use orrery::games::spider::{divide, Color, Move, Position, Variant};
use orrery::protocol::{EngineGame, GameOutcome, SearchReport};
use orrery::search::{Limits, Searcher};

struct Spider {
    variant: Arc<Variant>,
    searcher: Searcher<Position>,
}

impl Spider {
    fn new() -> Self {
        Spider {
            variant: Variant::spider_chess(),
            searcher: Searcher::new(1),
        }
    }
}

fn pv_strings(pos: &Position, pv: &[Move]) -> Vec<String> {
    let mut p = pos.clone();
    pv.iter()
        .map(|&m| {
            let t = p.move_text(m);
            p.make_move(m);
            t
        })
        .collect()
}

impl EngineGame for Spider {
    type Position = Position;
    type Move = Move;

    fn engine_name(&self) -> String {
        "Spider test adapter".into()
    }
    fn variants(&self) -> Vec<String> {
        vec!["spider".into()]
    }
    fn start_position(&self, variant: &str) -> Result<Position, String> {
        match variant {
            "spider" => Ok(Position::startpos(&self.variant)),
            v => Err(format!("unknown variant {v}")),
        }
    }
    fn parse_position(&self, _variant: &str, text: &str) -> Result<Position, String> {
        Position::from_fen(&self.variant, text).map_err(|e| e.to_string())
    }
    fn position_text(&self, pos: &Position) -> String {
        pos.to_fen()
    }
    fn parse_move(&self, pos: &Position, text: &str) -> Result<Move, String> {
        pos.parse_move(text).map_err(|e| e.to_string())
    }
    fn move_text(&self, pos: &Position, mv: Move) -> String {
        pos.move_text(mv)
    }
    fn play(&self, pos: &mut Position, mv: Move) {
        pos.make_move(mv);
    }
    fn outcome(&self, pos: &Position) -> Option<GameOutcome> {
        pos.outcome().map(|o| match o.winner {
            Some(c) => GameOutcome::Win {
                seats: vec![if c == Color::White { 1 } else { 2 }],
                reason: o.reason.to_string(),
            },
            None => GameOutcome::Draw {
                reason: o.reason.to_string(),
            },
        })
    }
    fn seats(&self, _pos: &Position) -> usize {
        2
    }
    fn seat_to_move(&self, pos: &Position) -> usize {
        if pos.side_to_move() == Color::White {
            1
        } else {
            2
        }
    }
    fn perft_divide(&self, pos: &Position, depth: u32) -> Vec<(String, u64)> {
        let mut p = pos.clone();
        divide(&mut p, depth)
            .into_iter()
            .map(|(m, n)| (pos.move_text(m), n))
            .collect()
    }
    fn set_hash(&mut self, mib: usize) {
        self.searcher.resize(mib);
    }
    fn new_game(&mut self) {
        self.searcher.clear();
    }
    fn search(
        &mut self,
        pos: &Position,
        limits: &Limits,
        stop: &AtomicBool,
        report: &mut dyn FnMut(SearchReport),
    ) -> Option<Move> {
        let outcome = self.searcher.search(pos, limits, stop, &mut |info| {
            report(SearchReport::from_info(info, pv_strings(pos, &info.pv)))
        });
        outcome.best
    }
}

#[test]
fn bad_input_against_spider_rules_uci() {
    let mut io = EngineIo::in_process(Spider::new());
    let ran = check(&mut io, Dialect::Uci, &load_default()).unwrap_or_else(|e| panic!("{e}"));
    assert!(ran >= 60);
}

#[test]
fn bad_input_against_spider_rules_cecp() {
    let mut io = EngineIo::in_process(Spider::new());
    let ran = check(&mut io, Dialect::Cecp, &load_default()).unwrap_or_else(|e| panic!("{e}"));
    assert!(ran >= 60);
}

#[test]
fn short_games_in_both_dialects() {
    let mut io = EngineIo::in_process(Spider::new());
    io.send("uci");
    io.until_line("uciok");
    let mut moves: Vec<String> = Vec::new();
    for _ in 0..4 {
        io.send(&format!("position startpos moves {}", moves.join(" ")));
        io.send("go nodes 3000");
        let got = io.until("bestmove", |l| l.starts_with("bestmove "));
        let mv = got.last().unwrap()["bestmove ".len()..].to_string();
        assert!(got.iter().all(|l| !l.contains("error")), "{got:?}");
        assert_ne!(mv, "0000");
        moves.push(mv);
    }
    io.send("quit");
    assert!(io.ended_within(std::time::Duration::from_secs(5)));

    let mut io = EngineIo::in_process(Spider::new());
    io.send("xboard");
    io.send("protover 2");
    io.until("done", |l| l == "feature done=1");
    io.send("new");
    io.send("st 0.2");
    io.send("m2m5");
    let got = io.until("move", |l| l.starts_with("move "));
    assert!(got.iter().all(|l| !l.starts_with("Error")), "{got:?}");
    io.send("ping 3");
    io.until_line("pong 3");
}

#[test]
fn stop_answers_quickly_with_the_real_search() {
    let mut io = EngineIo::in_process(Spider::new());
    io.send("uci");
    io.until_line("uciok");
    io.send("position startpos moves m2m5");
    let mut worst = std::time::Duration::ZERO;
    for _ in 0..3 {
        io.send("go infinite");
        std::thread::sleep(std::time::Duration::from_millis(150));
        let t = std::time::Instant::now();
        io.send("stop");
        let got = io.until("bestmove", |l| l.starts_with("bestmove "));
        worst = worst.max(t.elapsed());
        assert_ne!(got.last().unwrap(), "bestmove 0000");
    }
    eprintln!("spider: worst stop -> bestmove latency {worst:?}");
    assert!(worst < std::time::Duration::from_millis(500), "{worst:?}");
}
