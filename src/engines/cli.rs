//! What the engine binaries share outside the protocol: the command line (`bench`, `perft`,
//! extra commands), the bench report and the text both print for `bench` and `perft`.

use std::time::Duration;

/// A command of an engine binary's command line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    /// No command: speak the protocol on stdin/stdout.
    Protocol,
    /// `-h`, `--help`, `help`.
    Help,
    /// `bench [DEPTH]`.
    Bench {
        /// Search depth; the engine's default when absent.
        depth: Option<u32>,
    },
    /// `perft DEPTH [POSITION...]`.
    Perft {
        /// Plies to count.
        depth: u32,
        /// The remaining words joined by spaces (a FEN, setup name or position string).
        position: Option<String>,
    },
    /// Any other command with its arguments, for the binary to handle.
    Other {
        /// The command word.
        name: String,
        /// The words after it.
        args: Vec<String>,
    },
}

/// Parses the command line (without the program name and binary-specific flags).
pub fn parse_command(args: &[String]) -> Result<Command, String> {
    let Some(first) = args.first() else {
        return Ok(Command::Protocol);
    };
    match first.as_str() {
        "-h" | "--help" | "help" => Ok(Command::Help),
        "bench" => {
            let depth = match args.get(1) {
                Some(d) => Some(bounded(d, "bench depth", 1, MAX_BENCH_DEPTH)?),
                None => None,
            };
            if args.len() > 2 {
                return Err(format!("bench takes at most a depth, got '{}'", args[2]));
            }
            Ok(Command::Bench { depth })
        }
        "perft" => {
            let depth = bounded(
                args.get(1).ok_or("perft needs a depth")?,
                "perft depth",
                0,
                crate::games::MAX_PERFT_DEPTH,
            )?;
            let position = (args.len() > 2).then(|| args[2..].join(" "));
            Ok(Command::Perft { depth, position })
        }
        other => Ok(Command::Other {
            name: other.to_string(),
            args: args[1..].to_vec(),
        }),
    }
}

/// Deepest `bench` search accepted (the alpha-beta search's own ceiling).
pub const MAX_BENCH_DEPTH: u32 = crate::search::alphabeta::MAX_DEPTH;

/// Parses a number in `min..=max`, naming `what` in the error.
fn bounded(text: &str, what: &str, min: u32, max: u32) -> Result<u32, String> {
    let n: u64 = parse_number(text, what)?;
    if n < u64::from(min) || n > u64::from(max) {
        return Err(format!("{what} must be in {min}..={max}, got {text}"));
    }
    Ok(n as u32)
}

/// Runs the body of a binary's `main` and applies the command-line convention to its result:
/// success exits 0; an error prints `PROGRAM: message` (with its causes, never a backtrace,
/// whatever `RUST_BACKTRACE` says) on stderr and exits 2.
pub fn exit_code(program: &str, result: anyhow::Result<()>) -> std::process::ExitCode {
    match result {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("{program}: {e:#}");
            std::process::ExitCode::from(2)
        }
    }
}

/// Parses a non-negative number, naming `what` in the error.
pub fn parse_number<T: std::str::FromStr>(text: &str, what: &str) -> Result<T, String> {
    text.parse()
        .map_err(|_| format!("{what} must be a non-negative number, got '{text}'"))
}

/// Reads `--name VALUE` pairs of a command's arguments into `(name, value)` pairs; every word must
/// belong to such a pair.
pub fn flag_pairs(args: &[String]) -> Result<Vec<(String, String)>, String> {
    let mut out = Vec::new();
    let mut it = args.iter();
    while let Some(flag) = it.next() {
        let name = flag
            .strip_prefix("--")
            .ok_or_else(|| format!("expected a --flag, got '{flag}'"))?;
        let value = it.next().ok_or_else(|| format!("--{name} needs a value"))?;
        out.push((name.to_string(), value.clone()));
    }
    Ok(out)
}

/// The result of a binary's `bench`: the node count is a signature of the search.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BenchReport {
    /// Positions searched.
    pub positions: usize,
    /// Total nodes over all positions.
    pub nodes: u64,
    /// Wall time of all searches.
    pub time: Duration,
}

impl BenchReport {
    /// Nodes per second over the whole bench.
    pub fn nps(&self) -> u64 {
        per_second(self.nodes, self.time)
    }

    /// The lines `bench` prints (Stockfish's field names, so scripts can read them).
    pub fn text(&self, depth: u32) -> String {
        format!(
            "positions {} depth {depth}\nNodes searched: {}\nTime: {} ms\nNodes/second: {}",
            self.positions,
            self.nodes,
            self.time.as_millis(),
            self.nps()
        )
    }
}

/// The lines `perft` prints: `<move>: <count>` per root move, then the total, time and rate.
pub fn perft_text(divide: &[(String, u64)], nodes: u64, elapsed: Duration) -> String {
    let mut out = String::new();
    for (mv, n) in divide {
        out.push_str(&format!("{mv}: {n}\n"));
    }
    out.push_str(&format!(
        "\nNodes searched: {nodes}\nTime: {} ms\nLeaf nodes/second: {}",
        elapsed.as_millis(),
        per_second(nodes, elapsed)
    ));
    out
}

/// `count` per second of `elapsed` (0 for no time at all).
pub fn per_second(count: u64, elapsed: Duration) -> u64 {
    (u128::from(count) * 1_000_000)
        .checked_div(elapsed.as_micros())
        .map_or(0, |v| v as u64)
}

/// The fixed pseudo-random sequence that picks the moves leading to bench positions (a linear
/// congruential generator, so the positions never change with a library upgrade).
#[derive(Clone, Debug)]
pub struct BenchSequence(u64);

impl BenchSequence {
    /// The sequence from a seed.
    pub fn new(seed: u64) -> Self {
        BenchSequence(seed)
    }

    /// An index below `n` (`n > 0`).
    pub fn pick(&mut self, n: usize) -> usize {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        (self.0 >> 33) as usize % n
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(s: &str) -> Vec<String> {
        s.split_whitespace().map(String::from).collect()
    }

    #[test]
    fn commands_parse() {
        assert_eq!(parse_command(&[]), Ok(Command::Protocol));
        assert_eq!(
            parse_command(&words("bench")),
            Ok(Command::Bench { depth: None })
        );
        assert_eq!(
            parse_command(&words("bench 3")),
            Ok(Command::Bench { depth: Some(3) })
        );
        assert!(parse_command(&words("bench x")).is_err());
        assert!(parse_command(&words("perft")).is_err());
        assert!(parse_command(&words("perft 2147483648")).is_err());
        assert!(parse_command(&words("perft 65")).is_err());
        assert!(parse_command(&words("perft 64")).is_ok());
        assert!(parse_command(&words("bench 0")).is_err());
        assert!(parse_command(&words("bench 4294967295")).is_err());
        assert_eq!(
            parse_command(&words("perft 2 a b")),
            Ok(Command::Perft {
                depth: 2,
                position: Some("a b".into())
            })
        );
        assert_eq!(
            parse_command(&words("selfplay --games 3")),
            Ok(Command::Other {
                name: "selfplay".into(),
                args: words("--games 3")
            })
        );
    }

    #[test]
    fn flags_pair_up() {
        assert_eq!(
            flag_pairs(&words("--a 1 --b x")),
            Ok(vec![("a".into(), "1".into()), ("b".into(), "x".into())])
        );
        assert!(flag_pairs(&words("--a")).is_err());
        assert!(flag_pairs(&words("a 1")).is_err());
    }

    #[test]
    fn report_texts() {
        let t = perft_text(&[("a1".into(), 3)], 3, Duration::from_millis(2));
        assert!(t.starts_with("a1: 3\n\nNodes searched: 3\n"));
        assert!(t.ends_with("Leaf nodes/second: 1500"));
        let b = BenchReport {
            positions: 2,
            nodes: 1000,
            time: Duration::from_millis(500),
        };
        assert_eq!(b.nps(), 2000);
        assert!(b.text(4).contains("Nodes searched: 1000"));
        let mut s = BenchSequence::new(1);
        assert!((0..100).all(|_| s.pick(7) < 7));
    }
}
