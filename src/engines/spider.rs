//! The Spider-Chess engine: the Interactive Diagram rules core searched by the alpha-beta
//! [`Searcher`], spoken to through the shared protocol loop.

use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Instant;

use super::cli::{BenchReport, BenchSequence};

use crate::games::spider::{divide, Color, Position, Variant, DEFAULT_FIFTY_MOVE_PLIES};
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

    fn perft_divide(&self, pos: &Position, depth: u32) -> Vec<(String, u64)> {
        let mut p = pos.clone();
        divide(&mut p, depth)
            .into_iter()
            .map(|(mv, n)| (pos.move_text(mv), n))
            .collect()
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
