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

    /// Reads an openings file.
    pub fn read_file(path: &std::path::Path) -> Result<Vec<Opening>, String> {
        let text = std::fs::read_to_string(path)
            .map_err(|e| format!("--openings {}: {e}", path.display()))?;
        let list: Vec<Opening> = text.lines().filter_map(Opening::parse_line).collect();
        if list.is_empty() {
            return Err(format!("--openings {}: no positions", path.display()));
        }
        Ok(list)
    }
}

/// Plays `plies` random legal moves (seeded) on `game`, stopping early if it ends.
pub fn random_plies(game: &mut dyn DynGame, plies: u32, seed: u64) -> Result<(), String> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    for _ in 0..plies {
        if game.outcome().is_some() {
            break;
        }
        let seats = game.to_decide();
        let moves = game.legal_moves();
        let (Some(&seat), Some(mv)) = (seats.first(), moves.choose(&mut rng)) else {
            break;
        };
        game.play(seat, mv)
            .map_err(|r| format!("random opening move {mv} refused: {}", r.0))?;
        if game.outcome().is_some() {
            return Err("random opening ended the game".into());
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

/// The games of a match: `games` games for `engines` engines in `seats` seats. With at least
/// as many seats as engines, the engines are laid around the seats in turn and the block
/// rotates them seat by seat; with more engines than seats, each block takes the next group
/// of `seats` engines in round-robin order and rotates that group.
pub fn schedule(games: u64, engines: usize, seats: usize, seed: u64) -> Vec<GameJob> {
    let block_len = seats as u64;
    let groups: Vec<Vec<usize>> = if engines <= seats {
        vec![(0..seats).map(|i| i % engines).collect()]
    } else {
        // All windows of consecutive engines (cyclic), so every engine meets the others.
        (0..engines)
            .map(|start| (0..seats).map(|i| (start + i) % engines).collect())
            .collect()
    };
    (0..games)
        .map(|id| {
            let block = id / block_len;
            let turn = (id % block_len) as usize;
            let group = &groups[(block as usize) % groups.len()];
            let seat_engines = (0..seats).map(|s| group[(s + turn) % seats]).collect();
            GameJob {
                id,
                block,
                seat_engines,
                block_seed: block_seed(seed, block),
            }
        })
        .collect()
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
