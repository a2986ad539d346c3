//! The UCI-style dialect from the referee's side: handshake (`uci`/`uciok`, every option checked
//! against the engine's declarations and set, the game's `UCI_Variant`, `ucinewgame`,
//! `isready`/`readyok` with any `info string error` as a setup error), then `position` + `go` per
//! decision, reading `info` scores and one `bestmove`. After each `bestmove` the referee sends
//! `isready` at once and, before the next `go`, takes everything up to the `readyok`: a `bestmove`
//! among it is an answer nobody asked for, a protocol fault.

use std::time::{Duration, Instant};

use super::clock::Clocks;
use super::engine::{
    read_or_fault, write_fault, EngineSpec, Fault, GameContext, Reply, Score, Timed, Timeouts,
    QUOTE_MAX,
};
use super::engine_options::{check_option, parse_uci_option, Dialect, EngineOption, OptionKind};
use super::engine_process::{sanitize, EngineProcess, Line};
use super::game_adapter::DynGame;

/// A UCI-style engine in a game.
pub struct UciClient {
    proc: EngineProcess,
    timeouts: Timeouts,
    /// An `isready` was sent after the last `bestmove` and its `readyok` is still to come.
    awaiting_ready: bool,
    /// The handshake is over: error replies are protocol faults from now on, not setup errors.
    in_game: bool,
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

/// True for an engine's error reply: `info string error...` (any case), which is how UCI
/// engines without an error command report refused input, or Stockfish's `No such option`.
pub fn is_error_reply(line: &str) -> bool {
    let l = line.trim();
    if let Some(rest) = l.strip_prefix("info string") {
        return rest.trim_start().to_ascii_lowercase().starts_with("error");
    }
    l.starts_with("No such option")
}

/// The engine's `UCI_Variant` declaration, if it makes one.
fn variant_option(offered: &[EngineOption]) -> Option<&EngineOption> {
    offered
        .iter()
        .find(|o| o.name.eq_ignore_ascii_case("UCI_Variant"))
}

/// The engine's `UCI_Variant` choices when they are a combo without `variant` (an engine without
/// that option, or with a free-form one, is taken at its word).
fn missing_variant<'a>(offered: &'a [EngineOption], variant: &str) -> Option<&'a [String]> {
    match &variant_option(offered)?.kind {
        OptionKind::Combo(vars) if !vars.iter().any(|x| x == variant) => Some(vars),
        _ => None,
    }
}

fn quote(line: &str) -> String {
    format!("{:?}", sanitize(line, QUOTE_MAX, false))
}

impl UciClient {
    /// Starts the engine, waits for `uciok`, checks every option against the engine's
    /// declarations (and the game's variant against its `UCI_Variant` choices), sets them, then
    /// sends `ucinewgame` and waits for `readyok`; an error reply before it is a setup error.
    pub fn start(spec: &EngineSpec, ctx: &GameContext, timeouts: Timeouts) -> Result<Self, Fault> {
        let proc = EngineProcess::spawn(
            &spec.cmd,
            spec.dir.as_deref(),
            &spec.name,
            timeouts.handshake,
        )
        .map_err(|e| Fault::Crash(format!("could not start {:?}: {e}", spec.cmd)))?;
        let mut me = UciClient {
            proc,
            timeouts,
            awaiting_ready: false,
            in_game: false,
        };
        me.send("uci")?;
        let deadline = Instant::now() + timeouts.handshake;
        let mut offered = me.declarations(deadline)?;
        let mut commands = Vec::new();
        for (name, value) in &spec.options {
            if name.eq_ignore_ascii_case("UCI_Variant") && ctx.variant.is_some() {
                return Err(Fault::Setup(format!(
                    "option.{name}={value}: the referee sets UCI_Variant from --game/--setup"
                )));
            }
            let (name, value) =
                check_option(&offered, name, value, Dialect::Uci).map_err(Fault::Setup)?;
            commands.push(if value.is_empty() {
                format!("setoption name {name}")
            } else {
                format!("setoption name {name} value {value}")
            });
        }
        if let Some(v) = &ctx.variant {
            if !spec.options.is_empty() && missing_variant(&offered, v).is_some() {
                // Some engines learn variants from an option (Fairy-Stockfish's VariantPath):
                // set the options first, then read the declarations again.
                for c in commands.drain(..) {
                    me.send(&c)?;
                }
                me.send("uci")?;
                offered = me.declarations(Instant::now() + timeouts.handshake)?;
            }
            if let Some(vars) = missing_variant(&offered, v) {
                let hint = if spec.options.is_empty() {
                    "; an engine that reads variants from a file needs the option naming it, \
                     e.g. option.VariantPath=FILE for Fairy-Stockfish"
                } else {
                    ""
                };
                return Err(Fault::Setup(format!(
                    "the engine does not offer variant {v:?} (its UCI_Variant takes: {}){hint}",
                    vars.join(", ")
                )));
            }
            if let Some(o) = variant_option(&offered) {
                commands.push(format!("setoption name {} value {v}", o.name));
            }
        }
        for c in &commands {
            me.send(c)?;
        }
        me.send("ucinewgame")?;
        me.send("isready")?;
        me.awaiting_ready = true;
        me.settle()?;
        me.in_game = true;
        Ok(me)
    }

    /// Reads the engine's `option` declarations up to `uciok` (after a `uci`); an error reply
    /// there is a setup error, an answer a protocol fault.
    fn declarations(&mut self, deadline: Instant) -> Result<Vec<EngineOption>, Fault> {
        let mut offered: Vec<EngineOption> = Vec::new();
        loop {
            let line = self.read(deadline, "uciok", None)?;
            let line = line.text.trim();
            if line == "uciok" {
                break;
            }
            if let Some(o) = parse_uci_option(line) {
                offered.push(o);
            } else if is_error_reply(line) {
                return Err(Fault::Setup(format!(
                    "engine error before uciok: {}",
                    quote(line)
                )));
            } else if is_answer(line) {
                return Err(Fault::Protocol(format!("{} before uciok", quote(line))));
            }
        }
        Ok(offered)
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

    /// Takes everything the engine wrote up to the `readyok` of the last `isready` (within the
    /// handshake timeout), then whatever else already arrived: a `bestmove` or an extra
    /// `readyok` there is a protocol fault, an error reply a setup error.
    fn settle(&mut self) -> Result<(), Fault> {
        if self.awaiting_ready {
            let deadline = Instant::now() + self.timeouts.handshake;
            loop {
                let line = self.read(deadline, "readyok", None)?;
                let text = line.text.trim();
                if text == "readyok" {
                    break;
                }
                self.between_searches(text)?;
            }
            self.awaiting_ready = false;
        }
        for r in self.proc.drain_now() {
            match r {
                Ok(line) => self.between_searches(line.text.trim())?,
                Err(e) => {
                    return Err(super::engine::read_fault(
                        &mut self.proc,
                        e,
                        "the next position",
                        None,
                    ))
                }
            }
        }
        Ok(())
    }

    fn between_searches(&self, text: &str) -> Result<(), Fault> {
        if is_error_reply(text) {
            let what = format!("engine error: {}", quote(text));
            Err(if self.in_game {
                Fault::Protocol(what)
            } else {
                Fault::Setup(what)
            })
        } else if is_answer(text) {
            Err(Fault::Protocol(format!(
                "unsolicited {} between searches",
                quote(text)
            )))
        } else {
            Ok(())
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
        self.settle()?;
        for line in game.uci_position(seat) {
            self.send(&line)?;
        }
        let go = clocks.uci_go_styled(seat, game.go_style());
        let limit = clocks.wait_limit(seat);
        let start = Instant::now();
        self.send(&go)?;
        let deadline = start + limit;
        let timed = clocks.is_timed().then_some(Timed {
            start,
            allowed: limit,
            margin: clocks.margin(),
        });
        let mut last_score = None;
        loop {
            let line = self.read(deadline, "bestmove", timed)?;
            let at = line.at;
            let line = line.text.trim();
            watch(line);
            if let Some((s, d)) = parse_info_score(line) {
                last_score = Some((s, d));
                continue;
            }
            if is_error_reply(line) {
                return Err(Fault::Protocol(format!(
                    "engine error reply during its search: {}",
                    quote(line)
                )));
            }
            if line == "readyok" || line == "uciok" {
                return Err(Fault::Protocol(format!(
                    "unsolicited {} during a search",
                    quote(line)
                )));
            }
            let Some(rest) = line.strip_prefix("bestmove") else {
                continue;
            };
            if !(rest.is_empty() || rest.starts_with(char::is_whitespace)) {
                continue;
            }
            let elapsed = at.saturating_duration_since(start);
            // The decision is the rest of the line (Space Wars decisions have several words),
            // without a trailing `ponder <move>`.
            let rest = rest.trim();
            let text = match rest.find(" ponder ") {
                Some(i) => rest[..i].trim_end(),
                None => rest,
            };
            if text.is_empty() {
                return Err(Fault::Malformed("`bestmove` without a move".into()));
            }
            if text.chars().any(|c| c.is_control()) {
                return Err(Fault::Malformed(format!("bestmove {}", quote(text))));
            }
            let reply = Reply {
                text: text.to_string(),
                elapsed,
                score: last_score.map(|(s, _)| s),
                depth: last_score.and_then(|(_, d)| d),
            };
            // A second answer written together with this one is caught at once; later ones
            // before the `readyok` of this `isready` at the next decision.
            for r in self.proc.drain_now() {
                match r {
                    Ok(l) => self.between_searches(l.text.trim())?,
                    Err(_) => break,
                }
            }
            self.send("isready")?;
            self.awaiting_ready = true;
            return Ok(reply);
        }
    }

    /// Starts a new game for an engine that stays running (`orrery label` scores the positions
    /// of many recorded games with one process): `ucinewgame`, then `isready`, whose `readyok`
    /// the next command waits for.
    pub fn new_game(&mut self) -> Result<(), Fault> {
        self.settle()?;
        self.send("ucinewgame")?;
        self.send("isready")?;
        self.awaiting_ready = true;
        Ok(())
    }

    /// Sends the seat's view and Stockfish's non-standard `eval` command (Fairy-Stockfish has
    /// it too), then `isready`, and gives every line the engine writes up to the `readyok`
    /// (within `limit`): the evaluation's report, for the caller to read. `isready` marks the end
    /// of an output that has no end line of its own. An error reply (an engine without `eval`)
    /// and an answer nobody asked for are protocol faults.
    pub fn eval_report(
        &mut self,
        game: &dyn DynGame,
        seat: usize,
        limit: Duration,
    ) -> Result<Vec<String>, Fault> {
        self.settle()?;
        for line in game.uci_position(seat) {
            self.send(&line)?;
        }
        self.send("eval")?;
        self.send("isready")?;
        let deadline = Instant::now() + limit;
        let mut report = Vec::new();
        loop {
            let line = self.read(deadline, "the readyok after eval", None)?;
            let text = line.text.trim();
            if text == "readyok" {
                return Ok(report);
            }
            if is_error_reply(text) {
                return Err(Fault::Protocol(format!(
                    "engine error reply to eval: {}",
                    quote(text)
                )));
            }
            if is_answer(text) {
                return Err(Fault::Protocol(format!(
                    "unsolicited {} after eval",
                    quote(text)
                )));
            }
            report.push(text.to_string());
        }
    }

    /// Sends `quit` and stops the process (its whole process group).
    pub fn finish(mut self) {
        self.proc.shut_down("quit", Duration::from_millis(200));
    }
}

/// Lines that only make sense as the answer to a command: `bestmove`, `readyok`, `uciok`.
fn is_answer(line: &str) -> bool {
    line == "readyok" || line == "uciok" || line == "bestmove" || line.starts_with("bestmove ")
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

    #[test]
    fn error_replies() {
        assert!(is_error_reply("info string error: Hash needs an integer"));
        assert!(is_error_reply("info string ERROR: bad"));
        assert!(is_error_reply("No such option: NoSuch"));
        assert!(!is_error_reply("info string NNUE evaluation enabled"));
        assert!(!is_error_reply("info depth 1 score cp 0"));
        assert!(is_answer("bestmove a1"));
        assert!(!is_answer("bestmoves"));
    }
}
