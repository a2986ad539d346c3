//! Determinization: the cards a seat cannot see, counted from everything it has seen, dealt at
//! random into the hidden places (other hands and hulls, face-down attacks, the draw pile) to make
//! a full [`State`] the searches can play out.

use super::card::{Card, CardCounts};
use super::observation::{Cards, Observation};
use super::ruleset::Ruleset;
use super::ship::{Attack, Ship};
use super::state::{BattleStep, State, Step};
use rand::{seq::SliceRandom, Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::sync::Arc;

/// The card counter: every card the observer has seen (own cards, discards, ship cards on the
/// table, face-up and own attack cards).
pub fn seen_cards(obs: &Observation, rules: &Ruleset) -> CardCounts {
    let mut seen = CardCounts::default();
    let mut add = |c: Card| seen.0[c.index()] += 1;
    for c in &obs.discard {
        add(*c);
    }
    for s in &obs.seats {
        if let Some(v) = s.hand.own() {
            v.iter().for_each(|&c| add(c));
        }
        if let Some((class, card)) = s.class {
            if rules
                .classes
                .get(class as usize)
                .is_some_and(|k| k.marker_stays)
            {
                add(card);
            }
        }
    }
    for sh in &obs.ships {
        if let Some(v) = sh.hull.own() {
            v.iter().for_each(|&c| add(c));
        }
    }
    for a in &obs.attacks {
        if let Some(c) = a.card {
            add(c);
        }
    }
    if let Step::Battle(b) = obs.step {
        match b.step {
            BattleStep::Block(a) | BattleStep::Crew(a) => add(a.card),
            BattleStep::Lose { attack, .. } | BattleStep::Repel { attack, .. } => add(attack.card),
            _ => {}
        }
    }
    seen
}

/// The cards whose place the observer does not know (pack minus seen), or an error when the
/// observation shows more of a card than the pack holds.
pub fn unknown_cards(obs: &Observation, rules: &Ruleset) -> Result<Vec<Card>, String> {
    let pack = CardCounts::of(&rules.pack(obs.players as usize));
    let seen = seen_cards(obs, rules);
    let mut out = Vec::with_capacity(pack.total());
    for c in Card::all() {
        let (p, s) = (pack.0[c.index()], seen.0[c.index()]);
        if s > p {
            return Err(format!("card {c} seen {s} times, the pack holds {p}"));
        }
        out.extend(std::iter::repeat_n(c, (p - s) as usize));
    }
    Ok(out)
}

/// Number of hidden places the unknown cards must fill.
pub fn hidden_slots(obs: &Observation) -> usize {
    let hands: usize = obs
        .seats
        .iter()
        .filter_map(|s| match s.hand {
            Cards::Count(n) => Some(n as usize),
            _ => None,
        })
        .sum();
    let hulls: usize = obs
        .ships
        .iter()
        .filter_map(|s| match s.hull {
            Cards::Count(n) => Some(n as usize),
            _ => None,
        })
        .sum();
    let attacks = obs.attacks.iter().filter(|a| a.card.is_none()).count();
    hands + hulls + attacks + obs.draw as usize
}

/// Checks that the unknown cards exactly fill the hidden places.
pub fn check_consistent(obs: &Observation, rules: &Ruleset) -> Result<(), String> {
    let unknown = unknown_cards(obs, rules)?.len();
    let slots = hidden_slots(obs);
    if unknown != slots {
        return Err(format!(
            "{unknown} unseen cards but {slots} hidden places (hands, hulls, face-down attacks, draw pile)"
        ));
    }
    Ok(())
}

/// One world consistent with the observation: unseen cards shuffled into the hidden places.
pub fn sample_world<R: Rng>(
    obs: &Observation,
    rules: &Arc<Ruleset>,
    rng: &mut R,
) -> Result<State, String> {
    let mut unknown = unknown_cards(obs, rules)?;
    if unknown.len() != hidden_slots(obs) {
        check_consistent(obs, rules)?;
    }
    unknown.shuffle(rng);
    let mut take = |n: usize| -> Vec<Card> { unknown.split_off(unknown.len() - n) };
    let players = obs.players as usize;
    let mut hands = Vec::with_capacity(players);
    for s in &obs.seats {
        hands.push(match &s.hand {
            Cards::Own(v) => v.clone(),
            Cards::Count(n) => take(*n as usize),
        });
    }
    let ships: Vec<Ship> = obs
        .ships
        .iter()
        .map(|sh| Ship {
            id: sh.id,
            owner: sh.owner,
            class: sh.class,
            size: sh.size,
            alive: sh.alive,
            hull: match &sh.hull {
                Cards::Own(v) => v.clone(),
                Cards::Count(n) => take(*n as usize),
            },
        })
        .collect();
    let attacks: Vec<Attack> = obs
        .attacks
        .iter()
        .map(|a| Attack {
            card: a.card.unwrap_or_else(|| take(1)[0]),
            from: a.from,
            target: a.target,
            attacker: a.attacker,
            face_up: a.face_up,
        })
        .collect();
    let draw = take(obs.draw as usize);
    let rules = if rules.round_limit == obs.round_limit {
        rules.clone()
    } else {
        let mut r = (**rules).clone();
        r.round_limit = obs.round_limit;
        Arc::new(r)
    };
    let active: Vec<bool> = obs.seats.iter().map(|s| s.active).collect();
    let round_start = (0..players)
        .filter(|&s| active[s])
        .fold(0u16, |m, s| m | 1 << s);
    let mut world = State {
        rules,
        players: obs.players,
        round: obs.round,
        rng: ChaCha8Rng::seed_from_u64(rng.gen()),
        draw,
        discard: obs.discard.clone(),
        hands,
        class_choice: vec![None; players],
        classes: obs.seats.iter().map(|s| s.class).collect(),
        splits: vec![None; players],
        orders: vec![None; players],
        ships,
        attacks,
        active,
        round_start,
        step: obs.step,
        result: obs.result,
        events: None,
    };
    if world.step == Step::Tactical {
        for s in 0..obs.players {
            let done = !world.active[s as usize]
                || !world.can_attack(s)
                || (s == obs.seat && obs.pending.is_none());
            if done {
                world.orders[s as usize] = Some(Vec::new());
            }
        }
    }
    Ok(world)
}
