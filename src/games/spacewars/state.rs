//! The full game state (the referee's truth), its step machine, the pending-decision API and the
//! application of decisions with typed refusals.

use super::card::{Card, CardCounts};
use super::decision::{AttackOrder, Decision, DecisionKind, Illegal};
use super::event::Event;
use super::ruleset::{AttackRole, Ruleset};
use super::ship::{Attack, Ship};
use rand::{seq::SliceRandom, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::sync::Arc;

/// How a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// One seat (0-based) won.
    Win(u8),
    /// A draw among the seats in this bit mask (bit i = seat i).
    Draw(u16),
}

impl Outcome {
    /// Reward of a seat: 1 for a win, 1/k for each of k drawing seats, 0 otherwise.
    pub fn reward(self, seat: u8) -> f32 {
        match self {
            Outcome::Win(w) => (w == seat) as u8 as f32,
            Outcome::Draw(mask) => {
                if mask & (1 << seat) != 0 {
                    1.0 / mask.count_ones() as f32
                } else {
                    0.0
                }
            }
        }
    }

    /// Text form: `win 2` or `draw 1,3` (1-based seats).
    pub fn text(self) -> String {
        match self {
            Outcome::Win(w) => format!("win {}", w + 1),
            Outcome::Draw(mask) => {
                let v: Vec<String> = (0..16)
                    .filter(|i| mask & (1 << i) != 0)
                    .map(|i| (i + 1).to_string())
                    .collect();
                format!("draw {}", v.join(","))
            }
        }
    }
}

/// Where Battle-stations stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BattleStep {
    /// The seat at the cursor chooses which attacked ship to defend next.
    ChooseShip,
    /// The owner of the ship being defended chooses the next attack card.
    ChooseAttack,
    /// The defender plays blocking cards against this laser/missile.
    Block(Attack),
    /// The defender loses `count` cards for unblocked points.
    Lose {
        /// The attack being resolved.
        attack: Attack,
        /// Cards to lose.
        count: u8,
    },
    /// The attacker sends a crew card for this boarding action.
    Crew(Attack),
    /// The defender plays clubs against this crew card.
    Repel {
        /// The boarding action.
        attack: Attack,
        /// The attacker's crew card.
        crew: Card,
    },
}

/// Battle-stations progress: seat cursor (seat order from seat 1), ship being defended, step.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Battle {
    /// Seat whose ships are being defended (0-based).
    pub cursor: u8,
    /// Ship whose attack cards are face up and resolving.
    pub ship: Option<u8>,
    /// What happens next.
    pub step: BattleStep,
}

/// The step of the game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Step {
    /// Every seat places its ship card (simultaneous, hidden).
    Class,
    /// Seats with more cards than their class holds discard down.
    Discard,
    /// Fighter players split their hands into piles (simultaneous, hidden).
    Split,
    /// Tactical and Engage (simultaneous, hidden).
    Tactical,
    /// Battle-stations (ordered).
    Battle(Battle),
    /// The game is over.
    Over,
}

/// The whole truth of one game. Seats, ships: 0-based.
#[derive(Clone, Debug)]
pub struct State {
    pub(crate) rules: Arc<Ruleset>,
    pub(crate) players: u8,
    pub(crate) round: u16,
    pub(crate) rng: ChaCha8Rng,
    pub(crate) draw: Vec<Card>,
    pub(crate) discard: Vec<Card>,
    pub(crate) hands: Vec<Vec<Card>>,
    pub(crate) class_choice: Vec<Option<(u8, Card)>>,
    pub(crate) classes: Vec<Option<(u8, Card)>>,
    pub(crate) splits: Vec<Option<Vec<Vec<Card>>>>,
    pub(crate) orders: Vec<Option<Vec<AttackOrder>>>,
    pub(crate) ships: Vec<Ship>,
    pub(crate) attacks: Vec<Attack>,
    pub(crate) active: Vec<bool>,
    pub(crate) round_start: u16,
    pub(crate) step: Step,
    pub(crate) result: Option<Outcome>,
    pub(crate) events: Option<Vec<Event>>,
}

/// A game record: enough to replay it exactly.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Record {
    /// Number of players.
    pub players: u8,
    /// Shuffle seed.
    pub seed: u64,
    /// Every decision in the order applied: (0-based seat, decision).
    pub decisions: Vec<(u8, Decision)>,
}

impl Record {
    /// Replays the record from its seed with the default rules; the first refused decision is
    /// returned with its index.
    pub fn replay(&self) -> Result<State, (usize, Illegal)> {
        let mut s = State::new(self.players as usize, self.seed).map_err(|e| (0, e))?;
        for (i, (seat, d)) in self.decisions.iter().enumerate() {
            s.apply(*seat, d).map_err(|e| (i, e))?;
        }
        Ok(s)
    }
}

fn remove_cards(from: &mut Vec<Card>, cards: &[Card]) {
    for c in cards {
        if let Some(i) = from.iter().position(|x| x == c) {
            from.swap_remove(i);
        }
    }
}

fn holds(hand: &[Card], cards: &[Card]) -> Result<(), Illegal> {
    let have = CardCounts::of(hand);
    let want = CardCounts::of(cards);
    for c in cards {
        if want.0[c.index()] > have.0[c.index()] {
            return Err(Illegal::NotHeld(*c));
        }
    }
    Ok(())
}

fn sum(cards: &[Card]) -> u32 {
    cards.iter().map(|c| c.value() as u32).sum()
}

/// Checks a played set against "a minimal set reaching `need` if the available cards can, else
/// all of them". `avail` are the cards of the right role; `played` must be drawn from them.
pub fn check_reaching_set(avail: &[Card], played: &[Card], need: u8) -> Result<(), Illegal> {
    holds(avail, played)?;
    let total = sum(avail);
    let got = sum(played);
    if total < need as u32 {
        if played.len() != avail.len() {
            return Err(Illegal::MustPlayAll);
        }
        return Ok(());
    }
    if got < need as u32 {
        return Err(Illegal::TooLow {
            need,
            got: got.min(255) as u8,
        });
    }
    let least = played.iter().map(|c| c.value() as u32).min().unwrap_or(0);
    if got - least >= need as u32 {
        return Err(Illegal::NotMinimal);
    }
    Ok(())
}

impl State {
    /// A new game with the default rules: shuffled with `ChaCha8Rng::seed_from_u64(seed)`, hands
    /// dealt, waiting for every seat's class choice.
    pub fn new(players: usize, seed: u64) -> Result<State, Illegal> {
        State::with_rules(Arc::new(Ruleset::default()), players, seed)
    }

    /// A new game with a given ruleset.
    pub fn with_rules(rules: Arc<Ruleset>, players: usize, seed: u64) -> Result<State, Illegal> {
        if !(2..=8).contains(&players) {
            return Err(Illegal::NoSuchSeat(players as u8));
        }
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut draw = rules.pack(players);
        draw.shuffle(&mut rng);
        let mut hands = vec![Vec::new(); players];
        for _ in 0..rules.hand_size {
            for h in hands.iter_mut() {
                if let Some(c) = draw.pop() {
                    h.push(c);
                }
            }
        }
        let mut s = State {
            rules,
            players: players as u8,
            round: 0,
            rng,
            draw,
            discard: Vec::new(),
            hands,
            class_choice: vec![None; players],
            classes: vec![None; players],
            splits: vec![None; players],
            orders: vec![None; players],
            ships: Vec::new(),
            attacks: Vec::new(),
            active: vec![true; players],
            round_start: 0,
            step: Step::Class,
            result: None,
            events: None,
        };
        s.round_start = s.active_mask();
        Ok(s)
    }

    /// A position set up at the start of round 1 (Tactical): ships given as (owner seat, class id,
    /// hull), with the draw pile (top = last) and discard pile. For puzzles, tests and analysis;
    /// card totals are not checked against the pack.
    pub fn from_ships(
        rules: Arc<Ruleset>,
        players: usize,
        ships: &[(u8, u8, Vec<Card>)],
        draw: Vec<Card>,
        discard: Vec<Card>,
        seed: u64,
    ) -> Result<State, Illegal> {
        let mut s = State::with_rules(rules, players, seed)?;
        s.hands.iter_mut().for_each(|h| h.clear());
        s.draw = draw;
        s.discard = discard;
        for (i, (owner, class, hull)) in ships.iter().enumerate() {
            if *owner as usize >= players {
                return Err(Illegal::NoSuchSeat(*owner));
            }
            let k = s
                .rules
                .classes
                .get(*class as usize)
                .ok_or(Illegal::NoSuchClass(*class))?;
            let marker = Card::all()
                .find(|&c| k.marker.accepts(c))
                .unwrap_or(Card::JOKER);
            s.classes[*owner as usize] = Some((*class, marker));
            s.ships.push(Ship {
                id: i as u8,
                owner: *owner,
                class: *class,
                size: k.size,
                hull: hull.clone(),
                alive: !hull.is_empty(),
            });
        }
        for p in 0..players {
            s.active[p] = s.ships.iter().any(|sh| sh.alive && sh.owner == p as u8);
        }
        s.start_round();
        s.advance();
        Ok(s)
    }

    /// Starts logging events (with the deal); the referee forwards them per seat.
    pub fn enable_log(&mut self) {
        let mut v = Vec::new();
        for (i, h) in self.hands.iter().enumerate() {
            if self.round == 0 && self.step == Step::Class {
                v.push(Event::Dealt {
                    seat: i as u8,
                    cards: h.clone(),
                });
            }
        }
        self.events = Some(v);
    }

    /// Events logged so far (empty unless [`enable_log`](State::enable_log) was called).
    pub fn events(&self) -> &[Event] {
        self.events.as_deref().unwrap_or(&[])
    }

    fn log(&mut self, e: impl FnOnce() -> Event) {
        if let Some(v) = self.events.as_mut() {
            v.push(e());
        }
    }

    /// The ruleset.
    pub fn rules(&self) -> &Ruleset {
        &self.rules
    }
    /// Number of seats.
    pub fn players(&self) -> usize {
        self.players as usize
    }
    /// Current round (0 during setup).
    pub fn round(&self) -> u16 {
        self.round
    }
    /// Current step.
    pub fn step(&self) -> Step {
        self.step
    }
    /// Every ship ever formed (destroyed ones have `alive == false`).
    pub fn ships(&self) -> &[Ship] {
        &self.ships
    }
    /// Attack cards on the table.
    pub fn attacks(&self) -> &[Attack] {
        &self.attacks
    }
    /// Cards in the draw pile (top = last).
    pub fn draw_pile(&self) -> &[Card] {
        &self.draw
    }
    /// The face-up discard pile.
    pub fn discard_pile(&self) -> &[Card] {
        &self.discard
    }
    /// A seat's hand during setup (empty once ships are formed).
    pub fn hand(&self, seat: usize) -> &[Card] {
        &self.hands[seat]
    }
    /// A seat's revealed class and ship card.
    pub fn class_of(&self, seat: usize) -> Option<(u8, Card)> {
        self.classes[seat]
    }
    /// Whether a seat is still in the game.
    pub fn is_active(&self, seat: usize) -> bool {
        self.active[seat]
    }
    /// The result once the game is over.
    pub fn outcome(&self) -> Option<Outcome> {
        self.result
    }

    fn active_mask(&self) -> u16 {
        (0..self.players)
            .filter(|&s| self.active[s as usize])
            .fold(0, |m, s| m | 1 << s)
    }

    fn capacity(&self, seat: usize) -> usize {
        match self.classes[seat] {
            Some((c, _)) => {
                let k = &self.rules.classes[c as usize];
                k.ships as usize * k.size as usize
            }
            None => usize::MAX,
        }
    }

    fn needs_split(&self, seat: usize) -> bool {
        matches!(self.classes[seat], Some((c, _)) if self.rules.classes[c as usize].ships > 1)
    }

    /// Whether a seat has anything to attack with and anything to attack.
    pub fn can_attack(&self, seat: u8) -> bool {
        let enemy = self.ships.iter().any(|s| s.alive && s.owner != seat);
        enemy
            && self.ships.iter().any(|s| {
                s.alive
                    && s.owner == seat
                    && s.hull.iter().any(|&c| self.rules.attack_role(c).is_some())
            })
    }

    /// The decision a seat owes now, if any.
    pub fn pending_for(&self, seat: u8) -> Option<DecisionKind> {
        let s = seat as usize;
        if s >= self.players() {
            return None;
        }
        match self.step {
            Step::Class => self.class_choice[s]
                .is_none()
                .then_some(DecisionKind::Class),
            Step::Discard => {
                let ex = self.hands[s].len().saturating_sub(self.capacity(s));
                (ex > 0).then_some(DecisionKind::Discard(ex as u8))
            }
            Step::Split => {
                (self.needs_split(s) && self.splits[s].is_none()).then_some(DecisionKind::Split)
            }
            Step::Tactical => {
                (self.active[s] && self.orders[s].is_none()).then_some(DecisionKind::Attack)
            }
            Step::Battle(b) => {
                let owner = |id: u8| self.ships[id as usize].owner;
                let (who, kind) = match b.step {
                    BattleStep::ChooseShip => (b.cursor, DecisionKind::Defend),
                    BattleStep::ChooseAttack => (owner(b.ship?), DecisionKind::Resolve),
                    BattleStep::Block(a) => (owner(a.target), DecisionKind::Block),
                    BattleStep::Lose { attack, count } => {
                        (owner(attack.target), DecisionKind::Lose(count))
                    }
                    BattleStep::Crew(a) => (a.attacker, DecisionKind::Crew),
                    BattleStep::Repel { attack, .. } => (owner(attack.target), DecisionKind::Repel),
                };
                (who == seat).then_some(kind)
            }
            Step::Over => None,
        }
    }

    /// Every seat that owes a decision now, with its kind (several during simultaneous steps).
    pub fn pending(&self, out: &mut Vec<(u8, DecisionKind)>) {
        out.clear();
        for s in 0..self.players {
            if let Some(k) = self.pending_for(s) {
                out.push((s, k));
            }
        }
    }

    /// Whether the game is over.
    pub fn is_over(&self) -> bool {
        self.step == Step::Over
    }

    /// Applies a seat's decision, or refuses it with the reason and changes nothing.
    pub fn apply(&mut self, seat: u8, d: &Decision) -> Result<(), Illegal> {
        self.check(seat, d)?;
        self.apply_unchecked(seat, d);
        Ok(())
    }

    /// Validates a decision without applying it.
    pub fn check(&self, seat: u8, d: &Decision) -> Result<(), Illegal> {
        if self.step == Step::Over {
            return Err(Illegal::GameOver);
        }
        if seat >= self.players {
            return Err(Illegal::NoSuchSeat(seat));
        }
        let Some(kind) = self.pending_for(seat) else {
            return Err(Illegal::NotPending { seat });
        };
        if kind.keyword() != d.keyword() {
            return Err(Illegal::WrongKind {
                expected: kind,
                got: d.keyword(),
            });
        }
        let s = seat as usize;
        let rules = &self.rules;
        match (d, self.step) {
            (Decision::Class { class, card }, _) => {
                let k = rules
                    .classes
                    .get(*class as usize)
                    .ok_or(Illegal::NoSuchClass(*class))?;
                holds(&self.hands[s], &[*card])?;
                if !k.marker.accepts(*card) {
                    return Err(Illegal::WrongMarker(*card));
                }
            }
            (Decision::Discard(cards), _) => {
                let DecisionKind::Discard(n) = kind else {
                    unreachable!()
                };
                if cards.len() != n as usize {
                    return Err(Illegal::WrongCount {
                        expected: n as usize,
                        got: cards.len(),
                    });
                }
                holds(&self.hands[s], cards)?;
            }
            (Decision::Split(piles), _) => {
                let (c, _) = self.classes[s].expect("split only after reveal");
                let k = &rules.classes[c as usize];
                if piles.len() != k.ships as usize {
                    return Err(Illegal::WrongCount {
                        expected: k.ships as usize,
                        got: piles.len(),
                    });
                }
                let all: Vec<Card> = piles.iter().flatten().copied().collect();
                holds(&self.hands[s], &all)?;
                if all.len() != self.hands[s].len() {
                    return Err(Illegal::WrongCount {
                        expected: self.hands[s].len(),
                        got: all.len(),
                    });
                }
                let per = self.hands[s].len().div_ceil(k.ships as usize).max(1);
                let per = per.min(k.size as usize);
                for (i, p) in piles.iter().enumerate() {
                    if p.is_empty() || p.len() > k.size as usize || p.len() > per {
                        return Err(Illegal::BadPile(i));
                    }
                }
            }
            (Decision::Attack(orders), _) => {
                let mut used: Vec<(u8, Card)> = Vec::new();
                for o in orders {
                    let from = self.living(o.from)?;
                    if from.owner != seat {
                        return Err(Illegal::NotYourShip(o.from));
                    }
                    let target = self.living(o.target)?;
                    if target.owner == seat {
                        return Err(Illegal::OwnShipTarget(o.target));
                    }
                    if rules.attack_role(o.card).is_none() {
                        return Err(Illegal::NotAnAttackCard(o.card));
                    }
                    used.push((o.from, o.card));
                    let n_used = used.iter().filter(|u| **u == (o.from, o.card)).count();
                    let n_have = from.hull.iter().filter(|&&c| c == o.card).count();
                    if n_used > n_have {
                        return Err(Illegal::NotHeld(o.card));
                    }
                }
            }
            (Decision::Defend(ship), Step::Battle(_)) => {
                let sh = self.living(*ship)?;
                if sh.owner != seat {
                    return Err(Illegal::NotYourShip(*ship));
                }
                if !self.attacks.iter().any(|a| a.target == *ship) {
                    return Err(Illegal::NotAttacked(*ship));
                }
            }
            (Decision::Resolve { card, from }, Step::Battle(b)) => {
                let ship = b.ship.expect("resolve needs a ship");
                if !self
                    .attacks
                    .iter()
                    .any(|a| a.target == ship && a.card == *card && a.from == *from)
                {
                    return Err(Illegal::NoSuchAttack(*card, *from));
                }
            }
            (Decision::Block(cards), Step::Battle(b)) => {
                let BattleStep::Block(a) = b.step else {
                    unreachable!()
                };
                let role = rules.attack_role(a.card).expect("attack card");
                let hull = &self.ships[a.target as usize].hull;
                holds(hull, cards)?;
                if let Some(c) = cards.iter().find(|&&c| !rules.blocks(c, role)) {
                    return Err(Illegal::WrongRole(*c));
                }
                let avail: Vec<Card> = hull
                    .iter()
                    .copied()
                    .filter(|&c| rules.blocks(c, role))
                    .collect();
                check_reaching_set(&avail, cards, a.card.value())?;
            }
            (Decision::Lose(cards), Step::Battle(b)) => {
                let BattleStep::Lose { attack, count } = b.step else {
                    unreachable!()
                };
                if cards.len() != count as usize {
                    return Err(Illegal::WrongCount {
                        expected: count as usize,
                        got: cards.len(),
                    });
                }
                holds(&self.ships[attack.target as usize].hull, cards)?;
            }
            (Decision::Crew(card), Step::Battle(b)) => {
                let BattleStep::Crew(a) = b.step else {
                    unreachable!()
                };
                if !rules.is_crew(*card) {
                    return Err(Illegal::WrongRole(*card));
                }
                holds(&self.ships[a.from as usize].hull, &[*card])?;
            }
            (Decision::Repel(cards), Step::Battle(b)) => {
                let BattleStep::Repel { attack, crew } = b.step else {
                    unreachable!()
                };
                let hull = &self.ships[attack.target as usize].hull;
                holds(hull, cards)?;
                if let Some(c) = cards.iter().find(|&&c| !rules.is_crew(c)) {
                    return Err(Illegal::WrongRole(*c));
                }
                let avail: Vec<Card> = hull.iter().copied().filter(|&c| rules.is_crew(c)).collect();
                check_reaching_set(&avail, cards, crew.value())?;
            }
            _ => unreachable!("kind matched the step"),
        }
        Ok(())
    }

    fn living(&self, id: u8) -> Result<&Ship, Illegal> {
        match self.ships.get(id as usize) {
            Some(s) if s.alive => Ok(s),
            _ => Err(Illegal::NoSuchShip(id)),
        }
    }

    /// Applies a decision already known to be legal (the searches use this on their own legal
    /// decisions).
    pub fn apply_unchecked(&mut self, seat: u8, d: &Decision) {
        let s = seat as usize;
        match d {
            Decision::Class { class, card } => self.class_choice[s] = Some((*class, *card)),
            Decision::Discard(cards) => {
                remove_cards(&mut self.hands[s], cards);
                self.discard.extend_from_slice(cards);
                self.log(|| Event::Discarded {
                    seat,
                    cards: cards.clone(),
                });
            }
            Decision::Split(piles) => self.splits[s] = Some(piles.clone()),
            Decision::Attack(orders) => self.orders[s] = Some(orders.clone()),
            Decision::Defend(ship) => {
                if let Step::Battle(b) = self.step {
                    self.select_ship(b.cursor, *ship);
                }
            }
            Decision::Resolve { card, from } => {
                if let Step::Battle(b) = self.step {
                    let ship = b.ship.expect("ship");
                    if let Some(i) = self
                        .attacks
                        .iter()
                        .position(|a| a.target == ship && a.card == *card && a.from == *from)
                    {
                        self.start_resolution(i);
                    }
                }
            }
            Decision::Block(cards) => {
                if let Step::Battle(Battle {
                    step: BattleStep::Block(a),
                    ..
                }) = self.step
                {
                    self.after_block(a, cards);
                }
            }
            Decision::Lose(cards) => {
                if let Step::Battle(Battle {
                    step: BattleStep::Lose { attack, .. },
                    ..
                }) = self.step
                {
                    self.lose(attack, cards);
                }
            }
            Decision::Crew(card) => {
                if let Step::Battle(Battle {
                    step: BattleStep::Crew(a),
                    ..
                }) = self.step
                {
                    self.send_crew(a, *card);
                }
            }
            Decision::Repel(cards) => {
                if let Step::Battle(Battle {
                    step: BattleStep::Repel { attack, crew },
                    ..
                }) = self.step
                {
                    self.repel(attack, crew, cards);
                }
            }
        }
        self.advance();
    }

    /// Runs every automatic step (reveals, forced plays, engineering) until a decision is owed or
    /// the game is over.
    pub(crate) fn advance(&mut self) {
        loop {
            match self.step {
                Step::Class => {
                    if self.class_choice.iter().any(|c| c.is_none()) {
                        return;
                    }
                    self.reveal();
                }
                Step::Discard => {
                    if (0..self.players()).any(|s| self.hands[s].len() > self.capacity(s)) {
                        return;
                    }
                    self.step = Step::Split;
                }
                Step::Split => {
                    if (0..self.players()).any(|s| self.needs_split(s) && self.splits[s].is_none())
                    {
                        return;
                    }
                    self.form_ships();
                }
                Step::Tactical => {
                    if (0..self.players()).any(|s| self.active[s] && self.orders[s].is_none()) {
                        return;
                    }
                    self.engage();
                }
                Step::Battle(_) => {
                    if !self.battle_progress() {
                        return;
                    }
                }
                Step::Over => return,
            }
        }
    }

    fn draw_card(&mut self) -> Option<Card> {
        if self.draw.is_empty() {
            if self.discard.is_empty() {
                return None;
            }
            self.draw = std::mem::take(&mut self.discard);
            self.draw.shuffle(&mut self.rng);
            let count = self.draw.len() as u16;
            self.log(|| Event::Reshuffled { count });
        }
        self.draw.pop()
    }

    fn reveal(&mut self) {
        for s in 0..self.players() {
            let (c, card) = self.class_choice[s].take().expect("all chose");
            remove_cards(&mut self.hands[s], &[card]);
            self.classes[s] = Some((c, card));
            self.log(|| Event::Revealed {
                seat: s as u8,
                class: c,
                card,
            });
            if !self.rules.classes[c as usize].marker_stays {
                self.discard.push(card);
            }
        }
        for s in 0..self.players() {
            let (c, _) = self.classes[s].expect("revealed");
            for _ in 0..self.rules.classes[c as usize].draw_on_reveal {
                if let Some(card) = self.draw_card() {
                    self.hands[s].push(card);
                    self.log(|| Event::Drew {
                        seat: s as u8,
                        ship: None,
                        card,
                    });
                }
            }
        }
        self.step = Step::Discard;
    }

    fn form_ships(&mut self) {
        for s in 0..self.players() {
            let (c, _) = self.classes[s].expect("revealed");
            let size = self.rules.classes[c as usize].size;
            let piles = match self.splits[s].take() {
                Some(p) => p,
                None => vec![std::mem::take(&mut self.hands[s])],
            };
            self.hands[s].clear();
            for hull in piles {
                let id = self.ships.len() as u8;
                self.log(|| Event::Formed {
                    ship: id,
                    owner: s as u8,
                    class: c,
                    cards: hull.clone(),
                });
                self.ships.push(Ship {
                    id,
                    owner: s as u8,
                    class: c,
                    size,
                    alive: !hull.is_empty(),
                    hull,
                });
            }
        }
        self.start_round();
    }

    fn start_round(&mut self) {
        self.round += 1;
        self.round_start = self.active_mask();
        if self.round > self.rules.round_limit {
            self.finish(Outcome::Draw(self.round_start));
            return;
        }
        let n = self.round;
        self.log(|| Event::Round { n });
        self.step = Step::Tactical;
        for s in 0..self.players {
            self.orders[s as usize] = if self.active[s as usize] && !self.can_attack(s) {
                Some(Vec::new())
            } else {
                None
            };
        }
    }

    fn finish(&mut self, o: Outcome) {
        self.result = Some(o);
        self.step = Step::Over;
        self.log(|| Event::Over(o));
    }

    fn engage(&mut self) {
        for s in 0..self.players {
            let Some(orders) = self.orders[s as usize].take() else {
                continue;
            };
            for o in &orders {
                remove_cards(&mut self.ships[o.from as usize].hull, &[o.card]);
                self.attacks.push(Attack {
                    card: o.card,
                    from: o.from,
                    target: o.target,
                    attacker: s,
                    face_up: false,
                });
            }
            if self.events.is_some() {
                let mut pairs: Vec<(u8, u8)> = orders.iter().map(|o| (o.from, o.target)).collect();
                pairs.sort_unstable();
                pairs.dedup();
                for (from, target) in pairs {
                    let count = orders
                        .iter()
                        .filter(|o| o.from == from && o.target == target)
                        .count() as u8;
                    self.log(|| Event::Engaged {
                        from,
                        target,
                        count,
                    });
                }
            }
        }
        for i in 0..self.ships.len() {
            if self.ships[i].alive && self.ships[i].hull.is_empty() {
                self.destroy(i as u8);
            }
        }
        self.step = Step::Battle(Battle {
            cursor: 0,
            ship: None,
            step: BattleStep::ChooseShip,
        });
    }

    fn destroy(&mut self, ship: u8) {
        let sh = &mut self.ships[ship as usize];
        sh.alive = false;
        let rest = std::mem::take(&mut sh.hull);
        self.discard.extend_from_slice(&rest);
        self.log(|| Event::Destroyed { ship });
        let mut gone = Vec::new();
        self.attacks.retain(|a| {
            if a.target == ship {
                gone.push(a.card);
                false
            } else {
                true
            }
        });
        if !gone.is_empty() {
            self.discard.extend_from_slice(&gone);
            self.log(|| Event::Unresolved { ship, cards: gone });
        }
    }

    fn attacked_ships(&self, seat: u8) -> impl Iterator<Item = u8> + '_ {
        self.ships
            .iter()
            .filter(move |s| {
                s.alive && s.owner == seat && self.attacks.iter().any(|a| a.target == s.id)
            })
            .map(|s| s.id)
    }

    fn set_battle(&mut self, cursor: u8, ship: Option<u8>, step: BattleStep) {
        self.step = Step::Battle(Battle { cursor, ship, step });
    }

    fn cursor(&self) -> u8 {
        match self.step {
            Step::Battle(b) => b.cursor,
            _ => 0,
        }
    }

    fn select_ship(&mut self, cursor: u8, ship: u8) {
        let mut up = Vec::new();
        for a in self.attacks.iter_mut().filter(|a| a.target == ship) {
            a.face_up = true;
            up.push((a.card, a.from));
        }
        self.log(|| Event::FaceUp {
            target: ship,
            cards: up,
        });
        self.set_battle(cursor, Some(ship), BattleStep::ChooseAttack);
    }

    /// One automatic move of Battle-stations; false when a decision is owed.
    fn battle_progress(&mut self) -> bool {
        let Step::Battle(b) = self.step else {
            return true;
        };
        match b.step {
            BattleStep::ChooseShip => {
                let mut cursor = b.cursor;
                while cursor < self.players {
                    let (first, second) = {
                        let mut it = self.attacked_ships(cursor);
                        (it.next(), it.next())
                    };
                    match (first, second) {
                        (None, _) => cursor += 1,
                        (Some(ship), None) => {
                            self.select_ship(cursor, ship);
                            return true;
                        }
                        _ => {
                            self.set_battle(cursor, None, BattleStep::ChooseShip);
                            return false;
                        }
                    }
                }
                self.end_battle();
                true
            }
            BattleStep::ChooseAttack => {
                let ship = b.ship.expect("ship chosen");
                let on: Vec<usize> = (0..self.attacks.len())
                    .filter(|&i| self.attacks[i].target == ship)
                    .collect();
                if !self.ships[ship as usize].alive || on.is_empty() {
                    self.set_battle(b.cursor, None, BattleStep::ChooseShip);
                    return true;
                }
                let first = self.attacks[on[0]];
                if on.iter().all(|&i| {
                    self.attacks[i].card == first.card && self.attacks[i].from == first.from
                }) {
                    self.start_resolution(on[0]);
                    return true;
                }
                false
            }
            _ => false,
        }
    }

    fn continue_ship(&mut self) {
        let Step::Battle(b) = self.step else {
            return;
        };
        match b.ship {
            Some(id) if self.ships[id as usize].alive => {
                self.set_battle(b.cursor, Some(id), BattleStep::ChooseAttack)
            }
            _ => self.set_battle(b.cursor, None, BattleStep::ChooseShip),
        }
    }

    fn start_resolution(&mut self, i: usize) {
        let a = self.attacks.remove(i);
        self.log(|| Event::Resolving {
            target: a.target,
            card: a.card,
            from: a.from,
        });
        let cursor = self.cursor();
        let ship = Some(a.target);
        match self.rules.attack_role(a.card) {
            Some(role @ (AttackRole::Laser | AttackRole::Missile)) => {
                let avail: Vec<Card> = self.ships[a.target as usize]
                    .hull
                    .iter()
                    .copied()
                    .filter(|&c| self.rules.blocks(c, role))
                    .collect();
                if sum(&avail) < a.card.value() as u32 {
                    self.after_block(a, &avail);
                } else {
                    self.set_battle(cursor, ship, BattleStep::Block(a));
                }
            }
            Some(AttackRole::Boarding) => {
                let target_owner = self.ships[a.target as usize].owner;
                let from = &self.ships[a.from as usize];
                let mut clubs: Vec<Card> = if from.alive && from.owner == a.attacker {
                    from.hull
                        .iter()
                        .copied()
                        .filter(|&c| self.rules.is_crew(c))
                        .collect()
                } else {
                    Vec::new()
                };
                clubs.sort_unstable();
                clubs.dedup();
                if target_owner == a.attacker || clubs.is_empty() {
                    self.discard.push(a.card);
                    self.log(|| Event::BoardingFailed { ship: a.target });
                    self.continue_ship();
                } else if clubs.len() == 1 {
                    self.set_battle(cursor, ship, BattleStep::Crew(a));
                    self.send_crew(a, clubs[0]);
                } else {
                    self.set_battle(cursor, ship, BattleStep::Crew(a));
                }
            }
            None => {
                self.discard.push(a.card);
                self.continue_ship();
            }
        }
    }

    fn after_block(&mut self, a: Attack, played: &[Card]) {
        let hull = &mut self.ships[a.target as usize].hull;
        remove_cards(hull, played);
        let left = hull.len();
        self.discard.extend_from_slice(played);
        if !played.is_empty() {
            let cards = played.to_vec();
            self.log(|| Event::Blocked {
                ship: a.target,
                cards,
            });
        }
        let unblocked = (a.card.value() as u32).saturating_sub(sum(played)) as usize;
        let k = unblocked.min(left);
        if k == 0 {
            self.finish_attack(a);
        } else if k == left {
            let all = self.ships[a.target as usize].hull.clone();
            self.lose(a, &all);
        } else {
            let cursor = self.cursor();
            self.set_battle(
                cursor,
                Some(a.target),
                BattleStep::Lose {
                    attack: a,
                    count: k as u8,
                },
            );
        }
    }

    fn lose(&mut self, a: Attack, cards: &[Card]) {
        remove_cards(&mut self.ships[a.target as usize].hull, cards);
        self.discard.extend_from_slice(cards);
        let cards = cards.to_vec();
        self.log(|| Event::Lost {
            ship: a.target,
            cards,
        });
        self.finish_attack(a);
    }

    fn finish_attack(&mut self, a: Attack) {
        self.discard.push(a.card);
        let t = a.target as usize;
        if self.ships[t].alive && self.ships[t].hull.is_empty() {
            self.destroy(a.target);
        }
        self.continue_ship();
    }

    fn send_crew(&mut self, a: Attack, crew: Card) {
        remove_cards(&mut self.ships[a.from as usize].hull, &[crew]);
        self.discard.push(crew);
        self.log(|| Event::Crew {
            ship: a.from,
            card: crew,
        });
        if self.ships[a.from as usize].hull.is_empty() {
            self.destroy(a.from);
        }
        let avail: Vec<Card> = self.ships[a.target as usize]
            .hull
            .iter()
            .copied()
            .filter(|&c| self.rules.is_crew(c))
            .collect();
        if sum(&avail) < crew.value() as u32 {
            self.repel(a, crew, &avail);
        } else {
            let cursor = self.cursor();
            self.set_battle(
                cursor,
                Some(a.target),
                BattleStep::Repel { attack: a, crew },
            );
        }
    }

    fn repel(&mut self, a: Attack, crew: Card, cards: &[Card]) {
        let t = a.target as usize;
        remove_cards(&mut self.ships[t].hull, cards);
        self.discard.extend_from_slice(cards);
        let played = cards.to_vec();
        self.log(|| Event::Repelled {
            ship: a.target,
            cards: played,
        });
        self.discard.push(a.card);
        if self.ships[t].hull.is_empty() {
            self.destroy(a.target);
        } else if crew.value() as u32 > sum(cards) {
            self.ships[t].owner = a.attacker;
            self.log(|| Event::Captured {
                ship: a.target,
                by: a.attacker,
            });
        } else {
            self.log(|| Event::BoardingFailed { ship: a.target });
        }
        self.continue_ship();
    }

    fn end_battle(&mut self) {
        let left: Vec<Card> = self.attacks.drain(..).map(|a| a.card).collect();
        self.discard.extend_from_slice(&left);
        for s in 0..self.players {
            if self.active[s as usize] && !self.ships.iter().any(|sh| sh.alive && sh.owner == s) {
                self.active[s as usize] = false;
                self.log(|| Event::Out { seat: s });
            }
        }
        let mask = self.active_mask();
        match mask.count_ones() {
            0 => return self.finish(Outcome::Draw(self.round_start)),
            1 => return self.finish(Outcome::Win(mask.trailing_zeros() as u8)),
            _ => {}
        }
        for s in 0..self.players {
            for i in 0..self.ships.len() {
                let sh = &self.ships[i];
                if sh.alive && sh.owner == s && sh.hull.len() < sh.size as usize {
                    if let Some(card) = self.draw_card() {
                        self.ships[i].hull.push(card);
                        let ship = i as u8;
                        self.log(|| Event::Drew {
                            seat: s,
                            ship: Some(ship),
                            card,
                        });
                    }
                }
            }
        }
        self.start_round();
    }
}
