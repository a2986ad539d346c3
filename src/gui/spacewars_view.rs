//! What one seat's browser sees of a Space Wars table, built from that seat's [`Observation`]
//! (the same type the engines get) and the events masked for that seat: the seat's own hand and
//! hulls as cards, every other hand and hull as a count, attack cards face down unless revealed
//! or the seat's own, the discard pile and what the seat owes now. Nothing here reads the true
//! state, so no other seat's hidden card can reach the page.

use serde_json::{json, Value};

use crate::games::spacewars::observation::Cards;
use crate::games::spacewars::state::BattleStep;
use crate::games::spacewars::wire::{format_kind, format_observation};
use crate::games::spacewars::{Observation, Ruleset, Step};

fn cards_json(c: &Cards) -> Value {
    match c {
        Cards::Own(v) => json!({"cards": v.iter().map(|c| c.to_string()).collect::<Vec<_>>()}),
        Cards::Count(n) => json!({"count": n}),
    }
}

fn attack_json(a: &crate::games::spacewars::Attack) -> Value {
    // Only attacks that are face up (being resolved) appear in a battle step.
    json!({"card": a.card.to_string(), "from": a.from, "target": a.target, "attacker": a.attacker})
}

fn step_json(step: Step) -> Value {
    match step {
        Step::Class => json!({"name": "class"}),
        Step::Discard => json!({"name": "discard"}),
        Step::Split => json!({"name": "split"}),
        Step::Tactical => json!({"name": "tactical"}),
        Step::Over => json!({"name": "over"}),
        Step::Battle(b) => {
            let (sub, extra) = match b.step {
                BattleStep::ChooseShip => ("ship", json!({})),
                BattleStep::ChooseAttack => ("order", json!({})),
                BattleStep::Block(a) => ("block", json!({"attack": attack_json(&a)})),
                BattleStep::Lose { attack, count } => (
                    "lose",
                    json!({"attack": attack_json(&attack), "count": count}),
                ),
                BattleStep::Crew(a) => ("crew", json!({"attack": attack_json(&a)})),
                BattleStep::Repel { attack, crew } => (
                    "repel",
                    json!({"attack": attack_json(&attack), "crew": crew.to_string()}),
                ),
            };
            json!({"name": "battle", "cursor": b.cursor, "ship": b.ship, "sub": sub, "detail": extra})
        }
    }
}

/// The table as seat `obs.seat()` sees it. `position` is the seat's wire `position` line, the
/// very text an engine at that seat receives.
pub fn table(obs: &Observation, rules: &Ruleset) -> Value {
    let seats: Vec<Value> = obs
        .seats()
        .iter()
        .map(|s| {
            json!({
                "active": s.active,
                "class": s.class.map(|(c, card)| json!({
                    "name": rules.classes[c as usize].name, "card": card.to_string()
                })),
                "hand": cards_json(&s.hand),
            })
        })
        .collect();
    let ships: Vec<Value> = obs
        .ships()
        .iter()
        .map(|s| {
            json!({
                "id": s.id, "owner": s.owner, "class": rules.classes[s.class as usize].name,
                "size": s.size, "alive": s.alive, "hull": cards_json(&s.hull),
            })
        })
        .collect();
    let attacks: Vec<Value> = obs
        .attacks()
        .iter()
        .map(|a| {
            json!({
                "from": a.from, "target": a.target, "attacker": a.attacker,
                "card": a.card.map(|c| c.to_string()), "face_up": a.face_up,
            })
        })
        .collect();
    let classes: Vec<Value> = rules
        .classes
        .iter()
        .map(|c| json!({"name": c.name, "ships": c.ships, "size": c.size}))
        .collect();
    json!({
        "kind": "spacewars",
        "seat": obs.seat(),
        "players": obs.players(),
        "round": obs.round(),
        "draw": obs.draw_len(),
        "discard": obs.discard().iter().map(|c| c.to_string()).collect::<Vec<_>>(),
        "seats": seats,
        "ships": ships,
        "attacks": attacks,
        "step": step_json(obs.step()),
        "pending": obs.pending().map(|k| format_kind(Some(k))),
        "result": obs.outcome().map(|o| o.text()),
        "classes": classes,
        "position": format!("position {}", format_observation(obs, rules)),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::spacewars::State;

    #[test]
    fn a_seat_sees_its_own_hand_and_only_counts_of_others() {
        let state = State::new(3, 11).unwrap();
        let obs = Observation::of(&state, 1);
        let t = table(&obs, state.rules());
        assert_eq!(t["seat"], 1);
        assert_eq!(t["seats"][1]["hand"]["cards"].as_array().unwrap().len(), 10);
        assert_eq!(t["seats"][0]["hand"]["count"], 10);
        assert!(t["seats"][0]["hand"].get("cards").is_none());
        assert_eq!(t["pending"], "class");
        let own: Vec<String> = state.hand(1).iter().map(|c| c.to_string()).collect();
        assert_eq!(t["seats"][1]["hand"]["cards"], json!(own));
    }
}
