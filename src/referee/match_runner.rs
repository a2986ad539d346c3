//! Runs a whole match: schedules the games, plays them on `concurrency` threads, appends each
//! record (JSON lines, PGN), skips games already in the records file (resume), prints the
//! progress line on stderr and the statistics at intervals and at the end, and stops early when
//! the SPRT decides.

use std::collections::HashSet;
use std::io::Write;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Arc, Mutex};

use super::game_runner::{play_game, GameSettings};
use super::progress::Progress;
use super::records::{append_record, pgn, read_records, GameRecord};
use super::schedule::schedule;
use super::stats::{Sprt, SprtDecision};
use super::tally::Tally;

/// A whole match as configured on the command line.
#[derive(Clone, Debug)]
pub struct MatchConfig {
    /// Per-game settings.
    pub settings: GameSettings,
    /// Number of games.
    pub games: u64,
    /// Games played at once.
    pub concurrency: usize,
    /// Match seed (openings, deals).
    pub seed: u64,
    /// PGN output (chess games only).
    pub pgn: Option<PathBuf>,
    /// JSON-lines records; also the resume source.
    pub records: Option<PathBuf>,
    /// SPRT settings (two engines, two seats).
    pub sprt: Option<Sprt>,
    /// Print statistics every this many games (0: only at the end).
    pub rating_interval: u64,
    /// Print the progress line on stderr.
    pub progress: bool,
}

/// What a finished match returns.
#[derive(Debug)]
pub struct MatchSummary {
    /// Final statistics.
    pub tally: Tally,
    /// Records of the games played in this run (resumed ones are in the file).
    pub played: Vec<GameRecord>,
    /// Games found already recorded and skipped.
    pub resumed: u64,
    /// Set when the SPRT ended the match early.
    pub sprt_decision: Option<SprtDecision>,
}

/// Number of seats the configured game has.
pub fn seat_count(s: &GameSettings) -> Result<usize, String> {
    Ok(s.game.new_game(s.setup.as_deref(), None, 0)?.seats())
}

/// Runs the match; statistics go to `out`, the progress line to stderr.
pub fn run_match(cfg: &MatchConfig, out: &mut dyn Write) -> Result<MatchSummary, String> {
    let s = &cfg.settings;
    if s.engines.is_empty() {
        return Err("no engines".into());
    }
    let seats = seat_count(s)?;
    if s.engines.len() > seats && seats != 2 {
        return Err(format!(
            "{} engines for {seats} seats: more engines than seats is supported for two-seat games only",
            s.engines.len()
        ));
    }
    if seats > 2 {
        if let Some(e) = s
            .engines
            .iter()
            .find(|e| e.proto == super::engine::Proto::Xboard)
        {
            return Err(format!(
                "engine {}: CECP (xboard) is for two-seat games only",
                e.name
            ));
        }
    }
    let names: Vec<String> = s.engines.iter().map(|e| e.name.clone()).collect();
    let mut tally = Tally::new(names, seats, cfg.sprt);
    let existing = match &cfg.records {
        Some(p) => read_records(p)?,
        None => Vec::new(),
    };
    let mut done: HashSet<u64> = HashSet::new();
    for r in &existing {
        if r.game != s.game.name() || r.ranks.len() != seats {
            return Err(format!(
                "records file holds game {} with {} seats; this match is {} with {seats}",
                r.game,
                r.ranks.len(),
                s.game.name()
            ));
        }
        if r.id < cfg.games && done.insert(r.id) {
            tally.add(r);
        }
    }
    let resumed = done.len() as u64;
    let jobs: Vec<_> = schedule(cfg.games, s.engines.len(), seats, cfg.seed)
        .into_iter()
        .filter(|j| !done.contains(&j.id))
        .collect();
    let mut progress = Progress::new(cfg.games, resumed);
    let mut played = Vec::new();
    let mut decision = tally
        .sprt()
        .map(|(_, d, _)| d)
        .filter(|d| *d != SprtDecision::Continue);
    if decision.is_none() && !jobs.is_empty() {
        let queue = Arc::new(Mutex::new(jobs.into_iter()));
        let stop = Arc::new(AtomicBool::new(false));
        let (tx, rx) = mpsc::channel();
        let workers = cfg.concurrency.max(1);
        let mut handles = Vec::new();
        for _ in 0..workers {
            let queue = Arc::clone(&queue);
            let stop = Arc::clone(&stop);
            let tx = tx.clone();
            let settings = s.clone();
            handles.push(std::thread::spawn(move || loop {
                if stop.load(Ordering::SeqCst) {
                    break;
                }
                let job = match queue.lock().expect("queue lock").next() {
                    Some(j) => j,
                    None => break,
                };
                let result = play_game(&settings, &job);
                if tx.send(result).is_err() {
                    break;
                }
            }));
        }
        drop(tx);
        let mut first_error = None;
        for result in rx {
            let rec = match result {
                Ok(r) => r,
                Err(e) => {
                    stop.store(true, Ordering::SeqCst);
                    first_error.get_or_insert(e);
                    continue;
                }
            };
            if let Some(p) = &cfg.records {
                append_record(p, &rec).map_err(|e| format!("{}: {e}", p.display()))?;
            }
            if let (Some(p), true) = (&cfg.pgn, s.game.is_chess()) {
                let text = pgn(
                    &rec,
                    "orrery match",
                    s.game.pgn_variant_of(s.setup.as_deref()).as_deref(),
                );
                std::fs::OpenOptions::new()
                    .create(true)
                    .append(true)
                    .open(p)
                    .and_then(|mut f| f.write_all(text.as_bytes()))
                    .map_err(|e| format!("{}: {e}", p.display()))?;
            }
            tally.add(&rec);
            progress.game_done();
            if cfg.progress {
                eprintln!(
                    "game {} ({}): {} {}",
                    rec.id + 1,
                    rec.engines.join(" vs "),
                    rec.result,
                    rec.reason
                );
                eprintln!("{}", progress.line(&tally));
            }
            played.push(rec);
            if cfg.rating_interval > 0 && tally.games.is_multiple_of(cfg.rating_interval) {
                let _ = write!(out, "{}", tally.report());
            }
            if let Some((_, d, _)) = tally.sprt() {
                if d != SprtDecision::Continue && decision.is_none() {
                    decision = Some(d);
                    stop.store(true, Ordering::SeqCst);
                }
            }
        }
        for h in handles {
            let _ = h.join();
        }
        if let Some(e) = first_error {
            return Err(e);
        }
    }
    let _ = writeln!(out, "Finished: {} games", tally.games);
    let _ = write!(out, "{}", tally.report());
    if let Some(d) = decision {
        let _ = writeln!(
            out,
            "SPRT stopped the match: {}",
            if d == SprtDecision::H1 {
                "H1 accepted"
            } else {
                "H0 accepted"
            }
        );
    }
    Ok(MatchSummary {
        tally,
        played,
        resumed,
        sprt_decision: decision,
    })
}
