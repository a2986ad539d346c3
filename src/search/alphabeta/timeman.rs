//! The time manager: turns [`Limits`] into a soft limit (do not start another iteration after it)
//! and a hard limit (abort the search), and decides every few thousand nodes whether to stop.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use crate::search::Limits;

/// Moves assumed left in the game under sudden death (with or without increment).
const SUDDEN_DEATH_HORIZON: u32 = 35;
/// Largest share of the remaining time (after overhead) one move may use, in percent.
const HARD_SHARE: u32 = 50;
/// Share allowed when the control ends with this move (`movestogo 1`), in percent.
const LAST_MOVE_SHARE: u32 = 85;
/// The hard limit is at most this multiple of the soft one.
const HARD_OVER_SOFT: u32 = 4;
/// Smallest budget ever given, so that a move is still found with no time left.
const MIN_BUDGET: Duration = Duration::from_millis(1);
/// How often (in nodes) the clock and the stop flag are read.
pub const CHECK_EVERY: u64 = 256;

/// Time allowed for one move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Budget {
    /// After this much time no new iteration starts.
    pub soft: Duration,
    /// After this much time the search is aborted.
    pub hard: Duration,
}

impl Budget {
    /// The budget for `limits`, or `None` when time does not limit the search (depth, nodes,
    /// infinite, or nothing set).
    pub fn from_limits(limits: &Limits) -> Option<Budget> {
        if limits.infinite {
            return None;
        }
        let from_movetime = limits.movetime.map(|t| {
            let hard = t.saturating_sub(limits.overhead).max(MIN_BUDGET);
            Budget { soft: hard, hard }
        });
        let from_clock = limits.clock.map(|c| {
            let avail = c.remaining.saturating_sub(limits.overhead);
            let (moves, share) = match c.moves_to_go {
                Some(n) if n <= 1 => (1, LAST_MOVE_SHARE),
                Some(n) => (n.min(SUDDEN_DEATH_HORIZON), HARD_SHARE),
                None => (SUDDEN_DEATH_HORIZON, HARD_SHARE),
            };
            let cap = percent(avail, share);
            let base = if moves == 1 {
                percent(avail, share * 2 / 3)
            } else {
                avail / moves + percent(c.increment, 75)
            };
            let soft = base.min(cap).max(MIN_BUDGET);
            let hard = soft
                .saturating_mul(HARD_OVER_SOFT)
                .min(cap)
                .max(soft)
                .max(MIN_BUDGET);
            Budget { soft, hard }
        });
        match (from_movetime, from_clock) {
            (Some(a), Some(b)) => Some(Budget {
                soft: a.soft.min(b.soft),
                hard: a.hard.min(b.hard),
            }),
            (a, b) => a.or(b),
        }
    }
}

fn percent(d: Duration, p: u32) -> Duration {
    // Exact in u128 nanoseconds, so huge clocks neither overflow nor lose precision.
    let nanos = d.as_nanos() * p as u128 / 100;
    Duration::from_nanos(nanos.min(u64::MAX as u128) as u64)
}

/// Everything that may end one search: the stop flag, the clock budget and the node limit.
pub struct Control<'a> {
    stop: &'a AtomicBool,
    start: Instant,
    soft: Option<Instant>,
    hard: Option<Instant>,
    max_nodes: Option<u64>,
    stopped: bool,
}

impl<'a> Control<'a> {
    /// Starts the clock now.
    pub fn new(limits: &Limits, stop: &'a AtomicBool) -> Self {
        let start = Instant::now();
        let budget = Budget::from_limits(limits);
        Control {
            stop,
            start,
            soft: budget.and_then(|b| start.checked_add(b.soft)),
            hard: budget.and_then(|b| start.checked_add(b.hard)),
            max_nodes: limits.nodes,
            stopped: false,
        }
    }

    /// Time since the search started.
    pub fn elapsed(&self) -> Duration {
        self.start.elapsed()
    }

    /// Whether the search has been told to stop (sticky once true).
    pub fn stopped(&self) -> bool {
        self.stopped
    }

    /// Whether `nodes` visited nodes have used up the node limit.
    #[inline]
    pub fn out_of_nodes(&self, nodes: u64) -> bool {
        self.max_nodes.is_some_and(|m| nodes >= m)
    }

    /// Called before visiting a node with the number of nodes visited so far: reads the clock and
    /// the stop flag every [`CHECK_EVERY`] nodes, the node limit always. Returns `true` when the
    /// search must end.
    #[inline]
    pub fn poll(&mut self, nodes: u64) -> bool {
        if self.stopped {
            return true;
        }
        if self.out_of_nodes(nodes) {
            self.stopped = true;
        } else if nodes.is_multiple_of(CHECK_EVERY) {
            self.check_now();
        }
        self.stopped
    }

    /// Reads the stop flag and the clock immediately.
    pub fn check_now(&mut self) -> bool {
        if self.stop.load(Ordering::Relaxed) || self.hard.is_some_and(|h| Instant::now() >= h) {
            self.stopped = true;
        }
        self.stopped
    }

    /// Whether another iteration may start: not stopped and the soft limit not yet reached.
    pub fn may_deepen(&mut self) -> bool {
        !self.check_now() && self.soft.is_none_or(|s| Instant::now() < s)
    }

    /// Whether a time budget limits this search.
    pub fn is_timed(&self) -> bool {
        self.hard.is_some()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::Clock;

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    fn clock(remaining: u64, increment: u64, moves_to_go: Option<u32>) -> Limits {
        Limits {
            clock: Some(Clock {
                remaining: ms(remaining),
                increment: ms(increment),
                moves_to_go,
            }),
            overhead: ms(10),
            ..Limits::default()
        }
    }

    #[test]
    fn no_time_limit_without_clock_or_movetime() {
        assert_eq!(Budget::from_limits(&Limits::default()), None);
        let depth = Limits {
            depth: Some(5),
            nodes: Some(1000),
            ..Limits::default()
        };
        assert_eq!(Budget::from_limits(&depth), None);
        let mut infinite = clock(1000, 0, None);
        infinite.infinite = true;
        assert_eq!(Budget::from_limits(&infinite), None);
    }

    #[test]
    fn movetime_minus_overhead() {
        let l = Limits {
            movetime: Some(ms(1000)),
            overhead: ms(30),
            ..Limits::default()
        };
        assert_eq!(
            Budget::from_limits(&l),
            Some(Budget {
                soft: ms(970),
                hard: ms(970)
            })
        );
        let tiny = Limits {
            movetime: Some(ms(5)),
            overhead: ms(30),
            ..Limits::default()
        };
        assert_eq!(Budget::from_limits(&tiny).unwrap().hard, MIN_BUDGET);
    }

    #[test]
    fn sudden_death_never_spends_half_the_clock() {
        for remaining in [0, 1, 9, 10, 11, 50, 1000, 60_000, 3_600_000] {
            let b = Budget::from_limits(&clock(remaining, 0, None)).unwrap();
            assert!(b.soft <= b.hard, "{remaining}: {b:?}");
            let avail = ms(remaining).saturating_sub(ms(10));
            assert!(b.hard <= (avail / 2).max(MIN_BUDGET), "{remaining}: {b:?}");
            assert!(b.hard >= MIN_BUDGET);
        }
        let b = Budget::from_limits(&clock(60_000, 0, None)).unwrap();
        assert_eq!(b.soft, ms(59_990) / 35);
    }

    #[test]
    fn increment_adds_to_the_budget_but_not_past_the_cap() {
        let without = Budget::from_limits(&clock(10_000, 0, None)).unwrap();
        let with = Budget::from_limits(&clock(10_000, 1_000, None)).unwrap();
        assert!(with.soft > without.soft);
        // A huge increment with little time left must not exceed half the remaining time.
        let b = Budget::from_limits(&clock(200, 100_000, None)).unwrap();
        assert!(b.hard <= ms(95), "{b:?}");
    }

    #[test]
    fn moves_to_go_divides_the_clock() {
        let b = Budget::from_limits(&clock(40_010, 0, Some(40))).unwrap();
        assert_eq!(b.soft, ms(40_000) / 35);
        let b = Budget::from_limits(&clock(10_010, 0, Some(10))).unwrap();
        assert_eq!(b.soft, ms(1000));
        assert!(b.hard <= ms(5000));
        // The last move of a control may use most, never all, of the clock.
        let last = Budget::from_limits(&clock(1_010, 0, Some(1))).unwrap();
        assert!(last.hard <= ms(850) && last.soft >= ms(500), "{last:?}");
        let zero = Budget::from_limits(&clock(1_010, 0, Some(0))).unwrap();
        assert_eq!(zero, last);
    }

    #[test]
    fn huge_numbers_do_not_overflow() {
        let l = Limits {
            clock: Some(Clock {
                remaining: Duration::from_secs(u64::MAX / 4),
                increment: Duration::from_secs(u64::MAX / 4),
                moves_to_go: Some(u32::MAX),
            }),
            movetime: Some(Duration::MAX),
            ..Limits::default()
        };
        let b = Budget::from_limits(&l).unwrap();
        assert!(b.soft <= b.hard);
        let stop = AtomicBool::new(false);
        let mut c = Control::new(&l, &stop);
        assert!(c.may_deepen());
        assert!(!c.poll(CHECK_EVERY));
    }

    #[test]
    fn control_obeys_flag_nodes_and_clock() {
        let stop = AtomicBool::new(false);
        let l = Limits {
            nodes: Some(100),
            ..Limits::default()
        };
        let mut c = Control::new(&l, &stop);
        assert!(!c.poll(99));
        assert!(c.poll(100));
        assert!(c.stopped());

        let mut c = Control::new(&Limits::default(), &stop);
        assert!(!c.poll(CHECK_EVERY));
        stop.store(true, Ordering::Relaxed);
        assert!(
            !c.poll(CHECK_EVERY + 1),
            "flag read only every CHECK_EVERY nodes"
        );
        assert!(c.poll(2 * CHECK_EVERY));

        let stop = AtomicBool::new(false);
        let l = Limits {
            movetime: Some(ms(1)),
            ..Limits::default()
        };
        let mut c = Control::new(&l, &stop);
        std::thread::sleep(ms(3));
        assert!(!c.may_deepen());
        assert!(c.stopped());
    }
}
