//! The engine loop: reads lines, picks the dialect from the first command, runs commands in
//! order, keeps answering while a search runs, and holds back commands that must wait for it.

use std::collections::VecDeque;
use std::io::{BufRead, Write};
use std::sync::mpsc;
use std::sync::Arc;

use super::cecp_session::CecpSession;
use super::game::{EngineGame, LoopEngine};
use super::input::{spawn_reader, InputEvent};
use super::lex::{head, CommandError};
use super::output::Output;
use super::reply;
use super::session::{Core, Event, Finished, Outcome, PerftDone};
use super::uci_session::UciSession;

/// What to do with a command that arrives while a search runs.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct WhenBusy {
    /// Hold it back until the search has ended (it needs the engine or must follow the move).
    pub defer: bool,
    /// Ask the search to stop now.
    pub stop: bool,
}

/// Whether the loop goes on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Flow {
    Continue,
    Quit,
}

/// One protocol dialect on top of the shared [`Core`].
pub(crate) trait Dialect<G: LoopEngine> {
    /// A parsed command.
    type Command;
    /// Parses a trimmed, non-empty line.
    fn parse(&self, line: &str) -> Result<Self::Command, CommandError>;
    /// The reply to a line that could not be parsed.
    fn parse_error(&self, line: &str, err: &CommandError) -> String;
    /// How a command is treated during a search (may note that the search's move is unwanted).
    fn when_busy(&mut self, cmd: &Self::Command) -> WhenBusy;
    /// Runs a command.
    fn execute(&mut self, cmd: Self::Command, line: &str, core: &mut Core<G>) -> Flow;
    /// Handles the end of a search (prints the move).
    fn search_done(&mut self, pos: G::Position, best: Option<G::Answer>, core: &mut Core<G>);
    /// Handles the end of a perft (started with `Core::start_perft`): prints its counts, or for
    /// one that was stopped, the UCI-style error line saying so (no counts). CECP overrides it.
    fn perft_done(&mut self, perft: PerftDone, core: &mut Core<G>) {
        core.out.lines(&reply::perft_reply(&perft, |reason| {
            reply::uci_error(&format!("{} {reason}", perft.command))
        }));
    }
}

enum Pending<C> {
    Command(C, String),
    Error(CommandError, String),
    Eof,
}

struct Driver<G: LoopEngine, D: Dialect<G>> {
    core: Core<G>,
    dialect: D,
    deferred: VecDeque<Pending<D::Command>>,
}

impl<G: LoopEngine, D: Dialect<G>> Driver<G, D> {
    fn line(&mut self, line: Result<String, CommandError>) -> Flow {
        match line {
            Ok(l) if l.is_empty() => Flow::Continue,
            Ok(l) => match self.dialect.parse(&l) {
                Ok(cmd) => self.submit(Pending::Command(cmd, l)),
                Err(e) => self.submit(Pending::Error(e, l)),
            },
            Err(e) => self.submit(Pending::Error(e, String::new())),
        }
    }

    fn submit(&mut self, p: Pending<D::Command>) -> Flow {
        if self.core.is_searching() {
            let busy = match &p {
                Pending::Command(c, _) => self.dialect.when_busy(c),
                Pending::Error(..) => WhenBusy::default(),
                Pending::Eof => WhenBusy {
                    defer: true,
                    stop: self.core.is_infinite(),
                },
            };
            if busy.stop {
                self.core.request_stop();
            }
            if busy.defer || !self.deferred.is_empty() {
                self.deferred.push_back(p);
                return Flow::Continue;
            }
        }
        match p {
            Pending::Command(cmd, line) => self.dialect.execute(cmd, &line, &mut self.core),
            Pending::Error(e, line) => {
                let reply = self.dialect.parse_error(&line, &e);
                self.core.out.line(&reply);
                Flow::Continue
            }
            Pending::Eof => Flow::Quit,
        }
    }

    fn done(&mut self, finished: Finished<G>) -> Flow {
        match self.core.finish(finished) {
            (pos, Outcome::Search(best)) => self.dialect.search_done(pos, best, &mut self.core),
            (_, Outcome::Perft(perft)) => self.dialect.perft_done(perft, &mut self.core),
        }
        let queue = std::mem::take(&mut self.deferred);
        for p in queue {
            if self.submit(p) == Flow::Quit {
                return Flow::Quit;
            }
        }
        Flow::Continue
    }

    fn run(&mut self, rx: &mpsc::Receiver<Event<G>>, first: Option<String>) {
        if let Some(l) = first {
            if self.line(Ok(l)) == Flow::Quit {
                return;
            }
        }
        loop {
            let flow = match rx.recv() {
                Ok(Event::Input(InputEvent::Line(l))) => self.line(l),
                Ok(Event::Input(InputEvent::Eof)) => self.submit(Pending::Eof),
                Ok(Event::Done(f)) => self.done(f),
                Err(_) => Flow::Quit,
            };
            if flow == Flow::Quit {
                return;
            }
            if self.core.out.is_broken() {
                log::info!("output closed; stopping");
                self.core.request_stop();
                while self.core.is_searching() {
                    match rx.recv() {
                        Ok(Event::Done(f)) => {
                            self.core.finish(f);
                        }
                        Ok(_) => {}
                        Err(_) => return,
                    }
                }
                return;
            }
        }
    }
}

/// Runs an engine over a line protocol until `quit` or end of input.
///
/// The first non-empty line picks the dialect: `xboard` selects CECP, anything else the UCI-style
/// dialect (the line is then run as an UCI command). At end of input a running search is allowed
/// to finish (an infinite one is stopped) and its move is printed before returning.
pub fn run<G: EngineGame>(
    game: G,
    input: impl BufRead + Send + 'static,
    output: impl Write + Send + 'static,
) {
    let (tx, rx) = mpsc::channel::<Event<G>>();
    spawn_reader(input, tx.clone(), Event::<G>::Input);
    let out = Arc::new(Output::new(output));
    let first = loop {
        match rx.recv() {
            Ok(Event::Input(InputEvent::Line(Ok(l)))) if l.is_empty() => continue,
            Ok(Event::Input(InputEvent::Line(Ok(l)))) => break Some(l),
            Ok(Event::Input(InputEvent::Line(Err(e)))) => {
                out.line(&super::reply::uci_error(&e.reason));
                continue;
            }
            _ => return,
        }
    };
    let core = Core::new(game, out, tx);
    let is_xboard = first.as_deref().map(|l| head(l).0) == Some("xboard");
    if is_xboard {
        drive(core, CecpSession::new, &rx, first);
    } else {
        drive(core, UciSession::new, &rx, first);
    }
}

/// Starts a dialect on the core and runs the loop until `quit` or end of input.
fn drive<G: LoopEngine, D: Dialect<G>>(
    core: Core<G>,
    dialect: impl FnOnce(&Core<G>) -> Result<D, String>,
    rx: &mpsc::Receiver<Event<G>>,
    first: Option<String>,
) {
    match dialect(&core) {
        Ok(dialect) => Driver {
            core,
            dialect,
            deferred: VecDeque::new(),
        }
        .run(rx, first),
        Err(e) => log::error!("cannot start: {e}"),
    }
}

/// Runs an engine over its own dialect (one that is neither UCI nor CECP, e.g. Space Wars's) on
/// the same loop: bounded UTF-8 lines, commands answered during a search, one answer per search,
/// end of input as `quit` once a running search has answered (an infinite one is stopped).
pub(crate) fn run_dialect<G: LoopEngine, D: Dialect<G>>(
    game: G,
    dialect: impl FnOnce(&Core<G>) -> Result<D, String>,
    input: impl BufRead + Send + 'static,
    output: impl Write + Send + 'static,
) {
    let (tx, rx) = mpsc::channel::<Event<G>>();
    spawn_reader(input, tx.clone(), Event::<G>::Input);
    let out = Arc::new(Output::new(output));
    drive(Core::new(game, out, tx), dialect, &rx, None);
}

/// Runs an engine on the process's stdin and stdout.
pub fn run_stdio<G: EngineGame>(game: G) {
    run(
        game,
        std::io::BufReader::new(std::io::stdin()),
        std::io::stdout(),
    );
}
