//! The bad-input harness: feeds `tests/data/bad_input.txt` to an engine in either dialect and
//! checks each bad line gets exactly one error reply (or none, for blank lines), that the engine
//! state is unchanged afterwards, and that it still plays.
//!
//! File format, one case per line (`#` starts a comment line):
//! `DIALECTS EXPECT | PAYLOAD` where DIALECTS is `both`, `uci` or `cecp`, EXPECT is `error` or
//! `silent`, and PAYLOAD (after `| `) is sent followed by `\n`. Escapes in the payload: `\r`,
//! `\t`, `\\`, `\xNN` (a raw byte), and `{repeat N TEXT}` (TEXT repeated N times).

use std::time::Duration;

use super::engine_io::{EngineIo, PATIENCE};

/// Which dialect a session speaks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dialect {
    /// UCI-style (`uci` first).
    Uci,
    /// CECP (`xboard` first).
    Cecp,
}

/// What a case expects.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Expect {
    /// Exactly one error reply.
    Error,
    /// No reply at all.
    Silent,
}

/// One case of the file.
#[derive(Clone, Debug)]
pub struct BadLine {
    /// Line number in the file, for messages.
    pub number: usize,
    /// The file's text of the payload, for messages.
    pub source: String,
    /// Whether the case applies to the UCI dialect.
    pub uci: bool,
    /// Whether the case applies to the CECP dialect.
    pub cecp: bool,
    /// Expected reply.
    pub expect: Expect,
    /// Bytes to send (a `\n` is added).
    pub bytes: Vec<u8>,
}

impl BadLine {
    /// Whether the case applies to `d`.
    pub fn applies(&self, d: Dialect) -> bool {
        match d {
            Dialect::Uci => self.uci,
            Dialect::Cecp => self.cecp,
        }
    }
}

fn expand(payload: &str) -> Result<Vec<u8>, String> {
    let mut out = Vec::new();
    let mut rest = payload;
    while let Some(c) = rest.chars().next() {
        if let Some(after) = rest.strip_prefix("{repeat ") {
            let end = after.find('}').ok_or("unclosed {repeat")?;
            let (n, text) = after[..end]
                .split_once(' ')
                .ok_or("{repeat N TEXT} needs a count and a text")?;
            let n: usize = n.parse().map_err(|_| format!("bad repeat count '{n}'"))?;
            let unit = expand(text)?;
            for _ in 0..n {
                out.extend_from_slice(&unit);
            }
            rest = &after[end + 1..];
        } else if let Some(after) = rest.strip_prefix('\\') {
            let e = after.chars().next().ok_or("dangling backslash")?;
            match e {
                'r' => out.push(b'\r'),
                't' => out.push(b'\t'),
                '\\' => out.push(b'\\'),
                'x' => {
                    let hex = after.get(1..3).ok_or("\\x needs two hex digits")?;
                    out.push(u8::from_str_radix(hex, 16).map_err(|_| "bad \\x escape")?);
                    rest = &after[3..];
                    continue;
                }
                other => return Err(format!("unknown escape \\{other}")),
            }
            rest = &after[1..];
        } else {
            let mut b = [0; 4];
            out.extend_from_slice(c.encode_utf8(&mut b).as_bytes());
            rest = &rest[c.len_utf8()..];
        }
    }
    Ok(out)
}

/// Parses the case file's text.
pub fn parse(text: &str) -> Result<Vec<BadLine>, String> {
    let mut cases = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let number = i + 1;
        if line.trim().is_empty() || line.starts_with('#') {
            continue;
        }
        let (head, payload) = line
            .split_once('|')
            .ok_or(format!("line {number}: missing '|'"))?;
        let payload = payload.strip_prefix(' ').unwrap_or(payload);
        let mut words = head.split_whitespace();
        let (uci, cecp) = match words.next() {
            Some("both") => (true, true),
            Some("uci") => (true, false),
            Some("cecp") => (false, true),
            other => return Err(format!("line {number}: bad dialect {other:?}")),
        };
        let expect = match words.next() {
            Some("error") => Expect::Error,
            Some("silent") => Expect::Silent,
            other => return Err(format!("line {number}: bad expectation {other:?}")),
        };
        let bytes = expand(payload).map_err(|e| format!("line {number}: {e}"))?;
        cases.push(BadLine {
            number,
            source: payload.chars().take(80).collect(),
            uci,
            cecp,
            expect,
            bytes,
        });
    }
    Ok(cases)
}

/// Loads the project's case file.
pub fn load_default() -> Vec<BadLine> {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/bad_input.txt");
    let text = std::fs::read_to_string(path).expect("tests/data/bad_input.txt");
    parse(&text).expect("bad_input.txt format")
}

fn is_error(d: Dialect, line: &str) -> bool {
    match d {
        Dialect::Uci => line.starts_with("info string error"),
        Dialect::Cecp => line.starts_with("Error (") || line.starts_with("Illegal move"),
    }
}

struct Session<'a> {
    io: &'a mut EngineIo,
    dialect: Dialect,
    pings: u32,
}

impl Session<'_> {
    /// Sends a synchronising command and returns every line printed before its answer.
    fn sync(&mut self) -> Result<Vec<String>, String> {
        let (probe, answer) = match self.dialect {
            Dialect::Uci => ("isready".to_string(), "readyok".to_string()),
            Dialect::Cecp => {
                self.pings += 1;
                (
                    format!("ping {}", self.pings),
                    format!("pong {}", self.pings),
                )
            }
        };
        self.io.send(&probe);
        let mut got = self
            .io
            .try_until(PATIENCE, |l| l == answer)
            .map_err(|got| format!("no '{answer}' after '{probe}'; got {got:?}"))?;
        got.pop();
        Ok(got)
    }

    /// Sends every case of the session's dialect, each followed by a sync; returns how many ran
    /// and the failures (a case without exactly one error reply, or a reply to a silent one).
    fn cases(&mut self, cases: &[BadLine]) -> (usize, Vec<String>) {
        let mut failures = Vec::new();
        let mut ran = 0;
        let dialect = self.dialect;
        for case in cases.iter().filter(|c| c.applies(dialect)) {
            ran += 1;
            let mut bytes = case.bytes.clone();
            bytes.push(b'\n');
            self.io.send_raw(&bytes);
            let got = match self.sync() {
                Ok(g) => g,
                Err(e) => {
                    failures.push(format!("line {} '{}': {e}", case.number, case.source));
                    break;
                }
            };
            let ok = match case.expect {
                Expect::Error => got.len() == 1 && is_error(dialect, &got[0]),
                Expect::Silent => got.is_empty(),
            };
            if !ok {
                failures.push(format!(
                    "line {} '{}': expected {:?}, got {got:?}",
                    case.number, case.source, case.expect
                ));
            }
        }
        (ran, failures)
    }

    /// Root moves and counts from `perft 1`, as printed.
    fn perft1(&mut self) -> Result<Vec<String>, String> {
        self.io.send(match self.dialect {
            Dialect::Uci => "go perft 1",
            Dialect::Cecp => "perft 1",
        });
        // The perft runs on the search thread (`isready` is answered during it): wait for its
        // total, then sync past the empty line that ends it.
        let mut lines = self
            .io
            .try_until(PATIENCE, |l| l.starts_with("Nodes searched: "))
            .map_err(|got| format!("perft 1 printed no total: {got:?}"))?;
        lines.extend(self.sync()?);
        Ok(lines.into_iter().filter(|l| !l.is_empty()).collect())
    }
}

fn root_moves(perft: &[String]) -> Vec<String> {
    perft
        .iter()
        .filter(|l| !l.starts_with("Nodes searched"))
        .filter_map(|l| l.split_once(':').map(|(m, _)| m.trim().to_string()))
        .collect()
}

/// Runs every case for `dialect` against a fresh engine behind `io`; returns how many cases ran,
/// or every failure found.
pub fn check(io: &mut EngineIo, dialect: Dialect, cases: &[BadLine]) -> Result<usize, String> {
    let mut s = Session {
        io,
        dialect,
        pings: 0,
    };
    // Set up: a position one move into the game, and its perft as the witness of the state.
    let first_moves;
    match dialect {
        Dialect::Uci => {
            s.io.send("uci");
            s.io.try_until(PATIENCE, |l| l == "uciok")
                .map_err(|g| format!("no uciok: {g:?}"))?;
            s.io.send("position startpos");
            first_moves = root_moves(&s.perft1()?);
            let m = first_moves.first().ok_or("no legal move at the start")?;
            s.io.send(&format!("position startpos moves {m}"));
        }
        Dialect::Cecp => {
            s.io.send("xboard");
            s.io.send("protover 2");
            s.io.try_until(PATIENCE, |l| l.contains("done=1"))
                .map_err(|g| format!("no feature done=1: {g:?}"))?;
            s.io.send("new");
            s.io.send("force");
            first_moves = root_moves(&s.perft1()?);
            let m = first_moves.first().ok_or("no legal move at the start")?;
            s.io.send(&format!("usermove {m}"));
        }
    }
    let witness = s.perft1()?;

    let (ran, mut failures) = s.cases(cases);

    // Nothing changed, and the engine still plays.
    let after = s.perft1()?;
    if after != witness {
        failures.push(format!(
            "state changed: perft 1 was {witness:?}, now {after:?}"
        ));
    }
    match dialect {
        Dialect::Uci => {
            s.io.send("position startpos");
            s.io.send("go depth 1");
            let got =
                s.io.try_until(PATIENCE, |l| l.starts_with("bestmove "))
                    .map_err(|g| format!("no bestmove after the bad input: {g:?}"))?;
            let mv = got.last().map(|l| l["bestmove ".len()..].to_string());
            if !mv.as_ref().is_some_and(|m| first_moves.contains(m)) {
                failures.push(format!("bestmove {mv:?} is not a legal first move"));
            }
        }
        Dialect::Cecp => {
            s.io.send("new");
            s.io.send("sd 1");
            s.io.send(&format!("usermove {}", first_moves[0]));
            let got =
                s.io.try_until(PATIENCE, |l| l.starts_with("move ") || is_error(dialect, l))
                    .map_err(|g| format!("no move after the bad input: {g:?}"))?;
            if !got.last().is_some_and(|l| l.starts_with("move ")) {
                failures.push(format!("engine did not answer with a move: {got:?}"));
            }
        }
    }
    let tail = s.sync()?;
    if tail.iter().any(|l| is_error(dialect, l)) {
        failures.push(format!("errors during the final game: {tail:?}"));
    }
    if failures.is_empty() {
        Ok(ran)
    } else {
        Err(failures.join("\n"))
    }
}

/// Waits a little for stray output (used after the last case by callers that want to be sure).
pub fn quiet_for(io: &mut EngineIo, wait: Duration) -> Vec<String> {
    io.try_until(wait, |_| false).unwrap_or_else(|g| g)
}

/// Runs every UCI-dialect case against a `space-wars` engine behind `io`: the same loop must give
/// each bad line exactly one error (or none for blank lines) in the Space Wars dialect too. The
/// state is a local table (`newgame 2 5`) one decision in; its `show` lines are the witness that
/// nothing changed, and the engine must still decide legally afterwards.
pub fn check_space_wars(io: &mut EngineIo, cases: &[BadLine]) -> Result<usize, String> {
    let mut s = Session {
        io,
        dialect: Dialect::Uci,
        pings: 0,
    };
    s.io.send("uci");
    s.io.try_until(PATIENCE, |l| l == "uciok")
        .map_err(|g| format!("no uciok: {g:?}"))?;
    s.io.send("setoption name Player value heuristic");
    s.io.send("newgame 2 5");
    s.sync()?;
    s.io.send("go seat 1");
    let got =
        s.io.try_until(PATIENCE, |l| l.starts_with("bestmove "))
            .map_err(|g| format!("no bestmove for seat 1: {g:?}"))?;
    let first = got.last().map(|l| l["bestmove ".len()..].to_string());
    s.io.send(&format!("play 1 {}", first.unwrap_or_default()));
    let played = s.sync()?;
    if played.iter().any(|l| is_error(Dialect::Uci, l)) {
        return Err(format!("seat 1's decision was refused: {played:?}"));
    }
    let witness = |s: &mut Session| -> Result<Vec<String>, String> {
        s.io.send("show 1");
        s.io.send("show 2");
        s.sync()
    };
    let before = witness(&mut s)?;
    let (ran, mut failures) = s.cases(cases);
    let after = witness(&mut s)?;
    if after != before {
        failures.push(format!("state changed: {before:?}, now {after:?}"));
    }
    s.io.send("go seat 2");
    let got =
        s.io.try_until(PATIENCE, |l| l.starts_with("bestmove "))
            .map_err(|g| format!("no bestmove after the bad input: {g:?}"))?;
    let second = got.last().map(|l| l["bestmove ".len()..].to_string());
    s.io.send(&format!("play 2 {}", second.clone().unwrap_or_default()));
    let played = s.sync()?;
    if !played.iter().any(|l| l.starts_with("info string event")) {
        failures.push(format!(
            "seat 2's decision {second:?} did not play: {played:?}"
        ));
    }
    if failures.is_empty() {
        Ok(ran)
    } else {
        Err(failures.join("\n"))
    }
}
