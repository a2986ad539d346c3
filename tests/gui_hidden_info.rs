//! What the board's server sends each Space Wars seat, read off the WebSocket itself: every
//! message a seat's browser receives is checked against the true game (replayed here from the
//! same seed and decisions) — no card appears in it that the seat may not know, other seats'
//! hands and hulls are counts, face-down attack cards are unknown, and no other seat's thinking
//! output or decision text is forwarded.

use std::collections::HashSet;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::{Duration, Instant};

use futures_util::{SinkExt, StreamExt};
use orrery::engines::spacewars::make_player;
use orrery::games::spacewars::wire::{
    format_decision, format_observation, parse_decision, parse_observation,
};
use orrery::games::spacewars::{Observation, Ruleset, State};
use orrery::search::ismcts::SearchBudget as Budget;
use serde_json::{json, Value};
use tokio_tungstenite::tungstenite::Message;

mod gui_support;
use gui_support::Server;

type Ws =
    tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

async fn connect(url: &str) -> Ws {
    tokio_tungstenite::connect_async(url)
        .await
        .expect("websocket")
        .0
}

async fn send(ws: &mut Ws, v: Value) {
    ws.send(Message::Text(v.to_string().into()))
        .await
        .expect("send");
}

/// The next text message within `wait`, if any.
async fn next(ws: &mut Ws, wait: Duration) -> Option<String> {
    match tokio::time::timeout(wait, ws.next()).await {
        Ok(Some(Ok(Message::Text(t)))) => Some(t.to_string()),
        Ok(Some(Ok(_))) => Some(String::new()),
        _ => None,
    }
}

fn is_card(t: &str) -> bool {
    let b = t.as_bytes();
    t == "X" || (b.len() == 2 && b"A23456789TJQK".contains(&b[0]) && b"CDHS".contains(&b[1]))
}

/// Every card code appearing as a token in the string values of a JSON message.
fn card_tokens(v: &Value, out: &mut HashSet<String>) {
    match v {
        Value::String(s) => {
            for t in s.split(|c: char| !c.is_ascii_alphanumeric()) {
                if is_card(t) {
                    out.insert(t.to_string());
                }
            }
        }
        Value::Array(a) => a.iter().for_each(|x| card_tokens(x, out)),
        Value::Object(o) => o.values().for_each(|x| card_tokens(x, out)),
        _ => {}
    }
}

fn text_tokens(s: &str, out: &mut HashSet<String>) {
    card_tokens(&Value::String(s.to_string()), out);
}

/// The true game after the first `k` decisions: seat queues replayed in the server's batches.
fn truth(seed: u64, players: usize, sent: &[Vec<String>], k: usize) -> State {
    let mut st = State::new(players, seed).unwrap();
    st.enable_log();
    let mut used = vec![0usize; players];
    let mut applied = 0;
    let mut pending = Vec::new();
    while applied < k {
        st.pending(&mut pending);
        assert!(!pending.is_empty(), "decision {applied} after the end");
        let batch: Vec<u8> = pending.iter().map(|(s, _)| *s).collect();
        for s in batch {
            let text = &sent[s as usize][used[s as usize]];
            used[s as usize] += 1;
            let d = parse_decision(text, st.rules()).unwrap();
            st.apply(s, &d).unwrap();
            applied += 1;
        }
    }
    st
}

/// What seat `seat` may know after `k` decisions: its observation, the events masked for it,
/// and its own decision texts.
fn allowed(st: &State, seat: u8, own: &[String]) -> HashSet<String> {
    let mut out = HashSet::new();
    text_tokens(
        &format_observation(&Observation::of(st, seat), st.rules()),
        &mut out,
    );
    for e in st.events() {
        text_tokens(&e.line_for(seat, st.rules()), &mut out);
    }
    for d in own {
        text_tokens(d, &mut out);
    }
    out
}

/// The structure of a seat's table message: only counts for what others hold.
fn check_structure(seat: usize, m: &Value) {
    assert!(m.get("moves").is_none(), "decision texts are not sent: {m}");
    let v = &m["view_table"];
    assert_eq!(v["seat"], seat, "a seat receives its own view only");
    for (i, s) in v["seats"].as_array().unwrap().iter().enumerate() {
        if i != seat {
            assert!(
                s["hand"].get("cards").is_none(),
                "seat {i}'s hand leaked: {s}"
            );
        }
    }
    for sh in v["ships"].as_array().unwrap() {
        if sh["owner"] != seat {
            assert!(sh["hull"].get("cards").is_none(), "a hull leaked: {sh}");
        }
    }
    for a in v["attacks"].as_array().unwrap() {
        if a["attacker"] != seat && a["face_up"] == false {
            assert!(a["card"].is_null(), "a face-down attack card leaked: {a}");
        }
    }
}

#[tokio::test]
async fn each_space_wars_seat_receives_only_what_it_may_see() {
    let server = Server::start(&[]);
    let (seed, players) = (5u64, 2usize);
    let rules = Arc::new(Ruleset::default());
    let mut ws = [connect(&server.ws).await, connect(&server.ws).await];
    send(
        &mut ws[0],
        json!({"t": "new", "game": "space-wars", "setup": "2", "seats": ["person", "person"],
               "tc": "movetime 60000", "seed": seed}),
    )
    .await;
    let mut received: Vec<Vec<Value>> = vec![Vec::new(), Vec::new()];
    let mut latest: Vec<Option<Value>> = vec![None, None];
    // Seat 1's browser gets the table; seat 2's browser joins it.
    let deadline = Instant::now() + Duration::from_secs(60);
    let table = loop {
        assert!(Instant::now() < deadline, "no table");
        if let Some(t) = next(&mut ws[0], Duration::from_secs(5)).await {
            let v: Value = serde_json::from_str(&t).unwrap_or(Value::Null);
            received[0].push(v.clone());
            if v["t"] == "table" {
                let id = v["table"].as_u64().unwrap();
                latest[0] = Some(v);
                break id;
            }
        }
    };
    send(
        &mut ws[1],
        json!({"t": "join", "table": table, "seats": [1]}),
    )
    .await;
    let mut sent: Vec<Vec<String>> = vec![Vec::new(), Vec::new()];
    let mut answered: Vec<Option<(u64, String)>> = vec![None, None];
    let mut deciders = [
        make_player("random", 11).unwrap(),
        make_player("random", 12).unwrap(),
    ];
    let stop = AtomicBool::new(false);
    let limit = 120u64;
    let deadline = Instant::now() + Duration::from_secs(240);
    loop {
        assert!(Instant::now() < deadline, "the game did not move on");
        for s in 0..players {
            while let Some(t) = next(&mut ws[s], Duration::from_millis(20)).await {
                let v: Value = serde_json::from_str(&t).unwrap_or(Value::Null);
                received[s].push(v.clone());
                if v["t"] == "table" {
                    latest[s] = Some(v);
                }
            }
        }
        let over = latest.iter().flatten().any(|v| v["over"] == true);
        let done = latest
            .iter()
            .flatten()
            .any(|v| v["decisions"].as_u64().unwrap() >= limit);
        if over || done {
            break;
        }
        for s in 0..players {
            let Some(v) = &latest[s] else { continue };
            let view = &v["view_table"];
            let Some(pending) = view["pending"].as_str() else {
                continue;
            };
            let key = (v["decisions"].as_u64().unwrap(), pending.to_string());
            if v["seats"][s]["decided"] == true || answered[s].as_ref() == Some(&key) {
                continue;
            }
            let pos = view["position"].as_str().unwrap();
            let obs = parse_observation(pos.strip_prefix("position ").unwrap(), &rules)
                .expect("the position line parses");
            let choice = deciders[s]
                .decide(&obs, &Budget::iterations(1), &stop, &mut |_| {})
                .unwrap();
            let text = format_decision(&choice.decision, &rules);
            sent[s].push(text.clone());
            answered[s] = Some(key);
            send(&mut ws[s], json!({"t": "move", "text": text})).await;
        }
    }
    // Every message each seat received, against the truth at that point.
    let mut checked = 0;
    let mut cache: Vec<Option<State>> = Vec::new();
    for s in 0..players {
        let mut own_so_far = Vec::new();
        for m in &received[s] {
            assert_ne!(m["t"], "think", "no engine, no thinking output");
            if m["t"] == "refused" {
                panic!("the random player's decision was refused: {m}");
            }
            if m["t"] != "table" {
                continue;
            }
            check_structure(s, m);
            let k = m["decisions"].as_u64().unwrap() as usize;
            if cache.len() <= k {
                cache.resize_with(k + 1, || None);
            }
            if cache[k].is_none() {
                cache[k] = Some(truth(seed, players, &sent, k));
            }
            let st = cache[k].as_ref().unwrap();
            own_so_far.clone_from(&sent[s]);
            let ok = allowed(st, s as u8, &own_so_far);
            let mut seen = HashSet::new();
            card_tokens(m, &mut seen);
            let leaked: Vec<&String> = seen.difference(&ok).collect();
            assert!(
                leaked.is_empty(),
                "seat {} was sent {leaked:?} after {k} decisions: {m}",
                s + 1
            );
            checked += 1;
        }
    }
    assert!(checked > 20, "only {checked} messages checked");
    assert!(
        sent[0].len() >= 3 && sent[1].len() >= 3 && sent[0].len() + sent[1].len() >= 10,
        "decisions: {sent:?}"
    );
}

#[tokio::test]
async fn an_engine_seats_thinking_never_reaches_another_seat() {
    let server = Server::start(&[]);
    let mut ws = connect(&server.ws).await;
    send(
        &mut ws,
        json!({"t": "new", "game": "space-wars", "setup": "2", "seats": ["person", 0],
               "tc": "nodes 200", "seed": 3}),
    )
    .await;
    let rules = Arc::new(Ruleset::default());
    let mut me = make_player("random", 4).unwrap();
    let stop = AtomicBool::new(false);
    let mut answered: Option<(u64, String)> = None;
    let mut engine_decisions = 0;
    let mut finished = false;
    let deadline = Instant::now() + Duration::from_secs(240);
    let mut messages = 0;
    while Instant::now() < deadline {
        let Some(t) = next(&mut ws, Duration::from_millis(200)).await else {
            continue;
        };
        let v: Value = serde_json::from_str(&t).unwrap_or(Value::Null);
        messages += 1;
        assert_ne!(v["t"], "think", "seat 2's thinking was sent to seat 1: {v}");
        if v["t"] != "table" {
            continue;
        }
        check_structure(0, &v);
        assert!(v["seats"][1]["thinking"].is_null(), "{v}");
        if v["over"] == true || v["decisions"].as_u64().unwrap() >= 30 {
            engine_decisions = v["decisions"].as_u64().unwrap();
            finished = v["over"] == true;
            break;
        }
        let view = &v["view_table"];
        let Some(pending) = view["pending"].as_str() else {
            continue;
        };
        let key = (v["decisions"].as_u64().unwrap(), pending.to_string());
        if v["seats"][0]["decided"] == true || answered.as_ref() == Some(&key) {
            continue;
        }
        let obs = parse_observation(
            view["position"]
                .as_str()
                .unwrap()
                .strip_prefix("position ")
                .unwrap(),
            &rules,
        )
        .unwrap();
        let text = format_decision(
            &me.decide(&obs, &Budget::iterations(1), &stop, &mut |_| {})
                .unwrap()
                .decision,
            &rules,
        );
        answered = Some(key);
        send(&mut ws, json!({"t": "move", "text": text})).await;
    }
    assert!(
        engine_decisions >= 4 && (finished || engine_decisions >= 10),
        "the game went on with the engine ({engine_decisions} decisions, {messages} messages)"
    );
}
