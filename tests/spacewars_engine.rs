//! The engines: every abstract action becomes a legal decision, searches are seeded and keep to
//! their budget, and ISMCTS beats the random player.

use orrery::engines::spacewars::make_player;
use orrery::engines::spacewars::selfplay::play_game;
use orrery::engines::spacewars::IsmctsPlayer;
use orrery::games::spacewars::abstraction::{actions, concretize, reaching_set, Action};
use orrery::games::spacewars::decision::Decision;
use orrery::games::spacewars::observation::Observation;
use orrery::games::spacewars::search_bindings::{private_signature, SpaceWarsSearch};
use orrery::games::spacewars::state::State;
use orrery::games::spacewars::{Card, DecisionKind, Ruleset};
use orrery::search::ismcts::{HiddenInfo, SearchBudget as Budget, SearchRng};
use rand::SeedableRng;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

fn cs(s: &str) -> Vec<Card> {
    s.split_whitespace().map(|c| c.parse().unwrap()).collect()
}

#[test]
fn reaching_sets_are_minimal() {
    let set = reaching_set(&cs("AS 2S 3S 4S 5S"), 9, |c| c.value() as i32);
    let sum: u32 = set.iter().map(|c| c.value() as u32).sum();
    let least = set.iter().map(|c| c.value() as u32).min().unwrap();
    assert!(sum >= 9 && sum - least < 9, "{set:?}");
    assert_eq!(
        reaching_set(&cs("2S 3S"), 9, |c| c.value() as i32),
        cs("2S 3S")
    );
    assert_eq!(
        reaching_set(&cs("9S 2S 3S"), 4, |c| c.value() as i32).len(),
        2
    );
    assert_eq!(
        reaching_set(&cs("9S 2S 3S"), 4, |c| if c.value() == 9 { 0 } else { 10 }),
        cs("9S")
    );
}

#[test]
fn every_abstract_action_is_legal() {
    let stop = AtomicBool::new(false);
    let mut acts = Vec::new();
    let mut pend = Vec::new();
    let mut checked = 0;
    for game in 0..40u64 {
        let players = 2 + (game % 5) as usize;
        let mut s = State::new(players, 1000 + game).unwrap();
        let mut p = make_player(if game % 2 == 0 { "random" } else { "heuristic" }, game).unwrap();
        while !s.is_over() {
            s.pending(&mut pend);
            let mut decided = Vec::new();
            for &(seat, kind) in &pend {
                actions(&s, seat, kind, &mut acts);
                assert!(!acts.is_empty(), "{kind:?}");
                for &a in &acts {
                    let d = concretize(&s, seat, a);
                    s.check(seat, &d)
                        .unwrap_or_else(|e| panic!("{a:?} -> {d:?}: {e}"));
                    checked += 1;
                }
                let c = p
                    .decide(
                        &Observation::of(&s, seat),
                        &Budget::default(),
                        &stop,
                        &mut |_| {},
                    )
                    .unwrap();
                decided.push((seat, c.decision));
            }
            for (seat, d) in decided {
                s.apply(seat, &d).unwrap();
            }
        }
    }
    assert!(checked > 1000);
}

#[test]
fn ismcts_is_seeded_and_keeps_its_budget() {
    let s = State::new(4, 5).unwrap();
    let obs = Observation::of(&s, 2);
    let stop = AtomicBool::new(false);
    let run = |seed| {
        let mut p = IsmctsPlayer::new(Arc::new(Ruleset::default()), seed);
        let (a, c) = p
            .search(&obs, &Budget::iterations(300), &stop, &mut |_| {})
            .unwrap();
        (a, c.decision, c.iterations, c.value, c.nodes)
    };
    let first = run(3);
    assert_eq!(first, run(3));
    assert_eq!(first.2, 300);
    let mut p = IsmctsPlayer::new(Arc::new(Ruleset::default()), 1);
    let t = std::time::Instant::now();
    let budget = Budget {
        iterations: None,
        time: Some(std::time::Duration::from_millis(100)),
    };
    let (_, c) = p.search(&obs, &budget, &stop, &mut |_| {}).unwrap();
    assert!(t.elapsed() < std::time::Duration::from_millis(1000));
    assert!(c.iterations > 0);
}

#[test]
fn ismcts_beats_random() {
    let mut score = 0.0;
    let games = 40u64;
    for g in 0..games {
        let mut ps = vec![
            make_player("ismcts", g).unwrap(),
            make_player("random", g + 100).unwrap(),
        ];
        let flip = g % 2 == 1;
        if flip {
            ps.reverse();
        }
        let r = play_game(&mut ps, 500 + g, &[Budget::iterations(100)]).unwrap();
        score += r.outcome.reward(if flip { 1 } else { 0 }) as f64;
    }
    assert!(
        score >= 0.6 * games as f64,
        "ISMCTS scored {score} of {games}"
    );
}

/// A decision with its attack orders in a fixed order, to compare decisions as sets.
fn normalized(mut d: Decision) -> Decision {
    if let Decision::Attack(orders) = &mut d {
        orders.sort_by_key(|o| (o.from, o.card, o.target));
    }
    d
}

#[test]
fn root_actions_are_distinct_decisions_covering_all_actions() {
    let rules = Arc::new(Ruleset::default());
    let stop = AtomicBool::new(false);
    let (mut all, mut root, mut pend) = (Vec::new(), Vec::new(), Vec::new());
    let mut dropped = 0;
    for game in 0..30u64 {
        let players = 2 + (game % 4) as usize;
        let mut s = State::new(players, 500 + game).unwrap();
        let mut p = make_player("heuristic", game).unwrap();
        while !s.is_over() {
            s.pending(&mut pend);
            let mut decided = Vec::new();
            for &(seat, kind) in &pend {
                let obs = Observation::of(&s, seat);
                let mut search = SpaceWarsSearch::new(&obs, &rules).unwrap();
                let w = search.template().clone();
                actions(&w, seat, kind, &mut all);
                search.root_actions(&w, &mut root);
                let of = |acts: &[Action]| -> Vec<Decision> {
                    acts.iter()
                        .map(|&a| normalized(concretize(&w, seat, a)))
                        .collect()
                };
                let (all_d, root_d) = (of(&all), of(&root));
                for (i, d) in root_d.iter().enumerate() {
                    assert!(!root_d[..i].contains(d), "{d:?} twice in {root:?}");
                }
                for d in &all_d {
                    assert!(root_d.contains(d), "{d:?} of {all:?} lost in {root:?}");
                }
                assert!(root.iter().all(|a| all.contains(a)));
                dropped += all.len() - root.len();
                let c = p
                    .decide(&obs, &Budget::default(), &stop, &mut |_| {})
                    .unwrap();
                decided.push((seat, c.decision));
            }
            for (seat, d) in decided {
                s.apply(seat, &d).unwrap();
            }
        }
    }
    // The abstraction does list equivalent actions (e.g. `Fire` and `FireAll` with few cards).
    assert!(dropped > 50, "only {dropped} equivalent actions left out");
}

#[test]
fn private_signatures_read_only_the_seats_own_cards() {
    let rules = Arc::new(Ruleset::default());
    let stop = AtomicBool::new(false);
    let mut rng = SearchRng::seed_from_u64(5);
    let mut pend = Vec::new();
    let mut world = State::default();
    let mut seen = std::collections::BTreeSet::new();
    for game in 0..30u64 {
        let players = 2 + (game % 5) as usize;
        let mut s = State::new(players, 700 + game).unwrap();
        let mut p = make_player("heuristic", game).unwrap();
        while !s.is_over() {
            s.pending(&mut pend);
            let mut decided = Vec::new();
            for &(seat, kind) in &pend {
                let sig = private_signature(&s, seat);
                let shaped = matches!(kind, DecisionKind::Class | DecisionKind::Attack);
                assert_eq!(sig != 0, shaped, "{kind:?}: signature {sig}");
                seen.insert((shaped, sig));
                // Every world the seat cannot tell from the true one gives it the same signature.
                let obs = Observation::of(&s, seat);
                let mut search = SpaceWarsSearch::new(&obs, &rules).unwrap();
                for _ in 0..3 {
                    search.sample(&mut rng, &mut world);
                    assert_eq!(private_signature(&world, seat), sig, "{kind:?}");
                }
                let c = p
                    .decide(&obs, &Budget::default(), &stop, &mut |_| {})
                    .unwrap();
                decided.push((seat, c.decision));
            }
            for (seat, d) in decided {
                s.apply(seat, &d).unwrap();
            }
        }
    }
    // Hands differ: the summaries tell several kinds apart.
    assert!(seen.len() >= 8, "{seen:?}");
}

#[test]
fn player_settings_choose_how_the_other_seats_are_modelled() {
    use orrery::engines::spacewars::PlayerSpec;
    let spec = |t: &str| t.parse::<PlayerSpec>();
    let d = spec("ismcts").unwrap();
    assert!(d.private_opponents && !d.policy_opponents && d.margin == 0.0);
    let b = spec("ismcts:opp=bandit").unwrap();
    assert!(!b.private_opponents && !b.policy_opponents);
    let p = spec("ismcts:opp=policy").unwrap();
    assert!(!p.private_opponents && p.policy_opponents);
    assert!(
        spec("ismcts:opp=bandit:opp=private")
            .unwrap()
            .private_opponents
    );
    assert_eq!(spec("ismcts:margin=0.3").unwrap().margin, 0.3);
    assert_eq!(
        d.world_reuse,
        orrery::engines::spacewars::DEFAULT_WORLD_REUSE
    );
    assert_eq!(spec("ismcts:reuse=20").unwrap().world_reuse, 20);
    for bad in [
        "ismcts:margin=2",
        "ismcts:margin=x",
        "ismcts:opp=mind",
        "ismcts:reuse=0",
        "ismcts:reuse=-1",
    ] {
        assert!(spec(bad).is_err(), "{bad} accepted");
    }
}
