//! Feeds `tests/data/bad_input.txt` through both dialects of the engine loop (toy game,
//! in-process): one error reply per bad line, no reply to blank lines, no panic, nothing changed,
//! and the engine still plays afterwards.

mod common;

use common::bad_input::{check, load_default, Dialect, Expect};
use common::engine_io::EngineIo;
use common::toy::Toy;

#[test]
fn the_case_file_is_big_enough_and_covers_both_dialects() {
    let cases = load_default();
    let bad = cases.iter().filter(|c| c.expect == Expect::Error).count();
    assert!(bad >= 60, "only {bad} bad lines");
    assert!(cases.iter().any(|c| c.expect == Expect::Silent));
    assert!(cases.iter().any(|c| c.bytes.contains(&b'\r')));
    assert!(cases
        .iter()
        .any(|c| c.bytes.len() > orrery::protocol::MAX_LINE));
}

#[test]
fn bad_input_uci() {
    let cases = load_default();
    let (toy, _) = Toy::new();
    let mut io = EngineIo::in_process(toy);
    let ran = check(&mut io, Dialect::Uci, &cases).unwrap_or_else(|e| panic!("{e}"));
    assert!(ran >= 60, "{ran}");
}

#[test]
fn bad_input_cecp() {
    let cases = load_default();
    let (toy, _) = Toy::new();
    let mut io = EngineIo::in_process(toy);
    let ran = check(&mut io, Dialect::Cecp, &cases).unwrap_or_else(|e| panic!("{e}"));
    assert!(ran >= 60, "{ran}");
}

#[test]
fn spawned_processes_are_driven_line_by_line() {
    // The harness also talks to real binaries; check its process plumbing with a shell echo loop.
    let mut io = EngineIo::spawn(
        std::process::Command::new("sh")
            .arg("-c")
            .arg("while read -r l; do echo \"got $l\"; done"),
    )
    .expect("sh");
    io.send("isready");
    assert_eq!(io.until_line("got isready"), vec!["got isready"]);
    io.close_input();
    assert!(io.ended_within(std::time::Duration::from_secs(5)));
}
