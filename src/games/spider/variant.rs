//! A loaded variant: the definition turned into the tables the move generator runs on a padded
//! mailbox board (holes and the border are permanently "off-board" cells).
//!
//! Plain leaper, slider, rider and lame rules go to `steps` (the generator's hot loop and the attack
//! tables); rules with `i`, `e`, `j`, `p` or `g` go to `specials`, castling to `castles`. A variant
//! without specials, castling, en passant or hands ([`Variant::plain`]) runs exactly the hot loop
//! and the short make/unmake.

use super::betza::{MoveRule, Style};
use super::definition::{self, Definition, DefinitionError, Holdings, StalemateRule};
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
/// "No such square / kind" in the per-square and per-kind tables.
pub(crate) const NONE: u8 = u8::MAX;
/// Most pieces of one kind a hand holds with its own hash key (more share the last key).
pub(crate) const HAND_KEYS: usize = 64;

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

/// One compiled plain move rule in board offsets for one colour.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Step {
    pub delta: isize,
    pub range: u8,
    pub lame: [isize; 2],
    pub lame_len: u8,
    pub can_move: bool,
    pub can_capture: bool,
    /// A lame straight leap in a variant with en passant: the squares it passes over may be
    /// captured on en passant.
    pub ep_create: bool,
}

/// One compiled special rule (`i`, `e`, `j`, `p`, `g`) in board offsets for one colour.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Special {
    pub style: Style,
    pub delta: isize,
    pub range: u8,
    pub lame: [isize; 2],
    pub lame_len: u8,
    pub can_move: bool,
    pub can_capture: bool,
    pub can_ep: bool,
    pub initial: bool,
    pub ep_create: bool,
}

/// One castling move of the royal piece: `dist` squares in direction `dir` (+1 or -1 file) towards
/// `side` (0: lower files, 1: higher files).
#[derive(Clone, Copy, Debug)]
pub(crate) struct CastleStep {
    pub dir: isize,
    pub dist: u8,
    pub side: usize,
}

/// One promotion choice: promote to `kind` (the mover's own kind: stay unpromoted) within `depth`
/// ranks of the far end (0: the whole zone), taking it from the hand, not on the last rank.
#[derive(Clone, Copy, Debug)]
pub(crate) struct PromoRule {
    pub kind: u8,
    pub depth: u8,
    pub from_hand: bool,
    pub not_last: bool,
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

impl AttackRay {
    /// The piece of `by` attacking `sq` along this ray on the board `cell` shows: the first
    /// occupied square looking back from `sq` (within [`max`](Self::max) leaps), when a piece of
    /// `by` whose kind captures that far along the ray stands there. Its square and kind.
    #[inline(always)]
    pub fn attacker<F: Fn(usize) -> u8>(
        &self,
        sq: usize,
        by: Color,
        cell: &F,
    ) -> Option<(usize, u8)> {
        let (t, k, c) = self.first_occupied(sq, 1, cell)?;
        self.captures(c, k, by).then(|| (t, cell_kind(c)))
    }

    /// The first cell `cell` shows occupied (by a piece or off the board) looking back along
    /// this ray from `from`, which is `k − 1` leaps from the ray's target (`k` = 1: `from` is the
    /// target): its square, its distance in leaps from the target and its contents; `None` when
    /// every cell within [`max`](Self::max) leaps is empty. Resuming the walk beyond a piece that
    /// left (a static exchange) continues from that piece's square.
    #[inline(always)]
    pub fn first_occupied<F: Fn(usize) -> u8>(
        &self,
        from: usize,
        mut k: u8,
        cell: &F,
    ) -> Option<(usize, u8, u8)> {
        let mut t = from as isize;
        loop {
            t -= self.delta;
            let c = cell(t as usize);
            if c != EMPTY {
                return Some((t as usize, k, c));
            }
            if k >= self.max {
                return None;
            }
            k += 1;
        }
    }

    /// Whether the cell contents `c`, `k` leaps back along this ray, is a piece of `by` that
    /// captures that far along it.
    #[inline(always)]
    pub fn captures(&self, c: u8, k: u8, by: Color) -> bool {
        c != OFF && cell_color(c) == by && self.range[cell_kind(c) as usize] >= k
    }
}

impl LameAttack {
    /// The piece of `by` attacking `sq` with this lame leap on the board `cell` shows (its path
    /// empty): its square and kind.
    #[inline(always)]
    pub fn attacker<F: Fn(usize) -> u8>(
        &self,
        sq: usize,
        by: Color,
        cell: &F,
    ) -> Option<(usize, u8)> {
        let (p, kind) = self.leaper(sq, by, cell)?;
        (0..self.len as usize)
            .all(|i| cell((p + self.path[i]) as usize) == EMPTY)
            .then_some((p as usize, kind))
    }

    /// The square and kind of the piece of `by` that makes this leap to `sq`, whatever its path
    /// holds.
    #[inline(always)]
    fn leaper<F: Fn(usize) -> u8>(&self, sq: usize, by: Color, cell: &F) -> Option<(isize, u8)> {
        let p = sq as isize - self.delta;
        let c = cell(p as usize);
        (c != EMPTY && c != OFF && cell_color(c) == by && self.kinds & (1 << cell_kind(c)) != 0)
            .then(|| (p, cell_kind(c)))
    }

    /// The lone piece screening `sq` from a piece of `by` that would attack it with this lame
    /// leap on the board `cell` shows: the screen's square and the leaper's (`None` when no such
    /// leaper stands there, or its path is empty, holds two pieces or leaves the board).
    #[inline(always)]
    pub fn screen<F: Fn(usize) -> u8>(
        &self,
        sq: usize,
        by: Color,
        cell: &F,
    ) -> Option<(usize, usize)> {
        let (p, _) = self.leaper(sq, by, cell)?;
        let mut screen = None;
        for &o in &self.path[..self.len as usize] {
            let s = (p + o) as usize;
            match cell(s) {
                EMPTY => {}
                OFF => return None,
                _ if screen.is_some() => return None,
                _ => screen = Some(s),
            }
        }
        screen.map(|s| (s, p as usize))
    }
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
    /// Material value in centipawns: derived from the mobility unless weights were given (0 for
    /// the royal piece).
    pub value: i32,
}

/// A loaded variant: board shape, pieces, rules and the generator's tables. Shared by positions
/// through an `Arc`; cloned only to derive a variant with other weights.
#[derive(Clone)]
pub struct Variant {
    name: String,
    def: Definition,
    pieces: Vec<PieceInfo>,
    pub(crate) stride: usize,
    pub(crate) size: usize,
    pub(crate) template: Vec<u8>,
    pub(crate) playable: Vec<u16>,
    pub(crate) steps: [Vec<Vec<Step>>; 2],
    /// Per colour and kind: the special rules (`i`, `e`, `j`, `p`, `g`).
    pub(crate) specials: [Vec<Vec<Special>>; 2],
    /// Whether any kind has special rules.
    pub(crate) has_specials: bool,
    /// Per colour: the royal piece's castling moves.
    pub(crate) castles: [Vec<CastleStep>; 2],
    /// Per colour and side: the kind of the castling partner in the start position (`NONE`: none).
    pub(crate) partner_kind: [[u8; 2]; 2],
    /// Per colour: the royal piece's start square.
    pub(crate) royal_start: [u16; 2],
    /// Whether some rule captures en passant.
    pub(crate) has_ep: bool,
    /// Per capturing colour: en passant rules as (delta, kinds).
    pub(crate) ep_attacks: [Vec<(isize, u32)>; 2],
    /// Per colour: kinds whose special rules capture (hoppers and the like): with such enemies
    /// every move gets the full king-safety test and check detection scans them.
    pub(crate) special_attackers: [u32; 2],
    /// Per colour and square: the kinds that start there (for `i` moves).
    pub(crate) start_mask: [Vec<u32>; 2],
    /// Per colour and square: the kinds that could never move from there (on the empty board).
    pub(crate) immobile: [Vec<u32>; 2],
    pub(crate) dedup: Vec<bool>,
    pub(crate) rays: [Vec<AttackRay>; 2],
    pub(crate) lame_attacks: [Vec<LameAttack>; 2],
    pub(crate) zobrist: Vec<u64>,
    pub(crate) side_key: u64,
    /// Keys of the castling-rights bit sets.
    pub(crate) castle_keys: [u64; 16],
    /// Keys of the en passant victim's square.
    pub(crate) ep_keys: Vec<u64>,
    /// Keys of hand counts, indexed `((color * MAX_KINDS + kind) * HAND_KEYS + count)`.
    pub(crate) hand_keys: Vec<u64>,
    /// Per colour and square: how many ranks from the far end (0: the last rank) when the square
    /// is in the promotion zone, else `NONE`.
    pub(crate) promo_dist: [Vec<u8>; 2],
    /// Kinds that promote (bit mask).
    pub(crate) promoting: u32,
    /// Chess-style promotion choices.
    pub(crate) promo_rules: Vec<PromoRule>,
    /// Per kind: the kind it turns into by Shogi-style promotion (`promoOffset`), else `NONE`.
    pub(crate) promo_target: Vec<u8>,
    /// Shogi-style promotion (`promoOffset`): a move leaving the zone may promote too.
    pub(crate) promote_leaving_zone: bool,
    /// Per kind: what it goes to hand as when captured (the unpromoted kind of a Shogi-style
    /// promoted piece, else itself).
    pub(crate) demote: Vec<u8>,
    /// Where captured pieces go.
    pub(crate) holdings: Holdings,
    /// Whether pieces in hand are dropped.
    pub(crate) drops: bool,
    /// Whether the hand is written in the FEN (else it follows from the board, or is unused).
    pub(crate) hand_in_fen: bool,
    /// Whether promotions take pieces from the hand.
    pub(crate) hand_promo: bool,
    /// Kinds a promotion takes from the hand (`*` in `promoChoice`).
    pub(crate) promo_hand_kinds: u32,
    /// Per colour and square: the kinds that may be dropped there.
    pub(crate) drop_ok: [Vec<u32>; 2],
    /// Per colour and kind: pieces at the start, on the board and in hand.
    pub(crate) initial_total: [[u8; MAX_KINDS]; 2],
    /// No castling, en passant or hand: make/unmake take the short path.
    pub(crate) plain: bool,
    pub(crate) royal: u8,
    /// Kind of the pawn (the first promoting kind), or `NO_PAWN`.
    pub(crate) pawn: u8,
    pub(crate) values: Vec<i32>,
    /// The evaluation's weights (see [`super::eval::EvalWeights`]); `values` are its piece values.
    pub(crate) weights: super::eval::EvalWeights,
    /// The weights estimated from the pieces' mobility when the variant loaded, kept whatever
    /// weights it plays with: what a weights file's unnamed weights are.
    pub(crate) estimate: super::eval::EvalWeights,
    /// Per colour: the evaluation's reach counts (see [`super::eval::reach_tables`]).
    pub(crate) reach: [Vec<u8>; 2],
    /// Per colour and square: how many ranks a pawn there has advanced (0 on its own first rank).
    pub(crate) advance: [Vec<u8>; 2],
    /// Per colour: the evaluation's piece-square tables (see [`super::eval::piece_square_tables`]).
    pub(crate) pst: [Vec<i32>; 2],
    /// Per attacking colour, indexed `size + king - square`: the bit set of its `rays` on which
    /// `square` lies as seen from `king` (within the ray's reach); empty when there are more than
    /// 64 rays. Lets make find the only lines a move can open or close towards the enemy king.
    pub(crate) ray_lines: [Vec<u64>; 2],
    /// The evaluation's tables of its board-dependent terms (mobility, threats, passed pawns).
    pub(crate) activity: super::eval::ActivityTables,
    /// The phase terms' tables (endgame share, centrality, colour-bound kinds).
    pub(crate) phase: super::eval::PhaseTables,
    /// Mailbox (x, y) of every cell, border included (king distances in the evaluation).
    pub(crate) xy: Vec<(i16, i16)>,
}

/// Name, board size and pieces (the tables are too big to print).
impl std::fmt::Debug for Variant {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let letters: String = self.def.pieces.iter().map(|p| p.letter).collect();
        write!(
            f,
            "Variant {{ name: {:?}, board: {}x{}, pieces: {letters} }}",
            self.name, self.def.files, self.def.ranks
        )
    }
}

impl Variant {
    /// Spider-Chess, built by parsing the seed's definition line (once per process).
    pub fn spider_chess() -> Arc<Variant> {
        static CELL: OnceLock<Arc<Variant>> = OnceLock::new();
        CELL.get_or_init(|| {
            let v = Variant::from_definition(SPIDER_CHESS_DEFINITION)
                .expect("the seed definition loads")
                .with_name("spider-chess")
                .with_known_weights();
            Arc::new(v)
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

    /// The variant with the weights tuned for its game when its rules are those of a known game
    /// (Spider-Chess, chess, Capablanca, shatranj), whatever its name; unchanged otherwise.
    /// Engines load with it; a `--weights` file replaces it whole.
    pub fn with_known_weights(self) -> Variant {
        match super::eval::builtin_weights(&self) {
            Some(w) => self
                .with_weights(w)
                .expect("the built-in weights are valid"),
            None => self,
        }
    }

    /// Renames the variant (the name protocols show).
    pub fn with_name(mut self, name: &str) -> Variant {
        self.name = name.to_string();
        self
    }

    /// The variant with other evaluation weights (piece values included, which the exchange
    /// evaluation and move ordering use too). Positions made from it evaluate with them.
    /// Errors: a weight vector of the wrong length, a royal value other than 0, a non-royal
    /// value below 1.
    pub fn with_weights(mut self, w: super::eval::EvalWeights) -> Result<Variant, String> {
        if w.values.len() != self.def.pieces.len() {
            return Err(format!(
                "{} piece values for {} piece kinds",
                w.values.len(),
                self.def.pieces.len()
            ));
        }
        if w.mobility.len() != self.def.pieces.len() {
            return Err(format!(
                "{} mobility weights for {} piece kinds",
                w.mobility.len(),
                self.def.pieces.len()
            ));
        }
        if w.endgame.len() != self.def.pieces.len() {
            return Err(format!(
                "{} endgame weights for {} piece kinds",
                w.endgame.len(),
                self.def.pieces.len()
            ));
        }
        let squares = self.def.pieces.len() * super::eval::cells(&self);
        if w.squares.len() != squares {
            return Err(format!(
                "{} square weights for {squares} (piece kinds times board cells)",
                w.squares.len()
            ));
        }
        if w.endgame_squares.len() != squares {
            return Err(format!(
                "{} endgame square weights for {squares} (piece kinds times board cells)",
                w.endgame_squares.len()
            ));
        }
        for (k, &x) in w.values.iter().enumerate() {
            let letter = self.def.pieces[k].letter;
            if k as u8 == self.royal && x != 0 {
                return Err(format!("value {letter}: the royal piece's value must be 0"));
            }
            if k as u8 != self.royal && x < 1 {
                return Err(format!("value {letter}: must be at least 1, got {x}"));
            }
        }
        for (p, &x) in self.pieces.iter_mut().zip(&w.values) {
            p.value = x;
        }
        self.values = w.values.clone();
        self.weights = w;
        self.pst = super::eval::piece_square_tables(&self);
        self.activity = super::eval::ActivityTables::new(&self);
        self.phase = super::eval::PhaseTables::new(&self);
        Ok(self)
    }

    /// The evaluation's weights.
    pub fn weights(&self) -> &super::eval::EvalWeights {
        &self.weights
    }

    /// The weights estimated from the pieces' mobility when the variant loaded
    /// ([`EvalWeights::estimate`](super::eval::EvalWeights::estimate)), whatever it plays with.
    pub fn estimated_weights(&self) -> &super::eval::EvalWeights {
        &self.estimate
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

    /// Whether the royal piece can castle.
    pub fn has_castling(&self) -> bool {
        !self.castles[0].is_empty() || !self.castles[1].is_empty()
    }

    /// Whether some piece captures en passant.
    pub fn has_en_passant(&self) -> bool {
        self.has_ep
    }

    /// Whether pieces in hand are dropped (`P@e4`).
    pub fn has_drops(&self) -> bool {
        self.drops
    }

    /// Whether the variant keeps pieces in hand (for drops or for promotions).
    pub fn has_hands(&self) -> bool {
        self.drops || self.hand_promo
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

    /// Whether `kind` promotes.
    #[inline]
    pub(crate) fn promotes(&self, kind: u8) -> bool {
        (self.promoting >> kind) & 1 != 0
    }

    /// The hash key of `count` pieces of `kind` in `color`'s hand.
    #[inline]
    pub(crate) fn hand_key(&self, color: usize, kind: u8, count: u8) -> u64 {
        if count == 0 {
            return 0;
        }
        let n = (count as usize).min(HAND_KEYS - 1);
        self.hand_keys[(color * MAX_KINDS + kind as usize) * HAND_KEYS + n]
    }

    fn build(def: Definition) -> Result<Variant, DefinitionError> {
        if def.pieces.len() > MAX_KINDS {
            return Err(DefinitionError {
                token: def.pieces[MAX_KINDS].name.clone(),
                reason: format!("at most {MAX_KINDS} piece types are supported"),
            });
        }
        let (files, ranks) = (def.files as usize, def.ranks as usize);
        let kinds = def.pieces.len();
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
        let has_ep = def
            .pieces
            .iter()
            .any(|p| p.rules.iter().any(|r| r.en_passant));
        // A plain rule another plain rule of the piece contains (same vector, same move/capture
        // rights, no lame path, at most its range: the N of an NN) is dropped, so that the
        // generator meets each target once and rarely needs to deduplicate.
        let compiled: Vec<Vec<MoveRule>> = def
            .pieces
            .iter()
            .map(|p| p.rules.iter().flat_map(split_en_passant).collect())
            .collect();
        let kept: Vec<Vec<&MoveRule>> = compiled
            .iter()
            .map(|rules| {
                let plain: Vec<&MoveRule> = rules.iter().filter(|r| !r.is_special()).collect();
                plain
                    .iter()
                    .enumerate()
                    .filter(|&(i, a)| {
                        !plain.iter().enumerate().any(|(j, b)| {
                            j != i
                                && a.lame_path.is_empty()
                                && b.lame_path.is_empty()
                                && (a.dx, a.dy) == (b.dx, b.dy)
                                && (a.can_move, a.can_capture) == (b.can_move, b.can_capture)
                                && (a.range < b.range || (a.range == b.range && j < i))
                        })
                    })
                    .map(|(_, a)| *a)
                    .collect()
            })
            .collect();
        let offset = |color: Color, (x, y): (i8, i8)| -> isize {
            let (dx, dy) = orient(def.symmetry, color, x, y);
            dy as isize * stride as isize + dx as isize
        };
        let lame_of = |color: Color, path: &[(i8, i8)]| -> [isize; 2] {
            let mut lame = [0isize; 2];
            for (i, &p) in path.iter().enumerate() {
                lame[i] = offset(color, p);
            }
            lame
        };
        let straight = |r: &MoveRule| r.dx == 0 || r.dy == 0 || r.dx.abs() == r.dy.abs();
        let mut steps: [Vec<Vec<Step>>; 2] = [Vec::new(), Vec::new()];
        let mut specials: [Vec<Vec<Special>>; 2] = [Vec::new(), Vec::new()];
        let mut castles: [Vec<CastleStep>; 2] = [Vec::new(), Vec::new()];
        for color in [Color::White, Color::Black] {
            for (k, rules) in kept.iter().enumerate() {
                let list = rules
                    .iter()
                    .map(|r| Step {
                        delta: offset(color, (r.dx, r.dy)),
                        range: r.range,
                        lame: lame_of(color, &r.lame_path),
                        lame_len: r.lame_path.len() as u8,
                        can_move: r.can_move,
                        can_capture: r.can_capture,
                        ep_create: has_ep && !r.lame_path.is_empty() && straight(r),
                    })
                    .collect();
                steps[color.index()].push(list);
                let p = &def.pieces[k];
                let special = compiled[k]
                    .iter()
                    .filter(|r| r.is_special() && r.style != Style::Castle)
                    .map(|r| Special {
                        style: r.style,
                        delta: offset(color, (r.dx, r.dy)),
                        range: r.range,
                        lame: lame_of(color, &r.lame_path),
                        lame_len: r.lame_path.len() as u8,
                        can_move: r.can_move,
                        can_capture: r.can_capture,
                        can_ep: r.en_passant,
                        initial: r.initial,
                        ep_create: has_ep
                            && r.style == Style::Plain
                            && !r.lame_path.is_empty()
                            && straight(r),
                    })
                    .collect();
                specials[color.index()].push(special);
                if p.letter == def.royal {
                    for r in p.rules.iter().filter(|r| r.style == Style::Castle) {
                        let (mut dx, _) = orient(def.symmetry, color, r.dx, 0);
                        if def.castle_flip && color == Color::Black {
                            dx = -dx;
                        }
                        castles[color.index()].push(CastleStep {
                            dir: dx.signum() as isize,
                            dist: dx.unsigned_abs(),
                            side: (dx > 0) as usize,
                        });
                    }
                }
            }
        }
        let has_specials = specials.iter().any(|c| c.iter().any(|l| !l.is_empty()));
        // An en-passant-only rule's moves carry their own flag: they never repeat a move of
        // another kind of rule, only of another en-passant-only one.
        let ep_only = |r: &MoveRule| r.en_passant && !r.can_move && !r.can_capture;
        let dedup = compiled
            .iter()
            .map(|rules| {
                let rules: Vec<&MoveRule> = rules
                    .iter()
                    .filter(|r| r.style != Style::Castle)
                    .filter(|r| {
                        r.is_special() || kept.iter().flatten().any(|k| std::ptr::eq(*k, *r))
                    })
                    .collect();
                rules.iter().enumerate().any(|(i, a)| {
                    rules[i + 1..]
                        .iter()
                        .any(|b| ep_only(a) == ep_only(b) && a.overlaps(b))
                })
            })
            .collect();

        let mut rays: [Vec<AttackRay>; 2] = [Vec::new(), Vec::new()];
        let mut lame_attacks: [Vec<LameAttack>; 2] = [Vec::new(), Vec::new()];
        let mut ep_attacks: [Vec<(isize, u32)>; 2] = [Vec::new(), Vec::new()];
        let mut special_attackers = [0u32; 2];
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
                            rays[c].last_mut().expect("just pushed")
                        }
                    };
                    ray.range[kind] = ray.range[kind].max(s.range);
                    ray.max = ray.max.max(s.range);
                }
            }
            for (kind, list) in specials[c].iter().enumerate() {
                for s in list {
                    if s.can_capture {
                        special_attackers[c] |= 1 << kind;
                    }
                    if s.can_ep {
                        match ep_attacks[c].iter_mut().find(|e| e.0 == s.delta) {
                            Some(e) => e.1 |= 1 << kind,
                            None => ep_attacks[c].push((s.delta, 1 << kind)),
                        }
                    }
                }
            }
        }

        let mut rng = ChaCha8Rng::seed_from_u64(0x5b1d_e7c4_e55a_0001);
        let zobrist = (0..(2 * MAX_KINDS + 1) * size).map(|_| rng.gen()).collect();
        let side_key = rng.gen();
        let mut castle_keys = [0u64; 16];
        for k in castle_keys.iter_mut().skip(1) {
            *k = rng.gen();
        }
        let ep_keys = (0..size).map(|_| rng.gen()).collect();
        let hand_keys = (0..2 * MAX_KINDS * HAND_KEYS).map(|_| rng.gen()).collect();

        let zone = def.promo_zone as usize;
        let mut promo_dist = [vec![NONE; size], vec![NONE; size]];
        let mut advance = [vec![0u8; size], vec![0u8; size]];
        let mut start_mask = [vec![0u32; size], vec![0u32; size]];
        for y in 0..ranks {
            for x in 0..files {
                let i = index(x, y);
                if y >= ranks - zone {
                    promo_dist[0][i] = (ranks - 1 - y) as u8;
                }
                if y < zone {
                    promo_dist[1][i] = y as u8;
                }
                advance[0][i] = y as u8;
                advance[1][i] = (ranks - 1 - y) as u8;
            }
        }
        let mut initial_total = [[0u8; MAX_KINDS]; 2];
        for (k, p) in def.pieces.iter().enumerate() {
            for (c, squares) in [&p.white, &p.black].into_iter().enumerate() {
                for &(x, y) in squares {
                    start_mask[c][index(x as usize, y as usize)] |= 1 << k;
                }
                initial_total[c][k] = (squares.len() + p.hand as usize).min(255) as u8;
            }
        }
        let kind_of = |letter: char| -> u8 {
            def.pieces
                .iter()
                .position(|p| p.letter == letter)
                .expect("checked by the parser") as u8
        };
        let royal = kind_of(def.royal);
        let promoting = def.promoting.iter().fold(0u32, |m, &k| m | 1 << k);
        let promo_rules = def
            .promotions
            .iter()
            .map(|c| PromoRule {
                kind: kind_of(c.letter),
                depth: c.depth,
                from_hand: c.from_hand,
                not_last: c.not_last,
            })
            .collect();
        let mut promo_target = vec![NONE; kinds];
        let mut demote: Vec<u8> = (0..kinds as u8).collect();
        if def.promo_offset > 0 {
            for &k in &def.promoting {
                let t = k + def.promo_offset as usize;
                promo_target[k] = t as u8;
                demote[t] = k as u8;
            }
        }
        let hand_promo = def.promotes_from_hand();
        let promo_hand_kinds = def
            .promotions
            .iter()
            .filter(|c| c.from_hand)
            .fold(0u32, |m, c| m | 1 << kind_of(c.letter));
        let drops = def.has_drops();
        let hand_in_fen = drops || (hand_promo && def.holdings == Holdings::Capturer);

        let def_pawn = def.pawn.map_or(NO_PAWN, |p| p as u8);
        let ray_lines = [ray_lines(&rays[0], size), ray_lines(&rays[1], size)];
        let mut royal_start = [0u16; 2];
        for (c, squares) in [
            &def.pieces[royal as usize].white,
            &def.pieces[royal as usize].black,
        ]
        .into_iter()
        .enumerate()
        {
            let (x, y) = squares[0];
            royal_start[c] = index(x as usize, y as usize) as u16;
        }
        let plain = castles.iter().all(|c| c.is_empty()) && !has_ep && !drops && !hand_promo;
        let mut v = Variant {
            name: "custom".to_string(),
            pieces: Vec::new(),
            stride,
            size,
            template,
            playable,
            steps,
            specials,
            has_specials,
            castles,
            partner_kind: [[NONE; 2]; 2],
            royal_start,
            has_ep,
            ep_attacks,
            special_attackers,
            start_mask,
            immobile: [vec![0; size], vec![0; size]],
            dedup,
            rays,
            lame_attacks,
            zobrist,
            side_key,
            castle_keys,
            ep_keys,
            hand_keys,
            promo_dist,
            promoting,
            promo_rules,
            promote_leaving_zone: def.promo_offset > 0,
            promo_target,
            demote,
            holdings: def.holdings,
            drops,
            hand_in_fen,
            hand_promo,
            promo_hand_kinds,
            drop_ok: [vec![0; size], vec![0; size]],
            initial_total,
            plain,
            royal,
            pawn: def_pawn,
            values: Vec::new(),
            weights: super::eval::EvalWeights::default(),
            estimate: super::eval::EvalWeights::default(),
            reach: [Vec::new(), Vec::new()],
            advance,
            pst: [Vec::new(), Vec::new()],
            activity: Default::default(),
            phase: Default::default(),
            ray_lines,
            xy: (0..size)
                .map(|i| ((i % stride) as i16, (i / stride) as i16))
                .collect(),
            def,
        };
        v.immobile = [v.immobility(0), v.immobility(1)];
        v.drop_ok = [v.drop_squares(0), v.drop_squares(1)];
        v.partner_kind = [v.start_partners(0), v.start_partners(1)];
        v.pieces = super::eval::piece_infos(&v);
        v.weights = super::eval::EvalWeights::estimate(&v);
        v.estimate = v.weights.clone();
        v.values = v.weights.values.clone();
        v.reach = super::eval::reach_tables(&v);
        v.pst = super::eval::piece_square_tables(&v);
        v.activity = super::eval::ActivityTables::new(&v);
        v.phase = super::eval::PhaseTables::new(&v);
        Ok(v)
    }

    /// Per square: the kinds of `color` that have no move at all from it on the empty board
    /// (hoppers count as mobile where a hurdle and a landing square could be).
    fn immobility(&self, color: usize) -> Vec<u32> {
        let mut out = vec![0u32; self.size];
        let playable =
            |t: isize| t >= 0 && (t as usize) < self.size && self.template[t as usize] == EMPTY;
        for &sq in &self.playable {
            let s = sq as isize;
            for kind in 0..self.def.pieces.len() {
                let plain = self.steps[color][kind].iter().any(|st| {
                    playable(s + st.delta)
                        && (0..st.lame_len as usize).all(|i| playable(s + st.lame[i]))
                });
                let special = self.specials[color][kind].iter().any(|sp| match sp.style {
                    Style::Plain => {
                        (!sp.initial || self.start_mask[color][sq as usize] >> kind & 1 != 0)
                            && playable(s + sp.delta)
                            && (0..sp.lame_len as usize).all(|i| playable(s + sp.lame[i]))
                    }
                    Style::Jump => {
                        playable(s + sp.delta)
                            && (0..sp.lame_len as usize).all(|i| playable(s + sp.lame[i]))
                    }
                    Style::Ski | Style::Hop | Style::Grasshop => {
                        playable(s + sp.delta) && playable(s + 2 * sp.delta)
                    }
                    Style::Castle => false,
                });
                if !plain && !special {
                    out[sq as usize] |= 1 << kind;
                }
            }
        }
        out
    }

    /// Per square: the kinds of `color` that may be dropped there: not where they could never
    /// move, and promoting kinds (pawns) not on their first rank nor in their promotion zone.
    fn drop_squares(&self, color: usize) -> Vec<u32> {
        let mut out = vec![0u32; self.size];
        if !self.drops {
            return out;
        }
        for &sq in &self.playable {
            let sq = sq as usize;
            let (_, y) = self.coords(sq);
            let first = if color == 0 {
                y == 0
            } else {
                y + 1 == self.def.ranks
            };
            for kind in 0..self.def.pieces.len() as u8 {
                if kind == self.royal || self.immobile[color][sq] >> kind & 1 != 0 {
                    continue;
                }
                if self.promotes(kind) && (first || self.promo_dist[color][sq] != NONE) {
                    continue;
                }
                out[sq] |= 1 << kind;
            }
        }
        out
    }

    /// Per side (lower files, higher files): the kind of `color`'s castling partner in the start
    /// position, the piece nearest to the corner on the royal piece's rank, if the royal piece
    /// castles that way and the partner stands at least the shortest castling distance away.
    fn start_partners(&self, color: usize) -> [u8; 2] {
        let mut out = [NONE; 2];
        let mut board = self.template.clone();
        for (k, p) in self.def.pieces.iter().enumerate() {
            for &(x, y) in if color == 0 { &p.white } else { &p.black } {
                board[self.index(x, y)] = 1 + k as u8;
            }
        }
        for (side, slot) in out.iter_mut().enumerate() {
            let dir: isize = if side == 0 { -1 } else { 1 };
            let Some(dist) = self.castles[color]
                .iter()
                .filter(|c| c.side == side)
                .map(|c| c.dist)
                .min()
            else {
                continue;
            };
            let ksq = self.royal_start[color] as isize;
            let mut t = ksq + dir;
            let mut last = None;
            while board[t as usize] != OFF {
                if board[t as usize] != EMPTY {
                    last = Some(t);
                }
                t += dir;
            }
            if let Some(p) = last {
                if (p - ksq).unsigned_abs() >= dist as usize {
                    *slot = board[p as usize] - 1;
                }
            }
        }
        out
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
/// A plain rule that also captures en passant (the chess pawn's `fceF`) compiled as two: the
/// rule without en passant, a plain leaper like any other (in the attack tables, so the piece is
/// no special attacker and its moves need no full king-safety test), and an en-passant-only
/// special rule. Every other rule is kept as it is.
fn split_en_passant(r: &MoveRule) -> Vec<MoveRule> {
    if !(r.en_passant && r.style == Style::Plain && !r.initial) {
        return vec![r.clone()];
    }
    let ep = MoveRule {
        can_move: false,
        can_capture: false,
        ..r.clone()
    };
    if !(r.can_move || r.can_capture) {
        return vec![ep];
    }
    let plain = MoveRule {
        en_passant: false,
        ..r.clone()
    };
    vec![plain, ep]
}

fn orient(sym: definition::Symmetry, color: Color, dx: i8, dy: i8) -> (i8, i8) {
    match (color, sym) {
        (Color::White, _) => (dx, dy),
        (Color::Black, definition::Symmetry::Rotate) => (-dx, -dy),
        (Color::Black, _) => (dx, -dy),
    }
}

/// A variant of `tests/data/variants/NAME.txt`, for the unit tests of the rules and evaluation.
#[cfg(test)]
pub(crate) fn test_variant(name: &str) -> Arc<Variant> {
    let path = format!(
        "{}/tests/data/variants/{name}.txt",
        env!("CARGO_MANIFEST_DIR")
    );
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    Arc::new(Variant::from_definition(&text).unwrap_or_else(|e| panic!("{name}: {e}")))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn en_passant_pawns_capture_through_the_plain_tables() {
        let text = include_str!("../../../tests/data/variants/chess.txt");
        let v = Variant::from_definition(text).expect("chess loads");
        // The pawn's `fceF` is its plain diagonal capture plus an en-passant-only rule, so no
        // chess piece is a special attacker (which would test every move for king safety).
        assert_eq!(v.special_attackers, [0, 0]);
        let pawn = v.pawn as usize;
        for c in 0..2 {
            assert!(v.steps[c][pawn]
                .iter()
                .any(|s| s.can_capture && !s.can_move));
            assert!(v.specials[c][pawn]
                .iter()
                .all(|s| (s.can_ep && !s.can_capture && !s.can_move) || s.initial));
            assert!(v.specials[c][pawn].iter().any(|s| s.can_ep));
        }
        assert!(
            !v.dedup[pawn],
            "en passant moves never repeat a plain capture"
        );
    }
}
