//! Replaying a records file (the referee's JSON lines, or a game saved from the board) move by
//! move: every recorded decision is played again through the rules core and the board is drawn
//! after each one, so the page's slider steps through positions the rules core produced.

use std::path::PathBuf;
use std::sync::Arc;

use serde_json::{json, Value};

use crate::games::spider::Variant;
use crate::referee::game_kind::GameKind;
use crate::referee::records::GameRecord;

use super::game::{GameChoice, TableGame};

/// Reads every game record of a records file's text (its match settings lines skipped; a bad
/// line is an error naming it), with the referee's reader.
pub fn parse_records(text: &str) -> Result<Vec<GameRecord>, String> {
    let out = crate::referee::records::RecordsFile::parse(text.as_bytes(), "records")?.games;
    if out.is_empty() {
        return Err("the records file holds no game".into());
    }
    Ok(out)
}

fn summary(i: usize, r: &GameRecord) -> Value {
    json!({
        "index": i,
        "title": format!("game {}: {} — {}", r.id + 1, r.game, r.engines.join(" vs ")),
        "result": r.result,
        "reason": r.reason,
    })
}

/// The frames of game `game` of the records in `text`: frame 0 the start, then one per decision
/// (one per simultaneous batch in Space Wars, seen from seat `seat`).
pub fn frames(
    text: &str,
    game: usize,
    seat: usize,
    variants: &[(Arc<Variant>, PathBuf)],
) -> Result<Value, String> {
    let recs = parse_records(text)?;
    let rec = recs
        .get(game)
        .ok_or_else(|| format!("the records hold {} games, not {}", recs.len(), game + 1))?;
    let kind = GameKind::parse(&rec.game)?;
    let variant = match (kind, rec.setup.as_deref()) {
        (GameKind::SpiderChess, Some(name)) if name != "spider-chess" => Some(
            variants
                .iter()
                .find(|(v, _)| v.name() == name)
                .map(|(v, _)| v.clone())
                .ok_or_else(|| {
                    format!("variant {name:?} is not loaded (orrery gui --variant FILE)")
                })?,
        ),
        _ => None,
    };
    let choice = GameChoice {
        kind,
        setup: if kind == GameKind::SpiderChess {
            None
        } else {
            rec.setup.clone()
        },
        variant,
        position: (!rec.standard_start).then(|| rec.start.clone()),
        seed: rec.block_seed,
    };
    let mut g = TableGame::new(&choice)?;
    let seats = g.dyn_game().seats();
    let seat = seat.min(seats.saturating_sub(1));
    let draw = |g: &TableGame, last| -> Value {
        if g.is_hidden() {
            g.seat_view(seat).unwrap_or(Value::Null)
        } else {
            g.board(last, false)
        }
    };
    let mut out = vec![json!({"ply": 0, "board": draw(&g, None)})];
    let mut i = 0;
    while i < rec.moves.len() {
        let deciders = g.dyn_game().to_decide();
        if deciders.is_empty() {
            return Err(format!("move {} comes after the end of the game", i + 1));
        }
        let batch: Vec<(usize, String)> = rec.moves[i..]
            .iter()
            .take(deciders.len())
            .map(|m| (m.seat, m.mv.clone()))
            .collect();
        let last = if batch.len() == 1 {
            g.spider_squares(&batch[0].1)
        } else {
            None
        };
        let r = if batch.len() == 1 {
            g.dyn_game_mut()
                .play(batch[0].0, &batch[0].1)
                .map(|_| ())
                .map_err(|r| format!("move {} ({}): {}", i + 1, batch[0].1, r.0))
        } else {
            g.dyn_game_mut()
                .play_all(&batch)
                .map(|_| ())
                .map_err(|(s, r)| format!("decisions at {} (seat {}): {}", i + 1, s + 1, r.0))
        };
        r?;
        i += batch.len();
        out.push(json!({"ply": i, "board": draw(&g, last)}));
    }
    let moves: Vec<Value> = rec
        .moves
        .iter()
        .map(
            |m| json!({"seat": m.seat, "mv": m.mv, "ms": m.ms, "score": m.score, "depth": m.depth}),
        )
        .collect();
    Ok(json!({
        "t": "replay",
        "games": recs.iter().enumerate().map(|(i, r)| summary(i, r)).collect::<Vec<_>>(),
        "game": game,
        "kind": rec.game,
        "seat": seat,
        "seats": g.seat_labels(),
        "engines": rec.engines,
        "result": rec.result,
        "reason": rec.reason,
        "hidden": g.is_hidden(),
        "moves": if g.is_hidden() { Value::Null } else { json!(moves) },
        "frames": out,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::referee::records::MoveRecord;

    fn spider_record(moves: &[&str]) -> String {
        let rec = GameRecord {
            id: 0,
            block: 0,
            block_seed: 1,
            game: "spider-chess".into(),
            setup: None,
            tc: "movetime=50ms".into(),
            engines: vec!["a".into(), "b".into()],
            engine_index: vec![0, 1],
            start: String::new(),
            standard_start: true,
            moves: moves
                .iter()
                .enumerate()
                .map(|(i, m)| MoveRecord {
                    seat: i % 2,
                    mv: m.to_string(),
                    book: false,
                    ms: 1,
                    clock_ms: None,
                    score: None,
                    depth: None,
                })
                .collect(),
            ranks: vec![1.5, 1.5],
            result: "1/2-1/2".into(),
            reason: "adjudication".into(),
            fault_seat: None,
            final_position: String::new(),
            extra: Value::Null,
            started: 0,
            duration_ms: 0,
            engine_moves: 2,
            overhead_us: 0,
        };
        rec.to_json_line()
    }

    #[test]
    fn frames_follow_the_rules_core() {
        let text = spider_record(&["m2m5", "m18m15"]);
        let v = frames(&text, 0, 0, &[]).unwrap();
        let f = v["frames"].as_array().unwrap();
        assert_eq!(f.len(), 3);
        assert_eq!(f[1]["board"]["last"], json!([[12, 1], [12, 4]]));
        assert_eq!(f[2]["board"]["side"], 0);
        let bad = spider_record(&["m2m5", "m2m6"]);
        let e = frames(&bad, 0, 0, &[]).unwrap_err();
        assert!(e.contains("move 2 (m2m6)"), "{e}");
        assert!(frames("{oops", 0, 0, &[]).is_err());
    }
}
