//! Matches against scripted fake engines (tests/fake_engines/fake_engine.py) that crash, hang,
//! send illegal moves or garbage, flag, stay mute in the handshake, or answer correctly: every
//! outcome is recorded with the right reason, and the match completes.

use std::path::PathBuf;
use std::time::Duration;

use orrery::referee::adjudication::AdjudicationRules;
use orrery::referee::clock::TimeControl;
use orrery::referee::engine::{EngineSpec, Timeouts};
use orrery::referee::game_kind::GameKind;
use orrery::referee::game_runner::{replay, GameSettings};
use orrery::referee::match_runner::{run_match, MatchConfig, MatchSummary};
use orrery::referee::records::read_records;
use orrery::referee::stats::{Sprt, SprtDecision};

fn fake(name: &str, behaviour: &str, proto: &str) -> EngineSpec {
    fake_for(name, behaviour, proto, "tic-tac-toe")
}

fn fake_for(name: &str, behaviour: &str, proto: &str, game: &str) -> EngineSpec {
    let script =
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fake_engines/fake_engine.py");
    EngineSpec::parse(&format!(
        "name={name},cmd=python3 {} {behaviour} {game},proto={proto}",
        script.display()
    ))
    .unwrap()
}

/// The built-in random engine (a Rust binary, quick to start even on a loaded machine).
fn random_engine(name: &str) -> EngineSpec {
    EngineSpec::parse(&format!(
        "name={name},cmd='{}' random-engine --game tic-tac-toe",
        env!("CARGO_BIN_EXE_orrery")
    ))
    .unwrap()
}

fn config(
    game: GameKind,
    setup: Option<&str>,
    engines: Vec<EngineSpec>,
    games: u64,
    tc: TimeControl,
) -> MatchConfig {
    MatchConfig {
        settings: GameSettings {
            game,
            setup: setup.map(String::from),
            engines,
            tc,
            margin: Duration::from_millis(50),
            hang: Duration::from_millis(400),
            timeouts: Timeouts {
                handshake: Duration::from_secs(20),
            },
            adjudication: AdjudicationRules::default(),
            openings: Vec::new(),
            random_plies: 0,
            live: None,
        },
        games,
        concurrency: 2,
        seed: 1,
        pgn: None,
        records: None,
        sprt: None,
        rating_interval: 0,
        progress: false,
    }
}

fn movetime(ms: u64) -> TimeControl {
    TimeControl::MoveTime(Duration::from_millis(ms))
}

fn run(cfg: &MatchConfig) -> MatchSummary {
    let mut out = Vec::new();
    let s = run_match(cfg, &mut out).expect("match runs");
    let text = String::from_utf8(out).unwrap();
    assert!(text.contains("Finished"), "{text}");
    s
}

/// Both games of a pair against a faulty engine: the faulty engine loses each, with `kind` in
/// the reason, whichever seat it had; the engine is restarted for the second game.
fn faulty_pair(behaviour: &str, proto: &str, tc: TimeControl, kind: &str) {
    let mut cfg = config(
        GameKind::TicTacToe,
        None,
        vec![
            fake("good", "good", "uci"),
            fake(behaviour, behaviour, proto),
        ],
        2,
        tc,
    );
    if behaviour == "mute" {
        cfg.settings.timeouts.handshake = Duration::from_secs(3);
    }
    let s = run(&cfg);
    assert_eq!(s.played.len(), 2);
    for rec in &s.played {
        let bad_seat = rec.engine_index.iter().position(|&e| e == 1).unwrap();
        assert_eq!(rec.fault_seat, Some(bad_seat), "{rec:?}");
        assert!(rec.reason.starts_with(kind), "{behaviour}: {}", rec.reason);
        assert_eq!(rec.seat_score(bad_seat), 0.0);
        replay(rec).expect("faulted game replays");
    }
    assert_eq!(s.tally.wdl.wins, 2, "{}", s.tally.report());
}

#[test]
fn crash_is_a_loss_and_the_match_goes_on() {
    faulty_pair("crash", "uci", movetime(2000), "crash");
}

#[test]
fn hang_past_the_timeout_is_a_loss() {
    faulty_pair("hang", "uci", TimeControl::Nodes(100), "hang");
}

#[test]
fn illegal_move_is_a_loss() {
    faulty_pair("illegal", "uci", movetime(2000), "illegal move");
}

#[test]
fn garbage_is_malformed_output() {
    faulty_pair("garbage", "uci", movetime(2000), "malformed output");
    faulty_pair("garbage", "xboard", movetime(2000), "malformed output");
}

#[test]
fn flagging_is_a_time_forfeit() {
    faulty_pair(
        "flag",
        "uci",
        TimeControl::parse_tc("1+0").unwrap(),
        "time forfeit",
    );
}

#[test]
fn mute_handshake_is_a_hang() {
    faulty_pair("mute", "uci", movetime(200), "hang");
    faulty_pair("mute", "xboard", movetime(200), "hang");
}

#[test]
fn correct_engines_finish_and_replay() {
    let cfg = config(
        GameKind::TicTacToe,
        None,
        vec![
            fake("uci-engine", "good", "uci"),
            fake("xb-engine", "good", "xboard"),
        ],
        4,
        TimeControl::parse_tc("5+0.05").unwrap(),
    );
    let s = run(&cfg);
    assert_eq!(s.played.len(), 4);
    for rec in &s.played {
        // First-empty-square play: x takes a1 c1 b2 a3 and wins on the diagonal.
        assert_eq!(rec.result, "1-0", "{rec:?}");
        assert_eq!(rec.reason, "three in a row");
        assert_eq!(rec.moves.len(), 7);
        assert!(rec.moves.iter().all(|m| m.clock_ms.is_some()));
        assert_eq!(replay(rec).unwrap(), rec.final_position);
    }
    assert_eq!((s.tally.wdl.wins, s.tally.wdl.losses), (2, 2));
    assert_eq!(s.tally.penta.0, [0, 0, 2, 0, 0]);
}

#[test]
fn multi_seat_race_rotates_and_ranks() {
    let cfg = config(
        GameKind::Race,
        Some("3"),
        vec![
            fake_for("a", "good", "uci", "race"),
            fake_for("b", "good", "uci", "race"),
        ],
        3,
        TimeControl::parse_tc("5+0").unwrap(),
    );
    let s = run(&cfg);
    assert_eq!(s.played.len(), 3);
    // Everyone adds 1; the tenth decision (seat 1) reaches 10.
    assert_eq!(s.tally.wins_by_seat, vec![3, 0, 0]);
    let (a_score, a_rank) = s.tally.engine_summary(0);
    let (b_score, _) = s.tally.engine_summary(1);
    // Engine a sits in 2 of 3 seats in each game: 9 seat-games in total over both engines.
    assert_eq!(a_score.n + b_score.n, 9);
    assert!(a_rank.mean >= 1.0 && a_rank.mean <= 3.0);
    for rec in &s.played {
        assert_eq!(rec.ranks, vec![1.0, 2.5, 2.5]);
        replay(rec).unwrap();
    }
}

#[test]
fn sprt_stops_a_lopsided_match() {
    let mut cfg = config(
        GameKind::TicTacToe,
        None,
        vec![random_engine("good"), fake("bad", "illegal", "uci")],
        40,
        movetime(200),
    );
    cfg.concurrency = 1;
    cfg.sprt = Some(Sprt {
        elo0: 0.0,
        elo1: 50.0,
        alpha: 0.05,
        beta: 0.05,
    });
    let s = run(&cfg);
    assert_eq!(s.sprt_decision, Some(SprtDecision::H1));
    assert!(s.played.len() < 40, "played {}", s.played.len());
}

#[test]
fn rerun_resumes_from_the_records_file() {
    let dir = std::env::temp_dir().join(format!("orrery-resume-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let records = dir.join("games.jsonl");
    let _ = std::fs::remove_file(&records);
    let engines = vec![fake("a", "random", "uci"), fake("b", "good", "uci")];
    let mut cfg = config(GameKind::TicTacToe, None, engines, 2, movetime(200));
    cfg.records = Some(records.clone());
    let first = run(&cfg);
    assert_eq!(first.played.len(), 2);
    cfg.games = 4;
    let second = run(&cfg);
    assert_eq!(second.resumed, 2);
    assert_eq!(second.played.len(), 2);
    assert_eq!(second.tally.games, 4);
    let again = run(&cfg);
    assert_eq!(again.played.len(), 0);
    let recs = read_records(&records).unwrap();
    let mut ids: Vec<u64> = recs.iter().map(|r| r.id).collect();
    ids.sort();
    assert_eq!(ids, vec![0, 1, 2, 3]);
    for r in &recs {
        replay(r).unwrap();
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn openings_are_shared_within_a_pair() {
    let mut cfg = config(
        GameKind::TicTacToe,
        None,
        vec![fake("a", "good", "uci"), fake("b", "good", "uci")],
        4,
        movetime(200),
    );
    cfg.settings.random_plies = 2;
    cfg.seed = 11;
    let s = run(&cfg);
    let mut by_block = std::collections::HashMap::new();
    for rec in &s.played {
        let book: Vec<String> = rec
            .moves
            .iter()
            .filter(|m| m.book)
            .map(|m| m.mv.clone())
            .collect();
        assert_eq!(book.len(), 2);
        if let Some(prev) = by_block.insert(rec.block, book.clone()) {
            assert_eq!(prev, book, "pair shares its opening");
        }
        replay(rec).unwrap();
    }
}
