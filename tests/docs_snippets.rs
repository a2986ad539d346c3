//! The Rust snippets of the documentation, compiled and run: `tests/docs_examples.rs` checks that
//! every ```rust block of README.md, protocol.md and docs/ appears here line for line (so these
//! functions are not formatted by rustfmt). The lines around each copy only set up what the
//! snippet takes as given.
#![allow(unused_imports, unused_variables)]

mod common;

use common::bad_input::{check, load_default, Dialect};
use common::engine_io::EngineIo;

type Result<T = ()> = std::result::Result<T, Box<dyn std::error::Error>>;

/// A small Spider-Chess endgame (kings and a pawn each), so that deep searches are quick.
const ENDGAME: &str = "7***2k2***7/6***7***6/5***9***5/4***11***4/3***13***3/2***15***2/1***17***1/***1p17***/**21**/*23*/**21**/***19***/1***17***1/2***15***2/3***13***3/4***11***4/5***9***5/6***4P2***6/7***2K2***7 w - - 0 1";

/// docs/search.md: the alpha-beta searcher on a game position.
#[test]
#[rustfmt::skip]
fn search_md_searcher() {
    let variant = orrery::games::spider::Variant::spider_chess();
    let position = orrery::games::spider::Position::from_fen(&variant, ENDGAME).unwrap();
    use std::sync::atomic::AtomicBool;
    use orrery::search::{Limits, Searcher, UciScore};

    let mut searcher = Searcher::new(64);            // 64 MiB hash
    let stop = AtomicBool::new(false);               // set from the protocol thread on `stop`
    let limits = Limits { depth: Some(8), ..Limits::default() };
    let out = searcher.search(&position, &limits, &stop, &mut |info| {
        println!("info depth {} score {} nodes {} pv ...", info.depth, UciScore(info.score), info.nodes);
    });
    // out.best: Option<Move>, out.ponder, out.score, out.depth, out.nodes
    assert!(out.best.is_some());
    assert_eq!(out.depth, 8);
}

/// docs/solar.md: the Solar Chess rules core.
#[test]
#[rustfmt::skip]
fn solar_md_using_it() -> Result {
    use orrery::games::solar::{perft_divide, setup_names, Move, Position, Status};

    let mut pos = Position::from_setup_or_string("six")?;        // or a position string
    let mv = pos.parse_move("n3j4")?;                              // typed error with the reason
    pos.make(mv);
    let mut moves = Vec::new();
    pos.legal_moves(&mut moves);                                   // empty only when the game is over
    let text = pos.to_string();                                    // the position string
    let report = perft_divide(&mut pos, 3);                       // divide + nodes + elapsed + nps()
    assert!(!moves.is_empty() && report.nodes > 0);
    assert_eq!(Position::from_setup_or_string(&text)?.to_string(), text);
    Ok(())
}

/// docs/spider.md: the Spider-Chess rules core from the protocol's and binaries' side.
#[test]
#[rustfmt::skip]
fn spider_md_integration() -> Result {
    let fen = ENDGAME;
    let moves = ["m1m2", "m19m18"];
    let depth = 3;
    use orrery::games::spider::{perft_report, Position, Variant};
    let variant = Variant::spider_chess();                      // Arc<Variant>
    let mut pos = Position::from_fen(&variant, fen)?;           // or Position::startpos(&variant)
    for m in moves { pos.play(m)?; }                            // MoveError: Display gives the reason
    let report = perft_report(&mut pos, depth);                 // `perft` command / `go perft N`
    for (mv, n) in &report.divide { println!("{mv}: {n}"); }
    println!("Nodes searched: {}", report.nodes);               // + report.nodes_per_second()
    if let Some(o) = pos.outcome() { /* o.result_text(), o.reason */ }
    assert!(report.nodes > 0);
    Ok(())
}

/// protocol.md, "Bad-input test file": the harness against a real binary.
#[test]
#[rustfmt::skip]
fn protocol_md_bad_input_harness() -> Result {
    let mut io = EngineIo::spawn(&mut std::process::Command::new(env!("CARGO_BIN_EXE_spider-chess")))?;
    check(&mut io, Dialect::Uci, &load_default())?;
    Ok(())
}
