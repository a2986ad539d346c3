//! Openings files: every line is parsed or refused naming its line, never a panic; a line read
//! back from its parts gives the same opening.
#![no_main]
use libfuzzer_sys::fuzz_target;
use orrery::referee::schedule::Opening;

fuzz_target!(|data: &[u8]| {
    if let Ok(text) = std::str::from_utf8(data) {
        for line in text.lines() {
            if let Some(o) = Opening::parse_line(line) {
                assert!(o.moves.iter().all(|m| !m.is_empty()));
                let pos = o.position.clone().unwrap_or_else(|| "startpos".into());
                let again = if o.moves.is_empty() {
                    pos
                } else {
                    format!("{pos} moves {}", o.moves.join(" "))
                };
                if let Some(b) = Opening::parse_line(&again) {
                    assert_eq!(b.moves, o.moves, "{line:?}");
                }
            }
        }
    }
    // The whole-file reader, with the Spider-Chess rules core checking every start.
    let path = std::env::temp_dir().join(format!("orrery-fuzz-openings-{}", std::process::id()));
    if std::fs::write(&path, data).is_ok() {
        let check = |o: &Opening| {
            orrery::referee::game_runner::opening_game(
                orrery::referee::game_kind::GameKind::SpiderChess,
                None,
                o,
                0,
            )
            .map(|_| ())
        };
        if let Err(e) = Opening::read_file(&path, &check) {
            assert!(e.contains(" line ") || e.ends_with("no positions"), "{e}");
        }
    }
});
