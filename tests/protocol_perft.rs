//! `perft` runs on the search thread like a search: the real binaries answer `isready` during a
//! deep perft at once, `stop`, `?`, `position`, `go` and `quit` end it promptly (a stopped perft
//! prints one error line and no counts), and perft counts are unchanged afterwards.
//!
//! The deep perfts below (Spider-Chess depth 7 from the start, about 10^17 leaves) take far
//! longer than any test may wait, so every assertion is about the order of events: a reply that
//! waited for the perft would never come within the tests' patience.

mod common;

use std::time::Duration;

use common::binaries;
use common::engine_io::EngineIo;

/// A perft no run of the test suite can finish.
const DEEP: &str = "7";
/// How long the engine may take to exit after `quit` (generous for a loaded machine).
const EXIT_PATIENCE: Duration = Duration::from_secs(60);
/// The UCI reply to `go perft 7` when it is stopped.
const UCI_STOPPED: &str =
    "info string error: go perft 7 stopped before it finished; no counts printed";
/// The CECP reply to `perft 7` when it is stopped.
const CECP_STOPPED: &str = "Error (stopped before it finished; no counts printed): perft 7";

fn spawn(bin: &str) -> EngineIo {
    EngineIo::spawn(&mut binaries::command(bin)).unwrap_or_else(|e| panic!("spawn {bin}: {e}"))
}

fn uci(bin: &str) -> EngineIo {
    let mut io = spawn(bin);
    io.send("uci");
    io.until_line("uciok");
    io
}

fn cecp(bin: &str) -> EngineIo {
    let mut io = spawn(bin);
    io.send("xboard");
    io.send("protover 2");
    io.until_line("feature done=1");
    io
}

/// Starts a deep perft and proves it is running: `isready` is answered before anything else.
fn uci_deep_perft(io: &mut EngineIo) {
    io.send(&format!("go perft {DEEP}"));
    io.send("isready");
    let got = io.until_line("readyok");
    assert_eq!(got, ["readyok"], "readyok comes first, the perft runs on");
}

/// The next line, which must come.
fn next(io: &mut EngineIo) -> String {
    io.until("a line", |_| true).remove(0)
}

fn uci_total(io: &mut EngineIo, depth: u32) -> u64 {
    io.send(&format!("go perft {depth}"));
    io.perft_output().1
}

#[test]
fn uci_isready_is_answered_during_a_deep_perft_and_stop_ends_it() {
    let mut io = uci("spider-chess");
    uci_deep_perft(&mut io);
    io.send("isready");
    assert_eq!(next(&mut io), "readyok", "a second isready too");
    io.send("stop");
    assert_eq!(next(&mut io), UCI_STOPPED);
    // The engine is idle again and counts as before.
    io.send("isready");
    assert_eq!(next(&mut io), "readyok");
    assert_eq!(uci_total(&mut io, 1), 307);
    assert_eq!(uci_total(&mut io, 2), 92_287);
    assert_eq!(uci_total(&mut io, 3), 28_728_392);
    // `isready` after a finished perft is answered after all its output.
    io.send("go perft 2");
    let (got, _) = io.perft_output();
    assert_eq!(got.len(), 307 + 3, "{got:?}");
    io.send("isready");
    assert_eq!(next(&mut io), "readyok");
}

#[test]
fn uci_position_and_go_during_a_perft_stop_it_then_run() {
    let mut io = uci("spider-chess");
    uci_deep_perft(&mut io);
    io.send("position startpos moves m2m5 m18m15");
    assert_eq!(next(&mut io), UCI_STOPPED);
    assert_eq!(uci_total(&mut io, 1), 316, "the new position is counted");
    uci_deep_perft(&mut io);
    io.send("go depth 1");
    assert_eq!(next(&mut io), UCI_STOPPED);
    let got = io.until("bestmove", |l| l.starts_with("bestmove "));
    assert!(got[0].starts_with("info depth 1 "), "{got:?}");
    assert_eq!(uci_total(&mut io, 1), 316, "position kept");
}

#[test]
fn uci_quit_during_a_deep_perft_ends_the_engine() {
    let mut io = uci("spider-chess");
    io.send(&format!("go perft {DEEP}"));
    io.send("quit");
    assert_eq!(next(&mut io), UCI_STOPPED);
    assert!(
        io.ended_within(EXIT_PATIENCE),
        "the engine is still running"
    );
}

#[test]
fn uci_end_of_input_lets_a_perft_finish() {
    let mut io = spawn("spider-chess");
    io.send("go perft 2");
    io.close_input();
    let (got, total) = io.perft_output();
    assert_eq!((got.len(), total), (307 + 3, 92_287));
    assert!(io.ended_within(EXIT_PATIENCE));
}

#[test]
fn solar_stop_ends_a_deep_perft() {
    let mut io = uci("solar-chess");
    uci_deep_perft(&mut io);
    io.send("stop");
    assert_eq!(next(&mut io), UCI_STOPPED);
    assert!(uci_total(&mut io, 1) > 0);
}

#[test]
fn cecp_move_now_stops_a_deep_perft_and_ping_waits_for_it() {
    let mut io = cecp("spider-chess");
    io.send(&format!("perft {DEEP}"));
    io.send("ping 1");
    io.send("?");
    // `ping` waits for the perft, as it waits for a move; `?` ends the perft.
    assert_eq!(next(&mut io), CECP_STOPPED);
    assert_eq!(next(&mut io), "pong 1");
    io.send("perft 2");
    let (got, total) = io.perft_output();
    assert_eq!((got.len(), total), (307 + 3, 92_287));
    // After the stopped perft the engine plays as usual.
    io.send("sd 1");
    io.send("go");
    assert!(next(&mut io).starts_with("move "));
}

#[test]
fn cecp_new_and_quit_end_a_deep_perft() {
    let mut io = cecp("spider-chess");
    io.send("usermove m2m5");
    io.send("force");
    io.send(&format!("perft {DEEP}"));
    io.send("new");
    io.send("ping 1");
    assert_eq!(next(&mut io), CECP_STOPPED);
    assert_eq!(next(&mut io), "pong 1");
    io.send("perft 1");
    assert_eq!(io.perft_output().1, 307, "new ran after the stopped perft");
    io.send(&format!("perft {DEEP}"));
    io.send("quit");
    assert_eq!(next(&mut io), CECP_STOPPED);
    assert!(
        io.ended_within(EXIT_PATIENCE),
        "the engine is still running"
    );
}
