//! Interactive Diagram definitions (H. G. Muller's format on the Chess Variant Pages) as people
//! write them: `key=value` parameters, a `hole::::sq,sq,...` line and piece lines
//! `name:letter:betza:image:squares[:hand]`, all separated by whitespace.
//!
//! Every parameter of the Diagram is recognised: the ones that only change its looks are accepted
//! and ignored, the rule parameters are implemented, and the few rule parameters that are not are
//! refused with their name. A piece line may leave its letter empty (the name's first letter), its
//! Betza string empty (the Diagram's default move for that name), give square ranges (`a2-h2`),
//! black squares after an empty entry (`,,`) and a sixth field with the number of such pieces each
//! side has in hand.
//!
//! The first `maxPromote` pieces promote; without `maxPromote`, the first piece promotes if it never
//! moves backwards (a pawn), else a pawn-like piece lettered `P`. See `docs/spider.md` for every
//! rule as implemented.

use super::betza::{self, MoveRule, Style};
use super::square::{file_index, square_name, MAX_SIDE};
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

/// Where captured pieces go (`holdingsType`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Holdings {
    /// They leave the game (`holdingsType=0`, the default).
    None,
    /// They go to the hand of the side that lost them (`holdingsType=1`), e.g. to be promoted to
    /// again with `*` in `promoChoice` (Grand Chess).
    Owner,
    /// They change sides and go to the capturer's hand (`holdingsType=-1`), to be dropped
    /// (Crazyhouse, Shogi).
    Capturer,
}

/// One entry of `promoChoice`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PromoChoice {
    /// The piece letter; the promoting piece's own letter means it may stay unpromoted.
    pub letter: char,
    /// Only this many ranks from the far end (a digit after the letter); 0: the whole zone.
    pub depth: u8,
    /// Only with such a piece in the promoting side's hand, which the promotion takes (`*`).
    pub from_hand: bool,
    /// Not on the last rank (`!`).
    pub not_last: bool,
}

/// A piece type as defined by one piece line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PieceDef {
    /// Its name (`spider`).
    pub name: String,
    /// Its uppercase letter (`S`); Black's pieces use the lowercase letter.
    pub letter: char,
    /// The Betza string it was compiled from (the default for its name if the line left it empty).
    pub betza: String,
    /// The compiled move rules, White's view.
    pub rules: Vec<MoveRule>,
    /// White's start squares (file, rank), 0-based.
    pub white: Vec<(u8, u8)>,
    /// Black's start squares, derived by the symmetry (or listed, without one).
    pub black: Vec<(u8, u8)>,
    /// How many each side has in hand at the start (the sixth field).
    pub hand: u8,
}

/// A fully checked Interactive Diagram definition.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Definition {
    /// Number of files (columns).
    pub files: u8,
    /// Number of ranks (rows).
    pub ranks: u8,
    /// Number of ranks at the far end where the promoting pieces promote.
    pub promo_zone: u8,
    /// Letters of the pieces a promotion may give (from `promoChoice` or its default), without
    /// repeats and without the promoting pieces' own letters.
    pub promo_choice: Vec<char>,
    /// The parsed `promoChoice` entries (or the default's), in order, without repeats.
    pub promotions: Vec<PromoChoice>,
    /// Number of leading piece types that promote (`maxPromote`).
    pub max_promote: u8,
    /// Shogi-style promotion: a promoting piece turns into the piece defined this many lines later
    /// (`promoOffset`); 0 for chess-style promotion by `promoChoice`.
    pub promo_offset: u8,
    /// Letter of the royal piece.
    pub royal: char,
    /// Stalemate rule.
    pub stalemate: StalemateRule,
    /// Whether a bare king loses (`baring=0`).
    pub baring: bool,
    /// How Black's setup is derived.
    pub symmetry: Symmetry,
    /// Where captured pieces go.
    pub holdings: Holdings,
    /// Whether Black's castling moves are mirrored left-right against the symmetry (`castleFlip`).
    pub castle_flip: bool,
    /// The holes, sorted, without repeats.
    pub holes: Vec<(u8, u8)>,
    /// The piece types, in definition order.
    pub pieces: Vec<PieceDef>,
    /// Index of the first promoting piece (the pawn) in `pieces`, if the variant has one.
    pub pawn: Option<usize>,
    /// Indices of every promoting piece type.
    pub promoting: Vec<usize>,
}

impl Definition {
    /// Whether promotions take pieces from the hand (`*` in `promoChoice`): then the hand is a
    /// reservoir for promotions and nothing is dropped.
    pub fn promotes_from_hand(&self) -> bool {
        self.promotions.iter().any(|c| c.from_hand)
    }

    /// Whether pieces in hand can be dropped on the board: some piece starts in hand or captures go
    /// to a hand, and promotions do not use the hand.
    pub fn has_drops(&self) -> bool {
        !self.promotes_from_hand()
            && (self.holdings != Holdings::None || self.pieces.iter().any(|p| p.hand > 0))
    }
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

/// Parameters that only change how the Diagram looks or which page elements it drives; accepted
/// and ignored.
pub const DISPLAY_KEYS: &[&str] = &[
    "graphicsDir",
    "graphicsType",
    "squareSize",
    "whitePrefix",
    "blackPrefix",
    "whiteColor",
    "blackColor",
    "lightShade",
    "darkShade",
    "startShade",
    "holeColor",
    "holeShade",
    "rimColor",
    "coordColor",
    "borderColor",
    "shades",
    "markers",
    "useMarkers",
    "coordinates",
    "satellite",
    "title",
    "hideInfo",
    "hideLegend",
    "autoPlay",
    "pieceSet",
];

/// Rule parameters of the Diagram this loader does not implement: refused by name.
pub const UNSUPPORTED_KEYS: &[&str] = &[
    "captureMatrix",
    "shuffle",
    "lionTrading",
    "promoCapt",
    "dropZone",
    "ironPieces",
    "nrOfPly",
    "repDraw",
];

/// The Interactive Diagram's move for a piece line that leaves its Betza string empty, by the
/// piece's name (case does not matter).
pub fn default_move(name: &str) -> Option<&'static str> {
    Some(match name.to_ascii_lowercase().as_str() {
        "pawn" => "fmWfceFifmnD",
        "knight" => "N",
        "bishop" => "B",
        "rook" => "R",
        "queen" => "Q",
        "king" => "KisO2",
        "archbishop" | "cardinal" | "princess" | "janus" => "BN",
        "chancellor" | "marshall" | "marshal" | "empress" => "RN",
        "amazon" => "QN",
        "ferz" | "fers" | "met" => "F",
        "wazir" => "W",
        "alfil" => "A",
        "dabbaba" | "dabbabah" => "D",
        "camel" => "C",
        "zebra" => "Z",
        "commoner" | "man" | "mann" => "K",
        "nightrider" => "NN",
        "grasshopper" => "gQ",
        "cannon" => "mRcpR",
        "vao" => "mBcpB",
        "champion" => "WAD",
        "wizard" => "CF",
        "centaur" => "KN",
        _ => return None,
    })
}

fn number(token: &str, value: &str, lo: u32, hi: u32) -> Result<u32, DefinitionError> {
    match value.parse::<u32>() {
        Ok(n) if (lo..=hi).contains(&n) => Ok(n),
        _ => Err(error(token, format!("expected a number from {lo} to {hi}"))),
    }
}

/// The board geometry square names are read against.
#[derive(Clone, Copy)]
struct Board {
    files: u8,
    ranks: u8,
    first_rank: u8,
}

impl Board {
    /// A square name (`a2`; with `firstRank=0`, `a0` is the first rank).
    fn square(&self, text: &str) -> Result<(u8, u8), DefinitionError> {
        let mut chars = text.chars();
        let file = chars.next().and_then(file_index);
        let digits: &str = chars.as_str();
        let rank = if !digits.is_empty()
            && digits.len() <= 3
            && digits.bytes().all(|b| b.is_ascii_digit())
            && !(digits.len() > 1 && digits.starts_with('0'))
        {
            digits.parse::<u32>().ok()
        } else {
            None
        };
        match (file, rank) {
            (Some(x), Some(r)) if r >= self.first_rank as u32 => {
                let y = r - self.first_rank as u32;
                if x < self.files && y < self.ranks as u32 {
                    Ok((x, y as u8))
                } else {
                    Err(error(text, format!("square '{text}' is off the board")))
                }
            }
            (Some(_), Some(_)) => Err(error(text, format!("square '{text}' is off the board"))),
            _ => Err(error(text, format!("'{text}' is not a square name"))),
        }
    }

    /// A comma-separated square list with ranges (`a2-h2`, `c1-c4`).
    fn squares(&self, text: &str) -> Result<Vec<(u8, u8)>, DefinitionError> {
        let mut out = Vec::new();
        for item in text.split(',').filter(|s| !s.is_empty()) {
            match item.split_once('-') {
                None => out.push(self.square(item)?),
                Some((a, b)) => {
                    let (p, q) = (self.square(a)?, self.square(b)?);
                    if p.1 == q.1 {
                        let (lo, hi) = (p.0.min(q.0), p.0.max(q.0));
                        out.extend((lo..=hi).map(|x| (x, p.1)));
                    } else if p.0 == q.0 {
                        let (lo, hi) = (p.1.min(q.1), p.1.max(q.1));
                        out.extend((lo..=hi).map(|y| (p.0, y)));
                    } else {
                        return Err(error(
                            item,
                            "a square range must run along one rank or one file",
                        ));
                    }
                }
            }
        }
        Ok(out)
    }
}

/// The parsed `promoChoice` value.
fn promo_choices(token: &str, value: &str) -> Result<Vec<PromoChoice>, DefinitionError> {
    let mut out: Vec<PromoChoice> = Vec::new();
    let (mut hand, mut not_last) = (false, false);
    let chars: Vec<char> = value.chars().collect();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        i += 1;
        match c {
            '*' => hand = true,
            '!' => not_last = true,
            c if c.is_ascii_alphabetic() => {
                let start = i;
                while i < chars.len() && chars[i].is_ascii_digit() {
                    i += 1;
                }
                let depth = if i > start {
                    let d: String = chars[start..i].iter().collect();
                    match d.parse::<u8>() {
                        Ok(n) if (1..=MAX_SIDE).contains(&n) => n,
                        _ => return Err(error(token, format!("bad zone depth '{d}' after '{c}'"))),
                    }
                } else {
                    0
                };
                let letter = c.to_ascii_uppercase();
                if !out.iter().any(|p| p.letter == letter) {
                    out.push(PromoChoice {
                        letter,
                        depth,
                        from_hand: hand,
                        not_last,
                    });
                }
                hand = false;
                not_last = false;
            }
            c => {
                return Err(error(
                    token,
                    format!("'{c}' in promoChoice is neither a piece letter nor * or !"),
                ))
            }
        }
    }
    if hand || not_last {
        return Err(error(
            token,
            "promoChoice ends with * or ! without a letter",
        ));
    }
    Ok(out)
}

/// Whether a piece never moves backwards (and can move forwards): a pawn, that must promote.
fn pawn_like(rules: &[MoveRule]) -> bool {
    rules.iter().all(|r| r.dy >= 0) && rules.iter().any(|r| r.dy > 0)
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
    let mut files = 8u8;
    let mut ranks = 8u8;
    let mut promo_zone = None;
    let mut promo_choice_token = None;
    let mut max_promote = None;
    let mut promo_offset = 0u8;
    let mut royal_token = None;
    let mut stalemate = StalemateRule::Draw;
    let mut baring = false;
    let mut symmetry = Symmetry::Mirror;
    let mut holdings = Holdings::None;
    let mut first_rank = 1u8;
    let mut castle_flip = false;
    let mut seen_keys = BTreeSet::new();
    for &(token, key, value) in &params {
        if !seen_keys.insert(key) {
            return Err(error(token, format!("parameter '{key}' given twice")));
        }
        match key {
            "files" => files = number(token, value, 1, MAX_SIDE as u32)? as u8,
            "ranks" => ranks = number(token, value, 2, MAX_SIDE as u32)? as u8,
            "promoZone" => promo_zone = Some(number(token, value, 1, MAX_SIDE as u32)? as u8),
            "promoChoice" => promo_choice_token = Some((token, value)),
            "maxPromote" => max_promote = Some((token, number(token, value, 0, 64)? as usize)),
            "promoOffset" => promo_offset = number(token, value, 0, 63)? as u8,
            "royal" => royal_token = Some((token, value)),
            "firstRank" => first_rank = number(token, value, 0, 1)? as u8,
            "castleFlip" => castle_flip = number(token, value, 0, 1)? == 1,
            "holdingsType" => {
                holdings = match value {
                    "0" => Holdings::None,
                    "1" => Holdings::Owner,
                    "-1" => Holdings::Capturer,
                    _ => return Err(error(token, "holdingsType must be 0, 1 or -1")),
                }
            }
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
            k if DISPLAY_KEYS.contains(&k) => {}
            k if UNSUPPORTED_KEYS.contains(&k) => {
                return Err(error(
                    token,
                    format!("the rule parameter '{k}' is not supported"),
                ))
            }
            _ => return Err(error(token, format!("unknown parameter '{key}'"))),
        }
    }
    let promo_zone = promo_zone.unwrap_or(1);
    if promo_zone >= ranks {
        return Err(error(
            "promoZone",
            "promotion zone must be smaller than the board",
        ));
    }
    let board = Board {
        files,
        ranks,
        first_rank,
    };

    let mut holes = BTreeSet::new();
    let mut pieces: Vec<PieceDef> = Vec::new();
    for &token in &lines {
        let parts: Vec<&str> = token.split(':').collect();
        if parts.len() != 5 && parts.len() != 6 {
            return Err(error(
                token,
                format!(
                    "expected name:letter:betza:image:squares[:hand] (5 or 6 fields), got {}",
                    parts.len()
                ),
            ));
        }
        let (name, letter, betza_text, squares) = (parts[0], parts[1], parts[2], parts[4]);
        if name == "hole" {
            if !letter.is_empty() || !betza_text.is_empty() || parts.len() == 6 {
                return Err(error(
                    token,
                    "the hole line has no letter, Betza string or hand",
                ));
            }
            for sq in squares.split([',', '.']).filter(|s| !s.is_empty()) {
                holes.extend(board.squares(sq)?);
            }
            continue;
        }
        if name.is_empty() {
            return Err(error(token, "a piece line needs a name"));
        }
        let mut letters = if letter.is_empty() {
            name.chars()
        } else {
            letter.chars()
        };
        let letter = match (letters.next(), letter.chars().nth(1)) {
            (Some(c), None) if c.is_ascii_alphabetic() => c.to_ascii_uppercase(),
            _ => {
                return Err(error(
                    token,
                    format!(
                    "piece letter '{letter}' must be one letter (or empty for the name's first)"
                ),
                ))
            }
        };
        if pieces.iter().any(|p| p.letter == letter) {
            return Err(error(
                token,
                format!("piece letter '{letter}' defined twice"),
            ));
        }
        let betza_text = if betza_text.is_empty() {
            default_move(name).ok_or_else(|| {
                error(
                    token,
                    format!("no default move for a piece named '{name}': give its Betza string"),
                )
            })?
        } else {
            betza_text
        };
        let rules = betza::compile(betza_text).map_err(|e| error(token, e.to_string()))?;
        let hand = match parts.get(5) {
            None | Some(&"") => 0,
            Some(n) => number(token, n, 0, 64)
                .map_err(|e| error(token, format!("hand count '{n}': {}", e.reason)))?
                as u8,
        };
        let mut halves = squares.splitn(2, ",,");
        let white = board.squares(halves.next().unwrap_or(""))?;
        let listed_black = board.squares(halves.next().unwrap_or(""))?;
        let black = match symmetry {
            Symmetry::None => listed_black,
            sym => {
                let images: Vec<(u8, u8)> = white
                    .iter()
                    .map(|&w| sym.image(w, files, ranks).expect("a symmetry"))
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
            hand,
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

    let royal_index = match royal_token {
        None => pieces.len() - 1,
        Some((tok, val)) => {
            let by_number = val
                .parse::<usize>()
                .ok()
                .filter(|&n| n >= 1 && n <= pieces.len())
                .map(|n| n - 1);
            let by_letter = (val.chars().count() == 1)
                .then(|| {
                    pieces
                        .iter()
                        .position(|p| p.letter.to_string() == val.to_ascii_uppercase())
                })
                .flatten();
            by_number
                .or(by_letter)
                .ok_or_else(|| error(tok, "royal names no piece (give its letter or number)"))?
        }
    };
    let royal_tok = royal_token.map_or("royal", |t| t.0);
    let royal_def = &pieces[royal_index];
    if royal_def.white.len() != 1 || royal_def.black.len() != 1 || royal_def.hand != 0 {
        return Err(error(
            royal_tok,
            format!(
                "each side needs exactly one royal piece ({}) on the board",
                royal_def.name
            ),
        ));
    }
    let royal = royal_def.letter;
    for p in &pieces {
        if p.letter != royal && p.rules.iter().any(|r| r.style == Style::Castle) {
            return Err(error(
                &p.name,
                "castling (O) is supported on the royal piece only",
            ));
        }
    }

    let promoting: Vec<usize> = match max_promote {
        Some((tok, n)) => {
            if n > pieces.len() || (0..n).contains(&royal_index) {
                return Err(error(
                    tok,
                    "maxPromote must count leading piece types that are not royal",
                ));
            }
            (0..n).collect()
        }
        None if royal_index != 0 && pawn_like(&pieces[0].rules) => vec![0],
        None => pieces
            .iter()
            .position(|p| p.letter == 'P' && pawn_like(&p.rules))
            .filter(|&k| k != royal_index)
            .into_iter()
            .collect(),
    };
    let is_promoting = |letter: char| promoting.iter().any(|&k| pieces[k].letter == letter);

    if promo_offset > 0 {
        if let Some((tok, _)) = promo_choice_token {
            return Err(error(
                tok,
                "promoChoice and promoOffset (Shogi-style promotion) cannot be combined",
            ));
        }
        for &k in &promoting {
            let target = k + promo_offset as usize;
            if target >= pieces.len() || target == royal_index {
                return Err(error(
                    "promoOffset",
                    format!(
                        "{} would promote to piece number {}, which is not a non-royal piece",
                        pieces[k].name,
                        target + 1
                    ),
                ));
            }
        }
    }
    let promotions: Vec<PromoChoice> = if promo_offset > 0 {
        Vec::new()
    } else if let Some((tok, value)) = promo_choice_token {
        let choices = promo_choices(tok, value)?;
        for ch in &choices {
            if !pieces.iter().any(|p| p.letter == ch.letter) {
                return Err(error(
                    tok,
                    format!("promotion letter '{}' names no piece", ch.letter),
                ));
            }
            if ch.letter == royal {
                return Err(error(tok, format!("cannot promote to '{}'", ch.letter)));
            }
            if ch.depth > promo_zone {
                return Err(error(
                    tok,
                    format!(
                        "zone depth {} for '{}' is deeper than promoZone={promo_zone}",
                        ch.depth, ch.letter
                    ),
                ));
            }
        }
        choices
    } else {
        let mut letters: Vec<char> = ['Q', 'N', 'R', 'B']
            .into_iter()
            .filter(|&c| c != royal && !is_promoting(c) && pieces.iter().any(|p| p.letter == c))
            .collect();
        if letters.is_empty() {
            letters = pieces
                .iter()
                .map(|p| p.letter)
                .filter(|&c| c != royal && !is_promoting(c))
                .collect();
        }
        letters
            .into_iter()
            .map(|letter| PromoChoice {
                letter,
                depth: 0,
                from_hand: false,
                not_last: false,
            })
            .collect()
    };
    let promo_choice = promotions
        .iter()
        .map(|c| c.letter)
        .filter(|&c| !is_promoting(c))
        .collect();
    let pawn = promoting.first().copied();

    Ok(Definition {
        files,
        ranks,
        promo_zone,
        promo_choice,
        promotions,
        max_promote: promoting.len() as u8,
        promo_offset,
        royal,
        stalemate,
        baring,
        symmetry,
        holdings,
        castle_flip,
        holes: holes.into_iter().collect(),
        pieces,
        pawn,
        promoting,
    })
}
