//! `spider-chess`: the Spider-Chess engine. With no command it speaks the protocol on
//! stdin/stdout (first line `uci` or `xboard`); `bench` and `perft` measure it.

use anyhow::{bail, Context, Result};
use orrery::engines::cli::{exit_code, parse_command, perft_text, Command};
use orrery::engines::spider::{
    bench, load_variant_file, offered_variants, SpiderEngine, BENCH_DEPTH,
};
use orrery::games::spider::{perft_report, Position};
use orrery::protocol::{run_stdio, DEFAULT_HASH_MIB};
use orrery::tune::spider::{self as tune, apply_weights_file, TuneCommand};

const USAGE: &str = "\
usage: spider-chess [--variant FILE]... [--weights FILE]... [COMMAND]

  (no command)          speak the engine protocol on stdin/stdout (first line: uci or xboard)
  bench [DEPTH]         search the fixed bench positions; prints the node signature and nps
  perft DEPTH [FEN]     count legal move paths, per root move, with leaf nodes per second
  tune [--fix NAMES] [--prior P] [--squares] [--out FILE] RECORDS.jsonl...
                        fit the evaluation's weights to the results of the games in
                        `orrery match --records` files (one variant); --out writes them;
                        --squares: the piece-square weights too
  tune [--fix NAMES] [--prior P] [--squares] [--out FILE] --labels FILE...
                        the same, fitted to positions another engine has evaluated
                        (a file: 'variant NAME', then one 'FEN;CP' line each)
  --variant FILE        also offer the Interactive Diagram variant defined in FILE
                        (its name is the file name without extension); the first
                        one loaded is the default variant (UCI_Variant, perft)
  --weights FILE        evaluation weights for the variant the file names (as tune writes)
  -h, --help            this text

Diagnostics go to stderr; set RUST_LOG=debug to see them.";

fn main() -> std::process::ExitCode {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn"))
        .target(env_logger::Target::Stderr)
        .init();
    exit_code("spider-chess", run())
}

fn run() -> Result<()> {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let mut extra = Vec::new();
    while let Some(i) = args.iter().position(|a| a == "--variant") {
        let path = args
            .get(i + 1)
            .context("--variant needs a file name")?
            .clone();
        args.drain(i..i + 2);
        extra.push(load_variant_file(std::path::Path::new(&path)).map_err(anyhow::Error::msg)?);
    }
    let mut variants = offered_variants(extra);
    while let Some(i) = args.iter().position(|a| a == "--weights") {
        let path = args
            .get(i + 1)
            .context("--weights needs a file name")?
            .clone();
        args.drain(i..i + 2);
        let text = std::fs::read_to_string(&path).with_context(|| format!("reading {path}"))?;
        let weighted =
            apply_weights_file(&variants, &text).map_err(|e| anyhow::anyhow!("{path}: {e}"))?;
        for v in variants.iter_mut() {
            if v.name() == weighted.name() {
                *v = weighted.clone();
            }
        }
    }
    match parse_command(&args).map_err(|e| anyhow::anyhow!("{e}\n{USAGE}"))? {
        Command::Protocol => {
            run_stdio(SpiderEngine::with_variants(variants, DEFAULT_HASH_MIB));
            Ok(())
        }
        Command::Help => {
            println!("{USAGE}");
            Ok(())
        }
        Command::Bench { depth } => {
            let depth = depth.unwrap_or(BENCH_DEPTH);
            println!("{}", bench(depth).text(depth));
            Ok(())
        }
        Command::Perft { depth, position } => {
            let variant = variants[0].clone();
            let mut pos = match position {
                None => Position::startpos(&variant),
                Some(fen) => Position::from_fen(&variant, &fen)
                    .map_err(|e| anyhow::anyhow!("bad FEN: {e}"))?,
            };
            let report = perft_report(&mut pos, depth);
            println!(
                "{}",
                perft_text(&report.divide, report.nodes, report.elapsed)
            );
            Ok(())
        }
        Command::Other { name, args } if name == "tune" => {
            let cmd = TuneCommand::parse(&args).map_err(|e| anyhow::anyhow!("{e}\n{USAGE}"))?;
            print!(
                "{}",
                tune::run(&variants, &cmd).map_err(anyhow::Error::msg)?
            );
            Ok(())
        }
        Command::Other { name, .. } => bail!("unknown command '{name}'\n{USAGE}"),
    }
}
