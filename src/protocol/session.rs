//! What both dialects share: the engine (lent to a search thread during `go`), the output, the
//! loop's own options (`Hash`, `Move Overhead`) and the game's options.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::Sender;
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::Duration;

use super::game::{EngineGame, EngineOption, LoopEngine, OptionKind, SearchReport};
use super::input::InputEvent;
use super::lex::CommandError;
use super::output::Output;
use crate::search::Limits;

/// Name of the transposition-table size option, MiB.
pub const HASH: &str = "Hash";
/// Name of the communication-delay margin option, ms.
pub const MOVE_OVERHEAD: &str = "Move Overhead";
/// Default `Hash` in MiB.
pub const DEFAULT_HASH_MIB: usize = 16;
/// Default `Move Overhead` in ms.
pub const DEFAULT_OVERHEAD_MS: u64 = 30;

/// Turns a search report into a protocol line, or `None` to show nothing (CECP `nopost`).
pub(crate) type ReportFormat = Box<dyn Fn(&SearchReport) -> Option<String> + Send>;

/// What a task on the search thread brings back besides the engine.
pub(crate) enum Outcome<A> {
    /// A search: the move found, `None` when there was none.
    Search(Option<A>),
    /// A perft.
    Perft(PerftDone),
}

/// A perft that ended: the command that asked for it and its counts.
pub(crate) struct PerftDone {
    /// The command line as received (`go perft 5`, `perft 5`), for the reply to a stopped perft.
    pub command: String,
    /// Each root move with its leaf count; `None` when it was stopped before the end.
    pub divide: Option<Vec<(String, u64)>>,
}

/// A search or perft that ended: the engine comes back with the position it worked on.
pub(crate) struct Finished<G: LoopEngine> {
    /// The engine, returned from the search thread.
    pub game: G,
    /// The position that was searched or counted.
    pub pos: G::Position,
    /// What the task found.
    pub outcome: Outcome<G::Answer>,
}

/// What the loop waits for: an input line or the end of a search.
pub(crate) enum Event<G: LoopEngine> {
    /// From the input thread.
    Input(InputEvent),
    /// From the search thread.
    Done(Finished<G>),
}

struct Running {
    infinite: bool,
    handle: JoinHandle<()>,
}

/// The state both dialects share.
pub(crate) struct Core<G: LoopEngine> {
    /// The engine while idle; `None` while it is lent to the search thread.
    pub game: Option<G>,
    /// Where replies go.
    pub out: Arc<Output>,
    stop: Arc<AtomicBool>,
    running: Option<Running>,
    done: Sender<Event<G>>,
    /// Cached at start-up: engine name, author, variants, game options.
    pub name: String,
    pub author: String,
    pub variants: Vec<String>,
    pub game_options: Vec<EngineOption>,
    /// `Hash` in MiB.
    pub hash_mib: usize,
    /// The largest `Hash` offered (see [`super::memory::hash_max_mib`]).
    pub hash_max_mib: usize,
    /// `Move Overhead`.
    pub overhead: Duration,
}

/// Borrows the idle engine, or explains that a search holds it.
pub(crate) fn idle<G>(game: &mut Option<G>) -> Result<&mut G, CommandError> {
    game.as_mut()
        .ok_or_else(|| CommandError::new("a search is running"))
}

impl<G: LoopEngine> Core<G> {
    /// Wraps an engine; finished searches are announced through `done`.
    pub(crate) fn new(mut game: G, out: Arc<Output>, done: Sender<Event<G>>) -> Self {
        if let Err(e) = game.loop_set_hash(DEFAULT_HASH_MIB) {
            log::error!("cannot set the default hash size: {e}");
        }
        Core {
            name: game.loop_name(),
            author: game.loop_author(),
            variants: game.loop_variants(),
            game_options: game.loop_options(),
            game: Some(game),
            out,
            stop: Arc::new(AtomicBool::new(false)),
            running: None,
            done,
            hash_mib: DEFAULT_HASH_MIB,
            hash_max_mib: super::memory::hash_max_mib(),
            overhead: Duration::from_millis(DEFAULT_OVERHEAD_MS),
        }
    }

    /// The loop's own options followed by the game's.
    pub(crate) fn all_options(&self) -> Vec<EngineOption> {
        let mut all = vec![
            EngineOption {
                name: HASH.into(),
                kind: OptionKind::Spin {
                    default: DEFAULT_HASH_MIB as i64,
                    min: 1,
                    max: self.hash_max_mib as i64,
                },
            },
            EngineOption {
                name: MOVE_OVERHEAD.into(),
                kind: OptionKind::Spin {
                    default: DEFAULT_OVERHEAD_MS as i64,
                    min: 0,
                    max: 10_000,
                },
            },
        ];
        all.extend(self.game_options.iter().cloned());
        all
    }

    /// Sets `Hash`, `Move Overhead` or a game option; checks the value first and changes nothing
    /// on error.
    pub(crate) fn set_option(
        &mut self,
        name: &str,
        value: Option<&str>,
    ) -> Result<(), CommandError> {
        let opt = self
            .all_options()
            .into_iter()
            .find(|o| o.name.eq_ignore_ascii_case(name))
            .ok_or_else(|| CommandError::new(format!("unknown option '{name}'")))?;
        let value = match (value, &opt.kind) {
            (None, OptionKind::Button) | (Some(_), OptionKind::Button) => String::new(),
            (None, _) => {
                return Err(CommandError::new(format!(
                    "option '{}' needs a value",
                    opt.name
                )))
            }
            (Some(v), _) => opt.check_value(v).map_err(CommandError::new)?,
        };
        let game = idle(&mut self.game)?;
        if opt.name == HASH {
            let mib: usize = value
                .parse()
                .map_err(|_| CommandError::new(format!("Hash needs MiB, got '{value}'")))?;
            if let Some(free) = super::memory::available_mib() {
                if mib > free {
                    return Err(CommandError::new(format!(
                        "Hash {mib} MiB is more than the memory free now ({free} MiB); \
                         the table stays at {} MiB",
                        self.hash_mib
                    )));
                }
            }
            game.loop_set_hash(mib).map_err(|e| {
                CommandError::new(format!("{e}; the table stays at {} MiB", self.hash_mib))
            })?;
            self.hash_mib = mib;
        } else if opt.name == MOVE_OVERHEAD {
            self.overhead = Duration::from_millis(value.parse().unwrap_or(DEFAULT_OVERHEAD_MS));
        } else {
            game.loop_set_option(&opt.name, &value)
                .map_err(CommandError::new)?;
        }
        Ok(())
    }

    /// Whether a search thread holds the engine.
    pub(crate) fn is_searching(&self) -> bool {
        self.running.is_some()
    }

    /// Whether the running search only ends on `stop`.
    pub(crate) fn is_infinite(&self) -> bool {
        self.running.as_ref().is_some_and(|r| r.infinite)
    }

    /// Asks the running search to stop as soon as it can.
    pub(crate) fn request_stop(&self) {
        self.stop.store(true, Ordering::SeqCst);
    }

    /// Lends the engine to a new search thread over `pos`; reports go through `format`.
    pub(crate) fn start_search(
        &mut self,
        pos: G::Position,
        limits: Limits,
        format: ReportFormat,
    ) -> Result<(), CommandError> {
        let out = Arc::clone(&self.out);
        let infinite = limits.infinite;
        log::debug!("search starts: {limits:?}");
        let search = move |game: &mut G, pos: &G::Position, stop: &AtomicBool| {
            let mut report = |r: SearchReport| {
                if let Some(line) = format(&r) {
                    out.line(&line);
                }
            };
            let best = game.loop_search(pos, &limits, stop, &mut report);
            // UCI: in infinite mode the best move is held back until `stop` (or `quit`), even
            // when the search ends on its own (a tiny game solved to the last depth).
            while infinite && !stop.load(Ordering::SeqCst) {
                std::thread::sleep(Duration::from_millis(2));
            }
            Outcome::Search(best)
        };
        self.start_task(pos, infinite, search, || Outcome::Search(None))
    }

    /// Lends the engine to a new thread that runs `task` over `pos` until it ends or the stop
    /// flag is set; a panicking task is caught and answered with `on_panic()`.
    fn start_task(
        &mut self,
        pos: G::Position,
        infinite: bool,
        task: impl FnOnce(&mut G, &G::Position, &AtomicBool) -> Outcome<G::Answer> + Send + 'static,
        on_panic: impl FnOnce() -> Outcome<G::Answer> + Send + 'static,
    ) -> Result<(), CommandError> {
        let mut game = self
            .game
            .take()
            .ok_or_else(|| CommandError::new("a search is already running"))?;
        self.stop.store(false, Ordering::SeqCst);
        let stop = Arc::clone(&self.stop);
        let done = self.done.clone();
        let handle = std::thread::Builder::new()
            .name("search".into())
            .spawn(move || {
                let outcome = catch_unwind(AssertUnwindSafe(|| task(&mut game, &pos, &stop)))
                    .unwrap_or_else(|_| {
                        log::error!("the search thread's task panicked; answering without result");
                        on_panic()
                    });
                // The loop waits for this message; if it is gone, nobody needs the result.
                let _ = done.send(Event::Done(Finished { game, pos, outcome }));
            })
            .map_err(|e| CommandError::new(format!("cannot start the search thread: {e}")))?;
        self.running = Some(Running { infinite, handle });
        Ok(())
    }

    /// Takes the engine back from a finished search or perft; returns the position it worked on
    /// and what it found.
    pub(crate) fn finish(&mut self, finished: Finished<G>) -> (G::Position, Outcome<G::Answer>) {
        if let Some(r) = self.running.take() {
            if r.handle.join().is_err() {
                log::error!("the search thread ended abnormally");
            }
        }
        self.game = Some(finished.game);
        (finished.pos, finished.outcome)
    }
}

impl<G: EngineGame> Core<G> {
    /// Lends the engine to the search thread for a perft divide of `pos` (`command` is the line
    /// that asked for it), which `stop` ends like a search; its counts come back as
    /// [`Outcome::Perft`].
    pub(crate) fn start_perft(
        &mut self,
        pos: G::Position,
        depth: u32,
        command: &str,
    ) -> Result<(), CommandError> {
        log::debug!("perft {depth} starts");
        let command = command.to_string();
        let on_panic_command = command.clone();
        let perft = move |game: &mut G, pos: &G::Position, stop: &AtomicBool| {
            Outcome::Perft(PerftDone {
                command,
                divide: game.perft_divide(pos, depth, stop),
            })
        };
        let on_panic = move || {
            Outcome::Perft(PerftDone {
                command: on_panic_command,
                divide: None,
            })
        };
        self.start_task(pos, false, perft, on_panic)
    }
}
