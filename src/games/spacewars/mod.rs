//! Space Wars: the rules core (cards, ruleset, ships, state, decisions), per-seat observations,
//! world sampling, the text forms, the engines and the protocol loop of the `space-wars` binary.
//! See `docs/spacewars.md`.

pub mod card;
pub mod decision;
pub mod engine;
pub mod event;
pub mod observation;
pub mod protocol;
pub mod ruleset;
pub mod sampling;
pub mod selfplay;
pub mod ship;
pub mod state;
pub mod wire;

pub use card::{Card, Suit};
pub use decision::{AttackOrder, Decision, DecisionKind, Illegal};
pub use event::Event;
pub use observation::Observation;
pub use ruleset::{AttackRole, Ruleset};
pub use ship::{Attack, Ship};
pub use state::{Outcome, Record, State, Step};
