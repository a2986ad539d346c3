//! The `space-wars` binary: the protocol engine (no arguments), `bench`, `selfplay` and
//! `transcript` (a refereed game printed as the protocol lines each seat sees).

use anyhow::{bail, Context, Result};
use orrery::games::spacewars::engine::{make_player, Budget, Player};
use orrery::games::spacewars::observation::Observation;
use orrery::games::spacewars::protocol;
use orrery::games::spacewars::selfplay::play_game;
use orrery::games::spacewars::state::State;
use orrery::games::spacewars::wire::{format_decision, position_line};
use orrery::games::spacewars::{engine::ismcts::Ismcts, Ruleset};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Instant;

fn flag<'a>(args: &'a [String], name: &str) -> Option<&'a str> {
    args.iter()
        .position(|a| a == name)
        .and_then(|i| args.get(i + 1))
        .map(|s| s.as_str())
}

fn num(args: &[String], name: &str, default: u64) -> Result<u64> {
    match flag(args, name) {
        Some(v) => v.parse().with_context(|| format!("{name} needs a number")),
        None => Ok(default),
    }
}

/// Fixed seeded positions: the first Tactical decision of seat 1 in games of 2, 3, 4 and 6 players.
fn bench_positions() -> Vec<Observation> {
    let mut out = Vec::new();
    for (players, seed) in [(2usize, 1u64), (3, 2), (4, 3), (6, 4)] {
        let mut s = State::new(players, seed).expect("table");
        let mut pend = Vec::new();
        let stop = AtomicBool::new(false);
        let mut h = make_player("heuristic", seed).expect("player");
        while s.round() == 0 && !s.is_over() {
            s.pending(&mut pend);
            for &(seat, _) in pend.clone().iter() {
                let c = h
                    .decide(&Observation::of(&s, seat), &Budget::default(), &stop)
                    .expect("heuristic decides");
                s.apply(seat, &c.decision).expect("legal");
            }
        }
        out.push(Observation::of(&s, 0));
    }
    out
}

fn bench(args: &[String]) -> Result<()> {
    let iterations = num(args, "--iterations", 5000)?;
    let stop = AtomicBool::new(false);
    let mut total = 0u64;
    let start = Instant::now();
    for (i, obs) in bench_positions().iter().enumerate() {
        let mut p = Ismcts::new(Arc::new(Ruleset::default()), 1);
        let t = Instant::now();
        let (_, c) = p
            .search(obs, &Budget::iterations(iterations), &stop)
            .map_err(anyhow::Error::msg)?;
        let ms = t.elapsed().as_millis().max(1) as u64;
        println!(
            "position {} players {}: {} iterations in {} ms ({} it/s), best {}",
            i + 1,
            obs.players(),
            c.iterations,
            ms,
            c.iterations * 1000 / ms,
            format_decision(&c.decision, &Ruleset::default())
        );
        total += c.iterations;
    }
    let ms = start.elapsed().as_millis().max(1) as u64;
    println!(
        "total {total} iterations {ms} ms {} it/s",
        total * 1000 / ms
    );
    Ok(())
}

fn players_of(args: &[String], seed: u64) -> Result<Vec<Box<dyn Player>>> {
    let list = flag(args, "--players").unwrap_or("ismcts,heuristic");
    let names: Vec<&str> = list.split(',').collect();
    if !(2..=8).contains(&names.len()) {
        bail!("--players needs 2 to 8 names");
    }
    names
        .iter()
        .enumerate()
        .map(|(i, n)| {
            make_player(n, seed.wrapping_mul(31).wrapping_add(i as u64))
                .with_context(|| format!("unknown player '{n}'"))
        })
        .collect()
}

fn selfplay(args: &[String]) -> Result<()> {
    let games = num(args, "--games", 20)?;
    let seed = num(args, "--seed", 1)?;
    let budget = Budget::iterations(num(args, "--iterations", 200)?);
    let names: Vec<String> = flag(args, "--players")
        .unwrap_or("ismcts,heuristic")
        .split(',')
        .map(String::from)
        .collect();
    let n = names.len();
    let mut score = vec![0.0f64; n];
    let mut wins = vec![0u32; n];
    let mut draws = 0u32;
    let mut rounds = 0u64;
    let start = Instant::now();
    for g in 0..games {
        // Seats rotate so every player sits in every seat equally often.
        let rot = (g as usize) % n;
        let mut ps = players_of(args, seed + g)?;
        ps.rotate_left(rot);
        let r = play_game(&mut ps, seed + g, &budget).map_err(anyhow::Error::msg)?;
        rounds += r.rounds as u64;
        for seat in 0..n {
            let who = (seat + rot) % n;
            score[who] += r.outcome.reward(seat as u8) as f64;
            if r.outcome == orrery::games::spacewars::Outcome::Win(seat as u8) {
                wins[who] += 1;
            }
        }
        if matches!(r.outcome, orrery::games::spacewars::Outcome::Draw(_)) {
            draws += 1;
        }
    }
    println!(
        "{games} games, seed {seed}, {} iterations per decision, {:.1} rounds per game, {:.1} s",
        budget.iterations.unwrap_or(0),
        rounds as f64 / games.max(1) as f64,
        start.elapsed().as_secs_f64()
    );
    for i in 0..n {
        println!(
            "player {} {:<9} wins {:>4} ({:5.1}%)  score {:7.1} ({:5.1}%)",
            i + 1,
            names[i],
            wins[i],
            100.0 * wins[i] as f64 / games.max(1) as f64,
            score[i],
            100.0 * score[i] / games.max(1) as f64
        );
    }
    println!("draws {draws}");
    Ok(())
}

/// A refereed game printed as the protocol lines: `>N` what seat N receives, `<N` its answer.
fn transcript(args: &[String]) -> Result<()> {
    let seed = num(args, "--seed", 1)?;
    let budget = Budget::iterations(num(args, "--iterations", 100)?);
    let mut ps = players_of(args, seed)?;
    let rules = Ruleset::default();
    let mut s = State::new(ps.len(), seed).map_err(anyhow::Error::msg)?;
    s.enable_log();
    let stop = AtomicBool::new(false);
    let mut seen = 0;
    let mut pend = Vec::new();
    while !s.is_over() {
        for e in &s.events()[seen..] {
            println!("   event {}", e.line_all(&rules));
        }
        seen = s.events().len();
        s.pending(&mut pend);
        let mut decided = Vec::new();
        for &(seat, _) in &pend {
            let line = position_line(&s, seat);
            println!(">{} {line}", seat + 1);
            println!(">{} go nodes {}", seat + 1, budget.iterations.unwrap_or(0));
            let c = ps[seat as usize]
                .decide(&Observation::of(&s, seat), &budget, &stop)
                .map_err(anyhow::Error::msg)?;
            println!(
                "<{} bestmove {}",
                seat + 1,
                format_decision(&c.decision, &rules)
            );
            decided.push((seat, c.decision));
        }
        for (seat, d) in decided {
            s.apply(seat, &d).map_err(anyhow::Error::msg)?;
        }
    }
    for e in &s.events()[seen..] {
        println!("   event {}", e.line_all(&rules));
    }
    Ok(())
}

const USAGE: &str = "\
usage: space-wars [COMMAND]

  (no command)   speak the engine protocol on stdin/stdout
  bench [--iterations N]
                 ISMCTS on fixed positions of 2, 3, 4 and 6 players; prints iterations/second
  selfplay --players P1,P2[,...] [--games N] [--seed N] [--iterations N]
                 play the built-in players (ismcts, pimc, heuristic, random) against each other
  transcript --players P1,P2[,...] [--seed N] [--iterations N]
                 one refereed game printed as the protocol lines each seat sees
  -h, --help     this text

Diagnostics go to stderr; set RUST_LOG=debug to see them.";

fn main() -> std::process::ExitCode {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn"))
        .target(env_logger::Target::Stderr)
        .init();
    orrery::engines::cli::exit_code("space-wars", run())
}

fn run() -> Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.first().map(|s| s.as_str()) {
        None => {
            protocol::run();
            Ok(())
        }
        Some("-h" | "--help" | "help") => {
            println!("{USAGE}");
            Ok(())
        }
        Some("bench") => bench(&args),
        Some("selfplay") => selfplay(&args),
        Some("transcript") => transcript(&args),
        Some(other) => bail!("unknown command '{other}'\n{USAGE}"),
    }
}
