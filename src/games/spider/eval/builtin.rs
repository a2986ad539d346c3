//! Weights tuned for well-known games, used whenever a variant plays by the same rules as one of
//! them, whatever its file is called: Spider-Chess and orthodox chess.

use std::sync::OnceLock;

use super::EvalWeights;
use crate::games::spider::definition::{self, Definition};
use crate::games::spider::variant::{Variant, SPIDER_CHESS_DEFINITION};

/// Orthodox chess in the Interactive Diagram's format (the rules only, no graphics).
pub(crate) const CHESS_DEFINITION: &str =
    "files=8 ranks=8 maxPromote=1 promoChoice=NBRQ symmetry=mirror \
     royal=K pawn:P:fmWfceFifmnD::a2-h2 knight:N:N::b1,g1 bishop:B:B::c1,f1 rook:R:R::a1,h1 \
     queen:Q:Q::d1 king:K:KisO2::e1";

/// Spider-Chess's weights: tuned by `spider-chess tune --prior 0.001` on 322 self-play games
/// (docs/strength.md, "Evaluation tuning").
pub(crate) const SPIDER_CHESS_WEIGHTS: &str = include_str!("../spider-chess.weights");

/// Chess's weights: fitted to Fairy-Stockfish's scores of positions from its games against ours,
/// connected pawns included (docs/strength.md, "Connected pawns").
pub(crate) const CHESS_WEIGHTS: &str = include_str!("../chess.weights");

/// Each known game's rules with the weights file it plays with.
const KNOWN: [(&str, &str); 2] = [
    (SPIDER_CHESS_DEFINITION, SPIDER_CHESS_WEIGHTS),
    (CHESS_DEFINITION, CHESS_WEIGHTS),
];

/// The built-in weights for `v`'s rules (the body of the known game's weights file read over
/// `v`'s own weights), or `None` when `v` is no known game.
pub(crate) fn builtin_weights(v: &Variant) -> Option<EvalWeights> {
    static RULES: OnceLock<Vec<Definition>> = OnceLock::new();
    let rules = RULES.get_or_init(|| {
        KNOWN
            .iter()
            .map(|(text, _)| rules_only(definition::parse(text).expect("a known game loads")))
            .collect()
    });
    let mine = rules_only(v.definition().clone());
    let at = rules.iter().position(|r| *r == mine)?;
    let (_, body) = EvalWeights::split_file(KNOWN[at].1).expect("a weights file");
    Some(EvalWeights::parse(v, v.weights(), body).expect("the built-in weights read"))
}

/// The definition without what does not change the game: the pieces' names.
fn rules_only(mut def: Definition) -> Definition {
    for p in &mut def.pieces {
        p.name.clear();
    }
    def
}

#[cfg(test)]
mod tests {
    use super::*;

    fn load(text: &str) -> Variant {
        Variant::from_definition(text).unwrap()
    }

    #[test]
    fn chess_gets_its_weights_under_any_name() {
        let file = load(include_str!("../../../../tests/data/variants/chess.txt"));
        let w = builtin_weights(&file).expect("the test data's chess is chess");
        let (name, body) = EvalWeights::split_file(CHESS_WEIGHTS).unwrap();
        assert_eq!(name, "chess");
        let v = file.clone().with_name("my-chess").with_weights(w).unwrap();
        assert_eq!(v.weights().to_text(&v).trim(), body.trim());
        assert_ne!(
            v.weights(),
            file.weights(),
            "the mobility values are replaced"
        );
        assert!(builtin_weights(&load(CHESS_DEFINITION)).is_some());
    }

    #[test]
    fn spider_chess_gets_its_weights_from_a_file_too() {
        let file = load(include_str!(
            "../../../../tests/data/variants/spider-chess.txt"
        ));
        let w = builtin_weights(&file).expect("the test data's Spider-Chess is Spider-Chess");
        assert_eq!(&w, Variant::spider_chess().weights());
    }

    #[test]
    fn other_rules_get_none() {
        // One rule changed each: the knight's move, a hole, the promotion choice, Capablanca.
        let knight = CHESS_DEFINITION.replace("knight:N:N:", "knight:N:NW:");
        let hole = format!("{CHESS_DEFINITION} hole::::d4");
        let promo = CHESS_DEFINITION.replace("promoChoice=NBRQ", "promoChoice=Q");
        for text in [
            knight.as_str(),
            hole.as_str(),
            promo.as_str(),
            include_str!("../../../../tests/data/variants/capablanca.txt"),
        ] {
            assert!(builtin_weights(&load(text)).is_none(), "{text}");
        }
    }
}
