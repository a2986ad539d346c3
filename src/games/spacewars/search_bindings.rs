//! Space Wars behind [`HiddenInfo`], the trait of the searches for games of imperfect information
//! ([`crate::search::ismcts`]): worlds are sampled from one seat's [`Observation`] by the
//! [`Determinizer`], the actions are the [`abstraction`](super::abstraction)'s, decisions are
//! played into reused buffers, and playouts follow the heuristic player with a few random
//! decisions up to a horizon.

use std::sync::Arc;

use rand::Rng;

use super::abstraction::{actions, boarding_source, concretize_into, Action, PlayBuf};
use super::decision::Play;
use super::heuristic::{self, STRONG_CREW};
use super::observation::Observation;
use super::random;
use super::ruleset::{AttackRole, Marker, Ruleset};
use super::sampling::Determinizer;
use super::state::{Outcome, State};
use super::DecisionKind;
use crate::search::ismcts::{HiddenInfo, SearchRng};

/// Rounds a playout runs by default before the position is scored.
pub const PLAYOUT_ROUNDS: u16 = 8;
/// Default probability of a random decision in playouts.
pub const PLAYOUT_EPSILON: f64 = 0.1;

/// One seat's search problem: the observation's worlds and the buffers to play them.
pub struct SpaceWarsSearch {
    det: Determinizer,
    observer: u8,
    players: usize,
    buf: PlayBuf,
    pend: Vec<(u8, super::DecisionKind)>,
    keys: Vec<u8>,
    key_ends: Vec<usize>,
    triples: Vec<[u8; 3]>,
    /// Rounds a playout runs before the position is scored by [`evaluate`].
    pub playout_rounds: u16,
    /// Probability of a random decision in playouts.
    pub playout_eps: f64,
    /// Reward shaping by the margin of a win (0: win 1, loss 0): the winner gets
    /// `1 - margin * (1 - m)` and the losers share `margin * (1 - m)`, where `m` is the winner's
    /// hull cards left over [`MARGIN_CARDS`] (at most 1).
    pub margin: f32,
}

/// Hull cards left at which a win counts in full under [`SpaceWarsSearch::margin`].
pub const MARGIN_CARDS: f32 = 9.0;

impl SpaceWarsSearch {
    /// The search problem of the observing seat; `Err` for an observation no seat could see.
    pub fn new(obs: &Observation, rules: &Arc<Ruleset>) -> Result<SpaceWarsSearch, String> {
        Ok(SpaceWarsSearch {
            det: Determinizer::new(obs, rules)?,
            observer: obs.seat(),
            players: obs.players(),
            buf: PlayBuf::default(),
            pend: Vec::new(),
            keys: Vec::new(),
            key_ends: Vec::new(),
            triples: Vec::new(),
            playout_rounds: PLAYOUT_ROUNDS,
            playout_eps: PLAYOUT_EPSILON,
            margin: 0.0,
        })
    }

    /// A world with the observer's own cards and the public facts in place (hidden cards are
    /// placeholders): enough to turn the observer's actions into decisions, which read nothing
    /// else.
    pub fn template(&self) -> &State {
        self.det.template()
    }

    fn play(&mut self, w: &mut State, seat: u8, a: Action) {
        let p = concretize_into(w, seat, a, &mut self.buf);
        debug_assert!(
            w.check_play(seat, p).is_ok(),
            "{a:?} gave an illegal {p:?}: {:?}",
            w.check_play(seat, p)
        );
        w.play_unchecked(seat, p);
    }
}

/// Appends a canonical byte form of a decision to `out`: the same bytes for the same decision,
/// whatever the order of the cards of a set or of the attack orders (`triples` is scratch).
fn play_key(p: Play<'_>, out: &mut Vec<u8>, triples: &mut Vec<[u8; 3]>) {
    let card = |c: super::Card| c.index() as u8;
    let set = |tag: u8, cards: &[super::Card], out: &mut Vec<u8>| {
        out.push(tag);
        let start = out.len();
        out.extend(cards.iter().map(|&c| card(c)));
        out[start..].sort_unstable();
    };
    match p {
        Play::Class { class, card: c } => out.extend([0, class, card(c)]),
        Play::Split(piles) => {
            out.push(1);
            for pile in piles {
                set(pile.len() as u8, pile, out);
            }
        }
        Play::Discard(c) => set(2, c, out),
        Play::Attack(orders) => {
            out.push(3);
            triples.clear();
            triples.extend(orders.iter().map(|o| [o.from, card(o.card), o.target]));
            triples.sort_unstable();
            triples.iter().for_each(|t| out.extend_from_slice(t));
        }
        Play::Defend(ship) => out.extend([4, ship]),
        Play::Resolve { card: c, from } => out.extend([5, card(c), from]),
        Play::Block(c) => set(6, c, out),
        Play::Lose(c) => set(7, c, out),
        Play::Crew(c) => out.extend([8, card(c)]),
        Play::Repel(c) => set(9, c, out),
    }
}

/// Evaluation of an unfinished world for each seat: its share of all hull cards and ships (each
/// living ship counts its cards plus 2).
pub fn evaluate(w: &State, rewards: &mut [f32]) {
    rewards.iter_mut().for_each(|r| *r = 0.0);
    let mut total = 0.0;
    for s in w.ships.iter().filter(|s| s.alive) {
        let v = s.hull.len() as f32 + 2.0;
        rewards[s.owner as usize] += v;
        total += v;
    }
    if total > 0.0 {
        rewards.iter_mut().for_each(|r| *r /= total);
    }
}

/// A coarse summary of what a seat holds, for the decisions where it shapes the choice (0
/// elsewhere): at the class step which markers and how many boarding cards its hand has; in the
/// Tactical step its total laser and missile value (0, 1-9, 10-19, 20+) and whether it can board
/// with a strong crew ([`heuristic::STRONG_CREW`]).
pub fn private_signature(w: &State, seat: u8) -> u64 {
    let r = &w.rules;
    match w.pending_for(seat) {
        Some(DecisionKind::Class) => {
            let hand = &w.hands[seat as usize];
            let queen = hand.iter().any(|&c| {
                r.classes
                    .iter()
                    .any(|k| matches!(k.marker, Marker::Rank(_)) && k.marker.accepts(c))
            });
            let joker = hand.iter().any(|c| c.is_joker());
            let boarders = hand
                .iter()
                .filter(|&&c| r.attack_role(c) == Some(AttackRole::Boarding))
                .count();
            1 + u64::from(queen) + 2 * u64::from(joker) + 4 * u64::from(boarders >= 3)
        }
        Some(DecisionKind::Attack) => {
            let fire: u32 = w
                .ships
                .iter()
                .filter(|s| s.alive && s.owner == seat)
                .flat_map(|s| s.hull.iter())
                .filter(|&&c| {
                    matches!(
                        r.attack_role(c),
                        Some(AttackRole::Laser | AttackRole::Missile)
                    )
                })
                .map(|c| u32::from(c.value()))
                .sum();
            let bucket = u64::from(fire.div_ceil(10).min(3));
            let board = boarding_source(w, seat).is_some_and(|(_, _, club)| club >= STRONG_CREW);
            1 + bucket + 4 * u64::from(board)
        }
        _ => 0,
    }
}

impl HiddenInfo for SpaceWarsSearch {
    type World = State;
    type Action = Action;

    fn seats(&self) -> usize {
        self.players
    }

    fn observer(&self) -> usize {
        self.observer as usize
    }

    fn sample(&mut self, rng: &mut SearchRng, world: &mut State) {
        self.det.sample_into(rng, world);
    }

    fn deciders(&self, w: &State, out: &mut Vec<usize>) {
        out.clear();
        out.extend(
            (0..w.players)
                .filter(|&s| w.pending_for(s).is_some())
                .map(usize::from),
        );
    }

    fn actions(&mut self, w: &State, seat: usize, out: &mut Vec<Action>) {
        match w.pending_for(seat as u8) {
            Some(kind) => actions(w, seat as u8, kind, out),
            None => out.clear(),
        }
    }

    /// The observer's actions, each kept only when its decision differs from every earlier
    /// one's (e.g. `Fire(T)` and `FireAll(T)` often send the same cards): the decisions are read
    /// from the observer's cards and public facts, the same in every world. Compared by their
    /// canonical bytes in reused buffers, so a warm search still allocates nothing.
    fn root_actions(&mut self, w: &State, out: &mut Vec<Action>) {
        let seat = self.observer;
        match w.pending_for(seat) {
            Some(kind) => actions(w, seat, kind, out),
            None => out.clear(),
        }
        if out.len() < 2 {
            return;
        }
        let mut keys = std::mem::take(&mut self.keys);
        let mut ends = std::mem::take(&mut self.key_ends);
        keys.clear();
        ends.clear();
        out.retain(|&a| {
            let start = keys.len();
            let p = concretize_into(w, seat, a, &mut self.buf);
            play_key(p, &mut keys, &mut self.triples);
            let key = &keys[start..];
            let mut from = 0;
            let seen = ends.iter().any(|&end| {
                let same = &keys[from..end] == key;
                from = end;
                same
            });
            if seen {
                keys.truncate(start);
            } else {
                ends.push(keys.len());
            }
            !seen
        });
        self.keys = keys;
        self.key_ends = ends;
    }

    fn private_signature(&self, w: &State, seat: usize) -> u64 {
        private_signature(w, seat as u8)
    }

    fn apply(&mut self, w: &mut State, joint: &[(usize, Action)], _: &mut SearchRng) {
        for &(seat, a) in joint {
            self.play(w, seat as u8, a);
        }
    }

    fn rewards(&self, w: &State, out: &mut [f32]) -> bool {
        match w.outcome() {
            Some(o) => {
                for (s, r) in out.iter_mut().enumerate() {
                    *r = o.reward(s as u8);
                }
                if let (Outcome::Win(winner), true) = (o, self.margin > 0.0) {
                    let left: usize = w
                        .ships
                        .iter()
                        .filter(|s| s.alive && s.owner == winner)
                        .map(|s| s.hull.len())
                        .sum();
                    let short = self.margin * (1.0 - (left as f32 / MARGIN_CARDS).min(1.0));
                    let losers = (out.len() - 1).max(1) as f32;
                    for (s, r) in out.iter_mut().enumerate() {
                        *r = if s == winner as usize {
                            1.0 - short
                        } else {
                            short / losers
                        };
                    }
                }
                true
            }
            None => false,
        }
    }

    fn policy(&mut self, w: &State, seat: usize, _: &mut SearchRng) -> Action {
        let kind = w
            .pending_for(seat as u8)
            .expect("policy asked for a decider");
        heuristic::action(w, seat as u8, kind)
    }

    fn playout(&mut self, w: &mut State, rng: &mut SearchRng, out: &mut [f32]) {
        let stop_round = w.round.saturating_add(self.playout_rounds);
        loop {
            if self.rewards(w, out) {
                return;
            }
            if w.round > stop_round {
                break;
            }
            w.pending(&mut self.pend);
            if self.pend.is_empty() {
                break;
            }
            for i in 0..self.pend.len() {
                let (seat, kind) = self.pend[i];
                if self.playout_eps > 0.0 && rng.gen_bool(self.playout_eps) {
                    let p = random::decide_into(w, seat, kind, rng, &mut self.buf);
                    debug_assert!(w.check_play(seat, p).is_ok(), "random gave {p:?}");
                    w.play_unchecked(seat, p);
                } else {
                    let a = heuristic::action(w, seat, kind);
                    self.play(w, seat, a);
                }
            }
        }
        evaluate(w, out);
    }
}
