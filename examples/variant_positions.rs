//! Random positions of a loaded variant for perft comparisons with other engines (see
//! `tests/data/fsf/regen.py`): `variant_positions FILE COUNT SEED [MAX_LEAVES]` prints the start
//! position and `COUNT` positions of seeded random play, one `FEN;DEPTH` line each, where DEPTH is
//! the deepest perft (up to 4) with at most `MAX_LEAVES` (default 300000) leaves.
//!
//! The random play prefers the moves perft most needs checked (castling, en passant, promotions,
//! drops, captures), and positions are kept when such moves are legal in them, so the sample
//! covers the variant's special rules.

use orrery::games::spider::{perft, Position, Variant};
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
    let max_leaves: u64 = args.get(3).map_or(300_000, |a| a.parse().expect("MAX_LEAVES"));
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let start = Position::startpos(&variant);
    let mut out = vec![start.to_fen()];
    let mut attempts = 0;
    while out.len() <= count && attempts < 100 * count {
        attempts += 1;
        let mut pos = start.clone();
        let plies = rng.gen_range(4..90);
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
        let moves = pos.legal_moves();
        let bare = [orrery::games::spider::Color::White, orrery::games::spider::Color::Black]
            .iter()
            .any(|&c| pos.non_royal_count(c) == 0);
        if moves.is_empty() || bare {
            continue;
        }
        let interesting = moves.iter().any(|&m| {
            m.is_castling() || m.is_en_passant() || m.promotion().is_some() || m.drop_kind().is_some()
        });
        if !interesting && rng.gen_bool(0.6) {
            continue;
        }
        let fen = pos.to_fen();
        if !out.contains(&fen) {
            out.push(fen);
        }
    }
    for fen in out {
        let pos = Position::from_fen(&variant, &fen).expect("own FEN reads back");
        let mut depth = 1;
        while depth < 4 {
            let mut p = pos.clone();
            if perft(&mut p, depth + 1) > max_leaves {
                break;
            }
            depth += 1;
        }
        println!("{fen};{depth}");
    }
}
