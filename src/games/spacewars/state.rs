//! The full game state (the referee's truth), its step machine, the pending-decision API and the
//! application of decisions with typed refusals.

use super::card::{Card, CardCounts};
use super::decision::{AttackOrder, Decision, DecisionKind, Illegal, Play};
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

/// Where reshuffled draw piles come from: a seeded generator (live games, sampled worlds), or
/// the orders written in a record (a replay that needs no generator).
#[derive(Clone, Debug)]
pub(crate) enum Deck {
    /// Shuffle the discard pile with this generator.
    Shuffled(Box<ChaCha8Rng>),
    /// The draw pile is a heap in no order and each draw takes a card at random from it (the
    /// same chances as a shuffled pile, without shuffling): sampled worlds, whose draw pile is
    /// unknown anyway. The number is a SplitMix64 state.
    Unordered(u64),
    /// Take each new draw pile from the record, in order (top first); a missing order or one that
    /// is not the discard pile's cards is noted in `error` (the discard pile is then used as is).
    Stacked {
        /// Every reshuffle's new draw pile, top first.
        orders: Vec<Vec<Card>>,
        /// Reshuffles done so far.
        next: usize,
        /// The first mismatch between the record and the game.
        error: Option<String>,
    },
}

/// The whole deal of a game, as a record reveals it once the game is over: every hand, the draw
/// pile and the new draw pile of every reshuffle, so that the game replays from its decisions
/// without the project's random generator (like a poker hand history).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Deal {
    /// Each seat's dealt hand, in the order dealt.
    pub hands: Vec<Vec<Card>>,
    /// The draw pile after the deal, top (next card drawn) first.
    pub draw: Vec<Card>,
    /// The new draw pile after each reshuffle of the discard pile, top first, in order.
    pub reshuffles: Vec<Vec<Card>>,
}

/// The whole truth of one game. Seats, ships: 0-based.
#[derive(Debug)]
pub struct State {
    pub(crate) rules: Arc<Ruleset>,
    pub(crate) players: u8,
    pub(crate) round: u16,
    pub(crate) deck: Deck,
    pub(crate) draw: Vec<Card>,
    pub(crate) discard: Vec<Card>,
    pub(crate) hands: Vec<Vec<Card>>,
    pub(crate) class_choice: Vec<Option<(u8, Card)>>,
    pub(crate) classes: Vec<Option<(u8, Card)>>,
    pub(crate) splits: Vec<Option<Vec<Vec<Card>>>>,
    /// Tactical orders per seat; valid where `ordered` is set.
    pub(crate) orders: Vec<Vec<AttackOrder>>,
    pub(crate) ordered: Vec<bool>,
    pub(crate) ships: Vec<Ship>,
    pub(crate) attacks: Vec<Attack>,
    pub(crate) active: Vec<bool>,
    pub(crate) round_start: u16,
    pub(crate) step: Step,
    pub(crate) result: Option<Outcome>,
    pub(crate) events: Option<Vec<Event>>,
    /// The deal and the reshuffles so far, kept by logging states (the referee's).
    pub(crate) deal: Option<Box<Deal>>,
}

impl Clone for State {
    fn clone(&self) -> State {
        let mut s = State::default();
        s.clone_from(self);
        s
    }

    /// Copies `other` into `self`, reusing every buffer (the searches copy worlds per iteration).
    fn clone_from(&mut self, other: &State) {
        if !Arc::ptr_eq(&self.rules, &other.rules) {
            self.rules = other.rules.clone();
        }
        self.players = other.players;
        self.round = other.round;
        self.deck.clone_from(&other.deck);
        self.draw.clone_from(&other.draw);
        self.discard.clone_from(&other.discard);
        self.hands.clone_from(&other.hands);
        self.class_choice.clone_from(&other.class_choice);
        self.classes.clone_from(&other.classes);
        self.splits.clone_from(&other.splits);
        self.orders.clone_from(&other.orders);
        self.ordered.clone_from(&other.ordered);
        self.ships.clone_from(&other.ships);
        self.attacks.clone_from(&other.attacks);
        self.active.clone_from(&other.active);
        self.round_start = other.round_start;
        self.step = other.step;
        self.result = other.result;
        self.events.clone_from(&other.events);
        self.deal.clone_from(&other.deal);
    }
}

impl Default for State {
    /// An empty two-seat table with the default rules, nothing dealt: storage for
    /// [`Clone::clone_from`].
    fn default() -> State {
        State {
            rules: Arc::new(Ruleset::default()),
            players: 2,
            round: 0,
            deck: Deck::Shuffled(Box::new(ChaCha8Rng::seed_from_u64(0))),
            draw: Vec::new(),
            discard: Vec::new(),
            hands: vec![Vec::new(); 2],
            class_choice: vec![None; 2],
            classes: vec![None; 2],
            splits: vec![None; 2],
            orders: vec![Vec::new(); 2],
            ordered: vec![false; 2],
            ships: Vec::new(),
            attacks: Vec::new(),
            active: vec![true; 2],
            round_start: 0b11,
            step: Step::Over,
            result: None,
            events: None,
            deal: None,
        }
    }
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
    /// returned with its index. (A record with its [`Deal`] replays without the seed:
    /// [`State::from_deal`].)
    pub fn replay(&self) -> Result<State, (usize, Illegal)> {
        let mut s = State::new(self.players as usize, self.seed).map_err(|e| (0, e))?;
        for (i, (seat, d)) in self.decisions.iter().enumerate() {
            s.apply(*seat, d).map_err(|e| (i, e))?;
        }
        Ok(s)
    }
}

/// Removes one copy of each of `cards` from `from`; the missing ones are skipped.
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

/// Moves the cards of `hull` that pass `take` onto `discard`; returns how many and their total
/// value.
fn take_matching(
    hull: &mut Vec<Card>,
    discard: &mut Vec<Card>,
    take: impl Fn(Card) -> bool,
) -> (usize, u32) {
    let before = discard.len();
    hull.retain(|&c| {
        if take(c) {
            discard.push(c);
            false
        } else {
            true
        }
    });
    let total = discard[before..].iter().map(|c| c.value() as u32).sum();
    (discard.len() - before, total)
}

fn sum(cards: &[Card]) -> u32 {
    cards.iter().map(|c| c.value() as u32).sum()
}

/// Checks a played set against "a minimal set reaching `need` if the available cards can, else
/// all of them". `avail` are the cards of the right role; `played` must be drawn from them.
pub fn check_reaching_set(avail: &[Card], played: &[Card], need: u8) -> Result<(), Illegal> {
    holds(avail, played)?;
    reaching_verdict(avail.len(), sum(avail), played, need)
}

/// [`check_reaching_set`] for `played` cards (all held in `hull` and of the role `fits`) against
/// the cards of `hull` that fit, without collecting them.
fn check_reaching(
    hull: &[Card],
    played: &[Card],
    need: u8,
    fits: impl Fn(Card) -> bool,
) -> Result<(), Illegal> {
    let (count, total) = hull
        .iter()
        .filter(|&&c| fits(c))
        .fold((0, 0u32), |(n, t), c| (n + 1, t + c.value() as u32));
    reaching_verdict(count, total, played, need)
}

fn reaching_verdict(count: usize, total: u32, played: &[Card], need: u8) -> Result<(), Illegal> {
    let got = sum(played);
    if total < need as u32 {
        if played.len() != count {
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
        Ok(State::dealt(
            rules,
            hands,
            draw,
            Deck::Shuffled(Box::new(rng)),
        ))
    }

    /// A game from a recorded [`Deal`] (the hands, the draw pile, every reshuffle's order), with no
    /// random generator involved: replaying the record's decisions gives the recorded game.
    /// Refused when the seat count, the hand sizes or the cards do not fit the ruleset's pack.
    pub fn from_deal(rules: Arc<Ruleset>, deal: &Deal) -> Result<State, String> {
        let players = deal.hands.len();
        if !(2..=8).contains(&players) {
            return Err(format!("a deal for {players} seats: must be 2..8"));
        }
        if let Some((i, h)) = deal
            .hands
            .iter()
            .enumerate()
            .find(|(_, h)| h.len() != rules.hand_size as usize)
        {
            return Err(format!(
                "hand {} has {} cards, the rules deal {}",
                i + 1,
                h.len(),
                rules.hand_size
            ));
        }
        let pack = CardCounts::of(&rules.pack(players));
        let mut dealt = CardCounts::of(&deal.draw);
        for h in &deal.hands {
            for c in h {
                dealt.0[c.index()] += 1;
            }
        }
        if dealt != pack {
            let c = Card::all()
                .find(|c| dealt.0[c.index()] != pack.0[c.index()])
                .expect("the counts differ");
            return Err(format!(
                "the deal holds {} x {c}, the pack of {} decks {}",
                dealt.0[c.index()],
                rules.decks(players),
                pack.0[c.index()]
            ));
        }
        let mut draw = deal.draw.clone();
        draw.reverse();
        let deck = Deck::Stacked {
            orders: deal.reshuffles.clone(),
            next: 0,
            error: None,
        };
        Ok(State::dealt(rules, deal.hands.clone(), draw, deck))
    }

    fn dealt(rules: Arc<Ruleset>, hands: Vec<Vec<Card>>, draw: Vec<Card>, deck: Deck) -> State {
        let players = hands.len();
        let mut s = State {
            rules,
            players: players as u8,
            round: 0,
            deck,
            draw,
            discard: Vec::new(),
            hands,
            class_choice: vec![None; players],
            classes: vec![None; players],
            splits: vec![None; players],
            orders: vec![Vec::new(); players],
            ordered: vec![false; players],
            ships: Vec::new(),
            attacks: Vec::new(),
            active: vec![true; players],
            round_start: 0,
            step: Step::Class,
            result: None,
            events: None,
            deal: None,
        };
        s.round_start = s.active_mask();
        s
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

    /// Starts logging events (with the deal, when the game has not started): the referee forwards
    /// them per seat, and keeps the [`Deal`] for the record.
    pub fn enable_log(&mut self) {
        let mut v = Vec::new();
        if self.round == 0 && self.step == Step::Class {
            for (i, h) in self.hands.iter().enumerate() {
                v.push(Event::Dealt {
                    seat: i as u8,
                    cards: h.clone(),
                });
            }
            self.deal = Some(Box::new(Deal {
                hands: self.hands.clone(),
                draw: self.draw.iter().rev().copied().collect(),
                reshuffles: Vec::new(),
            }));
        }
        self.events = Some(v);
    }

    /// Events logged so far (empty unless [`enable_log`](State::enable_log) was called).
    pub fn events(&self) -> &[Event] {
        self.events.as_deref().unwrap_or(&[])
    }

    /// The deal and every reshuffle so far, when the log was enabled before the game started.
    pub fn deal(&self) -> Option<&Deal> {
        self.deal.as_deref()
    }

    /// For a game from a recorded deal: the first point where the record's reshuffle orders did
    /// not fit the game (missing, or not the discard pile's cards).
    pub fn deck_error(&self) -> Option<&str> {
        match &self.deck {
            Deck::Stacked { error, .. } => error.as_deref(),
            Deck::Shuffled(_) | Deck::Unordered(_) => None,
        }
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
    /// The shared ruleset.
    pub fn rules_arc(&self) -> &Arc<Ruleset> {
        &self.rules
    }
    /// Number of seats.
    pub fn players(&self) -> usize {
        self.players as usize
    }
    /// Current round (0 during setup; the last round played once the game is over).
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
            Step::Tactical => (self.active[s] && !self.ordered[s]).then_some(DecisionKind::Attack),
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
        self.check_play(seat, d.as_play())?;
        self.play_unchecked(seat, d.as_play());
        Ok(())
    }

    /// Validates a decision without applying it.
    pub fn check(&self, seat: u8, d: &Decision) -> Result<(), Illegal> {
        self.check_play(seat, d.as_play())
    }

    /// Validates a borrowed decision without applying it.
    pub fn check_play(&self, seat: u8, d: Play<'_>) -> Result<(), Illegal> {
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
            (Play::Class { class, card }, _) => {
                let k = rules
                    .classes
                    .get(class as usize)
                    .ok_or(Illegal::NoSuchClass(class))?;
                holds(&self.hands[s], &[card])?;
                if !k.marker.accepts(card) {
                    return Err(Illegal::WrongMarker(card));
                }
            }
            (Play::Discard(cards), _) => {
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
            (Play::Split(piles), _) => {
                let (c, _) = self.classes[s].expect("split only after reveal");
                let k = &rules.classes[c as usize];
                if piles.len() != k.ships as usize {
                    return Err(Illegal::WrongCount {
                        expected: k.ships as usize,
                        got: piles.len(),
                    });
                }
                let mut all = CardCounts::default();
                let mut count = 0;
                for &c in piles.iter().flatten() {
                    all.0[c.index()] += 1;
                    count += 1;
                }
                let have = CardCounts::of(&self.hands[s]);
                if let Some(c) = Card::all().find(|c| all.0[c.index()] > have.0[c.index()]) {
                    return Err(Illegal::NotHeld(c));
                }
                if count != self.hands[s].len() {
                    return Err(Illegal::WrongCount {
                        expected: self.hands[s].len(),
                        got: count,
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
            (Play::Attack(orders), _) => {
                for (i, o) in orders.iter().enumerate() {
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
                    let n_used = orders[..=i]
                        .iter()
                        .filter(|u| u.from == o.from && u.card == o.card)
                        .count();
                    let n_have = from.hull.iter().filter(|&&c| c == o.card).count();
                    if n_used > n_have {
                        return Err(Illegal::NotHeld(o.card));
                    }
                }
            }
            (Play::Defend(ship), Step::Battle(_)) => {
                let sh = self.living(ship)?;
                if sh.owner != seat {
                    return Err(Illegal::NotYourShip(ship));
                }
                if !self.attacks.iter().any(|a| a.target == ship) {
                    return Err(Illegal::NotAttacked(ship));
                }
            }
            (Play::Resolve { card, from }, Step::Battle(b)) => {
                let ship = b.ship.expect("resolve needs a ship");
                if !self
                    .attacks
                    .iter()
                    .any(|a| a.target == ship && a.card == card && a.from == from)
                {
                    return Err(Illegal::NoSuchAttack(card, from));
                }
            }
            (Play::Block(cards), Step::Battle(b)) => {
                let BattleStep::Block(a) = b.step else {
                    unreachable!()
                };
                let role = rules.attack_role(a.card).expect("attack card");
                let hull = &self.ships[a.target as usize].hull;
                holds(hull, cards)?;
                if let Some(c) = cards.iter().find(|&&c| !rules.blocks(c, role)) {
                    return Err(Illegal::WrongRole(*c));
                }
                check_reaching(hull, cards, a.card.value(), |c| rules.blocks(c, role))?;
            }
            (Play::Lose(cards), Step::Battle(b)) => {
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
            (Play::Crew(card), Step::Battle(b)) => {
                let BattleStep::Crew(a) = b.step else {
                    unreachable!()
                };
                if !rules.is_crew(card) {
                    return Err(Illegal::WrongRole(card));
                }
                holds(&self.ships[a.from as usize].hull, &[card])?;
            }
            (Play::Repel(cards), Step::Battle(b)) => {
                let BattleStep::Repel { attack, crew } = b.step else {
                    unreachable!()
                };
                let hull = &self.ships[attack.target as usize].hull;
                holds(hull, cards)?;
                if let Some(c) = cards.iter().find(|&&c| !rules.is_crew(c)) {
                    return Err(Illegal::WrongRole(*c));
                }
                check_reaching(hull, cards, crew.value(), |c| rules.is_crew(c))?;
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

    /// Applies a decision already known to be legal.
    pub fn apply_unchecked(&mut self, seat: u8, d: &Decision) {
        self.play_unchecked(seat, d.as_play());
    }

    /// Applies a borrowed decision already known to be legal (the searches play their own legal
    /// decisions this way, without allocating), then every automatic step that follows.
    pub fn play_unchecked(&mut self, seat: u8, d: Play<'_>) {
        let s = seat as usize;
        match d {
            Play::Class { class, card } => self.class_choice[s] = Some((class, card)),
            Play::Discard(cards) => {
                remove_cards(&mut self.hands[s], cards);
                self.discard.extend_from_slice(cards);
                self.log(|| Event::Discarded {
                    seat,
                    cards: cards.to_vec(),
                });
            }
            Play::Split(piles) => self.splits[s] = Some(piles.to_vec()),
            Play::Attack(orders) => {
                self.orders[s].clear();
                self.orders[s].extend_from_slice(orders);
                self.ordered[s] = true;
            }
            Play::Defend(ship) => {
                if let Step::Battle(b) = self.step {
                    self.select_ship(b.cursor, ship);
                }
            }
            Play::Resolve { card, from } => {
                if let Step::Battle(b) = self.step {
                    let ship = b.ship.expect("ship");
                    if let Some(i) = self
                        .attacks
                        .iter()
                        .position(|a| a.target == ship && a.card == card && a.from == from)
                    {
                        self.start_resolution(i);
                    }
                }
            }
            Play::Block(cards) => {
                if let Step::Battle(Battle {
                    step: BattleStep::Block(a),
                    ..
                }) = self.step
                {
                    self.after_block(a, cards);
                }
            }
            Play::Lose(cards) => {
                if let Step::Battle(Battle {
                    step: BattleStep::Lose { attack, .. },
                    ..
                }) = self.step
                {
                    self.lose(attack, cards);
                }
            }
            Play::Crew(card) => {
                if let Step::Battle(Battle {
                    step: BattleStep::Crew(a),
                    ..
                }) = self.step
                {
                    self.send_crew(a, card);
                }
            }
            Play::Repel(cards) => {
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
                    if (0..self.players()).any(|s| self.active[s] && !self.ordered[s]) {
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
            // The empty draw pile takes the discard pile's place (both keep their storage).
            std::mem::swap(&mut self.draw, &mut self.discard);
            match &mut self.deck {
                Deck::Shuffled(rng) => self.draw.shuffle(rng.as_mut()),
                Deck::Unordered(_) => {}
                Deck::Stacked {
                    orders,
                    next,
                    error,
                } => {
                    match orders.get(*next) {
                        Some(order)
                            if order.len() == self.draw.len()
                                && CardCounts::of(order) == CardCounts::of(&self.draw) =>
                        {
                            self.draw.clear();
                            self.draw.extend(order.iter().rev());
                        }
                        Some(order) => {
                            error.get_or_insert_with(|| {
                                format!(
                                    "reshuffle {}: the record's order ({} cards) is not the \
                                     discard pile ({} cards)",
                                    *next + 1,
                                    order.len(),
                                    self.draw.len()
                                )
                            });
                        }
                        None => {
                            error.get_or_insert_with(|| {
                                format!("reshuffle {}: the record has no order for it", *next + 1)
                            });
                        }
                    }
                    *next += 1;
                }
            }
            if let Some(d) = self.deal.as_mut() {
                d.reshuffles.push(self.draw.iter().rev().copied().collect());
            }
            let count = self.draw.len() as u16;
            self.log(|| Event::Reshuffled { count });
        }
        if let Deck::Unordered(state) = &mut self.deck {
            if self.draw.is_empty() {
                return None;
            }
            *state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
            let mut z = *state;
            z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
            z ^= z >> 31;
            let i = ((u128::from(z) * self.draw.len() as u128) >> 64) as usize;
            return Some(self.draw.swap_remove(i));
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
        self.round_start = self.active_mask();
        if self.round >= self.rules.round_limit {
            self.finish(Outcome::Draw(self.round_start));
            return;
        }
        self.round += 1;
        let n = self.round;
        self.log(|| Event::Round { n });
        self.step = Step::Tactical;
        for s in 0..self.players {
            let i = s as usize;
            self.orders[i].clear();
            self.ordered[i] = self.active[i] && !self.can_attack(s);
        }
    }

    fn finish(&mut self, o: Outcome) {
        self.result = Some(o);
        self.step = Step::Over;
        self.log(|| Event::Over(o));
    }

    fn engage(&mut self) {
        for s in 0..self.players {
            let i = s as usize;
            if !std::mem::take(&mut self.ordered[i]) {
                continue;
            }
            let orders = std::mem::take(&mut self.orders[i]);
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
            self.orders[i] = orders;
            self.orders[i].clear();
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
        self.discard.extend_from_slice(&sh.hull);
        sh.hull.clear();
        self.log(|| Event::Destroyed { ship });
        let logging = self.events.is_some();
        let mut gone = Vec::new();
        let discard = &mut self.discard;
        self.attacks.retain(|a| {
            if a.target == ship {
                discard.push(a.card);
                if logging {
                    gone.push(a.card);
                }
                false
            } else {
                true
            }
        });
        if !gone.is_empty() {
            self.log(|| Event::Unresolved { ship, cards: gone });
        }
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
        for a in self.attacks.iter_mut().filter(|a| a.target == ship) {
            a.face_up = true;
        }
        if self.events.is_some() {
            let up: Vec<(Card, u8)> = self
                .attacks
                .iter()
                .filter(|a| a.target == ship)
                .map(|a| (a.card, a.from))
                .collect();
            self.log(|| Event::FaceUp {
                target: ship,
                cards: up,
            });
        }
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
                    // The cursor seat's attacked ships: one is defended at once, several are its
                    // choice.
                    let mut first = None;
                    let mut several = false;
                    for a in &self.attacks {
                        let sh = &self.ships[a.target as usize];
                        if sh.alive && sh.owner == cursor {
                            match first {
                                None => first = Some(a.target),
                                Some(f) => several |= f != a.target,
                            }
                        }
                    }
                    match (first, several) {
                        (None, _) => cursor += 1,
                        (Some(ship), false) => {
                            self.select_ship(cursor, ship);
                            return true;
                        }
                        (Some(_), true) => {
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
                let first = self.attacks.iter().position(|a| a.target == ship);
                let Some(first) = first.filter(|_| self.ships[ship as usize].alive) else {
                    self.set_battle(b.cursor, None, BattleStep::ChooseShip);
                    return true;
                };
                let f = self.attacks[first];
                if self
                    .attacks
                    .iter()
                    .filter(|a| a.target == ship)
                    .all(|a| a.card == f.card && a.from == f.from)
                {
                    self.start_resolution(first);
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

    /// Total value of the cards of ship `ship` that pass `keep`.
    fn hull_total(&self, ship: u8, keep: impl Fn(Card) -> bool) -> u32 {
        self.ships[ship as usize]
            .hull
            .iter()
            .filter(|&&c| keep(c))
            .map(|c| c.value() as u32)
            .sum()
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
                let rules = &self.rules;
                let total = self.hull_total(a.target, |c| rules.blocks(c, role));
                if total < a.card.value() as u32 {
                    // Forced: every blocking card is played.
                    let (played, _) = take_matching(
                        &mut self.ships[a.target as usize].hull,
                        &mut self.discard,
                        |c| self.rules.blocks(c, role),
                    );
                    self.after_block_played(a, played);
                } else {
                    self.set_battle(cursor, ship, BattleStep::Block(a));
                }
            }
            Some(AttackRole::Boarding) => {
                let target_owner = self.ships[a.target as usize].owner;
                let (first, several) = {
                    let from = &self.ships[a.from as usize];
                    let rules = &self.rules;
                    let mut clubs = from
                        .hull
                        .iter()
                        .copied()
                        .filter(|&c| rules.is_crew(c))
                        .filter(|_| from.alive && from.owner == a.attacker);
                    let first = clubs.next();
                    (first, clubs.any(|c| Some(c) != first))
                };
                match first {
                    Some(crew) if target_owner != a.attacker => {
                        self.set_battle(cursor, ship, BattleStep::Crew(a));
                        if !several {
                            self.send_crew(a, crew);
                        }
                    }
                    _ => {
                        self.discard.push(a.card);
                        self.log(|| Event::BoardingFailed { ship: a.target });
                        self.continue_ship();
                    }
                }
            }
            None => {
                self.discard.push(a.card);
                self.continue_ship();
            }
        }
    }

    fn after_block(&mut self, a: Attack, played: &[Card]) {
        remove_cards(&mut self.ships[a.target as usize].hull, played);
        self.discard.extend_from_slice(played);
        self.after_block_played(a, played.len());
    }

    /// After `played` blocking cards (the last ones on the discard pile) met attack `a`: the loss
    /// of the unblocked points.
    fn after_block_played(&mut self, a: Attack, played: usize) {
        let cards = &self.discard[self.discard.len() - played..];
        let blocked: u32 = cards.iter().map(|c| c.value() as u32).sum();
        if played > 0 && self.events.is_some() {
            let cards = cards.to_vec();
            self.log(|| Event::Blocked {
                ship: a.target,
                cards,
            });
        }
        let left = self.ships[a.target as usize].hull.len();
        let unblocked = (a.card.value() as u32).saturating_sub(blocked) as usize;
        let k = unblocked.min(left);
        if k == 0 {
            self.finish_attack(a);
        } else if k == left {
            let (lost, _) = take_matching(
                &mut self.ships[a.target as usize].hull,
                &mut self.discard,
                |_| true,
            );
            self.log_lost(a.target, lost);
            self.finish_attack(a);
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

    fn log_lost(&mut self, ship: u8, lost: usize) {
        if self.events.is_some() {
            let cards = self.discard[self.discard.len() - lost..].to_vec();
            self.log(|| Event::Lost { ship, cards });
        }
    }

    fn lose(&mut self, a: Attack, cards: &[Card]) {
        remove_cards(&mut self.ships[a.target as usize].hull, cards);
        self.discard.extend_from_slice(cards);
        self.log_lost(a.target, cards.len());
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
        let rules = &self.rules;
        if self.hull_total(a.target, |c| rules.is_crew(c)) < crew.value() as u32 {
            // Forced: every club is played.
            let (played, total) = take_matching(
                &mut self.ships[a.target as usize].hull,
                &mut self.discard,
                |c| self.rules.is_crew(c),
            );
            self.repelled(a, crew, played, total);
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
        remove_cards(&mut self.ships[a.target as usize].hull, cards);
        self.discard.extend_from_slice(cards);
        self.repelled(
            a,
            crew,
            cards.len(),
            cards.iter().map(|c| c.value() as u32).sum(),
        );
    }

    /// After `played` clubs of total `total` (the last ones on the discard pile) met `crew`.
    fn repelled(&mut self, a: Attack, crew: Card, played: usize, total: u32) {
        let t = a.target as usize;
        if self.events.is_some() {
            let cards = self.discard[self.discard.len() - played..].to_vec();
            self.log(|| Event::Repelled {
                ship: a.target,
                cards,
            });
        }
        self.discard.push(a.card);
        if self.ships[t].hull.is_empty() {
            self.destroy(a.target);
        } else if crew.value() as u32 > total {
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
        self.discard.extend(self.attacks.drain(..).map(|a| a.card));
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
