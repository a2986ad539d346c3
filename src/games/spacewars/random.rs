//! The random player: a uniformly random legal decision of each kind (random subsets of attack
//! cards at random enemy ships, random minimal blocking sets, random losses). Also the searches'
//! exploration moves in playouts, written into reusable buffers.

use super::abstraction::{blockers_into, defenders_into, PlayBuf};
use super::card::Card;
use super::decision::{AttackOrder, Decision, DecisionKind, Play};
use super::state::{BattleStep, State, Step};
use rand::{seq::SliceRandom, Rng};

/// A random minimal set of `avail` reaching `need` (all of them when they cannot), into `out`.
fn random_reaching<R: Rng>(avail: &[Card], need: u8, rng: &mut R, out: &mut Vec<Card>) {
    out.clear();
    let total: u32 = avail.iter().map(|c| c.value() as u32).sum();
    if total < need as u32 {
        out.extend_from_slice(avail);
        return;
    }
    out.extend_from_slice(avail);
    out.shuffle(rng);
    let mut s = 0u32;
    let mut n = 0;
    while n < out.len() && s < need as u32 {
        s += out[n].value() as u32;
        n += 1;
    }
    out.truncate(n);
    out.shuffle(rng);
    let mut i = 0;
    while i < out.len() {
        if s - out[i].value() as u32 >= need as u32 {
            s -= out[i].value() as u32;
            out.swap_remove(i);
        } else {
            i += 1;
        }
    }
}

/// A random legal decision of `seat` in world `w`.
pub fn decide<R: Rng>(w: &State, seat: u8, kind: DecisionKind, rng: &mut R) -> Decision {
    decide_into(w, seat, kind, rng, &mut PlayBuf::default()).to_decision()
}

/// A random legal decision of `seat` in world `w`, written into `buf`.
pub fn decide_into<'b, R: Rng>(
    w: &State,
    seat: u8,
    kind: DecisionKind,
    rng: &mut R,
    buf: &'b mut PlayBuf,
) -> Play<'b> {
    let r = &w.rules;
    let battle = match w.step {
        Step::Battle(b) => Some(b.step),
        _ => None,
    };
    match kind {
        DecisionKind::Class => {
            let hand = &w.hands[seat as usize];
            let options = r.classes.iter().enumerate().flat_map(|(i, k)| {
                hand.iter()
                    .filter(move |&&c| k.marker.accepts(c))
                    .map(move |&c| (i as u8, c))
            });
            let n = options.clone().count();
            let (class, card) = options
                .clone()
                .nth(rng.gen_range(0..n.max(1)))
                .expect("fighters accept any card");
            Play::Class { class, card }
        }
        DecisionKind::Split => {
            let (c, _) = w.classes[seat as usize].expect("revealed");
            let n = r.classes[c as usize].ships as usize;
            buf.sort.clear();
            buf.sort.extend_from_slice(&w.hands[seat as usize]);
            buf.sort.shuffle(rng);
            buf.piles.resize_with(n, Vec::new);
            buf.piles.truncate(n);
            buf.piles.iter_mut().for_each(Vec::clear);
            for (i, &c) in buf.sort.iter().enumerate() {
                buf.piles[i % n].push(c);
            }
            Play::Split(&buf.piles)
        }
        DecisionKind::Discard(n) => {
            buf.cards.clear();
            buf.cards.extend_from_slice(&w.hands[seat as usize]);
            buf.cards.shuffle(rng);
            buf.cards.truncate(n as usize);
            Play::Discard(&buf.cards)
        }
        DecisionKind::Attack => {
            buf.targets.clear();
            buf.targets.extend(
                w.ships
                    .iter()
                    .filter(|s| s.alive && s.owner != seat)
                    .map(|s| s.id),
            );
            buf.orders.clear();
            for s in w.ships.iter().filter(|s| s.alive && s.owner == seat) {
                for &c in &s.hull {
                    if r.attack_role(c).is_some() && rng.gen_bool(0.5) {
                        if let Some(&t) = buf.targets.choose(rng) {
                            buf.orders.push(AttackOrder {
                                from: s.id,
                                card: c,
                                target: t,
                            });
                        }
                    }
                }
            }
            Play::Attack(&buf.orders)
        }
        DecisionKind::Defend => {
            let ships = w
                .ships
                .iter()
                .filter(|s| s.alive && s.owner == seat)
                .filter(|s| w.attacks.iter().any(|a| a.target == s.id))
                .map(|s| s.id);
            let n = ships.clone().count();
            Play::Defend(ships.clone().nth(rng.gen_range(0..n.max(1))).unwrap_or(0))
        }
        DecisionKind::Resolve => {
            let ship = match w.step {
                Step::Battle(b) => b.ship.unwrap_or(0),
                _ => 0,
            };
            let on = w.attacks.iter().filter(|a| a.target == ship);
            let n = on.clone().count();
            let a = on
                .clone()
                .nth(rng.gen_range(0..n.max(1)))
                .expect("attacks on ship");
            Play::Resolve {
                card: a.card,
                from: a.from,
            }
        }
        DecisionKind::Block => {
            let Some(BattleStep::Block(a)) = battle else {
                buf.cards.clear();
                return Play::Block(&buf.cards);
            };
            blockers_into(w, &a, &mut buf.sort);
            random_reaching(&buf.sort, a.card.value(), rng, &mut buf.cards);
            Play::Block(&buf.cards)
        }
        DecisionKind::Lose(n) => {
            let Some(BattleStep::Lose { attack, .. }) = battle else {
                buf.cards.clear();
                return Play::Lose(&buf.cards);
            };
            buf.cards.clear();
            buf.cards
                .extend_from_slice(&w.ships[attack.target as usize].hull);
            buf.cards.shuffle(rng);
            buf.cards.truncate(n as usize);
            Play::Lose(&buf.cards)
        }
        DecisionKind::Crew => {
            let Some(BattleStep::Crew(a)) = battle else {
                return Play::Crew(Card::JOKER);
            };
            let clubs = w.ships[a.from as usize]
                .hull
                .iter()
                .copied()
                .filter(|&c| r.is_crew(c));
            let n = clubs.clone().count();
            Play::Crew(
                clubs
                    .clone()
                    .nth(rng.gen_range(0..n.max(1)))
                    .unwrap_or(Card::JOKER),
            )
        }
        DecisionKind::Repel => {
            let Some(BattleStep::Repel { attack, crew }) = battle else {
                buf.cards.clear();
                return Play::Repel(&buf.cards);
            };
            defenders_into(w, &attack, &mut buf.sort);
            random_reaching(&buf.sort, crew.value(), rng, &mut buf.cards);
            Play::Repel(&buf.cards)
        }
    }
}
