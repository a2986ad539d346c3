//! The multi-player searches on toy games with known best moves.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use super::*;
use crate::search::toys::{Take, TakeAway, Wander3};
use crate::search::{Score, INFINITY, MATE};

fn run<G: MultiSided>(pos: &G, algo: MultiAlgorithm, limits: &Limits) -> Outcome<G::Move> {
    let stop = AtomicBool::new(false);
    let mut s = MultiSearcher::default();
    s.search(pos, algo, limits, &stop, &mut |_| {})
}

fn limits_for(algo: MultiAlgorithm) -> Limits {
    match algo {
        MultiAlgorithm::Mcts => Limits {
            nodes: Some(4000),
            ..Limits::default()
        },
        _ => Limits {
            depth: Some(6),
            ..Limits::default()
        },
    }
}

fn wander(seed: u64) -> Wander3 {
    Wander3 {
        hash: crate::search::toys::mix(seed),
        to_move: 0,
        stack: Vec::new(),
    }
}

#[test]
fn every_algorithm_takes_the_last_stones() {
    for algo in MultiAlgorithm::ALL {
        for pile in 1..=3 {
            let out = run(&TakeAway::new(3, pile), algo, &limits_for(algo));
            assert_eq!(out.best, Some(Take::Stones(pile)), "{algo:?} pile {pile}");
            if algo != MultiAlgorithm::Mcts {
                assert_eq!(out.score, MATE - 1, "{algo:?}");
            } else {
                assert!(out.score > 500, "{algo:?}: {}", out.score);
            }
        }
    }
}

#[test]
fn every_algorithm_avoids_handing_over_the_win() {
    // Taking 2 or 3 of 5 lets the next seat take the rest; taking 1 leaves 4, which nobody can
    // take at once.
    for algo in MultiAlgorithm::ALL {
        let out = run(&TakeAway::new(3, 5), algo, &limits_for(algo));
        assert_eq!(out.best, Some(Take::Stones(1)), "{algo:?}");
    }
}

#[test]
fn teams_play_for_the_teammate() {
    // Seats 0 and 2 against 1 and 3: from 5, taking 1 leaves 4; seat 1 must leave 1..=3 and seat 2
    // (a teammate) takes the rest. Taking 2 or 3 lets seat 1 win.
    for algo in MultiAlgorithm::ALL {
        let mut game = TakeAway::new(4, 5);
        game.teams = vec![0, 1, 0, 1];
        let out = run(&game, algo, &limits_for(algo));
        assert_eq!(out.best, Some(Take::Stones(1)), "{algo:?}");
        if algo != MultiAlgorithm::Mcts {
            assert_eq!(out.score, MATE - 3, "{algo:?}: the team wins on ply 3");
        }
    }
}

#[test]
fn a_forced_pass_is_returned() {
    let mut game = TakeAway::new(3, 7);
    game.frozen[0] = true;
    for algo in MultiAlgorithm::ALL {
        let out = run(&game, algo, &limits_for(algo));
        assert_eq!(out.best, Some(Take::Pass), "{algo:?}");
        let one = Limits {
            nodes: Some(1),
            ..Limits::default()
        };
        assert_eq!(run(&game, algo, &one).best, Some(Take::Pass), "{algo:?}");
        let stop = AtomicBool::new(true);
        let out =
            MultiSearcher::default().search(&game, algo, &Limits::default(), &stop, &mut |_| {});
        assert_eq!(out.best, Some(Take::Pass), "{algo:?}");
    }
}

#[test]
fn a_finished_game_has_no_move() {
    let mut game = TakeAway::new(3, 1);
    crate::search::MultiSided::make(&mut game, Take::Stones(1));
    for algo in MultiAlgorithm::ALL {
        let out = run(&game, algo, &limits_for(algo));
        assert_eq!(out.best, None, "{algo:?}");
        assert!(out.score < 0, "seat 1 lost: {}", out.score);
    }
}

#[test]
fn depth_and_node_limits_are_respected() {
    let pos = wander(1);
    for algo in [MultiAlgorithm::BrsPlus, MultiAlgorithm::Paranoid] {
        let mut infos = Vec::new();
        let stop = AtomicBool::new(false);
        let limits = Limits {
            depth: Some(4),
            ..Limits::default()
        };
        let out = MultiSearcher::default()
            .search(&pos, algo, &limits, &stop, &mut |i| infos.push(i.clone()));
        assert_eq!(out.depth, 4, "{algo:?}");
        assert_eq!(
            infos.iter().map(|i| i.depth).collect::<Vec<_>>(),
            [1, 2, 3, 4]
        );
        assert_eq!(infos[3].pv.first().copied(), out.best);
    }
    for algo in MultiAlgorithm::ALL {
        for nodes in [1u64, 7, 300, 5000] {
            let limits = Limits {
                nodes: Some(nodes),
                ..Limits::default()
            };
            let out = run(&pos, algo, &limits);
            assert!(out.nodes <= nodes, "{algo:?}: {} > {nodes}", out.nodes);
            assert!(out.best.is_some());
        }
    }
    // The MCTS tree never grows deeper than `depth`.
    let mut deepest = 0;
    let limits = Limits {
        depth: Some(2),
        nodes: Some(3000),
        ..Limits::default()
    };
    MultiSearcher::default().search(
        &pos,
        MultiAlgorithm::Mcts,
        &limits,
        &AtomicBool::new(false),
        &mut |i| deepest = deepest.max(i.pv.len()),
    );
    assert!(deepest > 0 && deepest <= 2, "{deepest}");
}

/// Nodes of the game tree within `depth` plies of `pos` (the root included).
fn tree_size<G: MultiSided>(pos: &mut G, depth: u32) -> u64 {
    let mut moves = Vec::new();
    pos.legal_moves(&mut moves);
    let mut rewards = vec![0.0; pos.seats()];
    if depth == 0 || pos.outcome(&mut rewards) {
        return 1;
    }
    let mut n = 1;
    for mv in moves {
        pos.make(mv);
        n += tree_size(pos, depth - 1);
        pos.unmake();
    }
    n
}

#[test]
fn a_depth_limit_alone_ends_mcts_once_the_tree_to_that_depth_is_complete() {
    for seed in [1, 2, 3] {
        let mut pos = wander(seed);
        for depth in 1..=3 {
            let limits = Limits {
                depth: Some(depth),
                ..Limits::default()
            };
            let mut deepest = 0;
            let out = MultiSearcher::default().search(
                &pos,
                MultiAlgorithm::Mcts,
                &limits,
                &AtomicBool::new(false),
                &mut |i| deepest = deepest.max(i.pv.len()),
            );
            let size = tree_size(&mut pos, depth);
            // Every node within the depth is visited once, and every inner one once more when
            // it is expanded: at most two iterations per node.
            assert!(
                out.nodes >= size - 1 && out.nodes <= 2 * size,
                "seed {seed} depth {depth}: {} iterations for {size} nodes",
                out.nodes
            );
            assert!(deepest <= depth as usize, "{deepest}");
            assert!(out.best.is_some());
        }
    }
}

#[test]
fn stop_from_another_thread_ends_each_search() {
    for algo in MultiAlgorithm::ALL {
        let stop = Arc::new(AtomicBool::new(false));
        let flag = Arc::clone(&stop);
        let handle = std::thread::spawn(move || {
            let limits = Limits {
                infinite: true,
                ..Limits::default()
            };
            let out =
                MultiSearcher::default().search(&wander(2), algo, &limits, &flag, &mut |_| {});
            (out, Instant::now())
        });
        std::thread::sleep(Duration::from_millis(100));
        let stopped_at = Instant::now();
        stop.store(true, Ordering::Relaxed);
        let (out, returned_at) = handle.join().unwrap();
        let lag = returned_at.duration_since(stopped_at);
        assert!(lag < Duration::from_millis(500), "{algo:?} took {lag:?}");
        assert!(out.best.is_some());
    }
}

#[test]
fn movetime_is_respected() {
    for algo in MultiAlgorithm::ALL {
        let limits = Limits {
            movetime: Some(Duration::from_millis(50)),
            ..Limits::default()
        };
        let t = Instant::now();
        let out = run(&wander(3), algo, &limits);
        assert!(
            t.elapsed() < Duration::from_millis(400),
            "{algo:?} {:?}",
            t.elapsed()
        );
        assert!(out.best.is_some());
    }
}

#[test]
fn mcts_is_reproducible_from_its_seed() {
    let limits = Limits {
        nodes: Some(2000),
        ..Limits::default()
    };
    let a = run(&wander(4), MultiAlgorithm::Mcts, &limits);
    let b = run(&wander(4), MultiAlgorithm::Mcts, &limits);
    assert_eq!(a, b);
    assert_eq!(a.nodes, 2000);
}

/// Plain paranoid quiescence: the seat to move stands pat or captures (move 0 is the only capture).
fn reference_quiesce(pos: &mut Wander3, root: usize, plies: u32) -> Score {
    let stand = pos.evaluate_for(root);
    if plies == 0 {
        return stand;
    }
    pos.make(0);
    let s = reference_quiesce(pos, root, plies - 1);
    pos.unmake();
    if pos.to_move == root {
        stand.max(s)
    } else {
        stand.min(s)
    }
}

const QUIESCENCE: u32 = 4;

/// Plain paranoid minimax without pruning, for the root seat of `pos`.
fn reference_paranoid(pos: &mut Wander3, root: usize, depth: u32) -> Score {
    if depth == 0 {
        return reference_quiesce(pos, root, QUIESCENCE);
    }
    let max_node = pos.to_move == root;
    let mut best = if max_node { -INFINITY } else { INFINITY };
    for mv in 0..5 {
        pos.make(mv);
        let s = reference_paranoid(pos, root, depth - 1);
        pos.unmake();
        best = if max_node { best.max(s) } else { best.min(s) };
    }
    best
}

/// Plain BRS+ without pruning: in each run of opponent turns one opponent searches all moves, the
/// others play their best-ordered move (in `Wander3`, move 0, the only capture).
fn reference_brs(pos: &mut Wander3, root: usize, depth: u32, replied: bool) -> Score {
    if pos.to_move == root {
        if depth == 0 {
            return reference_quiesce(pos, root, QUIESCENCE);
        }
        let mut best = -INFINITY;
        for mv in 0..5 {
            pos.make(mv);
            best = best.max(reference_brs(pos, root, depth - 1, false));
            pos.unmake();
        }
        return best;
    }
    if replied {
        pos.make(0);
        let s = reference_brs(pos, root, depth, true);
        pos.unmake();
        return s;
    }
    if depth == 0 {
        return reference_quiesce(pos, root, QUIESCENCE);
    }
    let mut best = INFINITY;
    for mv in 0..5 {
        pos.make(mv);
        best = best.min(reference_brs(pos, root, depth - 1, true));
        pos.unmake();
    }
    pos.make(0);
    if pos.to_move != root {
        best = best.min(reference_brs(pos, root, depth, false));
    }
    pos.unmake();
    best
}

#[test]
fn pruned_searches_match_plain_minimax() {
    assert_eq!(MultiOptions::default().quiescence, QUIESCENCE);
    for seed in 0..5 {
        let mut pos = wander(seed);
        for depth in 1..=4 {
            let limits = Limits {
                depth: Some(depth),
                ..Limits::default()
            };
            let paranoid = run(&pos, MultiAlgorithm::Paranoid, &limits);
            assert_eq!(
                paranoid.score,
                reference_paranoid(&mut pos, 0, depth),
                "seed {seed} d{depth}"
            );
            let brs = run(&pos, MultiAlgorithm::BrsPlus, &limits);
            assert_eq!(
                brs.score,
                reference_brs(&mut pos, 0, depth, false),
                "seed {seed} d{depth}"
            );
        }
    }
}

#[test]
fn algorithm_names_parse() {
    for algo in MultiAlgorithm::ALL {
        assert_eq!(algo.name().parse::<MultiAlgorithm>(), Ok(algo));
    }
    assert_eq!(
        " BRS ".parse::<MultiAlgorithm>(),
        Ok(MultiAlgorithm::BrsPlus)
    );
    assert!("maxn"
        .parse::<MultiAlgorithm>()
        .unwrap_err()
        .contains("maxn"));
}

/// A three-seat game given as an explicit tree: seat 0 to move at the root, seats in turn below.
/// A move is a child index; a node without children offers a single pass that stays there.
#[derive(Clone, Debug)]
struct Tree3 {
    /// Per node: its children as (victim value, node), the seat it knocks out, the evaluation.
    nodes: Vec<TreeNode>,
    stack: Vec<usize>,
}

#[derive(Clone, Debug, Default)]
struct TreeNode {
    children: Vec<(Score, usize)>,
    /// The seat whose ship was captured on the way to this node (out of the game from here).
    knocked_out: Option<usize>,
    /// Evaluation of seat 0's team (seats 1 and 2 get its negation).
    eval: Score,
}

impl Tree3 {
    fn here(&self) -> usize {
        *self.stack.last().unwrap_or(&0)
    }
}

impl MultiSided for Tree3 {
    type Move = usize;
    fn seats(&self) -> usize {
        3
    }
    fn to_move(&self) -> usize {
        self.stack.len() % 3
    }
    fn team(&self, seat: usize) -> usize {
        seat
    }
    fn is_active(&self, seat: usize) -> bool {
        let mut path = std::iter::once(0).chain(self.stack.iter().copied());
        !path.any(|n| self.nodes[n].knocked_out == Some(seat))
    }
    fn key(&self) -> u64 {
        crate::search::toys::mix(self.here() as u64 ^ (self.stack.len() as u64) << 32)
    }
    fn legal_moves(&self, out: &mut Vec<usize>) {
        out.clear();
        let n = self.nodes[self.here()].children.len();
        out.extend(0..n.max(1));
    }
    fn noisy_moves(&self, out: &mut Vec<usize>) {
        out.clear();
        let node = &self.nodes[self.here()];
        out.extend((0..node.children.len()).filter(|&i| node.children[i].0 > 0));
    }
    fn make(&mut self, mv: usize) {
        let here = self.here();
        let next = self.nodes[here].children.get(mv).map_or(here, |c| c.1);
        self.stack.push(next);
    }
    fn unmake(&mut self) {
        self.stack.pop();
    }
    fn outcome(&self, _: &mut [f32]) -> bool {
        false
    }
    fn evaluate_for(&self, seat: usize) -> Score {
        let e = self.nodes[self.here()].eval;
        if !self.is_active(seat) {
            -1500
        } else if seat == 0 {
            e
        } else {
            -e
        }
    }
    fn victim_value(&self, mv: usize) -> Score {
        self.nodes[self.here()].children.get(mv).map_or(0, |c| c.0)
    }
    fn history_index(&self, mv: usize) -> usize {
        mv
    }
    fn history_size(&self) -> usize {
        64
    }
}

/// Seat 0's ship is attacked: one move captures the attacker (a modest gain); 20 others look
/// better to the evaluation but let seat 1 capture the ship among 20 quiet replies.
fn capture_the_attacker() -> Tree3 {
    let mut nodes = vec![TreeNode::default()];
    let quiet = |eval| TreeNode {
        eval,
        ..TreeNode::default()
    };
    nodes.push(quiet(100));
    nodes[0].children.push((300, 1));
    for _ in 0..20 {
        let trap = nodes.len();
        nodes.push(quiet(300));
        nodes[0].children.push((0, trap));
        let ship_taken = nodes.len();
        nodes.push(TreeNode {
            knocked_out: Some(0),
            ..quiet(-1500)
        });
        nodes[trap].children.push((1500, ship_taken));
        for _ in 0..20 {
            let reply = nodes.len();
            nodes.push(quiet(300));
            nodes[trap].children.push((0, reply));
        }
    }
    Tree3 {
        nodes,
        stack: Vec::new(),
    }
}

#[test]
fn mcts_captures_the_attacker_instead_of_leaving_its_ship_en_prise() {
    let game = capture_the_attacker();
    for seed in 0..4 {
        let stop = AtomicBool::new(false);
        let mut s = MultiSearcher::new(MultiOptions {
            seed,
            ..MultiOptions::default()
        });
        let limits = Limits {
            nodes: Some(300),
            ..Limits::default()
        };
        let out = s.search(&game, MultiAlgorithm::Mcts, &limits, &stop, &mut |_| {});
        assert_eq!(out.best, Some(0), "seed {seed}");
    }
}
