//! The `space-wars` protocol loop: a UCI-style dialect for a hidden-information card game.
//!
//! Stateless engine side: `position <observation>` tells the engine everything its seat may see,
//! `go` asks for the pending decision, `bestmove <decision>` answers. A local table
//! (`newgame`, `play`, `show`) lets a person or a test run a whole game through the rules core.
//! The search runs on its own thread; `isready`, `stop`, `quit` are answered meanwhile. Errors are
//! `info string error: ...` and change nothing. See `docs/spacewars.md`.

use super::{make_player, Player, PLAYERS};
use crate::games::spacewars::decision::Decision;
use crate::games::spacewars::observation::Observation;
use crate::games::spacewars::ruleset::Ruleset;
use crate::games::spacewars::state::State;
use crate::games::spacewars::wire::{
    format_decision, format_kind, parse_decision, parse_observation, position_line,
};
use crate::search::ismcts::SearchBudget as Budget;
use nom::{
    branch::alt,
    bytes::complete::{tag, take_until},
    character::complete::{digit1, space0, space1},
    combinator::{all_consuming, map, map_res, rest, value},
    multi::separated_list0,
    sequence::{preceded, separated_pair, terminated},
    IResult,
};
use std::io::{BufRead, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// One `go` argument.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GoArg {
    /// Think exactly this long (ms).
    Movetime(u64),
    /// At most this many iterations.
    Nodes(u64),
    /// The seat's remaining clock (ms).
    Time(u64),
    /// The seat's increment (ms).
    Inc(u64),
    /// In local-table mode: decide for this seat (1-based).
    Seat(u8),
    /// Until `stop`.
    Infinite,
}

/// A parsed input line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    /// `uci`
    Uci,
    /// `isready`
    IsReady,
    /// `setoption name N value V`
    SetOption(String, String),
    /// `ucinewgame`
    NewGame,
    /// `position <fields>` (the text after the keyword)
    Position(String),
    /// `newgame <players> <seed>`: a local table.
    Table(u8, u64),
    /// `play <seat> <decision>` on the local table (seat 1-based, decision text).
    Play(u8, String),
    /// `show <seat>`: the position line of a seat of the local table.
    Show(u8),
    /// `go ...`
    Go(Vec<GoArg>),
    /// `event <text>`: a public or private event forwarded by the referee; informational only
    /// (everything it says is also in the next `position`), logged at debug level.
    Event(String),
    /// `stop`
    Stop,
    /// `quit`
    Quit,
}

type Res<'a, T> = IResult<&'a str, T>;

fn num(i: &str) -> Res<'_, u64> {
    map_res(digit1, str::parse::<u64>)(i)
}

fn small(i: &str) -> Res<'_, u8> {
    map_res(digit1, str::parse::<u8>)(i)
}

fn go_arg(i: &str) -> Res<'_, GoArg> {
    alt((
        map(preceded(tag("movetime "), num), GoArg::Movetime),
        map(preceded(tag("nodes "), num), GoArg::Nodes),
        map(preceded(tag("time "), num), GoArg::Time),
        map(preceded(tag("inc "), num), GoArg::Inc),
        map(preceded(tag("seat "), small), GoArg::Seat),
        value(GoArg::Infinite, tag("infinite")),
    ))(i)
}

fn command(i: &str) -> Res<'_, Command> {
    alt((
        value(Command::NewGame, tag("ucinewgame")),
        value(Command::Uci, tag("uci")),
        value(Command::IsReady, tag("isready")),
        value(Command::Stop, tag("stop")),
        value(Command::Quit, tag("quit")),
        map(
            preceded(
                tag("setoption name "),
                separated_pair(take_until(" value "), tag(" value "), rest),
            ),
            |(n, v): (&str, &str)| Command::SetOption(n.trim().into(), v.trim().into()),
        ),
        map(preceded(tag("position"), rest), |r: &str| {
            Command::Position(r.trim().into())
        }),
        map(
            preceded(tag("newgame "), separated_pair(small, space1, num)),
            |(p, s)| Command::Table(p, s),
        ),
        map(
            preceded(tag("play "), separated_pair(small, space1, rest)),
            |(s, d): (u8, &str)| Command::Play(s, d.into()),
        ),
        map(preceded(tag("show "), small), Command::Show),
        map(preceded(tag("event "), rest), |r: &str| {
            Command::Event(r.trim().into())
        }),
        map(
            preceded(tag("go"), preceded(space0, separated_list0(space1, go_arg))),
            Command::Go,
        ),
    ))(i)
}

/// Parses one input line into a command.
pub fn parse_command(line: &str) -> Result<Command, String> {
    let t = line.trim();
    match all_consuming(terminated(command, space0))(t) {
        Ok((_, c)) => Ok(c),
        Err(_) => {
            let kw = t.split_whitespace().next().unwrap_or("");
            Err(match kw {
                "" => "empty line".into(),
                "go" => format!("malformed go arguments: '{t}'"),
                "setoption" => "usage: setoption name <name> value <value>".into(),
                "newgame" => "usage: newgame <players 2..8> <seed>".into(),
                "play" => "usage: play <seat> <decision>".into(),
                "show" => "usage: show <seat>".into(),
                _ => format!("unknown command '{kw}'"),
            })
        }
    }
}

/// Engine options (`setoption`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Options {
    /// Which built-in player decides.
    pub player: String,
    /// Seed of the player's random numbers.
    pub seed: u64,
    /// Iterations per decision when `go` gives no limit.
    pub iterations: u64,
    /// Milliseconds kept back from the clock for communication.
    pub overhead: u64,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            player: "ismcts".into(),
            seed: 1,
            iterations: 2000,
            overhead: 20,
        }
    }
}

enum Source {
    Position(Observation),
    Table(Box<State>),
}

/// A running search: its thread (which hands the player back), its stop flag, its done flag.
type Search = (
    JoinHandle<Box<dyn Player>>,
    Arc<AtomicBool>,
    Arc<AtomicBool>,
);

/// The protocol session: options, what the engine knows, the running search.
pub struct Session<W: Write + Send + 'static> {
    out: Arc<Mutex<W>>,
    rules: Arc<Ruleset>,
    options: Options,
    source: Option<Source>,
    player: Option<Box<dyn Player>>,
    search: Option<Search>,
}

impl<W: Write + Send + 'static> Session<W> {
    /// A session writing its replies to `out`.
    pub fn new(out: W) -> Session<W> {
        let options = Options::default();
        Session {
            out: Arc::new(Mutex::new(out)),
            rules: Arc::new(Ruleset::default()),
            player: make_player(&options.player, options.seed),
            options,
            source: None,
            search: None,
        }
    }

    fn say(&self, line: &str) {
        let mut o = self.out.lock().expect("output lock");
        let _ = writeln!(o, "{line}");
        let _ = o.flush();
    }

    fn error(&self, msg: &str) {
        self.say(&format!("info string error: {msg}"));
    }

    fn searching(&self) -> bool {
        self.search
            .as_ref()
            .is_some_and(|(_, _, done)| !done.load(Ordering::Acquire))
    }

    fn join(&mut self) {
        if let Some((h, stop, _)) = self.search.take() {
            stop.store(true, Ordering::Relaxed);
            match h.join() {
                Ok(p) => self.player = Some(p),
                Err(_) => {
                    log::error!("search thread panicked");
                    self.player = make_player(&self.options.player, self.options.seed);
                }
            }
        }
    }

    /// Handles one input line; returns false on `quit`.
    pub fn handle(&mut self, line: &str) -> bool {
        if line.trim().is_empty() {
            return true;
        }
        let cmd = match parse_command(line) {
            Ok(c) => c,
            Err(e) => {
                self.error(&e);
                return true;
            }
        };
        if !self.searching() && self.search.is_some() {
            self.join();
        }
        match cmd {
            Command::Uci => {
                self.say("id name space-wars 0.1");
                self.say("id author Orrery");
                self.say(&format!(
                    "option name Player type combo default ismcts{}",
                    PLAYERS
                        .iter()
                        .map(|p| format!(" var {p}"))
                        .collect::<String>()
                ));
                self.say("option name Seed type spin default 1 min 0 max 4294967295");
                self.say("option name Iterations type spin default 2000 min 1 max 100000000");
                self.say("option name Move Overhead type spin default 20 min 0 max 10000");
                self.say("uciok");
            }
            Command::IsReady => self.say("readyok"),
            Command::Event(text) => log::debug!("event {text}"),
            Command::Stop => self.join(),
            Command::Quit => {
                self.join();
                return false;
            }
            Command::SetOption(name, value) => {
                if self.searching() {
                    self.error("cannot change options while searching");
                } else if let Err(e) = self.set_option(&name, &value) {
                    self.error(&e);
                }
            }
            Command::NewGame => {
                if self.searching() {
                    self.error("cannot start a new game while searching");
                } else {
                    self.source = None;
                    self.player = make_player(&self.options.player, self.options.seed);
                }
            }
            Command::Position(text) => match parse_observation(&text, &self.rules) {
                Ok(o) => self.source = Some(Source::Position(o)),
                Err(e) => self.error(&e),
            },
            Command::Table(players, seed) => match State::new(players as usize, seed) {
                Ok(mut s) => {
                    s.enable_log();
                    self.print_events(&s, 0);
                    self.print_pending(&s);
                    self.source = Some(Source::Table(Box::new(s)));
                }
                Err(_) => self.error("a table has 2 to 8 players"),
            },
            Command::Play(seat, text) => self.play(seat, &text),
            Command::Show(seat) => match &self.source {
                Some(Source::Table(s)) if (1..=s.players()).contains(&(seat as usize)) => {
                    self.say(&format!("info string {}", position_line(s, seat - 1)))
                }
                Some(Source::Table(_)) => self.error(&format!("no seat {seat} at this table")),
                _ => self.error("show needs a local table (newgame)"),
            },
            Command::Go(args) => self.go(&args),
        }
        true
    }

    fn set_option(&mut self, name: &str, value: &str) -> Result<(), String> {
        let n = |v: &str| {
            v.parse::<u64>()
                .map_err(|_| format!("option {name} needs a number, got '{v}'"))
        };
        match name.to_ascii_lowercase().as_str() {
            "player" => {
                let p = make_player(value, self.options.seed).ok_or(format!(
                    "unknown player '{value}' (one of {})",
                    PLAYERS.join(", ")
                ))?;
                self.options.player = value.into();
                self.player = Some(p);
            }
            "seed" => {
                self.options.seed = n(value)?;
                self.player = make_player(&self.options.player, self.options.seed);
            }
            "iterations" => {
                let v = n(value)?;
                if v == 0 {
                    return Err("Iterations must be at least 1".into());
                }
                self.options.iterations = v;
            }
            "move overhead" => self.options.overhead = n(value)?,
            _ => return Err(format!("unknown option '{name}'")),
        }
        Ok(())
    }

    fn print_events(&self, s: &State, from: usize) {
        for e in &s.events()[from..] {
            self.say(&format!("info string event {}", e.line_all(&self.rules)));
        }
    }

    fn print_pending(&self, s: &State) {
        let mut p = Vec::new();
        s.pending(&mut p);
        let v: Vec<String> = p
            .iter()
            .map(|(seat, k)| format!("{}:{}", seat + 1, format_kind(Some(*k))))
            .collect();
        if !v.is_empty() {
            self.say(&format!("info string pending {}", v.join(" ")));
        }
    }

    fn play(&mut self, seat: u8, text: &str) {
        let Some(Source::Table(s)) = self.source.as_mut() else {
            self.error("play needs a local table (newgame)");
            return;
        };
        if seat == 0 || seat as usize > s.players() {
            let msg = format!("no seat {seat} at this table");
            self.error(&msg);
            return;
        }
        let d: Decision = match parse_decision(text, &self.rules) {
            Ok(d) => d,
            Err(e) => {
                self.error(&e);
                return;
            }
        };
        let before = s.events().len();
        if let Err(e) = s.apply(seat - 1, &d) {
            let msg = format!("illegal decision '{}': {e}", text.trim());
            self.error(&msg);
            return;
        }
        let Some(Source::Table(s)) = self.source.as_ref() else {
            return;
        };
        self.print_events(s, before);
        self.print_pending(s);
    }

    fn go(&mut self, args: &[GoArg]) {
        if self.searching() {
            self.error("already searching");
            return;
        }
        let seat_arg = args.iter().find_map(|a| match a {
            GoArg::Seat(s) => Some(*s),
            _ => None,
        });
        let obs = match &self.source {
            Some(Source::Position(o)) => Ok(o.clone()),
            Some(Source::Table(s)) => {
                let mut p = Vec::new();
                s.pending(&mut p);
                let seat = match seat_arg {
                    Some(x) if x >= 1 && (x as usize) <= s.players() => Some(x - 1),
                    Some(x) => {
                        self.error(&format!("no seat {x} at this table"));
                        self.say("bestmove none");
                        return;
                    }
                    None => p.first().map(|p| p.0),
                };
                seat.map(|x| Observation::of(s, x))
                    .ok_or("no decision pending at this table".to_string())
            }
            None => Err("no position: send 'position ...' or 'newgame' first".to_string()),
        };
        let obs = match obs {
            Ok(o) => o,
            Err(e) => {
                self.error(&e);
                self.say("bestmove none");
                return;
            }
        };
        if obs.pending().is_none() {
            self.error(&format!("no decision pending for seat {}", obs.seat() + 1));
            self.say("bestmove none");
            return;
        }
        let budget = self.budget(args);
        let stop = Arc::new(AtomicBool::new(false));
        let mut player = self
            .player
            .take()
            .or_else(|| make_player(&self.options.player, self.options.seed))
            .expect("known player");
        let out = self.out.clone();
        let rules = self.rules.clone();
        let flag = stop.clone();
        let done = Arc::new(AtomicBool::new(false));
        let finished = done.clone();
        let handle = std::thread::spawn(move || {
            let start = Instant::now();
            let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                player.decide(&obs, &budget, &flag, &mut |_| {})
            }))
            .unwrap_or_else(|_| Err("the search failed on this position".into()));
            let ms = start.elapsed().as_millis() as u64;
            let mut o = out.lock().expect("output lock");
            finished.store(true, Ordering::Release);
            match result {
                Ok(c) => {
                    let nps = c.iterations * 1000 / ms.max(1);
                    let value = c
                        .value
                        .map_or(String::new(), |v| format!(" string reward {v:.3}"));
                    let _ = writeln!(o, "info nodes {} time {ms} nps {nps}{value}", c.iterations);
                    let _ = writeln!(o, "bestmove {}", format_decision(&c.decision, &rules));
                }
                Err(e) => {
                    let _ = writeln!(o, "info string error: {e}");
                    let _ = writeln!(o, "bestmove none");
                }
            }
            let _ = o.flush();
            player
        });
        self.search = Some((handle, stop, done));
    }

    fn budget(&self, args: &[GoArg]) -> Budget {
        let mut b = Budget::default();
        let (mut time, mut inc, mut infinite) = (None, 0, false);
        for a in args {
            match *a {
                GoArg::Movetime(ms) => b.time = Some(Duration::from_millis(ms)),
                GoArg::Nodes(n) => b.iterations = Some(n.max(1)),
                GoArg::Time(ms) => time = Some(ms),
                GoArg::Inc(ms) => inc = ms,
                GoArg::Infinite => infinite = true,
                GoArg::Seat(_) => {}
            }
        }
        if let Some(t) = time {
            let budget = (t / 30 + inc / 2)
                .min(t.saturating_sub(self.options.overhead))
                .max(1);
            let d = Duration::from_millis(budget);
            b.time = Some(b.time.map_or(d, |x| x.min(d)));
        }
        if b.time.is_none() && b.iterations.is_none() && !infinite {
            b.iterations = Some(self.options.iterations);
        }
        b
    }

    /// Waits for a running search to finish (used at end of input).
    pub fn finish(&mut self) {
        if let Some((h, _, _)) = self.search.take() {
            if let Ok(p) = h.join() {
                self.player = Some(p);
            }
        }
    }
}

/// Runs the protocol on stdin/stdout until `quit` or end of input.
pub fn run() {
    let stdin = std::io::stdin();
    let mut session = Session::new(std::io::stdout());
    for line in stdin.lock().lines() {
        let Ok(line) = line else { break };
        if !session.handle(&line) {
            return;
        }
    }
    session.finish();
}
