//! A real XBoard (Debian `xboard`, under `xvfb-run`) plays a whole game between two instances of
//! the engine on the Capablanca definition from `tests/data/variants/`: the engine defines the
//! variant for XBoard (`setup` and `piece` commands after `variant capablanca`), XBoard tests
//! every move itself with those Betza moves, and the game ends by a rule XBoard recognises or by
//! its draw adjudication, never by an illegal move. Skips, saying so, where xboard or xvfb-run is
//! not installed (CI installs them: `.ci/run`).

use std::path::Path;
use std::process::Command;
use std::time::Duration;

fn find(candidates: &[&str]) -> Option<String> {
    candidates
        .iter()
        .find(|p| Path::new(p).is_file())
        .map(|p| p.to_string())
}

#[test]
fn xboard_plays_a_whole_game_on_a_loaded_capablanca_definition() {
    let Some(xboard) = find(&["/usr/games/xboard", "/usr/bin/xboard"]) else {
        println!("skipped: xboard is not installed (apt-get install xboard xvfb)");
        return;
    };
    let Some(xvfb) = find(&["/usr/bin/xvfb-run"]) else {
        println!("skipped: xvfb-run is not installed (apt-get install xvfb)");
        return;
    };
    let root = env!("CARGO_MANIFEST_DIR");
    let dir = std::env::temp_dir().join(format!("orrery-xboard-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let engine = format!(
        "{} --variant {root}/tests/data/variants/capablanca.txt",
        env!("CARGO_BIN_EXE_spider-chess")
    );
    let (pgn, debug) = (dir.join("game.pgn"), dir.join("xboard.debug"));
    let mut child = Command::new(xvfb)
        .args(["-a", "-s", "-screen 0 1024x768x24", &xboard])
        .args(["-fcp", &engine, "-scp", &engine])
        .args(["-fd", dir.to_str().unwrap(), "-sd", dir.to_str().unwrap()])
        .args([
            "-variant",
            "capablanca",
            "-mg",
            "1",
            "-depth",
            "2",
            "-tc",
            "20",
            "-inc",
            "1",
        ])
        .args([
            "-adjudicateDrawMoves",
            "120",
            "-xexit",
            "-xponder",
            "-soundProgram",
            "/bin/true",
        ])
        .args(["-saveSettingsOnExit", "false", "-settingsFile"])
        .arg(dir.join("xboardrc"))
        .arg("-sgf")
        .arg(&pgn)
        .args(["-debug", "-nameOfDebugFile"])
        .arg(&debug)
        .spawn()
        .unwrap();
    // Generous: the whole game under load on a shared machine.
    let deadline = std::time::Instant::now() + Duration::from_secs(900);
    let status = loop {
        if let Some(s) = child.try_wait().unwrap() {
            break s;
        }
        if std::time::Instant::now() > deadline {
            let _ = child.kill();
            panic!("xboard did not finish the game in 15 minutes");
        }
        std::thread::sleep(Duration::from_millis(200));
    };
    assert!(status.success(), "xboard exited with {status}");
    let log = std::fs::read_to_string(&debug).unwrap_or_default();
    assert!(log.contains("setup (PNBRQ..AC............Kpnbrq..ac............k) 10x8+0_fairy"));
    assert!(log.contains("piece K& KisO3"));
    let game = std::fs::read_to_string(&pgn).unwrap();
    assert!(game.contains("[Variant \"capablanca\"]"), "{game}");
    let result = game
        .lines()
        .find_map(|l| l.strip_prefix("[Result \""))
        .map(|r| r.trim_end_matches("\"]").to_string())
        .unwrap();
    assert_ne!(result, "*", "the game was not finished:\n{game}");
    let lower = game.to_lowercase();
    assert!(
        !lower.contains("illegal") && !lower.contains("false"),
        "{game}"
    );
    let moves = game.matches('.').count();
    assert!(moves >= 10, "a whole game, not a few moves:\n{game}");
    std::fs::remove_dir_all(&dir).unwrap();
}
