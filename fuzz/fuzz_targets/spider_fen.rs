//! Spider-Chess FENs: refused with a reason, or read back to themselves.
#![no_main]
use libfuzzer_sys::fuzz_target;
use orrery::games::spider::{Position, Variant};

fuzz_target!(|data: &[u8]| {
    thread_local!(static VARIANT: std::sync::Arc<Variant> = Variant::spider_chess());
    if let Ok(text) = std::str::from_utf8(data) {
        VARIANT.with(|v| {
            if let Ok(p) = Position::from_fen(v, text) {
                let fen = p.to_fen();
                let again = Position::from_fen(v, &fen).expect("own FEN reads back");
                assert_eq!(again.to_fen(), fen);
                let _ = p.legal_moves();
            }
        });
    }
});
