//! Every documented `go` limit ends every search algorithm on its own (issue 8, item 4): the
//! real `solar-chess` binary, `SearchAlgorithm` x limit, in a two-sided and a three-seat setup.
//! A search that ignored its limit would never print `bestmove` (nothing sends `stop`).

mod common;

use std::time::Duration;

use common::binaries;
use common::engine_io::EngineIo;

/// Generous: a loaded 2-core machine must finish every one of these well within it.
const PATIENCE: Duration = Duration::from_secs(120);

fn bestmove_within(io: &mut EngineIo, what: &str) -> Vec<String> {
    io.try_until(PATIENCE, |l| l.starts_with("bestmove "))
        .unwrap_or_else(|got| panic!("{what}: no bestmove within {PATIENCE:?}; got {got:?}"))
}

fn info_field(line: &str, key: &str) -> Option<u64> {
    let mut it = line.split(' ');
    it.by_ref().find(|w| *w == key)?;
    it.next()?.parse().ok()
}

#[test]
fn every_limit_ends_every_algorithm() {
    let limits: &[(&str, Option<u64>)] = &[
        ("depth 1", Some(1)),
        ("depth 2", Some(2)),
        ("nodes 400", None),
        ("movetime 100", None),
        ("wtime 3000 btime 3000", None),
        (
            "s1time 3000 s2time 3000 s3time 3000 s3inc 100 movestogo 5",
            None,
        ),
        ("depth 2 nodes 100000", Some(2)),
    ];
    let mut io = EngineIo::spawn(&mut binaries::command("solar-chess")).expect("spawn");
    io.send("uci");
    io.until_line("uciok");
    for setup in ["duel", "trio"] {
        for algorithm in ["alphabeta", "brs+", "paranoid", "mcts"] {
            io.send(&format!("setoption name UCI_Variant value {setup}"));
            io.send(&format!("setoption name SearchAlgorithm value {algorithm}"));
            io.send("position startpos moves Fw@n2");
            for &(limit, max_depth) in limits {
                let what = format!("{setup}/{algorithm}/go {limit}");
                io.send(&format!("go {limit}"));
                let got = bestmove_within(&mut io, &what);
                assert!(!got.iter().any(|l| l.contains("error")), "{what}: {got:?}");
                if let Some(max) = max_depth {
                    for l in got.iter().filter(|l| l.starts_with("info depth")) {
                        let d = info_field(l, "depth").unwrap();
                        assert!(d <= max, "{what}: {l}");
                    }
                }
            }
        }
    }
    // `go mate` is not offered: refused with an error, no search.
    io.send("go mate 3");
    io.send("isready");
    let got = io.until_line("readyok");
    assert_eq!(got.len(), 2, "{got:?}");
    assert!(got[0].starts_with("info string error: "), "{got:?}");
}
