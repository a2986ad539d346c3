//! Perft agreement with Fairy-Stockfish on the variants it also plays: chess, Capablanca, Grand,
//! Shatranj (built into Fairy-Stockfish) and the project's own `moat` and `donut`
//! (`tests/data/fsf/variants.ini`), each loaded here from its Interactive Diagram definition in
//! `tests/data/variants/`. The counts in `tests/data/fsf/*.perft` were made by Fairy-Stockfish
//! (`tests/data/fsf/regen.py`) from the start position and at least 30 seeded random positions;
//! the random positions cover castling, en passant, promotions and drops where the variant has
//! them, which is checked here too.

use orrery::games::spider::{perft, Position, Variant};
use std::sync::Arc;

fn data(stem: &str) -> (Arc<Variant>, Vec<(String, u32, u64)>) {
    let root = env!("CARGO_MANIFEST_DIR");
    let def = std::fs::read_to_string(format!("{root}/tests/data/variants/{stem}.txt")).unwrap();
    let v = Arc::new(Variant::from_definition(&def).unwrap());
    let text = std::fs::read_to_string(format!("{root}/tests/data/fsf/{stem}.perft")).unwrap();
    let rows = text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.is_empty())
        .map(|l| {
            let f: Vec<&str> = l.split(';').collect();
            (
                f[0].to_string(),
                f[1].parse().unwrap(),
                f[2].parse().unwrap(),
            )
        })
        .collect();
    (v, rows)
}

/// Checks every row and returns how many positions have castling, en passant, promotion and drop
/// moves among their legal moves.
fn agree(stem: &str) -> [usize; 4] {
    let (v, rows) = data(stem);
    assert!(
        rows.len() >= 31,
        "{stem}: the start and at least 30 positions"
    );
    assert_eq!(
        rows[0].0,
        Position::startpos(&v).to_fen(),
        "{stem}: start position"
    );
    let mut seen = [0; 4];
    for (fen, depth, nodes) in &rows {
        let mut pos = Position::from_fen(&v, fen).unwrap_or_else(|e| panic!("{stem} {fen}: {e}"));
        assert_eq!(
            perft(&mut pos, *depth),
            *nodes,
            "{stem}: perft {depth} of {fen}"
        );
        let moves = pos.legal_moves();
        let has = [
            moves.iter().any(|m| m.is_castling()),
            moves.iter().any(|m| m.is_en_passant()),
            moves.iter().any(|m| m.promotion().is_some()),
            moves.iter().any(|m| m.drop_kind().is_some()),
        ];
        for i in 0..4 {
            seen[i] += has[i] as usize;
        }
    }
    seen
}

#[test]
fn chess_agrees_with_fairy_stockfish() {
    let [castling, ep, promo, _] = agree("chess");
    assert!(
        castling > 0 && ep > 0 && promo > 0,
        "{castling} {ep} {promo}"
    );
}

#[test]
fn capablanca_agrees_with_fairy_stockfish() {
    let [castling, ep, promo, _] = agree("capablanca");
    assert!(
        castling > 0 && ep > 0 && promo > 0,
        "{castling} {ep} {promo}"
    );
}

#[test]
fn grand_agrees_with_fairy_stockfish() {
    let [_, ep, promo, _] = agree("grand");
    assert!(ep > 0 && promo > 0, "{ep} {promo}");
}

#[test]
fn shatranj_agrees_with_fairy_stockfish() {
    let [_, _, promo, _] = agree("shatranj");
    assert!(promo > 0);
}

#[test]
fn moat_with_holes_and_riders_agrees_with_fairy_stockfish() {
    let [_, ep, promo, _] = agree("moat");
    assert!(ep > 0 && promo > 0, "{ep} {promo}");
}

#[test]
fn donut_with_holes_riders_and_drops_agrees_with_fairy_stockfish() {
    let [castling, ep, promo, drops] = agree("donut");
    assert!(
        castling > 0 && ep > 0 && promo > 0 && drops > 0,
        "{castling} {ep} {promo} {drops}"
    );
}
