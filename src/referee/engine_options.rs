//! The options an engine offers (UCI `option name ... type ...` lines, CECP
//! `feature option="NAME -TYPE ..."`), parsed into typed declarations, and the check of every
//! `option.NAME=VALUE` of an `--engine` against them before it is sent: an option the engine
//! does not offer, or a value outside its type, stops the match before the first game.

/// What values an option takes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OptionKind {
    /// An integer in `min..=max` (UCI `spin`, CECP `-spin` / `-slider`).
    Spin {
        /// Smallest value.
        min: i64,
        /// Largest value.
        max: i64,
    },
    /// A boolean: UCI `true`/`false`, CECP `0`/`1`.
    Check,
    /// One of a list of words.
    Combo(Vec<String>),
    /// An action without a value (UCI `button`, CECP `-button` / `-save` / `-reset`).
    Button,
    /// Free text (UCI `string`, CECP `-string` / `-file` / `-path`).
    Text,
}

/// One option an engine offers.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineOption {
    /// The name as the engine spells it.
    pub name: String,
    /// Its type.
    pub kind: OptionKind,
}

const UCI_KEYWORDS: [&str; 5] = ["type", "default", "min", "max", "var"];

/// Parses a UCI `option name <name> type <t> [default x] [min x] [max x] [var x]...` line.
/// Names and values may contain spaces. `None` for other lines or unknown types.
pub fn parse_uci_option(line: &str) -> Option<EngineOption> {
    let rest = line.trim().strip_prefix("option")?;
    let words: Vec<&str> = rest.split_whitespace().collect();
    if words.first() != Some(&"name") {
        return None;
    }
    let mut name = Vec::new();
    let mut i = 1;
    while i < words.len() && words[i] != "type" {
        name.push(words[i]);
        i += 1;
    }
    if name.is_empty() {
        return None;
    }
    // Key-value pairs after the name; a value runs to the next keyword.
    let mut pairs: Vec<(&str, String)> = Vec::new();
    while i < words.len() {
        let key = words[i];
        i += 1;
        let mut value = Vec::new();
        while i < words.len() && !UCI_KEYWORDS.contains(&words[i]) {
            value.push(words[i]);
            i += 1;
        }
        pairs.push((key, value.join(" ")));
    }
    let get = |k: &str| pairs.iter().find(|(x, _)| *x == k).map(|(_, v)| v.clone());
    let kind = match get("type")?.as_str() {
        "spin" => OptionKind::Spin {
            min: get("min").and_then(|v| v.parse().ok()).unwrap_or(i64::MIN),
            max: get("max").and_then(|v| v.parse().ok()).unwrap_or(i64::MAX),
        },
        "check" => OptionKind::Check,
        "combo" => OptionKind::Combo(
            pairs
                .iter()
                .filter(|(k, _)| *k == "var")
                .map(|(_, v)| v.clone())
                .collect(),
        ),
        "button" => OptionKind::Button,
        "string" => OptionKind::Text,
        _ => return None,
    };
    Some(EngineOption {
        name: name.join(" "),
        kind,
    })
}

/// Parses the value of a CECP `feature option="..."`: `NAME -spin DEF MIN MAX`, `-check 0|1`,
/// `-combo A /// *B /// C`, `-button`, `-save`, `-reset`, `-string TEXT`, `-file`, `-path`,
/// `-slider DEF MIN MAX`.
pub fn parse_cecp_option(text: &str) -> Option<EngineOption> {
    let (name, rest) = text.split_once(" -")?;
    let name = name.trim();
    if name.is_empty() {
        return None;
    }
    let (kind, values) = rest.split_once(' ').unwrap_or((rest, ""));
    let nums: Vec<i64> = values
        .split_whitespace()
        .filter_map(|v| v.parse().ok())
        .collect();
    let kind = match kind.trim() {
        "spin" | "slider" => OptionKind::Spin {
            min: nums.get(1).copied().unwrap_or(i64::MIN),
            max: nums.get(2).copied().unwrap_or(i64::MAX),
        },
        "check" => OptionKind::Check,
        "combo" => OptionKind::Combo(
            values
                .split("///")
                .map(|v| v.trim().trim_start_matches('*').to_string())
                .filter(|v| !v.is_empty())
                .collect(),
        ),
        "button" | "save" | "reset" => OptionKind::Button,
        "string" | "file" | "path" => OptionKind::Text,
        _ => return None,
    };
    Some(EngineOption {
        name: name.to_string(),
        kind,
    })
}

/// Which dialect's spelling of booleans to accept.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dialect {
    /// `true` / `false`.
    Uci,
    /// `0` / `1`.
    Cecp,
}

/// Checks `NAME=VALUE` against the offered options (names compared without regard to case, as
/// UCI asks). Returns the option as the engine spells it and the value to send, or why not.
pub fn check_option(
    offered: &[EngineOption],
    name: &str,
    value: &str,
    dialect: Dialect,
) -> Result<(String, String), String> {
    let Some(opt) = offered.iter().find(|o| o.name.eq_ignore_ascii_case(name)) else {
        let names: Vec<&str> = offered.iter().map(|o| o.name.as_str()).collect();
        return Err(format!(
            "the engine does not offer option {name:?} (it offers: {})",
            if names.is_empty() {
                "none".to_string()
            } else {
                names.join(", ")
            }
        ));
    };
    let bad = |what: String| Err(format!("option {}={value:?}: {what}", opt.name));
    let value = value.trim();
    match &opt.kind {
        OptionKind::Spin { min, max } => match value.parse::<i64>() {
            Ok(v) if v >= *min && v <= *max => {}
            _ => return bad(format!("the engine takes an integer from {min} to {max}")),
        },
        OptionKind::Check => {
            let ok = match dialect {
                Dialect::Uci => ["true", "false"].contains(&value),
                Dialect::Cecp => ["0", "1"].contains(&value),
            };
            if !ok {
                return bad(match dialect {
                    Dialect::Uci => "the engine takes true or false".into(),
                    Dialect::Cecp => "the engine takes 0 or 1".into(),
                });
            }
        }
        OptionKind::Combo(vars) => match vars.iter().find(|v| v.eq_ignore_ascii_case(value)) {
            Some(v) => return Ok((opt.name.clone(), v.clone())),
            None => return bad(format!("the engine takes one of: {}", vars.join(", "))),
        },
        OptionKind::Button => {
            if !value.is_empty() {
                return bad("a button takes no value (write option.NAME=)".into());
            }
        }
        OptionKind::Text => {}
    }
    Ok((opt.name.clone(), value.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn uci_option_lines() {
        let o = parse_uci_option("option name Move Overhead type spin default 30 min 0 max 5000")
            .unwrap();
        assert_eq!(o.name, "Move Overhead");
        assert_eq!(o.kind, OptionKind::Spin { min: 0, max: 5000 });
        let c = parse_uci_option(
            "option name UCI_Variant type combo default duel var duel var six var teams 2x2",
        )
        .unwrap();
        assert_eq!(
            c.kind,
            OptionKind::Combo(vec!["duel".into(), "six".into(), "teams 2x2".into()])
        );
        assert_eq!(
            parse_uci_option("option name Clear Hash type button")
                .unwrap()
                .kind,
            OptionKind::Button
        );
        assert_eq!(parse_uci_option("option name X type weird"), None);
        assert_eq!(parse_uci_option("id name X"), None);
        assert_eq!(parse_uci_option("option name type spin"), None);
    }

    #[test]
    fn cecp_option_features() {
        assert_eq!(
            parse_cecp_option("Hash -spin 16 1 65536").unwrap().kind,
            OptionKind::Spin { min: 1, max: 65536 }
        );
        assert_eq!(
            parse_cecp_option("Style -combo Solid /// *Normal /// Risky")
                .unwrap()
                .kind,
            OptionKind::Combo(vec!["Solid".into(), "Normal".into(), "Risky".into()])
        );
        assert_eq!(
            parse_cecp_option("Book File -file book.bin").unwrap().name,
            "Book File"
        );
        assert_eq!(parse_cecp_option("nodash"), None);
    }

    #[test]
    fn values_are_checked_against_the_declaration() {
        let offered = vec![
            parse_uci_option("option name Hash type spin default 16 min 1 max 1024").unwrap(),
            parse_uci_option("option name Ponder type check default false").unwrap(),
            parse_uci_option("option name UCI_Variant type combo default a var a var b").unwrap(),
        ];
        let ok = |n: &str, v: &str| check_option(&offered, n, v, Dialect::Uci);
        assert_eq!(ok("hash", "64").unwrap(), ("Hash".into(), "64".into()));
        assert!(ok("Hash", "abc")
            .unwrap_err()
            .contains("integer from 1 to 1024"));
        assert!(ok("Hash", "4096").is_err());
        assert!(ok("Ponder", "1").is_err());
        assert_eq!(ok("UCI_Variant", "B").unwrap().1, "b");
        assert!(ok("UCI_Variant", "nosuch")
            .unwrap_err()
            .contains("one of: a, b"));
        let e = ok("NoSuch", "1").unwrap_err();
        assert!(e.contains("does not offer option \"NoSuch\""), "{e}");
        assert!(e.contains("Hash, Ponder, UCI_Variant"), "{e}");
    }
}
