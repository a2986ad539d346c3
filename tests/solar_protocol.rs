//! The `solar-chess` binary over the protocol: whole games in both dialects (a duel in UCI and
//! CECP, the six-player setup in UCI) checked move by move against the rules core, the Solar
//! bad-input file (and the protocol's generic one) in both dialects, and per-seat clocks.

mod common;

use std::process::Command;
use std::time::{Duration, Instant};

use common::bad_input::{check, load_default, Dialect};
use common::engine_io::{EngineIo, PATIENCE};
use orrery::games::solar::{Position, Status};

/// Draw limit used by the two-player game tests, so that games end within a few dozen plies.
const DRAW_PLIES: u32 = 24;
/// Draw limit of the six-player game (six seats capture often: a longer limit rarely ends).
const SIX_DRAW_PLIES: u32 = 12;
/// Longest game the tests play before failing.
const MAX_PLIES: usize = 400;

fn spawn() -> EngineIo {
    EngineIo::spawn(&mut Command::new(env!("CARGO_BIN_EXE_solar-chess"))).expect("solar-chess")
}

fn uci(io: &mut EngineIo, setup: &str, draw_plies: u32) {
    io.send("uci");
    io.until_line("uciok");
    io.send(&format!("setoption name UCI_Variant value {setup}"));
    io.send(&format!("setoption name DrawPlies value {draw_plies}"));
    io.send("isready");
    let got = io.until_line("readyok");
    assert_eq!(got, vec!["readyok"], "setup produced output");
}

fn legal(pos: &Position) -> Vec<String> {
    let mut moves = Vec::new();
    pos.legal_moves(&mut moves);
    moves.iter().map(|m| m.to_string()).collect()
}

/// The rules core's view of the same game, for checking every engine move.
fn referee(setup: &str, draw_plies: u32) -> Position {
    let mut pos = Position::from_setup(setup).unwrap();
    pos.set_draw_plies(draw_plies);
    pos
}

/// Plays `setup` to the end over UCI: the engine moves for every seat, each move is fed back with
/// `position startpos moves ...`; returns the number of plies.
fn uci_game(setup: &str, go: &str, draw_plies: u32) -> usize {
    let mut io = spawn();
    uci(&mut io, setup, draw_plies);
    let mut pos = referee(setup, draw_plies);
    let mut moves: Vec<String> = Vec::new();
    while pos.status() == Status::Ongoing {
        assert!(
            moves.len() < MAX_PLIES,
            "{setup}: no end after {MAX_PLIES} plies"
        );
        if moves.is_empty() {
            io.send("position startpos");
        } else {
            io.send(&format!("position startpos moves {}", moves.join(" ")));
        }
        io.send(go);
        let got = io.until("bestmove", |l| l.starts_with("bestmove "));
        assert!(got.iter().all(|l| !l.contains("error")), "{setup}: {got:?}");
        let mv = got.last().unwrap()["bestmove ".len()..].to_string();
        assert!(
            legal(&pos).contains(&mv),
            "{setup} ply {}: {mv} is not legal in {pos}",
            moves.len()
        );
        pos.play(&mv).unwrap();
        moves.push(mv);
    }
    // The engine agrees the game is over and says so before its (empty) answer.
    io.send(&format!("position startpos moves {}", moves.join(" ")));
    io.send(go);
    let got = io.until("bestmove", |l| l.starts_with("bestmove "));
    assert!(
        got.iter().any(|l| l.starts_with("info string game over: ")),
        "{setup}: {got:?}"
    );
    moves.len()
}

#[test]
fn duel_game_uci() {
    let plies = uci_game("duel", "go depth 2", DRAW_PLIES);
    assert!(plies >= 2);
}

#[test]
fn six_player_game_uci() {
    let plies = uci_game("six", "go depth 2", SIX_DRAW_PLIES);
    // Longer than the draw limit: pieces were captured on the way.
    assert!(plies > SIX_DRAW_PLIES as usize, "{plies} plies");
}

#[test]
fn duel_game_cecp() {
    let mut io = spawn();
    io.send("xboard");
    io.send("protover 2");
    let features = io.until("feature done=1", |l| l.contains("done=1"));
    assert!(features.iter().any(|l| l.contains("variants=\"duel,")));
    // The option applies to positions set up after it.
    io.send(&format!("option DrawPlies={DRAW_PLIES}"));
    io.send("new");
    io.send("variant duel");
    io.send("sd 2");
    io.send("force");
    let mut pos = referee("duel", DRAW_PLIES);
    let mut plies = 0;
    let mut result = None;
    while pos.status() == Status::Ongoing {
        assert!(plies < MAX_PLIES, "no end after {MAX_PLIES} plies");
        // `go` makes the engine play the seat to move; `force` takes it off again, so the next
        // `go` plays the other seat.
        io.send("go");
        let got = io.until("move", |l| l.starts_with("move "));
        assert!(got.iter().all(|l| !l.starts_with("Error")), "{got:?}");
        let mv = got.last().unwrap()["move ".len()..].to_string();
        assert!(legal(&pos).contains(&mv), "ply {plies}: {mv} not legal");
        pos.play(&mv).unwrap();
        plies += 1;
        io.send("force");
        io.send(&format!("ping {plies}"));
        let tail = io.until_line(&format!("pong {plies}"));
        if let Some(r) = tail.iter().find(|l| l.contains('{')) {
            result = Some(r.clone());
        }
    }
    let result = result.expect("the engine printed the result line");
    match pos.status() {
        Status::Won { team: 0 } => assert!(result.starts_with("1-0 {"), "{result}"),
        Status::Won { .. } => assert!(result.starts_with("0-1 {"), "{result}"),
        Status::Drawn(_) => assert!(result.starts_with("1/2-1/2 {"), "{result}"),
        Status::Ongoing => unreachable!(),
    }
    // A move after the end is refused.
    let any = legal(&pos)
        .into_iter()
        .next()
        .unwrap_or_else(|| "n3j4".into());
    io.send(&format!("usermove {any}"));
    let got = io.until("refusal", |l| l.starts_with("Illegal move"));
    assert!(got.last().unwrap().contains("game is over"), "{got:?}");
}

/// One case of `tests/data/solar_bad_input.txt`.
enum SolarCase {
    Move {
        position: String,
        before: Vec<String>,
        bad: String,
        reason: String,
    },
    Position {
        text: String,
        reason: String,
    },
}

fn solar_cases() -> Vec<SolarCase> {
    let text = include_str!("data/solar_bad_input.txt");
    let mut out = Vec::new();
    for line in text.lines().map(str::trim) {
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let (kind, rest) = line.split_once(' ').unwrap_or((line, ""));
        let f: Vec<&str> = rest.split('|').map(str::trim).collect();
        out.push(match (kind, f.as_slice()) {
            ("move", [position, before, bad, reason]) => SolarCase::Move {
                position: position.to_string(),
                before: before.split_whitespace().map(String::from).collect(),
                bad: bad.to_string(),
                reason: reason.to_string(),
            },
            ("position", [text, reason]) => SolarCase::Position {
                text: text.to_string(),
                reason: reason.to_string(),
            },
            _ => panic!("malformed line: {line}"),
        });
    }
    out
}

/// Whether an error text gives the expected reason. The protocol words two reasons its own way:
/// a move after the end ("comes after the end of the game") and a missing position text.
fn gives_reason(error: &str, reason: &str, text_missing: bool) -> bool {
    error.contains(reason)
        || (reason == "the game is over" && error.contains("end of the game"))
        || (text_missing && error.contains("missing"))
        || (text_missing && error.contains("needs a position"))
}

struct Sync {
    dialect: Dialect,
    pings: u32,
}

impl Sync {
    /// Lines printed before the answer to a synchronising command.
    fn lines(&mut self, io: &mut EngineIo) -> Vec<String> {
        let answer = match self.dialect {
            Dialect::Uci => {
                io.send("isready");
                "readyok".to_string()
            }
            Dialect::Cecp => {
                self.pings += 1;
                io.send(&format!("ping {}", self.pings));
                format!("pong {}", self.pings)
            }
        };
        let mut got = io.until_line(&answer);
        got.pop();
        got
    }

    fn perft1(&mut self, io: &mut EngineIo) -> Vec<String> {
        io.send(match self.dialect {
            Dialect::Uci => "go perft 1",
            Dialect::Cecp => "perft 1",
        });
        io.perft_output().0
    }
}

fn bad_input_solar(dialect: Dialect) {
    let mut io = spawn();
    let mut sync = Sync { dialect, pings: 0 };
    match dialect {
        Dialect::Uci => {
            io.send("uci");
            io.until_line("uciok");
        }
        Dialect::Cecp => {
            io.send("xboard");
            io.send("protover 2");
            io.until("feature done=1", |l| l.contains("done=1"));
            io.send("new");
            io.send("force");
        }
    }
    let mut failures = Vec::new();
    let cases = solar_cases();
    for case in &cases {
        // Set up the position the case starts from (for a bad position: the duel after one move).
        let (setup, before, bad_line, bad_text, reason, text_missing) = match case {
            SolarCase::Move {
                position,
                before,
                bad,
                reason,
            } => {
                let line = match dialect {
                    Dialect::Uci if before.is_empty() => {
                        format!("position fen {position} moves {bad}")
                    }
                    Dialect::Uci => {
                        format!("position fen {position} moves {} {bad}", before.join(" "))
                    }
                    Dialect::Cecp => format!("usermove {bad}"),
                };
                (position.as_str(), before.clone(), line, bad, reason, false)
            }
            SolarCase::Position { text, reason } => {
                let line = match dialect {
                    Dialect::Uci => format!("position fen {text}"),
                    Dialect::Cecp => format!("setboard {text}"),
                };
                (
                    "duel",
                    vec!["Fw@n2".to_string()],
                    line,
                    text,
                    reason,
                    text.is_empty(),
                )
            }
        };
        match dialect {
            Dialect::Uci if before.is_empty() => io.send(&format!("position fen {setup}")),
            Dialect::Uci => io.send(&format!("position fen {setup} moves {}", before.join(" "))),
            Dialect::Cecp => {
                io.send(&format!("setboard {setup}"));
                for m in &before {
                    io.send(&format!("usermove {m}"));
                }
            }
        }
        let setup_output = sync.lines(&mut io);
        let setup_errors: Vec<&String> = setup_output
            .iter()
            .filter(|l| l.contains("rror") || l.starts_with("Illegal"))
            .collect();
        assert!(
            setup_errors.is_empty(),
            "{bad_line}: set-up refused: {setup_errors:?}"
        );
        let witness = sync.perft1(&mut io);
        io.send(&bad_line);
        let got = sync.lines(&mut io);
        let ok = match (dialect, got.as_slice()) {
            (Dialect::Uci, [e]) => {
                e.starts_with("info string error: ") && gives_reason(e, reason, text_missing)
            }
            (Dialect::Cecp, [e]) => {
                (e.starts_with("Illegal move (") && e.ends_with(&format!(": {bad_text}"))
                    || e.starts_with("Error ("))
                    && gives_reason(e, reason, text_missing)
            }
            _ => false,
        };
        if !ok {
            failures.push(format!(
                "{bad_line}: expected one error with '{reason}', got {got:?}"
            ));
        }
        let after = sync.perft1(&mut io);
        if after != witness {
            failures.push(format!("{bad_line}: the position changed"));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(cases.len() >= 40, "only {} cases", cases.len());
    // Correct answers afterwards: a legal move from the duel start.
    let start = legal(&referee("duel", DRAW_PLIES));
    match dialect {
        Dialect::Uci => {
            io.send("position startpos");
            io.send("go depth 2");
            let got = io.until("bestmove", |l| l.starts_with("bestmove "));
            let mv = &got.last().unwrap()["bestmove ".len()..];
            assert!(start.iter().any(|m| m == mv), "{got:?}");
        }
        Dialect::Cecp => {
            io.send("new");
            io.send("variant duel");
            io.send("sd 2");
            io.send("usermove Fw@n2");
            let got = io.until("move", |l| l.starts_with("move ") || l.contains("rror"));
            let mv = &got.last().unwrap()["move ".len()..];
            let mut pos = referee("duel", DRAW_PLIES);
            pos.play("Fw@n2").unwrap();
            assert!(legal(&pos).iter().any(|m| m == mv), "{got:?}");
        }
    }
}

#[test]
fn solar_bad_input_uci() {
    bad_input_solar(Dialect::Uci);
}

#[test]
fn solar_bad_input_cecp() {
    bad_input_solar(Dialect::Cecp);
}

#[test]
fn generic_bad_input_uci() {
    let mut io = spawn();
    let ran = check(&mut io, Dialect::Uci, &load_default()).unwrap_or_else(|e| panic!("{e}"));
    assert!(ran >= 60, "{ran}");
}

#[test]
fn generic_bad_input_cecp() {
    let mut io = spawn();
    let ran = check(&mut io, Dialect::Cecp, &load_default()).unwrap_or_else(|e| panic!("{e}"));
    assert!(ran >= 60, "{ran}");
}

/// Time from `go` to `bestmove`, with the move.
fn timed_go(io: &mut EngineIo, go: &str) -> (Duration, String) {
    let start = Instant::now();
    io.send(go);
    let got = io.until("bestmove", |l| l.starts_with("bestmove "));
    (
        start.elapsed(),
        got.last().unwrap()["bestmove ".len()..].to_string(),
    )
}

#[test]
fn the_clock_of_the_seat_to_move_is_honoured() {
    let mut io = spawn();
    uci(&mut io, "six", DRAW_PLIES);
    // Seat 3 to move after two moves; only its clock is short.
    io.send("position startpos moves Fw@n2 Fs@i5");
    let long = 600_000;
    let (t, mv) = timed_go(
        &mut io,
        &format!(
            "go s1time {long} s2time {long} s3time 60 s4time {long} s5time {long} s6time {long}"
        ),
    );
    let mut pos = referee("six", DRAW_PLIES);
    pos.play("Fw@n2").unwrap();
    pos.play("Fs@i5").unwrap();
    assert!(legal(&pos).contains(&mv), "{mv}");
    assert!(
        t < Duration::from_millis(1500),
        "took {t:?} on a 60 ms clock"
    );

    // Duel, Black (seat 2) to move on a short clock, White's clock long: a quick move again.
    io.send("setoption name UCI_Variant value duel");
    io.send("position startpos moves Fw@n2");
    let (t, _) = timed_go(&mut io, &format!("go wtime {long} btime 60 binc 0"));
    assert!(
        t < Duration::from_millis(1500),
        "took {t:?} on a 60 ms clock"
    );

    // And the short clock of another seat does not cut the seat to move short: with seat 1 to
    // move on a 3 s clock, the search runs past the first few milliseconds.
    io.send("position startpos");
    let (t, _) = timed_go(&mut io, "go wtime 3000 btime 1");
    assert!(t >= Duration::from_millis(20), "answered in {t:?}");
    assert!(t < PATIENCE);
}
