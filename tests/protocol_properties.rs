//! Property tests (proptest) of every engine-side parser that takes outside input: protocol lines
//! of both dialects, Spider-Chess FENs, Solar position strings, Space Wars observation lines and
//! decisions; and of the live loop of the real engines (in-process): a bad line gets exactly one
//! error line and changes nothing.
//!
//! Bounded for `cargo test`; `PROPTEST_CASES=100000 cargo test --release --test
//! protocol_properties` runs longer (see [`cases`] and docs/fuzzing.md). The cargo-fuzz targets in fuzz/ cover the
//! same parsers with coverage guidance.

mod common;

use std::sync::Arc;

use proptest::prelude::*;

use common::engine_io::EngineIo;
use orrery::protocol::cecp::parse_cecp;
use orrery::protocol::uci::parse_uci;

/// The number of cases of a property: `default` in `cargo test`; with `PROPTEST_CASES=N`, N for
/// the parser properties (default 2000) and the others in proportion.
fn cases(default: u32) -> ProptestConfig {
    let n = std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|v| v.parse::<u64>().ok())
        .map_or(default, |n| (n * u64::from(default) / 2000).max(1) as u32);
    ProptestConfig::with_cases(n)
}

/// Characters that like to break parsers: separators, other spaces, controls, multi-byte text.
const NASTY: &[char] = &[
    ' ', '\t', '\u{3000}', '\u{A0}', '\u{2028}', '\u{0B}', '\u{0C}', '\0', '\r', '\u{85}',
    '\u{200B}', '\u{FEFF}', '\u{7F}', 'é', '€', '𝄞', '*', '/', '-', '=', '@', '{', '}', ':', ',',
    '#', '?', '+', '.', '0', '9',
];

const UCI_LINES: &[&str] = &[
    "uci",
    "isready",
    "ucinewgame",
    "debug on",
    "register later",
    "setoption name Hash value 8",
    "setoption name Move Overhead value 10",
    "setoption name UCI_Variant value trio",
    "position startpos",
    "position startpos moves m2m5 m18m15",
    "position startpos moves Fw@n2 Or@d3",
    "position fen board=n3:Sw1,j4:Sk2,a3:Ow1 hands=2Fw/2Fk teams=1/2 turn=1 out=- clock=0 ply=0",
    "go depth 2",
    "go nodes 50",
    "go wtime 1000 btime 1000 winc 10 binc 10 movestogo 5",
    "go s1time 100 s3inc 5 movetime 20",
    "go perft 1",
    "stop",
    "ponderhit",
];

const CECP_LINES: &[&str] = &[
    "xboard",
    "protover 2",
    "accepted ping",
    "new",
    "variant trio",
    "force",
    "go",
    "usermove m2m5",
    "m2m5",
    "Fw@n2",
    "setboard board=n3:Sw1,j4:Sk2,a3:Ow1 hands=2Fw/2Fk teams=1/2 turn=1 out=- clock=0 ply=0",
    "time 3000",
    "otim 3000",
    "level 40 5 0",
    "level 0 2:30 1.5",
    "st 0.5",
    "sd 3",
    "ping 12",
    "undo",
    "remove",
    "result 1-0 {White mates}",
    "post",
    "nopost",
    "?",
    "perft 1",
    "option Hash=8",
    "rating 2100 1900",
    "name Some Body",
    "cores 2",
];

/// One edit of a text: insert, delete or replace a character, or cut the text.
fn mutate(text: &str, edits: &[(u8, usize, usize)]) -> String {
    let mut chars: Vec<char> = text.chars().collect();
    for &(op, at, pick) in edits {
        let i = if chars.is_empty() {
            0
        } else {
            at % (chars.len() + 1)
        };
        let c = NASTY[pick % NASTY.len()];
        match op % 4 {
            0 => chars.insert(i, c),
            1 if i < chars.len() => {
                chars.remove(i);
            }
            2 if i < chars.len() => chars[i] = c,
            3 => chars.truncate(i),
            _ => chars.push(c),
        }
    }
    chars.into_iter().collect()
}

fn edits() -> impl Strategy<Value = Vec<(u8, usize, usize)>> {
    prop::collection::vec((any::<u8>(), any::<usize>(), any::<usize>()), 1..6)
}

/// A line: a mutated known command, a soup of known words and nasty characters, or anything.
fn line(known: &'static [&'static str]) -> impl Strategy<Value = String> {
    let words: Vec<&'static str> = known
        .iter()
        .flat_map(|l| l.split(' '))
        .chain([
            "moves",
            "fen",
            "startpos",
            "value",
            "name",
            "4294967296",
            "-1",
            "1e9",
        ])
        .collect();
    prop_oneof![
        4 => (prop::sample::select(known), edits()).prop_map(|(l, e)| mutate(l, &e)),
        3 => prop::collection::vec(
            (prop::sample::select(words), prop::sample::select(NASTY)),
            1..8
        )
        .prop_map(|ws| ws.iter().map(|(w, c)| format!("{w}{c}")).collect::<String>()),
        1 => ".{0,80}",
    ]
}

fn forbidden(c: char) -> bool {
    c != ' '
        && c != '\t'
        && (c.is_control()
            || c.is_whitespace()
            || matches!(c, '\u{200B}'..='\u{200F}' | '\u{202A}'..='\u{202E}' | '\u{2060}'..='\u{2064}' | '\u{2066}'..='\u{2069}' | '\u{FEFF}'))
}

proptest! {
    #![proptest_config(cases(2000))]

    /// No line makes a parser panic; a line with a character that is neither a word nor a
    /// separator is always refused; what parses keeps parsing the same with other separators.
    #[test]
    fn uci_lines_parse_or_are_refused(l in line(UCI_LINES)) {
        let got = parse_uci(&l);
        if l.chars().any(forbidden) {
            prop_assert!(got.is_err(), "{:?} parsed as {:?}", l, got);
        }
        if let Ok(cmd) = got {
            let spaced = l.replace(' ', " \t ");
            if !l.contains("value") && !l.starts_with("setoption") {
                prop_assert_eq!(parse_uci(&spaced), Ok(cmd), "{:?}", spaced);
            }
        }
    }

    #[test]
    fn cecp_lines_parse_or_are_refused(l in line(CECP_LINES)) {
        let got = parse_cecp(&l);
        if l.chars().any(forbidden) {
            prop_assert!(got.is_err(), "{:?} parsed as {:?}", l, got);
        }
    }

    /// Trailing words a command does not take are an error, in both dialects.
    #[test]
    fn trailing_junk_is_an_error(i in 0usize..6, junk in "[a-z0-9]{1,6}") {
        let uci = ["uci", "isready", "ucinewgame", "stop", "quit", "debug on"][i];
        let cecp = ["new", "force", "go", "undo", "post", "quit"][i];
        let lines = [
            (true, format!("{uci} {junk}")),
            (false, format!("{cecp} {junk}")),
            (false, format!("ping 7 {junk}")),
            (false, format!("usermove m2m5 {junk}")),
        ];
        for (is_uci, l) in lines {
            let refused = if is_uci { parse_uci(&l).is_err() } else { parse_cecp(&l).is_err() };
            prop_assert!(refused, "{}", l);
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Position texts

fn spider_fens() -> Vec<String> {
    use orrery::games::spider::{Position, Variant};
    let v = Variant::spider_chess();
    let mut out = vec![Position::startpos(&v).to_fen()];
    let mut p = Position::startpos(&v);
    for text in ["m2m5", "m18m15", "j2l6", "j18l14", "h4r9", "h16r11"] {
        if p.play(text).is_ok() {
            out.push(p.to_fen());
        }
    }
    out
}

fn solar_strings() -> Vec<String> {
    let mut out: Vec<String> = orrery::games::solar::setup_names()
        .map(|n| {
            orrery::games::solar::Position::from_setup(n)
                .unwrap()
                .to_string()
        })
        .collect();
    out.extend(orrery::games::solar::setup_names().map(String::from));
    out
}

proptest! {
    #![proptest_config(cases(1500))]

    /// A FEN either is refused with a reason or reads back to itself.
    #[test]
    fn spider_fens_are_refused_or_round_trip(
        base in prop::sample::select(spider_fens()),
        e in edits(),
    ) {
        use orrery::games::spider::{Position, Variant};
        let v = Variant::spider_chess();
        let fen = mutate(&base, &e);
        match Position::from_fen(&v, &fen) {
            Ok(p) => {
                let again = Position::from_fen(&v, &p.to_fen());
                prop_assert!(again.is_ok(), "{:?}: own FEN refused", fen);
                prop_assert_eq!(again.unwrap().to_fen(), p.to_fen());
            }
            Err(e) => prop_assert!(!e.to_string().is_empty()),
        }
    }

    /// A Solar position string (or setup name) is refused or reads back to itself.
    #[test]
    fn solar_positions_are_refused_or_round_trip(
        base in prop::sample::select(solar_strings()),
        e in edits(),
    ) {
        use orrery::games::solar::Position;
        let text = mutate(&base, &e);
        match Position::from_setup_or_string(&text) {
            Ok(p) => {
                let s = p.to_string();
                let again = Position::from_setup_or_string(&s);
                prop_assert!(again.is_ok(), "{:?}: own string {:?} refused", text, s);
                prop_assert_eq!(again.unwrap().to_string(), s);
            }
            Err(e) => prop_assert!(!e.to_string().is_empty()),
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Space Wars lines (parsing only)

/// `position` lines and decisions of seeded random games, every step of the game.
fn spacewars_samples() -> (Vec<String>, Vec<String>) {
    use orrery::engines::spacewars::make_player;
    use orrery::games::spacewars::observation::Observation;
    use orrery::games::spacewars::state::State;
    use orrery::games::spacewars::wire::{format_decision, position_line};
    use orrery::games::spacewars::Ruleset;
    use orrery::search::ismcts::SearchBudget as Budget;
    let rules = Ruleset::default();
    let stop = std::sync::atomic::AtomicBool::new(false);
    let (mut lines, mut decisions) = (Vec::new(), Vec::new());
    for (players, seed) in [(2usize, 1u64), (4, 2), (7, 3)] {
        let mut s = State::new(players, seed).unwrap();
        let mut players_: Vec<_> = (0..players)
            .map(|i| make_player("random", seed + i as u64).unwrap())
            .collect();
        let mut pend = Vec::new();
        let mut steps = 0;
        while !s.is_over() && steps < 60 {
            s.pending(&mut pend);
            let mut decided = Vec::new();
            for &(seat, _) in &pend {
                lines.push(position_line(&s, seat));
                let c = players_[seat as usize]
                    .decide(
                        &Observation::of(&s, seat),
                        &Budget::iterations(1),
                        &stop,
                        &mut |_| {},
                    )
                    .unwrap();
                decisions.push(format_decision(&c.decision, &rules));
                decided.push((seat, c.decision));
            }
            for (seat, d) in decided {
                s.apply(seat, &d).unwrap();
            }
            steps += 1;
        }
    }
    (lines, decisions)
}

proptest! {
    #![proptest_config(cases(1500))]

    /// An observation line is refused or reads back to itself (formatted again, equal).
    #[test]
    fn spacewars_observations_are_refused_or_round_trip(
        i in any::<prop::sample::Index>(),
        e in edits(),
    ) {
        use orrery::games::spacewars::wire::{format_observation, parse_observation};
        use orrery::games::spacewars::Ruleset;
        thread_local!(static SAMPLES: (Vec<String>, Vec<String>) = spacewars_samples());
        let base = SAMPLES.with(|s| i.get(&s.0).clone());
        let rules = Arc::new(Ruleset::default());
        let text = mutate(base.trim_start_matches("position "), &e);
        if let Ok(o) = parse_observation(&text, &rules) {
            let again = format_observation(&o, &rules);
            let back = parse_observation(&again, &rules);
            prop_assert!(back.is_ok(), "{:?}: own line {:?} refused", text, again);
            prop_assert_eq!(format_observation(&back.unwrap(), &rules), again);
        }
    }

    #[test]
    fn spacewars_decisions_and_commands_never_panic(
        i in any::<prop::sample::Index>(),
        e in edits(),
    ) {
        use orrery::games::spacewars::wire::{format_decision, parse_decision};
        use orrery::games::spacewars::Ruleset;
        thread_local!(static SAMPLES: (Vec<String>, Vec<String>) = spacewars_samples());
        let base = SAMPLES.with(|s| i.get(&s.1).clone());
        let rules = Ruleset::default();
        let text = mutate(&base, &e);
        if let Ok(d) = parse_decision(&text, &rules) {
            let again = format_decision(&d, &rules);
            prop_assert_eq!(parse_decision(&again, &rules).map(|d| format_decision(&d, &rules)), Ok(again));
        }
        let _ = orrery::engines::spacewars::protocol::parse_command(&text);
        let _ = orrery::engines::spacewars::protocol::parse_command(&format!("position {text}"));
    }
}

// ---------------------------------------------------------------------------------------------
// The live loop of the real engines

/// Sends `bad` lines (each one that the dialect's parser refuses) to an engine, each followed by
/// a sync command; every one must get exactly one error line; the perft witness is unchanged.
fn one_error_each(io: &mut EngineIo, cecp: bool, bad: &[String]) -> Result<(), TestCaseError> {
    let (perft, sync, answer) = if cecp {
        ("perft 1", "ping 1", "pong 1")
    } else {
        ("go perft 1", "isready", "readyok")
    };
    let perft_lines = |io: &mut EngineIo| {
        io.send(perft);
        let lines = io.until("perft", |l| l.starts_with("Nodes searched"));
        io.until("blank line after perft", str::is_empty);
        lines
    };
    let witness = perft_lines(io);
    for l in bad {
        io.send_raw(format!("{l}\n").as_bytes());
        io.send(sync);
        let mut got = io.until(answer, |x| x == answer);
        got.pop();
        prop_assert_eq!(got.len(), 1, "{:?} got {:?}", l, got);
        prop_assert!(
            got[0].starts_with("info string error: ")
                || got[0].starts_with("Error (")
                || got[0].starts_with("Illegal move ("),
            "{:?} got {:?}",
            l,
            got
        );
    }
    let again = perft_lines(io);
    prop_assert_eq!(again, witness);
    Ok(())
}

fn refused(cecp: bool) -> impl Strategy<Value = Vec<String>> {
    let known = if cecp { CECP_LINES } else { UCI_LINES };
    prop::collection::vec(line(known), 1..12).prop_map(move |ls| {
        ls.into_iter()
            .filter(|l| {
                !l.contains('\n')
                    && !l.contains('\r')
                    && !l
                        .trim_matches(|c| c == ' ' || c == '\t' || c == '\r')
                        .is_empty()
                    && if cecp {
                        parse_cecp(l).is_err()
                    } else {
                        parse_uci(l).is_err()
                    }
            })
            .collect()
    })
}

fn spider() -> EngineIo {
    EngineIo::in_process(orrery::engines::spider::SpiderEngine::new(Vec::new(), 1))
}

fn solar() -> EngineIo {
    EngineIo::in_process(orrery::engines::solar::SolarEngine::new(1))
}

proptest! {
    #![proptest_config(cases(48))]

    #[test]
    fn spider_uci_one_error_per_bad_line(bad in refused(false)) {
        let mut io = spider();
        io.send("uci");
        io.until_line("uciok");
        io.send("position startpos moves m2m5");
        one_error_each(&mut io, false, &bad)?;
    }

    #[test]
    fn spider_cecp_one_error_per_bad_line(bad in refused(true)) {
        let mut io = spider();
        io.send("xboard");
        io.send("force");
        io.send("m2m5");
        one_error_each(&mut io, true, &bad)?;
    }

    #[test]
    fn solar_uci_one_error_per_bad_line(bad in refused(false)) {
        let mut io = solar();
        io.send("uci");
        io.until_line("uciok");
        io.send("position startpos moves Fw@n2");
        one_error_each(&mut io, false, &bad)?;
    }

    #[test]
    fn solar_cecp_one_error_per_bad_line(bad in refused(true)) {
        let mut io = solar();
        io.send("xboard");
        io.send("force");
        io.send("Fw@n2");
        one_error_each(&mut io, true, &bad)?;
    }
}
