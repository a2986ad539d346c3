//! Random positions of a loaded variant for perft comparisons with other engines (see
//! `tests/data/fsf/regen.py`): `variant_positions FILE COUNT SEED [MAX_LEAVES [EXTRA]]` prints the
//! start position, `COUNT` positions of seeded random play and the FENs of the file EXTRA (one per
//! line), one `FEN;DEPTH` line each, where DEPTH is the deepest perft (up to 4) with at most
//! `MAX_LEAVES` (default 300000) leaves. With a bare-king rule, positions where a side has fewer
//! than three pieces besides the king are left out (other engines end the game there).
//!
//! The random play prefers the moves perft most needs checked (castling, en passant, promotions,
//! drops, captures), and positions are kept when such moves are legal in them, so the sample
//! covers the variant's special rules.

use orrery::games::spider::{Position, Variant};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::sync::Arc;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.len() < 3 {
        eprintln!("usage: variant_positions FILE COUNT SEED [MAX_LEAVES]");
        std::process::exit(2);
    }
    let text = std::fs::read_to_string(&args[0]).expect("readable definition file");
    let variant = Arc::new(Variant::from_definition(&text).unwrap_or_else(|e| {
        eprintln!("{}: {e}", args[0]);
        std::process::exit(1)
    }));
    let count: usize = args[1].parse().expect("COUNT is a number");
    let seed: u64 = args[2].parse().expect("SEED is a number");
    let max_leaves: u64 = args
        .get(3)
        .map_or(300_000, |a| a.parse().expect("MAX_LEAVES"));
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let start = Position::startpos(&variant);
    let mut out = vec![start.to_fen()];
    let mut attempts = 0;
    while out.len() <= count && attempts < 100 * count {
        attempts += 1;
        let mut pos = start.clone();
        let plies = rng.gen_range(4..120);
        for _ in 0..plies {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            let special: Vec<_> = moves
                .iter()
                .copied()
                .filter(|&m| {
                    m.is_castling()
                        || m.is_en_passant()
                        || m.drop_kind().is_some()
                        || m.promotion().is_some()
                        || pos.is_capture(m)
                })
                .collect();
            let mv = if !special.is_empty() && rng.gen_bool(0.5) {
                special[rng.gen_range(0..special.len())]
            } else {
                moves[rng.gen_range(0..moves.len())]
            };
            pos.make_move(mv);
        }
        // One more ply towards a position with special moves: castling, en passant (right after
        // a double step), promotions, drops.
        let special_now = |p: &Position| {
            p.legal_moves().iter().any(|&m| {
                m.is_castling()
                    || m.is_en_passant()
                    || m.promotion().is_some()
                    || m.drop_kind().is_some()
            })
        };
        if rng.gen_bool(0.7) {
            let mut leads = Vec::new();
            for m in pos.legal_moves() {
                pos.make_move(m);
                if special_now(&pos) {
                    leads.push(m);
                }
                pos.unmake_move();
            }
            if !leads.is_empty() {
                pos.make_move(leads[rng.gen_range(0..leads.len())]);
            }
        }
        let moves = pos.legal_moves();
        let least = if variant.baring() { 3 } else { 1 };
        let bare = [
            orrery::games::spider::Color::White,
            orrery::games::spider::Color::Black,
        ]
        .iter()
        .any(|&c| pos.non_royal_count(c) < least);
        if moves.is_empty() || bare {
            continue;
        }
        if !special_now(&pos) && rng.gen_bool(0.6) {
            continue;
        }
        let fen = pos.to_fen();
        if !out.contains(&fen) {
            out.push(fen);
        }
    }
    if let Some(extra) = args.get(4) {
        let text = std::fs::read_to_string(extra).expect("readable EXTRA file");
        out.extend(
            text.lines()
                .filter(|l| !l.trim().is_empty())
                .map(str::to_string),
        );
    }
    for fen in out {
        let pos = Position::from_fen(&variant, &fen).expect("own FEN reads back");
        let mut depth = 1;
        while depth < 4 {
            let mut p = pos.clone();
            if bounded_perft(&mut p, depth + 1, max_leaves + 1) > max_leaves {
                break;
            }
            depth += 1;
        }
        println!("{fen};{depth}");
    }
}

/// Perft that stops counting once it has more than `limit` leaves.
fn bounded_perft(pos: &mut Position, depth: u32, limit: u64) -> u64 {
    let moves = pos.legal_moves();
    if depth == 1 {
        return moves.len() as u64;
    }
    let mut total = 0;
    for m in moves {
        pos.make_move(m);
        total += bounded_perft(pos, depth - 1, limit - total.min(limit));
        pos.unmake_move();
        if total > limit {
            break;
        }
    }
    total
}
