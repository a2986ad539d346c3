//! The real `space-wars` binary over pipes: handshake, a whole four-player game on the local table,
//! the stateless `position` + `go` round trip checked by the rules core, `isready`/`stop` during a
//! search, and the bad-input file (every bad line answered with an error, nothing changed).

use orrery::games::spacewars::state::State;
use orrery::games::spacewars::wire::{parse_decision, position_line};
use orrery::games::spacewars::Ruleset;
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::sync::mpsc::{channel, Receiver};
use std::time::Duration;

struct Engine {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
}

impl Engine {
    fn start() -> Engine {
        let mut child = Command::new(env!("CARGO_BIN_EXE_space-wars"))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("space-wars runs");
        let stdin = child.stdin.take().unwrap();
        let stdout: ChildStdout = child.stdout.take().unwrap();
        let (tx, lines) = channel();
        std::thread::spawn(move || {
            for l in BufReader::new(stdout).lines() {
                let Ok(l) = l else { break };
                if tx.send(l).is_err() {
                    break;
                }
            }
        });
        Engine {
            child,
            stdin,
            lines,
        }
    }
    fn send(&mut self, line: &str) {
        writeln!(self.stdin, "{line}").unwrap();
        self.stdin.flush().unwrap();
    }
    fn until(&mut self, prefix: &str) -> Vec<String> {
        let mut got = Vec::new();
        loop {
            let l = self
                .lines
                .recv_timeout(Duration::from_secs(20))
                .unwrap_or_else(|_| panic!("no '{prefix}' in time; got {got:?}"));
            let done = l.starts_with(prefix);
            got.push(l);
            if done {
                return got;
            }
        }
    }
    /// Sends a line and collects every reply up to the `readyok` of a following `isready`.
    fn ask(&mut self, line: &str) -> Vec<String> {
        self.send(line);
        self.send("isready");
        let mut v = self.until("readyok");
        v.pop();
        v
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        let _ = writeln!(self.stdin, "quit");
        let _ = self.child.wait();
    }
}

#[test]
fn handshake_and_options() {
    let mut e = Engine::start();
    let r = e.ask("uci");
    assert!(r[0].starts_with("id name Orrery Space Wars "), "{r:?}");
    assert_eq!(r[1], "id author the Orrery authors");
    assert_eq!(r.last().unwrap(), "uciok");
    for option in ["Hash", "Move Overhead", "Player", "Seed", "Iterations"] {
        let head = format!("option name {option} type ");
        assert!(r.iter().any(|l| l.starts_with(&head)), "{option}: {r:?}");
    }
    assert!(r
        .iter()
        .any(|l| l.starts_with("option name Player type combo")));
    assert!(e.ask("setoption name Player value heuristic").is_empty());
    assert!(e.ask("setoption name Seed value 7").is_empty());
    assert!(e.ask("ucinewgame").is_empty());
    let r = e.ask("go");
    assert!(r
        .iter()
        .any(|l| l.starts_with("info string error: no position")));
    assert_eq!(r.last().unwrap(), "bestmove none");
}

#[test]
fn four_player_game_on_the_local_table() {
    let mut e = Engine::start();
    e.ask("uci");
    e.ask("setoption name Player value heuristic");
    let r = e.ask("newgame 4 21");
    assert!(r
        .iter()
        .any(|l| l.starts_with("info string pending 1:class 2:class 3:class 4:class")));
    let mut turns = 0;
    let mut over = false;
    while !over && turns < 3000 {
        let pending = r_pending(&mut e);
        let Some((seat, _)) = pending.first().cloned() else {
            break;
        };
        e.send(&format!("go seat {seat}"));
        let out = e.until("bestmove");
        let best = out
            .last()
            .unwrap()
            .strip_prefix("bestmove ")
            .unwrap()
            .to_string();
        assert_ne!(best, "none", "{out:?}");
        let reply = e.ask(&format!("play {seat} {best}"));
        assert!(
            !reply.iter().any(|l| l.contains("error")),
            "{best}: {reply:?}"
        );
        over = reply
            .iter()
            .any(|l| l.starts_with("info string event over"));
        turns += 1;
    }
    assert!(over, "the game ended");
    let r = e.ask("play 1 attack none");
    assert!(r
        .iter()
        .any(|l| l.contains("error: illegal decision 'attack none': the game is over")));
}

fn r_pending(e: &mut Engine) -> Vec<(u8, String)> {
    // `show` of every seat tells which one owes a decision (pending=...).
    let mut v = Vec::new();
    for seat in 1..=4u8 {
        let r = e.ask(&format!("show {seat}"));
        let line = r
            .iter()
            .find(|l| l.starts_with("info string position"))
            .unwrap();
        let p = line.rsplit("pending=").next().unwrap().to_string();
        if p != "none" {
            v.push((seat, p));
        }
    }
    v
}

#[test]
fn position_and_go_answer_a_legal_decision() {
    let rules = Ruleset::default();
    let mut e = Engine::start();
    e.ask("uci");
    let mut s = State::new(3, 8).unwrap();
    let mut pend = Vec::new();
    for player in ["ismcts", "pimc", "heuristic", "random"] {
        e.ask(&format!("setoption name Player value {player}"));
        for _ in 0..3 {
            if s.is_over() {
                break;
            }
            s.pending(&mut pend);
            let mut decided = Vec::new();
            for &(seat, _) in &pend {
                let r = e.ask(&position_line(&s, seat));
                assert!(r.is_empty(), "{r:?}");
                e.send("go nodes 60");
                let out = e.until("bestmove");
                let text = out.last().unwrap().strip_prefix("bestmove ").unwrap();
                let d = parse_decision(text, &rules).unwrap();
                s.check(seat, &d)
                    .unwrap_or_else(|err| panic!("{player}: {text}: {err}"));
                decided.push((seat, d));
            }
            for (seat, d) in decided {
                s.apply(seat, &d).unwrap();
            }
        }
    }
}

#[test]
fn isready_and_stop_during_a_search() {
    let mut e = Engine::start();
    e.ask("uci");
    e.ask("newgame 2 3");
    e.send("go seat 1 infinite");
    std::thread::sleep(Duration::from_millis(100));
    e.send("isready");
    let r = e.until("readyok");
    assert!(!r.iter().any(|l| l.starts_with("bestmove")), "{r:?}");
    // A `go` during the search stops it: both get their `bestmove`, in order.
    e.send("go seat 2 nodes 5");
    let first = e.until("bestmove");
    assert!(
        first.last().unwrap().starts_with("bestmove class "),
        "{first:?}"
    );
    let second = e.until("bestmove");
    assert!(
        second.last().unwrap().starts_with("bestmove class "),
        "{second:?}"
    );
    e.send("go seat 1 infinite");
    e.send("stop");
    let r = e.until("bestmove");
    assert!(r.last().unwrap().starts_with("bestmove class "), "{r:?}");
}

#[test]
fn every_bad_input_line_gets_an_error_and_changes_nothing() {
    let text = include_str!("data/spacewars_bad_input.txt");
    let mut e = Engine::start();
    e.ask("setoption name Player value heuristic");
    let mut bad = 0;
    for line in text.lines() {
        if line.starts_with('#') || line.trim().is_empty() {
            continue;
        }
        if let Some(good) = line.strip_prefix("! ") {
            let r = e.ask(good);
            assert!(!r.iter().any(|l| l.contains("error")), "{good}: {r:?}");
            continue;
        }
        let before = e.ask("show 1");
        let r = e.ask(line);
        let errors = r
            .iter()
            .filter(|l| l.starts_with("info string error: "))
            .count();
        assert_eq!(errors, 1, "'{line}' got {r:?}");
        assert!(
            !r.iter().any(|l| l.starts_with("info string event")),
            "'{line}' changed the game: {r:?}"
        );
        assert_eq!(e.ask("show 1"), before, "'{line}' changed what seat 1 sees");
        bad += 1;
    }
    assert!(bad >= 40, "only {bad} bad lines");
    // After all of it the game goes on: seat 2 blocks legally.
    let r = e.ask("play 2 block 9D 4S");
    assert!(
        r.iter().any(|l| l == "info string event blocked 4 9D,4S"),
        "{r:?}"
    );
}

#[test]
fn go_with_the_seat_clock_answers_in_time() {
    let mut e = Engine::start();
    e.ask("uci");
    e.ask("newgame 4 9");
    // The engine's own account of the time it spent (its `info ... time` field) must be a small
    // part of the 3 s clock; the wall clock only guards against a hang, so a loaded machine that
    // delays the answer does not fail the test.
    let t = std::time::Instant::now();
    e.send("go seat 3 time 3000 inc 0");
    let r = e.until("bestmove");
    assert!(t.elapsed() < Duration::from_secs(60), "{:?}", t.elapsed());
    assert!(r.last().unwrap().starts_with("bestmove class "), "{r:?}");
    let spent: Vec<u64> = r
        .iter()
        .filter_map(|l| {
            let mut w = l.split_whitespace();
            w.by_ref().find(|&t| t == "time")?;
            w.next()?.parse().ok()
        })
        .collect();
    assert!(!spent.is_empty(), "no info line with the time spent: {r:?}");
    assert!(
        spent.iter().all(|&ms| ms <= 1500),
        "spent {spent:?} ms of 3000: {r:?}"
    );
    let r = e.ask("play 3 ".to_string().as_str());
    assert!(
        r.iter().any(|l| l.starts_with("info string error: ")),
        "{r:?}"
    );
}
