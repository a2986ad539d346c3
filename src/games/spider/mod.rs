//! Spider-Chess (and any variant written in the Interactive Diagram format): definitions, the Betza
//! compiler, a mailbox board with holes, legal move generation, FEN, notation, game end rules,
//! perft, evaluation and the [`crate::search::TwoSided`] interface.
//!
//! ```
//! use orrery::games::spider::{perft, Position, Variant};
//! let variant = Variant::spider_chess();
//! let mut pos = Position::startpos(&variant);
//! pos.play("m2m5").unwrap();
//! assert!(pos.parse_move("m2m3").is_err());
//! assert_eq!(perft(&mut Position::startpos(&variant), 1), 307);
//! ```

#![warn(missing_docs)]

pub mod betza;
pub mod definition;
mod engine;
mod eval;
mod fen;
mod movegen;
mod notation;
mod outcome;
mod perft;
mod position;
mod see;
mod square;
mod variant;

pub use definition::{Definition, DefinitionError, StalemateRule, Symmetry};
pub use eval::EvalWeights;
pub use fen::FenError;
pub use notation::MoveError;
pub use outcome::{Outcome, Reason};
pub use perft::{divide, divide_until, perft, perft_report, PerftReport};
pub use position::{Move, Position, DEFAULT_FIFTY_MOVE_PLIES};
pub use square::{file_char, file_index, parse_square, square_name, Color, MAX_SIDE};
pub use variant::{PieceInfo, Variant, MAX_KINDS, SPIDER_CHESS_DEFINITION};
