//! The `orrery` command line: help, clear errors with exit code 2, and a toy match end to end
//! with the built-in random engine.

use std::process::Command;

fn orrery(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_orrery"))
        .args(args)
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn help_and_errors() {
    let (code, out, _) = orrery(&["--help"]);
    assert_eq!(code, 0);
    assert!(out.contains("--sprt"));
    for (args, needle) in [
        (vec!["--bogus", "1"], "unknown option"),
        (vec!["--games", "many"], "not a valid number"),
        (vec!["--game", "go"], "unknown game"),
        (vec!["--game", "tic-tac-toe"], "no built-in engine"),
        (vec!["--tc", "1+x", "--engine", "cmd=a"], "--tc"),
        (vec!["replay"], "records file"),
    ] {
        let (code, _, err) = orrery(&args);
        assert_eq!(code, 2, "{args:?}");
        assert!(err.contains(needle), "{args:?}: {err}");
    }
}

#[test]
fn race_match_with_random_engines_three_seats() {
    let exe = env!("CARGO_BIN_EXE_orrery");
    let e = |n: &str, s: u32| format!("name={n},cmd='{exe}' random-engine --game race --seed {s}");
    let (code, out, err) = orrery(&[
        "match",
        "--game",
        "race",
        "--setup",
        "3",
        "--games",
        "6",
        "--tc",
        "10+0.1",
        "--engine",
        &e("r1", 1),
        "--engine",
        &e("r2", 2),
        "--engine",
        &e("r3", 3),
        "--concurrency",
        "2",
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("Finished: 6 games"), "{out}");
    assert!(out.contains("mean rank"), "{out}");
    assert!(err.contains("[6/6]"), "progress line: {err}");
}
