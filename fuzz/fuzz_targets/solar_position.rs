//! Solar position strings (and setup names): refused with a reason, or read back to themselves.
#![no_main]
use libfuzzer_sys::fuzz_target;
use orrery::games::solar::Position;

fuzz_target!(|data: &[u8]| {
    if let Ok(text) = std::str::from_utf8(data) {
        if let Ok(p) = Position::from_setup_or_string(text) {
            let s = p.to_string();
            let again = Position::from_setup_or_string(&s).expect("own string reads back");
            assert_eq!(again.to_string(), s);
            let mut moves = Vec::new();
            p.legal_moves(&mut moves);
        }
    }
});
