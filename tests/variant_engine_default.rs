//! `spider-chess --variant FILE` (and `orrery engine spider-chess --variant FILE`) makes the
//! first loaded variant the default: the variant a GUI that sends no `UCI_Variant` plays (a chess
//! GUI playing standard chess sends none) and the one `perft` counts; the built-in Spider-Chess
//! stays offered, once. A file with chess's rules plays with chess's built-in weights.

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

/// Asserts that an engine started with chess loaded (its `uci` answer `lines`) offers chess
/// first, then Spider-Chess, and counts chess when no `UCI_Variant` is sent (400 paths of two
/// plies).
fn chess_is_the_default(io: &mut EngineIo, lines: &[String]) {
    assert_eq!(
        variant_option(lines),
        "option name UCI_Variant type combo default chess var chess var spider-chess"
    );
    io.send("position startpos");
    io.send("go perft 2");
    assert_eq!(io.perft_output().1, 400);
}

#[test]
fn the_first_loaded_variant_is_the_default_and_spider_chess_stays_offered() {
    let (mut io, lines) = uci_with(&["--variant", "tests/data/variants/chess.txt"]);
    chess_is_the_default(&mut io, &lines);
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

/// `orrery engine spider-chess --variant FILE`, the fallback `orrery match` uses when the engine
/// binary is not next to it, offers the same variants in the same order.
#[test]
fn orrery_engine_loads_variants_like_the_engine_binary() {
    let mut io = EngineIo::spawn(binaries::command("orrery").args([
        "engine",
        "spider-chess",
        "--variant",
        "tests/data/variants/chess.txt",
    ]))
    .expect("spawn orrery engine");
    io.send("uci");
    let lines = io.until_line("uciok");
    chess_is_the_default(&mut io, &lines);
    io.send("quit");
    for bad in [
        &["engine", "spider-chess", "--bogus"][..],
        &["engine", "spider-chess", "--variant"],
        &[
            "engine",
            "spider-chess",
            "--variant",
            "tests/data/variants/none.txt",
        ],
        &[
            "engine",
            "solar-chess",
            "--variant",
            "tests/data/variants/chess.txt",
        ],
    ] {
        let out = binaries::command("orrery")
            .args(bad)
            .stdin(std::process::Stdio::null())
            .output()
            .expect("run orrery engine");
        assert_eq!(out.status.code(), Some(2), "{bad:?}");
        assert!(out.stdout.is_empty(), "stdout is protocol only: {bad:?}");
        assert!(!out.stderr.is_empty(), "{bad:?} says why");
    }
}

/// The nodes of a fixed-depth search from the start position, the evaluation's fingerprint.
fn depth_nodes(args: &[&str]) -> String {
    let (mut io, _) = uci_with(args);
    io.send("position startpos moves e2e4 c7c5");
    io.send("go depth 6");
    let lines = io.until("bestmove", |l| l.starts_with("bestmove"));
    io.send("quit");
    let last = lines
        .iter()
        .rev()
        .find(|l| l.starts_with("info depth 6 "))
        .unwrap_or_else(|| panic!("no depth 6 in {lines:?}"));
    let at = last.find(" nodes ").expect("a node count");
    last[at..].split_whitespace().nth(1).unwrap().to_string()
}

/// A chess file plays with chess's built-in weights: the same search as with their file given,
/// another than with the file they replaced (connected pawns).
#[test]
fn a_chess_file_plays_with_the_built_in_chess_weights() {
    let chess = ["--variant", "tests/data/variants/chess.txt"];
    let built_in = depth_nodes(&chess);
    let file = depth_nodes(&[
        chess[0],
        chess[1],
        "--weights",
        "src/games/spider/chess.weights",
    ]);
    assert_eq!(built_in, file);
    let other = depth_nodes(&[
        chess[0],
        chess[1],
        "--weights",
        "docs/examples/chess-fsf-connected.weights",
    ]);
    assert_ne!(built_in, other);
}
