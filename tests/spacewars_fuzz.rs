//! Mutated `position` lines never crash the parser, and every line the parser accepts can be
//! searched without a crash (the engine's input edge is total).

use orrery::engines::spacewars::make_player;
use orrery::games::spacewars::observation::Observation;
use orrery::games::spacewars::state::State;
use orrery::games::spacewars::wire::{format_observation, parse_observation};
use orrery::games::spacewars::Ruleset;
use orrery::search::ismcts::SearchBudget as Budget;
use rand::{seq::SliceRandom, Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

fn mutate(line: &str, rng: &mut ChaCha8Rng) -> String {
    let mut toks: Vec<String> = line.split(' ').map(String::from).collect();
    let i = rng.gen_range(0..toks.len());
    match rng.gen_range(0..5) {
        0 => {
            toks.remove(i);
        }
        1 => {
            let j = rng.gen_range(0..toks.len());
            toks.swap(i, j);
        }
        2 => {
            let digits: Vec<char> = "0123456789".chars().collect();
            toks[i] = toks[i]
                .chars()
                .map(|c| {
                    if c.is_ascii_digit() && rng.gen_bool(0.5) {
                        *digits.choose(rng).unwrap()
                    } else {
                        c
                    }
                })
                .collect();
        }
        3 => {
            let codes = ["5D", "QH", "X", "?", "#3", "x", "-", ":", ",", "AS"];
            let pos = rng.gen_range(0..=toks[i].len());
            if toks[i].is_char_boundary(pos) {
                toks[i].insert_str(pos, codes.choose(rng).unwrap());
            }
        }
        _ => {
            let t = toks[i].clone();
            toks.insert(i, t);
        }
    }
    toks.join(" ")
}

#[test]
fn mutated_positions_never_crash() {
    let rules = Arc::new(Ruleset::default());
    let mut rng = ChaCha8Rng::seed_from_u64(3);
    let stop = AtomicBool::new(false);
    let mut lines = Vec::new();
    for game in 0..12u64 {
        let players = 2 + (game % 4) as usize;
        let mut s = State::new(players, game).unwrap();
        let mut p = make_player("heuristic", game).unwrap();
        let mut pend = Vec::new();
        while !s.is_over() {
            s.pending(&mut pend);
            let mut decided = Vec::new();
            for &(seat, _) in &pend {
                let o = Observation::of(&s, seat);
                lines.push(format_observation(&o, &rules));
                decided.push((
                    seat,
                    p.decide(&o, &Budget::default(), &stop, &mut |_| {})
                        .unwrap()
                        .decision,
                ));
            }
            for (seat, d) in decided {
                s.apply(seat, &d).unwrap();
            }
        }
    }
    let mut accepted = 0;
    let mut searcher = make_player("ismcts", 1).unwrap();
    for k in 0..3000 {
        let base = lines.choose(&mut rng).unwrap();
        let mut m = mutate(base, &mut rng);
        if k % 3 == 0 {
            m = mutate(&m, &mut rng);
        }
        if let Ok(o) = parse_observation(&m, &rules) {
            accepted += 1;
            if o.pending().is_some() {
                let _ = searcher.decide(&o, &Budget::iterations(20), &stop, &mut |_| {});
            }
        }
    }
    assert!(accepted > 0);
}
