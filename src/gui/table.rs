//! One table of the board: a game, its seats (each a person at a browser or an engine), the
//! clocks, the move list, and the browsers connected to it. The table runs on a thread of its own
//! and never waits for an engine: engines think on their own threads ([`EngineSeat`]) and report
//! back through the table's channel, so clicks, clocks and other seats are served meanwhile.
//!
//! Every decision — a person's click or an engine's answer — is checked and applied by the
//! referee's adapter of the game's rules core; a refused decision changes nothing and its reason
//! goes back to the browser that sent it. In Space Wars every browser gets only its own seat's
//! observation, events masked for that seat, and no other seat's thinking output.

use std::collections::HashMap;
use std::sync::mpsc::{Receiver, RecvTimeoutError, Sender};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use serde_json::{json, Value};

use crate::referee::clock::{Clocks, TimeControl};
use crate::referee::engine::{EngineSpec, Fault, GameContext, Reply, Timeouts};
use crate::referee::game_adapter::Outcome;
use crate::referee::records::{pgn, score_field, GameRecord, MoveRecord};

use super::engine_seat::{EngineSeat, FromEngine, ToEngine};
use super::game::{GameChoice, TableGame};
use super::thinking::{self, Thinking};

/// A browser connection's id.
pub type ConnId = u64;

/// Where a table sends a browser its messages (JSON text).
pub type Outbox = tokio::sync::mpsc::UnboundedSender<String>;

/// Who plays a seat.
#[derive(Clone, Debug)]
pub enum Player {
    /// A person at a browser.
    Person,
    /// An engine process.
    Engine(EngineSpec),
    /// A player elsewhere whose decisions arrive as [`TableMsg::Remote`] (a live match).
    Remote(String),
}

/// Everything needed to open a table.
#[derive(Clone, Debug)]
pub struct TableSetup {
    /// The game.
    pub choice: GameChoice,
    /// One player per seat.
    pub players: Vec<Player>,
    /// Time control for every seat (persons are flagged only under a clock).
    pub tc: TimeControl,
    /// Engine handshake timeouts.
    pub timeouts: Timeouts,
}

/// How a browser joins a table.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum JoinAs {
    /// The browser that opened the table: every person seat in a perfect-information game (one
    /// board for several people, or one person against engines), the first person seat in a
    /// hidden-information game.
    Creator,
    /// These free person seats (one in a hidden-information game); a browser that lost its
    /// connection takes its seats back this way.
    Seats(Vec<usize>),
    /// A watcher; in a hidden-information game, of one seat's view.
    Watch(Option<usize>),
}

/// What a table is told.
pub enum TableMsg {
    /// A browser joins.
    Join {
        /// Connection.
        conn: ConnId,
        /// Its outbox.
        out: Outbox,
        /// As what.
        how: JoinAs,
    },
    /// A browser left or its connection dropped.
    Leave {
        /// Connection.
        conn: ConnId,
    },
    /// A person's decision (move text) from a browser.
    Decide {
        /// Connection.
        conn: ConnId,
        /// The decision as text.
        text: String,
    },
    /// A browser asks for the PGN and the JSON record of the game.
    Export {
        /// Connection.
        conn: ConnId,
    },
    /// An engine seat's report.
    Engine(usize, FromEngine),
    /// A decision played elsewhere (a live match's log), checked here like any other.
    Remote(MoveRecord),
    /// The game played elsewhere ended (by rule, fault or adjudication).
    RemoteEnd {
        /// Rank per seat.
        ranks: Vec<f64>,
        /// Why.
        reason: String,
    },
    /// Close the table: stop its engines.
    Close,
}

fn wrap_engine(seat: usize, m: FromEngine) -> TableMsg {
    TableMsg::Engine(seat, m)
}

struct Seat {
    label: String,
    name: String,
    engine: Option<EngineSeat>,
    remote: bool,
    ready: bool,
    holder: Option<ConnId>,
    /// When the seat started deciding (the clock runs).
    since: Option<Instant>,
    /// An engine was sent `Think` and has not answered.
    asked: bool,
    thinking: Option<Thinking>,
    think_dirty: bool,
    think_sent: Option<Instant>,
}

struct Conn {
    out: Outbox,
    seats: Vec<usize>,
    view: Option<usize>,
}

/// A one-line public summary of a table for the lobby.
pub type Summary = Arc<Mutex<Value>>;

/// The table's state; run by [`run`].
struct Table {
    id: u64,
    title: String,
    game: TableGame,
    choice: GameChoice,
    seats: Vec<Seat>,
    conns: HashMap<ConnId, Conn>,
    clocks: Clocks,
    tc: TimeControl,
    moves: Vec<MoveRecord>,
    last: Option<((u8, u8), (u8, u8))>,
    pending: Vec<(usize, String, MoveRecord)>,
    outcome: Option<Outcome>,
    fault_seat: Option<usize>,
    alert: Option<String>,
    notes: Vec<String>,
    started: u64,
    t0: Instant,
    summary: Summary,
}

/// Opens a table: starts the game and every engine seat. Returns the table's channel; the table
/// runs on its own thread until [`TableMsg::Close`] or until every sender is gone.
pub fn open(
    id: u64,
    setup: TableSetup,
    summary: Summary,
    tx: Sender<TableMsg>,
    rx: Receiver<TableMsg>,
) -> Result<(), String> {
    let game = TableGame::new(&setup.choice)?;
    let n = game.dyn_game().seats();
    if setup.players.len() != n {
        return Err(format!(
            "{} needs {n} seats, {} were given",
            game.kind().name(),
            setup.players.len()
        ));
    }
    if n > 2 {
        if let Some(Player::Engine(e)) = setup.players.iter().find(
            |p| matches!(p, Player::Engine(e) if e.proto == crate::referee::engine::Proto::Xboard),
        ) {
            return Err(format!(
                "engine {}: CECP (xboard) is for two-seat games only",
                e.name
            ));
        }
    }
    let labels = game.seat_labels();
    let variant = match &setup.choice.variant {
        Some(v) => Some(v.name().to_string()),
        None => game.kind().variant(setup.choice.setup.as_deref()),
    };
    let mut seats = Vec::with_capacity(n);
    for (seat, p) in setup.players.iter().enumerate() {
        let (name, engine) = match p {
            Player::Person => ("Person".to_string(), None),
            Player::Remote(n) => (n.clone(), None),
            Player::Engine(spec) => {
                let ctx = GameContext {
                    variant: variant.clone(),
                    seat,
                    seats: n,
                };
                let copy = game.replica()?;
                let e = EngineSeat::spawn(
                    spec.clone(),
                    ctx,
                    setup.timeouts,
                    copy,
                    tx.clone(),
                    wrap_engine,
                );
                (spec.name.clone(), Some(e))
            }
        };
        seats.push(Seat {
            label: labels.get(seat).cloned().unwrap_or_default(),
            name,
            engine,
            remote: matches!(p, Player::Remote(_)),
            ready: false,
            holder: None,
            since: None,
            asked: false,
            thinking: None,
            think_dirty: false,
            think_sent: None,
        });
    }
    let title = match (&setup.choice.variant, game.kind()) {
        (Some(v), _) if v.name() != "spider-chess" => format!("Spider-Chess variant {}", v.name()),
        (_, crate::referee::game_kind::GameKind::SpiderChess) => "Spider-Chess".to_string(),
        (_, crate::referee::game_kind::GameKind::SolarChess) => format!(
            "Solar Chess ({})",
            setup.choice.setup.as_deref().unwrap_or("duel")
        ),
        (_, _) => format!("Space Wars, {n} players"),
    };
    let table = Table {
        id,
        title,
        clocks: Clocks::new(
            setup.tc,
            n,
            Duration::from_millis(300),
            Duration::from_secs(60),
        ),
        tc: setup.tc,
        choice: setup.choice,
        game,
        seats,
        conns: HashMap::new(),
        moves: Vec::new(),
        last: None,
        pending: Vec::new(),
        outcome: None,
        fault_seat: None,
        alert: None,
        notes: Vec::new(),
        started: SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map(|d| d.as_secs())
            .unwrap_or(0),
        t0: Instant::now(),
        summary,
    };
    std::thread::Builder::new()
        .name(format!("gui-table-{id}"))
        .spawn(move || run(table, rx))
        .map_err(|e| format!("cannot start the table: {e}"))?;
    Ok(())
}

fn run(mut t: Table, rx: Receiver<TableMsg>) {
    t.advance();
    loop {
        match rx.recv_timeout(Duration::from_millis(100)) {
            Ok(TableMsg::Close) => break,
            Ok(m) => t.handle(m),
            Err(RecvTimeoutError::Timeout) => {}
            Err(RecvTimeoutError::Disconnected) => break,
        }
        t.tick();
    }
    for c in t.conns.values() {
        let _ = c
            .out
            .send(json!({"t": "closed", "table": t.id}).to_string());
    }
    // Dropping the seats ends the engine threads (after a running search answers).
    drop(t.seats);
}

fn describe_tc(tc: &TimeControl) -> String {
    match tc {
        TimeControl::Clock { base, increment } => {
            format!("{}+{} s", base.as_secs_f64(), increment.as_secs_f64())
        }
        TimeControl::MoveTime(t) => format!("{:.1} s per move", t.as_secs_f64()),
        TimeControl::Nodes(n) => format!("{n} nodes per move"),
        TimeControl::Depth(d) => format!("depth {d} per move"),
    }
}

impl Table {
    fn is_person(&self, s: usize) -> bool {
        self.seats[s].engine.is_none() && !self.seats[s].remote
    }

    fn is_over(&self) -> bool {
        self.outcome.is_some()
    }

    fn handle(&mut self, m: TableMsg) {
        match m {
            TableMsg::Join { conn, out, how } => self.join(conn, out, how),
            TableMsg::Leave { conn } => self.leave(conn),
            TableMsg::Decide { conn, text } => self.person_decides(conn, &text),
            TableMsg::Export { conn } => self.export(conn),
            TableMsg::Engine(seat, FromEngine::Ready) => {
                self.seats[seat].ready = true;
                self.advance();
            }
            TableMsg::Engine(seat, FromEngine::Line(line)) => {
                if let Some(th) = thinking::parse(&line) {
                    let s = &mut self.seats[seat];
                    s.thinking = Some(th);
                    s.think_dirty = true;
                    self.flush_thinking(seat, false);
                }
            }
            TableMsg::Engine(seat, FromEngine::Reply(r)) => self.engine_answers(seat, r),
            TableMsg::Remote(m) => self.remote_decides(m),
            TableMsg::RemoteEnd { ranks, reason } => {
                if !self.is_over() && ranks.len() == self.seats.len() {
                    self.finish(Outcome { ranks, reason }, None, None);
                    self.broadcast();
                }
            }
            TableMsg::Close => {}
        }
    }

    fn send_to(&self, conn: ConnId, v: Value) {
        if let Some(c) = self.conns.get(&conn) {
            let _ = c.out.send(v.to_string());
        }
    }

    fn join(&mut self, conn: ConnId, out: Outbox, how: JoinAs) {
        let hidden = self.game.is_hidden();
        let person_seats: Vec<usize> = (0..self.seats.len())
            .filter(|&s| self.is_person(s))
            .collect();
        let (seats, view) = match how {
            JoinAs::Creator => {
                let mine: Vec<usize> = if hidden {
                    person_seats.iter().copied().take(1).collect()
                } else {
                    person_seats.clone()
                };
                (mine.clone(), mine.first().copied())
            }
            JoinAs::Seats(wanted) => {
                if hidden && wanted.len() > 1 {
                    let _ = out.send(
                        json!({"t": "error", "text": "in Space Wars a browser plays one seat"})
                            .to_string(),
                    );
                    return;
                }
                for &s in &wanted {
                    let why = if !person_seats.contains(&s) {
                        Some(format!("seat {} is not a person's seat", s + 1))
                    } else if self.seats[s].holder.is_some_and(|h| h != conn) {
                        Some(format!("seat {} is taken by another browser", s + 1))
                    } else {
                        None
                    };
                    if let Some(why) = why {
                        let _ = out.send(json!({"t": "error", "text": why}).to_string());
                        return;
                    }
                }
                let first = wanted.first().copied();
                (wanted, first)
            }
            JoinAs::Watch(v) => {
                if hidden {
                    let seat = v.unwrap_or(0).min(self.seats.len() - 1);
                    if !person_seats.is_empty() && !self.is_over() {
                        let _ = out.send(
                            json!({"t": "error", "text": "people play at this Space Wars table: \
                                   only its seats may look at their own cards"})
                            .to_string(),
                        );
                        return;
                    }
                    (Vec::new(), Some(seat))
                } else {
                    (Vec::new(), None)
                }
            }
        };
        for &s in &seats {
            self.seats[s].holder = Some(conn);
        }
        if !seats.is_empty() {
            let names: Vec<String> = seats.iter().map(|s| self.seats[*s].label.clone()).collect();
            self.notes.push(format!("{} joined", names.join(", ")));
        }
        self.conns.insert(conn, Conn { out, seats, view });
        self.broadcast();
    }

    fn leave(&mut self, conn: ConnId) {
        let Some(c) = self.conns.remove(&conn) else {
            return;
        };
        let mut names = Vec::new();
        for s in c.seats {
            if self.seats[s].holder == Some(conn) {
                self.seats[s].holder = None;
                names.push(self.seats[s].label.clone());
            }
        }
        if !names.is_empty() {
            self.notes.push(format!(
                "the browser of {} disconnected; the seat waits for it to come back",
                names.join(", ")
            ));
            self.broadcast();
        }
    }

    /// Seats that must decide now and have not.
    fn open_deciders(&self) -> Vec<usize> {
        if self.is_over() {
            return Vec::new();
        }
        self.game
            .dyn_game()
            .to_decide()
            .into_iter()
            .filter(|s| !self.pending.iter().any(|(p, _, _)| p == s))
            .collect()
    }

    /// Asks every engine that must decide, starts the clocks of persons that must, and tells the
    /// browsers.
    fn advance(&mut self) {
        if !self.is_over() {
            if let Some(o) = self.game.dyn_game().outcome() {
                self.finish(o, None, None);
            } else if self.game.dyn_game().to_decide().is_empty() {
                let n = self.seats.len();
                self.finish(Outcome::draw(n, "no seat to move"), None, None);
            }
        }
        for s in self.open_deciders() {
            let seat = &mut self.seats[s];
            match &seat.engine {
                Some(e) => {
                    if seat.ready && !seat.asked {
                        seat.asked = true;
                        seat.since = Some(Instant::now());
                        seat.thinking = None;
                        if !e.send(ToEngine::Think(self.clocks.clone())) {
                            seat.asked = false;
                        }
                    }
                }
                None if seat.remote => {}
                None => {
                    if seat.since.is_none() {
                        seat.since = Some(Instant::now());
                    }
                }
            }
        }
        self.broadcast();
    }

    fn person_decides(&mut self, conn: ConnId, text: &str) {
        let Some(c) = self.conns.get(&conn) else {
            return;
        };
        let refuse = |t: &Table, why: String| {
            t.send_to(conn, json!({"t": "refused", "text": text, "reason": why}));
        };
        if self.is_over() {
            return refuse(self, "the game is over".into());
        }
        let open = self.open_deciders();
        let Some(seat) = c.seats.iter().copied().find(|s| open.contains(s)) else {
            let why = if c.seats.is_empty() {
                "you are watching this table".to_string()
            } else {
                let who: Vec<String> = self
                    .game
                    .dyn_game()
                    .to_decide()
                    .iter()
                    .map(|s| format!("{} ({})", self.seats[*s].label, self.seats[*s].name))
                    .collect();
                format!("not your turn: waiting for {}", who.join(", "))
            };
            return refuse(self, why);
        };
        let canon = match self.game.check(seat, text) {
            Ok(c) => c,
            Err(r) => return refuse(self, r.0),
        };
        let used = self.seats[seat]
            .since
            .map(|t| t.elapsed())
            .unwrap_or_default();
        if let TimeControl::Clock { .. } = self.tc {
            if let Err(flag) = self.clocks.charge(seat, used) {
                let n = self.seats.len();
                let f = Fault::TimeForfeit(flag);
                let why = format!("{}: {}", self.seats[seat].label, f.describe());
                self.finish(Outcome::forfeit(seat, n, why), Some(seat), None);
                self.broadcast();
                return;
            }
        }
        let rec = MoveRecord {
            seat,
            mv: canon.clone(),
            book: false,
            ms: used.as_millis() as u64,
            clock_ms: self.clock_ms(seat),
            score: None,
            depth: None,
        };
        self.decided(seat, canon, rec);
    }

    fn remote_decides(&mut self, m: MoveRecord) {
        if self.is_over() || m.seat >= self.seats.len() || !self.seats[m.seat].remote {
            return;
        }
        match self.game.check(m.seat, &m.mv) {
            Ok(canon) => {
                let seat = m.seat;
                self.decided(seat, canon, m);
            }
            Err(r) => {
                self.alert = Some(format!(
                    "the live log's move {} of {} is refused by the rules: {}",
                    m.mv, self.seats[m.seat].label, r.0
                ));
                self.broadcast();
            }
        }
    }

    fn clock_ms(&self, seat: usize) -> Option<u64> {
        matches!(self.tc, TimeControl::Clock { .. })
            .then(|| self.clocks.remaining(seat).as_millis() as u64)
    }

    fn engine_answers(&mut self, seat: usize, r: Result<Reply, Fault>) {
        let n = self.seats.len();
        {
            let s = &mut self.seats[seat];
            s.asked = false;
            if s.think_dirty {
                self.flush_thinking(seat, true);
            }
        }
        if self.is_over() {
            return;
        }
        let label = format!("{} ({})", self.seats[seat].label, self.seats[seat].name);
        let fault = match r {
            Err(f) => Some(f),
            Ok(reply) => {
                if let Err(flag) = self.clocks.charge(seat, reply.elapsed) {
                    Some(Fault::TimeForfeit(flag))
                } else {
                    match self.game.check(seat, &reply.text) {
                        Err(refusal) => Some(Fault::Illegal {
                            text: reply.text.clone(),
                            reason: refusal.0,
                        }),
                        Ok(canon) => {
                            let rec = MoveRecord {
                                seat,
                                mv: canon.clone(),
                                book: false,
                                ms: reply.elapsed.as_millis() as u64,
                                clock_ms: self.clock_ms(seat),
                                score: reply.score.map(score_field),
                                depth: reply.depth,
                            };
                            self.decided(seat, canon, rec);
                            None
                        }
                    }
                }
            }
        };
        if let Some(f) = fault {
            let why = format!("{label}: {}", f.describe());
            let alert = format!(
                "Engine {label} lost the game by {}: {}",
                f.kind(),
                f.describe()
            );
            self.finish(Outcome::forfeit(seat, n, why), Some(seat), Some(alert));
            self.broadcast();
        }
    }

    /// A checked decision of `seat`: applied at once in a turn-based step, collected until every
    /// seat is in at a simultaneous one.
    fn decided(&mut self, seat: usize, canon: String, rec: MoveRecord) {
        self.seats[seat].since = None;
        let deciders = self.game.dyn_game().to_decide();
        self.pending.push((seat, canon, rec));
        if !deciders
            .iter()
            .all(|s| self.pending.iter().any(|(p, _, _)| p == s))
        {
            self.broadcast();
            return;
        }
        let mut batch = std::mem::take(&mut self.pending);
        batch.sort_by_key(|(s, _, _)| deciders.iter().position(|d| d == s));
        let texts: Vec<(usize, String)> = batch.iter().map(|(s, t, _)| (*s, t.clone())).collect();
        let last = if texts.len() == 1 {
            self.game.spider_squares(&texts[0].1)
        } else {
            None
        };
        let applied = if texts.len() == 1 {
            self.game
                .dyn_game_mut()
                .play(texts[0].0, &texts[0].1)
                .map(|c| vec![c])
                .map_err(|r| (texts[0].0, r))
        } else {
            self.game.dyn_game_mut().play_all(&texts)
        };
        match applied {
            Ok(canon) => {
                self.last = last;
                for ((_, _, mut rec), c) in batch.into_iter().zip(canon) {
                    rec.mv = c;
                    self.moves.push(rec);
                }
                for s in &self.seats {
                    if let Some(e) = &s.engine {
                        e.send(ToEngine::Apply(texts.clone()));
                    }
                }
            }
            Err((s, r)) => {
                // Checked one by one against the same state, so this does not happen; say so
                // rather than hang if it ever does.
                log::error!("gui: a checked decision was refused: {}", r.0);
                self.alert = Some(format!("seat {}: {}", s + 1, r.0));
            }
        }
        self.advance();
    }

    fn finish(&mut self, o: Outcome, fault_seat: Option<usize>, alert: Option<String>) {
        self.notes
            .push(format!("game over: {} ({})", o.result_text(), o.reason));
        self.outcome = Some(o);
        self.fault_seat = fault_seat;
        if alert.is_some() {
            self.alert = alert;
        }
        for s in self.seats.iter_mut() {
            s.since = None;
        }
    }

    fn tick(&mut self) {
        for s in 0..self.seats.len() {
            if self.seats[s].think_dirty {
                self.flush_thinking(s, false);
            }
        }
        if self.is_over() {
            return;
        }
        if let TimeControl::Clock { .. } = self.tc {
            for s in 0..self.seats.len() {
                let seat = &self.seats[s];
                if seat.engine.is_some() || seat.remote {
                    continue;
                }
                if let Some(since) = seat.since {
                    let used = since.elapsed();
                    if used > self.clocks.wait_limit(s) {
                        let n = self.seats.len();
                        let why = format!(
                            "{}: time forfeit: used {} ms, had {} ms",
                            seat.label,
                            used.as_millis(),
                            self.clocks.wait_limit(s).as_millis()
                        );
                        self.finish(Outcome::forfeit(s, n, why), Some(s), None);
                        self.broadcast();
                        return;
                    }
                }
            }
        }
    }

    /// Sends a seat's latest thinking output to the browsers allowed to see it, at most ten
    /// times a second unless `now`.
    fn flush_thinking(&mut self, seat: usize, now: bool) {
        let s = &self.seats[seat];
        if !now
            && s.think_sent
                .is_some_and(|t| t.elapsed() < Duration::from_millis(100))
        {
            return;
        }
        let msg = json!({"t": "think", "table": self.id, "seat": seat, "thinking": s.thinking})
            .to_string();
        let hidden = self.game.is_hidden();
        for c in self.conns.values() {
            if !hidden || c.view == Some(seat) {
                let _ = c.out.send(msg.clone());
            }
        }
        let s = &mut self.seats[seat];
        s.think_dirty = false;
        s.think_sent = Some(Instant::now());
    }

    fn seats_json(&self, conn: &Conn) -> Vec<Value> {
        let deciders = if self.is_over() {
            Vec::new()
        } else {
            self.game.dyn_game().to_decide()
        };
        let hidden = self.game.is_hidden();
        self.seats
            .iter()
            .enumerate()
            .map(|(i, s)| {
                let show_thinking = !hidden || conn.view == Some(i);
                json!({
                    "label": s.label,
                    "name": s.name,
                    "engine": s.engine.is_some() || s.remote,
                    "ready": s.engine.is_none() || s.ready,
                    "connected": s.engine.is_some() || s.remote || s.holder.is_some(),
                    "you": conn.seats.contains(&i),
                    "clock_ms": self.clock_ms(i),
                    "running": s.since.is_some(),
                    "elapsed_ms": s.since.map(|t| t.elapsed().as_millis() as u64),
                    "to_decide": deciders.contains(&i),
                    "decided": self.pending.iter().any(|(p, _, _)| *p == i),
                    "thinking": if show_thinking { json!(s.thinking) } else { Value::Null },
                })
            })
            .collect()
    }

    fn state_for(&self, conn: &Conn) -> Value {
        let open = self.open_deciders();
        let my_turn = conn.seats.iter().any(|s| open.contains(s));
        let mut v = json!({
            "t": "table",
            "table": self.id,
            "title": self.title,
            "game": self.game.kind().name(),
            "tc": describe_tc(&self.tc),
            "clocked": matches!(self.tc, TimeControl::Clock { .. }),
            "seats": self.seats_json(conn),
            "you": conn.seats,
            "view": conn.view,
            "my_turn": my_turn,
            "decisions": self.moves.len(),
            "over": self.is_over(),
            "result": self.outcome.as_ref().map(|o| o.result_text()),
            "reason": self.outcome.as_ref().map(|o| o.reason.clone()),
            "alert": self.alert,
            "notes": self.notes.iter().rev().take(6).collect::<Vec<_>>(),
        });
        if self.game.is_hidden() {
            if let Some(seat) = conn.view {
                v["view_table"] = self.game.seat_view(seat).unwrap_or(Value::Null);
            }
        } else {
            v["board"] = self.game.board(self.last, my_turn);
            v["moves"] = json!(self
                .moves
                .iter()
                .map(|m| json!({"seat": m.seat, "mv": m.mv, "ms": m.ms, "score": m.score, "depth": m.depth}))
                .collect::<Vec<_>>());
        }
        v
    }

    fn broadcast(&self) {
        for c in self.conns.values() {
            let _ = c.out.send(self.state_for(c).to_string());
        }
        let to_move: Vec<usize> = if self.is_over() {
            Vec::new()
        } else {
            self.game.dyn_game().to_decide()
        };
        let free: Vec<usize> = (0..self.seats.len())
            .filter(|&s| self.is_person(s) && self.seats[s].holder.is_none())
            .collect();
        if let Ok(mut s) = self.summary.lock() {
            *s = json!({
                "table": self.id,
                "title": self.title,
                "players": self.seats.iter().map(|s| format!("{}: {}", s.label, s.name)).collect::<Vec<_>>(),
                "free_seats": free,
                "hidden": self.game.is_hidden(),
                "people": (0..self.seats.len()).any(|s| self.is_person(s)),
                "live": self.seats.iter().any(|s| s.remote),
                "decisions": self.moves.len(),
                "to_move": to_move,
                "over": self.is_over(),
                "result": self.outcome.as_ref().map(|o| o.result_text()),
            });
        }
    }

    /// The game as the referee records it (JSON line and PGN), so it replays with
    /// `orrery replay` and in the board's replay view.
    fn record(&self) -> GameRecord {
        let g = self.game.dyn_game();
        let n = self.seats.len();
        let (ranks, result, reason) = match &self.outcome {
            Some(o) => (o.ranks.clone(), o.result_text(), o.reason.clone()),
            None => (
                vec![(1.0 + n as f64) / 2.0; n],
                "*".into(),
                "game in progress".into(),
            ),
        };
        GameRecord {
            id: self.id.saturating_sub(1),
            block: 0,
            block_seed: self.choice.seed,
            game: g_name(&self.game),
            setup: match &self.game {
                TableGame::Spider(_) => None,
                _ => self.choice.setup.clone(),
            },
            tc: self.tc.describe(),
            engines: self.seats.iter().map(|s| s.name.clone()).collect(),
            engine_index: (0..n).collect(),
            start: g.start_text(),
            standard_start: g.is_standard_start(),
            moves: self.moves.clone(),
            ranks,
            result,
            reason,
            fault_seat: self.fault_seat,
            final_position: g.position_text(),
            extra: g.record_extra(),
            started: self.started,
            duration_ms: self.t0.elapsed().as_millis() as u64,
            engine_moves: self.moves.len() as u64,
            overhead_us: 0,
        }
    }

    fn export(&self, conn: ConnId) {
        if self.game.is_hidden() && !self.is_over() {
            self.send_to(
                conn,
                json!({"t": "error", "text": "a Space Wars record reveals every hand: it can be saved once the game is over"}),
            );
            return;
        }
        let rec = self.record();
        let pgn_text = self.game.kind().pgn_variant().map(|v| {
            let variant = self.choice.variant.as_ref().map_or(v, |x| x.name());
            pgn(&rec, "orrery gui", Some(variant))
        });
        self.send_to(
            conn,
            json!({"t": "export", "pgn": pgn_text, "record": rec.to_json_line()}),
        );
    }
}

fn g_name(g: &TableGame) -> String {
    g.kind().name().to_string()
}
