//! Engine thinking output as the page shows it: depth, score, nodes, speed and principal
//! variation, read from UCI `info` lines and CECP thinking lines.

use serde::Serialize;

/// One report of an engine's search in progress.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Thinking {
    /// Search depth.
    pub depth: Option<u32>,
    /// Selective depth.
    pub seldepth: Option<u32>,
    /// Score from the engine's own view: `+0.35`, `-1.20`, `M3`, `-M2`.
    pub score: Option<String>,
    /// Nodes searched.
    pub nodes: Option<u64>,
    /// Nodes per second.
    pub nps: Option<u64>,
    /// Milliseconds searched.
    pub time: Option<u64>,
    /// Principal variation, moves as sent.
    pub pv: Vec<String>,
}

fn cp_text(cp: i64) -> String {
    format!("{:+.2}", cp as f64 / 100.0)
}

/// Reads a UCI `info` line (`info depth 7 score cp 35 nodes 1000 pv e2e4 ...`) or a CECP
/// thinking line (`7 35 120 1000 e2e4 ...`); `None` for any other line (`info string ...`,
/// `bestmove`, lines without search figures).
pub fn parse(line: &str) -> Option<Thinking> {
    let line = line.trim();
    if let Some(rest) = line.strip_prefix("info ") {
        let mut t = Thinking::default();
        let mut w = rest.split_whitespace();
        while let Some(k) = w.next() {
            match k {
                "depth" => t.depth = w.next().and_then(|v| v.parse().ok()),
                "seldepth" => t.seldepth = w.next().and_then(|v| v.parse().ok()),
                "nodes" => t.nodes = w.next().and_then(|v| v.parse().ok()),
                "nps" => t.nps = w.next().and_then(|v| v.parse().ok()),
                "time" => t.time = w.next().and_then(|v| v.parse().ok()),
                "score" => {
                    let kind = w.next();
                    let val = w.next().and_then(|v| v.parse::<i64>().ok());
                    t.score = match (kind, val) {
                        (Some("cp"), Some(v)) => Some(cp_text(v)),
                        (Some("mate"), Some(v)) if v >= 0 => Some(format!("M{v}")),
                        (Some("mate"), Some(v)) => Some(format!("-M{}", -v)),
                        _ => t.score,
                    };
                }
                "pv" => {
                    t.pv = w.by_ref().map(String::from).collect();
                }
                "string" => return None,
                _ => {}
            }
        }
        let figures = t.depth.is_some() || t.nodes.is_some() || t.score.is_some();
        return figures.then_some(t);
    }
    let mut w = line.split_whitespace();
    let depth: u32 = w.next()?.trim_end_matches(['&', '.']).parse().ok()?;
    let score: i64 = w.next()?.parse().ok()?;
    let centis: u64 = w.next()?.parse().ok()?;
    let nodes: u64 = w.next()?.parse().ok()?;
    Some(Thinking {
        depth: Some(depth),
        score: Some(cp_text(score)),
        nodes: Some(nodes),
        time: Some(centis * 10),
        pv: w.map(String::from).collect(),
        ..Thinking::default()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_both_dialects() {
        let t = parse(
            "info depth 4 seldepth 12 score cp 24 nodes 161212 nps 239542 time 673 pv r16h11 m1m2",
        )
        .unwrap();
        assert_eq!(t.depth, Some(4));
        assert_eq!(t.score.as_deref(), Some("+0.24"));
        assert_eq!(t.pv, vec!["r16h11", "m1m2"]);
        assert_eq!(
            parse("info score mate -2 depth 9")
                .unwrap()
                .score
                .as_deref(),
            Some("-M2")
        );
        assert_eq!(parse("info string hello"), None);
        assert_eq!(parse("bestmove m2m5"), None);
        let c = parse("9 -25 120 34567 e2e4 e7e5").unwrap();
        assert_eq!(
            (c.depth, c.nodes, c.time),
            (Some(9), Some(34567), Some(1200))
        );
        assert_eq!(c.score.as_deref(), Some("-0.25"));
        assert_eq!(parse("move e2e4"), None);
    }
}
