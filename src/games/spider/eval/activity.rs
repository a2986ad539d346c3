//! The evaluation's board-dependent terms, computed from scratch at each evaluation from the
//! variant's compiled move rules (so every loaded variant gets them) on fixed-size stack bit sets
//! (no allocation):
//!
//! - **Mobility** per piece kind: the squares a non-pawn, non-royal piece reaches with its plain
//!   rules (riders along their rays; an empty square where the rule moves, an enemy piece where
//!   it captures), not counting squares an enemy pawn attacks; minus the kind's expected mobility
//!   at the start's density, so that the term does not shift the material values.
//! - **Threats**: a non-royal piece attacked by an enemy piece worth less (a pawn included).
//! - **Hanging**: a non-royal piece attacked by the enemy and defended by none of its own.
//! - **Passed pawns**: a pawn with no enemy pawn ahead of it on its own or a neighbouring file,
//!   scaled by how far it has come towards the promotion zone ([`passed_units`]).
//!
//! - **King danger**: per side, the squares next to its royal piece (and its own square) that
//!   enemy non-pawn, non-royal pieces attack, each attack weighted by the attacker's value in
//!   pawns (1 to `DANGER_SCALE_MAX`); the sum `d` gives `min(d², DANGER_CAP) / DANGER_DIV` units
//!   ([`danger_units`]), so several attackers weigh far more than one.
//! - **King attack**: per side, how hard the enemy presses on its royal piece
//!   ([`KingAttack::units`]): the enemy non-pawn, non-royal pieces attacking the squares around it
//!   (their number squared) and their attacks there, those squares defended by nothing but the
//!   royal piece, the enemy kinds that can give check on a square the side does not attack and
//!   the checking squares it does attack; squared, and nothing while the enemy has no piece of
//!   (nearly) its strongest kind (the queen of chess).
//! - **Pawn shelter**: own pawns on the royal piece's file and its neighbours one or two ranks in
//!   front of it (only for usual pawns, [`usual_pawn_forward`]).
//! - **Doubled / isolated pawns** (usual pawns only): pawns sharing their file with an own
//!   pawn; pawns with no own pawn on a neighbouring file.
//! - **Connected pawns**: pawns an own pawn defends or (usual pawns) with an own pawn beside
//!   them on the same rank.
//! - **Open files**: file riders (pieces that slide more than one square along their file, as
//!   the rook does) on a file with none of their own pawns.
//! - **Space** (usual pawns only): the squares of a side's space area ([`space_area`]) that
//!   hold none of its pawns and no enemy pawn attacks, those one to three squares behind an own
//!   pawn and attacked by no enemy piece counted twice, times `(pieces − 3)² / 64` for the
//!   side's number of pieces ([`space_units`]): room to bring the pieces into play, worth most
//!   with a full board (the shape of Stockfish's space term).
//!
//! Special rules (hoppers, `i`, en passant) do not count; squares reached by two rules of one piece
//! count twice.
//!
//! On boards of at most 128 squares every term is counted on 128-bit sets from per-square reach
//! tables ([`super::attack_sets`]): in chess that takes about 60 % of the time of walking the
//! rules on the mailbox, which bigger boards still do. Both give the same tallies (tested).

use super::super::position::Position;
use super::super::variant::{cell_color, cell_kind, Variant, EMPTY, MAX_KINDS, OFF};
use super::attack_sets::{AttackTables, NO_SQUARE, SHARED_RULES};
use super::EvalWeights;

/// A set of mailbox cells on the stack, in `W` 64-bit words (a power of two: the index is
/// masked, so the compiler drops the bounds checks).
#[derive(Clone, Copy)]
struct Cells<const W: usize>([u64; W]);

impl<const W: usize> Cells<W> {
    #[inline(always)]
    fn set(&mut self, i: usize) {
        self.0[(i >> 6) & (W - 1)] |= 1 << (i & 63);
    }

    #[inline(always)]
    fn has(&self, i: usize) -> bool {
        self.0[(i >> 6) & (W - 1)] >> (i & 63) & 1 != 0
    }
}

/// Per side: the squares its pawns attack, the squares it attacks and its pieces attacked by a
/// cheaper enemy piece, by mailbox cell.
struct Walked<const W: usize> {
    pawn_attacks: [Cells<W>; 2],
    attacks: [Cells<W>; 2],
    weak: [Cells<W>; 2],
}

/// Per side: the board-dependent terms' tallies (the features before the White-minus-Black
/// difference).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Activity {
    /// Per side and kind: safe squares reached minus the kind's expected mobility, summed over
    /// its pieces.
    pub mobility: [[i16; MAX_KINDS]; 2],
    /// Per side: passed-pawn units ([`passed_units`]) of its passed pawns.
    pub passed: [i32; 2],
    /// Per side: its pieces attacked by a cheaper enemy piece.
    pub threat: [i16; 2],
    /// Per side: its pieces attacked and not defended.
    pub hanging: [i16; 2],
    /// Per side: king-danger units against its royal piece ([`danger_units`]).
    pub danger: [i32; 2],
    /// Per side: what the enemy brings against its royal piece ([`KingAttack`]).
    pub king_attack: [KingAttack; 2],
    /// Per side: its pawns sheltering its royal piece.
    pub shelter: [i16; 2],
    /// Per side: its pawns on a file with another of its pawns.
    pub doubled: [i16; 2],
    /// Per side: its isolated pawns.
    pub isolated: [i16; 2],
    /// Per side: its connected pawns (defended by an own pawn, or one beside them).
    pub connected: [i16; 2],
    /// Per side: its file riders on files without own pawns.
    pub open_file: [i16; 2],
    /// Per side: its space units ([`space_units`]).
    pub space: [i32; 2],
}

impl Default for Activity {
    fn default() -> Self {
        Activity {
            mobility: [[0; MAX_KINDS]; 2],
            passed: [0; 2],
            threat: [0; 2],
            hanging: [0; 2],
            danger: [0; 2],
            king_attack: [KingAttack::default(); 2],
            shelter: [0; 2],
            doubled: [0; 2],
            isolated: [0; 2],
            connected: [0; 2],
            open_file: [0; 2],
            space: [0; 2],
        }
    }
}

/// Space units of a side with `pieces` pieces (pawns and royal piece included) and `squares`
/// space squares (the twice-counted ones twice): `squares · max(0, pieces − 3)² / 64` (Stockfish
/// divides by 16; the finer unit leaves the fitted weight room between whole numbers).
#[inline]
pub(crate) fn space_units(squares: u32, pieces: u32) -> i32 {
    let w = pieces.saturating_sub(3) as i32;
    squares as i32 * w * w / 64
}

/// Per colour, the playable squares of its space area: the central files (all but the outer
/// quarter on each side) on the three ranks from its pawns' least advanced start rank (chess:
/// c- to f-file, second to fourth rank). Empty without usual pawns (`pawn_forward`, the
/// variant's [`usual_pawn_forward`]).
pub(crate) fn space_area(v: &Variant, pawn_forward: Option<[isize; 2]>) -> [Vec<u16>; 2] {
    let mut out = [Vec::new(), Vec::new()];
    if pawn_forward.is_none() {
        return out;
    }
    let files = v.definition().files as usize;
    let (lo, hi) = (files / 4, files - 1 - files / 4);
    for (c, area) in out.iter_mut().enumerate() {
        let Some(start) = pawn_start_rank(v, c) else {
            continue;
        };
        for &sq in &v.playable {
            let x = v.coords(sq as usize).0 as usize;
            let a = v.advance[c][sq as usize] as i32;
            if (lo..=hi).contains(&x) && (start..start + 3).contains(&a) {
                area.push(sq);
            }
        }
    }
    out
}

/// Largest attacker weight (pawns of value) in the king-danger sum.
const DANGER_SCALE_MAX: i32 = 12;
/// Cap of the squared king-danger sum.
const DANGER_CAP: i32 = 1600;
/// Divisor of the squared king-danger sum.
const DANGER_DIV: i32 = 8;

/// King-danger units of a value-scaled attack sum `d`: `min(d², DANGER_CAP) / DANGER_DIV`.
#[inline]
pub(crate) fn danger_units(d: i32) -> i32 {
    (d * d).min(DANGER_CAP) / DANGER_DIV
}

/// King attack: per attacker, times the number of attackers.
const KING_ATTACKERS: i32 = 120;
/// King attack: per attack on a square around the royal piece.
const KING_ZONE_HIT: i32 = 30;
/// King attack: per square around the royal piece that the enemy attacks and only the royal
/// piece defends.
const KING_WEAK: i32 = 80;
/// King attack: per enemy kind with a safe check.
const KING_SAFE_CHECK: i32 = 800;
/// King attack: per checking square the defender attacks.
const KING_UNSAFE_CHECK: i32 = 148;
/// King attack: divisor of the squared sum (a weight of 32 makes it `sum² / 4096` cp).
const KING_ATTACK_DIV: i32 = 131_072;

/// What the enemy brings against one side's royal piece (see the module), before
/// [`units`](Self::units) weighs it. The constants follow Stockfish 11's king danger, each chosen
/// by how well a fit to Fairy-Stockfish's static evaluation of chess positions did with it
/// (docs/strength.md).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct KingAttack {
    /// Enemy non-pawn, non-royal pieces attacking a square of the royal piece's zone.
    pub attackers: i32,
    /// Their attacks on the zone's squares (a square two rules of one piece reach counts twice).
    pub zone_hits: i32,
    /// Zone squares the enemy attacks and no own piece but the royal one defends.
    pub weak: i32,
    /// Enemy kinds that can move to a square from which they check, which the side does not
    /// attack.
    pub safe_checks: i32,
    /// Checking squares (of any enemy kind) that the side attacks.
    pub unsafe_checks: i32,
}

impl KingAttack {
    /// King-attack units: `max(0, sum)² / KING_ATTACK_DIV` of the constants' weighted sum (a
    /// side without a strong enemy piece keeps the default tally: 0).
    #[inline]
    pub(crate) fn units(&self) -> i32 {
        let d = KING_ATTACKERS * self.attackers * self.attackers
            + KING_ZONE_HIT * self.zone_hits
            + KING_WEAK * self.weak
            + KING_SAFE_CHECK * self.safe_checks
            + KING_UNSAFE_CHECK * self.unsafe_checks;
        (d.max(0) as i64 * d.max(0) as i64 / KING_ATTACK_DIV as i64).min(i32::MAX as i64) as i32
    }
}

/// Per colour the forward step of the variant's pawn when it is the usual kind (moves straight
/// forward without capturing, captures only one square diagonally forward), else `None`: pawn
/// shelter and doubled / isolated pawns only mean something for such pawns.
pub(crate) fn usual_pawn_forward(v: &Variant) -> Option<[isize; 2]> {
    if v.pawn == super::super::variant::NO_PAWN {
        return None;
    }
    let mut fwd = [0isize; 2];
    for (c, f) in fwd.iter_mut().enumerate() {
        let steps = &v.steps[c][v.pawn as usize];
        let straight = steps
            .iter()
            .filter(|s| s.can_move && !s.can_capture && s.lame_len == 0)
            .min_by_key(|s| s.delta.abs())?;
        let d = straight.delta;
        if d.abs() != v.stride as isize {
            return None;
        }
        let captures_ok = steps
            .iter()
            .filter(|s| s.can_capture)
            .all(|s| s.range == 1 && !s.can_move && (s.delta == d - 1 || s.delta == d + 1));
        if !captures_ok || !steps.iter().any(|s| s.can_capture) {
            return None;
        }
        *f = d;
    }
    Some(fwd)
}

/// The variant's constant tables of these terms.
#[derive(Clone, Debug, Default)]
pub(crate) struct ActivityTables {
    /// A bit per kind worth at least nine tenths of the most valuable one (the queen of chess;
    /// pawn and royal piece excluded): without such a piece a side's king attack counts nothing.
    pub strong: u32,
    /// Per kind: the expected mobility at the start's density, rounded (0 for pawn and royal).
    pub center: Vec<i16>,
    /// Per colour and square: a pawn's passed-pawn units there.
    pub passed: [Vec<u8>; 2],
    /// Per colour the usual pawn's forward step ([`usual_pawn_forward`]).
    pub pawn_forward: Option<[isize; 2]>,
    /// Per kind: whether it is a file rider ([`file_riders`]).
    pub file_rider: Vec<bool>,
    /// Per colour: the mailbox cells of its space area ([`space_area`]).
    pub space: [Vec<u16>; 2],
    /// Per colour: its space area as a set of [`AttackTables`] squares (0 without the tables).
    pub space_set: [u128; 2],
    /// Whether any weight of these terms is nonzero (else the search skips them).
    pub on: bool,
    /// The rules' reach as bit sets, for boards small enough ([`AttackTables`]).
    pub sets: Option<AttackTables>,
    /// Whether king danger, pawn shelter, doubled, isolated or connected pawns or open files
    /// weigh (else the evaluation does not tally them; `eval_features` still does).
    pub king_pawn: bool,
    /// Whether the king attack's weight is not 0 (it needs `king_pawn`).
    pub king_attack: bool,
}

/// The least advanced start rank of colour `c`'s pawns, counted from its own side (`None`
/// without pawns).
fn pawn_start_rank(v: &Variant, c: usize) -> Option<i32> {
    if v.pawn == super::super::variant::NO_PAWN {
        return None;
    }
    let def = v.definition();
    let pawn = &def.pieces[v.pawn as usize];
    let ranks = def.ranks as i32;
    let starts = if c == 0 { &pawn.white } else { &pawn.black };
    let advance = |y: i32| if c == 0 { y } else { ranks - 1 - y };
    starts.iter().map(|&(_, y)| advance(y as i32)).min()
}

/// Passed-pawn units of a pawn `p` ranks beyond the least advanced start rank of its side's pawns,
/// where the promotion zone begins `span` ranks beyond it: `36 p² / span²`, at most 36 (chess:
/// 1, 4, 9, 16, 25 from the third to the seventh rank).
pub(crate) fn passed_units(v: &Variant) -> [Vec<u8>; 2] {
    let mut out = [vec![0; v.size], vec![0; v.size]];
    if v.pawn == super::super::variant::NO_PAWN {
        return out;
    }
    let def = v.definition();
    let ranks = def.ranks as i32;
    let zone = def.promo_zone as i32;
    for (c, table) in out.iter_mut().enumerate() {
        let Some(start) = pawn_start_rank(v, c) else {
            continue;
        };
        let span = ranks - zone - start;
        if span <= 0 {
            continue;
        }
        for &sq in &v.playable {
            let p = (v.advance[c][sq as usize] as i32 - start).clamp(0, span);
            table[sq as usize] = ((36 * p * p + span * span / 2) / (span * span)) as u8;
        }
    }
    out
}

/// Per kind: whether a piece of it is a file rider, a non-pawn, non-royal piece that slides more
/// than one square along its file (either way), as the rook does.
pub(crate) fn file_riders(v: &Variant) -> Vec<bool> {
    (0..v.definition().pieces.len())
        .map(|k| {
            k as u8 != v.pawn
                && k as u8 != v.royal
                && v.steps[0][k].iter().any(|s| {
                    s.delta.abs() == v.stride as isize
                        && s.range > 1
                        && s.lame_len == 0
                        && s.can_move
                })
        })
        .collect()
}

impl ActivityTables {
    /// The tables of `v` (its weights decide [`on`](Self::on)).
    pub(crate) fn new(v: &Variant) -> ActivityTables {
        let density = super::start_density(v);
        let pawn_forward = usual_pawn_forward(v);
        let center = (0..v.definition().pieces.len())
            .map(|k| {
                if k as u8 == v.pawn || k as u8 == v.royal {
                    0
                } else {
                    super::expected_mobility(v, k, density).round() as i16
                }
            })
            .collect();
        let w = &v.weights;
        let king_pawn = w.king_danger != 0
            || w.king_attack != 0
            || w.pawn_shelter != 0
            || w.doubled != 0
            || w.isolated != 0
            || w.connected != 0
            || w.open_file != 0
            || w.space != 0;
        let top = v.values.iter().copied().max().unwrap_or(0);
        let strong = (0..v.pieces().len())
            .filter(|&k| k as u8 != v.pawn && k as u8 != v.royal && v.values[k] * 10 >= top * 9)
            .fold(0u32, |m, k| m | 1 << k);
        let space = space_area(v, pawn_forward);
        let sets = AttackTables::new(v, pawn_forward);
        let mut space_set = [0u128; 2];
        if let Some(t) = &sets {
            for (set, area) in space_set.iter_mut().zip(&space) {
                for &sq in area {
                    *set |= 1u128 << t.dense[sq as usize];
                }
            }
        }
        ActivityTables {
            center,
            space,
            space_set,
            strong,
            passed: passed_units(v),
            pawn_forward,
            file_rider: file_riders(v),
            sets,
            on: w.passed != 0
                || w.passed_endgame != 0
                || w.threat != 0
                || w.hanging != 0
                || king_pawn
                || w.mobility.iter().any(|&m| m != 0),
            king_pawn,
            king_attack: w.king_attack != 0,
        }
    }
}

impl Activity {
    /// White's score of these terms under weights `w`.
    #[inline]
    pub(crate) fn score(&self, w: &EvalWeights) -> i32 {
        let mut s = 0;
        for (k, &m) in w.mobility.iter().enumerate() {
            s += m * (self.mobility[0][k] - self.mobility[1][k]) as i32;
        }
        s + w.passed * (self.passed[0] - self.passed[1])
            - w.threat * (self.threat[0] - self.threat[1]) as i32
            - w.hanging * (self.hanging[0] - self.hanging[1]) as i32
            - w.king_danger * (self.danger[0] - self.danger[1])
            - w.king_attack * (self.king_attack[0].units() - self.king_attack[1].units())
            + w.pawn_shelter * (self.shelter[0] - self.shelter[1]) as i32
            - w.doubled * (self.doubled[0] - self.doubled[1]) as i32
            - w.isolated * (self.isolated[0] - self.isolated[1]) as i32
            + w.connected * (self.connected[0] - self.connected[1]) as i32
            + w.open_file * (self.open_file[0] - self.open_file[1]) as i32
            + w.space * (self.space[0] - self.space[1])
    }
}

impl Position {
    /// Tallies the board-dependent terms (see the module) on the current board.
    pub(crate) fn activity(&self) -> Activity {
        self.activity_with(true, true)
    }

    /// [`activity`](Self::activity), leaving king danger, shelter, doubled, isolated and
    /// connected pawns and open files at 0 unless `king_pawn`, and the king attack unless
    /// `king_attack` (which needs `king_pawn`; the evaluation skips them while their weights are
    /// 0).
    pub(crate) fn activity_with(&self, king_pawn: bool, king_attack: bool) -> Activity {
        if let Some(t) = &self.variant.activity.sets {
            return self.activity_looked_up(t, king_pawn, king_attack);
        }
        self.activity_walked(king_pawn, king_attack)
    }

    /// [`activity_with`](Self::activity_with) by walking the rules on the mailbox, whatever the
    /// board's size.
    pub(crate) fn activity_walked(&self, king_pawn: bool, king_attack: bool) -> Activity {
        // The smallest bit sets that hold the mailbox (at most 38 × 38 = 1444 cells).
        match self.variant.size {
            0..=256 => self.activity_in::<4>(king_pawn, king_attack),
            257..=512 => self.activity_in::<8>(king_pawn, king_attack),
            513..=1024 => self.activity_in::<16>(king_pawn, king_attack),
            _ => self.activity_in::<32>(king_pawn, king_attack),
        }
    }

    /// [`activity_walked`](Self::activity_walked) with bit sets of `W` words.
    fn activity_in<const W: usize>(&self, king_pawn: bool, king_attack: bool) -> Activity {
        let mut out = Activity::default();
        let sets = self.attacks_walked::<W>(king_pawn, king_attack, &mut out);
        self.tally_pieces(&sets, king_pawn, &mut out);
        out
    }

    /// The attack sets, and the mobility and king danger into `out`, by walking every rule
    /// square by square on the mailbox.
    fn attacks_walked<const W: usize>(
        &self,
        king_pawn: bool,
        king_attack: bool,
        out: &mut Activity,
    ) -> Walked<W> {
        let v = &*self.variant;
        let board = &self.board[..];
        let empty = Cells::<W>([0; W]);
        // The squares around each royal piece (its own included), for king danger.
        let stride = v.stride as isize;
        let mut zone = [empty; 2];
        for (c, z) in zone.iter_mut().enumerate().filter(|_| king_pawn) {
            let k = self.king[c] as isize;
            for dy in -1..=1 {
                for dx in -1..=1 {
                    let t = k + dy * stride + dx;
                    if board[t as usize] != OFF {
                        z.set(t as usize);
                    }
                }
            }
        }
        let mut attack_sum = [0i32; 2];
        let mut pawn_attacks = [empty; 2];
        let mut attacks = [empty; 2];
        let mut weak = [empty; 2];
        let pawn = v.pawn;
        // Pawns first: their attacks decide the other pieces' safe squares.
        for c in 0..2 {
            for &sq in &self.list[c] {
                if cell_kind(board[sq as usize]) != pawn {
                    continue;
                }
                let reached = self.captures_walked::<W>(c, pawn as usize, sq as usize);
                for (i, &word) in reached.0.iter().enumerate() {
                    pawn_attacks[c].0[i] |= word;
                    // The occupied squares a pawn reaches are the ones its rules stop at.
                    let mut bits = word;
                    while bits != 0 {
                        let t = i * 64 + bits.trailing_zeros() as usize;
                        bits &= bits - 1;
                        let tc = board[t];
                        if tc != EMPTY && cell_color(tc).index() != c {
                            let vk = cell_kind(tc);
                            if vk != v.royal && v.values[pawn as usize] < v.values[vk as usize] {
                                weak[1 - c].set(t);
                            }
                        }
                    }
                }
            }
            attacks[c] = pawn_attacks[c];
        }
        // Per side: the squares its pawns and non-royal pieces attack; what is brought against
        // its royal piece.
        let mut guarded = pawn_attacks;
        let mut against = [KingAttack::default(); 2];
        let center = &v.activity.center;
        for c in 0..2 {
            let theirs = pawn_attacks[1 - c];
            for &sq in &self.list[c] {
                let kind = cell_kind(board[sq as usize]);
                if kind == pawn {
                    continue;
                }
                let value = if kind == v.royal {
                    i32::MAX
                } else {
                    v.values[kind as usize]
                };
                let from = sq as isize;
                let mut mob = 0i16;
                let mut hits = 0i32;
                let enemy_zone = zone[1 - c];
                for st in &v.steps[c][kind as usize] {
                    if st.lame_len > 0
                        && !(0..st.lame_len as usize)
                            .all(|i| board[(from + st.lame[i]) as usize] == EMPTY)
                    {
                        continue;
                    }
                    let range = if st.lame_len > 0 { 1 } else { st.range };
                    let mut t = from;
                    for _ in 0..range {
                        t += st.delta;
                        let ti = t as usize;
                        let tc = board[ti];
                        if tc == OFF {
                            break;
                        }
                        if st.can_capture {
                            attacks[c].set(ti);
                            if king_attack && kind != v.royal {
                                guarded[c].set(ti);
                            }
                            hits += enemy_zone.has(ti) as i32;
                        }
                        if tc == EMPTY {
                            mob += (st.can_move && !theirs.has(ti)) as i16;
                            continue;
                        }
                        if st.can_capture && cell_color(tc).index() != c {
                            mob += !theirs.has(ti) as i16;
                            let vk = cell_kind(tc);
                            if vk != v.royal && value < v.values[vk as usize] {
                                weak[1 - c].set(ti);
                            }
                        }
                        break;
                    }
                }
                if kind != v.royal {
                    out.mobility[c][kind as usize] += mob - center[kind as usize];
                    let scale = (value / 100).clamp(1, DANGER_SCALE_MAX);
                    attack_sum[1 - c] += hits * scale;
                    if king_attack && hits > 0 {
                        against[1 - c].attackers += 1;
                        against[1 - c].zone_hits += hits;
                    }
                }
            }
        }
        for (d, &sum) in out.danger.iter_mut().zip(&attack_sum) {
            *d = danger_units(sum);
        }
        if king_attack {
            for c in 0..2 {
                let strong = self.list[1 - c]
                    .iter()
                    .any(|&sq| v.activity.strong >> cell_kind(board[sq as usize]) & 1 != 0);
                if !strong || board[self.king[c] as usize] == OFF {
                    against[c] = KingAttack::default();
                    continue;
                }
                let ka = &mut against[c];
                for i in 0..W {
                    ka.weak +=
                        (zone[c].0[i] & attacks[1 - c].0[i] & !guarded[c].0[i]).count_ones() as i32;
                }
                self.checks_walked(c, &attacks[c], ka);
            }
            out.king_attack = against;
        }
        Walked {
            pawn_attacks,
            attacks,
            weak,
        }
    }

    /// The squares piece `kind` of colour `c` on `from` captures on: along each capturing rule up
    /// to the edge, a hole or the first piece (that one included).
    fn captures_walked<const W: usize>(&self, c: usize, kind: usize, from: usize) -> Cells<W> {
        let board = &self.board[..];
        let mut out = Cells([0; W]);
        for st in self.variant.steps[c][kind]
            .iter()
            .filter(|st| st.can_capture)
        {
            let from = from as isize;
            if st.lame_len > 0
                && !(0..st.lame_len as usize).all(|i| board[(from + st.lame[i]) as usize] == EMPTY)
            {
                continue;
            }
            let range = if st.lame_len > 0 { 1 } else { st.range };
            let mut t = from;
            for _ in 0..range {
                t += st.delta;
                let tc = board[t as usize];
                if tc == OFF {
                    break;
                }
                out.set(t as usize);
                if tc != EMPTY {
                    break;
                }
            }
        }
        out
    }

    /// The enemy's checks against side `c`'s royal piece into `ka`, by walking: per enemy
    /// non-pawn, non-royal kind, the squares its pieces reach (not its own) from which it would
    /// attack the royal piece (found by moving side `c`'s piece of that kind from the royal
    /// square); `attacked`: the squares side `c` attacks.
    fn checks_walked<const W: usize>(&self, c: usize, attacked: &Cells<W>, ka: &mut KingAttack) {
        let v = &*self.variant;
        let board = &self.board[..];
        let e = 1 - c;
        let mut theirs = Cells([0; W]);
        for &sq in &self.list[e] {
            theirs.set(sq as usize);
        }
        let mut seen = 0u32;
        for &sq in &self.list[e] {
            let kind = cell_kind(board[sq as usize]);
            if kind == v.pawn || kind == v.royal || seen >> kind & 1 != 0 {
                continue;
            }
            seen |= 1 << kind;
            let k = kind as usize;
            let checking = self.captures_walked::<W>(c, k, self.king[c] as usize);
            let mut reached = Cells([0; W]);
            for &from in &self.list[e] {
                if cell_kind(board[from as usize]) == kind {
                    let r = self.captures_walked::<W>(e, k, from as usize);
                    for i in 0..W {
                        reached.0[i] |= r.0[i];
                    }
                }
            }
            let mut safe = false;
            for i in 0..W {
                let checks = reached.0[i] & checking.0[i] & !theirs.0[i];
                safe |= checks & !attacked.0[i] != 0;
                ka.unsafe_checks += (checks & attacked.0[i]).count_ones() as i32;
            }
            ka.safe_checks += safe as i32;
        }
    }

    /// [`activity_walked`](Self::activity_walked) from the variant's reach tables, every term
    /// on bit sets, counting bits in one instruction where the processor can.
    fn activity_looked_up(&self, t: &AttackTables, king_pawn: bool, king_attack: bool) -> Activity {
        #[cfg(target_arch = "x86_64")]
        if t.popcnt {
            // SAFETY: the tables were built on this processor, which has `popcnt`.
            return unsafe {
                if king_attack {
                    self.activity_looked_up_popcnt::<true>(t, king_pawn)
                } else {
                    self.activity_looked_up_popcnt::<false>(t, king_pawn)
                }
            };
        }
        self.activity_looked_up_plain(t, king_pawn, king_attack)
    }

    /// [`activity_looked_up_in`](Self::activity_looked_up_in) without `popcnt`.
    fn activity_looked_up_plain(
        &self,
        t: &AttackTables,
        king_pawn: bool,
        king_attack: bool,
    ) -> Activity {
        if king_attack {
            self.activity_looked_up_in::<true>(t, king_pawn)
        } else {
            self.activity_looked_up_in::<false>(t, king_pawn)
        }
    }

    /// [`activity_looked_up_in`](Self::activity_looked_up_in) compiled with `popcnt`.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "popcnt")]
    unsafe fn activity_looked_up_popcnt<const KING_ATTACK: bool>(
        &self,
        t: &AttackTables,
        king_pawn: bool,
    ) -> Activity {
        self.activity_looked_up_in::<KING_ATTACK>(t, king_pawn)
    }

    /// The tallies from the reach tables; the king attack only with `KING_ATTACK` (a constant,
    /// so that without it the per-kind attack sets it needs are neither filled nor cleared).
    #[inline(always)]
    fn activity_looked_up_in<const KING_ATTACK: bool>(
        &self,
        t: &AttackTables,
        king_pawn: bool,
    ) -> Activity {
        let mut out = Activity::default();
        let v = &*self.variant;
        let board = &self.board[..];
        let pawn = v.pawn;
        let kinds = v.pieces().len();
        let mut own = [0u128; 2];
        let mut by_kind = [[0u128; MAX_KINDS]; 2];
        for c in 0..2 {
            for &sq in &self.list[c] {
                let bit = 1u128 << t.dense[sq as usize];
                own[c] |= bit;
                by_kind[c][cell_kind(board[sq as usize]) as usize] |= bit;
            }
        }
        let occupied = own[0] | own[1];
        // The enemy pieces an attack by `kind` of side `c` threatens.
        let richer = |c: usize, kind: u8| {
            let mut kinds = t.richer[kind as usize];
            let mut set = 0;
            while kinds != 0 {
                set |= by_kind[1 - c][kinds.trailing_zeros() as usize];
                kinds &= kinds - 1;
            }
            set
        };
        let mut zone = [0u128; 2];
        if king_pawn {
            for (c, z) in zone.iter_mut().enumerate() {
                let k = t.dense[self.king[c] as usize];
                if k != NO_SQUARE {
                    *z = t.zone[k as usize];
                }
            }
        }
        let mut pawn_attacks = [0u128; 2];
        let mut weak = [0u128; 2];
        // Pawns first: their attacks decide the other pieces' safe squares.
        if pawn != super::super::variant::NO_PAWN {
            for c in 0..2 {
                let targets = richer(c, pawn);
                let mut pawns = by_kind[c][pawn as usize];
                while pawns != 0 {
                    let from = pawns.trailing_zeros() as usize;
                    pawns &= pawns - 1;
                    for rule in &t.rules[c][pawn as usize].rules {
                        if rule.can_capture {
                            let r = rule.reached(from, occupied);
                            pawn_attacks[c] |= r;
                            weak[1 - c] |= r & targets;
                        }
                    }
                }
            }
        }
        let mut attacks = pawn_attacks;
        let mut attack_sum = [0i32; 2];
        // Per side and kind the squares its pieces attack; per side the squares its pawns and
        // non-royal pieces attack; what is brought against each royal piece.
        let mut kind_attacks = [[0u128; MAX_KINDS]; 2];
        let mut guarded = pawn_attacks;
        let mut against = [KingAttack::default(); 2];
        let center = &v.activity.center;
        for c in 0..2 {
            let safe = !pawn_attacks[1 - c];
            let enemy = own[1 - c];
            let empty_safe = !occupied & safe;
            for kind in 0..kinds {
                let mut pieces = by_kind[c][kind];
                if pieces == 0 || kind as u8 == pawn {
                    continue;
                }
                let kr = &t.rules[c][kind];
                let targets = richer(c, kind as u8);
                let mut mob = 0u32;
                let mut hits = 0u32;
                let mut reached = 0u128;
                // Counts the squares a piece captures on and moves to (over one rule, or the
                // union of rules that never share a square); gives its attacks on the enemy
                // royal piece's zone.
                let mut count = |captures: u128, moves: u128| {
                    attacks[c] |= captures;
                    if KING_ATTACK {
                        reached |= captures;
                    }
                    let taken = captures & enemy;
                    mob += (taken & safe).count_ones() + (moves & empty_safe).count_ones();
                    weak[1 - c] |= taken & targets;
                    (captures & zone[1 - c]).count_ones()
                };
                let royal = kind as u8 == v.royal;
                while pieces != 0 {
                    let from = pieces.trailing_zeros() as usize;
                    pieces &= pieces - 1;
                    let mut piece_hits = 0;
                    let (mut moves, mut captures) = (0u128, 0u128);
                    for rule in &kr.rules {
                        let r = rule.reached(from, occupied);
                        let cr = if rule.can_capture { r } else { 0 };
                        let mr = if rule.can_move { r } else { 0 };
                        if kr.disjoint {
                            captures |= cr;
                            moves |= mr;
                        } else {
                            // A square two rules reach counts twice.
                            piece_hits += count(cr, mr);
                        }
                    }
                    piece_hits += count(captures, moves);
                    hits += piece_hits;
                    if KING_ATTACK && piece_hits > 0 && !royal {
                        against[1 - c].attackers += 1;
                        against[1 - c].zone_hits += piece_hits as i32;
                    }
                }
                if KING_ATTACK {
                    kind_attacks[c][kind] = reached;
                    if !royal {
                        guarded[c] |= reached;
                    }
                }
                if !royal {
                    let n = by_kind[c][kind].count_ones() as i16;
                    out.mobility[c][kind] += mob as i16 - n * center[kind];
                    let scale = (v.values[kind] / 100).clamp(1, DANGER_SCALE_MAX);
                    attack_sum[1 - c] += hits as i32 * scale;
                }
            }
        }
        for (d, &sum) in out.danger.iter_mut().zip(&attack_sum) {
            *d = danger_units(sum);
        }
        if KING_ATTACK {
            let mut memo = [0u128; SHARED_RULES];
            for c in 0..2 {
                let e = 1 - c;
                let k = t.dense[self.king[c] as usize];
                let strong =
                    (0..kinds).any(|j| v.activity.strong >> j & 1 != 0 && by_kind[e][j] != 0);
                if !strong || k == NO_SQUARE {
                    against[c] = KingAttack::default();
                    continue;
                }
                let ka = &mut against[c];
                // What each distinct rule reaches from the royal square, worked out once.
                let mut known = 0u64;
                ka.weak = (zone[c] & attacks[e] & !guarded[c]).count_ones() as i32;
                for kind in 0..kinds {
                    if kind as u8 == pawn || kind as u8 == v.royal || by_kind[e][kind] == 0 {
                        continue;
                    }
                    // Side c's piece of this kind on the royal square attacks the squares an
                    // enemy one would check from.
                    let mut checking = 0u128;
                    for rule in t.rules[c][kind].rules.iter().filter(|r| r.can_capture) {
                        let n = rule.shared as usize;
                        checking |= if n < SHARED_RULES {
                            if known >> n & 1 == 0 {
                                memo[n] = rule.reached(k as usize, occupied);
                                known |= 1 << n;
                            }
                            memo[n]
                        } else {
                            rule.reached(k as usize, occupied)
                        };
                    }
                    let checks = kind_attacks[e][kind] & checking & !own[e];
                    ka.safe_checks += (checks & !attacks[c] != 0) as i32;
                    ka.unsafe_checks += (checks & attacks[c]).count_ones() as i32;
                }
            }
            out.king_attack = against;
        }
        let royal = v.royal as usize;
        let no_pawn = pawn == super::super::variant::NO_PAWN;
        let usual = v.activity.pawn_forward.is_some();
        let last = t.files.len() - 1;
        for c in 0..2 {
            let pieces = own[c] & !by_kind[c].get(royal).copied().unwrap_or(0);
            out.threat[c] = weak[c].count_ones() as i16;
            out.hanging[c] = (attacks[1 - c] & !attacks[c] & pieces).count_ones() as i16;
            let pawns = if no_pawn {
                0
            } else {
                by_kind[c][pawn as usize]
            };
            if king_pawn {
                let mut riders = 0;
                for (k, &rider) in v.activity.file_rider.iter().enumerate() {
                    if rider {
                        riders |= by_kind[c][k];
                    }
                }
                let mut open = 0;
                for (x, &file) in t.files.iter().enumerate() {
                    let n = (pawns & file).count_ones();
                    if n == 0 {
                        open |= file;
                    }
                    if usual && n > 0 {
                        if n > 1 {
                            out.doubled[c] += n as i16;
                        }
                        let left = x > 0 && pawns & t.files[x - 1] != 0;
                        let right = x < last && pawns & t.files[x + 1] != 0;
                        if !left && !right {
                            out.isolated[c] += n as i16;
                        }
                    }
                }
                out.open_file[c] = (riders & open).count_ones() as i16;
                let beside = if usual {
                    (pawns << 1 & !t.files[0]) | (pawns >> 1 & !t.files[last])
                } else {
                    0
                };
                out.connected[c] = (pawns & (pawn_attacks[c] | beside)).count_ones() as i16;
                if let Some(fwd) = v.activity.pawn_forward {
                    // Squares one to three ranks behind an own pawn.
                    let rank = t.files.len() as u32;
                    let mut behind = 0u128;
                    for k in 1..=3 {
                        behind |= if fwd[c] > 0 {
                            pawns >> (k * rank)
                        } else {
                            pawns << (k * rank)
                        };
                    }
                    let safe = v.activity.space_set[c] & !pawns & !pawn_attacks[1 - c];
                    let squares =
                        safe.count_ones() + (safe & behind & !attacks[1 - c]).count_ones();
                    out.space[c] = space_units(squares, own[c].count_ones());
                }
                if usual {
                    let k = t.dense[self.king[c] as usize];
                    if k != NO_SQUARE {
                        out.shelter[c] = (pawns & t.shelter[c][k as usize]).count_ones() as i16;
                    }
                }
            }
            if !no_pawn {
                let theirs = by_kind[1 - c][pawn as usize];
                let mut rest = pawns;
                while rest != 0 {
                    let d = rest.trailing_zeros() as usize;
                    rest &= rest - 1;
                    if theirs & t.ahead[c][d] == 0 {
                        out.passed[c] += v.activity.passed[c][t.cell[d] as usize] as i32;
                    }
                }
            }
        }
        out
    }

    /// Threats, hanging pieces, passed pawns, pawn structure and open files into `out`, from
    /// the attack sets.
    fn tally_pieces<const W: usize>(&self, sets: &Walked<W>, king_pawn: bool, out: &mut Activity) {
        let v = &*self.variant;
        let board = &self.board[..];
        let pawn = v.pawn;
        // Per file: the most advanced enemy pawn, for the passed-pawn test (White moves up).
        let stride = v.stride;
        let mut black_max = [i16::MIN; 40];
        let mut white_min = [i16::MAX; 40];
        let mut files = [[0u8; 40]; 2];
        if pawn != super::super::variant::NO_PAWN {
            for (c, side_files) in files.iter_mut().enumerate() {
                for &sq in &self.list[c] {
                    if cell_kind(board[sq as usize]) != pawn {
                        continue;
                    }
                    let (x, y) = v.xy[sq as usize];
                    let x = x as usize;
                    side_files[x] += 1;
                    if c == 0 {
                        white_min[x] = white_min[x].min(y);
                    } else {
                        black_max[x] = black_max[x].max(y);
                    }
                }
            }
        }
        debug_assert!(stride <= 40);
        // Whether a cell holds a pawn of side `c`; whether the pawn is the usual kind.
        let own_pawn = |t: u8, c: usize| {
            t != EMPTY && t != OFF && cell_color(t).index() == c && cell_kind(t) == pawn
        };
        let usual = v.activity.pawn_forward.is_some();
        for (c, own_files) in files.iter().enumerate() {
            for &sq in &self.list[c] {
                let s = sq as usize;
                let kind = cell_kind(board[s]);
                if kind == v.royal {
                    continue;
                }
                out.threat[c] += sets.weak[c].has(s) as i16;
                out.hanging[c] += (sets.attacks[1 - c].has(s) && !sets.attacks[c].has(s)) as i16;
                if king_pawn && v.activity.file_rider[kind as usize] {
                    let x = v.xy[s].0 as usize;
                    out.open_file[c] += (own_files[x] == 0) as i16;
                }
                if kind == pawn {
                    let (x, y) = v.xy[s];
                    let x = x as usize;
                    if king_pawn {
                        let beside = |d: isize| own_pawn(board[(s as isize + d) as usize], c);
                        out.connected[c] += (sets.pawn_attacks[c].has(s)
                            || (usual && (beside(-1) || beside(1))))
                            as i16;
                    }
                    if king_pawn && usual {
                        let n = own_files[x];
                        out.doubled[c] += (n > 1) as i16;
                        out.isolated[c] += (own_files[x - 1] == 0 && own_files[x + 1] == 0) as i16;
                    }
                    let passed = if c == 0 {
                        (x - 1..=x + 1).all(|f| black_max[f] <= y)
                    } else {
                        (x - 1..=x + 1).all(|f| white_min[f] >= y)
                    };
                    if passed {
                        out.passed[c] += v.activity.passed[c][s] as i32;
                    }
                }
            }
        }
        if let Some(fwd) = v.activity.pawn_forward.filter(|_| king_pawn) {
            for (c, &step) in fwd.iter().enumerate() {
                let mut squares = 0;
                for &sq in &v.activity.space[c] {
                    let s = sq as usize;
                    if own_pawn(board[s], c) || sets.pawn_attacks[1 - c].has(s) {
                        continue;
                    }
                    squares += 1;
                    let behind = (1..=3).any(|k| {
                        let t = s as isize + k * step;
                        t >= 0 && (t as usize) < board.len() && own_pawn(board[t as usize], c)
                    });
                    if behind && !sets.attacks[1 - c].has(s) {
                        squares += 1;
                    }
                }
                out.space[c] = space_units(squares, self.list[c].len() as u32);
            }
            for c in 0..2 {
                let k = self.king[c] as isize;
                for ahead in 1..=2 {
                    for dx in -1..=1 {
                        out.shelter[c] +=
                            own_pawn(board[(k + ahead * fwd[c] + dx) as usize], c) as i16;
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::super::position::Position;
    use super::super::super::variant::Variant;
    use super::{space_units, KingAttack, KING_ATTACK_DIV};
    use std::sync::Arc;

    fn chess() -> Arc<Variant> {
        super::super::super::variant::test_variant("chess")
    }

    fn kind(v: &Variant, letter: char) -> usize {
        v.pieces().iter().position(|p| p.letter == letter).unwrap()
    }

    #[test]
    fn mobility_counts_the_squares_enemy_pawns_do_not_attack() {
        let v = chess();
        let n = kind(&v, 'N');
        let center = v.activity.center[n];
        assert!(
            center > 0 && center < 8,
            "knight's expected mobility {center}"
        );
        // Knight e4 alone: 8 squares.
        let alone = Position::from_fen(&v, "4k3/8/8/8/4N3/8/8/4K3 w - - 0 1").unwrap();
        assert_eq!(alone.activity().mobility[0][n], 8 - center);
        // A black pawn on d6: the knight may take it (d6 counts), c5 and e5 are attacked by it
        // (c5 no longer counts; e5 is not a knight square).
        let pawn = Position::from_fen(&v, "4k3/8/3p4/8/4N3/8/8/4K3 w - - 0 1").unwrap();
        assert_eq!(pawn.activity().mobility[0][n], 7 - center);
        // Own pieces block: a white pawn on d6 takes d6 away and attacks nothing the knight needs.
        let own = Position::from_fen(&v, "4k3/8/3P4/8/4N3/8/8/4K3 w - - 0 1").unwrap();
        assert_eq!(own.activity().mobility[0][n], 7 - center);
        // A rook counts along its rays up to the first piece.
        let r = kind(&v, 'R');
        let rook = Position::from_fen(&v, "4k3/8/8/8/8/8/8/R3K3 w - - 0 1").unwrap();
        assert_eq!(
            rook.activity().mobility[0][r],
            7 + 3 - v.activity.center[r],
            "a2..a8 and b1..d1"
        );
    }

    /// The looked-up attack sets give exactly what walking the rules gives, on the positions of
    /// seeded random games in every test variant whose board they fit.
    #[test]
    fn looked_up_sets_tally_what_the_walk_tallies() {
        let dir = format!("{}/tests/data/variants", env!("CARGO_MANIFEST_DIR"));
        let mut files: Vec<_> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|x| x == "txt"))
            .collect();
        files.sort();
        let mut fitted = Vec::new();
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        for path in files {
            let Ok(v) = Variant::from_definition(&std::fs::read_to_string(&path).unwrap()) else {
                continue;
            };
            if v.activity.sets.is_none() {
                continue;
            }
            let name = path.file_stem().unwrap().to_string_lossy().to_string();
            let v = Arc::new(v);
            let mut compared = 0;
            for _game in 0..12 {
                let mut pos = Position::startpos(&v);
                for _ply in 0..120 {
                    let sets = v.activity.sets.as_ref().unwrap();
                    for (king_pawn, king_attack) in [(false, false), (true, false), (true, true)] {
                        let walked = pos.activity_walked(king_pawn, king_attack);
                        let fen = pos.to_fen();
                        let terms = format!("king_pawn {king_pawn}, king_attack {king_attack}");
                        assert_eq!(
                            pos.activity_with(king_pawn, king_attack),
                            walked,
                            "{name}: {fen} ({terms})"
                        );
                        // The build without `popcnt` too.
                        assert_eq!(
                            pos.activity_looked_up_plain(sets, king_pawn, king_attack),
                            walked,
                            "{name}: {fen} ({terms}, no popcnt)"
                        );
                    }
                    compared += 1;
                    let moves = pos.legal_moves();
                    if moves.is_empty() || pos.outcome().is_some() {
                        break;
                    }
                    seed = seed
                        .wrapping_mul(6364136223846793005)
                        .wrapping_add(1442695040888963407);
                    pos.make_move(moves[(seed >> 33) as usize % moves.len()]);
                }
            }
            assert!(compared > 200, "{name}: {compared} positions");
            fitted.push(name);
        }
        for name in ["chess", "capablanca", "grand", "shatranj", "moat"] {
            assert!(
                fitted.iter().any(|f| f == name),
                "{name} has no sets: {fitted:?}"
            );
        }
        assert!(!fitted.iter().any(|f| f == "spider-chess"), "{fitted:?}");
    }

    #[test]
    fn passed_pawns_are_found_and_scaled_by_their_advance() {
        let v = chess();
        // White h5 passed (rank 5: 9 units), a6 not (black b7 ahead on the next file); black b7
        // not passed (white a6 is ahead of it, from Black's side).
        let pos = Position::from_fen(&v, "4k3/1p6/P7/7P/8/8/8/4K3 w - - 0 1").unwrap();
        let a = pos.activity();
        assert_eq!(a.passed, [9, 0]);
        // Units from the third to the seventh rank, and for Black mirrored.
        let units: Vec<u8> = (1..7)
            .map(|y| v.activity.passed[0][v.index(0, y)])
            .collect();
        assert_eq!(units, [0, 1, 4, 9, 16, 25]);
        assert_eq!(v.activity.passed[1][v.index(0, 1)], 25);
        // A black pawn beside (not ahead of) a white one does not stop it.
        let beside = Position::from_fen(&v, "4k3/8/8/6pP/8/8/8/4K3 w - - 0 1").unwrap();
        assert_eq!(
            beside.activity().passed,
            [9, 4],
            "g5 is two ranks from Black's start"
        );
    }

    #[test]
    fn threats_and_hanging_pieces() {
        let v = chess();
        // White knight d5 attacked by the pawn e6, undefended: a threat and hanging.
        let pos = Position::from_fen(&v, "4k3/8/4p3/3N4/8/8/8/4K3 w - - 0 1").unwrap();
        let a = pos.activity();
        assert_eq!((a.threat, a.hanging), ([1, 0], [1, 0]));
        // Defended by the pawn e4: still a threat, no longer hanging; the pawn e6 is attacked by
        // nothing (the knight d5 does not reach e6).
        let pos = Position::from_fen(&v, "4k3/8/4p3/3N4/4P3/8/8/4K3 w - - 0 1").unwrap();
        let a = pos.activity();
        assert_eq!((a.threat, a.hanging), ([1, 0], [0, 0]));
        // A rook a1 attacked by a knight b3 (cheaper), defended by the king b2: a threat, not
        // hanging; the knight, attacked by the king (no threat: the king is not cheaper) and
        // defended by nothing, hangs.
        let pos = Position::from_fen(&v, "4k3/8/8/8/8/1n6/1K6/R7 w - - 0 1").unwrap();
        let a = pos.activity();
        assert_eq!((a.threat, a.hanging), ([1, 0], [0, 1]));
        // Pieces of equal value are no threat to each other.
        let pos = Position::from_fen(&v, "4k3/8/8/8/8/1n6/1K6/N7 w - - 0 1").unwrap();
        assert_eq!(pos.activity().threat, [0, 0]);
    }

    #[test]
    fn king_danger_grows_faster_than_the_attacks() {
        let v = chess();
        // No black piece attacks the squares around the white king g1: no danger.
        let quiet = Position::from_fen(&v, "4k3/8/8/8/8/8/5PPP/6K1 w - - 0 1").unwrap();
        assert_eq!(quiet.activity().danger, [0, 0]);
        // A black rook on the 1st rank attacks f1, g1 (through nothing) and h1: 3 squares, value
        // scale of a rook; a black queen too adds more than it would alone.
        let rook = Position::from_fen(&v, "4k3/8/8/8/8/8/5PPP/r5K1 w - - 0 1").unwrap();
        let r = rook.activity().danger[0];
        assert!(r > 0, "rook on the back rank is danger {r}");
        let both = Position::from_fen(&v, "4k3/8/8/8/8/7q/5PPP/r5K1 w - - 0 1").unwrap();
        let queen = Position::from_fen(&v, "4k3/8/8/8/8/7q/5PPP/6K1 w - - 0 1").unwrap();
        let (b, q) = (both.activity().danger[0], queen.activity().danger[0]);
        assert!(
            q > 0 && b > r + q,
            "non-linear: both {b}, rook {r}, queen {q}"
        );
        // Black's king is not in danger here.
        assert_eq!(both.activity().danger[1], 0);
        assert_eq!(super::danger_units(1000), 1600 / 8, "capped");
    }

    #[test]
    fn king_attack_counts_attackers_weak_squares_and_checks() {
        let v = chess();
        let tally = |fen: &str| {
            let pos = Position::from_fen(&v, fen).unwrap();
            let a = pos.activity();
            assert_eq!(
                a.king_attack,
                pos.activity_walked(true, true).king_attack,
                "{fen}"
            );
            a.king_attack
        };
        // The black queen d8 can check from d1, which nothing of White's attacks.
        let [white, black] = tally("3qk3/8/8/8/8/8/5PPP/6K1 w - - 0 1");
        let expected = KingAttack {
            safe_checks: 1,
            ..KingAttack::default()
        };
        assert_eq!(white, expected);
        assert_eq!(white.units(), 800 * 800 / KING_ATTACK_DIV);
        // White has no piece near a queen's worth: nothing counts against Black.
        assert_eq!(black, KingAttack::default());
        // A knight c3 guards d1: the check is no longer safe.
        let [white, _] = tally("3qk3/8/8/8/8/2N5/5PPP/6K1 w - - 0 1");
        let expected = KingAttack {
            unsafe_checks: 1,
            ..KingAttack::default()
        };
        assert_eq!(white, expected);
        // Rook a1 (hits f1, g1) and queen h3 (g2, h2): two attackers, four hits, the four
        // squares weak (only the king guards them); the rook checks safely from b1-e1 and
        // unsafely from f1, the queen unsafely from g2 and h2.
        let [white, _] = tally("6k1/8/8/8/8/7q/5PPP/r5K1 w - - 0 1");
        let expected = KingAttack {
            attackers: 2,
            zone_hits: 4,
            weak: 4,
            safe_checks: 1,
            unsafe_checks: 3,
        };
        assert_eq!(white, expected);
        let sum = 120 * 4 + 30 * 4 + 80 * 4 + 800 + 148 * 3;
        assert_eq!(white.units(), sum * sum / KING_ATTACK_DIV);
        // Without the queen the rook's attack counts for nothing.
        let [white, _] = tally("6k1/8/8/8/8/8/5PPP/r5K1 w - - 0 1");
        assert_eq!(white, KingAttack::default());
    }

    #[test]
    fn pawn_shelter_and_pawn_structure() {
        let v = chess();
        assert_eq!(
            super::usual_pawn_forward(&v).map(|f| f[0] == -f[1]),
            Some(true),
            "chess pawns are the usual kind"
        );
        // White king g1 behind f2 g2 h2 (3 shelter pawns); black king e8 bare.
        let pos = Position::from_fen(&v, "4k3/8/8/8/8/8/5PPP/6K1 w - - 0 1").unwrap();
        let a = pos.activity();
        assert_eq!(a.shelter, [3, 0]);
        // g3 instead of g2 still shelters (two ranks ahead); g4 does not.
        let g3 = Position::from_fen(&v, "4k3/8/8/8/8/6P1/5P1P/6K1 w - - 0 1").unwrap();
        assert_eq!(g3.activity().shelter[0], 3);
        let g4 = Position::from_fen(&v, "4k3/8/8/8/6P1/8/5P1P/6K1 w - - 0 1").unwrap();
        assert_eq!(g4.activity().shelter[0], 2);
        // White: doubled c-pawns (2), isolated a-pawn and both c-pawns; black f7 g7 neither.
        let pos = Position::from_fen(&v, "4k3/5pp1/8/8/2P5/2P5/P7/4K3 w - - 0 1").unwrap();
        let a = pos.activity();
        assert_eq!(a.doubled, [2, 0]);
        assert_eq!(a.isolated, [3, 0]);
        // Connected: black f7 g7 side by side (2); White's c3 defends nothing (c4 is straight
        // ahead), a2 is alone: none.
        assert_eq!(a.connected, [0, 2]);
    }

    #[test]
    fn connected_pawns_and_file_riders_on_open_files() {
        let v = chess();
        let riders: Vec<char> = v
            .pieces()
            .iter()
            .zip(&v.activity.file_rider)
            .filter(|(_, &r)| r)
            .map(|(p, _)| p.letter)
            .collect();
        assert_eq!(
            riders,
            ['R', 'Q'],
            "the rook and the queen slide up the file"
        );
        // White: b2 defends c3 (c3 connected), e4 f4 side by side (both), h2 alone. Black: a7
        // defends nothing, d6 and d7 doubled, not beside each other: none.
        let pos = Position::from_fen(&v, "4k3/p2p4/3p4/8/4PP2/2P5/1P5P/4K3 w - - 0 1").unwrap();
        assert_eq!(pos.activity().connected, [3, 0]);
        // White rooks on a1 (no white pawn on the a-file: open) and h1 (h2: closed), queen d1
        // (open); Black's rook on h8 sees only White's h-pawn, which does not close its file.
        let pos = Position::from_fen(&v, "4k2r/8/8/8/8/8/7P/R2QK2R w - - 0 1").unwrap();
        assert_eq!(pos.activity().open_file, [2, 1]);
    }

    #[test]
    fn space_counts_safe_central_squares_behind_the_pawns() {
        let v = chess();
        let area = |c: usize| -> Vec<String> {
            let mut names: Vec<String> = v.activity.space[c]
                .iter()
                .map(|&sq| {
                    let (x, y) = v.coords(sq as usize);
                    format!("{}{}", (b'a' + x) as char, y + 1)
                })
                .collect();
            names.sort();
            names
        };
        let white = [
            "c2", "c3", "c4", "d2", "d3", "d4", "e2", "e3", "e4", "f2", "f3", "f4",
        ];
        assert_eq!(area(0), white);
        assert_eq!(area(1).len(), 12);
        assert!(area(1).contains(&"d7".to_string()) && area(1).contains(&"f5".to_string()));
        let space = |fen: &str| Position::from_fen(&v, fen).unwrap().activity().space;
        // The start: each side's eight squares of ranks 3 and 4 (6 and 5), 16 pieces, so
        // 8 · 13² / 64.
        let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
        assert_eq!(space(start), [21, 21]);
        // 1. e4: e2 is free, and e2 and e3 lie behind the pawn: 10 squares for White; the pawn
        // takes d5 and f5 from Black's 8: 6.
        let e4 = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1";
        assert_eq!(space(e4), [26, 15]);
        // 1... d5: its pawn takes c4 from White; e4 takes f5 from Black, whose d6 and d7 lie
        // behind d5: 9 squares each.
        let d5 = "rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2";
        assert_eq!(space(d5), [23, 23]);
        // Three pieces or fewer weigh nothing.
        assert_eq!(space("4k3/8/8/8/3PP3/8/8/4K3 w - - 0 1"), [0, 0]);
        // The piece weight: 16 squares with 7 pieces are 16 · 4² / 64.
        assert_eq!(space_units(14, 3), 0);
        assert_eq!(space_units(16, 7), 4);
    }
}
