//! The engines: each game's rules core and search behind the protocol loop
//! ([`crate::protocol::EngineGame`]), plus the `bench` and `perft` commands of the binaries.

pub mod cli;
pub mod solar;
pub mod spacewars;
pub mod spider;
