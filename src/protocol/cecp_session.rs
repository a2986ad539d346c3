//! The CECP dialect's state and command handling: the game record, who the engine plays, the
//! time control, thinking output.
//!
//! While the engine thinks, `?` makes it move now, and that move is owed: it is printed (and
//! played) before any later command runs. `ping`, moves, `go`, `perft` and `option` wait until
//! the engine has moved; `new`, `variant`, `force`, `setboard`, `undo`, `remove`, `result` and
//! `quit` abort the search and discard its move, unless a `?` came first (then they wait for
//! the move like the others). A `perft` runs on the search thread too and is treated the same
//! way: `?` and the aborting commands stop it (it then prints one error line, no counts).

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

use super::cecp::{parse_cecp, CecpCommand};
use super::engine_loop::{Dialect, Flow, WhenBusy};
use super::game::EngineGame;
use super::lex::CommandError;
use super::output::Output;
use super::reply;
use super::session::{idle, Core, PerftDone};
use crate::search::{Clock, Limits};

/// Thinking time when the GUI gave neither a clock, a level, `st` nor `sd`.
pub const DEFAULT_MOVE_TIME: Duration = Duration::from_secs(1);

/// A `level` time control.
#[derive(Clone, Copy, Debug)]
struct Level {
    mps: u32,
    base: Duration,
    inc: Duration,
}

/// CECP dialect state.
pub(crate) struct CecpSession<G: EngineGame> {
    variant: String,
    pos: G::Position,
    /// Positions before each move of the game record, for `undo`/`remove`.
    history: Vec<G::Position>,
    /// The seat the engine plays; `None` in force mode.
    engine_seat: Option<usize>,
    post: Arc<AtomicBool>,
    my_time: Option<Duration>,
    level: Option<Level>,
    st: Option<Duration>,
    sd: Option<u32>,
    /// The running search's move is unwanted (a command aborted it).
    discard: bool,
    /// `?` asked for the running search's move: it is printed whatever comes next.
    owed: bool,
}

/// Why a move command failed: CECP answers bad moves with `Illegal move`, the rest with `Error`.
enum Failure {
    Error(CommandError),
    Illegal(String),
}

impl From<CommandError> for Failure {
    fn from(e: CommandError) -> Self {
        Failure::Error(e)
    }
}

impl<G: EngineGame> CecpSession<G> {
    /// Starts like after `new`: default variant, engine plays seat 2.
    pub(crate) fn new(core: &Core<G>) -> Result<Self, String> {
        let variant = core
            .variants
            .first()
            .cloned()
            .ok_or("the game lists no variant")?;
        let game = core.game.as_ref().ok_or("engine busy")?;
        let pos = game.start_position(&variant)?;
        Ok(CecpSession {
            variant,
            pos,
            history: Vec::new(),
            engine_seat: Some(2),
            post: Arc::new(AtomicBool::new(false)),
            my_time: None,
            level: None,
            st: None,
            sd: None,
            discard: false,
            owed: false,
        })
    }

    fn features(&self, core: &Core<G>) {
        let mut lines = vec![
            "feature done=0".to_string(),
            format!(
                "feature ping=1 setboard=1 usermove=1 time=1 draw=0 sigint=0 sigterm=0 reuse=1 \
                 analyze=0 colors=0 myname=\"{}\" variants=\"{}\"",
                core.name.replace('"', "'"),
                core.variants.join(",")
            ),
        ];
        lines.extend(core.all_options().iter().map(reply::cecp_option));
        lines.push("feature done=1".into());
        core.out.lines(&lines);
    }

    fn set_position(&mut self, pos: G::Position) {
        self.pos = pos;
        self.history.clear();
    }

    /// Prints the result line when the game in `self.pos` is over; returns whether it is.
    fn announce_end(&self, game: &G, out: &Output) -> bool {
        match game.outcome(&self.pos) {
            Some(o) => {
                out.line(&reply::cecp_result(&o, game.seats(&self.pos)));
                true
            }
            None => false,
        }
    }

    fn limits(&self, game: &G, overhead: Duration) -> Limits {
        let mut limits = Limits {
            depth: self.sd,
            movetime: self.st,
            overhead,
            ..Limits::default()
        };
        if self.st.is_none() {
            let remaining = self.my_time.or(self.level.map(|l| l.base));
            limits.clock = remaining.map(|remaining| {
                let seat = game.seat_to_move(&self.pos);
                let moves_to_go = self.level.filter(|l| l.mps > 0).map(|l| {
                    let played = self
                        .history
                        .iter()
                        .filter(|p| game.seat_to_move(p) == seat)
                        .count() as u32;
                    l.mps - played % l.mps
                });
                Clock {
                    remaining,
                    increment: self.level.map_or(Duration::ZERO, |l| l.inc),
                    moves_to_go,
                }
            });
        }
        if limits.depth.is_none() && limits.movetime.is_none() && limits.clock.is_none() {
            limits.movetime = Some(DEFAULT_MOVE_TIME);
        }
        limits
    }

    /// Starts thinking when it is the engine's turn and the game goes on.
    fn think_if_our_turn(&mut self, core: &mut Core<G>) -> Result<(), CommandError> {
        let game = idle(&mut core.game)?;
        if self.engine_seat != Some(game.seat_to_move(&self.pos))
            || game.outcome(&self.pos).is_some()
        {
            return Ok(());
        }
        let limits = self.limits(game, core.overhead);
        let post = Arc::clone(&self.post);
        self.discard = false;
        self.owed = false;
        core.start_search(
            self.pos.clone(),
            limits,
            Box::new(move |r| {
                post.load(Ordering::Relaxed)
                    .then(|| reply::cecp_thinking(r))
            }),
        )
    }

    fn user_move(&mut self, text: &str, core: &mut Core<G>) -> Result<(), Failure> {
        let game = idle(&mut core.game)?;
        if let Some(o) = game.outcome(&self.pos) {
            return Err(Failure::Illegal(format!(
                "the game is over: {}",
                reply::outcome_text(&o)
            )));
        }
        let mv = game.parse_move(&self.pos, text).map_err(Failure::Illegal)?;
        self.history.push(self.pos.clone());
        game.play(&mut self.pos, mv);
        if !self.announce_end(game, &core.out) {
            self.think_if_our_turn(core)?;
        }
        Ok(())
    }

    fn take_back(&mut self, plies: usize, core: &mut Core<G>) -> Result<(), CommandError> {
        idle(&mut core.game)?;
        if self.history.len() < plies {
            return Err(CommandError::new(format!(
                "only {} move(s) to take back",
                self.history.len()
            )));
        }
        let keep = self.history.len() - plies;
        self.pos = self.history[keep].clone();
        self.history.truncate(keep);
        Ok(())
    }

    fn run(&mut self, cmd: CecpCommand, line: &str, core: &mut Core<G>) -> Result<Flow, Failure> {
        match cmd {
            CecpCommand::Xboard | CecpCommand::Accepted(_) | CecpCommand::Ignored(_) => {}
            CecpCommand::Rejected(f) => log::info!("GUI rejected feature {f}"),
            CecpCommand::Protover(v) => {
                if v >= 2 {
                    self.features(core);
                }
            }
            CecpCommand::New => {
                let game = idle(&mut core.game)?;
                let variant = core.variants[0].clone();
                let pos = game.start_position(&variant).map_err(CommandError::new)?;
                game.new_game();
                self.variant = variant;
                self.set_position(pos);
                self.engine_seat = Some(2);
                self.sd = None;
            }
            CecpCommand::Variant(v) => {
                let game = idle(&mut core.game)?;
                let name = core
                    .variants
                    .iter()
                    .find(|n| **n == v)
                    .cloned()
                    .ok_or_else(|| CommandError::new("unknown variant"))?;
                let pos = game.start_position(&name).map_err(CommandError::new)?;
                core.out.lines(&game.cecp_variant_setup(&name));
                self.variant = name;
                self.set_position(pos);
            }
            CecpCommand::Force => self.engine_seat = None,
            CecpCommand::Go => {
                let game = idle(&mut core.game)?;
                self.engine_seat = Some(game.seat_to_move(&self.pos));
                if !self.announce_end(game, &core.out) {
                    self.think_if_our_turn(core)?;
                }
            }
            CecpCommand::UserMove(m) => self.user_move(&m, core)?,
            CecpCommand::SetBoard(text) => {
                let game = idle(&mut core.game)?;
                let pos = game
                    .parse_position(&self.variant, &text)
                    .map_err(|e| CommandError::new(format!("illegal position: {e}")))?;
                self.set_position(pos);
            }
            CecpCommand::Time(cs) => {
                self.my_time = Some(Duration::from_millis(cs.max(0).saturating_mul(10) as u64))
            }
            CecpCommand::Otim(_) => {}
            CecpCommand::Level { mps, base, inc } => {
                self.level = Some(Level { mps, base, inc });
                self.st = None;
            }
            CecpCommand::St(d) => {
                self.st = Some(d);
                self.level = None;
            }
            CecpCommand::Sd(d) => self.sd = Some(d),
            CecpCommand::Ping(n) => core.out.line(&format!("pong {n}")),
            CecpCommand::Undo => self.take_back(1, core)?,
            CecpCommand::Remove => self.take_back(2, core)?,
            CecpCommand::Result(r) => {
                log::info!("game result {r:?}");
                self.engine_seat = None;
            }
            CecpCommand::Post => self.post.store(true, Ordering::Relaxed),
            CecpCommand::NoPost => self.post.store(false, Ordering::Relaxed),
            CecpCommand::MoveNow => {}
            CecpCommand::Perft(d) => {
                self.discard = false;
                self.owed = false;
                core.start_perft(self.pos.clone(), d, line)?;
            }
            CecpCommand::Option { name, value } => core.set_option(&name, value.as_deref())?,
            CecpCommand::Quit => return Ok(Flow::Quit),
        }
        Ok(Flow::Continue)
    }
}

impl<G: EngineGame> Dialect<G> for CecpSession<G> {
    type Command = CecpCommand;

    fn parse(&self, line: &str) -> Result<CecpCommand, CommandError> {
        parse_cecp(line)
    }

    fn parse_error(&self, line: &str, err: &CommandError) -> String {
        let reason = if err.reason.starts_with("unknown command") {
            "unknown command"
        } else {
            &err.reason
        };
        reply::cecp_error(reason, line)
    }

    fn when_busy(&mut self, cmd: &CecpCommand) -> WhenBusy {
        use CecpCommand::*;
        match cmd {
            // The move is owed from now on: later commands wait until it is printed. A `?` after
            // a command that already aborted the search has nothing to hurry.
            MoveNow => {
                self.owed = !self.discard;
                WhenBusy {
                    defer: false,
                    stop: true,
                }
            }
            Ping(_) | UserMove(_) | Go | Perft(_) | Option { .. } => WhenBusy {
                defer: true,
                stop: false,
            },
            New | Variant(_) | Force | SetBoard(_) | Undo | Remove | Result(_) | Quit => {
                self.discard = !self.owed;
                WhenBusy {
                    defer: true,
                    stop: true,
                }
            }
            Xboard
            | Protover(_)
            | Accepted(_)
            | Rejected(_)
            | Time(_)
            | Otim(_)
            | Level { .. }
            | St(_)
            | Sd(_)
            | Post
            | NoPost
            | Ignored(_) => WhenBusy::default(),
        }
    }

    fn execute(&mut self, cmd: CecpCommand, line: &str, core: &mut Core<G>) -> Flow {
        let shown = match &cmd {
            CecpCommand::UserMove(m) => m.clone(),
            _ => line.to_string(),
        };
        match self.run(cmd, line, core) {
            Ok(flow) => flow,
            Err(Failure::Error(e)) => {
                core.out.line(&reply::cecp_error(&e.reason, line));
                Flow::Continue
            }
            Err(Failure::Illegal(reason)) => {
                core.out.line(&reply::cecp_illegal(&reason, &shown));
                Flow::Continue
            }
        }
    }

    fn perft_done(&mut self, perft: PerftDone, core: &mut Core<G>) {
        self.owed = false;
        self.discard = false;
        core.out.lines(&reply::perft_reply(&perft, |reason| {
            reply::cecp_error(reason, &perft.command)
        }));
    }

    fn search_done(&mut self, pos: G::Position, best: Option<G::Move>, core: &mut Core<G>) {
        self.owed = false;
        if std::mem::take(&mut self.discard) {
            log::debug!("search aborted; its move is discarded");
            return;
        }
        let Some(game) = core.game.as_ref() else {
            return;
        };
        match best {
            Some(mv) => {
                let text = game.move_text(&pos, mv);
                self.history.push(self.pos.clone());
                game.play(&mut self.pos, mv);
                core.out.line(&format!("move {text}"));
                self.announce_end(game, &core.out);
            }
            None => {
                if !self.announce_end(game, &core.out) {
                    log::error!("the search found no move in a position that is not over");
                }
            }
        }
    }
}
