//! Space Wars `position` (observation) lines, decisions and protocol commands: never a panic; an
//! accepted observation or decision formats to text that reads back to the same.
#![no_main]
use libfuzzer_sys::fuzz_target;
use orrery::games::spacewars::wire::{
    format_decision, format_observation, parse_decision, parse_observation,
};
use orrery::games::spacewars::Ruleset;
use std::sync::Arc;

fuzz_target!(|data: &[u8]| {
    thread_local!(static RULES: Arc<Ruleset> = Arc::new(Ruleset::default()));
    if let Ok(text) = std::str::from_utf8(data) {
        RULES.with(|rules| {
            if let Ok(o) = parse_observation(text, rules) {
                let line = format_observation(&o, rules);
                let back = parse_observation(&line, rules).expect("own line reads back");
                assert_eq!(format_observation(&back, rules), line);
            }
            if let Ok(d) = parse_decision(text, rules) {
                let t = format_decision(&d, rules);
                let back = parse_decision(&t, rules).expect("own decision reads back");
                assert_eq!(format_decision(&back, rules), t);
            }
            let _ = orrery::games::spacewars::protocol::parse_command(text);
        });
    }
});
