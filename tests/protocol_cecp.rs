//! The CECP dialect of the engine loop, driven in-process against the toy game.

mod common;

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use common::engine_io::EngineIo;
use common::toy::{Toy, ToyLog};
use orrery::search::Clock;

struct Xb {
    io: EngineIo,
    log: Arc<Mutex<ToyLog>>,
    pings: u32,
}

impl Xb {
    fn start() -> Self {
        let (toy, log) = Toy::new();
        let mut io = EngineIo::in_process(toy);
        io.send("xboard");
        io.send("protover 2");
        io.until("done=1", |l| l == "feature done=1");
        Xb { io, log, pings: 0 }
    }

    fn send(&mut self, line: &str) {
        self.io.send(line);
    }

    /// Lines before the `pong` of a fresh `ping`.
    fn sync(&mut self) -> Vec<String> {
        self.pings += 1;
        let n = self.pings;
        self.io.send(&format!("ping {n}"));
        let mut got = self.io.until_line(&format!("pong {n}"));
        got.pop();
        got
    }

    fn perft1(&mut self) -> String {
        self.send("perft 1");
        self.sync()
            .into_iter()
            .find(|l| l.starts_with("Nodes searched"))
            .unwrap()
    }

    fn engine_move(&mut self) -> (Vec<String>, String) {
        let got = self.io.until("move", |l| l.starts_with("move "));
        let mv = got.last().unwrap()["move ".len()..].to_string();
        (got, mv)
    }
}

#[test]
fn features_are_announced() {
    let (toy, _) = Toy::new();
    let mut io = EngineIo::in_process(toy);
    io.send("xboard");
    io.send("protover 2");
    let got = io.until("done=1", |l| l == "feature done=1");
    assert_eq!(got[0], "feature done=0");
    let all = got.join("\n");
    let hash = format!(
        "feature option=\"Hash -spin 16 1 {}\"",
        orrery::protocol::hash_max_mib()
    );
    for f in [
        hash.as_str(),
        "ping=1",
        "setboard=1",
        "usermove=1",
        "time=1",
        "sigint=0",
        "sigterm=0",
        "colors=0",
        "myname=\"Toy k-in-a-row\"",
        "variants=\"tictactoe,trio\"",
        "feature option=\"Tie Break -combo *first /// last\"",
    ] {
        assert!(all.contains(f), "missing {f} in {got:?}");
    }
    io.send("accepted usermove");
    io.send("rejected ping");
    io.send("ping 1");
    assert_eq!(io.until_line("pong 1"), vec!["pong 1"]);
}

#[test]
fn full_game_engine_as_black_ends_with_a_result_line() {
    let mut x = Xb::start();
    x.send("new");
    x.send("post");
    x.send("sd 9");
    let mut used: Vec<String> = Vec::new();
    let squares = ["a1", "a2", "a3", "b1", "b2", "b3", "c1", "c2", "c3"];
    let mut result = None;
    while result.is_none() {
        let mine = squares
            .iter()
            .find(|s| !used.contains(&s.to_string()))
            .unwrap()
            .to_string();
        x.send(&format!("usermove {mine}"));
        used.push(mine);
        let got = x.io.until("move or result", |l| {
            l.starts_with("move ") || l.contains(" {")
        });
        for l in &got {
            assert!(
                !l.starts_with("Error") && !l.starts_with("Illegal"),
                "{got:?}"
            );
        }
        let last = got.last().unwrap();
        if let Some(mv) = last.strip_prefix("move ") {
            assert!(!used.contains(&mv.to_string()), "{mv} is taken");
            used.push(mv.to_string());
            // Thinking output: ply score time nodes pv.
            let think: Vec<&String> = got.iter().filter(|l| !l.starts_with("move")).collect();
            assert!(!think.is_empty());
            let w: Vec<&str> = think[0].split_whitespace().collect();
            assert!(
                w.len() >= 5 && w[..4].iter().all(|t| t.parse::<i64>().is_ok()),
                "{think:?}"
            );
            let after = x.sync();
            if let Some(r) = after.iter().find(|l| l.contains(" {")) {
                result = Some(r.clone());
            }
        } else {
            result = Some(last.clone());
        }
    }
    // Playing a1, a2, a3... against a perfect engine loses.
    assert_eq!(result.unwrap(), "0-1 {Black wins by three in a row}");
    x.send("usermove c3");
    assert!(x.sync()[0].starts_with("Illegal move (the game is over"));
}

#[test]
fn go_makes_the_engine_play_the_side_to_move() {
    let mut x = Xb::start();
    x.send("new");
    x.send("force");
    x.send("usermove b2");
    x.send("usermove a1");
    assert!(x.sync().is_empty(), "no thinking in force mode");
    x.send("sd 2");
    x.send("go");
    let (_, mv) = x.engine_move();
    assert!(mv != "b2" && mv != "a1");
    assert_eq!(x.perft1(), "Nodes searched: 6");
    x.send("usermove c1");
    let (_, mv2) = x.engine_move();
    assert_ne!(mv2, mv);
    let after = x.perft1();
    assert!(
        after == "Nodes searched: 4" || after == "Nodes searched: 0",
        "{after}"
    );
}

#[test]
fn ping_while_thinking_is_answered_after_the_move() {
    let mut x = Xb::start();
    x.send("new");
    x.send("variant trio");
    x.send("st 0.3");
    x.send("go");
    x.send("ping 77");
    let got = x.io.until_line("pong 77");
    let mv = got
        .iter()
        .position(|l| l.starts_with("move "))
        .expect("a move");
    assert_eq!(mv, got.len() - 2, "{got:?}");
}

#[test]
fn move_now_answers_quickly() {
    let mut x = Xb::start();
    x.send("new");
    x.send("variant trio");
    x.send("st 100");
    x.send("go");
    std::thread::sleep(Duration::from_millis(50));
    x.send("time 500");
    x.send("post");
    let t = Instant::now();
    x.send("?");
    x.engine_move();
    let latency = t.elapsed();
    eprintln!("? -> move: {latency:?}");
    assert!(latency < Duration::from_millis(500), "{latency:?}");
}

#[test]
fn new_during_thinking_discards_the_move() {
    let mut x = Xb::start();
    x.send("new");
    x.send("variant trio");
    x.send("st 100");
    x.send("go");
    std::thread::sleep(Duration::from_millis(20));
    x.send("new");
    let got = x.sync();
    assert!(got.iter().all(|l| !l.starts_with("move")), "{got:?}");
    assert_eq!(x.perft1(), "Nodes searched: 9");
    assert_eq!(x.log.lock().unwrap().new_games, 2);
}

#[test]
fn quit_while_thinking_ends_promptly() {
    let mut x = Xb::start();
    x.send("variant trio");
    x.send("st 100");
    x.send("go");
    std::thread::sleep(Duration::from_millis(20));
    x.send("quit");
    assert!(x.io.ended_within(Duration::from_secs(2)));
}

#[test]
fn undo_remove_setboard() {
    let mut x = Xb::start();
    x.send("new");
    x.send("force");
    for m in ["a1", "b2", "c3"] {
        x.send(m);
    }
    assert_eq!(x.perft1(), "Nodes searched: 6");
    x.send("undo");
    assert_eq!(x.perft1(), "Nodes searched: 7");
    x.send("remove");
    assert_eq!(x.perft1(), "Nodes searched: 9");
    x.send("remove");
    let got = x.sync();
    assert_eq!(got, vec!["Error (only 0 move(s) to take back): remove"]);
    x.send("setboard x../.o./... x");
    assert_eq!(x.perft1(), "Nodes searched: 7");
    x.send("setboard x../.../... x");
    let got = x.sync();
    assert!(got[0].starts_with("Error (illegal position: "), "{got:?}");
    assert_eq!(x.perft1(), "Nodes searched: 7");
    x.send("usermove b2");
    assert_eq!(
        x.sync(),
        vec!["Illegal move ('b2' is not an empty square on the board): b2"]
    );
}

#[test]
fn time_controls_reach_the_search() {
    let mut x = Xb::start();
    x.send("new");
    x.send("level 40 5 2");
    x.send("time 3000");
    x.send("otim 2000");
    x.send("sd 1");
    x.send("go");
    x.engine_move();
    x.send("st 2");
    x.send("usermove b2");
    x.engine_move();
    x.send("force");
    x.send("sd 2");
    x.send("go");
    x.engine_move();
    x.sync();
    let log = x.log.lock().unwrap();
    assert_eq!(
        log.limits[0].clock,
        Some(Clock {
            remaining: Duration::from_secs(30),
            increment: Duration::from_secs(2),
            moves_to_go: Some(40)
        })
    );
    assert_eq!(log.limits[0].depth, Some(1));
    assert_eq!(log.limits[1].movetime, Some(Duration::from_secs(2)));
    assert_eq!(log.limits[1].clock, None);
    assert_eq!(log.limits[2].depth, Some(2));
}

#[test]
fn result_stops_the_engine_playing() {
    let mut x = Xb::start();
    x.send("new");
    x.send("result 1/2-1/2 {agreed}");
    x.send("usermove b2");
    assert!(x.sync().is_empty());
}

#[test]
fn perft_and_options() {
    let mut x = Xb::start();
    x.send("perft 2");
    let got = x.sync();
    assert_eq!(got.len(), 12, "{got:?}");
    assert_eq!(got[9..], ["", "Nodes searched: 72", ""]);
    x.send("option Hash=32");
    x.send("option Tie Break=last");
    x.send("option Tie Break=middle");
    let got = x.sync();
    assert_eq!(got.len(), 1, "{got:?}");
    assert!(
        got[0].starts_with("Error (Tie Break must be one of"),
        "{got:?}"
    );
    assert_eq!(x.log.lock().unwrap().hash_mib, Some(32));
}

#[test]
fn end_of_input_while_thinking_prints_the_move_then_exits() {
    let mut x = Xb::start();
    x.send("new");
    x.send("variant trio");
    x.send("st 0.2");
    x.send("go");
    x.io.close_input();
    x.engine_move();
    assert!(x.io.ended_within(Duration::from_secs(2)));
}
