//! Orrery: engines for Spider-Chess, Solar Chess and Space Wars, a shared rules-and-search core,
//! and a referee/match runner that plays engines against each other.
//!
//! Layout (see `design.md`): [`games`] holds each game's rules core, [`search`] the game-agnostic
//! searches over small traits, [`protocol`] the wire dialects and the engine loop, [`referee`] the
//! match runner, [`gui`] the board in a browser.

pub mod engines;
pub mod games;
pub mod gui;
pub mod protocol;
pub mod referee;
pub mod search;
pub mod tune;
