//! Time controls and each seat's clock: what `go` tells an engine, how long the referee waits,
//! and when a seat has lost on time (with a configurable margin).

use std::time::Duration;

/// Longest base time or increment `--tc` accepts, in seconds (one week).
pub const MAX_TC_SECONDS: f64 = 604_800.0;

/// Milliseconds with three decimals (microsecond precision) for fault reasons.
pub fn ms_text(d: Duration) -> String {
    format!("{:.3} ms", d.as_micros() as f64 / 1000.0)
}

/// How long engines may think.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TimeControl {
    /// Base time per seat plus an increment per move (`--tc 10+0.1`).
    Clock {
        /// Starting time of each seat.
        base: Duration,
        /// Added after each move.
        increment: Duration,
    },
    /// Fixed time per move (`--movetime MS`).
    MoveTime(Duration),
    /// Fixed node count per move (`--nodes N`); only the hang timeout limits time.
    Nodes(u64),
    /// Fixed search depth per move (`--depth N`: UCI `go depth N`, CECP `sd N`); only the hang
    /// timeout limits time.
    Depth(u32),
}

impl TimeControl {
    /// Parses `base+inc` in seconds (`10+0.1`, `60`, `0.5+0.01`).
    pub fn parse_tc(text: &str) -> Result<Self, String> {
        let (base, inc) = match text.split_once('+') {
            Some((b, i)) => (b, i),
            None => (text, "0"),
        };
        let secs = |s: &str| -> Result<Duration, String> {
            let v: f64 = s
                .trim()
                .parse()
                .map_err(|_| format!("--tc {text:?}: {s:?} is not a number of seconds"))?;
            if !(0.0..=MAX_TC_SECONDS).contains(&v) {
                return Err(format!("--tc {text:?}: {s:?} is out of range"));
            }
            Ok(Duration::from_secs_f64(v))
        };
        let base = secs(base)?;
        if base < Duration::from_millis(1) {
            return Err(format!("--tc {text:?}: base time must be at least 0.001 s"));
        }
        Ok(TimeControl::Clock {
            base,
            increment: secs(inc)?,
        })
    }

    /// Short text for records (`10+0.1`, `movetime=100ms`, `nodes=1000`).
    pub fn describe(&self) -> String {
        match self {
            TimeControl::Clock { base, increment } => {
                format!("{}+{}", base.as_secs_f64(), increment.as_secs_f64())
            }
            TimeControl::MoveTime(t) => format!("movetime={}ms", t.as_millis()),
            TimeControl::Nodes(n) => format!("nodes={n}"),
            TimeControl::Depth(d) => format!("depth={d}"),
        }
    }
}

/// How a game's engines expect the clock in `go`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum GoStyle {
    /// Every seat's clock: `wtime/btime/winc/binc` for two seats, `s1time/s1inc/...` for more.
    #[default]
    SeatClocks,
    /// Only the deciding seat's own clock: `go time <ms> inc <ms>` (Space Wars).
    OwnClock,
}

/// A seat ran out of time.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Flagged {
    /// Time the move took, or the time waited when no answer came.
    pub used: Duration,
    /// Time the seat had, including the margin.
    pub allowed: Duration,
    /// The margin part of `allowed`.
    pub margin: Duration,
    /// True when no answer came at all before the deadline.
    pub no_answer: bool,
}

impl Flagged {
    /// The reason's detail: `did not answer within 515.000 ms (415.000 ms on the clock +
    /// 100.000 ms margin)` or `answered after 515.271 ms, allowed 515.000 ms (...)`, in
    /// microsecond precision so the overrun shows.
    pub fn describe(&self) -> String {
        let parts = format!(
            "{} for the move + {} margin",
            ms_text(self.allowed.saturating_sub(self.margin)),
            ms_text(self.margin)
        );
        if self.no_answer {
            format!("did not answer within {} ({parts})", ms_text(self.allowed))
        } else {
            format!(
                "answered after {}, allowed {} ({parts})",
                ms_text(self.used),
                ms_text(self.allowed)
            )
        }
    }
}

/// Every seat's clock in one game.
#[derive(Clone, Debug)]
pub struct Clocks {
    control: TimeControl,
    remaining: Vec<Duration>,
    margin: Duration,
    hang: Duration,
}

fn ms(d: Duration) -> u128 {
    d.as_millis()
}

impl Clocks {
    /// Fresh clocks for `seats` seats; `margin` is the grace before a time forfeit and `hang`
    /// the wait for an answer when no clock limits it (node-limited searches).
    pub fn new(control: TimeControl, seats: usize, margin: Duration, hang: Duration) -> Self {
        let start = match control {
            TimeControl::Clock { base, .. } => base,
            _ => Duration::ZERO,
        };
        Clocks {
            control,
            remaining: vec![start; seats],
            margin,
            hang,
        }
    }

    /// Time left on a seat's clock (zero without a clock).
    pub fn remaining(&self, seat: usize) -> Duration {
        self.remaining[seat]
    }

    /// The arguments of `go` for `seat` in the UCI-style dialect: `wtime/btime/winc/binc` for two
    /// seats, `s1time/s1inc/s2time/...` for more, `movetime` or `nodes` otherwise.
    pub fn uci_go(&self) -> String {
        self.uci_go_styled(0, GoStyle::SeatClocks)
    }

    /// The `go` line for `seat` in the given style.
    pub fn uci_go_styled(&self, seat: usize, style: GoStyle) -> String {
        match self.control {
            TimeControl::Clock { increment, .. } => {
                let inc = ms(increment);
                if style == GoStyle::OwnClock {
                    format!("go time {} inc {inc}", ms(self.remaining[seat]))
                } else if self.remaining.len() == 2 {
                    format!(
                        "go wtime {} btime {} winc {inc} binc {inc}",
                        ms(self.remaining[0]),
                        ms(self.remaining[1])
                    )
                } else {
                    let mut s = String::from("go");
                    for (i, r) in self.remaining.iter().enumerate() {
                        s.push_str(&format!(" s{n}time {} s{n}inc {inc}", ms(*r), n = i + 1));
                    }
                    s
                }
            }
            TimeControl::MoveTime(t) => format!("go movetime {}", ms(t)),
            TimeControl::Nodes(n) => format!("go nodes {n}"),
            TimeControl::Depth(d) => format!("go depth {d}"),
        }
    }

    /// How long the referee waits for `seat`'s answer before calling it a forfeit or a hang.
    pub fn wait_limit(&self, seat: usize) -> Duration {
        match self.control {
            TimeControl::Clock { .. } => self.remaining[seat] + self.margin,
            TimeControl::MoveTime(t) => t + self.margin,
            TimeControl::Nodes(_) | TimeControl::Depth(_) => self.hang,
        }
    }

    /// The grace added to every timed wait.
    pub fn margin(&self) -> Duration {
        self.margin
    }

    /// True when running past [`Clocks::wait_limit`] is a time forfeit rather than a hang.
    pub fn is_timed(&self) -> bool {
        !matches!(self.control, TimeControl::Nodes(_) | TimeControl::Depth(_))
    }

    /// Charges a move that took `used` to `seat`: flags if over the limit (compared in whole
    /// microseconds, the precision of the reason text), else deducts the time and adds the
    /// increment.
    pub fn charge(&mut self, seat: usize, used: Duration) -> Result<(), Flagged> {
        let allowed = self.wait_limit(seat);
        if self.is_timed() && used.as_micros() > allowed.as_micros() {
            return Err(Flagged {
                used,
                allowed,
                margin: self.margin,
                no_answer: false,
            });
        }
        if let TimeControl::Clock { increment, .. } = self.control {
            self.remaining[seat] = self.remaining[seat].saturating_sub(used) + increment;
        }
        Ok(())
    }

    /// The control these clocks run under.
    pub fn control(&self) -> TimeControl {
        self.control
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_tc() {
        assert_eq!(
            TimeControl::parse_tc("10+0.1").unwrap(),
            TimeControl::Clock {
                base: Duration::from_secs(10),
                increment: Duration::from_millis(100)
            }
        );
        assert!(TimeControl::parse_tc("x+1").is_err());
        assert!(TimeControl::parse_tc("0+1").is_err());
        assert!(TimeControl::parse_tc("-1").is_err());
        assert!(TimeControl::parse_tc("nan").is_err());
        assert!(TimeControl::parse_tc("inf").is_err());
        assert!(TimeControl::parse_tc("0.0001").is_err());
        assert!(TimeControl::parse_tc("604801").is_err());
        assert!(TimeControl::parse_tc("1+604801").is_err());
    }

    #[test]
    fn flag_text_shows_the_overrun() {
        let f = Flagged {
            used: Duration::from_micros(515_271),
            allowed: Duration::from_millis(515),
            margin: Duration::from_millis(100),
            no_answer: false,
        };
        assert_eq!(
            f.describe(),
            "answered after 515.271 ms, allowed 515.000 ms (415.000 ms for the move + 100.000 ms margin)"
        );
        let mut c = Clocks::new(
            TimeControl::MoveTime(Duration::from_millis(415)),
            2,
            Duration::from_millis(100),
            Duration::from_secs(1),
        );
        let flag = c.charge(1, Duration::from_micros(515_001)).unwrap_err();
        assert_eq!(flag.used, Duration::from_micros(515_001));
        assert!(c.charge(1, Duration::from_nanos(515_000_900)).is_ok());
    }

    #[test]
    fn go_lines_and_flags() {
        let tc = TimeControl::parse_tc("1+0.01").unwrap();
        let mut c = Clocks::new(tc, 2, Duration::from_millis(50), Duration::from_secs(5));
        assert_eq!(c.uci_go(), "go wtime 1000 btime 1000 winc 10 binc 10");
        c.charge(0, Duration::from_millis(300)).unwrap();
        assert_eq!(c.remaining(0), Duration::from_millis(710));
        assert_eq!(c.wait_limit(0), Duration::from_millis(760));
        let f = c.charge(1, Duration::from_millis(1051)).unwrap_err();
        assert_eq!(f.margin, Duration::from_millis(50));
        assert_eq!(f.allowed, Duration::from_millis(1050));
        let three = Clocks::new(tc, 3, Duration::ZERO, Duration::from_secs(1));
        assert_eq!(
            three.uci_go(),
            "go s1time 1000 s1inc 10 s2time 1000 s2inc 10 s3time 1000 s3inc 10"
        );
        let mut mt = Clocks::new(
            TimeControl::MoveTime(Duration::from_millis(100)),
            2,
            Duration::from_millis(20),
            Duration::from_secs(1),
        );
        assert_eq!(mt.uci_go(), "go movetime 100");
        assert_eq!(mt.uci_go_styled(1, GoStyle::OwnClock), "go movetime 100");
        assert_eq!(
            three.uci_go_styled(2, GoStyle::OwnClock),
            "go time 1000 inc 10"
        );
        assert!(mt.charge(0, Duration::from_millis(119)).is_ok());
        assert!(mt.charge(0, Duration::from_millis(121)).is_err());
        let mut n = Clocks::new(
            TimeControl::Nodes(500),
            2,
            Duration::ZERO,
            Duration::from_secs(2),
        );
        assert_eq!(n.uci_go(), "go nodes 500");
        assert!(n.charge(0, Duration::from_secs(100)).is_ok());
    }
}
