//! Spider-Chess rules through the public API: definitions, FEN, notation, game end, make/unmake,
//! and the search interface.

use orrery::games::spider::{
    perft, Color, MoveError, Position, Reason, Variant, SPIDER_CHESS_DEFINITION,
};
use orrery::search::{TwoSided, DRAW, MATE};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// FEN of a position given as placements; holes from the rule book's bands.
fn fen_of(pieces: &[(&str, char)], side: char) -> String {
    let band = |s: i32| (7..=9).contains(&s);
    let hole =
        |x: i32, y: i32| band(x + y) || band(24 - x + y) || band(x + 18 - y) || band(42 - x - y);
    let mut rows = Vec::new();
    for y in (0..19).rev() {
        let mut s = String::new();
        let mut run = 0;
        for x in 0..25 {
            let name = format!("{}{}", (b'a' + x as u8) as char, y + 1);
            let c = if hole(x, y) {
                Some('*')
            } else {
                pieces.iter().find(|p| p.0 == name).map(|p| p.1)
            };
            match c {
                None => run += 1,
                Some(c) => {
                    if run > 0 {
                        s += &run.to_string();
                        run = 0;
                    }
                    s.push(c);
                }
            }
        }
        if run > 0 {
            s += &run.to_string();
        }
        rows.push(s);
    }
    format!("{} {side} - - 0 1", rows.join("/"))
}

fn pos(fen: &str) -> Position {
    Position::from_fen(&Variant::spider_chess(), fen).unwrap()
}

#[test]
fn seed_definition_loads() {
    let v = Variant::spider_chess();
    assert_eq!((v.files(), v.ranks()), (25, 19));
    assert_eq!(v.playable_count(), 369);
    let letters: String = v.pieces().iter().map(|p| p.letter).collect();
    assert_eq!(letters, "PRQACZIJLSK");
    let d = v.definition();
    assert_eq!(d.promo_choice, vec!['R', 'Q', 'A', 'C', 'Z']);
    let start = Position::startpos(&v);
    assert_eq!(start.non_royal_count(Color::White), 55);
    assert_eq!(start.non_royal_count(Color::Black), 55);
    // Black mirrors White: e12, f12, t12 are black pawns.
    assert_eq!(start.piece_at(4, 11), Some((0, Color::Black)));
    assert_eq!(start.piece_at(12, 18), Some((10, Color::Black)));
    // Values grow with mobility; the royal piece has none.
    let value = |c: char| v.pieces().iter().find(|p| p.letter == c).unwrap().value;
    assert!(value('P') < value('R') && value('R') < value('Q') && value('Q') < value('I'));
    assert_eq!(value('K'), 0);
    assert!(Variant::from_definition(SPIDER_CHESS_DEFINITION).is_ok());
}

#[test]
fn other_variants_load_from_the_same_format() {
    let los_alamos = "files=6 ranks=6 promoZone=1 promoChoice=QRN royal=K \
        pawn:P:fmWfcF:pawn:a2,b2,c2,d2,e2,f2 knight:N:N:knight:b1,e1 rook:R:R:rook:a1,f1 \
        queen:Q:Q:queen:c1 king:K:K:king:d1";
    let v = std::sync::Arc::new(Variant::from_definition(los_alamos).unwrap());
    let mut start = Position::startpos(&v);
    assert_eq!(start.to_fen(), "rnqknr/pppppp/6/6/PPPPPP/RNQKNR w - - 0 1");
    assert_eq!(perft(&mut start, 1), 10);
    assert_eq!(perft(&mut start, 2), 100);
    let rotated = "files=6 ranks=6 symmetry=rotate royal=K king:K:K:king:a1 rook:R:R:rook:b1";
    let v = std::sync::Arc::new(Variant::from_definition(rotated).unwrap());
    assert_eq!(Position::startpos(&v).to_fen(), "4rk/6/6/6/6/KR4 w - - 0 1");
}

#[test]
fn bad_definitions_are_refused_naming_the_token() {
    let base = "files=8 ranks=8 royal=K king:K:K:king:e1";
    assert!(Variant::from_definition(base).is_ok());
    let cases = [
        (format!("{base} colour=red"), "colour=red"),
        (format!("{base} bishop:B:X:b:c1"), "bishop:B:X:b:c1"),
        (format!("{base} bishop:B:tB:b:c1"), "bishop:B:tB:b:c1"),
        (format!("{base} bishop:B:B:b:z1"), "z1"),
        (format!("{base} bishop:B:B:b:c9"), "c9"),
        (format!("{base} bishop:B:B:b:e1"), "e1"),
        (format!("{base} hole::::c1 bishop:B:B:b:c1"), "c1"),
        (format!("{base} bishop:B:B:b:c1,,c1"), "c1"),
        (format!("{base} stalemate=maybe"), "stalemate=maybe"),
        (format!("{base} baring=2"), "baring=2"),
        (format!("{base} promoChoice=X"), "promoChoice=X"),
        (format!("{base} bishop:K:B:b:c1"), "bishop:K:B:b:c1"),
        (format!("{base} bishop:B:B"), "bishop:B:B"),
        (format!("{base} junk"), "junk"),
        (
            "files=0 ranks=8 royal=K king:K:K:king:e1".to_string(),
            "files=0",
        ),
        (
            "files=40 ranks=8 royal=K king:K:K:king:e1".to_string(),
            "files=40",
        ),
        (
            "files=8 ranks=8 royal=Q king:K:K:king:e1".to_string(),
            "royal=Q",
        ),
    ];
    for (text, token) in &cases {
        let err = Variant::from_definition(text).unwrap_err();
        assert_eq!(&err.token, token, "{text}: {err}");
        assert!(!err.reason.is_empty());
    }
}

#[test]
fn fen_round_trips_through_random_play() {
    let v = Variant::spider_chess();
    let mut p = Position::startpos(&v);
    let mut rng = ChaCha8Rng::seed_from_u64(11);
    let start_fen = p.to_fen();
    let mut played = 0;
    for _ in 0..300 {
        let moves = p.legal_moves();
        if moves.is_empty() {
            break;
        }
        p.make_move(moves[rng.gen_range(0..moves.len())]);
        played += 1;
        let copy = Position::from_fen(&v, &p.to_fen()).unwrap();
        assert_eq!(copy.to_fen(), p.to_fen());
        assert_eq!(
            copy.hash(),
            p.hash(),
            "incremental key differs at {}",
            p.to_fen()
        );
    }
    for _ in 0..played {
        p.unmake_move();
    }
    assert_eq!(p.to_fen(), start_fen);
    assert_eq!(p.hash(), Position::startpos(&v).hash());
}

#[test]
fn bad_fens_are_refused() {
    let v = Variant::spider_chess();
    let good = fen_of(&[("m1", 'K'), ("m19", 'k')], 'w');
    assert!(Position::from_fen(&v, &good).is_ok());
    let start = Position::startpos(&v).to_fen();
    let cases = [
        start.replacen("7***rqkqr***7/", "", 1),
        start.replacen("7***rqkqr***7", "8***rqkqr***7", 1),
        start.replacen("7***rqkqr***7", "6***rqkqr***7", 1),
        start.replacen("7***rqkqr***7", "7**rrqkqr***7", 1),
        start.replacen("/*23*/", "/24*/", 1),
        start.replacen("/*23*/", "/*11X11*/", 1),
        start.replacen("/*23*/", "/*11*11*/", 1),
        start.replacen("rqkqr", "rqqqr", 1),
        start.replacen("RQKQR", "RKKQR", 1),
        start.replacen(" w ", " x ", 1),
        start.replacen(" - - ", " KQ - ", 1),
        start.replacen(" 0 1", " z 1", 1),
        start.replacen(" 0 1", " 0 0", 1),
        start.split(' ').next().unwrap().to_string(),
        fen_of(&[("m1", 'K'), ("m19", 'k'), ("m18", 'R')], 'w'),
        fen_of(&[("m1", 'K'), ("m19", 'k'), ("k19", 'P')], 'w'),
        fen_of(&[("m1", 'K'), ("m19", 'k'), ("k1", 'p')], 'w'),
        String::new(),
    ];
    for fen in &cases {
        assert!(Position::from_fen(&v, fen).is_err(), "accepted: {fen}");
    }
}

#[test]
fn move_notation_and_its_errors() {
    let v = Variant::spider_chess();
    let mut p = Position::startpos(&v);
    let before = p.to_fen();
    let err = |p: &Position, m: &str| p.parse_move(m).unwrap_err();
    assert!(matches!(err(&p, "m2m6"), MoveError::CannotReach(_)));
    assert!(matches!(err(&p, "m2"), MoveError::Syntax(_)));
    assert!(matches!(err(&p, "m2m3x7"), MoveError::Syntax(_)));
    assert!(matches!(err(&p, ""), MoveError::Syntax(_)));
    assert!(matches!(err(&p, "a1a2"), MoveError::NoPiece(_)));
    assert!(matches!(err(&p, "h1h2"), MoveError::Hole(_)));
    assert!(matches!(err(&p, "k2j1"), MoveError::Hole(_)));
    assert!(matches!(err(&p, "z1z2"), MoveError::OffBoard(_)));
    assert!(matches!(err(&p, "m2m20"), MoveError::OffBoard(_)));
    assert!(matches!(err(&p, "m18m17"), MoveError::NotYourPiece(_)));
    assert!(matches!(err(&p, "m2m3q"), MoveError::BadPromotion(_)));
    assert!(matches!(err(&p, "m1m2"), MoveError::CannotReach(_)));
    assert_eq!(p.to_fen(), before);
    assert!(p.play("m2m7").is_err());
    assert_eq!(p.to_fen(), before);
    let mv = p.play("m2m5").unwrap();
    assert_eq!(Position::startpos(&v).move_text(mv), "m2m5");

    let promo = pos(&fen_of(
        &[("m1", 'K'), ("a19", 'k'), ("m18", 'P'), ("l19", 'r')],
        'w',
    ));
    assert!(matches!(
        err(&promo, "m18m19"),
        MoveError::MissingPromotion(_)
    ));
    assert!(matches!(err(&promo, "m18m19k"), MoveError::BadPromotion(_)));
    assert!(matches!(err(&promo, "m18m19p"), MoveError::BadPromotion(_)));
    assert!(matches!(err(&promo, "m18m19s"), MoveError::BadPromotion(_)));
    for c in ["r", "q", "a", "c", "z"] {
        let m = promo.parse_move(&format!("m18m19{c}")).unwrap();
        assert_eq!(promo.move_text(m), format!("m18m19{c}"));
    }
    // The pawn cannot capture diagonally, only straight ahead.
    assert!(matches!(err(&promo, "m18l19q"), MoveError::CannotReach(_)));

    let pinned = pos(&fen_of(
        &[("m1", 'K'), ("m3", 'R'), ("m10", 'r'), ("a19", 'k')],
        'w',
    ));
    assert!(matches!(err(&pinned, "m3n3"), MoveError::KingInCheck(_)));
    assert!(pinned.parse_move("m3m10").is_ok());
}

/// A black king walled into the upper-left spider base, with a black pawn stuck in front of holes.
fn walled(extra: &[(&'static str, char)], side: char) -> Position {
    let mut pieces = vec![
        ("a19", 'k'),
        ("f6", 'p'),
        ("g5", 'P'),
        ("b16", 'R'),
        ("c18", 'R'),
        ("m1", 'K'),
    ];
    pieces.extend_from_slice(extra);
    pos(&fen_of(&pieces, side))
}

#[test]
fn stalemate_loses_and_checkmate_wins() {
    let stalemate = walled(&[], 'b');
    assert!(!stalemate.in_check());
    assert!(stalemate.legal_moves().is_empty());
    let o = stalemate.outcome().unwrap();
    assert_eq!(
        (o.winner, o.reason),
        (Some(Color::White), Reason::Stalemate)
    );
    assert_eq!(TwoSided::no_moves_score(&stalemate), -MATE);

    let mate = walled(&[("a16", 'R')], 'b');
    assert!(mate.in_check());
    let o = mate.outcome().unwrap();
    assert_eq!(
        (o.winner, o.reason),
        (Some(Color::White), Reason::Checkmate)
    );
    assert_eq!(o.result_text(), "1-0");
    assert!(walled(&[], 'w').outcome().is_none());
}

#[test]
fn bare_king_rules() {
    // Black bare, White has two pieces: Black loses at once.
    let p = pos(&fen_of(
        &[("m10", 'k'), ("m1", 'K'), ("a1", 'R'), ("y1", 'R')],
        'b',
    ));
    let o = p.outcome().unwrap();
    assert_eq!((o.winner, o.reason), (Some(Color::White), Reason::BareKing));
    assert_eq!(p.rule_outcome(), Some(-MATE));
    // Black bare, White's last piece can be taken: play on; taking it draws.
    let mut p = pos(&fen_of(&[("m10", 'k'), ("m1", 'K'), ("m11", 'R')], 'b'));
    assert_eq!(p.outcome(), None);
    assert_eq!(p.rule_outcome(), None);
    p.play("m10m11").unwrap();
    let o = p.outcome().unwrap();
    assert_eq!((o.winner, o.reason), (None, Reason::BothKingsBare));
    assert_eq!(p.rule_outcome(), Some(DRAW));
    // Black bare, White's last piece out of reach: Black loses.
    let p = pos(&fen_of(&[("m10", 'k'), ("m1", 'K'), ("a1", 'R')], 'b'));
    assert_eq!(p.outcome().unwrap().winner, Some(Color::White));
    // White bare with Black to move: White had its reply and failed.
    let p = pos(&fen_of(&[("m10", 'k'), ("m1", 'K'), ("a1", 'r')], 'b'));
    let o = p.outcome().unwrap();
    assert_eq!((o.winner, o.reason), (Some(Color::Black), Reason::BareKing));
    assert_eq!(p.rule_outcome(), Some(MATE));
}

/// Finds a non-pawn move whose reverse is legal afterwards.
fn shuffle_pair(p: &mut Position) -> (String, String) {
    for m in p.legal_moves() {
        let t = p.move_text(m);
        let split = 1 + t[1..].find(|c: char| c.is_ascii_alphabetic()).unwrap();
        let back = format!("{}{}", &t[split..], &t[..split]);
        p.make_move(m);
        p.make_null_move_for_test();
        let ok = p.parse_move(&back).is_ok() && p.halfmove_clock() > 0;
        p.unmake_move();
        p.unmake_move();
        if ok {
            return (t, back);
        }
    }
    panic!("no reversible move")
}

trait NullForTest {
    fn make_null_move_for_test(&mut self);
}

impl NullForTest for Position {
    fn make_null_move_for_test(&mut self) {
        assert!(self.make_null());
    }
}

#[test]
fn repetition_and_fifty_moves() {
    let v = Variant::spider_chess();
    let mut p = Position::startpos(&v);
    let (w1, w2) = shuffle_pair(&mut p);
    p.play(&w1).unwrap();
    let (b1, b2) = shuffle_pair(&mut p);
    p.unmake_move();
    let cycle = [&w1, &b1, &w2, &b2];
    for m in cycle {
        p.play(m).unwrap();
    }
    assert_eq!(p.repetitions(), 1);
    assert_eq!(p.outcome(), None);
    assert_eq!(p.rule_outcome(), Some(DRAW));
    for m in cycle {
        p.play(m).unwrap();
    }
    let o = p.outcome().unwrap();
    assert_eq!((o.winner, o.reason), (None, Reason::Repetition));

    let mut p = Position::startpos(&v);
    p.set_fifty_move_limit(6);
    for m in [&w1, &b1, &w2, &b2, &w1] {
        p.play(m).unwrap();
        assert_eq!(p.outcome(), None);
    }
    p.play("m18m17").unwrap();
    p.play(&w2).unwrap();
    assert_eq!(p.halfmove_clock(), 1);
    let mut p = Position::startpos(&v);
    p.set_fifty_move_limit(4);
    for m in [&w1, &b1, &w2] {
        p.play(m).unwrap();
    }
    assert_eq!(p.outcome(), None);
    p.play(&b2).unwrap();
    let o = p.outcome().unwrap();
    assert_eq!((o.winner, o.reason), (None, Reason::FiftyMoves));
}

#[test]
fn search_interface_is_consistent() {
    let v = Variant::spider_chess();
    let mut p = Position::startpos(&v);
    let mut rng = ChaCha8Rng::seed_from_u64(5);
    let mut all = Vec::new();
    let mut noisy = Vec::new();
    for _ in 0..120 {
        TwoSided::legal_moves(&p, &mut all);
        if all.is_empty() {
            break;
        }
        p.noisy_moves(&mut noisy);
        for m in &noisy {
            assert!(all.contains(m));
            assert!(p.victim_value(*m) > 0);
        }
        for m in &all {
            assert!(p.history_index(*m) < p.history_size());
            if p.is_capture(*m) || m.promotion().is_some() {
                assert!(noisy.contains(m));
            }
        }
        let key = p.key();
        if p.make_null() {
            assert_ne!(p.key(), key);
            p.unmake_null();
        }
        assert_eq!(p.key(), key);
        let e = p.evaluate();
        assert!(e.abs() < 5_000, "eval {e}");
        let m = all[rng.gen_range(0..all.len())];
        p.make(m);
    }
    // The start position is symmetric: only the tempo bonus remains.
    let s = Position::startpos(&v);
    assert!(s.evaluate() > 0 && s.evaluate() < 50);
}

#[test]
fn a_32_by_32_board_works() {
    let def = "files=32 ranks=32 royal=K promoZone=1 promoChoice=Q hole::::b2,E31 \
        pawn:P:fW:pawn:c2 queen:Q:Q:queen:E1 king:K:K:king:a1";
    let v = std::sync::Arc::new(Variant::from_definition(def).unwrap());
    let mut p = Position::startpos(&v);
    let fen = p.to_fen();
    assert!(
        fen.starts_with("k29q1/2p27*1/32/") && fen.contains("/1*P29/K29Q1 w"),
        "{fen}"
    );
    assert_eq!(Position::from_fen(&v, &fen).unwrap().to_fen(), fen);
    // King a1: a2 and b1 (b2 is a hole); pawn c2-c3; queen E1 on the 31st file stops before the hole E31.
    let moves: Vec<String> = p.legal_moves().iter().map(|&m| p.move_text(m)).collect();
    assert!(moves.contains(&"E1E30".to_string()), "{moves:?}");
    assert!(!moves.contains(&"E1E31".to_string()) && !moves.contains(&"E1E32".to_string()));
    assert!(moves.contains(&"a1b1".to_string()) && !moves.contains(&"a1b2".to_string()));
    let mv = p.play("c2c3").unwrap();
    assert_eq!(p.move_squares(mv), ((2, 1), (2, 2)));
    assert!(perft(&mut p, 2) > 0);
    let bad = def.replace("queen:E1", "queen:F1");
    let err = Variant::from_definition(&bad).unwrap_err();
    assert!(err.reason.contains("check"), "{err}");
}

#[test]
fn diagram_matches_the_rule_book() {
    let text = Position::startpos(&Variant::spider_chess()).to_string();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(
        lines[0],
        "19  . . . . . . . # # # r q k q r # # # . . . . . . ."
    );
    assert_eq!(
        lines[9],
        "10  # . . . . . . . . . . . . . . . . . . . . . . . #"
    );
    assert_eq!(
        lines[18],
        " 1  . . . . . . . # # # R Q K Q R # # # . . . . . . ."
    );
    assert_eq!(
        lines[19],
        "    a b c d e f g h i j k l m n o p q r s t u v w x y"
    );
}

/// Plain negamax over the search interface.
fn negamax(p: &mut Position, depth: u32) -> i32 {
    if let Some(s) = p.rule_outcome() {
        return s;
    }
    let mut moves = Vec::new();
    TwoSided::legal_moves(p, &mut moves);
    if moves.is_empty() {
        return p.no_moves_score();
    }
    if depth == 0 {
        return TwoSided::evaluate(p);
    }
    let mut best = -MATE - 1;
    for m in moves {
        p.make(m);
        best = best.max(-negamax(p, depth - 1));
        p.unmake();
    }
    best
}

#[test]
fn a_search_finds_the_win_by_stalemate_or_mate() {
    // White to move: the black king on a19 is walled in; White wins by mate or by stalemate.
    let mut p = walled(&[], 'w');
    let mut moves = Vec::new();
    TwoSided::legal_moves(&p, &mut moves);
    let mut winning = 0;
    for m in moves {
        p.make(m);
        let score = -negamax(&mut p, 0);
        let ends = p.outcome();
        p.unmake();
        if score == MATE {
            winning += 1;
            assert_eq!(ends.unwrap().winner, Some(Color::White));
        }
    }
    assert!(winning > 0);
}
