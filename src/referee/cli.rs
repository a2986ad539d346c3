//! The `orrery` command line: `orrery [match] [options]`, `orrery replay FILE`, `orrery stats
//! ...`, `orrery label ...`, parsed into a typed [`Command`]; every number is range-checked and
//! the openings file is read and checked whole before anything runs. With no `--engine`, the
//! project's own engine for the game is used (two instances, found next to the `orrery`
//! executable).

use std::path::PathBuf;
use std::time::Duration;

use super::adjudication::AdjudicationRules;
use super::clock::TimeControl;
use super::engine::{EngineSpec, Timeouts};
use super::game_kind::GameKind;
use super::game_runner::GameSettings;
use super::label::{LabelConfig, Scoring};
use super::match_runner::MatchConfig;
use super::schedule::{Opening, Shard};
use super::stats::Sprt;

/// What the command line asks for.
#[derive(Debug)]
pub enum Command {
    /// Run a match.
    Match(Box<MatchConfig>),
    /// Replay every game of a records file with the rules cores and check the results.
    Replay(PathBuf),
    /// Score the positions of recorded games with an engine: a labels file for `spider-chess
    /// tune --labels` (`orrery label`).
    Label(Box<LabelConfig>),
    /// Statistics of recorded games or of raw counts (`orrery stats`).
    Stats(StatsRequest),
    /// Run the built-in random-move engine on stdin/stdout.
    RandomEngine {
        /// Game.
        game: GameKind,
        /// Setup.
        setup: Option<String>,
        /// Seed.
        seed: u64,
    },
    /// Run the project's own engine for a game on stdin/stdout (`orrery engine spider-chess`);
    /// the fallback when the engine binary is not built next to `orrery`.
    Engine {
        /// The game.
        game: GameKind,
        /// Interactive Diagram definition files to offer too (`--variant`, Spider-Chess only).
        variants: Vec<PathBuf>,
    },
    /// Serve the board in a browser (`orrery gui ...`): the arguments after `gui`, parsed by
    /// [`crate::gui::parse_args`].
    Gui(Vec<String>),
    /// Print the usage text.
    Help,
}

/// What `orrery stats` is asked for.
#[derive(Clone, Debug, PartialEq)]
pub struct StatsRequest {
    /// Records files to merge (empty with `--penta` / `--wdl`).
    pub files: Vec<PathBuf>,
    /// Raw pentanomial counts (`--penta LL,LD,DD+WL,WD,WW`).
    pub penta: Option<[u64; 5]>,
    /// Raw game counts (`--wdl W,D,L`).
    pub wdl: Option<[u64; 3]>,
    /// SPRT to evaluate (else the one recorded in the files' settings, if any).
    pub sprt: Option<Sprt>,
    /// `--follow`: read the files again as they grow until the match is decided or complete.
    pub follow: bool,
    /// `--stop-file PATH`: written when the SPRT decides (the shards of the match stop).
    pub stop_file: Option<PathBuf>,
    /// `--poll MS`: how often `--follow` reads the files again.
    pub poll: Duration,
}

/// The usage text.
pub const USAGE: &str = "\
orrery: referee and match runner for Spider-Chess, Solar Chess, Space Wars (and toy games)

USAGE:
  orrery [match] [OPTIONS]        play a match (no options: a short built-in spider-chess match)
  orrery replay FILE.jsonl        replay recorded games with the rules and check their results
  orrery label [--variant FILE] [--engine SPEC] [--depth N | --nodes N | --static]
               [--step S] [--out FILE] RECORDS.jsonl...
                                  a labels file for spider-chess tune --labels: the positions
                                  after the engine moves of the recorded games (every S-th [1];
                                  in check, game over and repeated FENs left out), each scored
                                  by the engine (UCI; the project's own by default) with go depth
                                  N [1], go nodes N, or Stockfish's eval (--static), as White's
                                  centipawns; --out: the file [stdout]; also as for a match:
                                  --game spider-chess, --hang-timeout MS [10000] (per position),
                                  --handshake-timeout MS [10000]
  orrery stats FILE.jsonl|DIR... [--sprt SPEC] [--follow [--poll MS]] [--stop-file PATH]
                                  statistics of recorded games, files of one match merged
                                  (a directory: its *.jsonl files); --follow reads them again
                                  every MS [2000] until the SPRT decides, the stop file appears
                                  or every game is in; --stop-file: written when the SPRT decides
  orrery stats --penta LL,LD,DD,WD,WW [--sprt SPEC]
  orrery stats --wdl W,D,L [--sprt SPEC]
                                  Elo, LOS and SPRT of raw counts
  orrery engine GAME [--variant FILE]...
                                  the project's engine for GAME on stdin/stdout (--variant:
                                  also offer that Interactive Diagram variant, as spider-chess)
  orrery gui [--port N] [--engine SPEC]...
                                  the board in a browser: play and watch (orrery gui --help)
  orrery random-engine --game G [--setup S] [--seed N]
                                  a UCI-style engine playing random legal moves (baseline, tests)

MATCH OPTIONS (defaults in brackets):
  --game NAME            spider-chess | solar-chess | space-wars | tic-tac-toe | race
                         [spider-chess]
  --setup NAME           setup / variant / player count [solar-chess: duel, space-wars: 4,
                         race: 3]
  --variant FILE         spider-chess: load an Interactive Diagram definition as the setup named
                         after the file (repeatable; the first is the default setup); the
                         project's own engine gets it too (other engines: by name, UCI_Variant)
                         [none]
  --engine SPEC          name=N,cmd=CMD[,dir=D][,proto=uci|xboard][,option.NAME=VALUE]...
                         once per engine [none: the project's own engine, twice; proto uci]
  --each PARTS           parts added to every engine, e.g. option.Hash=16 [none]
  --games N              games in the match, 1..1000000000 [2]
  --tc B+I               clock per seat: base + increment in seconds, e.g. 10+0.1 [off]
  --movetime MS          fixed time per move, 1..86400000 ms [50 when no --tc/--nodes/--depth]
  --nodes N              fixed nodes per move (UCI go nodes), 1..1000000000000 [off]
  --depth N              fixed depth per move (UCI go depth, CECP sd), 1..1000 [off]
  --timemargin MS        grace before a time forfeit, 0..3600000 [100]
  --hang-timeout MS      wait for a --nodes/--depth answer, 1..86400000 [10000]
  --handshake-timeout MS wait for uciok/readyok/features/pong, 1..3600000 [10000]
  --concurrency K        games at once, 1..1024 [1]
  --seed S               match seed: random openings, deals [1]
  --openings FILE        one start per line (`<pos> [moves ...]`), cycled per block [off]
  --random-plies N       seeded random opening plies per block, 0..10000 [0]
  --maxplies N           adjudicate a draw after N plies, 1..1000000 [off: the games' own
                         rules end them]
  --resign movecount=N,score=CP     resign adjudication, two seats [off]
  --draw movenumber=N,movecount=M,score=CP  draw adjudication, two seats [off]
  --sprt elo0=E0,elo1=E1[,alpha=A][,beta=B][,model=logistic|normalized]
                         stop when the SPRT decides, two engines [off; alpha, beta 0.05;
                         logistic]
  --shard K/N            play the K-th of N parts of the match (K from 1); N shards together
                         play the unsharded match's games [off]
  --shard env/N          K from SLURM_ARRAY_TASK_ID (minus SLURM_ARRAY_TASK_MIN, divided by
                         SLURM_ARRAY_TASK_STEP, plus 1) or JOB_COMPLETION_INDEX (plus 1) [off]
  --stop-file PATH       stop (finishing the games in play) when PATH exists; with --sprt, write
                         it when the SPRT of every records file of the match in the --records
                         directory decides (needed with --shard and --sprt) [off]
  --pgn FILE             append PGN, chess games [off]
  --records FILE         append JSON lines; rerunning with the same file resumes [off]
  --live FILE            write every decision as it is played (watch: orrery gui --live
                         FILE) [off]
  --ratinginterval N     print statistics every N games, 0: at the end only [10]
  --quiet                no per-game and progress lines on stderr [off]
";

/// Parses an integer flag value within `min..=max`.
fn parse_int<T>(flag: &str, v: &str, min: T, max: T) -> Result<T, String>
where
    T: std::str::FromStr + PartialOrd + std::fmt::Display + Copy,
{
    match v.trim().parse::<T>() {
        Ok(n) if n >= min && n <= max => Ok(n),
        Ok(_) => Err(format!("{flag}: {v:?} is out of range ({min} to {max})")),
        Err(_) => Err(format!(
            "{flag}: {v:?} is not a valid number ({min} to {max})"
        )),
    }
}

/// Parses comma-separated counts (`--penta`, `--wdl`).
fn parse_counts<const N: usize>(flag: &str, v: &str) -> Result<[u64; N], String> {
    let parts: Vec<&str> = v.split(',').collect();
    if parts.len() != N {
        return Err(format!("{flag} {v:?}: give {N} counts separated by commas"));
    }
    let mut out = [0u64; N];
    for (o, p) in out.iter_mut().zip(parts) {
        *o = parse_int(flag, p, 0, 1_000_000_000_000)?;
    }
    if out.iter().all(|&c| c == 0) {
        return Err(format!("{flag} {v:?}: all counts are zero"));
    }
    Ok(out)
}

fn parse_stats(it: &mut dyn Iterator<Item = &String>) -> Result<Command, String> {
    let mut req = StatsRequest {
        files: Vec::new(),
        penta: None,
        wdl: None,
        sprt: None,
        follow: false,
        stop_file: None,
        poll: Duration::from_millis(2000),
    };
    while let Some(arg) = it.next() {
        let mut value = |flag: &str| {
            it.next()
                .cloned()
                .ok_or_else(|| format!("stats {flag}: missing value"))
        };
        match arg.as_str() {
            "--sprt" => req.sprt = Some(Sprt::parse(&value("--sprt")?)?),
            "--penta" => req.penta = Some(parse_counts("--penta", &value("--penta")?)?),
            "--wdl" => req.wdl = Some(parse_counts("--wdl", &value("--wdl")?)?),
            "--follow" => req.follow = true,
            "--stop-file" => req.stop_file = Some(PathBuf::from(value("--stop-file")?)),
            "--poll" => {
                let ms: u64 = parse_int("stats --poll", &value("--poll")?, 1, 3_600_000)?;
                req.poll = Duration::from_millis(ms);
            }
            f if f.starts_with("--") => {
                return Err(format!("stats: unknown option {f:?} (see orrery --help)"))
            }
            f => req.files.push(PathBuf::from(f)),
        }
    }
    let given = [
        !req.files.is_empty(),
        req.penta.is_some(),
        req.wdl.is_some(),
    ];
    if (req.follow || req.stop_file.is_some()) && req.files.is_empty() {
        return Err("stats: --follow and --stop-file are for records files".into());
    }
    match given.iter().filter(|&&g| g).count() {
        0 => Err("stats: give records files, --penta or --wdl".into()),
        1 => Ok(Command::Stats(req)),
        _ => Err("stats: give records files, --penta or --wdl, only one of them".into()),
    }
}

/// Reads a `--variant FILE` of a spider-chess command: registers the Interactive Diagram
/// definition under the file's name (its stem), which it gives.
fn load_variant(file: &str) -> Result<String, String> {
    let text = std::fs::read_to_string(file).map_err(|e| format!("--variant {file}: {e}"))?;
    let name = std::path::Path::new(file)
        .file_stem()
        .and_then(|s| s.to_str())
        .ok_or_else(|| format!("--variant {file}: no file name"))?
        .to_string();
    super::spider_game::register_variant(&name, &text)
        .map_err(|e| format!("--variant {file}: {e}"))?;
    Ok(name)
}

/// Passes the `--variant` files on to a built-in engine's command (each quoted for `sh -c`).
fn pass_variants<'a>(e: &mut EngineSpec, files: impl IntoIterator<Item = &'a String>) {
    for f in files {
        e.cmd
            .push_str(&format!(" --variant '{}'", f.replace('\'', "'\\''")));
    }
}

/// `orrery label [--game spider-chess] [--variant FILE] [--engine SPEC] [--depth N | --nodes N |
/// --static] [--step S] [--out FILE] [--hang-timeout MS] [--handshake-timeout MS] RECORDS...`.
fn parse_label(it: &mut dyn Iterator<Item = &String>) -> Result<Command, String> {
    let mut variant_file: Option<String> = None;
    let mut engine: Option<EngineSpec> = None;
    let mut scoring: Option<Scoring> = None;
    let mut step = 1usize;
    let mut out = None;
    let mut hang = 10_000u64;
    let mut handshake = 10_000u64;
    let mut records = Vec::new();
    let mut seen_flags = std::collections::HashSet::new();
    while let Some(arg) = it.next() {
        let flag = arg.as_str();
        if flag == "--help" || flag == "-h" {
            return Ok(Command::Help);
        }
        if !flag.starts_with("--") {
            records.push(PathBuf::from(flag));
            continue;
        }
        if !seen_flags.insert(flag.to_string()) {
            return Err(format!("label: {flag} is given twice"));
        }
        let mut set_scoring = |s: Scoring| match scoring.replace(s) {
            Some(_) => Err("label: give only one of --depth, --nodes, --static".to_string()),
            None => Ok(()),
        };
        if flag == "--static" {
            set_scoring(Scoring::Static)?;
            continue;
        }
        let value = it
            .next()
            .ok_or_else(|| format!("label {flag}: missing value"))?
            .as_str();
        let value_flag = format!("label {flag}");
        match flag {
            "--game" => {
                let game = GameKind::parse(value)?;
                if game != GameKind::SpiderChess {
                    return Err(format!(
                        "label: labels files are for spider-chess tune --labels, not {}",
                        game.name()
                    ));
                }
            }
            "--variant" => variant_file = Some(value.to_string()),
            "--engine" => engine = Some(EngineSpec::parse(value)?),
            "--depth" => set_scoring(Scoring::Depth(parse_int(&value_flag, value, 1, 1000)?))?,
            "--nodes" => set_scoring(Scoring::Nodes(parse_int(
                &value_flag,
                value,
                1,
                1_000_000_000_000,
            )?))?,
            "--step" => step = parse_int(&value_flag, value, 1, 1_000_000)?,
            "--out" => out = Some(PathBuf::from(value)),
            "--hang-timeout" => hang = parse_int(&value_flag, value, 1, 86_400_000)?,
            "--handshake-timeout" => handshake = parse_int(&value_flag, value, 1, 3_600_000)?,
            _ => {
                return Err(format!(
                    "label: unknown option {flag:?} (see orrery --help)"
                ))
            }
        }
    }
    if records.is_empty() {
        return Err("label: give one or more records files (orrery match --records)".into());
    }
    let setup = match &variant_file {
        Some(f) => load_variant(f)?,
        None => "spider-chess".to_string(),
    };
    let engine = match engine {
        Some(e) if e.proto != super::engine::Proto::Uci => {
            return Err(format!(
                "label: engine {} speaks xboard; labels need a UCI engine (its info scores, \
                 Stockfish's eval)",
                e.name
            ))
        }
        Some(e) => e,
        None => {
            let mut e = builtin_engines(GameKind::SpiderChess)?.swap_remove(0);
            e.name = "spider-chess".into();
            pass_variants(&mut e, &variant_file);
            e
        }
    };
    Ok(Command::Label(Box::new(LabelConfig {
        setup,
        engine,
        scoring: scoring.unwrap_or(Scoring::DEFAULT),
        step,
        out,
        records,
        hang: Duration::from_millis(hang),
        timeouts: Timeouts {
            handshake: Duration::from_millis(handshake),
        },
    })))
}

/// The project's own engine for `game`: the engine binary next to the running executable if it
/// is there, else `orrery engine <game>` (the same engine code, linked into `orrery`), so that
/// `cargo run` alone gives a real match. Paths are quoted for `sh -c`.
pub fn builtin_engines(game: GameKind) -> Result<Vec<EngineSpec>, String> {
    let bin = game.engine_binary().ok_or_else(|| {
        format!(
            "--game {} has no built-in engine; give --engine",
            game.name()
        )
    })?;
    let exe = std::env::current_exe().map_err(|e| format!("cannot locate orrery: {e}"))?;
    let dir = exe
        .parent()
        .ok_or("cannot locate the directory of orrery")?;
    let quote =
        |p: &std::path::Path| format!("'{}'", p.display().to_string().replace('\'', "'\\''"));
    let path = dir.join(bin);
    let quoted = if path.is_file() {
        quote(&path)
    } else {
        format!("{} engine {}", quote(&exe), game.name())
    };
    Ok((1..=2)
        .map(|i| EngineSpec {
            name: format!("{bin}-{i}"),
            cmd: quoted.clone(),
            dir: None,
            proto: super::engine::Proto::Uci,
            options: Vec::new(),
        })
        .collect())
}

/// Parses the arguments after the program name.
pub fn parse_args(args: &[String]) -> Result<Command, String> {
    let mut it = args.iter().peekable();
    match it.peek().map(|s| s.as_str()) {
        Some("match") => {
            it.next();
        }
        Some("replay") => {
            it.next();
            let f = it.next().ok_or("replay: give a records file")?;
            if let Some(extra) = it.next() {
                return Err(format!("replay: one records file only (got {extra:?} too)"));
            }
            return Ok(Command::Replay(PathBuf::from(f)));
        }
        Some("stats") => {
            it.next();
            return parse_stats(&mut it);
        }
        Some("label") => {
            it.next();
            return parse_label(&mut it);
        }
        Some("help" | "--help" | "-h") => return Ok(Command::Help),
        Some("gui") => return Ok(Command::Gui(it.skip(1).cloned().collect())),
        Some("engine") => {
            it.next();
            let g = it.next().ok_or("engine: give a game name")?;
            let game = GameKind::parse(g)?;
            let mut variants = Vec::new();
            while let Some(flag) = it.next() {
                match flag.as_str() {
                    "--variant" if game == GameKind::SpiderChess => variants.push(PathBuf::from(
                        it.next().ok_or("engine: --variant needs a file name")?,
                    )),
                    "--variant" => {
                        return Err("engine: --variant loads spider-chess variants".into())
                    }
                    _ => return Err(format!("engine: unknown option {flag:?}")),
                }
            }
            return Ok(Command::Engine { game, variants });
        }
        Some("random-engine") => {
            it.next();
            let (mut game, mut setup, mut seed) = (GameKind::TicTacToe, None, 1u64);
            while let Some(flag) = it.next() {
                let value = it.next().ok_or_else(|| format!("{flag}: missing value"))?;
                match flag.as_str() {
                    "--game" => game = GameKind::parse(value)?,
                    "--setup" => setup = Some(value.clone()),
                    "--seed" => seed = parse_int(flag, value, 0, u64::MAX)?,
                    _ => return Err(format!("random-engine: unknown option {flag:?}")),
                }
            }
            let setup = setup.or_else(|| game.default_setup().map(String::from));
            return Ok(Command::RandomEngine { game, setup, seed });
        }
        _ => {}
    }
    let mut game = GameKind::SpiderChess;
    let mut setup = None;
    let mut variant_files: Vec<String> = Vec::new();
    let mut engine_texts: Vec<String> = Vec::new();
    let mut each: Vec<String> = Vec::new();
    let mut games = 2u64;
    let mut tc: Option<TimeControl> = None;
    let mut margin = 100u64;
    let mut hang = 10_000u64;
    let mut handshake = 10_000u64;
    let mut concurrency = 1usize;
    let mut seed = 1u64;
    let mut openings_path: Option<PathBuf> = None;
    let mut random_plies = 0u32;
    let mut adjudication = AdjudicationRules::default();
    let mut sprt = None;
    let mut pgn = None;
    let mut records = None;
    let mut live = None;
    let mut rating_interval = 10u64;
    let mut progress = true;
    let mut shard = None;
    let mut stop_file = None;
    let mut seen_flags = std::collections::HashSet::new();
    while let Some(flag) = it.next() {
        let flag = flag.as_str();
        if flag == "--quiet" {
            progress = false;
            continue;
        }
        if flag == "--help" || flag == "-h" {
            return Ok(Command::Help);
        }
        if !matches!(flag, "--engine" | "--each" | "--variant")
            && !seen_flags.insert(flag.to_string())
        {
            return Err(format!("{flag} is given twice"));
        }
        let value = it
            .next()
            .ok_or_else(|| format!("{flag}: missing value"))?
            .as_str();
        let set_tc = |tc: &mut Option<TimeControl>, new: TimeControl| {
            if tc.is_some() {
                Err("give only one of --tc, --movetime, --nodes, --depth".to_string())
            } else {
                *tc = Some(new);
                Ok(())
            }
        };
        match flag {
            "--game" => game = GameKind::parse(value)?,
            "--setup" => setup = Some(value.to_string()),
            "--variant" => variant_files.push(value.to_string()),
            "--engine" => engine_texts.push(value.to_string()),
            "--each" => each.push(value.to_string()),
            "--games" => games = parse_int(flag, value, 1, 1_000_000_000)?,
            "--tc" => set_tc(&mut tc, TimeControl::parse_tc(value)?)?,
            "--movetime" => {
                let ms: u64 = parse_int(flag, value, 1, 86_400_000)?;
                set_tc(&mut tc, TimeControl::MoveTime(Duration::from_millis(ms)))?
            }
            "--nodes" => set_tc(
                &mut tc,
                TimeControl::Nodes(parse_int(flag, value, 1, 1_000_000_000_000)?),
            )?,
            "--depth" => set_tc(
                &mut tc,
                TimeControl::Depth(parse_int(flag, value, 1, 1000)?),
            )?,
            "--timemargin" => margin = parse_int(flag, value, 0, 3_600_000)?,
            "--hang-timeout" => hang = parse_int(flag, value, 1, 86_400_000)?,
            "--handshake-timeout" => handshake = parse_int(flag, value, 1, 3_600_000)?,
            "--concurrency" => concurrency = parse_int(flag, value, 1, 1024)?,
            "--seed" => seed = parse_int(flag, value, 0, u64::MAX)?,
            "--openings" => openings_path = Some(PathBuf::from(value)),
            "--random-plies" => random_plies = parse_int(flag, value, 0, 10_000)?,
            "--maxplies" => adjudication.max_plies = Some(parse_int(flag, value, 1, 1_000_000)?),
            "--resign" => adjudication.resign = Some(AdjudicationRules::parse_resign(value)?),
            "--draw" => adjudication.draw = Some(AdjudicationRules::parse_draw(value)?),
            "--sprt" => sprt = Some(Sprt::parse(value)?),
            "--pgn" => pgn = Some(PathBuf::from(value)),
            "--records" => records = Some(PathBuf::from(value)),
            "--live" => {
                let log = super::live::LiveLog::new(std::path::Path::new(value));
                live = Some(std::sync::Arc::new(log));
            }
            "--shard" => shard = Some(Shard::resolve(value, &|k| std::env::var(k).ok())?),
            "--stop-file" => stop_file = Some(PathBuf::from(value)),
            "--ratinginterval" => rating_interval = parse_int(flag, value, 0, u64::MAX)?,
            _ => return Err(format!("unknown option {flag:?} (see orrery --help)")),
        }
    }
    if shard.is_some() && sprt.is_some() && (stop_file.is_none() || records.is_none()) {
        return Err(
            "--sprt with --shard needs --stop-file and --records: the shards decide together on \
             the records files of the match in the --records directory"
                .into(),
        );
    }
    if !variant_files.is_empty() && game != GameKind::SpiderChess {
        return Err("--variant loads spider-chess variants: give --game spider-chess".into());
    }
    let mut variant_names = Vec::new();
    for file in &variant_files {
        variant_names.push(load_variant(file)?);
    }
    if setup.is_none() {
        setup = variant_names.first().cloned();
    }
    let builtin = engine_texts.is_empty();
    let mut engines = if builtin {
        let mut list = builtin_engines(game)?;
        for e in list.iter_mut() {
            pass_variants(e, &variant_files);
        }
        list
    } else {
        let mut v = Vec::new();
        for t in &engine_texts {
            v.push(EngineSpec::parse(t)?);
        }
        v
    };
    for extra in &each {
        for e in engines.iter_mut() {
            let merged = EngineSpec::parse(&format!("cmd=x,{extra}"))?;
            e.options.extend(merged.options);
            if extra.contains("proto=") {
                e.proto = merged.proto;
            }
        }
    }
    let mut seen = std::collections::HashSet::new();
    for e in &engines {
        if !seen.insert(e.name.clone()) {
            return Err(format!("two engines are named {:?}; give name=...", e.name));
        }
    }
    let setup = setup.or_else(|| game.default_setup().map(String::from));
    // Check the setup now, so that a bad --setup is a command-line error.
    game.new_game(setup.as_deref(), None, 0)
        .map_err(|e| format!("--setup: {e}"))?;
    let openings = match &openings_path {
        Some(p) => {
            let check = |o: &Opening| {
                super::game_runner::opening_game(game, setup.as_deref(), o, 0).map(|_| ())
            };
            Opening::read_file(p, &check)?
        }
        None => Vec::new(),
    };
    let settings = GameSettings {
        game,
        setup,
        engines,
        tc: tc.unwrap_or(TimeControl::MoveTime(Duration::from_millis(50))),
        margin: Duration::from_millis(margin),
        hang: Duration::from_millis(hang),
        timeouts: Timeouts {
            handshake: Duration::from_millis(handshake),
        },
        adjudication,
        openings,
        random_plies,
        live,
    };
    Ok(Command::Match(Box::new(MatchConfig {
        settings,
        games,
        concurrency,
        seed,
        pgn,
        records,
        sprt,
        rating_interval,
        progress,
        shard,
        stop_file,
    })))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(s: &str) -> Vec<String> {
        s.split_whitespace().map(String::from).collect()
    }

    #[test]
    fn parses_the_engine_command() {
        let Command::Engine { game, variants } =
            parse_args(&args("engine spider-chess --variant a.txt --variant b.txt")).unwrap()
        else {
            panic!("not an engine")
        };
        assert_eq!(game, GameKind::SpiderChess);
        assert_eq!(
            variants,
            vec![PathBuf::from("a.txt"), PathBuf::from("b.txt")]
        );
        for bad in [
            "engine",
            "engine chess-ish",
            "engine spider-chess --variant",
            "engine spider-chess extra",
            "engine space-wars --variant a.txt",
        ] {
            assert!(parse_args(&args(bad)).is_err(), "{bad}");
        }
    }

    #[test]
    fn parses_a_match() {
        let c = parse_args(&args(
            "match --game tic-tac-toe --engine name=a,cmd=x --engine name=b,cmd=y,proto=xboard \
             --each option.Hash=16 --games 10 --tc 1+0.01 --concurrency 2 --seed 5 \
             --sprt elo0=0,elo1=10,alpha=0.05,beta=0.1 --maxplies 50",
        ))
        .unwrap();
        let Command::Match(m) = c else {
            panic!("not a match")
        };
        assert_eq!(m.games, 10);
        assert_eq!(m.concurrency, 2);
        assert_eq!(m.settings.engines.len(), 2);
        assert_eq!(
            m.settings.engines[1].options,
            vec![("Hash".into(), "16".into())]
        );
        assert_eq!(m.sprt.unwrap().beta, 0.1);
        assert_eq!(
            m.sprt.unwrap().model,
            crate::referee::stats::EloModel::Logistic
        );
        assert_eq!(m.settings.adjudication.max_plies, Some(50));
    }

    #[test]
    fn refuses_bad_arguments() {
        for bad in [
            "--games x",
            "--tc 1+0 --movetime 5 --engine cmd=a",
            "--bogus 1",
            "--sprt elo0=5,elo1=0",
            "--engine name=a,cmd=x --engine name=a,cmd=y",
            "--game chess",
            "--games",
            "--concurrency 0 --engine cmd=a",
        ] {
            assert!(parse_args(&args(bad)).is_err(), "{bad}");
        }
        for (bad, needle) in [
            (
                "--games 0 --engine cmd=a",
                "--games: \"0\" is out of range (1 to 1000000000)",
            ),
            ("--games 18446744073709551616 --engine cmd=a", "--games"),
            (
                "--movetime 0 --engine cmd=a",
                "--movetime: \"0\" is out of range",
            ),
            (
                "--movetime 18446744073709551615 --engine cmd=a",
                "--movetime",
            ),
            ("--concurrency 100000 --engine cmd=a", "(1 to 1024)"),
            ("--random-plies 4294967296 --engine cmd=a", "--random-plies"),
            ("--maxplies 0 --engine cmd=a", "--maxplies"),
            ("--depth 0 --engine cmd=a", "--depth"),
            ("--nodes -1 --engine cmd=a", "--nodes"),
            ("--timemargin 99999999999 --engine cmd=a", "--timemargin"),
            ("--hang-timeout 0 --engine cmd=a", "--hang-timeout"),
            ("--seed -1 --engine cmd=a", "--seed"),
            (
                "--draw movenumber=4294967296,movecount=2,score=5 --engine cmd=a",
                "movenumber=\"4294967296\" must be an integer from 0 to 100000",
            ),
            ("--sprt elo0=0,elo1=inf --engine cmd=a", "--sprt"),
            ("--sprt elo0=0,elo1=5,model=bayes --engine cmd=a", "model"),
            (
                "--games 4 --games 6 --engine cmd=a",
                "--games is given twice",
            ),
            ("--tc 1+0 --depth 3 --engine cmd=a", "only one of"),
            ("--game race --setup 99 --engine cmd=a", "--setup"),
        ] {
            let e = parse_args(&args(bad)).unwrap_err();
            assert!(e.contains(needle), "{bad}: {e}");
        }
        assert!(matches!(parse_args(&args("--help")), Ok(Command::Help)));
    }

    #[test]
    fn default_is_a_builtin_spider_match() {
        let Command::Match(m) = parse_args(&[]).unwrap() else {
            panic!()
        };
        assert_eq!(m.settings.game, GameKind::SpiderChess);
        assert_eq!(m.games, 2);
        assert_eq!(m.settings.engines.len(), 2);
        assert!(m.settings.engines[0].cmd.contains("spider-chess"));
        assert_eq!(
            m.settings.adjudication.max_plies, None,
            "the games' own rules end them; no ply cap by default"
        );
    }

    #[test]
    fn every_match_option_states_its_default() {
        for line in USAGE.lines().filter(|l| l.trim_start().starts_with("--")) {
            let flag = line.split_whitespace().next().unwrap();
            // The option's line and its continuation lines (indented past the flags).
            let mut lines = USAGE.lines().skip_while(|l| !l.starts_with(line));
            let first = lines.next().unwrap_or_default().to_string();
            let block: String = std::iter::once(first)
                .chain(
                    lines
                        .take_while(|l| l.starts_with("                         "))
                        .map(String::from),
                )
                .collect();
            assert!(block.contains('['), "{flag} states no default: {line}");
        }
    }

    #[test]
    fn stats_arguments() {
        let Command::Stats(r) =
            parse_args(&args("stats --penta 1,2,3,4,5 --sprt elo0=0,elo1=5")).unwrap()
        else {
            panic!()
        };
        assert_eq!(r.penta, Some([1, 2, 3, 4, 5]));
        assert_eq!(r.sprt.unwrap().elo1, 5.0);
        let Command::Stats(f) = parse_args(&args("stats a.jsonl b.jsonl")).unwrap() else {
            panic!()
        };
        assert_eq!(f.files.len(), 2);
        for bad in [
            "stats",
            "stats --penta 1,2,3",
            "stats --penta 0,0,0,0,0",
            "stats --wdl 1,2,x",
            "stats a.jsonl --penta 1,1,1,1,1",
            "stats --bogus",
        ] {
            assert!(parse_args(&args(bad)).is_err(), "{bad}");
        }
    }

    #[test]
    fn label_arguments() {
        let Command::Label(c) = parse_args(&args(
            "label --engine name=fsf,cmd=fsf,option.Hash=32 --nodes 5000 --step 3 --out l.txt \
             a.jsonl b.jsonl",
        ))
        .unwrap() else {
            panic!("not label")
        };
        assert_eq!(c.setup, "spider-chess");
        assert_eq!(c.engine.name, "fsf");
        assert_eq!(c.scoring, Scoring::Nodes(5000));
        assert_eq!(c.step, 3);
        assert_eq!(c.out, Some(PathBuf::from("l.txt")));
        assert_eq!(c.records.len(), 2);
        let Command::Label(d) = parse_args(&args("label x.jsonl")).unwrap() else {
            panic!("not label")
        };
        assert_eq!(d.scoring, Scoring::Depth(1), "the documented default");
        assert_eq!(d.step, 1);
        assert!(d.engine.cmd.contains("spider-chess"), "{}", d.engine.cmd);
        let Command::Label(s) = parse_args(&args("label --static --game spider x.jsonl")).unwrap()
        else {
            panic!("not label")
        };
        assert_eq!(s.scoring, Scoring::Static);
        for (bad, needle) in [
            ("label", "give one or more records files"),
            ("label --depth 2 --static x.jsonl", "only one of"),
            ("label --depth 2 --nodes 9 x.jsonl", "only one of"),
            ("label --static --static x.jsonl", "given twice"),
            (
                "label --depth 0 x.jsonl",
                "label --depth: \"0\" is out of range",
            ),
            ("label --step 0 x.jsonl", "label --step"),
            ("label --step two x.jsonl", "not a valid number"),
            (
                "label --nodes x.jsonl",
                "label --nodes: \"x.jsonl\" is not a valid number",
            ),
            ("label x.jsonl --out", "missing value"),
            ("label --game solar-chess x.jsonl", "not solar-chess"),
            ("label --game chess x.jsonl", "unknown game"),
            ("label --bogus 1 x.jsonl", "unknown option \"--bogus\""),
            (
                "label --engine name=e,cmd=e,proto=xboard x.jsonl",
                "UCI engine",
            ),
            ("label --engine name=e x.jsonl", "cmd=... is required"),
            (
                "label --variant /nonexistent/v.txt x.jsonl",
                "--variant /nonexistent/v.txt",
            ),
        ] {
            let e = parse_args(&args(bad)).unwrap_err();
            assert!(e.contains(needle), "{bad}: {e}");
        }
    }

    #[test]
    fn variant_files_become_setups_and_reach_the_builtin_engine() {
        let dir = std::env::temp_dir().join(format!("orrery-cli-variant-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let file = dir.join("cli-minichess.txt");
        std::fs::write(
            &file,
            "files=5 ranks=5 pawn::fmWfcF::a2-e2 rook::::a1 king::K::e1",
        )
        .unwrap();
        let path = file.to_str().unwrap();
        let Command::Match(m) = parse_args(&args(&format!("--variant {path}"))).unwrap() else {
            panic!()
        };
        assert_eq!(m.settings.setup.as_deref(), Some("cli-minichess"));
        assert!(m.settings.engines[0]
            .cmd
            .ends_with(&format!("--variant '{path}'")));
        assert!(parse_args(&args(&format!("--game solar-chess --variant {path}"))).is_err());
        std::fs::write(&file, "files=5 ranks=5 rook:R:tR::a1 king::K::e1").unwrap();
        let err = parse_args(&args(&format!("--variant {path}"))).unwrap_err();
        assert!(err.contains("tR"), "{err}");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
