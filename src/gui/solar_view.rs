//! What the browser draws for Solar Chess: the 72 kites as polygons computed from the board
//! geometry ([`crate::games::solar::geometry`]), planets, the pieces with colour and owner, each
//! seat's hand, Motherships, teams, and the legal moves of the seat to move (steps, docks, drops
//! with their recolouring choices). Everything comes from the solar rules core.

use serde_json::{json, Value};

use crate::games::solar::{Colour, Geometry, Kind, Move, Position, Status, Tile};

/// Lattice point to page coordinates: x counts half inradii (so times sqrt 3 to make the
/// hexagons regular), y quarter circumradii; the page's y grows downwards.
fn page_point((x, y): (i32, i32)) -> [f64; 2] {
    let sx = x as f64 * 3f64.sqrt();
    [(sx * 100.0).round() / 100.0, -(y as f64)]
}

/// The board's shape: every tile's name, polygon (H, S, T, S corners) and centre, and every
/// planet's name and centre.
pub fn layout() -> Value {
    let g = Geometry::get();
    let mut tiles = Vec::new();
    let mut planets: Vec<(char, [f64; 2])> = Vec::new();
    for t in 0..g.len() as u8 {
        let corners = g.corners(t);
        let pts: Vec<[f64; 2]> = corners.iter().map(|&p| page_point(p)).collect();
        let cx = pts.iter().map(|p| p[0]).sum::<f64>() / 4.0;
        let cy = pts.iter().map(|p| p[1]).sum::<f64>() / 4.0;
        let name = g.name(t);
        let planet = name.chars().next().unwrap_or('?');
        if !planets.iter().any(|(p, _)| *p == planet) {
            planets.push((planet, page_point(corners[0])));
        }
        tiles.push(json!({"name": name, "pts": pts, "c": [cx, cy], "planet": planet.to_string()}));
    }
    let planets: Vec<Value> = planets
        .into_iter()
        .map(|(p, c)| json!({"name": p.to_string(), "c": c}))
        .collect();
    json!({"tiles": tiles, "planets": planets})
}

fn kind_letter(k: Kind) -> String {
    k.letter().to_string()
}

fn colour_letter(c: Colour) -> String {
    c.letter().to_string()
}

/// The position as the page draws it: pieces by tile, hands, seats (Mothership colours, team,
/// eliminated), the seat to move and the last move.
pub fn board(pos: &Position) -> Value {
    let mut pieces = Vec::new();
    for t in Tile::all() {
        if let Some(p) = pos.piece_at(t) {
            pieces.push(json!({
                "tile": t.name(),
                "kind": kind_letter(p.kind),
                "colour": colour_letter(p.colour),
                "owner": p.owner,
            }));
        }
    }
    let seats: Vec<Value> = (0..pos.seats() as u8)
        .map(|s| {
            let ships: Vec<String> = Colour::ALL
                .into_iter()
                .filter(|&c| pos.ship_owner(c) == Some(s) && pos.ship_tile(c).is_some())
                .map(colour_letter)
                .collect();
            let hand: Vec<Value> = pos
                .hand(s)
                .entries()
                .map(
                    |(k, c, n)| json!({"kind": kind_letter(k), "colour": colour_letter(c), "n": n}),
                )
                .collect();
            json!({
                "ships": ships,
                "team": pos.team(s),
                "eliminated": pos.is_eliminated(s),
                "hand": hand,
            })
        })
        .collect();
    let last = pos.last_move().map(|m| {
        json!({
            "from": m.from().map(|t| t.name()),
            "to": m.to().map(|t| t.name()),
        })
    });
    json!({
        "kind": "solar",
        "pieces": pieces,
        "seats": seats,
        "teams": pos.teams(),
        "to_move": pos.to_move(),
        "over": pos.status() != Status::Ongoing,
        "last": last,
        "fen": pos.to_string(),
    })
}

/// Every legal move of the seat to move, typed for the page: `step` / `dock` (from, to), `drop`
/// (kind, hand colour, colour after the drop, to), `pass`, each with its text.
pub fn legal_moves(pos: &Position) -> Value {
    if pos.status() != Status::Ongoing {
        return json!([]);
    }
    let mut out = Vec::new();
    pos.legal_moves(&mut out);
    let moves: Vec<Value> = out
        .iter()
        .map(|m| {
            let text = m.to_string();
            match *m {
                Move::Step { from, to } => {
                    json!({"type": "step", "from": from.name(), "to": to.name(), "text": text})
                }
                Move::Dock { from, to } => {
                    json!({"type": "dock", "from": from.name(), "to": to.name(), "text": text})
                }
                Move::Drop {
                    kind,
                    hand,
                    colour,
                    to,
                } => json!({
                    "type": "drop", "kind": kind_letter(kind), "hand": colour_letter(hand),
                    "colour": colour_letter(colour), "to": to.name(), "text": text,
                }),
                Move::Pass => json!({"type": "pass", "text": text}),
            }
        })
        .collect();
    Value::Array(moves)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn layout_is_the_geometry() {
        let l = layout();
        let tiles = l["tiles"].as_array().unwrap();
        assert_eq!(tiles.len(), 72);
        assert_eq!(l["planets"].as_array().unwrap().len(), 19);
        // Kites of one planet share its centre as their first corner.
        let a: Vec<&Value> = tiles.iter().filter(|t| t["planet"] == "j").collect();
        assert_eq!(a.len(), 6);
        assert!(a.iter().all(|t| t["pts"][0] == a[0]["pts"][0]));
    }

    #[test]
    fn a_captured_piece_offers_one_drop_per_own_mothership_colour() {
        // duel-2: seat 1 holds the White and Gold Motherships; give it a captured Black Fighter.
        let start = Position::from_setup("duel-2").unwrap().to_string();
        let with_fk = start.replacen("hands=", "hands=1Fk", 1);
        let pos: Position = with_fk.parse().expect(&with_fk);
        assert_eq!(
            pos.hand(0).count(Kind::Fighter, Colour::Black),
            1,
            "{with_fk}"
        );
        let legal = legal_moves(&pos);
        let colours: std::collections::BTreeSet<String> = legal
            .as_array()
            .unwrap()
            .iter()
            .filter(|m| m["type"] == "drop" && m["hand"] == "k")
            .map(|m| m["colour"].as_str().unwrap().to_string())
            .collect();
        assert_eq!(colours, ["g", "w"].iter().map(|c| c.to_string()).collect());
        assert!(legal
            .as_array()
            .unwrap()
            .iter()
            .any(|m| m["text"].as_str().unwrap().starts_with("Fkg@")));
    }

    #[test]
    fn six_seat_board_and_moves() {
        let pos = Position::from_setup("six").unwrap();
        let b = board(&pos);
        assert_eq!(b["seats"].as_array().unwrap().len(), 6);
        assert_eq!(b["seats"][0]["ships"], json!(["w"]));
        assert_eq!(b["pieces"].as_array().unwrap().len(), 6, "six Motherships");
        let legal = legal_moves(&pos);
        let list = legal.as_array().unwrap();
        assert!(list.iter().any(|m| m["type"] == "drop"));
        let mut n = Vec::new();
        pos.legal_moves(&mut n);
        assert_eq!(list.len(), n.len());
    }
}
