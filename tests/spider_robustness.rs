//! Garbage in, clear errors out: mutated FENs, definitions and move texts never panic, and what is
//! accepted is consistent.

use orrery::games::spider::{Position, Variant, SPIDER_CHESS_DEFINITION};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

const ALPHABET: &[u8] = b"0123456789*/ wb-abcdefghijklmnopqrstuvwxyzPRQACZIJLSK:=,.";

fn mutate(rng: &mut ChaCha8Rng, text: &str) -> String {
    let mut bytes = text.as_bytes().to_vec();
    for _ in 0..rng.gen_range(1..4) {
        let i = rng.gen_range(0..=bytes.len());
        match rng.gen_range(0..3) {
            0 if i < bytes.len() => {
                bytes.remove(i);
            }
            1 => bytes.insert(i, ALPHABET[rng.gen_range(0..ALPHABET.len())]),
            _ => bytes.truncate(i),
        }
    }
    String::from_utf8_lossy(&bytes).into_owned()
}

#[test]
fn mutated_fens_are_refused_or_round_trip() {
    let v = Variant::spider_chess();
    let start = Position::startpos(&v).to_fen();
    let mut rng = ChaCha8Rng::seed_from_u64(1);
    let mut refused = 0;
    for _ in 0..3000 {
        let fen = mutate(&mut rng, &start);
        match Position::from_fen(&v, &fen) {
            Ok(p) => {
                let again = Position::from_fen(&v, &p.to_fen()).unwrap();
                assert_eq!(again.to_fen(), p.to_fen());
            }
            Err(e) => {
                refused += 1;
                assert!(!e.0.is_empty());
            }
        }
    }
    assert!(refused > 2000, "only {refused} refused");
}

#[test]
fn mutated_definitions_never_panic() {
    let mut rng = ChaCha8Rng::seed_from_u64(2);
    let mut refused = 0;
    for _ in 0..300 {
        let text = mutate(&mut rng, SPIDER_CHESS_DEFINITION);
        match Variant::from_definition(&text) {
            Ok(v) => assert!(v.playable_count() > 0),
            Err(e) => {
                refused += 1;
                assert!(!e.reason.is_empty());
            }
        }
    }
    assert!(refused > 100, "only {refused} refused");
}

#[test]
fn random_move_texts_never_panic_or_change_the_position() {
    let v = Variant::spider_chess();
    let mut p = Position::startpos(&v);
    let fen = p.to_fen();
    let mut rng = ChaCha8Rng::seed_from_u64(3);
    for _ in 0..5000 {
        let len = rng.gen_range(0..9);
        let text: String = (0..len)
            .map(|_| ALPHABET[rng.gen_range(0..ALPHABET.len())] as char)
            .collect();
        if let Err(e) = p.play(&text) {
            assert!(!e.to_string().is_empty());
            assert_eq!(p.to_fen(), fen);
        } else {
            p.unmake_move();
        }
    }
    for text in [
        "m2m5\r",
        " m2m5",
        "m2m5 ",
        "m2m99999999999999",
        "m2m5qq",
        "\u{fffd}",
    ] {
        assert!(p.parse_move(text).is_err(), "{text:?}");
    }
}
