//! The records of one match gathered from several files (the shards of a match, pieces run
//! elsewhere), read again as they grow: each file is read on from where the last read stopped,
//! complete lines only, so a line that another `orrery` is writing is never half read. A game
//! found in two files counts once; a file of another match is refused or, for a shard looking
//! at its neighbours, left out.

use std::collections::{BTreeMap, HashMap};
use std::io::{Read, Seek, SeekFrom};
use std::path::{Path, PathBuf};

use super::game_kind::GameKind;
use super::match_settings::MatchSettings;
use super::records::{parse_record_line, GameRecord, RecordLine};
use super::stats::Sprt;
use super::tally::{packed_depths, Tally};

/// What to do with a file that is not of the match.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OtherMatches {
    /// An error naming the difference (`orrery stats`).
    Refuse,
    /// Leave the file out, with a warning in the log (a shard reading its directory).
    Skip,
}

#[derive(Debug, Default)]
struct FileState {
    /// Bytes read: up to and including the last complete line seen.
    offset: u64,
    /// Lines read.
    lines: usize,
    /// The file has a settings line of the match.
    has_settings: bool,
    /// Left out (another match, or unreadable with [`OtherMatches::Skip`]).
    skipped: bool,
}

/// Games of one match merged from records files, each game counted once.
#[derive(Debug)]
pub struct MatchMerge {
    policy: OtherMatches,
    settings: Option<(MatchSettings, String)>,
    headerless: Option<String>,
    games: BTreeMap<u64, (GameRecord, String)>,
    /// Each kept game's engine depths ([`packed_depths`]), by id: all the statistics keep of
    /// its moves.
    depths: BTreeMap<u64, Vec<u32>>,
    duplicates: usize,
    files: HashMap<PathBuf, FileState>,
}

/// The records files in a directory: its regular files ending in `.jsonl`, by name.
pub fn records_in(dir: &Path) -> Result<Vec<PathBuf>, String> {
    let shown = dir.display();
    let mut out = Vec::new();
    for entry in std::fs::read_dir(dir).map_err(|e| format!("{shown}: {e}"))? {
        let path = entry.map_err(|e| format!("{shown}: {e}"))?.path();
        if path.extension().is_some_and(|e| e == "jsonl") && path.is_file() {
            out.push(path);
        }
    }
    out.sort();
    Ok(out)
}

/// The records files named by `sources`: files as given, directories as [`records_in`].
pub fn expand_sources(sources: &[PathBuf]) -> Result<Vec<PathBuf>, String> {
    let mut out = Vec::new();
    for s in sources {
        if s.is_dir() {
            out.extend(records_in(s)?);
        } else {
            out.push(s.clone());
        }
    }
    Ok(out)
}

impl MatchMerge {
    /// An empty merge; the first settings line read fixes the match.
    pub fn new(policy: OtherMatches) -> Self {
        MatchMerge {
            policy,
            settings: None,
            headerless: None,
            games: BTreeMap::new(),
            depths: BTreeMap::new(),
            duplicates: 0,
            files: HashMap::new(),
        }
    }

    /// An empty merge for the match with `settings` (named `name` in messages).
    pub fn of_match(policy: OtherMatches, settings: MatchSettings, name: &str) -> Self {
        let mut m = MatchMerge::new(policy);
        m.settings = Some((settings, name.to_string()));
        m
    }

    /// The match's settings (those with the most games), if any file recorded them.
    pub fn settings(&self) -> Option<&MatchSettings> {
        self.settings.as_ref().map(|(s, _)| s)
    }

    /// Distinct games, by id, as far as the statistics need them (without moves, start and
    /// final positions, revealed data).
    pub fn games(&self) -> impl Iterator<Item = &GameRecord> {
        self.games.values().map(|(r, _)| r)
    }

    /// Number of distinct games.
    pub fn game_count(&self) -> usize {
        self.games.len()
    }

    /// Records found again in another file (or twice in one), not counted.
    pub fn duplicates(&self) -> usize {
        self.duplicates
    }

    /// Files read and not left out.
    pub fn file_count(&self) -> usize {
        self.files.values().filter(|f| !f.skipped).count()
    }

    /// Reads every file of `sources` (see [`expand_sources`]) on from where it was last read.
    /// `whole`: the files are finished, so a last line without its newline is read too.
    pub fn read_sources(&mut self, sources: &[PathBuf], whole: bool) -> Result<(), String> {
        for path in expand_sources(sources)? {
            self.read_file(&path, whole)?;
        }
        Ok(())
    }

    /// Reads `path` on from where it was last read (see [`MatchMerge::read_sources`]).
    pub fn read_file(&mut self, path: &Path, whole: bool) -> Result<(), String> {
        let result = self.try_read_file(path, whole);
        match (result, self.policy) {
            (Ok(()), _) => Ok(()),
            (Err(e), OtherMatches::Refuse) => Err(e),
            (Err(e), OtherMatches::Skip) => {
                log::warn!("left out of the merged statistics: {e}");
                self.files.entry(path.to_path_buf()).or_default().skipped = true;
                Ok(())
            }
        }
    }

    fn try_read_file(&mut self, path: &Path, whole: bool) -> Result<(), String> {
        let shown = path.display().to_string();
        let state = self.files.entry(path.to_path_buf()).or_default();
        if state.skipped {
            return Ok(());
        }
        let meta = std::fs::metadata(path).map_err(|e| format!("{shown}: {e}"))?;
        if !meta.is_file() {
            return Err(format!("{shown}: not a regular file"));
        }
        if meta.len() < state.offset {
            return Err(format!(
                "{shown}: the file shrank below what was read ({} < {} bytes)",
                meta.len(),
                state.offset
            ));
        }
        if meta.len() == state.offset {
            return Ok(());
        }
        let mut file = std::fs::File::open(path).map_err(|e| format!("{shown}: {e}"))?;
        file.seek(SeekFrom::Start(state.offset))
            .map_err(|e| format!("{shown}: {e}"))?;
        let mut bytes = Vec::new();
        file.read_to_end(&mut bytes)
            .map_err(|e| format!("{shown}: {e}"))?;
        let complete = bytes.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
        let mut lines: Vec<&[u8]> = bytes[..complete]
            .split(|&b| b == b'\n')
            .take(bytes[..complete].iter().filter(|&&b| b == b'\n').count())
            .collect();
        let tail = &bytes[complete..];
        let mut read_to = complete;
        if whole && !tail.iter().all(u8::is_ascii_whitespace) {
            // A whole line without its newline is read; an unfinished write is not.
            if parse_record_line(tail, "").is_ok() {
                lines.push(tail);
                read_to = bytes.len();
            }
        }
        let first_line = state.lines;
        let mut parsed = Vec::with_capacity(lines.len());
        for (i, line) in lines.iter().enumerate() {
            let at = format!("{shown} line {}", first_line + i + 1);
            parsed.push(parse_record_line(line, &at)?);
        }
        for line in parsed {
            self.take_line(path, &shown, line)?;
        }
        let state = self.files.get_mut(path).expect("file state");
        if !state.skipped {
            state.offset += read_to as u64;
            state.lines += lines.len();
        }
        Ok(())
    }

    fn take_line(&mut self, path: &Path, shown: &str, line: RecordLine) -> Result<(), String> {
        if self.files.get(path).is_some_and(|f| f.skipped) {
            return Ok(());
        }
        match line {
            RecordLine::Blank => Ok(()),
            RecordLine::Settings(s) => self.take_settings(path, shown, *s),
            RecordLine::Game(rec) => {
                let has_settings = self.files.get(path).is_some_and(|f| f.has_settings);
                if !has_settings {
                    if let Some((_, first)) = &self.settings {
                        return Err(format!(
                            "{shown} has no match settings line, {first} has: cannot tell that \
                             they are one match"
                        ));
                    }
                    self.headerless.get_or_insert_with(|| shown.to_string());
                }
                if let Some((first, _)) = self.games.values().next() {
                    if first.game != rec.game || first.ranks.len() != rec.ranks.len() {
                        return Err(format!(
                            "game {} of {shown} is {} with {} seats, game {} is {} with {} \
                             seats: not one match",
                            rec.id + 1,
                            rec.game,
                            rec.ranks.len(),
                            first.id + 1,
                            first.game,
                            first.ranks.len()
                        ));
                    }
                }
                match self.games.get(&rec.id) {
                    Some((first, where_)) => {
                        self.duplicates += 1;
                        if first.ranks != rec.ranks {
                            log::warn!(
                                "game {} is in {where_} ({}) and {shown} ({}): counting the first",
                                rec.id + 1,
                                first.result,
                                rec.result
                            );
                        }
                    }
                    None => {
                        // Kept for the statistics only: the moves and positions are dropped,
                        // so following a long match costs little memory.
                        let mut rec = *rec;
                        self.depths.insert(rec.id, packed_depths(&rec));
                        rec.moves = Vec::new();
                        rec.start = String::new();
                        rec.final_position = String::new();
                        rec.extra = serde_json::Value::Null;
                        self.games.insert(rec.id, (rec, shown.to_string()));
                    }
                }
                Ok(())
            }
        }
    }

    fn take_settings(&mut self, path: &Path, shown: &str, s: MatchSettings) -> Result<(), String> {
        if let Some(other) = &self.headerless {
            return Err(format!(
                "{other} has no match settings line, {shown} has: cannot tell that they are one \
                 match"
            ));
        }
        match &mut self.settings {
            None => self.settings = Some((s, shown.to_string())),
            Some((first, first_name)) => {
                let mut a = first.clone();
                let mut b = s.clone();
                a.games = a.games.max(b.games);
                b.games = a.games;
                let diff = a.differences(&b);
                if !diff.is_empty() {
                    return Err(format!(
                        "{shown} is not from the match of {first_name}; they differ in:\n  {}",
                        diff.join("\n  ")
                    ));
                }
                if s.games > first.games {
                    first.games = s.games;
                }
            }
        }
        self.files
            .entry(path.to_path_buf())
            .or_default()
            .has_settings = true;
        Ok(())
    }

    /// Engine names in command-line order: from the settings, else from the records.
    pub fn engine_names(&self) -> Vec<String> {
        if let Some((s, _)) = &self.settings {
            return s.engines.iter().map(|e| e.name.clone()).collect();
        }
        let mut names: Vec<String> = Vec::new();
        for r in self.games() {
            for (name, &i) in r.engines.iter().zip(&r.engine_index) {
                if names.len() <= i {
                    names.resize(i + 1, String::new());
                }
                if names[i].is_empty() {
                    names[i] = name.clone();
                }
            }
        }
        names
    }

    /// The SPRT to evaluate: `sprt`, else the one recorded in the settings.
    pub fn sprt(&self, sprt: Option<Sprt>) -> Result<Option<Sprt>, String> {
        match (sprt, self.settings().and_then(|s| s.sprt.as_deref())) {
            (Some(s), _) => Ok(Some(s)),
            (None, Some(text)) => Sprt::parse(text).map(Some),
            (None, None) => Ok(None),
        }
    }

    /// The statistics of the merged games, with `sprt` or else the recorded SPRT.
    pub fn tally(&self, sprt: Option<Sprt>) -> Result<Tally, String> {
        let sprt = self.sprt(sprt)?;
        let seats = match (self.games().next(), self.settings()) {
            (Some(r), _) => r.ranks.len(),
            (None, Some(s)) => GameKind::parse(&s.game)?
                .new_game(s.setup.as_deref(), None, 0)?
                .seats(),
            (None, None) => 2,
        };
        let mut t = Tally::new(self.engine_names(), seats, sprt);
        for r in self.games() {
            t.add(r);
            if let Some(d) = self.depths.get(&r.id) {
                t.add_depths(&r.engine_index, d);
            }
        }
        Ok(t)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::referee::match_settings::SettingsLine;

    fn settings(seed: u64, games: u64) -> MatchSettings {
        let line = format!(
            r#"{{"match":{{"format":1,"orrery":"t","game":"tic-tac-toe","setup":null,"engines":[{{"name":"a","cmd":"x","dir":null,"proto":"uci","options":[]}},{{"name":"b","cmd":"y","dir":null,"proto":"uci","options":[]}}],"tc":"depth=1","margin_ms":100,"resign":null,"draw":null,"max_plies":null,"openings":null,"random_plies":0,"seed":{seed},"games":{games},"sprt":null}}}}"#
        );
        serde_json::from_str::<SettingsLine>(&line)
            .unwrap()
            .settings
    }

    fn game(id: u64) -> String {
        let r = GameRecord {
            id,
            block: id / 2,
            block_seed: 0,
            game: "tic-tac-toe".into(),
            setup: None,
            tc: "depth=1".into(),
            engines: vec!["a".into(), "b".into()],
            engine_index: vec![(id % 2) as usize, 1 - (id % 2) as usize],
            start: String::new(),
            standard_start: true,
            moves: vec![],
            ranks: vec![1.0, 2.0],
            result: "1-0".into(),
            reason: "three in a row".into(),
            fault_seat: None,
            final_position: String::new(),
            extra: serde_json::Value::Null,
            started: 0,
            duration_ms: 0,
            engine_moves: 0,
            overhead_us: 0,
        };
        r.to_json_line()
    }

    fn settings_line(s: &MatchSettings) -> String {
        serde_json::to_string(&SettingsLine {
            settings: s.clone(),
        })
        .unwrap()
    }

    #[test]
    fn grows_line_by_line_and_counts_each_game_once() {
        let dir = std::env::temp_dir().join(format!("orrery-merge-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let a = dir.join("a.jsonl");
        let b = dir.join("b.jsonl");
        let s = settings(1, 8);
        std::fs::write(
            &a,
            format!("{}\n{}\n{}", settings_line(&s), game(0), game(1)),
        )
        .unwrap();
        std::fs::write(&b, format!("{}\n{}\n", settings_line(&s), game(1))).unwrap();
        let mut m = MatchMerge::new(OtherMatches::Refuse);
        m.read_sources(std::slice::from_ref(&dir), false).unwrap();
        // a's last line has no newline yet: not read while following.
        assert_eq!(m.games().map(|g| g.id).collect::<Vec<_>>(), vec![0, 1]);
        assert_eq!(m.duplicates(), 0);
        std::fs::write(
            &a,
            format!(
                "{}\n{}\n{}\n{}\n",
                settings_line(&s),
                game(0),
                game(1),
                game(2)
            ),
        )
        .unwrap();
        m.read_sources(std::slice::from_ref(&dir), false).unwrap();
        assert_eq!(m.game_count(), 3);
        assert_eq!(m.duplicates(), 1, "game 1 is in both files");
        let t = m.tally(None).unwrap();
        assert_eq!(t.games, 3);
        assert_eq!(t.penta.pairs(), 1);
        // A file of another match: refused, or left out.
        let c = dir.join("c.jsonl");
        std::fs::write(
            &c,
            format!("{}\n{}\n", settings_line(&settings(9, 8)), game(5)),
        )
        .unwrap();
        let err = m
            .read_sources(std::slice::from_ref(&dir), false)
            .unwrap_err();
        assert!(err.contains("--seed: recorded 1, now 9"), "{err}");
        let mut shard = MatchMerge::of_match(OtherMatches::Skip, s.clone(), "me");
        shard
            .read_sources(std::slice::from_ref(&dir), false)
            .unwrap();
        assert_eq!(shard.game_count(), 3);
        assert_eq!(shard.file_count(), 2);
        // Finished files: a last line without its newline is read.
        std::fs::write(
            &b,
            format!("{}\n{}\n{}", settings_line(&s), game(1), game(3)),
        )
        .unwrap();
        let mut whole = MatchMerge::new(OtherMatches::Refuse);
        whole.read_file(&a, true).unwrap();
        whole.read_file(&b, true).unwrap();
        assert_eq!(whole.game_count(), 4);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
