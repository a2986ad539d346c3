//! An engine as the match sees it: how to start it ([`EngineSpec`]), what it answered
//! ([`Reply`]), and the ways it can lose by itself ([`Fault`]).

use std::time::Duration;

use super::cecp_client::CecpClient;
use super::clock::{Clocks, Flagged};
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
    /// Answered with something that is not protocol.
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
}

impl Fault {
    /// Short kind for records: `crash`, `hang`, `malformed output`, `time forfeit`,
    /// `illegal move`, `resignation`.
    pub fn kind(&self) -> &'static str {
        match self {
            Fault::Crash(_) => "crash",
            Fault::Hang(_) => "hang",
            Fault::Malformed(_) => "malformed output",
            Fault::TimeForfeit(_) => "time forfeit",
            Fault::Illegal { .. } => "illegal move",
            Fault::Resign => "resignation",
        }
    }

    /// Full reason text for records.
    pub fn describe(&self) -> String {
        match self {
            Fault::Crash(s) | Fault::Hang(s) | Fault::Malformed(s) => {
                format!("{}: {s}", self.kind())
            }
            Fault::TimeForfeit(f) => format!(
                "time forfeit: used {} ms, had {} ms",
                f.used.as_millis(),
                f.allowed.as_millis()
            ),
            Fault::Illegal { text, reason } => format!("illegal move {text:?}: {reason}"),
            Fault::Resign => "resignation".to_string(),
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
    /// `uci`→`uciok`, `isready`→`readyok`, CECP feature negotiation.
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

/// Waits for a reply line under a deadline, mapping read errors to faults.
pub(crate) fn read_or_fault(
    proc: &mut super::engine_process::EngineProcess,
    deadline: std::time::Instant,
    waiting_for: &str,
    timed: Option<(std::time::Instant, Duration)>,
) -> Result<String, Fault> {
    use super::engine_process::ReadError;
    match proc.read_line(deadline) {
        Ok(l) => Ok(l),
        Err(ReadError::Closed) => Err(Fault::Crash(format!(
            "engine exited while the referee waited for {waiting_for}"
        ))),
        Err(ReadError::NotText) => Err(Fault::Malformed(format!(
            "non-text bytes while the referee waited for {waiting_for}"
        ))),
        Err(ReadError::Timeout) => match timed {
            Some((since, allowed)) => Err(Fault::TimeForfeit(Flagged {
                used: since.elapsed(),
                allowed,
            })),
            None => Err(Fault::Hang(format!("no {waiting_for} in time"))),
        },
    }
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
    }

    #[test]
    fn score_text() {
        assert_eq!(Score::Cp(35).pgn_text(), "+0.35");
        assert_eq!(Score::Cp(-120).pgn_text(), "-1.20");
        assert_eq!(Score::Mate(3).pgn_text(), "+M3");
        assert_eq!(Score::Mate(-2).pgn_text(), "-M2");
    }
}
