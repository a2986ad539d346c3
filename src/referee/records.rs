//! Game records: one JSON line per game (complete enough to replay: game, setup, start
//! position, every decision, result with reason, engines per seat, revealed hidden data), PGN
//! for the chess games (a documented PGN-like form for more than two seats), and reading a
//! records file back to resume a match.

use std::io::{Read, Write};
use std::path::Path;

use serde::{Deserialize, Serialize};

use super::engine::Score;
use super::match_settings::{MatchSettings, SettingsLine};

/// One decision in a record.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MoveRecord {
    /// Seat that decided (0-based).
    pub seat: usize,
    /// Canonical text from the rules core.
    pub mv: String,
    /// True for opening moves played by the referee, not an engine.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub book: bool,
    /// Thinking time in milliseconds.
    #[serde(default)]
    pub ms: u64,
    /// Clock left after the move, in milliseconds (clock time controls only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub clock_ms: Option<u64>,
    /// Engine score from its own view: centipawns, or `M<n>` for mate.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub score: Option<String>,
    /// Depth of that score.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub depth: Option<u32>,
}

/// Encodes a score for the JSON record: `cp 35` or `mate -3`.
pub fn score_field(s: Score) -> String {
    match s {
        Score::Cp(v) => format!("cp {v}"),
        Score::Mate(v) => format!("mate {v}"),
    }
}

/// Parses [`score_field`] text back.
pub fn parse_score_field(text: &str) -> Option<Score> {
    let (k, v) = text.split_once(' ')?;
    let v = v.parse().ok()?;
    match k {
        "cp" => Some(Score::Cp(v)),
        "mate" => Some(Score::Mate(v)),
        _ => None,
    }
}

/// A whole game as written to the JSON-lines records file.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GameRecord {
    /// Game number in the match (0-based); the key for resuming.
    pub id: u64,
    /// Opening / deal block the game belongs to.
    pub block: u64,
    /// Seed of the block (random opening plies, deal).
    pub block_seed: u64,
    /// Game name (`spider-chess`, ...).
    pub game: String,
    /// Setup / variant / player count, if any.
    pub setup: Option<String>,
    /// Time control description.
    pub tc: String,
    /// Engine name per seat.
    pub engines: Vec<String>,
    /// Engine index (in the command line's order) per seat.
    pub engine_index: Vec<usize>,
    /// Start position text.
    pub start: String,
    /// True when the start is the game's standard start.
    pub standard_start: bool,
    /// Every decision, opening moves first.
    pub moves: Vec<MoveRecord>,
    /// Rank per seat (1 = best, ties share the mean place).
    pub ranks: Vec<f64>,
    /// Result text (`1-0`, `1/2-1/2`, scores joined by `-` for more seats).
    pub result: String,
    /// Why the game ended.
    pub reason: String,
    /// Seat whose engine failed, if the game ended by an engine fault.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fault_seat: Option<usize>,
    /// Final position text.
    pub final_position: String,
    /// Data revealed after the game (deal seed, hidden cards).
    #[serde(default, skip_serializing_if = "serde_json::Value::is_null")]
    pub extra: serde_json::Value,
    /// UTC start time, seconds since the Unix epoch.
    pub started: u64,
    /// Duration of the game in milliseconds.
    pub duration_ms: u64,
    /// Decisions made by engines (not book moves).
    #[serde(default)]
    pub engine_moves: u64,
    /// Referee time during play, in microseconds: wall time of the move loop minus the engines'
    /// answer times (`go` sent to answer read), i.e. rules checks, bookkeeping and the
    /// position/clock lines. Engine start-up is not included.
    #[serde(default)]
    pub overhead_us: u64,
}

impl GameRecord {
    /// Score of a seat in 0..=1 from its rank.
    pub fn seat_score(&self, seat: usize) -> f64 {
        let n = self.ranks.len() as f64;
        if n < 2.0 {
            return 1.0;
        }
        (n - self.ranks[seat]) / (n - 1.0)
    }

    /// The record as one JSON line (no newline).
    pub fn to_json_line(&self) -> String {
        serde_json::to_string(self).expect("records serialise")
    }
}

/// What a records file holds: its settings lines (the first one written when the match
/// started, another each time a rerun added games), its games, and where the last complete
/// line ends.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct RecordsFile {
    /// Settings lines in file order.
    pub settings: Vec<MatchSettings>,
    /// Game records in file order.
    pub games: Vec<GameRecord>,
    /// Bytes up to and including the last newline.
    pub complete_len: u64,
    /// Bytes after the last newline that do not make a whole line: an unfinished write.
    pub unfinished: u64,
    /// The text after the last newline is a whole record or settings line, only without its
    /// newline (written by another tool, or cut exactly before the newline): it is read.
    pub missing_newline: bool,
}

impl RecordsFile {
    /// Parses the bytes of a records file. Every complete line must be a settings line or a game
    /// record (an error names the line); text after the last newline is read when it is a whole
    /// line without its newline, and is otherwise an unfinished write that is not read.
    pub fn parse(bytes: &[u8], name: &str) -> Result<Self, String> {
        let complete_len = bytes.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
        let mut out = RecordsFile {
            complete_len: complete_len as u64,
            unfinished: (bytes.len() - complete_len) as u64,
            ..Default::default()
        };
        for (i, line) in bytes[..complete_len].split(|&b| b == b'\n').enumerate() {
            let at = format!("{name} line {}", i + 1);
            out.read_line(line, &at)?;
        }
        let tail = &bytes[complete_len..];
        if !tail.iter().all(u8::is_ascii_whitespace) {
            let mut whole = out.clone();
            if whole.read_line(tail, "").is_ok() {
                whole.unfinished = 0;
                whole.missing_newline = true;
                return Ok(whole);
            }
        }
        Ok(out)
    }

    fn read_line(&mut self, line: &[u8], at: &str) -> Result<(), String> {
        match parse_record_line(line, at)? {
            RecordLine::Blank => {}
            RecordLine::Settings(s) => self.settings.push(*s),
            RecordLine::Game(r) => self.games.push(*r),
        }
        Ok(())
    }

    /// The settings in force: the last settings line.
    pub fn current_settings(&self) -> Option<&MatchSettings> {
        self.settings.last()
    }
}

/// One line of a records file.
#[derive(Clone, Debug, PartialEq)]
pub enum RecordLine {
    /// Empty or whitespace only.
    Blank,
    /// A match settings line.
    Settings(Box<MatchSettings>),
    /// A game record.
    Game(Box<GameRecord>),
}

/// Parses one line of a records file (without its newline); `at` names it in errors.
pub fn parse_record_line(line: &[u8], at: &str) -> Result<RecordLine, String> {
    let text = std::str::from_utf8(line).map_err(|_| format!("{at}: not UTF-8 text"))?;
    if text.trim().is_empty() {
        return Ok(RecordLine::Blank);
    }
    if text.trim_start().starts_with("{\"match\"") {
        let s: SettingsLine =
            serde_json::from_str(text).map_err(|e| format!("{at}: bad match settings: {e}"))?;
        Ok(RecordLine::Settings(Box::new(s.settings)))
    } else {
        let r: GameRecord =
            serde_json::from_str(text).map_err(|e| format!("{at}: not a game record: {e}"))?;
        Ok(RecordLine::Game(Box::new(r)))
    }
}

/// Reads a records file (it must exist and be a regular file).
pub fn read_records_file(path: &Path) -> Result<RecordsFile, String> {
    let meta = std::fs::metadata(path).map_err(|e| format!("{}: {e}", path.display()))?;
    if !meta.is_file() {
        return Err(format!("{}: not a regular file", path.display()));
    }
    let bytes = std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
    RecordsFile::parse(&bytes, &path.display().to_string())
}

/// The game records of a file that must exist (see [`read_records_file`]).
pub fn read_records(path: &Path) -> Result<Vec<GameRecord>, String> {
    Ok(read_records_file(path)?.games)
}

/// How long [`RecordsWriter::open`] waits for a held records file before refusing it.
const LOCK_WAIT: std::time::Duration = std::time::Duration::from_secs(3);

/// Locks an open records file, waiting up to [`LOCK_WAIT`]: a child that a thread of this
/// process has forked but not yet started holds a copy of every descriptor open at the fork, and
/// so the lock of a records file closed a moment ago (a match run again in the same process);
/// the copy goes when the child starts its program. False when the lock stays held.
fn lock_records(file: &std::fs::File) -> std::io::Result<bool> {
    let start = std::time::Instant::now();
    loop {
        if super::unix::try_lock_exclusive(file)? {
            return Ok(true);
        }
        if start.elapsed() >= LOCK_WAIT {
            return Ok(false);
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
}

/// A records file opened for a match: locked against a second `orrery` writing it, cut back to
/// its last complete line, its settings checked against this match's, and each record then
/// appended as one write of one line, flushed to disk (`fsync`) before the next game is counted.
/// A game lasts seconds and an fsync milliseconds, so every counted game survives a crash or a
/// power cut; a kill in the middle of a write leaves at most an unfinished last line, which the
/// next run cuts off.
pub struct RecordsWriter {
    file: std::fs::File,
    path: std::path::PathBuf,
}

impl RecordsWriter {
    /// Opens (or creates) `path` for the match with `settings`: returns the writer and the games
    /// already recorded. Refuses a file of another match (naming every difference), a file
    /// another process holds, a file with game records but no settings, and anything that is
    /// not a regular file.
    pub fn open(path: &Path, settings: &MatchSettings) -> Result<(Self, RecordsFile), String> {
        let shown = path.display().to_string();
        if let Ok(meta) = std::fs::metadata(path) {
            if !meta.is_file() {
                return Err(format!("--records {shown}: not a regular file"));
            }
        }
        let mut file = std::fs::OpenOptions::new()
            .read(true)
            .append(true)
            .create(true)
            .open(path)
            .map_err(|e| format!("--records {shown}: {e}"))?;
        if !lock_records(&file).map_err(|e| format!("--records {shown}: {e}"))? {
            return Err(format!(
                "--records {shown}: another orrery is writing this file (every shard needs a file of its own)"
            ));
        }
        let mut bytes = Vec::new();
        file.read_to_end(&mut bytes)
            .map_err(|e| format!("--records {shown}: {e}"))?;
        let existing = RecordsFile::parse(&bytes, &shown)?;
        if existing.unfinished > 0 {
            log::warn!(
                "{shown}: cutting an unfinished last line ({} bytes) left by an interrupted run",
                existing.unfinished
            );
            file.set_len(existing.complete_len)
                .and_then(|_| file.sync_data())
                .map_err(|e| format!("--records {shown}: {e}"))?;
        }
        let mut me = RecordsWriter {
            file,
            path: path.to_path_buf(),
        };
        if existing.missing_newline {
            me.file
                .write_all(b"\n")
                .map_err(|e| format!("--records {shown}: {e}"))?;
        }
        match existing.current_settings() {
            None if !existing.games.is_empty() => {
                return Err(format!(
                    "--records {shown}: the file has game records but no match settings line \
                     (written by an older orrery); start a new file"
                ))
            }
            None => me.write_line(&settings_line(settings))?,
            Some(old) => {
                let diff = old.differences(settings);
                if !diff.is_empty() {
                    return Err(format!(
                        "--records {shown} holds another match; this run differs in:\n  {}",
                        diff.join("\n  ")
                    ));
                }
                if old.shard != settings.shard {
                    let name = |s: &Option<String>| match s {
                        Some(k) => format!("shard {k}"),
                        None => "the whole (unsharded) match".to_string(),
                    };
                    return Err(format!(
                        "--records {shown} holds {} of this match; this run is {}: every shard \
                         needs a records file of its own",
                        name(&old.shard),
                        name(&settings.shard)
                    ));
                }
                if settings.games > old.games {
                    me.write_line(&settings_line(settings))?;
                }
            }
        }
        Ok((me, existing))
    }

    fn write_line(&mut self, line: &str) -> Result<(), String> {
        let mut data = String::with_capacity(line.len() + 1);
        data.push_str(line);
        data.push('\n');
        self.file
            .write_all(data.as_bytes())
            .and_then(|_| self.file.sync_data())
            .map_err(|e| format!("--records {}: {e}", self.path.display()))
    }

    /// Appends one game record (one write, then fsync).
    pub fn append(&mut self, rec: &GameRecord) -> Result<(), String> {
        self.write_line(&rec.to_json_line())
    }
}

fn settings_line(s: &MatchSettings) -> String {
    serde_json::to_string(&SettingsLine {
        settings: s.clone(),
    })
    .expect("settings serialise")
}

/// Appends one record to a JSON-lines file as one write (no settings line, no lock): for
/// tools and tests; matches use [`RecordsWriter`].
pub fn append_record(path: &Path, rec: &GameRecord) -> std::io::Result<()> {
    let mut f = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)?;
    let mut line = rec.to_json_line();
    line.push('\n');
    f.write_all(line.as_bytes())
}

fn clock_text(ms: u64) -> String {
    let s = ms / 1000;
    format!(
        "{}:{:02}:{:02}.{:03}",
        s / 3600,
        (s / 60) % 60,
        s % 60,
        ms % 1000
    )
}

fn date_of(epoch: u64) -> String {
    // Civil date from days since 1970-01-01 (proleptic Gregorian).
    let days = (epoch / 86_400) as i64;
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    format!("{y:04}.{m:02}.{d:02}")
}

/// A PGN tag value: backslash and quote escaped, control characters (which would end the
/// tag or the line) written as spaces, at most 200 characters.
fn escape(s: &str) -> String {
    let clean: String = s
        .chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .take(200)
        .collect();
    clean.replace('\\', "\\\\").replace('"', "\\\"")
}

/// A PGN comment's text: no `}` (which would end it), no control characters, at most 200
/// characters.
fn comment_text(s: &str) -> String {
    s.chars()
        .map(|c| match c {
            '}' => ')',
            c if c.is_control() => ' ',
            c => c,
        })
        .take(200)
        .collect()
}

/// The PGN text of a chess game. Two seats: standard tags (`White`, `Black`), `Variant`, `FEN`
/// and `SetUp` for non-standard starts, and per move `{eval/depth time [%clk h:mm:ss.mmm]}`.
/// More seats (Solar Chess): `Seat1`..`SeatN` tags instead of White/Black, `Result` as scores
/// joined by `-`, and each move written `<ply>.<seat> move {comment}`. A `GameSetup` tag names
/// the setup when there is one.
pub fn pgn(rec: &GameRecord, event: &str, variant: Option<&str>) -> String {
    let two = rec.engines.len() == 2;
    let result = if two { rec.result.clone() } else { "*".into() };
    let mut out = String::new();
    let mut tag = |k: &str, v: &str| out.push_str(&format!("[{k} \"{}\"]\n", escape(v)));
    tag("Event", event);
    tag("Site", "orrery");
    tag("Date", &date_of(rec.started));
    tag("Round", &(rec.id + 1).to_string());
    if two {
        tag("White", &rec.engines[0]);
        tag("Black", &rec.engines[1]);
    } else {
        for (i, e) in rec.engines.iter().enumerate() {
            tag(&format!("Seat{}", i + 1), e);
        }
        tag("Seats", &rec.engines.len().to_string());
    }
    tag("Result", &rec.result);
    if let Some(v) = variant {
        tag("Variant", v);
    }
    if let Some(setup) = &rec.setup {
        tag("GameSetup", setup);
    }
    if !rec.standard_start {
        tag("SetUp", "1");
        tag("FEN", &rec.start);
    }
    tag("TimeControl", &rec.tc);
    tag("Termination", &rec.reason);
    out.push('\n');
    let mut body = String::new();
    // Move numbers follow the start position's fullmove number (the FEN's last field), and a
    // game whose first move is Black's opens with `N...`.
    let mut number: u64 = if rec.standard_start {
        1
    } else {
        rec.start
            .split_whitespace()
            .last()
            .and_then(|f| f.parse().ok())
            .filter(|&n| n >= 1)
            .unwrap_or(1)
    };
    for (ply, m) in rec.moves.iter().enumerate() {
        if two {
            if m.seat == 0 {
                body.push_str(&format!("{number}. "));
            } else if ply == 0 {
                body.push_str(&format!("{number}... "));
            }
            if m.seat == 1 {
                number += 1;
            }
        } else {
            body.push_str(&format!("{}.{} ", ply + 1, m.seat + 1));
        }
        body.push_str(&m.mv);
        let comment = if m.book {
            "book".to_string()
        } else {
            let mut c = String::new();
            if let Some(s) = m.score.as_deref().and_then(parse_score_field) {
                c.push_str(&s.pgn_text());
                if let Some(d) = m.depth {
                    c.push_str(&format!("/{d}"));
                }
                c.push(' ');
            }
            c.push_str(&format!("{:.3}s", m.ms as f64 / 1000.0));
            if let Some(clk) = m.clock_ms {
                c.push_str(&format!(" [%clk {}]", clock_text(clk)));
            }
            c
        };
        body.push_str(&format!(" {{{comment}}} "));
    }
    body.push_str(&format!("{{{}}} {result}", comment_text(&rec.reason)));
    out.push_str(&body);
    out.push_str("\n\n");
    out
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    pub(crate) fn sample() -> GameRecord {
        GameRecord {
            id: 0,
            block: 0,
            block_seed: 9,
            game: "tic-tac-toe".into(),
            setup: None,
            tc: "1+0.01".into(),
            engines: vec!["a".into(), "b".into()],
            engine_index: vec![0, 1],
            start: "........./x".into(),
            standard_start: true,
            moves: vec![
                MoveRecord {
                    seat: 0,
                    mv: "b2".into(),
                    book: true,
                    ms: 0,
                    clock_ms: None,
                    score: None,
                    depth: None,
                },
                MoveRecord {
                    seat: 1,
                    mv: "a1".into(),
                    book: false,
                    ms: 12,
                    clock_ms: Some(998),
                    score: Some("cp -35".into()),
                    depth: Some(4),
                },
            ],
            ranks: vec![1.5, 1.5],
            result: "1/2-1/2".into(),
            reason: "board full".into(),
            fault_seat: None,
            final_position: "x".into(),
            extra: serde_json::Value::Null,
            started: 1_764_460_800,
            duration_ms: 5,
            engine_moves: 1,
            overhead_us: 300,
        }
    }

    #[test]
    fn json_round_trip_and_resume_file() {
        let r = sample();
        let line = r.to_json_line();
        let back: GameRecord = serde_json::from_str(&line).unwrap();
        assert_eq!(back, r);
        let dir = std::env::temp_dir().join(format!("orrery-rec-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("r.jsonl");
        let _ = std::fs::remove_file(&path);
        assert!(read_records(&path).is_err(), "a missing file is an error");
        append_record(&path, &r).unwrap();
        std::fs::OpenOptions::new()
            .append(true)
            .open(&path)
            .unwrap()
            .write_all(b"{\"id\": 1, \"blo")
            .unwrap();
        let read = read_records(&path).unwrap();
        assert_eq!(read, vec![r]);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_whole_last_line_without_its_newline_is_read() {
        let text = sample().to_json_line();
        let f = RecordsFile::parse(text.as_bytes(), "f").unwrap();
        assert_eq!(f.games.len(), 1);
        assert!(f.missing_newline);
        assert_eq!(f.unfinished, 0);
        let cut = RecordsFile::parse(&text.as_bytes()[..text.len() - 1], "f").unwrap();
        assert!(cut.games.is_empty());
        assert_eq!(cut.unfinished, text.len() as u64 - 1);
    }

    #[test]
    fn a_bad_complete_line_is_an_error_naming_it() {
        let mut text = sample().to_json_line();
        text.push_str("\nnot json\n");
        text.push_str(&sample().to_json_line());
        text.push('\n');
        let e = RecordsFile::parse(text.as_bytes(), "f").unwrap_err();
        assert!(e.starts_with("f line 2: not a game record"), "{e}");
        let e = RecordsFile::parse(b"\xff\n", "f").unwrap_err();
        assert!(e.contains("line 1: not UTF-8"), "{e}");
    }

    #[test]
    fn pgn_tags_survive_control_characters() {
        let mut rec = sample();
        rec.engines[0] = "evil\"]\n[Result \"0-1".into();
        rec.reason = "x".repeat(100_000);
        let p = pgn(&rec, "t", None);
        let white = p.lines().find(|l| l.starts_with("[White ")).unwrap();
        assert_eq!(white, "[White \"evil\\\"] [Result \\\"0-1\"]");
        assert_eq!(p.lines().filter(|l| l.starts_with("[Result ")).count(), 1);
        let term = p.lines().find(|l| l.starts_with("[Termination ")).unwrap();
        assert!(term.len() < 250, "{}", term.len());
    }

    #[test]
    fn pgn_numbers_a_game_that_starts_with_black_from_the_fen() {
        let mut rec = sample();
        rec.standard_start = false;
        rec.start = "8/8/8/8/8/8/8/8 b - - 0 12".into();
        for (i, m) in rec.moves.iter_mut().enumerate() {
            m.seat = (i + 1) % 2;
        }
        let extra = rec.moves[0].clone();
        rec.moves.push(extra);
        let p = pgn(&rec, "test", None);
        assert!(p.contains("[FEN \"8/8/8/8/8/8/8/8 b - - 0 12\"]"), "{p}");
        assert!(p.contains("\n12... b2 {book} 13. a1 "), "{p}");
        assert!(p.contains("} b2 {book} {"), "{p}");
    }

    #[test]
    fn pgn_has_tags_and_comments() {
        let p = pgn(&sample(), "test", Some("tictactoe"));
        assert!(p.contains("[White \"a\"]"), "{p}");
        assert!(p.contains("[Date \"2025.11.30\"]"), "{p}");
        assert!(p.contains("[Variant \"tictactoe\"]"));
        assert!(!p.contains("[FEN"));
        assert!(
            p.contains("1. b2 {book} a1 {-0.35/4 0.012s [%clk 0:00:00.998]}"),
            "{p}"
        );
        assert!(p.trim_end().ends_with("1/2-1/2"));
        assert_eq!(score_field(Score::Mate(-3)), "mate -3");
        assert_eq!(parse_score_field("mate -3"), Some(Score::Mate(-3)));
    }
}
