//! Space Wars: the rules core (cards, ruleset, ships, state, decisions), per-seat observations,
//! world sampling, the action abstraction with the heuristic and random players, the text forms,
//! and the game's side of the hidden-information searches ([`search_bindings`]). The engine behind
//! the protocol is [`crate::engines::spacewars`]. See `docs/spacewars.md`.

pub mod abstraction;
pub mod card;
pub mod decision;
pub mod event;
pub mod heuristic;
pub mod observation;
#[cfg(test)]
mod omniscient;
pub mod random;
pub mod ruleset;
pub mod sampling;
pub mod search_bindings;
pub mod ship;
pub mod state;
pub mod wire;

pub use card::{Card, Suit};
pub use decision::{AttackOrder, Decision, DecisionKind, Illegal, Play};
pub use event::Event;
pub use observation::Observation;
pub use ruleset::{AttackRole, Ruleset};
pub use ship::{Attack, Ship};
pub use state::{Deal, Outcome, Record, State, Step};
