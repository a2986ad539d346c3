//! Records files (JSON lines): any bytes are read or refused naming a line, never a panic; a
//! file read is read the same after its records are written back.
#![no_main]
use libfuzzer_sys::fuzz_target;
use orrery::referee::records::{parse_record_line, RecordsFile};

fuzz_target!(|data: &[u8]| {
    match RecordsFile::parse(data, "f") {
        Ok(f) => {
            assert!(f.complete_len + f.unfinished <= data.len() as u64);
            let mut text = String::new();
            for g in &f.games {
                text.push_str(&g.to_json_line());
                text.push('\n');
            }
            let again = RecordsFile::parse(text.as_bytes(), "g").expect("own records read back");
            assert_eq!(again.games, f.games);
        }
        Err(e) => assert!(e.starts_with("f line "), "{e}"),
    }
    for line in data.split(|&b| b == b'\n') {
        let _ = parse_record_line(line, "l");
    }
});
