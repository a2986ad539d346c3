//! Interactive Diagram definitions (H. G. Muller's format on the Chess Variant Pages) as the
//! Spider-Chess seed writes them: `key=value` parameters, a `hole::::sq,sq,...` line and
//! `name:letter:betza:image:squares` piece lines, all separated by whitespace.
//!
//! The pawn (the piece lettered `P`, else the first piece line unless it is royal) is the piece that
//! promotes in the promotion zone and whose moves reset the 50-move count.

use super::betza::{self, MoveRule};
use super::square::{parse_square, square_name, MAX_SIDE};
use std::collections::BTreeSet;
use std::fmt;

/// What happens to a side that has no legal move while not in check.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StalemateRule {
    /// The stalemated side loses (`stalemate=win`: a win for the side that stalemates).
    Loses,
    /// The game is drawn (`stalemate=draw`, the default).
    Draw,
    /// The stalemated side wins (`stalemate=lose`).
    Wins,
}

/// How Black's setup follows from White's.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Symmetry {
    /// Black mirrors White across the middle rank (the default).
    Mirror,
    /// Black is White turned by 180 degrees.
    Rotate,
    /// Black's squares are all listed explicitly.
    None,
}

impl Symmetry {
    /// Where a White square goes for Black, or `None` when there is no symmetry.
    pub fn image(self, (x, y): (u8, u8), files: u8, ranks: u8) -> Option<(u8, u8)> {
        match self {
            Symmetry::Mirror => Some((x, ranks - 1 - y)),
            Symmetry::Rotate => Some((files - 1 - x, ranks - 1 - y)),
            Symmetry::None => None,
        }
    }
}

/// A piece type as defined by one piece line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PieceDef {
    /// Its name (`spider`).
    pub name: String,
    /// Its uppercase letter (`S`); Black's pieces use the lowercase letter.
    pub letter: char,
    /// The Betza string it was compiled from.
    pub betza: String,
    /// The compiled move rules, White's view.
    pub rules: Vec<MoveRule>,
    /// White's start squares (file, rank), 0-based.
    pub white: Vec<(u8, u8)>,
    /// Black's start squares, derived by the symmetry (or listed, without one).
    pub black: Vec<(u8, u8)>,
}

/// A fully checked Interactive Diagram definition.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Definition {
    /// Number of files (columns).
    pub files: u8,
    /// Number of ranks (rows).
    pub ranks: u8,
    /// Number of ranks at the far end where the pawn promotes.
    pub promo_zone: u8,
    /// Letters a pawn may promote to, without repeats.
    pub promo_choice: Vec<char>,
    /// Letter of the royal piece.
    pub royal: char,
    /// Stalemate rule.
    pub stalemate: StalemateRule,
    /// Whether a bare king loses (`baring=0`).
    pub baring: bool,
    /// How Black's setup is derived.
    pub symmetry: Symmetry,
    /// The holes, sorted, without repeats.
    pub holes: Vec<(u8, u8)>,
    /// The piece types, in definition order.
    pub pieces: Vec<PieceDef>,
    /// Index of the pawn in `pieces`, if the variant has one.
    pub pawn: Option<usize>,
}

/// Why a definition was refused: the offending token and what is wrong with it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DefinitionError {
    /// The offending token (truncated when very long).
    pub token: String,
    /// What is wrong.
    pub reason: String,
}

impl fmt::Display for DefinitionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "definition token '{}': {}", self.token, self.reason)
    }
}

impl std::error::Error for DefinitionError {}

fn error(token: &str, reason: impl Into<String>) -> DefinitionError {
    let token = if token.chars().count() > 60 {
        format!("{}...", token.chars().take(60).collect::<String>())
    } else {
        token.to_string()
    };
    DefinitionError {
        token,
        reason: reason.into(),
    }
}

/// Keys that only change how the Diagram looks; accepted and ignored.
const COSMETIC_KEYS: &[&str] = &[
    "graphicsDir",
    "squareSize",
    "graphicsType",
    "whiteColor",
    "blackColor",
    "lightShade",
    "darkShade",
    "holeColor",
    "rimColor",
    "coordColor",
];

fn number(token: &str, value: &str, lo: u32, hi: u32) -> Result<u32, DefinitionError> {
    match value.parse::<u32>() {
        Ok(n) if (lo..=hi).contains(&n) => Ok(n),
        _ => Err(error(token, format!("expected a number from {lo} to {hi}"))),
    }
}

/// Parses a definition; every token must be understood or the whole definition is refused.
pub fn parse(text: &str) -> Result<Definition, DefinitionError> {
    let mut params: Vec<(&str, &str, &str)> = Vec::new();
    let mut lines: Vec<&str> = Vec::new();
    for token in text.split_whitespace() {
        match (token.find('='), token.find(':')) {
            (Some(e), c) if c.is_none_or(|c| e < c) => {
                params.push((token, &token[..e], &token[e + 1..]))
            }
            (_, Some(_)) => lines.push(token),
            _ => {
                return Err(error(
                    token,
                    "neither a key=value parameter nor a piece line",
                ))
            }
        }
    }
    let mut files = None;
    let mut ranks = None;
    let mut promo_zone = 1u32;
    let mut promo_choice_token = None;
    let mut royal_token = None;
    let mut stalemate = StalemateRule::Draw;
    let mut baring = false;
    let mut symmetry = Symmetry::Mirror;
    let mut seen_keys = BTreeSet::new();
    for &(token, key, value) in &params {
        if !seen_keys.insert(key) {
            return Err(error(token, format!("parameter '{key}' given twice")));
        }
        match key {
            "files" => files = Some(number(token, value, 1, MAX_SIDE as u32)? as u8),
            "ranks" => ranks = Some(number(token, value, 2, MAX_SIDE as u32)? as u8),
            "promoZone" => promo_zone = number(token, value, 1, MAX_SIDE as u32)?,
            "promoChoice" => promo_choice_token = Some((token, value)),
            "royal" => royal_token = Some((token, value)),
            "stalemate" => {
                stalemate = match value {
                    "win" => StalemateRule::Loses,
                    "draw" => StalemateRule::Draw,
                    "lose" | "loss" => StalemateRule::Wins,
                    _ => return Err(error(token, "stalemate must be win, draw or lose")),
                }
            }
            "baring" => {
                baring = match value {
                    "0" => true,
                    _ => return Err(error(token, "only baring=0 (bare king loses) is supported")),
                }
            }
            "symmetry" => {
                symmetry = match value {
                    "mirror" => Symmetry::Mirror,
                    "rotate" => Symmetry::Rotate,
                    "none" => Symmetry::None,
                    _ => return Err(error(token, "symmetry must be mirror, rotate or none")),
                }
            }
            k if COSMETIC_KEYS.contains(&k) => {}
            _ => return Err(error(token, format!("unknown parameter '{key}'"))),
        }
    }
    let files = files.ok_or_else(|| error("files", "parameter 'files' is missing"))?;
    let ranks = ranks.ok_or_else(|| error("ranks", "parameter 'ranks' is missing"))?;
    if promo_zone as u8 >= ranks {
        return Err(error(
            "promoZone",
            "promotion zone must be smaller than the board",
        ));
    }

    let mut holes = BTreeSet::new();
    let mut pieces: Vec<PieceDef> = Vec::new();
    for &token in &lines {
        let parts: Vec<&str> = token.split(':').collect();
        if parts.len() != 5 {
            return Err(error(
                token,
                format!(
                    "expected name:letter:betza:image:squares (5 fields), got {}",
                    parts.len()
                ),
            ));
        }
        let (name, letter, betza_text, squares) = (parts[0], parts[1], parts[2], parts[4]);
        if name == "hole" {
            if !letter.is_empty() || !betza_text.is_empty() {
                return Err(error(token, "the hole line has no letter or Betza string"));
            }
            for sq in squares.split([',', '.']).filter(|s| !s.is_empty()) {
                let xy = parse_square(sq, files, ranks).map_err(|e| error(sq, e))?;
                holes.insert(xy);
            }
            continue;
        }
        let mut letters = letter.chars();
        let letter = match (letters.next(), letters.next()) {
            (Some(c), None) if c.is_ascii_uppercase() => c,
            _ => {
                return Err(error(
                    token,
                    format!("piece letter '{letter}' must be one uppercase letter"),
                ))
            }
        };
        if pieces.iter().any(|p| p.letter == letter) {
            return Err(error(
                token,
                format!("piece letter '{letter}' defined twice"),
            ));
        }
        let rules = betza::compile(betza_text).map_err(|e| error(token, e.to_string()))?;
        let mut halves = squares.splitn(2, ",,");
        let list = |text: Option<&str>| -> Result<Vec<(u8, u8)>, DefinitionError> {
            text.unwrap_or("")
                .split(',')
                .filter(|s| !s.is_empty())
                .map(|sq| parse_square(sq, files, ranks).map_err(|e| error(sq, e)))
                .collect()
        };
        let white = list(halves.next())?;
        let listed_black = list(halves.next())?;
        let black = match symmetry {
            Symmetry::None => listed_black,
            sym => {
                let images: Vec<(u8, u8)> = white
                    .iter()
                    .map(|&w| sym.image(w, files, ranks).unwrap())
                    .collect();
                if let Some(&b) = listed_black.iter().find(|b| !images.contains(b)) {
                    let sq = square_name(b.0, b.1);
                    return Err(error(
                        &sq,
                        format!("black {name} square is not the image of a white one under the symmetry"),
                    ));
                }
                images
            }
        };
        pieces.push(PieceDef {
            name: name.to_string(),
            letter,
            betza: betza_text.to_string(),
            rules,
            white,
            black,
        });
    }
    if pieces.is_empty() {
        return Err(error("", "no piece lines"));
    }

    let mut occupied = BTreeSet::new();
    for p in &pieces {
        for &sq in p.white.iter().chain(&p.black) {
            let name = square_name(sq.0, sq.1);
            if holes.contains(&sq) {
                return Err(error(&name, format!("{} placed on a hole", p.name)));
            }
            if !occupied.insert(sq) {
                return Err(error(&name, "two pieces on one square"));
            }
        }
    }

    let (royal_tok, royal_val) =
        royal_token.ok_or_else(|| error("royal", "parameter 'royal' is missing"))?;
    let royal = match pieces.iter().find(|p| p.letter.to_string() == royal_val) {
        Some(p) => p,
        None => return Err(error(royal_tok, "royal letter names no piece")),
    };
    if royal.white.len() != 1 || royal.black.len() != 1 {
        return Err(error(royal_tok, "each side needs exactly one royal piece"));
    }
    let royal = royal.letter;
    let pawn = pieces
        .iter()
        .position(|p| p.letter == 'P')
        .or(if pieces[0].letter != royal {
            Some(0)
        } else {
            None
        });
    let pawn_letter = pawn.map(|i| pieces[i].letter);

    let mut promo_choice = Vec::new();
    if let Some((tok, value)) = promo_choice_token {
        for c in value.chars() {
            if !pieces.iter().any(|p| p.letter == c) {
                return Err(error(tok, format!("promotion letter '{c}' names no piece")));
            }
            if c == royal || Some(c) == pawn_letter {
                return Err(error(tok, format!("cannot promote to '{c}'")));
            }
            if !promo_choice.contains(&c) {
                promo_choice.push(c);
            }
        }
    }

    Ok(Definition {
        files,
        ranks,
        promo_zone: promo_zone as u8,
        promo_choice,
        royal,
        stalemate,
        baring,
        symmetry,
        holes: holes.into_iter().collect(),
        pieces,
        pawn,
    })
}
