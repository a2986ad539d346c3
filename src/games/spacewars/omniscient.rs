//! A measurement, not a player: how much ISMCTS would gain from knowing the hidden cards. An
//! omniscient ISMCTS searches worlds that are the true state (every hand, hull and face-down
//! attack card as they are; only the order of the draw pile stays unknown), against the engine's
//! players, in the decisions chosen by [`Cheat`]; in the other decisions it is the engine's ISMCTS.
//! The gap to the engine's ISMCTS bounds what inference in the determinization can gain
//! (`docs/spacewars.md`, "Figures"). Test code only: the engine's players never see a [`State`].

use std::sync::atomic::AtomicBool;
use std::sync::Arc;

use rand::Rng;

use super::abstraction::{concretize, Action};
use super::decision::DecisionKind;
use super::observation::Observation;
use super::ruleset::Ruleset;
use super::search_bindings::SpaceWarsSearch;
use super::state::{Deck, Outcome, State};
use crate::engines::spacewars::{make_player, IsmctsPlayer, Player};
use crate::search::ismcts::{HiddenInfo, HiddenSearch, Ismcts, SearchBudget, SearchRng};

/// The Space Wars search problem with the truth as its only world.
struct Omniscient {
    inner: SpaceWarsSearch,
    truth: State,
}

impl HiddenInfo for Omniscient {
    type World = State;
    type Action = Action;

    fn seats(&self) -> usize {
        self.inner.seats()
    }
    fn observer(&self) -> usize {
        self.inner.observer()
    }
    /// The true state, its draw pile drawn from at random (its order stays unknown).
    fn sample(&mut self, rng: &mut SearchRng, world: &mut State) {
        world.clone_from(&self.truth);
        world.deck = Deck::Unordered(rng.gen());
    }
    fn deciders(&self, w: &State, out: &mut Vec<usize>) {
        self.inner.deciders(w, out)
    }
    fn actions(&mut self, w: &State, seat: usize, out: &mut Vec<Action>) {
        self.inner.actions(w, seat, out)
    }
    fn root_actions(&mut self, w: &State, out: &mut Vec<Action>) {
        self.inner.root_actions(w, out)
    }
    fn private_signature(&self, w: &State, seat: usize) -> u64 {
        self.inner.private_signature(w, seat)
    }
    fn apply(&mut self, w: &mut State, joint: &[(usize, Action)], rng: &mut SearchRng) {
        self.inner.apply(w, joint, rng)
    }
    fn rewards(&self, w: &State, out: &mut [f32]) -> bool {
        self.inner.rewards(w, out)
    }
    fn policy(&mut self, w: &State, seat: usize, rng: &mut SearchRng) -> Action {
        self.inner.policy(w, seat, rng)
    }
    fn playout(&mut self, w: &mut State, rng: &mut SearchRng, out: &mut [f32]) {
        self.inner.playout(w, rng, out)
    }
}

/// Which decisions the omniscient search makes (the engine's ISMCTS makes the others).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Cheat {
    /// No decision: the engine's ISMCTS throughout, the baseline of the same games.
    Never,
    /// Every decision.
    All,
    /// Class, split and the Tactical step of round 1.
    FirstRound,
    /// The Tactical steps from round 2 on: what inference from public play could reach at most.
    LaterTactical,
    /// The Battle-stations decisions (defend, resolve, block, lose, crew, repel).
    Battle,
    /// The class choice only: made before anything of the other seats has been seen.
    Class,
    /// The split and the Tactical step of round 1: made once the classes are shown.
    FirstTactical,
}

impl Cheat {
    fn applies(self, kind: DecisionKind, round: u16) -> bool {
        let setup = matches!(
            kind,
            DecisionKind::Class | DecisionKind::Split | DecisionKind::Attack
        );
        match self {
            Cheat::Never => false,
            Cheat::All => true,
            Cheat::FirstRound => setup && round < 2,
            Cheat::LaterTactical => kind == DecisionKind::Attack && round >= 2,
            Cheat::Battle => !setup,
            Cheat::Class => kind == DecisionKind::Class,
            Cheat::FirstTactical => {
                matches!(kind, DecisionKind::Split | DecisionKind::Attack) && round < 2
            }
        }
    }
}

/// One game: seat `me` is the omniscient ISMCTS (in the decisions `cheat` covers), the other
/// seats `opponent` players; every searching player spends `iterations` per decision. Returns the
/// outcome and how many decisions the omniscient search made.
fn play(
    players: usize,
    me: u8,
    opponent: &str,
    cheat: Cheat,
    seed: u64,
    iterations: u64,
) -> (Outcome, usize) {
    let rules = Arc::new(Ruleset::default());
    let stop = AtomicBool::new(false);
    let budget = SearchBudget::iterations(iterations);
    let mut others: Vec<Box<dyn Player>> = (0..players)
        .map(|i| make_player(opponent, seed * 10 + i as u64).expect("a built-in player"))
        .collect();
    let mut honest = IsmctsPlayer::new(rules.clone(), seed);
    let mut search: Ismcts<Omniscient> = Ismcts::new(16 << 20, seed);
    search.private_opponents = true;
    let mut state = State::new(players, seed).expect("a player count of the rules");
    let mut pending = Vec::new();
    let mut cheated = 0;
    while state.outcome().is_none() {
        state.pending(&mut pending);
        let mut decided = Vec::new();
        for &(seat, kind) in &pending {
            let obs = Observation::of(&state, seat);
            let d = if seat == me && cheat.applies(kind, state.round()) {
                cheated += 1;
                let mut game = Omniscient {
                    inner: SpaceWarsSearch::new(&obs, &rules).expect("a seat's observation"),
                    truth: state.clone(),
                };
                let found = search
                    .search(&mut game, &budget, &stop, &mut |_| {})
                    .expect("a decision");
                concretize(&state, seat, found.action)
            } else {
                let p: &mut dyn Player = if seat == me {
                    &mut honest
                } else {
                    others[seat as usize].as_mut()
                };
                p.decide(&obs, &budget, &stop, &mut |_| {})
                    .expect("a decision")
                    .decision
            };
            decided.push((seat, d));
        }
        for (seat, d) in decided {
            state.apply(seat, &d).expect("a legal decision");
        }
    }
    (state.outcome().expect("over"), cheated)
}

#[test]
fn the_omniscient_world_is_the_truth_and_its_games_are_legal() {
    let rules = Arc::new(Ruleset::default());
    let mut state = State::new(2, 5).unwrap();
    let mut pending = Vec::new();
    // Heuristic play up to the first Tactical step.
    while state.round() < 1 {
        state.pending(&mut pending);
        for &(seat, kind) in &pending.clone() {
            let d = super::heuristic::decide(&state, seat, kind);
            state.apply(seat, &d).unwrap();
        }
    }
    let obs = Observation::of(&state, 0);
    let mut game = Omniscient {
        inner: SpaceWarsSearch::new(&obs, &rules).unwrap(),
        truth: state.clone(),
    };
    let mut rng = <SearchRng as rand::SeedableRng>::seed_from_u64(1);
    let mut world = State::default();
    let mut sampled = State::default();
    let mut differs = false;
    for _ in 0..20 {
        game.sample(&mut rng, &mut world);
        for (w, t) in world.ships.iter().zip(&state.ships) {
            assert_eq!(w.hull, t.hull, "ship {}", t.id);
        }
        assert_eq!(world.draw.len(), state.draw.len());
        game.inner.sample(&mut rng, &mut sampled);
        differs |= sampled
            .ships
            .iter()
            .zip(&state.ships)
            .any(|(s, t)| s.owner != 0 && s.hull != t.hull);
    }
    assert!(
        differs,
        "the engine's own sampling does not see the hidden hulls"
    );
    for (seed, cheat) in [(3, Cheat::All), (4, Cheat::LaterTactical)] {
        let (_, cheated) = play(2, 1, "heuristic", cheat, seed, 60);
        assert!(
            cheated > 0,
            "{cheat:?}: the omniscient search decided nothing"
        );
    }
    assert!(Cheat::FirstRound.applies(DecisionKind::Class, 0));
    assert!(!Cheat::FirstRound.applies(DecisionKind::Attack, 2));
    assert!(Cheat::LaterTactical.applies(DecisionKind::Attack, 2));
    assert!(!Cheat::Battle.applies(DecisionKind::Attack, 3));
    assert!(!Cheat::Never.applies(DecisionKind::Class, 0));
    assert!(Cheat::Class.applies(DecisionKind::Class, 0));
    assert!(!Cheat::Class.applies(DecisionKind::Attack, 1));
    assert!(Cheat::FirstTactical.applies(DecisionKind::Attack, 1));
    assert!(!Cheat::FirstTactical.applies(DecisionKind::Class, 0));
    assert!(!Cheat::FirstTactical.applies(DecisionKind::Attack, 2));
    assert_eq!(play(2, 0, "heuristic", Cheat::Never, 3, 60).1, 0);
}

/// The measurement: `OMNI_PLAYERS` (2), `OMNI_OPPONENT` (`pimc`), `OMNI_GAMES` (1000),
/// `OMNI_CHEAT` (`none`, `all`, `first`, `later`, `battle`, `class`, `first-tactical`); 2000
/// iterations per decision, seats rotated, game seeds 9000 + i. Run with `cargo test --release
/// --lib omniscient -- --ignored --nocapture`.
#[test]
#[ignore = "a measurement, not a check: 1,000 games of 2,000 iterations per decision take minutes"]
fn value_of_information() {
    let env = |k: &str, d: &str| std::env::var(k).unwrap_or_else(|_| d.to_string());
    let players: usize = env("OMNI_PLAYERS", "2").parse().unwrap();
    let opponent = env("OMNI_OPPONENT", "pimc");
    let games: u64 = env("OMNI_GAMES", "1000").parse().unwrap();
    let cheat = match env("OMNI_CHEAT", "all").as_str() {
        "none" => Cheat::Never,
        "all" => Cheat::All,
        "first" => Cheat::FirstRound,
        "later" => Cheat::LaterTactical,
        "battle" => Cheat::Battle,
        "class" => Cheat::Class,
        "first-tactical" => Cheat::FirstTactical,
        other => panic!("unknown OMNI_CHEAT {other}"),
    };
    let (mut wins, mut losses, mut draws) = (0, 0, 0);
    for g in 0..games {
        let me = (g % players as u64) as u8;
        match play(players, me, &opponent, cheat, 9000 + g, 2000).0 {
            Outcome::Win(w) if w == me => wins += 1,
            Outcome::Win(_) => losses += 1,
            Outcome::Draw(_) => draws += 1,
        }
    }
    assert_eq!(wins + losses + draws, games, "every game ends");
    eprintln!(
        "omniscient ISMCTS ({cheat:?}) vs {} x {opponent}: {wins} wins, {losses} losses, {draws} \
         draws; {:.1} % of decided games, {:.1} % wins",
        players - 1,
        100.0 * wins as f64 / (wins + losses).max(1) as f64,
        100.0 * wins as f64 / games as f64
    );
}
