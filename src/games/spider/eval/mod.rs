//! Static evaluation, cheap enough for every quiescence node. Its weights ([`EvalWeights`]) are
//! per variant, and `spider-chess tune` fits them to game results (`src/tune/`).
//!
//! - **Material**: each piece type's value is derived from its mobility on this board, computed
//!   once when the variant loads, so any loaded variant gets values: the pawn is fixed at 100,
//!   every other piece is worth `VALUE_SCALE · m^VALUE_EXPONENT` centipawns, `m` the number of
//!   moves it has on average from every playable square when each square is occupied with
//!   `VALUE_DENSITY_SHARE` of the start's density (a board thinned as in a game's middle, see
//!   [`expected_mobility`]), at least a pawn. The royal piece has no material value.
//!   Spider-Chess, chess, Capablanca chess and shatranj play with tuned weights instead,
//!   whatever their definition file is called ([`builtin`]; docs/strength.md).
//! - **Reach** (static mobility): `REACH_WEIGHT` per square a non-pawn, non-royal piece reaches on
//!   the empty board within `REACH_LEAPS` leaps of each ray from its square. It rewards central
//!   squares away from holes. (Counting real pseudo-legal moves of 27 riders per side cost ~60% of
//!   the search time for little gain; this term is free.)
//! - **Pawn advancement**: a bonus growing with the square of the ranks a pawn has advanced.
//! - **King safety**: a bonus per own piece next to the king, a penalty per enemy non-pawn piece
//!   within `KING_ZONE` squares (king distance) of it.
//! - **Tempo**: a small bonus for the side to move.
//! - **Board-dependent terms** ([`activity`]): mobility per piece kind, threats by cheaper
//!   pieces, hanging pieces, passed pawns, king danger (value-scaled enemy attacks next to the
//!   royal piece, squared and capped), pawn shelter and, for usual pawns, doubled and isolated
//!   pawns and space, recounted at each evaluation from the compiled move
//!   rules; skipped when all their weights are 0 (Spider-Chess: they triple its time per node).
//! - **Phase terms** ([`phase`]): the royal piece's centrality, each pawn, each other piece
//!   (a tapered value per kind), each piece's square (tapered square weights) and the passed
//!   pawns, scaled by the endgame share (non-pawn material gone since the start), and the pair
//!   of a colour-bound kind on both square colours; counted from the piece lists, skipped while
//!   their weights are 0.
//!
//! Material, reach and advancement depend on one piece and its square only: they are looked up in
//! piece-square tables ([`piece_square_tables`]) whose per-side sums the position keeps up to date
//! in make/unmake, so a leaf evaluation costs only the two king-zone scans.

mod activity;
mod attack_sets;
mod builtin;
mod phase;

pub(crate) use activity::ActivityTables;
pub(crate) use builtin::builtin_weights;
pub(crate) use phase::PhaseTables;

use super::position::Position;
use super::square::{parse_square, square_name, Color};
use super::variant::{cell_color, cell_kind, Variant, EMPTY, OFF};
use crate::search::Score;

const PAWN_VALUE: i32 = 100;
/// Piece values: `VALUE_SCALE · m^VALUE_EXPONENT` for `m` moves on average on a board occupied with
/// `VALUE_DENSITY_SHARE` of the start's density. Fitted to Fairy-Stockfish's values of the
/// knight, bishop, rook, queen, ferz, alfil, archbishop and chancellor (their ratios to the
/// knight within 3-20 %); the start's full density made a rook worth 1.15 knights.
const VALUE_SCALE: f64 = 50.0;
const VALUE_EXPONENT: f64 = 1.15;
const VALUE_DENSITY_SHARE: f64 = 0.6;
/// Bounds of the start density used for piece values.
const DENSITY_RANGE: (f64, f64) = (0.1, 0.6);
const REACH_WEIGHT: i32 = 2;
const REACH_LEAPS: u8 = 2;
const ADVANCE_WEIGHT: i32 = 1;
const KING_SHIELD: i32 = 8;
const KING_ZONE: isize = 3;
const KING_ATTACKER: i32 = 12;
const TEMPO: i32 = 10;
/// Mobility weight of a kind: this over the square root of its empty-board mobility.
const MOBILITY_SCALE: f64 = 20.0;
const PASSED: i32 = 6;
const THREAT: i32 = 25;
const HANGING: i32 = 20;
/// King danger, pawn shelter, doubled and isolated pawns start at 0 (off) in every variant: the
/// hand-set 1, 6, 10 and 8 were undecided in a fixed-node SPRT in chess (docs/strength.md);
/// `spider-chess tune` fits them, and a weights file may turn them on.
const KING_DANGER: i32 = 0;
const PAWN_SHELTER: i32 = 0;
const DOUBLED: i32 = 0;
const ISOLATED: i32 = 0;
/// King centre, pawn endgame and the colour-bound pair start at 0 (off) in every variant; a
/// weights file turns them on (docs/spider.md, "Evaluation"; tried in docs/strength.md).
const KING_CENTRE: i32 = 0;
const PAWN_ENDGAME: i32 = 0;
const PAIR: i32 = 0;
/// Connected pawns and file riders on open files start at 0 (off) in every variant; a weights
/// file turns them on (docs/spider.md, "Evaluation").
const CONNECTED: i32 = 0;
const OPEN_FILE: i32 = 0;
/// Passed pawns' endgame share starts at 0 (off) in every variant; a weights file turns it on.
const PASSED_ENDGAME: i32 = 0;
/// King attack starts at 0 (off) in every variant: a fixed-node SPRT in chess was undecided
/// (docs/strength.md); a weights file turns it on.
const KING_ATTACK: i32 = 0;
/// Space starts at 0 (off) in every variant; a weights file turns it on.
const SPACE: i32 = 0;

/// The evaluation's weights, in centipawns: what `spider-chess tune` fits to game results. The
/// evaluation is linear in them: [`Position::eval_features`] gives each weight's multiplier.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct EvalWeights {
    /// Material value per piece kind, in the definition's order (the royal piece's is 0).
    pub values: Vec<i32>,
    /// Per square a non-pawn, non-royal piece reaches on the empty board within two leaps.
    pub reach: i32,
    /// Per unit of `a * a / 2` for a pawn that has advanced `a` ranks.
    pub advance: i32,
    /// Per own piece next to the king.
    pub king_shield: i32,
    /// Per enemy non-pawn, non-royal piece within three squares (king distance) of the king
    /// (a penalty).
    pub king_attacker: i32,
    /// For the side to move.
    pub tempo: i32,
    /// Per passed-pawn unit (`36 p² / span²`, see [`activity::passed_units`]).
    pub passed: i32,
    /// Per own non-royal piece attacked by a cheaper enemy piece (a penalty).
    pub threat: i32,
    /// Per own non-royal piece attacked and not defended (a penalty).
    pub hanging: i32,
    /// Per king-danger unit (a penalty; see [`activity::danger_units`]): enemy attacks on the
    /// squares around the royal piece, value-scaled, squared and capped.
    pub king_danger: i32,
    /// Per own pawn on the three files of the royal piece one or two ranks in front of it.
    pub pawn_shelter: i32,
    /// Per pawn sharing its file with another own pawn (a penalty; usual pawns only).
    pub doubled: i32,
    /// Per pawn with no own pawn on a neighbouring file (a penalty; usual pawns only).
    pub isolated: i32,
    /// Per unit of the royal piece's centrality times the endgame share ([`phase`]).
    pub king_centre: i32,
    /// Per pawn times the endgame share ([`phase`]): what a pawn gains as pieces leave.
    pub pawn_endgame: i32,
    /// For pieces of one colour-bound kind on squares of both colours ([`phase`]).
    pub pair: i32,
    /// Per pawn defended by an own pawn or (usual pawns) with an own pawn beside it.
    pub connected: i32,
    /// Per file rider (a piece sliding along its file, as the rook) on a file without own
    /// pawns.
    pub open_file: i32,
    /// Per passed-pawn unit times the endgame share ([`phase`]): what a passed pawn gains as
    /// pieces leave (the passed-pawn weight is the start's).
    pub passed_endgame: i32,
    /// Per king-attack unit (a penalty; see [`activity::KingAttack::units`]): enemy attackers,
    /// attacks, weak squares and checks around the royal piece, squared.
    pub king_attack: i32,
    /// Per space unit (see [`activity::space_units`]): safe squares in the centre of a side's
    /// own half, weighted by its number of pieces (usual pawns only).
    pub space: i32,
    /// Per kind: per safe square a piece reaches beyond its kind's expected number (0 for the
    /// pawn and the royal piece, which have no mobility term).
    pub mobility: Vec<i32>,
    /// Per kind: what a piece gains per eighth of the endgame share ([`phase`]), so that a
    /// piece's value at the start is `values` and with no other piece left `values + 8 ·
    /// endgame` (0 for the pawn, which has `pawn_endgame`, and the royal piece).
    pub endgame: Vec<i32>,
    /// Per kind and square, indexed `kind * files * ranks + rank * files + file` from the
    /// owner's side (Black's ranks mirrored): a learned piece-square bonus, 0 unless tuned.
    pub squares: Vec<i32>,
    /// Per kind and square, indexed as [`squares`](Self::squares): what the piece-square bonus
    /// gains per eighth of the endgame share ([`phase`]), so that it tapers from `squares` at
    /// the start to `squares + 8 · endgame_squares` with no other piece left; 0 unless tuned.
    pub endgame_squares: Vec<i32>,
}

/// Cells of the board rectangle (holes included): the square weights per kind.
pub(crate) fn cells(v: &Variant) -> usize {
    let d = v.definition();
    d.files as usize * d.ranks as usize
}

/// The square weight's cell of mailbox square `sq` for a piece of colour `c`: White's own
/// `rank * files + file`, Black's with the ranks mirrored, so one table serves both sides.
#[inline]
pub(crate) fn square_cell(v: &Variant, c: usize, sq: usize) -> usize {
    let (x, y) = v.coords(sq);
    let d = v.definition();
    let rank = if c == 0 { y } else { d.ranks - 1 - y };
    rank as usize * d.files as usize + x as usize
}

/// Whether piece `kind` of `v` has a mobility term (neither pawn nor royal).
fn has_mobility_term(v: &Variant, kind: usize) -> bool {
    kind as u8 != v.pawn && kind as u8 != v.royal
}

/// Names of the weights after the piece values, in the order of [`EvalWeights::to_vector`].
const TERM_NAMES: [&str; 20] = [
    "reach",
    "advance",
    "king-shield",
    "king-attacker",
    "tempo",
    "passed",
    "threat",
    "hanging",
    "king-danger",
    "pawn-shelter",
    "doubled",
    "isolated",
    "king-centre",
    "pawn-endgame",
    "pair",
    "connected",
    "open-file",
    "passed-endgame",
    "king-attack",
    "space",
];

impl EvalWeights {
    /// The weights a variant gets when it loads: piece values from the pieces' mobility on the
    /// empty board, mobility weights falling with it (`MOBILITY_SCALE / sqrt(mobility)`), the
    /// other terms at their hand-set defaults.
    pub fn estimate(v: &Variant) -> EvalWeights {
        let pieces = v.pieces();
        EvalWeights {
            values: pieces.iter().map(|p| p.value).collect(),
            reach: REACH_WEIGHT,
            advance: ADVANCE_WEIGHT,
            king_shield: KING_SHIELD,
            king_attacker: KING_ATTACKER,
            tempo: TEMPO,
            passed: PASSED,
            threat: THREAT,
            hanging: HANGING,
            king_danger: KING_DANGER,
            pawn_shelter: PAWN_SHELTER,
            doubled: DOUBLED,
            isolated: ISOLATED,
            king_centre: KING_CENTRE,
            pawn_endgame: PAWN_ENDGAME,
            pair: PAIR,
            connected: CONNECTED,
            open_file: OPEN_FILE,
            passed_endgame: PASSED_ENDGAME,
            king_attack: KING_ATTACK,
            space: SPACE,
            mobility: pieces
                .iter()
                .enumerate()
                .map(|(k, p)| {
                    if has_mobility_term(v, k) {
                        (MOBILITY_SCALE / p.mobility.max(1.0).sqrt()).round() as i32
                    } else {
                        0
                    }
                })
                .collect(),
            endgame: vec![0; pieces.len()],
            squares: vec![0; pieces.len() * cells(v)],
            endgame_squares: vec![0; pieces.len() * cells(v)],
        }
    }

    /// The weights as one vector: the piece values, then reach, advance, king shield, king
    /// attacker, tempo, passed, threat, hanging, king danger, pawn shelter, doubled, isolated,
    /// king centre, pawn endgame, pair, connected, open file, passed endgame, king attack, then
    /// the mobility weight per kind, then the endgame weight per kind, then the square weights,
    /// then the endgame square weights.
    pub fn to_vector(&self) -> Vec<i32> {
        let mut out = self.values.clone();
        out.extend([
            self.reach,
            self.advance,
            self.king_shield,
            self.king_attacker,
            self.tempo,
            self.passed,
            self.threat,
            self.hanging,
            self.king_danger,
            self.pawn_shelter,
            self.doubled,
            self.isolated,
            self.king_centre,
            self.pawn_endgame,
            self.pair,
            self.connected,
            self.open_file,
            self.passed_endgame,
            self.king_attack,
            self.space,
        ]);
        out.extend(&self.mobility);
        out.extend(&self.endgame);
        out.extend(&self.squares);
        out.extend(&self.endgame_squares);
        out
    }

    /// The weights from a vector in the order of [`to_vector`](Self::to_vector), for `v`'s
    /// piece kinds and board; `None` when its length is not that of `to_vector` (`3 * kinds`
    /// plus the terms of `TERM_NAMES` plus `2 * kinds * cells`).
    pub fn from_vector(v: &Variant, w: &[i32]) -> Option<EvalWeights> {
        let kinds = v.pieces().len();
        let scalars = Self::squares_start(v);
        let endgame_squares = Self::endgame_squares_start(v);
        if w.len() != endgame_squares + kinds * cells(v) {
            return None;
        }
        let t = &w[kinds..kinds + TERM_NAMES.len()];
        Some(EvalWeights {
            values: w[..kinds].to_vec(),
            reach: t[0],
            advance: t[1],
            king_shield: t[2],
            king_attacker: t[3],
            tempo: t[4],
            passed: t[5],
            threat: t[6],
            hanging: t[7],
            king_danger: t[8],
            pawn_shelter: t[9],
            doubled: t[10],
            isolated: t[11],
            king_centre: t[12],
            pawn_endgame: t[13],
            pair: t[14],
            connected: t[15],
            open_file: t[16],
            passed_endgame: t[17],
            king_attack: t[18],
            space: t[19],
            mobility: w[kinds + TERM_NAMES.len()..2 * kinds + TERM_NAMES.len()].to_vec(),
            endgame: w[2 * kinds + TERM_NAMES.len()..scalars].to_vec(),
            squares: w[scalars..endgame_squares].to_vec(),
            endgame_squares: w[endgame_squares..].to_vec(),
        })
    }

    /// Index in [`to_vector`](Self::to_vector) of the first square weight.
    pub fn squares_start(v: &Variant) -> usize {
        3 * v.pieces().len() + TERM_NAMES.len()
    }

    /// Index in [`to_vector`](Self::to_vector) of the first endgame square weight.
    pub fn endgame_squares_start(v: &Variant) -> usize {
        Self::squares_start(v) + v.pieces().len() * cells(v)
    }

    /// The names of the weights before the square weights in [`to_vector`](Self::to_vector):
    /// `value X` for the piece of letter X, then the terms' names, then `mobility X` and
    /// `endgame X` per piece.
    pub fn scalar_names(v: &Variant) -> Vec<String> {
        let mut out: Vec<String> = v
            .pieces()
            .iter()
            .map(|p| format!("value {}", p.letter))
            .collect();
        out.extend(TERM_NAMES.iter().map(|s| s.to_string()));
        out.extend(v.pieces().iter().map(|p| format!("mobility {}", p.letter)));
        out.extend(v.pieces().iter().map(|p| format!("endgame {}", p.letter)));
        out
    }

    /// The name of every weight of [`to_vector`](Self::to_vector): the
    /// [`scalar_names`](Self::scalar_names), then `square X SQ` per piece and square (White's
    /// view), then `endgame-square X SQ` likewise.
    pub fn names(v: &Variant) -> Vec<String> {
        let mut out = Self::scalar_names(v);
        let d = v.definition();
        for prefix in ["square", "endgame-square"] {
            for p in v.pieces() {
                for y in 0..d.ranks {
                    for x in 0..d.files {
                        out.push(format!("{prefix} {} {}", p.letter, square_name(x, y)));
                    }
                }
            }
        }
        out
    }

    /// Whether weight `i` of [`to_vector`](Self::to_vector) may change for `v`: not the royal
    /// piece's value, nor the mobility or endgame weight of the pawn or the royal piece (no such
    /// term); every square weight may.
    pub fn tunable(v: &Variant, i: usize) -> bool {
        let kinds = v.pieces().len();
        if i < kinds {
            return i as u8 != v.royal;
        }
        let base = kinds + TERM_NAMES.len();
        i < base || i >= Self::squares_start(v) || has_mobility_term(v, (i - base) % kinds)
    }

    /// Whether weight `i` of [`to_vector`](Self::to_vector) may be negative: an endgame weight
    /// (some pieces are worth less as the board empties) or a (endgame) square weight.
    pub fn is_signed(v: &Variant, i: usize) -> bool {
        i >= 2 * v.pieces().len() + TERM_NAMES.len()
    }

    /// Whether weight `i` of [`to_vector`](Self::to_vector) is a square or endgame square weight.
    pub fn is_square(v: &Variant, i: usize) -> bool {
        i >= Self::squares_start(v)
    }

    /// Reads weights written as `NAME VALUE` lines (the names of [`names`](Self::names), `#`
    /// comments, blank lines), starting from `base`: named weights replace `base`'s, others keep
    /// it. Unknown names, squares off the board and bad numbers are errors
    /// ([`Variant::with_weights`] checks the values).
    pub fn parse(v: &Variant, base: &EvalWeights, text: &str) -> Result<EvalWeights, String> {
        let squares = Self::squares_start(v);
        let names = Self::scalar_names(v);
        let mut w = base.to_vector();
        for (n, raw) in text.lines().enumerate() {
            let line = raw.split('#').next().unwrap_or("").trim();
            if line.is_empty() {
                continue;
            }
            let (name, value) = line
                .rsplit_once(char::is_whitespace)
                .ok_or_else(|| format!("line {}: expected NAME VALUE, got '{line}'", n + 1))?;
            let name = name.trim();
            let square = |rest: &str| {
                Self::square_index(v, rest).map_err(|e| format!("line {}: {e}", n + 1))
            };
            let i = if let Some(rest) = name.strip_prefix("square ") {
                squares + square(rest)?
            } else if let Some(rest) = name.strip_prefix("endgame-square ") {
                Self::endgame_squares_start(v) + square(rest)?
            } else {
                names
                    .iter()
                    .position(|x| x == name)
                    .ok_or_else(|| format!("line {}: unknown weight '{name}'", n + 1))?
            };
            w[i] = value
                .parse()
                .map_err(|_| format!("line {}: '{value}' is not an integer", n + 1))?;
        }
        Ok(Self::from_vector(v, &w).expect("same length"))
    }

    /// The offset among the square weights of `X SQ` (a piece letter and a square name).
    fn square_index(v: &Variant, text: &str) -> Result<usize, String> {
        let mut parts = text.split_whitespace();
        let (Some(letter), Some(sq), None) = (parts.next(), parts.next(), parts.next()) else {
            return Err(format!("expected 'square X SQ VALUE', got 'square {text}'"));
        };
        let kind = v
            .pieces()
            .iter()
            .position(|p| p.letter.to_string() == letter)
            .ok_or_else(|| format!("unknown piece '{letter}' in 'square {text}'"))?;
        let d = v.definition();
        let (x, y) = parse_square(sq, d.files, d.ranks)?;
        Ok(kind * cells(v) + y as usize * d.files as usize + x as usize)
    }

    /// Splits a weights file (what `spider-chess tune --out` writes): its first line that is
    /// neither blank nor a `#` comment is `variant NAME`; gives the name and the text after that
    /// line (for [`parse`](Self::parse)).
    pub fn split_file(text: &str) -> Result<(&str, &str), String> {
        let mut rest = text;
        while let Some((line, tail)) = rest.split_once('\n').or(Some((rest, ""))) {
            let t = line.trim();
            if t.is_empty() || t.starts_with('#') {
                if tail.is_empty() {
                    break;
                }
                rest = tail;
                continue;
            }
            let name = t
                .strip_prefix("variant ")
                .map(str::trim)
                .filter(|n| !n.is_empty())
                .ok_or("a weights file starts with 'variant NAME'")?;
            return Ok((name, tail));
        }
        Err("a weights file starts with 'variant NAME'".into())
    }

    /// The weights as `NAME VALUE` lines, the format [`parse`](Self::parse) reads; the square
    /// weights only when some of them is not 0 (then all of them), and the endgame square
    /// weights likewise.
    pub fn to_text(&self, v: &Variant) -> String {
        let (squares, endgame) = (Self::squares_start(v), Self::endgame_squares_start(v));
        let shown = |i: usize| {
            let any = |w: &[i32]| w.iter().any(|&x| x != 0);
            i < squares
                || (i < endgame && any(&self.squares))
                || (i >= endgame && any(&self.endgame_squares))
        };
        Self::names(v)
            .iter()
            .zip(self.to_vector())
            .enumerate()
            .filter(|(i, _)| shown(*i))
            .map(|(_, (n, x))| format!("{n} {x}\n"))
            .collect()
    }
}

/// Names, mobility and values of every piece type of a variant: the pawn is worth `PAWN_VALUE`,
/// the royal piece 0, any other piece [`mobility_value`] of its moves at `VALUE_DENSITY_SHARE` of
/// the start's density, at least a pawn.
pub(crate) fn piece_infos(v: &Variant) -> Vec<super::variant::PieceInfo> {
    let def = v.definition();
    let density = start_density(v) * VALUE_DENSITY_SHARE;
    def.pieces
        .iter()
        .enumerate()
        .map(|(kind, p)| {
            let mobility = expected_mobility(v, kind, 0.0);
            let value = if Some(kind) == def.pawn {
                PAWN_VALUE
            } else if p.letter == def.royal {
                0
            } else {
                mobility_value(expected_mobility(v, kind, density)).max(PAWN_VALUE)
            };
            super::variant::PieceInfo {
                name: p.name.clone(),
                letter: p.letter,
                betza: p.betza.clone(),
                mobility,
                value,
            }
        })
        .collect()
}

/// The value of a piece with `moves` moves on average: `VALUE_SCALE · moves^VALUE_EXPONENT`
/// (longer reach is worth more than its count: a queen is more than a rook and a bishop).
fn mobility_value(moves: f64) -> i32 {
    (VALUE_SCALE * moves.powf(VALUE_EXPONENT)).round() as i32
}

/// The share of the playable squares the start position fills, bounded to `DENSITY_RANGE`.
fn start_density(v: &Variant) -> f64 {
    let pieces: usize = v.initial_total.iter().flatten().map(|&n| n as usize).sum();
    let share = pieces as f64 / v.playable.len().max(1) as f64;
    share.clamp(DENSITY_RANGE.0, DENSITY_RANGE.1)
}

/// The average number of moves of piece `kind` (White's) over every playable square when each
/// other square is occupied with probability `density`: a rider's `i`-th square along a ray
/// counts `(1 - density)^(i - 1)` (the squares before it must be empty), a lame leap
/// `(1 - density)^(squares on its path)`; holes and the edge block as in play.
pub(crate) fn expected_mobility(v: &Variant, kind: usize, density: f64) -> f64 {
    let free = 1.0 - density;
    let mut total = 0.0;
    let mut seen: Vec<isize> = Vec::with_capacity(128);
    for &sq in &v.playable {
        seen.clear();
        let from = sq as isize;
        for st in &v.steps[0][kind] {
            if st.lame_len > 0 {
                let clear = (0..st.lame_len as usize)
                    .all(|i| v.template[(from + st.lame[i]) as usize] == EMPTY);
                let to = from + st.delta;
                if clear && v.template[to as usize] == EMPTY && !seen.contains(&to) {
                    seen.push(to);
                    total += free.powi(st.lame_len as i32);
                }
                continue;
            }
            let mut to = from;
            let mut p = 1.0;
            for _ in 0..st.range {
                to += st.delta;
                if v.template[to as usize] != EMPTY {
                    break;
                }
                if !seen.contains(&to) {
                    seen.push(to);
                    total += p;
                }
                p *= free;
            }
        }
    }
    total / v.playable.len().max(1) as f64
}

/// Per colour, indexed `kind * size + square`: how many squares a non-pawn, non-royal piece
/// reaches on the empty board within `REACH_LEAPS` leaps of each of its rays (holes block as in
/// play); 0 for pawns and the royal piece.
pub(crate) fn reach_tables(v: &Variant) -> [Vec<u8>; 2] {
    let kinds = v.definition().pieces.len();
    let mut tables = [vec![0; kinds * v.size], vec![0; kinds * v.size]];
    let mut seen: Vec<isize> = Vec::with_capacity(128);
    for (c, table) in tables.iter_mut().enumerate() {
        for kind in 0..kinds {
            let k = kind as u8;
            if k == v.royal || k == v.pawn {
                continue;
            }
            for &sq in &v.playable {
                seen.clear();
                for st in &v.steps[c][kind] {
                    if st.lame_len > 0 {
                        continue;
                    }
                    let mut to = sq as isize;
                    for _ in 0..st.range.min(REACH_LEAPS) {
                        to += st.delta;
                        if v.template[to as usize] != EMPTY {
                            break;
                        }
                        if !seen.contains(&to) {
                            seen.push(to);
                        }
                    }
                }
                table[kind * v.size + sq as usize] = seen.len().min(255) as u8;
            }
        }
    }
    tables
}

/// The advancement unit of a pawn that has advanced `a` ranks: `a * a / 2`.
#[inline]
fn advancement(a: u8) -> i32 {
    let a = a as i32;
    a * a / 2
}

/// Piece-square tables per colour, indexed `kind * size + square`: everything of the evaluation that
/// depends on one piece and its square alone, so that [`Position`] keeps their sum up to date in
/// make/unmake.
///
/// An entry is the piece's material value plus, for a pawn, the advancement bonus, and for any
/// other non-royal piece the reach bonus (see [`reach_tables`]): a static stand-in for mobility
/// that rewards central squares away from holes; plus the kind's square weight. The royal
/// piece's entries are its square weights alone.
pub(crate) fn piece_square_tables(v: &Variant) -> [Vec<i32>; 2] {
    let kinds = v.definition().pieces.len();
    let w = &v.weights;
    let mut tables = mailbox_tables(v, &w.squares);
    for (c, table) in tables.iter_mut().enumerate() {
        for kind in 0..kinds {
            let k = kind as u8;
            if k == v.royal {
                continue;
            }
            for &sq in &v.playable {
                let i = kind * v.size + sq as usize;
                let bonus = if k == v.pawn {
                    w.advance * advancement(v.advance[c][sq as usize])
                } else {
                    w.reach * v.reach[c][i] as i32
                };
                table[i] += w.values[kind] + bonus;
            }
        }
    }
    tables
}

/// Per colour, indexed `kind * size + square` (mailbox), the weight of `per_cell` (indexed as
/// [`EvalWeights::squares`], the owner's view) for a piece of that colour there.
pub(crate) fn mailbox_tables(v: &Variant, per_cell: &[i32]) -> [Vec<i32>; 2] {
    let kinds = v.definition().pieces.len();
    let n = cells(v);
    [0, 1].map(|c| {
        let mut table = vec![0; kinds * v.size];
        for kind in 0..kinds {
            for &sq in &v.playable {
                table[kind * v.size + sq as usize] =
                    per_cell[kind * n + square_cell(v, c, sq as usize)];
            }
        }
        table
    })
}

impl Position {
    /// Static evaluation in centipawns from the side to move's point of view: the incrementally
    /// kept piece-square sums, king safety, the board-dependent terms (when their weights are
    /// not all 0) and tempo. Allocation-free.
    pub fn evaluate(&self) -> Score {
        let v = &*self.variant;
        let w = &v.weights;
        let mut s = self.psq[0] - self.psq[1] + self.king_safety();
        let mut passed = 0;
        if v.activity.on {
            let a = self.activity_with(v.activity.king_pawn, v.activity.king_attack);
            s += a.score(w);
            passed = a.passed[0] - a.passed[1];
        }
        if v.phase.on {
            s += self.phase_terms().score(w, passed);
        }
        w.tempo
            + match self.side {
                Color::White => s,
                Color::Black => -s,
            }
    }

    /// King safety from White's point of view from the king-zone tallies the position keeps:
    /// the shield weight per own piece next to the king, the attacker weight per enemy non-pawn,
    /// non-royal piece within `KING_ZONE` (king distance) of it.
    #[inline]
    fn king_safety(&self) -> i32 {
        let shield = (self.shield[0] - self.shield[1]) as i32;
        let near = (self.near[0] - self.near[1]) as i32;
        let w = &self.variant.weights;
        w.king_shield * shield - w.king_attacker * near
    }

    /// What the evaluation multiplies each weight by (in the order of
    /// [`EvalWeights::to_vector`]), from White's point of view: White's evaluation is the dot
    /// product of these features and the weights. Per piece kind the material balance (hand
    /// pieces included where they are dropped), then the reach and advancement balances, the
    /// king-zone balances, +1 / -1 for White / Black to move, the passed-pawn, threat and
    /// hanging balances, the mobility balance per kind and so on, then per kind and square
    /// (the owner's view) the piece-count balance. For the tuner, not the search.
    pub fn eval_features(&self) -> Vec<i32> {
        let v = &*self.variant;
        let kinds = v.pieces().len();
        let squares = EvalWeights::squares_start(v);
        let endgame_squares = EvalWeights::endgame_squares_start(v);
        let n = cells(v);
        let mut f = vec![0; endgame_squares + kinds * n];
        let p = self.phase_terms();
        let eighths = p.endgame * phase::EIGHTHS / phase::ENDGAME;
        for c in 0..2 {
            let sign = if c == 0 { 1 } else { -1 };
            for &sq in &self.list[c] {
                let kind = cell_kind(self.board[sq as usize]);
                let cell = kind as usize * n + square_cell(v, c, sq as usize);
                f[squares + cell] += sign;
                f[endgame_squares + cell] += sign * eighths;
                if kind == v.royal {
                    continue;
                }
                let k = kind as usize;
                f[k] += sign;
                if kind == v.pawn {
                    f[kinds + 1] += sign * advancement(v.advance[c][sq as usize]);
                } else {
                    f[kinds] += sign * v.reach[c][k * v.size + sq as usize] as i32;
                }
            }
            if v.drops {
                for (k, &n) in self.hand[c][..kinds].iter().enumerate() {
                    f[k] += sign * n as i32;
                }
            }
        }
        f[kinds + 2] = (self.shield[0] - self.shield[1]) as i32;
        f[kinds + 3] = -((self.near[0] - self.near[1]) as i32);
        f[kinds + 4] = match self.side {
            Color::White => 1,
            Color::Black => -1,
        };
        let a = self.activity();
        let passed = a.passed[0] - a.passed[1];
        f[kinds + 5] = passed;
        f[kinds + 6] = -((a.threat[0] - a.threat[1]) as i32);
        f[kinds + 7] = -((a.hanging[0] - a.hanging[1]) as i32);
        f[kinds + 8] = -(a.danger[0] - a.danger[1]);
        f[kinds + 9] = (a.shelter[0] - a.shelter[1]) as i32;
        f[kinds + 10] = -((a.doubled[0] - a.doubled[1]) as i32);
        f[kinds + 11] = -((a.isolated[0] - a.isolated[1]) as i32);
        f[kinds + 12] = p.king_centre;
        f[kinds + 13] = p.pawns;
        f[kinds + 14] = p.pair;
        f[kinds + 15] = (a.connected[0] - a.connected[1]) as i32;
        f[kinds + 16] = (a.open_file[0] - a.open_file[1]) as i32;
        f[kinds + 17] = p.passed_endgame(passed);
        f[kinds + 18] = -(a.king_attack[0].units() - a.king_attack[1].units());
        f[kinds + 19] = a.space[0] - a.space[1];
        let base = kinds + TERM_NAMES.len();
        for k in 0..kinds {
            f[base + k] = (a.mobility[0][k] - a.mobility[1][k]) as i32;
            f[base + kinds + k] = p.kinds[k];
        }
        f
    }

    /// King distance (Chebyshev) between two mailbox squares.
    #[inline]
    fn king_distance(&self, a: usize, b: usize) -> i16 {
        let xy = &self.variant.xy;
        let (a, b) = (xy[a], xy[b]);
        (a.0 - b.0).abs().max((a.1 - b.1).abs())
    }

    /// Whether a piece kind counts as a king attacker (neither pawn nor royal).
    #[inline]
    fn attacker_kind(&self, kind: u8) -> bool {
        kind != self.variant.pawn && kind != self.variant.royal
    }

    /// The king-zone tallies of side `c` counted on the board: own pieces next to its king, enemy
    /// attacker-kind pieces within `KING_ZONE` of it.
    pub(crate) fn count_king_zone(&self, c: usize) -> (i16, i16) {
        let stride = self.variant.stride as isize;
        let ksq = self.king[c] as isize;
        let (mut shield, mut near) = (0, 0);
        for dy in -KING_ZONE..=KING_ZONE {
            let row = ksq + dy * stride;
            for dx in -KING_ZONE..=KING_ZONE {
                let t = self.board[(row + dx) as usize];
                if t == EMPTY || t == OFF {
                    continue;
                }
                if cell_color(t).index() == c {
                    shield += (dx.abs().max(dy.abs()) == 1) as i16;
                } else {
                    near += self.attacker_kind(cell_kind(t)) as i16;
                }
            }
        }
        (shield, near)
    }

    /// Recounts both sides' king-zone tallies (setup).
    pub(crate) fn recount_king_zones(&mut self) {
        for c in 0..2 {
            (self.shield[c], self.near[c]) = self.count_king_zone(c);
        }
    }

    /// Updates the king-zone tallies for a move of side `us` just played on the board: `moved`
    /// left `from`, `placed` (differs on promotion) stands on `to`, `captured` was taken there.
    pub(crate) fn update_king_zones(
        &mut self,
        us: usize,
        from: usize,
        to: usize,
        moved: u8,
        placed: u8,
        captured: u8,
    ) {
        let zone = KING_ZONE as i16;
        let (ours, theirs) = (self.king[us] as usize, self.king[1 - us] as usize);
        let royal_moved = cell_kind(moved) == self.variant.royal;
        if captured != EMPTY {
            self.shield[1 - us] -= (self.king_distance(theirs, to) == 1) as i16;
            if !royal_moved
                && self.attacker_kind(cell_kind(captured))
                && self.king_distance(ours, to) <= zone
            {
                self.near[us] -= 1;
            }
        }
        if royal_moved {
            (self.shield[us], self.near[us]) = self.count_king_zone(us);
            return;
        }
        self.shield[us] += (self.king_distance(ours, to) == 1) as i16
            - (self.king_distance(ours, from) == 1) as i16;
        if self.attacker_kind(cell_kind(moved)) && self.king_distance(theirs, from) <= zone {
            self.near[1 - us] -= 1;
        }
        if self.attacker_kind(cell_kind(placed)) && self.king_distance(theirs, to) <= zone {
            self.near[1 - us] += 1;
        }
    }

    /// The piece-square sums recomputed from the board and, where they are dropped, the hands (a
    /// cross-check for tests).
    #[cfg(test)]
    pub(crate) fn psq_from_scratch(&self) -> [i32; 2] {
        let v = &*self.variant;
        let mut sums = [0; 2];
        for (c, sum) in sums.iter_mut().enumerate() {
            for &sq in &self.list[c] {
                let kind = cell_kind(self.board[sq as usize]) as usize;
                *sum += v.pst[c][kind * v.size + sq as usize];
            }
            if v.drops {
                for (k, &n) in self.hand[c][..v.pieces().len()].iter().enumerate() {
                    *sum += n as i32 * v.values[k];
                }
            }
        }
        sums
    }
}

#[cfg(test)]
mod tests {
    use super::super::variant::{Variant, SPIDER_CHESS_DEFINITION};
    use super::*;
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    #[test]
    fn start_position_is_balanced() {
        let pos = Position::startpos(&Variant::spider_chess());
        assert_eq!(pos.psq[0], pos.psq[1], "mirrored setup, equal sums");
        assert_eq!(pos.evaluate(), pos.variant.weights().tempo);
    }

    #[test]
    fn incremental_sums_match_a_recount_through_random_games() {
        let variant = Variant::spider_chess();
        let mut rng = ChaCha8Rng::seed_from_u64(7);
        let mut moves = Vec::new();
        for _ in 0..4 {
            let mut pos = Position::startpos(&variant);
            let mut trail = Vec::new();
            for _ in 0..120 {
                pos.legal_moves_into(&mut moves);
                if moves.is_empty() {
                    break;
                }
                // Prefer captures so that material changes hands often.
                let captures: Vec<_> = moves
                    .iter()
                    .copied()
                    .filter(|&m| pos.is_capture(m))
                    .collect();
                let mv = if !captures.is_empty() && rng.gen_bool(0.7) {
                    captures[rng.gen_range(0..captures.len())]
                } else {
                    moves[rng.gen_range(0..moves.len())]
                };
                pos.make_move(mv);
                trail.push(pos.psq);
                assert_eq!(pos.psq, pos.psq_from_scratch(), "after {mv:?}");
                for c in 0..2 {
                    let kept = (pos.shield[c], pos.near[c]);
                    assert_eq!(kept, pos.count_king_zone(c), "side {c} after {mv:?}");
                }
            }
            while pos.plies_played() > 0 {
                assert_eq!(pos.psq, trail.pop().unwrap());
                pos.unmake_move();
                assert_eq!(pos.psq, pos.psq_from_scratch());
                for c in 0..2 {
                    assert_eq!((pos.shield[c], pos.near[c]), pos.count_king_zone(c));
                }
            }
        }
    }

    #[test]
    fn evaluation_is_restored_by_unmake_in_loaded_variants() {
        // Chess (castling, en passant), Capablanca and crazyhouse (drops) take the general
        // make/unmake path and evaluate with the board-dependent terms on.
        for file in ["chess", "capablanca", "crazyhouse", "grand"] {
            let variant = super::super::variant::test_variant(file);
            assert!(variant.activity.on, "{file}: the terms are on by default");
            let mut rng = ChaCha8Rng::seed_from_u64(11);
            let mut moves = Vec::new();
            for _ in 0..3 {
                let mut pos = Position::startpos(&variant);
                let mut trail = Vec::new();
                for _ in 0..100 {
                    pos.legal_moves_into(&mut moves);
                    if moves.is_empty() {
                        break;
                    }
                    trail.push((pos.evaluate(), pos.eval_features()));
                    pos.make_move(moves[rng.gen_range(0..moves.len())]);
                    assert_eq!(pos.psq, pos.psq_from_scratch(), "{file}");
                }
                while let Some((eval, features)) = trail.pop() {
                    pos.unmake_move();
                    assert_eq!(pos.evaluate(), eval, "{file}: {}", pos.to_fen());
                    assert_eq!(pos.eval_features(), features, "{file}");
                    assert_eq!(pos.psq, pos.psq_from_scratch(), "{file}");
                }
            }
        }
    }

    #[test]
    fn a_captured_piece_costs_its_value() {
        let variant = Variant::spider_chess();
        let base = Position::startpos(&variant);
        let e0 = base.psq[1];
        // Black without its a-side rook (k19): Black's sum drops by the rook's table entry.
        let fen = base.to_fen().replacen("r", "1", 1);
        let fewer = Position::from_fen(&variant, &fen).expect("edited start FEN loads");
        let rook = variant
            .definition()
            .pieces
            .iter()
            .position(|p| p.letter == 'R')
            .unwrap();
        let k19 = variant.index(10, 18);
        assert_eq!(e0 - fewer.psq[1], variant.pst[1][rook * variant.size + k19]);
        assert!(variant.pst[1][rook * variant.size + k19] >= variant.values[rook]);
        assert!(fewer.evaluate() > base.evaluate() + variant.values[rook] / 2);
    }

    /// White's evaluation as the tuner sees it: the dot product of features and weights.
    fn linear_eval(pos: &Position) -> i32 {
        let w = pos.variant.weights.to_vector();
        pos.eval_features().iter().zip(&w).map(|(f, w)| f * w).sum()
    }

    fn white_eval(pos: &Position) -> i32 {
        match pos.side_to_move() {
            Color::White => pos.evaluate(),
            Color::Black => -pos.evaluate(),
        }
    }

    #[test]
    fn features_times_weights_is_the_evaluation() {
        let chess = std::fs::read_to_string(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/tests/data/variants/crazyhouse.txt"
        ))
        .unwrap();
        let house = std::sync::Arc::new(Variant::from_definition(&chess).unwrap());
        let odd = EvalWeights {
            values: house
                .weights()
                .values
                .iter()
                .map(|&x| x + 7 * (x > 0) as i32)
                .collect(),
            reach: 3,
            advance: 5,
            king_shield: 11,
            king_attacker: 13,
            tempo: 17,
            passed: 19,
            threat: 23,
            hanging: 29,
            king_danger: 3,
            pawn_shelter: 7,
            doubled: 11,
            isolated: 13,
            king_centre: 5,
            pawn_endgame: 9,
            pair: 31,
            connected: 7,
            open_file: 9,
            passed_endgame: 7,
            king_attack: 5,
            space: 3,
            mobility: (0..house.pieces().len() as i32).map(|k| 2 + k).collect(),
            endgame: (0..house.pieces().len() as i32).map(|k| 3 - k).collect(),
            squares: (0..(house.pieces().len() * cells(&house)) as i32)
                .map(|i| i % 13 - 6)
                .collect(),
            endgame_squares: (0..(house.pieces().len() * cells(&house)) as i32)
                .map(|i| i % 7 - 3)
                .collect(),
        };
        let reweighted = std::sync::Arc::new(
            Variant::from_definition(&chess)
                .unwrap()
                .with_weights(odd)
                .unwrap(),
        );
        let mut rng = ChaCha8Rng::seed_from_u64(3);
        let mut moves = Vec::new();
        let mut nonzero = [false; 18];
        for variant in [Variant::spider_chess(), house, reweighted] {
            for _ in 0..3 {
                let mut pos = Position::startpos(&variant);
                for _ in 0..80 {
                    assert_eq!(linear_eval(&pos), white_eval(&pos), "{}", pos.to_fen());
                    let f = pos.eval_features();
                    let t = pos.variant.pieces().len();
                    nonzero[0] |= f[t] != 0;
                    nonzero[1] |= f[t + 2] != 0;
                    nonzero[2] |= pos.hand[0].iter().any(|&h| h > 0);
                    nonzero[3] |= f[t + 5] != 0;
                    nonzero[4] |= f[t + 6] != 0;
                    nonzero[5] |= f[t + 7] != 0;
                    nonzero[6] |= f[t + 18..2 * t + 18].iter().any(|&m| m != 0);
                    nonzero[14] |= f[2 * t + 18..].iter().any(|&e| e != 0);
                    for (i, n) in nonzero[7..14].iter_mut().enumerate() {
                        *n |= f[t + 8 + i] != 0;
                    }
                    nonzero[15] |= f[t + 15] != 0;
                    nonzero[16] |= f[t + 16] != 0;
                    nonzero[17] |= f[t + 17] != 0;
                    pos.legal_moves_into(&mut moves);
                    if moves.is_empty() {
                        break;
                    }
                    pos.make_move(moves[rng.gen_range(0..moves.len())]);
                }
            }
        }
        assert_eq!(
            nonzero, [true; 18],
            "reach, shield, hand, passed, threat, hanging, mobility, king danger, pawn shelter, \
             doubled, isolated, king centre, pawn endgame, pair, endgame, connected, open-file and \
             passed-endgame features were exercised"
        );
    }

    /// Chess with `text` applied to its weights.
    fn chess_with(text: &str) -> std::sync::Arc<Variant> {
        let chess = super::super::variant::test_variant("chess");
        let w = EvalWeights::parse(&chess, chess.weights(), text).unwrap();
        std::sync::Arc::new(Variant::clone(&chess).with_weights(w).unwrap())
    }

    #[test]
    fn square_weights_count_from_each_owners_side() {
        let plain = super::super::variant::test_variant("chess");
        let knight = chess_with("square N c3 40");
        let change = |fen: &str| {
            let at = |v: &std::sync::Arc<Variant>| white_eval(&Position::from_fen(v, fen).unwrap());
            at(&knight) - at(&plain)
        };
        // White's knight on c3 and Black's on c6 (its own c3) get the weight, Black's on c3 not.
        assert_eq!(change("4k3/8/8/8/8/2N5/8/4K3 w - - 0 1"), 40);
        assert_eq!(change("4k3/8/2n5/8/8/8/8/4K3 w - - 0 1"), -40);
        assert_eq!(change("4k3/8/8/8/8/2n5/8/4K3 w - - 0 1"), 0);
        // The royal piece has square weights too.
        let king = chess_with("square K g1 25");
        let fen = "6k1/8/8/8/8/8/8/6K1 b - - 0 1";
        let at = |v: &std::sync::Arc<Variant>| white_eval(&Position::from_fen(v, fen).unwrap());
        assert_eq!(at(&king), at(&plain), "both kings on their own g1");
        assert_eq!(
            white_eval(&Position::from_fen(&king, "7k/8/8/8/8/8/8/6K1 b - - 0 1").unwrap())
                - white_eval(&Position::from_fen(&plain, "7k/8/8/8/8/8/8/6K1 b - - 0 1").unwrap()),
            25
        );
    }

    #[test]
    fn endgame_square_weights_taper_with_the_share_from_each_owners_side() {
        let plain = super::super::variant::test_variant("chess");
        let king = chess_with("endgame-square K d4 5");
        assert!(king.phase.on);
        let change = |fen: &str| {
            let at = |v: &std::sync::Arc<Variant>| white_eval(&Position::from_fen(v, fen).unwrap());
            at(&king) - at(&plain)
        };
        // Three rooks of the start's material left: an endgame share of 6 eighths. White's king
        // on d4 gains 6 times the weight; Black's on d5 (its own d4) costs White as much.
        assert_eq!(change("r6k/6pp/8/8/3K4/8/5PPP/R6R w - - 0 1"), 6 * 5);
        assert_eq!(change("r7/6pp/8/3k4/8/8/5PPP/R5KR w - - 0 1"), -6 * 5);
        assert_eq!(change("r7/6pp/8/8/3k4/8/5PPP/R5KR w - - 0 1"), 0);
        // Kings and pawns only: the whole share, 8 eighths; at the start none.
        assert_eq!(change("7k/6pp/8/8/3K4/8/6PP/8 w - - 0 1"), 8 * 5);
        let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
        assert_eq!(change(start), 0);
    }

    #[test]
    fn square_weights_are_kept_up_to_date_by_make_and_unmake() {
        let chess = super::super::variant::test_variant("chess");
        let mut w = chess.weights().clone();
        let mut rng = ChaCha8Rng::seed_from_u64(5);
        w.squares
            .iter_mut()
            .for_each(|x| *x = rng.gen_range(-50..=50));
        let variant = std::sync::Arc::new(Variant::clone(&chess).with_weights(w).unwrap());
        let mut moves = Vec::new();
        for _ in 0..3 {
            let mut pos = Position::startpos(&variant);
            let mut trail = Vec::new();
            for _ in 0..150 {
                pos.legal_moves_into(&mut moves);
                if moves.is_empty() {
                    break;
                }
                trail.push((pos.psq, pos.evaluate()));
                pos.make_move(moves[rng.gen_range(0..moves.len())]);
                assert_eq!(pos.psq, pos.psq_from_scratch(), "{}", pos.to_fen());
                assert_eq!(linear_eval(&pos), white_eval(&pos), "{}", pos.to_fen());
            }
            while let Some((psq, eval)) = trail.pop() {
                pos.unmake_move();
                assert_eq!((pos.psq, pos.evaluate()), (psq, eval));
            }
        }
    }

    #[test]
    fn square_weights_are_written_only_when_set() {
        let chess = super::super::variant::test_variant("chess");
        let plain = chess.weights().to_text(&chess);
        assert!(!plain.contains("square "), "all 0: not written");
        let set = chess_with("square Q d1 -7\nsquare P e4 12\n");
        let text = set.weights().to_text(&set);
        assert_eq!(
            text.lines().filter(|l| l.starts_with("square ")).count(),
            6 * 64
        );
        assert!(text.contains("\nsquare Q d1 -7\n") && text.contains("\nsquare P e4 12\n"));
        let read = EvalWeights::parse(&chess, chess.weights(), &text).unwrap();
        assert_eq!(&read, set.weights());
        for bad in [
            "square N i1 3",
            "square X a1 3",
            "square N a9 3",
            "square N a1",
            "square N 3",
        ] {
            assert!(
                EvalWeights::parse(&chess, chess.weights(), bad).is_err(),
                "{bad}"
            );
        }
        // Endgame square weights are written apart from the square weights.
        let tapered = chess_with("endgame-square K g1 4\n");
        let text = tapered.weights().to_text(&tapered);
        assert_eq!(
            text.lines()
                .filter(|l| l.starts_with("endgame-square "))
                .count(),
            6 * 64
        );
        assert!(!text.contains("\nsquare "), "the square weights are all 0");
        assert!(text.contains("\nendgame-square K g1 4\n"));
        let read = EvalWeights::parse(&chess, chess.weights(), &text).unwrap();
        assert_eq!(&read, tapered.weights());
        assert!(EvalWeights::parse(&chess, chess.weights(), "endgame-square N i1 3").is_err());
        let short = EvalWeights {
            squares: vec![0; 5],
            ..chess.weights().clone()
        };
        assert!(Variant::clone(&chess).with_weights(short).is_err());
        let short = EvalWeights {
            endgame_squares: vec![0; 5],
            ..chess.weights().clone()
        };
        assert!(Variant::clone(&chess).with_weights(short).is_err());
    }

    #[test]
    fn weights_read_back_and_change_the_evaluation() {
        let v = Variant::spider_chess();
        let w = v.weights().clone();
        assert_eq!(EvalWeights::parse(&v, &w, &w.to_text(&v)).unwrap(), w);
        let text = "# a comment\nvalue R 700\n\ntempo 0\n";
        let edited = EvalWeights::parse(&v, &w, text).unwrap();
        let rook = v.pieces().iter().position(|p| p.letter == 'R').unwrap();
        assert_eq!(edited.values[rook], 700);
        assert_eq!(edited.tempo, 0);
        assert_eq!(edited.reach, w.reach);
        let changed = std::sync::Arc::new(
            Variant::from_definition(SPIDER_CHESS_DEFINITION)
                .unwrap()
                .with_weights(edited)
                .unwrap(),
        );
        assert_eq!(
            Position::startpos(&changed).evaluate(),
            0,
            "tempo 0, mirrored"
        );
        assert_eq!(changed.values[rook], 700);
        assert!(EvalWeights::parse(&v, &w, "value X 3").is_err());
        assert!(EvalWeights::parse(&v, &w, "tempo x").is_err());
        assert!(EvalWeights::parse(&v, &w, "tempo").is_err());
        let royal = EvalWeights::parse(&v, &w, "value K 5").unwrap();
        assert!(Variant::from_definition(SPIDER_CHESS_DEFINITION)
            .unwrap()
            .with_weights(royal)
            .is_err());
    }

    #[test]
    fn spider_chess_plays_with_its_tuned_weights() {
        let v = Variant::spider_chess();
        let (name, body) = EvalWeights::split_file(builtin::SPIDER_CHESS_WEIGHTS).unwrap();
        assert_eq!(name, "spider-chess");
        let n = body.lines().filter(|l| !l.trim().is_empty()).count();
        assert_eq!(
            n,
            EvalWeights::squares_start(&v),
            "every weight but the square weights (all 0) is in the file"
        );
        let plain = Variant::from_definition(SPIDER_CHESS_DEFINITION).unwrap();
        assert_ne!(plain.weights(), v.weights());
        assert_eq!(v.weights().to_text(&v).trim(), body.trim());
        assert!(EvalWeights::split_file("# x\n\nvalue P 1\n").is_err());
        assert!(EvalWeights::split_file("").is_err());
        assert_eq!(
            EvalWeights::split_file("variant a b\n").unwrap(),
            ("a b", "")
        );
    }

    #[test]
    fn loaded_piece_values_keep_the_usual_proportions() {
        // Chess: rook about 1.6 knights, queen about 3, bishop a little above the knight
        // (the start's full density gave the rook 1.15 knights and the queen 2).
        let value = |v: &Variant, letter: char| {
            let k = v.pieces().iter().position(|p| p.letter == letter).unwrap();
            v.pieces()[k].value as f64
        };
        let chess = crate::games::spider::variant::test_variant("chess");
        let n = value(&chess, 'N');
        assert!((300.0..380.0).contains(&n), "knight {n}");
        let ratio = |l| value(&chess, l) / n;
        assert!((1.0..1.25).contains(&ratio('B')), "bishop {}", ratio('B'));
        assert!((1.5..1.8).contains(&ratio('R')), "rook {}", ratio('R'));
        assert!((2.8..3.4).contains(&ratio('Q')), "queen {}", ratio('Q'));
        // Capablanca's compounds: archbishop and chancellor between the rook and the queen.
        let capa = crate::games::spider::variant::test_variant("capablanca");
        let (r, q) = (value(&capa, 'R'), value(&capa, 'Q'));
        for c in ['A', 'C'] {
            assert!(r < value(&capa, c) && value(&capa, c) <= q, "{c}");
        }
        // Shatranj: the general (ferz, Q) and the elephant (alfil, B) are worth less than the
        // knight, the rook most.
        let shatranj = crate::games::spider::variant::test_variant("shatranj");
        let sv = |l| value(&shatranj, l);
        assert!(sv('Q') < sv('N') && sv('B') < sv('N') && sv('N') < sv('R'));
    }
}
