//! Rules of Space Wars as the rule book (`rules/space-wars.md`) states them.

use orrery::games::spacewars::decision::{AttackOrder, Decision, DecisionKind, Illegal};
use orrery::games::spacewars::observation::Observation;
use orrery::games::spacewars::state::{Outcome, Record, State, Step};
use orrery::games::spacewars::{AttackRole, Card, Ruleset};
use std::sync::Arc;

const BS: u8 = 0;
const FIGHTER: u8 = 2;

fn c(s: &str) -> Card {
    s.parse().unwrap()
}
fn cs(s: &str) -> Vec<Card> {
    s.split_whitespace().map(c).collect()
}
fn sorted(mut v: Vec<Card>) -> Vec<Card> {
    v.sort();
    v
}
fn table(ships: &[(u8, u8, &str)], draw: &str) -> State {
    table_with(Ruleset::default(), ships, draw)
}
fn table_with(rules: Ruleset, ships: &[(u8, u8, &str)], draw: &str) -> State {
    let ships: Vec<_> = ships.iter().map(|&(o, k, h)| (o, k, cs(h))).collect();
    State::from_ships(Arc::new(rules), 2, &ships, cs(draw), Vec::new(), 1).unwrap()
}
fn atk(from: u8, card: &str, target: u8) -> AttackOrder {
    AttackOrder {
        from,
        card: c(card),
        target,
    }
}
/// Submits a seat's Tactical step; a seat with nothing to attack with was submitted for already.
fn attack(s: &mut State, seat: u8, orders: Vec<AttackOrder>) {
    if s.pending_for(seat) == Some(DecisionKind::Attack) {
        s.apply(seat, &Decision::Attack(orders)).unwrap();
    } else {
        assert!(orders.is_empty(), "seat {seat} cannot attack");
    }
}
/// A refused decision leaves every seat's view and the piles unchanged.
fn refused(s: &mut State, seat: u8, d: Decision) -> Illegal {
    let before: Vec<_> = (0..s.players() as u8)
        .map(|p| Observation::of(s, p))
        .collect();
    let draw = s.draw_pile().to_vec();
    let e = s.apply(seat, &d).unwrap_err();
    let after: Vec<_> = (0..s.players() as u8)
        .map(|p| Observation::of(s, p))
        .collect();
    assert_eq!(before, after, "a refused decision changed the state");
    assert_eq!(draw, s.draw_pile());
    e
}

#[test]
fn card_roles_follow_the_table() {
    let r = Ruleset::default();
    for card in Card::all() {
        let (rank, suit) = (card.rank(), card.suit().map(|s| s.code()));
        let role = r.attack_role(card);
        match (rank, suit) {
            (None, _) => {
                assert_eq!(role, None);
                assert!(!r.blocks_laser[card.index()] && !r.is_crew(card));
            }
            (Some(11..=13), _) => {
                assert_eq!(role, Some(AttackRole::Boarding));
                assert!(!r.blocks_laser[card.index()] && !r.is_crew(card));
            }
            (_, Some('D')) => {
                assert_eq!(role, Some(AttackRole::Laser));
                assert!(r.blocks(card, AttackRole::Laser) && !r.blocks(card, AttackRole::Missile));
            }
            (_, Some('H')) => {
                assert_eq!(role, Some(AttackRole::Missile));
                assert!(!r.blocks(card, AttackRole::Laser));
            }
            (_, Some('S')) => {
                assert_eq!(role, None);
                assert!(r.blocks(card, AttackRole::Laser) && r.blocks(card, AttackRole::Missile));
            }
            (_, Some('C')) => {
                assert_eq!(role, None);
                assert!(r.is_crew(card));
            }
            _ => unreachable!(),
        }
    }
    assert_eq!(r.pack(4).len(), 108);
    assert_eq!(r.pack(6).len(), 162);
}

#[test]
fn laser_blocking_must_be_a_minimal_reaching_set() {
    let mut s = table(
        &[(0, BS, "8D 2C 3C"), (1, BS, "5D 4S 2S KH 9C")],
        "AC 2C 3C 4C",
    );
    attack(&mut s, 0, vec![atk(0, "8D", 1)]);
    attack(&mut s, 1, vec![]);
    assert_eq!(s.pending_for(1), Some(DecisionKind::Block));
    assert_eq!(s.pending_for(0), None);
    assert_eq!(
        refused(&mut s, 1, Decision::Block(cs("5D 4S 2S"))),
        Illegal::NotMinimal
    );
    assert!(matches!(
        refused(&mut s, 1, Decision::Block(cs("4S 2S"))),
        Illegal::TooLow { need: 8, got: 6 }
    ));
    assert_eq!(
        refused(&mut s, 1, Decision::Block(cs("KH"))),
        Illegal::NotHeld(c("KH")).min_role()
    );
    assert_eq!(
        refused(&mut s, 1, Decision::Block(cs("5D 5D"))),
        Illegal::NotHeld(c("5D"))
    );
    assert!(matches!(
        refused(&mut s, 1, Decision::Lose(cs("9C"))),
        Illegal::WrongKind { .. }
    ));
    assert!(matches!(
        refused(&mut s, 0, Decision::Block(cs("2C"))),
        Illegal::NotPending { seat: 0 }
    ));
    s.apply(1, &Decision::Block(cs("5D 4S"))).unwrap();
    // No loss; engineering repairs both ships by one card each.
    assert_eq!(s.round(), 2);
    assert_eq!(s.step(), Step::Tactical);
    // Cards are drawn from the top of the pile, seat 1's ships first.
    assert_eq!(sorted(s.ships()[1].hull.clone()), sorted(cs("2S KH 9C 3C")));
    assert_eq!(sorted(s.ships()[0].hull.clone()), sorted(cs("2C 3C 4C")));
    assert_eq!(s.discard_pile().len(), 3);
}

trait MinRole {
    fn min_role(self) -> Illegal;
}
impl MinRole for Illegal {
    /// KH is held but is not a blocker: the rules core reports the role.
    fn min_role(self) -> Illegal {
        Illegal::WrongRole(c("KH"))
    }
}

#[test]
fn missiles_are_blocked_only_by_ecm_and_unblocked_points_cost_cards() {
    // 6H against 3S (the 5D cannot block a missile): 3 unblocked points, 2 cards left: destroyed.
    let mut s = table(&[(0, BS, "6H 2C"), (1, BS, "5D 3S 9C")], "");
    attack(&mut s, 0, vec![atk(0, "6H", 1)]);
    attack(&mut s, 1, vec![]);
    assert!(!s.ships()[1].alive);
    assert!(s.is_over());
    assert_eq!(s.outcome(), Some(Outcome::Win(0)));
    assert!(!s.is_active(1));
}

#[test]
fn losses_are_chosen_by_the_defender() {
    let mut s = table(&[(0, BS, "5H 2C"), (1, BS, "2S 5C 6C 7C 8C")], "");
    attack(&mut s, 0, vec![atk(0, "5H", 1)]);
    attack(&mut s, 1, vec![]);
    assert_eq!(s.pending_for(1), Some(DecisionKind::Lose(3)));
    assert!(matches!(
        refused(&mut s, 1, Decision::Lose(cs("5C 6C"))),
        Illegal::WrongCount {
            expected: 3,
            got: 2
        }
    ));
    assert_eq!(
        refused(&mut s, 1, Decision::Lose(cs("5C 6C KH"))),
        Illegal::NotHeld(c("KH"))
    );
    s.apply(1, &Decision::Lose(cs("5C 6C 7C"))).unwrap();
    assert_eq!(s.ships()[1].hull[0], c("8C"));
}

#[test]
fn boarding_capture_when_crew_is_strictly_higher() {
    let mut s = table(&[(0, BS, "QH 9C 2D"), (1, BS, "3C 4C 5S")], "");
    attack(&mut s, 0, vec![atk(0, "QH", 1)]);
    attack(&mut s, 1, vec![]);
    // Single club: crew sent automatically; 3+4 < 9: the defenders play all, ship captured.
    let ship = &s.ships()[1];
    assert_eq!(ship.owner, 0);
    assert_eq!(ship.hull, cs("5S"));
    assert_eq!(s.outcome(), Some(Outcome::Win(0)));
}

#[test]
fn boarding_tie_fails_and_crew_and_repel_are_validated() {
    let mut s = table(&[(0, BS, "QH 7C 2C 5D"), (1, BS, "3C 4C 5S 9D")], "AS AS");
    attack(&mut s, 0, vec![atk(0, "QH", 1)]);
    attack(&mut s, 1, vec![]);
    assert_eq!(s.pending_for(0), Some(DecisionKind::Crew));
    assert_eq!(
        refused(&mut s, 0, Decision::Crew(c("5D"))),
        Illegal::WrongRole(c("5D"))
    );
    assert_eq!(
        refused(&mut s, 0, Decision::Crew(c("9C"))),
        Illegal::NotHeld(c("9C"))
    );
    s.apply(0, &Decision::Crew(c("7C"))).unwrap();
    assert_eq!(s.pending_for(1), Some(DecisionKind::Repel));
    assert!(matches!(
        refused(&mut s, 1, Decision::Repel(cs("3C"))),
        Illegal::TooLow { need: 7, got: 3 }
    ));
    assert_eq!(
        refused(&mut s, 1, Decision::Repel(cs("5S"))),
        Illegal::WrongRole(c("5S"))
    );
    s.apply(1, &Decision::Repel(cs("3C 4C"))).unwrap();
    assert_eq!(s.ships()[1].owner, 1, "7 against 7 is not strictly higher");
    assert_eq!(s.step(), Step::Tactical);
}

#[test]
fn boarding_without_crew_fails() {
    let mut s = table(&[(0, BS, "KH 2D 3D"), (1, BS, "5S 9D")], "AS AS AS");
    attack(&mut s, 0, vec![atk(0, "KH", 1)]);
    attack(&mut s, 1, vec![]);
    assert_eq!(s.ships()[1].owner, 1);
    assert!(s.discard_pile().contains(&c("KH")));
}

#[test]
fn captured_ship_attacks_are_defended_by_the_new_owner() {
    let mut s = table(
        &[(0, BS, "QH 9C 3D 2H"), (1, BS, "4C 5S 6D"), (1, BS, "7S")],
        "AH AS 2S",
    );
    attack(&mut s, 0, vec![atk(0, "QH", 1), atk(0, "3D", 1)]);
    attack(&mut s, 1, vec![]);
    assert_eq!(s.pending_for(1), Some(DecisionKind::Resolve));
    assert_eq!(
        refused(
            &mut s,
            1,
            Decision::Resolve {
                card: c("9H"),
                from: 0
            }
        ),
        Illegal::NoSuchAttack(c("9H"), 0)
    );
    s.apply(
        1,
        &Decision::Resolve {
            card: c("QH"),
            from: 0,
        },
    )
    .unwrap();
    // 9C beats 4C: captured; the 3D laser on it is now seat 1's to block.
    assert_eq!(s.ships()[1].owner, 0);
    assert_eq!(s.pending_for(0), Some(DecisionKind::Block));
    s.apply(0, &Decision::Block(cs("5S"))).unwrap();
    // Engineering: seat 1's ships in id order (ship 1, then the captured ship 2), then seat 2.
    assert_eq!(s.ships()[0].hull, cs("2H 2S"));
    assert_eq!(s.ships()[1].hull, cs("6D AS"));
    assert_eq!(s.ships()[2].hull, cs("7S AH"));
}

#[test]
fn ship_order_and_attack_validation() {
    let mut s = table(
        &[
            (0, BS, "5D 4H 5S 2C JH"),
            (1, FIGHTER, "2S 3S 9H"),
            (1, FIGHTER, "AS 2C 8D"),
            (1, FIGHTER, "AC"),
        ],
        "",
    );
    assert_eq!(
        refused(&mut s, 0, Decision::Attack(vec![atk(0, "5D", 0)])),
        Illegal::OwnShipTarget(0)
    );
    assert_eq!(
        refused(&mut s, 0, Decision::Attack(vec![atk(1, "9H", 2)])),
        Illegal::NotYourShip(1)
    );
    assert_eq!(
        refused(&mut s, 0, Decision::Attack(vec![atk(0, "5S", 1)])),
        Illegal::NotAnAttackCard(c("5S"))
    );
    assert_eq!(
        refused(&mut s, 0, Decision::Attack(vec![atk(0, "9D", 1)])),
        Illegal::NotHeld(c("9D"))
    );
    assert_eq!(
        refused(
            &mut s,
            0,
            Decision::Attack(vec![atk(0, "5D", 1), atk(0, "5D", 2)])
        ),
        Illegal::NotHeld(c("5D"))
    );
    assert_eq!(
        refused(&mut s, 0, Decision::Attack(vec![atk(0, "5D", 9)])),
        Illegal::NoSuchShip(9)
    );
    assert!(matches!(
        refused(&mut s, 0, Decision::Defend(1)),
        Illegal::WrongKind { .. }
    ));
    attack(&mut s, 0, vec![atk(0, "5D", 1), atk(0, "4H", 2)]);
    attack(&mut s, 1, vec![]);
    assert_eq!(s.pending_for(1), Some(DecisionKind::Defend));
    assert_eq!(
        refused(&mut s, 1, Decision::Defend(3)),
        Illegal::NotAttacked(3)
    );
    assert_eq!(
        refused(&mut s, 1, Decision::Defend(0)),
        Illegal::NotYourShip(0)
    );
    s.apply(1, &Decision::Defend(2)).unwrap();
    // 4H against AS: 3 unblocked, the fighter has 2 cards left: destroyed; then ship 2 auto.
    assert!(!s.ships()[2].alive);
    assert_eq!(s.pending_for(1), Some(DecisionKind::Block));
}

#[test]
fn repairs_are_capped_at_size() {
    let mut s = table(
        &[
            (0, FIGHTER, "2D 3C 4C"),
            (0, FIGHTER, "5D 6C"),
            (1, BS, "2S 3S 4S 5S 6S 7S 8S 9S TS"),
        ],
        "AC 2C 3C 4C",
    );
    attack(&mut s, 0, vec![]);
    // Seat 2 cannot attack (no attack cards): its Tactical step was submitted for it.
    assert_eq!(s.round(), 2);
    assert_eq!(s.ships()[0].hull.len(), 3);
    assert_eq!(s.ships()[1].hull.len(), 3);
    assert_eq!(s.ships()[2].hull.len(), 9);
    assert_eq!(s.draw_pile().len(), 3);
}

#[test]
fn empty_draw_pile_is_refilled_from_the_shuffled_discards() {
    let mut s = table(&[(0, BS, "9D 2C"), (1, BS, "AS 2S 3S 4S 5S")], "");
    attack(&mut s, 0, vec![atk(0, "9D", 1)]);
    attack(&mut s, 1, vec![]);
    // Seat 2 must block 9 with 1+2+3+4+5 = 15: minimal sets exist.
    s.apply(1, &Decision::Block(cs("5S 4S"))).unwrap();
    // Discards: 9D, 5S, 4S. Engineering: both ships draw from the reshuffled discard pile.
    assert_eq!(s.round(), 2);
    assert_eq!(s.ships()[0].hull.len(), 2);
    assert_eq!(s.ships()[1].hull.len(), 4);
    assert_eq!(s.draw_pile().len() + s.discard_pile().len(), 1);
    let mut drawn: Vec<Card> = s.ships()[0]
        .hull
        .iter()
        .chain(&s.ships()[1].hull)
        .copied()
        .collect();
    drawn.sort();
    let mut expect = cs("2C AS 2S 3S");
    expect.sort();
    assert!(expect.iter().all(|c| drawn.contains(c)));
    // Nothing left anywhere: no card is drawn.
    let mut t = table(&[(0, FIGHTER, "2C"), (1, FIGHTER, "3C")], "");
    attack(&mut t, 0, vec![]);
    assert_eq!(t.ships()[0].hull.len(), 1);
}

#[test]
fn simultaneous_wipe_out_is_a_draw() {
    let mut s = table(&[(0, BS, "8D AC"), (1, BS, "8D AC")], "");
    attack(&mut s, 0, vec![atk(0, "8D", 1)]);
    attack(&mut s, 1, vec![atk(1, "8D", 0)]);
    assert_eq!(s.outcome(), Some(Outcome::Draw(0b11)));
    assert_eq!(Outcome::Draw(0b11).reward(0), 0.5);
}

#[test]
fn round_limit_ends_in_a_draw() {
    let rules = Ruleset {
        round_limit: 3,
        ..Ruleset::default()
    };
    let s = table_with(rules, &[(0, BS, "2C 3C"), (1, BS, "4C 5C")], "");
    // Nobody can attack: rounds pass on their own until the limit; the game ended in round 3.
    assert_eq!(s.outcome(), Some(Outcome::Draw(0b11)));
    assert_eq!(s.round(), 3);
    let seen = Observation::of(&s, 0);
    assert_eq!(
        seen.round(),
        3,
        "the last round played, not one beyond the limit"
    );
}

#[test]
fn setup_class_choice_split_and_reveal() {
    let mut s = State::new(3, 11).unwrap();
    let mut pend = Vec::new();
    s.pending(&mut pend);
    assert_eq!(pend.len(), 3);
    for seat in 0..3u8 {
        let hand = s.hand(seat as usize).to_vec();
        assert_eq!(hand.len(), 10);
        let not_queen = *hand.iter().find(|c| c.rank() != Some(12)).unwrap();
        assert_eq!(
            refused(
                &mut s,
                seat,
                Decision::Class {
                    class: 0,
                    card: not_queen
                }
            ),
            Illegal::WrongMarker(not_queen)
        );
        let missing = Card::all().find(|c| !hand.contains(c)).unwrap();
        assert_eq!(
            refused(
                &mut s,
                seat,
                Decision::Class {
                    class: 2,
                    card: missing
                }
            ),
            Illegal::NotHeld(missing)
        );
        s.apply(
            seat,
            &Decision::Class {
                class: FIGHTER,
                card: hand[0],
            },
        )
        .unwrap();
        if seat < 2 {
            assert_eq!(
                s.step(),
                Step::Class,
                "choices stay hidden until all are in"
            );
        }
    }
    assert_eq!(s.step(), Step::Split);
    assert_eq!(
        s.discard_pile().len(),
        3,
        "fighter ship cards are discarded on reveal"
    );
    let hand = s.hand(0).to_vec();
    assert_eq!(hand.len(), 9);
    let bad = Decision::Split(vec![
        hand[..4].to_vec(),
        hand[4..6].to_vec(),
        hand[6..].to_vec(),
    ]);
    assert_eq!(refused(&mut s, 0, bad), Illegal::BadPile(0));
    for seat in 0..3u8 {
        let h = s.hand(seat as usize).to_vec();
        s.apply(
            seat,
            &Decision::Split(vec![h[..3].to_vec(), h[3..6].to_vec(), h[6..].to_vec()]),
        )
        .unwrap();
    }
    assert_eq!(s.ships().len(), 9);
    assert!(s
        .ships()
        .iter()
        .all(|sh| sh.size == 3 && sh.hull.len() == 3));
    assert_eq!(s.round(), 1);
}

#[test]
fn replay_is_deterministic() {
    use orrery::engines::spacewars::make_player;
    use orrery::engines::spacewars::selfplay::play_game;
    use orrery::search::ismcts::SearchBudget as Budget;
    for seed in 0..6u64 {
        let run = || {
            let mut ps: Vec<_> = ["random", "heuristic", "random"]
                .iter()
                .enumerate()
                .map(|(i, n)| make_player(n, seed * 7 + i as u64).unwrap())
                .collect();
            play_game(&mut ps, seed, &[Budget::iterations(1)]).unwrap()
        };
        let (a, b) = (run(), run());
        assert_eq!(a.record, b.record);
        let replayed = a.record.replay().unwrap();
        assert_eq!(replayed.outcome(), Some(a.outcome));
        let mut broken: Record = a.record.clone();
        broken.seed += 1;
        assert!(broken.replay().is_err() || broken.replay().unwrap().outcome().is_some());
    }
    let (x, y) = (State::new(4, 99).unwrap(), State::new(4, 99).unwrap());
    assert_eq!(x.draw_pile(), y.draw_pile());
    assert_ne!(x.draw_pile(), State::new(4, 98).unwrap().draw_pile());
}
