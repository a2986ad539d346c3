//! The rule-based player: sensible blocking (cheapest minimal set, keeping ECM against lasers),
//! boarding when its crew is strong, firing at the weakest enemy ship and boarding the most
//! valuable one. Also the default policy of the searches' playouts. It reads only the seat's own
//! cards and public facts.

use super::abstraction::{boarding_source, concretize, Action};
use super::card::Card;
use super::decision::{Decision, DecisionKind};
use super::ruleset::{AttackRole, Marker};
use super::state::{State, Step};

/// Smallest club value worth sending boarders with.
pub const STRONG_CREW: u8 = 7;

/// The heuristic decision of `seat` for the decision it owes in world `w`.
pub fn decide(w: &State, seat: u8, kind: DecisionKind) -> Decision {
    concretize(w, seat, action(w, seat, kind))
}

/// The heuristic player's choice as an abstract action.
pub fn action(w: &State, seat: u8, kind: DecisionKind) -> Action {
    let r = &w.rules;
    match kind {
        DecisionKind::Class => {
            let hand = &w.hands[seat as usize];
            let boarders = hand
                .iter()
                .filter(|&&c| r.attack_role(c) == Some(AttackRole::Boarding))
                .count();
            let pick = |m: fn(Marker) -> bool| {
                r.classes
                    .iter()
                    .position(|k| m(k.marker) && hand.iter().any(|&c| k.marker.accepts(c)))
            };
            let mother = pick(|m| m == Marker::Joker);
            let battle = pick(|m| matches!(m, Marker::Rank(_)));
            let any = pick(|m| m == Marker::Any);
            let class = match (mother, battle) {
                (Some(m), _) if boarders >= 3 => m,
                (_, Some(b)) => b,
                (Some(m), None) => m,
                _ => any.unwrap_or(0),
            };
            Action::Class(class as u8)
        }
        DecisionKind::Split => Action::Split(0),
        DecisionKind::Discard(_) => Action::Discard,
        DecisionKind::Attack => tactical(w, seat),
        DecisionKind::Defend => {
            let ship = w
                .ships
                .iter()
                .filter(|s| s.alive && s.owner == seat)
                .find(|s| w.attacks.iter().any(|a| a.target == s.id))
                .map_or(0, |s| s.id);
            Action::Defend(ship)
        }
        DecisionKind::Resolve => {
            let ship = match w.step {
                Step::Battle(b) => b.ship.unwrap_or(0),
                _ => 0,
            };
            let a = w
                .attacks
                .iter()
                .filter(|a| a.target == ship)
                .min_by_key(|a| match r.attack_role(a.card) {
                    Some(AttackRole::Boarding) => 0,
                    _ => 1 + a.card.value(),
                })
                .copied();
            match a {
                Some(a) => Action::Resolve(a.card, a.from),
                None => Action::Resolve(Card::JOKER, 0),
            }
        }
        DecisionKind::Block => Action::BlockKeepEcm,
        DecisionKind::Lose(_) => Action::LoseCheap,
        DecisionKind::Crew => Action::CrewHigh,
        DecisionKind::Repel => Action::Repel,
    }
}

/// Spread the fire over the enemy ships, weakest first, about what each takes to destroy; board
/// the enemy ship with most cards when the best club reaches [`STRONG_CREW`].
fn tactical(w: &State, seat: u8) -> Action {
    if let Some((_, _, club)) = boarding_source(w, seat) {
        if club >= STRONG_CREW {
            let rich = w
                .ships
                .iter()
                .filter(|s| s.alive && s.owner != seat)
                .max_by_key(|s| s.hull.len())
                .map(|s| s.id);
            if let Some(target) = rich {
                return Action::SpreadBoard(target);
            }
        }
    }
    Action::Spread
}
