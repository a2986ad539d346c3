//! The wire: `nom` parsers for the UCI-style and CECP-style dialects, reply formatting, and the
//! engine loop shared by every engine.
//!
//! An engine binary implements [`EngineGame`] and calls [`run`]; the first command (`uci` or
//! `xboard`) picks the dialect. See `docs/protocol.md` for every command with transcripts.

pub mod cecp;
pub mod game;
mod lex;
pub mod uci;

pub use game::{EngineGame, EngineOption, GameOutcome, OptionKind, ReportScore, SearchReport};
pub use lex::CommandError;
