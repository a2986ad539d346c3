//! Betza notation compiler: turns a piece description such as `fWfnDfnHfmF` or `RNNA7` into the
//! list of move rules the move generator runs.
//!
//! Supported: atoms `W F D N A H C Z G K R B Q`, doubled atoms as riders (`NN`, `AA`), numeric range
//! limits (`A7`: at most 7 leaps, `0` meaning unlimited), direction modifiers `f b l r v s` (and the
//! pairs `fl fr bl br lf rf lb rb ff bb ll rr fs bs lv rv`), `m` (move only), `c` (capture only)
//! and `n` (lame: the squares passed over must be empty). Everything else is refused.

use std::fmt;

/// Range meaning "as far as the board allows".
pub const UNLIMITED: u8 = u8::MAX;

/// One way a piece moves, seen from White (rank steps `dy > 0` go forward).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveRule {
    /// File step of one leap (positive towards higher files).
    pub dx: i8,
    /// Rank step of one leap (positive = forward for the mover).
    pub dy: i8,
    /// Maximum number of leaps in the same direction: 1 for a leaper, [`UNLIMITED`] for a slider.
    pub range: u8,
    /// Squares a lame leap passes over, as offsets from the origin; all must be empty playable squares.
    pub lame_path: Vec<(i8, i8)>,
    /// Whether the rule may end on an empty square.
    pub can_move: bool,
    /// Whether the rule may end on an enemy piece, capturing it.
    pub can_capture: bool,
}

impl MoveRule {
    /// Whether two rules can reach the same target square (then the generator must list it once).
    pub fn overlaps(&self, other: &MoveRule) -> bool {
        let r1 = self.range.min(40) as i32;
        let r2 = other.range.min(40) as i32;
        (1..=r1).any(|k1| {
            (1..=r2).any(|k2| {
                k1 * self.dx as i32 == k2 * other.dx as i32
                    && k1 * self.dy as i32 == k2 * other.dy as i32
            })
        })
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
            if !matches!(c, 'f' | 'b' | 'l' | 'r' | 'v' | 's' | 'm' | 'c' | 'n') {
                return Err(err(format!(
                    "unsupported modifier '{c}' at position {}",
                    i + 1
                )));
            }
            mods.push(c);
            i += 1;
            continue;
        }
        let Some((leaps, slider)) = atom_leaps(c) else {
            return Err(err(format!("unknown atom '{c}' at position {}", i + 1)));
        };
        let start = i;
        i += 1;
        let mut range: u8 = if slider { UNLIMITED } else { 1 };
        if !slider && chars.get(i) == Some(&c) {
            range = UNLIMITED;
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
        let token: String = chars[start..i].iter().collect();
        let token = format!("{}{}", mods.iter().collect::<String>(), token);
        let dirs: Vec<char> = mods
            .iter()
            .copied()
            .filter(|c| "fblrvs".contains(*c))
            .collect();
        let only_move = mods.contains(&'m');
        let only_capture = mods.contains(&'c');
        let (can_move, can_capture) = match (only_move, only_capture) {
            (true, false) => (true, false),
            (false, true) => (false, true),
            _ => (true, true),
        };
        let lame = mods.contains(&'n');
        if lame && range != 1 {
            return Err(err(format!("lame riders are not supported ('{token}')")));
        }
        let groups = direction_groups(&dirs);
        let mut selected = 0;
        for &base in leaps {
            for v in symmetric(base) {
                if !groups.is_empty() && !groups.iter().any(|g| selects(g, v)) {
                    continue;
                }
                let path = if lame {
                    lame_path(v).ok_or_else(|| {
                        err(format!("lameness is undefined for the atom in '{token}'"))
                    })?
                } else {
                    Vec::new()
                };
                selected += 1;
                let rule = MoveRule {
                    dx: v.0,
                    dy: v.1,
                    range,
                    lame_path: path,
                    can_move,
                    can_capture,
                };
                match rules.iter_mut().find(|r| {
                    (r.dx, r.dy, &r.lame_path, r.can_move, r.can_capture)
                        == (
                            rule.dx,
                            rule.dy,
                            &rule.lame_path,
                            rule.can_move,
                            rule.can_capture,
                        )
                }) {
                    Some(r) => r.range = r.range.max(rule.range),
                    None => rules.push(rule),
                }
            }
        }
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
    fn refuses_unknown_parts() {
        assert!(compile("X").unwrap_err().reason.contains("'X'"));
        assert!(compile("pR").unwrap_err().reason.contains("'p'"));
        assert!(compile("fR f").is_err());
        assert!(compile("Rf").unwrap_err().reason.contains("'f'"));
        assert!(compile("nNN").is_err());
        assert!(compile("").is_err());
        assert!(compile("nZ").is_err());
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
