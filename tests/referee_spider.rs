//! A real Spider-Chess match through the `orrery` binary: two engines playing seeded random
//! legal moves from the spider rules core (`orrery random-engine`), PGN and JSON records
//! written, and every record replayed by the rules core to the same result; and the real
//! engine against itself in both dialects. Depth limits, not clocks, so a loaded machine
//! cannot make them flag.

mod common;

use std::process::Command;

use orrery::referee::game_runner::replay;
use orrery::referee::records::read_records;

#[test]
fn spider_match_records_replay_to_the_same_results() {
    let exe = env!("CARGO_BIN_EXE_orrery");
    let dir = std::env::temp_dir().join(format!("orrery-spider-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let records = dir.join("games.jsonl");
    let pgn = dir.join("games.pgn");
    let engine = |name: &str, seed: u32| {
        format!("name={name},cmd='{exe}' random-engine --game spider-chess --seed {seed}")
    };
    let out = Command::new(exe)
        .args([
            "match",
            "--game",
            "spider-chess",
            "--games",
            "2",
            "--depth",
            "1",
        ])
        .args([
            "--engine",
            &engine("rand-a", 1),
            "--engine",
            &engine("rand-b", 2),
        ])
        .args([
            "--maxplies",
            "120",
            "--random-plies",
            "4",
            "--seed",
            "3",
            "--quiet",
        ])
        .arg("--records")
        .arg(&records)
        .arg("--pgn")
        .arg(&pgn)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{stdout} {}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(stdout.contains("Score of rand-a vs rand-b"), "{stdout}");
    let recs = read_records(&records).unwrap();
    assert_eq!(recs.len(), 2);
    for r in &recs {
        assert_eq!(r.game, "spider-chess");
        assert_eq!(r.moves.iter().filter(|m| m.book).count(), 4);
        assert!(r.moves.len() <= 120);
        let fen = replay(r).unwrap_or_else(|e| panic!("game {}: {e}", r.id));
        assert_eq!(fen, r.final_position);
    }
    // Same opening for both games of the pair, seats swapped.
    assert_eq!(recs[0].moves[..4], recs[1].moves[..4]);
    assert_eq!(recs[0].engines, vec!["rand-a", "rand-b"]);
    assert_eq!(recs[1].engines, vec!["rand-b", "rand-a"]);
    let pgn_text = std::fs::read_to_string(&pgn).unwrap();
    assert_eq!(pgn_text.matches("[Variant \"spider-chess\"]").count(), 2);
    assert!(pgn_text.contains("{book}"), "book moves marked");
    let replayed = Command::new(exe)
        .arg("replay")
        .arg(&records)
        .output()
        .unwrap();
    assert!(replayed.status.success());
    assert!(String::from_utf8_lossy(&replayed.stdout).contains("2 games replayed, 0 mismatches"));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn real_spider_chess_engine_against_itself_uci_and_cecp() {
    let exe = env!("CARGO_BIN_EXE_orrery");
    let engine = env!("CARGO_BIN_EXE_spider-chess");
    let dir = std::env::temp_dir().join(format!("orrery-spider-real-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let records = dir.join("games.jsonl");
    let out = Command::new(exe)
        .args([
            "match",
            "--game",
            "spider-chess",
            "--games",
            "2",
            "--depth",
            "2",
        ])
        .args(["--maxplies", "160", "--quiet"])
        .args([
            "--engine",
            &format!("name=spider-a,cmd='{engine}',option.Hash=8"),
        ])
        .args([
            "--engine",
            &format!("name=spider-b,cmd='{engine}',proto=xboard"),
        ])
        .arg("--records")
        .arg(&records)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{stdout}");
    common::referee::assert_clean_engine_records(&records, 2);
    std::fs::remove_dir_all(&dir).unwrap();
}
