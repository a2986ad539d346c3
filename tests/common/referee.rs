//! Checks shared by the referee tests that run real engines through `orrery match`.

use std::path::Path;

use orrery::referee::game_runner::replay;
use orrery::referee::records::{read_records, GameRecord};

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
