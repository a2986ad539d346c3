//! A loaded variant: the definition turned into the tables the move generator runs on a padded
//! mailbox board (holes and the border are permanently "off-board" cells).

use super::definition::{self, Definition, DefinitionError, StalemateRule};
use super::square::{square_name, Color};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::sync::{Arc, OnceLock};

/// The seed's Interactive Diagram definition of Spider-Chess, verbatim.
pub const SPIDER_CHESS_DEFINITION: &str = "files=25 ranks=19 promoZone=1 promoChoice=RQACZACC graphicsDir=/graphics.dir/alfaeriePNG/ squareSize=50 graphicsType=png stalemate=win baring=0 royal=K hole::::h1,i1,j1,p1.q1.r1.g2,h2,i2,q2,r2,s2,f3,g3,h3,r3,s3,t3,e4,f4,g4,s4,t4,u4,d5,e5,f5,t5,u5,v5,c6,d6,e6,u6,v6,w6,b7,c7,d7,v7,w7,x7,a8,b8,c8,w8,x8,y8,a9,b9,x9,y9,a10,y10,a11,b11,x11,y11,a12,b12,c12,w12,x12,y12,b13,c13,d13,v13,w13,x13,c14,d14,e14,u14,v14,w14,d15,e15,f15,t15,u15,v15,e16,f16,g16,s16,t16,u16,f17,g17,h17,r17,s17,t17,g18,h18,i18,q18,q19,r19,j19,p19,r18,s18,h19,i19,j19,p19,q19,r19 pawn:P:fWfnDfnHfmF:pawn:k2,l2,m2,n2,o2,j3,k3,o3,p3,i4,j4,p4,q4,h5,i5,q5,r5,g6,h6,r6,s6,f7,g7,s7,t7,e8,f8,t8,u8,,e12,f12,t12 rook:R:R:rook:k1,o1,,k19,o19 queen:Q:Q:queen:l1,n1,,l19,n19 archbishop:A:BN:cardinal:g5,s5,,g15,s15 chancellor:C:RN:chancellor:f6,t6,,f14,t14 amazon:Z:QN:amazon:e7,u7,,e13,u13 amazonrider:I:QNN:amazonrider:j2,p2,,j18,p18 cardinalrider:J:BNN:cardinalrider:h4,r4,,h16,r16 chancellorrider:L:RNN:chancellorrider:i3,q3,,i17,q17 spider:S:RNNA7:spider:f2,t2,e3,u3,d4,v4,c5,w5,b6,x6,,b14,x14,c15,w15,d16,v16,e17,u17,f18,t18 king:K:K:king:m1,,m19";

/// Border width of the mailbox: the longest single leap of any supported atom.
pub(crate) const PAD: usize = 3;
/// Cell value of an empty playable square.
pub(crate) const EMPTY: u8 = 0;
/// Cell value of a hole or a border square.
pub(crate) const OFF: u8 = 255;
/// Most piece types a variant may define (a cell holds `1 + 2 * kind + color`).
pub const MAX_KINDS: usize = 32;
/// The `pawn` field of a variant without pawns.
pub(crate) const NO_PAWN: u8 = u8::MAX;

/// The cell value of a piece.
#[inline]
pub(crate) fn cell(kind: u8, color: Color) -> u8 {
    1 + 2 * kind + color as u8
}

/// The kind of a piece cell.
#[inline]
pub(crate) fn cell_kind(c: u8) -> u8 {
    (c - 1) >> 1
}

/// The colour of a piece cell.
#[inline]
pub(crate) fn cell_color(c: u8) -> Color {
    if (c - 1) & 1 == 0 {
        Color::White
    } else {
        Color::Black
    }
}

/// One compiled move rule in board offsets for one colour.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Step {
    pub delta: isize,
    pub range: u8,
    pub lame: [isize; 2],
    pub lame_len: u8,
    pub can_move: bool,
    pub can_capture: bool,
}

/// Attack lookup along one vector: which kinds capture along it, and how many leaps they may make.
#[derive(Clone, Debug)]
pub(crate) struct AttackRay {
    pub delta: isize,
    pub max: u8,
    pub range: [u8; MAX_KINDS],
}

/// Attack lookup for a lame leap: the kinds (bit mask) that capture with it.
#[derive(Clone, Copy, Debug)]
pub(crate) struct LameAttack {
    pub delta: isize,
    pub path: [isize; 2],
    pub len: u8,
    pub kinds: u32,
}

/// What a piece type is, for display and evaluation.
#[derive(Clone, Debug)]
pub struct PieceInfo {
    /// Name from the definition.
    pub name: String,
    /// Uppercase letter.
    pub letter: char,
    /// Betza string.
    pub betza: String,
    /// Average number of moves from every playable square on the empty board.
    pub mobility: f64,
    /// Material value in centipawns derived from the mobility (0 for the royal piece).
    pub value: i32,
}

/// A loaded variant: board shape, pieces, rules and the generator's tables. Shared by positions
/// through an `Arc`.
#[derive(Debug)]
pub struct Variant {
    name: String,
    def: Definition,
    pieces: Vec<PieceInfo>,
    pub(crate) stride: usize,
    pub(crate) size: usize,
    pub(crate) template: Vec<u8>,
    pub(crate) playable: Vec<u16>,
    pub(crate) steps: [Vec<Vec<Step>>; 2],
    pub(crate) dedup: Vec<bool>,
    pub(crate) rays: [Vec<AttackRay>; 2],
    pub(crate) lame_attacks: [Vec<LameAttack>; 2],
    pub(crate) zobrist: Vec<u64>,
    pub(crate) side_key: u64,
    /// Per colour and square: 0 no promotion, 1 optional, 2 mandatory.
    pub(crate) promo: [Vec<u8>; 2],
    pub(crate) promo_kinds: Vec<u8>,
    pub(crate) royal: u8,
    /// Kind of the pawn, or `NO_PAWN`.
    pub(crate) pawn: u8,
    pub(crate) values: Vec<i32>,
    /// Per colour and square: how many ranks a pawn there has advanced (0 on its own first rank).
    pub(crate) advance: [Vec<u8>; 2],
    /// Per colour: the evaluation's piece-square tables (see [`super::eval::piece_square_tables`]).
    pub(crate) pst: [Vec<i32>; 2],
    /// Per attacking colour, indexed `size + king - square`: the bit set of its `rays` on which
    /// `square` lies as seen from `king` (within the ray's reach); empty when there are more than
    /// 64 rays. Lets make find the only lines a move can open or close towards the enemy king.
    pub(crate) ray_lines: [Vec<u64>; 2],
    /// Mailbox (x, y) of every cell, border included (king distances in the evaluation).
    pub(crate) xy: Vec<(i16, i16)>,
}

impl Variant {
    /// Spider-Chess, built by parsing the seed's definition line (once per process).
    pub fn spider_chess() -> Arc<Variant> {
        static CELL: OnceLock<Arc<Variant>> = OnceLock::new();
        CELL.get_or_init(|| {
            Arc::new(
                Variant::from_definition(SPIDER_CHESS_DEFINITION)
                    .expect("the seed definition loads")
                    .with_name("spider-chess"),
            )
        })
        .clone()
    }

    /// Loads any variant written in the Interactive Diagram format (see [`definition`]).
    pub fn from_definition(text: &str) -> Result<Variant, DefinitionError> {
        let def = definition::parse(text)?;
        let variant = Arc::new(Variant::build(def)?);
        let start = super::position::Position::startpos(&variant);
        if start.attacked(start.king[1] as usize, Color::White) {
            return Err(DefinitionError {
                token: variant.def.royal.to_string(),
                reason: "Black's king is in check in the start position".to_string(),
            });
        }
        drop(start);
        Ok(Arc::try_unwrap(variant).expect("no other owner"))
    }

    /// Renames the variant (the name protocols show).
    pub fn with_name(mut self, name: &str) -> Variant {
        self.name = name.to_string();
        self
    }

    /// The variant's name (`spider-chess`, or `custom` for a loaded definition).
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The parsed definition.
    pub fn definition(&self) -> &Definition {
        &self.def
    }

    /// Number of files.
    pub fn files(&self) -> u8 {
        self.def.files
    }

    /// Number of ranks.
    pub fn ranks(&self) -> u8 {
        self.def.ranks
    }

    /// The piece types, indexed by kind.
    pub fn pieces(&self) -> &[PieceInfo] {
        &self.pieces
    }

    /// Stalemate rule.
    pub fn stalemate(&self) -> StalemateRule {
        self.def.stalemate
    }

    /// Whether a bare king loses.
    pub fn baring(&self) -> bool {
        self.def.baring
    }

    /// Whether (x, y) is a hole.
    pub fn is_hole(&self, x: u8, y: u8) -> bool {
        self.template[self.index(x, y)] == OFF
    }

    /// Number of playable squares.
    pub fn playable_count(&self) -> usize {
        self.playable.len()
    }

    /// Mailbox index of (x, y).
    #[inline]
    pub(crate) fn index(&self, x: u8, y: u8) -> usize {
        (y as usize + PAD) * self.stride + x as usize + PAD
    }

    /// (x, y) of a mailbox index.
    #[inline]
    pub(crate) fn coords(&self, sq: usize) -> (u8, u8) {
        (
            (sq % self.stride - PAD) as u8,
            (sq / self.stride - PAD) as u8,
        )
    }

    /// Name of a mailbox square.
    pub(crate) fn name_of(&self, sq: usize) -> String {
        let (x, y) = self.coords(sq);
        square_name(x, y)
    }

    /// Kind index of a piece letter (either case).
    pub(crate) fn kind_of_letter(&self, c: char) -> Option<u8> {
        let up = c.to_ascii_uppercase();
        self.pieces
            .iter()
            .position(|p| p.letter == up)
            .map(|k| k as u8)
    }

    /// FEN letter of a piece.
    pub(crate) fn letter(&self, kind: u8, color: Color) -> char {
        let c = self.pieces[kind as usize].letter;
        match color {
            Color::White => c,
            Color::Black => c.to_ascii_lowercase(),
        }
    }

    fn build(def: Definition) -> Result<Variant, DefinitionError> {
        if def.pieces.len() > MAX_KINDS {
            return Err(DefinitionError {
                token: def.pieces[MAX_KINDS].name.clone(),
                reason: format!("at most {MAX_KINDS} piece types are supported"),
            });
        }
        let (files, ranks) = (def.files as usize, def.ranks as usize);
        let stride = files + 2 * PAD;
        let size = stride * (ranks + 2 * PAD);
        let index = |x: usize, y: usize| (y + PAD) * stride + x + PAD;
        let mut template = vec![OFF; size];
        let mut playable = Vec::new();
        for y in 0..ranks {
            for x in 0..files {
                if def.holes.binary_search(&(x as u8, y as u8)).is_err() {
                    template[index(x, y)] = EMPTY;
                    playable.push(index(x, y) as u16);
                }
            }
        }
        // A rule another rule of the piece contains (same vector, same move/capture rights, no lame
        // path, at most its range: the N of an NN) is dropped, so that the generator meets each
        // target once and rarely needs to deduplicate.
        let kept: Vec<Vec<&super::betza::MoveRule>> = def
            .pieces
            .iter()
            .map(|p| {
                p.rules
                    .iter()
                    .enumerate()
                    .filter(|&(i, a)| {
                        !p.rules.iter().enumerate().any(|(j, b)| {
                            j != i
                                && a.lame_path.is_empty()
                                && b.lame_path.is_empty()
                                && (a.dx, a.dy) == (b.dx, b.dy)
                                && (a.can_move, a.can_capture) == (b.can_move, b.can_capture)
                                && (a.range < b.range || (a.range == b.range && j < i))
                        })
                    })
                    .map(|(_, a)| a)
                    .collect()
            })
            .collect();
        let mut steps: [Vec<Vec<Step>>; 2] = [Vec::new(), Vec::new()];
        for color in [Color::White, Color::Black] {
            for rules in &kept {
                let list = rules
                    .iter()
                    .map(|r| {
                        let (dx, dy) = orient(def.symmetry, color, r.dx, r.dy);
                        let mut lame = [0isize; 2];
                        for (i, &(px, py)) in r.lame_path.iter().enumerate() {
                            let (px, py) = orient(def.symmetry, color, px, py);
                            lame[i] = py as isize * stride as isize + px as isize;
                        }
                        Step {
                            delta: dy as isize * stride as isize + dx as isize,
                            range: r.range,
                            lame,
                            lame_len: r.lame_path.len() as u8,
                            can_move: r.can_move,
                            can_capture: r.can_capture,
                        }
                    })
                    .collect();
                steps[color.index()].push(list);
            }
        }
        let dedup = kept
            .iter()
            .map(|rules| {
                rules
                    .iter()
                    .enumerate()
                    .any(|(i, a)| rules[i + 1..].iter().any(|b| a.overlaps(b)))
            })
            .collect();

        let mut rays: [Vec<AttackRay>; 2] = [Vec::new(), Vec::new()];
        let mut lame_attacks: [Vec<LameAttack>; 2] = [Vec::new(), Vec::new()];
        for c in 0..2 {
            for (kind, list) in steps[c].iter().enumerate() {
                for s in list.iter().filter(|s| s.can_capture) {
                    if s.lame_len > 0 {
                        match lame_attacks[c]
                            .iter_mut()
                            .find(|l| l.delta == s.delta && l.path == s.lame && l.len == s.lame_len)
                        {
                            Some(l) => l.kinds |= 1 << kind,
                            None => lame_attacks[c].push(LameAttack {
                                delta: s.delta,
                                path: s.lame,
                                len: s.lame_len,
                                kinds: 1 << kind,
                            }),
                        }
                        continue;
                    }
                    let ray = match rays[c].iter_mut().position(|r| r.delta == s.delta) {
                        Some(i) => &mut rays[c][i],
                        None => {
                            rays[c].push(AttackRay {
                                delta: s.delta,
                                max: 0,
                                range: [0; MAX_KINDS],
                            });
                            rays[c].last_mut().unwrap()
                        }
                    };
                    ray.range[kind] = ray.range[kind].max(s.range);
                    ray.max = ray.max.max(s.range);
                }
            }
        }

        let mut rng = ChaCha8Rng::seed_from_u64(0x5b1d_e7c4_e55a_0001);
        let zobrist = (0..(2 * MAX_KINDS + 1) * size).map(|_| rng.gen()).collect();
        let side_key = rng.gen();

        let zone = def.promo_zone as usize;
        let mut promo = [vec![0u8; size], vec![0u8; size]];
        let mut advance = [vec![0u8; size], vec![0u8; size]];
        for y in 0..ranks {
            for x in 0..files {
                let i = index(x, y);
                promo[0][i] = if y == ranks - 1 {
                    2
                } else {
                    (y >= ranks - zone) as u8
                };
                promo[1][i] = if y == 0 { 2 } else { (y < zone) as u8 };
                advance[0][i] = y as u8;
                advance[1][i] = (ranks - 1 - y) as u8;
            }
        }
        let promo_kinds = def
            .promo_choice
            .iter()
            .map(|&c| def.pieces.iter().position(|p| p.letter == c).unwrap() as u8)
            .collect();
        let royal = def
            .pieces
            .iter()
            .position(|p| p.letter == def.royal)
            .unwrap() as u8;

        let def_pawn = def.pawn.map_or(NO_PAWN, |p| p as u8);
        let ray_lines = [ray_lines(&rays[0], size), ray_lines(&rays[1], size)];
        let mut v = Variant {
            name: "custom".to_string(),
            pieces: Vec::new(),
            def,
            stride,
            size,
            template,
            playable,
            steps,
            dedup,
            rays,
            lame_attacks,
            zobrist,
            side_key,
            promo,
            promo_kinds,
            royal,
            pawn: def_pawn,
            values: Vec::new(),
            advance,
            pst: [Vec::new(), Vec::new()],
            ray_lines,
            xy: (0..size)
                .map(|i| ((i % stride) as i16, (i / stride) as i16))
                .collect(),
        };
        v.pieces = super::eval::piece_infos(&v);
        v.values = v.pieces.iter().map(|p| p.value).collect();
        v.pst = super::eval::piece_square_tables(&v);
        Ok(v)
    }
}

/// The `ray_lines` table of one colour's attack rays (see [`Variant`]).
fn ray_lines(rays: &[AttackRay], size: usize) -> Vec<u64> {
    if rays.len() > 64 {
        return Vec::new();
    }
    let mut lines = vec![0u64; 2 * size];
    for (i, ray) in rays.iter().enumerate() {
        for k in 1..=ray.max as isize {
            let offset = k * ray.delta;
            if offset.unsigned_abs() >= size {
                break;
            }
            lines[(size as isize + offset) as usize] |= 1 << i;
        }
    }
    lines
}

/// A rule's vector for `color`: White's as written, Black's mirrored (or rotated).
fn orient(sym: definition::Symmetry, color: Color, dx: i8, dy: i8) -> (i8, i8) {
    match (color, sym) {
        (Color::White, _) => (dx, dy),
        (Color::Black, definition::Symmetry::Rotate) => (-dx, -dy),
        (Color::Black, _) => (dx, -dy),
    }
}
