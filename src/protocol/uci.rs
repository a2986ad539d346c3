//! The UCI-style dialect: typed commands and their `nom`-based parser.
//!
//! Extension for games with more than two seats: `go` accepts `s1time s1inc ... s8time s8inc`
//! (milliseconds); `wtime/winc` are seat 1 and `btime/binc` seat 2.

use std::time::Duration;

use nom::branch::alt;
use nom::bytes::complete::tag;
use nom::character::complete::{char, one_of};
use nom::combinator::{all_consuming, map};
use nom::sequence::tuple;
use nom::IResult;

use super::lex::{head, shorten, signed_saturating, unsigned, word, words, CommandError};
use crate::search::{Clock, Limits};

/// Most seats a game may have (Space Wars: 2–8).
pub const MAX_SEATS: usize = 8;

/// One UCI-dialect command, fully parsed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum UciCommand {
    /// `uci`: identify and list options.
    Uci,
    /// `debug on|off`.
    Debug(bool),
    /// `isready`: answer `readyok` once earlier commands are done.
    IsReady,
    /// `setoption name <name> [value <value>]`.
    SetOption {
        /// Option name (may contain spaces).
        name: String,
        /// Value text, absent for buttons.
        value: Option<String>,
    },
    /// `register ...`: accepted and ignored (no registration needed).
    Register,
    /// `ucinewgame`.
    UciNewGame,
    /// `position startpos|fen <text> [moves ...]`.
    Position {
        /// Where the game starts.
        start: PositionStart,
        /// Moves played from there, unchecked text.
        moves: Vec<String>,
    },
    /// `go ...` (boxed: the per-seat clocks make it large).
    Go(Box<GoParams>),
    /// `stop`.
    Stop,
    /// `ponderhit` (pondering is not offered; answered with an error).
    PonderHit,
    /// `quit`.
    Quit,
}

/// The start of a `position` command.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PositionStart {
    /// `startpos`: the current variant's start position.
    StartPos,
    /// `fen <text>`: a FEN or the game's own position string (may contain spaces).
    Text(String),
}

/// The parameters of `go`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GoParams {
    /// Remaining time per seat (index 0 = seat 1); negative inputs are clamped to zero.
    pub time: [Option<Duration>; MAX_SEATS],
    /// Increment per seat.
    pub inc: [Option<Duration>; MAX_SEATS],
    /// Moves to the next time control.
    pub movestogo: Option<u32>,
    /// Fixed time for this move.
    pub movetime: Option<Duration>,
    /// Depth limit in plies.
    pub depth: Option<u32>,
    /// Node limit.
    pub nodes: Option<u64>,
    /// Search until `stop`.
    pub infinite: bool,
    /// `go perft N`: count leaves instead of searching.
    pub perft: Option<u32>,
}

impl GoParams {
    /// Whether `go` was given nothing that ends the search (then it runs until `stop`).
    pub fn is_unbounded(&self) -> bool {
        self.infinite
            || (self.movetime.is_none()
                && self.depth.is_none()
                && self.nodes.is_none()
                && self.time.iter().all(Option::is_none))
    }

    /// The search limits for the seat to move (1-based), with `overhead` as safety margin.
    pub fn limits(&self, seat: usize, overhead: Duration) -> Limits {
        let i = seat.saturating_sub(1).min(MAX_SEATS - 1);
        let clock = self.time[i].map(|remaining| Clock {
            remaining,
            increment: self.inc[i].unwrap_or_default(),
            moves_to_go: self.movestogo,
        });
        Limits {
            depth: self.depth,
            nodes: self.nodes,
            movetime: self.movetime,
            clock,
            infinite: self.is_unbounded(),
            overhead,
        }
    }
}

/// A clock field of `go`: whose clock and whether time or increment.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum ClockField {
    Time(usize),
    Inc(usize),
}

fn clock_field(input: &str) -> IResult<&str, ClockField> {
    all_consuming(alt((
        map(tag("wtime"), |_| ClockField::Time(1)),
        map(tag("btime"), |_| ClockField::Time(2)),
        map(tag("winc"), |_| ClockField::Inc(1)),
        map(tag("binc"), |_| ClockField::Inc(2)),
        map(
            tuple((
                char('s'),
                one_of("12345678"),
                alt((tag("time"), tag("inc"))),
            )),
            |(_, d, kind)| {
                let seat = d as usize - '0' as usize;
                if kind == "time" {
                    ClockField::Time(seat)
                } else {
                    ClockField::Inc(seat)
                }
            },
        ),
    )))(input)
}

fn millis(token: &str, what: &str) -> Result<Duration, CommandError> {
    let ms = signed_saturating(token, what)?;
    Ok(Duration::from_millis(ms.max(0) as u64))
}

fn parse_go(args: &str) -> Result<GoParams, CommandError> {
    let toks = words(args);
    let mut go = GoParams::default();
    let mut i = 0;
    let value = |i: usize, key: &str| -> Result<&str, CommandError> {
        toks.get(i + 1)
            .copied()
            .ok_or_else(|| CommandError::new(format!("go: '{key}' needs a value")))
    };
    let mut seen: Vec<&str> = Vec::new();
    while i < toks.len() {
        let key = toks[i];
        if seen.contains(&key) {
            return Err(CommandError::new(format!(
                "go: '{}' is given twice",
                shorten(key)
            )));
        }
        seen.push(key);
        match key {
            "infinite" => {
                go.infinite = true;
                i += 1;
                continue;
            }
            "ponder" => return Err(CommandError::new("go: pondering is not supported")),
            "searchmoves" => return Err(CommandError::new("go: searchmoves is not supported")),
            "mate" => return Err(CommandError::new("go: mate search is not supported")),
            "movestogo" => {
                go.movestogo = Some(unsigned(value(i, key)?, "go movestogo")?);
            }
            "movetime" => go.movetime = Some(millis(value(i, key)?, "go movetime")?),
            "depth" => go.depth = Some(unsigned(value(i, key)?, "go depth")?),
            "nodes" => go.nodes = Some(unsigned(value(i, key)?, "go nodes")?),
            "perft" => go.perft = Some(unsigned(value(i, key)?, "go perft")?),
            _ => match clock_field(key) {
                Ok((_, ClockField::Time(seat))) if go.time[seat - 1].is_none() => {
                    go.time[seat - 1] = Some(millis(value(i, key)?, &format!("go {key}"))?)
                }
                Ok((_, ClockField::Inc(seat))) if go.inc[seat - 1].is_none() => {
                    go.inc[seat - 1] = Some(millis(value(i, key)?, &format!("go {key}"))?)
                }
                Ok(_) => {
                    return Err(CommandError::new(format!(
                    "go: '{key}' sets a clock that is given twice (wtime/winc are s1time/s1inc, \
                         btime/binc s2time/s2inc)"
                )))
                }
                Err(_) => {
                    return Err(CommandError::new(format!(
                        "go: unknown parameter '{}'",
                        shorten(key)
                    )))
                }
            },
        }
        i += 2;
    }
    if go.perft.is_some() && toks.len() > 2 {
        return Err(CommandError::new("go perft takes no other parameter"));
    }
    if let Some(depth) = go.perft {
        super::lex::perft_depth(depth, "go perft")?;
    }
    Ok(go)
}

fn parse_position(args: &str) -> Result<UciCommand, CommandError> {
    let toks = words(args);
    let (start, rest) = match toks.first().copied() {
        Some("startpos") => (PositionStart::StartPos, &toks[1..]),
        Some("fen") => {
            let end = toks
                .iter()
                .position(|t| *t == "moves")
                .unwrap_or(toks.len());
            if end <= 1 {
                return Err(CommandError::new(
                    "position fen: the position text is missing",
                ));
            }
            (PositionStart::Text(toks[1..end].join(" ")), &toks[end..])
        }
        Some(other) => {
            return Err(CommandError::new(format!(
                "position needs 'startpos' or 'fen', got '{}'",
                shorten(other)
            )))
        }
        None => return Err(CommandError::new("position needs 'startpos' or 'fen'")),
    };
    let moves = match rest.split_first() {
        None => Vec::new(),
        Some((&"moves", ms)) => ms.iter().map(|m| m.to_string()).collect(),
        Some((other, _)) => {
            return Err(CommandError::new(format!(
                "position: expected 'moves', got '{}'",
                shorten(other)
            )))
        }
    };
    Ok(UciCommand::Position { start, moves })
}

fn parse_setoption(args: &str) -> Result<UciCommand, CommandError> {
    let (first, mut rest) = head(args);
    if first != "name" {
        return Err(CommandError::new("setoption needs 'name <option>'"));
    }
    let mut name = Vec::new();
    let mut value = None;
    while let Ok((after, w)) = word(rest) {
        if w == "value" {
            value = Some(super::lex::trim(after).to_string());
            break;
        }
        name.push(w);
        rest = after;
    }
    if name.is_empty() {
        return Err(CommandError::new("setoption: the option name is missing"));
    }
    Ok(UciCommand::SetOption {
        name: name.join(" "),
        value,
    })
}

/// `register later` or `register name <name> code <code>` (nothing to register; the words are
/// checked so that a typo is reported).
fn parse_register(args: &str) -> Result<UciCommand, CommandError> {
    let toks = words(args);
    let code = toks.iter().position(|t| *t == "code");
    match (toks.as_slice(), code) {
        (["later"], _) => Ok(UciCommand::Register),
        (["name", ..], Some(c)) if c >= 2 && c + 1 < toks.len() => Ok(UciCommand::Register),
        _ => Err(CommandError::new(
            "register needs 'later' or 'name <name> code <code>'",
        )),
    }
}

fn no_args(cmd: UciCommand, name: &str, args: &str) -> Result<UciCommand, CommandError> {
    if args.is_empty() {
        Ok(cmd)
    } else {
        Err(CommandError::new(format!(
            "'{name}' takes no arguments, got '{}'",
            shorten(args)
        )))
    }
}

/// Parses one input line of the UCI dialect (without its line end). Every character is either
/// parsed or the line is refused: see protocol.md, "Lines and words".
pub fn parse_uci(line: &str) -> Result<UciCommand, CommandError> {
    super::lex::check_characters(line)?;
    let (cmd, args) = head(line);
    match cmd {
        "uci" => no_args(UciCommand::Uci, cmd, args),
        "isready" => no_args(UciCommand::IsReady, cmd, args),
        "ucinewgame" => no_args(UciCommand::UciNewGame, cmd, args),
        "stop" => no_args(UciCommand::Stop, cmd, args),
        "ponderhit" => no_args(UciCommand::PonderHit, cmd, args),
        "quit" => no_args(UciCommand::Quit, cmd, args),
        "register" => parse_register(args),
        "debug" => match args {
            "on" => Ok(UciCommand::Debug(true)),
            "off" => Ok(UciCommand::Debug(false)),
            _ => Err(CommandError::new("debug needs 'on' or 'off'")),
        },
        "setoption" => parse_setoption(args),
        "position" => parse_position(args),
        "go" => parse_go(args).map(|g| UciCommand::Go(Box::new(g))),
        "" => Err(CommandError::new("empty command")),
        other => Err(CommandError::new(format!(
            "unknown command '{}'",
            shorten(other)
        ))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ok(line: &str) -> UciCommand {
        parse_uci(line).unwrap_or_else(|e| panic!("{line}: {e}"))
    }

    fn err(line: &str) -> String {
        match parse_uci(line) {
            Ok(c) => panic!("{line} parsed as {c:?}"),
            Err(e) => e.reason,
        }
    }

    #[test]
    fn simple_commands() {
        assert_eq!(ok("uci"), UciCommand::Uci);
        assert_eq!(ok("isready"), UciCommand::IsReady);
        assert_eq!(ok("ucinewgame"), UciCommand::UciNewGame);
        assert_eq!(ok("stop"), UciCommand::Stop);
        assert_eq!(ok("quit"), UciCommand::Quit);
        assert_eq!(ok("ponderhit"), UciCommand::PonderHit);
        assert_eq!(ok("debug on"), UciCommand::Debug(true));
        assert_eq!(ok("debug off"), UciCommand::Debug(false));
        assert_eq!(ok("register later"), UciCommand::Register);
        assert_eq!(ok("register name A B code 12"), UciCommand::Register);
        assert!(err("register").contains("later"));
        assert!(err("register later now").contains("later"));
        assert!(err("register name code 1").contains("later"));
        assert!(err("register name x code").contains("later"));
        assert!(err("ping 7\u{3000}junk").contains("U+3000"));
        assert!(err("isready\u{A0}").contains("U+00A0"));
        assert!(err("debug maybe").contains("on"));
        assert!(err("isready now").contains("no arguments"));
        assert!(err("Uci").contains("unknown command"));
        assert!(err("xyzzy").contains("'xyzzy'"));
    }

    #[test]
    fn setoption_names_and_values_with_spaces() {
        assert_eq!(
            ok("setoption name Move Overhead value 30"),
            UciCommand::SetOption {
                name: "Move Overhead".into(),
                value: Some("30".into())
            }
        );
        assert_eq!(
            ok("setoption name Clear Hash"),
            UciCommand::SetOption {
                name: "Clear Hash".into(),
                value: None
            }
        );
        assert_eq!(
            ok("setoption name Book value a  b"),
            UciCommand::SetOption {
                name: "Book".into(),
                value: Some("a  b".into())
            }
        );
        assert!(err("setoption").contains("name"));
        assert!(err("setoption name").contains("missing"));
        assert!(err("setoption value 3").contains("name"));
    }

    #[test]
    fn position_forms() {
        assert_eq!(
            ok("position startpos"),
            UciCommand::Position {
                start: PositionStart::StartPos,
                moves: vec![]
            }
        );
        assert_eq!(
            ok("position startpos moves m2m5 m18m15"),
            UciCommand::Position {
                start: PositionStart::StartPos,
                moves: vec!["m2m5".into(), "m18m15".into()]
            }
        );
        assert_eq!(
            ok("position fen 7***rqkqr***7/x w - - 0 1 moves a1b2"),
            UciCommand::Position {
                start: PositionStart::Text("7***rqkqr***7/x w - - 0 1".into()),
                moves: vec!["a1b2".into()]
            }
        );
        assert_eq!(
            ok("position fen six"),
            UciCommand::Position {
                start: PositionStart::Text("six".into()),
                moves: vec![]
            }
        );
        assert!(err("position").contains("startpos"));
        assert!(err("position fen").contains("missing"));
        assert!(err("position fen moves e2e4").contains("missing"));
        assert!(err("position startpos e2e4").contains("'moves'"));
        assert!(err("position middlegame").contains("startpos"));
        assert!(err("position startpos moves v4y4\u{3000}zzzz").contains("U+3000"));
        assert_eq!(
            ok("position startpos moves v4y4\tzzzz"),
            UciCommand::Position {
                start: PositionStart::StartPos,
                moves: vec!["v4y4".into(), "zzzz".into()]
            }
        );
    }

    #[test]
    fn go_parameters() {
        let go = match ok("go wtime 1000 btime 2000 winc 10 binc 20 movestogo 5") {
            UciCommand::Go(g) => g,
            c => panic!("{c:?}"),
        };
        assert_eq!(go.time[0], Some(Duration::from_millis(1000)));
        assert_eq!(go.time[1], Some(Duration::from_millis(2000)));
        assert_eq!(go.inc[1], Some(Duration::from_millis(20)));
        assert_eq!(go.movestogo, Some(5));
        assert!(!go.is_unbounded());
        let l = go.limits(2, Duration::from_millis(7));
        assert_eq!(
            l.clock,
            Some(Clock {
                remaining: Duration::from_millis(2000),
                increment: Duration::from_millis(20),
                moves_to_go: Some(5)
            })
        );
        assert_eq!(l.overhead, Duration::from_millis(7));

        let go = match ok("go s3time 500 s3inc 5 s1time 9 depth 4 nodes 1000 movetime 77") {
            UciCommand::Go(g) => g,
            c => panic!("{c:?}"),
        };
        assert_eq!(go.time[2], Some(Duration::from_millis(500)));
        assert_eq!(
            go.limits(3, Duration::ZERO)
                .clock
                .unwrap()
                .increment
                .as_millis(),
            5
        );
        assert_eq!(go.limits(2, Duration::ZERO).clock, None);
        assert_eq!(go.depth, Some(4));
        assert_eq!(go.nodes, Some(1000));
        assert_eq!(go.movetime, Some(Duration::from_millis(77)));

        match ok("go") {
            UciCommand::Go(g) => assert!(g.is_unbounded() && g.limits(1, Duration::ZERO).infinite),
            c => panic!("{c:?}"),
        }
        match ok("go infinite") {
            UciCommand::Go(g) => assert!(g.infinite),
            c => panic!("{c:?}"),
        }
        match ok("go perft 3") {
            UciCommand::Go(g) => assert_eq!(g.perft, Some(3)),
            c => panic!("{c:?}"),
        }
        match ok("go wtime -300 btime 99999999999999999999999") {
            UciCommand::Go(g) => {
                assert_eq!(g.time[0], Some(Duration::ZERO));
                assert!(g.time[1].unwrap() > Duration::from_secs(1_000_000));
            }
            c => panic!("{c:?}"),
        }
    }

    #[test]
    fn go_errors() {
        assert!(err("go wtime").contains("needs a value"));
        assert!(err("go wtime abc").contains("integer"));
        assert!(err("go depth -1").contains("non-negative"));
        assert!(err("go depth 99999999999").contains("out of range"));
        assert!(err("go nodes 99999999999999999999999").contains("out of range"));
        assert!(err("go s9time 100").contains("unknown parameter"));
        assert!(err("go s0time 100").contains("unknown parameter"));
        assert!(err("go fast").contains("unknown parameter"));
        assert!(err("go ponder").contains("pondering"));
        assert!(err("go searchmoves e2e4").contains("searchmoves"));
        assert!(err("go perft").contains("needs a value"));
        assert!(err("go perft 0").contains("at least 1"));
        assert!(err("go perft 2 depth 3").contains("no other"));
        assert!(err("go depth 1 depth 2").contains("twice"));
        assert!(err("go wtime 1 nodes 5 wtime 2").contains("twice"));
        assert!(err("go infinite infinite").contains("twice"));
        assert!(err("go wtime 5 s1time 6").contains("twice"));
        assert!(err("go binc 5 s2inc 6").contains("twice"));
    }
}
