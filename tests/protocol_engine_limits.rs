//! The real engine binaries against requests beyond their limits (issue 8, items 1, 2, 3, 6):
//! perft depths the games cannot reach, `Hash` beyond the machine, characters that are neither
//! words nor separators, and command-line errors. Each bad request gets exactly one error line,
//! changes nothing, and the engine goes on; the command line answers errors with a message and
//! exit status 2, never a backtrace.
//!
//! `ORRERY_BIN_DIR=/path/to/old/binaries cargo test --test protocol_engine_limits` runs the same
//! checks against other builds.

mod common;

use std::process::Stdio;
use std::time::{Duration, Instant};

use common::binaries;
use common::engine_io::EngineIo;

const ENGINES: [&str; 2] = ["spider-chess", "solar-chess"];

fn spawn(name: &str) -> EngineIo {
    EngineIo::spawn(&mut binaries::command(name)).unwrap_or_else(|e| panic!("spawn {name}: {e}"))
}

/// An engine in one dialect, after its handshake.
struct Session {
    io: EngineIo,
    cecp: bool,
    sync: u32,
}

impl Session {
    fn start(name: &str, cecp: bool) -> Session {
        let mut io = spawn(name);
        if cecp {
            io.send("xboard");
            io.send("protover 2");
            io.until_line("feature done=1");
            io.send("force");
        } else {
            io.send("uci");
            io.until_line("uciok");
        }
        Session { io, cecp, sync: 0 }
    }

    /// Sends raw bytes (a line with its end) and returns every reply up to the next sync point.
    fn raw(&mut self, bytes: &[u8]) -> Vec<String> {
        self.io.send_raw(bytes);
        self.sync += 1;
        let (ask, answer) = if self.cecp {
            (format!("ping {}", self.sync), format!("pong {}", self.sync))
        } else {
            ("isready".to_string(), "readyok".to_string())
        };
        self.io.send(&ask);
        let mut got = self.io.until_line(&answer);
        got.pop();
        got
    }

    fn line(&mut self, line: &str) -> Vec<String> {
        self.raw(format!("{line}\n").as_bytes())
    }

    /// The one error line a bad request must get.
    fn one_error(&mut self, line: &str) -> String {
        let got = self.line(line);
        let is_error = |l: &String| {
            l.starts_with("info string error: ")
                || l.starts_with("Error (")
                || l.starts_with("Illegal move (")
        };
        assert!(
            got.len() == 1 && is_error(&got[0]),
            "{line:?}: expected exactly one error line, got {got:?}"
        );
        got[0].clone()
    }

    /// The perft 1 total of the current position (the witness that nothing changed).
    fn perft1(&mut self) -> String {
        let cmd = if self.cecp { "perft 1" } else { "go perft 1" };
        self.io.send(cmd);
        format!("Nodes searched: {}", self.io.perft_output().1)
    }
}

#[test]
fn perft_depths_beyond_the_limit_are_refused_and_change_nothing() {
    for name in ENGINES {
        for cecp in [false, true] {
            let mut s = Session::start(name, cecp);
            let first = if name == "spider-chess" {
                "m2m5"
            } else {
                "Fw@n2"
            };
            if cecp {
                assert!(s.line(first).is_empty());
            } else {
                assert!(s
                    .line(&format!("position startpos moves {first}"))
                    .is_empty());
            }
            let witness = s.perft1();
            let prefix = if cecp { "perft" } else { "go perft" };
            for depth in ["4294967295", "2147483648", "200000", "65", "0"] {
                let e = s.one_error(&format!("{prefix} {depth}"));
                assert!(e.contains("perft"), "{name} cecp={cecp} {depth}: {e}");
            }
            assert_eq!(s.perft1(), witness, "{name} cecp={cecp}");
        }
    }
}

#[test]
fn command_line_perft_refuses_depths_beyond_the_limit() {
    for name in ENGINES {
        for depth in ["4294967295", "2147483648", "200000", "65"] {
            let start = Instant::now();
            let out = binaries::command(name)
                .args(["perft", depth])
                .env("RUST_BACKTRACE", "1")
                .stdin(Stdio::null())
                .output()
                .expect("run");
            let err = String::from_utf8_lossy(&out.stderr);
            assert_eq!(out.status.code(), Some(2), "{name} perft {depth}: {err}");
            assert!(err.contains("perft depth"), "{name} perft {depth}: {err}");
            assert!(out.stdout.is_empty());
            assert!(start.elapsed() < Duration::from_secs(30));
        }
    }
}

#[test]
fn hash_beyond_the_advertised_maximum_is_refused_and_the_engine_goes_on() {
    for name in ENGINES {
        let mut s = Session::start(name, false);
        let max = orrery::protocol::hash_max_mib();
        s.io.send("uci");
        let options = s.io.until_line("uciok");
        let want = format!("option name Hash type spin default 16 min 1 max {max}");
        assert!(options.contains(&want), "{name}: {options:?}");
        for value in [
            "65536".to_string(),
            (max + 1).to_string(),
            "0".into(),
            "1e9".into(),
        ] {
            let e = s.one_error(&format!("setoption name Hash value {value}"));
            assert!(e.contains("Hash"), "{name} {value}: {e}");
        }
        assert!(s.line("setoption name Hash value 2").is_empty());
        s.io.send("go depth 1");
        s.io.until("bestmove", |l| l.starts_with("bestmove "));
        let mut c = Session::start(name, true);
        let e = c.one_error("option Hash=65536");
        assert!(e.starts_with("Error ("), "{name}: {e}");
    }
}

#[test]
fn characters_that_are_neither_words_nor_separators_are_reported() {
    let cases: [(&str, &str); 8] = [
        ("ping 7\u{3000}junk", "U+3000"),
        ("isready\u{A0}", "U+00A0"),
        ("go depth 2\u{2028}", "U+2028"),
        ("position startpos moves m2m5\u{3000}zzzz", "U+3000"),
        ("position startpos\u{0B}moves m2m5", "U+000B"),
        ("go\u{0C}depth 1", "U+000C"),
        ("stop\u{85}", "U+0085"),
        ("uci\u{200B}", "U+200B"),
    ];
    for name in ENGINES {
        for cecp in [false, true] {
            let mut s = Session::start(name, cecp);
            let witness = s.perft1();
            for (line, what) in cases {
                let e = s.one_error(line);
                assert!(e.contains(what), "{name} cecp={cecp} {line:?}: {e}");
            }
            // A legal first move followed by junk: the junk is reported, nothing is played.
            let first = if name == "spider-chess" {
                "m2m5"
            } else {
                "Fw@n2"
            };
            let e = s.one_error(&if cecp {
                format!("usermove {first}\u{3000}zzzz")
            } else {
                format!("position startpos moves {first} zzzz")
            });
            assert!(e.contains("zzzz") || e.contains("U+3000"), "{e}");
            assert_eq!(s.perft1(), witness, "{name} cecp={cecp}");
            // Tabs and runs of spaces are separators.
            assert!(s.line("  \t ").is_empty());
            if cecp {
                assert_eq!(s.line("ping\t\t 99  "), vec!["pong 99"]);
            } else {
                assert!(s.line("\tposition  \t startpos  ").is_empty());
                assert_eq!(s.perft1(), witness);
            }
        }
    }
}

#[test]
fn command_line_errors_print_the_message_and_exit_2_without_a_backtrace() {
    let cases: &[(&str, &[&str])] = &[
        ("spider-chess", &["frobnicate"]),
        ("spider-chess", &["perft", "x"]),
        ("spider-chess", &["bench", "4294967295"]),
        ("spider-chess", &["--variant"]),
        ("spider-chess", &["--variant", "/no/such/file.txt"]),
        ("spider-chess", &["perft", "1", "not a fen"]),
        ("solar-chess", &["frobnicate"]),
        ("solar-chess", &["perft", "-1"]),
        ("solar-chess", &["perft", "1", "nosuchsetup"]),
        ("solar-chess", &["selfplay", "--games"]),
        ("solar-chess", &["selfplay", "--frob", "1"]),
        ("space-wars", &["frobnicate"]),
        ("space-wars", &["bench", "--iterations", "many"]),
        ("space-wars", &["selfplay", "--players", "nobody,random"]),
        ("orrery", &["frobnicate"]),
        ("orrery", &["match", "--games", "x"]),
    ];
    for (name, args) in cases {
        let out = binaries::command(name)
            .args(*args)
            .env("RUST_BACKTRACE", "1")
            .stdin(Stdio::null())
            .output()
            .expect("run");
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{name} {args:?}: {err}");
        assert!(
            !err.contains("backtrace") && !err.contains("Backtrace") && !err.contains(" at /"),
            "{name} {args:?} printed a backtrace: {err}"
        );
        assert!(
            err.starts_with(&format!("{name}: ")),
            "{name} {args:?}: {err}"
        );
        assert!(
            out.stdout.is_empty(),
            "{name} {args:?}: stdout {:?}",
            out.stdout
        );
    }
    for name in ["spider-chess", "solar-chess", "space-wars", "orrery"] {
        for flag in ["--help", "-h"] {
            let out = binaries::command(name)
                .arg(flag)
                .stdin(Stdio::null())
                .output()
                .expect("run");
            let text = String::from_utf8_lossy(&out.stdout);
            assert_eq!(out.status.code(), Some(0), "{name} {flag}");
            assert!(
                text.to_lowercase().contains("usage"),
                "{name} {flag}: {text}"
            );
        }
    }
}

#[test]
fn a_lone_carriage_return_ends_a_line_as_uci_allows() {
    for name in ENGINES {
        let mut io = spawn(name);
        io.send_raw(b"uci\risready\r");
        let got = io.until_line("readyok");
        assert!(got.iter().any(|l| l == "uciok"), "{name}: {got:?}");
        assert!(!got.iter().any(|l| l.contains("error")), "{name}: {got:?}");
        io.send_raw(b"xyzzy\r\nisready\r\n");
        let got = io.until_line("readyok");
        assert_eq!(
            got.len(),
            2,
            "{name}: one error for the bad line, nothing for CRLF: {got:?}"
        );
    }
}
