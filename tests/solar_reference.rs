//! A deliberately simple second implementation of the Solar Chess rules, used to check the fast
//! move generator by perft divide.
//!
//! Its geometry is computed differently from `geometry.rs`: floating-point polygons like the SVG's;
//! orbits as the ring of kites around a planet walked in angular order; missile lines as runs of
//! equally spaced side midpoints; single steps through the centre as "the three kites of the planet
//! not touching this one". Its rules work on strings and copy the whole state for every move.

use orrery::games::solar::{Kind, Move, Position, Seat, Status, Tile, SETUPS};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::collections::{BTreeMap, BTreeSet};
use std::sync::OnceLock;

type P = (f64, f64);

const EPS: f64 = 1e-6;

fn same(a: P, b: P) -> bool {
    (a.0 - b.0).abs() < EPS && (a.1 - b.1).abs() < EPS
}

struct Kite {
    name: String,
    planet: P,
    h: P,
    s: [P; 2],
    t: P,
    k: usize,
}

impl Kite {
    fn points(&self) -> [P; 4] {
        [self.h, self.s[0], self.t, self.s[1]]
    }
}

struct Board {
    kites: Vec<Kite>,
    edge: Vec<BTreeSet<usize>>,
    vertex_only: Vec<BTreeSet<usize>>,
    /// Rings: kites around one planet in angular order.
    rings: Vec<Vec<usize>>,
}

fn shared(a: &Kite, b: &Kite) -> usize {
    a.points()
        .iter()
        .filter(|&&p| b.points().iter().any(|&q| same(p, q)))
        .count()
}

fn board() -> &'static Board {
    static B: OnceLock<Board> = OnceLock::new();
    B.get_or_init(|| {
        let r = 1.0f64;
        let big_r = 2.0 / 3f64.sqrt();
        let centre = |i: i32, j: i32| (2.0 * r * i as f64 + r * j as f64, 1.5 * big_r * j as f64);
        let hexdist = |i: i32, j: i32| (i.abs() + j.abs() + (i + j).abs()) / 2;
        let mut planets: Vec<P> = Vec::new();
        let mut all_planets: Vec<P> = Vec::new();
        for i in -4..=4 {
            for j in -4..=4 {
                if hexdist(i, j) <= 2 {
                    planets.push(centre(i, j));
                }
                if hexdist(i, j) <= 3 {
                    all_planets.push(centre(i, j));
                }
            }
        }
        planets.sort_by(|a, b| {
            (
                -(a.1 * 1000.0).round() as i64,
                (a.0 * 1000.0).round() as i64,
            )
                .cmp(&(
                    -(b.1 * 1000.0).round() as i64,
                    (b.0 * 1000.0).round() as i64,
                ))
        });
        let inside = |p: P| {
            (0..6).all(|m| {
                let a = (30.0 + 60.0 * m as f64).to_radians();
                p.0 * a.cos() + p.1 * a.sin() < 4.0 * r * 30f64.to_radians().cos() - EPS
            })
        };
        let pol = |c: P, rad: f64, deg: f64| {
            (
                c.0 + rad * deg.to_radians().cos(),
                c.1 + rad * deg.to_radians().sin(),
            )
        };
        let mut kites = Vec::new();
        for (pi, &c) in planets.iter().enumerate() {
            for k in 1..=6 {
                let th = 90.0 - 60.0 * (k as f64 - 1.0);
                let kite = Kite {
                    name: format!("{}{}", (b'a' + pi as u8) as char, k),
                    planet: c,
                    h: c,
                    s: [pol(c, r, th - 30.0), pol(c, r, th + 30.0)],
                    t: pol(c, big_r, th),
                    k,
                };
                let pts = kite.points();
                let cen = (
                    pts.iter().map(|p| p.0).sum::<f64>() / 4.0,
                    pts.iter().map(|p| p.1).sum::<f64>() / 4.0,
                );
                if inside(cen) {
                    kites.push(kite);
                }
            }
        }
        let n = kites.len();
        let mut edge = vec![BTreeSet::new(); n];
        let mut vertex_only = vec![BTreeSet::new(); n];
        for a in 0..n {
            for b in 0..n {
                if a != b {
                    match shared(&kites[a], &kites[b]) {
                        2 => {
                            edge[a].insert(b);
                        }
                        1 => {
                            vertex_only[a].insert(b);
                        }
                        _ => {}
                    }
                }
            }
        }
        let mut rings = Vec::new();
        for &c in &all_planets {
            // Kites outside the planet with a vertex on the midpoint of one of its sides.
            let mut ring: Vec<usize> = (0..n)
                .filter(|&x| {
                    !same(kites[x].planet, c)
                        && kites[x]
                            .s
                            .iter()
                            .any(|&s| ((s.0 - c.0).powi(2) + (s.1 - c.1).powi(2)).sqrt() - r < EPS)
                })
                .collect();
            let ang = |x: usize| {
                let p = kites[x].points();
                let cx = p.iter().map(|q| q.0).sum::<f64>() / 4.0 - c.0;
                let cy = p.iter().map(|q| q.1).sum::<f64>() / 4.0 - c.1;
                cy.atan2(cx)
            };
            ring.sort_by(|&a, &b| ang(a).partial_cmp(&ang(b)).unwrap());
            if !ring.is_empty() {
                rings.push(ring);
            }
        }
        Board {
            kites,
            edge,
            vertex_only,
            rings,
        }
    })
}

fn tile_id(name: &str) -> usize {
    board()
        .kites
        .iter()
        .position(|k| k.name == name)
        .unwrap_or_else(|| panic!("reference has no tile {name}"))
}

/// Orbiter paths from a tile: walk each ring through it both ways while neighbours are adjacent.
fn orbit_paths(from: usize) -> Vec<Vec<usize>> {
    let b = board();
    let mut out = Vec::new();
    for ring in &b.rings {
        let Some(i) = ring.iter().position(|&x| x == from) else {
            continue;
        };
        let len = ring.len() as isize;
        for dir in [-1isize, 1] {
            let mut path = Vec::new();
            let mut cur = from;
            let mut j = i as isize;
            loop {
                j = (j + dir).rem_euclid(len);
                let next = ring[j as usize];
                if next == from || !b.edge[cur].contains(&next) {
                    break;
                }
                path.push(next);
                cur = next;
            }
            if !path.is_empty() {
                out.push(path);
            }
        }
    }
    out
}

/// Missile paths: straight runs of side midpoints, and the three single steps through the centre.
fn missile_paths(from: usize) -> Vec<Vec<usize>> {
    let b = board();
    let k = &b.kites[from];
    let mut out = Vec::new();
    for (v, w) in [(k.s[0], k.s[1]), (k.s[1], k.s[0])] {
        let d = (v.0 - w.0, v.1 - w.1);
        let mut path = Vec::new();
        let mut p = v;
        loop {
            let q = (p.0 + d.0, p.1 + d.1);
            let next = (0..b.kites.len()).find(|&x| {
                let s = b.kites[x].s;
                (same(s[0], p) && same(s[1], q)) || (same(s[1], p) && same(s[0], q))
            });
            match next {
                Some(x) => path.push(x),
                None => break,
            }
            p = q;
        }
        if !path.is_empty() {
            out.push(path);
        }
    }
    for x in 0..b.kites.len() {
        let other = &b.kites[x];
        let diff = (other.k + 6 - k.k) % 6;
        if same(other.planet, k.planet) && (2..=4).contains(&diff) {
            out.push(vec![x]);
        }
    }
    out
}

#[derive(Clone, Debug, PartialEq)]
struct RPiece {
    kind: char,
    colour: char,
    owner: Option<usize>,
}

#[derive(Clone, Debug)]
struct RState {
    board: Vec<Option<RPiece>>,
    hands: Vec<BTreeMap<(char, char), u32>>,
    team: Vec<usize>,
    to_move: usize,
    out: Vec<bool>,
}

impl RState {
    fn from_fast(p: &Position) -> RState {
        let b = board();
        let mut board = vec![None; b.kites.len()];
        for t in Tile::all() {
            if let Some(pc) = p.piece_at(t) {
                board[tile_id(t.name())] = Some(RPiece {
                    kind: pc.kind.letter(),
                    colour: pc.colour.letter(),
                    owner: pc.owner.map(|o| o as usize),
                });
            }
        }
        let seats = p.seats();
        RState {
            board,
            hands: (0..seats)
                .map(|s| {
                    p.hand(s as Seat)
                        .entries()
                        .map(|(k, c, n)| ((k.letter(), c.letter()), n as u32))
                        .collect()
                })
                .collect(),
            team: (0..seats).map(|s| p.team(s as Seat) as usize).collect(),
            to_move: p.to_move() as usize,
            out: (0..seats).map(|s| p.is_eliminated(s as Seat)).collect(),
        }
    }

    fn ship_colours(&self, seat: usize) -> Vec<(char, usize)> {
        (0..self.board.len())
            .filter_map(|t| match &self.board[t] {
                Some(p) if p.kind == 'S' && p.owner == Some(seat) => Some((p.colour, t)),
                _ => None,
            })
            .collect()
    }

    fn live_teams(&self) -> BTreeSet<usize> {
        self.board
            .iter()
            .flatten()
            .filter(|p| p.kind == 'S')
            .filter_map(|p| p.owner.map(|o| self.team[o]))
            .collect()
    }

    fn moves(&self) -> BTreeSet<String> {
        let b = board();
        let mut out = BTreeSet::new();
        if self.live_teams().len() <= 1 {
            return out;
        }
        let seat = self.to_move;
        let team = self.team[seat];
        for from in 0..b.kites.len() {
            let Some(p) = &self.board[from] else { continue };
            if p.owner != Some(seat) {
                continue;
            }
            let mut paths = Vec::new();
            let (ok_orbit, ok_missile, far_orbit, far_missile) = match p.kind {
                'S' => (true, true, true, true),
                'O' => (true, false, true, false),
                'M' => (false, true, false, true),
                _ => (true, true, false, false),
            };
            if ok_orbit {
                paths.extend(orbit_paths(from).into_iter().map(|x| (x, far_orbit)));
            }
            if ok_missile {
                paths.extend(missile_paths(from).into_iter().map(|x| (x, far_missile)));
            }
            for (path, far) in paths {
                for &to in &path {
                    let name = format!("{}{}", b.kites[from].name, b.kites[to].name);
                    match &self.board[to] {
                        None => {
                            out.insert(name);
                        }
                        Some(q) => {
                            let friendly = q.owner.is_some_and(|o| self.team[o] == team);
                            if !friendly || (q.kind == 'S' && p.kind != 'S') {
                                out.insert(name);
                            }
                            break;
                        }
                    }
                    if !far {
                        break;
                    }
                }
            }
        }
        let ships = self.ship_colours(seat);
        for (&(kind, colour), &n) in &self.hands[seat] {
            if n == 0 {
                continue;
            }
            let matches = ships.iter().any(|&(c, _)| c == colour);
            for &(ship_colour, ship) in &ships {
                if matches && ship_colour != colour {
                    continue;
                }
                let near: BTreeSet<usize> = match kind {
                    'O' => b.edge[ship].clone(),
                    'M' => b.vertex_only[ship].clone(),
                    _ => b.edge[ship].union(&b.vertex_only[ship]).copied().collect(),
                };
                for to in near {
                    if self.board[to].is_none() {
                        let recol = if matches {
                            String::new()
                        } else {
                            ship_colour.to_string()
                        };
                        out.insert(format!("{kind}{colour}{recol}@{}", b.kites[to].name));
                    }
                }
            }
        }
        if out.is_empty() {
            out.insert("0000".to_string());
        }
        out
    }

    fn give(&mut self, seat: usize, kind: char, colour: char, n: u32) {
        *self.hands[seat].entry((kind, colour)).or_insert(0) += n;
    }

    fn play(&self, mv: &str) -> RState {
        let mut s = self.clone();
        let seat = self.to_move;
        if let Some((pc, to)) = mv.split_once('@') {
            let c: Vec<char> = pc.chars().collect();
            *s.hands[seat].get_mut(&(c[0], c[1])).expect("in hand") -= 1;
            s.board[tile_id(to)] = Some(RPiece {
                kind: c[0],
                colour: *c.get(2).unwrap_or(&c[1]),
                owner: Some(seat),
            });
        } else if mv != "0000" {
            let from = tile_id(&mv[..2]);
            let to = tile_id(&mv[2..]);
            let p = s.board[from].take().expect("piece");
            match s.board[to].clone() {
                None => s.board[to] = Some(p),
                Some(q) if q.owner.is_some_and(|o| self.team[o] == self.team[seat]) => {
                    // Dock: to the Mothership owner's hand in its colour.
                    s.give(q.owner.unwrap(), p.kind, q.colour, 1);
                }
                Some(q) => {
                    s.board[to] = Some(p);
                    let capturer_has_ship = !s.ship_colours(seat).is_empty();
                    if q.kind != 'S' {
                        if capturer_has_ship {
                            s.give(seat, q.kind, q.colour, 1);
                        }
                    } else {
                        let v = q.owner.expect("ships have owners");
                        let mut gained: Vec<(char, char, u32)> = Vec::new();
                        let last = s.ship_colours(v).is_empty();
                        for (&(k, c), &n) in &s.hands[v] {
                            if c == q.colour || last {
                                gained.push((k, q.colour, n));
                            }
                        }
                        if last {
                            s.hands[v].clear();
                        } else {
                            s.hands[v].retain(|&(_, c), _| c != q.colour);
                        }
                        if capturer_has_ship {
                            for (k, c, n) in gained {
                                s.give(seat, k, c, n);
                            }
                        }
                        let vt = s.team[v];
                        if !s.live_teams().contains(&vt) {
                            for x in 0..s.team.len() {
                                if s.team[x] == vt {
                                    s.out[x] = true;
                                }
                            }
                            for pc in s.board.iter_mut().flatten() {
                                if pc.owner.is_some_and(|o| s.team[o] == vt) {
                                    pc.owner = None;
                                }
                            }
                        }
                    }
                }
            }
        }
        let n = s.team.len();
        let mut next = seat;
        for _ in 0..n {
            next = (next + 1) % n;
            if !s.out[next] {
                break;
            }
        }
        s.to_move = next;
        s
    }

    fn perft(&self, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        let moves = self.moves();
        if depth == 1 {
            return moves.len() as u64;
        }
        moves.iter().map(|m| self.play(m).perft(depth - 1)).sum()
    }

    fn divide(&self, depth: u32) -> BTreeMap<String, u64> {
        self.moves()
            .into_iter()
            .map(|m| {
                let n = self.play(&m).perft(depth - 1);
                (m, n)
            })
            .collect()
    }
}

fn fast_divide(p: &mut Position, depth: u32) -> BTreeMap<String, u64> {
    let report = orrery::games::solar::perft_divide(p, depth);
    let mut map = BTreeMap::new();
    for (mv, n) in report.divide {
        assert!(
            map.insert(mv.to_string(), n).is_none(),
            "duplicate move {mv}"
        );
    }
    map
}

/// Plays every root move in both implementations and compares the resulting states; checks that
/// unmake restores the position and its key.
fn compare_children(p: &mut Position, label: &str) {
    let reference = RState::from_fast(p);
    let (before, key) = (p.to_string(), p.key());
    let mut moves = Vec::new();
    p.legal_moves(&mut moves);
    for mv in moves {
        p.make(mv);
        let fast = RState::from_fast(p);
        let refd = reference.play(&mv.to_string());
        let clean = |h: &Vec<BTreeMap<(char, char), u32>>| -> Vec<Vec<((char, char), u32)>> {
            h.iter()
                .map(|m| {
                    m.iter()
                        .filter(|e| *e.1 > 0)
                        .map(|(k, v)| (*k, *v))
                        .collect()
                })
                .collect()
        };
        assert_eq!(fast.board, refd.board, "{label} after {mv}: board");
        assert_eq!(
            clean(&fast.hands),
            clean(&refd.hands),
            "{label} after {mv}: hands ({before})"
        );
        assert_eq!(fast.out, refd.out, "{label} after {mv}: eliminated");
        if !p.is_over() {
            assert_eq!(
                fast.to_move, refd.to_move,
                "{label} after {mv}: seat to move"
            );
        }
        let reparsed: Position = p.to_string().parse().expect("position string round trip");
        assert_eq!(
            reparsed.key(),
            p.key(),
            "{label} after {mv}: key differs from a fresh one"
        );
        p.unmake();
        assert_eq!(p.to_string(), before, "{label}: unmake of {mv}");
        assert_eq!(p.key(), key, "{label}: key after unmake of {mv}");
    }
}

fn compare(p: &mut Position, depth: u32, label: &str) {
    let fast = fast_divide(p, depth);
    let reference = RState::from_fast(p).divide(depth);
    assert_eq!(fast, reference, "{label} depth {depth}: {p}");
    eprintln!(
        "{label} depth {depth}: {} moves, {} nodes",
        fast.len(),
        fast.values().sum::<u64>()
    );
}

#[test]
fn reference_board_has_the_same_tiles_and_neighbour_counts() {
    let b = board();
    assert_eq!(b.kites.len(), 72);
    for t in Tile::all() {
        tile_id(t.name());
    }
    let four = b.edge.iter().filter(|e| e.len() == 4).count();
    assert_eq!((four, b.kites.len() - four), (48, 24));
}

#[test]
fn setups_agree_with_the_reference_at_depth_1_and_2() {
    for spec in SETUPS {
        let mut p = Position::from_setup(spec.name).unwrap();
        for d in 1..=2 {
            compare(&mut p, d, spec.name);
        }
    }
}

#[test]
fn small_setups_agree_with_the_reference_at_depth_3() {
    for name in [
        "duel",
        "trio",
        "quad",
        "six",
        "teams-2x2",
        "teams-2x3",
        "teams-3x2",
    ] {
        let mut p = Position::from_setup(name).unwrap();
        compare(&mut p, 3, name);
    }
}

#[test]
fn two_mothership_setups_agree_with_the_reference_at_depth_3() {
    // About half a million leaves each; `duel-3` (1.8 million) is left to depth 2 for speed.
    for name in ["duel-2", "trio-2"] {
        let mut p = Position::from_setup(name).unwrap();
        compare(&mut p, 3, name);
    }
}

#[derive(Default, Debug)]
struct Features {
    recoloured_drops: u32,
    docks: u32,
    ship_captures: u32,
    eliminations: u32,
    with_inactive: u32,
    shipless_team_member: u32,
    passes: u32,
}

/// Plays a seeded random game, preferring captures, and keeps positions worth checking.
fn random_positions(setup: &str, seed: u64, plies: usize, f: &mut Features) -> Vec<Position> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut p = Position::from_setup(setup).unwrap();
    let mut kept = Vec::new();
    let mut moves = Vec::new();
    for ply in 0..plies {
        p.legal_moves(&mut moves);
        if moves.is_empty() {
            break;
        }
        let caps: Vec<Move> = moves
            .iter()
            .copied()
            .filter(|m| matches!(m, Move::Step { to, .. } if p.piece_at(*to).is_some()))
            .collect();
        let docks: Vec<Move> = moves
            .iter()
            .copied()
            .filter(|m| matches!(m, Move::Dock { .. }))
            .collect();
        let mv = if !caps.is_empty() && rng.gen_bool(0.6) {
            caps[rng.gen_range(0..caps.len())]
        } else if !docks.is_empty() && rng.gen_bool(0.15) {
            docks[rng.gen_range(0..docks.len())]
        } else {
            moves[rng.gen_range(0..moves.len())]
        };
        let before_out = (0..p.seats())
            .filter(|&s| p.is_eliminated(s as Seat))
            .count();
        let mut interesting = false;
        match mv {
            Move::Drop { hand, colour, .. } if hand != colour => {
                f.recoloured_drops += 1;
                interesting = true;
            }
            Move::Dock { .. } => {
                f.docks += 1;
                interesting = true;
            }
            Move::Step { to, .. } if p.piece_at(to).is_some_and(|q| q.kind == Kind::Mothership) => {
                f.ship_captures += 1;
                interesting = true;
            }
            Move::Pass => {
                f.passes += 1;
                interesting = true;
            }
            _ => {}
        }
        p.make(mv);
        let after_out = (0..p.seats())
            .filter(|&s| p.is_eliminated(s as Seat))
            .count();
        if after_out > before_out {
            f.eliminations += 1;
            interesting = true;
        }
        if p.status() != Status::Ongoing && !matches!(p.status(), Status::Won { .. }) {
            break;
        }
        let inactive = Tile::all().any(|t| p.piece_at(t).is_some_and(|q| q.owner.is_none()));
        let shipless = (0..p.seats() as Seat).any(|s| !p.is_eliminated(s) && !p.has_ship(s));
        if (interesting || ply % 23 == 22) && !p.is_over() {
            f.with_inactive += inactive as u32;
            f.shipless_team_member += shipless as u32;
            let mut copy: Position = p.to_string().parse().unwrap();
            copy.clear_undo();
            kept.push(copy);
        }
        if p.is_over() {
            break;
        }
    }
    kept
}

#[test]
fn random_positions_agree_with_the_reference() {
    let mut f = Features::default();
    let mut positions = Vec::new();
    let setups = [
        "six",
        "teams-3x2",
        "teams-2x2",
        "trio-2",
        "duel-2",
        "teams-2x3",
        "quad",
    ];
    for (i, setup) in setups.iter().cycle().take(28).enumerate() {
        let mut got = random_positions(setup, 1000 + i as u64, 300, &mut f);
        // Keep a bounded, spread-out sample of each game.
        let step = (got.len() / 4).max(1);
        positions.extend(got.drain(..).step_by(step).take(4));
    }
    assert!(positions.len() >= 30, "only {} positions", positions.len());
    assert!(f.recoloured_drops > 0, "{f:?}");
    assert!(f.docks > 0, "{f:?}");
    assert!(f.ship_captures > 0, "{f:?}");
    assert!(f.eliminations > 0, "{f:?}");
    assert!(f.with_inactive > 0, "{f:?}");
    assert!(f.shipless_team_member > 0, "{f:?}");
    eprintln!("{} positions, features {f:?}", positions.len());
    // What the checked positions themselves contain: at the root (exercised by the divide and the
    // child-state comparison) or one ply below (exercised by the depth-2 divide).
    #[derive(Default, Debug)]
    struct Checked {
        inactive_pieces: u32,
        shipless_team_member: u32,
        eliminated_seat: u32,
        recolouring_drop_at_root: u32,
        dock_at_root: u32,
        ship_capture_at_root: u32,
        forced_pass_at_root: u32,
    }
    let mut c = Checked::default();
    let mut moves = Vec::new();
    for (i, p) in positions.iter_mut().enumerate() {
        c.inactive_pieces +=
            Tile::all().any(|t| p.piece_at(t).is_some_and(|q| q.owner.is_none())) as u32;
        c.shipless_team_member +=
            (0..p.seats() as Seat).any(|s| !p.is_eliminated(s) && !p.has_ship(s)) as u32;
        c.eliminated_seat += (0..p.seats() as Seat).any(|s| p.is_eliminated(s)) as u32;
        p.legal_moves(&mut moves);
        c.recolouring_drop_at_root += moves
            .iter()
            .any(|m| matches!(m, Move::Drop { hand, colour, .. } if hand != colour))
            as u32;
        c.dock_at_root += moves.iter().any(|m| matches!(m, Move::Dock { .. })) as u32;
        c.ship_capture_at_root += moves.iter().any(|m| {
            matches!(m, Move::Step { to, .. } if p.piece_at(*to).is_some_and(|q| q.kind == Kind::Mothership))
        }) as u32;
        c.forced_pass_at_root += (moves == [Move::Pass]) as u32;
        compare(p, 2, &format!("random position {i}"));
        compare_children(p, &format!("random position {i}"));
    }
    eprintln!("checked positions contain {c:?}");
    assert!(c.inactive_pieces > 0, "{c:?}");
    assert!(c.shipless_team_member > 0, "{c:?}");
    assert!(c.eliminated_seat > 0, "{c:?}");
    assert!(c.recolouring_drop_at_root > 0, "{c:?}");
    assert!(c.dock_at_root > 0, "{c:?}");
    assert!(c.ship_capture_at_root > 0, "{c:?}");
    assert!(c.forced_pass_at_root > 0, "{c:?}");
}
