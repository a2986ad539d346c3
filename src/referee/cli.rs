//! The `orrery` command line: `orrery [match] [options]` and `orrery replay FILE`, parsed into a
//! typed [`Command`]. With no `--engine`, the project's own engine for the game is used (two
//! instances, found next to the `orrery` executable).

use std::path::PathBuf;
use std::time::Duration;

use super::adjudication::AdjudicationRules;
use super::clock::TimeControl;
use super::engine::{EngineSpec, Timeouts};
use super::game_kind::GameKind;
use super::game_runner::GameSettings;
use super::match_runner::MatchConfig;
use super::schedule::Opening;
use super::stats::Sprt;

/// What the command line asks for.
#[derive(Debug)]
pub enum Command {
    /// Run a match.
    Match(Box<MatchConfig>),
    /// Replay every game of a records file with the rules cores and check the results.
    Replay(PathBuf),
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
    Engine(GameKind),
    /// Serve the board in a browser (`orrery gui ...`): the arguments after `gui`, parsed by
    /// [`crate::gui::parse_args`].
    Gui(Vec<String>),
    /// Print the usage text.
    Help,
}

/// The usage text.
pub const USAGE: &str = "\
orrery: referee and match runner for Spider-Chess, Solar Chess, Space Wars (and toy games)

USAGE:
  orrery [match] [OPTIONS]        play a match (no options: a short built-in spider-chess match)
  orrery replay FILE.jsonl        replay recorded games with the rules and check their results
  orrery engine GAME              the project's engine for GAME on stdin/stdout
  orrery gui [--port N] [--engine SPEC]...
                                  the board in a browser: play and watch (orrery gui --help)
  orrery random-engine --game G [--setup S] [--seed N]
                                  a UCI-style engine playing random legal moves (baseline, tests)

OPTIONS:
  --game NAME            spider-chess (default) | solar-chess | space-wars | tic-tac-toe | race
  --setup NAME           setup / variant / player count (solar: duel, six, ...; space-wars: 2..8)
  --variant FILE         spider-chess: load an Interactive Diagram definition as the setup named
                         after the file (repeatable; the first is the default setup); the
                         project's own engine gets it too (other engines: by name, UCI_Variant)
  --engine SPEC          name=N,cmd=CMD[,dir=D][,proto=uci|xboard][,option.NAME=VALUE]...
                         (repeat per engine; none: the project's own engine, twice)
  --each PARTS           parts added to every engine (e.g. option.Hash=16,proto=uci)
  --games N              number of games (default 2)
  --tc B+I               clock: base seconds + increment seconds (e.g. 10+0.1)
  --movetime MS          fixed time per move (default 50 when no --tc/--nodes)
  --nodes N              fixed nodes per move
  --timemargin MS        grace before a time forfeit (default 100)
  --hang-timeout MS      wait for node-limited answers (default 10000)
  --handshake-timeout MS wait for uciok/readyok/features (default 10000)
  --concurrency K        games at once (default 1)
  --seed S               match seed: random openings, deals (default 1)
  --openings FILE        one start position per line (`<pos> [moves ...]`), cycled per block
  --random-plies N       random opening plies per block (seeded)
  --maxplies N           adjudicate a draw after N plies
  --resign movecount=N,score=CP     resign adjudication (two seats)
  --draw movenumber=N,movecount=M,score=CP  draw adjudication (two seats)
  --sprt elo0=E0,elo1=E1,alpha=A,beta=B     stop when the SPRT decides (two engines)
  --pgn FILE             append PGN (chess games)
  --records FILE         append JSON lines; rerunning with the same file resumes
  --live FILE            write every decision as it is played (watch: orrery gui --live FILE)
  --ratinginterval N     print statistics every N games (default 10, 0: end only)
  --quiet                no progress line on stderr
";

fn parse_num<T: std::str::FromStr>(flag: &str, v: &str) -> Result<T, String> {
    v.parse()
        .map_err(|_| format!("{flag}: {v:?} is not a valid number"))
}

fn parse_sprt(text: &str) -> Result<Sprt, String> {
    let mut vals = [None; 4];
    let keys = ["elo0", "elo1", "alpha", "beta"];
    for part in text.split(',') {
        let (k, v) = part
            .split_once('=')
            .ok_or_else(|| format!("--sprt {text:?}: expected key=value"))?;
        let i = keys
            .iter()
            .position(|x| *x == k.trim())
            .ok_or_else(|| format!("--sprt {text:?}: unknown key {k:?}"))?;
        vals[i] = Some(parse_num::<f64>("--sprt", v.trim())?);
    }
    let alpha = vals[2].unwrap_or(0.05);
    let beta = vals[3].unwrap_or(0.05);
    let (Some(elo0), Some(elo1)) = (vals[0], vals[1]) else {
        return Err(format!("--sprt {text:?}: elo0 and elo1 are required"));
    };
    let in_range = |x: f64| 0.0 < x && x < 0.5;
    if elo0 >= elo1 || elo0.is_nan() || elo1.is_nan() || !in_range(alpha) || !in_range(beta) {
        return Err(format!(
            "--sprt {text:?}: need elo0 < elo1 and alpha, beta in (0, 0.5)"
        ));
    }
    Ok(Sprt {
        elo0,
        elo1,
        alpha,
        beta,
    })
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
            return Ok(Command::Replay(PathBuf::from(f)));
        }
        Some("help" | "--help" | "-h") => return Ok(Command::Help),
        Some("gui") => return Ok(Command::Gui(it.skip(1).cloned().collect())),
        Some("engine") => {
            it.next();
            let g = it.next().ok_or("engine: give a game name")?;
            return Ok(Command::Engine(GameKind::parse(g)?));
        }
        Some("random-engine") => {
            it.next();
            let (mut game, mut setup, mut seed) = (GameKind::TicTacToe, None, 1u64);
            while let Some(flag) = it.next() {
                let value = it.next().ok_or_else(|| format!("{flag}: missing value"))?;
                match flag.as_str() {
                    "--game" => game = GameKind::parse(value)?,
                    "--setup" => setup = Some(value.clone()),
                    "--seed" => seed = parse_num(flag, value)?,
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
    let mut openings = Vec::new();
    let mut random_plies = 0u32;
    let mut adjudication = AdjudicationRules::default();
    let mut sprt = None;
    let mut pgn = None;
    let mut records = None;
    let mut live = None;
    let mut rating_interval = 10u64;
    let mut progress = true;
    while let Some(flag) = it.next() {
        let flag = flag.as_str();
        if flag == "--quiet" {
            progress = false;
            continue;
        }
        if flag == "--help" || flag == "-h" {
            return Ok(Command::Help);
        }
        let value = it
            .next()
            .ok_or_else(|| format!("{flag}: missing value"))?
            .as_str();
        let set_tc = |tc: &mut Option<TimeControl>, new: TimeControl| {
            if tc.is_some() {
                Err("give only one of --tc, --movetime, --nodes".to_string())
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
            "--games" => games = parse_num(flag, value)?,
            "--tc" => set_tc(&mut tc, TimeControl::parse_tc(value)?)?,
            "--movetime" => {
                let ms: u64 = parse_num(flag, value)?;
                set_tc(&mut tc, TimeControl::MoveTime(Duration::from_millis(ms)))?
            }
            "--nodes" => set_tc(&mut tc, TimeControl::Nodes(parse_num(flag, value)?))?,
            "--timemargin" => margin = parse_num(flag, value)?,
            "--hang-timeout" => hang = parse_num(flag, value)?,
            "--handshake-timeout" => handshake = parse_num(flag, value)?,
            "--concurrency" => concurrency = parse_num(flag, value)?,
            "--seed" => seed = parse_num(flag, value)?,
            "--openings" => openings = Opening::read_file(std::path::Path::new(value))?,
            "--random-plies" => random_plies = parse_num(flag, value)?,
            "--maxplies" => adjudication.max_plies = Some(parse_num(flag, value)?),
            "--resign" => adjudication.resign = Some(AdjudicationRules::parse_resign(value)?),
            "--draw" => adjudication.draw = Some(AdjudicationRules::parse_draw(value)?),
            "--sprt" => sprt = Some(parse_sprt(value)?),
            "--pgn" => pgn = Some(PathBuf::from(value)),
            "--records" => records = Some(PathBuf::from(value)),
            "--live" => {
                let log = super::live::LiveLog::new(std::path::Path::new(value));
                live = Some(std::sync::Arc::new(log));
            }
            "--ratinginterval" => rating_interval = parse_num(flag, value)?,
            _ => return Err(format!("unknown option {flag:?} (see orrery --help)")),
        }
    }
    if concurrency == 0 {
        return Err("--concurrency must be at least 1".into());
    }
    if !variant_files.is_empty() && game != GameKind::SpiderChess {
        return Err("--variant loads spider-chess variants: give --game spider-chess".into());
    }
    let mut variant_names = Vec::new();
    for file in &variant_files {
        let text = std::fs::read_to_string(file).map_err(|e| format!("--variant {file}: {e}"))?;
        let name = std::path::Path::new(file)
            .file_stem()
            .and_then(|s| s.to_str())
            .ok_or_else(|| format!("--variant {file}: no file name"))?
            .to_string();
        super::spider_game::register_variant(&name, &text)
            .map_err(|e| format!("--variant {file}: {e}"))?;
        variant_names.push(name);
    }
    if setup.is_none() {
        setup = variant_names.first().cloned();
    }
    let builtin = engine_texts.is_empty();
    let mut engines = if builtin {
        if adjudication.max_plies.is_none() {
            adjudication.max_plies = Some(200);
        }
        let mut list = builtin_engines(game)?;
        for e in list.iter_mut() {
            for file in &variant_files {
                e.cmd
                    .push_str(&format!(" --variant '{}'", file.replace('\'', "'\\''")));
            }
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
    })))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(s: &str) -> Vec<String> {
        s.split_whitespace().map(String::from).collect()
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
