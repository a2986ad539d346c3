//! Running results of a match, fed one game record at a time: for two engines in two seats
//! W/D/L, Elo, LOS, pentanomial pairs and SPRT; for every match each engine's mean score and
//! mean rank with 95% intervals, and wins by seat.

use std::collections::HashMap;

use super::records::GameRecord;
use super::stats::{Accumulator, Pentanomial, Sprt, SprtDecision, Wdl};

/// Everything counted so far.
#[derive(Clone, Debug)]
pub struct Tally {
    engines: Vec<String>,
    seats: usize,
    /// Games counted.
    pub games: u64,
    /// First engine's W/D/L (two engines in two seats).
    pub wdl: Wdl,
    /// Pairs of games (same block) by the first engine's pair score.
    pub penta: Pentanomial,
    pending_pairs: HashMap<u64, f64>,
    score: Vec<Accumulator>,
    rank: Vec<Accumulator>,
    /// Games won outright (sole first place) by seat.
    pub wins_by_seat: Vec<u64>,
    /// Games ended by each engine fault kind or rule, by reason prefix.
    pub endings: HashMap<String, u64>,
    sprt: Option<Sprt>,
    overhead_us: u64,
    engine_moves: u64,
}

impl Tally {
    /// An empty tally for these engines and seat count.
    pub fn new(engines: Vec<String>, seats: usize, sprt: Option<Sprt>) -> Self {
        let n = engines.len();
        Tally {
            engines,
            seats,
            games: 0,
            wdl: Wdl::default(),
            penta: Pentanomial::default(),
            pending_pairs: HashMap::new(),
            score: vec![Accumulator::default(); n],
            rank: vec![Accumulator::default(); n],
            wins_by_seat: vec![0; seats],
            endings: HashMap::new(),
            sprt,
            overhead_us: 0,
            engine_moves: 0,
        }
    }

    /// True for a two-engine, two-seat match (head-to-head statistics apply).
    pub fn head_to_head(&self) -> bool {
        self.engines.len() == 2 && self.seats == 2
    }

    /// Counts one finished game.
    pub fn add(&mut self, rec: &GameRecord) {
        self.games += 1;
        self.overhead_us += rec.overhead_us;
        self.engine_moves += rec.engine_moves;
        for (seat, &e) in rec.engine_index.iter().enumerate() {
            if e < self.score.len() {
                self.score[e].add(rec.seat_score(seat));
                self.rank[e].add(rec.ranks[seat]);
            }
        }
        let best = rec.ranks.iter().cloned().fold(f64::INFINITY, f64::min);
        if best == 1.0 {
            if let Some(seat) = rec.ranks.iter().position(|&r| r == 1.0) {
                if seat < self.wins_by_seat.len() {
                    self.wins_by_seat[seat] += 1;
                }
            }
        }
        let kind = rec
            .reason
            .split(':')
            .next()
            .unwrap_or("")
            .trim()
            .to_string();
        *self.endings.entry(kind).or_default() += 1;
        if self.head_to_head() {
            let Some(seat0) = rec.engine_index.iter().position(|&e| e == 0) else {
                return;
            };
            let s = rec.seat_score(seat0);
            if s == 1.0 {
                self.wdl.wins += 1;
            } else if s == 0.0 {
                self.wdl.losses += 1;
            } else {
                self.wdl.draws += 1;
            }
            match self.pending_pairs.remove(&rec.block) {
                Some(first) => self.penta.add_pair(first, s),
                None => {
                    self.pending_pairs.insert(rec.block, s);
                }
            }
        }
    }

    /// Current SPRT LLR (pentanomial when pairs exist, else trinomial) and decision.
    pub fn sprt(&self) -> Option<(f64, SprtDecision, Sprt)> {
        let sprt = self.sprt?;
        if !self.head_to_head() {
            return None;
        }
        let llr = if self.penta.pairs() > 0 {
            sprt.llr_pentanomial(&self.penta)
        } else {
            sprt.llr_trinomial(&self.wdl)
        };
        Some((llr, sprt.decide(llr), sprt))
    }

    /// Mean score and mean rank (with 95% intervals) of engine `e`.
    pub fn engine_summary(
        &self,
        e: usize,
    ) -> (super::stats::MeanInterval, super::stats::MeanInterval) {
        (self.score[e].interval(), self.rank[e].interval())
    }

    /// Mean referee time per engine move in microseconds (see [`GameRecord::overhead_us`]).
    pub fn overhead_per_move_us(&self) -> Option<f64> {
        (self.engine_moves > 0).then(|| self.overhead_us as f64 / self.engine_moves as f64)
    }

    /// The multi-line report printed at intervals and at the end.
    pub fn report(&self) -> String {
        let mut out = String::new();
        if self.head_to_head() {
            let w = &self.wdl;
            out.push_str(&format!(
                "Score of {} vs {}: {} - {} - {} [{:.3}] {}\n",
                self.engines[0],
                self.engines[1],
                w.wins,
                w.losses,
                w.draws,
                w.score(),
                w.games()
            ));
            let elo = if self.penta.pairs() > 0 {
                self.penta.elo()
            } else {
                w.elo()
            };
            if let Some(e) = elo.filter(|e| !e.elo.is_finite()) {
                // A score of 0 % or 100 % has no finite logistic Elo and no meaningful interval.
                out.push_str(&format!(
                    "Elo difference: {}inf (a score of 0 or 100 %: no finite estimate), LOS: {:.1} %, DrawRatio: {:.1} %\n",
                    if e.elo > 0.0 { "+" } else { "-" },
                    w.los() * 100.0,
                    100.0 * w.draws as f64 / w.games().max(1) as f64
                ));
            } else if let Some(e) = elo {
                out.push_str(&format!(
                    "Elo difference: {:.1} +/- {:.1} (95% [{:.1}, {:.1}]), LOS: {:.1} %, DrawRatio: {:.1} %\n",
                    e.elo,
                    e.margin(),
                    e.low,
                    e.high,
                    w.los() * 100.0,
                    100.0 * w.draws as f64 / w.games().max(1) as f64
                ));
            }
            let p = self.penta.0;
            out.push_str(&format!(
                "Ptnml(0-2): [{}, {}, {}, {}, {}] ({} pairs)\n",
                p[0],
                p[1],
                p[2],
                p[3],
                p[4],
                self.penta.pairs()
            ));
            if let Some((llr, d, s)) = self.sprt() {
                out.push_str(&format!(
                    "SPRT [{}, {}] alpha {} beta {}: LLR {:.2} ({:.2}, {:.2}) {}\n",
                    s.elo0,
                    s.elo1,
                    s.alpha,
                    s.beta,
                    llr,
                    s.lower_bound(),
                    s.upper_bound(),
                    match d {
                        SprtDecision::H0 => "H0 accepted",
                        SprtDecision::H1 => "H1 accepted",
                        SprtDecision::Continue => "continue",
                    }
                ));
            }
        }
        out.push_str(&format!(
            "{:<20} {:>6} {:>17} {:>17}\n",
            "Engine", "games", "mean score", "mean rank"
        ));
        for (e, name) in self.engines.iter().enumerate() {
            let (s, r) = self.engine_summary(e);
            out.push_str(&format!(
                "{:<20} {:>6} {:>8.3} +/- {:<5.3} {:>8.2} +/- {:<5.2}\n",
                name, s.n, s.mean, s.margin, r.mean, r.margin
            ));
        }
        let seats: Vec<String> = self
            .wins_by_seat
            .iter()
            .enumerate()
            .map(|(i, w)| format!("seat {}: {w}", i + 1))
            .collect();
        out.push_str(&format!("Wins by seat: {}\n", seats.join(", ")));
        let mut endings: Vec<_> = self.endings.iter().collect();
        endings.sort();
        let endings: Vec<String> = endings.iter().map(|(k, v)| format!("{k} {v}")).collect();
        out.push_str(&format!("Endings: {}\n", endings.join(", ")));
        if let Some(us) = self.overhead_per_move_us() {
            out.push_str(&format!(
                "Referee overhead: {us:.0} us per move ({} engine moves)\n",
                self.engine_moves
            ));
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::referee::records::tests::sample;

    /// A game of the two-engine match: `winner_engine` (0 or 1) wins, engines swap seats by block.
    fn game(block: u64, swap: bool, winner_engine: usize) -> GameRecord {
        let mut rec = sample();
        rec.block = block;
        rec.engine_index = if swap { vec![1, 0] } else { vec![0, 1] };
        let winner_seat = rec
            .engine_index
            .iter()
            .position(|&e| e == winner_engine)
            .unwrap();
        rec.ranks = if winner_seat == 0 {
            vec![1.0, 2.0]
        } else {
            vec![2.0, 1.0]
        };
        rec
    }

    #[test]
    fn a_clean_sweep_reports_infinite_elo_without_an_interval() {
        let mut t = Tally::new(vec!["a".into(), "b".into()], 2, None);
        t.add(&game(0, false, 0));
        t.add(&game(0, true, 0));
        let report = t.report();
        assert!(report.contains("Score of a vs b: 2 - 0 - 0"), "{report}");
        assert!(
            report.contains("Elo difference: +inf (a score of 0 or 100 %"),
            "{report}"
        );
        assert!(!report.contains("+/- inf"), "{report}");
    }

    #[test]
    fn a_mixed_result_reports_a_finite_interval() {
        let mut t = Tally::new(vec!["a".into(), "b".into()], 2, None);
        for block in 0..4 {
            t.add(&game(block, false, 0));
            t.add(&game(block, true, (block % 2) as usize));
        }
        let report = t.report();
        assert!(report.contains("Score of a vs b: 6 - 2 - 0"), "{report}");
        assert!(report.contains("Elo difference: 190.8 +/- "), "{report}");
    }
}
