//! `orrery`: the referee and match runner. `orrery` alone plays a short built-in match; see
//! `orrery --help` and docs/orrery.md.

use orrery::engines::spider::{load_variant_file, offered_variants, SpiderEngine};
use orrery::protocol::{run_stdio, DEFAULT_HASH_MIB};
use orrery::referee::cli::{parse_args, Command, USAGE};
use orrery::referee::game_kind::GameKind;
use orrery::referee::game_runner::replay;
use orrery::referee::match_runner::run_match;
use orrery::referee::records::read_records;

fn main() {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn"))
        .target(env_logger::Target::Stderr)
        .init();
    // Engines run in process groups of their own, so Ctrl-C at the terminal reaches only
    // `orrery`: on SIGINT, SIGTERM or SIGHUP it kills every engine's group and exits. Records
    // stay valid: each is one write, and a rerun cuts an unfinished last line.
    let wait_for_signal = orrery::referee::unix::block_stop_signals();
    std::thread::spawn(move || {
        let sig = wait_for_signal();
        orrery::referee::engine_process::kill_all_engines();
        eprintln!(
            "orrery: stopped by signal {sig}; engines ended. Finished games are recorded; \
             rerun the same command to resume"
        );
        std::process::exit(128 + sig);
    });
    let args: Vec<String> = std::env::args().skip(1).collect();
    let code = match run(&args) {
        Ok(code) => code,
        Err(e) => {
            eprintln!("orrery: {e:#}");
            2
        }
    };
    std::process::exit(code);
}

/// `--help` of `orrery` and of its subcommands: the usage text on stdout, exit code 0.
fn help(usage: &str) -> anyhow::Result<i32> {
    print!("{usage}");
    Ok(0)
}

fn run(args: &[String]) -> anyhow::Result<i32> {
    match parse_args(args).map_err(anyhow::Error::msg)? {
        Command::Help => help(USAGE),
        Command::Gui(args) => match orrery::gui::parse_args(&args).map_err(anyhow::Error::msg)? {
            None => help(orrery::gui::USAGE),
            Some(cfg) => orrery::gui::run(cfg)
                .map_err(anyhow::Error::msg)
                .map(|()| 0),
        },
        Command::Match(cfg) => {
            let mut out = std::io::stdout();
            let result = run_match(&cfg, &mut out);
            // Whatever happened, no engine outlives the match.
            orrery::referee::engine_process::kill_all_engines();
            result.map_err(anyhow::Error::msg)?;
            Ok(0)
        }
        Command::Engine { game, variants } => match game {
            GameKind::SpiderChess => {
                let mut loaded = Vec::new();
                for file in &variants {
                    loaded.push(load_variant_file(file).map_err(anyhow::Error::msg)?);
                }
                let offered = offered_variants(loaded);
                run_stdio(SpiderEngine::with_variants(offered, DEFAULT_HASH_MIB));
                Ok(0)
            }
            GameKind::SolarChess => {
                run_stdio(orrery::engines::solar::SolarEngine::new(DEFAULT_HASH_MIB));
                Ok(0)
            }
            GameKind::SpaceWars => {
                orrery::engines::spacewars::protocol::run();
                Ok(0)
            }
            other => Err(anyhow::anyhow!(
                "no built-in engine for {} in this build",
                other.name()
            )),
        },
        Command::RandomEngine { game, setup, seed } => {
            let stdin = std::io::stdin();
            orrery::referee::random_engine::run(
                game,
                setup.as_deref(),
                seed,
                stdin.lock(),
                std::io::stdout(),
            )?;
            Ok(0)
        }
        Command::Stats(req) => {
            if req.files.is_empty() {
                print!("{}", orrery::referee::stats_report::counts_report(&req));
            } else {
                orrery::referee::stats_report::follow(&req, &mut std::io::stdout())
                    .map_err(anyhow::Error::msg)?;
            }
            Ok(0)
        }
        Command::Label(cfg) => {
            let result = orrery::referee::label::run(&cfg, &mut std::io::stderr());
            orrery::referee::engine_process::kill_all_engines();
            result.map_err(anyhow::Error::msg)?;
            Ok(0)
        }
        Command::Replay(path) => {
            let recs = read_records(&path).map_err(anyhow::Error::msg)?;
            let mut bad = 0;
            for r in &recs {
                match replay(r) {
                    Ok(_) => println!("game {}: ok ({} {})", r.id + 1, r.result, r.reason),
                    Err(e) => {
                        bad += 1;
                        println!("game {}: MISMATCH: {e}", r.id + 1);
                    }
                }
            }
            println!("{} games replayed, {bad} mismatches", recs.len());
            Ok(if bad == 0 { 0 } else { 1 })
        }
    }
}
