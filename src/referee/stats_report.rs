//! `orrery stats`: the end-of-match report for recorded games, with any number of records files
//! of one match merged (files of other matches are refused, each game is counted once), and the
//! Elo/LOS/SPRT calculator for raw pentanomial or win/draw/loss counts.

use std::collections::HashMap;
use std::path::PathBuf;

use super::cli::StatsRequest;
use super::game_kind::GameKind;
use super::match_settings::MatchSettings;
use super::records::{read_records_file, GameRecord};
use super::stats::{elo_line, sprt_line, Pentanomial, Sprt, Wdl};
use super::tally::Tally;

/// The games of several records files of one match, each counted once.
#[derive(Debug)]
pub struct Merged {
    /// The match's settings (the one with the most games), if the files record them.
    pub settings: Option<MatchSettings>,
    /// Distinct games, by id.
    pub games: Vec<GameRecord>,
    /// Records found in more than one file (counted once).
    pub duplicates: usize,
    /// Files read.
    pub files: usize,
}

/// Reads and merges records files. Refuses files whose settings differ (naming every
/// difference; the number of games and the shard may differ) and files without settings next
/// to files with them. A game id found twice is counted once (the first one read); a warning
/// goes to the log when the two records disagree on the result.
pub fn merge_files(paths: &[PathBuf]) -> Result<Merged, String> {
    let mut settings: Option<(MatchSettings, String)> = None;
    let mut headerless: Option<String> = None;
    let mut by_id: HashMap<u64, (GameRecord, String)> = HashMap::new();
    let mut order: Vec<u64> = Vec::new();
    let mut duplicates = 0;
    for path in paths {
        let shown = path.display().to_string();
        let file = read_records_file(path)?;
        match file.current_settings() {
            Some(s) => {
                if let Some(other) = &headerless {
                    return Err(format!(
                        "{other} has no match settings line, {shown} has: cannot tell that they are one match"
                    ));
                }
                match &mut settings {
                    None => settings = Some((s.clone(), shown.clone())),
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
                            *first = s.clone();
                        }
                    }
                }
            }
            None => {
                if settings.is_some() {
                    return Err(format!(
                        "{shown} has no match settings line, {} has: cannot tell that they are one match",
                        settings.as_ref().map(|(_, n)| n.as_str()).unwrap_or("")
                    ));
                }
                headerless.get_or_insert(shown.clone());
            }
        }
        for rec in file.games {
            match by_id.get(&rec.id) {
                Some((first, where_)) => {
                    duplicates += 1;
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
                    order.push(rec.id);
                    by_id.insert(rec.id, (rec, shown.clone()));
                }
            }
        }
    }
    order.sort_unstable();
    let games: Vec<GameRecord> = order
        .into_iter()
        .filter_map(|id| by_id.remove(&id).map(|(r, _)| r))
        .collect();
    if let Some(first) = games.first() {
        if let Some(r) = games
            .iter()
            .find(|r| r.game != first.game || r.ranks.len() != first.ranks.len())
        {
            return Err(format!(
                "game {} is {} with {} seats, game {} is {} with {} seats: not one match",
                first.id + 1,
                first.game,
                first.ranks.len(),
                r.id + 1,
                r.game,
                r.ranks.len()
            ));
        }
    }
    Ok(Merged {
        settings: settings.map(|(s, _)| s),
        games,
        duplicates,
        files: paths.len(),
    })
}

/// Engine names in command-line order: from the settings, else from the records.
fn engine_names(m: &Merged) -> Vec<String> {
    if let Some(s) = &m.settings {
        return s.engines.iter().map(|e| e.name.clone()).collect();
    }
    let mut names: Vec<String> = Vec::new();
    for r in &m.games {
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

/// The tally of merged games, with `sprt` or else the SPRT recorded in the settings.
pub fn merged_tally(m: &Merged, sprt: Option<Sprt>) -> Result<Tally, String> {
    let sprt = match (sprt, m.settings.as_ref().and_then(|s| s.sprt.as_deref())) {
        (Some(s), _) => Some(s),
        (None, Some(text)) => Some(Sprt::parse(text)?),
        (None, None) => None,
    };
    let seats = match (m.games.first(), &m.settings) {
        (Some(r), _) => r.ranks.len(),
        (None, Some(s)) => GameKind::parse(&s.game)?
            .new_game(s.setup.as_deref(), None, 0)?
            .seats(),
        (None, None) => 2,
    };
    let mut t = Tally::new(engine_names(m), seats, sprt);
    for r in &m.games {
        t.add(r);
    }
    Ok(t)
}

/// The report of `orrery stats FILE...`: a line on what was merged, then the end-of-match report.
pub fn files_report(paths: &[PathBuf], sprt: Option<Sprt>) -> Result<String, String> {
    let m = merge_files(paths)?;
    let t = merged_tally(&m, sprt)?;
    let mut out = format!(
        "Records: {} file{}, {} games",
        m.files,
        if m.files == 1 { "" } else { "s" },
        m.games.len()
    );
    if m.duplicates > 0 {
        out.push_str(&format!(" ({} duplicates counted once)", m.duplicates));
    }
    match &m.settings {
        Some(s) => out.push_str(&format!(" of {} scheduled\n", s.games)),
        None => out.push_str(" (no match settings recorded)\n"),
    }
    out.push_str(&t.report());
    Ok(out)
}

/// The report of `orrery stats --penta ...` / `--wdl ...`.
pub fn counts_report(req: &StatsRequest) -> String {
    let mut out = String::new();
    if let Some(p) = req.penta {
        let penta = Pentanomial(p);
        let pairs = penta.pairs();
        let games = 2 * pairs;
        let points = p[1] as f64 * 0.5 + p[2] as f64 + p[3] as f64 * 1.5 + p[4] as f64 * 2.0;
        out.push_str(&format!(
            "Ptnml(0-2): [{}, {}, {}, {}, {}] ({pairs} pairs, {games} games, score {:.4})\n",
            p[0],
            p[1],
            p[2],
            p[3],
            p[4],
            points / games as f64
        ));
        if let Some(e) = penta.elo() {
            out.push_str(&elo_line(&e, "pair", None));
            out.push('\n');
        }
        if let Some(s) = &req.sprt {
            out.push_str(&sprt_line(s, s.llr_pentanomial(&penta)));
            out.push('\n');
        }
    }
    if let Some([wins, draws, losses]) = req.wdl {
        let w = Wdl {
            wins,
            draws,
            losses,
        };
        out.push_str(&format!(
            "Score: {wins} - {losses} - {draws} [{:.4}] {} games\n",
            w.score(),
            w.games()
        ));
        if let Some(e) = w.elo() {
            out.push_str(&elo_line(&e, "game", Some(draws as f64 / w.games() as f64)));
            out.push('\n');
        }
        if let Some(s) = &req.sprt {
            out.push_str(&sprt_line(s, s.llr_trinomial(&w)));
            out.push('\n');
        }
    }
    out
}
