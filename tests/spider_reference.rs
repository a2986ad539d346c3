//! An independent, deliberately simple Spider-Chess move generator written straight from the rule
//! book (`shared/rules/spider-chess.md`): its own 2D board, its own FEN reader, piece moves spelt
//! out per piece, copy-make, and legality by "is my king attacked after the move". The fast
//! generator (`orrery::games::spider`) must agree with it move by move.

use orrery::games::spider::{divide, parse_square, perft, Color, Position, Variant};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::collections::{BTreeMap, BTreeSet};

const FILES: i32 = 25;
const RANKS: i32 = 19;

/// The rule book's hole bands.
fn is_hole(x: i32, y: i32) -> bool {
    let band = |s: i32| (7..=9).contains(&s);
    band(x + y) || band(24 - x + y) || band(x + 18 - y) || band(24 - x + 18 - y)
}

#[derive(Clone)]
struct Board {
    /// `cells[y][x]`: '.' empty, '*' hole, a piece letter otherwise.
    cells: [[char; FILES as usize]; RANKS as usize],
    white_to_move: bool,
}

impl Board {
    fn from_fen(fen: &str) -> Board {
        let mut parts = fen.split_whitespace();
        let rows: Vec<&str> = parts.next().unwrap().split('/').collect();
        assert_eq!(rows.len(), RANKS as usize);
        let mut cells = [['.'; FILES as usize]; RANKS as usize];
        for (i, row) in rows.iter().enumerate() {
            let y = RANKS as usize - 1 - i;
            let mut x = 0usize;
            let mut num = 0usize;
            for c in row.chars() {
                if let Some(d) = c.to_digit(10) {
                    num = num * 10 + d as usize;
                    continue;
                }
                x += num;
                num = 0;
                cells[y][x] = c;
                x += 1;
            }
            x += num;
            assert_eq!(x, FILES as usize, "row {row}");
        }
        let white_to_move = parts.next().unwrap() == "w";
        Board {
            cells,
            white_to_move,
        }
    }

    fn at(&self, x: i32, y: i32) -> char {
        if x < 0 || y < 0 || x >= FILES || y >= RANKS {
            '*'
        } else {
            self.cells[y as usize][x as usize]
        }
    }

    fn is_empty(&self, x: i32, y: i32) -> bool {
        self.at(x, y) == '.'
    }

    fn is_enemy(&self, x: i32, y: i32, white: bool) -> bool {
        let c = self.at(x, y);
        c.is_ascii_alphabetic() && c.is_ascii_uppercase() != white
    }

    /// Empty or enemy, on a playable square.
    fn can_land(&self, x: i32, y: i32, white: bool) -> bool {
        self.is_empty(x, y) || self.is_enemy(x, y, white)
    }
}

const ORTHO: [(i32, i32); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];
const DIAG: [(i32, i32); 4] = [(1, 1), (1, -1), (-1, 1), (-1, -1)];
const KNIGHT: [(i32, i32); 8] = [
    (1, 2),
    (2, 1),
    (2, -1),
    (1, -2),
    (-1, -2),
    (-2, -1),
    (-2, 1),
    (-1, 2),
];
const ALFIL: [(i32, i32); 4] = [(2, 2), (2, -2), (-2, 2), (-2, -2)];

/// Which movement components each piece letter has (rule book table).
fn components(piece: char) -> (bool, bool, bool, bool, bool) {
    // (orthogonal slide, diagonal slide, knight leap, nightrider, alfil-rider up to 7)
    match piece {
        'R' => (true, false, false, false, false),
        'Q' => (true, true, false, false, false),
        'A' => (false, true, true, false, false),
        'C' => (true, false, true, false, false),
        'Z' => (true, true, true, false, false),
        'I' => (true, true, false, true, false),
        'J' => (false, true, false, true, false),
        'L' => (true, false, false, true, false),
        'S' => (true, false, false, true, true),
        _ => (false, false, false, false, false),
    }
}

/// Repeats a vector up to `max` times: every landing square must be empty to go on.
fn ride(
    b: &Board,
    x: i32,
    y: i32,
    d: (i32, i32),
    max: i32,
    white: bool,
    out: &mut Vec<(i32, i32)>,
) {
    for k in 1..=max {
        let (tx, ty) = (x + k * d.0, y + k * d.1);
        if b.is_empty(tx, ty) {
            out.push((tx, ty));
            continue;
        }
        if b.is_enemy(tx, ty, white) {
            out.push((tx, ty));
        }
        break;
    }
}

/// Every target square of the piece on (x, y), ignoring king safety, without repeats.
fn targets(b: &Board, x: i32, y: i32) -> Vec<(i32, i32)> {
    let p = b.at(x, y);
    let white = p.is_ascii_uppercase();
    let up = p.to_ascii_uppercase();
    let mut out = Vec::new();
    match up {
        'P' => {
            let f = if white { 1 } else { -1 };
            if b.can_land(x, y + f, white) {
                out.push((x, y + f));
            }
            if b.is_empty(x, y + f) && b.can_land(x, y + 2 * f, white) {
                out.push((x, y + 2 * f));
            }
            if b.is_empty(x, y + f) && b.is_empty(x, y + 2 * f) && b.can_land(x, y + 3 * f, white) {
                out.push((x, y + 3 * f));
            }
            for dx in [-1, 1] {
                if b.is_empty(x + dx, y + f) {
                    out.push((x + dx, y + f));
                }
            }
        }
        'K' => {
            for d in ORTHO.iter().chain(DIAG.iter()) {
                if b.can_land(x + d.0, y + d.1, white) {
                    out.push((x + d.0, y + d.1));
                }
            }
        }
        _ => {
            let (ortho, diag, knight, nightrider, alfil) = components(up);
            if ortho {
                for d in ORTHO {
                    ride(b, x, y, d, 99, white, &mut out);
                }
            }
            if diag {
                for d in DIAG {
                    ride(b, x, y, d, 99, white, &mut out);
                }
            }
            if knight {
                for d in KNIGHT {
                    if b.can_land(x + d.0, y + d.1, white) {
                        out.push((x + d.0, y + d.1));
                    }
                }
            }
            if nightrider {
                for d in KNIGHT {
                    ride(b, x, y, d, 99, white, &mut out);
                }
            }
            if alfil {
                for d in ALFIL {
                    ride(b, x, y, d, 7, white, &mut out);
                }
            }
        }
    }
    let mut seen = BTreeSet::new();
    out.retain(|t| seen.insert(*t));
    out
}

/// Whether the piece on `from` could capture on `to` (a second, geometric reading of the rules).
fn can_capture(b: &Board, (x, y): (i32, i32), (tx, ty): (i32, i32)) -> bool {
    let p = b.at(x, y);
    let white = p.is_ascii_uppercase();
    let up = p.to_ascii_uppercase();
    let (dx, dy) = (tx - x, ty - y);
    // Walks `n` steps of `d` from the origin: the first n-1 landings must be empty.
    let clear = |d: (i32, i32), n: i32| (1..n).all(|k| b.is_empty(x + k * d.0, y + k * d.1));
    match up {
        'P' => {
            let f = if white { 1 } else { -1 };
            dx == 0 && (1..=3).any(|n| dy == n * f && clear((0, f), n))
        }
        'K' => dx.abs() <= 1 && dy.abs() <= 1 && (dx, dy) != (0, 0),
        _ => {
            let (ortho, diag, knight, nightrider, alfil) = components(up);
            let n = dx.abs().max(dy.abs());
            if ortho && (dx == 0 || dy == 0) && clear((dx.signum(), dy.signum()), n) {
                return true;
            }
            if diag && dx.abs() == dy.abs() && clear((dx.signum(), dy.signum()), n) {
                return true;
            }
            let is_knight =
                |a: i32, c: i32| (a.abs(), c.abs()) == (1, 2) || (a.abs(), c.abs()) == (2, 1);
            if knight && is_knight(dx, dy) {
                return true;
            }
            if nightrider {
                // A knight vector's longer component is 2, so the number of leaps is fixed.
                let k = dx.abs().max(dy.abs()) / 2;
                if k >= 1
                    && dx % k == 0
                    && dy % k == 0
                    && is_knight(dx / k, dy / k)
                    && clear((dx / k, dy / k), k)
                {
                    return true;
                }
            }
            if alfil && dx.abs() == dy.abs() && dx % 2 == 0 {
                let k = dx.abs() / 2;
                if (1..=7).contains(&k) && clear((dx.signum() * 2, dy.signum() * 2), k) {
                    return true;
                }
            }
            false
        }
    }
}

fn attacked(b: &Board, sq: (i32, i32), by_white: bool) -> bool {
    for y in 0..RANKS {
        for x in 0..FILES {
            let c = b.at(x, y);
            if c.is_ascii_alphabetic()
                && c.is_ascii_uppercase() == by_white
                && can_capture(b, (x, y), sq)
            {
                return true;
            }
        }
    }
    false
}

fn name(x: i32, y: i32) -> String {
    format!("{}{}", (b'a' + x as u8) as char, y + 1)
}

/// Every legal move as (notation, position after it).
fn legal(b: &Board) -> Vec<(String, Board)> {
    let white = b.white_to_move;
    let mut out = Vec::new();
    for y in 0..RANKS {
        for x in 0..FILES {
            let p = b.at(x, y);
            if !p.is_ascii_alphabetic() || p.is_ascii_uppercase() != white {
                continue;
            }
            for (tx, ty) in targets(b, x, y) {
                let last = if white { RANKS - 1 } else { 0 };
                let promos: Vec<Option<char>> = if p.eq_ignore_ascii_case(&'P') && ty == last {
                    "RQACZ".chars().map(Some).collect()
                } else {
                    vec![None]
                };
                for promo in promos {
                    let mut next = b.clone();
                    next.cells[y as usize][x as usize] = '.';
                    let placed = match promo {
                        Some(c) if white => c,
                        Some(c) => c.to_ascii_lowercase(),
                        None => p,
                    };
                    next.cells[ty as usize][tx as usize] = placed;
                    next.white_to_move = !white;
                    let king = if white { 'K' } else { 'k' };
                    let ksq = (0..RANKS)
                        .flat_map(|yy| (0..FILES).map(move |xx| (xx, yy)))
                        .find(|&(xx, yy)| next.at(xx, yy) == king)
                        .expect("king on board");
                    if attacked(&next, ksq, !white) {
                        continue;
                    }
                    let mut text = format!("{}{}", name(x, y), name(tx, ty));
                    if let Some(c) = promo {
                        text.push(c.to_ascii_lowercase());
                    }
                    out.push((text, next));
                }
            }
        }
    }
    out
}

fn ref_perft(b: &Board, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let moves = legal(b);
    if depth == 1 {
        return moves.len() as u64;
    }
    moves.iter().map(|(_, n)| ref_perft(n, depth - 1)).sum()
}

fn ref_divide(b: &Board, depth: u32) -> BTreeMap<String, u64> {
    legal(b)
        .into_iter()
        .map(|(m, n)| (m, ref_perft(&n, depth - 1)))
        .collect()
}

fn fast_divide(fen: &str, depth: u32) -> BTreeMap<String, u64> {
    let v = Variant::spider_chess();
    let mut pos = Position::from_fen(&v, fen).unwrap();
    let lines = divide(&mut pos, depth);
    let map: BTreeMap<String, u64> = lines.iter().map(|&(m, n)| (pos.move_text(m), n)).collect();
    assert_eq!(
        map.len(),
        lines.len(),
        "fast generator listed a move twice in {fen}"
    );
    map
}

fn compare(fen: &str, depth: u32) -> u64 {
    let fast = fast_divide(fen, depth);
    let reference = ref_divide(&Board::from_fen(fen), depth);
    if fast != reference {
        let mut diff = Vec::new();
        for (m, n) in &reference {
            if fast.get(m) != Some(n) {
                diff.push(format!("{m}: reference {n}, fast {:?}", fast.get(m)));
            }
        }
        for (m, n) in &fast {
            if !reference.contains_key(m) {
                diff.push(format!("{m}: fast {n}, missing in reference"));
            }
        }
        panic!(
            "divide differs at depth {depth} for {fen}:\n{}",
            diff.join("\n")
        );
    }
    fast.values().sum()
}

const START: &str = "7***rqkqr***7/5s***ipppppi***s5/4s***lpp3ppl***s4/3s***jpp5ppj***s3/2s***app7ppa***s2/1s***cpp9ppc***s1/1***zpp11ppz***1/***1pp13pp1***/**21**/*23*/**21**/***1PP13PP1***/1***ZPP11PPZ***1/1S***CPP9PPC***S1/2S***APP7PPA***S2/3S***JPP5PPJ***S3/4S***LPP3PPL***S4/5S***IPPPPPI***S5/7***RQKQR***7 w - - 0 1";

/// Builds a FEN from piece placements, with holes from the rule book's formula.
fn fen_of(pieces: &[(&str, char)], white_to_move: bool) -> String {
    let mut cells = [['.'; FILES as usize]; RANKS as usize];
    for y in 0..RANKS {
        for x in 0..FILES {
            if is_hole(x, y) {
                cells[y as usize][x as usize] = '*';
            }
        }
    }
    for &(sq, p) in pieces {
        let x = (sq.as_bytes()[0] - b'a') as usize;
        let y: usize = sq[1..].parse::<usize>().unwrap() - 1;
        assert_eq!(cells[y][x], '.', "{sq} is a hole or taken");
        cells[y][x] = p;
    }
    let mut s = String::new();
    for y in (0..RANKS as usize).rev() {
        let mut run = 0;
        for &cell in &cells[y] {
            match cell {
                '.' => run += 1,
                c => {
                    if run > 0 {
                        s += &run.to_string();
                        run = 0;
                    }
                    s.push(c);
                }
            }
        }
        if run > 0 {
            s += &run.to_string();
        }
        if y > 0 {
            s.push('/');
        }
    }
    format!("{s} {} - - 0 1", if white_to_move { 'w' } else { 'b' })
}

#[test]
fn holes_match_the_rule_book() {
    let v = Variant::spider_chess();
    let mut count = 0;
    for y in 0..RANKS {
        for x in 0..FILES {
            assert_eq!(v.is_hole(x as u8, y as u8), is_hole(x, y), "{}", name(x, y));
            count += !is_hole(x, y) as usize;
        }
    }
    assert_eq!(count, 369);
    assert_eq!(v.playable_count(), 369);
}

#[test]
fn start_position_matches_the_rule_book() {
    let v = Variant::spider_chess();
    assert_eq!(Position::startpos(&v).to_fen(), START);
    assert_eq!(fen_of(&[], true).matches('*').count(), 106);
}

#[test]
fn start_position_depth_1_and_2() {
    assert_eq!(compare(START, 1), 307);
    assert_eq!(compare(START, 2), 92_287);
}

/// Depth 3 below a fixed sample of root moves (the full depth 3 is the ignored test below).
fn start_depth_3_sample(first: usize) {
    let v = Variant::spider_chess();
    let start = Position::startpos(&v);
    let moves = start.legal_moves();
    for i in (first..moves.len()).step_by(77) {
        let mut pos = start.clone();
        pos.make_move(moves[i]);
        compare(&pos.to_fen(), 2);
    }
}

#[test]
fn start_position_depth_3_sample_a() {
    start_depth_3_sample(0);
}

#[test]
fn start_position_depth_3_sample_b() {
    start_depth_3_sample(38);
}

#[test]
#[ignore = "about 28 million leaves through the slow reference generator: minutes in the test \
            profile; run with `cargo test --release --test spider_reference -- --ignored`"]
fn start_position_depth_3_full() {
    compare(START, 3);
}

/// Plays seeded random games (captures preferred, to reach sparse endings) and returns FENs.
fn random_positions(seed: u64, count: usize, plies: &[usize]) -> Vec<String> {
    random_positions_biased(seed, count, plies, false)
}

/// Like [`random_positions`]; with `pawn_race`, pawn moves are preferred (to reach promotions).
fn random_positions_biased(
    seed: u64,
    count: usize,
    plies: &[usize],
    pawn_race: bool,
) -> Vec<String> {
    let v = Variant::spider_chess();
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut out = Vec::new();
    while out.len() < count {
        let mut pos = Position::startpos(&v);
        let target = plies[out.len() % plies.len()];
        for _ in 0..target {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            let captures: Vec<_> = moves
                .iter()
                .copied()
                .filter(|&m| pos.is_capture(m))
                .collect();
            let pawn_moves: Vec<_> = moves
                .iter()
                .copied()
                .filter(|&m| {
                    let text = pos.move_text(m);
                    let digits = text[1..].find(|c: char| !c.is_ascii_digit()).unwrap() + 1;
                    let (x, y) = parse_square(&text[..digits], 25, 19).unwrap();
                    pos.piece_at(x, y).map(|p| p.0) == Some(0)
                })
                .collect();
            if pawn_race && moves.iter().any(|m| m.promotion().is_some()) && rng.gen_bool(0.5) {
                break;
            }
            let mv = if pawn_race && !pawn_moves.is_empty() && rng.gen_bool(0.8) {
                // The move that ends furthest forward (the text's target rank).
                *pawn_moves
                    .iter()
                    .max_by_key(|&&m| {
                        let t = pos.move_text(m);
                        let rank: i32 = t[1..]
                            .trim_start_matches(|c: char| c.is_ascii_digit())
                            .trim_start_matches(|c: char| c.is_ascii_lowercase())
                            .trim_end_matches(|c: char| c.is_ascii_lowercase())
                            .parse()
                            .unwrap();
                        if pos.side_to_move() == Color::White {
                            rank
                        } else {
                            -rank
                        }
                    })
                    .unwrap()
            } else if !captures.is_empty() && rng.gen_bool(0.7) {
                captures[rng.gen_range(0..captures.len())]
            } else {
                moves[rng.gen_range(0..moves.len())]
            };
            pos.make_move(mv);
        }
        out.push(pos.to_fen());
    }
    out
}

/// Compares six random-play positions (depth 2 where the tree is small enough).
fn random_play_agree(seed: u64) {
    let fens = random_positions(seed, 6, &[8, 20, 40, 70, 110, 160, 220, 300]);
    for fen in &fens {
        let n = compare(fen, 1);
        if n > 0 && n < 400 {
            compare(fen, 2);
        }
    }
}

#[test]
fn random_play_positions_agree_a() {
    random_play_agree(20_261_130);
}

#[test]
fn random_play_positions_agree_b() {
    random_play_agree(2);
}

#[test]
fn random_play_positions_agree_c() {
    random_play_agree(3);
}

#[test]
fn random_play_positions_agree_d() {
    random_play_agree(4);
}

#[test]
fn pawn_race_positions_agree() {
    for fen in &random_positions_biased(5, 6, &[60, 90, 120], true) {
        let n = compare(fen, 1);
        if n < 400 {
            compare(fen, 2);
        }
    }
}

#[test]
fn deep_random_positions_agree_at_depth_3() {
    let fens = random_positions(7, 6, &[260, 340, 420]);
    for fen in &fens {
        let leaves = compare(fen, 2);
        if leaves < 6_000 {
            compare(fen, 3);
        }
    }
}

#[test]
fn hand_made_positions_agree() {
    let cases: Vec<String> = vec![
        // Promotions straight ahead, by capture and by the 2- and 3-steps; black promotion too.
        fen_of(
            &[
                ("m1", 'K'),
                ("a19", 'k'),
                ("m18", 'P'),
                ("l17", 'P'),
                ("l19", 'r'),
                ("n16", 'P'),
                ("o3", 'p'),
                ("k2", 'p'),
                ("y1", 'R'),
            ],
            true,
        ),
        fen_of(
            &[
                ("m1", 'K'),
                ("a19", 'k'),
                ("m18", 'P'),
                ("l17", 'P'),
                ("l19", 'r'),
                ("n16", 'P'),
                ("o3", 'p'),
                ("k2", 'p'),
                ("y1", 'R'),
            ],
            false,
        ),
        // Pins along nightrider lines (which leap over holes) and along ranks.
        fen_of(
            &[
                ("c9", 'K'),
                ("d11", 'L'),
                ("e13", 'i'),
                ("m19", 'k'),
                ("m10", 'r'),
                ("b10", 'Q'),
            ],
            true,
        ),
        fen_of(
            &[
                ("k10", 'K'),
                ("m11", 'C'),
                ("q13", 'j'),
                ("m15", 'r'),
                ("y19", 'k'),
                ("b10", 'q'),
            ],
            true,
        ),
        // Discovered check along a nightrider line, checks by lame pawn steps.
        fen_of(
            &[
                ("m10", 'K'),
                ("n12", 'P'),
                ("o14", 'I'),
                ("q17", 'k'),
                ("m13", 'p'),
                ("m12", 'S'),
            ],
            false,
        ),
        fen_of(
            &[
                ("m5", 'K'),
                ("m8", 'p'),
                ("m7", 'Q'),
                ("y19", 'k'),
                ("l9", 'p'),
            ],
            true,
        ),
        // Spiders in the corner bases, fighting there, alfil riders blocked by a piece.
        fen_of(
            &[
                ("a1", 'S'),
                ("c3", 's'),
                ("e1", 'S'),
                ("b2", 'k'),
                ("y19", 'K'),
                ("a19", 's'),
                ("y1", 's'),
            ],
            true,
        ),
        fen_of(
            &[
                ("a1", 'S'),
                ("c3", 's'),
                ("e1", 'S'),
                ("b2", 'k'),
                ("y19", 'K'),
                ("a19", 's'),
                ("y1", 's'),
            ],
            false,
        ),
        // Bare kings and a king in check from several sides.
        fen_of(&[("m10", 'K'), ("m12", 'k')], true),
        fen_of(&[("m10", 'K'), ("m14", 'k'), ("n12", 'a')], true),
        fen_of(
            &[
                ("m10", 'K'),
                ("m18", 'r'),
                ("q12", 'j'),
                ("y19", 'k'),
                ("k9", 'Z'),
                ("p10", 'L'),
            ],
            true,
        ),
        // Crowded nightrider lines.
        fen_of(
            &[
                ("m10", 'I'),
                ("n12", 'p'),
                ("o8", 'P'),
                ("k11", 'p'),
                ("i12", 'P'),
                ("k9", 'R'),
                ("a1", 'K'),
                ("y19", 'k'),
                ("q17", 'j'),
            ],
            true,
        ),
    ];
    for fen in &cases {
        let n = compare(fen, 1);
        if n < 400 {
            compare(fen, 2);
        }
        if n < 60 {
            compare(fen, 3);
        }
    }
}

#[test]
fn fast_perft_totals_match_divide() {
    let v = Variant::spider_chess();
    let mut pos = Position::startpos(&v);
    let total: u64 = divide(&mut pos, 2).iter().map(|l| l.1).sum();
    assert_eq!(total, perft(&mut pos, 2));
    assert_eq!(pos.to_fen(), START);
}

/// The random-play positions used above reach the special cases the rules have.
#[test]
fn random_positions_cover_special_cases() {
    let v = Variant::spider_chess();
    let mut fens = Vec::new();
    for seed in [20_261_130, 2, 3, 4] {
        fens.extend(random_positions(
            seed,
            6,
            &[8, 20, 40, 70, 110, 160, 220, 300],
        ));
    }
    fens.extend(random_positions(7, 6, &[260, 340, 420]));
    fens.extend(random_positions_biased(5, 6, &[60, 90, 120], true));
    let (mut checks, mut promotions, mut bare, mut in_base) = (0, 0, 0, 0);
    for fen in &fens {
        let pos = Position::from_fen(&v, fen).unwrap();
        checks += pos.in_check() as usize;
        promotions += pos.legal_moves().iter().any(|m| m.promotion().is_some()) as usize;
        bare += (pos.non_royal_count(Color::White) == 0 || pos.non_royal_count(Color::Black) == 0)
            as usize;
        let b = Board::from_fen(fen);
        in_base += (0..RANKS)
            .flat_map(|y| (0..FILES).map(move |x| (x, y)))
            .any(|(x, y)| {
                let base = |a: i32, c: i32| a + c <= 6;
                let upper = base(x, 18 - y) || base(24 - x, 18 - y);
                let lower = base(x, y) || base(24 - x, y);
                match b.at(x, y) {
                    'S' => upper,
                    's' => lower,
                    _ => false,
                }
            }) as usize;
    }
    eprintln!(
        "checks {checks}, promotions {promotions}, bare {bare}, spiders in far bases {in_base}"
    );
    assert!(checks > 0 && promotions > 0 && bare > 0 && in_base > 0);
}
