//! Solar Chess `six` through the `orrery` binary: two engines rotating through six seats over a
//! full rotation of 6 games, with PGN-like records and JSON records replayed by the rules core.

mod common;

use std::process::Command;

use orrery::referee::game_runner::replay;
use orrery::referee::records::read_records;

#[test]
fn solar_six_rotation_records_replay() {
    let exe = env!("CARGO_BIN_EXE_orrery");
    let dir = std::env::temp_dir().join(format!("orrery-solar-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let records = dir.join("games.jsonl");
    let pgn = dir.join("games.pgn");
    let engine = |name: &str, seed: u32| {
        format!("name={name},cmd='{exe}' random-engine --game solar-chess --seed {seed}")
    };
    let out = Command::new(exe)
        .args([
            "match",
            "--game",
            "solar-chess",
            "--setup",
            "six",
            "--games",
            "6",
        ])
        .args([
            "--depth",
            "1",
            "--maxplies",
            "90",
            "--quiet",
            "--concurrency",
            "2",
        ])
        .args([
            "--engine",
            &engine("rand-a", 1),
            "--engine",
            &engine("rand-b", 2),
        ])
        .arg("--records")
        .arg(&records)
        .arg("--pgn")
        .arg(&pgn)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{stdout}");
    assert!(stdout.contains("mean rank"), "{stdout}");
    let mut recs = read_records(&records).unwrap();
    recs.sort_by_key(|r| r.id);
    assert_eq!(recs.len(), 6);
    let mut seat_counts = [[0u32; 2]; 6];
    for r in &recs {
        assert_eq!(r.ranks.len(), 6);
        assert!(r.fault_seat.is_none(), "{}", r.reason);
        for (seat, &e) in r.engine_index.iter().enumerate() {
            seat_counts[seat][e] += 1;
        }
        assert_eq!(replay(r).unwrap(), r.final_position);
    }
    assert!(seat_counts.iter().all(|c| c == &[3, 3]), "{seat_counts:?}");
    let pgn_text = std::fs::read_to_string(&pgn).unwrap();
    assert_eq!(pgn_text.matches("[Seat6 ").count(), 6);
    assert!(pgn_text.contains("[GameSetup \"six\"]"));
    assert!(pgn_text.contains("1.1 "), "moves written <ply>.<seat>");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn real_solar_chess_engine_six_seats() {
    let exe = env!("CARGO_BIN_EXE_orrery");
    let engine = env!("CARGO_BIN_EXE_solar-chess");
    let dir = std::env::temp_dir().join(format!("orrery-solar-real-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let records = dir.join("games.jsonl");
    let out = Command::new(exe)
        .args([
            "match",
            "--game",
            "solar-chess",
            "--setup",
            "six",
            "--games",
            "6",
        ])
        .args(["--nodes", "2000", "--maxplies", "90"])
        .args(["--quiet", "--concurrency", "2"])
        .args(["--engine", &format!("name=solar-a,cmd='{engine}'")])
        .args(["--engine", &format!("name=solar-b,cmd='{engine}'")])
        .arg("--records")
        .arg(&records)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{stdout}");
    common::referee::assert_clean_engine_records(&records, 6);
    std::fs::remove_dir_all(&dir).unwrap();
}
