//! Spider-Chess for the referee: the spider rules core ([`crate::games::spider`]) behind
//! [`RefereeGame`]. The rules core parses and checks every move and decides the result.
//!
//! Besides Spider-Chess, the referee plays any variant loaded from an Interactive Diagram
//! definition (`orrery match --variant FILE`): [`register_variant`] makes it known under its name
//! (the setup), and its games carry the definition in their records, so that `orrery replay`
//! replays them from the record alone.

use std::sync::{Arc, Mutex, OnceLock};

use serde_json::{json, Value};

use crate::games::spider::{Color, Move, Position, Variant};

use super::game_adapter::{Outcome, RefereeGame, Refusal};

/// A loaded variant the referee knows: its name, rules and definition text.
#[derive(Clone)]
struct Loaded {
    name: String,
    variant: Arc<Variant>,
    definition: String,
}

/// The variants loaded in this process (by `--variant` or from records).
fn registry() -> &'static Mutex<Vec<Loaded>> {
    static REGISTRY: OnceLock<Mutex<Vec<Loaded>>> = OnceLock::new();
    REGISTRY.get_or_init(|| Mutex::new(Vec::new()))
}

/// Loads an Interactive Diagram definition as a spider-chess setup named `name` (a later
/// definition of the same name replaces the earlier one). Errors name the offending token.
pub fn register_variant(name: &str, definition: &str) -> Result<(), String> {
    if name == "spider-chess" {
        return Err("the name spider-chess is taken by the built-in variant".into());
    }
    let variant = Variant::from_definition(definition)
        .map_err(|e| format!("variant {name}: {e}"))?
        .with_name(name);
    let mut list = registry().lock().map_err(|_| "variant registry poisoned")?;
    list.retain(|l| l.name != name);
    list.push(Loaded {
        name: name.to_string(),
        variant: Arc::new(variant),
        definition: definition.to_string(),
    });
    Ok(())
}

/// Registers the variant a game record carries (its `extra` holds the definition), so that the
/// record replays without the definition file.
pub fn register_recorded(extra: &Value) -> Result<(), String> {
    match (extra.get("variant"), extra.get("definition")) {
        (Some(Value::String(name)), Some(Value::String(text))) => register_variant(name, text),
        _ => Ok(()),
    }
}

/// The rules of setup `name`: Spider-Chess, or a variant loaded with [`register_variant`].
pub fn setup_variant(name: &str) -> Result<Arc<Variant>, String> {
    if name == "spider-chess" {
        return Ok(Variant::spider_chess());
    }
    Ok(lookup(name)?.variant)
}

fn lookup(name: &str) -> Result<Loaded, String> {
    let list = registry().lock().map_err(|_| "variant registry poisoned")?;
    list.iter()
        .find(|l| l.name == name)
        .cloned()
        .ok_or_else(|| {
            let known: Vec<&str> = list.iter().map(|l| l.name.as_str()).collect();
            format!(
                "spider-chess: unknown setup {name:?} (load it with --variant FILE; loaded: {})",
                if known.is_empty() {
                    "none".to_string()
                } else {
                    known.join(", ")
                }
            )
        })
}

/// A Spider-Chess (or loaded variant) game as the referee keeps it.
#[derive(Clone)]
pub struct SpiderGame {
    pos: Position,
    start_fen: String,
    standard: bool,
    moves: Vec<String>,
    /// The loaded variant's name and definition (for the record), if not Spider-Chess.
    loaded: Option<(String, String)>,
}

impl SpiderGame {
    /// A Spider-Chess game from the standard start, or from `fen` if given.
    pub fn new(fen: Option<&str>) -> Result<Self, String> {
        Self::with_variant(Variant::spider_chess(), fen)
    }

    /// A game of any loaded Interactive Diagram variant, from its start or from `fen`.
    pub fn with_variant(variant: Arc<Variant>, fen: Option<&str>) -> Result<Self, String> {
        Self::build(variant, None, fen)
    }

    /// A game of the setup `setup` (`spider-chess` or a registered variant's name).
    pub fn with_setup(setup: Option<&str>, fen: Option<&str>) -> Result<Self, String> {
        match setup.filter(|s| *s != "spider-chess") {
            None => Self::new(fen),
            Some(name) => {
                let l = lookup(name)?;
                Self::build(l.variant, Some((l.name, l.definition)), fen)
            }
        }
    }

    fn build(
        variant: Arc<Variant>,
        loaded: Option<(String, String)>,
        fen: Option<&str>,
    ) -> Result<Self, String> {
        let standard_fen = Position::startpos(&variant).to_fen();
        let pos = match fen {
            Some(f) => Position::from_fen(&variant, f).map_err(|e| format!("FEN {f:?}: {e}"))?,
            None => Position::startpos(&variant),
        };
        let start_fen = pos.to_fen();
        Ok(SpiderGame {
            // A loaded variant's start is always sent and recorded as a FEN: engines and PGN
            // readers do not know its start position.
            standard: start_fen == standard_fen && loaded.is_none(),
            pos,
            start_fen,
            moves: Vec::new(),
            loaded,
        })
    }

    /// The current position (for displays such as the GUI's board).
    pub fn position(&self) -> &Position {
        &self.pos
    }
}

fn seat_of(c: Color) -> usize {
    match c {
        Color::White => 0,
        Color::Black => 1,
    }
}

impl RefereeGame for SpiderGame {
    type Move = Move;
    fn seats(&self) -> usize {
        2
    }
    fn to_decide(&self) -> Vec<usize> {
        if self.pos.outcome().is_some() {
            Vec::new()
        } else {
            vec![seat_of(self.pos.side_to_move())]
        }
    }
    fn parse_move(&self, seat: usize, text: &str) -> Result<Move, Refusal> {
        if seat != seat_of(self.pos.side_to_move()) {
            return Err(Refusal(format!("seat {} is not to move", seat + 1)));
        }
        self.pos
            .parse_move(text)
            .map_err(|e| Refusal(e.to_string()))
    }
    fn move_text(&self, mv: &Move) -> String {
        self.pos.move_text(*mv)
    }
    fn apply(&mut self, _seat: usize, mv: Move) {
        self.moves.push(self.pos.move_text(mv));
        self.pos.make_move(mv);
    }
    fn legal_moves(&self) -> Vec<String> {
        if self.pos.outcome().is_some() {
            return Vec::new();
        }
        self.pos
            .legal_moves()
            .into_iter()
            .map(|m| self.pos.move_text(m))
            .collect()
    }
    fn outcome(&self) -> Option<Outcome> {
        let o = self.pos.outcome()?;
        let reason = o.reason.to_string();
        Some(match o.winner {
            Some(c) => Outcome::win(seat_of(c), 2, reason),
            None => Outcome::draw(2, reason),
        })
    }
    fn start_text(&self) -> String {
        self.start_fen.clone()
    }
    fn is_standard_start(&self) -> bool {
        self.standard
    }
    fn position_text(&self) -> String {
        self.pos.to_fen()
    }
    fn history(&self) -> Vec<String> {
        self.moves.clone()
    }
    fn record_extra(&self) -> Value {
        match &self.loaded {
            Some((name, definition)) => json!({ "variant": name, "definition": definition }),
            None => Value::Null,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::referee::game_adapter::DynGame;

    #[test]
    fn spider_moves_are_checked_by_the_rules_core() {
        let mut g = SpiderGame::new(None).unwrap();
        assert!(DynGame::is_standard_start(&g));
        assert_eq!(DynGame::to_decide(&g), vec![0]);
        assert!(g.play(0, "m2m9").is_err(), "the rules core refuses m2m9");
        assert!(g.play(1, "m2m5").is_err(), "not black's turn");
        assert_eq!(g.play(0, "m2m5").unwrap(), "m2m5");
        assert_eq!(DynGame::to_decide(&g), vec![1]);
        assert_eq!(
            DynGame::uci_position(&g, 1),
            vec!["position startpos moves m2m5".to_string()]
        );
        assert!(DynGame::legal_moves(&g).len() > 10);
        let fen = DynGame::position_text(&g);
        let h = SpiderGame::new(Some(&fen)).unwrap();
        assert!(!DynGame::is_standard_start(&h));
        assert!(SpiderGame::new(Some("not a fen")).is_err());
    }

    #[test]
    fn registered_variants_play_and_carry_their_definition() {
        let chess = "files=8 ranks=8 promoChoice=QRBN pawn::::a2-h2 knight:N:::b1,g1 \
            bishop::::c1,f1 rook::::a1,h1 queen::::d1 king::KisO2::e1";
        assert!(SpiderGame::with_setup(Some("referee-test-chess"), None).is_err());
        register_variant("referee-test-chess", chess).unwrap();
        let mut g = SpiderGame::with_setup(Some("referee-test-chess"), None).unwrap();
        assert!(
            !DynGame::is_standard_start(&g),
            "a loaded variant's start is sent as FEN"
        );
        assert_eq!(
            DynGame::start_text(&g),
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
        );
        for m in ["e2e4", "e7e5", "g1f3", "b8c6", "f1c4", "g8f6", "e1g1"] {
            assert!(g.play(DynGame::to_decide(&g)[0], m).is_ok(), "{m}");
        }
        let extra = DynGame::record_extra(&g);
        assert_eq!(extra["variant"], "referee-test-chess");
        assert!(register_recorded(&extra).is_ok());
        assert!(register_variant("x", "files=99").is_err());
        assert!(register_variant("spider-chess", chess).is_err());
    }
}
