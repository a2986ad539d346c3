//! The compact action abstraction the searches branch on. A full Tactical decision (any subset of
//! attack cards, each at any enemy ship) has far too many variants, so a seat's Tactical choice is
//! one of: hold fire; fire at one enemy ship about what it takes to destroy it, or everything, or
//! with missiles only (lasers kept as shields), or with every ship keeping half its cards; spread
//! the fire over the enemy ships, weakest first (also with missiles only, or cautiously); board one
//! enemy ship with one boarding card from the best-crewed ship; or fire and board one ship at once.
//! Fighter splits are a few fixed ways to deal the piles. Blocking, losses, crew and repelling
//! are reduced to a few named policies. [`concretize_into`] turns an action into a legal decision
//! in caller-owned buffers (no allocation once they are warm); [`concretize`] into an owned one.

use rand::{seq::SliceRandom, SeedableRng};

use super::card::Card;
use super::decision::{AttackOrder, Decision, DecisionKind, Play};
use super::ruleset::{AttackRole, Ruleset};
use super::ship::Attack;
use super::state::{BattleStep, State, Step};

/// An abstract action of one seat.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Action {
    /// Choose this class (the ship card picked by [`card_utility`]).
    Class(u8),
    /// Split fighters: 0 = spread each role over the piles, 1 = strongest cards together,
    /// 2.. = the hand in a fixed shuffled order (seeded by the number), dealt round-robin.
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
    /// Tactical: [`Action::Spread`] from every ship but the best-crewed one, which sends one
    /// boarding action at this ship (the heuristic player's plan).
    SpreadBoard(u8),
    /// Tactical: missiles only at this ship, about what it takes to destroy it (the lasers stay
    /// in the hull as shields).
    FireMissiles(u8),
    /// Tactical: [`Action::Spread`] with missiles only (the lasers stay in the hull as shields).
    SpreadMissiles,
    /// Tactical: [`Action::Spread`] with every ship keeping at least half its cards.
    SpreadCautious,
    /// Tactical: [`Action::Fire`] with every ship keeping at least half its cards.
    FireCautious(u8),
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

/// Number of split actions: the two named ones and four fixed shuffles (more choices for the
/// searches' bandits where the piles decide the first battle).
pub const SPLITS: u8 = 6;

/// Reusable buffers that actions are concretized into, so that the searches play decisions
/// without allocating.
#[derive(Clone, Debug, Default)]
pub struct PlayBuf {
    pub(crate) cards: Vec<Card>,
    pub(crate) orders: Vec<AttackOrder>,
    pub(crate) piles: Vec<Vec<Card>>,
    pub(crate) pool: Vec<(u8, Card)>,
    pub(crate) sort: Vec<Card>,
    pub(crate) best: Vec<Card>,
    pub(crate) targets: Vec<u8>,
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

fn total(cards: &[Card]) -> u32 {
    cards.iter().map(|c| c.value() as u32).sum()
}

/// A minimal set of `cards` reaching `need` with low total cost (`cost` per card), or all of them
/// when they cannot reach it. Minimal: no card could be removed with the rest still reaching.
pub fn reaching_set(cards: &[Card], need: u8, cost: impl Fn(Card) -> i32) -> Vec<Card> {
    let mut out = Vec::new();
    reaching_set_into(cards, need, &cost, &mut out, &mut Vec::new());
    out
}

/// [`reaching_set`] into `out` (cleared first), with `tmp` as scratch.
pub fn reaching_set_into(
    cards: &[Card],
    need: u8,
    cost: &impl Fn(Card) -> i32,
    out: &mut Vec<Card>,
    tmp: &mut Vec<Card>,
) {
    out.clear();
    let need = need as u32;
    if need == 0 {
        return;
    }
    if total(cards) < need {
        out.extend_from_slice(cards);
        return;
    }
    let set_cost = |set: &[Card]| -> i32 { set.iter().map(|&x| cost(x)).sum() };
    let mut best = i32::MAX;
    if let Some(&c) = cards
        .iter()
        .filter(|c| c.value() as u32 >= need)
        .min_by_key(|&&c| (cost(c), c.value()))
    {
        out.push(c);
        best = cost(c);
    }
    for order in 0..3 {
        tmp.clear();
        tmp.extend_from_slice(cards);
        match order {
            0 => tmp.sort_by_key(|c| std::cmp::Reverse(c.value())),
            1 => tmp.sort_by_key(|c| c.value()),
            _ => tmp.sort_by_key(|&c| cost(c) - 2 * c.value() as i32),
        }
        let mut s = 0;
        let mut n = 0;
        while n < tmp.len() && s < need {
            s += tmp[n].value() as u32;
            n += 1;
        }
        tmp.truncate(n);
        prune(tmp, need);
        let c = set_cost(tmp);
        if c < best {
            best = c;
            out.clear();
            out.extend_from_slice(tmp);
        }
    }
}

/// Removes cards (smallest first) while the rest still reaches `need`, leaving a minimal set.
fn prune(set: &mut Vec<Card>, need: u32) {
    loop {
        let s = total(set);
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

/// The cards of the attacked ship that can block attack `a` (a laser or missile), into `out`
/// (cleared first).
pub(crate) fn blockers_into(w: &State, a: &Attack, out: &mut Vec<Card>) {
    let r = &w.rules;
    out.clear();
    if let Some(role) = r.attack_role(a.card) {
        out.extend(
            w.ships[a.target as usize]
                .hull
                .iter()
                .copied()
                .filter(|&c| r.blocks(c, role)),
        );
    }
}

/// The clubs of the ship boarded by attack `a` (its defenders' crew), into `out` (cleared first).
pub(crate) fn defenders_into(w: &State, a: &Attack, out: &mut Vec<Card>) {
    let r = &w.rules;
    out.clear();
    out.extend(
        w.ships[a.target as usize]
            .hull
            .iter()
            .copied()
            .filter(|&c| r.is_crew(c)),
    );
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

fn is_fire(r: &Ruleset, c: Card) -> bool {
    matches!(
        r.attack_role(c),
        Some(AttackRole::Laser | AttackRole::Missile)
    )
}

/// Which of its lasers and missiles a seat can fire (from ships that keep a card): (any, both
/// kinds).
fn fire_kinds(w: &State, seat: u8) -> (bool, bool) {
    let (mut laser, mut missile) = (false, false);
    for s in w
        .ships
        .iter()
        .filter(|s| s.alive && s.owner == seat && s.hull.len() >= 2)
    {
        for &c in &s.hull {
            match w.rules.attack_role(c) {
                Some(AttackRole::Laser) => laser = true,
                Some(AttackRole::Missile) => missile = true,
                _ => {}
            }
        }
    }
    (laser || missile, laser && missile)
}

/// The abstract actions of `seat` for the decision it owes, into `out` (cleared first).
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
        DecisionKind::Split => out.extend((0..SPLITS).map(Action::Split)),
        DecisionKind::Discard(_) => out.push(Action::Discard),
        DecisionKind::Attack => {
            out.push(Action::Hold);
            let (fire, both) = fire_kinds(w, seat);
            let board = boarding_source(w, seat).is_some();
            if fire {
                out.push(Action::Spread);
            }
            if both {
                out.push(Action::SpreadMissiles);
            }
            if fire {
                out.push(Action::SpreadCautious);
            }
            for t in enemy_ships(w, seat) {
                if fire {
                    out.push(Action::Fire(t));
                    out.push(Action::FireAll(t));
                    out.push(Action::FireCautious(t));
                }
                if both {
                    out.push(Action::FireMissiles(t));
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

fn split_into(w: &State, seat: u8, variant: u8, buf: &mut PlayBuf) {
    let r = &w.rules;
    let (c, _) = w.classes[seat as usize].expect("revealed");
    let n = r.classes[c as usize].ships as usize;
    let hand = &mut buf.sort;
    hand.clear();
    hand.extend_from_slice(&w.hands[seat as usize]);
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
    buf.piles.resize_with(n, Vec::new);
    buf.piles.truncate(n);
    buf.piles.iter_mut().for_each(Vec::clear);
    if variant == 0 {
        hand.sort_by_key(|c| (group(c), std::cmp::Reverse(c.value())));
        for (i, &c) in hand.iter().enumerate() {
            buf.piles[i % n].push(c);
        }
    } else if variant == 1 {
        hand.sort_by_key(|&c| std::cmp::Reverse(card_utility(r, c)));
        let per = hand.len().div_ceil(n);
        for (i, &c) in hand.iter().enumerate() {
            buf.piles[(i / per).min(n - 1)].push(c);
        }
    } else {
        // A fixed shuffle of the hand (the same in every sampled world), dealt round-robin.
        hand.sort();
        let mut rng = crate::search::ismcts::WyRand::seed_from_u64(u64::from(variant));
        hand.shuffle(&mut rng);
        for (i, &c) in hand.iter().enumerate() {
            buf.piles[i % n].push(c);
        }
    }
}

/// Damage to send at a ship so that it is likely destroyed: its cards plus a margin for blocks.
fn kill_need(w: &State, target: u8) -> u32 {
    let h = w.ships[target as usize].hull.len() as u32;
    h + 2 + h / 3
}

/// Which cards a fire plan sends: with `all`, the cards left over go to the last target too;
/// with `missiles_only`, the lasers stay in the hulls as shields.
#[derive(Clone, Copy, Default)]
struct FirePlan {
    all: bool,
    missiles_only: bool,
    cautious: bool,
}

/// Fire plan: lasers and missiles (each ship keeps at least one card; ship `skip` does not fire)
/// assigned to `targets` in order, each target getting about what it takes to destroy it
/// ([`kill_need`]) and no more; with `all`, the cards left over go to the last target too.
fn fire_orders(w: &State, seat: u8, plan: FirePlan, skip: Option<u8>, buf: &mut PlayBuf) {
    let FirePlan {
        all,
        missiles_only,
        cautious,
    } = plan;
    let r = &w.rules;
    let fires = |c: Card| {
        if missiles_only {
            r.attack_role(c) == Some(AttackRole::Missile)
        } else {
            is_fire(r, c)
        }
    };
    let pool = &mut buf.pool;
    pool.clear();
    for s in w.ships.iter().filter(|s| s.alive && s.owner == seat) {
        if Some(s.id) == skip {
            continue;
        }
        let start = pool.len();
        pool.extend(s.hull.iter().filter(|&&c| fires(c)).map(|&c| (s.id, c)));
        pool[start..].sort_by_key(|(_, c)| std::cmp::Reverse(c.value()));
        let keep = if cautious {
            s.hull.len().div_ceil(2)
        } else {
            1
        };
        pool.truncate(start + (pool.len() - start).min(s.hull.len().saturating_sub(keep)));
    }
    pool.sort_by_key(|(_, c)| std::cmp::Reverse(c.value()));
    let targets = &buf.targets;
    for (n, &t) in targets.iter().enumerate() {
        let mut need = kill_need(w, t);
        while need > 0 && !pool.is_empty() {
            // The smallest card that finishes the job, else the largest.
            let i = pool
                .iter()
                .rposition(|(_, c)| c.value() as u32 >= need)
                .unwrap_or(0);
            let (from, card) = pool.remove(i);
            need = need.saturating_sub(card.value() as u32);
            buf.orders.push(AttackOrder {
                from,
                card,
                target: t,
            });
        }
        if all && n + 1 == targets.len() {
            for (from, card) in pool.drain(..) {
                buf.orders.push(AttackOrder {
                    from,
                    card,
                    target: t,
                });
            }
        }
    }
}

/// Enemy ships, fewest cards first (larger ships first on ties), into `out`.
fn weakest_first_into(w: &State, seat: u8, out: &mut Vec<u8>) {
    out.clear();
    out.extend(enemy_ships(w, seat));
    out.sort_by_key(|&t| {
        let s = &w.ships[t as usize];
        (s.hull.len(), std::cmp::Reverse(s.size))
    });
}

/// Enemy ships, fewest cards first (larger ships first on ties).
pub fn weakest_first(w: &State, seat: u8) -> Vec<u8> {
    let mut v = Vec::new();
    weakest_first_into(w, seat, &mut v);
    v
}

/// Adds one boarding action at `target` from the seat's best-crewed ship, keeping that ship's
/// club (so it has crew to send) and at least one more card.
fn add_boarding(w: &State, seat: u8, target: u8, orders: &mut Vec<AttackOrder>) {
    if let Some((from, card, _)) = boarding_source(w, seat) {
        orders.retain(|o| o.from != from || o.card != card);
        orders.push(AttackOrder { from, card, target });
        let hull = &w.ships[from as usize].hull;
        let used = orders.iter().filter(|o| o.from == from).count();
        if used + 1 >= hull.len() {
            orders.retain(|o| o.from != from || o.card == card);
        }
    }
}

/// Turns an abstract action of `seat` into an owned legal decision in world `w`.
pub fn concretize(w: &State, seat: u8, action: Action) -> Decision {
    concretize_into(w, seat, action, &mut PlayBuf::default()).to_decision()
}

/// Turns an abstract action of `seat` into a legal decision in world `w`, written into `buf`.
/// Uses only the seat's own cards and public facts, so at the root it gives the same decision in
/// every sampled world.
pub fn concretize_into<'b>(w: &State, seat: u8, action: Action, buf: &'b mut PlayBuf) -> Play<'b> {
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
            Play::Class { class, card }
        }
        Action::Split(v) => {
            split_into(w, seat, v, buf);
            Play::Split(&buf.piles)
        }
        Action::Discard => {
            let n = match w.pending_for(seat) {
                Some(DecisionKind::Discard(n)) => n as usize,
                _ => 0,
            };
            buf.cards.clear();
            buf.cards.extend_from_slice(&w.hands[seat as usize]);
            buf.cards.sort_by_key(|&c| util(c));
            buf.cards.truncate(n);
            Play::Discard(&buf.cards)
        }
        Action::Hold => {
            buf.orders.clear();
            Play::Attack(&buf.orders)
        }
        Action::Spread
        | Action::SpreadMissiles
        | Action::SpreadCautious
        | Action::SpreadBoard(_) => {
            buf.orders.clear();
            weakest_first_into(w, seat, &mut buf.targets);
            let (skip, target) = match action {
                Action::SpreadBoard(t) => (boarding_source(w, seat).map(|b| b.0), Some(t)),
                _ => (None, None),
            };
            let plan = FirePlan {
                all: false,
                missiles_only: action == Action::SpreadMissiles,
                cautious: action == Action::SpreadCautious,
            };
            fire_orders(w, seat, plan, skip, buf);
            if let Some(t) = target {
                add_boarding(w, seat, t, &mut buf.orders);
            }
            Play::Attack(&buf.orders)
        }
        Action::Fire(t)
        | Action::FireAll(t)
        | Action::FireMissiles(t)
        | Action::FireCautious(t)
        | Action::Board(t)
        | Action::FireBoard(t) => {
            buf.orders.clear();
            buf.targets.clear();
            buf.targets.push(t);
            let plan = match action {
                Action::Fire(_) | Action::FireBoard(_) => Some(FirePlan::default()),
                Action::FireAll(_) => Some(FirePlan {
                    all: true,
                    ..FirePlan::default()
                }),
                Action::FireMissiles(_) => Some(FirePlan {
                    missiles_only: true,
                    ..FirePlan::default()
                }),
                Action::FireCautious(_) => Some(FirePlan {
                    cautious: true,
                    ..FirePlan::default()
                }),
                _ => None,
            };
            if let Some(plan) = plan {
                fire_orders(w, seat, plan, None, buf);
            }
            if matches!(action, Action::Board(_) | Action::FireBoard(_)) {
                add_boarding(w, seat, t, &mut buf.orders);
            }
            Play::Attack(&buf.orders)
        }
        Action::Defend(s) => Play::Defend(s),
        Action::Resolve(card, from) => Play::Resolve { card, from },
        Action::BlockCheap | Action::BlockKeepEcm => {
            let Some(BattleStep::Block(a)) = battle.map(|b| b.step) else {
                buf.cards.clear();
                return Play::Block(&buf.cards);
            };
            blockers_into(w, &a, &mut buf.sort);
            let avail = std::mem::take(&mut buf.sort);
            if action == Action::BlockKeepEcm {
                let cost = |c: Card| util(c) + if r.blocks_missile[c.index()] { 20 } else { 0 };
                reaching_set_into(&avail, a.card.value(), &cost, &mut buf.cards, &mut buf.best);
            } else {
                let cost = |c: Card| c.value() as i32;
                reaching_set_into(&avail, a.card.value(), &cost, &mut buf.cards, &mut buf.best);
            }
            buf.sort = avail;
            Play::Block(&buf.cards)
        }
        Action::LoseCheap | Action::LoseKeepDefence => {
            let Some(BattleStep::Lose { attack, count }) = battle.map(|b| b.step) else {
                buf.cards.clear();
                return Play::Lose(&buf.cards);
            };
            buf.cards.clear();
            buf.cards
                .extend_from_slice(&w.ships[attack.target as usize].hull);
            if action == Action::LoseCheap {
                buf.cards.sort_by_key(|&c| util(c));
            } else {
                buf.cards
                    .sort_by_key(|&c| (r.blocks_laser[c.index()] || r.is_crew(c), util(c)));
            }
            buf.cards.truncate(count as usize);
            Play::Lose(&buf.cards)
        }
        Action::CrewHigh | Action::CrewLow => {
            let Some(BattleStep::Crew(a)) = battle.map(|b| b.step) else {
                return Play::Crew(Card::JOKER);
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
            Play::Crew(c.unwrap_or(Card::JOKER))
        }
        Action::Repel => {
            let Some(BattleStep::Repel { attack, crew }) = battle.map(|b| b.step) else {
                buf.cards.clear();
                return Play::Repel(&buf.cards);
            };
            defenders_into(w, &attack, &mut buf.sort);
            let avail = std::mem::take(&mut buf.sort);
            let cost = |c: Card| c.value() as i32;
            reaching_set_into(&avail, crew.value(), &cost, &mut buf.cards, &mut buf.best);
            buf.sort = avail;
            Play::Repel(&buf.cards)
        }
    }
}
