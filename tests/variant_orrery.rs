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

/// A match where one engine, like Fairy-Stockfish, learns the loaded variant from an option
/// (`VariantPath`): the referee sets the options, asks for the declarations again and plays;
/// without the option the match stops before the first game, naming the option to give.
#[test]
fn an_engine_that_learns_variants_from_an_option_plays_once_it_is_given() {
    let root = env!("CARGO_MANIFEST_DIR");
    let spider = env!("CARGO_BIN_EXE_spider-chess");
    let moat = format!("{root}/tests/data/variants/moat.txt");
    let proxy = format!(
        "name=learner,cmd=python3 {root}/tests/fake_engines/variant_path_engine.py {spider} --variant {moat}"
    );
    let ours = format!("name=ours,cmd={spider} --variant {moat}");
    let run = |learner: &str| {
        Command::new(env!("CARGO_BIN_EXE_orrery"))
            .args(["match", "--game", "spider-chess", "--variant", &moat])
            .args([
                "--games",
                "2",
                "--nodes",
                "200",
                "--maxplies",
                "16",
                "--quiet",
            ])
            .args(["--engine", learner, "--engine", &ours])
            .output()
            .unwrap()
    };
    let refused = run(&proxy);
    let stderr = String::from_utf8_lossy(&refused.stderr);
    assert!(!refused.status.success(), "{stderr}");
    assert!(
        stderr.contains("does not offer variant \"moat\"") && stderr.contains("VariantPath"),
        "{stderr}"
    );
    let played = run(&format!(
        "{proxy},option.VariantPath={root}/tests/data/fsf/variants.ini"
    ));
    let stderr = String::from_utf8_lossy(&played.stderr);
    assert!(played.status.success(), "{stderr}");
    let stdout = String::from_utf8_lossy(&played.stdout);
    assert!(
        stdout.contains("Finished: 2 games")
            && stdout.contains("Endings: adjudication (ply cap) 2"),
        "two games to the ply cap, no fault: {stdout}\n{stderr}"
    );
}
