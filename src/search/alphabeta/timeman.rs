//! The time manager: turns [`Limits`] into a soft limit (the time a move aims at) and a hard
//! limit (abort the search), stretches or shrinks the soft limit under a clock by what the
//! finished iterations say about the root ([`RootTrend`], [`soft_scale`]), starts an iteration
//! only when it is likely to end near the soft limit ([`Budget::may_start`]), and decides every
//! few hundred nodes whether to stop.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use crate::search::{Limits, Score};

/// Moves assumed left in the game under sudden death (with or without increment).
const SUDDEN_DEATH_HORIZON: u32 = 30;
/// Under a clock, the time kept back for a loaded machine's stalls (a starved process can
/// overrun its limit by a second): this many increments plus [`RESERVE_BASE`]. Inside the
/// reserve a move spends at most half an increment, so the clock climbs back out of it.
const RESERVE_INCREMENTS: u32 = 10;
/// See [`RESERVE_INCREMENTS`].
const RESERVE_BASE: Duration = Duration::from_millis(500);
/// Under a clock a new iteration starts only before this share of the (scaled) soft limit: the
/// next iteration takes at least as long as all before it, so starting later overshoots.
pub const NEXT_ITERATION_SHARE: f64 = 0.5;
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
/// Bounds of the factor [`soft_scale`] applies to the soft limit.
pub const MIN_SCALE: f64 = 0.4;
/// See [`MIN_SCALE`].
pub const MAX_SCALE: f64 = 2.5;

/// Time allowed for one move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Budget {
    /// The time the move aims to take (before scaling by the root's trend); see
    /// [`may_start`](Budget::may_start).
    pub soft: Duration,
    /// After this much time the search is aborted.
    pub hard: Duration,
    /// Whether the soft limit may move with the root's trend: under a clock, yes; a fixed
    /// `movetime` is used as given.
    pub scalable: bool,
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
            Budget {
                soft: hard,
                hard,
                scalable: false,
            }
        });
        let from_clock = limits.clock.map(|c| {
            let avail = c.remaining.saturating_sub(limits.overhead);
            let (moves, share) = match c.moves_to_go {
                Some(n) if n <= 1 => (1, LAST_MOVE_SHARE),
                Some(n) => (n.min(SUDDEN_DEATH_HORIZON), HARD_SHARE),
                None => (SUDDEN_DEATH_HORIZON, HARD_SHARE),
            };
            let cap = percent(avail, share);
            let (base, spendable) = if moves == 1 {
                (percent(avail, share * 2 / 3), avail)
            } else {
                let reserve = c
                    .increment
                    .saturating_mul(RESERVE_INCREMENTS)
                    .saturating_add(RESERVE_BASE);
                let spendable = avail.saturating_sub(reserve);
                // Half an increment inside the reserve, three quarters once a quarter of an
                // increment is spendable (continuous in between).
                let from_increment = c.increment / 2 + (c.increment / 4).min(spendable / 4);
                let base = (spendable / moves)
                    .saturating_add(from_increment)
                    .max(avail / (4 * moves));
                (base, spendable)
            };
            let soft = base.min(cap).max(MIN_BUDGET);
            // The hard limit stays out of the reserve unless the soft one is already in it.
            let hard = soft
                .saturating_mul(HARD_OVER_SOFT)
                .min(cap)
                .min(spendable)
                .max(soft)
                .max(MIN_BUDGET);
            Budget {
                soft,
                hard,
                scalable: true,
            }
        });
        match (from_movetime, from_clock) {
            (Some(a), Some(b)) => Some(Budget {
                soft: a.soft.min(b.soft),
                hard: a.hard.min(b.hard),
                scalable: false,
            }),
            (a, b) => a.or(b),
        }
    }

    /// The soft limit stretched or shrunk by `scale` (a [`soft_scale`] factor), never past the
    /// hard limit; a budget that is not [`scalable`](Budget::scalable) keeps its soft limit.
    pub fn scaled_soft(&self, scale: f64) -> Duration {
        if !self.scalable {
            return self.soft;
        }
        let scale = if scale.is_finite() {
            scale.clamp(MIN_SCALE, MAX_SCALE)
        } else {
            1.0
        };
        times(self.soft, scale).min(self.hard)
    }

    /// Whether a new iteration may start after `elapsed`, with the root's trend giving `scale`:
    /// under a clock only before [`NEXT_ITERATION_SHARE`] of the scaled soft limit; with a fixed
    /// movetime until it is used up (a cut iteration still improves the move).
    pub fn may_start(&self, elapsed: Duration, scale: f64) -> bool {
        if self.scalable {
            elapsed < times(self.scaled_soft(scale), NEXT_ITERATION_SHARE)
        } else {
            elapsed < self.soft
        }
    }
}

/// What the finished iterations of a search say about the root, for the time manager.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct RootTrend {
    /// Iterations in a row whose best move was the previous iteration's.
    pub stable_iterations: u32,
    /// Changes of the best move, each weighing half as much per iteration since it happened.
    pub changes: f64,
    /// How far the score fell from the previous iteration, in centipawns (negative: it rose).
    pub score_drop: Score,
}

impl RootTrend {
    /// Folds in one more finished iteration: whether its best move differs from the previous
    /// iteration's, and the previous and the new score (mate scores do not count as drops).
    pub fn update(&mut self, best_changed: bool, previous: Score, score: Score) {
        self.changes *= 0.5;
        if best_changed {
            self.stable_iterations = 0;
            self.changes += 1.0;
        } else {
            self.stable_iterations += 1;
        }
        let mate = crate::search::MATE_BOUND;
        self.score_drop = if previous.abs() >= mate || score.abs() >= mate {
            0
        } else {
            previous.saturating_sub(score)
        };
    }
}

/// Stability: a best move kept for this many iterations gets the smallest factor.
const STABLE_ITERATIONS: u32 = 7;
/// A score drop of this many centipawns (or more) gets the largest factor.
const DROP_SPAN: Score = 150;

/// The factor for the soft limit, in [[`MIN_SCALE`], [`MAX_SCALE`]]: below 1 when the best move
/// has stayed the same for several iterations (stop early), above 1 while it keeps changing or
/// when the score falls (spend more to find a way out).
pub fn soft_scale(trend: &RootTrend) -> f64 {
    let stable = trend.stable_iterations.min(STABLE_ITERATIONS) as f64;
    let stability = 1.25 - 0.1 * stable;
    let changes = if trend.changes.is_finite() {
        trend.changes.clamp(0.0, 2.0)
    } else {
        0.0
    };
    let instability = 1.0 + 0.5 * changes;
    let drop = trend.score_drop.clamp(-DROP_SPAN, DROP_SPAN) as f64 / DROP_SPAN as f64;
    let falling = if drop > 0.0 {
        1.0 + 0.75 * drop
    } else {
        1.0 + 0.1 * drop
    };
    (stability * instability * falling).clamp(MIN_SCALE, MAX_SCALE)
}

/// `d` times a finite non-negative `f`, saturating instead of panicking on huge clocks.
fn times(d: Duration, f: f64) -> Duration {
    Duration::try_from_secs_f64(d.as_secs_f64() * f).unwrap_or(Duration::MAX)
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
    budget: Option<Budget>,
    /// The factor from the root's trend ([`set_trend`](Control::set_trend)).
    scale: f64,
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
            budget,
            scale: 1.0,
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

    /// Whether the search may go on: not stopped and the (scaled) soft limit not reached yet
    /// (the multi-player searchers' test between iterations or playouts).
    pub fn may_deepen(&mut self) -> bool {
        !self.check_now()
            && self
                .budget
                .is_none_or(|b| self.start.elapsed() < b.scaled_soft(self.scale))
    }

    /// Whether the alpha-beta search may start another iteration: not stopped and the budget
    /// allows it ([`Budget::may_start`]: under a clock only early enough to end near the soft
    /// limit).
    pub fn may_start_iteration(&mut self) -> bool {
        !self.check_now()
            && self
                .budget
                .is_none_or(|b| b.may_start(self.start.elapsed(), self.scale))
    }

    /// Moves the soft limit by what the finished iterations say about the root.
    pub fn set_trend(&mut self, trend: &RootTrend) {
        self.scale = soft_scale(trend);
    }

    /// The soft limit in force (after [`set_trend`](Control::set_trend)), if time limits the
    /// search.
    pub fn soft_limit(&self) -> Option<Duration> {
        self.budget.map(|b| b.scaled_soft(self.scale))
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
                hard: ms(970),
                scalable: false,
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
        // 500 ms kept back, the rest over 30 moves.
        assert_eq!(b.soft, (ms(59_990) - ms(500)) / 30);
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
        assert_eq!(b.soft, (ms(40_000) - ms(500)) / 30);
        let b = Budget::from_limits(&clock(10_010, 0, Some(10))).unwrap();
        assert_eq!(b.soft, ms(950));
        assert!(b.hard <= ms(5000));
        // The last move of a control may use most, never all, of the clock.
        let last = Budget::from_limits(&clock(1_010, 0, Some(1))).unwrap();
        assert!(last.hard <= ms(850) && last.soft >= ms(500), "{last:?}");
        let zero = Budget::from_limits(&clock(1_010, 0, Some(0))).unwrap();
        assert_eq!(zero, last);
    }

    #[test]
    fn allocations_at_10_plus_01_and_60_plus_06() {
        // 10+0.1 with the default 30 ms overhead: 1.5 s kept back, (9970 - 1500)/30 + 75 ms to
        // aim at, four times that at most.
        let mut l = clock(10_000, 100, None);
        l.overhead = ms(30);
        let b = Budget::from_limits(&l).unwrap();
        assert_eq!(b.soft, ms(8_470) / 30 + ms(75));
        assert_eq!(b.hard, b.soft * 4);
        assert!(b.scalable);
        let mut l = clock(60_000, 600, None);
        l.overhead = ms(30);
        let b = Budget::from_limits(&l).unwrap();
        assert_eq!(b.soft, ms(53_470) / 30 + ms(450));
        assert_eq!(b.hard, b.soft * 4);
        // Inside the reserve a move takes half an increment, no more.
        let mut l = clock(600, 100, None);
        l.overhead = ms(30);
        let b = Budget::from_limits(&l).unwrap();
        assert_eq!((b.soft, b.hard), (ms(50), ms(50)));
    }

    #[test]
    fn iterations_start_only_early_enough_under_a_clock() {
        let b = Budget::from_limits(&clock(10_000, 100, None)).unwrap();
        let half = b.soft / 2;
        assert!(b.may_start(Duration::ZERO, 1.0));
        assert!(b.may_start(half - ms(1), 1.0));
        assert!(!b.may_start(half, 1.0));
        // A stable root stops earlier, an unsettled one later.
        assert!(!b.may_start(half - ms(1), 0.5));
        assert!(b.may_start(half + ms(50), 2.0));
        assert!(!b.may_start(b.hard, MAX_SCALE));
        // A fixed movetime starts iterations until it is used up, whatever the trend.
        let mt = Limits {
            movetime: Some(ms(110)),
            overhead: ms(10),
            ..Limits::default()
        };
        let b = Budget::from_limits(&mt).unwrap();
        assert!(b.may_start(ms(99), 0.4));
        assert!(!b.may_start(ms(100), 2.5));
    }

    /// Plays a whole game on a simulated clock where every move takes the hard limit plus a
    /// delay from a loaded machine (50 ms: the time between two clock reads, the scheduler, the
    /// pipe): the clock never runs out, and it never falls below the reserve. (Without
    /// an increment no allocation survives every move taking its maximum; there each move takes
    /// at most half the clock, see above.)
    #[test]
    fn worst_case_game_never_flags() {
        for (base, inc, lag) in [(10_000, 100, 50), (60_000, 600, 50), (1_000, 10, 5)] {
            let mut remaining = ms(base);
            let mut lowest = remaining;
            for mv in 0..400 {
                let mut l = clock(0, inc, None);
                l.overhead = ms(30);
                l.clock.as_mut().unwrap().remaining = remaining;
                let b = Budget::from_limits(&l).unwrap();
                // The search may overrun its hard limit by the time between two clock reads
                // and by the scheduler; `lag` stands for both.
                let used = b.hard + ms(lag);
                assert!(
                    used <= remaining,
                    "{base}+{inc}: move {mv} uses {used:?} of {remaining:?}"
                );
                remaining = remaining - used + ms(inc);
                lowest = lowest.min(remaining);
            }
            let reserve = ms(inc) * RESERVE_INCREMENTS + RESERVE_BASE;
            assert!(lowest >= reserve, "{base}+{inc}: {lowest:?}");
        }
    }

    #[test]
    fn stable_best_move_shrinks_the_soft_limit() {
        let mut last = f64::MAX;
        for stable in 0..12 {
            let t = RootTrend {
                stable_iterations: stable,
                ..RootTrend::default()
            };
            let s = soft_scale(&t);
            assert!(s <= last, "{stable}: {s}");
            last = s;
        }
        assert!(last < 0.6, "{last}");
        let fresh = soft_scale(&RootTrend::default());
        assert!(fresh > 1.0 && fresh < 1.5, "{fresh}");
    }

    #[test]
    fn changes_and_drops_stretch_the_soft_limit() {
        let calm = RootTrend {
            stable_iterations: 3,
            ..RootTrend::default()
        };
        let unsettled = RootTrend {
            changes: 1.5,
            ..calm
        };
        assert!(soft_scale(&unsettled) > soft_scale(&calm));
        let mut last = 0.0;
        for drop in [-500, -50, 0, 20, 60, 100, 150, 400] {
            let t = RootTrend {
                score_drop: drop,
                ..calm
            };
            let s = soft_scale(&t);
            assert!(s >= last, "{drop}: {s}");
            last = s;
        }
        let falling = RootTrend {
            score_drop: 150,
            ..calm
        };
        assert!(soft_scale(&falling) > 1.5 * soft_scale(&calm));
        // Everything at once stays within the bounds, and so does nonsense.
        let worst = RootTrend {
            stable_iterations: 0,
            changes: 50.0,
            score_drop: Score::MAX,
        };
        assert_eq!(soft_scale(&worst), MAX_SCALE);
        let odd = RootTrend {
            stable_iterations: u32::MAX,
            changes: f64::NAN,
            score_drop: Score::MIN,
        };
        let s = soft_scale(&odd);
        assert!((MIN_SCALE..=MAX_SCALE).contains(&s), "{s}");
    }

    #[test]
    fn trend_follows_the_iterations() {
        let mut t = RootTrend::default();
        t.update(false, 10, 12);
        t.update(false, 12, 12);
        assert_eq!(t.stable_iterations, 2);
        assert_eq!(t.score_drop, 0);
        t.update(true, 12, -80);
        assert_eq!(t.stable_iterations, 0);
        assert_eq!(t.score_drop, 92);
        assert_eq!(t.changes, 1.0);
        t.update(false, -80, -70);
        assert_eq!(t.changes, 0.5);
        assert_eq!(t.score_drop, -10);
        // A mate score on either side is not a drop.
        t.update(false, 30, -crate::search::MATE + 5);
        assert_eq!(t.score_drop, 0);
    }

    #[test]
    fn scaled_soft_stays_under_the_hard_limit() {
        let b = Budget::from_limits(&clock(10_000, 100, None)).unwrap();
        assert_eq!(b.scaled_soft(1.0), b.soft);
        assert!(b.scaled_soft(0.5) < b.soft);
        assert_eq!(b.scaled_soft(0.0), times(b.soft, MIN_SCALE));
        assert!(b.scaled_soft(MAX_SCALE) <= b.hard);
        assert_eq!(b.scaled_soft(f64::NAN), b.soft);
        // Near the end of the clock the hard cap binds.
        let low = Budget::from_limits(&clock(200, 100_000, None)).unwrap();
        assert_eq!(low.soft, low.hard);
        assert_eq!(low.scaled_soft(MAX_SCALE), low.hard);
        // A fixed movetime is used as given.
        let mt = Limits {
            movetime: Some(ms(100)),
            ..Limits::default()
        };
        let b = Budget::from_limits(&mt).unwrap();
        assert_eq!(b.scaled_soft(0.4), b.soft);
        assert_eq!(b.scaled_soft(2.5), b.soft);
        // Control applies the trend to its soft limit.
        let stop = AtomicBool::new(false);
        let l = clock(10_000, 100, None);
        let mut c = Control::new(&l, &stop);
        let b = Budget::from_limits(&l).unwrap();
        assert_eq!(c.soft_limit(), Some(b.soft));
        let stable = RootTrend {
            stable_iterations: 7,
            ..RootTrend::default()
        };
        c.set_trend(&stable);
        assert_eq!(c.soft_limit(), Some(b.scaled_soft(soft_scale(&stable))));
        assert!(c.soft_limit().unwrap() < b.soft);
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
        let clock_only = Limits {
            movetime: None,
            ..l.clone()
        };
        let c = Budget::from_limits(&clock_only).unwrap();
        assert!(c.scalable && c.soft <= c.hard);
        assert!(c.scaled_soft(MAX_SCALE) <= c.hard);
        assert!(c.may_start(Duration::from_secs(1), MAX_SCALE));
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
