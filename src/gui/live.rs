//! Watching a running `orrery match` live: the match writes a live log (`orrery match --live
//! FILE`, [`crate::referee::live`]); the board tails it and opens a watch-only table per game,
//! whose decisions come from the log and are checked and applied by the rules core like any
//! other. Watchers see the board, the engines' scores and depths as recorded, and the result.

use std::collections::HashMap;
use std::io::{Read, Seek, SeekFrom};
use std::path::PathBuf;
use std::sync::mpsc::Sender;
use std::sync::Arc;
use std::time::Duration;

use serde_json::Value;

use crate::referee::clock::TimeControl;
use crate::referee::game_kind::GameKind;
use crate::referee::records::MoveRecord;

use super::game::GameChoice;
use super::server::App;
use super::table::{Player, TableMsg, TableSetup};

/// Reads a time control back from its record text (`10+0.1`, `movetime=100ms`, `nodes=1000`).
pub fn parse_tc_text(text: &str) -> Option<TimeControl> {
    if let Some(ms) = text
        .strip_prefix("movetime=")
        .and_then(|t| t.strip_suffix("ms"))
    {
        return ms
            .parse()
            .ok()
            .map(|ms| TimeControl::MoveTime(Duration::from_millis(ms)));
    }
    if let Some(n) = text.strip_prefix("nodes=") {
        return n.parse().ok().map(TimeControl::Nodes);
    }
    TimeControl::parse_tc(text).ok()
}

/// Starts a thread that tails `path` and opens a table for every game started in it.
pub(crate) fn watch(app: Arc<App>, path: PathBuf) -> Result<(), String> {
    std::thread::Builder::new()
        .name("gui-live".into())
        .spawn(move || tail(app, path))
        .map(|_| ())
        .map_err(|e| format!("gui: cannot watch the live log: {e}"))
}

fn tail(app: Arc<App>, path: PathBuf) {
    let mut offset = 0u64;
    let mut partial = String::new();
    let mut games: HashMap<u64, Sender<TableMsg>> = HashMap::new();
    loop {
        if let Ok(mut f) = std::fs::File::open(&path) {
            let len = f.metadata().map(|m| m.len()).unwrap_or(0);
            if len < offset {
                // A new match truncated the file: start over.
                offset = 0;
                partial.clear();
                games.clear();
            }
            let mut chunk = String::new();
            if f.seek(SeekFrom::Start(offset)).is_ok() && f.read_to_string(&mut chunk).is_ok() {
                offset += chunk.len() as u64;
                partial.push_str(&chunk);
                while let Some(i) = partial.find('\n') {
                    let line: String = partial.drain(..=i).collect();
                    if let Ok(v) = serde_json::from_str::<Value>(line.trim()) {
                        event(&app, &mut games, &v);
                    } else if !line.trim().is_empty() {
                        log::warn!("live log: not a JSON line: {}", line.trim());
                    }
                }
            }
        }
        std::thread::sleep(Duration::from_millis(250));
    }
}

fn event(app: &App, games: &mut HashMap<u64, Sender<TableMsg>>, v: &Value) {
    let Some(id) = v["id"].as_u64() else {
        return;
    };
    match v["live"].as_str() {
        Some("start") => {
            let Ok(kind) = GameKind::parse(v["game"].as_str().unwrap_or("")) else {
                return;
            };
            let engines: Vec<String> = v["engines"]
                .as_array()
                .map(|a| {
                    a.iter()
                        .filter_map(|e| e.as_str().map(String::from))
                        .collect()
                })
                .unwrap_or_default();
            let standard = v["standard_start"].as_bool().unwrap_or(true);
            let setup = TableSetup {
                choice: GameChoice {
                    kind,
                    setup: v["setup"].as_str().map(String::from),
                    variant: None,
                    position: (!standard)
                        .then(|| v["start"].as_str().map(String::from))
                        .flatten(),
                    seed: v["seed"].as_u64().unwrap_or(1),
                },
                players: engines.into_iter().map(Player::Remote).collect(),
                tc: parse_tc_text(v["tc"].as_str().unwrap_or(""))
                    .unwrap_or(TimeControl::MoveTime(Duration::from_secs(1))),
                timeouts: app.timeouts(),
            };
            match app.open_table(setup) {
                Ok((_, tx)) => {
                    let book: Vec<MoveRecord> =
                        serde_json::from_value(v["book"].clone()).unwrap_or_default();
                    for m in book {
                        let _ = tx.send(TableMsg::Remote(m));
                    }
                    games.insert(id, tx);
                }
                Err(e) => log::warn!("live log: game {}: {e}", id + 1),
            }
        }
        Some("move") => {
            if let (Some(tx), Ok(m)) = (
                games.get(&id),
                serde_json::from_value::<MoveRecord>(v["move"].clone()),
            ) {
                let _ = tx.send(TableMsg::Remote(m));
            }
        }
        Some("end") => {
            if let Some(tx) = games.get(&id) {
                let ranks: Vec<f64> =
                    serde_json::from_value(v["ranks"].clone()).unwrap_or_default();
                let reason = v["reason"].as_str().unwrap_or("").to_string();
                let _ = tx.send(TableMsg::RemoteEnd { ranks, reason });
            }
        }
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn time_control_texts_read_back() {
        for tc in [
            TimeControl::MoveTime(Duration::from_millis(100)),
            TimeControl::Nodes(5000),
            TimeControl::parse_tc("10+0.1").unwrap(),
        ] {
            assert_eq!(parse_tc_text(&tc.describe()), Some(tc));
        }
        assert_eq!(parse_tc_text("bogus"), None);
    }
}
