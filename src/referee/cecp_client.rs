//! The CECP (xboard) v2 dialect from the referee's side, for two-seat games: feature
//! negotiation (`san=1` refused, options and variants taken from the features), every option
//! and the game's variant checked against them, `new`/`variant`/`setboard`, the engine kept in
//! `force` mode between its turns, `time`/`otim` before each `go`, and `move ...` answers with
//! thinking output for the score. With `ping=1` the referee sends `ping N` after setting up and
//! after each of the engine's moves, and takes everything up to `pong N` before the next `go`:
//! an `Error` there is a setup error (or a protocol fault once the game runs), a `move` a
//! protocol fault.

use std::time::{Duration, Instant};

use super::clock::{Clocks, TimeControl};
use super::engine::{
    read_fault, read_or_fault, write_fault, EngineSpec, Fault, GameContext, Reply, Score, Timed,
    Timeouts, QUOTE_MAX,
};
use super::engine_options::{check_option, parse_cecp_option, Dialect, EngineOption};
use super::engine_process::{sanitize, EngineProcess, Line};
use super::game_adapter::DynGame;

/// A CECP engine in a game.
pub struct CecpClient {
    proc: EngineProcess,
    timeouts: Timeouts,
    usermove: bool,
    ping: bool,
    setboard: bool,
    next_ping: u32,
    /// The `pong` still to come for the last `ping`.
    awaiting_pong: Option<u32>,
    in_game: bool,
    synced: usize,
    started: bool,
    variant: Option<String>,
}

/// Features from one `feature` line as (name, value) pairs; quoted values keep their spaces.
pub fn parse_features(line: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut rest = line
        .trim()
        .strip_prefix("feature")
        .unwrap_or("")
        .trim_start();
    while let Some(eq) = rest.find('=') {
        let name = rest[..eq].trim().to_string();
        let after = &rest[eq + 1..];
        let (value, tail) = if let Some(q) = after.strip_prefix('"') {
            match q.find('"') {
                Some(end) => (q[..end].to_string(), &q[end + 1..]),
                None => (q.to_string(), ""),
            }
        } else {
            let end = after.find(char::is_whitespace).unwrap_or(after.len());
            (after[..end].to_string(), &after[end..])
        };
        out.push((name, value));
        rest = tail.trim_start();
    }
    out
}

/// Score and depth from a CECP thinking line `depth score time nodes pv...`.
pub fn parse_thinking(line: &str) -> Option<(Score, Option<u32>)> {
    let mut w = line.split_whitespace();
    let depth: u32 = w.next()?.trim_end_matches(['&', '.']).parse().ok()?;
    let score: i64 = w.next()?.parse().ok()?;
    let _time: i64 = w.next()?.parse().ok()?;
    let _nodes: u64 = w.next()?.parse().ok()?;
    let s = if score.unsigned_abs() >= 100_000 {
        let plies = 101_000i64.saturating_sub(score.saturating_abs());
        let moves = ((plies + 1) / 2).max(1);
        Score::Mate(if score > 0 { moves } else { -moves })
    } else {
        Score::Cp(score)
    };
    Some((s, Some(depth)))
}

/// Features the referee understands and accepts; any other (`san=1` among them: the referee
/// sends coordinate moves) is answered `rejected`.
const ACCEPTED_FEATURES: [&str; 20] = [
    "ping",
    "setboard",
    "playother",
    "usermove",
    "time",
    "draw",
    "sigint",
    "sigterm",
    "reuse",
    "analyze",
    "myname",
    "variants",
    "colors",
    "ics",
    "name",
    "pause",
    "debug",
    "memory",
    "smp",
    "option",
];

fn centis(d: Duration) -> u128 {
    d.as_millis() / 10
}

fn quote(line: &str) -> String {
    format!("{:?}", sanitize(line, QUOTE_MAX, false))
}

/// CECP replies that report a refused command.
fn is_error_reply(line: &str) -> bool {
    line.starts_with("Error")
        || line.starts_with("Illegal move")
        || line.starts_with("tellusererror")
}

impl CecpClient {
    /// Starts the engine and negotiates features, waiting up to the handshake timeout for
    /// `feature ... done=1` (protocol version 2 engines only), checks and sets the options,
    /// checks the game's variant against `feature variants`, and with `ping=1` syncs.
    pub fn start(spec: &EngineSpec, ctx: &GameContext, timeouts: Timeouts) -> Result<Self, Fault> {
        let proc = EngineProcess::spawn(
            &spec.cmd,
            spec.dir.as_deref(),
            &spec.name,
            timeouts.handshake,
        )
        .map_err(|e| Fault::Crash(format!("could not start {:?}: {e}", spec.cmd)))?;
        let mut me = CecpClient {
            proc,
            timeouts,
            usermove: false,
            ping: false,
            setboard: false,
            next_ping: 1,
            awaiting_pong: None,
            in_game: false,
            synced: 0,
            started: false,
            variant: ctx.variant.clone(),
        };
        me.send("xboard")?;
        me.send("protover 2")?;
        let deadline = Instant::now() + timeouts.handshake;
        let mut offered: Vec<EngineOption> = Vec::new();
        let mut variants: Option<Vec<String>> = None;
        loop {
            let line = me.read(deadline, "feature done=1", None)?;
            let text = line.text.trim();
            if is_answer(text) {
                return Err(Fault::Protocol(format!(
                    "{} before the features were done",
                    quote(text)
                )));
            }
            if !text.starts_with("feature") {
                continue;
            }
            let mut done = false;
            for (name, value) in parse_features(text) {
                let accept = match name.as_str() {
                    "done" => {
                        done = value == "1";
                        continue;
                    }
                    "usermove" => {
                        me.usermove = value == "1";
                        true
                    }
                    "ping" => {
                        me.ping = value == "1";
                        true
                    }
                    "setboard" => {
                        me.setboard = value == "1";
                        true
                    }
                    "variants" => {
                        variants = Some(
                            value
                                .split(',')
                                .map(|v| v.trim().to_string())
                                .filter(|v| !v.is_empty())
                                .collect(),
                        );
                        true
                    }
                    "option" => match parse_cecp_option(&value) {
                        Some(o) => {
                            offered.push(o);
                            true
                        }
                        None => false,
                    },
                    other => ACCEPTED_FEATURES.contains(&other),
                };
                let verdict = if accept { "accepted" } else { "rejected" };
                me.send(&format!("{verdict} {name}"))?;
            }
            if done {
                break;
            }
        }
        if let Some(v) = &me.variant {
            let listed = variants.clone().unwrap_or_else(|| vec!["normal".into()]);
            if !listed.iter().any(|x| x == v) {
                return Err(Fault::Setup(format!(
                    "the engine does not offer variant {v:?} (feature variants: {})",
                    listed.join(",")
                )));
            }
        }
        for (name, value) in &spec.options {
            let (name, value) =
                check_option(&offered, name, value, Dialect::Cecp).map_err(Fault::Setup)?;
            let line = if value.is_empty() {
                format!("option {name}")
            } else {
                format!("option {name}={value}")
            };
            me.send(&line)?;
        }
        me.sync_ping()?;
        Ok(me)
    }

    fn send(&mut self, line: &str) -> Result<(), Fault> {
        self.proc
            .send(line)
            .map_err(|e| write_fault(&mut self.proc, e, line))
    }

    fn read(
        &mut self,
        deadline: Instant,
        waiting_for: &str,
        timed: Option<Timed>,
    ) -> Result<Line, Fault> {
        read_or_fault(&mut self.proc, deadline, waiting_for, timed)
    }

    fn refused(&self, text: &str) -> Fault {
        let what = format!("engine error: {}", quote(text));
        if self.in_game {
            Fault::Protocol(what)
        } else {
            Fault::Setup(what)
        }
    }

    /// With `ping=1`: sends `ping N` and takes everything up to `pong N`.
    fn sync_ping(&mut self) -> Result<(), Fault> {
        if self.ping {
            let n = self.next_ping;
            self.next_ping += 1;
            self.send(&format!("ping {n}"))?;
            self.awaiting_pong = Some(n);
        }
        self.settle()
    }

    /// Takes everything up to the awaited `pong` (within the handshake timeout), then whatever
    /// else already arrived: an error reply is a fault, and so is a `move` nobody asked for.
    fn settle(&mut self) -> Result<(), Fault> {
        if let Some(n) = self.awaiting_pong {
            let deadline = Instant::now() + self.timeouts.handshake;
            let want = format!("pong {n}");
            loop {
                let line = self.read(deadline, &want, None)?;
                let text = line.text.trim();
                if text == want {
                    break;
                }
                self.between_moves(text)?;
            }
            self.awaiting_pong = None;
        }
        for r in self.proc.drain_now() {
            match r {
                Ok(line) => self.between_moves(line.text.trim())?,
                Err(e) => return Err(read_fault(&mut self.proc, e, "the next move", None)),
            }
        }
        Ok(())
    }

    fn between_moves(&self, text: &str) -> Result<(), Fault> {
        if is_error_reply(text) {
            Err(self.refused(text))
        } else if is_answer(text) {
            Err(Fault::Protocol(format!(
                "unsolicited {} while the engine was not on move",
                quote(text)
            )))
        } else {
            Ok(())
        }
    }

    fn begin_game(&mut self, game: &dyn DynGame, clocks: &Clocks) -> Result<(), Fault> {
        self.send("new")?;
        if let Some(v) = self.variant.clone() {
            self.send(&format!("variant {v}"))?;
        }
        self.send("force")?;
        if !game.is_standard_start() {
            if !self.setboard {
                return Err(Fault::Setup(
                    "the game starts from a position but the engine has no setboard feature".into(),
                ));
            }
            self.send(&format!("setboard {}", game.start_text()))?;
        }
        match clocks.control() {
            TimeControl::Clock { base, increment } => {
                let secs = base.as_secs();
                self.send(&format!(
                    "level 0 {}:{:02} {}",
                    secs / 60,
                    secs % 60,
                    increment.as_secs_f64()
                ))?;
            }
            TimeControl::MoveTime(t) => self.send(&format!(
                "st {}",
                (t.as_millis() as f64 / 1000.0).max(0.001)
            ))?,
            TimeControl::Depth(d) => self.send(&format!("sd {d}"))?,
            TimeControl::Nodes(_) => {
                return Err(Fault::Setup(
                    "CECP has no node limit (use --depth or a clock)".into(),
                ))
            }
        }
        self.send("post")?;
        self.sync_ping()?;
        self.in_game = true;
        self.started = true;
        Ok(())
    }

    /// Brings the engine up to date in force mode, sends the clocks and `go`, waits for `move`.
    pub fn think(
        &mut self,
        game: &dyn DynGame,
        seat: usize,
        clocks: &Clocks,
    ) -> Result<Reply, Fault> {
        self.think_watched(game, seat, clocks, &mut |_| {})
    }

    /// [`CecpClient::think`] that also hands every line the engine writes while thinking
    /// (thinking output `depth score time nodes pv`) to `watch` as it arrives.
    pub fn think_watched(
        &mut self,
        game: &dyn DynGame,
        seat: usize,
        clocks: &Clocks,
        watch: &mut dyn FnMut(&str),
    ) -> Result<Reply, Fault> {
        if !self.started {
            self.begin_game(game, clocks)?;
        }
        self.settle()?;
        let history = game.history();
        for m in history.iter().skip(self.synced) {
            let line = if self.usermove {
                format!("usermove {m}")
            } else {
                m.clone()
            };
            self.send(&line)?;
        }
        self.synced = history.len();
        if let TimeControl::Clock { .. } = clocks.control() {
            let other = 1 - seat.min(1);
            self.send(&format!("time {}", centis(clocks.remaining(seat))))?;
            self.send(&format!("otim {}", centis(clocks.remaining(other))))?;
        }
        let limit = clocks.wait_limit(seat);
        let start = Instant::now();
        self.send("go")?;
        let deadline = start + limit;
        let timed = clocks.is_timed().then_some(Timed {
            start,
            allowed: limit,
            margin: clocks.margin(),
        });
        let mut last = None;
        loop {
            let line = self.read(deadline, "move", timed)?;
            let at = line.at;
            let text = line.text.trim();
            watch(text);
            if let Some(t) = parse_thinking(text) {
                last = Some(t);
                continue;
            }
            if text == "resign" || text.starts_with("resign ") {
                return Err(Fault::Resign);
            }
            if is_error_reply(text) {
                return Err(self.refused(text));
            }
            if text.starts_with("pong") {
                return Err(Fault::Protocol(format!(
                    "unsolicited {} during a search",
                    quote(text)
                )));
            }
            let mut words = text.split_whitespace();
            if words.next() == Some("move") {
                let elapsed = at.saturating_duration_since(start);
                let mv = words
                    .next()
                    .ok_or_else(|| Fault::Malformed("`move` without a move".into()))?
                    .to_string();
                if words.next().is_some() {
                    return Err(Fault::Malformed(format!(
                        "text after the move: {}",
                        quote(text)
                    )));
                }
                for r in self.proc.drain_now() {
                    match r {
                        Ok(l) => self.between_moves(l.text.trim())?,
                        Err(_) => break,
                    }
                }
                self.send("force")?;
                self.synced += 1;
                if self.ping {
                    let n = self.next_ping;
                    self.next_ping += 1;
                    self.send(&format!("ping {n}"))?;
                    self.awaiting_pong = Some(n);
                }
                return Ok(Reply {
                    text: mv,
                    elapsed,
                    score: last.map(|(s, _)| s),
                    depth: last.and_then(|(_, d)| d),
                });
            }
        }
    }

    /// Sends `quit` and stops the process (its whole process group).
    pub fn finish(mut self) {
        self.proc.shut_down("quit", Duration::from_millis(200));
    }
}

/// Lines that only make sense as an answer on the engine's move.
fn is_answer(line: &str) -> bool {
    line == "move" || line.starts_with("move ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn features_and_thinking() {
        let f = parse_features(r#"feature ping=1 myname="Fake Engine 1.0" usermove=1 done=1"#);
        assert_eq!(f[1], ("myname".to_string(), "Fake Engine 1.0".to_string()));
        assert_eq!(f[2], ("usermove".to_string(), "1".to_string()));
        assert_eq!(f[3], ("done".to_string(), "1".to_string()));
        assert_eq!(
            parse_thinking("9 -25 120 34567 e2e4 e7e5"),
            Some((Score::Cp(-25), Some(9)))
        );
        assert_eq!(parse_thinking("move e2e4"), None);
        assert_eq!(
            parse_thinking("1 -9223372036854775808 0 0"),
            Some((Score::Mate(-1), Some(1)))
        );
        assert_eq!(
            parse_thinking("5 100995 0 0"),
            Some((Score::Mate(3), Some(5)))
        );
        assert!(is_error_reply("Error (unknown option): option X=1"));
        assert!(is_error_reply("Illegal move: e2e5"));
        assert!(!is_error_reply("move e2e4"));
    }
}
