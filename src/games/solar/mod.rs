//! Solar Chess: the rules core (geometry, pieces, hands, move generation, drops and docking,
//! setups, position strings, perft, evaluation) and its bindings to the shared searches.
//!
//! Start from [`Position::from_setup`] or a position string (`"...".parse::<Position>()`), list
//! moves with [`Position::legal_moves`], read moves with [`Position::parse_move`], play them with
//! [`Position::make`] / [`Position::unmake`].

pub mod eval;
pub mod geometry;
pub mod hand;
pub mod move_text;
pub mod movegen;
pub mod moves;
pub mod perft;
pub mod piece;
pub mod position;
pub mod position_string;
pub mod search_bindings;
pub mod setup;
pub mod tile;
mod zobrist;

pub use geometry::Geometry;
pub use hand::Hand;
pub use move_text::MoveError;
pub use movegen::Targets;
pub use moves::Move;
pub use perft::{divide_until, perft, perft_divide, PerftReport};
pub use piece::{Colour, Kind, Piece, Seat, MAX_SEATS};
pub use position::{DrawReason, Position, Status, DEFAULT_DRAW_PLIES};
pub use position_string::PositionError;
pub use setup::{find_setup, setup_names, SetupSpec, SETUPS};
pub use tile::Tile;
