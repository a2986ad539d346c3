//! UCI lines: the parser never panics, and a line holding a character that is neither part of a
//! word nor a separator (protocol.md, "Lines and words") is always refused.
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(line) = std::str::from_utf8(data) {
        let got = orrery::protocol::uci::parse_uci(line);
        let forbidden = line
            .chars()
            .any(|c| c != ' ' && c != '\t' && (c.is_control() || c.is_whitespace()));
        assert!(!(forbidden && got.is_ok()), "{line:?} parsed as {got:?}");
    }
});
