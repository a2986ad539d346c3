//! The `space-wars` dialect: a UCI-style dialect for a hidden-information card game, run by the
//! shared engine loop of [`crate::protocol`] (bounded UTF-8 lines, commands during a search, one
//! `bestmove` per `go`, end of input) like the other engines' dialects.
//!
//! Stateless engine side: `position <observation>` tells the engine everything its seat may see,
//! `go` asks for the pending decision, `bestmove <decision>` answers. A local table
//! (`newgame`, `play`, `show`) lets a person or a test run a whole game through the rules core.
//! Errors are `info string error: ...` and change nothing. See `protocol.md` and
//! `docs/spacewars.md`.

use super::{make_player, Choice, Player, DEFAULT_TREE_MIB, PLAYERS};
use crate::games::spacewars::decision::Decision;
use crate::games::spacewars::observation::Observation;
use crate::games::spacewars::ruleset::Ruleset;
use crate::games::spacewars::state::State;
use crate::games::spacewars::wire::{
    format_decision, format_kind, parse_decision, parse_observation, position_line,
};
use crate::protocol::reply::{uci_error, uci_option};
use crate::protocol::{
    idle, run_dialect, Core, Dialect, EngineOption, Flow, LoopEngine, OptionKind, ReportScore,
    SearchReport, WhenBusy,
};
use crate::search::ismcts::SearchBudget;
use crate::search::{Clock, Limits};
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
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Duration;

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

/// Iterations per decision when `go` gives no limit (option `Iterations`).
pub const DEFAULT_ITERATIONS: u64 = 2000;

/// The Space Wars engine as the loop holds it: the options and the player that decides.
pub struct SpaceWarsEngine {
    rules: Arc<Ruleset>,
    player_name: String,
    seed: u64,
    iterations: u64,
    tree_bytes: usize,
    player: Box<dyn Player>,
}

impl SpaceWarsEngine {
    /// The default engine: ISMCTS, seed 1, 2000 iterations, a 16 MiB tree.
    pub fn new() -> SpaceWarsEngine {
        let mut e = SpaceWarsEngine {
            rules: Arc::new(Ruleset::default()),
            player_name: "ismcts".into(),
            seed: 1,
            iterations: DEFAULT_ITERATIONS,
            tree_bytes: DEFAULT_TREE_MIB << 20,
            player: make_player("ismcts", 1).expect("a built-in player"),
        };
        e.rebuild();
        e
    }

    fn rebuild(&mut self) {
        if let Some(p) = make_player(&self.player_name, self.seed) {
            self.player = p;
        }
        self.player.set_tree_bytes(self.tree_bytes);
    }
}

impl Default for SpaceWarsEngine {
    fn default() -> Self {
        SpaceWarsEngine::new()
    }
}

/// A search's answer: the choice, or why the engine could not decide.
pub type Answer = Result<Choice, String>;

/// A choice as a progress report: iterations as nodes, the expected reward in thousandths as the
/// score, the decision as the one-move line.
fn report_of(c: &Choice, rules: &Ruleset) -> SearchReport {
    SearchReport {
        depth: 0,
        seldepth: 0,
        score: ReportScore::Cp(c.value.map_or(0, |v| (v * 1000.0).round() as i32)),
        nodes: c.iterations,
        time: c.time,
        pv: vec![format_decision(&c.decision, rules)],
    }
}

/// The `info` line of a report: `info nodes N time MS nps N string reward R best DECISION`.
fn info_line(r: &SearchReport) -> String {
    let ms = r.time.as_millis() as u64;
    let reward = match r.score {
        ReportScore::Cp(v) => v as f64 / 1000.0,
        ReportScore::Mate(_) => 0.0,
    };
    format!(
        "info nodes {} time {ms} nps {} string reward {reward:.3} best {}",
        r.nodes,
        r.nodes * 1000 / ms.max(1),
        r.pv.join(" ")
    )
}

impl LoopEngine for SpaceWarsEngine {
    type Position = Observation;
    type Answer = Answer;

    fn loop_name(&self) -> String {
        format!("Orrery Space Wars {}", env!("CARGO_PKG_VERSION"))
    }
    fn loop_author(&self) -> String {
        "the Orrery authors".to_string()
    }
    fn loop_variants(&self) -> Vec<String> {
        Vec::new()
    }
    fn loop_options(&self) -> Vec<EngineOption> {
        vec![
            EngineOption {
                name: "Player".into(),
                kind: OptionKind::Combo {
                    default: "ismcts".into(),
                    choices: PLAYERS.iter().map(|p| p.to_string()).collect(),
                },
            },
            EngineOption {
                name: "Seed".into(),
                kind: OptionKind::Spin {
                    default: 1,
                    min: 0,
                    max: u32::MAX as i64,
                },
            },
            EngineOption {
                name: "Iterations".into(),
                kind: OptionKind::Spin {
                    default: DEFAULT_ITERATIONS as i64,
                    min: 1,
                    max: 100_000_000,
                },
            },
        ]
    }
    fn loop_set_option(&mut self, name: &str, value: &str) -> Result<(), String> {
        let number = || {
            value
                .parse::<u64>()
                .map_err(|_| format!("{name} needs a number, got '{value}'"))
        };
        match name {
            "Player" => self.player_name = value.to_string(),
            "Seed" => self.seed = number()?,
            "Iterations" => {
                self.iterations = number()?;
                return Ok(());
            }
            _ => return Err(format!("unknown option '{name}'")),
        }
        self.rebuild();
        Ok(())
    }
    /// `Hash` bounds the ISMCTS tree: its node arena never outgrows `mib` MiB (the tree stops
    /// growing and the search goes on with playouts below its leaves).
    fn loop_set_hash(&mut self, mib: usize) -> Result<(), String> {
        self.tree_bytes = mib.saturating_mul(1 << 20);
        self.player.set_tree_bytes(self.tree_bytes);
        Ok(())
    }
    fn loop_new_game(&mut self) {
        self.rebuild();
    }
    fn loop_search(
        &mut self,
        obs: &Observation,
        limits: &Limits,
        stop: &AtomicBool,
        report: &mut dyn FnMut(SearchReport),
    ) -> Option<Answer> {
        let budget = SearchBudget::from_limits(limits, self.iterations);
        let rules = self.rules.clone();
        Some(
            self.player
                .decide(obs, &budget, stop, &mut |c| report(report_of(c, &rules))),
        )
    }
}

enum Source {
    Position(Observation),
    Table(Box<State>),
}

/// The dialect's state: what the engine was told (an observation or a local table).
pub struct SpaceWarsSession {
    rules: Arc<Ruleset>,
    source: Option<Source>,
}

impl SpaceWarsSession {
    fn new() -> SpaceWarsSession {
        SpaceWarsSession {
            rules: Arc::new(Ruleset::default()),
            source: None,
        }
    }

    fn identify(&self, core: &Core<SpaceWarsEngine>) {
        let mut lines = vec![
            format!("id name {}", core.name),
            format!("id author {}", core.author),
        ];
        lines.extend(core.all_options().iter().map(uci_option));
        lines.push("uciok".into());
        core.out.lines(&lines);
    }

    fn events_and_pending(&self, s: &State, from: usize) -> Vec<String> {
        let mut lines: Vec<String> = s.events()[from..]
            .iter()
            .map(|e| format!("info string event {}", e.line_all(&self.rules)))
            .collect();
        let mut p = Vec::new();
        s.pending(&mut p);
        let v: Vec<String> = p
            .iter()
            .map(|(seat, k)| format!("{}:{}", seat + 1, format_kind(Some(*k))))
            .collect();
        if !v.is_empty() {
            lines.push(format!("info string pending {}", v.join(" ")));
        }
        lines
    }

    fn play(&mut self, seat: u8, text: &str) -> Result<Vec<String>, String> {
        let Some(Source::Table(s)) = self.source.as_mut() else {
            return Err("play needs a local table (newgame)".into());
        };
        if seat == 0 || seat as usize > s.players() {
            return Err(format!("no seat {seat} at this table"));
        }
        let d: Decision = parse_decision(text, &self.rules)?;
        let before = s.events().len();
        s.apply(seat - 1, &d)
            .map_err(|e| format!("illegal decision '{}': {e}", text.trim()))?;
        let Some(Source::Table(s)) = self.source.as_ref() else {
            return Ok(Vec::new());
        };
        Ok(self.events_and_pending(s, before))
    }

    /// The observation `go` decides from, and the limits it asks for.
    fn go_request(
        &self,
        args: &[GoArg],
        overhead: Duration,
    ) -> Result<(Observation, Limits), String> {
        let mut limits = Limits {
            overhead,
            ..Limits::default()
        };
        let mut clock: Option<Clock> = None;
        let mut seat_arg = None;
        for a in args {
            match *a {
                GoArg::Movetime(ms) => limits.movetime = Some(Duration::from_millis(ms)),
                GoArg::Nodes(n) => limits.nodes = Some(n),
                GoArg::Time(ms) => {
                    clock.get_or_insert_with(Clock::default).remaining = Duration::from_millis(ms)
                }
                GoArg::Inc(ms) => {
                    clock.get_or_insert_with(Clock::default).increment = Duration::from_millis(ms)
                }
                GoArg::Infinite => limits.infinite = true,
                GoArg::Seat(s) => seat_arg = Some(s),
            }
        }
        limits.clock = clock;
        let obs = match &self.source {
            Some(Source::Position(o)) => o.clone(),
            Some(Source::Table(s)) => {
                let mut p = Vec::new();
                s.pending(&mut p);
                let seat = match seat_arg {
                    Some(x) if x >= 1 && (x as usize) <= s.players() => x - 1,
                    Some(x) => return Err(format!("no seat {x} at this table")),
                    None => p
                        .first()
                        .map(|p| p.0)
                        .ok_or("no decision pending at this table")?,
                };
                Observation::of(s, seat)
            }
            None => return Err("no position: send 'position ...' or 'newgame' first".into()),
        };
        if obs.pending().is_none() {
            return Err(format!("no decision pending for seat {}", obs.seat() + 1));
        }
        Ok((obs, limits))
    }
}

impl Dialect<SpaceWarsEngine> for SpaceWarsSession {
    type Command = Command;

    fn parse(&self, line: &str) -> Result<Command, crate::protocol::CommandError> {
        parse_command(line).map_err(crate::protocol::CommandError::new)
    }

    fn parse_error(&self, _line: &str, err: &crate::protocol::CommandError) -> String {
        uci_error(&err.reason)
    }

    fn when_busy(&mut self, cmd: &Command) -> WhenBusy {
        match cmd {
            Command::Uci | Command::IsReady | Command::Event(_) | Command::Show(_) => {
                WhenBusy::default()
            }
            Command::Stop => WhenBusy {
                defer: false,
                stop: true,
            },
            Command::SetOption(..)
            | Command::NewGame
            | Command::Position(_)
            | Command::Table(..)
            | Command::Play(..)
            | Command::Go(_)
            | Command::Quit => WhenBusy {
                defer: true,
                stop: true,
            },
        }
    }

    fn execute(&mut self, cmd: Command, _line: &str, core: &mut Core<SpaceWarsEngine>) -> Flow {
        let result: Result<(), String> = match cmd {
            Command::Uci => {
                self.identify(core);
                Ok(())
            }
            Command::IsReady => {
                core.out.line("readyok");
                Ok(())
            }
            Command::Event(text) => {
                log::debug!("event {text}");
                Ok(())
            }
            Command::Stop => Ok(()),
            Command::Quit => return Flow::Quit,
            Command::SetOption(name, value) => {
                core.set_option(&name, Some(&value)).map_err(|e| e.reason)
            }
            Command::NewGame => idle(&mut core.game)
                .map(|g| {
                    g.loop_new_game();
                    self.source = None;
                })
                .map_err(|e| e.reason),
            Command::Position(text) => parse_observation(&text, &self.rules)
                .map(|o| self.source = Some(Source::Position(o))),
            Command::Table(players, seed) => match State::new(players as usize, seed) {
                Ok(mut s) => {
                    s.enable_log();
                    core.out.lines(&self.events_and_pending(&s, 0));
                    self.source = Some(Source::Table(Box::new(s)));
                    Ok(())
                }
                Err(_) => Err("a table has 2 to 8 players".into()),
            },
            Command::Play(seat, text) => self.play(seat, &text).map(|lines| core.out.lines(&lines)),
            Command::Show(seat) => match &self.source {
                Some(Source::Table(s)) if (1..=s.players()).contains(&(seat as usize)) => {
                    core.out
                        .line(&format!("info string {}", position_line(s, seat - 1)));
                    Ok(())
                }
                Some(Source::Table(_)) => Err(format!("no seat {seat} at this table")),
                _ => Err("show needs a local table (newgame)".into()),
            },
            Command::Go(args) => {
                match self.go_request(&args, core.overhead) {
                    Ok((obs, limits)) => core
                        .start_search(obs, limits, Box::new(|r| Some(info_line(r))))
                        .map_err(|e| e.reason),
                    // Every `go` gets its `bestmove`, even one that cannot start.
                    Err(e) => {
                        core.out
                            .lines(&[uci_error(&e), "bestmove none".to_string()]);
                        Ok(())
                    }
                }
            }
        };
        if let Err(e) = result {
            core.out.line(&uci_error(&e));
        }
        Flow::Continue
    }

    fn search_done(
        &mut self,
        _obs: Observation,
        best: Option<Answer>,
        core: &mut Core<SpaceWarsEngine>,
    ) {
        let lines = match best {
            Some(Ok(c)) => vec![
                info_line(&report_of(&c, &self.rules)),
                format!("bestmove {}", format_decision(&c.decision, &self.rules)),
            ],
            Some(Err(e)) => vec![uci_error(&e), "bestmove none".to_string()],
            None => vec![
                uci_error("the search failed on this position"),
                "bestmove none".to_string(),
            ],
        };
        core.out.lines(&lines);
    }
}

/// Runs the protocol over `input` and `output` until `quit` or end of input.
pub fn run_on(input: impl BufRead + Send + 'static, output: impl Write + Send + 'static) {
    run_dialect(
        SpaceWarsEngine::new(),
        |_| Ok(SpaceWarsSession::new()),
        input,
        output,
    );
}

/// Runs the protocol on stdin/stdout until `quit` or end of input.
pub fn run() {
    run_on(std::io::BufReader::new(std::io::stdin()), std::io::stdout());
}
