//! The CECP (xboard) v2 dialect from the referee's side, for two-seat games: feature
//! negotiation, `new`/`variant`/`setboard`, the engine kept in `force` mode between its turns,
//! `time`/`otim` before each `go`, and `move ...` answers with thinking output for the score.

use std::time::{Duration, Instant};

use super::clock::{Clocks, TimeControl};
use super::engine::{read_or_fault, EngineSpec, Fault, GameContext, Reply, Score, Timeouts};
use super::engine_process::EngineProcess;
use super::game_adapter::DynGame;

/// A CECP engine in a game.
pub struct CecpClient {
    proc: EngineProcess,
    usermove: bool,
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
    let s = if score.abs() >= 100_000 {
        let plies = 100_000 + 1000 - score.abs();
        let moves = (plies + 1) / 2;
        Score::Mate(if score > 0 { moves } else { -moves })
    } else {
        Score::Cp(score)
    };
    Some((s, Some(depth)))
}

fn centis(d: Duration) -> u128 {
    d.as_millis() / 10
}

impl CecpClient {
    /// Starts the engine and negotiates features, waiting up to the handshake timeout for
    /// `feature ... done=1` (protocol version 2 engines only), then sets options.
    pub fn start(spec: &EngineSpec, ctx: &GameContext, timeouts: Timeouts) -> Result<Self, Fault> {
        let proc = EngineProcess::spawn(&spec.cmd, spec.dir.as_deref())
            .map_err(|e| Fault::Crash(format!("could not start {:?}: {e}", spec.cmd)))?;
        let mut me = CecpClient {
            proc,
            usermove: false,
            synced: 0,
            started: false,
            variant: ctx.variant.clone(),
        };
        me.send("xboard")?;
        me.send("protover 2")?;
        let deadline = Instant::now() + timeouts.handshake;
        loop {
            let line = read_or_fault(&mut me.proc, deadline, "feature done=1", None)?;
            if !line.trim_start().starts_with("feature") {
                continue;
            }
            let mut done = false;
            for (name, value) in parse_features(&line) {
                match name.as_str() {
                    "usermove" => me.usermove = value == "1",
                    "done" => done = value == "1",
                    _ => {}
                }
                if name != "done" {
                    me.send(&format!("accepted {name}"))?;
                }
            }
            if done {
                break;
            }
        }
        for (name, value) in &spec.options {
            me.send(&format!("option {name}={value}"))?;
        }
        Ok(me)
    }

    fn send(&mut self, line: &str) -> Result<(), Fault> {
        self.proc
            .send(line)
            .map_err(|e| Fault::Crash(format!("engine input closed ({e})")))
    }

    fn begin_game(&mut self, game: &dyn DynGame, clocks: &Clocks) -> Result<(), Fault> {
        self.send("new")?;
        if let Some(v) = self.variant.clone() {
            self.send(&format!("variant {v}"))?;
        }
        self.send("force")?;
        if !game.is_standard_start() {
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
            TimeControl::Nodes(_) => {}
        }
        self.send("post")?;
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
        let timed = clocks.is_timed().then_some((start, limit));
        let mut last = None;
        loop {
            let line = read_or_fault(&mut self.proc, deadline, "move", timed)?;
            let line = line.trim();
            watch(line);
            if let Some(t) = parse_thinking(line) {
                last = Some(t);
                continue;
            }
            if line == "resign" || line.starts_with("resign ") {
                return Err(Fault::Resign);
            }
            let mut words = line.split_whitespace();
            if words.next() == Some("move") {
                let elapsed = start.elapsed();
                let text = words
                    .next()
                    .ok_or_else(|| Fault::Malformed("`move` without a move".into()))?;
                self.send("force")?;
                self.synced += 1;
                return Ok(Reply {
                    text: text.to_string(),
                    elapsed,
                    score: last.map(|(s, _)| s),
                    depth: last.and_then(|(_, d)| d),
                });
            }
        }
    }

    /// Sends `quit` and stops the process.
    pub fn finish(mut self) {
        self.proc.shut_down("quit", Duration::from_millis(200));
    }
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
    }
}
