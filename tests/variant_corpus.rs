//! The corpus of Interactive Diagram definitions in `tests/data/variants/`, written as the Chess
//! Variant Pages write them: each loads (to a playable start position whose FEN reads back) or is
//! refused with a message naming the offending token, as `tests/data/variants/EXPECTED` says.

use orrery::games::spider::{perft, Position, Variant};
use std::collections::BTreeSet;
use std::sync::Arc;

fn folder() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/variants")
}

#[test]
fn every_definition_loads_or_is_refused_naming_the_token() {
    let expected = std::fs::read_to_string(folder().join("EXPECTED")).unwrap();
    let mut listed = BTreeSet::new();
    let (mut loaded, mut refused) = (0, 0);
    for line in expected
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
    {
        let words: Vec<&str> = line.splitn(3, ' ').collect();
        let (file, outcome) = (words[0], words[1]);
        listed.insert(file.to_string());
        let text = std::fs::read_to_string(folder().join(file)).unwrap();
        let result = Variant::from_definition(&text);
        match (outcome, result) {
            ("loads", Ok(v)) => {
                let v = Arc::new(v);
                let mut start = Position::startpos(&v);
                let fen = start.to_fen();
                let again = Position::from_fen(&v, &fen).unwrap_or_else(|e| panic!("{file}: {e}"));
                assert_eq!(again.to_fen(), fen, "{file}");
                assert_eq!(again.hash(), start.hash(), "{file}");
                assert!(perft(&mut start, 2) > 0, "{file} has moves");
                loaded += 1;
            }
            ("refused", Err(e)) => {
                let token = words[2];
                let shown = e.to_string();
                assert!(
                    shown.contains(token),
                    "{file}: '{shown}' does not name {token}"
                );
                refused += 1;
            }
            (want, got) => panic!("{file}: expected it {want}, got {got:?}"),
        }
    }
    let present: BTreeSet<String> = std::fs::read_dir(folder())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".txt"))
        .collect();
    assert_eq!(
        present, listed,
        "EXPECTED lists exactly the definition files"
    );
    assert!(loaded + refused >= 25 && loaded >= 15 && refused >= 5);
}

#[test]
fn default_moves_ranges_hands_and_royal_numbers_load_exactly() {
    let text = std::fs::read_to_string(folder().join("gross.txt")).unwrap();
    let v = Arc::new(Variant::from_definition(&text).unwrap());
    let def = v.definition();
    let by_letter = |c: char| def.pieces.iter().find(|p| p.letter == c).unwrap();
    assert_eq!(by_letter('C').betza, "mRcpR", "cannon's default move");
    assert_eq!(by_letter('W').betza, "CF", "wizard's default move");
    assert_eq!(by_letter('M').betza, "RN", "marshall's default move");
    assert_eq!(by_letter('N').hand, 4);
    assert_eq!(by_letter('Q').hand, 2);
    assert_eq!(by_letter('P').white.len(), 12, "a3-l3");
    assert_eq!(def.royal, 'K', "without royal= the last piece is royal");
    let start = Position::startpos(&v);
    assert_eq!(
        start.to_fen(),
        "mavwc2cwvam/1rsnbqkbnsr1/pppppppppppp/12/12/12/12/12/12/PPPPPPPPPPPP/1RSNBQKBNSR1/MAVWC2CWVAM w KQkq - 0 1"
    );
    // Flexible castling: the king goes two to four squares towards the rook.
    let open = "m10m/6k5/12/12/12/12/12/12/12/12/1R4K3R1/M10M w KQ - 0 1";
    let p = Position::from_fen(&v, open).unwrap();
    let castles: Vec<String> = p
        .legal_moves()
        .into_iter()
        .filter(|m| m.is_castling())
        .map(|m| p.move_text(m))
        .collect();
    assert_eq!(castles.len(), 6, "{castles:?}");
    for m in ["g2i2", "g2j2", "g2k2", "g2e2", "g2d2", "g2c2"] {
        assert!(castles.contains(&m.to_string()), "{m} in {castles:?}");
    }
    let text = std::fs::read_to_string(folder().join("id-demo-without-lion.txt")).unwrap();
    let demo = Variant::from_definition(&text).unwrap();
    assert_eq!(
        demo.definition().royal,
        'K',
        "royal=8 is the eighth piece line"
    );
    assert_eq!((demo.files(), demo.ranks()), (10, 8), "ranks defaults to 8");
}
