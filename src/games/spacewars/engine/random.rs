//! The random player: a uniformly random legal decision of each kind (random subsets of attack
//! cards at random enemy ships, random minimal blocking sets, random losses).

use super::super::card::Card;
use super::super::decision::{AttackOrder, Decision, DecisionKind};
use super::super::state::{BattleStep, State, Step};
use rand::{seq::SliceRandom, Rng};

fn random_reaching<R: Rng>(avail: &[Card], need: u8, rng: &mut R) -> Vec<Card> {
    let total: u32 = avail.iter().map(|c| c.value() as u32).sum();
    if total < need as u32 {
        return avail.to_vec();
    }
    let mut v = avail.to_vec();
    v.shuffle(rng);
    let mut set = Vec::new();
    let mut s = 0u32;
    for c in v {
        if s >= need as u32 {
            break;
        }
        s += c.value() as u32;
        set.push(c);
    }
    set.shuffle(rng);
    let mut i = 0;
    while i < set.len() {
        if s - set[i].value() as u32 >= need as u32 {
            s -= set[i].value() as u32;
            set.swap_remove(i);
        } else {
            i += 1;
        }
    }
    set
}

/// A random legal decision of `seat` in world `w`.
pub fn decide<R: Rng>(w: &State, seat: u8, kind: DecisionKind, rng: &mut R) -> Decision {
    let r = &w.rules;
    let battle = match w.step {
        Step::Battle(b) => Some(b.step),
        _ => None,
    };
    match kind {
        DecisionKind::Class => {
            let hand = &w.hands[seat as usize];
            let options: Vec<(u8, Card)> = r
                .classes
                .iter()
                .enumerate()
                .flat_map(|(i, k)| {
                    hand.iter()
                        .filter(move |&&c| k.marker.accepts(c))
                        .map(move |&c| (i as u8, c))
                })
                .collect();
            let &(class, card) = options.choose(rng).expect("fighters accept any card");
            Decision::Class { class, card }
        }
        DecisionKind::Split => {
            let (c, _) = w.classes[seat as usize].expect("revealed");
            let n = r.classes[c as usize].ships as usize;
            let mut hand = w.hands[seat as usize].clone();
            hand.shuffle(rng);
            let mut piles = vec![Vec::new(); n];
            for (i, c) in hand.into_iter().enumerate() {
                piles[i % n].push(c);
            }
            Decision::Split(piles)
        }
        DecisionKind::Discard(n) => {
            let mut hand = w.hands[seat as usize].clone();
            hand.shuffle(rng);
            hand.truncate(n as usize);
            Decision::Discard(hand)
        }
        DecisionKind::Attack => {
            let enemies: Vec<u8> = w
                .ships
                .iter()
                .filter(|s| s.alive && s.owner != seat)
                .map(|s| s.id)
                .collect();
            let mut orders = Vec::new();
            for s in w.ships.iter().filter(|s| s.alive && s.owner == seat) {
                for &c in &s.hull {
                    if r.attack_role(c).is_some() && rng.gen_bool(0.5) {
                        if let Some(&t) = enemies.choose(rng) {
                            orders.push(AttackOrder {
                                from: s.id,
                                card: c,
                                target: t,
                            });
                        }
                    }
                }
            }
            Decision::Attack(orders)
        }
        DecisionKind::Defend => {
            let ships: Vec<u8> = w
                .ships
                .iter()
                .filter(|s| s.alive && s.owner == seat)
                .filter(|s| w.attacks.iter().any(|a| a.target == s.id))
                .map(|s| s.id)
                .collect();
            Decision::Defend(*ships.choose(rng).unwrap_or(&0))
        }
        DecisionKind::Resolve => {
            let ship = match w.step {
                Step::Battle(b) => b.ship.unwrap_or(0),
                _ => 0,
            };
            let on: Vec<_> = w.attacks.iter().filter(|a| a.target == ship).collect();
            let a = on.choose(rng).expect("attacks on ship");
            Decision::Resolve {
                card: a.card,
                from: a.from,
            }
        }
        DecisionKind::Block => {
            let Some(BattleStep::Block(a)) = battle else {
                return Decision::Block(Vec::new());
            };
            let role = r.attack_role(a.card).expect("attack");
            let avail: Vec<Card> = w.ships[a.target as usize]
                .hull
                .iter()
                .copied()
                .filter(|&c| r.blocks(c, role))
                .collect();
            Decision::Block(random_reaching(&avail, a.card.value(), rng))
        }
        DecisionKind::Lose(n) => {
            let Some(BattleStep::Lose { attack, .. }) = battle else {
                return Decision::Lose(Vec::new());
            };
            let mut hull = w.ships[attack.target as usize].hull.clone();
            hull.shuffle(rng);
            hull.truncate(n as usize);
            Decision::Lose(hull)
        }
        DecisionKind::Crew => {
            let Some(BattleStep::Crew(a)) = battle else {
                return Decision::Crew(Card::JOKER);
            };
            let clubs: Vec<Card> = w.ships[a.from as usize]
                .hull
                .iter()
                .copied()
                .filter(|&c| r.is_crew(c))
                .collect();
            Decision::Crew(*clubs.choose(rng).unwrap_or(&Card::JOKER))
        }
        DecisionKind::Repel => {
            let Some(BattleStep::Repel { attack, crew }) = battle else {
                return Decision::Repel(Vec::new());
            };
            let avail: Vec<Card> = w.ships[attack.target as usize]
                .hull
                .iter()
                .copied()
                .filter(|&c| r.is_crew(c))
                .collect();
            Decision::Repel(random_reaching(&avail, crew.value(), rng))
        }
    }
}
