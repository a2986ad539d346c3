//! The Spider-Chess engine: the Interactive Diagram rules core searched by the alpha-beta
//! [`Searcher`], spoken to through the shared protocol loop.

use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Instant;

use super::cli::{BenchReport, BenchSequence};

use crate::games::spider::{divide_until, Color, Position, Variant, DEFAULT_FIFTY_MOVE_PLIES};
use crate::protocol::{EngineGame, EngineOption, GameOutcome, OptionKind, SearchReport};
use crate::search::{Limits, Searcher};

/// Name of the option that sets the 50-move rule's length in plies (0 turns it off).
pub const FIFTY_MOVE_OPTION: &str = "FiftyMovePlies";

/// Spider-Chess (and any other loaded Interactive Diagram variant) as a protocol engine.
pub struct SpiderEngine {
    variants: Vec<Arc<Variant>>,
    searcher: Searcher<Position>,
    fifty_move_plies: u32,
}

impl SpiderEngine {
    /// The engine with the built-in Spider-Chess plus `extra` variants (loaded definitions),
    /// and a transposition table of `hash_mib` MiB.
    pub fn new(extra: Vec<Arc<Variant>>, hash_mib: usize) -> Self {
        let mut variants = vec![Variant::spider_chess()];
        variants.extend(extra);
        SpiderEngine {
            variants,
            searcher: Searcher::new(hash_mib),
            fifty_move_plies: DEFAULT_FIFTY_MOVE_PLIES,
        }
    }

    /// The engine with exactly `variants` (the first is the default), e.g. Spider-Chess with
    /// tuned weights instead of the built-in one.
    pub fn with_variants(variants: Vec<Arc<Variant>>, hash_mib: usize) -> Self {
        SpiderEngine {
            variants,
            searcher: Searcher::new(hash_mib),
            fifty_move_plies: DEFAULT_FIFTY_MOVE_PLIES,
        }
    }

    fn variant(&self, name: &str) -> Result<&Arc<Variant>, String> {
        self.variants
            .iter()
            .find(|v| v.name().eq_ignore_ascii_case(name))
            .ok_or_else(|| {
                let known: Vec<&str> = self.variants.iter().map(|v| v.name()).collect();
                format!("unknown variant '{name}' (known: {})", known.join(", "))
            })
    }

    fn with_rules(&self, mut pos: Position) -> Position {
        pos.set_fifty_move_limit(self.fifty_move_plies);
        pos
    }
}

/// Loads an Interactive Diagram definition file as a variant named after the file (without its
/// extension), with the built-in weights when its rules are a known game's (chess, Capablanca,
/// shatranj, Grand chess, Spider-Chess).
pub fn load_variant_file(path: &std::path::Path) -> Result<Arc<Variant>, String> {
    let shown = path.display();
    let text = std::fs::read_to_string(path).map_err(|e| format!("reading {shown}: {e}"))?;
    let name = path
        .file_stem()
        .and_then(|s| s.to_str())
        .unwrap_or("custom")
        .to_string();
    let variant = Variant::from_definition(&text)
        .map_err(|e| format!("{shown}: {e}"))?
        .with_name(&name)
        .with_known_weights();
    Ok(Arc::new(variant))
}

/// The variants an engine offers: the `loaded` ones first (the first is the default, what a GUI
/// that sends no `UCI_Variant` plays and what `perft` counts), then the built-in Spider-Chess
/// unless a loaded file has its name.
pub fn offered_variants(loaded: Vec<Arc<Variant>>) -> Vec<Arc<Variant>> {
    let builtin = Variant::spider_chess();
    let mut variants = loaded;
    if !variants
        .iter()
        .any(|v| v.name().eq_ignore_ascii_case(builtin.name()))
    {
        variants.push(builtin);
    }
    variants
}

/// XBoard's piece types in the order of its `setup` piece-to-letter table (22 per side), with the
/// Betza moves of the type's usual piece, used to give each piece of a loaded variant a fitting
/// image; the royal piece takes the last (king) slot.
const XBOARD_TYPES: [&str; 22] = [
    "fmWfceFifmnD", // pawn
    "N",            // knight
    "B",            // bishop
    "R",            // rook
    "Q",            // queen
    "F",            // ferz
    "A",            // alfil
    "BN",           // angel (archbishop)
    "RN",           // marshall (chancellor)
    "W",            // wazir
    "K",            // man (commoner)
    "mRcpR",        // cannon
    "NN",           // nightrider
    "QN",           // cardinal (amazon)
    "RF",           // dragon
    "gQ",           // grasshopper
    "FfW",          // silver
    "",             // falcon
    "fR",           // lance
    "",             // cobra
    "",             // unicorn
    "",             // king
];

/// The lines that define a loaded variant for XBoard after `variant NAME` (XBoard's
/// engine-defined variants): `setup (PIECETOCHAR) WxH+POCKET_fairy FEN` with each piece's letter
/// in the slot of a fitting XBoard piece type, then `piece LETTER& BETZA` per piece so that XBoard
/// tests legality itself. `None` where XBoard cannot show the variant (more than 16 files or
/// ranks, more than 22 piece types).
pub fn xboard_setup(variant: &Arc<Variant>) -> Option<Vec<String>> {
    let def = variant.definition();
    if def.files > 16 || def.ranks > 16 || def.pieces.len() > XBOARD_TYPES.len() {
        return None;
    }
    let mut slots: [Option<char>; 22] = [None; 22];
    let mut placed = vec![false; def.pieces.len()];
    let royal = def.pieces.iter().position(|p| p.letter == def.royal)?;
    slots[21] = Some(def.royal);
    placed[royal] = true;
    // First pieces whose moves are those of an XBoard type, then the others in free slots.
    for (k, p) in def.pieces.iter().enumerate() {
        if placed[k] {
            continue;
        }
        let wanted = if Some(k) == def.pawn { Some(0) } else { None }.or_else(|| {
            XBOARD_TYPES[..21]
                .iter()
                .position(|b| !b.is_empty() && *b == p.betza)
        });
        if let Some(slot) = wanted.filter(|&s| slots[s].is_none()) {
            slots[slot] = Some(p.letter);
            placed[k] = true;
        }
    }
    for (k, p) in def.pieces.iter().enumerate() {
        if !placed[k] {
            let free = (0..21).rev().find(|&s| slots[s].is_none())?;
            slots[free] = Some(p.letter);
        }
    }
    let white: String = slots.iter().map(|s| s.unwrap_or('.')).collect();
    let table = format!("{white}{}", white.to_ascii_lowercase());
    let pocket = if variant.has_drops() {
        def.pieces.len() - 1
    } else {
        0
    };
    let fen = Position::startpos(variant).to_fen();
    let mut lines = vec![format!(
        "setup ({table}) {}x{}+{pocket}_fairy {fen}",
        def.files, def.ranks
    )];
    for p in &def.pieces {
        lines.push(format!("piece {}& {}", p.letter, p.betza));
    }
    Some(lines)
}

/// Seat numbers of the protocol: White is seat 1, Black seat 2.
fn seat(color: Color) -> usize {
    match color {
        Color::White => 1,
        Color::Black => 2,
    }
}

impl EngineGame for SpiderEngine {
    type Position = Position;
    type Move = crate::games::spider::Move;

    fn engine_name(&self) -> String {
        format!("Orrery Spider-Chess {}", env!("CARGO_PKG_VERSION"))
    }

    fn variants(&self) -> Vec<String> {
        self.variants.iter().map(|v| v.name().to_string()).collect()
    }

    fn cecp_variant_setup(&self, variant: &str) -> Vec<String> {
        self.variant(variant)
            .ok()
            .and_then(xboard_setup)
            .unwrap_or_default()
    }

    fn start_position(&self, variant: &str) -> Result<Position, String> {
        Ok(self.with_rules(Position::startpos(self.variant(variant)?)))
    }

    fn parse_position(&self, variant: &str, text: &str) -> Result<Position, String> {
        let pos = Position::from_fen(self.variant(variant)?, text).map_err(|e| e.to_string())?;
        Ok(self.with_rules(pos))
    }

    fn position_text(&self, pos: &Position) -> String {
        pos.to_fen()
    }

    fn parse_move(&self, pos: &Position, text: &str) -> Result<Self::Move, String> {
        pos.parse_move(text).map_err(|e| e.to_string())
    }

    fn move_text(&self, pos: &Position, mv: Self::Move) -> String {
        pos.move_text(mv)
    }

    fn play(&self, pos: &mut Position, mv: Self::Move) {
        pos.make_move(mv);
    }

    fn outcome(&self, pos: &Position) -> Option<GameOutcome> {
        pos.outcome().map(|o| match o.winner {
            Some(c) => GameOutcome::Win {
                seats: vec![seat(c)],
                reason: o.reason.to_string(),
            },
            None => GameOutcome::Draw {
                reason: o.reason.to_string(),
            },
        })
    }

    fn seats(&self, _pos: &Position) -> usize {
        2
    }

    fn seat_to_move(&self, pos: &Position) -> usize {
        seat(pos.side_to_move())
    }

    fn perft_divide(
        &self,
        pos: &Position,
        depth: u32,
        stop: &AtomicBool,
    ) -> Option<Vec<(String, u64)>> {
        let mut p = pos.clone();
        let lines = divide_until(&mut p, depth, stop)?;
        Some(
            lines
                .into_iter()
                .map(|(mv, n)| (pos.move_text(mv), n))
                .collect(),
        )
    }

    fn options(&self) -> Vec<EngineOption> {
        vec![EngineOption {
            name: FIFTY_MOVE_OPTION.to_string(),
            kind: OptionKind::Spin {
                default: i64::from(DEFAULT_FIFTY_MOVE_PLIES),
                min: 0,
                max: 10_000,
            },
        }]
    }

    fn set_option(&mut self, name: &str, value: &str) -> Result<(), String> {
        if name.eq_ignore_ascii_case(FIFTY_MOVE_OPTION) {
            self.fifty_move_plies = value
                .parse()
                .map_err(|_| format!("{FIFTY_MOVE_OPTION} needs an integer"))?;
            Ok(())
        } else {
            Err(format!("unknown option '{name}'"))
        }
    }

    fn set_hash(&mut self, mib: usize) -> Result<(), String> {
        self.searcher.try_resize(mib)
    }

    fn new_game(&mut self) {
        self.searcher.clear();
    }

    fn search(
        &mut self,
        pos: &Position,
        limits: &Limits,
        stop: &AtomicBool,
        report: &mut dyn FnMut(SearchReport),
    ) -> Option<Self::Move> {
        let outcome = self.searcher.search(pos, limits, stop, &mut |info| {
            report(SearchReport::from_info(info, pv_text(pos, &info.pv)))
        });
        outcome.best
    }
}

/// Move texts of a principal variation, each in the position it is played from.
fn pv_text(pos: &Position, pv: &[crate::games::spider::Move]) -> Vec<String> {
    let mut p = pos.clone();
    pv.iter()
        .map(|&mv| {
            let text = p.move_text(mv);
            p.make_move(mv);
            text
        })
        .collect()
}

/// Depth of every `bench` search; changing it changes the signature.
pub const BENCH_DEPTH: u32 = 5;

/// Plies of seeded random play from the start position that give the bench positions after the
/// start position itself.
const BENCH_PLIES: [usize; 5] = [6, 12, 20, 30, 44];

/// The bench positions: the start position and positions reached by seeded pseudo-random play
/// ([`BenchSequence`], so the set never changes with a library upgrade).
pub fn bench_positions() -> Vec<Position> {
    let variant = Variant::spider_chess();
    let mut out = vec![Position::startpos(&variant)];
    let mut sequence = BenchSequence::new(0x5eed_0f5b_1de7);
    for &plies in &BENCH_PLIES {
        let mut pos = Position::startpos(&variant);
        for _ in 0..plies {
            let moves = pos.legal_moves();
            if moves.is_empty() || pos.outcome().is_some() {
                break;
            }
            pos.make_move(moves[sequence.pick(moves.len())]);
        }
        out.push(Position::from_fen(&variant, &pos.to_fen()).expect("own FEN reads back"));
    }
    out
}

/// Searches every bench position to `depth` with a fresh 16 MiB table each and sums the nodes.
pub fn bench(depth: u32) -> BenchReport {
    let positions = bench_positions();
    let stop = AtomicBool::new(false);
    let limits = Limits {
        depth: Some(depth),
        ..Limits::default()
    };
    let start = Instant::now();
    let mut nodes = 0;
    for pos in &positions {
        let mut searcher = Searcher::new(16);
        nodes += searcher.search(pos, &limits, &stop, &mut |_| {}).nodes;
    }
    BenchReport {
        positions: positions.len(),
        nodes,
        time: start.elapsed(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bench_signature_is_deterministic() {
        let a = bench(2);
        let b = bench(2);
        assert_eq!(a.nodes, b.nodes);
        assert_eq!(a.positions, 1 + BENCH_PLIES.len());
        assert!(a.nodes > a.positions as u64);
    }

    #[test]
    fn bench_positions_are_distinct_and_playable() {
        let positions = bench_positions();
        let mut fens: Vec<String> = positions.iter().map(|p| p.to_fen()).collect();
        fens.sort();
        fens.dedup();
        assert_eq!(fens.len(), positions.len());
        assert!(positions.iter().all(|p| !p.legal_moves().is_empty()));
    }

    #[test]
    fn engine_plays_a_legal_move_and_reports_outcomes() {
        let mut engine = SpiderEngine::new(Vec::new(), 1);
        let pos = engine.start_position("spider-chess").unwrap();
        let stop = AtomicBool::new(false);
        let limits = Limits {
            depth: Some(2),
            ..Limits::default()
        };
        let mut reports = 0;
        let mv = engine
            .search(&pos, &limits, &stop, &mut |_| reports += 1)
            .expect("a move from the start position");
        assert!(pos.legal_moves().contains(&mv));
        assert!(reports >= 1);
        assert!(engine.outcome(&pos).is_none());
        assert!(engine.start_position("no-such-variant").is_err());
    }

    #[test]
    fn loaded_variants_are_defined_for_xboard() {
        let capablanca = "files=10 ranks=8 promoChoice=QCARBN royal=8 Pawn::::a2-j2 \
            Knight:N:::b1,i1 Bishop::::d1,g1 Rook::::a1,j1 Archbishop::::c1 Chancellor::::h1 \
            Queen::::e1 King::KisO3::f1";
        let v = Arc::new(
            Variant::from_definition(capablanca)
                .unwrap()
                .with_name("capa"),
        );
        let engine = SpiderEngine::new(vec![v], 1);
        let lines = engine.cecp_variant_setup("capa");
        assert_eq!(
            lines[0],
            "setup (PNBRQ..AC............Kpnbrq..ac............k) 10x8+0_fairy \
             rnabqkbcnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNABQKBCNR w KQkq - 0 1"
        );
        assert!(lines.contains(&"piece K& KisO3".to_string()));
        assert!(lines.contains(&"piece P& fmWfceFifmnD".to_string()));
        assert_eq!(lines.len(), 1 + 8);
        assert!(
            engine.cecp_variant_setup("spider-chess").is_empty(),
            "25x19 is too big"
        );
    }

    #[test]
    fn fifty_move_option_changes_the_rule() {
        let mut engine = SpiderEngine::new(Vec::new(), 1);
        assert!(engine.set_option(FIFTY_MOVE_OPTION, "x").is_err());
        engine.set_option(FIFTY_MOVE_OPTION, "2").unwrap();
        let mut pos = engine.start_position("spider-chess").unwrap();
        // Two spider moves along the first and last ranks: no capture, no pawn move.
        for text in ["f2f1", "f18f19"] {
            assert!(engine.outcome(&pos).is_none());
            let mv = engine.parse_move(&pos, text).unwrap();
            engine.play(&mut pos, mv);
        }
        match engine.outcome(&pos) {
            Some(GameOutcome::Draw { reason }) => assert!(reason.contains("50")),
            other => panic!("expected a 50-move draw, got {other:?}"),
        }
    }
}
