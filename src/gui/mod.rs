//! The board for people: `orrery gui` serves a page on 127.0.0.1 where people play and watch
//! Spider-Chess (and any loaded Interactive Diagram variant), Solar Chess and Space Wars against
//! any protocol engine, watch a running `orrery match` live, and replay records move by move.
//!
//! The server (axum on tokio, [`server`]) holds tables ([`table`]); each table keeps the game
//! in the referee's adapter of its rules core ([`game`]), plays engines through the referee's
//! clients on threads of their own ([`engine_seat`]) and sends every browser its view
//! ([`spider_view`], [`solar_view`], [`spacewars_view`]). The page (`static/`) is plain HTML, CSS
//! and JavaScript embedded in the binary: no build step beyond cargo. See docs/gui.md.

pub mod engine_seat;
pub mod game;
pub mod live;
pub mod replay;
pub mod server;
pub mod solar_view;
pub mod spacewars_view;
pub mod spider_view;
pub mod table;
pub mod thinking;

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use crate::games::spider::Variant;
use crate::referee::engine::{EngineSpec, Timeouts};

/// The `orrery gui` usage text.
pub const USAGE: &str = "\
orrery gui: the board in a browser (Spider-Chess and variants, Solar Chess, Space Wars)

USAGE:
  orrery gui [OPTIONS]

OPTIONS:
  --port N               port on 127.0.0.1 (default 8088; 0 picks a free one)
  --engine SPEC          another engine to offer (same SPEC as `orrery match --engine`),
                         repeat per engine; the project's own engines are always offered
  --variant FILE         also offer this Interactive Diagram variant (name: the file name)
  --replay FILE.jsonl    open this records file in the replay view
  --live FILE            watch the match writing FILE (`orrery match --live FILE`) live
  --handshake-timeout MS wait for an engine's uciok/readyok/features (default 10000)
";

/// What `orrery gui` was asked for.
#[derive(Clone, Debug)]
pub struct GuiConfig {
    /// Port on 127.0.0.1 (0: any free port).
    pub port: u16,
    /// Engines offered besides the project's own.
    pub engines: Vec<EngineSpec>,
    /// Loaded Spider-Chess variants and the files they came from.
    pub variants: Vec<(Arc<Variant>, PathBuf)>,
    /// A records file's text to open in the replay view.
    pub replay_text: Option<String>,
    /// A live match file to watch.
    pub live: Option<PathBuf>,
    /// Engine handshake timeouts.
    pub timeouts: Timeouts,
}

/// Loads an Interactive Diagram variant as the engines do (its name is the file name without
/// extension), with the file's canonical path for the engines the board starts.
pub fn load_variant(path: &str) -> Result<(Arc<Variant>, PathBuf), String> {
    let v = crate::engines::spider::load_variant_file(std::path::Path::new(path))
        .map_err(|e| format!("--variant {e}"))?;
    let abs = std::fs::canonicalize(path).map_err(|e| format!("--variant {path}: {e}"))?;
    Ok((v, abs))
}

/// Parses the arguments after `orrery gui`; `Ok(None)` asks for the usage text.
pub fn parse_args(args: &[String]) -> Result<Option<GuiConfig>, String> {
    let mut cfg = GuiConfig {
        port: 8088,
        engines: Vec::new(),
        variants: Vec::new(),
        replay_text: None,
        live: None,
        timeouts: Timeouts {
            handshake: Duration::from_millis(10_000),
        },
    };
    let mut it = args.iter();
    while let Some(flag) = it.next() {
        if flag == "--help" || flag == "-h" {
            return Ok(None);
        }
        let value = it
            .next()
            .ok_or_else(|| format!("gui: {flag}: missing value"))?;
        match flag.as_str() {
            "--port" => {
                cfg.port = value
                    .parse()
                    .map_err(|_| format!("gui: --port {value:?} is not a port number"))?
            }
            "--engine" => cfg.engines.push(EngineSpec::parse(value)?),
            "--variant" => {
                let v = load_variant(value)?;
                if v.0.name() == "spider-chess"
                    || cfg.variants.iter().any(|(x, _)| x.name() == v.0.name())
                {
                    return Err(format!(
                        "gui: a variant named {:?} is already offered",
                        v.0.name()
                    ));
                }
                cfg.variants.push(v);
            }
            "--replay" => {
                let text = std::fs::read_to_string(value)
                    .map_err(|e| format!("gui: --replay {value}: {e}"))?;
                replay::parse_records(&text).map_err(|e| format!("gui: --replay {value}: {e}"))?;
                cfg.replay_text = Some(text);
            }
            "--live" => cfg.live = Some(PathBuf::from(value)),
            "--handshake-timeout" => {
                let ms: u64 = value
                    .parse()
                    .map_err(|_| format!("gui: --handshake-timeout {value:?} is not a number"))?;
                cfg.timeouts.handshake = Duration::from_millis(ms);
            }
            _ => {
                return Err(format!(
                    "gui: unknown option {flag:?} (see orrery gui --help)"
                ))
            }
        }
    }
    let mut seen = std::collections::HashSet::new();
    for e in &cfg.engines {
        if !seen.insert(e.name.clone()) {
            return Err(format!(
                "gui: two engines are named {:?}; give name=...",
                e.name
            ));
        }
    }
    Ok(Some(cfg))
}

/// Runs the board server until the process is stopped. Prints the address to open on stdout.
pub fn run(cfg: GuiConfig) -> Result<(), String> {
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .map_err(|e| format!("gui: cannot start the server runtime: {e}"))?;
    let port = cfg.port;
    let live = cfg.live.clone();
    let app = Arc::new(server::App::new(cfg));
    if let Some(path) = live {
        live::watch(app.clone(), path)?;
    }
    rt.block_on(server::serve(app, port))
        .map_err(|e| format!("gui: cannot serve on 127.0.0.1:{port}: {e}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(s: &str) -> Vec<String> {
        s.split_whitespace().map(String::from).collect()
    }

    #[test]
    fn parses_options_and_refuses_bad_ones() {
        let c = parse_args(&args("--port 0 --engine name=x,cmd=true"))
            .unwrap()
            .unwrap();
        assert_eq!(c.port, 0);
        assert_eq!(c.engines[0].name, "x");
        assert!(parse_args(&args("--help")).unwrap().is_none());
        for bad in [
            "--port x",
            "--port",
            "--bogus 1",
            "--variant /nonexistent.txt",
            "--replay /nonexistent.jsonl",
            "--engine name=a,cmd=x --engine name=a,cmd=y",
        ] {
            assert!(parse_args(&args(bad)).is_err(), "{bad}");
        }
    }

    #[test]
    fn a_variant_is_loaded_as_the_engines_load_it() {
        let dir = std::env::temp_dir().join(format!("orrery-gui-variant-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let good = dir.join("my-chess.txt");
        std::fs::copy(
            concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/variants/chess.txt"),
            &good,
        )
        .unwrap();
        let (v, abs) = load_variant(good.to_str().unwrap()).unwrap();
        assert_eq!(v.name(), "my-chess");
        assert_eq!(abs, std::fs::canonicalize(&good).unwrap());
        assert_eq!(v.files(), 8);
        let bad = dir.join("broken.txt");
        std::fs::write(&bad, "files=0\n").unwrap();
        let err = load_variant(bad.to_str().unwrap()).unwrap_err();
        assert!(
            err.starts_with("--variant ") && err.contains("broken.txt"),
            "{err}"
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn time_controls() {
        use crate::referee::clock::TimeControl;
        assert_eq!(
            server::parse_tc("movetime 250").unwrap(),
            TimeControl::MoveTime(Duration::from_millis(250))
        );
        assert_eq!(
            server::parse_tc("nodes 5000").unwrap(),
            TimeControl::Nodes(5000)
        );
        assert!(matches!(
            server::parse_tc("clock 60+1").unwrap(),
            TimeControl::Clock { .. }
        ));
        for bad in ["movetime 0", "nodes x", "clock 0+1", "depth 3", ""] {
            assert!(server::parse_tc(bad).is_err(), "{bad}");
        }
    }
}
