//! Shared by the referee tests: the misbehaving-engine kit as engine specs, orphan checks, and
//! the check of real-engine match records.

use std::path::{Path, PathBuf};

use orrery::referee::engine::EngineSpec;
use orrery::referee::game_runner::replay;
use orrery::referee::records::{read_records, GameRecord};

/// The kit's script.
pub fn fake_script() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fake_engines/fake_engine.py")
}

/// A kit engine for tic-tac-toe.
pub fn fake(name: &str, behaviour: &str, proto: &str) -> EngineSpec {
    fake_for(name, behaviour, proto, "tic-tac-toe")
}

/// A kit engine for `game` (`tic-tac-toe` or `race`).
pub fn fake_for(name: &str, behaviour: &str, proto: &str, game: &str) -> EngineSpec {
    EngineSpec::parse(&format!(
        "name={name},cmd=python3 '{}' {behaviour} {game},proto={proto}",
        fake_script().display()
    ))
    .unwrap()
}

/// A kit engine that writes its pid (and its children's) to `pidfile`.
pub fn fake_env(
    name: &str,
    behaviour: &str,
    proto: &str,
    game: &str,
    pidfile: &Path,
) -> EngineSpec {
    EngineSpec::parse(&format!(
        "name={name},cmd=env FAKE_PIDFILE='{}' python3 '{}' {behaviour} {game},proto={proto}",
        pidfile.display(),
        fake_script().display()
    ))
    .unwrap()
}

/// The built-in random engine for tic-tac-toe (a Rust binary, quick to start under load).
pub fn random_engine(name: &str) -> EngineSpec {
    EngineSpec::parse(&format!(
        "name={name},cmd='{}' random-engine --game tic-tac-toe",
        env!("CARGO_BIN_EXE_orrery")
    ))
    .unwrap()
}

/// Runs `orrery` with `args` to the end: its exit code (-1 when killed by a signal), stdout and
/// stderr.
pub fn orrery(args: &[&str]) -> (i32, String, String) {
    let out = super::binaries::command("orrery")
        .args(args)
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// A fresh directory under the system's temporary directory.
pub fn temp_dir(tag: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("orrery-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// True while process `pid` exists and is not a zombie.
pub fn alive(pid: u32) -> bool {
    match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
        Ok(stat) => {
            // The state is the field after the parenthesised command name.
            let state = stat
                .rsplit(')')
                .next()
                .unwrap_or("")
                .split_whitespace()
                .next();
            !matches!(state, Some("Z") | Some("X") | None)
        }
        Err(_) => false,
    }
}

/// The pids listed in `pidfile` that are still running, after waiting up to 5 s for them to go
/// (a killed process may take a moment to be reaped by init).
pub fn orphans_left(pidfile: &Path) -> Vec<u32> {
    let text = std::fs::read_to_string(pidfile).unwrap_or_default();
    let pids: Vec<u32> = text.lines().filter_map(|l| l.trim().parse().ok()).collect();
    assert!(
        !pids.is_empty(),
        "the engine recorded no pids in {}",
        pidfile.display()
    );
    let until = std::time::Instant::now() + std::time::Duration::from_secs(5);
    loop {
        let left: Vec<u32> = pids.iter().copied().filter(|&p| alive(p)).collect();
        if left.is_empty() || std::time::Instant::now() > until {
            return left;
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
}

/// Reads `records`, asserts it holds `games` games played without an engine fault, with engine
/// scores recorded, and that each replays through the rules core to its recorded final position.
pub fn assert_clean_engine_records(records: &Path, games: usize) -> Vec<GameRecord> {
    let recs = read_records(records).unwrap();
    assert_eq!(recs.len(), games);
    for r in &recs {
        assert!(r.fault_seat.is_none(), "engine fault: {}", r.reason);
        assert!(
            r.moves.iter().any(|m| m.score.is_some()),
            "engine scores recorded"
        );
        assert_eq!(replay(r).unwrap(), r.final_position);
    }
    recs
}
