//! The `orrery` command line: help, clear errors with exit code 2 (numbers out of range, a
//! missing records file, a bad openings line, an option the engine refuses), a toy match end
//! to end, memory that stays bounded against a flooding engine, Ctrl-C in the middle of a match,
//! and `orrery stats`.

mod common;

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use common::referee::{fake_script, orphans_left, orrery, temp_dir};

fn fake_arg(name: &str, behaviour: &str) -> String {
    format!(
        "name={name},cmd=python3 '{}' {behaviour} tic-tac-toe",
        fake_script().display()
    )
}

#[test]
fn help_and_errors() {
    let (code, out, _) = orrery(&["--help"]);
    assert_eq!(code, 0);
    assert!(out.contains("--sprt"));
    let (code, out, _) = orrery(&["gui", "--help"]);
    assert_eq!(code, 0);
    assert!(
        out.starts_with("orrery gui: the board in a browser"),
        "{out}"
    );
    for (args, needle) in [
        (vec!["--bogus", "1"], "unknown option"),
        (vec!["--games", "many"], "not a valid number"),
        (
            vec!["--games", "0"],
            "--games: \"0\" is out of range (1 to 1000000000)",
        ),
        (vec!["--game", "go"], "unknown game"),
        (vec!["--game", "tic-tac-toe"], "no built-in engine"),
        (vec!["--tc", "1+x", "--engine", "cmd=a"], "--tc"),
        (vec!["replay"], "records file"),
        (
            vec!["replay", "/nonexistent/games.jsonl"],
            "/nonexistent/games.jsonl: No such file or directory",
        ),
        (
            vec![
                "--draw",
                "movenumber=4294967296,movecount=8,score=10",
                "--engine",
                "cmd=a",
            ],
            "movenumber=\"4294967296\" must be an integer from 0 to 100000",
        ),
        (
            vec!["--engine", "name=a\u{1b}[31m,cmd=x"],
            "control characters",
        ),
        (vec!["stats", "/nonexistent.jsonl"], "/nonexistent.jsonl"),
    ] {
        let (code, _, err) = orrery(&args);
        assert_eq!(code, 2, "{args:?}: {err}");
        assert!(err.contains(needle), "{args:?}: {err}");
    }
}

#[test]
fn a_bad_openings_line_is_refused_before_the_match_with_its_number() {
    let dir = temp_dir("openings");
    let file = dir.join("openings.txt");
    std::fs::write(
        &file,
        "# two good starts and a bad one\nstartpos moves b2\n........./x\nstartpos moves b2 b2\n",
    )
    .unwrap();
    let (code, _, err) = orrery(&[
        "match",
        "--game",
        "tic-tac-toe",
        "--engine",
        &fake_arg("a", "good"),
        "--engine",
        &fake_arg("b", "good"),
        "--openings",
        file.to_str().unwrap(),
    ]);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("openings.txt line 4: opening move b2:"),
        "{err}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn an_option_the_real_engine_refuses_stops_before_the_first_game() {
    let engine = common::binaries::path("spider-chess");
    let engine = engine.display();
    for (option, needle) in [
        (
            "option.Hash=abc",
            "setup error: option Hash=\"abc\": the engine takes an integer from 1 to",
        ),
        (
            "option.NoSuch=1",
            "setup error: the engine does not offer option \"NoSuch\"",
        ),
        (
            "option.UCI_Variant=nosuch",
            "the referee sets UCI_Variant from --game/--setup",
        ),
    ] {
        let (code, out, err) = orrery(&[
            "match",
            "--depth",
            "1",
            "--engine",
            &format!("name=a,cmd='{engine}'"),
            "--engine",
            &format!("name=b,cmd='{engine}',{option}"),
        ]);
        assert_eq!(code, 2, "{option}: {out} {err}");
        assert!(err.contains("engine b ("), "{err}");
        assert!(err.contains(needle), "{option}: {err}");
        assert!(!out.contains("Finished"), "{out}");
    }
}

#[test]
fn race_match_with_random_engines_three_seats() {
    let exe = common::binaries::path("orrery");
    let exe = exe.display();
    let e = |n: &str, s: u32| format!("name={n},cmd='{exe}' random-engine --game race --seed {s}");
    let (code, out, err) = orrery(&[
        "match",
        "--game",
        "race",
        "--setup",
        "3",
        "--games",
        "6",
        "--depth",
        "1",
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

fn rss_kib(pid: u32) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    status
        .lines()
        .find(|l| l.starts_with("VmRSS:"))?
        .split_whitespace()
        .nth(1)?
        .parse()
        .ok()
}

#[test]
fn memory_stays_bounded_against_an_engine_that_floods() {
    let mut child = Running(
        common::binaries::command("orrery")
            .args([
                "match",
                "--game",
                "tic-tac-toe",
                "--games",
                "2",
                "--depth",
                "1",
                "--hang-timeout",
                "60000",
                "--quiet",
                "--engine",
                &fake_arg("good", "good"),
                "--engine",
                &fake_arg("flood", "flood"),
            ])
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap(),
    );
    let pid = child.0.id();
    let start = Instant::now();
    let mut peak = 0;
    let status = loop {
        if let Some(s) = child.0.try_wait().unwrap() {
            break s;
        }
        peak = peak.max(rss_kib(pid).unwrap_or(0));
        if peak > 1 << 20 || start.elapsed() > Duration::from_secs(120) {
            panic!("orrery grew to {peak} KiB after {:?}", start.elapsed());
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let mut out = String::new();
    std::io::Read::read_to_string(child.0.stdout.as_mut().unwrap(), &mut out).unwrap();
    assert!(status.success(), "{out}");
    assert!(out.contains("Score of good vs flood: 2 - 0 - 0"), "{out}");
    assert!(out.contains("Endings: malformed output 2"), "{out}");
    assert!(peak < 100 * 1024, "peak RSS {peak} KiB");
}

/// A child process killed (by its pid) if the test fails before it ends.
struct Running(std::process::Child);

impl Drop for Running {
    fn drop(&mut self) {
        if self.0.try_wait().ok().flatten().is_none() {
            let _ = self.0.kill();
            let _ = self.0.wait();
        }
    }
}

fn wait_for_lines(path: &Path, lines: usize, limit: Duration) {
    let start = Instant::now();
    while start.elapsed() < limit {
        if let Ok(t) = std::fs::read_to_string(path) {
            if t.lines().count() >= lines {
                return;
            }
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    panic!("{} did not reach {lines} lines", path.display());
}

#[test]
fn ctrl_c_ends_the_engines_and_leaves_valid_records() {
    let dir = temp_dir("sigint");
    let records = dir.join("games.jsonl");
    let pids = dir.join("pids");
    let slow = format!(
        "name=slow,cmd=env FAKE_PIDFILE='{}' python3 '{}' child-stdout tic-tac-toe",
        pids.display(),
        fake_script().display()
    );
    let args = [
        "match",
        "--game",
        "tic-tac-toe",
        "--games",
        "200",
        "--concurrency",
        "2",
        "--depth",
        "1",
        "--quiet",
        "--engine",
        &fake_arg("good", "good"),
        "--engine",
        &slow,
        "--records",
        records.to_str().unwrap(),
    ];
    let mut child = Running(
        common::binaries::command("orrery")
            .args(args)
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap(),
    );
    // The settings line and two games.
    wait_for_lines(&records, 3, Duration::from_secs(120));
    let killed = Command::new("kill")
        .args(["-INT", &child.0.id().to_string()])
        .status()
        .unwrap();
    assert!(killed.success());
    let status = child.0.wait().unwrap();
    let mut err = String::new();
    std::io::Read::read_to_string(child.0.stderr.as_mut().unwrap(), &mut err).unwrap();
    assert_eq!(status.code(), Some(130), "{err}");
    assert!(err.contains("rerun the same command to resume"), "{err}");
    let left = orphans_left(&pids);
    assert!(
        left.is_empty(),
        "engines left running after Ctrl-C: {left:?}"
    );
    let text = std::fs::read_to_string(&records).unwrap();
    for line in text.lines() {
        serde_json::from_str::<serde_json::Value>(line)
            .unwrap_or_else(|e| panic!("not a JSON line ({e}): {line}"));
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn stats_merges_records_files_and_refuses_other_matches() {
    let dir = temp_dir("stats");
    let exe = common::binaries::path("orrery");
    let exe = exe.display();
    let e = |n: &str, s: u32| {
        format!("name={n},cmd='{exe}' random-engine --game tic-tac-toe --seed {s}")
    };
    let play = |file: &Path, games: &str, seed: &str| {
        let (code, out, err) = orrery(&[
            "match",
            "--game",
            "tic-tac-toe",
            "--games",
            games,
            "--depth",
            "1",
            "--seed",
            seed,
            "--quiet",
            "--engine",
            &e("r1", 1),
            "--engine",
            &e("r2", 2),
            "--records",
            file.to_str().unwrap(),
        ]);
        assert_eq!(code, 0, "{err}");
        out
    };
    let a = dir.join("a.jsonl");
    let b = dir.join("b.jsonl");
    let other = dir.join("other.jsonl");
    let whole = play(&a, "6", "1");
    std::fs::copy(&a, &b).unwrap();
    play(&other, "2", "9");
    let (code, out, err) = orrery(&["stats", a.to_str().unwrap(), b.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.starts_with("Records: 2 files, 6 games (6 duplicates counted once) of 6 scheduled\n"),
        "{out}"
    );
    // The same report as at the end of the match.
    let report = whole.split("Finished: 6 games\n").nth(1).unwrap();
    let merged = out.split_once('\n').unwrap().1;
    let strip = |t: &str| -> String {
        t.lines()
            .filter(|l| !l.starts_with("Referee overhead"))
            .collect::<Vec<_>>()
            .join("\n")
    };
    assert_eq!(strip(merged), strip(report));
    let (code, _, err) = orrery(&["stats", a.to_str().unwrap(), other.to_str().unwrap()]);
    assert_eq!(code, 2);
    assert!(err.contains("is not from the match of"), "{err}");
    assert!(err.contains("--seed: recorded 1, now 9"), "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn stats_on_raw_counts() {
    let (code, out, err) = orrery(&[
        "stats",
        "--penta",
        "10,100,300,120,15",
        "--sprt",
        "elo0=-5,elo1=5",
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.ends_with(
            "SPRT [-5, 5] logistic, alpha 0.05, beta 0.05: LLR 2.938 (-2.944, 2.944) continue\n"
        ),
        "{out}"
    );
    let (code, out, _) = orrery(&["stats", "--wdl", "0,10,0"]);
    assert_eq!(code, 0);
    assert!(
        out.contains("Elo difference: 0.0 (no interval: 10 games without variance)"),
        "{out}"
    );
}
