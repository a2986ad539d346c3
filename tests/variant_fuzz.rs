//! Property tests of the Interactive Diagram parser: definitions from the corpus with random edits
//! (characters inserted, deleted or replaced, whole lines dropped, doubled or swapped) are loaded
//! or refused, never a panic; what loads is whole: a start position whose FEN reads back with the
//! same key, and legal moves whose texts parse back to the same moves.

use orrery::games::spider::{Position, Variant};
use proptest::prelude::*;
use std::sync::Arc;

const CORPUS: &[&str] = &[
    "chess",
    "capablanca",
    "grand",
    "shatranj",
    "moat",
    "donut",
    "gross",
    "minishogi",
    "xiangqi-like",
    "crazyhouse",
];

const ALPHABET: &[u8] = b"0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHKNOPQRW:=,-*!@ \n";

fn definition(i: usize) -> String {
    let path = format!(
        "{}/tests/data/variants/{}.txt",
        env!("CARGO_MANIFEST_DIR"),
        CORPUS[i % CORPUS.len()]
    );
    std::fs::read_to_string(path).unwrap()
}

/// One edit: (kind, position, byte).
fn edit() -> impl Strategy<Value = (u8, usize, u8)> {
    (0u8..6, any::<usize>(), 0..ALPHABET.len() as u8)
}

fn apply(text: &str, edits: &[(u8, usize, u8)]) -> String {
    let mut bytes = text.as_bytes().to_vec();
    let mut lines: Vec<String> = Vec::new();
    for &(kind, at, b) in edits {
        let c = ALPHABET[b as usize];
        match kind {
            0 if !bytes.is_empty() => {
                let i = at % bytes.len();
                bytes.remove(i);
            }
            1 => {
                let i = at % (bytes.len() + 1);
                bytes.insert(i, c);
            }
            2 if !bytes.is_empty() => {
                let i = at % bytes.len();
                bytes[i] = c;
            }
            _ => {
                lines = String::from_utf8_lossy(&bytes)
                    .lines()
                    .map(str::to_string)
                    .collect();
                if lines.is_empty() {
                    continue;
                }
                let i = at % lines.len();
                match kind {
                    3 => {
                        lines.remove(i);
                    }
                    4 => {
                        let l = lines[i].clone();
                        lines.insert(i, l);
                    }
                    _ => {
                        let j = (at / 7) % lines.len();
                        lines.swap(i, j);
                    }
                }
                bytes = lines.join("\n").into_bytes();
            }
        }
    }
    let _ = lines;
    String::from_utf8_lossy(&bytes).into_owned()
}

fn check_whole(v: Variant) {
    let v = Arc::new(v);
    let start = Position::startpos(&v);
    let fen = start.to_fen();
    let again = Position::from_fen(&v, &fen).expect("a loaded variant's start FEN reads back");
    assert_eq!(again.to_fen(), fen);
    assert_eq!(again.hash(), start.hash());
    for m in start.legal_moves() {
        let text = start.move_text(m);
        assert_eq!(start.parse_move(&text), Ok(m), "{text} in {fen}");
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    #[test]
    fn edited_definitions_load_whole_or_are_refused(
        which in 0usize..CORPUS.len(),
        edits in proptest::collection::vec(edit(), 1..5),
    ) {
        let text = apply(&definition(which), &edits);
        match Variant::from_definition(&text) {
            Ok(v) => check_whole(v),
            Err(e) => prop_assert!(!e.reason.is_empty()),
        }
    }

    #[test]
    fn random_betza_strings_compile_or_are_refused(
        letters in proptest::collection::vec(0usize..27, 1..10),
    ) {
        const BETZA: &[u8] = b"WFDNAHCZGKRBQOfblrvsmcniepgja0123";
        let betza: String = letters.iter().map(|&i| BETZA[i % BETZA.len()] as char).collect();
        let text = format!("files=8 ranks=8 piece:X:{betza}::d4 king::K::e1");
        match Variant::from_definition(&text) {
            Ok(v) => check_whole(v),
            Err(e) => prop_assert!(e.to_string().contains("piece:X") || !e.reason.is_empty()),
        }
    }
}
