//! The searches over Space Wars: once warm, an ISMCTS or PIMC search allocates nothing per
//! iteration (worlds are sampled into reused storage, decisions played from reused buffers, the
//! tree keeps its arenas), the tree stays inside its memory bound, and the same seed gives the
//! same search.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

use orrery::engines::spacewars::bench::bench_positions;
use orrery::games::spacewars::search_bindings::SpaceWarsSearch;
use orrery::games::spacewars::Ruleset;
use orrery::search::ismcts::{HiddenSearch, Ismcts, Pimc, SearchBudget};

/// Counts the allocations of the current thread.
struct Counting;

thread_local! {
    static ALLOCATIONS: Cell<u64> = const { Cell::new(0) };
}

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        ALLOCATIONS.with(|c| c.set(c.get() + 1));
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        ALLOCATIONS.with(|c| c.set(c.get() + 1));
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static COUNTING: Counting = Counting;

fn allocations_during(f: impl FnOnce()) -> u64 {
    let before = ALLOCATIONS.with(Cell::get);
    f();
    ALLOCATIONS.with(Cell::get) - before
}

#[test]
fn warm_searches_allocate_nothing_per_iteration() {
    let rules = Arc::new(Ruleset::default());
    let stop = AtomicBool::new(false);
    let budget = SearchBudget::iterations(3000);
    for obs in bench_positions() {
        let mut game = SpaceWarsSearch::new(&obs, &rules).unwrap();
        let mut ismcts = Ismcts::<SpaceWarsSearch>::new(8 << 20, 1);
        let first = allocations_during(|| {
            ismcts
                .search(&mut game, &budget, &stop, &mut |_| {})
                .unwrap();
        });
        let again = allocations_during(|| {
            ismcts.reseed(1);
            ismcts
                .search(&mut game, &budget, &stop, &mut |_| {})
                .unwrap();
        });
        assert!(
            again <= 4,
            "{} players: {again} allocations in a warm 3000-iteration search (first: {first})",
            obs.players()
        );
        let mut pimc = Pimc::<SpaceWarsSearch>::new(1);
        pimc.search(&mut game, &budget, &stop, &mut |_| {}).unwrap();
        let again = allocations_during(|| {
            pimc.search(&mut game, &budget, &stop, &mut |_| {}).unwrap();
        });
        assert!(again <= 4, "PIMC: {again} allocations in a warm search");
    }
}

#[test]
fn the_tree_keeps_to_its_bound_and_the_search_to_its_seed() {
    let rules = Arc::new(Ruleset::default());
    let stop = AtomicBool::new(false);
    let obs = &bench_positions()[2];
    let mut game = SpaceWarsSearch::new(obs, &rules).unwrap();
    let bound = 256 * 1024;
    let mut small = Ismcts::<SpaceWarsSearch>::new(bound, 7);
    let found = small
        .search(
            &mut game,
            &SearchBudget::iterations(20_000),
            &stop,
            &mut |_| {},
        )
        .unwrap();
    let stats = small.tree().stats();
    assert_eq!(
        found.iterations, 20_000,
        "a full tree does not end the search"
    );
    assert!(stats.bytes <= bound, "{stats:?}");
    assert!(
        stats.nodes == stats.max_nodes || stats.edges + 200 > stats.max_edges,
        "the bound was reached: {stats:?}"
    );
    let mut run = |seed| {
        let mut s = Ismcts::<SpaceWarsSearch>::new(1 << 20, seed);
        let f = s
            .search(
                &mut game,
                &SearchBudget::iterations(500),
                &stop,
                &mut |_| {},
            )
            .unwrap();
        (f.action, f.value, f.nodes)
    };
    let first = run(3);
    assert_eq!(first, run(3));
}
