//! The plain move rules' reach on boards of at most 128 squares (holes included), as 128-bit
//! sets over the board rectangle, for the board-dependent terms ([`super::activity`]): a rule's
//! squares from a square are looked up and a rider's first blocker is found by a bit scan, instead
//! of walking the mailbox square by square. Chess, Capablanca, Grand and shatranj fit; bigger
//! boards (Spider-Chess) and wrapping rules keep the walk.

use super::super::variant::{Variant, OFF};

/// A dense square number meaning "not on the board".
pub(crate) const NO_SQUARE: u8 = u8::MAX;

/// What one plain move rule reaches from each square, or several one-square rules of one piece
/// with the same abilities (a knight's eight leaps are one).
#[derive(Clone, Debug)]
pub(crate) struct RuleReach {
    /// Whether the rule moves to an empty square.
    pub can_move: bool,
    /// Whether the rule captures (and so attacks).
    pub can_capture: bool,
    /// Whether it reaches at most one square from any square (a leap, or leaps merged): no
    /// blocker to look for.
    single: bool,
    /// Whether the rule goes towards higher square numbers: its first blocker is then the lowest
    /// occupied square of its reach, else the highest.
    up: bool,
    /// Per square: the squares within the rule's range, up to the edge or a hole.
    reach: Vec<u128>,
    /// Per square: the squares that must be empty for the rule to apply (lame rules; empty when
    /// the rule is not lame).
    lame: Vec<u128>,
    /// Its number among the colour's distinct rules (rules of several kinds with the same reach
    /// share it, as the queen's rays share the rook's and the bishop's), below
    /// [`SHARED_RULES`]; or that bound when there are more: what a square reaches by it can then
    /// be worked out once for all kinds.
    pub shared: u8,
}

/// How many distinct rules per colour get a [`RuleReach::shared`] number.
pub(crate) const SHARED_RULES: usize = 64;

impl RuleReach {
    /// The squares the rule reaches from `from` on a board occupied by `occupied`: its empty
    /// squares up to the first occupied one, that one included (0 when a lame square is
    /// occupied).
    #[inline(always)]
    pub(crate) fn reached(&self, from: usize, occupied: u128) -> u128 {
        if !self.lame.is_empty() && self.lame[from] & occupied != 0 {
            return 0;
        }
        let ray = self.reach[from];
        let blocked = ray & occupied;
        if self.single || blocked == 0 {
            return ray;
        }
        if self.up {
            let first = blocked & blocked.wrapping_neg();
            ray & (first << 1).wrapping_sub(1)
        } else {
            let first = 1u128 << (127 - blocked.leading_zeros());
            ray & !(first - 1)
        }
    }
}

/// One kind's plain rules for one colour.
#[derive(Clone, Debug, Default)]
pub(crate) struct KindRules {
    pub rules: Vec<RuleReach>,
    /// Whether no two of its rules reach a common square from any square: a piece's squares
    /// may then be counted once over the union of its rules.
    pub disjoint: bool,
}

/// The variant's reach tables (see the module).
#[derive(Clone, Debug)]
pub(crate) struct AttackTables {
    /// Per mailbox cell: its square number `rank * files + file`, [`NO_SQUARE`] off the board.
    pub dense: Vec<u8>,
    /// Per colour and kind: its plain rules.
    pub rules: [Vec<KindRules>; 2],
    /// Whether the processor counts bits in one instruction (checked when the variant loads).
    pub popcnt: bool,
    /// Per square: the royal piece's zone there, itself and its playable neighbours.
    pub zone: Vec<u128>,
    /// Per kind: the kinds worth more than it, royal piece excluded (a bit per kind; none for
    /// the royal piece): the targets its attack threatens.
    pub richer: Vec<u32>,
    /// Per file: its squares.
    pub files: Vec<u128>,
    /// Per colour and square: the squares on its file and the neighbouring ones that lie ahead
    /// of it (an enemy pawn there stops a pawn from being passed).
    pub ahead: [Vec<u128>; 2],
    /// Per colour and square of its royal piece: the squares one or two ranks in front of it
    /// on its file and the neighbouring ones (usual pawns only, else empty).
    pub shelter: [Vec<u128>; 2],
    /// Per square: its mailbox cell.
    pub cell: Vec<u16>,
}

impl AttackTables {
    /// The tables of `v` (`pawn_forward`: its usual pawn's forward steps, for the shelter), or
    /// `None` when its board has more than 128 squares or a rule's squares
    /// do not run one way through the square numbers (a wrapping board).
    pub(crate) fn new(v: &Variant, pawn_forward: Option<[isize; 2]>) -> Option<AttackTables> {
        let def = v.definition();
        let (files, ranks) = (def.files as usize, def.ranks as usize);
        let squares = files * ranks;
        if squares > 128 {
            return None;
        }
        let cell: Vec<u16> = (0..squares)
            .map(|d| v.index((d % files) as u8, (d / files) as u8) as u16)
            .collect();
        let mut dense = vec![NO_SQUARE; v.size];
        for (d, &c) in cell.iter().enumerate() {
            if v.template[c as usize] != OFF {
                dense[c as usize] = d as u8;
            }
        }
        let on = |t: isize| t >= 0 && (t as usize) < v.size && v.template[t as usize] != OFF;
        let mut rules: [Vec<KindRules>; 2] = [Vec::new(), Vec::new()];
        for (c, per_kind) in rules.iter_mut().enumerate() {
            for steps in &v.steps[c] {
                let mut kind_rules: Vec<RuleReach> = Vec::new();
                for st in steps {
                    let range = if st.lame_len > 0 {
                        1
                    } else {
                        st.range as usize
                    };
                    let mut reach = vec![0u128; squares];
                    let mut lame = if st.lame_len > 0 {
                        vec![0u128; squares]
                    } else {
                        Vec::new()
                    };
                    let mut longest = 0;
                    for &sq in &v.playable {
                        let from = sq as isize;
                        let d = dense[sq as usize] as usize;
                        if st.lame_len > 0 {
                            let path = &st.lame[..st.lame_len as usize];
                            if !path.iter().all(|&l| on(from + l)) {
                                // A lame square off the board: the rule never applies here.
                                continue;
                            }
                            for &l in path {
                                lame[d] |= 1 << dense[(from + l) as usize];
                            }
                        }
                        let mut t = from;
                        let mut last = d as isize;
                        let mut n = 0;
                        for _ in 0..range {
                            t += st.delta;
                            if !on(t) {
                                break;
                            }
                            let td = dense[t as usize] as isize;
                            if (td - last).signum() != st.delta.signum() {
                                return None;
                            }
                            last = td;
                            reach[d] |= 1 << td;
                            n += 1;
                        }
                        longest = longest.max(n);
                    }
                    let single = longest <= 1;
                    // One-square rules with the same abilities and no common square are one.
                    let merge = single && lame.is_empty();
                    if merge {
                        if let Some(r) = kind_rules.iter_mut().find(|r| {
                            r.single
                                && r.lame.is_empty()
                                && r.can_move == st.can_move
                                && r.can_capture == st.can_capture
                                && r.reach.iter().zip(&reach).all(|(a, b)| a & b == 0)
                        }) {
                            r.reach.iter_mut().zip(&reach).for_each(|(a, b)| *a |= b);
                            continue;
                        }
                    }
                    kind_rules.push(RuleReach {
                        can_move: st.can_move,
                        can_capture: st.can_capture,
                        single,
                        up: st.delta > 0,
                        reach,
                        lame,
                        shared: SHARED_RULES as u8,
                    });
                }
                let disjoint = (0..squares).all(|d| {
                    let mut seen = 0u128;
                    kind_rules.iter().all(|r| {
                        let fresh = r.reach[d] & seen == 0;
                        seen |= r.reach[d];
                        fresh
                    })
                });
                per_kind.push(KindRules {
                    rules: kind_rules,
                    disjoint,
                });
            }
        }
        for per_kind in rules.iter_mut() {
            let mut distinct: Vec<&RuleReach> = Vec::new();
            let mut numbers = Vec::new();
            for rule in per_kind.iter().flat_map(|k| &k.rules) {
                let same = |r: &&RuleReach| {
                    r.single == rule.single
                        && r.up == rule.up
                        && r.reach == rule.reach
                        && r.lame == rule.lame
                };
                let n = match distinct.iter().position(same) {
                    Some(n) => n,
                    None => {
                        distinct.push(rule);
                        distinct.len() - 1
                    }
                };
                numbers.push(n.min(SHARED_RULES) as u8);
            }
            let mut numbers = numbers.into_iter();
            for rule in per_kind.iter_mut().flat_map(|k| &mut k.rules) {
                rule.shared = numbers.next().expect("one number per rule");
            }
        }
        let stride = v.stride as isize;
        let mut zone = vec![0u128; squares];
        for &sq in &v.playable {
            let k = sq as isize;
            for dy in -1..=1 {
                for dx in -1..=1 {
                    let t = k + dy * stride + dx;
                    if on(t) {
                        zone[dense[sq as usize] as usize] |= 1 << dense[t as usize];
                    }
                }
            }
        }
        let kinds = def.pieces.len();
        let richer = (0..kinds)
            .map(|k| {
                if k as u8 == v.royal {
                    return 0;
                }
                (0..kinds)
                    .filter(|&j| j as u8 != v.royal && v.values[j] > v.values[k])
                    .fold(0u32, |m, j| m | 1 << j)
            })
            .collect();
        let mut file_sets = vec![0u128; files];
        let mut up = vec![0u128; squares];
        let mut down = vec![0u128; squares];
        for (d, (up, down)) in up.iter_mut().zip(&mut down).enumerate() {
            let (x, y) = (d % files, d / files);
            file_sets[x] |= 1 << d;
            for e in 0..squares {
                let (ex, ey) = (e % files, e / files);
                if ex.abs_diff(x) <= 1 {
                    if ey > y {
                        *up |= 1 << e;
                    } else if ey < y {
                        *down |= 1 << e;
                    }
                }
            }
        }
        let ahead = [up, down];
        let mut shelter = [Vec::new(), Vec::new()];
        if let Some(fwd) = pawn_forward {
            for (c, per_square) in shelter.iter_mut().enumerate() {
                *per_square = vec![0u128; squares];
                for &sq in &v.playable {
                    let k = sq as isize;
                    for ahead in 1..=2 {
                        for dx in -1..=1 {
                            let t = k + ahead * fwd[c] + dx;
                            if on(t) {
                                per_square[dense[sq as usize] as usize] |= 1 << dense[t as usize];
                            }
                        }
                    }
                }
            }
        }
        Some(AttackTables {
            dense,
            rules,
            popcnt: has_popcnt(),
            files: file_sets,
            ahead,
            shelter,
            cell,
            zone,
            richer,
        })
    }
}

/// Whether the processor has the `popcnt` instruction.
fn has_popcnt() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        std::arch::is_x86_feature_detected!("popcnt")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}
