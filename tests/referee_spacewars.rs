//! Space Wars with four players through the `orrery` binary and the real `space-wars` engine:
//! the referee deals from the block seed, every seat sees only its observation, all four games
//! of a rotation share the deal, and every record (seed + decisions) replays to its result with
//! the hidden cards revealed.

use std::process::Command;

use orrery::referee::game_runner::replay;
use orrery::referee::records::read_records;

#[test]
fn four_player_rotation_replays() {
    let exe = env!("CARGO_BIN_EXE_orrery");
    let engine = env!("CARGO_BIN_EXE_space-wars");
    let dir = std::env::temp_dir().join(format!("orrery-sw-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let records = dir.join("games.jsonl");
    let out = Command::new(exe)
        .args([
            "match",
            "--game",
            "space-wars",
            "--setup",
            "4",
            "--games",
            "4",
        ])
        .args(["--nodes", "200", "--quiet", "--concurrency", "2"])
        .args(["--engine", &format!("name=sw-a,cmd='{engine}'")])
        .args(["--engine", &format!("name=sw-b,cmd='{engine}'")])
        .arg("--records")
        .arg(&records)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{stdout}");
    let mut recs = read_records(&records).unwrap();
    recs.sort_by_key(|r| r.id);
    assert_eq!(recs.len(), 4);
    for r in &recs {
        assert!(r.fault_seat.is_none(), "engine fault: {}", r.reason);
        assert_eq!(r.ranks.len(), 4);
        assert_eq!(r.block_seed, recs[0].block_seed, "one deal per rotation");
        assert_eq!(r.extra["seed"].as_u64(), Some(r.block_seed));
        assert_eq!(r.extra["final_hands"].as_array().map(|a| a.len()), Some(4));
        assert!(
            r.moves.iter().any(|m| m.mv.starts_with("attack")),
            "{:?}",
            r.moves
        );
        replay(r).unwrap_or_else(|e| panic!("game {}: {e}", r.id));
    }
    std::fs::remove_dir_all(&dir).unwrap();
}
