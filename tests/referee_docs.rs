//! docs/orrery.md runs as written: every `$ target/release/orrery ...` line of its `console`
//! blocks is run (with this build's `orrery`) and its output compared with the lines under it
//! (only the `Referee overhead` line, a timing, may differ), and every `orrery` command line of
//! its `sh` blocks is parsed by the real argument parser.

use std::path::Path;
use std::process::Command;

use orrery::referee::cli::parse_args;

const DOC: &str = include_str!("../docs/orrery.md");
const BIN: &str = "target/release/orrery";

/// Splits a command line like `sh` would for these examples: words, single quotes.
fn words(line: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut quoted = false;
    let mut any = false;
    for c in line.chars() {
        match c {
            '\'' => {
                quoted = !quoted;
                any = true;
            }
            c if c.is_whitespace() && !quoted => {
                if any || !cur.is_empty() {
                    out.push(std::mem::take(&mut cur));
                    any = false;
                }
            }
            c => cur.push(c),
        }
    }
    if any || !cur.is_empty() {
        out.push(cur);
    }
    out
}

/// The code blocks of the doc with their language.
fn blocks(lang: &str) -> Vec<Vec<String>> {
    let mut out = Vec::new();
    let mut cur: Option<Vec<String>> = None;
    for line in DOC.lines() {
        if let Some(rest) = line.strip_prefix("```") {
            match cur.take() {
                Some(b) => out.push(b),
                None if rest.trim() == lang => cur = Some(Vec::new()),
                None => cur = Some(vec!["<other>".into()]),
            }
            continue;
        }
        if let Some(b) = cur.as_mut() {
            b.push(line.to_string());
        }
    }
    out.into_iter()
        .filter(|b| b.first().map(|l| l.as_str()) != Some("<other>"))
        .collect()
}

fn strip_timing(text: &str) -> String {
    text.lines()
        .filter(|l| !l.starts_with("Referee overhead:"))
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn console_examples_print_what_the_doc_says() {
    let exe = env!("CARGO_BIN_EXE_orrery");
    let root = env!("CARGO_MANIFEST_DIR");
    let mut ran = 0;
    for block in blocks("console") {
        let mut i = 0;
        while i < block.len() {
            let Some(cmd) = block[i].strip_prefix("$ ") else {
                i += 1;
                continue;
            };
            let mut expected = Vec::new();
            i += 1;
            while i < block.len() && !block[i].starts_with("$ ") {
                expected.push(block[i].clone());
                i += 1;
            }
            let w = words(&cmd.replace(BIN, exe));
            assert_eq!(w[0], exe, "a console example runs {BIN}: {cmd}");
            let out = Command::new(&w[0])
                .args(&w[1..])
                .current_dir(root)
                .output()
                .unwrap();
            let stdout = String::from_utf8_lossy(&out.stdout);
            assert!(out.status.success(), "{cmd}: {}", String::from_utf8_lossy(&out.stderr));
            assert_eq!(
                strip_timing(&stdout),
                strip_timing(&expected.join("\n")),
                "output of {cmd}"
            );
            ran += 1;
        }
    }
    assert!(ran >= 5, "ran {ran} examples");
}

#[test]
fn sh_examples_parse() {
    let mut parsed = 0;
    for block in blocks("sh") {
        // Join continued lines.
        let text = block.join("\n").replace("\\\n", " ");
        for line in text.lines() {
            let line = line.split(" #").next().unwrap().trim();
            if !line.starts_with(BIN) {
                continue;
            }
            let w = words(line);
            let args = &w[1..];
            // Files the examples read are made by the examples before them.
            if args.first().map(|a| a.as_str()) == Some("stats")
                || args.first().map(|a| a.as_str()) == Some("replay")
            {
                assert!(args.len() >= 2, "{line}");
                continue;
            }
            let parsed_args = parse_args(args);
            assert!(parsed_args.is_ok(), "{line}: {:?}", parsed_args.err());
            parsed += 1;
        }
    }
    assert!(parsed >= 2, "parsed {parsed} command lines");
    assert!(Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/orrery.md").is_file());
}
