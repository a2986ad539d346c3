//! Token-level `nom` parsers shared by both dialects, and the typed parse error.

use std::fmt;
use std::time::Duration;

use nom::branch::alt;
use nom::bytes::complete::{take_till1, take_while};
use nom::character::complete::{char, digit1, satisfy, space0};
use nom::combinator::{all_consuming, opt, recognize};
use nom::multi::many0;
use nom::sequence::{pair, preceded, separated_pair, terminated};
use nom::IResult;

/// Why an input line could not be turned into a command.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CommandError {
    /// What was wrong, in words, without the offending line (the reply adds that).
    pub reason: String,
}

impl CommandError {
    /// An error with this reason.
    pub fn new(reason: impl Into<String>) -> Self {
        CommandError {
            reason: reason.into(),
        }
    }
}

impl fmt::Display for CommandError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.reason)
    }
}

impl std::error::Error for CommandError {}

/// Whether `c` separates words: a space or a horizontal tab, nothing else (UCI: "arbitrary white
/// space between tokens"; protocol.md, "Lines and words", says which characters that is here).
pub(crate) fn is_separator(c: char) -> bool {
    c == ' ' || c == '\t'
}

/// Invisible formatting characters that would make a word look like another (zero-width spaces
/// and joiners, bidirectional controls, the byte-order mark).
fn is_invisible(c: char) -> bool {
    matches!(c, '\u{200B}'..='\u{200F}' | '\u{202A}'..='\u{202E}' | '\u{2060}'..='\u{2064}'
        | '\u{2066}'..='\u{2069}' | '\u{FEFF}')
}

/// A short name for a character that may not appear in a line.
fn char_name(c: char) -> String {
    let name = match c {
        '\0' => " (NUL)",
        '\r' => " (carriage return)",
        '\u{0B}' => " (vertical tab)",
        '\u{0C}' => " (form feed)",
        '\u{85}' => " (next line)",
        '\u{A0}' => " (no-break space)",
        '\u{2028}' => " (line separator)",
        '\u{2029}' => " (paragraph separator)",
        '\u{3000}' => " (ideographic space)",
        '\u{FEFF}' => " (byte-order mark)",
        c if c.is_whitespace() => " (a space other than U+0020)",
        c if c.is_control() => " (a control character)",
        _ => " (an invisible formatting character)",
    };
    format!("U+{:04X}{name}", c as u32)
}

/// Checks that a line holds nothing but words and separators: every control character but the
/// tab, every other kind of space (U+00A0, U+3000, U+2028, VT, FF, ...) and invisible formatting
/// characters are refused, naming the character and its column, so that no part of a line is
/// silently dropped or misread.
pub(crate) fn check_characters(line: &str) -> Result<(), CommandError> {
    match line.chars().enumerate().find(|&(_, c)| {
        !is_separator(c) && (c.is_control() || c.is_whitespace() || is_invisible(c))
    }) {
        None => Ok(()),
        Some((i, c)) => Err(CommandError::new(format!(
            "character {} at column {} is not allowed (words are separated by spaces and tabs)",
            char_name(c),
            i + 1
        ))),
    }
}

/// The line without separators at either end.
pub(crate) fn trim(line: &str) -> &str {
    line.trim_matches(is_separator)
}

/// One word (a run of characters other than separators), after optional separators.
pub(crate) fn word(input: &str) -> IResult<&str, &str> {
    preceded(space0, take_till1(is_separator))(input)
}

/// Splits a line into its words; every character other than a separator belongs to a word.
pub(crate) fn words(line: &str) -> Vec<&str> {
    match terminated(many0(word), space0)(line) {
        Ok((_, ws)) => ws,
        Err(_) => Vec::new(),
    }
}

/// The first word of a line and the rest of the line after it (separators removed at both ends).
pub(crate) fn head(line: &str) -> (&str, &str) {
    match word(line) {
        Ok((rest, w)) => (w, trim(rest)),
        Err(_) => ("", ""),
    }
}

fn unsigned_digits(input: &str) -> IResult<&str, &str> {
    all_consuming(recognize(pair(opt(char('+')), digit1)))(input)
}

fn signed_digits(input: &str) -> IResult<&str, &str> {
    all_consuming(recognize(pair(opt(alt((char('+'), char('-')))), digit1)))(input)
}

/// A non-negative integer that fits `T`; `what` names it in the error.
pub(crate) fn unsigned<T: std::str::FromStr>(token: &str, what: &str) -> Result<T, CommandError> {
    let digits = unsigned_digits(token)
        .map_err(|_| {
            CommandError::new(format!(
                "{what} needs a non-negative integer, got '{}'",
                shorten(token)
            ))
        })?
        .1;
    digits
        .trim_start_matches('+')
        .parse::<T>()
        .map_err(|_| CommandError::new(format!("{what} is out of range: {}", shorten(token))))
}

/// A signed integer of milliseconds (or any unit); huge magnitudes saturate, negatives are kept
/// for the caller to clamp.
pub(crate) fn signed_saturating(token: &str, what: &str) -> Result<i64, CommandError> {
    let digits = signed_digits(token)
        .map_err(|_| {
            CommandError::new(format!("{what} needs an integer, got '{}'", shorten(token)))
        })?
        .1;
    Ok(digits.parse::<i64>().unwrap_or(if digits.starts_with('-') {
        i64::MIN
    } else {
        i64::MAX
    }))
}

fn decimal_parts(input: &str) -> IResult<&str, (&str, Option<&str>)> {
    all_consuming(pair(
        alt((digit1, nom::combinator::success(""))),
        opt(preceded(char('.'), digit1)),
    ))(input)
}

/// A non-negative decimal number of seconds (`10`, `0.5`, `.25`) as a duration (saturating).
pub(crate) fn seconds(token: &str, what: &str) -> Result<Duration, CommandError> {
    let bad = || {
        CommandError::new(format!(
            "{what} needs a number of seconds, got '{}'",
            shorten(token)
        ))
    };
    let (whole, frac) = decimal_parts(token).map_err(|_| bad())?.1;
    if whole.is_empty() && frac.is_none() {
        return Err(bad());
    }
    let whole_ms = whole
        .parse::<u64>()
        .unwrap_or(if whole.is_empty() { 0 } else { u64::MAX })
        .saturating_mul(1000);
    let frac_ms = frac.map_or(0, |f| {
        let mut ms = 0u64;
        for (i, d) in f.bytes().take(3).enumerate() {
            ms += u64::from(d - b'0') * [100, 10, 1][i];
        }
        ms
    });
    Ok(Duration::from_millis(whole_ms.saturating_add(frac_ms)))
}

fn min_sec(input: &str) -> IResult<&str, (&str, &str)> {
    all_consuming(separated_pair(digit1, char(':'), digit1))(input)
}

/// CECP `level` base time: minutes (`5`, `0.5`) or minutes:seconds (`2:30`).
pub(crate) fn minutes_or_min_sec(token: &str) -> Result<Duration, CommandError> {
    if let Ok((_, (m, s))) = min_sec(token) {
        let m = m.parse::<u64>().unwrap_or(u64::MAX);
        let s = s.parse::<u64>().unwrap_or(u64::MAX);
        if s >= 60 {
            return Err(CommandError::new(format!(
                "level base seconds must be below 60, got '{token}'"
            )));
        }
        return Ok(Duration::from_secs(m.saturating_mul(60).saturating_add(s)));
    }
    let as_secs = seconds(token, "level base (minutes or min:sec)")?;
    Ok(as_secs.saturating_mul(60))
}

/// Checks a perft depth: at least 1 and at most [`MAX_PERFT_DEPTH`](crate::games::MAX_PERFT_DEPTH).
pub(crate) fn perft_depth(depth: u32, what: &str) -> Result<u32, CommandError> {
    let max = crate::games::MAX_PERFT_DEPTH;
    match depth {
        0 => Err(CommandError::new(format!(
            "{what} needs a depth of at least 1"
        ))),
        d if d > max => Err(CommandError::new(format!(
            "{what} {d} is deeper than the deepest perft the engine counts ({max} plies)"
        ))),
        d => Ok(d),
    }
}

/// Whether a word has the shape of a move in coordinate or drop notation (`e2e4`, `m18m19q`,
/// `P@e5`, `Fw@n2`, `a1`) or is the pass `0000`, so that a CECP bare move is told apart from an
/// unknown command.
pub(crate) fn looks_like_move(token: &str) -> bool {
    fn shape(input: &str) -> IResult<&str, &str> {
        all_consuming(recognize(pair(
            satisfy(|c| c.is_ascii_alphabetic()),
            take_while(|c: char| {
                c.is_ascii_alphanumeric() || matches!(c, '@' | '=' | '-' | '+' | '#' | '*')
            }),
        )))(input)
    }
    token == "0000"
        || token.len() <= 24 && token.chars().any(|c| c.is_ascii_digit()) && shape(token).is_ok()
}

/// A token cut to a readable length for error messages.
pub(crate) fn shorten(token: &str) -> String {
    const MAX: usize = 60;
    if token.chars().count() <= MAX {
        token.to_string()
    } else {
        let cut: String = token.chars().take(MAX).collect();
        format!("{cut}...")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_split_on_spaces_and_tabs_only() {
        assert_eq!(words("  go\twtime  100 \t"), vec!["go", "wtime", "100"]);
        assert!(words("   ").is_empty());
        assert_eq!(words("ping 7\u{3000}junk"), vec!["ping", "7\u{3000}junk"]);
        assert_eq!(head("a\u{A0}b c"), ("a\u{A0}b", "c"));
    }

    #[test]
    fn other_spaces_and_controls_are_refused_with_their_column() {
        assert!(check_characters("go\tdepth 3 name \u{e9}t\u{e9}").is_ok());
        for (line, name, col) in [
            ("ping 7\u{3000}junk", "U+3000", 7),
            ("a\u{A0}b", "U+00A0", 2),
            ("x\u{2028}", "U+2028", 2),
            ("\u{0B}go", "U+000B", 1),
            ("go\u{0C}", "U+000C", 3),
            ("go\0", "U+0000", 3),
            ("go\rdepth", "U+000D", 3),
            ("\u{FEFF}uci", "U+FEFF", 1),
            ("e2\u{200B}e4", "U+200B", 3),
            ("a\u{7F}", "U+007F", 2),
        ] {
            let e = check_characters(line).unwrap_err().reason;
            assert!(
                e.contains(name) && e.contains(&format!("column {col}")),
                "{line:?}: {e}"
            );
        }
    }

    #[test]
    fn unsigned_refuses_signs_and_overflow() {
        assert_eq!(unsigned::<u32>("42", "depth"), Ok(42));
        assert_eq!(unsigned::<u32>("+7", "depth"), Ok(7));
        assert!(unsigned::<u32>("-1", "depth").is_err());
        assert!(unsigned::<u32>("99999999999", "depth")
            .unwrap_err()
            .reason
            .contains("out of range"));
        assert!(unsigned::<u32>("1e3", "depth").is_err());
    }

    #[test]
    fn signed_saturates() {
        assert_eq!(signed_saturating("-50", "wtime"), Ok(-50));
        assert_eq!(
            signed_saturating("99999999999999999999999", "wtime"),
            Ok(i64::MAX)
        );
        assert!(signed_saturating("ten", "wtime").is_err());
    }

    #[test]
    fn seconds_and_level_base() {
        assert_eq!(seconds("1.5", "st"), Ok(Duration::from_millis(1500)));
        assert_eq!(seconds(".25", "st"), Ok(Duration::from_millis(250)));
        assert!(seconds(".", "st").is_err());
        assert!(seconds("-1", "st").is_err());
        assert_eq!(minutes_or_min_sec("2:30"), Ok(Duration::from_secs(150)));
        assert_eq!(minutes_or_min_sec("5"), Ok(Duration::from_secs(300)));
        assert!(minutes_or_min_sec("2:75").is_err());
        assert!(minutes_or_min_sec("x").is_err());
    }

    #[test]
    fn move_shapes() {
        for m in [
            "e2e4", "m18m19q", "P@e5", "a1", "j18k16", "Fw@n2", "Okw@n4", "0000",
        ] {
            assert!(looks_like_move(m), "{m}");
        }
        for m in ["quit", "foo", "12", "0001", "e", "@@", ""] {
            assert!(!looks_like_move(m), "{m}");
        }
    }
}
