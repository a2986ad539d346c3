//! Running results of a match, fed one game record at a time: for two engines in two seats
//! W/D/L, Elo, LOS, pentanomial pairs and SPRT; for every match each engine's mean score and
//! mean rank with 95% intervals, wins by seat, and the search depth each engine reported.

use std::collections::HashMap;

use super::records::GameRecord;
use super::stats::{elo_line, sprt_line, Accumulator, Pentanomial, Sprt, SprtDecision, Wdl};

/// The category of a game's ending for the `Endings:` line: the fault kind or rule (the
/// reason up to its first colon), and for adjudications `adjudication (resign rule)`,
/// `adjudication (draw rule)` or `adjudication (ply cap)`, so adjudicated results are counted
/// apart from the games' own endings.
pub fn ending_kind(reason: &str) -> String {
    if let Some(rest) = reason.strip_prefix("adjudication: ") {
        let what = if rest.ends_with("plies reached") {
            "ply cap"
        } else {
            rest
        };
        return format!("adjudication ({what})");
    }
    reason.split(':').next().unwrap_or("").trim().to_string()
}

/// Bits of a packed depth that hold the depth; the seat is above them.
const DEPTH_BITS: u32 = 24;
const DEPTH_MASK: u32 = (1 << DEPTH_BITS) - 1;

/// The (seat, depth) of each move of a game whose engine reported a depth, book moves left out
/// (depths capped at 2^24 - 1, seats below 256, so that they pack into 4 bytes).
fn move_depths(rec: &GameRecord) -> impl Iterator<Item = (usize, u32)> + '_ {
    rec.moves
        .iter()
        .filter(|m| !m.book && m.seat < 256)
        .filter_map(|m| Some((m.seat, m.depth?.min(DEPTH_MASK))))
}

/// [`move_depths`] in 4 bytes a move, for a merge of records files that drops the moves.
pub fn packed_depths(rec: &GameRecord) -> Vec<u32> {
    move_depths(rec)
        .map(|(seat, depth)| ((seat as u32) << DEPTH_BITS) | depth)
        .collect()
}

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
    depths: Vec<DepthTally>,
}

/// The depths one engine reported with its moves (book moves and moves without a depth are not
/// counted): a histogram, so that tallies of shards merge to the unsharded match's figures.
#[derive(Clone, Debug, Default)]
struct DepthTally {
    /// Moves per depth; depths beyond the last bucket are counted in it (the sum stays exact).
    counts: Vec<u64>,
    sum: u64,
}

impl DepthTally {
    /// Depths at or above this share the last histogram bucket.
    const BUCKETS: usize = 256;

    fn add(&mut self, depth: u32) {
        let i = (depth as usize).min(Self::BUCKETS - 1);
        if self.counts.len() <= i {
            self.counts.resize(i + 1, 0);
        }
        self.counts[i] += 1;
        self.sum += u64::from(depth);
    }

    fn moves(&self) -> u64 {
        self.counts.iter().sum()
    }

    /// The lower median (the middle move's depth when sorted, the lower of the two middle ones
    /// for an even count).
    fn median(&self) -> Option<usize> {
        let k = self.moves().checked_sub(1)? / 2;
        let mut seen = 0;
        for (d, &c) in self.counts.iter().enumerate() {
            seen += c;
            if seen > k {
                return Some(d);
            }
        }
        None
    }
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
            depths: vec![DepthTally::default(); n],
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
        for (seat, depth) in move_depths(rec) {
            self.add_depth(&rec.engine_index, seat, depth);
        }
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
        *self.endings.entry(ending_kind(&rec.reason)).or_default() += 1;
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

    /// Counts the depths of one game's engine moves, packed by [`packed_depths`] (a merge of
    /// records files keeps them so and drops the moves).
    pub fn add_depths(&mut self, engine_index: &[usize], packed: &[u32]) {
        for &p in packed {
            self.add_depth(engine_index, (p >> DEPTH_BITS) as usize, p & DEPTH_MASK);
        }
    }

    /// Counts one move's depth for the engine in `seat`.
    fn add_depth(&mut self, engine_index: &[usize], seat: usize, depth: u32) {
        if let Some(t) = engine_index.get(seat).and_then(|&e| self.depths.get_mut(e)) {
            t.add(depth);
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

    /// Mean and median depth of each engine's moves that reported one (`None` for an engine
    /// whose moves reported none): what each reached under the match's limit.
    pub fn depth_summary(&self, e: usize) -> Option<(f64, usize, u64)> {
        let t = self.depths.get(e)?;
        let moves = t.moves();
        Some((t.sum as f64 / moves as f64, t.median()?, moves))
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
            let draws = w.draws as f64 / w.games().max(1) as f64;
            let elo = if self.penta.pairs() > 0 {
                self.penta.elo().map(|e| elo_line(&e, "pair", Some(draws)))
            } else {
                w.elo().map(|e| elo_line(&e, "game", Some(draws)))
            };
            if let Some(line) = elo {
                out.push_str(&line);
                out.push('\n');
            }
            let p = self.penta.0;
            let pairs = self.penta.pairs();
            out.push_str(&format!(
                "Ptnml(0-2): [{}, {}, {}, {}, {}] ({pairs} pair{})\n",
                p[0],
                p[1],
                p[2],
                p[3],
                p[4],
                if pairs == 1 { "" } else { "s" }
            ));
            if let Some((llr, _, s)) = self.sprt() {
                out.push_str(&sprt_line(&s, llr));
                out.push('\n');
            }
        }
        out.push_str(&format!(
            "{:<20} {:>6} {:>17} {:>17}\n",
            "Engine", "games", "mean score", "mean rank"
        ));
        for (e, name) in self.engines.iter().enumerate() {
            let (s, r) = self.engine_summary(e);
            out.push_str(&format!(
                "{:<20} {:>6} {:>8.3} +/- {:<5.3} {:>8.2} +/- {:.2}\n",
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
        let depths: Vec<String> = (0..self.engines.len())
            .filter_map(|e| {
                let (mean, median, moves) = self.depth_summary(e)?;
                Some(format!(
                    "{} mean {mean:.2}, median {median} ({moves} moves)",
                    self.engines[e]
                ))
            })
            .collect();
        if !depths.is_empty() {
            out.push_str(&format!("Depth: {}\n", depths.join("; ")));
        }
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
            report.contains("Elo difference: +inf (a score of 100 %: no finite estimate)"),
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

    #[test]
    fn pairs_without_variance_report_no_interval() {
        // Two identical engines that each win with the first seat: every pair is 1-1.
        let mut t = Tally::new(vec!["a".into(), "b".into()], 2, None);
        for block in 0..3 {
            t.add(&game(block, false, 0));
            t.add(&game(block, true, 1));
        }
        let report = t.report();
        assert!(
            report.contains("Elo difference: 0.0 (no interval: 3 pairs without variance), nElo: n/a, LOS: 50.0 %"),
            "{report}"
        );
        assert!(!report.contains("+/- 0.0"), "{report}");
        assert!(!report.contains("-0.0"), "{report}");
    }

    #[test]
    fn adjudications_are_counted_apart() {
        assert_eq!(
            ending_kind("adjudication: 300 plies reached"),
            "adjudication (ply cap)"
        );
        assert_eq!(
            ending_kind("adjudication: resign rule"),
            "adjudication (resign rule)"
        );
        assert_eq!(ending_kind("crash: seat 1 (a): gone"), "crash");
        assert_eq!(ending_kind("checkmate"), "checkmate");
    }

    #[test]
    fn depths_are_summed_per_engine_without_book_moves() {
        use crate::referee::records::MoveRecord;
        let mv = |seat: usize, book: bool, depth: Option<u32>| MoveRecord {
            seat,
            mv: "a1".into(),
            book,
            ms: 1,
            clock_ms: None,
            score: None,
            depth,
        };
        let mut t = Tally::new(vec!["a".into(), "b".into()], 2, None);
        // Engine a sits in seat 0 of the first game and seat 1 of the second.
        let mut first = game(0, false, 0);
        first.moves = vec![
            mv(0, true, Some(40)),
            mv(1, false, Some(7)),
            mv(0, false, Some(3)),
            mv(1, false, None),
            mv(0, false, Some(5)),
        ];
        let mut second = game(0, true, 1);
        second.moves = vec![mv(0, false, Some(9)), mv(1, false, Some(1000))];
        t.add(&first);
        t.add(&second);
        // a: 3, 5, 1000 (a misbehaving engine's depth counts in full in the mean); b: 7, 9.
        // A merge of records files counts the same from the packed depths.
        let mut merged = Tally::new(vec!["a".into(), "b".into()], 2, None);
        for g in [&first, &second] {
            let mut bare = g.clone();
            bare.moves.clear();
            merged.add(&bare);
            merged.add_depths(&g.engine_index, &packed_depths(g));
        }
        assert_eq!(merged.depth_summary(0), Some((336.0, 5, 3)));
        assert_eq!(merged.depth_summary(1), Some((8.0, 7, 2)));
        assert_eq!(t.depth_summary(0), Some((336.0, 5, 3)));
        assert_eq!(t.depth_summary(1), Some((8.0, 7, 2)));
        let report = t.report();
        assert!(
            report.contains(
                "Depth: a mean 336.00, median 5 (3 moves); b mean 8.00, median 7 (2 moves)\n"
            ),
            "{report}"
        );
        let mut silent = Tally::new(vec!["a".into(), "b".into()], 2, None);
        let mut g = game(1, false, 0);
        g.moves = vec![mv(0, false, None), mv(1, true, Some(4))];
        silent.add(&g);
        assert_eq!(silent.depth_summary(0), None);
        assert!(!silent.report().contains("Depth:"), "{}", silent.report());
    }
}
