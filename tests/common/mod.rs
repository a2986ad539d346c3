//! Shared test support: a toy game, engine I/O with timeouts, and the bad-input harness.
#![allow(dead_code)]

pub mod bad_input;
pub mod binaries;
pub mod engine_io;
pub mod referee;
pub mod toy;
