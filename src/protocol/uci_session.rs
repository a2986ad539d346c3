//! The UCI-style dialect's state and command handling.
//!
//! While a search or a `go perft` runs, `isready`, `uci`, `debug` and `stop` are answered at
//! once; `position`, `go`, `setoption`, `ucinewgame` and `quit` first stop it (a search's
//! `bestmove` is printed; a stopped perft prints one error line and no counts) and then run.

use super::engine_loop::{Dialect, Flow, WhenBusy};
use super::game::{EngineGame, EngineOption, OptionKind};
use super::lex::{shorten, CommandError};
use super::reply;
use super::session::{idle, Core};
use super::uci::{parse_uci, GoParams, PositionStart, UciCommand};

/// Name of the variant option.
pub const UCI_VARIANT: &str = "UCI_Variant";

/// UCI dialect state: the current variant and position.
pub(crate) struct UciSession<G: EngineGame> {
    variant: String,
    pos: G::Position,
}

impl<G: EngineGame> UciSession<G> {
    /// Starts at the default variant's start position.
    pub(crate) fn new(core: &Core<G>) -> Result<Self, String> {
        let variant = core
            .variants
            .first()
            .cloned()
            .ok_or("the game lists no variant")?;
        let game = core.game.as_ref().ok_or("engine busy")?;
        let pos = game.start_position(&variant)?;
        Ok(UciSession { variant, pos })
    }

    fn variant_option(&self, core: &Core<G>) -> EngineOption {
        EngineOption {
            name: UCI_VARIANT.into(),
            kind: OptionKind::Combo {
                default: core.variants.first().cloned().unwrap_or_default(),
                choices: core.variants.clone(),
            },
        }
    }

    fn identify(&self, core: &Core<G>) {
        let mut lines = vec![
            format!("id name {}", core.name),
            format!("id author {}", core.author),
        ];
        let mut options = core.all_options();
        options.insert(2, self.variant_option(core));
        lines.extend(options.iter().map(reply::uci_option));
        lines.push("uciok".into());
        core.out.lines(&lines);
    }

    fn set_option(
        &mut self,
        name: &str,
        value: Option<&str>,
        core: &mut Core<G>,
    ) -> Result<(), CommandError> {
        if name.eq_ignore_ascii_case(UCI_VARIANT) {
            let v = self
                .variant_option(core)
                .check_value(value.unwrap_or(""))
                .map_err(CommandError::new)?;
            let game = idle(&mut core.game)?;
            let pos = game.start_position(&v).map_err(CommandError::new)?;
            self.variant = v;
            self.pos = pos;
            return Ok(());
        }
        core.set_option(name, value)
    }

    fn position(
        &mut self,
        start: PositionStart,
        moves: &[String],
        core: &mut Core<G>,
    ) -> Result<(), CommandError> {
        let game = idle(&mut core.game)?;
        let mut pos = match &start {
            PositionStart::StartPos => game.start_position(&self.variant),
            PositionStart::Text(t) => game.parse_position(&self.variant, t),
        }
        .map_err(|e| CommandError::new(format!("bad position: {e}; position unchanged")))?;
        for (ply, text) in moves.iter().enumerate() {
            if let Some(o) = game.outcome(&pos) {
                return Err(CommandError::new(format!(
                    "move '{}' at ply {} comes after the end of the game ({}); position unchanged",
                    shorten(text),
                    ply + 1,
                    reply::outcome_text(&o)
                )));
            }
            let mv = game.parse_move(&pos, text).map_err(|e| {
                CommandError::new(format!(
                    "illegal move '{}' at ply {} ({e}); position unchanged",
                    shorten(text),
                    ply + 1
                ))
            })?;
            game.play(&mut pos, mv);
        }
        self.pos = pos;
        Ok(())
    }

    fn go(
        &mut self,
        params: Box<GoParams>,
        line: &str,
        core: &mut Core<G>,
    ) -> Result<(), CommandError> {
        if let Some(depth) = params.perft {
            return core.start_perft(self.pos.clone(), depth, line);
        }
        let game = idle(&mut core.game)?;
        let seat = game.seat_to_move(&self.pos);
        if let Some(o) = game.outcome(&self.pos) {
            core.out.line(&format!(
                "info string game over: {}",
                reply::outcome_text(&o)
            ));
        }
        let limits = params.limits(seat, core.overhead);
        core.start_search(
            self.pos.clone(),
            limits,
            Box::new(|r| Some(reply::uci_info(r))),
        )
    }
}

impl<G: EngineGame> Dialect<G> for UciSession<G> {
    type Command = UciCommand;

    fn parse(&self, line: &str) -> Result<UciCommand, CommandError> {
        parse_uci(line)
    }

    fn parse_error(&self, _line: &str, err: &CommandError) -> String {
        reply::uci_error(&err.reason)
    }

    fn when_busy(&mut self, cmd: &UciCommand) -> WhenBusy {
        match cmd {
            UciCommand::Uci
            | UciCommand::Debug(_)
            | UciCommand::IsReady
            | UciCommand::Register
            | UciCommand::PonderHit => WhenBusy::default(),
            UciCommand::Stop => WhenBusy {
                defer: false,
                stop: true,
            },
            UciCommand::SetOption { .. }
            | UciCommand::UciNewGame
            | UciCommand::Position { .. }
            | UciCommand::Go(_)
            | UciCommand::Quit => WhenBusy {
                defer: true,
                stop: true,
            },
        }
    }

    fn execute(&mut self, cmd: UciCommand, line: &str, core: &mut Core<G>) -> Flow {
        let result = match cmd {
            UciCommand::Uci => {
                self.identify(core);
                Ok(())
            }
            UciCommand::Debug(on) => {
                log::debug!("debug {on}");
                Ok(())
            }
            UciCommand::IsReady => {
                core.out.line("readyok");
                Ok(())
            }
            UciCommand::Register => Ok(()),
            UciCommand::SetOption { name, value } => self.set_option(&name, value.as_deref(), core),
            UciCommand::UciNewGame => idle(&mut core.game).map(|g| g.new_game()),
            UciCommand::Position { start, moves } => self.position(start, &moves, core),
            UciCommand::Go(params) => self.go(params, line, core),
            UciCommand::Stop => Ok(()),
            UciCommand::PonderHit => Err(CommandError::new("not pondering")),
            UciCommand::Quit => return Flow::Quit,
        };
        if let Err(e) = result {
            core.out.line(&reply::uci_error(&e.reason));
        }
        Flow::Continue
    }

    fn search_done(&mut self, pos: G::Position, best: Option<G::Move>, core: &mut Core<G>) {
        let text = match (best, core.game.as_ref()) {
            (Some(mv), Some(game)) => game.move_text(&pos, mv),
            _ => "0000".to_string(),
        };
        core.out.line(&format!("bestmove {text}"));
    }
}
