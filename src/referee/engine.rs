//! An engine as the match sees it: how to start it ([`EngineSpec`]), what it answered
//! ([`Reply`]), and the ways it can lose by itself ([`Fault`]).

use std::time::Duration;

use super::cecp_client::CecpClient;
use super::clock::{Clocks, Flagged};
use super::engine_process::{sanitize, EngineProcess};
use super::game_adapter::DynGame;
use super::uci_client::UciClient;

/// Which dialect an engine speaks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Proto {
    /// UCI-style: stateless `position` + `go`.
    Uci,
    /// CECP (xboard) v2: stateful, `feature` negotiation.
    Xboard,
}

/// How to start and configure one engine (`--engine name=...,cmd=...,proto=...,option.X=Y`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineSpec {
    /// Name in results and records.
    pub name: String,
    /// Command line, run through `sh -c`.
    pub cmd: String,
    /// Working directory, if not the current one.
    pub dir: Option<String>,
    /// Dialect.
    pub proto: Proto,
    /// Options set after the handshake, in order.
    pub options: Vec<(String, String)>,
}

impl EngineSpec {
    /// Parses `name=...,cmd=...[,dir=...][,proto=uci|xboard][,option.NAME=VALUE]...`. A `cmd`
    /// containing commas must come last: everything after `cmd=` up to the next `,key=` with a
    /// known key belongs to it.
    pub fn parse(text: &str) -> Result<Self, String> {
        let mut name = None;
        let mut cmd: Option<String> = None;
        let mut dir = None;
        let mut proto = Proto::Uci;
        let mut options = Vec::new();
        let mut last_was_cmd = false;
        for part in text.split(',') {
            let known = part.split_once('=').filter(|(k, _)| {
                matches!(*k, "name" | "cmd" | "dir" | "proto") || k.starts_with("option.")
            });
            match known {
                Some(("name", v)) => name = Some(v.to_string()),
                Some(("cmd", v)) => cmd = Some(v.to_string()),
                Some(("dir", v)) => dir = Some(v.to_string()),
                Some(("proto", v)) => {
                    proto = match v {
                        "uci" => Proto::Uci,
                        "xboard" | "cecp" => Proto::Xboard,
                        _ => return Err(format!("--engine {text:?}: proto must be uci or xboard")),
                    }
                }
                Some((k, v)) => options.push((k["option.".len()..].to_string(), v.to_string())),
                None if last_was_cmd => {
                    let c = cmd.as_mut().expect("cmd was just set");
                    c.push(',');
                    c.push_str(part);
                    continue;
                }
                None => return Err(format!("--engine {text:?}: unknown part {part:?}")),
            }
            last_was_cmd = matches!(known, Some(("cmd", _)));
        }
        let cmd = cmd.ok_or_else(|| format!("--engine {text:?}: cmd=... is required"))?;
        if cmd.trim().is_empty() {
            return Err(format!("--engine {text:?}: cmd is empty"));
        }
        let name = name.unwrap_or_else(|| cmd.clone());
        if name.trim().is_empty() {
            return Err(format!("--engine {text:?}: name is empty"));
        }
        if name.chars().any(char::is_control) {
            return Err(format!(
                "--engine {text:?}: the name has control characters (names go into PGN tags and reports)"
            ));
        }
        if let Some((k, _)) = options.iter().find(|(k, _)| k.trim().is_empty()) {
            return Err(format!("--engine {text:?}: option name {k:?} is empty"));
        }
        if options
            .iter()
            .any(|(k, v)| k.chars().chain(v.chars()).any(char::is_control))
        {
            return Err(format!(
                "--engine {text:?}: option names and values must not have control characters"
            ));
        }
        Ok(EngineSpec {
            name,
            cmd,
            dir,
            proto,
            options,
        })
    }
}

/// An engine's evaluation of its move, from its own point of view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Score {
    /// Centipawns (or the game's equivalent units).
    Cp(i64),
    /// Mate in N moves (negative: being mated).
    Mate(i64),
}

impl Score {
    /// Text for records: `+0.35`, `-1.20`, `+M3`, `-M2`.
    pub fn pgn_text(&self) -> String {
        match *self {
            Score::Cp(cp) => format!("{:+.2}", cp as f64 / 100.0),
            Score::Mate(n) if n >= 0 => format!("+M{n}"),
            Score::Mate(n) => format!("-M{}", -n),
        }
    }
    /// A comparable centipawn value (mates as ±100000).
    pub fn as_cp(&self) -> i64 {
        match *self {
            Score::Cp(cp) => cp,
            Score::Mate(n) if n >= 0 => 100_000 - n,
            Score::Mate(n) => -100_000 - n,
        }
    }
}

/// What an engine answered to `go`.
#[derive(Clone, Debug, PartialEq)]
pub struct Reply {
    /// The decision text as sent (not yet checked by the rules).
    pub text: String,
    /// Wall time from `go` to the answer.
    pub elapsed: Duration,
    /// Last score reported before the answer.
    pub score: Option<Score>,
    /// Depth of that score.
    pub depth: Option<u32>,
}

/// Ways an engine loses a game by itself.
#[derive(Clone, Debug, PartialEq)]
pub enum Fault {
    /// Could not start, or exited / closed its output.
    Crash(String),
    /// Did not answer within a timeout.
    Hang(String),
    /// Wrote something that is not protocol: no move, not text, a line too long, a flood.
    Malformed(String),
    /// Answered after its time (plus margin) ran out.
    TimeForfeit(Flagged),
    /// Answered with a decision the rules refuse.
    Illegal {
        /// The decision as sent.
        text: String,
        /// The rules core's reason.
        reason: String,
    },
    /// Resigned (CECP `resign`).
    Resign,
    /// Broke the protocol's order: an answer nobody asked for (a second `bestmove`, a `move`
    /// between searches), or an error reply to a position or move the rules accept.
    Protocol(String),
    /// Does not offer, or refused, an option or the game's variant.
    Setup(String),
}

/// Longest piece of engine-supplied text quoted in a reason.
pub const QUOTE_MAX: usize = 80;

impl Fault {
    /// Short kind for records: `crash`, `hang`, `malformed output`, `time forfeit`,
    /// `illegal move`, `resignation`, `protocol fault`, `setup error`.
    pub fn kind(&self) -> &'static str {
        match self {
            Fault::Crash(_) => "crash",
            Fault::Hang(_) => "hang",
            Fault::Malformed(_) => "malformed output",
            Fault::TimeForfeit(_) => "time forfeit",
            Fault::Illegal { .. } => "illegal move",
            Fault::Resign => "resignation",
            Fault::Protocol(_) => "protocol fault",
            Fault::Setup(_) => "setup error",
        }
    }

    fn detail(&self) -> String {
        match self {
            Fault::Crash(s)
            | Fault::Hang(s)
            | Fault::Malformed(s)
            | Fault::Protocol(s)
            | Fault::Setup(s) => s.clone(),
            Fault::TimeForfeit(f) => f.describe(),
            Fault::Illegal { text, reason } => format!(
                "sent {:?}: {}",
                sanitize(text, QUOTE_MAX, false),
                sanitize(reason, 2 * QUOTE_MAX, false)
            ),
            Fault::Resign => String::new(),
        }
    }

    /// Reason text without a seat: `<kind>: <detail>`.
    pub fn describe(&self) -> String {
        match self {
            Fault::Resign => "resignation".to_string(),
            _ => format!("{}: {}", self.kind(), self.detail()),
        }
    }

    /// Reason text for records: `<kind>: seat N (<engine>): <detail>`.
    pub fn reason(&self, seat: usize, engine: &str) -> String {
        let who = format!("seat {} ({})", seat + 1, sanitize(engine, QUOTE_MAX, false));
        match self {
            Fault::Resign => format!("resignation: {who}"),
            _ => format!("{}: {who}: {}", self.kind(), self.detail()),
        }
    }
}

/// What the clients need to know about the game being started.
#[derive(Clone, Debug)]
pub struct GameContext {
    /// Variant name for `UCI_Variant` / CECP `variant` (None: the engine's default).
    pub variant: Option<String>,
    /// Seat this engine plays (0-based).
    pub seat: usize,
    /// Number of seats.
    pub seats: usize,
}

/// Timeouts for the parts of the protocol that have no clock.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Timeouts {
    /// `uci`→`uciok`, `isready`→`readyok`, CECP feature negotiation and `ping`→`pong`; also how
    /// long a write to an engine that does not read its input may wait.
    pub handshake: Duration,
}

/// A running engine in either dialect.
pub enum EngineClient {
    /// UCI-style.
    Uci(UciClient),
    /// CECP.
    Xboard(CecpClient),
}

impl EngineClient {
    /// Starts the engine and completes the handshake and option setting.
    pub fn start(spec: &EngineSpec, ctx: &GameContext, t: Timeouts) -> Result<Self, Fault> {
        match spec.proto {
            Proto::Uci => Ok(EngineClient::Uci(UciClient::start(spec, ctx, t)?)),
            Proto::Xboard => Ok(EngineClient::Xboard(CecpClient::start(spec, ctx, t)?)),
        }
    }

    /// Asks for the seat's decision in the current state.
    pub fn think(
        &mut self,
        game: &dyn DynGame,
        seat: usize,
        clocks: &Clocks,
    ) -> Result<Reply, Fault> {
        match self {
            EngineClient::Uci(c) => c.think(game, seat, clocks),
            EngineClient::Xboard(c) => c.think(game, seat, clocks),
        }
    }

    /// [`EngineClient::think`] with every line the engine writes while thinking handed to
    /// `watch` as it arrives (live thinking output in the GUI).
    pub fn think_watched(
        &mut self,
        game: &dyn DynGame,
        seat: usize,
        clocks: &Clocks,
        watch: &mut dyn FnMut(&str),
    ) -> Result<Reply, Fault> {
        match self {
            EngineClient::Uci(c) => c.think_watched(game, seat, clocks, watch),
            EngineClient::Xboard(c) => c.think_watched(game, seat, clocks, watch),
        }
    }

    /// Tells the engine the game is over and stops it.
    pub fn finish(self) {
        match self {
            EngineClient::Uci(c) => c.finish(),
            EngineClient::Xboard(c) => c.finish(),
        }
    }
}

/// A wait that runs against a seat's clock: when it started, what it may use (including the
/// margin) and the margin.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Timed {
    pub start: std::time::Instant,
    pub allowed: Duration,
    pub margin: Duration,
}

/// Waits for a reply line under a deadline, mapping read errors to faults: the end of the
/// engine's output to a crash (with its exit status and the tail of its stderr), a timeout to a
/// time forfeit (`timed`) or a hang, bad bytes, an overlong line or a flood to malformed output.
pub(crate) fn read_or_fault(
    proc: &mut EngineProcess,
    deadline: std::time::Instant,
    waiting_for: &str,
    timed: Option<Timed>,
) -> Result<super::engine_process::Line, Fault> {
    proc.read_line(deadline)
        .map_err(|e| read_fault(proc, e, waiting_for, timed))
}

/// The fault for a read error (see [`read_or_fault`]).
pub(crate) fn read_fault(
    proc: &mut EngineProcess,
    e: super::engine_process::ReadError,
    waiting_for: &str,
    timed: Option<Timed>,
) -> Fault {
    use super::engine_process::{ReadError, FLOOD_BYTES, FLOOD_LINES, MAX_LINE_BYTES};
    match e {
        ReadError::Exited { status, partial } => {
            let how = match status {
                Some(s) => format!("engine exited ({s})"),
                None => "engine closed its output".to_string(),
            };
            let partial = partial
                .map(|p| format!(", leaving an unfinished line {p:?}"))
                .unwrap_or_default();
            crash(proc, format!("{how}{partial} while the referee waited for {waiting_for}"))
        }
        ReadError::NotText => Fault::Malformed(format!(
            "bytes that are not UTF-8 text while the referee waited for {waiting_for}"
        )),
        ReadError::TooLong(n) => Fault::Malformed(format!(
            "a line of {n} bytes (the limit is {MAX_LINE_BYTES}) while the referee waited for {waiting_for}"
        )),
        ReadError::Flood { lines, bytes } => Fault::Malformed(format!(
            "output flood: {lines} lines, {bytes} bytes without a command from the referee \
             (limits {FLOOD_LINES} lines, {} MiB) while it waited for {waiting_for}",
            FLOOD_BYTES >> 20
        )),
        ReadError::Timeout => match timed {
            Some(t) => Fault::TimeForfeit(Flagged {
                used: t.start.elapsed(),
                allowed: t.allowed,
                margin: t.margin,
                no_answer: true,
            }),
            None => Fault::Hang(format!("no {waiting_for} in time")),
        },
    }
}

/// A crash fault whose reason ends with the tail of the engine's stderr, if it wrote any.
pub(crate) fn crash(proc: &mut EngineProcess, what: String) -> Fault {
    let tail = proc.stderr_tail();
    if tail.is_empty() {
        Fault::Crash(what)
    } else {
        Fault::Crash(format!("{what}; stderr: {tail}"))
    }
}

/// The fault for a failed write of `line` to the engine: it exited, closed its input, or
/// stopped reading.
pub(crate) fn write_fault(proc: &mut EngineProcess, e: std::io::Error, line: &str) -> Fault {
    if e.kind() == std::io::ErrorKind::TimedOut {
        return Fault::Hang(format!(
            "the engine stopped reading its input (the referee could not send {})",
            quote_line(line)
        ));
    }
    // An engine that died makes the write fail at once; give its exit a moment to show.
    let until = std::time::Instant::now() + Duration::from_millis(200);
    let mut status = proc.exit_status();
    while status.is_none() && std::time::Instant::now() < until {
        std::thread::sleep(Duration::from_millis(5));
        status = proc.exit_status();
    }
    match status {
        Some(s) => crash(
            proc,
            format!("engine exited ({s}) before it read {}", quote_line(line)),
        ),
        None => crash(
            proc,
            format!(
                "engine input closed ({e}) when the referee sent {}",
                quote_line(line)
            ),
        ),
    }
}

fn quote_line(line: &str) -> String {
    format!("{:?}", sanitize(line, QUOTE_MAX, false))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_engine_specs() {
        let e = EngineSpec::parse("name=a,cmd=./eng --x,proto=xboard,option.Hash=16").unwrap();
        assert_eq!(e.name, "a");
        assert_eq!(e.cmd, "./eng --x");
        assert_eq!(e.proto, Proto::Xboard);
        assert_eq!(e.options, vec![("Hash".to_string(), "16".to_string())]);
        let c = EngineSpec::parse("cmd=sh -c 'a,b',name=b").unwrap();
        assert_eq!(c.cmd, "sh -c 'a,b'");
        assert_eq!(c.name, "b");
        assert!(EngineSpec::parse("name=x").is_err());
        assert!(EngineSpec::parse("name=x,cmd=y,proto=z").is_err());
        assert!(EngineSpec::parse("bogus,cmd=y").is_err());
        assert!(EngineSpec::parse("name=a\u{7}b,cmd=y").is_err());
        assert!(EngineSpec::parse("name=,cmd=y").is_err());
        assert!(EngineSpec::parse("name=a,cmd=y,option.=3").is_err());
    }

    #[test]
    fn fault_reasons_name_seat_and_engine() {
        let f = Fault::Illegal {
            text: "x".repeat(5_000_000),
            reason: "no such square".into(),
        };
        let r = f.reason(1, "b");
        assert!(r.starts_with("illegal move: seat 2 (b): sent \"xxx"), "{r}");
        assert!(r.contains("(5000000 bytes)"), "{r}");
        assert!(r.len() < 300, "{}", r.len());
        assert_eq!(Fault::Resign.reason(0, "a"), "resignation: seat 1 (a)");
        assert_eq!(
            Fault::Crash("gone".into()).reason(0, "a\nb"),
            "crash: seat 1 (a\\nb): gone"
        );
    }

    #[test]
    fn score_text() {
        assert_eq!(Score::Cp(35).pgn_text(), "+0.35");
        assert_eq!(Score::Cp(-120).pgn_text(), "-1.20");
        assert_eq!(Score::Mate(3).pgn_text(), "+M3");
        assert_eq!(Score::Mate(-2).pgn_text(), "-M2");
    }
}
