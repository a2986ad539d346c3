//! Seeded random command sequences: the parsers never panic, and the live loop (toy game) never
//! hangs, keeps answering, and prints exactly one `bestmove` per accepted `go`.

mod common;

use std::time::Duration;

use common::engine_io::EngineIo;
use common::toy::Toy;
use orrery::protocol::cecp::parse_cecp;
use orrery::protocol::uci::{parse_uci, UciCommand};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

const WORDS: &[&str] = &[
    "uci",
    "isready",
    "ucinewgame",
    "position",
    "startpos",
    "fen",
    "moves",
    "go",
    "stop",
    "debug",
    "on",
    "setoption",
    "name",
    "value",
    "Hash",
    "Move",
    "Overhead",
    "UCI_Variant",
    "trio",
    "tictactoe",
    "Tie",
    "Break",
    "last",
    "wtime",
    "btime",
    "winc",
    "binc",
    "s1time",
    "s3inc",
    "movestogo",
    "movetime",
    "depth",
    "nodes",
    "infinite",
    "perft",
    "a1",
    "b2",
    "c3",
    "d4",
    "h1",
    "y19",
    "m2m5",
    "x../.o./... x",
    "xo./.../... x",
    "0",
    "1",
    "2",
    "-5",
    "99999999999999999999",
    "3.5",
    "abc",
    "@",
    "\t",
    "ponder",
    "register",
    "xboard",
    "new",
    "force",
    "usermove",
    "setboard",
    "level",
    "st",
    "sd",
    "time",
    "otim",
    "ping",
    "undo",
    "remove",
    "result",
    "1-0",
    "{x}",
    "post",
    "nopost",
    "?",
    "option",
    "Hash=8",
    "variant",
    "protover",
    "accepted",
    "rejected",
    "é",
    "\u{0}",
];

fn random_line(rng: &mut ChaCha8Rng) -> String {
    let n = rng.gen_range(0..7);
    (0..n)
        .map(|_| WORDS[rng.gen_range(0..WORDS.len())])
        .collect::<Vec<_>>()
        .join(if rng.gen_bool(0.1) { "  " } else { " " })
}

#[test]
fn parsers_never_panic_on_random_lines() {
    let mut rng = ChaCha8Rng::seed_from_u64(7);
    for _ in 0..50_000 {
        let line = random_line(&mut rng);
        let _ = parse_uci(line.trim());
        let _ = parse_cecp(line.trim());
    }
    for _ in 0..5_000 {
        let len = rng.gen_range(0..40);
        let bytes: Vec<u8> = (0..len).map(|_| rng.gen_range(0..128u8)).collect();
        let line = String::from_utf8_lossy(&bytes);
        let _ = parse_uci(line.trim());
        let _ = parse_cecp(line.trim());
    }
}

/// Keeps searches short: no `infinite`, small depths, unless the caller stops them.
fn uci_line(rng: &mut ChaCha8Rng) -> String {
    match rng.gen_range(0..10) {
        0 => "go depth 2".into(),
        1 => "go infinite".into(),
        2 => "stop".into(),
        3 => format!("position startpos moves {}", random_line(rng)),
        4 => "isready".into(),
        _ => random_line(rng),
    }
}

#[test]
fn uci_loop_survives_random_sequences_with_one_bestmove_per_go() {
    for seed in 0..8 {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let (toy, _) = Toy::new();
        let mut io = EngineIo::in_process(toy);
        io.send("uci");
        let mut gos = 0;
        let mut readies = 0;
        for _ in 0..250 {
            let line = uci_line(&mut rng);
            if line.trim() == "quit" {
                continue;
            }
            if parse_uci(line.trim()) == Ok(UciCommand::IsReady) {
                readies += 1;
            }
            if let Ok(UciCommand::Go(g)) = parse_uci(line.trim()) {
                match g.perft {
                    None => gos += 1,
                    Some(d) if d > 4 => continue,
                    Some(_) => {}
                }
            }
            io.send(&line);
        }
        // `ucinewgame` stops a running search and waits for its bestmove; the `isready` after it
        // is answered only then. Wait for that last readyok.
        io.send("ucinewgame");
        io.send("isready");
        let want = readies + 1;
        let mut seen = io.transcript.iter().filter(|l| *l == "readyok").count();
        while seen < want {
            match io.next_line(Duration::from_secs(20)) {
                Some(l) if l == "readyok" => seen += 1,
                Some(_) => {}
                None => panic!("seed {seed}: engine stuck; transcript tail {:?}", {
                    let t = &io.transcript;
                    t[t.len().saturating_sub(5)..].to_vec()
                }),
            }
        }
        let bestmoves = io
            .transcript
            .iter()
            .filter(|l| l.starts_with("bestmove "))
            .count();
        assert_eq!(bestmoves, gos, "seed {seed}");
        io.send("quit");
        assert!(io.ended_within(Duration::from_secs(5)), "seed {seed}");
    }
}

#[test]
fn cecp_loop_survives_random_sequences() {
    for seed in 0..8 {
        let mut rng = ChaCha8Rng::seed_from_u64(100 + seed);
        let (toy, _) = Toy::new();
        let mut io = EngineIo::in_process(toy);
        io.send("xboard");
        io.send("protover 2");
        for _ in 0..250 {
            let line = match rng.gen_range(0..12) {
                0 => "go".to_string(),
                1 => "new".to_string(),
                2 => "?".to_string(),
                3 => "st 0.05".to_string(),
                4 => format!(
                    "usermove {}",
                    ["a1", "b2", "c3", "a2", "b1"][rng.gen_range(0..5)]
                ),
                _ => random_line(&mut rng),
            };
            let t = line.trim();
            if t == "quit" || t.starts_with("st ") && t != "st 0.05" || t.starts_with("perft") {
                continue;
            }
            io.send(&line);
        }
        io.send("force");
        io.send("ping 424242");
        io.try_until(Duration::from_secs(20), |l| l == "pong 424242")
            .unwrap_or_else(|g| {
                panic!(
                    "seed {seed}: no pong; last lines {:?}",
                    &g[g.len().saturating_sub(5)..]
                )
            });
        io.send("quit");
        assert!(io.ended_within(Duration::from_secs(5)), "seed {seed}");
    }
}
