//! Formatting of everything the engine writes: search reports, perft, options, results, errors.

use super::game::{EngineOption, GameOutcome, OptionKind, ReportScore, SearchReport};
use super::lex::shorten;
use super::session::PerftDone;

/// Nodes per second, with a 1 ms floor on the time.
fn nps(report: &SearchReport) -> u64 {
    let ms = report.time.as_millis().max(1) as u64;
    report.nodes.saturating_mul(1000) / ms
}

/// An UCI `info` line: depth, seldepth, score, nodes, nps, time, pv.
pub fn uci_info(report: &SearchReport) -> String {
    let score = match report.score {
        ReportScore::Cp(cp) => format!("cp {cp}"),
        ReportScore::Mate(m) => format!("mate {m}"),
    };
    let mut line = format!(
        "info depth {} seldepth {} score {score} nodes {} nps {} time {}",
        report.depth,
        report.seldepth.max(report.depth),
        report.nodes,
        nps(report),
        report.time.as_millis()
    );
    if !report.pv.is_empty() {
        line.push_str(" pv ");
        line.push_str(&report.pv.join(" "));
    }
    line
}

/// A CECP thinking line `ply score time nodes pv`: score in centipawns (mate in N as
/// `100000 + N`, mated in N as `-100000 - N`), time in centiseconds.
pub fn cecp_thinking(report: &SearchReport) -> String {
    let score = match report.score {
        ReportScore::Cp(cp) => i64::from(cp),
        ReportScore::Mate(m) if m > 0 => 100_000 + i64::from(m),
        ReportScore::Mate(m) => -100_000 + i64::from(m),
    };
    let mut line = format!(
        "{} {score} {} {}",
        report.depth,
        report.time.as_millis() / 10,
        report.nodes
    );
    if !report.pv.is_empty() {
        line.push(' ');
        line.push_str(&report.pv.join(" "));
    }
    line
}

/// Perft output as Stockfish prints it: `<move>: <count>` per root move, a blank line,
/// `Nodes searched: <total>`, a blank line.
pub fn perft_lines(divide: &[(String, u64)]) -> Vec<String> {
    let mut lines: Vec<String> = divide.iter().map(|(m, n)| format!("{m}: {n}")).collect();
    let total: u64 = divide.iter().map(|(_, n)| n).sum();
    lines.push(String::new());
    lines.push(format!("Nodes searched: {total}"));
    lines.push(String::new());
    lines
}

/// What a perft prints when it ends: [`perft_lines`] when every root move was counted; for one
/// that was stopped, only the dialect's error line, made by `error` from the reason (partial
/// counts are not printed, so they cannot be taken for the result).
pub(crate) fn perft_reply(perft: &PerftDone, error: impl FnOnce(&str) -> String) -> Vec<String> {
    match &perft.divide {
        Some(divide) => perft_lines(divide),
        None => vec![error(PERFT_STOPPED)],
    }
}

/// Why a stopped perft printed no counts.
pub(crate) const PERFT_STOPPED: &str = "stopped before it finished; no counts printed";

/// An UCI `option name ... type ...` line.
pub fn uci_option(opt: &EngineOption) -> String {
    match &opt.kind {
        OptionKind::Spin { default, min, max } => format!(
            "option name {} type spin default {default} min {min} max {max}",
            opt.name
        ),
        OptionKind::Check { default } => {
            format!("option name {} type check default {default}", opt.name)
        }
        OptionKind::Combo { default, choices } => {
            let vars: String = choices.iter().map(|c| format!(" var {c}")).collect();
            format!(
                "option name {} type combo default {default}{vars}",
                opt.name
            )
        }
        OptionKind::Text { default } => {
            let default = if default.is_empty() {
                "<empty>"
            } else {
                default
            };
            format!("option name {} type string default {default}", opt.name)
        }
        OptionKind::Button => format!("option name {} type button", opt.name),
    }
}

/// A CECP `feature option="..."` line.
pub fn cecp_option(opt: &EngineOption) -> String {
    let body = match &opt.kind {
        OptionKind::Spin { default, min, max } => format!("-spin {default} {min} {max}"),
        OptionKind::Check { default } => format!("-check {}", u8::from(*default)),
        OptionKind::Combo { default, choices } => {
            let list: Vec<String> = choices
                .iter()
                .map(|c| {
                    if c == default {
                        format!("*{c}")
                    } else {
                        c.clone()
                    }
                })
                .collect();
            format!("-combo {}", list.join(" /// "))
        }
        OptionKind::Text { default } => format!("-string {default}"),
        OptionKind::Button => "-button".to_string(),
    };
    format!("feature option=\"{} {body}\"", opt.name)
}

/// The CECP result line of a finished game: `1-0 {reason}`, `0-1 {...}`, `1/2-1/2 {...}`; with
/// more than two seats, or a team win, `* {Seats 1,3 win by reason}`.
pub fn cecp_result(outcome: &GameOutcome, seats: usize) -> String {
    match outcome {
        GameOutcome::Draw { reason } => format!("1/2-1/2 {{Draw by {reason}}}"),
        GameOutcome::Win { seats: won, reason } if seats == 2 && won.as_slice() == [1] => {
            format!("1-0 {{White wins by {reason}}}")
        }
        GameOutcome::Win { seats: won, reason } if seats == 2 && won.as_slice() == [2] => {
            format!("0-1 {{Black wins by {reason}}}")
        }
        GameOutcome::Win { seats: won, reason } => {
            let list: Vec<String> = won.iter().map(|s| s.to_string()).collect();
            format!("* {{Seats {} win by {reason}}}", list.join(","))
        }
    }
}

/// Describes a finished game in words (UCI `info string`).
pub fn outcome_text(outcome: &GameOutcome) -> String {
    match outcome {
        GameOutcome::Draw { reason } => format!("draw by {reason}"),
        GameOutcome::Win { seats, reason } => {
            let list: Vec<String> = seats.iter().map(|s| s.to_string()).collect();
            format!("seat {} wins by {reason}", list.join(","))
        }
    }
}

/// UCI has no error reply; errors go out as `info string error: ...`.
pub fn uci_error(reason: &str) -> String {
    format!("info string error: {reason}")
}

/// CECP `Error (reason): command`.
pub fn cecp_error(reason: &str, command: &str) -> String {
    format!("Error ({reason}): {}", shorten(command))
}

/// CECP `Illegal move (reason): move`.
pub fn cecp_illegal(reason: &str, mv: &str) -> String {
    format!("Illegal move ({reason}): {}", shorten(mv))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    fn report(score: ReportScore) -> SearchReport {
        SearchReport {
            depth: 5,
            seldepth: 9,
            score,
            nodes: 20_000,
            time: Duration::from_millis(250),
            pv: vec!["m2m5".into(), "m18m15".into()],
        }
    }

    #[test]
    fn info_and_thinking() {
        assert_eq!(
            uci_info(&report(ReportScore::Cp(-31))),
            "info depth 5 seldepth 9 score cp -31 nodes 20000 nps 80000 time 250 pv m2m5 m18m15"
        );
        assert!(uci_info(&report(ReportScore::Mate(-2))).contains("score mate -2 "));
        assert_eq!(
            cecp_thinking(&report(ReportScore::Cp(12))),
            "5 12 25 20000 m2m5 m18m15"
        );
        assert!(cecp_thinking(&report(ReportScore::Mate(3))).starts_with("5 100003 "));
        assert!(cecp_thinking(&report(ReportScore::Mate(-3))).starts_with("5 -100003 "));
    }

    #[test]
    fn perft_format() {
        let lines = perft_lines(&[("a1".into(), 3), ("b2".into(), 4)]);
        assert_eq!(lines, vec!["a1: 3", "b2: 4", "", "Nodes searched: 7", ""]);
    }

    #[test]
    fn options_and_results() {
        let combo = EngineOption {
            name: "UCI_Variant".into(),
            kind: OptionKind::Combo {
                default: "spider".into(),
                choices: vec!["spider".into(), "mini".into()],
            },
        };
        assert_eq!(
            uci_option(&combo),
            "option name UCI_Variant type combo default spider var spider var mini"
        );
        assert_eq!(
            cecp_option(&combo),
            "feature option=\"UCI_Variant -combo *spider /// mini\""
        );
        let win = GameOutcome::Win {
            seats: vec![2],
            reason: "checkmate".into(),
        };
        assert_eq!(cecp_result(&win, 2), "0-1 {Black wins by checkmate}");
        assert_eq!(cecp_result(&win, 3), "* {Seats 2 win by checkmate}");
        let draw = GameOutcome::Draw {
            reason: "repetition".into(),
        };
        assert_eq!(cecp_result(&draw, 2), "1/2-1/2 {Draw by repetition}");
    }
}
