//! Prints the Spider-Chess piece values and timed start-position perft up to the given depth:
//! `cargo run --release --example spider_perft -- 3`.
use orrery::games::spider::{perft_report, Position, Variant};
fn main() {
    let v = Variant::spider_chess();
    for p in v.pieces() {
        println!("{} {} {:.2} {}", p.letter, p.name, p.mobility, p.value);
    }
    let mut pos = Position::startpos(&v);
    println!("{}", pos.to_fen());
    let depth: u32 = std::env::args().nth(1).map_or(2, |s| s.parse().unwrap());
    for d in 1..=depth {
        let r = perft_report(&mut pos, d);
        println!(
            "perft {d}: {} in {:?} ({} nps)",
            r.nodes,
            r.elapsed,
            r.nodes_per_second()
        );
    }
}
