//! `space-wars bench`: ISMCTS from fixed seeded positions — the first Tactical decision of seat 1
//! in games of 2, 3, 4 and 6 players, reached by heuristic players — with a fixed number of
//! iterations each. The tree sizes are a signature of the search (same code, same numbers);
//! iterations per second measure its speed (per wall second and per second of the
//! searching thread's processor time, which a loaded machine disturbs less).

use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::{Duration, Instant};

use super::{IsmctsPlayer, Player, Simple};
use crate::games::spacewars::observation::Observation;
use crate::games::spacewars::ruleset::Ruleset;
use crate::games::spacewars::state::State;
use crate::games::spacewars::wire::format_decision;
use crate::search::ismcts::SearchBudget;

/// Iterations per position when `bench` is given no number.
pub const BENCH_ITERATIONS: u64 = 20_000;

/// The (players, deal seed) of the bench positions.
pub const BENCH_GAMES: [(usize, u64); 4] = [(2, 1), (3, 2), (4, 3), (6, 4)];

/// One bench position's search.
#[derive(Clone, Debug, PartialEq)]
pub struct BenchLine {
    /// Seats at the table.
    pub players: usize,
    /// Iterations run.
    pub iterations: u64,
    /// Tree nodes at the end (the signature).
    pub nodes: usize,
    /// Wall time.
    pub time: Duration,
    /// Processor time of the searching thread (`None` where the system cannot tell): on a shared
    /// machine the wall time counts the other processes' turns too, this does not.
    pub cpu: Option<Duration>,
    /// The decision found, in protocol text.
    pub best: String,
}

/// The bench positions: seat 1's observation at its first Tactical decision.
pub fn bench_positions() -> Vec<Observation> {
    let rules = Arc::new(Ruleset::default());
    let stop = AtomicBool::new(false);
    BENCH_GAMES
        .iter()
        .map(|&(players, seed)| {
            let mut s = State::new(players, seed).expect("2..8 players");
            let mut h = Simple::new(rules.clone(), seed, false);
            let mut pend = Vec::new();
            while s.round() == 0 && !s.is_over() {
                s.pending(&mut pend);
                for &(seat, _) in &pend {
                    let c = h
                        .decide(
                            &Observation::of(&s, seat),
                            &SearchBudget::default(),
                            &stop,
                            &mut |_| {},
                        )
                        .expect("the heuristic decides");
                    s.apply(seat, &c.decision).expect("legal");
                }
            }
            Observation::of(&s, 0)
        })
        .collect()
}

/// Searches every bench position with `iterations` iterations (a fresh, seeded ISMCTS player each).
pub fn bench(iterations: u64) -> Vec<BenchLine> {
    let rules = Arc::new(Ruleset::default());
    let stop = AtomicBool::new(false);
    bench_positions()
        .iter()
        .map(|obs| {
            let mut p = IsmctsPlayer::new(rules.clone(), 1);
            let cpu = thread_cpu_time();
            let t = Instant::now();
            let (_, c) = p
                .search(
                    obs,
                    &SearchBudget::iterations(iterations),
                    &stop,
                    &mut |_| {},
                )
                .expect("bench positions have a decision");
            BenchLine {
                players: obs.players(),
                iterations: c.iterations,
                nodes: c.nodes,
                time: t.elapsed(),
                cpu: thread_cpu_time()
                    .zip(cpu)
                    .map(|(end, start)| end.saturating_sub(start)),
                best: format_decision(&c.decision, &rules),
            }
        })
        .collect()
}

/// The text `bench` prints: a line per position, then the totals in the other engines' field
/// names (`Nodes searched` counts iterations).
pub fn bench_text(lines: &[BenchLine]) -> String {
    let per_second = crate::engines::cli::per_second;
    let mut out = String::new();
    for (i, l) in lines.iter().enumerate() {
        let cpu = l.cpu.map_or(String::new(), |c| {
            format!(
                ", cpu {} ms, {} it/cpu-s",
                c.as_millis(),
                per_second(l.iterations, c)
            )
        });
        out.push_str(&format!(
            "position {} players {}: {} iterations, {} tree nodes, {} ms, {} it/s{cpu}, best {}\n",
            i + 1,
            l.players,
            l.iterations,
            l.nodes,
            l.time.as_millis(),
            per_second(l.iterations, l.time),
            l.best
        ));
    }
    let iterations: u64 = lines.iter().map(|l| l.iterations).sum();
    let nodes: usize = lines.iter().map(|l| l.nodes).sum();
    let time: Duration = lines.iter().map(|l| l.time).sum();
    out.push_str(&format!(
        "positions {}\nTree nodes: {nodes}\nNodes searched: {iterations}\nTime: {} ms\nNodes/second: {}",
        lines.len(),
        time.as_millis(),
        per_second(iterations, time)
    ));
    out
}

/// Processor time used so far by the calling thread.
fn thread_cpu_time() -> Option<Duration> {
    let mut t = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `clock_gettime` writes one `timespec` into the valid, exclusively borrowed `t`.
    let rc = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut t) };
    (rc == 0).then(|| Duration::new(t.tv_sec as u64, t.tv_nsec as u32))
}
