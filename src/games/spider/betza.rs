//! Betza notation compiler: turns a piece description such as `fWfnDfnHfmF`, `RNNA7`,
//! `fmWfceFifmnD` or `KisO2` into the list of move rules the move generator runs.
//!
//! Supported: atoms `W F D N A H C Z G K R B Q` and `O` (castling), doubled atoms as riders (`NN`,
//! `AA`), numeric range limits (`A7`: at most 7 leaps, `0` meaning unlimited; on `O` the exact
//! distance the piece moves), direction modifiers `f b l r v s` (and the pairs `fl fr bl br lf rf lb
//! rb ff bb ll rr fs bs lv rv`), `m` (move only), `c` (capture only), `n` (lame: the squares passed
//! over must be empty), `i` (only from the piece's start squares), `e` (en passant capture), `j`
//! (on a slider: jumps over its first square; on a leaper: the squares passed over must be
//! occupied), `p` (hopper: slides to a hurdle, hops over it and goes on beyond), `g` (grasshopper:
//! lands right behind the hurdle) and two-leg moves `a` of two single steps (`mafsW`, the Xiangqi
//! horse). Everything else is refused with the offending part named.

use std::fmt;

/// Range meaning "as far as the board allows".
pub const UNLIMITED: u8 = u8::MAX;

/// How a rule treats the squares on its way.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Style {
    /// Leaper, slider or rider: each landing square must be empty to go on; a lame leap's path
    /// (`n`, or the first leg of a two-leg move) must be empty.
    Plain,
    /// `j` on a slider: the first square is jumped over whatever stands there; the slide starts on
    /// the second square.
    Ski,
    /// `j` on a leaper: every square of the leap's path must be occupied.
    Jump,
    /// `p`: slides over empty squares to a hurdle, hops over it and slides on beyond it.
    Hop,
    /// `g`: slides over empty squares to a hurdle and lands on the square right behind it.
    Grasshop,
    /// `O`: castling; `dx` is the distance and side the piece moves, the partner is the piece
    /// nearest to the corner on that side, which lands on the square the piece passed last.
    Castle,
}

/// One way a piece moves, seen from White (rank steps `dy > 0` go forward).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveRule {
    /// File step of one leap (positive towards higher files).
    pub dx: i8,
    /// Rank step of one leap (positive = forward for the mover).
    pub dy: i8,
    /// Maximum number of leaps in the same direction: 1 for a leaper, [`UNLIMITED`] for a slider.
    pub range: u8,
    /// Squares a lame leap passes over, as offsets from the origin; all must be empty playable
    /// squares ([`Style::Jump`]: all must be occupied).
    pub lame_path: Vec<(i8, i8)>,
    /// Whether the rule may end on an empty square.
    pub can_move: bool,
    /// Whether the rule may end on an enemy piece, capturing it.
    pub can_capture: bool,
    /// Whether the rule may capture en passant (`e`): end on the square an enemy piece passed over
    /// with its last move, capturing that piece.
    pub en_passant: bool,
    /// Whether the rule is only available from the piece's start squares (`i`).
    pub initial: bool,
    /// How squares on the way are treated.
    pub style: Style,
}

impl MoveRule {
    /// Whether two rules can reach the same target square (then the generator must list it once).
    pub fn overlaps(&self, other: &MoveRule) -> bool {
        if self.style == Style::Castle || other.style == Style::Castle {
            return false;
        }
        let r1 = self.range.min(40) as i32;
        let r2 = other.range.min(40) as i32;
        let plain = |r: &MoveRule| r.style == Style::Plain || r.style == Style::Jump;
        if !plain(self) || !plain(other) {
            // Hoppers and ski-sliders reach squares along their whole line: collinear is enough.
            let cross = self.dx as i32 * other.dy as i32 - self.dy as i32 * other.dx as i32;
            let same_way = self.dx as i32 * other.dx as i32 + self.dy as i32 * other.dy as i32 > 0;
            return cross == 0 && same_way;
        }
        (1..=r1).any(|k1| {
            (1..=r2).any(|k2| {
                k1 * self.dx as i32 == k2 * other.dx as i32
                    && k1 * self.dy as i32 == k2 * other.dy as i32
            })
        })
    }

    /// Whether the rule needs more than the plain leaper/slider tables of the generator.
    pub fn is_special(&self) -> bool {
        self.style != Style::Plain || self.initial || self.en_passant
    }
}

/// Why a Betza string was refused; names the offending part.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BetzaError {
    /// The whole Betza string.
    pub betza: String,
    /// What is wrong, naming the token.
    pub reason: String,
}

impl fmt::Display for BetzaError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Betza string '{}': {}", self.betza, self.reason)
    }
}

impl std::error::Error for BetzaError {}

/// Base leap of an atom and whether the atom itself is a slider (R, B, Q).
fn atom_leaps(atom: char) -> Option<(&'static [(i8, i8)], bool)> {
    const W: &[(i8, i8)] = &[(1, 0)];
    const F: &[(i8, i8)] = &[(1, 1)];
    const K: &[(i8, i8)] = &[(1, 0), (1, 1)];
    Some(match atom {
        'W' => (W, false),
        'F' => (F, false),
        'K' => (K, false),
        'D' => (&[(2, 0)], false),
        'N' => (&[(1, 2)], false),
        'A' => (&[(2, 2)], false),
        'H' => (&[(3, 0)], false),
        'C' => (&[(1, 3)], false),
        'Z' => (&[(2, 3)], false),
        'G' => (&[(3, 3)], false),
        'R' => (W, true),
        'B' => (F, true),
        'Q' => (K, true),
        _ => return None,
    })
}

/// All eight symmetric images of a leap, without repeats.
fn symmetric(base: (i8, i8)) -> Vec<(i8, i8)> {
    let (a, b) = base;
    let mut out = Vec::with_capacity(8);
    for &(x, y) in &[(a, b), (b, a)] {
        for &(sx, sy) in &[(1, 1), (1, -1), (-1, 1), (-1, -1)] {
            let v = (x * sx, y * sy);
            if !out.contains(&v) {
                out.push(v);
            }
        }
    }
    out
}

/// A direction selector: one modifier letter or a pair of them.
fn selects(group: &[char], (dx, dy): (i8, i8)) -> bool {
    let (ax, ay) = (dx.abs(), dy.abs());
    let single = |c: char| match c {
        'f' => dy > 0,
        'b' => dy < 0,
        'l' => dx < 0,
        'r' => dx > 0,
        'v' => dy != 0 && ay >= ax,
        's' => dx != 0 && ax >= ay,
        _ => false,
    };
    match *group {
        [c] => single(c),
        [a, b] if a == b => match a {
            'f' | 'b' => single(a) && ay > ax,
            _ => single(a) && ax > ay,
        },
        [a, b] => single(a) && single(b),
        _ => false,
    }
}

/// Splits direction letters into groups (single letters or recognised pairs).
fn direction_groups(dirs: &[char]) -> Vec<Vec<char>> {
    let mut groups = Vec::new();
    let mut i = 0;
    while i < dirs.len() {
        let a = dirs[i];
        let pair = dirs.get(i + 1).copied().filter(|&b| match a {
            'f' | 'b' => matches!(b, 'l' | 'r' | 's') || b == a,
            'l' | 'r' => matches!(b, 'f' | 'b' | 'v') || b == a,
            _ => false,
        });
        match pair {
            Some(b) => {
                groups.push(vec![a, b]);
                i += 2;
            }
            None => {
                groups.push(vec![a]);
                i += 1;
            }
        }
    }
    groups
}

/// Path of a lame leap (squares passed over), or `None` where lameness is undefined.
fn lame_path((dx, dy): (i8, i8)) -> Option<Vec<(i8, i8)>> {
    let (ax, ay) = (dx.abs(), dy.abs());
    if dx == 0 || dy == 0 || ax == ay {
        let n = ax.max(ay);
        let (ux, uy) = (dx / n, dy / n);
        Some((1..n).map(|k| (ux * k, uy * k)).collect())
    } else if (ax, ay) == (1, 2) || (ax, ay) == (2, 1) {
        Some(vec![if ay > ax {
            (0, dy.signum())
        } else {
            (dx.signum(), 0)
        }])
    } else {
        None
    }
}

/// The eight king directions counter-clockwise from (1, 0): index `d` turned by `t` eighths of a
/// circle is index `(d + t) % 8`.
const COMPASS: [(i8, i8); 8] = [
    (1, 0),
    (1, 1),
    (0, 1),
    (-1, 1),
    (-1, 0),
    (-1, -1),
    (0, -1),
    (1, -1),
];

/// Turns (in eighths of a circle, counter-clockwise) a relative direction group of a second leg
/// selects: `f` straight on, `l`/`r` a right angle, `fl`/`fr` 45 degrees, `b` back, ...
fn relative_turns(group: &[char]) -> Option<&'static [u8]> {
    Some(match *group {
        ['f'] => &[0],
        ['b'] => &[4],
        ['l'] => &[2],
        ['r'] => &[6],
        ['s'] => &[2, 6],
        ['v'] => &[0, 4],
        ['f', 'l'] | ['l', 'f'] => &[1],
        ['f', 'r'] | ['r', 'f'] => &[7],
        ['f', 's'] => &[1, 7],
        ['b', 'l'] | ['l', 'b'] => &[3],
        ['b', 'r'] | ['r', 'b'] => &[5],
        ['b', 's'] => &[3, 5],
        _ => return None,
    })
}

/// Move and capture rights from the `m`, `c` and `e` modifiers.
fn rights(mods: &[char]) -> (bool, bool, bool) {
    let (m, c, e) = (
        mods.contains(&'m'),
        mods.contains(&'c'),
        mods.contains(&'e'),
    );
    match (m, c) {
        (true, false) => (true, false, e),
        (false, true) => (false, true, e),
        (false, false) if e => (false, false, true),
        _ => (true, true, e),
    }
}

/// Adds a rule, merging it with an identical one (the longer range wins).
fn add_rule(rules: &mut Vec<MoveRule>, rule: MoveRule) {
    let key = |r: &MoveRule| {
        (
            r.dx,
            r.dy,
            r.lame_path.clone(),
            r.can_move,
            r.can_capture,
            r.en_passant,
            r.initial,
            r.style,
        )
    };
    match rules.iter_mut().find(|r| key(r) == key(&rule)) {
        Some(r) => r.range = r.range.max(rule.range),
        None => rules.push(rule),
    }
}

/// Compiles a Betza string into move rules (White's view), merging identical rules.
pub fn compile(betza: &str) -> Result<Vec<MoveRule>, BetzaError> {
    let err = |reason: String| BetzaError {
        betza: betza.to_string(),
        reason,
    };
    if betza.is_empty() {
        return Err(err("empty Betza string".into()));
    }
    let chars: Vec<char> = betza.chars().collect();
    let mut rules: Vec<MoveRule> = Vec::new();
    let mut mods: Vec<char> = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        if c.is_ascii_lowercase() {
            if !"fblrvsmcnieapgj".contains(c) {
                return Err(err(format!(
                    "unsupported modifier '{c}' at position {}",
                    i + 1
                )));
            }
            mods.push(c);
            i += 1;
            continue;
        }
        let start = i;
        i += 1;
        if c == 'O' {
            let digits_start = i;
            while i < chars.len() && chars[i].is_ascii_digit() {
                i += 1;
            }
            let token = format!(
                "{}{}",
                mods.iter().collect::<String>(),
                chars[start..i].iter().collect::<String>()
            );
            let dist: u32 = chars[digits_start..i]
                .iter()
                .collect::<String>()
                .parse()
                .map_err(|_| {
                    err(format!(
                        "castling '{token}' needs the distance the piece moves, e.g. O2"
                    ))
                })?;
            if !(1..=16).contains(&dist) {
                return Err(err(format!(
                    "castling distance in '{token}' must be 1 to 16"
                )));
            }
            if let Some(&bad) = mods.iter().find(|&&m| !"islrm".contains(m)) {
                return Err(err(format!(
                    "modifier '{bad}' is not supported on castling ('{token}')"
                )));
            }
            let (left, right) = match (mods.contains(&'l'), mods.contains(&'r')) {
                (false, false) | (true, true) => (true, true),
                (l, r) => (l, r),
            };
            for (on, sign) in [(left, -1i8), (right, 1i8)] {
                if on {
                    add_rule(
                        &mut rules,
                        MoveRule {
                            dx: sign * dist as i8,
                            dy: 0,
                            range: 1,
                            lame_path: Vec::new(),
                            can_move: true,
                            can_capture: false,
                            en_passant: false,
                            initial: true,
                            style: Style::Castle,
                        },
                    );
                }
            }
            mods.clear();
            continue;
        }
        let Some((leaps, slider)) = atom_leaps(c) else {
            return Err(err(format!("unknown atom '{c}' at position {}", i)));
        };
        let mut range: u8 = if slider { UNLIMITED } else { 1 };
        let mut doubled = false;
        if !slider && chars.get(i) == Some(&c) {
            range = UNLIMITED;
            doubled = true;
            i += 1;
        }
        let digits_start = i;
        while i < chars.len() && chars[i].is_ascii_digit() {
            i += 1;
        }
        if i > digits_start {
            let text: String = chars[digits_start..i].iter().collect();
            let n: u32 = text
                .parse()
                .map_err(|_| err(format!("bad range '{text}'")))?;
            range = if n == 0 || n >= UNLIMITED as u32 {
                UNLIMITED
            } else {
                n as u8
            };
        }
        let token = format!(
            "{}{}",
            mods.iter().collect::<String>(),
            chars[start..i].iter().collect::<String>()
        );
        let selected = if let Some(a) = mods.iter().position(|&m| m == 'a') {
            two_legs(&mods[..a], &mods[a + 1..], c, range, doubled, &token)
                .map_err(err)?
                .into_iter()
                .map(|r| add_rule(&mut rules, r))
                .count()
        } else {
            one_leg(&mods, leaps, slider, range, &token)
                .map_err(err)?
                .into_iter()
                .map(|r| add_rule(&mut rules, r))
                .count()
        };
        if selected == 0 {
            return Err(err(format!("'{token}' selects no move")));
        }
        mods.clear();
    }
    if !mods.is_empty() {
        let tail: String = mods.iter().collect();
        return Err(err(format!(
            "modifiers '{tail}' are not followed by an atom"
        )));
    }
    Ok(rules)
}

/// The rules of one single-leg component.
fn one_leg(
    mods: &[char],
    leaps: &[(i8, i8)],
    slider: bool,
    range: u8,
    token: &str,
) -> Result<Vec<MoveRule>, String> {
    let dirs: Vec<char> = mods
        .iter()
        .copied()
        .filter(|c| "fblrvs".contains(*c))
        .collect();
    let (can_move, can_capture, en_passant) = rights(mods);
    let has = |m: char| mods.contains(&m);
    let specials = ['n', 'j', 'p', 'g'];
    if specials.iter().filter(|&&m| has(m)).count() > 1 {
        return Err(format!(
            "only one of n, j, p, g may modify one atom ('{token}')"
        ));
    }
    let rides = slider || range != 1;
    let straight = leaps
        .iter()
        .all(|&(a, b)| (a, b) == (1, 0) || (a, b) == (1, 1));
    let style = if has('p') || has('g') {
        if !straight || range != UNLIMITED {
            return Err(format!(
                "hoppers are supported on unlimited orthogonal or diagonal sliders only ('{token}')"
            ));
        }
        if has('p') {
            Style::Hop
        } else {
            Style::Grasshop
        }
    } else if has('j') {
        if rides {
            if !straight {
                return Err(format!(
                    "'j' is supported on orthogonal or diagonal sliders only ('{token}')"
                ));
            }
            Style::Ski
        } else {
            Style::Jump
        }
    } else {
        Style::Plain
    };
    let lame = has('n');
    if lame && rides {
        return Err(format!("lame riders are not supported ('{token}')"));
    }
    if en_passant && (rides || style != Style::Plain) {
        return Err(format!(
            "en passant capture is supported on single leaps and steps only ('{token}')"
        ));
    }
    let groups = direction_groups(&dirs);
    let mut out = Vec::new();
    for &base in leaps {
        for v in symmetric(base) {
            if !groups.is_empty() && !groups.iter().any(|g| selects(g, v)) {
                continue;
            }
            let path = if lame || style == Style::Jump {
                let p = lame_path(v)
                    .ok_or_else(|| format!("lameness is undefined for the atom in '{token}'"))?;
                if style == Style::Jump && p.is_empty() {
                    return Err(format!("'{token}' has no square to jump over"));
                }
                p
            } else {
                Vec::new()
            };
            out.push(MoveRule {
                dx: v.0,
                dy: v.1,
                range,
                lame_path: path,
                can_move,
                can_capture,
                en_passant,
                initial: has('i'),
                style,
            });
        }
    }
    Ok(out)
}

/// The rules of a two-leg move `[dirs][m]a[dirs][m|c]ATOM` whose legs are single W or F steps: the
/// first leg (absolute directions) must end on an empty square, the second leg's directions are
/// relative to the first (`f` straight on, `fs` 45 degrees either way, `s` a right angle, ...).
fn two_legs(
    first: &[char],
    second: &[char],
    atom: char,
    range: u8,
    doubled: bool,
    token: &str,
) -> Result<Vec<MoveRule>, String> {
    if second.contains(&'a') {
        return Err(format!(
            "moves of more than two legs are not supported ('{token}')"
        ));
    }
    if !matches!(atom, 'W' | 'F') || range != 1 || doubled {
        return Err(format!(
            "two-leg moves are supported with single W or F steps only ('{token}')"
        ));
    }
    if let Some(&bad) = first.iter().find(|&&m| !"fblrvsm".contains(m)) {
        return Err(format!(
            "modifier '{bad}' on the first leg of '{token}' is not supported (only directions and m)"
        ));
    }
    if let Some(&bad) = second.iter().find(|&&m| !"fblrvsmc".contains(m)) {
        return Err(format!(
            "modifier '{bad}' on the second leg of '{token}' is not supported"
        ));
    }
    let dirs1: Vec<char> = first.iter().copied().filter(|&c| c != 'm').collect();
    let dirs2: Vec<char> = second
        .iter()
        .copied()
        .filter(|c| "fblrvs".contains(*c))
        .collect();
    if dirs2.is_empty() {
        return Err(format!(
            "the second leg of '{token}' needs its direction (e.g. fs)"
        ));
    }
    let mut turns = Vec::new();
    for g in direction_groups(&dirs2) {
        let t = relative_turns(&g).ok_or_else(|| {
            format!(
                "relative direction '{}' in '{token}' is not supported",
                g.iter().collect::<String>()
            )
        })?;
        turns.extend_from_slice(t);
    }
    let (can_move, can_capture, _) = rights(second);
    let base = if atom == 'W' { (1, 0) } else { (1, 1) };
    let groups1 = direction_groups(&dirs1);
    let mut out = Vec::new();
    for u in symmetric(base) {
        if !groups1.is_empty() && !groups1.iter().any(|g| selects(g, u)) {
            continue;
        }
        let d = COMPASS.iter().position(|&c| c == u).expect("a king step");
        for &t in &turns {
            let w = COMPASS[(d + t as usize) % 8];
            let target = (u.0 + w.0, u.1 + w.1);
            if target == (0, 0) {
                continue;
            }
            out.push(MoveRule {
                dx: target.0,
                dy: target.1,
                range: 1,
                lame_path: vec![u],
                can_move,
                can_capture,
                en_passant: false,
                initial: false,
                style: Style::Plain,
            });
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Targets on an empty unbounded board reachable within `size` squares, counted per rule.
    fn count_on_empty(betza: &str, size: i32, x: i32, y: i32) -> usize {
        let rules = compile(betza).unwrap();
        let mut seen = std::collections::HashSet::new();
        for r in &rules {
            for k in 1..=r.range.min(64) as i32 {
                let (tx, ty) = (x + k * r.dx as i32, y + k * r.dy as i32);
                if tx < 0 || ty < 0 || tx >= size || ty >= size {
                    break;
                }
                seen.insert((tx, ty));
            }
        }
        seen.len()
    }

    #[test]
    fn classic_pieces_on_empty_8x8() {
        assert_eq!(count_on_empty("R", 8, 3, 3), 14);
        assert_eq!(count_on_empty("B", 8, 3, 3), 13);
        assert_eq!(count_on_empty("Q", 8, 3, 3), 27);
        assert_eq!(count_on_empty("N", 8, 3, 3), 8);
        assert_eq!(count_on_empty("N", 8, 0, 0), 2);
        assert_eq!(count_on_empty("K", 8, 0, 0), 3);
        assert_eq!(count_on_empty("NN", 8, 0, 0), 6);
        assert_eq!(count_on_empty("WW", 8, 0, 0), 14);
        assert_eq!(count_on_empty("R2", 8, 3, 3), 8);
        assert_eq!(count_on_empty("AA", 8, 0, 0), 3);
        assert_eq!(count_on_empty("A2", 8, 0, 0), 2);
        assert_eq!(count_on_empty("fN", 8, 3, 3), 4);
        assert_eq!(count_on_empty("ffN", 8, 3, 3), 2);
        assert_eq!(count_on_empty("fsN", 8, 3, 3), 2);
        assert_eq!(count_on_empty("vN", 8, 3, 3), 4);
        assert_eq!(count_on_empty("flF", 8, 3, 3), 1);
        assert_eq!(count_on_empty("sW", 8, 3, 3), 2);
        assert_eq!(count_on_empty("vR", 8, 3, 3), 7);
    }

    #[test]
    fn spider_pieces_compile() {
        let pawn = compile("fWfnDfnHfmF").unwrap();
        assert_eq!(pawn.len(), 5);
        let d = pawn.iter().find(|r| (r.dx, r.dy) == (0, 2)).unwrap();
        assert_eq!(d.lame_path, vec![(0, 1)]);
        let h = pawn.iter().find(|r| (r.dx, r.dy) == (0, 3)).unwrap();
        assert_eq!(h.lame_path, vec![(0, 1), (0, 2)]);
        let diag: Vec<_> = pawn.iter().filter(|r| r.dx != 0).collect();
        assert_eq!(diag.len(), 2);
        assert!(diag
            .iter()
            .all(|r| r.can_move && !r.can_capture && r.dy == 1));
        assert!(pawn.iter().all(|r| !r.is_special()));
        let spider = compile("RNNA7").unwrap();
        assert_eq!(spider.len(), 4 + 8 + 4);
        assert!(spider
            .iter()
            .filter(|r| r.dx.abs() == 2 && r.dy.abs() == 2)
            .all(|r| r.range == 7));
        assert!(spider
            .iter()
            .filter(|r| r.dx.abs() + r.dy.abs() == 3)
            .all(|r| r.range == UNLIMITED));
        for (b, n) in [
            ("BN", 12),
            ("RN", 12),
            ("QN", 16),
            ("QNN", 16),
            ("BNN", 12),
            ("K", 8),
        ] {
            assert_eq!(compile(b).unwrap().len(), n, "{b}");
        }
    }

    #[test]
    fn chess_pawn_and_king_compile() {
        let pawn = compile("fmWfceFifmnD").unwrap();
        assert_eq!(pawn.len(), 4);
        let ep: Vec<_> = pawn.iter().filter(|r| r.en_passant).collect();
        assert_eq!(ep.len(), 2);
        assert!(ep.iter().all(|r| r.can_capture && !r.can_move && r.dy == 1));
        let double = pawn.iter().find(|r| r.dy == 2).unwrap();
        assert!(double.initial && double.can_move && !double.can_capture);
        assert_eq!(double.lame_path, vec![(0, 1)]);
        let king = compile("KisO2").unwrap();
        let castles: Vec<_> = king.iter().filter(|r| r.style == Style::Castle).collect();
        assert_eq!(castles.len(), 2);
        assert!(castles.iter().all(|r| r.dx.abs() == 2 && r.dy == 0));
        assert_eq!(compile("KlO3").unwrap().len(), 9);
        assert!(compile("KO").unwrap_err().reason.contains("distance"));
        assert!(compile("KfO2").unwrap_err().reason.contains("'f'"));
    }

    #[test]
    fn hoppers_skis_and_two_legs_compile() {
        let cannon = compile("mRcpR").unwrap();
        assert_eq!(cannon.iter().filter(|r| r.style == Style::Hop).count(), 4);
        assert!(cannon
            .iter()
            .filter(|r| r.style == Style::Hop)
            .all(|r| r.can_capture && !r.can_move));
        let grasshopper = compile("gQ").unwrap();
        assert_eq!(grasshopper.len(), 8);
        assert!(grasshopper.iter().all(|r| r.style == Style::Grasshop));
        let ski = compile("jB").unwrap();
        assert!(ski
            .iter()
            .all(|r| r.style == Style::Ski && r.range == UNLIMITED));
        let jump = compile("jD").unwrap();
        assert!(jump
            .iter()
            .all(|r| r.style == Style::Jump && r.lame_path.len() == 1));
        let horse = compile("mafsW").unwrap();
        assert_eq!(horse.len(), 8);
        let key = |r: &MoveRule| (r.dx, r.dy, r.lame_path.clone());
        let mut a: Vec<_> = horse.iter().map(key).collect();
        let mut b: Vec<_> = compile("nN").unwrap().iter().map(key).collect();
        a.sort();
        b.sort();
        assert_eq!(a, b, "mafsW is the lame knight nN");
        let moa = compile("mafsF").unwrap();
        assert_eq!(moa.len(), 8);
        assert!(moa
            .iter()
            .all(|r| r.lame_path[0].0 != 0 && r.lame_path[0].1 != 0));
        assert!(compile("mafsafW").unwrap_err().reason.contains("two legs"));
        assert!(compile("maW").unwrap_err().reason.contains("direction"));
        assert!(compile("cafsW").unwrap_err().reason.contains("'c'"));
    }

    #[test]
    fn refuses_unknown_parts() {
        assert!(compile("X").unwrap_err().reason.contains("'X'"));
        assert!(compile("tR").unwrap_err().reason.contains("'t'"));
        assert!(compile("fR f").is_err());
        assert!(compile("Rf").unwrap_err().reason.contains("'f'"));
        assert!(compile("nNN").is_err());
        assert!(compile("").is_err());
        assert!(compile("nZ").is_err());
        assert!(compile("pN").unwrap_err().reason.contains("hoppers"));
        assert!(compile("pR4").unwrap_err().reason.contains("hoppers"));
        assert!(compile("jW").unwrap_err().reason.contains("jump"));
        assert!(compile("eR").unwrap_err().reason.contains("en passant"));
        assert!(compile("npR").unwrap_err().reason.contains("only one"));
    }

    #[test]
    fn overlapping_components_are_detected() {
        let ba = compile("BA").unwrap();
        let b = ba.iter().find(|r| (r.dx, r.dy) == (1, 1)).unwrap();
        let a = ba.iter().find(|r| (r.dx, r.dy) == (2, 2)).unwrap();
        assert!(b.overlaps(a));
        let rn = compile("RN").unwrap();
        assert!(!rn[0].overlaps(&rn[5]));
    }
}
