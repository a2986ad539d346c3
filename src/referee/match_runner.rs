//! Runs a whole match: checks that every engine starts and takes its options (before any game,
//! so a bad command or option is an error with the engine's own words, not a list of lost
//! games), opens the records file (resume: games already recorded are counted and skipped; a
//! file of another match is refused), plays the scheduled games on `concurrency` threads,
//! appends each record (JSON lines, PGN), prints the progress line on stderr and the statistics
//! at intervals and at the end, and stops early when the SPRT decides.

use std::collections::HashSet;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Arc, Mutex};

use super::engine::{EngineClient, GameContext, Proto};
use super::game_runner::{play_game, GameSettings};
use super::match_settings::MatchSettings;
use super::merge::{MatchMerge, OtherMatches};
use super::progress::Progress;
use super::records::{pgn, GameRecord, RecordsWriter};
use super::schedule::{GameJob, Schedule, Shard};
use super::stats::{sprt_line, Sprt, SprtDecision};
use super::stats_report::{stop_text, write_stop_file};
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
    /// Play only this part of the schedule.
    pub shard: Option<Shard>,
    /// Stop (finishing the games in play) when this file exists; with an SPRT, written when the
    /// merged SPRT of the match's records files decides.
    pub stop_file: Option<PathBuf>,
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
    /// The stop file appeared (written by this run, another shard or `orrery stats`) and the
    /// run stopped after the games in play.
    pub stopped_by_file: bool,
}

/// Number of seats the configured game has.
pub fn seat_count(s: &GameSettings) -> Result<usize, String> {
    Ok(s.game.new_game(s.setup.as_deref(), None, 0)?.seats())
}

/// Checks the match's shape: engines for the seats, CECP only for two seats and with a limit
/// it can express.
fn check_shape(s: &GameSettings, seats: usize) -> Result<(), String> {
    if s.engines.is_empty() {
        return Err("no engines".into());
    }
    if s.engines.len() > seats && seats != 2 {
        return Err(format!(
            "{} engines for {seats} seats: more engines than seats is supported for two-seat games only",
            s.engines.len()
        ));
    }
    for e in s.engines.iter().filter(|e| e.proto == Proto::Xboard) {
        if seats > 2 {
            return Err(format!(
                "engine {}: CECP (xboard) is for two-seat games only",
                e.name
            ));
        }
        if matches!(s.tc, super::clock::TimeControl::Nodes(_)) {
            return Err(format!(
                "engine {}: CECP (xboard) has no node limit; use --depth, --movetime or --tc",
                e.name
            ));
        }
    }
    Ok(())
}

/// Starts every engine once as it would start for a game (handshake, options, variant,
/// `ucinewgame`/`isready` or CECP `ping`), all at once, and stops it again. The first failure is
/// an error naming the engine, with its own reason (and the tail of its stderr for a crash).
pub fn preflight(s: &GameSettings) -> Result<(), String> {
    let variant = s.game.variant(s.setup.as_deref());
    let seats = seat_count(s)?;
    let results: Vec<Result<(), String>> = std::thread::scope(|scope| {
        let handles: Vec<_> = s
            .engines
            .iter()
            .map(|spec| {
                let ctx = GameContext {
                    variant: variant.clone(),
                    seat: 0,
                    seats,
                };
                scope.spawn(move || match EngineClient::start(spec, &ctx, s.timeouts) {
                    Ok(c) => {
                        c.finish();
                        Ok(())
                    }
                    Err(f) => Err(format!(
                        "engine {} (cmd={}) failed before the first game: {}",
                        spec.name,
                        spec.cmd,
                        f.describe()
                    )),
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| {
                h.join()
                    .unwrap_or_else(|_| Err("engine check panicked".into()))
            })
            .collect()
    });
    results.into_iter().collect()
}

/// Runs the match; statistics go to `out`, the progress line to stderr.
pub fn run_match(cfg: &MatchConfig, out: &mut dyn Write) -> Result<MatchSummary, String> {
    let s = &cfg.settings;
    let seats = seat_count(s)?;
    check_shape(s, seats)?;
    let names: Vec<String> = s.engines.iter().map(|e| e.name.clone()).collect();
    let mut tally = Tally::new(names, seats, cfg.sprt);
    let settings = MatchSettings::of(cfg);
    let (mut writer, existing) = match &cfg.records {
        Some(p) => {
            let (w, f) = RecordsWriter::open(p, &settings)?;
            (Some(w), f.games)
        }
        None => (None, Vec::new()),
    };
    let schedule = Schedule::new(cfg.games, s.engines.len(), seats, cfg.seed);
    let mut done: HashSet<u64> = HashSet::new();
    for r in &existing {
        let in_shard = cfg.shard.is_none_or(|sh| sh.has_block(r.block));
        if r.id < cfg.games && in_shard && done.insert(r.id) {
            tally.add(r);
        }
    }
    let resumed = done.len() as u64;
    let to_play = schedule
        .ids(cfg.shard)
        .filter(|id| !done.contains(id))
        .take(1)
        .count();
    let total = match cfg.shard {
        Some(sh) => schedule.ids(Some(sh)).count() as u64,
        None => cfg.games,
    };
    let mut progress = Progress::new(total, resumed);
    let mut played = Vec::new();
    // With a shared stop file and records, the SPRT is decided on every records file of the
    // match in the records' directory (the shards of one match), not on this run's games alone.
    let mut merged = match (&cfg.stop_file, &cfg.records, cfg.sprt) {
        (Some(_), Some(p), Some(_)) => {
            let dir = match p.parent() {
                Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
                _ => PathBuf::from("."),
            };
            let m = MatchMerge::of_match(
                OtherMatches::Skip,
                settings.clone(),
                &p.display().to_string(),
            );
            Some((m, dir))
        }
        _ => None,
    };
    let by = match cfg.shard {
        Some(sh) => format!("orrery match --shard {sh}"),
        None => "orrery match".to_string(),
    };
    let mut decision = match merged.as_mut() {
        Some((m, dir)) => merged_decision(m, dir, cfg, &by)?,
        None => crossed_bound(&tally).map(|(d, _)| d),
    };
    // Where this match's own SPRT crossed a bound: games counted then and the LLR.
    let mut crossed = None;
    let stopped_by_file = Arc::new(AtomicBool::new(false));
    let stop_file_exists = |f: &AtomicBool| {
        let seen = cfg.stop_file.as_ref().is_some_and(|p| p.exists());
        if seen {
            f.store(true, Ordering::SeqCst);
        }
        seen
    };
    if decision.is_none() && to_play > 0 && !stop_file_exists(&stopped_by_file) {
        preflight(s)?;
        let done = Arc::new(done);
        let pending = {
            let done = Arc::clone(&done);
            let schedule = schedule.clone();
            schedule
                .ids(cfg.shard)
                .filter(move |id| !done.contains(id))
                .map(move |id| schedule.job(id))
        };
        let queue: Arc<Mutex<Box<dyn Iterator<Item = GameJob> + Send>>> =
            Arc::new(Mutex::new(Box::new(pending)));
        let stop = Arc::new(AtomicBool::new(false));
        let (tx, rx) = mpsc::channel();
        let workers = (cfg.concurrency.max(1) as u64).min(total.max(1)) as usize;
        let mut handles = Vec::new();
        for _ in 0..workers {
            let queue = Arc::clone(&queue);
            let stop = Arc::clone(&stop);
            let tx = tx.clone();
            let settings = s.clone();
            let stop_file = cfg.stop_file.clone();
            let by_file = Arc::clone(&stopped_by_file);
            handles.push(std::thread::spawn(move || loop {
                if stop.load(Ordering::SeqCst) {
                    break;
                }
                // Checked before every game: a stop file ends the run after the games in play.
                if stop_file.as_ref().is_some_and(|p| p.exists()) {
                    by_file.store(true, Ordering::SeqCst);
                    break;
                }
                let job = match queue.lock().unwrap_or_else(|e| e.into_inner()).next() {
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
        let mut first_error: Option<String> = None;
        for result in rx {
            if first_error.is_some() {
                // Stopping: games still finishing are not recorded (a rerun plays them).
                continue;
            }
            let rec = match result {
                Ok(r) => r,
                Err(e) => {
                    stop.store(true, Ordering::SeqCst);
                    first_error = Some(e);
                    continue;
                }
            };
            if let Err(e) = record_game(cfg, &mut writer, &rec) {
                stop.store(true, Ordering::SeqCst);
                first_error = Some(format!(
                    "{e}; {} games were recorded, rerun the same command to resume",
                    resumed + played.len() as u64
                ));
                continue;
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
            // The decision, with the LLR when it is this match's own (not merged records').
            let now = match merged.as_mut() {
                Some((m, dir)) => merged_decision(m, dir, cfg, &by).map(|d| d.map(|d| (d, None))),
                None => {
                    let d = crossed_bound(&tally).map(|(d, llr)| (d, Some(llr)));
                    match (&cfg.stop_file, stop_text(&tally, 1, &by)) {
                        (Some(p), Some(text)) => write_stop_file(p, &text).map(|_| d),
                        _ => Ok(d),
                    }
                }
            };
            let now = match now {
                Ok(d) => d,
                Err(e) => {
                    stop.store(true, Ordering::SeqCst);
                    first_error = Some(e);
                    continue;
                }
            };
            if let (Some((d, llr)), None) = (now, decision) {
                decision = Some(d);
                crossed = llr.map(|llr| (tally.games, llr));
                stop.store(true, Ordering::SeqCst);
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
    if let Some((m, _)) = &merged {
        if let Ok(t) = m.tally(cfg.sprt) {
            if let Some((llr, _, s)) = t.sprt() {
                let _ = writeln!(
                    out,
                    "Merged over {} records files of the match, {} games: {}",
                    m.file_count(),
                    t.games,
                    sprt_line(&s, llr)
                );
            }
        }
    }
    let by_file = stopped_by_file.load(Ordering::SeqCst) && decision.is_none();
    if by_file {
        let path = cfg.stop_file.as_ref().expect("stop file");
        let text = std::fs::read_to_string(path).unwrap_or_default();
        let _ = writeln!(
            out,
            "Stopped by the stop file {}: {}",
            path.display(),
            text.lines().next().unwrap_or("(empty)")
        );
    }
    if let Some(d) = decision {
        // Games already running when the bound was crossed are finished and counted in the
        // report above, so its LLR can differ from the one that stopped the match.
        let at = crossed.map_or(String::new(), |(games, llr)| {
            format!(
                " at game {games} (LLR {llr:.3}); the games already running were finished and \
                 are counted above"
            )
        });
        let _ = writeln!(out, "SPRT stopped the match: {}{at}", d.verdict());
    }
    Ok(MatchSummary {
        tally,
        played,
        resumed,
        sprt_decision: decision,
        stopped_by_file: by_file,
    })
}

/// The live SPRT's decision and LLR once the tally has crossed a bound.
fn crossed_bound(t: &Tally) -> Option<(SprtDecision, f64)> {
    t.sprt()
        .filter(|(_, d, _)| *d != SprtDecision::Continue)
        .map(|(llr, d, _)| (d, llr))
}

/// Reads the match's records files in `dir` on, and when their merged SPRT decides writes the
/// stop file (unless another shard was first) and returns the decision.
fn merged_decision(
    m: &mut MatchMerge,
    dir: &Path,
    cfg: &MatchConfig,
    by: &str,
) -> Result<Option<SprtDecision>, String> {
    m.read_sources(&[dir.to_path_buf()], false)?;
    let t = m.tally(cfg.sprt)?;
    let Some(text) = stop_text(&t, m.file_count(), by) else {
        return Ok(None);
    };
    if let Some(p) = &cfg.stop_file {
        write_stop_file(p, &text)?;
    }
    Ok(t.sprt().map(|(_, d, _)| d))
}

/// Writes one finished game: its JSON record (one write, flushed to disk) and, for chess
/// games, its PGN (one write).
fn record_game(
    cfg: &MatchConfig,
    writer: &mut Option<RecordsWriter>,
    rec: &GameRecord,
) -> Result<(), String> {
    if let Some(w) = writer.as_mut() {
        w.append(rec)?;
    }
    if let (Some(p), true) = (&cfg.pgn, cfg.settings.game.is_chess()) {
        let text = pgn(
            rec,
            "orrery match",
            cfg.settings
                .game
                .pgn_variant_of(cfg.settings.setup.as_deref())
                .as_deref(),
        );
        std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(p)
            .and_then(|mut f| f.write_all(text.as_bytes()))
            .map_err(|e| format!("--pgn {}: {e}", p.display()))?;
    }
    Ok(())
}
