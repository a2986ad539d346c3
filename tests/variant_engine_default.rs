//! `spider-chess --variant FILE` makes the first loaded variant the default: the variant a GUI
//! that sends no `UCI_Variant` plays (a chess GUI playing standard chess sends none) and the one
//! `perft` counts; the built-in Spider-Chess stays offered, once.

mod common;

use common::binaries;
use common::engine_io::EngineIo;

fn uci_with(args: &[&str]) -> (EngineIo, Vec<String>) {
    let mut io = EngineIo::spawn(binaries::command("spider-chess").args(args))
        .unwrap_or_else(|e| panic!("spawn spider-chess {args:?}: {e}"));
    io.send("uci");
    let lines = io.until_line("uciok");
    (io, lines)
}

fn variant_option(lines: &[String]) -> &str {
    lines
        .iter()
        .find(|l| l.starts_with("option name UCI_Variant "))
        .unwrap_or_else(|| panic!("no UCI_Variant option in {lines:?}"))
}

#[test]
fn the_first_loaded_variant_is_the_default_and_spider_chess_stays_offered() {
    let (mut io, lines) = uci_with(&["--variant", "tests/data/variants/chess.txt"]);
    assert_eq!(
        variant_option(&lines),
        "option name UCI_Variant type combo default chess var chess var spider-chess"
    );
    // No UCI_Variant sent: the start position is chess (400 paths of two plies).
    io.send("position startpos");
    io.send("go perft 2");
    assert_eq!(io.perft_output().1, 400);
    io.send("setoption name UCI_Variant value spider-chess");
    io.send("position startpos");
    io.send("go perft 1");
    assert_eq!(io.perft_output().1, 307);
    io.send("quit");
}

#[test]
fn a_loaded_file_named_like_the_built_in_variant_is_offered_once() {
    let (mut io, lines) = uci_with(&["--variant", "tests/data/variants/spider-chess.txt"]);
    assert_eq!(
        variant_option(&lines),
        "option name UCI_Variant type combo default spider-chess var spider-chess"
    );
    io.send("quit");
}

#[test]
fn perft_on_the_command_line_counts_the_first_loaded_variant() {
    let out = binaries::command("spider-chess")
        .args([
            "--variant",
            "tests/data/variants/capablanca.txt",
            "--variant",
            "tests/data/variants/chess.txt",
            "perft",
            "2",
        ])
        .output()
        .expect("run spider-chess perft");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}");
    assert!(
        text.lines().any(|l| l == "Nodes searched: 784"),
        "Capablanca has 784 paths of two plies: {text}"
    );
}
