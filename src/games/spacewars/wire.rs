//! Text forms: decisions (`attack 1:TD>3 1:QH>4`), and the `position` line that carries one
//! seat's [`Observation`]. Every parser is built from `nom` combinators; parse errors are plain
//! messages for `info string error: ...`. Ships and seats are 1-based on the wire.

use super::card::{card, join_cards, Card};
use super::decision::{AttackOrder, Decision, DecisionKind};
use super::observation::{AttackView, Cards, Observation, SeatView, ShipView};
use super::ruleset::Ruleset;
use super::sampling::{check_consistent, sample_world};
use super::ship::Attack;
use super::state::{Battle, BattleStep, Outcome, State, Step};
use nom::{
    branch::alt,
    bytes::complete::{tag, take_while1},
    character::complete::{char, digit1, space0, space1},
    combinator::{all_consuming, map, map_res, value},
    multi::{separated_list0, separated_list1},
    sequence::{preceded, separated_pair, terminated, tuple},
    IResult,
};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use std::sync::Arc;

type Res<'a, T> = IResult<&'a str, T>;

fn num<T: std::str::FromStr>(i: &str) -> Res<'_, T> {
    map_res(digit1, |s: &str| s.parse::<T>())(i)
}

/// A 1-based id on the wire as a 0-based index.
fn id(i: &str) -> Res<'_, u8> {
    map_res(num::<u16>, |n| {
        if (1..=255).contains(&n) {
            Ok(n as u8 - 1)
        } else {
            Err("id out of range")
        }
    })(i)
}

fn card_list(i: &str) -> Res<'_, Vec<Card>> {
    alt((
        value(Vec::new(), char('-')),
        separated_list1(char(','), card),
    ))(i)
}

fn spaced_cards(i: &str) -> Res<'_, Vec<Card>> {
    alt((
        value(Vec::new(), tag("none")),
        separated_list1(space1, card),
    ))(i)
}

fn word(i: &str) -> Res<'_, &str> {
    take_while1(|c: char| !c.is_whitespace())(i)
}

// ---------------------------------------------------------------- decisions

fn attack_order(i: &str) -> Res<'_, AttackOrder> {
    map(
        tuple((id, char(':'), card, char('>'), id)),
        |(from, _, card, _, target)| AttackOrder { from, card, target },
    )(i)
}

fn decision_body<'a>(rules: &'a Ruleset) -> impl FnMut(&'a str) -> Res<'a, Decision> {
    move |i: &'a str| {
        alt((
            map_res(
                preceded(tag("class "), separated_pair(word, space1, card)),
                |(name, card)| {
                    rules
                        .class_by_name(name)
                        .map(|class| Decision::Class { class, card })
                        .ok_or("unknown class")
                },
            ),
            map(
                preceded(tag("split "), separated_list1(space1, card_list)),
                Decision::Split,
            ),
            map(preceded(tag("discard "), spaced_cards), Decision::Discard),
            map(
                preceded(
                    tag("attack "),
                    alt((
                        value(Vec::new(), tag("none")),
                        separated_list1(space1, attack_order),
                    )),
                ),
                Decision::Attack,
            ),
            map(preceded(tag("defend "), id), Decision::Defend),
            map(
                preceded(tag("resolve "), separated_pair(card, char(':'), id)),
                |(card, from)| Decision::Resolve { card, from },
            ),
            map(preceded(tag("block "), spaced_cards), Decision::Block),
            map(preceded(tag("lose "), spaced_cards), Decision::Lose),
            map(preceded(tag("crew "), card), Decision::Crew),
            map(preceded(tag("repel "), spaced_cards), Decision::Repel),
        ))(i)
    }
}

/// Parses a decision's text form.
pub fn parse_decision(text: &str, rules: &Ruleset) -> Result<Decision, String> {
    let t = text.trim();
    match all_consuming(terminated(decision_body(rules), space0))(t) {
        Ok((_, d)) => Ok(d),
        Err(_) => {
            let kw = t.split_whitespace().next().unwrap_or("");
            let known = [
                "class", "split", "discard", "attack", "defend", "resolve", "block", "lose",
                "crew", "repel",
            ];
            if known.contains(&kw) {
                Err(format!("malformed '{kw}' decision: '{t}'"))
            } else {
                Err(format!("unknown decision '{t}'"))
            }
        }
    }
}

fn spaced(cards: &[Card]) -> String {
    if cards.is_empty() {
        return "none".into();
    }
    let v: Vec<String> = cards.iter().map(|c| c.to_string()).collect();
    v.join(" ")
}

/// The text form of a decision.
pub fn format_decision(d: &Decision, rules: &Ruleset) -> String {
    let n = |x: u8| x as u16 + 1;
    match d {
        Decision::Class { class, card } => {
            let name = rules.classes.get(*class as usize).map_or("?", |k| k.name);
            format!("class {name} {card}")
        }
        Decision::Split(p) => {
            let v: Vec<String> = p.iter().map(|x| join_cards(x)).collect();
            format!("split {}", v.join(" "))
        }
        Decision::Discard(c) => format!("discard {}", spaced(c)),
        Decision::Attack(o) if o.is_empty() => "attack none".into(),
        Decision::Attack(o) => {
            let v: Vec<String> = o
                .iter()
                .map(|a| format!("{}:{}>{}", n(a.from), a.card, n(a.target)))
                .collect();
            format!("attack {}", v.join(" "))
        }
        Decision::Defend(s) => format!("defend {}", n(*s)),
        Decision::Resolve { card, from } => format!("resolve {card}:{}", n(*from)),
        Decision::Block(c) => format!("block {}", spaced(c)),
        Decision::Lose(c) => format!("lose {}", spaced(c)),
        Decision::Crew(c) => format!("crew {c}"),
        Decision::Repel(c) => format!("repel {}", spaced(c)),
    }
}

/// Text of a pending decision kind (`attack`, `lose:2`).
pub fn format_kind(k: Option<DecisionKind>) -> String {
    match k {
        None => "none".into(),
        Some(DecisionKind::Discard(n)) => format!("discard:{n}"),
        Some(DecisionKind::Lose(n)) => format!("lose:{n}"),
        Some(k) => k.keyword().into(),
    }
}

fn kind(i: &str) -> Res<'_, Option<DecisionKind>> {
    alt((
        value(None, tag("none")),
        map(preceded(tag("discard:"), num), |n| {
            Some(DecisionKind::Discard(n))
        }),
        map(preceded(tag("lose:"), num), |n| Some(DecisionKind::Lose(n))),
        value(Some(DecisionKind::Class), tag("class")),
        value(Some(DecisionKind::Split), tag("split")),
        value(Some(DecisionKind::Attack), tag("attack")),
        value(Some(DecisionKind::Defend), tag("defend")),
        value(Some(DecisionKind::Resolve), tag("resolve")),
        value(Some(DecisionKind::Block), tag("block")),
        value(Some(DecisionKind::Crew), tag("crew")),
        value(Some(DecisionKind::Repel), tag("repel")),
    ))(i)
}

// ---------------------------------------------------------------- position

fn cards_view(c: &Cards) -> String {
    match c {
        Cards::Own(v) => join_cards(v),
        Cards::Count(n) => format!("#{n}"),
    }
}

fn attack_code(a: &Attack) -> String {
    format!("{}:{}:{}", a.card, a.from as u16 + 1, a.attacker as u16 + 1)
}

/// The `position` line (without the keyword) for an observation.
pub fn format_observation(o: &Observation, rules: &Ruleset) -> String {
    let n = |x: u8| x as u16 + 1;
    let mut t = vec![
        format!("seat={}", n(o.seat)),
        format!("players={}", o.players),
        format!("dealer={}", o.players),
        format!("decks={}", rules.decks(o.players as usize)),
        format!("round={}", o.round),
        format!("limit={}", o.round_limit),
        format!("draw={}", o.draw),
        format!("discard={}", join_cards(&o.discard)),
    ];
    for (i, s) in o.seats.iter().enumerate() {
        let status = if s.active { "in" } else { "out" };
        let class = match s.class {
            Some((c, card)) => format!("{}:{card}", rules.classes[c as usize].code),
            None => "-".into(),
        };
        t.push(format!("p{}={status}:{class}", i + 1));
        if !s.hand.is_empty() {
            t.push(format!("hand{}={}", i + 1, cards_view(&s.hand)));
        }
    }
    for sh in &o.ships {
        let hull = if sh.alive {
            cards_view(&sh.hull)
        } else {
            "x".into()
        };
        t.push(format!(
            "ship{}={}:{}:{}:{hull}",
            n(sh.id),
            n(sh.owner),
            rules.classes[sh.class as usize].code,
            sh.size
        ));
    }
    for a in &o.attacks {
        let c = a.card.map_or("?".to_string(), |c| c.to_string());
        let up = if a.face_up { "up" } else { "down" };
        t.push(format!(
            "atk={}>{}:{}:{c}:{up}",
            n(a.from),
            n(a.target),
            n(a.attacker)
        ));
    }
    let step = match o.step {
        Step::Class => "class".to_string(),
        Step::Discard => "discard".into(),
        Step::Split => "split".into(),
        Step::Tactical => "tactical".into(),
        Step::Over => "over".into(),
        Step::Battle(b) => {
            let ship = b.ship.map_or("-".to_string(), |s| n(s).to_string());
            let sub = match b.step {
                BattleStep::ChooseShip => "ship".to_string(),
                BattleStep::ChooseAttack => "order".into(),
                BattleStep::Block(a) => format!("block:{}", attack_code(&a)),
                BattleStep::Lose { attack, count } => {
                    format!("lose:{}:{count}", attack_code(&attack))
                }
                BattleStep::Crew(a) => format!("crew:{}", attack_code(&a)),
                BattleStep::Repel { attack, crew } => {
                    format!("repel:{}:{crew}", attack_code(&attack))
                }
            };
            format!("battle:{}:{ship}:{sub}", n(b.cursor))
        }
    };
    t.push(format!("step={step}"));
    if let Some(r) = o.result {
        t.push(format!("result={}", r.text().replace(' ', ":")));
    }
    t.push(format!("pending={}", format_kind(o.pending)));
    t.join(" ")
}

/// The full line a seat receives to learn the table: `position ...`.
pub fn position_line(state: &State, seat: u8) -> String {
    format!(
        "position {}",
        format_observation(&Observation::of(state, seat), state.rules())
    )
}

#[derive(Clone, Debug)]
enum Field {
    Seat(u8),
    Players(u8),
    Dealer(u8),
    Decks(u8),
    Round(u16),
    Limit(u16),
    Draw(u16),
    Discard(Vec<Card>),
    Player(u8, bool, Option<(char, Card)>),
    Hand(u8, CardsText),
    Ship(u8, u8, char, u8, Option<CardsText>),
    Atk(u8, u8, u8, Option<Card>, bool),
    Step(StepText),
    Result(Outcome),
    Pending(Option<DecisionKind>),
}

type SeatText = (u8, bool, Option<(char, Card)>);

#[derive(Clone, Debug)]
enum CardsText {
    Known(Vec<Card>),
    Count(u8),
}

#[derive(Clone, Debug)]
enum StepText {
    Simple(Step),
    Battle(u8, Option<u8>, SubText),
}

#[derive(Clone, Debug)]
enum SubText {
    Ship,
    Order,
    Block(Card, u8, u8),
    Lose(Card, u8, u8, u8),
    Crew(Card, u8, u8),
    Repel(Card, u8, u8, Card),
}

fn cards_text(i: &str) -> Res<'_, CardsText> {
    alt((
        map(preceded(char('#'), num), CardsText::Count),
        map(card_list, CardsText::Known),
    ))(i)
}

fn class_code(i: &str) -> Res<'_, char> {
    nom::character::complete::satisfy(|c| c.is_ascii_uppercase())(i)
}

fn att3(i: &str) -> Res<'_, (Card, u8, u8)> {
    map(
        tuple((card, char(':'), id, char(':'), id)),
        |(c, _, f, _, a)| (c, f, a),
    )(i)
}

fn sub(i: &str) -> Res<'_, SubText> {
    alt((
        value(SubText::Ship, tag("ship")),
        value(SubText::Order, tag("order")),
        map(preceded(tag("block:"), att3), |(c, f, a)| {
            SubText::Block(c, f, a)
        }),
        map(
            preceded(tag("lose:"), separated_pair(att3, char(':'), num)),
            |((c, f, a), k)| SubText::Lose(c, f, a, k),
        ),
        map(preceded(tag("crew:"), att3), |(c, f, a)| {
            SubText::Crew(c, f, a)
        }),
        map(
            preceded(tag("repel:"), separated_pair(att3, char(':'), card)),
            |((c, f, a), crew)| SubText::Repel(c, f, a, crew),
        ),
    ))(i)
}

fn step(i: &str) -> Res<'_, StepText> {
    alt((
        value(StepText::Simple(Step::Class), tag("class")),
        value(StepText::Simple(Step::Discard), tag("discard")),
        value(StepText::Simple(Step::Split), tag("split")),
        value(StepText::Simple(Step::Tactical), tag("tactical")),
        value(StepText::Simple(Step::Over), tag("over")),
        map(
            tuple((
                tag("battle:"),
                id,
                char(':'),
                alt((map(id, Some), value(None, char('-')))),
                char(':'),
                sub,
            )),
            |(_, c, _, s, _, x)| StepText::Battle(c, s, x),
        ),
    ))(i)
}

fn outcome(i: &str) -> Res<'_, Outcome> {
    alt((
        map(preceded(tag("win:"), id), Outcome::Win),
        map(
            preceded(tag("draw:"), separated_list1(char(','), id)),
            |v: Vec<u8>| Outcome::Draw(v.iter().fold(0u16, |m, s| m | 1 << (*s).min(15))),
        ),
    ))(i)
}

fn field(i: &str) -> Res<'_, Field> {
    alt((
        alt((
            map(preceded(tag("seat="), id), Field::Seat),
            map(preceded(tag("players="), num), Field::Players),
            map(preceded(tag("dealer="), num), Field::Dealer),
            map(preceded(tag("decks="), num), Field::Decks),
            map(preceded(tag("round="), num), Field::Round),
            map(preceded(tag("limit="), num), Field::Limit),
            map(preceded(tag("draw="), num), Field::Draw),
            map(preceded(tag("discard="), card_list), Field::Discard),
        )),
        map(
            tuple((
                char('p'),
                id,
                char('='),
                alt((value(true, tag("in")), value(false, tag("out")))),
                char(':'),
                alt((
                    map(separated_pair(class_code, char(':'), card), Some),
                    value(None, char('-')),
                )),
            )),
            |(_, s, _, a, _, c)| Field::Player(s, a, c),
        ),
        map(
            tuple((tag("hand"), id, char('='), cards_text)),
            |(_, s, _, c)| Field::Hand(s, c),
        ),
        map(
            tuple((
                tag("ship"),
                id,
                char('='),
                id,
                char(':'),
                class_code,
                char(':'),
                num,
                char(':'),
                alt((value(None, char('x')), map(cards_text, Some))),
            )),
            |(_, sid, _, owner, _, cl, _, size, _, hull)| Field::Ship(sid, owner, cl, size, hull),
        ),
        map(
            tuple((
                tag("atk="),
                id,
                char('>'),
                id,
                char(':'),
                id,
                char(':'),
                alt((map(card, Some), value(None, char('?')))),
                char(':'),
                alt((value(true, tag("up")), value(false, tag("down")))),
            )),
            |(_, f, _, t, _, a, _, c, _, up)| Field::Atk(f, t, a, c, up),
        ),
        map(preceded(tag("step="), step), Field::Step),
        map(preceded(tag("result="), outcome), Field::Result),
        map(preceded(tag("pending="), kind), Field::Pending),
    ))(i)
}

fn fields(i: &str) -> Res<'_, Vec<Field>> {
    all_consuming(terminated(
        preceded(space0, separated_list0(space1, field)),
        space0,
    ))(i)
}

/// Parses the text after `position` into an observation, checking that it is one a seat could
/// see: hidden cards only as counts, ids in range, card totals matching the pack.
pub fn parse_observation(text: &str, rules: &Arc<Ruleset>) -> Result<Observation, String> {
    let fs = match fields(text) {
        Ok((_, f)) => f,
        Err(_) => {
            let bad = text
                .split_whitespace()
                .find(|t| all_consuming(field)(t).is_err())
                .unwrap_or(text.trim());
            return Err(format!("malformed position field '{bad}'"));
        }
    };
    let mut seat = None;
    let mut players = None;
    let (mut round, mut limit, mut draw) = (None, None, None);
    let mut discard = Vec::new();
    let mut seats_raw: Vec<SeatText> = Vec::new();
    let mut hands: Vec<(u8, CardsText)> = Vec::new();
    let mut ships_raw = Vec::new();
    let mut atks = Vec::new();
    let mut step_t = None;
    let mut result = None;
    let mut pending = None;
    let (mut dealer, mut decks) = (None, None);
    for f in fs {
        match f {
            Field::Seat(s) => seat = Some(s),
            Field::Players(p) => players = Some(p),
            Field::Dealer(d) => dealer = Some(d),
            Field::Decks(d) => decks = Some(d),
            Field::Round(r) => round = Some(r),
            Field::Limit(l) => limit = Some(l),
            Field::Draw(d) => draw = Some(d),
            Field::Discard(d) => discard = d,
            Field::Player(s, a, c) => seats_raw.push((s, a, c)),
            Field::Hand(s, c) => hands.push((s, c)),
            Field::Ship(id, o, c, z, h) => ships_raw.push((id, o, c, z, h)),
            Field::Atk(f, t, a, c, u) => atks.push((f, t, a, c, u)),
            Field::Step(s) => step_t = Some(s),
            Field::Result(r) => result = Some(r),
            Field::Pending(p) => pending = Some(p),
        }
    }
    let need = |name: &str| format!("position lacks '{name}='");
    let players = players.ok_or_else(|| need("players"))?;
    if !(2..=8).contains(&players) {
        return Err(format!("players={players}: must be 2..8"));
    }
    let seat = seat.ok_or_else(|| need("seat"))?;
    if seat >= players {
        return Err(format!("seat={} beyond players={players}", seat + 1));
    }
    if dealer.is_some_and(|d| d != players) {
        return Err("dealer must be seat N (the last seat)".into());
    }
    if decks.is_some_and(|d| d != rules.decks(players as usize)) {
        return Err(format!(
            "decks={} but {players} players use {}",
            decks.unwrap_or(0),
            rules.decks(players as usize)
        ));
    }
    let class_of = |code: char| -> Result<u8, String> {
        rules
            .classes
            .iter()
            .position(|k| k.code == code)
            .map(|i| i as u8)
            .ok_or(format!("unknown ship class '{code}'"))
    };
    let mut seats = vec![None; players as usize];
    for (s, active, c) in seats_raw {
        let slot = seats
            .get_mut(s as usize)
            .ok_or(format!("p{} beyond players", s as u16 + 1))?;
        let class = match c {
            Some((code, card)) => {
                let k = class_of(code)?;
                if !rules.classes[k as usize].marker.accepts(card) {
                    return Err(format!("{card} cannot be the ship card of class {code}"));
                }
                Some((k, card))
            }
            None => None,
        };
        *slot = Some(SeatView {
            active,
            class,
            hand: Cards::Count(0),
        });
    }
    let mut seats: Vec<SeatView> = seats
        .into_iter()
        .enumerate()
        .map(|(i, s)| s.ok_or(format!("position lacks 'p{}='", i + 1)))
        .collect::<Result<_, _>>()?;
    seats[seat as usize].hand = Cards::Own(Vec::new());
    let own_or_count = |owner: u8, c: CardsText, what: &str| -> Result<Cards, String> {
        match c {
            CardsText::Count(n) if owner == seat && n > 0 => Err(format!(
                "{what}: the seat's own cards must be shown, not counted"
            )),
            CardsText::Count(n) => Ok(Cards::Count(n)),
            CardsText::Known(v) if owner == seat => Ok(Cards::Own(v)),
            CardsText::Known(_) => Err(format!(
                "{what} shows cards of seat {}: only counts of other seats' cards may be sent",
                owner as u16 + 1
            )),
        }
    };
    for (s, c) in hands {
        let slot = seats
            .get_mut(s as usize)
            .ok_or(format!("hand{} beyond players", s as u16 + 1))?;
        slot.hand = own_or_count(s, c, &format!("hand{}", s as u16 + 1))?;
    }
    let mut ships = Vec::new();
    for (i, (sid, owner, code, size, hull)) in ships_raw.into_iter().enumerate() {
        if sid as usize != i {
            return Err(format!(
                "ship{} out of order: ships are numbered 1,2,3...",
                sid as u16 + 1
            ));
        }
        if owner >= players {
            return Err(format!(
                "ship{} owned by seat {} beyond players",
                sid + 1,
                owner + 1
            ));
        }
        let class = class_of(code)?;
        let (alive, hull) = match hull {
            None => (false, Cards::Count(0)),
            Some(h) => (
                true,
                own_or_count(owner, h, &format!("ship{}", sid as u16 + 1))?,
            ),
        };
        ships.push(ShipView {
            id: sid,
            owner,
            class,
            size,
            alive,
            hull,
        });
    }
    let nships = ships.len() as u8;
    let ship_ok = |s: u8| -> Result<u8, String> {
        if s < nships {
            Ok(s)
        } else {
            Err(format!("no ship {}", s as u16 + 1))
        }
    };
    let mut attacks = Vec::new();
    for (from, target, attacker, card, face_up) in atks {
        ship_ok(from)?;
        ship_ok(target)?;
        if attacker >= players {
            return Err(format!("attacker seat {} beyond players", attacker + 1));
        }
        if card.is_some() && !face_up && attacker != seat {
            return Err("a face-down attack card of another seat must be '?'".into());
        }
        if card.is_none() && (face_up || attacker == seat) {
            return Err("a face-up or own attack card must be shown".into());
        }
        attacks.push(AttackView {
            from,
            target,
            attacker,
            card,
            face_up,
        });
    }
    let step = match step_t.ok_or_else(|| need("step"))? {
        StepText::Simple(s) => s,
        StepText::Battle(cursor, ship, sub) => {
            if cursor >= players {
                return Err("battle cursor beyond players".into());
            }
            if let Some(s) = ship {
                ship_ok(s)?;
            }
            let target = ship;
            let mk = |c: Card, f: u8, a: u8| -> Result<Attack, String> {
                let t = target.ok_or("a resolving attack needs a ship")?;
                ship_ok(f)?;
                if a >= players {
                    return Err(format!("attacker seat {} beyond players", a as u16 + 1));
                }
                Ok(Attack {
                    card: c,
                    from: f,
                    target: t,
                    attacker: a,
                    face_up: true,
                })
            };
            let step = match sub {
                SubText::Ship => BattleStep::ChooseShip,
                SubText::Order => {
                    target.ok_or("'order' needs a ship")?;
                    BattleStep::ChooseAttack
                }
                SubText::Block(c, f, a) => BattleStep::Block(mk(c, f, a)?),
                SubText::Lose(c, f, a, k) => BattleStep::Lose {
                    attack: mk(c, f, a)?,
                    count: k,
                },
                SubText::Crew(c, f, a) => BattleStep::Crew(mk(c, f, a)?),
                SubText::Repel(c, f, a, crew) => BattleStep::Repel {
                    attack: mk(c, f, a)?,
                    crew,
                },
            };
            Step::Battle(Battle { cursor, ship, step })
        }
    };
    let obs = Observation {
        seat,
        players,
        round: round.ok_or_else(|| need("round"))?,
        round_limit: limit.unwrap_or(rules.round_limit),
        draw: draw.ok_or_else(|| need("draw"))?,
        discard,
        seats: std::mem::take(&mut seats),
        ships,
        attacks,
        step,
        pending: pending.ok_or_else(|| need("pending"))?,
        result,
    };
    check_consistent(&obs, rules)?;
    check_setup_hands(&obs, rules)?;
    if let Some(p) = obs.pending {
        let w = sample_world(&obs, rules, &mut ChaCha8Rng::seed_from_u64(0))?;
        let truth = w.pending_for(seat);
        if truth != Some(p) {
            return Err(format!(
                "pending={} does not fit the step (the rules say {})",
                format_kind(Some(p)),
                format_kind(truth)
            ));
        }
    }
    Ok(obs)
}

/// Refuses setup hands that cannot arise (and would leave a seat without a legal decision): in
/// the class step every seat holds the dealt hand; a seat about to split its fighters holds at
/// least one card per fighter and no more than they carry.
fn check_setup_hands(obs: &Observation, rules: &Ruleset) -> Result<(), String> {
    for (i, s) in obs.seats.iter().enumerate() {
        let n = s.hand.len();
        match (obs.step, s.class) {
            (Step::Class, _) if n != rules.hand_size as usize => {
                return Err(format!(
                    "hand{} has {n} cards: in the class step every hand holds the {} dealt",
                    i + 1,
                    rules.hand_size
                ));
            }
            (Step::Split, Some((c, _))) => {
                let k = &rules.classes[c as usize];
                let (lo, hi) = (k.ships as usize, k.ships as usize * k.size as usize);
                if k.ships > 1 && !(lo..=hi).contains(&n) {
                    return Err(format!(
                        "hand{} has {n} cards: {} ships of class {} take {lo} to {hi}",
                        i + 1,
                        k.ships,
                        k.code
                    ));
                }
            }
            _ => {}
        }
    }
    Ok(())
}

/// Every line the referee sends `seat` to bring it up to date: the events logged since index
/// `from` (masked for the seat, as `event ...`; empty unless the state logs events), then the
/// seat's `position` line.
pub fn lines_for_seat(state: &State, seat: u8, from: usize) -> Vec<String> {
    let mut v: Vec<String> = state.events()[from.min(state.events().len())..]
        .iter()
        .map(|e| format!("event {}", e.line_for(seat, state.rules())))
        .collect();
    v.push(position_line(state, seat));
    v
}

/// The referee's side of `bestmove`: parses the text (with or without the `bestmove` keyword)
/// into a decision and checks it with the rules core for `seat`, without applying it.
pub fn checked_decision(state: &State, seat: u8, text: &str) -> Result<Decision, String> {
    let t = text.trim();
    let t = t.strip_prefix("bestmove").map_or(t, str::trim_start);
    let d = parse_decision(t, state.rules())?;
    state
        .check(seat, &d)
        .map_err(|e| format!("illegal decision '{t}': {e}"))?;
    Ok(d)
}
