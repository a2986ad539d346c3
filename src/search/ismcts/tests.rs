//! The searches on two toy games of hidden information.
//!
//! *Gamble*: seat 0 plays Safe (reward 0.6) or Gamble, while seat 1 makes an irrelevant choice at
//! the same time; after Gamble seat 0 names a number 0..=3 and wins if it is 2 and the hidden card
//! (0..=3, held by seat 1) is not 3 — worth 0.75 with the right second choice, 0.1875 with a
//! random one. ISMCTS learns the second choice in its tree; PIMC, which continues with the default (random)
//! policy, does not.
//!
//! *Guess*: seat 0 names the hidden card of seat 1, which is 0 with probability 0.6 and 1 or 2 with
//! 0.2 each.
//!
//! *Walk*: seat 0 names 30 numbers in a row and scores the share of sevens (a deep tree).
//!
//! *Bluff* ([`Bluff`]): seat 0 plays Safe (0.5) or Gamble while seat 1, holding a hidden bit,
//! names a bit at the same time; Gamble pays seat 0 only 0.2 when seat 1 names its own bit (which
//! seat 1, knowing it, prefers) and 1 otherwise.

use std::sync::atomic::AtomicBool;

use rand::Rng;

use super::*;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Gamble,
    Guess,
    Walk,
}

#[derive(Clone, Debug, Default, PartialEq)]
struct World {
    hidden: u8,
    step: u8,
    sevens: u8,
    over: Option<[f32; 2]>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Act {
    Safe,
    Gamble,
    Other(u8),
    Number(u8),
}

struct Toy {
    kind: Kind,
    samples: u32,
}

impl HiddenInfo for Toy {
    type World = World;
    type Action = Act;

    fn seats(&self) -> usize {
        2
    }
    fn observer(&self) -> usize {
        0
    }
    fn sample(&mut self, rng: &mut SearchRng, world: &mut World) {
        self.samples += 1;
        let hidden = match self.kind {
            Kind::Gamble | Kind::Walk => rng.gen_range(0..4),
            Kind::Guess => match rng.gen_range(0..10) {
                0..=5 => 0,
                6 | 7 => 1,
                _ => 2,
            },
        };
        *world = World {
            hidden,
            ..World::default()
        };
    }
    fn deciders(&self, w: &World, out: &mut Vec<usize>) {
        out.clear();
        if w.over.is_some() {
            return;
        }
        out.push(0);
        if w.step == 0 && self.kind == Kind::Gamble {
            out.push(1);
        }
    }
    fn actions(&mut self, w: &World, seat: usize, out: &mut Vec<Act>) {
        out.clear();
        match (self.kind, w.step, seat) {
            (Kind::Gamble, 0, 0) => out.extend([Act::Safe, Act::Gamble]),
            (Kind::Gamble, 0, _) => out.extend([Act::Other(0), Act::Other(1)]),
            (Kind::Gamble, _, _) => out.extend((0..4).map(Act::Number)),
            (Kind::Guess, _, _) => out.extend((0..3).map(Act::Number)),
            (Kind::Walk, _, _) => out.extend((0..10).map(Act::Number)),
        }
    }
    fn apply(&mut self, w: &mut World, joint: &[(usize, Act)], _: &mut SearchRng) {
        for &(seat, a) in joint {
            if seat != 0 {
                continue;
            }
            w.over = match (self.kind, a) {
                (Kind::Gamble, Act::Safe) => Some([0.6, 0.4]),
                (Kind::Gamble, Act::Gamble) => {
                    w.step = 1;
                    None
                }
                (Kind::Gamble, Act::Number(n)) => {
                    let win = n == 2 && w.hidden != 3;
                    Some(if win { [1.0, 0.0] } else { [0.0, 1.0] })
                }
                (Kind::Walk, Act::Number(n)) => {
                    w.step += 1;
                    w.sevens += u8::from(n == 7);
                    let share = f32::from(w.sevens) / 30.0;
                    (w.step == 30).then_some([share, 1.0 - share])
                }
                (Kind::Guess, Act::Number(n)) => {
                    let win = n == w.hidden;
                    Some(if win { [1.0, 0.0] } else { [0.0, 1.0] })
                }
                _ => unreachable!("not offered"),
            };
        }
    }
    fn rewards(&self, w: &World, out: &mut [f32]) -> bool {
        match w.over {
            Some(r) => {
                out.copy_from_slice(&r);
                true
            }
            None => false,
        }
    }
    fn policy(&mut self, w: &World, seat: usize, rng: &mut SearchRng) -> Act {
        let mut v = Vec::new();
        self.actions(w, seat, &mut v);
        v[rng.gen_range(0..v.len())]
    }
}

/// A toy game seen by another observer, or with an action left out of the root actions.
struct Variant {
    toy: Toy,
    observer: usize,
    left_out: Option<Act>,
}

impl HiddenInfo for Variant {
    type World = World;
    type Action = Act;
    fn seats(&self) -> usize {
        2
    }
    fn observer(&self) -> usize {
        self.observer
    }
    fn sample(&mut self, rng: &mut SearchRng, w: &mut World) {
        self.toy.sample(rng, w)
    }
    fn deciders(&self, w: &World, out: &mut Vec<usize>) {
        self.toy.deciders(w, out)
    }
    fn actions(&mut self, w: &World, seat: usize, out: &mut Vec<Act>) {
        self.toy.actions(w, seat, out)
    }
    fn root_actions(&mut self, w: &World, out: &mut Vec<Act>) {
        self.toy.actions(w, self.observer, out);
        out.retain(|&a| Some(a) != self.left_out);
    }
    fn apply(&mut self, w: &mut World, j: &[(usize, Act)], rng: &mut SearchRng) {
        self.toy.apply(w, j, rng)
    }
    fn rewards(&self, w: &World, out: &mut [f32]) -> bool {
        self.toy.rewards(w, out)
    }
    fn policy(&mut self, w: &World, seat: usize, rng: &mut SearchRng) -> Act {
        self.toy.policy(w, seat, rng)
    }
}

fn toy(kind: Kind) -> Toy {
    Toy { kind, samples: 0 }
}

fn nothing(_: &Progress<Act>) {}

#[test]
fn ismcts_learns_the_second_choice_that_pimc_leaves_to_chance() {
    let stop = AtomicBool::new(false);
    let budget = SearchBudget::iterations(12_000);
    let mut g = toy(Kind::Gamble);
    let mut ismcts = Ismcts::<Toy>::new(1 << 20, 1);
    let found = ismcts.search(&mut g, &budget, &stop, &mut nothing).unwrap();
    assert_eq!(found.action, Act::Gamble, "{found:?}");
    assert!(found.value.unwrap() > 0.6, "{found:?}");
    assert_eq!(found.iterations, 12_000);
    assert_eq!(g.samples, 12_000, "one world per iteration");
    let mut pimc = Pimc::<Toy>::new(1);
    let found = pimc.search(&mut g, &budget, &stop, &mut nothing).unwrap();
    assert_eq!(found.action, Act::Safe, "{found:?}");
    assert!((found.value.unwrap() - 0.6).abs() < 1e-6);
    assert_eq!(found.iterations, 12_000);
}

#[test]
fn both_guess_the_likely_hidden_card() {
    let stop = AtomicBool::new(false);
    let budget = SearchBudget::iterations(3000);
    let mut g = toy(Kind::Guess);
    let found = Ismcts::<Toy>::new(1 << 20, 2)
        .search(&mut g, &budget, &stop, &mut nothing)
        .unwrap();
    assert_eq!(found.action, Act::Number(0), "{found:?}");
    assert!((found.value.unwrap() - 0.6).abs() < 0.05, "{found:?}");
    let found = Pimc::<Toy>::new(2)
        .search(&mut g, &budget, &stop, &mut nothing)
        .unwrap();
    assert_eq!(found.action, Act::Number(0), "{found:?}");
}

#[test]
fn searches_are_seeded_and_stop_on_the_flag() {
    let stop = AtomicBool::new(false);
    let budget = SearchBudget::iterations(500);
    let run = |seed| {
        let mut s = Ismcts::<Toy>::new(1 << 20, seed);
        let f = s
            .search(&mut toy(Kind::Gamble), &budget, &stop, &mut nothing)
            .unwrap();
        (f.action, f.value, f.iterations, f.nodes)
    };
    assert_eq!(run(5), run(5));
    let stopped = AtomicBool::new(true);
    let unbounded = SearchBudget::default();
    let f = Ismcts::<Toy>::new(1 << 20, 1)
        .search(&mut toy(Kind::Gamble), &unbounded, &stopped, &mut nothing)
        .unwrap();
    assert_eq!(
        f.iterations, 1,
        "a set flag stops after the first iteration"
    );
    let f = Pimc::<Toy>::new(1)
        .search(&mut toy(Kind::Gamble), &unbounded, &stopped, &mut nothing)
        .unwrap();
    assert_eq!(f.iterations, 1);
}

#[test]
fn the_tree_stays_within_its_budget_and_keeps_its_storage() {
    let stop = AtomicBool::new(false);
    let mut s = Ismcts::<Toy>::new(48 * 1024, 3);
    let budget = SearchBudget::iterations(20_000);
    let f = s
        .search(&mut toy(Kind::Walk), &budget, &stop, &mut nothing)
        .unwrap();
    assert_eq!(f.action, Act::Number(7));
    assert_eq!(f.iterations, 20_000, "the search goes on in a full tree");
    let stats = s.tree().stats();
    assert!(
        stats.nodes == stats.max_nodes || stats.edges + 10 > stats.max_edges,
        "the tree filled up: {stats:?}"
    );
    assert!(stats.nodes <= stats.max_nodes && stats.edges <= stats.max_edges);
    assert!(stats.bytes <= 48 * 1024, "{stats:?}");
    s.search(&mut toy(Kind::Walk), &budget, &stop, &mut nothing)
        .unwrap();
    assert_eq!(s.tree().stats().bytes, stats.bytes, "storage reused");
}

#[test]
fn a_seat_that_owes_nothing_is_an_error() {
    let stop = AtomicBool::new(false);
    let mut g = Variant {
        toy: toy(Kind::Guess),
        observer: 1,
        left_out: None,
    };
    let r = Ismcts::<Variant>::new(1 << 16, 1).search(
        &mut g,
        &SearchBudget::iterations(10),
        &stop,
        &mut |_| {},
    );
    assert_eq!(r.unwrap_err(), SearchError::NotToDecide);
}

#[test]
fn budgets_from_go_limits() {
    use crate::search::{Clock, Limits};
    use std::time::Duration;
    let b = SearchBudget::from_limits(&Limits::default(), 2000);
    assert_eq!(b, SearchBudget::iterations(2000));
    let inf = Limits {
        infinite: true,
        ..Limits::default()
    };
    assert_eq!(
        SearchBudget::from_limits(&inf, 2000),
        SearchBudget::default()
    );
    let clock = Limits {
        clock: Some(Clock {
            remaining: Duration::from_millis(3000),
            increment: Duration::from_millis(100),
            moves_to_go: None,
        }),
        overhead: Duration::from_millis(20),
        ..Limits::default()
    };
    assert_eq!(
        SearchBudget::from_limits(&clock, 2000).time,
        Some(Duration::from_millis(150))
    );
    let nodes = Limits {
        nodes: Some(0),
        ..Limits::default()
    };
    assert_eq!(
        SearchBudget::from_limits(&nodes, 2000),
        SearchBudget::iterations(1)
    );
}

#[test]
fn the_root_branches_only_on_the_root_actions() {
    // Guess with the likely card left out of the root actions (as a game leaves out actions that
    // mean the same decision): neither search may play it, and the tree has no root edge for it.
    let stop = AtomicBool::new(false);
    let budget = SearchBudget::iterations(2000);
    for seed in 1..4 {
        let mut g = Variant {
            toy: toy(Kind::Guess),
            observer: 0,
            left_out: Some(Act::Number(0)),
        };
        let mut s = Ismcts::<Variant>::new(1 << 20, seed);
        let f = s.search(&mut g, &budget, &stop, &mut |_| {}).unwrap();
        assert_ne!(f.action, Act::Number(0), "{f:?}");
        let tree = s.tree();
        let mut e = tree.head(0, 0);
        let mut root_edges = 0;
        while e != tree::NONE {
            assert_ne!(tree.edge(e).action, Act::Number(0));
            root_edges += 1;
            e = tree.edge(e).next;
        }
        assert_eq!(root_edges, 2);
        let f = Pimc::<Variant>::new(seed)
            .search(&mut g, &budget, &stop, &mut |_| {})
            .unwrap();
        assert_ne!(f.action, Act::Number(0), "{f:?}");
    }
}

/// The *Bluff* game (module doc): seat 1's private signature is its bit plus one.
struct Bluff;

impl HiddenInfo for Bluff {
    type World = World;
    type Action = Act;

    fn seats(&self) -> usize {
        2
    }
    fn observer(&self) -> usize {
        0
    }
    fn sample(&mut self, rng: &mut SearchRng, world: &mut World) {
        *world = World {
            hidden: rng.gen_range(0..2),
            ..World::default()
        };
    }
    fn deciders(&self, w: &World, out: &mut Vec<usize>) {
        out.clear();
        if w.over.is_none() {
            out.extend([0, 1]);
        }
    }
    fn actions(&mut self, _: &World, seat: usize, out: &mut Vec<Act>) {
        out.clear();
        if seat == 0 {
            out.extend([Act::Safe, Act::Gamble]);
        } else {
            out.extend([Act::Other(0), Act::Other(1)]);
        }
    }
    fn private_signature(&self, w: &World, seat: usize) -> u64 {
        if seat == 1 {
            u64::from(w.hidden) + 1
        } else {
            0
        }
    }
    fn apply(&mut self, w: &mut World, joint: &[(usize, Act)], _: &mut SearchRng) {
        let named = joint.iter().find_map(|&(seat, a)| match (seat, a) {
            (1, Act::Other(b)) => Some(b),
            _ => None,
        });
        let r = match joint.iter().find(|&&(seat, _)| seat == 0).map(|&(_, a)| a) {
            Some(Act::Safe) => 0.5,
            _ if named == Some(w.hidden) => 0.2,
            _ => 1.0,
        };
        w.over = Some([r, 1.0 - r]);
    }
    fn rewards(&self, w: &World, out: &mut [f32]) -> bool {
        match w.over {
            Some(r) => {
                out.copy_from_slice(&r);
                true
            }
            None => false,
        }
    }
    fn policy(&mut self, _: &World, seat: usize, _: &mut SearchRng) -> Act {
        if seat == 0 {
            Act::Safe
        } else {
            Act::Other(0)
        }
    }
}

#[test]
fn private_bandits_let_an_opponent_answer_its_own_card() {
    // One bandit for both of seat 1's bits names one bit whatever it holds, so Gamble looks
    // worth 0.6; a bandit per bit learns to name its bit, and Safe is right.
    for (private, best) in [(false, Act::Gamble), (true, Act::Safe)] {
        let mut s = Ismcts::<Bluff>::new(1 << 20, 9);
        s.private_opponents = private;
        let stop = AtomicBool::new(false);
        let f = s
            .search(
                &mut Bluff,
                &SearchBudget::iterations(4000),
                &stop,
                &mut nothing,
            )
            .unwrap();
        assert_eq!(f.action, best, "private opponents {private}");
        if private {
            // A pseudo-node per signature under the root.
            assert!(f.nodes >= 3, "{} nodes", f.nodes);
        }
    }
}

#[test]
fn world_reuse_samples_once_per_batch_and_is_seeded() {
    let stop = AtomicBool::new(false);
    let run = |reuse: u32| {
        let mut g = toy(Kind::Guess);
        let mut s = Ismcts::<Toy>::new(1 << 20, 4);
        s.world_reuse = reuse;
        let f = s
            .search(&mut g, &SearchBudget::iterations(100), &stop, &mut nothing)
            .unwrap();
        (f, g.samples)
    };
    let (f, samples) = run(5);
    assert_eq!(f.iterations, 100);
    assert_eq!(samples, 20, "one world per batch of five iterations");
    assert_eq!(f.action, Act::Number(0), "{f:?}");
    let g = run(5).0;
    assert_eq!(
        (g.action, g.value, g.nodes),
        (f.action, f.value, f.nodes),
        "seeded"
    );
    assert_eq!(run(1).1, 100, "without reuse one world per iteration");
    // The tree still learns the second choice after Gamble with worlds reused.
    let mut s = Ismcts::<Toy>::new(1 << 20, 1);
    s.world_reuse = 20;
    let f = s
        .search(
            &mut toy(Kind::Gamble),
            &SearchBudget::iterations(12_000),
            &stop,
            &mut nothing,
        )
        .unwrap();
    assert_eq!(f.action, Act::Gamble, "{f:?}");
}
