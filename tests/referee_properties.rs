//! Property tests (proptest) of the referee's parsers of outside files: records files (JSON
//! lines: settings and game records, as written, torn, mutated or arbitrary bytes), the merge of
//! records files, and openings files. Properties: no panic; an error names the line; a cut at any
//! byte keeps exactly the complete records before it; merged files count each game once.
//!
//! Bounded for `cargo test`; `PROPTEST_CASES=N cargo test --release --test referee_properties`
//! runs N cases of each (docs/fuzzing.md). The cargo-fuzz targets `records_file` and
//! `openings_file` in fuzz/ cover the same parsers with coverage guidance.

use std::path::PathBuf;

use proptest::prelude::*;

use orrery::referee::merge::{MatchMerge, OtherMatches};
use orrery::referee::records::{parse_record_line, GameRecord, RecordsFile};
use orrery::referee::schedule::Opening;

fn cases(default: u32) -> ProptestConfig {
    let n = std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|v| v.parse::<u32>().ok())
        .unwrap_or(default);
    ProptestConfig::with_cases(n)
}

const SETTINGS: &str = r#"{"match":{"format":1,"orrery":"orrery test","game":"tic-tac-toe","setup":null,"engines":[{"name":"a","cmd":"x","dir":null,"proto":"uci","options":[]},{"name":"b","cmd":"y","dir":null,"proto":"uci","options":[]}],"tc":"depth=1","margin_ms":100,"resign":null,"draw":null,"max_plies":null,"openings":null,"random_plies":0,"seed":1,"games":40,"sprt":null}}"#;

fn game(id: u64, win: bool) -> GameRecord {
    let line = format!(
        r#"{{"id":{id},"block":{},"block_seed":9,"game":"tic-tac-toe","setup":null,"tc":"depth=1","engines":["a","b"],"engine_index":[{},{}],"start":".........","standard_start":true,"moves":[{{"seat":0,"mv":"e5","ms":1,"score":"cp 5","depth":1}}],"ranks":{},"result":"{}","reason":"three in a row","final_position":"....x....","started":1,"duration_ms":2,"engine_moves":1,"overhead_us":3}}"#,
        id / 2,
        id % 2,
        1 - id % 2,
        if win { "[1.0,2.0]" } else { "[2.0,1.0]" },
        if win { "1-0" } else { "0-1" },
    );
    serde_json::from_str(&line).unwrap()
}

/// A records file as `orrery match` writes it: the settings line, then one line per game.
fn file_text(games: &[GameRecord]) -> String {
    let mut t = format!("{SETTINGS}\n");
    for g in games {
        t.push_str(&g.to_json_line());
        t.push('\n');
    }
    t
}

fn games_strategy() -> impl Strategy<Value = Vec<GameRecord>> {
    proptest::collection::vec((0u64..40, any::<bool>()), 0..8)
        .prop_map(|v| v.into_iter().map(|(id, w)| game(id, w)).collect())
}

/// Characters that like to break parsers, mixed into mutated lines.
const NASTY: &[char] = &[
    '\n', '\r', '\0', '"', '\\', '{', '}', '[', ']', ':', ',', ' ', '\u{3000}', '\u{FEFF}', 'é',
    '𝄞', '0', '9', '-', 'e', '#',
];

proptest! {
    #![proptest_config(cases(512))]

    #[test]
    fn arbitrary_bytes_never_panic_and_errors_name_the_line(
        bytes in proptest::collection::vec(any::<u8>(), 0..600)
    ) {
        match RecordsFile::parse(&bytes, "f.jsonl") {
            Ok(f) => prop_assert!(f.complete_len + f.unfinished <= bytes.len() as u64),
            Err(e) => prop_assert!(e.starts_with("f.jsonl line "), "{}", e),
        }
    }

    #[test]
    fn mutated_records_never_panic(
        games in games_strategy(),
        edits in proptest::collection::vec((any::<prop::sample::Index>(), 0usize..NASTY.len(), 0u8..3), 1..6),
    ) {
        let mut chars: Vec<char> = file_text(&games).chars().collect();
        for (at, c, op) in edits {
            let i = at.index(chars.len().max(1)).min(chars.len());
            match op {
                0 => chars.insert(i, NASTY[c]),
                1 if i < chars.len() => { chars.remove(i); }
                _ => chars.truncate(i),
            }
        }
        let text: String = chars.into_iter().collect();
        match RecordsFile::parse(text.as_bytes(), "m") {
            // At most one game or settings per line; bytes accounted for.
            Ok(f) => {
                prop_assert!(f.games.len() + f.settings.len() <= text.split('\n').count());
                prop_assert!(f.complete_len + f.unfinished <= text.len() as u64);
            }
            Err(e) => prop_assert!(e.starts_with("m line "), "{}", e),
        }
        for line in text.split('\n') {
            let _ = parse_record_line(line.as_bytes(), "l");
        }
    }

    #[test]
    fn a_cut_at_any_byte_keeps_exactly_the_complete_records(
        games in games_strategy(),
        cut in any::<prop::sample::Index>(),
    ) {
        let text = file_text(&games);
        let cut = cut.index(text.len() + 1);
        let f = RecordsFile::parse(&text.as_bytes()[..cut], "t").unwrap();
        // Lines wholly before the cut (a last line without its newline counts when whole).
        let mut ends = vec![];
        let mut pos = 0;
        for line in text.split_inclusive('\n') {
            ends.push((pos + line.len() - 1, pos + line.len()));
            pos += line.len();
        }
        let whole_games = ends
            .iter()
            .skip(1)
            .filter(|(no_newline, _)| *no_newline <= cut)
            .count();
        prop_assert_eq!(f.games.len(), whole_games);
        prop_assert_eq!(&f.games[..], &games[..whole_games]);
        prop_assert_eq!(f.settings.len(), usize::from(ends[0].0 <= cut));
        prop_assert!(f.missing_newline || f.complete_len + f.unfinished == cut as u64);
    }

    #[test]
    fn merged_files_count_each_game_once(
        parts in proptest::collection::vec(proptest::collection::vec(0u64..30, 0..10), 1..5)
    ) {
        let dir = std::env::temp_dir().join(format!(
            "orrery-prop-merge-{}-{}",
            std::process::id(),
            std::thread::current().name().unwrap_or("t").replace("::", "-")
        ));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let mut files: Vec<PathBuf> = Vec::new();
        for (i, ids) in parts.iter().enumerate() {
            let recs: Vec<GameRecord> = ids.iter().map(|&id| game(id, id % 3 != 0)).collect();
            let path = dir.join(format!("shard-{i}.jsonl"));
            std::fs::write(&path, file_text(&recs)).unwrap();
            files.push(path);
        }
        let mut m = MatchMerge::new(OtherMatches::Refuse);
        m.read_sources(std::slice::from_ref(&dir), true).unwrap();
        let mut all: Vec<u64> = parts.iter().flatten().copied().collect();
        let total = all.len();
        all.sort_unstable();
        all.dedup();
        prop_assert_eq!(m.games().map(|g| g.id).collect::<Vec<_>>(), all.clone());
        prop_assert_eq!(m.duplicates(), total - all.len());
        let t = m.tally(None).unwrap();
        prop_assert_eq!(t.games as usize, all.len());
        // Reading again finds nothing new.
        m.read_sources(&files, true).unwrap();
        prop_assert_eq!(m.game_count(), all.len());
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn opening_lines_never_panic(line in proptest::collection::vec(
        prop_oneof![
            Just("startpos".to_string()),
            Just(" moves ".to_string()),
            Just("moves".to_string()),
            Just("#".to_string()),
            "[a-z0-9/.=:,]{0,8}",
            proptest::sample::select(NASTY).prop_map(|c| c.to_string()),
        ],
        0..10,
    ).prop_map(|v| v.concat())) {
        if let Some(o) = Opening::parse_line(&line) {
            prop_assert!(o.moves.iter().all(|m| !m.is_empty() && !m.contains(char::is_whitespace)));
            if let Some(p) = &o.position {
                prop_assert!(p != "startpos");
            }
        }
    }

    #[test]
    fn opening_lines_read_back(
        position in proptest::option::of("[a-z0-9/.]{1,12}( [a-z0-9-]{1,4}){0,3}"),
        moves in proptest::collection::vec("[a-z0-9@]{1,6}", 0..6),
    ) {
        let pos = position.clone().unwrap_or_else(|| "startpos".into());
        let line = if moves.is_empty() { pos } else { format!("{pos} moves {}", moves.join(" ")) };
        let o = Opening::parse_line(&line).unwrap();
        prop_assert_eq!(o.position, position);
        prop_assert_eq!(o.moves, moves);
    }

    #[test]
    fn openings_files_name_the_first_bad_line(
        lines in proptest::collection::vec(
            prop_oneof![
                Just(String::new()),
                Just("# comment".to_string()),
                Just("startpos moves a1".to_string()),
                Just("x".to_string()),
                Just("\u{FF}".to_string()),
                "[a-z ]{0,10}",
            ],
            0..12,
        )
    ) {
        let dir = std::env::temp_dir().join(format!("orrery-prop-openings-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join(format!("o-{:?}.txt", std::thread::current().id()));
        // "\u{FF}" stands for a byte that is not UTF-8.
        let bytes: Vec<u8> = lines
            .join("\n")
            .replace('\u{FF}', "\u{1}")
            .bytes()
            .map(|b| if b == 1 { 0xFF } else { b })
            .collect();
        std::fs::write(&path, &bytes).unwrap();
        // A check that refuses positions with an `x`.
        let check = |o: &Opening| match &o.position {
            Some(p) if p.contains('x') => Err("refused".to_string()),
            _ => Ok(()),
        };
        let result = Opening::read_file(&path, &check);
        let first_bad = lines.iter().position(|l| {
            l == "\u{FF}"
                || Opening::parse_line(l).is_some_and(|o| o.position.is_some_and(|p| p.contains('x')))
        });
        let any = lines.iter().any(|l| Opening::parse_line(l).is_some());
        match (result, first_bad) {
            (Err(e), Some(i)) => prop_assert!(e.contains(&format!(" line {}: ", i + 1)), "{}", e),
            (Err(e), None) => prop_assert!(!any && e.ends_with("no positions"), "{}", e),
            (Ok(list), None) => prop_assert!(!list.is_empty()),
            (Ok(_), Some(i)) => prop_assert!(false, "line {} was accepted", i + 1),
        }
        let _ = std::fs::remove_file(&path);
    }
}
