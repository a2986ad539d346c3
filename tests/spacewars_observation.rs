//! What a seat sees: never another seat's hidden card; the position line and the decision text
//! forms round-trip; a world sampled from an observation looks the same to that seat.

use orrery::engines::spacewars::make_player;
use orrery::games::spacewars::observation::{Cards, Observation};
use orrery::games::spacewars::sampling::{check_consistent, sample_world};
use orrery::games::spacewars::state::{State, Step};
use orrery::games::spacewars::wire::{
    format_decision, format_observation, parse_decision, parse_observation,
};
use orrery::games::spacewars::Ruleset;
use orrery::search::ismcts::SearchBudget as Budget;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

fn check_view(s: &State, seat: u8, rules: &Arc<Ruleset>, rng: &mut ChaCha8Rng) {
    let o = Observation::of(s, seat);
    for (i, sv) in o.seats().iter().enumerate() {
        if i as u8 != seat {
            assert!(
                matches!(sv.hand, Cards::Count(_)),
                "another seat's hand is visible"
            );
        }
    }
    for sh in o.ships() {
        if sh.owner != seat {
            assert!(
                matches!(sh.hull, Cards::Count(_)),
                "another seat's hull is visible"
            );
        }
    }
    for (a, truth) in o.attacks().iter().zip(s.attacks()) {
        if !truth.face_up && truth.attacker != seat {
            assert_eq!(
                a.card, None,
                "a face-down attack card of another seat is visible"
            );
        } else {
            assert_eq!(a.card, Some(truth.card));
        }
    }
    check_consistent(&o, rules).unwrap();
    let text = format_observation(&o, rules);
    let back = parse_observation(&text, rules).unwrap_or_else(|e| panic!("{e}\n{text}"));
    assert_eq!(back, o, "position line does not round-trip:\n{text}");
    // The text carries no card of another seat's hand or hull.
    for tok in text.split_whitespace() {
        if let Some((k, v)) = tok.split_once('=') {
            if k.starts_with("hand") && k != format!("hand{}", seat + 1) {
                assert!(v.starts_with('#'), "{tok}");
            }
            if k.starts_with("ship") && !v.ends_with(":x") {
                let owner: u8 = v.split(':').next().unwrap().parse().unwrap();
                if owner != seat + 1 {
                    assert!(v.rsplit(':').next().unwrap().starts_with('#'), "{tok}");
                }
            }
        }
    }
    // Any world consistent with the observation shows the seat the same thing.
    if o.pending().is_some() || matches!(o.step(), Step::Battle(_)) {
        let w = sample_world(&o, rules, rng).unwrap();
        assert_eq!(Observation::of(&w, seat), o);
    }
}

#[test]
fn observations_never_hold_hidden_cards_over_many_games() {
    let rules = Arc::new(Ruleset::default());
    let mut rng = ChaCha8Rng::seed_from_u64(5);
    let stop = AtomicBool::new(false);
    let mut views = 0;
    for game in 0..70u64 {
        let players = 2 + (game % 7) as usize;
        let mut s = State::new(players, game).unwrap();
        let mut ps: Vec<_> = (0..players)
            .map(|i| {
                make_player(
                    if (i + game as usize).is_multiple_of(2) {
                        "random"
                    } else {
                        "heuristic"
                    },
                    game * 10 + i as u64,
                )
                .unwrap()
            })
            .collect();
        let mut pend = Vec::new();
        while !s.is_over() {
            for seat in 0..players as u8 {
                check_view(&s, seat, &rules, &mut rng);
                views += 1;
            }
            s.pending(&mut pend);
            for &(seat, _) in pend.clone().iter() {
                let c = ps[seat as usize]
                    .decide(
                        &Observation::of(&s, seat),
                        &Budget::default(),
                        &stop,
                        &mut |_| {},
                    )
                    .unwrap();
                let text = format_decision(&c.decision, &rules);
                assert_eq!(parse_decision(&text, &rules).unwrap(), c.decision, "{text}");
                s.apply(seat, &c.decision).unwrap();
            }
        }
        for seat in 0..players as u8 {
            check_view(&s, seat, &rules, &mut rng);
        }
    }
    assert!(views > 2000, "only {views} views checked");
}

#[test]
fn referee_lines_and_checked_decisions() {
    use orrery::games::spacewars::wire::{checked_decision, lines_for_seat};
    let mut s = State::new(2, 5).unwrap();
    s.enable_log();
    let lines = lines_for_seat(&s, 1, 0);
    assert_eq!(lines[0], "event dealt 1 #10");
    assert_eq!(lines[1], "event dealt 2 9D,9D,5H,8H,4S,AC,2C,QS,7S,8H");
    assert!(lines[2].starts_with("position seat=2 players=2"));
    assert!(checked_decision(&s, 1, "bestmove class battleship QS").is_ok());
    let e = checked_decision(&s, 1, "bestmove class battleship QH").unwrap_err();
    assert_eq!(
        e,
        "illegal decision 'class battleship QH': card QH is not held there"
    );
    assert!(checked_decision(&s, 1, "class battleship Q").is_err());
    let d = checked_decision(&s, 0, "class fighters JH").unwrap();
    s.apply(0, &d).unwrap();
    assert!(checked_decision(&s, 0, "class fighters TD")
        .unwrap_err()
        .contains("owes no decision"));
}
