//! Perft figures of every setup (fast generator), cross-checked at depths 1-3 by
//! `tests/solar_reference.rs` for the setups it runs that deep.

use orrery::games::solar::{perft, perft_divide, Position, SETUPS};

const FIGURES: [(&str, [u64; 3]); 10] = [
    ("duel", [41, 1676, 68680]),
    ("duel-2", [82, 6660, 534174]),
    ("duel-3", [123, 14952, 1785690]),
    ("trio", [41, 1672, 67784]),
    ("trio-2", [82, 6654, 533676]),
    ("quad", [41, 1672, 67214]),
    ("six", [41, 1653, 66244]),
    ("teams-2x2", [41, 1672, 67065]),
    ("teams-2x3", [41, 1653, 65773]),
    ("teams-3x2", [41, 1653, 66244]),
];

#[test]
fn perft_of_every_setup() {
    assert_eq!(FIGURES.len(), SETUPS.len());
    for (name, counts) in FIGURES {
        let mut p = Position::from_setup(name).unwrap();
        let before = p.to_string();
        for (d, &n) in counts.iter().enumerate() {
            assert_eq!(perft(&mut p, d as u32 + 1), n, "{name} depth {}", d + 1);
        }
        assert_eq!(p.to_string(), before, "perft leaves the position unchanged");
    }
}

#[test]
fn duel_depth_4() {
    let mut p = Position::from_setup("duel").unwrap();
    assert_eq!(perft(&mut p, 4), 2_801_730);
}

#[test]
fn divide_sums_to_perft_and_depth_zero_is_one() {
    let mut p = Position::from_setup("trio").unwrap();
    let r = perft_divide(&mut p, 2);
    assert_eq!(r.divide.len(), 41);
    assert_eq!(r.divide.iter().map(|(_, n)| n).sum::<u64>(), r.nodes);
    assert_eq!(r.nodes, 1672);
    assert_eq!(r.divide_text().len(), 41);
    assert_eq!(perft(&mut p, 0), 1);
    assert_eq!(perft_divide(&mut p, 0).nodes, 1);
}
