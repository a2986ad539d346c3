//! `orrery label`: the input of `spider-chess tune --labels`, made from `orrery match --records`
//! files. Every game is replayed through the spider rules core (the referee's
//! [`SpiderGame`] adapter), and the positions after its engine moves (every `step`-th of them) are
//! scored by a UCI engine, started and spoken to by the referee's own client
//! ([`UciClient`]) with the match's handshake, options and timeouts.
//!
//! Why: `tune --labels` fits the evaluation's weights to a stronger engine's judgement of many
//! positions. The labels used to come from throw-away scripts; here the positions are the rules
//! core's (its FENs, which `tune` reads back with the same core), each engine failure is a clear
//! error, and the records are checked whole before anything is written.
//!
//! The output is a labels file: `variant NAME`, then one `FEN;CP` line per position, CP White's
//! score in centipawns. Left out: positions where the side to move is in check (tune keeps quiet
//! positions only), positions where the game is over (their value is the result, not an
//! evaluation), a FEN met before, and positions whose score is a mate or missing.

use std::collections::HashSet;
use std::io::Write;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use crate::games::spider::{Color, Variant};

use super::clock::{Clocks, TimeControl};
use super::engine::{EngineSpec, Fault, GameContext, Score, Timeouts};
use super::game_adapter::DynGame;
use super::game_kind::GameKind;
use super::records::{read_records_file, GameRecord};
use super::spider_game::{setup_variant, SpiderGame};
use super::uci_client::UciClient;

/// How the engine scores a position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scoring {
    /// `go depth N`: the last `info ... score` before `bestmove`.
    Depth(u32),
    /// `go nodes N`: the last `info ... score` before `bestmove`.
    Nodes(u64),
    /// Stockfish's non-standard `eval`: its `Final evaluation` line (White's view, in pawns).
    Static,
}

impl Scoring {
    /// When none is given: a depth-1 search, the cheapest limit every UCI engine takes and the
    /// same on every machine.
    pub const DEFAULT: Scoring = Scoring::Depth(1);

    /// Text for the summary.
    pub fn describe(&self) -> String {
        match self {
            Scoring::Depth(d) => format!("go depth {d}"),
            Scoring::Nodes(n) => format!("go nodes {n}"),
            Scoring::Static => "eval".to_string(),
        }
    }
}

/// What `orrery label` is asked to do (parsed by [`super::cli::parse_args`]).
#[derive(Clone, Debug)]
pub struct LabelConfig {
    /// The variant: `spider-chess` or a variant loaded with `--variant` (already registered).
    pub setup: String,
    /// The engine that scores the positions (UCI).
    pub engine: EngineSpec,
    /// How it scores them.
    pub scoring: Scoring,
    /// Every `step`-th position after the book is labelled (1: all of them).
    pub step: usize,
    /// The labels file (`None`: stdout).
    pub out: Option<PathBuf>,
    /// The records files, read in order.
    pub records: Vec<PathBuf>,
    /// How long one position's score may take.
    pub hang: Duration,
    /// Handshake timeouts, as in a match.
    pub timeouts: Timeouts,
}

/// What happened to the positions.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Summary {
    /// Games read.
    pub games: u64,
    /// Positions after the book moves (one after each engine move).
    pub read: u64,
    /// Of those, the ones at the step.
    pub taken: u64,
    /// Labels written.
    pub labelled: u64,
    /// Left out: the side to move is in check.
    pub in_check: u64,
    /// Left out: the game is over there.
    pub over: u64,
    /// Left out: the FEN was met before.
    pub duplicate: u64,
    /// Left out: the engine's score is a mate.
    pub mate: u64,
    /// Left out: no score came (no `info ... score` before `bestmove`; no number in `Final
    /// evaluation`, e.g. `none (in check)`).
    pub no_score: u64,
}

impl std::fmt::Display for Summary {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} games, {} positions after the book, {} at the step: {} labelled; left out: {} in \
             check, {} game over, {} duplicates, {} mate scores, {} without a score",
            self.games,
            self.read,
            self.taken,
            self.labelled,
            self.in_check,
            self.over,
            self.duplicate,
            self.mate,
            self.no_score
        )
    }
}

/// An engine's verdict on one position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// White's score in centipawns.
    Cp(i64),
    /// A mate score (no centipawn label).
    Mate,
    /// No score at all.
    NoScore,
}

/// A search score from the side to move's view, turned to White's.
pub fn white_view(score: Option<Score>, to_move: Color) -> Verdict {
    match score {
        Some(Score::Cp(cp)) if to_move == Color::White => Verdict::Cp(cp),
        Some(Score::Cp(cp)) => Verdict::Cp(-cp),
        Some(Score::Mate(_)) => Verdict::Mate,
        None => Verdict::NoScore,
    }
}

/// Reads a `Final evaluation` line of Stockfish's `eval` report: `Final evaluation +0.25 (white
/// side)` (with or without a colon, any spacing) is 25 centipawns for White. `None` for any other
/// line; [`Verdict::NoScore`] for a `Final evaluation` without a number (`none (in check)`) or of
/// another side than White's.
pub fn final_evaluation(line: &str) -> Option<Verdict> {
    let rest = line.trim().strip_prefix("Final evaluation")?;
    let rest = rest.trim_start().trim_start_matches(':').trim_start();
    let (number, side) = rest.split_once(char::is_whitespace).unwrap_or((rest, ""));
    let side = side.trim();
    if !(side.is_empty() || side == "(white side)") {
        return Some(Verdict::NoScore);
    }
    Some(pawns_to_cp(number).map_or(Verdict::NoScore, Verdict::Cp))
}

/// `+0.25`, `-1.3`, `2` pawns as centipawns (rounded); `None` unless it is such a number.
fn pawns_to_cp(text: &str) -> Option<i64> {
    let digits = text.strip_prefix(['+', '-']).unwrap_or(text);
    let (int, frac) = digits.split_once('.').unwrap_or((digits, ""));
    let all_digits = |s: &str| s.bytes().all(|b| b.is_ascii_digit());
    if int.is_empty() || !all_digits(int) || !all_digits(frac) || int.len() > 12 {
        return None;
    }
    let pawns: f64 = text.parse().ok()?;
    Some((pawns * 100.0).round() as i64)
}

/// A game of a records file, checked against the variant.
struct Game {
    /// Where it comes from, for messages: `FILE game N`.
    at: String,
    record: GameRecord,
}

/// A fresh game of the record's start.
fn start_of(setup: &str, rec: &GameRecord) -> Result<SpiderGame, String> {
    let start = (!rec.standard_start).then_some(rec.start.as_str());
    SpiderGame::with_setup(Some(setup), start)
}

/// Reads every records file and replays every game through the rules core: all must be
/// spider-chess games of `setup`, played with its definition (when the record carries one),
/// every move legal. Nothing is labelled unless all are.
fn checked_games(cfg: &LabelConfig) -> Result<Vec<Game>, String> {
    let variant = setup_variant(&cfg.setup)?;
    let mut games = Vec::new();
    for path in &cfg.records {
        let file = read_records_file(path)?;
        let shown = path.display();
        if file.games.is_empty() {
            return Err(format!("{shown}: no game records"));
        }
        for rec in file.games {
            let at = format!("{shown} game {}", rec.id + 1);
            check_variant(&at, &rec, &cfg.setup, &variant)?;
            let mut game = start_of(&cfg.setup, &rec).map_err(|e| format!("{at}: start: {e}"))?;
            for (i, m) in rec.moves.iter().enumerate() {
                if DynGame::to_decide(&game).is_empty() {
                    return Err(format!("{at}: move {} after the end of the game", i + 1));
                }
                game.play(m.seat, &m.mv)
                    .map_err(|r| format!("{at}: move {} ({}): {}", i + 1, m.mv, r.0))?;
            }
            games.push(Game { at, record: rec });
        }
    }
    Ok(games)
}

/// Refuses a record of another game or another variant than the loaded one.
fn check_variant(at: &str, rec: &GameRecord, setup: &str, variant: &Variant) -> Result<(), String> {
    if GameKind::parse(&rec.game).ok() != Some(GameKind::SpiderChess) {
        return Err(format!(
            "{at}: a {} game; labels are for spider-chess games (tune --labels)",
            rec.game
        ));
    }
    let recorded = rec.setup.as_deref().unwrap_or("spider-chess");
    if recorded != setup {
        return Err(format!(
            "{at}: a game of {recorded}, not of {setup} (give the --variant FILE it was played \
             with; one variant at a time)"
        ));
    }
    if let Some(text) = rec.extra.get("definition").and_then(|d| d.as_str()) {
        let played = Variant::from_definition(text).map_err(|e| format!("{at}: {e}"))?;
        if played.definition() != variant.definition() {
            return Err(format!(
                "{at}: {recorded} was played with another definition than the --variant file"
            ));
        }
    }
    Ok(())
}

/// Where the labels go, flushed line by line (a long run stopped half-way keeps its labels).
fn open_out(cfg: &LabelConfig) -> Result<Box<dyn Write>, String> {
    Ok(match &cfg.out {
        Some(p) => {
            Box::new(std::fs::File::create(p).map_err(|e| format!("--out {}: {e}", p.display()))?)
        }
        None => Box::new(std::io::stdout()),
    })
}

fn out_name(cfg: &LabelConfig) -> String {
    cfg.out
        .as_ref()
        .map_or("stdout".to_string(), |p| p.display().to_string())
}

/// The error of a failed write to the labels file.
fn write_failed(cfg: &LabelConfig, e: std::io::Error) -> String {
    format!("writing {}: {e}", out_name(cfg))
}

/// Runs `orrery label`: checks the records, starts the engine, writes the labels file and the
/// summary (on `log`, stderr for the binary, with a progress line every few seconds). An engine
/// that fails stops the run with an error naming it and the position; the labels written so far
/// stay and the summary says how many.
pub fn run(cfg: &LabelConfig, log: &mut dyn Write) -> Result<Summary, String> {
    let games = checked_games(cfg)?;
    let name = &cfg.engine.name;
    let ctx = GameContext {
        variant: GameKind::SpiderChess.variant(Some(&cfg.setup)),
        seat: 0,
        seats: 2,
    };
    let mut client = UciClient::start(&cfg.engine, &ctx, cfg.timeouts)
        .map_err(|f| format!("engine {name}: {}", f.describe()))?;
    let mut out = open_out(cfg)?;
    writeln!(out, "variant {}", cfg.setup)
        .and_then(|_| out.flush())
        .map_err(|e| write_failed(cfg, e))?;
    let mut summary = Summary::default();
    let result = label_games(cfg, &games, &mut client, &mut *out, log, &mut summary);
    client.finish();
    let _ = writeln!(log, "label: {summary}");
    let _ = writeln!(
        log,
        "label: {} labels written to {} ({}, engine {name})",
        summary.labelled,
        out_name(cfg),
        cfg.scoring.describe()
    );
    result.map(|()| summary)
}

/// Labels the positions of `games` one by one, counting in `summary`.
fn label_games(
    cfg: &LabelConfig,
    games: &[Game],
    client: &mut UciClient,
    out: &mut dyn Write,
    log: &mut dyn Write,
    summary: &mut Summary,
) -> Result<(), String> {
    let clocks = match cfg.scoring {
        Scoring::Depth(d) => Some(TimeControl::Depth(d)),
        Scoring::Nodes(n) => Some(TimeControl::Nodes(n)),
        Scoring::Static => None,
    }
    .map(|tc| Clocks::new(tc, 2, Duration::ZERO, cfg.hang));
    let mut seen: HashSet<String> = HashSet::new();
    let mut last_progress = Instant::now();
    for (n, g) in games.iter().enumerate() {
        summary.games += 1;
        let rec = &g.record;
        let book = rec.moves.iter().take_while(|m| m.book).count();
        let mut game = start_of(&cfg.setup, rec).map_err(|e| format!("{}: {e}", g.at))?;
        let mut new_game = true;
        for (i, m) in rec.moves.iter().enumerate() {
            game.play(m.seat, &m.mv)
                .map_err(|r| format!("{}: move {}: {}", g.at, i + 1, r.0))?;
            if i < book {
                continue;
            }
            summary.read += 1;
            if (i - book) % cfg.step != 0 {
                continue;
            }
            summary.taken += 1;
            let pos = game.position();
            if pos.in_check() {
                summary.in_check += 1;
                continue;
            }
            if pos.outcome().is_some() {
                summary.over += 1;
                continue;
            }
            let fen = pos.to_fen();
            if seen.contains(&fen) {
                summary.duplicate += 1;
                continue;
            }
            let fail = |f: Fault| {
                format!(
                    "engine {} failed at {}, after move {} ({fen}): {}",
                    cfg.engine.name,
                    g.at,
                    i + 1,
                    f.describe()
                )
            };
            if new_game {
                client.new_game().map_err(fail)?;
                new_game = false;
            }
            let to_move = pos.side_to_move();
            let seat = DynGame::to_decide(&game)[0];
            let verdict = match &clocks {
                Some(c) => white_view(client.think(&game, seat, c).map_err(fail)?.score, to_move),
                None => {
                    let report = client.eval_report(&game, seat, cfg.hang).map_err(fail)?;
                    report
                        .iter()
                        .find_map(|l| final_evaluation(l))
                        .unwrap_or(Verdict::NoScore)
                }
            };
            seen.insert(fen.clone());
            match verdict {
                Verdict::Cp(cp) => {
                    writeln!(out, "{fen};{cp}")
                        .and_then(|_| out.flush())
                        .map_err(|e| write_failed(cfg, e))?;
                    summary.labelled += 1;
                }
                Verdict::Mate => summary.mate += 1,
                Verdict::NoScore => summary.no_score += 1,
            }
        }
        if last_progress.elapsed() >= Duration::from_secs(10) {
            last_progress = Instant::now();
            let _ = writeln!(
                log,
                "label: game {}/{}, {} labelled",
                n + 1,
                games.len(),
                summary.labelled
            );
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn search_scores_turn_to_whites_view() {
        assert_eq!(
            white_view(Some(Score::Cp(35)), Color::White),
            Verdict::Cp(35)
        );
        assert_eq!(
            white_view(Some(Score::Cp(35)), Color::Black),
            Verdict::Cp(-35)
        );
        assert_eq!(
            white_view(Some(Score::Cp(-120)), Color::Black),
            Verdict::Cp(120)
        );
        assert_eq!(
            white_view(Some(Score::Mate(3)), Color::White),
            Verdict::Mate
        );
        assert_eq!(
            white_view(Some(Score::Mate(-2)), Color::Black),
            Verdict::Mate
        );
        assert_eq!(white_view(None, Color::White), Verdict::NoScore);
    }

    #[test]
    fn info_lines_give_the_side_to_moves_score() {
        use crate::referee::uci_client::parse_info_score;
        let line = "info depth 6 seldepth 9 multipv 1 score cp -41 nodes 5120 pv e7e5";
        let score = parse_info_score(line).map(|(s, _)| s);
        assert_eq!(white_view(score, Color::Black), Verdict::Cp(41));
        assert_eq!(white_view(score, Color::White), Verdict::Cp(-41));
        let mate = parse_info_score("info depth 9 score mate -4 pv a1a2").map(|(s, _)| s);
        assert_eq!(white_view(mate, Color::White), Verdict::Mate);
    }

    #[test]
    fn final_evaluation_lines() {
        let cases = [
            ("Final evaluation       +0.25 (white side)", Verdict::Cp(25)),
            (
                "Final evaluation       -0.52 (white side)",
                Verdict::Cp(-52),
            ),
            ("Final evaluation: -1.30 (white side)", Verdict::Cp(-130)),
            ("Final evaluation 0.00 (white side)", Verdict::Cp(0)),
            ("Final evaluation +12.345", Verdict::Cp(1235)),
            ("Final evaluation       -3 (white side)", Verdict::Cp(-300)),
            ("Final evaluation: none (in check)", Verdict::NoScore),
            (
                "Final evaluation       +0.25 (side to move)",
                Verdict::NoScore,
            ),
            ("Final evaluation inf (white side)", Verdict::NoScore),
            ("Final evaluation +.5 (white side)", Verdict::NoScore),
            ("Final evaluation", Verdict::NoScore),
        ];
        for (line, want) in cases {
            assert_eq!(final_evaluation(line), Some(want), "{line}");
        }
        for other in [
            "Classical evaluation   -0.54 (white side)",
            "NNUE evaluation        +0.10 (white side)",
            "info string classical evaluation enabled",
            "",
        ] {
            assert_eq!(final_evaluation(other), None, "{other}");
        }
    }

    #[test]
    fn the_summary_names_every_count() {
        let s = Summary {
            games: 2,
            read: 10,
            taken: 5,
            labelled: 1,
            in_check: 1,
            over: 1,
            duplicate: 1,
            mate: 1,
            no_score: 0,
        };
        assert_eq!(
            s.to_string(),
            "2 games, 10 positions after the book, 5 at the step: 1 labelled; left out: 1 in \
             check, 1 game over, 1 duplicates, 1 mate scores, 0 without a score"
        );
    }
}
