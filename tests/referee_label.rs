//! `orrery label` through the real binaries: the six chess games of
//! `docs/examples/chess-games.jsonl` scored by the project's `spider-chess` (the labels load, are
//! distinct, not in check, counted as the summary says, and `spider-chess tune --labels` takes
//! them), the turn of scores to White's view with a scripted engine
//! (`tests/fake_engines/label_engine.py`, also for `--static`), and the errors: an engine that
//! dies or hangs, records of another game or variant.

mod common;

use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::process::Command;

use common::binaries;
use common::referee::temp_dir;
use orrery::engines::spider::load_variant_file;
use orrery::games::spider::Position;

const CHESS: &str = "tests/data/variants/chess.txt";
const GAMES: &str = "docs/examples/chess-games.jsonl";

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Runs `orrery label ARGS` in the repository's root: exit code, stdout, stderr.
fn label(args: &[&str]) -> (i32, String, String) {
    let out = binaries::command("orrery")
        .arg("label")
        .args(args)
        .current_dir(root())
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// The project's spider-chess engine for chess, as an `--engine` spec.
fn spider_chess() -> String {
    format!(
        "name=sc,cmd='{}' --variant {CHESS}",
        binaries::path("spider-chess").display()
    )
}

/// The scripted engine with `behaviour` (FAKE_ARG `arg`).
fn fake(behaviour: &str, arg: u32) -> String {
    let script = root().join("tests/fake_engines/label_engine.py");
    format!(
        "name=fake,cmd=env FAKE_ARG={arg} python3 '{}' {behaviour}",
        script.display()
    )
}

/// A count from the summary line: `N labelled`, `N in check`, `N without a score`, ...
fn count(stderr: &str, what: &str) -> usize {
    let line = stderr
        .lines()
        .find(|l| l.starts_with("label: ") && l.contains("positions after the book"))
        .unwrap_or_else(|| panic!("no summary in {stderr}"));
    let before = line
        .split([',', ';', ':'])
        .find_map(|part| part.trim().strip_suffix(what))
        .unwrap_or_else(|| panic!("no '{what}' in {line}"));
    before.trim().parse().unwrap()
}

/// The `FEN;CP` lines of a labels file, checked to start with `variant chess`.
fn labels(text: &str) -> Vec<(String, i64)> {
    let mut lines = text.lines();
    assert_eq!(lines.next(), Some("variant chess"), "{text}");
    lines
        .map(|l| {
            let (fen, cp) = l.rsplit_once(';').unwrap_or_else(|| panic!("{l}"));
            (
                fen.to_string(),
                cp.parse().unwrap_or_else(|_| panic!("{l}")),
            )
        })
        .collect()
}

#[test]
fn chess_games_labelled_by_spider_chess_load_into_tune() {
    let dir = temp_dir("label-chess");
    let out = dir.join("labels.txt");
    let (code, stdout, stderr) = label(&[
        "--game",
        "spider-chess",
        "--variant",
        CHESS,
        "--engine",
        &spider_chess(),
        "--depth",
        "2",
        "--out",
        out.to_str().unwrap(),
        GAMES,
    ]);
    assert_eq!(code, 0, "{stderr}");
    assert!(stdout.is_empty(), "labels go to --out only: {stdout}");
    let all = labels(&std::fs::read_to_string(&out).unwrap());
    assert_eq!(all.len(), count(&stderr, "labelled"), "{stderr}");
    assert_eq!(count(&stderr, "games"), 6, "{stderr}");
    assert_eq!(
        count(&stderr, "positions after the book"),
        902,
        "the same positions as spider-chess tune reads: {stderr}"
    );
    // The games come in pairs of the same opening with colours swapped, which the same engine
    // plays alike: about half the positions are met twice.
    assert!(all.len() > 300, "{stderr}");
    let chess = load_variant_file(&root().join(CHESS)).unwrap();
    let mut fens = HashSet::new();
    for (fen, cp) in &all {
        let pos = Position::from_fen(&chess, fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
        assert_eq!(&pos.to_fen(), fen, "the rules core's own FEN");
        assert!(!pos.in_check(), "in check: {fen}");
        assert!(pos.outcome().is_none(), "game over: {fen}");
        assert!(fens.insert(fen.clone()), "twice: {fen}");
        assert!(cp.abs() < 30_000, "{fen};{cp}");
    }
    // The labels file is what tune --labels reads.
    let tune = Command::new(binaries::path("spider-chess"))
        .args(["--variant", CHESS, "tune", "--labels"])
        .arg(&out)
        .current_dir(root())
        .output()
        .unwrap();
    let report = String::from_utf8_lossy(&tune.stdout);
    assert!(
        tune.status.success(),
        "{report}{}",
        String::from_utf8_lossy(&tune.stderr)
    );
    assert!(
        report.starts_with(&format!("variant chess: {} labelled positions", all.len())),
        "{report}"
    );

    // Every second position: about half as many, to stdout, all among the first run's.
    let (code, stdout, stderr) = label(&[
        "--variant",
        CHESS,
        "--engine",
        &spider_chess(),
        "--depth",
        "2",
        "--step",
        "2",
        GAMES,
    ]);
    assert_eq!(code, 0, "{stderr}");
    let half = labels(&stdout);
    assert_eq!(half.len(), count(&stderr, "labelled"));
    let taken = count(&stderr, "at the step");
    assert!(
        (451..=454).contains(&taken),
        "every second of each game's: {stderr}"
    );
    let ratio = half.len() as f64 / all.len() as f64;
    assert!(
        (0.4..0.6).contains(&ratio),
        "{} of {}",
        half.len(),
        all.len()
    );
    let outside = half.iter().filter(|(f, _)| !fens.contains(f)).count();
    assert!(outside <= 3, "{outside} positions the full run has not");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn scores_are_turned_to_whites_view() {
    // --static: the engine's Final evaluation is White's already (+1.23 White to move, -0.45
    // Black to move); a search score is the side to move's (cp 77 for either).
    for (mode, white, black) in [
        (&["--static"][..], 123, -45),
        (&["--depth", "3"][..], 77, -77),
        (&["--nodes", "1000"][..], 77, -77),
    ] {
        let mut args = vec!["--variant", CHESS, "--step", "7"];
        args.extend_from_slice(mode);
        let engine = fake("good", 0);
        args.extend(["--engine", &engine, GAMES]);
        let (code, stdout, stderr) = label(&args);
        assert_eq!(code, 0, "{mode:?}: {stderr}");
        let got = labels(&stdout);
        assert!(got.len() > 50, "{mode:?}: {stderr}");
        assert_eq!(got.len(), count(&stderr, "labelled"));
        let mut sides = HashSet::new();
        for (fen, cp) in &got {
            let to_move = fen.split(' ').nth(1).unwrap();
            sides.insert(to_move.to_string());
            let want = if to_move == "w" { white } else { black };
            assert_eq!(*cp, want, "{mode:?}: {fen}");
        }
        assert_eq!(sides.len(), 2, "both sides to move among the positions");
    }
}

#[test]
fn mate_and_missing_scores_are_left_out_and_counted() {
    for (behaviour, mode, counted) in [
        ("none", "--static", "without a score"),
        ("mate", "--depth", "mate scores"),
    ] {
        let mut args = vec!["--variant", CHESS, "--step", "20", mode];
        if mode == "--depth" {
            args.push("4");
        }
        let engine = fake(behaviour, 0);
        args.extend(["--engine", &engine, GAMES]);
        let (code, stdout, stderr) = label(&args);
        assert_eq!(code, 0, "{behaviour}: {stderr}");
        assert_eq!(stdout, "variant chess\n", "{behaviour}");
        assert_eq!(count(&stderr, "labelled"), 0);
        let taken = count(&stderr, "at the step");
        let left = count(&stderr, counted)
            + count(&stderr, "in check")
            + count(&stderr, "game over")
            + count(&stderr, "duplicates");
        assert_eq!(left, taken, "{behaviour}: {stderr}");
        assert!(count(&stderr, counted) > 0, "{stderr}");
    }
}

fn assert_engine_error(stderr: &str, kind: &str, labelled: usize) {
    assert!(
        stderr.contains(&format!(
            "engine fake failed at {GAMES} game 1, after move "
        )),
        "names the engine and the position: {stderr}"
    );
    assert!(stderr.contains(&format!("): {kind}: ")), "{stderr}");
    assert!(
        stderr.contains(&format!("{labelled} labels written")),
        "says how many were written: {stderr}"
    );
}

#[test]
fn an_engine_that_dies_or_hangs_stops_the_run_with_a_clear_error() {
    let dir = temp_dir("label-die");
    let out = dir.join("labels.txt");
    let engine = fake("die", 3);
    let (code, _, stderr) = label(&[
        "--variant",
        CHESS,
        "--static",
        "--engine",
        &engine,
        "--out",
        out.to_str().unwrap(),
        GAMES,
    ]);
    assert_ne!(code, 0, "{stderr}");
    assert_engine_error(&stderr, "crash", 3);
    assert!(
        stderr.contains("out of cheese"),
        "the engine's stderr: {stderr}"
    );
    let kept = labels(&std::fs::read_to_string(&out).unwrap());
    assert_eq!(kept.len(), 3, "the labels before the crash stay");

    let engine = fake("hang", 2);
    let (code, stdout, stderr) = label(&[
        "--variant",
        CHESS,
        "--depth",
        "1",
        "--hang-timeout",
        "300",
        "--engine",
        &engine,
        GAMES,
    ]);
    assert_ne!(code, 0, "{stderr}");
    assert_engine_error(&stderr, "hang", 2);
    assert_eq!(labels(&stdout).len(), 2);

    let engine = fake("error", 0);
    let (code, _, stderr) = label(&["--variant", CHESS, "--static", "--engine", &engine, GAMES]);
    assert_ne!(code, 0, "{stderr}");
    assert!(stderr.contains("engine error reply to eval"), "{stderr}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The chess records with the first game's record changed by `edit`.
fn edited_records(dir: &Path, name: &str, edit: impl Fn(&mut serde_json::Value)) -> PathBuf {
    let text = std::fs::read_to_string(root().join(GAMES)).unwrap();
    let mut lines: Vec<String> = text.lines().map(String::from).collect();
    let mut first: serde_json::Value = serde_json::from_str(&lines[0]).unwrap();
    edit(&mut first);
    lines[0] = first.to_string();
    let path = dir.join(name);
    std::fs::write(&path, lines.join("\n") + "\n").unwrap();
    path
}

#[test]
fn records_of_another_game_or_variant_are_refused_before_anything_runs() {
    let dir = temp_dir("label-refuse");
    let solar = edited_records(&dir, "solar.jsonl", |r| r["game"] = "solar-chess".into());
    let capa = edited_records(&dir, "capa.jsonl", |r| r["setup"] = "capablanca".into());
    let chess = std::fs::read_to_string(root().join(CHESS)).unwrap();
    let nightriders = chess.replace("knight:N:N::", "knight:N:NN::");
    assert_ne!(chess, nightriders);
    let other_rules = edited_records(&dir, "rules.jsonl", |r| {
        r["extra"]["definition"] = nightriders.clone().into()
    });
    let illegal = edited_records(&dir, "illegal.jsonl", |r| {
        r["moves"][10]["mv"] = "e2e5".into()
    });
    for (file, needle) in [
        (&solar, "game 1: a solar-chess game"),
        (&capa, "game 1: a game of capablanca, not of chess"),
        (
            &other_rules,
            "game 1: chess was played with another definition",
        ),
        (&illegal, "game 1: move 11 (e2e5)"),
    ] {
        let out = dir.join("never.txt");
        // The engine would fail at once: the records are refused before it starts.
        let (code, stdout, stderr) = label(&[
            "--variant",
            CHESS,
            "--engine",
            &fake("die", 0),
            "--out",
            out.to_str().unwrap(),
            file.to_str().unwrap(),
        ]);
        assert_ne!(code, 0, "{file:?}");
        assert!(stderr.contains(needle), "{file:?}: {stderr}");
        assert!(stdout.is_empty());
        assert!(!out.exists(), "nothing written for {file:?}");
    }
    // Without --variant the records must be of Spider-Chess itself.
    let (code, _, stderr) = label(&["--engine", &fake("good", 0), GAMES]);
    assert_ne!(code, 0);
    assert!(
        stderr.contains("a game of chess, not of spider-chess"),
        "{stderr}"
    );
    // Bad arguments: a clear error, nothing run.
    let (code, _, stderr) = label(&["--depth", "2", "--static", GAMES]);
    assert_eq!(code, 2);
    assert!(
        stderr.contains("only one of --depth, --nodes, --static"),
        "{stderr}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}
