//! Determinization: the cards a seat cannot see, counted from everything it has seen, dealt at
//! random into the hidden places (other hands and hulls, face-down attacks, the draw pile) to make
//! a full [`State`] the searches can play out.

use super::card::{Card, CardCounts};
use super::observation::{Cards, Observation};
use super::ruleset::Ruleset;
use super::ship::{Attack, Ship};
use super::state::{BattleStep, Deck, State, Step};
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

/// Turns one observation into worlds: a template state built once (the observer's cards and
/// every public fact in place, hidden places marked) and the unseen cards, shuffled into the hidden
/// places of a reused world for each sample — no allocation per sample.
#[derive(Clone, Debug)]
pub struct Determinizer {
    template: State,
    unknown: Vec<Card>,
    shuffled: Vec<Card>,
    hidden_hands: Vec<u8>,
    hidden_hulls: Vec<u8>,
    hidden_attacks: Vec<usize>,
}

impl Determinizer {
    /// The determinizer of an observation; `Err` when the observation is not one a seat could
    /// see (more of a card than the pack holds, or unseen cards that do not fill the hidden places).
    pub fn new(obs: &Observation, rules: &Arc<Ruleset>) -> Result<Determinizer, String> {
        let unknown = unknown_cards(obs, rules)?;
        if unknown.len() != hidden_slots(obs) {
            check_consistent(obs, rules)?;
        }
        let placeholder = |n: usize| vec![Card::JOKER; n];
        let players = obs.players as usize;
        let mut hidden_hands = Vec::new();
        let hands = obs
            .seats
            .iter()
            .enumerate()
            .map(|(i, s)| match &s.hand {
                Cards::Own(v) => v.clone(),
                Cards::Count(n) => {
                    hidden_hands.push(i as u8);
                    placeholder(*n as usize)
                }
            })
            .collect();
        let mut hidden_hulls = Vec::new();
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
                    Cards::Count(n) => {
                        if *n > 0 {
                            hidden_hulls.push(sh.id);
                        }
                        placeholder(*n as usize)
                    }
                },
            })
            .collect();
        let mut hidden_attacks = Vec::new();
        let attacks: Vec<Attack> = obs
            .attacks
            .iter()
            .enumerate()
            .map(|(i, a)| Attack {
                card: a.card.unwrap_or_else(|| {
                    hidden_attacks.push(i);
                    Card::JOKER
                }),
                from: a.from,
                target: a.target,
                attacker: a.attacker,
                face_up: a.face_up,
            })
            .collect();
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
        let mut template = State {
            rules,
            players: obs.players,
            round: obs.round,
            deck: Deck::Unordered(0),
            draw: placeholder(obs.draw as usize),
            discard: obs.discard.clone(),
            hands,
            class_choice: vec![None; players],
            classes: obs.seats.iter().map(|s| s.class).collect(),
            splits: vec![None; players],
            orders: vec![Vec::new(); players],
            ordered: vec![false; players],
            ships,
            attacks,
            active,
            round_start,
            step: obs.step,
            result: obs.result,
            events: None,
            deal: None,
        };
        if template.step == Step::Tactical {
            for s in 0..obs.players {
                let done = !template.active[s as usize]
                    || !template.can_attack(s)
                    || (s == obs.seat && obs.pending.is_none());
                template.ordered[s as usize] = done;
            }
        }
        Ok(Determinizer {
            template,
            shuffled: unknown.clone(),
            unknown,
            hidden_hands,
            hidden_hulls,
            hidden_attacks,
        })
    }

    /// The world with the observer's and public cards in place and a joker in every hidden place.
    pub fn template(&self) -> &State {
        &self.template
    }

    /// Overwrites `world` with a world consistent with the observation: unseen cards drawn at
    /// random into the hidden hands, hulls and attack cards, the rest left as an unordered draw
    /// pile from which the world draws at random ([`Deck::Unordered`]) — the same chances as
    /// shuffling every unseen card, for a fraction of the work.
    pub fn sample_into<R: Rng>(&mut self, rng: &mut R, world: &mut State) {
        world.clone_from(&self.template);
        world.deck = Deck::Unordered(rng.gen());
        let placed = self.unknown.len() - self.template.draw.len();
        // Each sample starts from the same order, so a seeded search repeats exactly.
        self.shuffled.clone_from(&self.unknown);
        let (chosen, rest) = self.shuffled.partial_shuffle(rng, placed);
        let mut next = chosen.iter().chain(rest.iter()).copied();
        for &s in &self.hidden_hands {
            for c in world.hands[s as usize].iter_mut() {
                *c = next.next().expect("enough unseen cards");
            }
        }
        for &id in &self.hidden_hulls {
            for c in world.ships[id as usize].hull.iter_mut() {
                *c = next.next().expect("enough unseen cards");
            }
        }
        for &i in &self.hidden_attacks {
            world.attacks[i].card = next.next().expect("enough unseen cards");
        }
        for c in world.draw.iter_mut() {
            *c = next.next().expect("enough unseen cards");
        }
    }

    /// [`sample_into`](Determinizer::sample_into) with the draw pile shuffled too, for a world
    /// that plays like a real table (seeded reshuffles).
    pub fn sample_shuffled<R: Rng>(&mut self, rng: &mut R, world: &mut State) {
        self.sample_into(rng, world);
        world.draw.shuffle(rng);
        world.deck = Deck::Shuffled(Box::new(ChaCha8Rng::seed_from_u64(rng.gen())));
    }
}

/// One world consistent with the observation: unseen cards shuffled into the hidden places.
pub fn sample_world<R: Rng>(
    obs: &Observation,
    rules: &Arc<Ruleset>,
    rng: &mut R,
) -> Result<State, String> {
    let mut d = Determinizer::new(obs, rules)?;
    let mut world = d.template.clone();
    d.sample_shuffled(rng, &mut world);
    Ok(world)
}
