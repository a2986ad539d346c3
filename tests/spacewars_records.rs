//! Self-contained Space Wars records (issue 11, item 3): each recorded game reveals its whole deal,
//! every reshuffle's order and its event log; `orrery replay` replays every game from that content
//! alone (no seed) and checks the log event by event; an independent replayer written from the
//! rule book only (`tests/spacewars_replayer.py`, Python) agrees on every game; and a record whose
//! deal was tampered with is refused by both.

use std::path::{Path, PathBuf};
use std::process::Command;

use orrery::games::spacewars::heuristic;
use orrery::games::spacewars::wire::format_decision;
use orrery::games::spacewars::{AttackRole, DecisionKind, Ruleset, State};
use orrery::referee::game_adapter::DynGame;
use orrery::referee::game_runner::replay;
use orrery::referee::records::{read_records, GameRecord};
use orrery::referee::spacewars_game::SpaceWarsGame;
use serde_json::json;

fn dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("orrery-swrec-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// A match of heuristic against random players (quick, and long games with reshuffles).
fn play(records: &Path, players: &str, games: &str) {
    let exe = env!("CARGO_BIN_EXE_orrery");
    let engine = env!("CARGO_BIN_EXE_space-wars");
    let out = Command::new(exe)
        .args(["match", "--game", "space-wars", "--setup", players])
        .args(["--games", games, "--nodes", "1", "--quiet", "--seed", "11"])
        .args(["--concurrency", "2"])
        .args([
            "--engine",
            &format!("name=heur,cmd='{engine}',option.Player=heuristic"),
        ])
        .args([
            "--engine",
            &format!("name=rand,cmd='{engine}',option.Player=random"),
        ])
        .arg("--records")
        .arg(records)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}

fn python3() -> bool {
    Command::new("python3")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success())
}

fn independent_replay(records: &Path) -> (bool, String) {
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/spacewars_replayer.py");
    let out = Command::new("python3")
        .arg(script)
        .arg(records)
        .output()
        .expect("python3 runs");
    (
        out.status.success(),
        format!(
            "{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        ),
    )
}

fn write(records: &Path, recs: &[GameRecord]) {
    let text: String = recs.iter().map(|r| r.to_json_line() + "\n").collect();
    std::fs::write(records, text).unwrap();
}

#[test]
fn every_game_replays_from_its_own_content() {
    let d = dir("all");
    let mut reshuffles = 0;
    for (players, games) in [("2", 16), ("4", 8)] {
        let records = d.join(format!("games-{players}.jsonl"));
        play(&records, players, &games.to_string());
        let recs = read_records(&records).unwrap();
        assert_eq!(recs.len(), games);
        for r in &recs {
            assert!(r.fault_seat.is_none(), "engine fault: {}", r.reason);
            let deal = &r.extra["deal"];
            assert_eq!(deal["hands"].as_array().map(Vec::len), Some(r.ranks.len()));
            assert!(deal["draw"].as_array().is_some_and(|d| !d.is_empty()));
            assert!(r.extra["events"].as_array().is_some_and(|e| e.len() > 10));
            reshuffles += r.extra["reshuffles"].as_array().map_or(0, Vec::len);
            // The seed is not used: a record whose seed is wrong replays all the same.
            let mut unseeded = r.clone();
            unseeded.block_seed = unseeded.block_seed.wrapping_add(1);
            unseeded.extra["seed"] = serde_json::Value::Null;
            replay(&unseeded).unwrap_or_else(|e| panic!("game {}: {e}", r.id));
            let last = r.extra["events"].as_array().unwrap().last().unwrap();
            assert!(last.as_str().unwrap().starts_with("over "), "{last}");
        }
        // The binary's replay command agrees.
        let out = Command::new(env!("CARGO_BIN_EXE_orrery"))
            .arg("replay")
            .arg(&records)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stdout)
        );
        if python3() {
            let (ok, text) = independent_replay(&records);
            assert!(ok, "{text}");
            let want = format!("{games} games replayed, 0 mismatches");
            assert!(text.contains(&want), "{text}");
        } else {
            eprintln!("python3 is not installed: the independent replayer did not run");
        }
    }
    // Refereed games between these players end within a few rounds, long before the draw pile
    // runs out (see the long games below).
    eprintln!("{reshuffles} reshuffles in the refereed games");
    std::fs::remove_dir_all(&d).unwrap();
}

#[test]
fn a_tampered_deal_or_reshuffle_is_refused() {
    let d = dir("tamper");
    let records = d.join("games.jsonl");
    play(&records, "2", "4");
    let recs = read_records(&records).unwrap();
    let mut bad = Vec::new();
    for r in recs.iter().chain(&[long_game(5)]) {
        let drew = r.extra["events"]
            .as_array()
            .unwrap()
            .iter()
            .any(|e| e.as_str().unwrap().starts_with("drew "));
        if !drew {
            continue; // a game that ended before any card was drawn has no order to get wrong
        }
        // Two cards of the draw pile swapped: the same cards, drawn in another order.
        let mut t = r.clone();
        let draw = t.extra["deal"]["draw"].as_array_mut().unwrap();
        let k = draw.iter().position(|c| *c != draw[0]).unwrap();
        draw.swap(0, k);
        assert!(
            replay(&t).is_err(),
            "game {}: a swapped draw pile replayed",
            r.id
        );
        bad.push(t);
        // A reshuffle order missing (when the game reshuffled).
        if r.extra["reshuffles"]
            .as_array()
            .is_some_and(|o| !o.is_empty())
        {
            let mut t = r.clone();
            t.extra["reshuffles"].as_array_mut().unwrap().pop();
            assert!(
                replay(&t).is_err(),
                "game {}: a missing reshuffle replayed",
                r.id
            );
        }
    }
    assert!(!bad.is_empty(), "no game drew a card");
    if python3() {
        let tampered = d.join("tampered.jsonl");
        write(&tampered, &bad);
        let (ok, text) = independent_replay(&tampered);
        assert!(!ok, "{text}");
        assert!(
            text.contains(&format!("{} mismatches", bad.len())),
            "{text}"
        );
    }
    std::fs::remove_dir_all(&d).unwrap();
}

/// A slow decision: fighters (three ships to repair each round), and in Tactical at most one
/// laser or missile, the seat's lowest, at the first enemy ship (long games
/// with many repairs, so the draw pile runs out and the discard pile is reshuffled); anything
/// else as the heuristic decides.
fn slow_decision(state: &State, seat: u8) -> String {
    let kind = state.pending_for(seat).expect("the seat decides");
    if kind == DecisionKind::Class {
        return format!("class fighters {}", state.hand(seat as usize)[0]);
    }
    if kind != DecisionKind::Attack {
        return format_decision(&heuristic::decide(state, seat, kind), state.rules());
    }
    let rules = state.rules();
    let target = state.ships().iter().find(|s| s.alive && s.owner != seat);
    let shot = state
        .ships()
        .iter()
        .filter(|s| s.alive && s.owner == seat)
        .flat_map(|s| s.hull.iter().map(move |c| (s.id, *c)))
        .filter(|(_, c)| {
            matches!(
                rules.attack_role(*c),
                Some(AttackRole::Laser | AttackRole::Missile)
            )
        })
        .min_by_key(|(_, c)| c.value());
    match (shot, target) {
        (Some((from, card)), Some(t)) => format!("attack {}:{card}>{}", from + 1, t.id + 1),
        _ => "attack none".to_string(),
    }
}

/// A six-player game played in-process by [`slow_decision`], as the referee records it.
fn long_game(seed: u64) -> GameRecord {
    let mut g = SpaceWarsGame::new(6, seed).unwrap();
    let mut moves = Vec::new();
    while DynGame::outcome(&g).is_none() {
        let batch: Vec<(usize, String)> = DynGame::to_decide(&g)
            .into_iter()
            .map(|s| (s, slow_decision(g.state(), s as u8)))
            .collect();
        if batch.len() == 1 {
            DynGame::play(&mut g, batch[0].0, &batch[0].1).unwrap_or_else(|r| panic!("{}", r.0));
        } else {
            DynGame::play_all(&mut g, &batch).unwrap_or_else(|(_, r)| panic!("{}", r.0));
        }
        moves.extend(
            batch
                .into_iter()
                .map(|(seat, mv)| json!({"seat": seat, "mv": mv})),
        );
    }
    let o = DynGame::outcome(&g).unwrap();
    serde_json::from_value(json!({
        "id": seed, "block": 0, "block_seed": seed, "game": "space-wars", "setup": "6",
        "tc": "in-process", "engines": vec!["slow"; 6], "engine_index": [0, 1, 2, 3, 4, 5],
        "start": DynGame::start_text(&g), "standard_start": true, "moves": moves,
        "ranks": o.ranks, "result": o.result_text(), "reason": o.reason,
        "final_position": DynGame::position_text(&g), "extra": DynGame::record_extra(&g),
        "started": 0, "duration_ms": 0,
    }))
    .unwrap()
}

#[test]
fn long_games_at_the_round_limit_replay_from_their_records() {
    // Six players of fighters firing one card a round: games that run to the round limit. (Even
    // these games do not empty the draw pile; no refereed or in-process game seen so far has
    // reshuffled, so a recorded reshuffle order is checked here only when one occurs.)
    let d = dir("long");
    let records = d.join("long.jsonl");
    let recs: Vec<GameRecord> = (1..=6).map(long_game).collect();
    let limit = Ruleset::default().round_limit;
    let mut at_limit = 0;
    for r in &recs {
        if r.reason.contains("round limit")
            || r.final_position.starts_with(&format!("round={limit} "))
        {
            at_limit += 1;
            // The final position reports the round the game ended in, not one beyond the limit.
            assert!(
                r.final_position.starts_with(&format!("round={limit} ")),
                "game {}: {}",
                r.id,
                r.final_position
            );
        }
        let mut unseeded = r.clone();
        unseeded.block_seed = unseeded.block_seed.wrapping_add(1);
        let end = replay(&unseeded).unwrap_or_else(|e| panic!("game {}: {e}", r.id));
        assert_eq!(end, r.final_position);
        if let Some(last) = r.extra["reshuffles"].as_array().and_then(|o| o.last()) {
            // A reshuffle order that is not the discard pile's cards is refused.
            let mut t = r.clone();
            let n = t.extra["reshuffles"].as_array().unwrap().len();
            let mut order = last.as_array().unwrap().clone();
            order.pop();
            t.extra["reshuffles"][n - 1] = serde_json::Value::Array(order);
            assert!(
                replay(&t).is_err(),
                "game {}: a short reshuffle order replayed",
                r.id
            );
        }
    }
    assert!(
        at_limit >= 3,
        "only {at_limit} of 6 games reached the round limit"
    );
    write(&records, &recs);
    if python3() {
        let (ok, text) = independent_replay(&records);
        assert!(ok, "{text}");
        assert!(text.contains("6 games replayed, 0 mismatches"), "{text}");
    }
    std::fs::remove_dir_all(&d).unwrap();
}
