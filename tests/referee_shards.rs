//! Matches beyond one machine (issue 13): `--shard K/N` plays the unsharded match's games, N
//! shards run through GNU parallel (the recipe in docs/recipes/parallel-match.sh) merge into the
//! unsharded result, a stop file stops every shard within one game, the merged SPRT of the
//! shards (or `orrery stats --follow`) writes it, and the cluster recipes are well-formed.
//!
//! No timing assertions: real engines are node-limited (deterministic), waits are generous, and
//! the stop-file bound is counted in games.

mod common;

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use common::referee::{fake_script, orrery, temp_dir};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn orrery_path() -> String {
    common::binaries::path("orrery").display().to_string()
}

/// The records of a file or directory as a set: settings lines dropped, timings removed, by id.
fn record_set(source: &Path) -> Vec<serde_json::Value> {
    let files = if source.is_dir() {
        orrery::referee::merge::records_in(source).unwrap()
    } else {
        vec![source.to_path_buf()]
    };
    let mut out = Vec::new();
    for f in files {
        for line in std::fs::read_to_string(&f).unwrap().lines() {
            let mut v: serde_json::Value = serde_json::from_str(line).unwrap();
            if v.get("match").is_some() {
                continue;
            }
            let o = v.as_object_mut().unwrap();
            for k in ["started", "duration_ms", "overhead_us"] {
                o.remove(k);
            }
            for m in o["moves"].as_array_mut().unwrap() {
                let m = m.as_object_mut().unwrap();
                m.remove("ms");
                m.remove("clock_ms");
            }
            out.push(v);
        }
    }
    out.sort_by_key(|v| v["id"].as_u64().unwrap());
    out
}

/// The report of `orrery stats` without the line on files and the timing line.
fn report_of(source: &Path) -> String {
    let (code, out, err) = orrery(&["stats", source.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    out.lines()
        .filter(|l| !l.starts_with("Records:") && !l.starts_with("Referee overhead"))
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn three_shards_through_gnu_parallel_equal_the_unsharded_match() {
    let parallel = Command::new("parallel").arg("--version").output();
    assert!(
        parallel.is_ok_and(|o| o.status.success()),
        "GNU parallel is needed (Debian package `parallel`, installed by .ci/run)"
    );
    let solar = common::binaries::path("solar-chess").display().to_string();
    let exe = orrery_path();
    // A head-to-head match (openings from random plies, pentanomial pairs) and a four-seat one
    // (deals, seat rotation blocks), node-limited so that every game is reproducible.
    let head_to_head = vec![
        "--game".to_string(),
        "solar-chess".into(),
        "--games".into(),
        "12".into(),
        "--nodes".into(),
        "300".into(),
        "--random-plies".into(),
        "6".into(),
        "--seed".into(),
        "7".into(),
        "--engine".into(),
        format!("name=ab,cmd='{solar}'"),
        "--engine".into(),
        format!("name=mcts,cmd='{solar}',option.SearchAlgorithm=mcts"),
    ];
    let four_seats: Vec<String> = [
        "--game",
        "space-wars",
        "--setup",
        "4",
        "--games",
        "12",
        "--nodes",
        "300",
        "--seed",
        "3",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    for (tag, args) in [("solar", head_to_head), ("spacewars", four_seats)] {
        let dir = temp_dir(&format!("shards-{tag}"));
        let whole = dir.join("whole.jsonl");
        let mut one = args.clone();
        one.extend([
            "--quiet".into(),
            "--records".into(),
            whole.display().to_string(),
        ]);
        let one: Vec<&str> = one.iter().map(String::as_str).collect();
        let mut match_args = vec!["match"];
        match_args.extend(one);
        let (code, _, err) = orrery(&match_args);
        assert_eq!(code, 0, "{err}");
        let shards = dir.join("shards");
        let out = Command::new("bash")
            .arg(root().join("docs/recipes/parallel-match.sh"))
            .arg(&shards)
            .arg("3")
            .args(&args)
            .arg("--quiet")
            .env("ORRERY", &exe)
            .output()
            .unwrap();
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert!(
            out.status.success(),
            "{stdout}{}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(
            stdout.contains("Records: 3 files, 12 games of 12 scheduled"),
            "{stdout}"
        );
        // Each shard played its own blocks only.
        for k in 1..=3 {
            let ids: Vec<u64> = record_set(&shards.join(format!("shard-{k}.jsonl")))
                .iter()
                .map(|r| r["block"].as_u64().unwrap())
                .collect();
            assert!(
                !ids.is_empty() && ids.iter().all(|b| b % 3 == k - 1),
                "{ids:?}"
            );
        }
        let a = record_set(&whole);
        let b = record_set(&shards);
        assert_eq!(a.len(), 12);
        assert_eq!(
            a, b,
            "{tag}: the shards' records differ from the unsharded match's"
        );
        let report = report_of(&whole);
        assert_eq!(report, report_of(&shards), "{tag}");
        if tag == "solar" {
            assert!(report.contains("Ptnml(0-2): ["), "{report}");
            assert!(report.contains("Elo difference: "), "{report}");
        } else {
            assert!(report.contains("mean rank"), "{report}");
        }
        std::fs::remove_dir_all(&dir).unwrap();
    }
}

/// A running `orrery`, ended (SIGTERM, so it ends its engines) if the test fails first.
struct Running(Child);

impl Drop for Running {
    fn drop(&mut self) {
        if self.0.try_wait().ok().flatten().is_none() {
            let _ = Command::new("kill")
                .args(["-TERM", &self.0.id().to_string()])
                .status();
            let _ = self.0.wait();
        }
    }
}

impl Running {
    /// Waits for the end (at most `limit`, a generous bound for a loaded machine): exit code
    /// and stdout.
    fn finish(&mut self, limit: Duration) -> (i32, String) {
        let start = Instant::now();
        loop {
            if let Some(status) = self.0.try_wait().unwrap() {
                let mut out = String::new();
                std::io::Read::read_to_string(self.0.stdout.as_mut().unwrap(), &mut out).unwrap();
                return (status.code().unwrap_or(-1), out);
            }
            assert!(start.elapsed() < limit, "still running after {limit:?}");
            std::thread::sleep(Duration::from_millis(50));
        }
    }
}

fn spawn(args: &[String]) -> Running {
    Running(
        common::binaries::command("orrery")
            .args(args)
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap(),
    )
}

/// Game records (not settings lines) in a records file so far.
fn games_in(path: &Path) -> usize {
    std::fs::read_to_string(path)
        .map(|t| t.lines().filter(|l| l.starts_with("{\"id\"")).count())
        .unwrap_or(0)
}

fn wait_for_games(path: &Path, games: usize) {
    let start = Instant::now();
    while games_in(path) < games {
        assert!(
            start.elapsed() < Duration::from_secs(300),
            "{} did not reach {games} games",
            path.display()
        );
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// Arguments of one shard of a long tic-tac-toe match between `a` and `b` (engine specs).
fn shard_args(a: &str, b: &str, k: u64, dir: &Path, extra: &[&str]) -> Vec<String> {
    let mut v: Vec<String> = [
        "match",
        "--game",
        "tic-tac-toe",
        "--games",
        "30000",
        "--depth",
        "1",
        "--quiet",
        "--ratinginterval",
        "0",
        "--engine",
        a,
        "--engine",
        b,
        "--shard",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    v.push(format!("{k}/3"));
    v.push("--records".into());
    v.push(dir.join(format!("shard-{k}.jsonl")).display().to_string());
    v.push("--stop-file".into());
    v.push(dir.join("STOP").display().to_string());
    v.extend(extra.iter().map(|s| s.to_string()));
    v
}

fn fake_arg(name: &str, behaviour: &str) -> String {
    format!(
        "name={name},cmd=python3 '{}' {behaviour} tic-tac-toe",
        fake_script().display()
    )
}

fn random_arg(name: &str) -> String {
    format!(
        "name={name},cmd='{}' random-engine --game tic-tac-toe",
        orrery_path()
    )
}

#[test]
fn a_stop_file_stops_every_shard_within_one_game() {
    let dir = temp_dir("shards-stop");
    let (a, b) = (fake_arg("a", "good"), fake_arg("b", "good"));
    let mut shards: Vec<Running> = (1..=3)
        .map(|k| spawn(&shard_args(&a, &b, k, &dir, &[])))
        .collect();
    for k in 1..=3 {
        wait_for_games(&dir.join(format!("shard-{k}.jsonl")), 1);
    }
    std::fs::write(dir.join("STOP"), "stopped by the test\n").unwrap();
    // Counted after the stop file exists: a shard checks it before each game, so it finishes
    // at most the one game it is playing (concurrency 1).
    let at_stop: Vec<usize> = (1..=3)
        .map(|k| games_in(&dir.join(format!("shard-{k}.jsonl"))))
        .collect();
    for (i, s) in shards.iter_mut().enumerate() {
        let (code, out) = s.finish(Duration::from_secs(300));
        assert_eq!(code, 0, "{out}");
        assert!(
            out.contains("Stopped by the stop file ") && out.contains(": stopped by the test"),
            "{out}"
        );
        let end = games_in(&dir.join(format!("shard-{}.jsonl", i + 1)));
        assert!(
            end <= at_stop[i] + 1,
            "shard {} played {} games after the stop file",
            i + 1,
            end - at_stop[i]
        );
    }
    // A rerun with the stop file in place plays nothing.
    let before = games_in(&dir.join("shard-1.jsonl"));
    let (code, out) = spawn(&shard_args(&a, &b, 1, &dir, &[])).finish(Duration::from_secs(300));
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("Stopped by the stop file"), "{out}");
    assert_eq!(games_in(&dir.join("shard-1.jsonl")), before);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Games in the stop file's text (`... after N games ...`).
fn stop_file_games(text: &str) -> u64 {
    text.split(" after ")
        .nth(1)
        .and_then(|t| t.split_whitespace().next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no game count in the stop file: {text}"))
}

#[test]
fn the_merged_sprt_of_the_shards_writes_the_stop_file_and_every_shard_stops() {
    let dir = temp_dir("shards-sprt");
    // A random mover against an engine that plays an occupied square: every game is won.
    let (good, bad) = (random_arg("good"), fake_arg("bad", "illegal"));
    let sprt = ["--sprt", "elo0=0,elo1=100"];
    let mut shards: Vec<Running> = (1..=3)
        .map(|k| spawn(&shard_args(&good, &bad, k, &dir, &sprt)))
        .collect();
    let outs: Vec<String> = shards
        .iter_mut()
        .map(|s| {
            let (code, out) = s.finish(Duration::from_secs(600));
            assert_eq!(code, 0, "{out}");
            out
        })
        .collect();
    let stop = std::fs::read_to_string(dir.join("STOP")).unwrap();
    assert!(stop.starts_with("H1 accepted: LLR "), "{stop}");
    assert!(stop.contains("orrery match --shard "), "{stop}");
    // Every pair is won twice: the LLR of [0,0,0,0,n] passes 2.944 at the 12th pair.
    assert!(stop_file_games(&stop) >= 24, "{stop}");
    for out in &outs {
        assert!(
            out.contains("SPRT stopped the match: H1 accepted")
                || out.contains("Stopped by the stop file"),
            "{out}"
        );
        assert!(out.contains("Merged over "), "{out}");
    }
    let (code, report, err) = orrery(&["stats", dir.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    assert!(report.contains("H1 accepted"), "{report}");
    let games = record_set(&dir).len();
    assert!(games < 30000, "the shards did not stop: {games} games");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn stats_follow_decides_for_shards_that_only_watch_the_stop_file() {
    let dir = temp_dir("shards-follow");
    let stop = dir.join("STOP");
    let mut follower = spawn(&[
        "stats".to_string(),
        dir.display().to_string(),
        "--follow".into(),
        "--poll".into(),
        "100".into(),
        "--sprt".into(),
        "elo0=0,elo1=100".into(),
        "--stop-file".into(),
        stop.display().to_string(),
    ]);
    let (good, bad) = (random_arg("good"), fake_arg("bad", "illegal"));
    let mut shards: Vec<Running> = (1..=3)
        .map(|k| spawn(&shard_args(&good, &bad, k, &dir, &[])))
        .collect();
    let (code, out) = follower.finish(Duration::from_secs(600));
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("Wrote the stop file "), "{out}");
    assert!(out.contains("H1 accepted"), "{out}");
    assert!(out.contains(" games in "), "progress lines: {out}");
    for s in shards.iter_mut() {
        let (code, out) = s.finish(Duration::from_secs(300));
        assert_eq!(code, 0, "{out}");
        assert!(out.contains("Stopped by the stop file"), "{out}");
    }
    let text = std::fs::read_to_string(&stop).unwrap();
    assert!(text.contains("written by orrery stats"), "{text}");
    // Following a finished match ends at once with the same decision; the stop file stays.
    let (code, again, err) = orrery(&[
        "stats",
        dir.to_str().unwrap(),
        "--follow",
        "--sprt",
        "elo0=0,elo1=100",
        "--stop-file",
        stop.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(again.contains("H1 accepted"), "{again}");
    assert_eq!(std::fs::read_to_string(&stop).unwrap(), text);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn sharding_options_are_checked() {
    for (args, needle) in [
        (vec!["--shard", "0/3"], "K counts from 1"),
        (vec!["--shard", "4/3"], "1 <= K <= N"),
        (
            vec!["--shard", "1/3", "--sprt", "elo0=0,elo1=5"],
            "--sprt with --shard needs --stop-file and --records",
        ),
        (
            vec!["stats", "--penta", "1,1,1,1,1", "--follow"],
            "records files",
        ),
        (vec!["stats", "a.jsonl", "--poll", "0"], "--poll"),
    ] {
        let mut all = args.clone();
        if args[0] != "stats" {
            all.extend(["--engine", "cmd=a"]);
        }
        let (code, _, err) = orrery(&all);
        assert_eq!(code, 2, "{args:?}: {err}");
        assert!(err.contains(needle), "{args:?}: {err}");
    }
    // env/N without a scheduler's variables names them.
    let out = common::binaries::command("orrery")
        .args(["match", "--shard", "env/4", "--engine", "cmd=a"])
        .env_remove("SLURM_ARRAY_TASK_ID")
        .env_remove("JOB_COMPLETION_INDEX")
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("JOB_COMPLETION_INDEX"), "{err}");
}

#[test]
fn a_shards_records_file_is_not_resumed_as_another_shard() {
    let dir = temp_dir("shards-resume");
    let file = dir.join("games.jsonl");
    let exe = orrery_path();
    let run = |shard: &str| {
        orrery(&[
            "match",
            "--game",
            "tic-tac-toe",
            "--games",
            "8",
            "--depth",
            "1",
            "--quiet",
            "--engine",
            &format!("name=a,cmd='{exe}' random-engine --game tic-tac-toe --seed 1"),
            "--engine",
            &format!("name=b,cmd='{exe}' random-engine --game tic-tac-toe --seed 2"),
            "--shard",
            shard,
            "--records",
            file.to_str().unwrap(),
        ])
    };
    let (code, _, err) = run("1/2");
    assert_eq!(code, 0, "{err}");
    let (code, _, err) = run("2/2");
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("holds shard 1/2"), "{err}");
    // The same shard again: resumed, nothing to play.
    let (code, out, err) = run("1/2");
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("Finished: 4 games"), "{out}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The cluster recipes of docs/orrery.md, checked as far as this machine can: the Slurm script
/// and the parallel recipe parse as bash (`bash -n`; neither Slurm nor Kubernetes runs here), and
/// the Kubernetes manifest parses as YAML (python3 with PyYAML, installed by .ci/run) into an
/// Indexed Job whose completions match `--shard env/N`, with records and the stop file on the
/// mounted volume.
#[test]
fn the_cluster_recipes_are_well_formed() {
    for script in [
        "docs/recipes/slurm-match.sh",
        "docs/recipes/parallel-match.sh",
    ] {
        let out = Command::new("bash")
            .arg("-n")
            .arg(root().join(script))
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{script}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    let slurm = std::fs::read_to_string(root().join("docs/recipes/slurm-match.sh")).unwrap();
    let array = slurm
        .lines()
        .find_map(|l| l.strip_prefix("#SBATCH --array=1-"))
        .expect("an #SBATCH --array=1-N line");
    let n: u64 = array.trim().parse().unwrap();
    assert!(
        slurm.contains(&format!("SHARDS={n}")) && slurm.contains("--shard env/$SHARDS"),
        "the array size and --shard env/N agree"
    );
    assert!(slurm.contains("--stop-file") && slurm.contains("--records"));
    let check = r#"
import sys, yaml
docs = [d for d in yaml.safe_load_all(open(sys.argv[1])) if d]
job = next(d for d in docs if d["kind"] == "Job")
assert job["apiVersion"] == "batch/v1", job["apiVersion"]
spec = job["spec"]
assert spec["completionMode"] == "Indexed"
n = spec["completions"]
assert 1 <= spec["parallelism"] <= n
pod = spec["template"]["spec"]
c = pod["containers"][0]
cmd = " ".join(c["command"] + c.get("args", []))
assert "orrery match" in cmd, cmd
assert "--shard env/%d" % n in cmd, cmd
mount = c["volumeMounts"][0]
assert "--records %s/" % mount["mountPath"] in cmd, cmd
assert "--stop-file %s/" % mount["mountPath"] in cmd, cmd
vol = next(v for v in pod["volumes"] if v["name"] == mount["name"])
claim = vol["persistentVolumeClaim"]["claimName"]
pvc = next(d for d in docs if d["kind"] == "PersistentVolumeClaim")
assert pvc["metadata"]["name"] == claim
assert "ReadWriteMany" in pvc["spec"]["accessModes"]
print("ok", n)
"#;
    let out = Command::new("python3")
        .args(["-c", check])
        .arg(root().join("docs/recipes/k8s-indexed-job.yaml"))
        .output()
        .expect("python3");
    assert!(
        out.status.success(),
        "k8s-indexed-job.yaml: {}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}

/// The openings recipe of docs/orrery.md needs Fairy-Stockfish, which CI does not have: here it
/// must at least run under python3 and, given no arguments, print its usage and fail.
#[test]
fn the_openings_recipe_runs_and_explains_itself() {
    let out = Command::new("python3")
        .arg(root().join("docs/recipes/balanced-openings.py"))
        .output()
        .unwrap();
    assert!(!out.status.success(), "no arguments must be an error");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("VARIANT N SEED MAXCP DEPTH"), "{err}");
    assert!(
        out.stdout.is_empty(),
        "nothing on stdout: that is the openings file"
    );
}
