//! Who plays which seat in which game: games come in blocks that share an opening (or deal);
//! within a block the engines rotate through the seats, so every engine plays every seat equally
//! often (a block is a game pair for two seats and a full rotation for more).

use rand::seq::SliceRandom;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use super::game_adapter::DynGame;

/// A start for one block of games: a position (None: the game's standard start) and moves
/// played from it before the engines take over.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Opening {
    /// Start position text.
    pub position: Option<String>,
    /// Opening moves from that position.
    pub moves: Vec<String>,
}

impl Opening {
    /// Parses one line of an openings file: `<position>`, `<position> moves m1 m2 ...`,
    /// `startpos`, or `startpos moves ...`. Blank lines and `#` comments give `None`.
    pub fn parse_line(line: &str) -> Option<Opening> {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            return None;
        }
        let (pos, moves) = match line.split_once(" moves ") {
            Some((p, m)) => (p.trim(), m.split_whitespace().map(String::from).collect()),
            None => (
                line.strip_suffix(" moves").unwrap_or(line).trim(),
                Vec::new(),
            ),
        };
        let position = (pos != "startpos").then(|| pos.to_string());
        Some(Opening { position, moves })
    }

    /// Reads a whole openings file and checks every line with `check` (which sets the opening
    /// up in the game's rules); an error names the file and the line number.
    pub fn read_file(
        path: &std::path::Path,
        check: &dyn Fn(&Opening) -> Result<(), String>,
    ) -> Result<Vec<Opening>, String> {
        let shown = path.display();
        let bytes = std::fs::read(path).map_err(|e| format!("--openings {shown}: {e}"))?;
        let mut list = Vec::new();
        for (i, line) in bytes.split(|&b| b == b'\n').enumerate() {
            let at = || format!("--openings {shown} line {}", i + 1);
            let line =
                std::str::from_utf8(line).map_err(|_| format!("{}: not UTF-8 text", at()))?;
            let Some(o) = Opening::parse_line(line) else {
                continue;
            };
            check(&o).map_err(|e| format!("{}: {e}", at()))?;
            list.push(o);
        }
        if list.is_empty() {
            return Err(format!("--openings {shown}: no positions"));
        }
        Ok(list)
    }
}

/// Builds a game from its start plus the given moves (for [`random_plies`]).
pub type Rebuild<'a> = &'a dyn Fn(&[String]) -> Result<Box<dyn DynGame>, String>;

/// Plays `plies` random legal moves (seeded) on `game`. A move that would end the game is not
/// taken: the game is rebuilt with `rebuild` (the start plus the random moves so far) and
/// another move is tried; when every move ends it, the random plies stop there.
pub fn random_plies(
    game: &mut Box<dyn DynGame>,
    plies: u32,
    seed: u64,
    rebuild: Rebuild<'_>,
) -> Result<(), String> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut chosen: Vec<String> = Vec::new();
    for _ in 0..plies {
        if game.outcome().is_some() {
            break;
        }
        let seats = game.to_decide();
        let mut moves = game.legal_moves();
        let (Some(&seat), Some(first)) = (seats.first(), moves.choose(&mut rng).cloned()) else {
            break;
        };
        moves.retain(|m| *m != first);
        moves.shuffle(&mut rng);
        let mut played = false;
        for mv in std::iter::once(first).chain(moves) {
            let canon = game
                .play(seat, &mv)
                .map_err(|r| format!("random opening move {mv} refused: {}", r.0))?;
            if game.outcome().is_none() {
                chosen.push(canon);
                played = true;
                break;
            }
            *game = rebuild(&chosen)?;
        }
        if !played {
            break;
        }
    }
    Ok(())
}

/// One game of the match.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameJob {
    /// Game number, 0-based; also the key for resuming.
    pub id: u64,
    /// Block (opening / deal) number.
    pub block: u64,
    /// Engine index per seat.
    pub seat_engines: Vec<usize>,
    /// Seed for the block's random opening plies or deal.
    pub block_seed: u64,
}

/// Mixes a match seed and a block number into the block's seed (splitmix64 step).
pub fn block_seed(seed: u64, block: u64) -> u64 {
    let mut z = seed ^ block.wrapping_mul(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// One of N disjoint parts of a match (`--shard K/N`, K from 1): the blocks b with
/// b mod N = K − 1, so the games of a pair or rotation stay together and the N shards together
/// play exactly the games of the unsharded match.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    /// K, 1-based.
    pub index: u64,
    /// N.
    pub count: u64,
}

impl Shard {
    /// Parses `K/N` with 1 ≤ K ≤ N ≤ 100000.
    pub fn parse(text: &str) -> Result<Self, String> {
        let (k, n) = text
            .split_once('/')
            .ok_or_else(|| format!("--shard {text:?}: expected K/N, e.g. 2/8"))?;
        let num = |v: &str| v.trim().parse::<u64>().ok();
        match (num(k), num(n)) {
            (Some(k), Some(n)) if k >= 1 && k <= n && n <= 100_000 => {
                Ok(Shard { index: k, count: n })
            }
            _ => Err(format!(
                "--shard {text:?}: need 1 <= K <= N <= 100000 (K counts from 1)"
            )),
        }
    }

    /// Parses `K/N`, or `env/N` with K taken from the scheduler's environment (`get` looks a
    /// variable up): a Slurm array task's `SLURM_ARRAY_TASK_ID` (counted from
    /// `SLURM_ARRAY_TASK_MIN` in steps of `SLURM_ARRAY_TASK_STEP`, so `--array=0-7` and
    /// `--array=1-8` both give K = 1..8) or a Kubernetes Indexed Job's `JOB_COMPLETION_INDEX`
    /// (0-based). Errors when neither or both are set, or when the index is out of range.
    pub fn resolve(text: &str, get: &dyn Fn(&str) -> Option<String>) -> Result<Self, String> {
        let Some(n) = text.strip_prefix("env/") else {
            return Shard::parse(text);
        };
        let num = |name: &str, v: &str| {
            v.trim()
                .parse::<u64>()
                .map_err(|_| format!("--shard {text}: {name}={v:?} is not a number"))
        };
        let index = match (get("SLURM_ARRAY_TASK_ID"), get("JOB_COMPLETION_INDEX")) {
            (Some(_), Some(_)) => {
                return Err(format!(
                    "--shard {text}: both SLURM_ARRAY_TASK_ID and JOB_COMPLETION_INDEX are set; \
                     give K/N"
                ))
            }
            (None, None) => {
                return Err(format!(
                    "--shard {text}: neither SLURM_ARRAY_TASK_ID (Slurm job array) nor \
                     JOB_COMPLETION_INDEX (Kubernetes Indexed Job) is set; give K/N"
                ))
            }
            (Some(id), None) => {
                let id = num("SLURM_ARRAY_TASK_ID", &id)?;
                let min = match get("SLURM_ARRAY_TASK_MIN") {
                    Some(v) => num("SLURM_ARRAY_TASK_MIN", &v)?,
                    None => 0,
                };
                let step = match get("SLURM_ARRAY_TASK_STEP") {
                    Some(v) => num("SLURM_ARRAY_TASK_STEP", &v)?.max(1),
                    None => 1,
                };
                if id < min || (id - min) % step != 0 {
                    return Err(format!(
                        "--shard {text}: SLURM_ARRAY_TASK_ID={id} is not in the array \
                         (SLURM_ARRAY_TASK_MIN={min}, step {step})"
                    ));
                }
                if let Some(count) = get("SLURM_ARRAY_TASK_COUNT") {
                    let count = num("SLURM_ARRAY_TASK_COUNT", &count)?;
                    if n.trim().parse::<u64>().ok() != Some(count) {
                        return Err(format!(
                            "--shard {text}: the job array has {count} tasks \
                             (SLURM_ARRAY_TASK_COUNT), not {n}"
                        ));
                    }
                }
                (id - min) / step + 1
            }
            (None, Some(i)) => num("JOB_COMPLETION_INDEX", &i)?.saturating_add(1),
        };
        Shard::parse(&format!("{index}/{n}"))
            .map_err(|e| format!("{e} (--shard {text}: K = {index} from the environment)"))
    }

    /// True when block `block` belongs to this shard.
    pub fn has_block(&self, block: u64) -> bool {
        block % self.count == self.index - 1
    }
}

impl std::fmt::Display for Shard {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

/// The game schedule of a match: `games` games for `engines` engines in `seats` seats, each
/// game computed from its id on demand (a match of a billion games costs no memory). With at
/// least as many seats as engines, the engines are laid around the seats in turn and the block
/// rotates them seat by seat; with more engines than seats, each block takes the next group of
/// `seats` engines in round-robin order and rotates that group.
#[derive(Clone, Debug)]
pub struct Schedule {
    games: u64,
    seats: usize,
    seed: u64,
    groups: Vec<Vec<usize>>,
}

impl Schedule {
    /// The schedule of a match.
    pub fn new(games: u64, engines: usize, seats: usize, seed: u64) -> Self {
        let groups: Vec<Vec<usize>> = if engines <= seats {
            vec![(0..seats).map(|i| i % engines.max(1)).collect()]
        } else {
            // All windows of consecutive engines (cyclic), so every engine meets the others.
            (0..engines)
                .map(|start| (0..seats).map(|i| (start + i) % engines).collect())
                .collect()
        };
        Schedule {
            games,
            seats: seats.max(1),
            seed,
            groups,
        }
    }

    /// The game with id `id` (0-based).
    pub fn job(&self, id: u64) -> GameJob {
        let block_len = self.seats as u64;
        let block = id / block_len;
        let turn = (id % block_len) as usize;
        let group = &self.groups[(block % self.groups.len() as u64) as usize];
        let seat_engines = (0..self.seats)
            .map(|s| group[(s + turn) % self.seats])
            .collect();
        GameJob {
            id,
            block,
            seat_engines,
            block_seed: block_seed(self.seed, block),
        }
    }

    /// The ids of the games this run plays: all, or those of one shard, in order.
    pub fn ids(&self, shard: Option<Shard>) -> impl Iterator<Item = u64> + Send + 'static {
        let (first, step) = shard.map_or((0, 1), |s| (s.index - 1, s.count));
        let block_len = self.seats as u64;
        let games = self.games;
        let blocks = games.div_ceil(block_len);
        (0..)
            .map(move |i: u64| first.saturating_add(i.saturating_mul(step)))
            .take_while(move |&b| b < blocks)
            .flat_map(move |b| {
                b.saturating_mul(block_len)
                    ..(b.saturating_add(1).saturating_mul(block_len)).min(games)
            })
    }
}

/// Every game of a small match, in order (see [`Schedule`]).
pub fn schedule(games: u64, engines: usize, seats: usize, seed: u64) -> Vec<GameJob> {
    let s = Schedule::new(games, engines, seats, seed);
    s.ids(None).map(|id| s.job(id)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pairs_swap_seats() {
        let s = schedule(4, 2, 2, 1);
        assert_eq!(s[0].seat_engines, vec![0, 1]);
        assert_eq!(s[1].seat_engines, vec![1, 0]);
        assert_eq!(s[0].block, s[1].block);
        assert_eq!(s[0].block_seed, s[1].block_seed);
        assert_ne!(s[1].block_seed, s[2].block_seed);
    }

    #[test]
    fn six_seats_two_engines_rotate_evenly() {
        let s = schedule(6, 2, 6, 7);
        let mut per_seat = vec![[0u32; 2]; 6];
        for job in &s {
            assert_eq!(job.block, 0);
            for (seat, &e) in job.seat_engines.iter().enumerate() {
                per_seat[seat][e] += 1;
            }
        }
        assert!(per_seat.iter().all(|c| c == &[3, 3]), "{per_seat:?}");
    }

    #[test]
    fn more_engines_than_seats_meet_everyone() {
        let s = schedule(6, 3, 2, 0);
        let pairs: Vec<_> = s.iter().map(|j| j.seat_engines.clone()).collect();
        assert_eq!(
            pairs,
            vec![
                vec![0, 1],
                vec![1, 0],
                vec![1, 2],
                vec![2, 1],
                vec![2, 0],
                vec![0, 2]
            ]
        );
    }

    #[test]
    fn shards_split_the_blocks_and_cover_the_match() {
        let s = Schedule::new(11, 2, 2, 5);
        let all: Vec<u64> = s.ids(None).collect();
        assert_eq!(all, (0..11).collect::<Vec<_>>());
        let mut union = Vec::new();
        for k in 1..=3 {
            let shard = Shard::parse(&format!("{k}/3")).unwrap();
            let ids: Vec<u64> = s.ids(Some(shard)).collect();
            for &id in &ids {
                assert!(shard.has_block(s.job(id).block));
            }
            union.extend(ids);
        }
        union.sort();
        assert_eq!(union, all);
        assert_eq!(
            s.ids(Some(Shard::parse("1/3").unwrap()))
                .collect::<Vec<_>>(),
            vec![0, 1, 6, 7]
        );
        assert_eq!(
            s.ids(Some(Shard::parse("3/3").unwrap()))
                .collect::<Vec<_>>(),
            vec![4, 5, 10]
        );
        let huge = Schedule::new(u64::MAX, 2, 2, 1);
        assert_eq!(huge.ids(None).nth(1_000_000), Some(1_000_000));
        assert_eq!(huge.job(u64::MAX - 1).block, u64::MAX / 2);
        for bad in ["0/3", "4/3", "1/0", "x/3", "3", "1/100001"] {
            assert!(Shard::parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn shard_index_from_the_scheduler_environment() {
        fn k(spec: &str, vars: &[(&str, &str)]) -> Result<Shard, String> {
            Shard::resolve(spec, &|key: &str| {
                vars.iter()
                    .find(|(n, _)| *n == key)
                    .map(|(_, v)| v.to_string())
            })
        }
        assert_eq!(k("2/5", &[]).unwrap(), Shard { index: 2, count: 5 });
        assert_eq!(
            k("env/8", &[("SLURM_ARRAY_TASK_ID", "0")]).unwrap().index,
            1
        );
        let one_based = [
            ("SLURM_ARRAY_TASK_ID", "8"),
            ("SLURM_ARRAY_TASK_MIN", "1"),
            ("SLURM_ARRAY_TASK_COUNT", "8"),
        ];
        assert_eq!(k("env/8", &one_based).unwrap().index, 8);
        let stepped = [
            ("SLURM_ARRAY_TASK_ID", "14"),
            ("SLURM_ARRAY_TASK_MIN", "10"),
            ("SLURM_ARRAY_TASK_STEP", "2"),
        ];
        assert_eq!(k("env/3", &stepped).unwrap().index, 3);
        assert_eq!(
            k("env/4", &[("JOB_COMPLETION_INDEX", "3")]).unwrap(),
            Shard { index: 4, count: 4 }
        );
        for (vars, needle) in [
            (&[][..], "neither SLURM_ARRAY_TASK_ID"),
            (
                &[("SLURM_ARRAY_TASK_ID", "1"), ("JOB_COMPLETION_INDEX", "1")][..],
                "both",
            ),
            (
                &[("JOB_COMPLETION_INDEX", "4")][..],
                "K = 5 from the environment",
            ),
            (&[("JOB_COMPLETION_INDEX", "x")][..], "not a number"),
            (
                &[
                    ("SLURM_ARRAY_TASK_ID", "3"),
                    ("SLURM_ARRAY_TASK_COUNT", "8"),
                ][..],
                "has 8 tasks",
            ),
            (
                &[("SLURM_ARRAY_TASK_ID", "3"), ("SLURM_ARRAY_TASK_STEP", "2")][..],
                "not in the array",
            ),
        ] {
            let e = k("env/4", vars).unwrap_err();
            assert!(e.contains(needle), "{vars:?}: {e}");
        }
    }

    #[test]
    fn openings_lines() {
        assert_eq!(Opening::parse_line("# c"), None);
        assert_eq!(
            Opening::parse_line("startpos moves b2 a1").unwrap(),
            Opening {
                position: None,
                moves: vec!["b2".into(), "a1".into()]
            }
        );
        let o = Opening::parse_line("x... w - 0 1").unwrap();
        assert_eq!(o.position.as_deref(), Some("x... w - 0 1"));
    }
}
