//! The interface between a two-sided game and the alpha-beta search.

/// A score in centipawns from the point of view of the side to move.
pub type Score = i32;

/// Score of a win found at the root (mate in 0 plies); a win in `n` plies scores `MATE - n`.
pub const MATE: Score = 30_000;
/// Scores at or beyond this magnitude are mate scores.
pub const MATE_BOUND: Score = MATE - 1_000;
/// Larger than every score the search can return.
pub const INFINITY: Score = 32_000;
/// The score of a drawn position.
pub const DRAW: Score = 0;

/// What an alpha-beta search needs from a game with two sides whose turns alternate.
///
/// Implementors keep their own undo stack: [`make`](TwoSided::make) pushes, [`unmake`](TwoSided::unmake)
/// pops, so the search never allocates per node. Move lists are written into caller-owned buffers.
pub trait TwoSided: Clone + Send + 'static {
    /// A move: small, `Copy`, comparable (for TT moves, killers, PV).
    type Move: Copy + Eq + Send + Sync + std::fmt::Debug + 'static;

    /// Hash key of the position, including the side to move (and anything else that changes the
    /// set of legal moves).
    fn key(&self) -> u64;

    /// Writes every legal move into `out` (cleared first).
    fn legal_moves(&self, out: &mut Vec<Self::Move>);

    /// Writes the legal "noisy" moves (captures, promotions) into `out` (cleared first); used by
    /// quiescence search.
    fn noisy_moves(&self, out: &mut Vec<Self::Move>);

    /// Writes the legal moves that are not in `noisy` (this position's own
    /// [`noisy_moves`](TwoSided::noisy_moves)) into `out` (cleared first): the move picker's last
    /// stage. The default generates every legal move and drops those in `noisy`; a game that can
    /// generate its quiet moves directly should override it.
    fn quiet_moves(&self, noisy: &[Self::Move], out: &mut Vec<Self::Move>) {
        self.legal_moves(out);
        out.retain(|m| !noisy.contains(m));
    }

    /// Plays a legal move.
    fn make(&mut self, mv: Self::Move);

    /// Takes back the last move played with [`make`](TwoSided::make).
    fn unmake(&mut self);

    /// Passes the turn without moving (null-move pruning). Returns `false`, changing nothing, where
    /// the game does not allow it to be meaningful (side to move in check, or likely in zugzwang).
    fn make_null(&mut self) -> bool;

    /// Takes back a [`make_null`](TwoSided::make_null).
    fn unmake_null(&mut self);

    /// Whether the side to move is in check (its royal piece attacked).
    fn in_check(&self) -> bool;

    /// Whether [`gives_check`](TwoSided::gives_check) is implemented; if not, the search prunes
    /// the rest of the quiet moves at once instead of looking for checks among them.
    const TELLS_CHECKS: bool = false;

    /// Whether the legal move `mv` would give check, where the game can tell cheaply before
    /// playing it (the search spares such quiet moves from most pruning). `false` when unknown.
    fn gives_check(&self, _mv: Self::Move) -> bool {
        false
    }

    /// The score for the side to move when it has no legal move (checkmate, stalemate), before the
    /// search adjusts it by ply. For chess-like games `-MATE` for a loss, [`DRAW`] for a draw.
    fn no_moves_score(&self) -> Score;

    /// A result decided by a rule before move generation: draw by repetition (the search treats one
    /// repetition inside the search as a draw), 50-move rule, bare king. `Some(score)` for the side
    /// to move (`-MATE` for a loss, `DRAW` for a draw), `None` when play goes on.
    fn rule_outcome(&self) -> Option<Score>;

    /// Static evaluation for the side to move, in centipawns.
    fn evaluate(&self) -> Score;

    /// A key of the position's slow-changing structure (e.g. the pawns), by which the search
    /// learns how far [`evaluate`](TwoSided::evaluate) misses in similar positions (correction
    /// history). `None`, the default, turns that off.
    fn structure_key(&self) -> Option<u64> {
        None
    }

    /// Value of the piece a move captures (0 for a non-capture): the "MVV" in MVV/LVA.
    fn victim_value(&self, mv: Self::Move) -> Score;

    /// Value of the piece that moves: the "LVA" in MVV/LVA.
    fn attacker_value(&self, mv: Self::Move) -> Score;

    /// Static exchange estimate: whether playing `mv` (and the exchanges that follow on its target)
    /// wins at least `threshold` centipawns. Quiescence search skips captures for which
    /// `see_ge(mv, 0)` is false. The default is pessimistic — a capturing piece is assumed to be
    /// recaptured (`victim - attacker >= threshold`; a non-capture gains nothing); a game with a
    /// real exchange evaluator should override it.
    fn see_ge(&self, mv: Self::Move, threshold: Score) -> bool {
        let victim = self.victim_value(mv);
        if victim == 0 {
            threshold <= 0
        } else {
            victim - self.attacker_value(mv) >= threshold
        }
    }

    /// Whether [`see_ge`](TwoSided::see_ge) is a real static exchange evaluation (counting the
    /// recaptures on the target square). When it is, the move picker tries captures that lose
    /// material after the quiet moves, and the search prunes moves that lose material near the
    /// horizon; with the pessimistic default it does neither.
    fn exact_see(&self) -> bool {
        false
    }

    /// A dense index of the kind of piece a move captures, below [`kinds`](TwoSided::kinds), for
    /// the capture history (0 when the game does not tell kinds apart).
    fn captured_kind(&self, _mv: Self::Move) -> usize {
        0
    }

    /// Number of distinct [`captured_kind`](TwoSided::captured_kind) values.
    fn kinds(&self) -> usize {
        1
    }

    /// Whether a move is quiet (no capture, no promotion): quiet moves get killers and history.
    fn is_quiet(&self, mv: Self::Move) -> bool {
        self.victim_value(mv) == 0
    }

    /// A dense index of a move for history tables, below [`history_size`](TwoSided::history_size);
    /// typically piece-kind and target square.
    fn history_index(&self, mv: Self::Move) -> usize;

    /// Size of the history table [`history_index`](TwoSided::history_index) indexes.
    fn history_size(&self) -> usize;

    /// Number of plies played since the root position the game was created with (for repetition
    /// and for `seldepth`); purely informative for the search.
    fn ply(&self) -> usize;
}
