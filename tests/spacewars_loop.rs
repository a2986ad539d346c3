//! `space-wars` on the shared engine loop (issue 11, item 1): the shared bad-input harness passes
//! against it; a `go` during a search stops it and both get their `bestmove`; `isready` and
//! `stop` are answered while it searches; end of input during `go infinite` ends the process
//! with the move; `Hash` bounds the search tree's memory during a long `go infinite`; the command
//! line's `--help` and `bench N`.

mod common;

use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};
use std::time::Duration;

use common::bad_input::{check_space_wars, load_default};
use common::binaries;
use common::engine_io::{EngineIo, PATIENCE};

fn spawn() -> EngineIo {
    EngineIo::spawn(&mut binaries::command("space-wars")).expect("space-wars runs")
}

/// A fresh engine on a local table of two, ready to decide for seat 1.
fn table() -> EngineIo {
    let mut io = spawn();
    io.send("uci");
    io.until_line("uciok");
    io.send("newgame 2 3");
    io.send("isready");
    io.until_line("readyok");
    io
}

#[test]
fn the_shared_bad_input_harness_passes_against_space_wars() {
    let cases = load_default();
    let mut io = spawn();
    let ran = check_space_wars(&mut io, &cases).unwrap_or_else(|e| panic!("{e}"));
    assert!(ran >= 60, "{ran}");
}

#[test]
fn every_pipelined_go_gets_its_own_bestmove() {
    // Before the shared loop: a `go` during a search got `already searching` and no `bestmove`
    // (1000 quick `go depth 1` gave 4 best moves).
    let mut io = table();
    for _ in 0..300 {
        io.send("go seat 1 nodes 1");
    }
    io.send("isready");
    let got = io.until_line("readyok");
    let mut rest = Vec::new();
    let mut best = got.iter().filter(|l| l.starts_with("bestmove ")).count();
    while best < 300 {
        let l = io
            .next_line(PATIENCE)
            .unwrap_or_else(|| panic!("only {best} bestmove lines"));
        best += usize::from(l.starts_with("bestmove "));
        rest.push(l);
    }
    assert!(got
        .iter()
        .chain(&rest)
        .all(|l| !l.starts_with("info string error")));
    io.send("isready");
    let tail = io.until_line("readyok");
    assert!(tail.iter().all(|l| !l.starts_with("bestmove")), "{tail:?}");
}

#[test]
fn isready_and_stop_are_answered_during_an_infinite_search() {
    let mut io = table();
    io.send("go seat 1 infinite");
    for _ in 0..5 {
        io.send("isready");
        let r = io.until_line("readyok");
        assert!(r.iter().all(|l| !l.starts_with("bestmove")), "{r:?}");
    }
    io.send("stop");
    let r = io.until("bestmove", |l| l.starts_with("bestmove "));
    assert!(r.last().unwrap().starts_with("bestmove class "), "{r:?}");
    // The engine is idle again and decides anew.
    io.send("go seat 2 nodes 20");
    let r = io.until("bestmove", |l| l.starts_with("bestmove "));
    assert!(r.last().unwrap().starts_with("bestmove class "), "{r:?}");
}

#[test]
fn end_of_input_during_go_infinite_answers_and_exits() {
    // Before: closing stdin during `go infinite` never exited.
    let mut io = table();
    io.send("go seat 1 infinite");
    io.send("isready");
    io.until_line("readyok");
    io.close_input();
    let r = io.until("bestmove", |l| l.starts_with("bestmove "));
    assert!(r.last().unwrap().starts_with("bestmove class "), "{r:?}");
    assert!(io.ended_within(PATIENCE), "the engine did not exit");
}

#[test]
fn a_line_that_is_not_utf8_is_refused_and_the_engine_goes_on() {
    // Before: the first line that was not UTF-8 made the engine exit silently.
    let mut io = table();
    io.send_raw(b"go \xff\xfe\n");
    io.send("isready");
    let r = io.until_line("readyok");
    assert_eq!(r.len(), 2, "{r:?}");
    assert!(
        r[0].starts_with("info string error: line is not valid UTF-8"),
        "{r:?}"
    );
    io.send("go seat 1 nodes 10");
    io.until("bestmove", |l| l.starts_with("bestmove class "));
}

fn rss_kib(pid: u32) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .unwrap_or(0)
}

#[test]
fn hash_bounds_the_tree_during_a_long_infinite_search() {
    // Before: memory grew by about 2.7 MB/s without bound during `go infinite`. With `Hash 2`
    // the tree's storage stops at 2 MiB: after the first seconds the process stops growing.
    if !std::path::Path::new("/proc/self/status").exists() {
        return; // no /proc: nothing to measure on this system
    }
    let mut child = Command::new(binaries::path("space-wars"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("space-wars runs");
    let mut stdin = child.stdin.take().unwrap();
    let mut out = BufReader::new(child.stdout.take().unwrap());
    let mut ask = |stdin: &mut std::process::ChildStdin, line: &str| {
        writeln!(stdin, "{line}\nisready").unwrap();
        let mut l = String::new();
        while l.trim() != "readyok" {
            l.clear();
            assert!(out.read_line(&mut l).unwrap() > 0, "engine ended");
        }
    };
    ask(&mut stdin, "setoption name Hash value 2");
    // Seat 1's first decision at a table of four: the tree below it spans the whole game.
    ask(&mut stdin, "newgame 4 3");
    writeln!(stdin, "go seat 1 infinite").unwrap();
    let pid = child.id();
    std::thread::sleep(Duration::from_secs(3));
    let early = rss_kib(pid);
    std::thread::sleep(Duration::from_secs(6));
    let late = rss_kib(pid);
    writeln!(stdin, "stop\nquit").unwrap();
    let _ = child.wait();
    assert!(early > 0 && late > 0, "no VmRSS read ({early}, {late})");
    assert!(
        late < early + 4 * 1024,
        "memory grew from {early} KiB to {late} KiB in 6 s under Hash 2"
    );
}

#[test]
fn help_and_bench_with_its_argument() {
    let help = binaries::command("space-wars")
        .arg("--help")
        .output()
        .unwrap();
    assert!(help.status.success());
    assert!(String::from_utf8_lossy(&help.stdout).starts_with("usage: space-wars"));
    // `bench N` runs N iterations per position (before: the argument was ignored).
    let bench = |n: &str| {
        let o = binaries::command("space-wars")
            .args(["bench", n])
            .output()
            .unwrap();
        assert!(o.status.success(), "{o:?}");
        String::from_utf8_lossy(&o.stdout).into_owned()
    };
    let few = bench("30");
    assert!(few.contains("players 2: 30 iterations,"), "{few}");
    assert!(few.contains("\nNodes searched: 120\n"), "{few}");
    let more = bench("60");
    assert!(more.contains("players 4: 60 iterations,"), "{more}");
    assert!(more.contains("\nNodes searched: 240\n"), "{more}");
    // Above 100 (the other engines' deepest bench depth) it still counts iterations (before:
    // `bench 150` was refused as too deep).
    let many = bench("150");
    assert!(many.contains("players 6: 150 iterations,"), "{many}");
    assert_eq!(many.matches(" it/cpu-s, best ").count(), 4, "{many}");
    assert!(many.contains("\nNodes searched: 600\n"), "{many}");
    let refused = binaries::command("space-wars")
        .args(["bench", "0"])
        .output()
        .unwrap();
    assert_eq!(refused.status.code(), Some(2), "{refused:?}");
    assert!(String::from_utf8_lossy(&refused.stderr).contains("bench iterations must be in 1.."));
}
