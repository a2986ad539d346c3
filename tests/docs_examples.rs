//! Documentation that runs (issue 8, item 22): every fenced example in README.md, protocol.md
//! and docs/*.md is checked mechanically against the real binaries.
//!
//! How a block is read (the markup is described in docs/examples.md):
//!
//! - ```` ```text ```` whose first line is `$ COMMAND ARGS`: a transcript. Lines `> X` are sent to
//!   the command's stdin, lines `< X` must come back in that order, `< ...` skips any number of
//!   lines, and an expected line ending in ` ...` matches any line that starts with the rest.
//!   Without `>` lines the block is the command's whole output. Timing fields (`time`, `nps`,
//!   the CECP thinking time, `Time:`, `.../second:`, orrery's `Referee overhead:`) and the machine-sized `Hash` maximum may
//!   differ; everything else must be equal. A block after `<!-- continued -->` goes on with the
//!   previous transcript's output.
//! - ```` ```sh ````: each command (`\` continues a line, `#` starts a comment) must start: the
//!   engine binaries run for a few seconds and must not fail, `orrery` arguments must parse,
//!   `cargo` commands must name existing targets.
//! - ```` ```rust ````: the snippet must appear line for line in `tests/docs_snippets.rs`, which
//!   compiles and runs it.
//! - ```` ```json ````: must parse.
//! - anything else must follow `<!-- sample -->` (illustrative output, a synopsis, a format).
//!
//! Paths named in backticks (`tests/x.rs`, `tests/x.rs::a_test`, `docs/y.md`, `src/...`) must
//! exist.

mod common;

use std::path::PathBuf;
use std::process::Stdio;
use std::time::{Duration, Instant};

use common::binaries;
use common::engine_io::EngineIo;

const DOCS: &[&str] = &[
    "README.md",
    "protocol.md",
    "docs/orrery.md",
    "docs/search.md",
    "docs/solar-engine.md",
    "docs/solar.md",
    "docs/spacewars.md",
    "docs/spider.md",
    "docs/examples.md",
    "docs/fuzzing.md",
    "docs/gui.md",
];

const BINARIES: [&str; 4] = ["spider-chess", "solar-chess", "space-wars", "orrery"];

/// How long a transcript may wait for one expected line (generous for a loaded machine).
const PATIENCE: Duration = Duration::from_secs(120);

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// One fenced block of a document.
#[derive(Debug)]
struct Block {
    file: String,
    /// Line number of the opening fence (1-based).
    line: usize,
    lang: String,
    /// The HTML comment on the line before the fence, if any (`sample`, `continued`).
    marker: Option<String>,
    body: Vec<String>,
}

impl Block {
    fn at(&self) -> String {
        format!("{}:{}", self.file, self.line)
    }
}

fn blocks(file: &str) -> Vec<Block> {
    let text = std::fs::read_to_string(root().join(file)).unwrap_or_else(|e| panic!("{file}: {e}"));
    let lines: Vec<&str> = text.lines().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        let l = lines[i];
        if let Some(lang) = l.trim_start().strip_prefix("```") {
            let marker = i
                .checked_sub(1)
                .and_then(|p| lines[p].trim().strip_prefix("<!--"))
                .and_then(|m| m.strip_suffix("-->"))
                .map(|m| m.trim().to_string());
            let start = i;
            i += 1;
            let mut body = Vec::new();
            while i < lines.len() && !lines[i].trim_start().starts_with("```") {
                body.push(lines[i].to_string());
                i += 1;
            }
            out.push(Block {
                file: file.to_string(),
                line: start + 1,
                lang: lang.trim().to_string(),
                marker,
                body,
            });
        }
        i += 1;
    }
    out
}

fn all_blocks() -> Vec<Block> {
    DOCS.iter().flat_map(|f| blocks(f)).collect()
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Transcript,
    Continued,
    Shell,
    Rust,
    Json,
    Sample,
    /// `<!-- solar-position SETUP -->`: a Solar position string, equal to that setup's start.
    SolarPosition,
}

fn kind(b: &Block) -> Option<Kind> {
    match (b.marker.as_deref(), b.lang.as_str()) {
        (Some("sample"), _) => Some(Kind::Sample),
        (Some(m), "text") if m.starts_with("solar-position ") => Some(Kind::SolarPosition),
        (Some("continued"), "text") => Some(Kind::Continued),
        (_, "text") if b.body.first().is_some_and(|l| l.starts_with("$ ")) => {
            Some(Kind::Transcript)
        }
        (_, "sh") => Some(Kind::Shell),
        (_, "rust") => Some(Kind::Rust),
        (_, "json") => Some(Kind::Json),
        _ => None,
    }
}

#[test]
fn every_block_is_checked_or_marked_as_a_sample() {
    let mut bad = Vec::new();
    let mut counts = std::collections::BTreeMap::new();
    for b in all_blocks() {
        match kind(&b) {
            Some(k) => *counts.entry(format!("{k:?}")).or_insert(0) += 1,
            None => bad.push(format!("{} (```{})", b.at(), b.lang)),
        }
    }
    assert!(
        bad.is_empty(),
        "blocks that are neither checked nor marked <!-- sample -->: {bad:?}"
    );
    assert!(
        counts.get("Transcript").copied().unwrap_or(0) >= 6,
        "{counts:?}"
    );
}

// ---------------------------------------------------------------------------------------------
// Transcripts

/// Splits a command line into words (single and double quotes group, no other shell syntax).
fn shell_words(line: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut cur = String::new();
    let mut quote = None;
    let mut any = false;
    for c in line.chars() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some(_), c) => cur.push(c),
            (None, '\'' | '"') => {
                quote = Some(c);
                any = true;
            }
            (None, ' ' | '\t') => {
                if any || !cur.is_empty() {
                    words.push(std::mem::take(&mut cur));
                    any = false;
                }
            }
            (None, c) => cur.push(c),
        }
    }
    if any || !cur.is_empty() {
        words.push(cur);
    }
    words
}

/// The binary a command word names (`spider-chess`, `target/release/spider-chess`, ...).
fn binary_of(word: &str) -> Option<&'static str> {
    let name = word.rsplit('/').next()?;
    BINARIES.iter().copied().find(|b| *b == name)
}

/// A line with the fields that may differ between runs replaced by `*`.
fn normalize(line: &str) -> String {
    let mut w: Vec<String> = line.split(' ').map(String::from).collect();
    let is_num = |s: &str| s.parse::<i64>().is_ok();
    if w.first().is_some_and(|f| f == "info") {
        for i in 0..w.len().saturating_sub(1) {
            if matches!(w[i].as_str(), "time" | "nps") {
                w[i + 1] = "*".into();
            }
        }
    } else if w.len() >= 4 && w[..4].iter().all(|x| is_num(x)) {
        // CECP thinking output: ply score time nodes pv...
        w[2] = "*".into();
    } else if w.first().is_some_and(|f| f == "Referee") && w.len() > 2 {
        // orrery's `Referee overhead: 142 us per move (...)`.
        w[2] = "*".into();
    } else if w.first().is_some_and(|f| f == "Time:")
        || w.first().is_some_and(|f| f.ends_with("/second:"))
        || w.get(1).is_some_and(|f| f.ends_with("/second:"))
    {
        let last = w.len()
            - if w.last().is_some_and(|l| l == "ms") {
                2
            } else {
                1
            };
        w[last] = "*".into();
    }
    let mut out = w.join(" ");
    if out.starts_with("option name Hash type spin")
        || out.starts_with("feature option=\"Hash -spin")
    {
        if let Some(i) = out.rfind(' ') {
            let tail = out[i + 1..].trim_end_matches('"');
            if tail.parse::<u64>().is_ok() {
                let quote = if out.ends_with('"') { "\"" } else { "" };
                out = format!("{} *{quote}", &out[..i]);
            }
        }
    }
    out
}

fn matches(expected: &str, actual: &str) -> bool {
    let actual = normalize(actual);
    match expected.strip_suffix(" ...") {
        Some(prefix) => actual.starts_with(&normalize(prefix)),
        None => actual == normalize(expected),
    }
}

#[derive(Debug)]
enum Step {
    Send(String),
    Expect(String),
    Skip,
}

/// The steps of an interactive transcript (`>`/`<` lines) or of a command's whole output.
fn steps(body: &[String]) -> Vec<Step> {
    let interactive = body.iter().any(|l| l.starts_with("> "));
    body.iter()
        .map(|l| {
            if interactive {
                if let Some(s) = l.strip_prefix("> ") {
                    Step::Send(s.to_string())
                } else if l == "< ..." {
                    Step::Skip
                } else if l == "<" {
                    Step::Expect(String::new())
                } else if let Some(s) = l.strip_prefix("< ") {
                    Step::Expect(s.to_string())
                } else {
                    panic!("transcript line is neither '> ' nor '< ': {l:?}")
                }
            } else if l == "..." {
                Step::Skip
            } else {
                Step::Expect(l.clone())
            }
        })
        .collect()
}

/// Runs a transcript; `Err` says where it went wrong.
fn replay(at: &str, command: &str, steps: &[Step]) -> Result<usize, String> {
    let words = shell_words(command);
    let bin = binary_of(&words[0]).ok_or_else(|| format!("{at}: unknown command {command:?}"))?;
    let mut cmd = binaries::command(bin);
    cmd.args(&words[1..]).current_dir(root());
    let mut io = EngineIo::spawn(&mut cmd).map_err(|e| format!("{at}: {e}"))?;
    let mut skipping = false;
    let mut checked = 0;
    for (n, step) in steps.iter().enumerate() {
        match step {
            Step::Send(line) => {
                io.send(line);
                skipping = false;
            }
            Step::Skip => skipping = true,
            Step::Expect(want) => {
                let deadline = Instant::now() + PATIENCE;
                loop {
                    let left = deadline.saturating_duration_since(Instant::now());
                    let got = io.next_line(left).ok_or_else(|| {
                        format!("{at}: step {n}: waited for {want:?}, output ended or timed out; transcript {:?}", io.transcript)
                    })?;
                    if matches(want, &got) {
                        checked += 1;
                        break;
                    }
                    if !skipping {
                        return Err(format!(
                            "{at}: step {n}: expected {want:?}\n got {got:?}\n transcript so far {:?}",
                            io.transcript
                        ));
                    }
                }
                skipping = false;
            }
        }
    }
    io.close_input();
    // What comes after the last expected line must be nothing (unless the transcript ends in a
    // skip), up to the end of the output.
    let deadline = Instant::now() + PATIENCE;
    while let Some(extra) = io.next_line(deadline.saturating_duration_since(Instant::now())) {
        if !skipping {
            return Err(format!(
                "{at}: unexpected line after the transcript: {extra:?}"
            ));
        }
    }
    if !io.ended_within(Duration::from_secs(30)) {
        return Err(format!(
            "{at}: the command did not end after its input closed"
        ));
    }
    Ok(checked)
}

#[test]
fn transcripts_replay_against_the_binaries() {
    let all = all_blocks();
    let mut failures = Vec::new();
    let mut ran = 0;
    let mut i = 0;
    while i < all.len() {
        let b = &all[i];
        i += 1;
        if kind(b) != Some(Kind::Transcript) {
            continue;
        }
        let command = b.body[0].trim_start_matches("$ ").to_string();
        let mut body: Vec<String> = b.body[1..].to_vec();
        while i < all.len() && kind(&all[i]) == Some(Kind::Continued) {
            body.extend(all[i].body.iter().cloned());
            i += 1;
        }
        match replay(&b.at(), &command, &steps(&body)) {
            Ok(n) => {
                assert!(n > 0, "{}: no line was checked", b.at());
                ran += 1;
            }
            Err(e) => failures.push(e),
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
    assert!(ran >= 6, "only {ran} transcripts");
}

#[test]
fn the_markup_masks_only_timing_and_machine_fields() {
    assert!(matches(
        "info depth 2 seldepth 3 score cp 5 nodes 10 nps 999 time 7 pv a1",
        "info depth 2 seldepth 3 score cp 5 nodes 10 nps 5 time 0 pv a1"
    ));
    assert!(!matches(
        "info depth 2 seldepth 3 score cp 5 nodes 10 nps 999 time 7 pv a1",
        "info depth 2 seldepth 3 score cp 5 nodes 11 nps 999 time 7 pv a1"
    ));
    assert!(matches("3 -7 1 2935 Ok@b4", "3 -7 0 2935 Ok@b4"));
    assert!(!matches("3 -7 1 2935 Ok@b4", "3 -7 1 2936 Ok@b4"));
    assert!(matches("bestmove ...", "bestmove m2m5"));
    assert!(!matches("bestmove ...", "info depth 1"));
    assert!(matches("Time: 3 ms", "Time: 12 ms"));
    assert!(matches("Leaf nodes/second: 10", "Leaf nodes/second: 99"));
    assert!(matches(
        "option name Hash type spin default 16 min 1 max 16384",
        "option name Hash type spin default 16 min 1 max 8192"
    ));
    assert!(matches(
        "feature option=\"Hash -spin 16 1 16384\"",
        "feature option=\"Hash -spin 16 1 4096\""
    ));
    assert!(!matches("Nodes searched: 307", "Nodes searched: 308"));
    assert_eq!(
        shell_words("perft 2 '7 w - - 0 1' x"),
        vec!["perft", "2", "7 w - - 0 1", "x"]
    );
}

// ---------------------------------------------------------------------------------------------
// Shell commands

/// The commands of a ```sh block: continuation lines joined, comments dropped.
fn shell_commands(body: &[String]) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    for l in body {
        let l = match l.find(" #") {
            Some(i) => &l[..i],
            None if l.trim_start().starts_with('#') => "",
            None => l,
        };
        let l = l.trim_end();
        if let Some(head) = l.strip_suffix('\\') {
            cur.push_str(head);
            cur.push(' ');
            continue;
        }
        cur.push_str(l);
        if !cur.trim().is_empty() {
            out.push(cur.trim().to_string());
        }
        cur.clear();
    }
    out
}

/// Runs an engine binary with `args` for up to a few seconds: it must not fail.
fn starts_fine(bin: &str, args: &[String], env: &[(String, String)]) -> Result<(), String> {
    let mut child = binaries::command(bin)
        .args(args)
        .envs(env.iter().cloned())
        .current_dir(root())
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| e.to_string())?;
    let deadline = Instant::now() + Duration::from_secs(3);
    loop {
        if let Some(status) = child.try_wait().map_err(|e| e.to_string())? {
            if status.success() {
                return Ok(());
            }
            let mut err = String::new();
            use std::io::Read;
            if let Some(mut e) = child.stderr.take() {
                let _ = e.read_to_string(&mut err);
            }
            return Err(format!("exited with {status}: {err}"));
        }
        if Instant::now() >= deadline {
            let _ = child.kill();
            let _ = child.wait();
            return Ok(());
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// Checks one documented command line.
fn check_command(line: &str) -> Result<(), String> {
    let mut words = shell_words(line);
    let mut env = Vec::new();
    while words
        .first()
        .is_some_and(|w| w.contains('=') && !w.starts_with('-'))
    {
        let w = words.remove(0);
        let (k, v) = w.split_once('=').expect("VAR=value");
        env.push((k.to_string(), v.to_string()));
    }
    if words.first().is_some_and(|w| w == "nice") {
        let skip = if words.get(1).is_some_and(|w| w == "-n") {
            3
        } else {
            1
        };
        words.drain(..skip.min(words.len()));
    }
    let Some(first) = words.first().cloned() else {
        return Ok(());
    };
    if first == "cargo" {
        return check_cargo(&words[1..]);
    }
    match binary_of(&first) {
        Some("orrery") => orrery::referee::cli::parse_args(&words[1..])
            .map(|_| ())
            .map_err(|e| format!("orrery refuses the arguments: {e}")),
        Some(bin) => starts_fine(bin, &words[1..], &env),
        None => Err(format!("not a command of this project: {first}")),
    }
}

fn check_cargo(args: &[String]) -> Result<(), String> {
    // A `+toolchain` selector changes nothing about the targets.
    let args = match args.first() {
        Some(t) if t.starts_with('+') => &args[1..],
        _ => args,
    };
    let (cargo, rest) = match args.iter().position(|a| a == "--") {
        Some(i) => (&args[..i], &args[i + 1..]),
        None => (args, &[][..]),
    };
    match cargo.first().map(String::as_str) {
        Some("run") => {
            let bin = cargo
                .iter()
                .position(|a| a == "--bin")
                .and_then(|i| cargo.get(i + 1))
                .map_or("orrery", |b| b.as_str());
            let mut line = vec![bin.to_string()];
            line.extend(rest.iter().cloned());
            check_command(&line.join(" "))
        }
        Some("build") | Some("test") | Some("clippy") | Some("fmt") => {
            for (i, a) in cargo.iter().enumerate() {
                if a == "--test" {
                    let name = cargo.get(i + 1).ok_or("--test needs a name")?;
                    let path = root().join("tests").join(format!("{name}.rs"));
                    if !path.exists() {
                        return Err(format!("no test target {name}"));
                    }
                }
            }
            Ok(())
        }
        Some("fuzz") => {
            let manifest = std::fs::read_to_string(root().join("fuzz/Cargo.toml"))
                .map_err(|e| format!("fuzz/Cargo.toml: {e}"))?;
            match cargo.get(1).map(String::as_str) {
                Some("run" | "build" | "cmin" | "tmin") => {
                    let target = cargo[2..].iter().find(|a| !a.starts_with('-'));
                    match target {
                        Some(t) if !manifest.contains(&format!("name = \"{t}\"")) => {
                            Err(format!("no fuzz target {t}"))
                        }
                        _ => Ok(()),
                    }
                }
                Some("list") | None => Ok(()),
                Some(other) => Err(format!("unexpected cargo fuzz command {other}")),
            }
        }
        other => Err(format!("unexpected cargo command {other:?}")),
    }
}

#[test]
fn shell_examples_start_and_their_arguments_parse() {
    let mut failures = Vec::new();
    let mut ran = 0;
    for b in all_blocks().iter().filter(|b| kind(b) == Some(Kind::Shell)) {
        for line in shell_commands(&b.body) {
            ran += 1;
            if let Err(e) = check_command(&line) {
                failures.push(format!("{}: {line}\n  {e}", b.at()));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(ran >= 10, "only {ran} commands");
}

// ---------------------------------------------------------------------------------------------
// Rust snippets, JSON, paths

#[test]
fn rust_snippets_are_compiled_and_run_in_docs_snippets() {
    let file = std::fs::read_to_string(root().join("tests/docs_snippets.rs")).expect("snippets");
    let lines: Vec<&str> = file.lines().map(str::trim).collect();
    let mut missing = Vec::new();
    for b in all_blocks().iter().filter(|b| kind(b) == Some(Kind::Rust)) {
        let want: Vec<&str> = b.body.iter().map(|l| l.trim()).collect();
        let found = lines.windows(want.len()).any(|w| w == want.as_slice());
        if !found {
            missing.push(b.at());
        }
    }
    assert!(
        missing.is_empty(),
        "snippets not found line for line in tests/docs_snippets.rs: {missing:?}"
    );
}

#[test]
fn json_examples_parse() {
    for b in all_blocks().iter().filter(|b| kind(b) == Some(Kind::Json)) {
        let text = b.body.join("\n");
        if let Err(e) = serde_json::from_str::<serde_json::Value>(&text) {
            panic!("{}: {e}", b.at());
        }
    }
}

#[test]
fn solar_position_examples_are_the_setups_they_name() {
    let mut n = 0;
    for b in all_blocks()
        .iter()
        .filter(|b| kind(b) == Some(Kind::SolarPosition))
    {
        let setup = b
            .marker
            .as_deref()
            .unwrap()
            .trim_start_matches("solar-position ")
            .trim();
        let text = b.body.join("\n");
        let pos = orrery::games::solar::Position::from_setup_or_string(&text)
            .unwrap_or_else(|e| panic!("{}: {e}", b.at()));
        assert_eq!(pos.to_string(), text, "{}: does not round-trip", b.at());
        let start = orrery::games::solar::Position::from_setup(setup).unwrap();
        assert_eq!(
            start.to_string(),
            text,
            "{}: not the start of {setup}",
            b.at()
        );
        n += 1;
    }
    assert!(n >= 2);
}

/// Backticked paths of the repository named in a document, with an optional `::item`.
fn named_paths(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    for (i, part) in text.split('`').enumerate() {
        if i % 2 == 0 {
            continue;
        }
        let p = part.trim();
        let starts = ["tests/", "src/", "docs/", "bin/", ".ci/"];
        if starts.iter().any(|s| p.starts_with(s))
            && !p.contains(' ')
            && !p.contains('*')
            && !p.contains('<')
            && !p.contains("...")
        {
            out.push(p.to_string());
        }
    }
    out
}

#[test]
fn files_and_tests_named_in_the_docs_exist() {
    let mut bad = Vec::new();
    for doc in DOCS {
        let text = std::fs::read_to_string(root().join(doc)).unwrap();
        for p in named_paths(&text) {
            let (path, item) = match p.split_once("::") {
                Some((a, b)) => (a.to_string(), Some(b.to_string())),
                None => (p.clone(), None),
            };
            let full = root().join(path.trim_end_matches('/'));
            if !full.exists() {
                bad.push(format!("{doc}: {p} does not exist"));
                continue;
            }
            if let Some(item) = item {
                let code = std::fs::read_to_string(&full).unwrap_or_default();
                let last = item.rsplit("::").next().unwrap_or(&item).to_string();
                if !code.contains(&format!("fn {last}")) && !code.contains(&format!("mod {last}")) {
                    bad.push(format!("{doc}: {p}: no fn {last} there"));
                }
            }
        }
    }
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}

/// `printf '...' | BINARY` examples written inline in the prose run too (and print a move or a
/// perft total).
#[test]
fn inline_pipelines_run() {
    let mut ran = 0;
    for doc in DOCS {
        let text = std::fs::read_to_string(root().join(doc)).unwrap();
        for (i, part) in text.split('`').enumerate() {
            let Some(rest) = part.strip_prefix("printf '") else {
                continue;
            };
            if i % 2 == 0 {
                continue;
            }
            let (input, cmd) = rest.split_once("' | ").expect("printf '...' | command");
            let bin = binary_of(cmd.trim()).unwrap_or_else(|| panic!("{doc}: {part}"));
            let input = input.replace("\\n", "\n");
            let mut child = binaries::command(bin)
                .stdin(Stdio::piped())
                .stdout(Stdio::piped())
                .spawn()
                .unwrap();
            use std::io::Write;
            child
                .stdin
                .take()
                .unwrap()
                .write_all(input.as_bytes())
                .unwrap();
            let out = child.wait_with_output().unwrap();
            assert!(out.status.success(), "{doc}: {part}");
            let stdout = String::from_utf8_lossy(&out.stdout);
            assert!(
                stdout.lines().any(|l| l.starts_with("bestmove ")
                    || l.starts_with("move ")
                    || l.starts_with("Nodes searched: ")),
                "{doc}: {part} printed no move or perft total: {stdout}"
            );
            ran += 1;
        }
    }
    assert!(ran >= 1);
}
