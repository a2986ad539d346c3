//! The searcher on toy games whose values are known.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use super::*;
use crate::search::toys::{subtraction_value, Subtraction, TicTacToe, Wander};
use crate::search::{Clock, Info, Limits, Outcome, Score, TwoSided, MATE};

fn run<G: TwoSided>(
    s: &mut Searcher<G>,
    pos: &G,
    limits: &Limits,
) -> (Outcome<G::Move>, Vec<Info<G::Move>>) {
    let stop = AtomicBool::new(false);
    let mut infos = Vec::new();
    let out = s.search(pos, limits, &stop, &mut |i| infos.push(i.clone()));
    (out, infos)
}

fn depth(d: u32) -> Limits {
    Limits {
        depth: Some(d),
        ..Limits::default()
    }
}

fn plain() -> SearchOptions {
    SearchOptions {
        use_tt: false,
        null_move: false,
        lmr: false,
        aspiration: false,
        pruning: false,
    }
}

/// The score the search should give a subtraction-game pile.
fn subtraction_score(pile: u32) -> Score {
    let v = subtraction_value(pile);
    if v > 0 {
        MATE - v
    } else {
        -MATE - v
    }
}

#[test]
fn tic_tac_toe_is_a_draw_with_and_without_tt() {
    for options in [SearchOptions::default(), plain()] {
        let mut s = Searcher::new(1);
        s.set_options(options);
        let (out, infos) = run(&mut s, &TicTacToe::default(), &depth(9));
        assert_eq!(out.score, 0, "{options:?}");
        assert_eq!(out.depth, 9);
        assert_eq!(infos.len(), 9);
        assert!(out.best.is_some());
    }
}

#[test]
fn tic_tac_toe_takes_a_win_and_blocks() {
    let mut s = Searcher::new(1);
    // X to move wins at once on cell 2.
    let win = TicTacToe::from_picture("XX.OO....");
    let (out, _) = run(&mut s, &win, &depth(5));
    assert_eq!(out.best, Some(2));
    assert_eq!(out.score, MATE - 1);
    // O to move must block cell 2 (it has no win of its own).
    let block = TicTacToe::from_picture("XX.O.....");
    let (out, _) = run(&mut s, &block, &depth(8));
    assert_eq!(out.best, Some(2));
    // X to move with a fork: X wins in 3 plies whatever O does.
    let fork = TicTacToe::from_picture("X...O...X");
    let (out, _) = run(&mut s, &fork, &depth(7));
    assert_eq!(out.score, 0, "opposite corners against a centre is a draw");
    let fork = TicTacToe::from_picture("XO..X...O");
    let (out, _) = run(&mut s, &fork, &depth(7));
    assert_eq!(crate::search::UciScore(out.score).to_string(), "mate 2");
    assert_eq!(out.score, MATE - 3);
}

#[test]
fn subtraction_game_mate_distances_match_minimax() {
    let mut with_tt = Searcher::new(1);
    let mut without = Searcher::new(1);
    without.set_options(plain());
    for pile in 1..=22 {
        let pos = Subtraction {
            pile,
            history: Vec::new(),
        };
        let want = subtraction_score(pile);
        let (a, _) = run(&mut with_tt, &pos, &depth(16));
        let (b, _) = run(&mut without, &pos, &depth(16));
        assert_eq!(a.score, want, "pile {pile} with TT");
        assert_eq!(b.score, want, "pile {pile} without TT");
        let best = a.best.unwrap();
        if want > 0 {
            assert_eq!(
                subtraction_score(pile - best),
                -(want + 1),
                "pile {pile}: {best} must keep the fastest win"
            );
        }
    }
}

#[test]
fn tt_and_plain_search_agree_at_fixed_depth() {
    // Without null move and reductions, the table only reorders moves, so scores must agree.
    let tt_only = SearchOptions {
        use_tt: true,
        ..plain()
    };
    for seed in 0..6 {
        let pos = if seed % 2 == 0 {
            Wander::new(seed)
        } else {
            Wander::with_checks(seed)
        };
        let mut a = Searcher::new(4);
        a.set_options(tt_only);
        let mut b = Searcher::new(4);
        b.set_options(plain());
        let d = if pos.checks { 4 } else { 5 };
        let (x, _) = run(&mut a, &pos, &depth(d));
        let (y, _) = run(&mut b, &pos, &depth(d));
        assert_eq!(x.score, y.score, "seed {seed}");
    }
}

#[test]
fn depth_and_node_limits_are_respected() {
    let pos = Wander::new(3);
    let mut s = Searcher::new(4);
    let (out, infos) = run(&mut s, &pos, &depth(4));
    assert_eq!(out.depth, 4);
    assert_eq!(infos.last().unwrap().depth, 4);
    assert!(infos.windows(2).all(|w| w[0].depth + 1 == w[1].depth));
    assert!(infos.iter().all(|i| !i.pv.is_empty() && i.pv[0] <= 5));
    for nodes in [1u64, 10, 500, 20_000] {
        let limits = Limits {
            nodes: Some(nodes),
            ..Limits::default()
        };
        let (out, _) = run(&mut s, &pos, &limits);
        assert!(out.nodes <= nodes, "{} > {nodes}", out.nodes);
        assert!(out.best.is_some(), "a move even with {nodes} nodes");
    }
}

#[test]
fn nodes_one_still_returns_a_legal_move() {
    let mut s = Searcher::new(1);
    let pos = TicTacToe::from_picture("XOXOX.O..");
    let limits = Limits {
        nodes: Some(1),
        ..Limits::default()
    };
    let (out, _) = run(&mut s, &pos, &limits);
    let mut legal = Vec::new();
    pos.legal_moves(&mut legal);
    assert!(legal.contains(&out.best.unwrap()));
    // And when stopped before it begins.
    let stop = AtomicBool::new(true);
    let out = s.search(&pos, &Limits::default(), &stop, &mut |_| {});
    assert!(legal.contains(&out.best.unwrap()));
}

#[test]
fn no_legal_move_gives_no_move() {
    let mut s = Searcher::new(1);
    let lost = TicTacToe::from_picture("XXXOO....");
    let (out, infos) = run(&mut s, &lost, &depth(3));
    assert_eq!(out.best, None);
    assert_eq!(out.score, -MATE);
    assert!(infos.is_empty());
}

#[test]
fn stop_from_another_thread_ends_an_infinite_search() {
    let pos = Wander::new(11);
    let stop = Arc::new(AtomicBool::new(false));
    let flag = Arc::clone(&stop);
    let handle = std::thread::spawn(move || {
        let mut s = Searcher::new(8);
        let limits = Limits {
            infinite: true,
            ..Limits::default()
        };
        let out = s.search(&pos, &limits, &flag, &mut |_| {});
        (out, Instant::now())
    });
    std::thread::sleep(Duration::from_millis(150));
    let stopped_at = Instant::now();
    stop.store(true, Ordering::Relaxed);
    let (out, returned_at) = handle.join().unwrap();
    let lag = returned_at.duration_since(stopped_at);
    assert!(lag < Duration::from_millis(500), "took {lag:?} to stop");
    assert!(out.best.is_some() && out.depth >= 1);
}

#[test]
fn movetime_and_clock_are_respected() {
    const LOOSE: Duration = Duration::from_secs(20);
    let pos = Wander::new(5);
    let mut s = Searcher::new(8);
    let limits = Limits {
        movetime: Some(Duration::from_millis(60)),
        ..Limits::default()
    };
    // Wander's tree is endless: a search that ignored the limit would run on and hang the test. The
    // bound is loose so that a loaded machine cannot fail it (the budgets themselves are tested
    // exactly in timeman.rs: `movetime_minus_overhead`, `sudden_death_never_spends_half_the_clock`).
    let t = Instant::now();
    let (out, _) = run(&mut s, &pos, &limits);
    assert!(t.elapsed() < LOOSE, "{:?}", t.elapsed());
    assert!(out.best.is_some());
    // 200 ms of sudden death: the search stops by the clock.
    let limits = Limits {
        clock: Some(Clock {
            remaining: Duration::from_millis(200),
            increment: Duration::ZERO,
            moves_to_go: None,
        }),
        overhead: Duration::from_millis(10),
        ..Limits::default()
    };
    let t = Instant::now();
    let (out, _) = run(&mut s, &pos, &limits);
    assert!(t.elapsed() < LOOSE, "{:?}", t.elapsed());
    assert!(out.best.is_some());
    // No time left at all still gives a move.
    let limits = Limits {
        clock: Some(Clock::default()),
        ..Limits::default()
    };
    let (out, _) = run(&mut s, &pos, &limits);
    assert!(out.best.is_some());
}

#[test]
fn info_reports_progress() {
    let pos = Wander::new(8);
    let mut s = Searcher::new(1);
    let (out, infos) = run(&mut s, &pos, &depth(6));
    let last = infos.last().unwrap();
    assert_eq!(last.score, out.score);
    assert_eq!(last.pv.first().copied(), out.best);
    assert_eq!(last.pv.get(1).copied(), out.ponder);
    assert!(
        last.seldepth >= 6,
        "quiescence goes deeper: {}",
        last.seldepth
    );
    assert!(infos.windows(2).all(|w| w[0].nodes <= w[1].nodes));
    assert!(last.hashfull > 0);
    // The PV is playable.
    let mut p = pos.clone();
    let mut legal = Vec::new();
    for &mv in &last.pv {
        p.legal_moves(&mut legal);
        assert!(legal.contains(&mv));
        p.make(mv);
    }
    s.clear();
    s.resize(2);
    let (again, _) = run(&mut s, &pos, &depth(6));
    assert!(again.best.is_some());
}

#[test]
fn search_is_deterministic() {
    let pos = Wander::new(21);
    let mut a = Searcher::new(2);
    let mut b = Searcher::new(2);
    let (x, _) = run(&mut a, &pos, &depth(7));
    let (y, _) = run(&mut b, &pos, &depth(7));
    assert_eq!((x.best, x.score, x.nodes), (y.best, y.score, y.nodes));
}

#[test]
fn checks_extend_and_quiescence_evades() {
    // The same tree with some positions in check: extensions and evasions change the search, and
    // it still ends with a playable line at the requested depth.
    let (out, infos) = run(&mut Searcher::new(1), &Wander::with_checks(13), &depth(5));
    let (_, base) = run(&mut Searcher::new(1), &Wander::new(13), &depth(5));
    assert_eq!(out.depth, 5);
    assert!(out.best.is_some());
    assert_ne!(infos.last().unwrap().nodes, base.last().unwrap().nodes);
}

/// Tic-tac-toe whose static evaluation flatters the side to move by [`Optimist::BIAS`], with one
/// structure for every position: the correction history should learn to take the flattery back.
#[derive(Clone, Debug, Default)]
struct Optimist(TicTacToe);

impl Optimist {
    const BIAS: Score = 200;
}

impl TwoSided for Optimist {
    type Move = usize;
    fn key(&self) -> u64 {
        self.0.key()
    }
    fn legal_moves(&self, out: &mut Vec<usize>) {
        self.0.legal_moves(out)
    }
    fn noisy_moves(&self, out: &mut Vec<usize>) {
        self.0.noisy_moves(out)
    }
    fn make(&mut self, mv: usize) {
        self.0.make(mv)
    }
    fn unmake(&mut self) {
        self.0.unmake()
    }
    fn make_null(&mut self) -> bool {
        self.0.make_null()
    }
    fn unmake_null(&mut self) {
        self.0.unmake_null()
    }
    fn in_check(&self) -> bool {
        self.0.in_check()
    }
    fn no_moves_score(&self) -> Score {
        self.0.no_moves_score()
    }
    fn rule_outcome(&self) -> Option<Score> {
        self.0.rule_outcome()
    }
    fn evaluate(&self) -> Score {
        self.0.evaluate() + Self::BIAS
    }
    fn structure_key(&self) -> Option<u64> {
        Some(0)
    }
    fn victim_value(&self, mv: usize) -> Score {
        self.0.victim_value(mv)
    }
    fn attacker_value(&self, mv: usize) -> Score {
        self.0.attacker_value(mv)
    }
    fn history_index(&self, mv: usize) -> usize {
        self.0.history_index(mv)
    }
    fn history_size(&self) -> usize {
        self.0.history_size()
    }
    fn ply(&self) -> usize {
        self.0.ply()
    }
}

#[test]
fn correction_history_learns_a_flattering_evaluation_and_keeps_the_result() {
    let mut s = Searcher::new(1);
    let (out, _) = run(&mut s, &Optimist::default(), &depth(9));
    assert_eq!(out.score, 0, "tic-tac-toe stays a draw");
    let learned = [s.correction(0, 0), s.correction(1, 0)];
    assert!(
        learned.iter().all(|&c| c < -Optimist::BIAS / 4),
        "both sides learn that their evaluation is too high: {learned:?}"
    );
    // A new game forgets it.
    s.clear();
    assert_eq!([s.correction(0, 0), s.correction(1, 0)], [0, 0]);
    // Without a structure key nothing is learned.
    let mut plain = Searcher::new(1);
    run(&mut plain, &TicTacToe::default(), &depth(9));
    assert_eq!([plain.correction(0, 0), plain.correction(1, 0)], [0, 0]);
}

#[test]
fn quiescence_stands_pat_on_the_corrected_evaluation() {
    // Learn the flattery, then forget every stored result but keep the correction: a depth-1
    // search scores each move by the reply's stand pat, which takes the learned correction off.
    let mut s = Searcher::new(1);
    run(&mut s, &Optimist::default(), &depth(9));
    let reply_side_correction = s.correction(1, 0);
    assert!(reply_side_correction < -Optimist::BIAS / 4);
    s.resize(1);
    let (out, _) = run(&mut s, &Optimist::default(), &depth(1));
    let (plain, _) = run(&mut Searcher::new(1), &TicTacToe::default(), &depth(1));
    assert_eq!(
        out.score,
        plain.score - Optimist::BIAS - reply_side_correction,
        "uncorrected it would be {}",
        plain.score - Optimist::BIAS
    );
}
