//! The settings that make a match what it is, written as the first line of its records file
//! (`{"match":{...}}`): game, setup, engines (name, command, directory, dialect, options), time
//! control and margin, adjudication, openings (by content), random plies, seed, number of games
//! and SPRT. A resume, a shard or a merge in `orrery stats` compares them field by field and
//! names every difference; only the number of games may grow (a resume that adds games appends
//! a new settings line), and the shard (`K/N`) differs between the files of one match.

use serde::{Deserialize, Serialize};

use super::engine::{EngineSpec, Proto};
use super::match_runner::MatchConfig;
use super::schedule::Opening;

/// Version of the settings line's layout.
pub const SETTINGS_FORMAT: u32 = 1;

/// One engine as recorded.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct EngineSettings {
    /// Name.
    pub name: String,
    /// Command line.
    pub cmd: String,
    /// Working directory.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dir: Option<String>,
    /// `uci` or `xboard`.
    pub proto: String,
    /// Options in order.
    #[serde(default)]
    pub options: Vec<(String, String)>,
}

impl EngineSettings {
    /// The recorded form of an engine spec.
    pub fn of(spec: &EngineSpec) -> Self {
        EngineSettings {
            name: spec.name.clone(),
            cmd: spec.cmd.clone(),
            dir: spec.dir.clone(),
            proto: match spec.proto {
                Proto::Uci => "uci".into(),
                Proto::Xboard => "xboard".into(),
            },
            options: spec.options.clone(),
        }
    }

    fn text(&self) -> String {
        let mut s = format!("name={},cmd={}", self.name, self.cmd);
        if let Some(d) = &self.dir {
            s.push_str(&format!(",dir={d}"));
        }
        s.push_str(&format!(",proto={}", self.proto));
        for (k, v) in &self.options {
            s.push_str(&format!(",option.{k}={v}"));
        }
        s
    }
}

/// The settings of a match (see the module documentation).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MatchSettings {
    /// Layout version ([`SETTINGS_FORMAT`]).
    pub format: u32,
    /// Program and version that wrote the line (not compared).
    #[serde(default)]
    pub orrery: String,
    /// Game name.
    pub game: String,
    /// Setup, if any.
    pub setup: Option<String>,
    /// Engines in command-line order.
    pub engines: Vec<EngineSettings>,
    /// Time control (`10+0.1`, `movetime=50ms`, `nodes=1000`, `depth=3`).
    pub tc: String,
    /// Time-forfeit margin in milliseconds.
    pub margin_ms: u64,
    /// `--resign` as given, if on.
    pub resign: Option<String>,
    /// `--draw` as given, if on.
    pub draw: Option<String>,
    /// `--maxplies`, if on.
    pub max_plies: Option<u32>,
    /// Number of openings and a hash of their content, if `--openings` was given.
    pub openings: Option<(usize, String)>,
    /// `--random-plies`.
    pub random_plies: u32,
    /// `--seed`.
    pub seed: u64,
    /// `--games`: the number of games in the whole match.
    pub games: u64,
    /// `--sprt` as given, if on.
    pub sprt: Option<String>,
    /// `K/N` when this file holds one shard of the match (not compared).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shard: Option<String>,
}

/// The line holding the settings in a records file.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SettingsLine {
    /// The settings.
    #[serde(rename = "match")]
    pub settings: MatchSettings,
}

/// FNV-1a, 64 bits: a stable hash of the openings' content (not for security).
pub fn fnv1a64(data: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in data {
        h ^= b as u64;
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    h
}

/// The content hash of a list of openings: each as `<position or startpos> moves ...`.
pub fn openings_hash(openings: &[Opening]) -> String {
    let text: Vec<String> = openings
        .iter()
        .map(|o| {
            format!(
                "{} moves {}",
                o.position.as_deref().unwrap_or("startpos"),
                o.moves.join(" ")
            )
        })
        .collect();
    format!("{:016x}", fnv1a64(text.join("\n").as_bytes()))
}

impl MatchSettings {
    /// The settings of a configured match.
    pub fn of(cfg: &MatchConfig) -> Self {
        let s = &cfg.settings;
        let adj = &s.adjudication;
        MatchSettings {
            format: SETTINGS_FORMAT,
            orrery: format!("orrery {}", env!("CARGO_PKG_VERSION")),
            game: s.game.name().to_string(),
            setup: s.setup.clone(),
            engines: s.engines.iter().map(EngineSettings::of).collect(),
            tc: s.tc.describe(),
            margin_ms: s.margin.as_millis() as u64,
            resign: adj
                .resign
                .map(|(n, cp)| format!("movecount={n},score={cp}")),
            draw: adj
                .draw
                .map(|(from, n, cp)| format!("movenumber={from},movecount={n},score={cp}")),
            max_plies: adj.max_plies,
            openings: (!s.openings.is_empty())
                .then(|| (s.openings.len(), openings_hash(&s.openings))),
            random_plies: s.random_plies,
            seed: cfg.seed,
            games: cfg.games,
            sprt: cfg.sprt.map(|p| p.describe()),
            shard: cfg.shard.map(|sh| sh.to_string()),
        }
    }

    /// Every way `now` differs from these recorded settings, as text naming the option, except
    /// the shard and a larger number of games (a match may be extended). Empty: the same match.
    pub fn differences(&self, now: &MatchSettings) -> Vec<String> {
        let mut out = Vec::new();
        let mut cmp = |what: &str, old: String, new: String| {
            if old != new {
                out.push(format!("{what}: recorded {old}, now {new}"));
            }
        };
        let opt = |o: &Option<String>| o.clone().unwrap_or_else(|| "off".into());
        cmp("--game", self.game.clone(), now.game.clone());
        cmp("--setup", opt(&self.setup), opt(&now.setup));
        cmp(
            "time control (--tc/--movetime/--nodes/--depth)",
            self.tc.clone(),
            now.tc.clone(),
        );
        cmp(
            "--timemargin",
            format!("{} ms", self.margin_ms),
            format!("{} ms", now.margin_ms),
        );
        cmp("--resign", opt(&self.resign), opt(&now.resign));
        cmp("--draw", opt(&self.draw), opt(&now.draw));
        cmp(
            "--maxplies",
            self.max_plies.map_or("off".into(), |m| m.to_string()),
            now.max_plies.map_or("off".into(), |m| m.to_string()),
        );
        let openings = |o: &Option<(usize, String)>| match o {
            Some((n, h)) => format!("{n} openings (content hash {h})"),
            None => "none".into(),
        };
        cmp(
            "--openings",
            openings(&self.openings),
            openings(&now.openings),
        );
        cmp(
            "--random-plies",
            self.random_plies.to_string(),
            now.random_plies.to_string(),
        );
        cmp("--seed", self.seed.to_string(), now.seed.to_string());
        cmp("--sprt", opt(&self.sprt), opt(&now.sprt));
        if self.engines.len() != now.engines.len() {
            out.push(format!(
                "--engine: recorded {} engines, now {}",
                self.engines.len(),
                now.engines.len()
            ));
        }
        for (i, (a, b)) in self.engines.iter().zip(&now.engines).enumerate() {
            if a != b {
                out.push(format!(
                    "--engine {}: recorded {}, now {}",
                    i + 1,
                    a.text(),
                    b.text()
                ));
            }
        }
        if now.games < self.games {
            out.push(format!(
                "--games: recorded {}, now {} (a rerun may add games, not drop them)",
                self.games, now.games
            ));
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    pub(crate) fn sample() -> MatchSettings {
        MatchSettings {
            format: SETTINGS_FORMAT,
            orrery: "orrery test".into(),
            game: "tic-tac-toe".into(),
            setup: None,
            engines: vec![EngineSettings {
                name: "a".into(),
                cmd: "x".into(),
                dir: None,
                proto: "uci".into(),
                options: vec![],
            }],
            tc: "movetime=100ms".into(),
            margin_ms: 100,
            resign: None,
            draw: None,
            max_plies: None,
            openings: None,
            random_plies: 0,
            seed: 1,
            games: 10,
            sprt: None,
            shard: None,
        }
    }

    #[test]
    fn differences_name_the_option() {
        let a = sample();
        let mut b = a.clone();
        assert!(a.differences(&b).is_empty());
        b.games = 20;
        b.shard = Some("2/3".into());
        b.orrery = "other".into();
        assert!(
            a.differences(&b).is_empty(),
            "more games, a shard: same match"
        );
        b.games = 5;
        b.tc = "movetime=50ms".into();
        b.engines[0].name = "c".into();
        let d = a.differences(&b);
        assert_eq!(d.len(), 3, "{d:?}");
        assert!(
            d[0].contains("recorded movetime=100ms, now movetime=50ms"),
            "{d:?}"
        );
        assert!(d[1].starts_with("--engine 1: recorded name=a,"), "{d:?}");
        assert!(d[2].starts_with("--games: recorded 10, now 5"), "{d:?}");
        let line = serde_json::to_string(&SettingsLine {
            settings: a.clone(),
        })
        .unwrap();
        assert!(line.starts_with("{\"match\":{"), "{line}");
        let back: SettingsLine = serde_json::from_str(&line).unwrap();
        assert_eq!(back.settings, a);
    }

    #[test]
    fn fnv_known_value() {
        assert_eq!(fnv1a64(b""), 0xcbf2_9ce4_8422_2325);
        assert_eq!(fnv1a64(b"a"), 0xaf63_dc4c_8601_ec8c);
    }
}
