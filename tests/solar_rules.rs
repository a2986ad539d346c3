//! Rules scenarios, position strings, move texts and the search bindings of Solar Chess.

use orrery::games::solar::{
    Colour, DrawReason, Kind, Move, MoveError, Position, Seat, Status, Tile, SETUPS,
};
use orrery::search::{MultiSided, TwoSided, DRAW, MATE};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

fn pos(s: &str) -> Position {
    s.parse().unwrap_or_else(|e| panic!("{e}: {s}"))
}

fn tile(n: &str) -> Tile {
    Tile::from_name(n).unwrap()
}

/// An empty tile the piece on `from` can reach, other than the ones listed.
fn reachable(p: &Position, from: &str, avoid: &[&str]) -> Tile {
    let piece = p.piece_at(tile(from)).unwrap();
    let t = p.targets(tile(from), piece);
    Tile::all()
        .find(|x| t.quiet & x.bit() != 0 && !avoid.contains(&x.name()))
        .expect("a reachable tile")
}

/// Positions from seeded random games (captures preferred), for property tests.
fn random_positions(n_games: u64) -> Vec<Position> {
    let mut out = Vec::new();
    let mut moves = Vec::new();
    for g in 0..n_games {
        let setup = SETUPS[g as usize % SETUPS.len()].name;
        let mut rng = ChaCha8Rng::seed_from_u64(77 + g);
        let mut p = Position::from_setup(setup).unwrap();
        for ply in 0..160 {
            p.legal_moves(&mut moves);
            if moves.is_empty() {
                break;
            }
            let caps: Vec<Move> = moves
                .iter()
                .copied()
                .filter(|m| p.capture_value(*m) > 0)
                .collect();
            let mv = if !caps.is_empty() && rng.gen_bool(0.5) {
                caps[rng.gen_range(0..caps.len())]
            } else {
                moves[rng.gen_range(0..moves.len())]
            };
            p.make(mv);
            if ply % 20 == 19 {
                out.push(p.clone());
            }
        }
    }
    out
}

#[test]
fn duel_start_string() {
    let p = Position::from_setup("duel").unwrap();
    assert_eq!(
        p.to_string(),
        "board=f6:Sk2,n3:Sw1 hands=2Ow2Mw2Fw/2Ok2Mk2Fk teams=1/2 turn=1 out=- clock=0 ply=0"
    );
    let t = Position::from_setup("teams-3x2").unwrap().to_string();
    assert!(t.contains("teams=14/25/36"), "{t}");
    assert!(Position::from_setup("chess")
        .unwrap_err()
        .message
        .contains("unknown setup"));
}

#[test]
fn white_moves_first_in_every_setup() {
    for spec in SETUPS {
        let p = Position::from_setup(spec.name).unwrap();
        let seat = p.to_move();
        assert_eq!(p.ship_owner(Colour::White), Some(seat), "{}", spec.name);
        assert_eq!(p.seats(), spec.ships.len());
        assert!(!p.to_string().contains("moves"));
    }
}

#[test]
fn position_strings_round_trip() {
    let mut all: Vec<Position> = SETUPS
        .iter()
        .map(|s| Position::from_setup(s.name).unwrap())
        .collect();
    all.extend(random_positions(20));
    assert!(all
        .iter()
        .any(|p| Tile::all().any(|t| p.piece_at(t).is_some_and(|q| q.owner.is_none()))));
    for p in all {
        let s = p.to_string();
        let q: Position = s.parse().unwrap();
        assert_eq!(q, p, "{s}");
        assert_eq!(q.to_string(), s);
        assert_eq!(q.key(), p.key(), "{s}");
        assert!(!s.contains("moves") && !s.contains('\n'));
    }
}

#[test]
fn bad_position_strings_are_refused_with_the_field() {
    let good = "board=f6:Sk2,n3:Sw1 hands=2Ow2Mw2Fw/2Ok2Mk2Fk teams=1/2 turn=1 out=- clock=0 ply=0";
    assert!(good.parse::<Position>().is_ok());
    let cases = [
        ("", "position"),
        ("board=f6:Sk2,n3:Sw1", "position"),
        (
            "board=z9:Sk2,n3:Sw1 hands=-/- teams=1/2 turn=1 out=- clock=0 ply=0",
            "board",
        ),
        (
            "board=f6:Sk2,f6:Sw1 hands=-/- teams=1/2 turn=1 out=- clock=0 ply=0",
            "board",
        ),
        (
            "board=f6:Sk2,n3:Sk1 hands=-/- teams=1/2 turn=1 out=- clock=0 ply=0",
            "board",
        ),
        (
            "board=f6:Sk-,n3:Sw1 hands=-/- teams=1/2 turn=1 out=- clock=0 ply=0",
            "board",
        ),
        (
            "board=f6:Xk2,n3:Sw1 hands=-/- teams=1/2 turn=1 out=- clock=0 ply=0",
            "board",
        ),
        (
            "board=f6:Sq2,n3:Sw1 hands=-/- teams=1/2 turn=1 out=- clock=0 ply=0",
            "board",
        ),
        (
            "board=f6:Sk3,n3:Sw1 hands=-/- teams=1/2 turn=1 out=- clock=0 ply=0",
            "board",
        ),
        (
            "board=f6:Sk2,n3:Sw1 hands=2Sw/- teams=1/2 turn=1 out=- clock=0 ply=0",
            "hands",
        ),
        (
            "board=f6:Sk2,n3:Sw1 hands=2Ow2Ow/- teams=1/2 turn=1 out=- clock=0 ply=0",
            "hands",
        ),
        (
            "board=f6:Sk2,n3:Sw1 hands=Ow/- teams=1/2 turn=1 out=- clock=0 ply=0",
            "hands",
        ),
        (
            "board=f6:Sk2,n3:Sw1 hands=- teams=1 turn=1 out=- clock=0 ply=0",
            "hands",
        ),
        (
            "board=f6:Sk2,n3:Sw1 hands=-/- teams=12/2 turn=1 out=- clock=0 ply=0",
            "teams",
        ),
        (
            "board=f6:Sk2,n3:Sw1 hands=-/- teams=1 turn=1 out=- clock=0 ply=0",
            "teams",
        ),
        (
            "board=f6:Sk2,n3:Sw1 hands=-/- teams=1/2 turn=3 out=- clock=0 ply=0",
            "turn",
        ),
        (
            "board=f6:Sk2,n3:Sw1 hands=-/- teams=1/2 turn=1 out=2 clock=0 ply=0",
            "out",
        ),
        (
            "board=n3:Sw1 hands=-/- teams=1/2 turn=1 out=- clock=0 ply=0",
            "out",
        ),
        (
            "board=n3:Sw1,j1:Ok2 hands=-/- teams=1/2 turn=1 out=2 clock=0 ply=0",
            "board",
        ),
        (
            "board=n3:Sw1 hands=-/1Fk teams=12 turn=1 out=- clock=0 ply=0",
            "hands",
        ),
        (
            "board=f6:Sk2,n3:Sw1 hands=-/- teams=1/2 turn=1 out=- clock=x ply=0",
            "clock",
        ),
        (
            "board=f6:Sk2,n3:Sw1 hands=-/- teams=1/2 turn=1 out=- clock=0 ply=-1",
            "ply",
        ),
        (
            "board=j1:Ow1 hands=-/- teams=1/2 turn=1 out=12 clock=0 ply=0",
            "board",
        ),
        (
            "hands=-/- board=f6:Sk2,n3:Sw1 teams=1/2 turn=1 out=- clock=0 ply=0",
            "board",
        ),
    ];
    for (s, field) in cases {
        let e = s.parse::<Position>().expect_err(s);
        assert_eq!(e.field, field, "{s}: {e}");
        assert!(!e.to_string().is_empty());
    }
}

#[test]
fn garbage_never_panics() {
    let good = "board=f6:Sk2,n3:Sw1 hands=2Ow2Mw2Fw/2Ok2Mk2Fk teams=1/2 turn=1 out=- clock=0 ply=0";
    let mut rng = ChaCha8Rng::seed_from_u64(5);
    let alphabet: Vec<char> = "=/:,-0123456789SOMFwkrugsabcdefghijklmnopqrs é"
        .chars()
        .collect();
    for _ in 0..3000 {
        let mut s: Vec<char> = good.chars().collect();
        for _ in 0..rng.gen_range(1..4) {
            let i = rng.gen_range(0..s.len());
            s[i] = alphabet[rng.gen_range(0..alphabet.len())];
        }
        let s: String = s.into_iter().collect();
        if let Ok(p) = s.parse::<Position>() {
            assert_eq!(p.to_string().parse::<Position>().unwrap(), p);
        }
    }
}

#[test]
fn every_legal_move_has_one_text_that_parses_back() {
    let mut moves = Vec::new();
    let mut positions = random_positions(20);
    positions.extend(SETUPS.iter().map(|s| Position::from_setup(s.name).unwrap()));
    for p in positions {
        p.legal_moves(&mut moves);
        let mut texts: Vec<String> = moves.iter().map(|m| m.to_string()).collect();
        for (m, t) in moves.iter().zip(&texts) {
            assert_eq!(p.parse_move(t), Ok(*m), "{t} in {p}");
            assert!(p.parse_move(&t.to_uppercase()).is_err() || t == &t.to_uppercase());
        }
        texts.sort();
        let n = texts.len();
        texts.dedup();
        assert_eq!(texts.len(), n, "duplicate move texts in {p}");
    }
}

#[test]
fn drops_and_recolouring() {
    // Seat 1 controls White and Gold, holds a White Fighter, a Red Orbiter and a Gold Missile.
    let p =
        pos("board=f6:Sk2,k1:Sg1,n3:Sw1 hands=1Or1Mg1Fw/- teams=1/2 turn=1 out=- clock=0 ply=0");
    let mut moves = Vec::new();
    p.legal_moves(&mut moves);
    let drops: Vec<String> = moves
        .iter()
        .filter(|m| matches!(m, Move::Drop { .. }))
        .map(|m| m.to_string())
        .collect();
    // Fighter w only next to White (9 tiles at most), Missile g only next to Gold, Orbiter r
    // recoloured to either.
    assert!(drops.iter().any(|d| d.starts_with("Fw@")));
    assert!(drops.iter().all(|d| !d.starts_with("Fwg")));
    assert!(
        drops.iter().any(|d| d.starts_with("Orw@")) && drops.iter().any(|d| d.starts_with("Org@"))
    );
    assert!(drops.iter().all(|d| !d.starts_with("Or@")));
    let n3 = tile("n3");
    let g = orrery::games::solar::Geometry::get();
    for d in &drops {
        let mv = p.parse_move(d).unwrap();
        if let Move::Drop {
            kind: Kind::Orbiter,
            colour: Colour::White,
            to,
            ..
        } = mv
        {
            assert!(g.edge_neighbours(n3.0).contains(&to.0));
        }
    }
    let near = Tile(g.edge_neighbours(n3.0)[0]);
    let far = tile("a3");
    assert_eq!(
        p.parse_move(&format!("Or@{near}")),
        Err(MoveError::MustRecolour(Colour::Red))
    );
    assert_eq!(
        p.parse_move(&format!("Fwg@{near}")),
        Err(MoveError::CannotRecolour(Colour::White))
    );
    assert_eq!(
        p.parse_move(&format!("Fww@{near}")),
        Err(MoveError::SameColour(Colour::White))
    );
    assert_eq!(
        p.parse_move(&format!("Oru@{near}")),
        Err(MoveError::NoShipOfColour(Colour::Blue))
    );
    assert_eq!(
        p.parse_move(&format!("Ok@{near}")),
        Err(MoveError::NotInHand(Kind::Orbiter, Colour::Black))
    );
    assert_eq!(
        p.parse_move(&format!("Sw@{near}")),
        Err(MoveError::DropMothership)
    );
    assert!(matches!(
        p.parse_move(&format!("Fw@{far}")),
        Err(MoveError::NotNextToShip { .. })
    ));
    assert_eq!(p.parse_move("Fw@n3"), Err(MoveError::Occupied(n3)));
    assert!(matches!(p.parse_move("Fw@zz"), Err(MoveError::Syntax(_))));
    // The drop recolours the piece and takes it from hand.
    let mut q = p.clone();
    q.make(p.parse_move(&format!("Orw@{near}")).unwrap());
    let placed = q.piece_at(near).unwrap();
    assert_eq!(
        (placed.kind, placed.colour, placed.owner),
        (Kind::Orbiter, Colour::White, Some(0))
    );
    assert_eq!(q.hand(0).count(Kind::Orbiter, Colour::Red), 0);
    q.unmake();
    assert_eq!(q, p);
}

#[test]
fn step_errors_and_passes() {
    let p = Position::from_setup("duel").unwrap();
    assert_eq!(p.parse_move("j1j2"), Err(MoveError::NoPiece(tile("j1"))));
    let mut played = p.clone();
    assert!(played.play("n3a3").is_err());
    assert_eq!(played, p, "a refused move changes nothing");
    assert_eq!(
        played.play("n3j4"),
        Ok(Move::Step {
            from: tile("n3"),
            to: tile("j4")
        })
    );
    assert_eq!(played.to_move(), 1);
    assert_eq!(
        p.parse_move("f6f5"),
        Err(MoveError::NotYours(tile("f6"), Some(1)))
    );
    assert_eq!(p.parse_move("0000"), Err(MoveError::PassNotAllowed));
    assert!(matches!(p.parse_move("n3"), Err(MoveError::Syntax(_))));
    assert!(matches!(
        p.parse_move("n3a3"),
        Err(MoveError::Unreachable(..))
    ));
    assert_eq!(
        p.parse_move_for(1, "f6f5"),
        Err(MoveError::NotYourTurn {
            seat: 1,
            to_move: 0
        })
    );
    // An eliminated seat and an inactive piece.
    let q = pos("board=j1:Ok-,k1:Sg3,n3:Sw1 hands=-/-/- teams=1/2/3 turn=1 out=2 clock=0 ply=9");
    assert_eq!(q.parse_move_for(1, "j1j2"), Err(MoveError::Eliminated(1)));
    assert_eq!(
        q.parse_move("j1j2"),
        Err(MoveError::NotYours(tile("j1"), None))
    );
    // A seat with nothing to do must pass: team play, seat 1 without Motherships or pieces.
    let r = pos("board=f6:Sk2,k1:Sg3 hands=-/-/- teams=13/2 turn=1 out=- clock=0 ply=9");
    let mut moves = Vec::new();
    r.legal_moves(&mut moves);
    assert_eq!(moves, vec![Move::Pass]);
    assert_eq!(r.parse_move("0000"), Ok(Move::Pass));
    let mut r2 = r.clone();
    r2.make(Move::Pass);
    assert_eq!(r2.to_move(), 1);
}

#[test]
fn docking_own_and_teammate() {
    // Seat 1 (no Mothership) and seat 3 (Gold) are a team; seat 1's Orbiter docks at Gold.
    let base = pos("board=f6:Sk2,k1:Sg3 hands=-/-/- teams=13/2 turn=1 out=- clock=0 ply=0");
    let orb = Tile::all()
        .find(|&t| {
            base.piece_at(t).is_none() && {
                let o = orrery::games::solar::Piece {
                    kind: Kind::Orbiter,
                    colour: Colour::Red,
                    owner: Some(0),
                };
                base.targets(t, o).docks & tile("k1").bit() != 0
            }
        })
        .unwrap();
    let p = pos(&format!(
        "board=f6:Sk2,k1:Sg3,{orb}:Or1 hands=-/-/- teams=13/2 turn=1 out=- clock=0 ply=0"
    ));
    let mv = p.parse_move(&format!("{orb}k1")).unwrap();
    assert_eq!(
        mv,
        Move::Dock {
            from: orb,
            to: tile("k1")
        }
    );
    let mut q = p.clone();
    q.make(mv);
    assert!(q.piece_at(orb).is_none());
    assert_eq!(
        q.hand(2).count(Kind::Orbiter, Colour::Gold),
        1,
        "to the teammate's hand, recoloured"
    );
    assert_eq!(q.hand(0).total(), 0);
    // The Mothership-less seat cannot drop.
    let r = pos("board=f6:Sk2,k1:Sg3 hands=-/-/1Fg teams=13/2 turn=1 out=- clock=0 ply=0");
    assert_eq!(r.parse_move("Fg@k2"), Err(MoveError::NoShipToDrop));
    // Docking onto a non-Mothership piece of one's own is refused.
    let s = pos(&format!(
        "board=f6:Sk2,k1:Sg3,{orb}:Or3,n3:Sw1 hands=-/-/- teams=1/2/3 turn=3 out=- clock=0 ply=0"
    ));
    let ship_target = reachable(&s, "k1", &[]);
    let s2 = pos(&format!(
        "board=f6:Sk2,k1:Sg3,{ship_target}:Fg3,n3:Sw1 hands=-/-/- teams=1/2/3 turn=3 out=- clock=0 ply=0"
    ));
    assert_eq!(
        s2.parse_move(&format!("k1{ship_target}")),
        Err(MoveError::OwnPiece(ship_target))
    );
}

#[test]
fn mothership_captures_move_hands_and_eliminate() {
    // White (seat 1) can capture the Black Mothership; Black also holds Silver.
    let start = Position::from_setup("duel").unwrap();
    let t = reachable(&start, "n3", &[]);
    let two = pos(&format!(
        "board=i4:Ss2,n3:Sw1,{t}:Sk2 hands=1Fw/2Ok1Ms1Fr teams=1/2 turn=1 out=- clock=5 ply=10"
    ));
    let mut p = two.clone();
    p.make(p.parse_move(&format!("n3{t}")).unwrap());
    // Not the last Mothership: only Black pieces pass, colour unchanged.
    assert_eq!(p.hand(0).count(Kind::Orbiter, Colour::Black), 2);
    assert_eq!(p.hand(0).count(Kind::Missile, Colour::Silver), 0);
    assert_eq!(p.hand(1).count(Kind::Missile, Colour::Silver), 1);
    assert_eq!(p.hand(1).count(Kind::Fighter, Colour::Red), 1);
    assert_eq!(p.no_capture_plies(), 0);
    assert_eq!(p.status(), Status::Ongoing);
    assert_eq!(p.to_move(), 1);
    p.unmake();
    assert_eq!(p, two);

    // The last Mothership: everything passes, recoloured to Black, and the game is won.
    let one = pos(&format!(
        "board=j1:Ok2,n3:Sw1,{t}:Sk2 hands=1Fw/2Ok1Ms1Fr teams=1/2 turn=1 out=- clock=5 ply=10"
    ));
    let mut p = one.clone();
    p.make(p.parse_move(&format!("n3{t}")).unwrap());
    assert_eq!(p.hand(0).count(Kind::Orbiter, Colour::Black), 2);
    assert_eq!(p.hand(0).count(Kind::Missile, Colour::Black), 1);
    assert_eq!(p.hand(0).count(Kind::Fighter, Colour::Black), 1);
    assert_eq!(p.hand(0).count(Kind::Fighter, Colour::White), 1);
    assert!(p.is_eliminated(1));
    assert_eq!(
        p.piece_at(tile("j1")).unwrap().owner,
        None,
        "inactive piece"
    );
    assert_eq!(p.status(), Status::Won { team: 0 });
    assert_eq!(p.seats_of_team(0).collect::<Vec<_>>(), [0]);
    let mut moves = Vec::new();
    p.legal_moves(&mut moves);
    assert!(moves.is_empty());
    assert_eq!(p.parse_move("0000"), Err(MoveError::GameOver));
    // Two-sided view: the loser is to move and sees a lost game.
    assert_eq!(p.to_move(), 1);
    assert_eq!(TwoSided::rule_outcome(&p), Some(-MATE));
    let mut rewards = [0.5f32; 2];
    assert!(MultiSided::outcome(&p, &mut rewards));
    assert_eq!(rewards, [1.0, 0.0]);
    p.unmake();
    assert_eq!(p, one);
}

#[test]
fn three_players_skip_the_eliminated_and_inactive_pieces_are_capturable() {
    let start = Position::from_setup("duel").unwrap();
    let t = reachable(&start, "n3", &[]);
    let p0 = pos(&format!(
        "board=k1:Sg3,n3:Sw1,{t}:Sk2,j1:Ok2 hands=-/1Ok/- teams=1/2/3 turn=1 out=- clock=0 ply=0"
    ));
    let mut p = p0.clone();
    p.make(p.parse_move(&format!("n3{t}")).unwrap());
    assert!(p.is_eliminated(1));
    assert_eq!(p.to_move(), 2, "seat 2 is skipped");
    assert_eq!(p.status(), Status::Ongoing);
    assert_eq!(p.piece_at(tile("j1")).unwrap().owner, None);
    // The string says so.
    let s = p.to_string();
    assert!(
        s.contains("j1:Ok-") && s.contains("out=2") && s.contains("turn=3"),
        "{s}"
    );
    // Whoever can reach the inactive piece may capture it, to hand.
    let mut moves = Vec::new();
    p.legal_moves(&mut moves);
    let mut any = false;
    for m in &moves {
        if m.to() == Some(tile("j1")) {
            let mut q = p.clone();
            q.make(*m);
            assert_eq!(q.hand(2).count(Kind::Orbiter, Colour::Black), 1);
            any = true;
        }
    }
    let ok = Tile::all().all(|x| p.piece_at(x).is_none_or(|pc| pc.owner != Some(1)));
    assert!(ok);
    assert!(any, "the Gold Mothership reaches j1 round planet f");
}

#[test]
fn shipless_team_member_captures_leave_the_game() {
    // Seat 1 (no Mothership) shares a team with seat 3 (Gold); seat 1's Fighter captures.
    let base = pos("board=f6:Sk2,k1:Sg3 hands=-/-/- teams=13/2 turn=1 out=- clock=0 ply=0");
    let fighter = orrery::games::solar::Piece {
        kind: Kind::Fighter,
        colour: Colour::White,
        owner: Some(0),
    };
    let (from, to) = Tile::all()
        .filter(|&a| base.piece_at(a).is_none())
        .find_map(|a| {
            let t = base.targets(a, fighter);
            Tile::all()
                .find(|&b| t.quiet & b.bit() != 0 && b != tile("f6"))
                .map(|b| (a, b))
        })
        .unwrap();
    let p = pos(&format!(
        "board=f6:Sk2,k1:Sg3,{from}:Fw1,{to}:Ok2 hands=-/-/- teams=13/2 turn=1 out=- clock=7 ply=0"
    ));
    let mut q = p.clone();
    q.make(q.parse_move(&format!("{from}{to}")).unwrap());
    assert_eq!(
        q.hand(0).total() + q.hand(2).total(),
        0,
        "the captured piece left the game"
    );
    assert_eq!(q.no_capture_plies(), 0);
    q.unmake();
    assert_eq!(q, p);
}

#[test]
fn draw_by_no_capture_limit_and_threefold_repetition() {
    let mut p = pos("board=f6:Sk2,n3:Sw1 hands=-/- teams=1/2 turn=1 out=- clock=199 ply=0");
    assert_eq!(p.status(), Status::Ongoing);
    let a = reachable(&p, "n3", &[]);
    p.make(p.parse_move(&format!("n3{a}")).unwrap());
    assert_eq!(p.status(), Status::Drawn(DrawReason::NoCapture));
    p.set_draw_plies(300);
    assert_eq!(p.status(), Status::Ongoing);

    let mut p = Position::from_setup("duel").unwrap();
    let w = reachable(&p, "n3", &[]);
    let mut after = p.clone();
    after.make(p.parse_move(&format!("n3{w}")).unwrap());
    let b = reachable(&after, "f6", &[]);
    let cycle = [
        format!("n3{w}"),
        format!("f6{b}"),
        format!("{w}n3"),
        format!("{b}f6"),
    ];
    for round in 0..2 {
        for (i, m) in cycle.iter().enumerate() {
            let mv = p.parse_move(m).unwrap();
            p.make(mv);
            let last = round == 1 && i == 3;
            if !last {
                assert_eq!(p.status(), Status::Ongoing, "round {round} move {i}");
            }
        }
    }
    assert_eq!(p.status(), Status::Drawn(DrawReason::Repetition));
    assert_eq!(p.repetitions(), 2);
    // The search sees the first repetition as a draw already.
    p.unmake();
    p.unmake();
    p.unmake();
    p.unmake();
    assert_eq!(TwoSided::rule_outcome(&p), Some(DRAW));
}

#[test]
fn attack_detection_matches_move_generation() {
    for p in random_positions(24) {
        for t in Tile::all() {
            let Some(victim) = p.piece_at(t) else {
                continue;
            };
            let Some(owner) = victim.owner else { continue };
            let team = p.team(owner);
            let brute = Tile::all().any(|a| {
                p.piece_at(a).is_some_and(|q| {
                    q.owner.is_some_and(|o| p.team(o) != team)
                        && p.targets(a, q).captures & t.bit() != 0
                })
            });
            assert_eq!(p.attacked_by_enemy(t, team), brute, "{t} in {p}");
        }
    }
}

#[test]
fn keys_follow_the_position() {
    for p in random_positions(10) {
        let fresh: Position = p.to_string().parse().unwrap();
        assert_eq!(fresh.key(), p.key());
        let occ = Tile::all()
            .filter(|&t| p.piece_at(t).is_some())
            .fold(0u128, |m, t| m | t.bit());
        assert_eq!(p.occupied(), occ, "occupancy kept in step with the board");
        let mut moved = p.clone();
        let mut moves = Vec::new();
        moved.legal_moves(&mut moves);
        if let Some(&m) = moves.first() {
            moved.make(m);
            assert_ne!(moved.key(), p.key());
        }
    }
}

#[test]
fn two_sided_setups_and_trait_views() {
    let two: Vec<&str> = SETUPS
        .iter()
        .filter(|s| Position::from_setup(s.name).unwrap().is_two_sided())
        .map(|s| s.name)
        .collect();
    assert_eq!(two, ["duel", "duel-2", "duel-3", "teams-2x2", "teams-2x3"]);
    let mut p = Position::from_setup("teams-2x2").unwrap();
    assert_eq!(MultiSided::seats(&p), 4);
    assert_eq!(MultiSided::team(&p, 2), 0);
    assert_eq!(MultiSided::team(&p, 3), 1);
    assert!(!TwoSided::in_check(&p));
    assert!(TwoSided::make_null(&mut p));
    assert_eq!(Position::to_move(&p), 1);
    TwoSided::unmake_null(&mut p);
    assert_eq!(Position::to_move(&p), 0);
    assert_eq!(TwoSided::rule_outcome(&p), None);
    let e = TwoSided::evaluate(&p);
    assert!(e.abs() < 200, "symmetric start evaluates near 0: {e}");
    let mut moves = Vec::new();
    TwoSided::legal_moves(&p, &mut moves);
    let idx: Vec<usize> = moves
        .iter()
        .map(|m| TwoSided::history_index(&p, *m))
        .collect();
    assert!(idx.iter().all(|&i| i < TwoSided::history_size(&p)));
    // A lone Mothership under attack is "in check".
    let start = Position::from_setup("duel").unwrap();
    let t = reachable(&start, "n3", &[]);
    let q = pos(&format!(
        "board=f6:Sk2,{t}:Ok2,n3:Sw1 hands=-/- teams=1/2 turn=1 out=- clock=0 ply=0"
    ));
    let attacked = q.attacked_by_enemy(tile("n3"), 0);
    assert_eq!(TwoSided::in_check(&q), attacked);
    let seat: Seat = 0;
    assert!(MultiSided::evaluate_for(&q, seat as usize) < MultiSided::evaluate_for(&q, 1));
}

/// A plain negamax over the `TwoSided` view, to check the sign conventions a search relies on.
fn negamax(p: &mut Position, depth: u32) -> i32 {
    if let Some(s) = TwoSided::rule_outcome(p) {
        return s;
    }
    if depth == 0 {
        return TwoSided::evaluate(p);
    }
    let mut moves = Vec::new();
    TwoSided::legal_moves(p, &mut moves);
    let mut best = -orrery::search::INFINITY;
    for m in moves {
        TwoSided::make(p, m);
        best = best.max(-negamax(p, depth - 1));
        TwoSided::unmake(p);
    }
    best
}

#[test]
fn a_search_finds_the_winning_capture_from_either_side() {
    let start = Position::from_setup("duel").unwrap();
    let t = reachable(&start, "n3", &[]);
    for turn in [1, 2] {
        // Each Mothership can take the other (they share a line); the side to move wins.
        let mut p = pos(&format!(
            "board=n3:Sw1,{t}:Sk2 hands=-/- teams=1/2 turn={turn} out=- clock=0 ply=0"
        ));
        assert_eq!(negamax(&mut p, 1), MATE, "turn {turn}");
        let mut moves = Vec::new();
        p.legal_moves(&mut moves);
        let winning: Vec<Move> = moves
            .into_iter()
            .filter(|&m| {
                p.make(m);
                let won = p.is_over();
                p.unmake();
                won
            })
            .collect();
        assert_eq!(winning.len(), 1);
    }
    // In teams-2x2 the same holds with a whole team as one side.
    let q = pos(&format!(
        "board=n3:Sw1,{t}:Su4,e5:Sr2,f6:Sk3 hands=-/-/-/- teams=13/24 turn=1 out=- clock=0 ply=0"
    ));
    let mut q2 = q.clone();
    // White takes Blue; Red remains, so no win yet, but the material swing shows in the score.
    assert!(negamax(&mut q2, 1) > 1000);
}

#[test]
fn the_six_start_tiles_are_equivalent() {
    // The board and start tiles are symmetric under rotation by 60°, so every seat of `six`
    // starts with the same evaluation and the same number of moves.
    let p = Position::from_setup("six").unwrap();
    let totals = p.team_totals();
    assert!(
        totals.iter().all(|&t| t == totals[0] && t > 0),
        "{totals:?}"
    );
    for seat in 0..6 {
        assert_eq!(MultiSided::evaluate_for(&p, seat), 0);
    }
    let mut counts = Vec::new();
    let mut moves = Vec::new();
    for turn in 1..=6 {
        let s = p.to_string().replace("turn=1", &format!("turn={turn}"));
        pos(&s).legal_moves(&mut moves);
        counts.push(moves.len());
    }
    assert!(counts.iter().all(|&c| c == 41), "{counts:?}");
}

#[test]
fn evaluation_sees_material_and_an_attacked_mothership() {
    let g = orrery::games::solar::Geometry::get();
    let base = "hands=-/- teams=1/2 turn=1 out=- clock=0 ply=0";
    // A Black Orbiter next to n3 along an orbit attacks the White Mothership; far away it does not.
    let near = Tile(g.orbit_rays(tile("n3").0)[0].tiles()[0]);
    let attacked = pos(&format!("board=f6:Sk2,n3:Sw1,{near}:Ok2 {base}"));
    assert!(attacked.attacked_by_enemy(tile("n3"), 0));
    let far = Tile::all()
        .find(|&t| {
            t != tile("f6") && t != tile("n3") && {
                let q = pos(&format!("board=f6:Sk2,n3:Sw1,{t}:Ok2 {base}"));
                !q.attacked_by_enemy(tile("n3"), 0)
            }
        })
        .unwrap();
    let quiet = pos(&format!("board=f6:Sk2,n3:Sw1,{far}:Ok2 {base}"));
    assert!(
        attacked.evaluate_team(0) < quiet.evaluate_team(0) - 300,
        "{} vs {}",
        attacked.evaluate_team(0),
        quiet.evaluate_team(0)
    );
    // A piece more in hand is worth about its value.
    let plain = pos(&format!("board=f6:Sk2,n3:Sw1 {base}"));
    let richer = pos("board=f6:Sk2,n3:Sw1 hands=1Ow/- teams=1/2 turn=1 out=- clock=0 ply=0");
    let gain = richer.evaluate_team(0) - plain.evaluate_team(0);
    assert!((450..700).contains(&gain), "{gain}");
    assert_eq!(richer.evaluate_team(1), -richer.evaluate_team(0));
}
