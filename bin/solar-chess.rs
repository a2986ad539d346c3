//! `solar-chess`: the Solar Chess engine. With no command it speaks the protocol on
//! stdin/stdout (first line `uci` or `xboard`); `bench`, `perft` and `selfplay` measure it.

use std::time::Duration;

use anyhow::{anyhow, bail, Result};
use orrery::engines::cli::{
    exit_code, flag_pairs, parse_command, parse_number, perft_text, Command,
};
use orrery::engines::solar::{bench, selfplay, SelfPlayConfig, SolarEngine, BENCH_DEPTH};
use orrery::games::solar::{perft_divide, Position};
use orrery::protocol::{run_stdio, DEFAULT_HASH_MIB};

const USAGE: &str = "\
usage: solar-chess [COMMAND]

  (no command)             speak the engine protocol on stdin/stdout (first line: uci or xboard)
  bench [DEPTH]            search the fixed bench positions of several setups; prints the node
                           signature and nps
  perft DEPTH [POSITION]   count legal move paths from a setup name (default duel) or a position
                           string, per root move, with leaf nodes per second
  selfplay [--setup S] [--games N] [--movetime MS] [--seed N] [--opening-plies N]
           [--max-plies N] [--draw-plies N]
                           play BRS+, MCTS and paranoid against each other in-process, rotating
                           them over the seats; prints each game and the win shares
  -h, --help               this text

Diagnostics go to stderr; set RUST_LOG=debug to see them.";

fn main() -> std::process::ExitCode {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn"))
        .target(env_logger::Target::Stderr)
        .init();
    exit_code("solar-chess", run())
}

fn run() -> Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match parse_command(&args).map_err(|e| anyhow!("{e}\n{USAGE}"))? {
        Command::Protocol => run_stdio(SolarEngine::new(DEFAULT_HASH_MIB)),
        Command::Help => println!("{USAGE}"),
        Command::Bench { depth } => {
            let depth = depth.unwrap_or(BENCH_DEPTH);
            println!("{}", bench(depth).text(depth));
        }
        Command::Perft { depth, position } => {
            let text = position.unwrap_or_else(|| "duel".to_string());
            let mut pos =
                Position::from_setup_or_string(&text).map_err(|e| anyhow!("bad position: {e}"))?;
            let report = perft_divide(&mut pos, depth);
            println!(
                "{}",
                perft_text(&report.divide_text(), report.nodes, report.elapsed)
            );
        }
        Command::Other { name, args } if name == "selfplay" => {
            let config = selfplay_config(&args).map_err(|e| anyhow!("{e}\n{USAGE}"))?;
            println!(
                "selfplay setup {} games {} movetime {} ms seed {} opening {} plies, cap {} plies, draw after {} plies without capture",
                config.setup,
                config.games,
                config.movetime.as_millis(),
                config.seed,
                config.opening_plies,
                config.max_plies,
                config.draw_plies
            );
            let report = selfplay(&config, &mut |i, g| {
                let seats: Vec<&str> = g.seats.iter().map(|a| a.name()).collect();
                println!(
                    "game {:>3}: {:<28} {:>4} plies  {}",
                    i + 1,
                    seats.join(" "),
                    g.plies,
                    g.result
                );
            })
            .map_err(|e| anyhow!(e))?;
            print!("{}", report.text());
        }
        Command::Other { name, .. } => bail!("unknown command '{name}'\n{USAGE}"),
    }
    Ok(())
}

/// Reads the `selfplay` flags over the defaults.
fn selfplay_config(args: &[String]) -> Result<SelfPlayConfig, String> {
    let mut c = SelfPlayConfig::default();
    for (name, value) in flag_pairs(args)? {
        let what = format!("--{name}");
        match name.as_str() {
            "setup" => c.setup = value,
            "games" => c.games = parse_number(&value, &what)?,
            "movetime" => c.movetime = Duration::from_millis(parse_number(&value, &what)?),
            "seed" => c.seed = parse_number(&value, &what)?,
            "opening-plies" => c.opening_plies = parse_number(&value, &what)?,
            "max-plies" => c.max_plies = parse_number(&value, &what)?,
            "draw-plies" => c.draw_plies = parse_number(&value, &what)?,
            _ => return Err(format!("unknown selfplay flag '{what}'")),
        }
    }
    Ok(c)
}
