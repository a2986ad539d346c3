//! Search counters for profiling node types and move-ordering quality (`cargo build --features
//! search-stats`, then `RUST_LOG=info`): main and quiescence nodes, hash hits and cutoffs,
//! first-move cutoff rate and which stage of the move picker the cutting move came from, null-move
//! and reduction outcomes. Without the feature every counter is a no-op that compiles away, so
//! release builds pay nothing in the hot path.

/// What is counted.
#[derive(Clone, Copy, Debug)]
#[allow(missing_docs)]
pub enum Counter {
    /// Main-search nodes (depth > 0).
    Main,
    /// Quiescence nodes.
    Quiescence,
    /// Quiescence nodes in check (evasions searched).
    QsEvasion,
    /// Hash probes of the main search.
    TtProbe,
    /// Main-search probes that found the position.
    TtHit,
    /// Main-search nodes cut by the hash entry.
    TtCut,
    /// Main-search nodes that failed high.
    FailHigh,
    /// ... on the first move searched.
    FailHighFirst,
    /// Null-move searches tried.
    NullTry,
    /// ... that failed high.
    NullCut,
    /// Reduced searches.
    Reduced,
    /// ... that had to be re-searched at full depth.
    ReSearch,
    /// Nodes cut by reverse futility.
    Rfp,
    /// Moves skipped by futility / late-move / history / SEE pruning.
    Pruned,
    /// Quiescence moves skipped by delta or SEE pruning.
    QsPruned,
    /// Quiet-move generations (the picker's last stage) in the main search.
    QuietGen,
    /// Singular-extension searches.
    SingularTry,
    /// ... that extended.
    SingularExt,
    /// Fail-highs by the picker's stage of the cutting move: the hash move, a capture that does
    /// not lose by exchange, a killer, another quiet move, a losing capture.
    CutHash,
    CutGoodNoisy,
    CutKiller,
    CutQuiet,
    CutBadNoisy,
    /// ... of those (hash move aside) the ones that came after the first move searched.
    LateGoodNoisy,
    LateKiller,
    LateQuiet,
    LateBadNoisy,
}

/// The picker's stage a cutting move came from (see [`Stats::cut`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CutStage {
    Hash,
    GoodNoisy,
    Killer,
    Quiet,
    BadNoisy,
}

#[cfg(feature = "search-stats")]
const COUNTERS: usize = Counter::LateBadNoisy as usize + 1;

/// The counters of one search.
#[derive(Clone, Debug, Default)]
pub struct Stats {
    #[cfg(feature = "search-stats")]
    counts: [u64; COUNTERS],
}

impl Stats {
    /// Adds one to a counter (nothing without the `search-stats` feature).
    #[inline(always)]
    pub fn bump(&mut self, _c: Counter) {
        #[cfg(feature = "search-stats")]
        {
            self.counts[_c as usize] += 1;
        }
    }

    /// Counts a fail-high by a move of `stage`, `first` when it was the first move searched.
    #[inline(always)]
    pub fn cut(&mut self, stage: CutStage, first: bool) {
        use Counter::*;
        let (all, late) = match stage {
            CutStage::Hash => (CutHash, None),
            CutStage::GoodNoisy => (CutGoodNoisy, Some(LateGoodNoisy)),
            CutStage::Killer => (CutKiller, Some(LateKiller)),
            CutStage::Quiet => (CutQuiet, Some(LateQuiet)),
            CutStage::BadNoisy => (CutBadNoisy, Some(LateBadNoisy)),
        };
        self.bump(all);
        if let (Some(late), false) = (late, first) {
            self.bump(late);
        }
    }

    /// The value of a counter (0 without the feature).
    pub fn get(&self, _c: Counter) -> u64 {
        #[cfg(feature = "search-stats")]
        {
            self.counts[_c as usize]
        }
        #[cfg(not(feature = "search-stats"))]
        {
            0
        }
    }

    /// Whether counting is compiled in.
    pub const fn enabled() -> bool {
        cfg!(feature = "search-stats")
    }

    /// One line summing up the counters and the rates derived from them.
    pub fn summary(&self) -> String {
        use Counter::*;
        let pct = |a: u64, b: u64| {
            if b == 0 {
                0.0
            } else {
                100.0 * a as f64 / b as f64
            }
        };
        let total = self.get(Main) + self.get(Quiescence);
        format!(
            "nodes main {} qs {} ({:.1}% qs, {} evasion) | tt hit {:.1}% cut {:.1}% | \
             fail-high {} first {:.1}% | null {} cut {:.1}% | reduced {} re-search {:.1}% | \
             rfp {} pruned {} qs-pruned {} | quiet gens {} | singular {} ext {} | \
             cuts by hash move {} good capture {} killer {} quiet {} losing capture {} \
             (not first: good {} killer {} quiet {} losing {})",
            self.get(Main),
            self.get(Quiescence),
            pct(self.get(Quiescence), total),
            self.get(QsEvasion),
            pct(self.get(TtHit), self.get(TtProbe)),
            pct(self.get(TtCut), self.get(TtProbe)),
            self.get(FailHigh),
            pct(self.get(FailHighFirst), self.get(FailHigh)),
            self.get(NullTry),
            pct(self.get(NullCut), self.get(NullTry)),
            self.get(Reduced),
            pct(self.get(ReSearch), self.get(Reduced)),
            self.get(Rfp),
            self.get(Pruned),
            self.get(QsPruned),
            self.get(QuietGen),
            self.get(SingularTry),
            self.get(SingularExt),
            self.get(CutHash),
            self.get(CutGoodNoisy),
            self.get(CutKiller),
            self.get(CutQuiet),
            self.get(CutBadNoisy),
            self.get(LateGoodNoisy),
            self.get(LateKiller),
            self.get(LateQuiet),
            self.get(LateBadNoisy),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counters_count_only_with_the_feature() {
        let mut s = Stats::default();
        s.bump(Counter::Main);
        s.bump(Counter::Main);
        let expect = if Stats::enabled() { 2 } else { 0 };
        assert_eq!(s.get(Counter::Main), expect);
        assert!(s.summary().contains("nodes main"));
    }

    #[test]
    fn cuts_count_by_stage_and_after_the_first_move() {
        let mut s = Stats::default();
        s.cut(CutStage::Killer, false);
        s.cut(CutStage::Killer, true);
        s.cut(CutStage::Hash, true);
        let on = Stats::enabled() as u64;
        assert_eq!(s.get(Counter::CutKiller), 2 * on);
        assert_eq!(s.get(Counter::LateKiller), on);
        assert_eq!(s.get(Counter::CutHash), on);
        assert_eq!(s.get(Counter::LateQuiet), 0);
        let expect = if on == 1 {
            "killer 2 quiet 0 losing capture 0 (not first: good 0 killer 1 quiet 0 losing 0)"
        } else {
            "killer 0 quiet 0 losing capture 0 (not first: good 0 killer 0 quiet 0 losing 0)"
        };
        assert!(s.summary().contains(expect), "{}", s.summary());
    }
}
