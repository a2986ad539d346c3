//! `orrery stats`: the end-of-match report for recorded games, with any number of records files
//! of one match merged (files of other matches are refused, each game is counted once), and the
//! Elo/LOS/SPRT calculator for raw pentanomial or win/draw/loss counts, and `--follow`: the
//! merged statistics of a running sharded match, writing the shared stop file when the SPRT
//! decides.

use std::path::{Path, PathBuf};

use super::cli::StatsRequest;
use super::merge::{MatchMerge, OtherMatches};
use super::stats::{elo_line, sprt_line, Pentanomial, Sprt, SprtDecision, Wdl};
use super::tally::Tally;

/// The first line of the report: what was merged.
fn merged_line(m: &MatchMerge) -> String {
    let files = m.file_count();
    let mut out = format!(
        "Records: {files} file{}, {} games",
        if files == 1 { "" } else { "s" },
        m.game_count()
    );
    if m.duplicates() > 0 {
        out.push_str(&format!(" ({} duplicates counted once)", m.duplicates()));
    }
    match m.settings() {
        Some(s) => out.push_str(&format!(" of {} scheduled\n", s.games)),
        None => out.push_str(" (no match settings recorded)\n"),
    }
    out
}

/// Reads and merges finished records files (directories: their `*.jsonl` files), refusing
/// files of another match (naming every difference; the number of games and the shard may
/// differ) and files without settings next to files with them. A game id found twice is
/// counted once (the first one read).
pub fn merge_files(paths: &[PathBuf]) -> Result<MatchMerge, String> {
    let mut m = MatchMerge::new(OtherMatches::Refuse);
    m.read_sources(paths, true)?;
    Ok(m)
}

/// The report of `orrery stats FILE...`: a line on what was merged, then the end-of-match report.
pub fn files_report(paths: &[PathBuf], sprt: Option<Sprt>) -> Result<String, String> {
    let m = merge_files(paths)?;
    let t = m.tally(sprt)?;
    Ok(format!("{}{}", merged_line(&m), t.report()))
}

/// The text of a stop file: the decision, the LLR and what it was computed over.
pub fn stop_text(t: &Tally, files: usize, by: &str) -> Option<String> {
    let (llr, d, s) = t.sprt()?;
    if d == SprtDecision::Continue {
        return None;
    }
    let what = d.verdict();
    Some(format!(
        "{what}: LLR {llr:.3} ({:.3}, {:.3}) after {} games ({} pairs) in {files} records file{}; written by {by}\n",
        s.lower_bound(),
        s.upper_bound(),
        t.games,
        t.penta.pairs(),
        if files == 1 { "" } else { "s" }
    ))
}

/// Creates the stop file with `text` unless it exists (the first decision stays): written to a
/// temporary file beside it and linked into place, so a reader never sees it half written.
/// Returns false when it already existed.
pub fn write_stop_file(path: &Path, text: &str) -> Result<bool, String> {
    let shown = path.display();
    let tmp = path.with_file_name(format!(
        ".{}.{}.tmp",
        path.file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default(),
        std::process::id()
    ));
    std::fs::write(&tmp, text).map_err(|e| format!("--stop-file {shown}: {e}"))?;
    let linked = std::fs::hard_link(&tmp, path);
    let _ = std::fs::remove_file(&tmp);
    match linked {
        Ok(()) => Ok(true),
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => Ok(false),
        Err(e) => Err(format!("--stop-file {shown}: {e}")),
    }
}

/// `orrery stats FILE|DIR... --follow`: reads the files again every `poll` as they grow,
/// prints a line whenever the merged count changes, and ends with the full report when the SPRT
/// decides (writing `stop_file`, if given), when the stop file appears, or when every scheduled
/// game is recorded. Without `follow`, one look: the report, and the stop file written if the
/// SPRT has decided.
pub fn follow(req: &StatsRequest, out: &mut dyn std::io::Write) -> Result<(), String> {
    let mut m = MatchMerge::new(OtherMatches::Refuse);
    let mut seen = usize::MAX;
    loop {
        m.read_sources(&req.files, !req.follow)?;
        let t = m.tally(req.sprt)?;
        let mut end = !req.follow;
        if let Some(stop) = &req.stop_file {
            if let Some(text) = stop_text(&t, m.file_count(), "orrery stats") {
                if write_stop_file(stop, &text)? {
                    let _ = write!(out, "Wrote the stop file {}: {text}", stop.display());
                }
                end = true;
            } else if stop.exists() {
                let _ = writeln!(out, "The stop file {} exists", stop.display());
                end = true;
            }
        } else if t
            .sprt()
            .is_some_and(|(_, d, _)| d != SprtDecision::Continue)
        {
            end = true;
        }
        if m.settings()
            .is_some_and(|s| m.game_count() as u64 >= s.games)
        {
            end = true;
        }
        if end {
            let _ = write!(out, "{}{}", merged_line(&m), t.report());
            return Ok(());
        }
        if m.game_count() != seen {
            seen = m.game_count();
            let status = match t.sprt() {
                Some((llr, _, s)) => sprt_line(&s, llr),
                None => format!("Ptnml(0-2): {:?}", t.penta.0),
            };
            let _ = writeln!(out, "{} games in {} files: {status}", seen, m.file_count());
            let _ = out.flush();
        }
        std::thread::sleep(req.poll);
    }
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
