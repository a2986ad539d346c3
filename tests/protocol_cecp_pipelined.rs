//! CECP orderings with pipelined input (all lines written at once, as a GUI under load sends
//! them): `?` makes the engine move at once and that move is printed before any later command
//! (`force`, `new`, `undo`, `remove`, `setboard`, `usermove`, `ping`, `quit`) changes the state;
//! without a `?`, the commands that abort a search discard its move. See protocol.md, "Commands
//! while thinking". The real `spider-chess` binary, thinking with `st 60` so that only `?` or an
//! aborting command can end a search within the test.

mod common;

use std::time::Duration;

use common::binaries;
use common::engine_io::EngineIo;

/// A CECP session: handshake, `new`, 60 s per move, no thinking output.
fn start() -> EngineIo {
    let mut io = EngineIo::spawn(&mut binaries::command("spider-chess")).expect("spawn");
    io.send_raw(b"xboard\nprotover 2\nnew\nst 60\n");
    io.until_line("feature done=1");
    io
}

/// How long a whole pipelined script may take: a thousand searches on a loaded machine can
/// outlast the default patience for one reply (it did, at load 9), and only a hang should fail.
const SCRIPT_PATIENCE: Duration = Duration::from_secs(120);

/// Writes `script` in one go and returns every line up to `pong N`.
fn pipelined(io: &mut EngineIo, script: &str, n: u32) -> Vec<String> {
    io.send_raw(format!("{script}ping {n}\n").as_bytes());
    let pong = format!("pong {n}");
    io.try_until(SCRIPT_PATIENCE, |l| l == pong)
        .unwrap_or_else(|got| panic!("no '{pong}' within {SCRIPT_PATIENCE:?}; got {got:?}"))
}

fn moves(lines: &[String]) -> usize {
    lines.iter().filter(|l| l.starts_with("move ")).count()
}

fn perft1(io: &mut EngineIo, n: u32) -> String {
    let got = pipelined(io, "perft 1\n", n);
    got.into_iter()
        .find(|l| l.starts_with("Nodes searched"))
        .expect("perft total")
}

#[test]
fn a_thousand_go_movenow_force_undo_give_a_thousand_moves() {
    let mut io = start();
    let script = "go\n?\nforce\nundo\n".repeat(1000);
    let got = pipelined(&mut io, &script, 1);
    assert_eq!(moves(&got), 1000, "{:?}", &got[..got.len().min(20)]);
    assert!(
        got.iter().all(|l| l.starts_with("move ") || l == "pong 1"),
        "{got:?}"
    );
    // Every `undo` took the engine's move back: the start position again.
    assert_eq!(perft1(&mut io, 2), "Nodes searched: 307");
}

#[test]
fn an_owed_move_comes_before_every_later_command() {
    // (script, moves expected before the pong, lines that must follow the move)
    let cases: &[(&str, usize, &[&str])] = &[
        ("go\n?\n", 1, &[]),
        ("go\n?\nnew\n", 1, &[]),
        ("go\n?\nforce\n", 1, &[]),
        ("go\n?\nundo\n", 1, &[]),
        (
            "go\n?\nremove\n",
            1,
            &["Error (only 1 move(s) to take back): remove"],
        ),
        ("go\n?\nsetboard bad fen\n", 1, &["Error (illegal position"]),
        ("go\nping 100\n?\n", 1, &["pong 100"]),
        // Black's reply to the engine's first move at every depth (h4r9, check).
        ("go\n?\nusermove o18n17\n?\n", 2, &[]),
        ("go\n?\nusermove zzzz\n", 1, &["Illegal move ("]),
        ("go\n?\n?\n?\n", 1, &[]),
    ];
    for (i, &(script, want, after)) in cases.iter().enumerate() {
        let mut io = start();
        let got = pipelined(&mut io, script, 7);
        assert_eq!(moves(&got), want, "{script:?}: {got:?}");
        let first_move = got.iter().position(|l| l.starts_with("move ")).unwrap();
        for a in after {
            let at = got
                .iter()
                .position(|l| l.starts_with(a))
                .unwrap_or_else(|| panic!("case {i} {script:?}: no {a:?} in {got:?}"));
            assert!(
                at > first_move,
                "case {i} {script:?}: {a:?} before the move: {got:?}"
            );
        }
    }
}

#[test]
fn without_movenow_aborting_commands_discard_the_move() {
    let cases: &[(&str, &[&str])] = &[
        ("go\nforce\n", &[]),
        ("go\nnew\n", &[]),
        ("go\nforce\n?\n", &[]),
        ("go\nundo\n", &["Error (only 0 move(s) to take back): undo"]),
        ("go\nsetboard bad fen\n", &["Error (illegal position"]),
        ("go\nresult 1/2-1/2 {agreed}\n", &[]),
    ];
    for &(script, want) in cases {
        let mut io = start();
        let got = pipelined(&mut io, script, 9);
        assert_eq!(moves(&got), 0, "{script:?}: {got:?}");
        assert_eq!(got.len(), want.len() + 1, "{script:?}: {got:?}");
        for (line, w) in got.iter().zip(want.iter()) {
            assert!(line.starts_with(w), "{script:?}: {got:?}");
        }
        // The engine is idle and the position is the start (nothing was played).
        assert_eq!(perft1(&mut io, 10), "Nodes searched: 307", "{script:?}");
    }
}

#[test]
fn quit_after_movenow_prints_the_move_first() {
    let mut io = start();
    io.send_raw(b"go\n?\nquit\n");
    let got = io.until("move", |l| l.starts_with("move "));
    assert_eq!(moves(&got), 1);
    assert!(io.ended_within(Duration::from_secs(10)));
    let mut io = start();
    io.send_raw(b"go\nquit\n");
    assert!(io.ended_within(Duration::from_secs(10)));
    assert_eq!(io.next_line(Duration::from_millis(100)), None);
}
