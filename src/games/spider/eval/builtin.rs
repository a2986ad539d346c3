//! Weights tuned for well-known games, used whenever a variant plays by the same rules as one of
//! them, whatever its file is called: Spider-Chess, orthodox chess, Capablanca chess, shatranj,
//! Grand chess, and moat (the project's own test variant with holes and riders).
//! Each file is one that gained in an SPRT over what it replaces (docs/strength.md).

use std::sync::OnceLock;

use super::EvalWeights;
use crate::games::spider::definition::{self, Definition};
use crate::games::spider::variant::{Variant, SPIDER_CHESS_DEFINITION};

/// Orthodox chess in the Interactive Diagram's format (the rules only, no graphics).
const CHESS_DEFINITION: &str = "files=8 ranks=8 maxPromote=1 promoChoice=NBRQ symmetry=mirror \
     royal=K pawn:P:fmWfceFifmnD::a2-h2 knight:N:N::b1,g1 bishop:B:B::c1,f1 rook:R:R::a1,h1 \
     queen:Q:Q::d1 king:K:KisO2::e1";

/// Capablanca chess (10×8, archbishop and chancellor), the rules only.
const CAPABLANCA_DEFINITION: &str = "files=10 ranks=8 symmetry=mirror promoZone=1 \
     promoChoice=QCARBN royal=K Pawn::::a2-j2 Knight:N:::b1,i1 Bishop::::d1,g1 Rook::::a1,j1 \
     Archbishop::::c1 Chancellor::::h1 Queen::::e1 King::KisO3::f1";

/// Shatranj (ferz, alfil, promotion to ferz, bare king and stalemate lose), the rules only.
const SHATRANJ_DEFINITION: &str = "files=8 ranks=8 symmetry=mirror promoChoice=Q \
     stalemate=win baring=0 pawn::fmWfcF::a2-h2 rook::::a1,h1 knight:N:::b1,g1 \
     elephant:B:A::c1,f1 general:Q:F::e1 king::K::d1";

/// Grand chess (10×10, pawns on the third rank, promotion to a captured piece only), the rules
/// only.
const GRAND_DEFINITION: &str = "files=10 ranks=10 symmetry=mirror holdingsType=1 \
     promoZone=3 maxPromote=1 promoChoice=!P*Q*C*A*R*B*N royal=K pawn::::a3-j3 knight:N:::b2,i2 \
     bishop::::c2,h2 queen::::d2 king::K::e2 marshall:C:::f2 cardinal:A:::g2 rook::::a1,j1";

/// Moat (the project's 12×10 test variant with eight holes, a nightrider, a rook limited to three
/// squares and a camel; `tests/data/variants/moat.txt`), the rules only.
const MOAT_DEFINITION: &str = "files=12 ranks=10 symmetry=mirror promoZone=1 \
     promoChoice=QRBNHSC royal=K hole::::a5,e5,h5,l5,a6,e6,h6,l6 pawn::::a2-l2 rook::::a1,l1 \
     knight:N:::b1,k1 nightrider:H:::c1,j1 bishop::::d1,i1 queen::::e1 shortrook:S:R3::g1 \
     camel:C:::h1 king::K::f1";

/// Spider-Chess's weights: tuned by `spider-chess tune --prior 0.001` on 322 self-play games
/// (docs/strength.md, "Evaluation tuning").
pub(crate) const SPIDER_CHESS_WEIGHTS: &str = include_str!("../spider-chess.weights");

/// Chess's weights: fitted to Fairy-Stockfish's static evaluation of chess positions, square
/// weights included (docs/strength.md, "Session of 5 December, morning").
pub(crate) const CHESS_WEIGHTS: &str = include_str!("../chess.weights");

/// Capablanca's weights: fitted to Fairy-Stockfish's static evaluation of Capablanca positions,
/// square and endgame square weights included (docs/strength.md, "Session of 5 December,
/// midday" and "Session of 7 December, midday").
const CAPABLANCA_WEIGHTS: &str = include_str!("../capablanca.weights");

/// Shatranj's weights: fitted to Fairy-Stockfish's scores of shatranj positions, square weights
/// included, the scalar weights refitted to its static evaluation (docs/strength.md, "Session of
/// 3 December" and "Session of 7 December, late evening").
const SHATRANJ_WEIGHTS: &str = include_str!("../shatranj.weights");

/// Grand chess's weights: its scalar weights fitted to Fairy-Stockfish's static evaluation, the
/// piece values and square weights the defaults' (docs/strength.md, "Session of 7 December,
/// afternoon" and "evening").
const GRAND_WEIGHTS: &str = include_str!("../grand.weights");

/// Moat's weights: its scalar weights fitted to the engine's own 20,000-node search scores of
/// moat positions, the piece values the defaults' (docs/strength.md, "Session of 7 December,
/// late night").
const MOAT_WEIGHTS: &str = include_str!("../moat.weights");

/// Each known game's rules with the weights file it plays with.
const KNOWN: [(&str, &str); 6] = [
    (SPIDER_CHESS_DEFINITION, SPIDER_CHESS_WEIGHTS),
    (CHESS_DEFINITION, CHESS_WEIGHTS),
    (CAPABLANCA_DEFINITION, CAPABLANCA_WEIGHTS),
    (SHATRANJ_DEFINITION, SHATRANJ_WEIGHTS),
    (GRAND_DEFINITION, GRAND_WEIGHTS),
    (MOAT_DEFINITION, MOAT_WEIGHTS),
];

/// The built-in weights for `v`'s rules (the known game's weights file read over `v`'s mobility
/// estimates), or `None` when `v` is no known game.
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
    Some(EvalWeights::parse(v, v.estimated_weights(), body).expect("the built-in weights read"))
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
    use crate::games::spider::position::Position;

    fn load(text: &str) -> Variant {
        Variant::from_definition(text).unwrap()
    }

    /// Every known game's weights file is complete (each weight named, so none falls back to a
    /// mobility default), names the game, and is what a definition with those rules gets.
    #[test]
    fn each_known_game_gets_its_whole_file() {
        for (definition, weights) in KNOWN {
            let v = load(definition);
            let w = builtin_weights(&v).expect("a known game");
            let (_, body) = EvalWeights::split_file(weights).unwrap();
            let tuned = v.clone().with_weights(w).unwrap();
            assert_eq!(tuned.weights().to_text(&tuned).trim(), body.trim());
            assert_ne!(
                tuned.weights(),
                v.weights(),
                "the mobility values are replaced"
            );
        }
    }

    /// The test data's files (with graphics, other piece names, `royal` by number) are the known
    /// games, whatever they are called.
    #[test]
    fn the_test_data_files_are_the_known_games() {
        for (file, weights) in [
            (
                include_str!("../../../../tests/data/variants/chess.txt"),
                CHESS_WEIGHTS,
            ),
            (
                include_str!("../../../../tests/data/variants/capablanca.txt"),
                CAPABLANCA_WEIGHTS,
            ),
            (
                include_str!("../../../../tests/data/variants/shatranj.txt"),
                SHATRANJ_WEIGHTS,
            ),
            (
                include_str!("../../../../tests/data/variants/grand.txt"),
                GRAND_WEIGHTS,
            ),
            (
                include_str!("../../../../tests/data/variants/moat.txt"),
                MOAT_WEIGHTS,
            ),
        ] {
            let v = load(file).with_name("renamed");
            let w = builtin_weights(&v).expect("a known game");
            let (name, body) = EvalWeights::split_file(weights).unwrap();
            let plain = load(file);
            assert_eq!(
                w,
                EvalWeights::parse(&plain, plain.weights(), body).unwrap(),
                "{name}"
            );
        }
    }

    /// Chess's file tapers the king's squares: with kings and pawns only, its endgame square
    /// weights value a king on e4 over one on g1 by far more than the file without them does.
    #[test]
    fn chess_s_endgame_squares_send_the_king_to_the_centre() {
        let plain = load(CHESS_DEFINITION);
        let shipped = builtin_weights(&plain).expect("chess");
        let flat = EvalWeights {
            endgame_squares: vec![0; shipped.endgame_squares.len()],
            ..shipped.clone()
        };
        let gap = |w: &EvalWeights| {
            let v = std::sync::Arc::new(plain.clone().with_weights(w.clone()).unwrap());
            let eval = |fen: &str| Position::from_fen(&v, fen).unwrap().evaluate();
            eval("6k1/5ppp/8/8/4K3/8/5PPP/8 w - - 0 1")
                - eval("6k1/5ppp/8/8/8/8/5PPP/6K1 w - - 0 1")
        };
        let (tapered, without) = (gap(&shipped), gap(&flat));
        assert!(tapered >= without + 40, "with {tapered}, without {without}");
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
        // One rule changed each: the knight's move, a hole, the promotion choice; Janus chess.
        let knight = CHESS_DEFINITION.replace("knight:N:N:", "knight:N:NW:");
        let hole = format!("{CHESS_DEFINITION} hole::::d4");
        let promo = CHESS_DEFINITION.replace("promoChoice=NBRQ", "promoChoice=Q");
        for text in [
            knight.as_str(),
            hole.as_str(),
            promo.as_str(),
            include_str!("../../../../tests/data/variants/janus.txt"),
        ] {
            assert!(builtin_weights(&load(text)).is_none(), "{text}");
        }
    }
}
