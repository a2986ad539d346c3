//! Matches against the misbehaving-engine kit (tests/fake_engines/fake_engine.py): engines that
//! crash, hang, flood, leave children behind, answer twice or unasked, write overlong or
//! non-text lines, refuse options, close their input or ignore `quit`. Each fault is recorded
//! with the right reason against the right seat and the match completes, or, for faults an
//! engine shows before any game (cannot start, refuses an option, never finishes its
//! handshake), the match stops before the first game with the engine's own error.
//!
//! No test here depends on the machine's speed: engines that should answer get node/depth
//! limits with a 30 s wait; only the tests about clocks use clocks, against engines that never
//! answer or sleep well past their time.

mod common;

use std::path::Path;
use std::time::Duration;

use common::referee::{fake, fake_env, orphans_left, random_engine, temp_dir};
use orrery::referee::adjudication::AdjudicationRules;
use orrery::referee::clock::TimeControl;
use orrery::referee::engine::{EngineSpec, Timeouts};
use orrery::referee::game_kind::GameKind;
use orrery::referee::game_runner::{replay, GameSettings};
use orrery::referee::match_runner::{run_match, MatchConfig, MatchSummary};
use orrery::referee::records::{read_records, read_records_file};
use orrery::referee::stats::{EloModel, Sprt, SprtDecision};

fn config(engines: Vec<EngineSpec>, games: u64, tc: TimeControl) -> MatchConfig {
    MatchConfig {
        settings: GameSettings {
            game: GameKind::TicTacToe,
            setup: None,
            engines,
            tc,
            margin: Duration::from_millis(50),
            hang: Duration::from_secs(30),
            timeouts: Timeouts {
                handshake: Duration::from_secs(30),
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
        shard: None,
        stop_file: None,
    }
}

/// No clock: engines that answer get 30 s (see the module doc).
const UNTIMED: TimeControl = TimeControl::Depth(1);

/// Runs a match on a thread, failing the test if it does not end within `limit` (a referee
/// that hangs must fail the test, not stall the suite).
fn run_within(cfg: &MatchConfig, limit: Duration) -> Result<(MatchSummary, String), String> {
    let cfg = cfg.clone();
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let mut out = Vec::new();
        let r = run_match(&cfg, &mut out).map(|s| (s, String::from_utf8(out).unwrap()));
        let _ = tx.send(r);
    });
    rx.recv_timeout(limit)
        .unwrap_or_else(|_| panic!("the match did not end within {limit:?}"))
}

fn run(cfg: &MatchConfig) -> MatchSummary {
    let (s, text) = run_within(cfg, Duration::from_secs(240)).expect("match runs");
    assert!(text.contains("Finished"), "{text}");
    s
}

/// Both games of a pair against a faulty engine: the faulty engine loses each, with `reason`
/// at the start of the reason (after `<kind>: seat N (<name>)`), whichever seat it had; the
/// engine is restarted for the second game. Returns the reasons.
fn faulty_pair_with(mut cfg: MatchConfig, kind: &str) -> Vec<String> {
    cfg.games = 2;
    let s = run(&cfg);
    assert_eq!(s.played.len(), 2);
    let bad_name = cfg.settings.engines[1].name.clone();
    let mut reasons = Vec::new();
    for rec in &s.played {
        let bad_seat = rec.engine_index.iter().position(|&e| e == 1).unwrap();
        assert_eq!(rec.fault_seat, Some(bad_seat), "{rec:?}");
        let who = format!("{kind}: seat {} ({bad_name})", bad_seat + 1);
        assert!(rec.reason.starts_with(&who), "want {who:?}: {}", rec.reason);
        assert_eq!(rec.seat_score(bad_seat), 0.0);
        replay(rec).expect("faulted game replays");
        reasons.push(rec.reason.clone());
    }
    assert_eq!(s.tally.wdl.wins, 2, "{}", s.tally.report());
    reasons
}

fn faulty_pair(behaviour: &str, proto: &str, tc: TimeControl, kind: &str) -> Vec<String> {
    let cfg = config(
        vec![
            fake("good", "good", proto),
            fake(behaviour, behaviour, proto),
        ],
        2,
        tc,
    );
    faulty_pair_with(cfg, kind)
}

/// A match whose second engine fails before the first game: the error names it and says why.
fn fails_before_the_match(cfg: &MatchConfig) -> String {
    match run_within(cfg, Duration::from_secs(120)) {
        Ok((s, text)) => panic!("the match ran: {} games\n{text}", s.played.len()),
        Err(e) => e,
    }
}

#[test]
fn crash_is_a_loss_with_the_exit_status() {
    for proto in ["uci", "xboard"] {
        for r in faulty_pair("crash", proto, UNTIMED, "crash") {
            assert!(r.contains("engine exited (exit status 3)"), "{r}");
        }
    }
}

#[test]
fn a_crash_reason_ends_with_the_tail_of_stderr() {
    for r in faulty_pair("stderr-crash", "uci", UNTIMED, "crash") {
        assert!(r.ends_with("stderr: fatal: out of cheese"), "{r}");
    }
}

#[test]
fn exit_in_the_middle_of_a_game_is_a_crash() {
    for proto in ["uci", "xboard"] {
        for r in faulty_pair("exit-mid-game", proto, UNTIMED, "crash") {
            assert!(r.contains("exit status 4"), "{r}");
        }
    }
}

#[test]
fn hang_past_the_timeout_is_a_loss() {
    let mut cfg = config(
        vec![fake("good", "good", "uci"), fake("hang", "hang", "uci")],
        2,
        TimeControl::Nodes(100),
    );
    cfg.settings.hang = Duration::from_secs(5);
    faulty_pair_with(cfg, "hang");
}

#[test]
fn illegal_move_is_a_loss() {
    for r in faulty_pair("illegal", "uci", UNTIMED, "illegal move") {
        // An occupied square, or z9 on the empty board.
        assert!(r.contains(": sent \""), "{r}");
        assert!(
            r.contains("occupied") || r.contains("\"z9\" is not a square"),
            "{r}"
        );
    }
}

#[test]
fn garbage_is_malformed_output() {
    faulty_pair("garbage", "uci", UNTIMED, "malformed output");
    faulty_pair("garbage", "xboard", UNTIMED, "malformed output");
    faulty_pair("non-utf8", "uci", UNTIMED, "malformed output");
}

#[test]
fn text_after_the_move_is_refused() {
    // UCI: the whole rest of the line is the decision (Space Wars decisions have spaces), which
    // the rules refuse; CECP: a `move` line has one move.
    faulty_pair("garbage-after", "uci", UNTIMED, "illegal move");
    faulty_pair("garbage-after", "xboard", UNTIMED, "malformed output");
}

#[test]
fn a_time_forfeit_names_seat_engine_and_the_overrun() {
    for proto in ["uci", "xboard"] {
        let tc = TimeControl::parse_tc("3+0").unwrap();
        for r in faulty_pair("flag", proto, tc, "time forfeit") {
            // The flagging engine sleeps 1.5 s past its clock: no answer at all in time.
            assert!(r.contains(": did not answer within "), "{r}");
            assert!(r.contains(" ms for the move + 50.000 ms margin)"), "{r}");
        }
    }
}

#[test]
fn a_flood_is_a_fault_and_the_deadline_holds() {
    // Node-limited, so only the flood limit can end the wait before the 30 s hang timeout.
    for proto in ["uci", "xboard"] {
        for r in faulty_pair("flood", proto, UNTIMED, "malformed output") {
            assert!(r.contains("output flood: "), "{r}");
        }
    }
    // A steady trickle below the flood limit still loses on time.
    faulty_pair(
        "slow-flood",
        "uci",
        TimeControl::MoveTime(Duration::from_millis(300)),
        "time forfeit",
    );
}

#[test]
fn overlong_lines_are_not_stored() {
    for r in faulty_pair("huge-line", "uci", UNTIMED, "malformed output") {
        assert!(r.contains("a line of 5000012 bytes"), "{r}");
    }
    for r in faulty_pair("huge-token", "uci", UNTIMED, "malformed output") {
        assert!(r.contains("a line of 5000009 bytes"), "{r}");
    }
    // Under the line limit, the token is refused by the rules and quoted cut short.
    for r in faulty_pair("long-token", "xboard", UNTIMED, "illegal move") {
        assert!(r.contains("(20000 bytes)"), "{r}");
        assert!(r.len() < 400, "{}", r.len());
    }
}

#[test]
fn a_5_mb_move_token_stays_out_of_the_records_and_the_pgn() {
    let dir = temp_dir("huge-token-records");
    let records = dir.join("games.jsonl");
    let mut cfg = config(
        vec![
            fake("good", "good", "uci"),
            fake("huge", "huge-token", "uci"),
        ],
        2,
        UNTIMED,
    );
    cfg.records = Some(records.clone());
    faulty_pair_with(cfg, "malformed output");
    let size = std::fs::metadata(&records).unwrap().len();
    assert!(size < 10_000, "records file of {size} bytes");
    for rec in read_records(&records).unwrap() {
        assert!(
            rec.reason.contains("a line of 5000009 bytes"),
            "{}",
            rec.reason
        );
        let text = orrery::referee::records::pgn(&rec, "test", None);
        assert!(text.len() < 5_000, "PGN of {} bytes", text.len());
        assert!(!text.contains("qqqqqqqqqq"), "{text}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_second_answer_to_one_go_is_a_protocol_fault() {
    for proto in ["uci", "xboard"] {
        for behaviour in ["double-answer", "late-answer"] {
            for r in faulty_pair(behaviour, proto, UNTIMED, "protocol fault") {
                assert!(r.contains("unsolicited"), "{behaviour} {proto}: {r}");
            }
        }
    }
}

#[test]
fn an_answer_before_go_is_a_protocol_fault() {
    // CECP: right after `new`, in the game.
    faulty_pair("answer-before-go", "xboard", UNTIMED, "protocol fault");
    // UCI: right after `ucinewgame`, which the check before the match already sees.
    let cfg = config(
        vec![
            fake("good", "good", "uci"),
            fake("early", "answer-before-go", "uci"),
        ],
        2,
        UNTIMED,
    );
    let e = fails_before_the_match(&cfg);
    assert!(e.starts_with("engine early (cmd="), "{e}");
    assert!(
        e.contains("protocol fault: unsolicited \"bestmove a1\" between searches"),
        "{e}"
    );
}

#[test]
fn an_error_reply_to_the_position_is_a_protocol_fault() {
    for proto in ["uci", "xboard"] {
        for r in faulty_pair("error-on-position", proto, UNTIMED, "protocol fault") {
            assert!(r.contains("do not like this"), "{r}");
        }
    }
}

#[test]
fn partial_lines_are_joined_and_a_half_line_at_exit_is_a_crash() {
    let cfg = config(
        vec![fake("a", "good", "uci"), fake("b", "partial-line", "uci")],
        2,
        UNTIMED,
    );
    let s = run(&cfg);
    assert!(
        s.played.iter().all(|r| r.fault_seat.is_none()),
        "{:?}",
        s.played
    );
    for r in faulty_pair("partial-exit", "uci", UNTIMED, "crash") {
        assert!(r.contains("leaving an unfinished line \"bestmove "), "{r}");
    }
}

#[test]
fn a_child_holding_stdout_is_ended_with_its_engine() {
    let dir = temp_dir("orphans");
    let pids = dir.join("pids");
    let cfg = config(
        vec![
            fake("a", "good", "uci"),
            fake_env("b", "child-stdout", "uci", "tic-tac-toe", &pids),
        ],
        2,
        UNTIMED,
    );
    let s = run(&cfg);
    assert!(
        s.played.iter().all(|r| r.fault_seat.is_none()),
        "{:?}",
        s.played
    );
    let left = orphans_left(&pids);
    assert!(left.is_empty(), "processes left running: {left:?}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn an_engine_that_exits_leaving_a_child_is_a_crash_not_a_time_forfeit() {
    let dir = temp_dir("exit-child");
    let pids = dir.join("pids");
    let cfg = config(
        vec![
            fake("a", "good", "uci"),
            fake_env("b", "exit-leave-child", "uci", "tic-tac-toe", &pids),
        ],
        2,
        TimeControl::MoveTime(Duration::from_secs(20)),
    );
    for r in faulty_pair_with(cfg, "crash") {
        assert!(r.contains("engine exited (exit status 0)"), "{r}");
    }
    let left = orphans_left(&pids);
    assert!(left.is_empty(), "processes left running: {left:?}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn an_engine_that_ignores_quit_is_killed() {
    let dir = temp_dir("ignore-quit");
    let pids = dir.join("pids");
    let cfg = config(
        vec![
            fake("a", "good", "uci"),
            fake_env("b", "ignore-quit", "uci", "tic-tac-toe", &pids),
        ],
        2,
        UNTIMED,
    );
    let s = run(&cfg);
    assert!(
        s.played.iter().all(|r| r.fault_seat.is_none()),
        "{:?}",
        s.played
    );
    let left = orphans_left(&pids);
    assert!(left.is_empty(), "processes left running: {left:?}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn an_engine_that_closes_its_input_is_a_crash() {
    for r in faulty_pair("close-stdin", "uci", UNTIMED, "crash") {
        assert!(r.contains("engine input closed"), "{r}");
    }
}

#[test]
fn stderr_without_end_does_not_disturb_the_game() {
    let cfg = config(
        vec![
            fake("a", "good", "uci"),
            fake("b", "stderr-flood", "xboard"),
        ],
        2,
        UNTIMED,
    );
    let s = run(&cfg);
    assert!(
        s.played.iter().all(|r| r.fault_seat.is_none()),
        "{:?}",
        s.played
    );
}

#[test]
fn an_engine_that_cannot_start_stops_the_match_with_its_own_error() {
    let mut cfg = config(
        vec![
            fake("good", "good", "uci"),
            EngineSpec::parse("name=nosuch,cmd=/no/such/engine").unwrap(),
        ],
        40,
        UNTIMED,
    );
    cfg.sprt = Some(Sprt {
        elo0: 0.0,
        elo1: 10.0,
        alpha: 0.05,
        beta: 0.05,
        model: EloModel::Logistic,
    });
    let e = fails_before_the_match(&cfg);
    assert!(
        e.starts_with(
            "engine nosuch (cmd=/no/such/engine) failed before the first game: crash: engine exited (exit status 127)"
        ),
        "{e}"
    );
    assert!(
        e.contains("stderr: ") && e.contains("/no/such/engine"),
        "{e}"
    );
}

#[test]
fn options_the_engine_refuses_stop_the_match_before_the_first_game() {
    for (proto, option, needle) in [
        (
            "uci",
            "option.Hash=abc",
            "option Hash=\"abc\": the engine takes an integer from 1 to 1024",
        ),
        (
            "uci",
            "option.NoSuch=1",
            "the engine does not offer option \"NoSuch\" (it offers: Hash, Style)",
        ),
        (
            "xboard",
            "option.Hash=4096",
            "option Hash=\"4096\": the engine takes an integer from 1 to 1024",
        ),
        (
            "xboard",
            "option.Style=x",
            "the engine does not offer option \"Style\" (it offers: Hash)",
        ),
    ] {
        let mut bad = fake("picky", "good", proto);
        bad.options = vec![option
            .trim_start_matches("option.")
            .split_once('=')
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .unwrap()];
        let cfg = config(vec![fake("good", "good", proto), bad], 2, UNTIMED);
        let e = fails_before_the_match(&cfg);
        assert!(
            e.contains(&format!("setup error: {needle}")),
            "{proto} {option}: {e}"
        );
    }
    // An option the engine offers but answers with an error: the engine's own line.
    for (proto, option) in [("uci", ("Style", "wild")), ("xboard", ("Hash", "64"))] {
        let mut bad = fake("refuser", "refuse-options", proto);
        bad.options = vec![(option.0.into(), option.1.into())];
        let cfg = config(vec![fake("good", "good", proto), bad], 2, UNTIMED);
        let e = fails_before_the_match(&cfg);
        assert!(e.contains("setup error: engine error: "), "{proto}: {e}");
        assert!(e.contains("this engine takes no options"), "{proto}: {e}");
    }
}

#[test]
fn a_handshake_that_never_ends_stops_the_match() {
    for proto in ["uci", "xboard"] {
        let mut cfg = config(
            vec![fake("good", "good", proto), fake("mute", "mute", proto)],
            2,
            UNTIMED,
        );
        cfg.settings.timeouts.handshake = Duration::from_secs(3);
        let e = fails_before_the_match(&cfg);
        assert!(e.contains("failed before the first game: hang: no "), "{e}");
        let mut cfg = config(
            vec![
                fake("good", "good", proto),
                fake("chatty", "flood-handshake", proto),
            ],
            2,
            UNTIMED,
        );
        cfg.settings.timeouts.handshake = Duration::from_secs(60);
        let e = fails_before_the_match(&cfg);
        assert!(e.contains("malformed output: output flood"), "{e}");
    }
}

#[test]
fn a_slow_handshake_within_the_timeout_is_fine() {
    let cfg = config(
        vec![
            fake("good", "good", "uci"),
            fake("slow", "slow-handshake", "xboard"),
        ],
        2,
        UNTIMED,
    );
    let s = run(&cfg);
    assert!(
        s.played.iter().all(|r| r.fault_seat.is_none()),
        "{:?}",
        s.played
    );
}

#[test]
fn correct_engines_finish_and_replay() {
    let cfg = config(
        vec![
            fake("uci-engine", "good", "uci"),
            fake("xb-engine", "good", "xboard"),
        ],
        4,
        TimeControl::parse_tc("30+0.05").unwrap(),
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
    let mut cfg = config(
        vec![
            common::referee::fake_for("a", "good", "uci", "race"),
            common::referee::fake_for("b", "good", "uci", "race"),
        ],
        3,
        UNTIMED,
    );
    cfg.settings.game = GameKind::Race;
    cfg.settings.setup = Some("3".into());
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
        vec![random_engine("good"), fake("bad", "illegal", "uci")],
        40,
        UNTIMED,
    );
    cfg.concurrency = 1;
    cfg.sprt = Some(Sprt {
        elo0: 0.0,
        elo1: 100.0,
        alpha: 0.05,
        beta: 0.05,
        model: EloModel::Logistic,
    });
    let (s, text) = run_within(&cfg, Duration::from_secs(240)).expect("match runs");
    assert_eq!(s.sprt_decision, Some(SprtDecision::H1));
    // Every pair won twice: the LLR passes 2.944 at the 12th pair (game 24); the one worker
    // may already have started game 25, which is finished and counted.
    assert_eq!(s.tally.penta.pairs(), 12, "{}", s.tally.report());
    assert!((24..=25).contains(&s.played.len()), "{}", s.tally.report());
    // The stop line says where the bound was crossed, not the final tally's LLR.
    let stop = text
        .lines()
        .find(|l| l.starts_with("SPRT stopped the match: H1 accepted at game 24 (LLR "))
        .unwrap_or_else(|| panic!("no stop line: {text}"));
    let llr: f64 = stop.split("(LLR ").nth(1).unwrap()[..5].parse().unwrap();
    assert!(llr >= 2.944, "{stop}");
}

#[test]
fn two_equal_engines_do_not_decide_an_sprt_in_two_games() {
    let mut cfg = config(
        vec![fake("a", "good", "uci"), fake("b", "good", "uci")],
        2,
        UNTIMED,
    );
    cfg.sprt = Some(Sprt {
        elo0: 0.0,
        elo1: 10.0,
        alpha: 0.05,
        beta: 0.05,
        model: EloModel::Logistic,
    });
    let (s, text) = run_within(&cfg, Duration::from_secs(120)).unwrap();
    assert_eq!(s.sprt_decision, None, "{text}");
    // One 1-1 pair: LLR -0.025 (the old normal approximation said 3.79, H1 accepted).
    assert!(
        text.contains(
            "SPRT [0, 10] logistic, alpha 0.05, beta 0.05: LLR -0.025 (-2.944, 2.944) continue"
        ),
        "{text}"
    );
    assert!(
        text.contains("Elo difference: 0.0 (no interval: 1 pair without variance)"),
        "{text}"
    );
}

fn records_config(records: &Path, games: u64) -> MatchConfig {
    let engines = vec![fake("a", "random", "uci"), fake("b", "good", "uci")];
    let mut cfg = config(engines, games, UNTIMED);
    cfg.records = Some(records.to_path_buf());
    cfg
}

#[test]
fn rerun_resumes_from_the_records_file() {
    let dir = temp_dir("resume");
    let records = dir.join("games.jsonl");
    let mut cfg = records_config(&records, 2);
    let first = run(&cfg);
    assert_eq!(first.played.len(), 2);
    cfg.games = 4;
    let second = run(&cfg);
    assert_eq!(second.resumed, 2);
    assert_eq!(second.played.len(), 2);
    assert_eq!(second.tally.games, 4);
    let again = run(&cfg);
    assert_eq!(again.played.len(), 0);
    let file = read_records_file(&records).unwrap();
    assert_eq!(file.settings.len(), 2, "one settings line per --games");
    let mut ids: Vec<u64> = file.games.iter().map(|r| r.id).collect();
    ids.sort();
    assert_eq!(ids, vec![0, 1, 2, 3]);
    for r in &file.games {
        replay(r).unwrap();
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn resume_after_a_torn_write_keeps_the_file_valid() {
    let dir = temp_dir("torn");
    let records = dir.join("games.jsonl");
    let mut cfg = records_config(&records, 2);
    run(&cfg);
    // A kill in the middle of writing a third record leaves half a line.
    let mut bytes = std::fs::read(&records).unwrap();
    let whole = bytes.clone();
    let last_line_start = whole[..whole.len() - 1]
        .iter()
        .rposition(|&b| b == b'\n')
        .unwrap()
        + 1;
    bytes.extend_from_slice(&whole[last_line_start..last_line_start + 40]);
    std::fs::write(&records, &bytes).unwrap();
    cfg.games = 4;
    for _ in 0..3 {
        let s = run(&cfg);
        assert_eq!(s.tally.games, 4);
        let text = std::fs::read_to_string(&records).unwrap();
        assert!(text.ends_with('\n'));
        for line in text.lines() {
            serde_json::from_str::<serde_json::Value>(line)
                .unwrap_or_else(|e| panic!("not a JSON line ({e}): {line}"));
        }
        let mut ids: Vec<u64> = read_records(&records)
            .unwrap()
            .iter()
            .map(|r| r.id)
            .collect();
        ids.sort();
        assert_eq!(ids, vec![0, 1, 2, 3], "each game once");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn resume_refuses_other_settings_naming_the_difference() {
    let dir = temp_dir("settings");
    let records = dir.join("games.jsonl");
    let cfg = records_config(&records, 4);
    run(&cfg);
    let before = std::fs::read(&records).unwrap();
    let mut other_tc = cfg.clone();
    other_tc.settings.tc = TimeControl::MoveTime(Duration::from_millis(100));
    let mut other_name = cfg.clone();
    other_name.settings.engines[1].name = "c".into();
    let mut fewer = cfg.clone();
    fewer.games = 2;
    let mut other_seed = cfg.clone();
    other_seed.seed = 2;
    for (c, needle) in [
        (
            &other_tc,
            "time control (--tc/--movetime/--nodes/--depth): recorded depth=1, now movetime=100ms",
        ),
        (&other_name, "--engine 2: recorded name=b,"),
        (&fewer, "--games: recorded 4, now 2"),
        (&other_seed, "--seed: recorded 1, now 2"),
    ] {
        let e = run_within(c, Duration::from_secs(60))
            .map(|_| ())
            .unwrap_err();
        assert!(e.contains("holds another match"), "{e}");
        assert!(e.contains(needle), "{needle}: {e}");
        assert_eq!(std::fs::read(&records).unwrap(), before, "file unchanged");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_records_file_in_use_is_refused() {
    let dir = temp_dir("locked");
    let records = dir.join("games.jsonl");
    let cfg = records_config(&records, 2);
    let settings = orrery::referee::match_settings::MatchSettings::of(&cfg);
    let (_held, _) = orrery::referee::records::RecordsWriter::open(&records, &settings).unwrap();
    let e = run_within(&cfg, Duration::from_secs(60))
        .map(|_| ())
        .unwrap_err();
    assert!(e.contains("another orrery is writing this file"), "{e}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn openings_are_shared_within_a_pair() {
    let mut cfg = config(
        vec![fake("a", "good", "uci"), fake("b", "good", "uci")],
        4,
        UNTIMED,
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

#[test]
fn random_plies_never_end_the_game() {
    // Tic-tac-toe lasts at most 9 plies: 8 random plies must stop short of a finished game
    // instead of failing the match.
    let mut cfg = config(
        vec![fake("a", "good", "uci"), fake("b", "good", "uci")],
        8,
        UNTIMED,
    );
    cfg.settings.random_plies = 8;
    let s = run(&cfg);
    assert_eq!(s.played.len(), 8);
    for rec in &s.played {
        assert!(
            rec.moves.iter().any(|m| !m.book),
            "an engine moved: {rec:?}"
        );
        replay(rec).unwrap();
    }
}
