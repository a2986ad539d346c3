//! The single-line position string and the named setups turned into positions.
//!
//! ```text
//! board=n3:Sw1,f6:Sk2 hands=2Ow2Mw2Fw/2Ok2Mk2Fk teams=1/2 turn=1 out=- clock=0 ply=0
//! ```
//!
//! - `board=`: comma-separated `tile:` + piece letter + colour letter + owner (1-based seat, or
//!   `-` for an inactive piece of an eliminated player), in tile order; `-` for an empty board.
//! - `hands=`: one hand per seat, in seat order, separated by `/`; each a run of
//!   `<count><piece><colour>` (`2Ow`), or `-` when empty. The number of hands is the number of seats.
//! - `teams=`: the teams as runs of seat digits separated by `/` (`13/24`); `1/2/3` without teams.
//! - `turn=`: the seat to move. `out=`: eliminated seats as digits, or `-`.
//! - `clock=`: consecutive plies without a capture. `ply=`: plies played so far.

use super::hand::Hand;
use super::piece::{Colour, Kind, Piece, Seat, MAX_SEATS};
use super::position::Position;
use super::setup::{find_setup, start_tile, SetupSpec, PIECES_PER_SHIP};
use super::tile::Tile;
use std::fmt;
use std::str::FromStr;

/// Why a position string (or setup name) was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PositionError {
    /// The field concerned (`board`, `hands`, ... or `position` for the whole).
    pub field: &'static str,
    /// What is wrong, for a human.
    pub message: String,
}

impl fmt::Display for PositionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "bad position string ({}): {}", self.field, self.message)
    }
}

impl std::error::Error for PositionError {}

fn err<T>(field: &'static str, message: impl Into<String>) -> Result<T, PositionError> {
    Err(PositionError {
        field,
        message: message.into(),
    })
}

const KEYS: [&str; 7] = ["board", "hands", "teams", "turn", "out", "clock", "ply"];

fn parse_seat_digit(c: char, seats: usize, field: &'static str) -> Result<Seat, PositionError> {
    match c.to_digit(10) {
        Some(d) if d >= 1 && (d as usize) <= seats => Ok(d as Seat - 1),
        _ => err(field, format!("'{c}' is not a seat number 1..{seats}")),
    }
}

fn parse_hand(text: &str, seat: usize) -> Result<Hand, PositionError> {
    let mut hand = Hand::default();
    if text == "-" {
        return Ok(hand);
    }
    let bytes: Vec<char> = text.chars().collect();
    let mut i = 0;
    while i < bytes.len() {
        let start = i;
        while i < bytes.len() && bytes[i].is_ascii_digit() {
            i += 1;
        }
        let count: u32 = match text[start..i].parse() {
            Ok(n) if (1..=99).contains(&n) => n,
            _ => {
                return err(
                    "hands",
                    format!(
                        "hand of seat {}: expected a count 1..99 at '{}'",
                        seat + 1,
                        &text[start..]
                    ),
                )
            }
        };
        let (Some(&kc), Some(&cc)) = (bytes.get(i), bytes.get(i + 1)) else {
            return err(
                "hands",
                format!(
                    "hand of seat {}: '{}' is cut short",
                    seat + 1,
                    &text[start..]
                ),
            );
        };
        let kind = match Kind::from_letter(kc) {
            Some(Kind::Mothership) => {
                return err(
                    "hands",
                    format!("hand of seat {}: a Mothership cannot be in hand", seat + 1),
                )
            }
            Some(k) => k,
            None => {
                return err(
                    "hands",
                    format!(
                        "hand of seat {}: '{kc}' is not a piece letter (O M F)",
                        seat + 1
                    ),
                )
            }
        };
        let Some(colour) = Colour::from_letter(cc) else {
            return err(
                "hands",
                format!(
                    "hand of seat {}: '{cc}' is not a colour letter (w k r u g s)",
                    seat + 1
                ),
            );
        };
        if hand.count(kind, colour) > 0 {
            return err(
                "hands",
                format!("hand of seat {}: {kc}{cc} is listed twice", seat + 1),
            );
        }
        hand.set(kind, colour, count as u8);
        i += 2;
    }
    Ok(hand)
}

impl FromStr for Position {
    type Err = PositionError;

    /// Parses a position string (see the module documentation); every rule-level inconsistency
    /// is refused with a message naming the field.
    fn from_str(s: &str) -> Result<Position, PositionError> {
        let tokens: Vec<&str> = s.split_whitespace().collect();
        if tokens.len() != KEYS.len() {
            return err(
                "position",
                format!(
                    "expected {} fields `board= hands= teams= turn= out= clock= ply=`, got {}",
                    KEYS.len(),
                    tokens.len()
                ),
            );
        }
        let mut values = [""; 7];
        for (i, (tok, key)) in tokens.iter().zip(KEYS).enumerate() {
            match tok.split_once('=') {
                Some((k, v)) if k == key => values[i] = v,
                _ => return err(key, format!("expected field `{key}=...` at '{tok}'")),
            }
        }
        let [board_s, hands_s, teams_s, turn_s, out_s, clock_s, ply_s] = values;

        let hand_texts: Vec<&str> = hands_s.split('/').collect();
        let seats = hand_texts.len();
        if !(2..=MAX_SEATS).contains(&seats) {
            return err(
                "hands",
                format!("{seats} hands given; a game has 2..{MAX_SEATS} seats"),
            );
        }
        let mut hands = [Hand::default(); MAX_SEATS];
        for (i, h) in hand_texts.iter().enumerate() {
            hands[i] = parse_hand(h, i)?;
        }

        let mut team = [u8::MAX; MAX_SEATS];
        let groups: Vec<&str> = teams_s.split('/').collect();
        for (ti, g) in groups.iter().enumerate() {
            if g.is_empty() {
                return err("teams", "empty team");
            }
            for c in g.chars() {
                let s = parse_seat_digit(c, seats, "teams")? as usize;
                if team[s] != u8::MAX {
                    return err("teams", format!("seat {} is in two teams", s + 1));
                }
                team[s] = ti as u8;
            }
        }
        if let Some(s) = (0..seats).find(|&s| team[s] == u8::MAX) {
            return err("teams", format!("seat {} is in no team", s + 1));
        }
        // Number teams by their lowest seat, so that equal positions have equal strings.
        let mut renum = [u8::MAX; MAX_SEATS];
        let mut next = 0;
        for s in 0..seats {
            if renum[team[s] as usize] == u8::MAX {
                renum[team[s] as usize] = next;
                next += 1;
            }
        }
        for t in team.iter_mut().take(seats) {
            *t = renum[*t as usize];
        }

        let mut pos = Position::empty(seats as u8, team);
        pos.hands = hands;

        if board_s != "-" {
            for item in board_s.split(',') {
                let Some((tile_s, piece_s)) = item.split_once(':') else {
                    return err("board", format!("expected `tile:piece` at '{item}'"));
                };
                let Some(tile) = Tile::from_name(tile_s) else {
                    return err("board", format!("'{tile_s}' is not a tile"));
                };
                let chars: Vec<char> = piece_s.chars().collect();
                if chars.len() != 3 {
                    return err(
                        "board",
                        format!("'{item}': a piece is type, colour and owner, like Sw1"),
                    );
                }
                let Some(kind) = Kind::from_letter(chars[0]) else {
                    return err(
                        "board",
                        format!("'{item}': '{}' is not a piece letter (S O M F)", chars[0]),
                    );
                };
                let Some(colour) = Colour::from_letter(chars[1]) else {
                    return err(
                        "board",
                        format!(
                            "'{item}': '{}' is not a colour letter (w k r u g s)",
                            chars[1]
                        ),
                    );
                };
                let owner = if chars[2] == '-' {
                    None
                } else {
                    Some(parse_seat_digit(chars[2], seats, "board")?)
                };
                if pos.board[tile.index()].is_some() {
                    return err("board", format!("tile {tile_s} is given twice"));
                }
                if kind == Kind::Mothership {
                    if owner.is_none() {
                        return err("board", format!("the Mothership on {tile_s} has no owner"));
                    }
                    if pos
                        .board
                        .iter()
                        .flatten()
                        .any(|p| p.kind == Kind::Mothership && p.colour == colour)
                    {
                        return err("board", format!("two {} Motherships", colour.name()));
                    }
                }
                pos.board[tile.index()] = Some(Piece {
                    kind,
                    colour,
                    owner,
                });
            }
        }

        let turn = match turn_s.chars().collect::<Vec<_>>().as_slice() {
            [c] => parse_seat_digit(*c, seats, "turn")?,
            _ => {
                return err(
                    "turn",
                    format!("'{turn_s}' is not a seat number 1..{seats}"),
                )
            }
        };
        let mut out = 0u8;
        if out_s != "-" {
            for c in out_s.chars() {
                let s = parse_seat_digit(c, seats, "out")?;
                if out & (1 << s) != 0 {
                    return err("out", format!("seat {} listed twice", s + 1));
                }
                out |= 1 << s;
            }
        }
        let Ok(clock) = clock_s.parse::<u32>() else {
            return err("clock", format!("'{clock_s}' is not a number of plies"));
        };
        let Ok(ply) = ply_s.parse::<u32>() else {
            return err("ply", format!("'{ply_s}' is not a number of plies"));
        };
        pos.to_move = turn;
        pos.no_capture = clock;
        pos.ply = ply;
        pos.finish();

        let alive = pos.teams_with_ships();
        if alive == 0 {
            return err("board", "no Mothership on the board");
        }
        for s in 0..seats as Seat {
            let team_alive = alive & (1 << pos.team(s)) != 0;
            if team_alive == (out & (1 << s) != 0) {
                return err(
                    "out",
                    if team_alive {
                        format!(
                            "seat {} is listed as eliminated but its team has a Mothership",
                            s + 1
                        )
                    } else {
                        format!("seat {} has no Mothership in its team and must be listed as eliminated", s + 1)
                    },
                );
            }
            if !pos.has_ship(s) && !pos.hand(s).is_empty() {
                return err(
                    "hands",
                    format!(
                        "seat {} controls no Mothership, so its hand must be empty",
                        s + 1
                    ),
                );
            }
        }
        if let Some(p) = pos
            .board
            .iter()
            .flatten()
            .find(|p| p.owner.is_some_and(|o| pos.is_eliminated(o)))
        {
            return err(
                "board",
                format!("a piece {p} belongs to an eliminated seat (write its owner as -)"),
            );
        }
        if pos.is_eliminated(turn) && !pos.is_over() {
            return err(
                "turn",
                format!("seat {} is eliminated and cannot be to move", turn + 1),
            );
        }
        Ok(pos)
    }
}

impl fmt::Display for Position {
    /// The canonical position string.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let pieces: Vec<String> = Tile::all()
            .filter_map(|t| self.piece_at(t).map(|p| format!("{t}:{p}")))
            .collect();
        let board = if pieces.is_empty() {
            "-".to_string()
        } else {
            pieces.join(",")
        };
        let hands: Vec<String> = (0..self.seats() as Seat)
            .map(|s| {
                let h = self.hand(s);
                if h.is_empty() {
                    "-".to_string()
                } else {
                    h.entries()
                        .map(|(k, c, n)| format!("{n}{}{}", k.letter(), c.letter()))
                        .collect()
                }
            })
            .collect();
        let teams: Vec<String> = (0..self.teams() as u8)
            .map(|t| {
                (0..self.seats() as Seat)
                    .filter(|&s| self.team(s) == t)
                    .map(|s| char::from(b'1' + s))
                    .collect()
            })
            .collect();
        let out: String = (0..self.seats() as Seat)
            .filter(|&s| self.is_eliminated(s))
            .map(|s| char::from(b'1' + s))
            .collect();
        write!(
            f,
            "board={board} hands={} teams={} turn={} out={} clock={} ply={}",
            hands.join("/"),
            teams.join("/"),
            self.to_move() + 1,
            if out.is_empty() { "-" } else { &out },
            self.no_capture_plies(),
            self.ply()
        )
    }
}

impl Position {
    /// The starting position of a named setup (`duel`, `six`, `teams-2x2`, ...).
    pub fn from_setup(name: &str) -> Result<Position, PositionError> {
        match find_setup(name) {
            Some(spec) => Position::from_spec(spec),
            None => err(
                "position",
                format!(
                    "unknown setup '{name}' (known: {})",
                    super::setup::setup_names().collect::<Vec<_>>().join(", ")
                ),
            ),
        }
    }

    /// The starting position described by a setup table row.
    pub fn from_spec(spec: &SetupSpec) -> Result<Position, PositionError> {
        let seats = spec.ships.len();
        let mut pieces = Vec::new();
        let mut hands = Vec::new();
        let mut white = None;
        for (s, colours) in spec.ships.iter().enumerate() {
            let mut hand = String::new();
            for c in colours.chars() {
                let Some(colour) = Colour::from_letter(c) else {
                    return err("position", format!("setup {}: bad colour '{c}'", spec.name));
                };
                if colour == Colour::White {
                    white = Some(s);
                }
                let tile = Tile::from_name(start_tile(colour)).expect("start tiles are tiles");
                pieces.push((tile, format!("{tile}:S{c}{}", s + 1)));
            }
            for k in Kind::IN_HAND {
                for c in colours.chars() {
                    hand.push_str(&format!("{PIECES_PER_SHIP}{}{c}", k.letter()));
                }
            }
            hands.push(if hand.is_empty() {
                "-".to_string()
            } else {
                hand
            });
        }
        pieces.sort();
        let board: Vec<String> = pieces.into_iter().map(|(_, p)| p).collect();
        let teams: Vec<String> = if spec.teams.is_empty() {
            (1..=seats).map(|s| s.to_string()).collect()
        } else {
            spec.teams.iter().map(|t| t.to_string()).collect()
        };
        format!(
            "board={} hands={} teams={} turn={} out=- clock=0 ply=0",
            board.join(","),
            hands.join("/"),
            teams.join("/"),
            white.unwrap_or(0) + 1
        )
        .parse()
    }

    /// A position from a setup name or a position string.
    pub fn from_setup_or_string(text: &str) -> Result<Position, PositionError> {
        let text = text.trim();
        if text.contains('=') {
            text.parse()
        } else {
            Position::from_setup(text)
        }
    }
}
