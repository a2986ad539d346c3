//! The progress line on stderr: games done, results so far, rate and estimated time left.

use std::time::{Duration, Instant};

use super::tally::Tally;

/// Tracks timing for the progress line.
#[derive(Clone, Debug)]
pub struct Progress {
    start: Instant,
    total: u64,
    resumed: u64,
    played: u64,
}

fn hms(d: Duration) -> String {
    let s = d.as_secs();
    format!("{}:{:02}:{:02}", s / 3600, (s / 60) % 60, s % 60)
}

impl Progress {
    /// Starts timing a match of `total` games, `resumed` of which were already recorded.
    pub fn new(total: u64, resumed: u64) -> Self {
        Progress {
            start: Instant::now(),
            total,
            resumed,
            played: 0,
        }
    }

    /// Notes one more game played in this run.
    pub fn game_done(&mut self) {
        self.played += 1;
    }

    /// The progress line for the current tally.
    pub fn line(&self, tally: &Tally) -> String {
        let elapsed = self.start.elapsed();
        let per_min = if elapsed.as_secs_f64() > 0.0 {
            self.played as f64 * 60.0 / elapsed.as_secs_f64()
        } else {
            0.0
        };
        let done = tally.games;
        let left = self.total.saturating_sub(done);
        let eta = if self.played > 0 {
            hms(elapsed.mul_f64(left as f64 / self.played as f64))
        } else {
            "?".to_string()
        };
        let results = if tally.head_to_head() {
            format!(
                "+{} ={} -{}",
                tally.wdl.wins, tally.wdl.draws, tally.wdl.losses
            )
        } else {
            let w: Vec<String> = tally.wins_by_seat.iter().map(|w| w.to_string()).collect();
            format!("seat wins {}", w.join("/"))
        };
        let resumed = if self.resumed > 0 {
            format!(" ({} resumed)", self.resumed)
        } else {
            String::new()
        };
        format!(
            "[{done}/{}]{resumed} {results} | {per_min:.1} games/min | elapsed {} | ETA {eta}",
            self.total,
            hms(elapsed)
        )
    }
}
