//! The UCI-style dialect of the engine loop, driven in-process against the toy game.

mod common;

use std::time::{Duration, Instant};

use common::engine_io::EngineIo;
use common::toy::Toy;
use orrery::search::Clock;

fn started() -> (
    EngineIo,
    std::sync::Arc<std::sync::Mutex<common::toy::ToyLog>>,
) {
    let (toy, log) = Toy::new();
    let mut io = EngineIo::in_process(toy);
    io.send("uci");
    io.until_line("uciok");
    (io, log)
}

/// Lines before `readyok` after sending `isready`.
fn sync(io: &mut EngineIo) -> Vec<String> {
    io.send("isready");
    let mut got = io.until_line("readyok");
    got.pop();
    got
}

fn bestmove(io: &mut EngineIo) -> (Vec<String>, String) {
    let got = io.until("bestmove", |l| l.starts_with("bestmove "));
    let mv = got.last().unwrap()["bestmove ".len()..].to_string();
    (got, mv)
}

#[test]
fn handshake_lists_identity_and_options() {
    let (toy, _) = Toy::new();
    let mut io = EngineIo::in_process(toy);
    io.send("uci");
    let got = io.until_line("uciok");
    assert_eq!(got[0], "id name Toy k-in-a-row");
    assert!(got[1].starts_with("id author "));
    let hash = format!(
        "option name Hash type spin default 16 min 1 max {}",
        orrery::protocol::hash_max_mib()
    );
    for want in [
        hash.as_str(),
        "option name Move Overhead type spin default 30 min 0 max 10000",
        "option name UCI_Variant type combo default tictactoe var tictactoe var trio",
        "option name Tie Break type combo default first var first var last",
    ] {
        assert!(got.iter().any(|l| l == want), "missing {want}: {got:?}");
    }
    assert_eq!(sync(&mut io), Vec::<String>::new());
}

#[test]
fn first_line_need_not_be_uci() {
    let (toy, _) = Toy::new();
    let mut io = EngineIo::in_process(toy);
    io.send("isready");
    io.until_line("readyok");
    io.send("go perft 1");
    let got = io.until("total", |l| l.starts_with("Nodes searched"));
    assert_eq!(got.last().unwrap(), "Nodes searched: 9");
}

#[test]
fn go_prints_info_and_exactly_one_legal_bestmove() {
    let (mut io, _) = started();
    io.send("position startpos moves b2");
    io.send("go depth 3");
    let (got, mv) = bestmove(&mut io);
    let infos: Vec<&String> = got.iter().filter(|l| l.starts_with("info depth")).collect();
    assert_eq!(infos.len(), 3, "{got:?}");
    for (i, l) in infos.iter().enumerate() {
        let w: Vec<&str> = l.split_whitespace().collect();
        assert_eq!(w[2], (i + 1).to_string());
        for key in ["seldepth", "score", "nodes", "nps", "time", "pv"] {
            assert!(w.contains(&key), "{key} missing in {l}");
        }
        assert_eq!(w[w.iter().position(|x| *x == "score").unwrap() + 1], "cp");
    }
    assert_ne!(mv, "b2");
    assert!(matches!(mv.as_bytes(), [b'a'..=b'c', b'1'..=b'3']), "{mv}");
    assert!(sync(&mut io).iter().all(|l| !l.starts_with("bestmove")));
}

#[test]
fn full_self_play_game_ends_with_bestmove_0000() {
    let (mut io, _) = started();
    let mut moves: Vec<String> = Vec::new();
    loop {
        io.send(&format!("position startpos moves {}", moves.join(" ")));
        io.send("go depth 9");
        let (got, mv) = bestmove(&mut io);
        if mv == "0000" {
            assert!(
                got.iter()
                    .any(|l| l == "info string game over: draw by full board"),
                "{got:?}"
            );
            break;
        }
        assert!(!moves.contains(&mv), "{mv} played twice");
        moves.push(mv);
        assert!(moves.len() <= 9);
    }
    // Perfect play draws tic-tac-toe: the board is full.
    assert_eq!(moves.len(), 9, "{moves:?}");
}

#[test]
fn mate_scores_are_reported_in_moves() {
    let (mut io, _) = started();
    // x to move wins at once on c3 (diagonal a1-b2-c3).
    io.send("position fen .../ox./x.o x");
    io.send("go depth 2");
    let (got, mv) = bestmove(&mut io);
    assert_eq!(mv, "c3");
    assert!(got.iter().any(|l| l.contains("score mate 1")), "{got:?}");
}

#[test]
fn isready_during_search_and_stop_gives_one_bestmove_quickly() {
    let (mut io, _) = started();
    io.send("go infinite");
    std::thread::sleep(Duration::from_millis(30));
    io.send("isready");
    let got = io.until_line("readyok");
    assert!(got.iter().all(|l| !l.starts_with("bestmove")), "{got:?}");
    let t = Instant::now();
    io.send("stop");
    let (_, mv) = bestmove(&mut io);
    let latency = t.elapsed();
    eprintln!("stop -> bestmove: {latency:?}");
    assert!(latency < Duration::from_millis(500), "{latency:?}");
    assert_ne!(mv, "0000");
    io.send("stop");
    assert!(sync(&mut io).iter().all(|l| !l.starts_with("bestmove")));
}

#[test]
fn position_and_go_during_a_search_stop_it_first() {
    let (mut io, log) = started();
    io.send("go infinite");
    io.send("position startpos moves a1 b2");
    io.send("go perft 1");
    let got = io.until("total", |l| l.starts_with("Nodes searched"));
    assert_eq!(
        got.iter().filter(|l| l.starts_with("bestmove")).count(),
        1,
        "{got:?}"
    );
    assert_eq!(got.last().unwrap(), "Nodes searched: 7");
    io.send("go infinite");
    io.send("go depth 1");
    let (_, _) = bestmove(&mut io);
    let (_, _) = bestmove(&mut io);
    assert!(sync(&mut io).iter().all(|l| !l.starts_with("bestmove")));
    let l = log.lock().unwrap();
    assert_eq!(l.limits.len(), 3);
    assert!(l.limits[0].infinite && l.limits[1].infinite);
    assert_eq!(l.limits[2].depth, Some(1));
}

#[test]
fn quit_during_search_ends_the_engine() {
    let (mut io, _) = started();
    io.send("go infinite");
    std::thread::sleep(Duration::from_millis(20));
    io.send("quit");
    assert!(io.ended_within(Duration::from_secs(2)));
}

#[test]
fn end_of_input_finishes_a_bounded_search_and_stops_an_infinite_one() {
    let (mut io, _) = started();
    io.send("go depth 4");
    io.close_input();
    let (got, _) = bestmove(&mut io);
    assert!(
        got.iter().any(|l| l.starts_with("info depth 4 ")),
        "{got:?}"
    );
    assert!(io.ended_within(Duration::from_secs(2)));

    let (mut io, _) = started();
    io.send("go infinite");
    io.close_input();
    bestmove(&mut io);
    assert!(io.ended_within(Duration::from_secs(2)));
}

#[test]
fn clocks_map_to_the_seat_to_move() {
    let (mut io, log) = started();
    io.send("setoption name Move Overhead value 7");
    io.send("position startpos moves a1");
    io.send("go wtime 1000 btime 2000 winc 10 binc 20");
    bestmove(&mut io);
    io.send("setoption name UCI_Variant value trio");
    io.send("position startpos moves a1 b1");
    io.send("go s1time 1000 s2time 2000 s3time 3000 s3inc 30 movestogo 7");
    bestmove(&mut io);
    assert!(sync(&mut io).is_empty());
    let l = log.lock().unwrap();
    assert_eq!(
        l.limits[0].clock,
        Some(Clock {
            remaining: Duration::from_millis(2000),
            increment: Duration::from_millis(20),
            moves_to_go: None
        })
    );
    assert_eq!(l.limits[0].overhead, Duration::from_millis(7));
    assert_eq!(
        l.limits[1].clock,
        Some(Clock {
            remaining: Duration::from_millis(3000),
            increment: Duration::from_millis(30),
            moves_to_go: Some(7)
        })
    );
    assert!(!l.limits[1].infinite);
}

#[test]
fn options_variant_hash_and_newgame() {
    let (mut io, log) = started();
    io.send("setoption name hash value 64");
    io.send("setoption name Tie Break value LAST");
    io.send("setoption name UCI_Variant value trio");
    io.send("ucinewgame");
    assert!(sync(&mut io).is_empty());
    io.send("position startpos");
    io.send("go perft 1");
    assert_eq!(
        io.until("total", |l| l.starts_with("Nodes"))
            .last()
            .unwrap(),
        "Nodes searched: 16"
    );
    let l = log.lock().unwrap();
    assert_eq!(l.hash_mib, Some(64));
    assert_eq!(l.new_games, 1);
}

#[test]
fn perft_output_matches_stockfish_format() {
    let (mut io, _) = started();
    io.send("position startpos");
    io.send("go perft 2");
    let (got, _) = io.perft_output();
    assert_eq!(got.len(), 9 + 3, "{got:?}");
    assert!(got[..9].iter().all(|l| l.ends_with(": 8")), "{got:?}");
    assert_eq!(got[9..], ["", "Nodes searched: 72", ""]);
}

#[test]
fn errors_change_nothing() {
    let (mut io, _) = started();
    io.send("position startpos moves b2");
    io.send("position startpos moves a1 a1");
    io.send("position fen x../.../... x");
    io.send("setoption name UCI_Variant value nonsense");
    let got = sync(&mut io);
    assert_eq!(got.len(), 3, "{got:?}");
    assert!(
        got[0].starts_with("info string error: illegal move 'a1' at ply 2"),
        "{got:?}"
    );
    assert!(
        got[1].starts_with("info string error: bad position"),
        "{got:?}"
    );
    assert!(got[2].contains("UCI_Variant must be one of"), "{got:?}");
    io.send("go perft 1");
    assert_eq!(
        io.until("total", |l| l.starts_with("Nodes"))
            .last()
            .unwrap(),
        "Nodes searched: 8"
    );
    io.send("position startpos moves a1 a2 b1 b2 c1 c2");
    let got = sync(&mut io);
    assert!(
        got.last().unwrap().contains("after the end of the game"),
        "{got:?}"
    );
}

#[test]
fn a_panicking_search_is_answered_and_the_engine_goes_on() {
    let (mut io, _) = started();
    io.send("setoption name Panic In Search value true");
    io.send("go depth 2");
    let (_, mv) = bestmove(&mut io);
    assert_eq!(mv, "0000");
    io.send("setoption name Panic In Search value false");
    io.send("go depth 2");
    let (_, mv) = bestmove(&mut io);
    assert_ne!(mv, "0000");
}

#[test]
fn setoption_during_a_search_stops_it_first() {
    let (mut io, log) = started();
    io.send("go infinite");
    io.send("setoption name Hash value 8");
    let got = sync(&mut io);
    assert_eq!(
        got.iter().filter(|l| l.starts_with("bestmove")).count(),
        1,
        "{got:?}"
    );
    assert_eq!(log.lock().unwrap().hash_mib, Some(8));
}

#[test]
fn infinite_search_holds_its_move_until_stop_even_when_finished() {
    let (mut io, _) = started();
    // Tic-tac-toe is solved to the last ply in well under the wait below.
    io.send("position startpos moves a1 b1 c1 b2");
    io.send("go infinite");
    std::thread::sleep(Duration::from_millis(300));
    let early = sync(&mut io);
    assert!(
        early
            .iter()
            .all(|l| !l.starts_with("bestmove") && !l.contains("error")),
        "bestmove before stop: {early:?}"
    );
    io.send("stop");
    let (_, mv) = bestmove(&mut io);
    assert_ne!(mv, "0000");
    assert!(sync(&mut io).iter().all(|l| !l.starts_with("bestmove")));
}

#[test]
fn a_hash_table_that_cannot_be_allocated_is_an_error_and_keeps_the_old_one() {
    let (toy, log) = Toy::new();
    let mut io = EngineIo::in_process(toy);
    io.send("setoption name Hash value 8");
    assert_eq!(sync(&mut io), Vec::<String>::new());
    io.send(&format!(
        "setoption name Hash value {}",
        common::toy::REFUSED_HASH_MIB
    ));
    let got = sync(&mut io);
    assert_eq!(got.len(), 1, "{got:?}");
    assert!(
        got[0].starts_with("info string error: ") && got[0].contains("stays at 8 MiB"),
        "{got:?}"
    );
    assert_eq!(log.lock().unwrap().hash_mib, Some(8));
}
