//! The rules cores, one module per game. Engines and the referee both use these.

pub mod solar;
pub mod spacewars;
pub mod spider;
