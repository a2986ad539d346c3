//! `orrery match --game spider-chess --variant FILE`: the referee plays a loaded Interactive
//! Diagram variant with the same rules core, the project's engine gets the definition too, the
//! records carry the definition (so `orrery replay` needs nothing else) and the PGN has `Variant`
//! and `FEN` tags.

use std::process::Command;

#[test]
fn orrery_referees_a_loaded_variant_between_project_engines() {
    let root = env!("CARGO_MANIFEST_DIR");
    let dir = std::env::temp_dir().join(format!("orrery-variant-match-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (pgn, records) = (dir.join("games.pgn"), dir.join("games.jsonl"));
    let out = Command::new(env!("CARGO_BIN_EXE_orrery"))
        .args(["match", "--game", "spider-chess", "--variant"])
        .arg(format!("{root}/tests/data/variants/chess.txt"))
        .args([
            "--games",
            "2",
            "--nodes",
            "300",
            "--maxplies",
            "60",
            "--quiet",
        ])
        .arg("--pgn")
        .arg(&pgn)
        .arg("--records")
        .arg(&records)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    let text = std::fs::read_to_string(&pgn).unwrap();
    assert_eq!(text.matches("[Variant \"chess\"]").count(), 2, "{text}");
    assert!(text.contains("[FEN \"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\"]"));
    let lines = std::fs::read_to_string(&records).unwrap();
    // The match settings line, then one line per game.
    assert!(lines.starts_with("{\"match\":"), "{lines}");
    let games: Vec<&str> = lines.lines().skip(1).collect();
    assert_eq!(games.len(), 2);
    for line in games {
        let rec: serde_json::Value = serde_json::from_str(line).unwrap();
        assert!(rec["fault_seat"].is_null(), "{line}");
        assert_eq!(rec["setup"], "chess");
        assert!(rec["extra"]["definition"]
            .as_str()
            .unwrap()
            .contains("KisO2"));
        assert!(rec["moves"].as_array().unwrap().len() > 10);
    }
    // The records replay from their own content.
    let replay = Command::new(env!("CARGO_BIN_EXE_orrery"))
        .arg("replay")
        .arg(&records)
        .output()
        .unwrap();
    assert!(
        replay.status.success(),
        "{}",
        String::from_utf8_lossy(&replay.stderr)
    );
    let bad = Command::new(env!("CARGO_BIN_EXE_orrery"))
        .args(["match", "--variant"])
        .arg(format!("{root}/tests/data/variants/cylinder.txt"))
        .output()
        .unwrap();
    assert!(!bad.status.success());
    assert!(String::from_utf8_lossy(&bad.stderr).contains("'o'"));
    std::fs::remove_dir_all(&dir).unwrap();
}
