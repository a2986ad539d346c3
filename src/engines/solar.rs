//! The Solar Chess engine: the rules core [`crate::games::solar`] searched by alpha-beta (two
//! sides whose turns alternate, a whole team as one side) or by a multi-player search (BRS+,
//! paranoid, MCTS), spoken to through the shared protocol loop; plus `bench` and the in-process
//! self-play comparison of the multi-player searches.

use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use rand::seq::SliceRandom;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use crate::games::solar::{
    divide_until, setup_names, DrawReason, Move, Position, Status, DEFAULT_DRAW_PLIES,
};
use crate::protocol::{EngineGame, EngineOption, GameOutcome, OptionKind, SearchReport};
use crate::search::{Info, Limits, MultiAlgorithm, MultiOptions, MultiSearcher, Searcher};

use super::cli::{BenchReport, BenchSequence};

/// Option choosing the search: `auto`, `alphabeta`, `brs+`, `paranoid`, `mcts`.
pub const ALGORITHM_OPTION: &str = "SearchAlgorithm";
/// Option setting the no-capture draw limit in plies.
pub const DRAW_PLIES_OPTION: &str = "DrawPlies";
/// Option seeding the MCTS playouts.
pub const SEED_OPTION: &str = "Seed";

/// Which search the engine runs.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum SearchAlgorithm {
    /// Alpha-beta when the position has two alternating sides, BRS+ otherwise.
    #[default]
    Auto,
    /// Alpha-beta with each team as one side (falls back to BRS+ when the turns of more than two
    /// sides interleave, where alpha-beta does not apply).
    AlphaBeta,
    /// One of the multi-player searches, whatever the setup.
    Multi(MultiAlgorithm),
}

impl SearchAlgorithm {
    /// Every choice, in the order the option lists them.
    pub const ALL: [SearchAlgorithm; 5] = [
        SearchAlgorithm::Auto,
        SearchAlgorithm::AlphaBeta,
        SearchAlgorithm::Multi(MultiAlgorithm::BrsPlus),
        SearchAlgorithm::Multi(MultiAlgorithm::Paranoid),
        SearchAlgorithm::Multi(MultiAlgorithm::Mcts),
    ];

    /// The option-value name.
    pub fn name(self) -> &'static str {
        match self {
            SearchAlgorithm::Auto => "auto",
            SearchAlgorithm::AlphaBeta => "alphabeta",
            SearchAlgorithm::Multi(m) => m.name(),
        }
    }

    /// The search that actually runs for `pos`: `None` for alpha-beta, else the multi-player one.
    pub fn resolve(self, pos: &Position) -> Option<MultiAlgorithm> {
        match self {
            SearchAlgorithm::Auto | SearchAlgorithm::AlphaBeta if pos.is_two_sided() => None,
            SearchAlgorithm::Auto | SearchAlgorithm::AlphaBeta => Some(MultiAlgorithm::BrsPlus),
            SearchAlgorithm::Multi(m) => Some(m),
        }
    }
}

impl std::str::FromStr for SearchAlgorithm {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, String> {
        match s.trim().to_ascii_lowercase().as_str() {
            "auto" => Ok(SearchAlgorithm::Auto),
            "alphabeta" | "alpha-beta" | "ab" => Ok(SearchAlgorithm::AlphaBeta),
            other => other
                .parse::<MultiAlgorithm>()
                .map(SearchAlgorithm::Multi)
                .map_err(|_| {
                    format!(
                        "unknown search algorithm '{other}' (expected auto, alphabeta, brs+, paranoid or mcts)"
                    )
                }),
        }
    }
}

/// Solar Chess in its ten setups (or any position string) as a protocol engine.
pub struct SolarEngine {
    searcher: Searcher<Position>,
    multi: MultiSearcher<Position>,
    /// `Hash` in MiB, shared by the two tables (see [`hash_split`]).
    hash_mib: usize,
    algorithm: SearchAlgorithm,
    draw_plies: u32,
}

impl SolarEngine {
    /// The engine with tables of `hash_mib` MiB.
    pub fn new(hash_mib: usize) -> Self {
        let (ab, mp) = hash_split(hash_mib);
        let mut multi = MultiSearcher::new(MultiOptions::default());
        multi.resize(mp);
        SolarEngine {
            searcher: Searcher::new(ab),
            multi,
            hash_mib,
            algorithm: SearchAlgorithm::Auto,
            draw_plies: DEFAULT_DRAW_PLIES,
        }
    }

    /// The search chosen by the `SearchAlgorithm` option.
    pub fn algorithm(&self) -> SearchAlgorithm {
        self.algorithm
    }

    fn with_rules(&self, mut pos: Position) -> Position {
        pos.set_draw_plies(self.draw_plies);
        pos
    }
}

/// How `Hash` MiB are shared: three quarters for the alpha-beta table (scores and moves), a
/// quarter for the multi-player searches' table (best moves for ordering only); at least 1 MiB
/// each.
pub fn hash_split(mib: usize) -> (usize, usize) {
    let multi = (mib / 4).max(1);
    (mib.saturating_sub(multi).max(1), multi)
}

/// The protocol's outcome of a position: the whole winning team's seats (1-based), or a draw.
pub fn outcome(pos: &Position) -> Option<GameOutcome> {
    match pos.status() {
        Status::Ongoing => None,
        Status::Won { team } => Some(GameOutcome::Win {
            seats: pos.seats_of_team(team).map(|s| s as usize + 1).collect(),
            reason: "last Mothership standing".to_string(),
        }),
        Status::Drawn(DrawReason::Repetition) => Some(GameOutcome::Draw {
            reason: "threefold repetition".to_string(),
        }),
        Status::Drawn(DrawReason::NoCapture) => Some(GameOutcome::Draw {
            reason: format!("{} plies without a capture", pos.draw_plies()),
        }),
    }
}

/// Move texts of a principal variation, each played in turn from `pos`.
fn pv_text(pos: &Position, pv: &[Move]) -> Vec<String> {
    let mut p = pos.clone();
    pv.iter()
        .map(|&mv| {
            p.make(mv);
            mv.to_string()
        })
        .collect()
}

impl EngineGame for SolarEngine {
    type Position = Position;
    type Move = Move;

    fn engine_name(&self) -> String {
        format!("Orrery Solar Chess {}", env!("CARGO_PKG_VERSION"))
    }

    fn variants(&self) -> Vec<String> {
        setup_names().map(String::from).collect()
    }

    fn start_position(&self, variant: &str) -> Result<Position, String> {
        let name = setup_names()
            .find(|n| n.eq_ignore_ascii_case(variant))
            .ok_or_else(|| {
                let known: Vec<&str> = setup_names().collect();
                format!("unknown setup '{variant}' (known: {})", known.join(", "))
            })?;
        Position::from_setup(name)
            .map(|p| self.with_rules(p))
            .map_err(|e| e.to_string())
    }

    fn parse_position(&self, _variant: &str, text: &str) -> Result<Position, String> {
        Position::from_setup_or_string(text)
            .map(|p| self.with_rules(p))
            .map_err(|e| e.to_string())
    }

    fn position_text(&self, pos: &Position) -> String {
        pos.to_string()
    }

    fn parse_move(&self, pos: &Position, text: &str) -> Result<Move, String> {
        pos.parse_move(text).map_err(|e| e.to_string())
    }

    fn move_text(&self, _pos: &Position, mv: Move) -> String {
        mv.to_string()
    }

    fn play(&self, pos: &mut Position, mv: Move) {
        pos.make(mv);
    }

    fn outcome(&self, pos: &Position) -> Option<GameOutcome> {
        outcome(pos)
    }

    fn seats(&self, pos: &Position) -> usize {
        pos.seats()
    }

    fn seat_to_move(&self, pos: &Position) -> usize {
        pos.to_move() as usize + 1
    }

    fn perft_divide(
        &self,
        pos: &Position,
        depth: u32,
        stop: &AtomicBool,
    ) -> Option<Vec<(String, u64)>> {
        let lines = divide_until(&mut pos.clone(), depth, stop)?;
        Some(lines.iter().map(|(m, n)| (m.to_string(), *n)).collect())
    }

    fn options(&self) -> Vec<EngineOption> {
        vec![
            EngineOption {
                name: ALGORITHM_OPTION.to_string(),
                kind: OptionKind::Combo {
                    default: SearchAlgorithm::Auto.name().to_string(),
                    choices: SearchAlgorithm::ALL
                        .iter()
                        .map(|a| a.name().to_string())
                        .collect(),
                },
            },
            EngineOption {
                name: DRAW_PLIES_OPTION.to_string(),
                kind: OptionKind::Spin {
                    default: i64::from(DEFAULT_DRAW_PLIES),
                    min: 1,
                    max: 100_000,
                },
            },
            EngineOption {
                name: SEED_OPTION.to_string(),
                kind: OptionKind::Spin {
                    default: 0,
                    min: 0,
                    max: i64::from(u32::MAX),
                },
            },
        ]
    }

    fn set_option(&mut self, name: &str, value: &str) -> Result<(), String> {
        if name.eq_ignore_ascii_case(ALGORITHM_OPTION) {
            self.algorithm = value.parse()?;
        } else if name.eq_ignore_ascii_case(DRAW_PLIES_OPTION) {
            self.draw_plies = value
                .parse()
                .map_err(|_| format!("{DRAW_PLIES_OPTION} needs a positive integer"))?;
        } else if name.eq_ignore_ascii_case(SEED_OPTION) {
            let seed = value
                .parse()
                .map_err(|_| format!("{SEED_OPTION} needs a non-negative integer"))?;
            self.multi.set_options(MultiOptions {
                seed,
                ..self.multi.options()
            });
        } else {
            return Err(format!("unknown option '{name}'"));
        }
        Ok(())
    }

    fn set_hash(&mut self, mib: usize) -> Result<(), String> {
        let (ab, mp) = hash_split(mib);
        self.searcher.try_resize(ab)?;
        if let Err(e) = self.multi.try_resize(mp) {
            // Back to the old size for both, so that a refusal changes nothing but contents.
            let (old_ab, _) = hash_split(self.hash_mib);
            if let Err(again) = self.searcher.try_resize(old_ab) {
                log::warn!("cannot restore the alpha-beta table: {again}");
            }
            return Err(e);
        }
        self.hash_mib = mib;
        Ok(())
    }

    fn new_game(&mut self) {
        self.searcher.clear();
        self.multi.clear();
    }

    fn search(
        &mut self,
        pos: &Position,
        limits: &Limits,
        stop: &AtomicBool,
        report: &mut dyn FnMut(SearchReport),
    ) -> Option<Move> {
        let mut on_info =
            |info: &Info<Move>| report(SearchReport::from_info(info, pv_text(pos, &info.pv)));
        let outcome = match self.algorithm.resolve(pos) {
            None => self.searcher.search(pos, limits, stop, &mut on_info),
            Some(alg) => self.multi.search(pos, alg, limits, stop, &mut on_info),
        };
        outcome.best
    }
}

/// Depth of every `bench` search; changing it changes the signature.
pub const BENCH_DEPTH: u32 = 4;

/// The bench positions: setups with plies of seeded pseudo-random play from their start.
const BENCH_GAMES: [(&str, usize); 10] = [
    ("duel", 0),
    ("duel", 14),
    ("duel-2", 10),
    ("duel-3", 6),
    ("trio", 0),
    ("trio-2", 9),
    ("quad", 12),
    ("six", 0),
    ("six", 18),
    ("teams-2x2", 8),
];

/// The bench positions (start positions and positions reached by a fixed pseudo-random
/// sequence), written back as position strings so they carry no move history.
pub fn bench_positions() -> Vec<Position> {
    let mut sequence = BenchSequence::new(0x501a_5eed);
    let mut moves = Vec::new();
    BENCH_GAMES
        .iter()
        .map(|&(setup, plies)| {
            let mut pos = Position::from_setup(setup).expect("built-in setup");
            for _ in 0..plies {
                pos.legal_moves(&mut moves);
                if moves.is_empty() || pos.status() != Status::Ongoing {
                    break;
                }
                pos.make(moves[sequence.pick(moves.len())]);
            }
            pos.to_string()
                .parse()
                .expect("own position string reads back")
        })
        .collect()
}

/// Searches every bench position to `depth` with fresh 16 MiB tables (alpha-beta for two
/// alternating sides, BRS+ otherwise) and sums the nodes.
pub fn bench(depth: u32) -> BenchReport {
    let positions = bench_positions();
    let stop = AtomicBool::new(false);
    let limits = Limits {
        depth: Some(depth),
        ..Limits::default()
    };
    let start = Instant::now();
    let mut nodes = 0;
    for pos in &positions {
        nodes += match SearchAlgorithm::Auto.resolve(pos) {
            None => Searcher::new(16).search(pos, &limits, &stop, &mut |_| {}),
            Some(alg) => MultiSearcher::new(MultiOptions::default()).search(
                pos,
                alg,
                &limits,
                &stop,
                &mut |_| {},
            ),
        }
        .nodes;
    }
    BenchReport {
        positions: positions.len(),
        nodes,
        time: start.elapsed(),
    }
}

/// The algorithms the self-play comparison sets against each other.
pub const SELFPLAY_ALGORITHMS: [MultiAlgorithm; 3] = [
    MultiAlgorithm::BrsPlus,
    MultiAlgorithm::Mcts,
    MultiAlgorithm::Paranoid,
];

/// Settings of a self-play comparison.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SelfPlayConfig {
    /// Setup name (3 or more sides, for example `trio`, `quad`, `six`).
    pub setup: String,
    /// Number of games.
    pub games: usize,
    /// Thinking time per move.
    pub movetime: Duration,
    /// Plies of seeded random play before the engines take over (varies the games).
    pub opening_plies: usize,
    /// Plies after which a game is stopped and scored as a draw among the sides still in.
    pub max_plies: usize,
    /// No-capture draw limit of the games.
    pub draw_plies: u32,
    /// Seed of the openings and of MCTS.
    pub seed: u64,
}

impl Default for SelfPlayConfig {
    fn default() -> Self {
        SelfPlayConfig {
            setup: "quad".into(),
            games: 12,
            movetime: Duration::from_millis(50),
            opening_plies: 4,
            max_plies: 400,
            draw_plies: 60,
            seed: 1,
        }
    }
}

/// How one game of a self-play comparison ended.
#[derive(Clone, Debug, PartialEq)]
pub struct SelfPlayGame {
    /// The algorithm of each seat.
    pub seats: Vec<MultiAlgorithm>,
    /// Points of each seat: 1 for a win, 0 for a loss, a draw split among the sides still in.
    pub points: Vec<f32>,
    /// Plies played (opening included).
    pub plies: usize,
    /// What ended it (the protocol's outcome text, or the ply cap).
    pub result: String,
}

/// Totals of one algorithm over a self-play comparison.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct AlgorithmScore {
    /// Seats it played, over all games.
    pub seat_games: usize,
    /// Seats of it on a winning side.
    pub wins: usize,
    /// Seats of it still in at a drawn game.
    pub draws: usize,
    /// Points won (see [`SelfPlayGame::points`]).
    pub points: f32,
}

impl AlgorithmScore {
    /// Points per seat played; equal strength gives 1 / number of sides.
    pub fn share(&self) -> f32 {
        if self.seat_games == 0 {
            0.0
        } else {
            self.points / self.seat_games as f32
        }
    }
}

/// The outcome of [`selfplay`].
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SelfPlayReport {
    /// Every game in order.
    pub games: Vec<SelfPlayGame>,
    /// Totals per algorithm, in [`SELFPLAY_ALGORITHMS`] order.
    pub scores: Vec<(MultiAlgorithm, AlgorithmScore)>,
}

impl SelfPlayReport {
    /// The summary table `solar-chess selfplay` prints.
    pub fn text(&self) -> String {
        let decisive = self
            .games
            .iter()
            .filter(|g| g.points.contains(&1.0))
            .count();
        let mut out = format!(
            "games {} (decisive {decisive}, drawn {})\nalgorithm  seats  wins  draws  points  share\n",
            self.games.len(),
            self.games.len() - decisive
        );
        for (alg, s) in &self.scores {
            out.push_str(&format!(
                "{:<9} {:>6} {:>5} {:>6} {:>7.2} {:>6.3}\n",
                alg.name(),
                s.seat_games,
                s.wins,
                s.draws,
                s.points,
                s.share()
            ));
        }
        out
    }
}

/// The algorithm of each seat in game `game`: the three algorithms in one of their six orders
/// (cycling through all six), repeated over the seats.
pub fn selfplay_assignment(game: usize, seats: usize) -> Vec<MultiAlgorithm> {
    const ORDERS: [[usize; 3]; 6] = [
        [0, 1, 2],
        [1, 2, 0],
        [2, 0, 1],
        [0, 2, 1],
        [2, 1, 0],
        [1, 0, 2],
    ];
    let order = ORDERS[game % ORDERS.len()];
    (0..seats)
        .map(|s| SELFPLAY_ALGORITHMS[order[s % 3]])
        .collect()
}

/// Plays `config.games` seeded games of BRS+, MCTS and paranoid against each other in-process,
/// rotating the algorithms over the seats, and calls `progress` after each game.
pub fn selfplay(
    config: &SelfPlayConfig,
    progress: &mut dyn FnMut(usize, &SelfPlayGame),
) -> Result<SelfPlayReport, String> {
    let start = Position::from_setup(&config.setup).map_err(|e| e.to_string())?;
    let seats = start.seats();
    let mut report = SelfPlayReport {
        games: Vec::new(),
        scores: SELFPLAY_ALGORITHMS
            .iter()
            .map(|&a| (a, AlgorithmScore::default()))
            .collect(),
    };
    let stop = AtomicBool::new(false);
    let limits = Limits {
        movetime: Some(config.movetime),
        ..Limits::default()
    };
    let mut moves = Vec::new();
    for game in 0..config.games {
        let assignment = selfplay_assignment(game, seats);
        let game_seed = config
            .seed
            .wrapping_mul(1_000_003)
            .wrapping_add(game as u64);
        let mut rng = ChaCha8Rng::seed_from_u64(game_seed);
        let mut searchers: Vec<MultiSearcher<Position>> = (0..seats)
            .map(|s| {
                MultiSearcher::new(MultiOptions {
                    seed: game_seed.wrapping_mul(16).wrapping_add(s as u64),
                    ..MultiOptions::default()
                })
            })
            .collect();
        let mut pos = start.clone();
        pos.set_draw_plies(config.draw_plies);
        let mut plies = 0;
        while pos.status() == Status::Ongoing && plies < config.max_plies {
            let mv = if plies < config.opening_plies {
                pos.legal_moves(&mut moves);
                *moves
                    .choose(&mut rng)
                    .ok_or("no legal move in a running game")?
            } else {
                let seat = pos.to_move() as usize;
                searchers[seat]
                    .search(&pos, assignment[seat], &limits, &stop, &mut |_| {})
                    .best
                    .ok_or("a search found no move in a running game")?
            };
            pos.make(mv);
            plies += 1;
        }
        let mut points = vec![0.0f32; seats];
        let result = match outcome(&pos) {
            Some(o) => {
                crate::search::MultiSided::outcome(&pos, &mut points);
                match o {
                    GameOutcome::Win { seats, reason } => format!("seats {seats:?} win: {reason}"),
                    GameOutcome::Draw { reason } => format!("draw: {reason}"),
                }
            }
            None => {
                let alive = pos.teams_with_ships();
                let share = 1.0 / alive.count_ones().max(1) as f32;
                for (s, p) in points.iter_mut().enumerate() {
                    if alive & (1 << pos.team(s as u8)) != 0 {
                        *p = share;
                    }
                }
                format!("draw: stopped after {plies} plies")
            }
        };
        let decisive = points.contains(&1.0);
        for (s, &alg) in assignment.iter().enumerate() {
            let score = &mut report
                .scores
                .iter_mut()
                .find(|(a, _)| *a == alg)
                .expect("every assigned algorithm is listed")
                .1;
            score.seat_games += 1;
            score.points += points[s];
            if decisive && points[s] == 1.0 {
                score.wins += 1;
            } else if !decisive && points[s] > 0.0 {
                score.draws += 1;
            }
        }
        let record = SelfPlayGame {
            seats: assignment,
            points,
            plies,
            result,
        };
        progress(game, &record);
        report.games.push(record);
    }
    Ok(report)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn play(engine: &SolarEngine, pos: &mut Position, text: &str) {
        let mv = engine.parse_move(pos, text).unwrap();
        engine.play(pos, mv);
    }

    #[test]
    fn variants_are_the_ten_setups_duel_first() {
        let engine = SolarEngine::new(1);
        let v = engine.variants();
        assert_eq!(v.len(), 10);
        assert_eq!(v[0], "duel");
        for name in &v {
            let pos = engine.start_position(name).unwrap();
            assert!(engine.outcome(&pos).is_none());
            assert_eq!(engine.seat_to_move(&pos), 1);
        }
        assert!(engine.start_position("seven").is_err());
        assert_eq!(engine.seats(&engine.start_position("six").unwrap()), 6);
    }

    #[test]
    fn algorithm_names_round_trip_and_resolve() {
        for a in SearchAlgorithm::ALL {
            assert_eq!(a.name().parse::<SearchAlgorithm>(), Ok(a));
        }
        assert!("minimax".parse::<SearchAlgorithm>().is_err());
        let duel = Position::from_setup("duel").unwrap();
        let quad = Position::from_setup("quad").unwrap();
        let teams = Position::from_setup("teams-2x2").unwrap();
        assert_eq!(SearchAlgorithm::Auto.resolve(&duel), None);
        assert_eq!(SearchAlgorithm::Auto.resolve(&teams), None);
        assert_eq!(
            SearchAlgorithm::Auto.resolve(&quad),
            Some(MultiAlgorithm::BrsPlus)
        );
        assert_eq!(
            SearchAlgorithm::AlphaBeta.resolve(&quad),
            Some(MultiAlgorithm::BrsPlus)
        );
        let mcts = SearchAlgorithm::Multi(MultiAlgorithm::Mcts);
        assert_eq!(mcts.resolve(&duel), Some(MultiAlgorithm::Mcts));
    }

    #[test]
    fn options_change_the_engine() {
        let mut engine = SolarEngine::new(1);
        engine.set_option(ALGORITHM_OPTION, "mcts").unwrap();
        assert_eq!(
            engine.algorithm(),
            SearchAlgorithm::Multi(MultiAlgorithm::Mcts)
        );
        assert!(engine.set_option(ALGORITHM_OPTION, "best").is_err());
        engine.set_option(SEED_OPTION, "7").unwrap();
        assert_eq!(engine.multi.options().seed, 7);
        engine.set_option(DRAW_PLIES_OPTION, "2").unwrap();
        let mut pos = engine.start_position("duel").unwrap();
        play(&engine, &mut pos, "Fw@n2");
        assert!(engine.outcome(&pos).is_none());
        play(&engine, &mut pos, "Fk@f5");
        match engine.outcome(&pos) {
            Some(GameOutcome::Draw { reason }) => assert!(reason.contains("2 plies")),
            other => panic!("expected a no-capture draw, got {other:?}"),
        }
        assert!(engine.set_option("Nope", "1").is_err());
    }

    #[test]
    fn every_algorithm_returns_a_legal_move_and_reports() {
        let stop = AtomicBool::new(false);
        for (setup, alg) in [
            ("duel", "auto"),
            ("teams-2x3", "alphabeta"),
            ("quad", "brs+"),
            ("trio", "paranoid"),
            ("six", "mcts"),
        ] {
            let mut engine = SolarEngine::new(1);
            engine.set_option(ALGORITHM_OPTION, alg).unwrap();
            let pos = engine.start_position(setup).unwrap();
            let limits = Limits {
                depth: Some(2),
                nodes: Some(2000),
                ..Limits::default()
            };
            let mut reports = 0;
            let mv = engine
                .search(&pos, &limits, &stop, &mut |r| {
                    reports += 1;
                    assert!(r.pv.iter().all(|m| !m.is_empty()));
                })
                .unwrap_or_else(|| panic!("{setup}/{alg}: no move"));
            let mut legal = Vec::new();
            pos.legal_moves(&mut legal);
            assert!(legal.contains(&mv), "{setup}/{alg}: {mv} is not legal");
            assert!(reports >= 1, "{setup}/{alg}: no report");
        }
    }

    #[test]
    fn a_win_names_the_whole_team() {
        // teams-2x2: seats 1 and 3 against 2 and 4; remove both enemy Motherships by string.
        let engine = SolarEngine::new(1);
        let start = engine.start_position("teams-2x2").unwrap();
        let text = start.to_string();
        let over = engine.parse_position("teams-2x2", &text).unwrap();
        assert!(engine.outcome(&over).is_none());
        assert_eq!(engine.position_text(&over), text);
        let mut pos = start.clone();
        // Play random legal moves until somebody wins or the cap; any win must list a full team.
        let mut seq = BenchSequence::new(3);
        let mut moves = Vec::new();
        for _ in 0..2000 {
            if let Some(o) = engine.outcome(&pos) {
                if let GameOutcome::Win { seats, .. } = o {
                    assert!(seats == vec![1, 3] || seats == vec![2, 4], "{seats:?}");
                }
                return;
            }
            pos.legal_moves(&mut moves);
            pos.make(moves[seq.pick(moves.len())]);
        }
        panic!("a random game of 2000 plies did not end (draw limit 200)");
    }

    #[test]
    fn bench_signature_is_deterministic() {
        let a = bench(1);
        let b = bench(1);
        assert_eq!(a.nodes, b.nodes);
        assert_eq!(a.positions, BENCH_GAMES.len());
        assert!(a.nodes > a.positions as u64);
        let mut texts: Vec<String> = bench_positions().iter().map(|p| p.to_string()).collect();
        texts.sort();
        texts.dedup();
        assert_eq!(texts.len(), BENCH_GAMES.len());
    }

    #[test]
    fn selfplay_rotates_algorithms_and_scores_every_seat() {
        let mut orders: Vec<Vec<MultiAlgorithm>> =
            (0..6).map(|g| selfplay_assignment(g, 3)).collect();
        orders.sort_by_key(|o| format!("{o:?}"));
        orders.dedup();
        assert_eq!(orders.len(), 6, "all six orders of three algorithms");
        let config = SelfPlayConfig {
            setup: "trio".into(),
            games: 3,
            movetime: Duration::from_millis(2),
            opening_plies: 2,
            max_plies: 24,
            draw_plies: 200,
            seed: 5,
        };
        let mut seen = 0;
        let report = selfplay(&config, &mut |_, _| seen += 1).unwrap();
        assert_eq!(seen, 3);
        assert_eq!(report.games.len(), 3);
        for (_, s) in &report.scores {
            assert_eq!(s.seat_games, 3);
        }
        let total: f32 = report.scores.iter().map(|(_, s)| s.points).sum();
        assert!(
            (total - 3.0).abs() < 1e-3,
            "points per game sum to 1: {total}"
        );
        assert!(report.text().contains("brs+"));
        assert!(selfplay(
            &SelfPlayConfig {
                setup: "nine".into(),
                ..config
            },
            &mut |_, _| {}
        )
        .is_err());
    }
}
