//! Space Wars: the rules core (cards, ruleset, ships, state, decisions), per-seat observations,
//! world sampling, the text forms, the engines and the protocol loop of the `space-wars` binary.

pub mod card;
pub mod decision;
pub mod event;
pub mod ruleset;
pub mod ship;
pub mod state;

pub use card::{Card, Suit};
pub use decision::{AttackOrder, Decision, DecisionKind, Illegal};
pub use event::Event;
pub use ruleset::{AttackRole, Ruleset};
pub use ship::{Attack, Ship};
pub use state::{Outcome, Record, State, Step};
pub mod observation;
pub mod sampling;
pub use observation::Observation;
pub mod engine;
pub mod protocol;
pub mod selfplay;
pub mod wire;
