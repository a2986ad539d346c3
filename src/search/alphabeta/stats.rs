//! Search counters for profiling node types and move-ordering quality (`cargo build --features
//! search-stats`, then `RUST_LOG=info`): main and quiescence nodes, hash hits and cutoffs,
//! first-move cutoff rate, null-move and reduction outcomes. Without the feature every counter is
//! a no-op that compiles away, so release builds pay nothing in the hot path.

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
}

#[cfg(feature = "search-stats")]
const COUNTERS: usize = Counter::SingularExt as usize + 1;

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
             rfp {} pruned {} qs-pruned {} | quiet gens {} | singular {} ext {}",
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
}
