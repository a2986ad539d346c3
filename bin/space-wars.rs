//! `space-wars`: the Space Wars engine. With no command it speaks the protocol on stdin/stdout;
//! `bench`, `selfplay` and `transcript` measure and show it.

use std::sync::atomic::AtomicBool;
use std::time::Instant;

use anyhow::{anyhow, bail, Result};
use orrery::engines::cli::{flag_pairs, parse_command, parse_number, Command};
use orrery::engines::spacewars::bench::{bench, bench_text, BENCH_ITERATIONS};
use orrery::engines::spacewars::selfplay::play_game;
use orrery::engines::spacewars::{protocol, Player, PlayerSpec};
use orrery::games::spacewars::observation::Observation;
use orrery::games::spacewars::state::State;
use orrery::games::spacewars::wire::{format_decision, position_line};
use orrery::games::spacewars::{Outcome, Ruleset};
use orrery::search::ismcts::SearchBudget;

const USAGE: &str = "\
usage: space-wars [COMMAND]

  (no command)             speak the engine protocol on stdin/stdout (see protocol.md)
  bench [ITERATIONS]       ISMCTS from fixed positions of 2, 3, 4 and 6 players, ITERATIONS each
                           (default 20000); prints the tree sizes (a signature) and iterations
                           per wall second and per second of processor time
  selfplay [--players A,B,...] [--games N] [--seed N] [--iterations N]
                           play built-in players (ismcts, pimc, heuristic, random; 2 to 8 of them)
                           against each other in-process, rotating the seats; prints win shares
  transcript [--players A,B,...] [--seed N] [--iterations N]
                           one refereed game printed as the protocol lines each seat sees
  -h, --help               this text

Diagnostics go to stderr; set RUST_LOG=debug to see them.";

/// The `--flag value` settings of `selfplay` and `transcript`.
struct Settings {
    players: Vec<PlayerSpec>,
    names: Vec<String>,
    games: u64,
    seed: u64,
    iterations: u64,
}

fn settings(args: &[String], players: &str, iterations: u64) -> Result<Settings, String> {
    let mut s = Settings {
        players: Vec::new(),
        names: players.split(',').map(String::from).collect(),
        games: 20,
        seed: 1,
        iterations,
    };
    for (name, value) in flag_pairs(args)? {
        let what = format!("--{name}");
        match name.as_str() {
            "players" => s.names = value.split(',').map(String::from).collect(),
            "games" => s.games = parse_number(&value, &what)?,
            "seed" => s.seed = parse_number(&value, &what)?,
            "iterations" => s.iterations = parse_number(&value, &what)?,
            _ => return Err(format!("unknown flag '{what}'")),
        }
    }
    if !(2..=8).contains(&s.names.len()) {
        return Err("--players needs 2 to 8 names".into());
    }
    s.players = s
        .names
        .iter()
        .map(|n| n.parse())
        .collect::<Result<_, String>>()?;
    Ok(s)
}

fn players_of(s: &Settings, seed: u64) -> Vec<Box<dyn Player>> {
    s.players
        .iter()
        .enumerate()
        .map(|(i, p)| p.build(seed.wrapping_mul(31).wrapping_add(i as u64)))
        .collect()
}

fn selfplay(s: &Settings) -> Result<()> {
    let budget = SearchBudget::iterations(s.iterations);
    let n = s.players.len();
    let mut score = vec![0.0f64; n];
    let mut wins = vec![0u32; n];
    let mut draws = 0u32;
    let mut rounds = 0u64;
    let start = Instant::now();
    for g in 0..s.games {
        // Seats rotate so every player sits in every seat equally often.
        let rot = (g as usize) % n;
        let mut ps = players_of(s, s.seed + g);
        let mut budgets: Vec<SearchBudget> = s
            .players
            .iter()
            .map(|p| p.iterations.map_or(budget, SearchBudget::iterations))
            .collect();
        ps.rotate_left(rot);
        budgets.rotate_left(rot);
        let r = play_game(&mut ps, s.seed + g, &budgets).map_err(anyhow::Error::msg)?;
        rounds += r.rounds as u64;
        for seat in 0..n {
            let who = (seat + rot) % n;
            score[who] += r.outcome.reward(seat as u8) as f64;
            if r.outcome == Outcome::Win(seat as u8) {
                wins[who] += 1;
            }
        }
        if matches!(r.outcome, Outcome::Draw(_)) {
            draws += 1;
        }
    }
    let games = s.games.max(1) as f64;
    println!(
        "{} games, seed {}, {} iterations per decision, {:.1} rounds per game, {:.1} s",
        s.games,
        s.seed,
        s.iterations,
        rounds as f64 / games,
        start.elapsed().as_secs_f64()
    );
    for i in 0..n {
        println!(
            "player {} {:<9} wins {:>4} ({:5.1}%)  score {:7.1} ({:5.1}%)",
            i + 1,
            s.names[i],
            wins[i],
            100.0 * wins[i] as f64 / games,
            score[i],
            100.0 * score[i] / games
        );
    }
    println!("draws {draws}");
    if n == 2 && wins[0] + wins[1] > 0 {
        println!(
            "decided games: {} {:.1}%",
            s.names[0],
            100.0 * wins[0] as f64 / (wins[0] + wins[1]) as f64
        );
    }
    Ok(())
}

/// A refereed game printed as the protocol lines: `>N` what seat N receives, `<N` its answer.
fn transcript(s: &Settings) -> Result<()> {
    let budget = SearchBudget::iterations(s.iterations);
    let mut ps = players_of(s, s.seed);
    let rules = Ruleset::default();
    let mut st = State::new(ps.len(), s.seed).map_err(|e| anyhow!("{e}"))?;
    st.enable_log();
    let stop = AtomicBool::new(false);
    let mut seen = 0;
    let mut pend = Vec::new();
    while !st.is_over() {
        for e in &st.events()[seen..] {
            println!("   event {}", e.line_all(&rules));
        }
        seen = st.events().len();
        st.pending(&mut pend);
        let mut decided = Vec::new();
        for &(seat, _) in &pend {
            println!(">{} {}", seat + 1, position_line(&st, seat));
            println!(">{} go nodes {}", seat + 1, s.iterations);
            let c = ps[seat as usize]
                .decide(&Observation::of(&st, seat), &budget, &stop, &mut |_| {})
                .map_err(anyhow::Error::msg)?;
            println!(
                "<{} bestmove {}",
                seat + 1,
                format_decision(&c.decision, &rules)
            );
            decided.push((seat, c.decision));
        }
        for (seat, d) in decided {
            st.apply(seat, &d).map_err(|e| anyhow!("{e}"))?;
        }
    }
    for e in &st.events()[seen..] {
        println!("   event {}", e.line_all(&rules));
    }
    Ok(())
}

/// Most iterations per position `bench` accepts.
const MAX_BENCH_ITERATIONS: u64 = 100_000_000;

/// The iterations of `bench [ITERATIONS]` (the default without a number).
fn bench_iterations(args: &[String]) -> Result<u64, String> {
    match args {
        [] => Ok(BENCH_ITERATIONS),
        [n] => {
            let n: u64 = parse_number(n, "bench iterations")?;
            if !(1..=MAX_BENCH_ITERATIONS).contains(&n) {
                return Err(format!(
                    "bench iterations must be in 1..={MAX_BENCH_ITERATIONS}, got {n}"
                ));
            }
            Ok(n)
        }
        [_, extra, ..] => Err(format!(
            "bench takes at most a number of iterations, got '{extra}'"
        )),
    }
}

fn main() -> std::process::ExitCode {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn"))
        .target(env_logger::Target::Stderr)
        .init();
    let args: Vec<String> = std::env::args().skip(1).collect();
    orrery::engines::cli::exit_code("space-wars", run(&args))
}

fn run(args: &[String]) -> Result<()> {
    let usage = |e: String| anyhow!("{e}\n{USAGE}");
    // `bench` counts iterations, not the depth the shared command line bounds for the other
    // engines, so its argument is read here.
    if args.first().is_some_and(|a| a == "bench") {
        let iterations = bench_iterations(&args[1..]).map_err(usage)?;
        println!("{}", bench_text(&bench(iterations)));
        return Ok(());
    }
    match parse_command(args).map_err(usage)? {
        Command::Protocol => protocol::run(),
        Command::Help => println!("{USAGE}"),
        Command::Bench { .. } => {
            let iterations = bench_iterations(&args[1..]).map_err(usage)?;
            println!("{}", bench_text(&bench(iterations)));
        }
        Command::Perft { .. } => bail!("space-wars has no perft\n{USAGE}"),
        Command::Other { name, args } if name == "selfplay" => {
            selfplay(&settings(&args, "ismcts,heuristic", 200).map_err(usage)?)?
        }
        Command::Other { name, args } if name == "transcript" => {
            transcript(&settings(&args, "ismcts,pimc,heuristic,random", 100).map_err(usage)?)?
        }
        Command::Other { name, .. } => bail!("unknown command '{name}'\n{USAGE}"),
    }
    Ok(())
}
