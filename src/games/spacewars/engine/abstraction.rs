//! The compact action abstraction the searches branch on. A full Tactical decision (any subset of
//! attack cards, each at any enemy ship) has far too many variants, so a seat's Tactical choice is
//! one of: hold fire; fire at one enemy ship about what it takes to destroy it, or everything;
//! spread the fire over the enemy ships, weakest first; board one enemy ship with one boarding card
//! from the best-crewed ship; or fire and board one ship at once. Blocking, losses, crew and repelling
//! are reduced to a few named policies. [`concretize`] turns an action into a legal [`Decision`].

use super::super::card::Card;
use super::super::decision::{AttackOrder, Decision, DecisionKind};
use super::super::ruleset::{AttackRole, Ruleset};
use super::super::state::{BattleStep, State, Step};

/// An abstract action of one seat.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Action {
    /// Choose this class (the ship card picked by [`card_utility`]).
    Class(u8),
    /// Split fighters: 0 = spread each role over the piles, 1 = strongest cards together.
    Split(u8),
    /// Discard the least useful cards.
    Discard,
    /// Tactical: no attack.
    Hold,
    /// Tactical: lasers and missiles at this ship, about what it takes to destroy it.
    Fire(u8),
    /// Tactical: every laser and missile at this ship.
    FireAll(u8),
    /// Tactical: lasers and missiles spread over the enemy ships, weakest first, each getting
    /// about what it takes to destroy it.
    Spread,
    /// Tactical: one boarding action at this ship.
    Board(u8),
    /// Tactical: fire and board this ship.
    FireBoard(u8),
    /// Defend this ship next.
    Defend(u8),
    /// Resolve this attack card (card, firing ship) next.
    Resolve(Card, u8),
    /// Block with the minimal set of least utility.
    BlockCheap,
    /// Block preferring the cards that block only this kind of attack (keep ECM).
    BlockKeepEcm,
    /// Lose the least useful cards.
    LoseCheap,
    /// Lose attack cards first, keeping defence.
    LoseKeepDefence,
    /// Send the highest club.
    CrewHigh,
    /// Send the lowest club.
    CrewLow,
    /// Repel with the minimal set of least value.
    Repel,
}

/// How much a seat wants to keep a card (higher = keep): jokers are dead weight, high cards and
/// ECM are worth most.
pub fn card_utility(rules: &Ruleset, c: Card) -> i32 {
    if c.is_joker() {
        return 0;
    }
    let v = c.value() as i32;
    let mut u = v;
    if rules.blocks_missile[c.index()] {
        u += 6;
    } else if rules.blocks_laser[c.index()] {
        u += 3;
    }
    if rules.attack_role(c) == Some(AttackRole::Boarding) {
        u = 10;
    }
    if rules.is_crew(c) {
        u += 2;
    }
    u
}

/// A minimal set of `cards` reaching `need` with low total cost (`cost` per card), or all of them
/// when they cannot reach it. Minimal: no card could be removed with the rest still reaching.
pub fn reaching_set(cards: &[Card], need: u8, cost: impl Fn(Card) -> i32) -> Vec<Card> {
    let need = need as u32;
    let total: u32 = cards.iter().map(|c| c.value() as u32).sum();
    if total < need || need == 0 {
        return if need == 0 {
            Vec::new()
        } else {
            cards.to_vec()
        };
    }
    let mut best: Option<(i32, Vec<Card>)> = None;
    let mut consider = |set: Vec<Card>| {
        let c: i32 = set.iter().map(|&x| cost(x)).sum();
        if best.as_ref().is_none_or(|(b, _)| c < *b) {
            best = Some((c, set));
        }
    };
    let single = cards
        .iter()
        .filter(|c| c.value() as u32 >= need)
        .min_by_key(|&&c| (cost(c), c.value()));
    if let Some(&c) = single {
        consider(vec![c]);
    }
    for order in 0..3 {
        let mut v = cards.to_vec();
        match order {
            0 => v.sort_by_key(|c| std::cmp::Reverse(c.value())),
            1 => v.sort_by_key(|c| c.value()),
            _ => v.sort_by_key(|&c| cost(c) - 2 * c.value() as i32),
        }
        let mut set = Vec::new();
        let mut s = 0;
        for c in v {
            if s >= need {
                break;
            }
            s += c.value() as u32;
            set.push(c);
        }
        prune(&mut set, need);
        consider(set);
    }
    best.map(|(_, s)| s).unwrap_or_default()
}

/// Removes cards (smallest first) while the rest still reaches `need`, leaving a minimal set.
fn prune(set: &mut Vec<Card>, need: u32) {
    loop {
        let s: u32 = set.iter().map(|c| c.value() as u32).sum();
        let Some((i, m)) = set
            .iter()
            .enumerate()
            .map(|(i, c)| (i, c.value() as u32))
            .min_by_key(|&(_, v)| v)
        else {
            return;
        };
        if s - m >= need {
            set.swap_remove(i);
        } else {
            return;
        }
    }
}

fn enemy_ships(w: &State, seat: u8) -> impl Iterator<Item = u8> + '_ {
    w.ships
        .iter()
        .filter(move |s| s.alive && s.owner != seat)
        .map(|s| s.id)
}

/// The boarding plan of a seat: (ship, boarding card, its best club value), from the ship with the
/// highest club that also holds a boarding card and one more card.
pub fn boarding_source(w: &State, seat: u8) -> Option<(u8, Card, u8)> {
    let r = &w.rules;
    w.ships
        .iter()
        .filter(|s| s.alive && s.owner == seat && s.hull.len() >= 3)
        .filter_map(|s| {
            let club = s
                .hull
                .iter()
                .filter(|&&c| r.is_crew(c))
                .map(|c| c.value())
                .max()?;
            let board = *s
                .hull
                .iter()
                .find(|&&c| r.attack_role(c) == Some(AttackRole::Boarding))?;
            Some((s.id, board, club))
        })
        .max_by_key(|&(_, _, club)| club)
}

fn has_fire(w: &State, seat: u8) -> bool {
    w.ships.iter().any(|s| {
        s.alive
            && s.owner == seat
            && s.hull.len() >= 2
            && s.hull.iter().any(|&c| {
                matches!(
                    w.rules.attack_role(c),
                    Some(AttackRole::Laser | AttackRole::Missile)
                )
            })
    })
}

/// The abstract actions of `seat` for the decision it owes, into `out`.
pub fn actions(w: &State, seat: u8, kind: DecisionKind, out: &mut Vec<Action>) {
    out.clear();
    let r = &w.rules;
    match kind {
        DecisionKind::Class => {
            let hand = &w.hands[seat as usize];
            for (i, k) in r.classes.iter().enumerate() {
                if hand.iter().any(|&c| k.marker.accepts(c)) {
                    out.push(Action::Class(i as u8));
                }
            }
        }
        DecisionKind::Split => out.extend([Action::Split(0), Action::Split(1)]),
        DecisionKind::Discard(_) => out.push(Action::Discard),
        DecisionKind::Attack => {
            out.push(Action::Hold);
            let fire = has_fire(w, seat);
            let board = boarding_source(w, seat).is_some();
            if fire {
                out.push(Action::Spread);
            }
            for t in enemy_ships(w, seat) {
                if fire {
                    out.push(Action::Fire(t));
                    out.push(Action::FireAll(t));
                }
                if board {
                    out.push(Action::Board(t));
                }
                if fire && board {
                    out.push(Action::FireBoard(t));
                }
            }
        }
        DecisionKind::Defend => {
            for s in w.ships.iter().filter(|s| s.alive && s.owner == seat) {
                if w.attacks.iter().any(|a| a.target == s.id) {
                    out.push(Action::Defend(s.id));
                }
            }
        }
        DecisionKind::Resolve => {
            if let Step::Battle(b) = w.step {
                let ship = b.ship.unwrap_or(0);
                for a in w.attacks.iter().filter(|a| a.target == ship) {
                    let act = Action::Resolve(a.card, a.from);
                    if !out.contains(&act) {
                        out.push(act);
                    }
                }
            }
        }
        DecisionKind::Block => out.extend([Action::BlockCheap, Action::BlockKeepEcm]),
        DecisionKind::Lose(_) => out.extend([Action::LoseCheap, Action::LoseKeepDefence]),
        DecisionKind::Crew => out.extend([Action::CrewHigh, Action::CrewLow]),
        DecisionKind::Repel => out.push(Action::Repel),
    }
}

fn split(w: &State, seat: u8, variant: u8) -> Vec<Vec<Card>> {
    let r = &w.rules;
    let (c, _) = w.classes[seat as usize].expect("revealed");
    let n = r.classes[c as usize].ships as usize;
    let mut hand = w.hands[seat as usize].clone();
    let group = |c: &Card| -> u8 {
        match r.attack_role(*c) {
            Some(AttackRole::Laser) => 0,
            Some(AttackRole::Missile) => 1,
            Some(AttackRole::Boarding) => 2,
            None if r.blocks_missile[c.index()] => 3,
            None if r.is_crew(*c) => 4,
            _ => 5,
        }
    };
    let mut piles = vec![Vec::new(); n];
    if variant == 0 {
        hand.sort_by_key(|c| (group(c), std::cmp::Reverse(c.value())));
        for (i, c) in hand.into_iter().enumerate() {
            piles[i % n].push(c);
        }
    } else {
        hand.sort_by_key(|&c| std::cmp::Reverse(card_utility(r, c)));
        let per = w.hands[seat as usize].len().div_ceil(n);
        for (i, c) in hand.into_iter().enumerate() {
            piles[(i / per).min(n - 1)].push(c);
        }
    }
    piles
}

/// Damage to send at a ship so that it is likely destroyed: its cards plus a margin for blocks.
fn kill_need(w: &State, target: u8) -> u32 {
    let h = w.ships[target as usize].hull.len() as u32;
    h + 2 + h / 3
}

/// Fire plan: lasers and missiles (each ship keeps at least one card) assigned to `targets` in
/// order, each target getting about what it takes to destroy it ([`kill_need`]) and no more;
/// with `all`, the cards left over go to the last target too.
fn fire_orders(w: &State, seat: u8, targets: &[u8], all: bool, out: &mut Vec<AttackOrder>) {
    let mut cards: Vec<(u8, Card)> = Vec::new();
    for s in w.ships.iter().filter(|s| s.alive && s.owner == seat) {
        let mut firing: Vec<Card> = s
            .hull
            .iter()
            .copied()
            .filter(|&c| {
                matches!(
                    w.rules.attack_role(c),
                    Some(AttackRole::Laser | AttackRole::Missile)
                )
            })
            .collect();
        firing.sort_by_key(|c| std::cmp::Reverse(c.value()));
        firing.truncate(s.hull.len().saturating_sub(1));
        cards.extend(firing.into_iter().map(|c| (s.id, c)));
    }
    cards.sort_by_key(|(_, c)| std::cmp::Reverse(c.value()));
    for (n, &t) in targets.iter().enumerate() {
        let mut need = kill_need(w, t);
        while need > 0 && !cards.is_empty() {
            // The smallest card that finishes the job, else the largest.
            let i = cards
                .iter()
                .rposition(|(_, c)| c.value() as u32 >= need)
                .unwrap_or(0);
            let (from, card) = cards.remove(i);
            need = need.saturating_sub(card.value() as u32);
            out.push(AttackOrder {
                from,
                card,
                target: t,
            });
        }
        if all && n + 1 == targets.len() {
            for (from, card) in cards.drain(..) {
                out.push(AttackOrder {
                    from,
                    card,
                    target: t,
                });
            }
        }
    }
}

/// Enemy ships, fewest cards first (larger ships first on ties).
pub fn weakest_first(w: &State, seat: u8) -> Vec<u8> {
    let mut v: Vec<u8> = enemy_ships(w, seat).collect();
    v.sort_by_key(|&t| {
        let s = &w.ships[t as usize];
        (s.hull.len(), std::cmp::Reverse(s.size))
    });
    v
}

/// Turns an abstract action of `seat` into a legal decision in world `w`. Uses only the seat's own
/// cards and public facts, so at the root it gives the same decision in every sampled world.
pub fn concretize(w: &State, seat: u8, action: Action) -> Decision {
    let r = &w.rules;
    let util = |c: Card| card_utility(r, c);
    let battle = match w.step {
        Step::Battle(b) => Some(b),
        _ => None,
    };
    match action {
        Action::Class(class) => {
            let k = &r.classes[class as usize];
            let card = w.hands[seat as usize]
                .iter()
                .copied()
                .filter(|&c| k.marker.accepts(c))
                .min_by_key(|&c| util(c))
                .expect("class offered only with a marker");
            Decision::Class { class, card }
        }
        Action::Split(v) => Decision::Split(split(w, seat, v)),
        Action::Discard => {
            let n = match w.pending_for(seat) {
                Some(DecisionKind::Discard(n)) => n as usize,
                _ => 0,
            };
            let mut hand = w.hands[seat as usize].clone();
            hand.sort_by_key(|&c| util(c));
            hand.truncate(n);
            Decision::Discard(hand)
        }
        Action::Hold => Decision::Attack(Vec::new()),
        Action::Spread => {
            let mut orders = Vec::new();
            fire_orders(w, seat, &weakest_first(w, seat), false, &mut orders);
            Decision::Attack(orders)
        }
        Action::Fire(t) | Action::FireAll(t) | Action::Board(t) | Action::FireBoard(t) => {
            let mut orders = Vec::new();
            if matches!(action, Action::Fire(_) | Action::FireBoard(_)) {
                fire_orders(w, seat, &[t], false, &mut orders);
            }
            if let Action::FireAll(_) = action {
                fire_orders(w, seat, &[t], true, &mut orders);
            }
            if matches!(action, Action::Board(_) | Action::FireBoard(_)) {
                if let Some((from, card, _)) = boarding_source(w, seat) {
                    orders.retain(|o| o.from != from || o.card != card);
                    orders.push(AttackOrder {
                        from,
                        card,
                        target: t,
                    });
                    let hull = &w.ships[from as usize].hull;
                    let used = orders.iter().filter(|o| o.from == from).count();
                    if used + 1 >= hull.len() {
                        orders.retain(|o| o.from != from || o.card == card);
                    }
                }
            }
            Decision::Attack(orders)
        }
        Action::Defend(s) => Decision::Defend(s),
        Action::Resolve(card, from) => Decision::Resolve { card, from },
        Action::BlockCheap | Action::BlockKeepEcm => {
            let Some(BattleStep::Block(a)) = battle.map(|b| b.step) else {
                return Decision::Block(Vec::new());
            };
            let role = r.attack_role(a.card).expect("attack");
            let avail: Vec<Card> = w.ships[a.target as usize]
                .hull
                .iter()
                .copied()
                .filter(|&c| r.blocks(c, role))
                .collect();
            let set = if action == Action::BlockKeepEcm {
                reaching_set(&avail, a.card.value(), |c| {
                    util(c) + if r.blocks_missile[c.index()] { 20 } else { 0 }
                })
            } else {
                reaching_set(&avail, a.card.value(), |c| c.value() as i32)
            };
            Decision::Block(set)
        }
        Action::LoseCheap | Action::LoseKeepDefence => {
            let Some(BattleStep::Lose { attack, count }) = battle.map(|b| b.step) else {
                return Decision::Lose(Vec::new());
            };
            let mut hull = w.ships[attack.target as usize].hull.clone();
            if action == Action::LoseCheap {
                hull.sort_by_key(|&c| util(c));
            } else {
                hull.sort_by_key(|&c| (r.blocks_laser[c.index()] || r.is_crew(c), util(c)));
            }
            hull.truncate(count as usize);
            Decision::Lose(hull)
        }
        Action::CrewHigh | Action::CrewLow => {
            let Some(BattleStep::Crew(a)) = battle.map(|b| b.step) else {
                return Decision::Crew(Card::JOKER);
            };
            let clubs = w.ships[a.from as usize]
                .hull
                .iter()
                .copied()
                .filter(|&c| r.is_crew(c));
            let c = if action == Action::CrewHigh {
                clubs.max_by_key(|c| c.value())
            } else {
                clubs.min_by_key(|c| c.value())
            };
            Decision::Crew(c.unwrap_or(Card::JOKER))
        }
        Action::Repel => {
            let Some(BattleStep::Repel { attack, crew }) = battle.map(|b| b.step) else {
                return Decision::Repel(Vec::new());
            };
            let avail: Vec<Card> = w.ships[attack.target as usize]
                .hull
                .iter()
                .copied()
                .filter(|&c| r.is_crew(c))
                .collect();
            Decision::Repel(reaching_set(&avail, crew.value(), |c| c.value() as i32))
        }
    }
}
