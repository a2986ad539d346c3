//! The wire: `nom` parsers for the UCI-style and CECP-style dialects, reply formatting, and the
//! engine loop shared by every engine.
//!
//! An engine binary implements [`EngineGame`] and calls [`run`]; the first command (`uci` or
//! `xboard`) picks the dialect. See `protocol.md` for every command with transcripts.

pub mod cecp;
mod cecp_session;
mod engine_loop;
pub mod game;
mod input;
mod lex;
mod memory;
mod output;
pub mod reply;
mod session;
pub mod uci;
mod uci_session;

pub use cecp_session::DEFAULT_MOVE_TIME;
pub use engine_loop::{run, run_stdio};
pub(crate) use engine_loop::{run_dialect, Dialect, Flow, WhenBusy};
pub use game::{
    EngineGame, EngineOption, GameOutcome, LoopEngine, OptionKind, ReportScore, SearchReport,
};
pub use input::MAX_LINE;
pub use lex::CommandError;
pub use memory::hash_max_mib;
pub(crate) use session::{idle, Core};
pub use session::{DEFAULT_HASH_MIB, DEFAULT_OVERHEAD_MS, HASH, MOVE_OVERHEAD};
pub use uci_session::UCI_VARIANT;
