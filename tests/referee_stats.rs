//! The SPRT against a table of reference values (tests/data/sprt_reference.tsv), computed by an
//! independent Python implementation of the same method (tests/data/sprt_reference.py):
//! trinomial and pentanomial counts, logistic and normalized Elo.

use orrery::referee::stats::{EloModel, Sprt};

const TABLE: &str = include_str!("data/sprt_reference.tsv");

fn cases() -> Vec<(Vec<u64>, f64, f64, EloModel, f64)> {
    TABLE
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            let counts = f[0].split(',').map(|c| c.parse().unwrap()).collect();
            let model = match f[3] {
                "logistic" => EloModel::Logistic,
                "normalized" => EloModel::Normalized,
                m => panic!("model {m}"),
            };
            (
                counts,
                f[1].parse().unwrap(),
                f[2].parse().unwrap(),
                model,
                f[4].parse().unwrap(),
            )
        })
        .collect()
}

#[test]
fn llr_matches_the_reference_table() {
    let cases = cases();
    assert!(cases.len() >= 20);
    for (counts, elo0, elo1, model, want) in cases {
        let s = Sprt {
            elo0,
            elo1,
            alpha: 0.05,
            beta: 0.05,
            model,
        };
        let got = s.llr_counts(&counts);
        assert!(
            (got - want).abs() < 1e-6,
            "{counts:?} [{elo0}, {elo1}] {model:?}: {got} vs {want}"
        );
    }
}

#[test]
fn the_table_is_what_the_reference_script_prints() {
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/sprt_reference.py");
    let out = std::process::Command::new("python3")
        .arg(script)
        .output()
        .expect("python3 runs (the referee tests need it)");
    assert!(out.status.success());
    assert_eq!(String::from_utf8(out.stdout).unwrap(), TABLE);
}
