//! What the browser draws for Spider-Chess and every loaded Interactive Diagram variant: the board
//! shape (files, ranks, holes), the pieces, each side's pieces in hand (variants with hands),
//! each piece type's letter and name, check, the last move, the FEN, and the legal moves of the
//! side to move (for the targets shown when a piece, on the board or in hand, is picked).
//! Everything comes from the spider rules core.

use serde_json::{json, Value};

use crate::games::spider::{Color, Position};

/// The colour index used on the page: 0 White, 1 Black.
fn colour_index(c: Color) -> u8 {
    match c {
        Color::White => 0,
        Color::Black => 1,
    }
}

/// The board as the page draws it: shape, pieces, each side's hand (`null` in a variant without
/// hands), piece types, side to move, check, last move (`last` = from and to squares as 0-based
/// (file, rank)), FEN.
pub fn board(pos: &Position, last: Option<((u8, u8), (u8, u8))>) -> Value {
    let v = pos.variant();
    let (files, ranks) = (v.files(), v.ranks());
    let mut holes = Vec::new();
    let mut pieces = Vec::new();
    let royal = v.definition().royal;
    let mut check = Value::Null;
    let in_check = pos.in_check();
    for y in 0..ranks {
        for x in 0..files {
            if v.is_hole(x, y) {
                holes.push(json!([x, y]));
                continue;
            }
            if let Some((kind, c)) = pos.piece_at(x, y) {
                let letter = v.pieces()[kind as usize].letter;
                pieces.push(json!([x, y, letter.to_string(), colour_index(c)]));
                if in_check && letter == royal && c == pos.side_to_move() {
                    check = json!([x, y]);
                }
            }
        }
    }
    let hands = v.has_hands().then(|| {
        [Color::White, Color::Black]
            .map(|c| {
                (0..v.pieces().len() as u8)
                    .filter(|&k| pos.in_hand(c, k) > 0)
                    .map(|k| json!({"letter": v.pieces()[k as usize].letter.to_string(), "n": pos.in_hand(c, k)}))
                    .collect::<Vec<_>>()
            })
    });
    let types: Vec<Value> = v
        .pieces()
        .iter()
        .map(|p| json!({"letter": p.letter.to_string(), "name": p.name, "betza": p.betza}))
        .collect();
    json!({
        "kind": "spider",
        "variant": v.name(),
        "files": files,
        "ranks": ranks,
        "holes": holes,
        "pieces": pieces,
        "hands": hands,
        "types": types,
        "royal": royal.to_string(),
        "side": colour_index(pos.side_to_move()),
        "check": check,
        "last": last.map(|(a, b)| json!([[a.0, a.1], [b.0, b.1]])),
        "fen": pos.to_fen(),
    })
}

/// Every legal move of the side to move: squares, promotion letter, the letter of a piece dropped
/// from hand (`drop`; its `from` is its target), and the move's text (what the page sends back;
/// the rules core checks it again).
pub fn legal_moves(pos: &Position) -> Value {
    if pos.outcome().is_some() {
        return json!([]);
    }
    let v = pos.variant();
    let moves: Vec<Value> = pos
        .legal_moves()
        .into_iter()
        .map(|m| {
            let (a, b) = pos.move_squares(m);
            let promo = m
                .promotion()
                .map(|k| v.pieces()[k as usize].letter.to_string());
            let drop = m
                .drop_kind()
                .map(|k| v.pieces()[k as usize].letter.to_string());
            json!({"from": [a.0, a.1], "to": [b.0, b.1], "promo": promo, "drop": drop, "text": pos.move_text(m)})
        })
        .collect();
    Value::Array(moves)
}

/// The squares of a move text in `pos` before it is played (for the last-move marker).
pub fn move_squares(pos: &Position, text: &str) -> Option<((u8, u8), (u8, u8))> {
    pos.parse_move(text).ok().map(|m| pos.move_squares(m))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::spider::Variant;

    #[test]
    fn board_has_every_hole_piece_and_type() {
        let v = Variant::spider_chess();
        let pos = Position::startpos(&v);
        let b = board(&pos, None);
        assert_eq!(b["files"], 25);
        assert_eq!(b["ranks"], 19);
        let holes = b["holes"].as_array().unwrap().len();
        assert_eq!(holes + v.playable_count(), 25 * 19);
        assert_eq!(b["pieces"].as_array().unwrap().len(), 112);
        assert_eq!(b["types"].as_array().unwrap().len(), v.pieces().len());
        assert!(b["check"].is_null());
        let legal = legal_moves(&pos);
        assert_eq!(legal.as_array().unwrap().len(), 307, "perft 1 is 307");
        assert!(legal
            .as_array()
            .unwrap()
            .iter()
            .any(|m| m["text"] == "m2m5" && m["from"] == json!([12, 1])));
        assert_eq!(move_squares(&pos, "m2m5"), Some(((12, 1), (12, 4))));
        assert_eq!(move_squares(&pos, "m2m9"), None);
        assert!(b["hands"].is_null(), "Spider-Chess has no hands");
    }

    #[test]
    fn hands_and_drops_of_a_variant_with_pieces_in_hand() {
        let v = Variant::from_definition(
            "files=6 ranks=6 holdingsType=-1 royal=K king:K:K:king:a1 rook:R:R:rook:f1 \
             knight:N:N:knight::1",
        )
        .unwrap();
        let v = std::sync::Arc::new(v);
        let mut pos = Position::startpos(&v);
        let b = board(&pos, None);
        assert_eq!(
            b["hands"],
            json!([[{"letter": "N", "n": 1}], [{"letter": "N", "n": 1}]])
        );
        let legal = legal_moves(&pos);
        let drops: Vec<&Value> = legal
            .as_array()
            .unwrap()
            .iter()
            .filter(|m| m["drop"] == "N")
            .collect();
        // 36 squares, 4 occupied (both kings and rooks).
        assert_eq!(drops.len(), 32);
        let c3 = drops.iter().find(|m| m["text"] == "N@c3").unwrap();
        assert_eq!((&c3["from"], &c3["to"]), (&json!([2, 2]), &json!([2, 2])));
        assert!(legal
            .as_array()
            .unwrap()
            .iter()
            .any(|m| m["text"] == "f1f6" && m["drop"].is_null()));
        pos.play("N@c3").unwrap();
        assert_eq!(board(&pos, None)["hands"][0], json!([]));
        assert_eq!(move_squares(&pos, "N@c4"), Some(((2, 3), (2, 3))));
    }
}
