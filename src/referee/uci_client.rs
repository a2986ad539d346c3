//! The UCI-style dialect from the referee's side: handshake (`uci`/`uciok`, options,
//! `isready`/`readyok`), then `position` + `go` per decision, reading `info` scores and one
//! `bestmove`.

use std::time::{Duration, Instant};

use super::clock::Clocks;
use super::engine::{read_or_fault, EngineSpec, Fault, GameContext, Reply, Score, Timeouts};
use super::engine_process::EngineProcess;
use super::game_adapter::DynGame;

/// A UCI-style engine in a game.
pub struct UciClient {
    proc: EngineProcess,
    timeouts: Timeouts,
}

/// Score and depth from an `info` line, if it carries a score.
pub fn parse_info_score(line: &str) -> Option<(Score, Option<u32>)> {
    let mut words = line.split_whitespace();
    if words.next() != Some("info") {
        return None;
    }
    let mut depth = None;
    let mut score = None;
    while let Some(w) = words.next() {
        match w {
            "depth" => depth = words.next().and_then(|d| d.parse().ok()),
            "score" => {
                let kind = words.next();
                let value = words.next().and_then(|v| v.parse::<i64>().ok());
                score = match (kind, value) {
                    (Some("cp"), Some(v)) => Some(Score::Cp(v)),
                    (Some("mate"), Some(v)) => Some(Score::Mate(v)),
                    _ => score,
                };
            }
            "pv" | "string" => break,
            _ => {}
        }
    }
    score.map(|s| (s, depth))
}

impl UciClient {
    /// Starts the engine, waits for `uciok`, sets options (and `UCI_Variant` when the engine
    /// offers it and the game has a variant name), then waits for `readyok` after `ucinewgame`.
    pub fn start(spec: &EngineSpec, ctx: &GameContext, timeouts: Timeouts) -> Result<Self, Fault> {
        let proc = EngineProcess::spawn(&spec.cmd, spec.dir.as_deref())
            .map_err(|e| Fault::Crash(format!("could not start {:?}: {e}", spec.cmd)))?;
        let mut me = UciClient { proc, timeouts };
        me.send("uci")?;
        let deadline = Instant::now() + timeouts.handshake;
        let mut has_variant = false;
        loop {
            let line = read_or_fault(&mut me.proc, deadline, "uciok", None)?;
            let line = line.trim();
            if line == "uciok" {
                break;
            }
            if line.starts_with("option") && line.contains("name UCI_Variant ") {
                has_variant = true;
            }
        }
        for (name, value) in &spec.options {
            me.send(&format!("setoption name {name} value {value}"))?;
        }
        if let (Some(v), true) = (&ctx.variant, has_variant) {
            me.send(&format!("setoption name UCI_Variant value {v}"))?;
        }
        me.send("ucinewgame")?;
        me.sync()?;
        Ok(me)
    }

    fn send(&mut self, line: &str) -> Result<(), Fault> {
        self.proc
            .send(line)
            .map_err(|e| Fault::Crash(format!("engine input closed ({e})")))
    }

    /// `isready` → `readyok` within the handshake timeout.
    fn sync(&mut self) -> Result<(), Fault> {
        self.send("isready")?;
        let deadline = Instant::now() + self.timeouts.handshake;
        loop {
            if read_or_fault(&mut self.proc, deadline, "readyok", None)?.trim() == "readyok" {
                return Ok(());
            }
        }
    }

    /// Sends the seat's view and `go`, and waits for `bestmove` within the clock.
    pub fn think(
        &mut self,
        game: &dyn DynGame,
        seat: usize,
        clocks: &Clocks,
    ) -> Result<Reply, Fault> {
        self.think_watched(game, seat, clocks, &mut |_| {})
    }

    /// [`UciClient::think`] that also hands every line the engine writes while thinking
    /// (`info depth ... pv ...`) to `watch` as it arrives (the GUI shows them live).
    pub fn think_watched(
        &mut self,
        game: &dyn DynGame,
        seat: usize,
        clocks: &Clocks,
        watch: &mut dyn FnMut(&str),
    ) -> Result<Reply, Fault> {
        for line in game.uci_position(seat) {
            self.send(&line)?;
        }
        let go = clocks.uci_go_styled(seat, game.go_style());
        let limit = clocks.wait_limit(seat);
        let start = Instant::now();
        self.send(&go)?;
        let deadline = start + limit;
        let timed = clocks.is_timed().then_some((start, limit));
        let mut last_score = None;
        loop {
            let line = read_or_fault(&mut self.proc, deadline, "bestmove", timed)?;
            let line = line.trim();
            watch(line);
            if let Some((s, d)) = parse_info_score(line) {
                last_score = Some((s, d));
                continue;
            }
            if let Some(rest) = line.strip_prefix("bestmove") {
                if !(rest.is_empty() || rest.starts_with(char::is_whitespace)) {
                    continue;
                }
                let elapsed = start.elapsed();
                // The decision is the rest of the line (Space Wars decisions have several
                // words), without a trailing `ponder <move>`.
                let rest = rest.trim();
                let text = match rest.find(" ponder ") {
                    Some(i) => rest[..i].trim_end(),
                    None => rest,
                };
                if text.is_empty() {
                    return Err(Fault::Malformed("`bestmove` without a move".into()));
                }
                if text.chars().any(|c| c.is_control()) {
                    return Err(Fault::Malformed(format!("bestmove {text:?}")));
                }
                return Ok(Reply {
                    text: text.to_string(),
                    elapsed,
                    score: last_score.map(|(s, _)| s),
                    depth: last_score.and_then(|(_, d)| d),
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
    fn info_scores() {
        assert_eq!(
            parse_info_score("info depth 7 seldepth 9 score cp -35 nodes 100 pv e2e4"),
            Some((Score::Cp(-35), Some(7)))
        );
        assert_eq!(
            parse_info_score("info score mate 3 depth 12"),
            Some((Score::Mate(3), Some(12)))
        );
        assert_eq!(parse_info_score("info string score cp 5"), None);
        assert_eq!(parse_info_score("info depth 3 nodes 5"), None);
        assert_eq!(parse_info_score("bestmove e2e4"), None);
    }
}
