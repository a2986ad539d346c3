//! The transposition table: a fixed-size hash of positions already searched, in buckets of
//! [`BUCKET`] entries, each with a full key check, the depth and bound of its score, and the best
//! move (stored as the game's own move type).

use crate::search::{Score, MATE_BOUND};

/// Entries per bucket; a position may sit in any entry of the bucket its key selects.
pub const BUCKET: usize = 4;

/// The stored static evaluation of a position that was not evaluated (in check).
pub const NO_EVAL: Score = Score::MIN;

/// A same-position result shallower than the stored one by more than this many plies does not
/// replace it (unless exact, or the stored one is from an older search).
const KEEP_DEEPER: i32 = 3;

/// What a stored score says about the true value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    /// The true value.
    Exact,
    /// The true value is at least the score (a beta cutoff).
    Lower,
    /// The true value is at most the score (no move raised alpha).
    Upper,
}

impl Bound {
    /// What a search's `best` score says, searched with the window (`alpha`, `beta`).
    #[inline]
    pub fn of(best: Score, alpha: Score, beta: Score) -> Bound {
        if best >= beta {
            Bound::Lower
        } else if best > alpha {
            Bound::Exact
        } else {
            Bound::Upper
        }
    }
}

/// One stored position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entry<M> {
    /// The full hash key, checked on probe.
    pub key: u64,
    /// Best (or refuting) move found, if any.
    pub mv: Option<M>,
    /// Score, mate scores counted from this position (see [`to_tt`]).
    pub score: Score,
    /// Static evaluation of the position ([`NO_EVAL`] when it was in check).
    pub eval: Score,
    /// Depth the score was searched to.
    pub depth: i16,
    /// What kind of bound the score is.
    pub bound: Bound,
    /// Search generation that wrote the entry (older ones are replaced first).
    pub generation: u8,
}

/// One bucket, aligned to a cache line so that a probe touches as few lines as the bucket's size
/// allows: with Spider-Chess's 32-byte entries two lines, where an unaligned bucket crosses three
/// (entries of 24 bytes, as Solar Chess's, are padded to the same 128 bytes).
#[derive(Clone, Copy)]
#[repr(align(64))]
struct Bucket<M>([Option<Entry<M>>; BUCKET]);

impl<M: Copy> Bucket<M> {
    const EMPTY: Self = Bucket([None; BUCKET]);
}

/// Hash table of searched positions sized in MiB.
pub struct TranspositionTable<M> {
    buckets: Vec<Bucket<M>>,
    generation: u8,
}

impl<M: Copy> TranspositionTable<M> {
    /// A table using at most `mib` MiB (at least one bucket).
    pub fn new(mib: usize) -> Self {
        let mut tt = TranspositionTable {
            buckets: Vec::new(),
            generation: 0,
        };
        tt.resize(mib);
        tt
    }

    /// Number of buckets that fit in `mib` MiB.
    fn buckets_for(mib: usize) -> usize {
        let bytes = mib.saturating_mul(1024 * 1024);
        (bytes / std::mem::size_of::<Bucket<M>>()).max(1)
    }

    /// Reallocates for `mib` MiB; the contents are lost.
    pub fn resize(&mut self, mib: usize) {
        let n = Self::buckets_for(mib);
        self.buckets = Vec::new();
        let mut fresh = Vec::with_capacity(n);
        advise_huge_pages(&fresh);
        fresh.resize(n, Bucket::EMPTY);
        self.buckets = fresh;
    }

    /// Reallocates for `mib` MiB without aborting when the memory cannot be had: on failure the
    /// old table is kept, contents and all, and the error says why. The new table is allocated
    /// before the old one is freed.
    pub fn try_resize(&mut self, mib: usize) -> Result<(), String> {
        let n = Self::buckets_for(mib);
        let mut fresh: Vec<Bucket<M>> = Vec::new();
        fresh
            .try_reserve_exact(n)
            .map_err(|e| format!("cannot allocate a hash table of {mib} MiB ({e})"))?;
        advise_huge_pages(&fresh);
        fresh.resize(n, Bucket::EMPTY);
        self.buckets = fresh;
        Ok(())
    }

    /// Forgets every entry (a new game).
    pub fn clear(&mut self) {
        self.buckets.iter_mut().for_each(|b| *b = Bucket::EMPTY);
        self.generation = 0;
    }

    /// Marks the start of a new search so that older entries are replaced first.
    pub fn new_search(&mut self) {
        self.generation = self.generation.wrapping_add(1);
    }

    /// Number of entries the table holds.
    pub fn capacity(&self) -> usize {
        self.buckets.len() * BUCKET
    }

    #[inline]
    fn index(&self, key: u64) -> usize {
        // Multiply-shift maps the key evenly onto the buckets without a division.
        ((key as u128 * self.buckets.len() as u128) >> 64) as usize
    }

    /// Starts loading `key`'s bucket into the cache, so that the probe a little later does not
    /// wait for memory (called right after a move is made, before the child's first checks).
    #[inline]
    pub fn prefetch(&self, key: u64) {
        #[cfg(target_arch = "x86_64")]
        {
            use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
            let bucket: *const i8 = (&self.buckets[self.index(key)] as *const Bucket<M>).cast();
            // SAFETY: a prefetch is a hint that never faults; both addresses lie in one bucket.
            unsafe {
                _mm_prefetch::<_MM_HINT_T0>(bucket);
                if std::mem::size_of::<Bucket<M>>() > 64 {
                    _mm_prefetch::<_MM_HINT_T0>(bucket.wrapping_add(64));
                }
            }
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }

    /// The entry stored for `key`, if any.
    #[inline]
    pub fn probe(&self, key: u64) -> Option<Entry<M>> {
        self.buckets[self.index(key)]
            .0
            .iter()
            .flatten()
            .find(|e| e.key == key)
            .copied()
    }

    /// Stores a result without a static evaluation (see [`store_with_eval`](Self::store_with_eval)).
    pub fn store(&mut self, key: u64, mv: Option<M>, score: Score, depth: i32, bound: Bound) {
        self.store_with_eval(key, mv, score, NO_EVAL, depth, bound);
    }

    /// Stores a result with the position's static evaluation. The same position is overwritten
    /// (keeping its old move when the new result has none) unless the new result is much
    /// shallower, not exact, and the old one is from this search; otherwise an empty entry, or the
    /// entry of least worth (depth, less four plies per search of age), is replaced.
    pub fn store_with_eval(
        &mut self,
        key: u64,
        mv: Option<M>,
        score: Score,
        eval: Score,
        depth: i32,
        bound: Bound,
    ) {
        let generation = self.generation;
        let i = self.index(key);
        let bucket = &mut self.buckets[i].0;
        let slot = match bucket.iter().position(|e| e.is_some_and(|e| e.key == key)) {
            Some(same) => {
                let old = bucket[same].expect("found");
                if bound != Bound::Exact
                    && old.generation == generation
                    && depth + KEEP_DEEPER < old.depth as i32
                {
                    if mv.is_some() {
                        bucket[same] = Some(Entry { mv, ..old });
                    }
                    return;
                }
                same
            }
            None => match bucket.iter().position(Option::is_none) {
                Some(empty) => empty,
                None => {
                    let worth = |e: &Option<Entry<M>>| {
                        let e = e.as_ref().expect("full bucket");
                        let age = generation.wrapping_sub(e.generation) as i32;
                        e.depth as i32 - 4 * age
                    };
                    (0..BUCKET).min_by_key(|&j| worth(&bucket[j])).unwrap_or(0)
                }
            },
        };
        let old_mv = bucket[slot].and_then(|e| if e.key == key { e.mv } else { None });
        bucket[slot] = Some(Entry {
            key,
            mv: mv.or(old_mv),
            score,
            eval,
            depth: depth.clamp(i16::MIN as i32, i16::MAX as i32) as i16,
            bound,
            generation,
        });
    }

    /// Fill in permille, sampled over the first thousand entries, counting this search's entries.
    pub fn hashfull(&self) -> u32 {
        let sample = self
            .buckets
            .iter()
            .take(1000 / BUCKET)
            .flat_map(|b| b.0.iter());
        let (mut seen, mut used) = (0u32, 0u32);
        for e in sample {
            seen += 1;
            used += e.is_some_and(|e| e.generation == self.generation) as u32;
        }
        (used * 1000).checked_div(seen).unwrap_or(0)
    }
}

/// Asks the kernel to back a table's reserved, not yet touched, memory with huge pages where it
/// gives them only on request: a probe then rarely misses the address-translation cache (5 %
/// less time to a fixed depth at 64 MiB). Advice only; nothing changes where it is refused.
fn advise_huge_pages<T>(reserved: &Vec<T>) {
    #[cfg(target_os = "linux")]
    {
        const PAGE: usize = 4096;
        let start = reserved.as_ptr() as usize;
        let end = start + reserved.capacity() * std::mem::size_of::<T>();
        let (first, last) = (start.next_multiple_of(PAGE), end / PAGE * PAGE);
        if last > first {
            // SAFETY: the range lies inside `reserved`'s own buffer, and MADV_HUGEPAGE changes
            // only how the kernel backs it, never its contents.
            unsafe {
                libc::madvise(
                    first as *mut libc::c_void,
                    last - first,
                    libc::MADV_HUGEPAGE,
                );
            }
        }
    }
    #[cfg(not(target_os = "linux"))]
    let _ = reserved;
}

/// A score as stored: mate scores counted from the stored position rather than from the root.
#[inline]
pub fn to_tt(score: Score, ply: usize) -> Score {
    if score >= MATE_BOUND {
        score + ply as Score
    } else if score <= -MATE_BOUND {
        score - ply as Score
    } else {
        score
    }
}

/// A stored score brought back to the root's frame at `ply`.
#[inline]
pub fn from_tt(score: Score, ply: usize) -> Score {
    crate::search::report::mate_from_root(score, ply)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_table_too_big_for_memory_is_refused_and_the_old_one_kept() {
        let mut tt = TranspositionTable::<u32>::new(1);
        tt.store(42, Some(7), 10, 3, Bound::Exact);
        let capacity = tt.capacity();
        let err = tt.try_resize(usize::MAX / (1 << 21)).unwrap_err();
        assert!(err.contains("cannot allocate"), "{err}");
        assert_eq!(tt.capacity(), capacity);
        assert_eq!(tt.probe(42).and_then(|e| e.mv), Some(7));
        tt.try_resize(2).unwrap();
        assert!(tt.capacity() > capacity);
        assert_eq!(tt.probe(42), None);
    }
    use crate::search::MATE;

    #[test]
    fn store_probe_and_key_check() {
        let mut tt = TranspositionTable::<u16>::new(1);
        assert!(tt.capacity() > 1000);
        tt.store_with_eval(42, Some(7), 15, 11, 3, Bound::Exact);
        let e = tt.probe(42).unwrap();
        assert_eq!(
            (e.mv, e.score, e.eval, e.depth, e.bound),
            (Some(7), 15, 11, 3, Bound::Exact)
        );
        assert_eq!(tt.probe(43), None);
        // A result without a move keeps the move already known for the position.
        tt.store_with_eval(42, None, -5, 11, 4, Bound::Upper);
        let e = tt.probe(42).unwrap();
        assert_eq!((e.mv, e.score, e.bound), (Some(7), -5, Bound::Upper));
        // A much shallower bound of this search keeps the deep result (but takes a new move).
        tt.store_with_eval(42, Some(9), 100, 11, 0, Bound::Lower);
        let e = tt.probe(42).unwrap();
        assert_eq!((e.mv, e.score, e.depth), (Some(9), -5, 4));
        // From a later search, it replaces it.
        tt.new_search();
        tt.store_with_eval(42, None, 100, 11, 0, Bound::Lower);
        assert_eq!(tt.probe(42).unwrap().score, 100);
        tt.clear();
        assert_eq!(tt.probe(42), None);
    }

    #[test]
    fn full_bucket_replaces_the_shallowest() {
        let mut tt = TranspositionTable::<u16>::new(0);
        assert_eq!(tt.capacity(), BUCKET);
        for k in 0..BUCKET as u64 {
            tt.store(k + 1, None, 0, 10 + k as i32, Bound::Lower);
        }
        tt.store(99, Some(1), 0, 1, Bound::Lower);
        assert!(tt.probe(1).is_none(), "depth 10 was the shallowest");
        assert!(tt.probe(2).is_some() && tt.probe(99).is_some());
        tt.resize(2);
        assert!(tt.capacity() > BUCKET && tt.probe(99).is_none());
    }

    #[test]
    fn mate_scores_round_trip_through_the_table() {
        for ply in [0, 1, 7, 40] {
            for s in [MATE - 5, -MATE + 9, 300, -300] {
                assert_eq!(from_tt(to_tt(s, ply), ply), s);
            }
        }
        // Mate in 3 plies from the root found at ply 2 is mate in 1 ply from the stored position.
        assert_eq!(to_tt(MATE - 3, 2), MATE - 1);
    }

    #[test]
    fn hashfull_counts_this_search() {
        let mut tt = TranspositionTable::<u16>::new(1);
        assert_eq!(tt.hashfull(), 0);
        for k in 0..200_000u64 {
            tt.store(
                k.wrapping_mul(0x9E37_79B9_7F4A_7C15),
                None,
                0,
                1,
                Bound::Exact,
            );
        }
        assert!(tt.hashfull() > 500);
        tt.new_search();
        assert_eq!(tt.hashfull(), 0);
    }
}
