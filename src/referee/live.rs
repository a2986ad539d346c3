//! A live log of a running match (`orrery match --live FILE`): one JSON line when a game starts,
//! one per decision as it is played, one when the game ends, so that the board
//! (`orrery gui --live FILE`) can show the games while they are played. Lines of games played
//! at the same time interleave; every line names its game.

use std::fs::File;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use serde_json::{json, Value};

use super::records::MoveRecord;

/// The live log file, shared by the match's games. It is created (truncated) by its first line,
/// so that naming it (parsing `--live`) touches no file.
#[derive(Debug)]
pub struct LiveLog {
    path: PathBuf,
    file: Mutex<Option<File>>,
}

/// What a game's first live line carries.
pub struct LiveStart<'a> {
    /// Game number in the match (0-based).
    pub id: u64,
    /// Game name.
    pub game: &'a str,
    /// Setup / variant / player count.
    pub setup: Option<&'a str>,
    /// Start position text.
    pub start: &'a str,
    /// Whether that is the game's standard start.
    pub standard_start: bool,
    /// Block seed (the Space Wars deal).
    pub seed: u64,
    /// Engine name per seat.
    pub engines: &'a [String],
    /// Time control description.
    pub tc: &'a str,
    /// Opening moves already played.
    pub book: &'a [MoveRecord],
}

impl LiveLog {
    /// The live log at `path`; the first line written creates (truncates) the file.
    pub fn new(path: &Path) -> LiveLog {
        LiveLog {
            path: path.to_path_buf(),
            file: Mutex::new(None),
        }
    }

    fn line(&self, v: Value) {
        let Ok(mut guard) = self.file.lock() else {
            return;
        };
        if guard.is_none() {
            match File::create(&self.path) {
                Ok(f) => *guard = Some(f),
                Err(e) => {
                    log::warn!("live log {}: {e}", self.path.display());
                    return;
                }
            }
        }
        if let Some(f) = guard.as_mut() {
            if let Err(e) = writeln!(f, "{v}").and_then(|_| f.flush()) {
                log::warn!("live log {}: {e}", self.path.display());
            }
        }
    }

    /// A game starts.
    pub fn start(&self, s: &LiveStart<'_>) {
        self.line(json!({
            "live": "start", "id": s.id, "game": s.game, "setup": s.setup, "start": s.start,
            "standard_start": s.standard_start, "seed": s.seed, "engines": s.engines, "tc": s.tc,
            "book": s.book,
        }));
    }

    /// A decision was played (after the rules core accepted it).
    pub fn moved(&self, id: u64, m: &MoveRecord) {
        self.line(json!({"live": "move", "id": id, "move": m}));
    }

    /// The game ended.
    pub fn end(&self, id: u64, result: &str, ranks: &[f64], reason: &str) {
        self.line(
            json!({"live": "end", "id": id, "result": result, "ranks": ranks, "reason": reason}),
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn writes_one_json_line_per_event() {
        let path = std::env::temp_dir().join(format!("orrery-live-{}.jsonl", std::process::id()));
        let _ = std::fs::remove_file(&path);
        let log = LiveLog::new(&path);
        assert!(!path.exists(), "naming the log creates no file");
        log.start(&LiveStart {
            id: 3,
            game: "tic-tac-toe",
            setup: None,
            start: "x",
            standard_start: true,
            seed: 9,
            engines: &["a".into(), "b".into()],
            tc: "nodes=1",
            book: &[],
        });
        let m = MoveRecord {
            seat: 1,
            mv: "b2".into(),
            book: false,
            ms: 4,
            clock_ms: None,
            score: Some("cp 5".into()),
            depth: Some(2),
        };
        log.moved(3, &m);
        log.end(3, "1-0", &[1.0, 2.0], "three in a row");
        let text = std::fs::read_to_string(&path).unwrap();
        let lines: Vec<Value> = text
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        assert_eq!(lines.len(), 3);
        assert_eq!(lines[0]["live"], "start");
        assert_eq!(lines[1]["move"]["mv"], "b2");
        let back: MoveRecord = serde_json::from_value(lines[1]["move"].clone()).unwrap();
        assert_eq!(back, m);
        assert_eq!(lines[2]["reason"], "three in a row");
        std::fs::remove_file(&path).unwrap();
    }
}
