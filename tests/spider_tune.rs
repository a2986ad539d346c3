//! `spider-chess tune` and `--weights` through the real binary: the weights file it writes is
//! the one the engine then plays with, and bad files are refused with a clear error.

use std::io::{BufRead, BufReader, Write};
use std::path::PathBuf;
use std::process::{Command, Stdio};

const CHESS: &str = "tests/data/variants/chess.txt";
const GAMES: &str = "docs/examples/chess-games.jsonl";
const LABELS: &str = "docs/examples/chess-labels.txt";

fn spider() -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_spider-chess"));
    c.current_dir(env!("CARGO_MANIFEST_DIR"));
    c
}

/// The `info depth N` line of a depth-`depth` search of chess from `position` (`startpos` or
/// `fen ...`), without its timing fields, read before `quit` is sent.
fn search_info(extra: &[&str], position: &str, depth: u32) -> String {
    variant_search_info("chess", extra, position, depth)
}

/// [`search_info`] in the variant of `tests/data/variants/{variant}.txt`.
fn variant_search_info(variant: &str, extra: &[&str], position: &str, depth: u32) -> String {
    let file = format!("tests/data/variants/{variant}.txt");
    let mut child = spider()
        .args(["--variant", &file])
        .args(extra)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    writeln!(
        stdin,
        "uci\nsetoption name UCI_Variant value {variant}\nposition {position}\ngo depth {depth}"
    )
    .unwrap();
    let prefix = format!("info depth {depth} ");
    let mut found = None;
    let mut seen = Vec::new();
    for line in BufReader::new(child.stdout.take().unwrap()).lines() {
        let line = line.unwrap();
        if line.starts_with(&prefix) {
            found = Some(line.split(" nps ").next().unwrap().to_string());
        }
        let done = line.starts_with("bestmove");
        seen.push(line);
        if done {
            break;
        }
    }
    stdin.write_all(b"quit\n").unwrap();
    drop(stdin);
    child.wait().unwrap();
    found.unwrap_or_else(|| panic!("no depth {depth} line in {seen:?}"))
}

/// The `info depth 2` line of a depth-2 search of chess's start position.
fn depth_two(extra: &[&str]) -> String {
    search_info(extra, "startpos", 2)
}

/// The weights file naming `variant` and no weight
/// (`tests/data/weights/VARIANT-estimates.weights`): every weight is then the variant's estimate
/// from its pieces' mobility, not its built-in weights (chess, Capablanca, shatranj have some).
fn estimates(variant: &str) -> String {
    format!("tests/data/weights/{variant}-estimates.weights")
}

/// Runs `spider-chess --variant chess --weights ESTIMATES tune ARGS --out FILE` (the fit starts
/// from the mobility estimates) in a fresh temporary directory, which must succeed; gives the
/// directory, the file and the report.
fn tune_out(tag: &str, args: &[&str]) -> (PathBuf, PathBuf, String) {
    let dir = std::env::temp_dir().join(format!("orrery-tune-{tag}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("w.txt");
    let start = estimates("chess");
    let out = spider()
        .args(["--variant", CHESS, "--weights", &start, "tune"])
        .args(args)
        .arg("--out")
        .arg(&file)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    (dir, file, String::from_utf8(out.stdout).unwrap())
}

#[test]
fn tuned_weights_are_written_and_played_with() {
    let (dir, file, report) = tune_out("records", &[GAMES]);
    assert!(report.starts_with("variant chess: 6 games"), "{report}");
    let written = std::fs::read_to_string(&file).unwrap();
    let lines: Vec<&str> = written.lines().collect();
    assert!(lines[0].starts_with("# spider-chess tune: "));
    assert_eq!(lines[1], "variant chess");
    // The file holds the report's "after" column.
    for row in report.lines().skip(2) {
        let (name, after) = row.split_once("->").unwrap();
        let name = name.split_whitespace().collect::<Vec<_>>();
        let name = name[..name.len() - 1].join(" ");
        assert!(
            lines.contains(&format!("{name} {}", after.trim()).as_str()),
            "{row}"
        );
    }
    let base = depth_two(&[]);
    let tuned = depth_two(&["--weights", file.to_str().unwrap()]);
    assert_ne!(base, tuned, "the tuned weights change the search");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn weights_fitted_to_labelled_positions_are_written_and_played_with() {
    let (dir, file, report) = tune_out("labels", &["--labels", LABELS]);
    assert!(
        report.starts_with("variant chess: 300 labelled positions, "),
        "{report}"
    );
    let written = std::fs::read_to_string(&file).unwrap();
    assert!(written.starts_with("# spider-chess tune: "), "{written}");
    assert!(written.contains(" positions from labels, "), "{written}");
    assert!(written.lines().any(|l| l == "variant chess"));
    let base = depth_two(&[]);
    let tuned = depth_two(&["--weights", file.to_str().unwrap()]);
    assert_ne!(base, tuned, "the fitted weights change the search");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_weights_file_replaces_the_built_in_weights_whole() {
    // Chess has built-in weights (square weights among them); a file naming none of them plays
    // the mobility estimates instead, as a file `tune` wrote from them does.
    let built_in = depth_two(&[]);
    let bare = depth_two(&["--weights", &estimates("chess")]);
    assert_ne!(built_in, bare);
    let fitted = depth_two(&["--weights", "src/games/spider/chess.weights"]);
    assert_eq!(built_in, fitted, "the built-in weights are that file's");
}

/// The loss after tuning, from a report's second line (`K ..., loss A -> B (N passes)`).
fn loss_after(report: &str) -> f64 {
    let line = report.lines().nth(1).unwrap();
    let after = line.split(" -> ").nth(1).unwrap();
    after.split_whitespace().next().unwrap().parse().unwrap()
}

#[test]
fn square_weights_are_fitted_only_when_asked() {
    let prior = ["--prior", "0.00001"];
    let (dir, file, report) = tune_out(
        "squares",
        &["--labels", LABELS, "--squares", prior[0], prior[1]],
    );
    let written = std::fs::read_to_string(&file).unwrap();
    let squares: Vec<&str> = written
        .lines()
        .filter(|l| l.starts_with("square "))
        .collect();
    assert_eq!(squares.len(), 6 * 64, "every piece on every square");
    let set = squares.iter().filter(|l| !l.ends_with(" 0")).count();
    assert!(set > 100, "{set} square weights set");
    assert!(
        report.contains(&format!("\nsquare weights: {set} changed")),
        "{report}"
    );
    // The endgame square weights are fitted with them and reported apart.
    let tapered = written
        .lines()
        .filter(|l| l.starts_with("endgame-square ") && !l.ends_with(" 0"))
        .count();
    assert!(tapered > 50, "{tapered} endgame square weights set");
    assert!(
        report.contains(&format!("endgame square weights: {tapered} changed")),
        "{report}"
    );
    let (plain_dir, plain_file, plain) =
        tune_out("no-squares", &["--labels", LABELS, prior[0], prior[1]]);
    assert!(!std::fs::read_to_string(&plain_file)
        .unwrap()
        .contains("square "));
    assert!(!plain.contains("square weights"), "{plain}");
    assert!(
        loss_after(&report) < loss_after(&plain),
        "the square weights fit the labels better: {report}\n{plain}"
    );
    let fitted = depth_two(&["--weights", file.to_str().unwrap()]);
    let without = depth_two(&["--weights", plain_file.to_str().unwrap()]);
    assert_ne!(fitted, without, "the square weights change the search");
    std::fs::remove_dir_all(&dir).unwrap();
    std::fs::remove_dir_all(&plain_dir).unwrap();
}

/// The centipawn score of `go depth 1` from `fen` in chess, with `extra` arguments.
fn depth_one_cp(fen: &str, extra: &[&str]) -> i32 {
    variant_depth_one_cp("chess", fen, extra)
}

/// [`depth_one_cp`] in the variant of `tests/data/variants/{variant}.txt`.
fn variant_depth_one_cp(variant: &str, fen: &str, extra: &[&str]) -> i32 {
    let info = variant_search_info(variant, extra, &format!("fen {fen}"), 1);
    let score = info.split(" score cp ").nth(1).expect("a centipawn score");
    score.split_whitespace().next().unwrap().parse().unwrap()
}

/// How much better White stands in `better` than in `worse` (both with Black to move) by
/// [`variant_depth_one_cp`] with the weights file `weights`.
fn gap_cp(variant: &str, weights: &str, worse: &str, better: &str) -> i32 {
    gap_with(variant, &["--weights", weights], worse, better)
}

/// [`gap_cp`] with the engine started with `extra` arguments (none: the variant's built-in
/// weights if it has some, else its estimates).
fn gap_with(variant: &str, extra: &[&str], worse: &str, better: &str) -> i32 {
    variant_depth_one_cp(variant, worse, extra) - variant_depth_one_cp(variant, better, extra)
}

#[test]
fn the_shipped_chess_structure_weights_load_and_score_pawn_endings() {
    // White's a- and c-pawns are isolated, its king on the edge: the file's doubled, isolated,
    // king-centre and pawn-endgame weights must lower White's score against the defaults.
    let fen = "4k3/pp3ppp/8/8/8/8/P1P2PPP/7K w - - 0 1";
    let base = depth_one_cp(fen, &["--weights", &estimates("chess")]);
    let tuned = depth_one_cp(fen, &["--weights", "docs/examples/chess-structure.weights"]);
    assert!(tuned < base, "tuned {tuned}, defaults {base}");
}

#[test]
fn the_shipped_chess_weights_fitted_to_labels_weigh_isolated_pawns_more() {
    // The same pawn ending: the labels' fit doubles the isolated-pawn penalty (9 -> 19) and
    // drops the king shield (8 -> 0, White's king has two pawns next to it, Black's one).
    let fen = "4k3/pp3ppp/8/8/8/8/P1P2PPP/7K w - - 0 1";
    let structure = depth_one_cp(fen, &["--weights", "docs/examples/chess-structure.weights"]);
    let fitted = depth_one_cp(fen, &["--weights", "docs/examples/chess-fsf.weights"]);
    assert!(fitted < structure, "fitted {fitted}, structure {structure}");
}

#[test]
fn the_shipped_chess_square_weights_centralise_the_knight() {
    // Black to move, White's knight in the centre or in the corner: the square weights (e4 53,
    // a1 -24, with reach and knight mobility refitted lower) widen the gap the reach and
    // mobility terms already see (114 cp against 88 when written).
    let gap = |file: &str| {
        gap_cp(
            "chess",
            file,
            "4k3/8/8/8/8/8/8/N3K3 b - - 0 1",
            "4k3/8/8/8/4N3/8/8/4K3 b - - 0 1",
        )
    };
    let plain = gap("docs/examples/chess-fsf.weights");
    let squares = gap("docs/examples/chess-fsf-squares.weights");
    assert!(
        squares >= plain + 15,
        "with squares {squares}, without {plain}"
    );
}

#[test]
fn the_shipped_chess_connected_weights_value_open_files_and_pawn_chains() {
    // Black to move; each pair differs in one thing White has: a rook on the open c-file
    // against the a-file behind its own pawn, four pawns side by side against four apart. The
    // file fitted with connected pawns (10) and open files (18) widens both gaps over the file
    // it started from (71 and 69 cp when written; 82 and 81 with it).
    let rook = |file: &str| {
        gap_cp(
            "chess",
            file,
            "4k3/8/8/8/8/8/PP4PP/R3K3 b - - 0 1",
            "4k3/8/8/8/8/8/PP4PP/2R1K3 b - - 0 1",
        )
    };
    let pawns = |file: &str| {
        gap_cp(
            "chess",
            file,
            "4k3/8/8/8/8/8/P1P1P1P1/4K3 b - - 0 1",
            "4k3/8/8/8/8/8/PPPP4/4K3 b - - 0 1",
        )
    };
    let (old, new) = (
        "docs/examples/chess-fsf-squares.weights",
        "docs/examples/chess-fsf-connected.weights",
    );
    let (rook_old, rook_new) = (rook(old), rook(new));
    assert!(
        rook_new > rook_old,
        "open file: {rook_new} against {rook_old}"
    );
    let (pawns_old, pawns_new) = (pawns(old), pawns(new));
    assert!(
        pawns_new > pawns_old,
        "chain: {pawns_new} against {pawns_old}"
    );
}

#[test]
fn the_shipped_capablanca_weights_penalise_doubled_pawns() {
    // White's c-pawns are doubled (the fit weighs a doubled pawn 14, the defaults 0); no pieces
    // but the kings, equal pawn counts.
    let fen = "4k5/pppppppp2/10/10/10/2P7/PPPP2PPP1/4K5 w - - 0 1";
    let base = variant_depth_one_cp("capablanca", fen, &["--weights", &estimates("capablanca")]);
    let fitted = variant_depth_one_cp(
        "capablanca",
        fen,
        &["--weights", "docs/examples/capablanca-fsf.weights"],
    );
    assert!(fitted < base, "fitted {fitted}, defaults {base}");
}

#[test]
fn the_shipped_capablanca_square_weights_bring_the_knight_out() {
    // Black to move, White's knight on f4 or on g1: the fit weighs N f4 +100 and N g1 -129, so
    // the gap between the two (60 cp without square weights when written) widens by far.
    let gap = |file: &str| {
        gap_cp(
            "capablanca",
            file,
            "4k5/10/10/10/10/10/10/4K1N3 b - - 0 1",
            "4k5/10/10/10/5N4/10/10/4K5 b - - 0 1",
        )
    };
    let plain = gap("docs/examples/capablanca-fsf.weights");
    let squares = gap("docs/examples/capablanca-fsf-squares.weights");
    assert!(
        squares >= plain + 150,
        "with squares {squares}, without {plain}"
    );
}

#[test]
fn bad_weights_files_and_tune_arguments_are_refused() {
    let dir = std::env::temp_dir().join(format!("orrery-tune-bad-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let cases = [
        ("variant chess\nvalue N x\n", "not an integer"),
        ("variant chess\nvalue Z 300\n", "unknown weight"),
        ("value N 300\n", "variant NAME"),
        ("variant grand\nvalue N 300\n", "not loaded"),
        ("variant chess\nvalue K 50\n", "royal"),
    ];
    for (i, (text, why)) in cases.iter().enumerate() {
        let file = dir.join(format!("w{i}.txt"));
        std::fs::write(&file, text).unwrap();
        let out = spider()
            .args(["--variant", CHESS, "--weights"])
            .arg(&file)
            .arg("bench")
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{text}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(why), "{text}: {err}");
        assert!(out.stdout.is_empty());
    }
    for (args, why) in [
        (vec!["tune"], "at least one records file"),
        (vec!["tune", "--prior", "-2", GAMES], "--prior"),
        (vec!["tune", "no-such-file.jsonl"], "no-such-file"),
        (vec!["tune", "--fix", "value X", GAMES], "unknown weight"),
        (
            vec!["tune", "--labels", "no-such-labels.txt"],
            "no-such-labels.txt",
        ),
        (vec!["tune", "--labels", LABELS, GAMES], "not both"),
        (vec!["tune", "--labels", GAMES], "variant NAME"),
    ] {
        let out = spider()
            .args(["--variant", CHESS])
            .args(&args)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(why), "{args:?}: {err}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn the_shipped_shatranj_weights_penalise_isolated_pawns() {
    // Black to move; White's four pawns side by side or four files apart, kings away from them.
    // The defaults have no isolated or connected weight (no gap: 0 cp when written); the file
    // fitted to Fairy-Stockfish's shatranj scores weighs an isolated pawn 18 and a connected
    // one 5 (92 cp when written).
    let apart = "r2k4/pppp4/8/8/7K/8/P1P1P1P1/R7 b - - 0 1";
    let chain = "r2k4/pppp4/8/8/7K/8/PPPP4/R7 b - - 0 1";
    let plain = gap_with(
        "shatranj",
        &["--weights", &estimates("shatranj")],
        apart,
        chain,
    );
    let fitted = gap_cp(
        "shatranj",
        "docs/examples/shatranj-fsf-squares.weights",
        apart,
        chain,
    );
    assert!(fitted >= plain + 50, "fitted {fitted}, defaults {plain}");
}

#[test]
fn the_shipped_donut_weights_keep_pawns_in_front_of_the_king() {
    // Black to move, equal material; White's three pawns shelter its king on h1 or stand on the
    // far wing. The defaults barely tell them apart (15 cp when written); the file fitted to
    // Fairy-Stockfish's donut scores (pawn shelter 0 -> 57, king shield 8 -> 26, a drop game's
    // king safety) by 387 cp.
    let away = "r3k3q1/ppp7/10/4**4/4**4/10/PPP7/R6KQ1[] b - - 0 1";
    let shelter = "r3k3q1/ppp7/10/4**4/4**4/10/6PPP1/R6KQ1[] b - - 0 1";
    let plain = gap_with("donut", &[], away, shelter);
    let fitted = gap_cp("donut", "docs/examples/donut-fsf.weights", away, shelter);
    assert!(fitted >= plain + 200, "fitted {fitted}, defaults {plain}");
}
