//! The real `spider-chess` binary over pipes: the bad-input file in both dialects, a full short
//! game in each dialect, `stop` latency, and resident memory during a long search.

mod common;

use std::process::Command;
use std::time::{Duration, Instant};

use common::bad_input::{check, load_default, Dialect};
use common::engine_io::EngineIo;
use orrery::games::spider::{Position, Variant};

fn engine() -> EngineIo {
    EngineIo::spawn(&mut Command::new(env!("CARGO_BIN_EXE_spider-chess")))
        .expect("spawn spider-chess")
}

/// A Spider-Chess FEN with only the given pieces (`(letter, square)`), holes where the rule book
/// puts them.
fn sparse_fen(pieces: &[(char, &str)], side: char) -> String {
    let hole = |x: i32, y: i32| {
        [x + y, (24 - x) + y, x + (18 - y), (24 - x) + (18 - y)]
            .iter()
            .any(|s| (7..=9).contains(s))
    };
    let at = |x: i32, y: i32| {
        let name = format!("{}{}", (b'a' + x as u8) as char, y + 1);
        pieces.iter().find(|(_, sq)| *sq == name).map(|(p, _)| *p)
    };
    let mut ranks = Vec::new();
    for y in (0..19).rev() {
        let mut row = String::new();
        let mut empty = 0;
        for x in 0..25 {
            let cell = if hole(x, y) { Some('*') } else { at(x, y) };
            match cell {
                None => empty += 1,
                Some(c) => {
                    if empty > 0 {
                        row.push_str(&empty.to_string());
                        empty = 0;
                    }
                    row.push(c);
                }
            }
        }
        if empty > 0 {
            row.push_str(&empty.to_string());
        }
        ranks.push(row);
    }
    format!("{} {side} - - 0 1", ranks.join("/"))
}

#[test]
fn bad_input_file_uci() {
    let mut io = engine();
    let ran = check(&mut io, Dialect::Uci, &load_default()).unwrap_or_else(|e| panic!("{e}"));
    assert!(ran >= 60, "only {ran} cases ran");
}

#[test]
fn bad_input_file_cecp() {
    let mut io = engine();
    let ran = check(&mut io, Dialect::Cecp, &load_default()).unwrap_or_else(|e| panic!("{e}"));
    assert!(ran >= 60, "only {ran} cases ran");
}

/// A sparse position with a short 50-move limit, so a whole game fits in a test.
fn endgame() -> String {
    sparse_fen(&[('K', "m1"), ('R', "k2"), ('k', "m19"), ('r', "o18")], 'w')
}

#[test]
fn full_game_uci_until_the_rules_end_it() {
    let variant = Variant::spider_chess();
    let fen = endgame();
    let mut io = engine();
    io.send("uci");
    let hello = io.until_line("uciok");
    assert!(hello.iter().any(|l| l.starts_with("id name ")), "{hello:?}");
    assert!(hello.iter().any(|l| l.contains("UCI_Variant")), "{hello:?}");
    io.send("setoption name FiftyMovePlies value 12");
    io.send("ucinewgame");
    io.send("isready");
    io.until_line("readyok");
    let mut pos = Position::from_fen(&variant, &fen).unwrap();
    pos.set_fifty_move_limit(12);
    let mut moves: Vec<String> = Vec::new();
    while pos.outcome().is_none() {
        assert!(
            moves.len() < 40,
            "the 12-ply limit should have ended the game"
        );
        io.send(&format!("position fen {fen} moves {}", moves.join(" ")));
        io.send("go wtime 2000 btime 2000 winc 20 binc 20");
        let got = io.until("bestmove", |l| l.starts_with("bestmove "));
        assert!(
            got.iter().all(|l| !l.contains("error")),
            "engine reported an error: {got:?}"
        );
        assert!(got.iter().any(|l| l.starts_with("info depth")), "{got:?}");
        let mv = got.last().unwrap()["bestmove ".len()..].to_string();
        pos.play(&mv)
            .unwrap_or_else(|e| panic!("engine played illegal {mv}: {e}"));
        moves.push(mv);
    }
    io.send("quit");
    assert!(io.ended_within(Duration::from_secs(5)));
}

#[test]
fn full_game_cecp_ends_with_a_result_line() {
    let variant = Variant::spider_chess();
    let fen = endgame();
    let mut io = engine();
    io.send("xboard");
    io.send("protover 2");
    let features = io.until("done", |l| l.contains("done=1"));
    assert!(
        features.iter().any(|l| l.contains("setboard=1")),
        "{features:?}"
    );
    io.send("new");
    io.send("option FiftyMovePlies=12");
    io.send("force");
    io.send(&format!("setboard {fen}"));
    io.send("st 0.1");
    let mut pos = Position::from_fen(&variant, &fen).unwrap();
    pos.set_fifty_move_limit(12);
    // The engine plays White; the test answers for Black with its first legal move.
    io.send("go");
    let result = loop {
        let line = io
            .next_line(Duration::from_secs(20))
            .expect("the engine keeps talking until the game ends");
        assert!(
            !line.starts_with("Error") && !line.starts_with("Illegal"),
            "{line}"
        );
        if let Some(mv) = line.strip_prefix("move ") {
            pos.play(mv)
                .unwrap_or_else(|e| panic!("illegal engine move {mv}: {e}"));
            if pos.outcome().is_some() {
                continue;
            }
            let reply = pos.move_text(pos.legal_moves()[0]);
            pos.play(&reply).unwrap();
            io.send(&format!("usermove {reply}"));
        } else if line.starts_with("1-0") || line.starts_with("0-1") || line.starts_with("1/2-1/2")
        {
            break line;
        }
    };
    let outcome = pos.outcome().expect("the rules agree the game is over");
    assert!(
        result.starts_with(outcome.result_text()),
        "{result} vs {outcome:?}"
    );
    io.send("quit");
    assert!(io.ended_within(Duration::from_secs(5)));
}

#[test]
fn stop_brings_a_bestmove_promptly() {
    let mut io = engine();
    io.send("uci");
    io.until_line("uciok");
    io.send("position startpos moves m2m5");
    let mut worst = Duration::ZERO;
    for _ in 0..3 {
        io.send("go infinite");
        std::thread::sleep(Duration::from_millis(200));
        io.send("isready");
        io.until_line("readyok");
        let t = Instant::now();
        io.send("stop");
        let got = io.until("bestmove", |l| l.starts_with("bestmove "));
        worst = worst.max(t.elapsed());
        assert_ne!(got.last().unwrap(), "bestmove 0000");
    }
    eprintln!("worst stop -> bestmove latency: {worst:?}");
    // The protocol promises 50 ms; the bound is loose because CI machines are shared.
    assert!(worst < Duration::from_millis(1000), "{worst:?}");
}

/// Resident set size of a process in KiB, from /proc (Linux only).
fn rss_kib(pid: u32) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
}

#[test]
fn resident_memory_stays_within_hash_plus_64_mib() {
    if !std::path::Path::new("/proc/self/status").exists() {
        eprintln!("no /proc: memory check skipped on this platform");
        return;
    }
    const HASH_MIB: u64 = 32;
    let mut child = Command::new(env!("CARGO_BIN_EXE_spider-chess"))
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let pid = child.id();
    let stdin = child.stdin.take().unwrap();
    let stdout = std::io::BufReader::new(child.stdout.take().unwrap());
    let mut io = EngineIo::new(stdin, stdout);
    io.send("uci");
    io.until_line("uciok");
    io.send(&format!("setoption name Hash value {HASH_MIB}"));
    io.send("position startpos");
    io.send("go infinite");
    let mut peak = 0;
    for _ in 0..15 {
        std::thread::sleep(Duration::from_millis(200));
        peak = peak.max(rss_kib(pid).unwrap_or(0));
    }
    io.send("stop");
    io.until("bestmove", |l| l.starts_with("bestmove "));
    io.send("quit");
    let _ = child.wait();
    eprintln!("peak RSS during a 3 s search with Hash={HASH_MIB}: {peak} KiB");
    assert!(peak > 0);
    assert!(
        peak <= (HASH_MIB + 64) * 1024,
        "peak RSS {peak} KiB exceeds Hash + 64 MiB"
    );
}
