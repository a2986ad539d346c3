//! The rules cores, one module per game. Engines and the referee both use these.

pub mod solar;
pub mod spacewars;
pub mod spider;

/// The deepest perft the rules cores count: 64 plies. No real position can be counted that deep
/// (Spider-Chess has 307 moves at the start, Solar Chess dozens), and the bound keeps the per-ply
/// move buffers and the recursion small; the engines refuse deeper requests with an error.
pub const MAX_PERFT_DEPTH: u32 = 64;
