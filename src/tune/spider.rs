//! `spider-chess tune`: labelled quiet positions from `orrery match` records of Spider-Chess or a
//! loaded variant, and the Texel tuning of the evaluation's weights ([`EvalWeights`]) on them.
//!
//! A position is kept when the engine played a quiet move from it (no capture, no promotion), the
//! side to move is not in check and has no capture or promotion that wins material by the static
//! exchange evaluation: there the static evaluation is what the search would see. Book (opening)
//! positions and games ended by an engine fault are left out. The label is White's score.
//!
//! Labelled positions may also come from a file (`--labels`): FENs with another engine's
//! evaluation of them, turned into an expected score, so the weights can be fitted to a
//! stronger program's judgement of many positions rather than to a few hundred game results.

use std::path::Path;
use std::sync::Arc;

use super::texel::{fit_k, tune, Dataset, TuneOptions, TuneResult};
use crate::games::spider::{EvalWeights, Position, Variant};
use crate::referee::records::{read_records, GameRecord};

/// The variant a record was played in: Spider-Chess, or the loaded definition it carries.
pub fn record_variant(rec: &GameRecord) -> Result<Arc<Variant>, String> {
    if rec.game != "spider-chess" {
        return Err(format!(
            "game {}: a {} game, not spider-chess",
            rec.id + 1,
            rec.game
        ));
    }
    match rec.setup.as_deref() {
        None | Some("spider-chess") => Ok(Variant::spider_chess()),
        Some(name) => {
            let text = rec
                .extra
                .get("definition")
                .and_then(|d| d.as_str())
                .ok_or_else(|| {
                    format!("game {}: variant {name} without its definition", rec.id + 1)
                })?;
            let v = Variant::from_definition(text)
                .map_err(|e| format!("game {}: variant {name}: {e}", rec.id + 1))?;
            Ok(Arc::new(v.with_name(name)))
        }
    }
}

/// How many positions and games [`positions`] read and kept.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Harvest {
    /// Games read.
    pub games: usize,
    /// Games left out (engine faults).
    pub skipped_games: usize,
    /// Positions seen after the book moves.
    pub seen: usize,
    /// Quiet positions kept.
    pub kept: usize,
}

/// Whether the side to move is in a quiet position: not in check, and no capture or promotion
/// that gains material by the static exchange evaluation.
pub fn is_quiet(pos: &Position, buf: &mut Vec<crate::games::spider::Move>) -> bool {
    if pos.in_check() {
        return false;
    }
    pos.noisy_moves_into(buf);
    !buf.iter().any(|&m| pos.see_ge(m, 1))
}

/// The quiet positions of `records` (all of one variant) as features of `variant`'s evaluation,
/// labelled with White's score. Errors on a record of another variant or a move the rules refuse.
pub fn positions(
    variant: &Arc<Variant>,
    records: &[GameRecord],
) -> Result<(Dataset, Harvest), String> {
    let width = variant.weights().to_vector().len();
    let mut data = Dataset::new(width);
    let mut harvest = Harvest::default();
    let mut buf = Vec::new();
    for rec in records {
        let v = record_variant(rec)?;
        if v.name() != variant.name() || v.definition() != variant.definition() {
            return Err(format!(
                "game {}: variant {}, not {} (tune one variant at a time)",
                rec.id + 1,
                v.name(),
                variant.name()
            ));
        }
        harvest.games += 1;
        if rec.fault_seat.is_some() || rec.ranks.len() != 2 {
            harvest.skipped_games += 1;
            continue;
        }
        let white = rec.seat_score(0);
        let mut pos = if rec.standard_start {
            Position::startpos(variant)
        } else {
            Position::from_fen(variant, &rec.start)
                .map_err(|e| format!("game {}: start: {e}", rec.id + 1))?
        };
        for m in &rec.moves {
            let mv = pos
                .parse_move(&m.mv)
                .map_err(|e| format!("game {}: move {}: {e}", rec.id + 1, m.mv))?;
            if !m.book {
                harvest.seen += 1;
                let noisy = pos.is_capture(mv) || mv.promotion().is_some();
                if !noisy && is_quiet(&pos, &mut buf) {
                    data.push(&pos.eval_features(), white)?;
                    harvest.kept += 1;
                }
            }
            pos.make_move(mv);
        }
    }
    Ok((data, harvest))
}

/// Centipawns to an expected score on the scale of the engines' own reports (400 cp = 10:1).
pub fn expected_score(cp: i32) -> f64 {
    1.0 / (1.0 + 10f64.powf(-cp as f64 / 400.0))
}

/// Reads labels files against `variants`, each given as its name and text: `variant NAME` (a
/// loaded variant, the same in every file), then one position per line, `FEN;CP` with CP White's
/// score in centipawns from another engine (blank lines and `#` comments skipped). Gives the
/// variant and the quiet positions, each labelled with [`expected_score`] of its CP; errors name
/// the file and the line.
pub fn labelled_positions(
    variants: &[Arc<Variant>],
    files: &[(&str, &str)],
) -> Result<(Arc<Variant>, Dataset, Harvest), String> {
    let mut all: Option<(Arc<Variant>, Dataset)> = None;
    let mut harvest = Harvest::default();
    let mut buf = Vec::new();
    for &(file, text) in files {
        let err = |e: String| format!("{file}: {e}");
        let (name, body) = EvalWeights::split_file(text)
            .map_err(|_| err("a labels file starts with 'variant NAME'".into()))?;
        let named = variants
            .iter()
            .find(|v| v.name().eq_ignore_ascii_case(name))
            .ok_or_else(|| err(format!("labels for variant '{name}', which is not loaded")))?;
        let (variant, data) = all.get_or_insert_with(|| {
            let width = named.weights().to_vector().len();
            (named.clone(), Dataset::new(width))
        });
        if !Arc::ptr_eq(variant, named) {
            return Err(err(format!(
                "variant {}, not {} (tune one variant at a time)",
                named.name(),
                variant.name()
            )));
        }
        let first = text.lines().count() - body.lines().count();
        for (n, raw) in body.lines().enumerate() {
            let line = raw.split('#').next().unwrap_or("").trim();
            if line.is_empty() {
                continue;
            }
            let at = n + first + 1;
            let (fen, cp) = line
                .rsplit_once(';')
                .ok_or_else(|| err(format!("line {at}: expected FEN;CP, got '{line}'")))?;
            let cp: i32 = cp.trim().parse().map_err(|_| {
                err(format!(
                    "line {at}: '{}' is not a whole number of centipawns",
                    cp.trim()
                ))
            })?;
            let pos = Position::from_fen(variant, fen.trim())
                .map_err(|e| err(format!("line {at}: {e}")))?;
            harvest.seen += 1;
            if is_quiet(&pos, &mut buf) {
                data.push(&pos.eval_features(), expected_score(cp))?;
                harvest.kept += 1;
            }
        }
    }
    let (variant, data) = all.ok_or("no labels files")?;
    Ok((variant, data, harvest))
}

/// A weights file: `variant NAME` then `NAME VALUE` lines (see [`EvalWeights::split_file`] and
/// [`EvalWeights::parse`]), read against `variants` (the one it names, by name); gives that
/// variant with the weights. Weights the file leaves out are the variant's estimates from its
/// pieces' mobility, not its built-in weights, so a file plays the same whatever is built in
/// (a file `tune` wrote without square weights means them all 0).
pub fn apply_weights_file(variants: &[Arc<Variant>], text: &str) -> Result<Arc<Variant>, String> {
    let (name, body) = EvalWeights::split_file(text)?;
    let v = variants
        .iter()
        .find(|v| v.name().eq_ignore_ascii_case(name))
        .ok_or_else(|| format!("weights for variant '{name}', which is not loaded"))?;
    let w = EvalWeights::parse(v, v.estimated_weights(), body)?;
    Ok(Arc::new(Variant::clone(v).with_weights(w)?))
}

/// What `spider-chess tune` is asked to do.
#[derive(Clone, Debug, Default)]
pub struct TuneCommand {
    /// Records files (`orrery match --records`).
    pub records: Vec<String>,
    /// Labels files (`variant NAME`, then `FEN;CP` lines; see [`labelled_positions`]).
    pub labels: Vec<String>,
    /// Names of weights kept as they are (besides the royal piece's value).
    pub fix: Vec<String>,
    /// Where to write the tuned weights file.
    pub out: Option<String>,
    /// Strength of the pull towards the current weights ([`TuneOptions::prior`]).
    pub prior: f64,
    /// Whether the square weights are tuned too (else they are kept).
    pub squares: bool,
}

impl TuneCommand {
    /// Reads `[--fix NAME,NAME...] [--prior P] [--squares] [--out FILE] [--labels FILE]...
    /// RECORDS...`.
    pub fn parse(args: &[String]) -> Result<TuneCommand, String> {
        let mut cmd = TuneCommand::default();
        let mut it = args.iter();
        while let Some(a) = it.next() {
            match a.as_str() {
                "--fix" => {
                    let v = it.next().ok_or("--fix needs weight names")?;
                    cmd.fix.extend(v.split(',').map(|s| s.trim().to_string()));
                }
                "--out" => cmd.out = Some(it.next().ok_or("--out needs a file name")?.clone()),
                "--squares" => cmd.squares = true,
                "--labels" => cmd
                    .labels
                    .push(it.next().ok_or("--labels needs a file name")?.clone()),
                "--prior" => {
                    let v = it.next().ok_or("--prior needs a number")?;
                    cmd.prior = v
                        .parse()
                        .ok()
                        .filter(|p: &f64| p.is_finite() && *p >= 0.0)
                        .ok_or_else(|| format!("--prior must be a number >= 0, got '{v}'"))?;
                }
                flag if flag.starts_with("--") => {
                    return Err(format!("unknown tune flag '{flag}'"))
                }
                file => cmd.records.push(file.to_string()),
            }
        }
        if cmd.records.is_empty() && cmd.labels.is_empty() {
            return Err("tune needs at least one records file (or --labels file)".into());
        }
        if !cmd.records.is_empty() && !cmd.labels.is_empty() {
            return Err(
                "tune reads records or --labels files, not both (their labels differ in kind)"
                    .into(),
            );
        }
        Ok(cmd)
    }
}

/// Runs `spider-chess tune`: reads the records, fits K to the variant's current weights (those of
/// `variants`, which may carry a weights file), tunes the weights and reports; writes the weights
/// file when asked. Gives the report text.
pub fn run(variants: &[Arc<Variant>], cmd: &TuneCommand) -> Result<String, String> {
    let (variant, data, harvest) = if cmd.labels.is_empty() {
        let mut records = Vec::new();
        for f in &cmd.records {
            let recs = read_records(Path::new(f))?;
            if recs.is_empty() {
                return Err(format!("{f}: no game records"));
            }
            records.extend(recs);
        }
        let named = record_variant(&records[0])?;
        let variant = variants
            .iter()
            .find(|v| v.name() == named.name() && v.definition() == named.definition())
            .cloned()
            .unwrap_or(named);
        let (data, harvest) = positions(&variant, &records)?;
        (variant, data, harvest)
    } else {
        let mut texts = Vec::new();
        for f in &cmd.labels {
            texts.push(std::fs::read_to_string(f).map_err(|e| format!("{f}: {e}"))?);
        }
        let files: Vec<(&str, &str)> = cmd
            .labels
            .iter()
            .map(String::as_str)
            .zip(texts.iter().map(String::as_str))
            .collect();
        labelled_positions(variants, &files)?
    };
    if data.is_empty() {
        return Err("no quiet positions to tune on".into());
    }
    let names = EvalWeights::names(&variant);
    let start = variant.weights().to_vector();
    let mut opts = TuneOptions::all_free(start.len());
    for f in &cmd.fix {
        let i = names.iter().position(|n| n == f).ok_or_else(|| {
            let known = EvalWeights::scalar_names(&variant).join(", ");
            format!("--fix: unknown weight '{f}' (known: {known}, square X SQ)")
        })?;
        opts.free[i] = false;
    }
    let kinds = variant.pieces().len();
    for (i, l) in opts.lower.iter_mut().enumerate().skip(kinds) {
        // The terms are penalties or bonuses by their names; an endgame or square weight may go
        // either way.
        if !EvalWeights::is_signed(&variant, i) {
            *l = 0;
        }
    }
    for (i, free) in opts.free.iter_mut().enumerate() {
        // The royal piece's value and the pawn's and royal piece's mobility stay 0; the square
        // weights change only when asked.
        *free &= EvalWeights::tunable(&variant, i)
            && (cmd.squares || !EvalWeights::is_square(&variant, i));
    }
    for k in 0..kinds {
        if opts.free[k] {
            opts.lower[k] = 1;
        }
    }
    opts.prior = cmd.prior;
    let k = fit_k(&data, &start);
    let result = tune(&data, &start, k, &opts);
    let tuned = EvalWeights::from_vector(&variant, &result.weights).expect("same length");
    let text = report(&variant, &harvest, k, &start, &result);
    if let Some(out) = &cmd.out {
        let file = format!(
            "# spider-chess tune: {} quiet positions from {}, K {k:.4}, loss {:.6} -> {:.6}\nvariant {}\n{}",
            harvest.kept,
            if harvest.games == 0 {
                "labels".to_string()
            } else {
                format!("{} games", harvest.games - harvest.skipped_games)
            },
            result.loss_before,
            result.loss_after,
            variant.name(),
            tuned.to_text(&variant)
        );
        std::fs::write(out, file).map_err(|e| format!("{out}: {e}"))?;
    }
    Ok(text)
}

/// The report of a tuning run: what was read, K, the losses, each weight before and after.
fn report(
    variant: &Variant,
    harvest: &Harvest,
    k: f64,
    start: &[i32],
    result: &TuneResult,
) -> String {
    let read = if harvest.games == 0 {
        format!("{} labelled positions", harvest.seen)
    } else {
        format!(
            "{} games ({} left out), {} positions after the book",
            harvest.games, harvest.skipped_games, harvest.seen
        )
    };
    let mut out = format!(
        "variant {}: {read}, {} quiet\n\
         K {k:.4}, loss {:.6} -> {:.6} ({} passes)\n",
        variant.name(),
        harvest.kept,
        result.loss_before,
        result.loss_after,
        result.passes
    );
    for ((name, before), after) in EvalWeights::scalar_names(variant)
        .iter()
        .zip(start)
        .zip(&result.weights)
    {
        out.push_str(&format!("{name:<16} {before:>6} -> {after:>6}\n"));
    }
    // The square weights, then the endgame square weights: how many changed and their range.
    let squares = EvalWeights::squares_start(variant);
    let endgame = EvalWeights::endgame_squares_start(variant);
    for (name, range) in [
        ("square weights", squares..endgame),
        ("endgame square weights", endgame..start.len()),
    ] {
        let changed: Vec<i32> = start[range.clone()]
            .iter()
            .zip(&result.weights[range])
            .filter(|(b, a)| b != a)
            .map(|(_, &a)| a)
            .collect();
        if !changed.is_empty() {
            out.push_str(&format!(
                "{name}: {} changed, now from {} to {}\n",
                changed.len(),
                changed.iter().min().expect("not empty"),
                changed.iter().max().expect("not empty")
            ));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    /// A record of a seeded random Spider-Chess game of `plies` moves, the first `book` of them
    /// book moves, with the given result.
    fn random_record(seed: u64, plies: usize, book: usize, result: &str) -> GameRecord {
        let variant = Variant::spider_chess();
        let mut pos = Position::startpos(&variant);
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut moves = Vec::new();
        let mut list = Vec::new();
        for ply in 0..plies {
            pos.legal_moves_into(&mut moves);
            let mv = moves[rng.gen_range(0..moves.len())];
            list.push(serde_json::json!({
                "seat": ply % 2, "mv": pos.move_text(mv), "book": ply < book, "ms": 0
            }));
            pos.make_move(mv);
        }
        let ranks = match result {
            "1-0" => [1.0, 2.0],
            "0-1" => [2.0, 1.0],
            _ => [1.5, 1.5],
        };
        serde_json::from_value(serde_json::json!({
            "id": seed, "block": 0, "block_seed": 0, "game": "spider-chess", "setup": null,
            "tc": "nodes=1", "engines": ["a", "b"], "engine_index": [0, 1],
            "start": Position::startpos(&variant).to_fen(), "standard_start": true,
            "moves": list, "ranks": ranks, "result": result, "reason": "test",
            "final_position": pos.to_fen(), "started": 0, "duration_ms": 0
        }))
        .unwrap()
    }

    #[test]
    fn quiet_positions_after_the_book_are_labelled_with_whites_score() {
        let variant = Variant::spider_chess();
        let recs = [
            random_record(1, 60, 10, "1-0"),
            random_record(2, 40, 4, "1/2-1/2"),
        ];
        let (data, h) = positions(&variant, &recs).unwrap();
        assert_eq!(h.games, 2);
        assert_eq!(h.seen, 50 + 36);
        assert!(h.kept > 0 && h.kept < h.seen, "{h:?}");
        assert_eq!(data.len(), h.kept);
        // Replaying by hand: each kept position is quiet and the move played from it too.
        let mut kept = 0;
        let mut buf = Vec::new();
        for rec in &recs {
            let mut pos = Position::startpos(&variant);
            for m in &rec.moves {
                let mv = pos.parse_move(&m.mv).unwrap();
                if !m.book
                    && !pos.is_capture(mv)
                    && mv.promotion().is_none()
                    && is_quiet(&pos, &mut buf)
                {
                    kept += 1;
                }
                pos.make_move(mv);
            }
        }
        assert_eq!(kept, h.kept);
        // Every label is White's score: with all weights 0 every prediction is 1/2, so the loss
        // over the won game's positions is exactly 1/4.
        let (won, _) = positions(&variant, &recs[..1]).unwrap();
        assert!(!won.is_empty());
        let loss_all_white_wins = won.loss(&vec![0; won.width()], 1.0);
        assert!((loss_all_white_wins - 0.25).abs() < 1e-12);
    }

    #[test]
    fn records_of_another_variant_or_an_illegal_move_are_refused() {
        let variant = Variant::spider_chess();
        let mut bad = random_record(3, 12, 2, "0-1");
        bad.moves[5].mv = "a1a1".into();
        assert!(positions(&variant, &[bad])
            .unwrap_err()
            .contains("move a1a1"));
        let chess = Arc::new(
            Variant::from_definition(include_str!("../../tests/data/variants/chess.txt"))
                .unwrap()
                .with_name("chess"),
        );
        let err = positions(&chess, &[random_record(4, 8, 2, "1-0")]).unwrap_err();
        assert!(err.contains("one variant at a time"), "{err}");
    }

    #[test]
    fn a_weights_file_applies_to_the_variant_it_names() {
        let variants = [Variant::spider_chess()];
        let v =
            apply_weights_file(&variants, "# tuned\nvariant spider-chess\nvalue R 777\n").unwrap();
        let rook = v.pieces().iter().position(|p| p.letter == 'R').unwrap();
        assert_eq!(v.weights().values[rook], 777);
        assert_eq!(v.pieces()[rook].value, 777);
        // The others are the mobility estimates, not Spider-Chess's tuned weights.
        let queen = v.pieces().iter().position(|p| p.letter == 'Q').unwrap();
        let estimate = variants[0].estimated_weights().values[queen];
        assert_ne!(estimate, variants[0].weights().values[queen]);
        assert_eq!(v.weights().values[queen], estimate);
        assert_eq!(v.estimated_weights(), variants[0].estimated_weights());
        assert!(apply_weights_file(&variants, "value R 777\n").is_err());
        assert!(apply_weights_file(&variants, "variant chess\nvalue R 7\n")
            .unwrap_err()
            .contains("not loaded"));
        assert!(apply_weights_file(&variants, "variant spider-chess\nvalue R 0\n").is_err());
    }

    #[test]
    fn tune_arguments_parse() {
        let a = |s: &str| s.split(' ').map(String::from).collect::<Vec<_>>();
        // Names hold a space: --fix takes them joined by commas in one (quoted) argument.
        let words: Vec<String> = ["--fix", "value P,tempo", "a.jsonl", "b.jsonl"]
            .map(String::from)
            .to_vec();
        let c = TuneCommand::parse(&words).unwrap();
        assert_eq!(c.fix, vec!["value P", "tempo"]);
        assert_eq!(c.records, vec!["a.jsonl", "b.jsonl"]);
        let c = TuneCommand::parse(&a("--out w.txt a.jsonl")).unwrap();
        assert_eq!(c.out.as_deref(), Some("w.txt"));
        assert_eq!(c.records, vec!["a.jsonl"]);
        assert!(TuneCommand::parse(&a("--out w.txt")).is_err());
        assert!(TuneCommand::parse(&a("--bogus 1 a.jsonl")).is_err());
        assert_eq!(
            TuneCommand::parse(&a("--prior 0.5 a.jsonl")).unwrap().prior,
            0.5
        );
        assert!(TuneCommand::parse(&a("--prior -1 a.jsonl")).is_err());
        assert!(TuneCommand::parse(&a("--prior x a.jsonl")).is_err());
        let c = TuneCommand::parse(&a("--labels x.txt --labels y.txt")).unwrap();
        assert_eq!(c.labels, vec!["x.txt", "y.txt"]);
        assert!(c.records.is_empty());
        assert!(TuneCommand::parse(&a("--labels")).is_err());
        assert!(TuneCommand::parse(&a("--labels x.txt a.jsonl"))
            .unwrap_err()
            .contains("not both"));
    }

    fn chess() -> Arc<Variant> {
        let text = include_str!("../../tests/data/variants/chess.txt");
        Arc::new(Variant::from_definition(text).unwrap().with_name("chess"))
    }

    #[test]
    fn labelled_positions_keep_the_quiet_ones_with_their_expected_score() {
        assert_eq!(expected_score(0), 0.5);
        assert!((expected_score(400) - 10.0 / 11.0).abs() < 1e-12);
        assert!((expected_score(-400) - 1.0 / 11.0).abs() < 1e-12);
        // A quiet position, a white pawn taking a hanging knight (not quiet), a comment.
        let text = "variant chess\n\
            rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1;35 # the start\n\
            \n\
            rnbqkb1r/pppppppp/8/8/3n4/4P3/PPPP1PPP/RNBQKBNR w KQkq - 0 1;400\n";
        let (v, data, h) = labelled_positions(&[chess()], &[("a", text)]).unwrap();
        assert_eq!(v.name(), "chess");
        assert_eq!((h.games, h.seen, h.kept, data.len()), (0, 2, 1, 1));
        // All-zero weights predict 0.5; the start's label is expected_score(35).
        let zero = vec![0; data.width()];
        let want = (expected_score(35) - 0.5).powi(2);
        assert!((data.loss(&zero, 1.0) - want).abs() < 1e-12);
    }

    #[test]
    fn bad_labels_are_refused_with_their_line() {
        let variants = [chess()];
        let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
        for (text, why) in [
            (format!("{start};10\n"), "variant NAME"),
            (format!("variant grand\n{start};10\n"), "not loaded"),
            (
                format!("variant chess\n\n{start} 10\n"),
                "line 3: expected FEN;CP",
            ),
            (format!("variant chess\n{start};ten\n"), "line 2: 'ten'"),
            ("variant chess\n8/8/8/8 w - - 0 1;5\n".to_string(), "line 2"),
        ] {
            let err = labelled_positions(&variants, &[("a", &text)]).unwrap_err();
            assert!(err.contains(why), "{text}: {err}");
        }
    }
}
