//! The local web server: the page and its scripts (embedded in the binary), and one WebSocket per
//! browser over which it opens and joins tables, sends decisions and receives the table's state.
//! Listens on 127.0.0.1 only.

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc::{self, Sender};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::extract::ws::{Message, WebSocket, WebSocketUpgrade};
use axum::extract::State;
use axum::http::header;
use axum::response::{Html, IntoResponse, Response};
use axum::routing::get;
use axum::Router;
use serde_json::{json, Value};

use crate::games::solar::SETUPS;
use crate::games::spider::Variant;
use crate::referee::clock::TimeControl;
use crate::referee::engine::EngineSpec;
use crate::referee::game_kind::GameKind;

use super::game::GameChoice;
use super::table::{self, ConnId, JoinAs, Outbox, Player, Summary, TableMsg, TableSetup};
use super::{replay, GuiConfig};

const INDEX_HTML: &str = include_str!("static/index.html");
const APP_JS: &str = include_str!("static/app.js");
const BOARDS_JS: &str = include_str!("static/boards.js");
const STYLE_CSS: &str = include_str!("static/style.css");

/// A table as the server keeps it: its channel and its lobby line.
struct TableEntry {
    tx: Sender<TableMsg>,
    summary: Summary,
}

/// Shared server state.
pub(crate) struct App {
    cfg: GuiConfig,
    tables: Mutex<HashMap<u64, TableEntry>>,
    next_table: AtomicU64,
    next_conn: AtomicU64,
}

impl App {
    pub(crate) fn new(cfg: GuiConfig) -> App {
        App {
            cfg,
            tables: Mutex::new(HashMap::new()),
            next_table: AtomicU64::new(1),
            next_conn: AtomicU64::new(1),
        }
    }

    /// Registers and opens a table; returns its id and channel.
    pub(crate) fn open_table(&self, setup: TableSetup) -> Result<(u64, Sender<TableMsg>), String> {
        let id = self.next_table.fetch_add(1, Ordering::Relaxed);
        let (tx, rx) = mpsc::channel();
        let summary: Summary = Arc::new(Mutex::new(json!({"table": id})));
        table::open(id, setup, summary.clone(), tx.clone(), rx)?;
        self.tables.lock().expect("tables lock").insert(
            id,
            TableEntry {
                tx: tx.clone(),
                summary,
            },
        );
        Ok((id, tx))
    }

    /// Engine handshake timeouts.
    pub(crate) fn timeouts(&self) -> crate::referee::engine::Timeouts {
        self.cfg.timeouts
    }

    fn table(&self, id: u64) -> Option<Sender<TableMsg>> {
        self.tables
            .lock()
            .expect("tables lock")
            .get(&id)
            .map(|t| t.tx.clone())
    }

    fn lobby(&self) -> Value {
        let mut tables: Vec<Value> = self
            .tables
            .lock()
            .expect("tables lock")
            .values()
            .map(|t| t.summary.lock().map(|s| s.clone()).unwrap_or(Value::Null))
            .collect();
        tables.sort_by_key(|t| t["table"].as_u64());
        let mut engines = vec![json!({"id": 0, "name": "Orrery engine (built in)"})];
        for (i, e) in self.cfg.engines.iter().enumerate() {
            engines.push(json!({"id": i + 1, "name": e.name}));
        }
        let variants: Vec<String> = std::iter::once("spider-chess".to_string())
            .chain(self.cfg.variants.iter().map(|(v, _)| v.name().to_string()))
            .collect();
        json!({
            "t": "lobby",
            "games": [
                {"name": "spider-chess", "title": "Spider-Chess", "variants": variants, "seats": [2]},
                {"name": "solar-chess", "title": "Solar Chess", "setups": SETUPS.iter().map(|s| json!({
                    "name": s.name, "seats": s.ships.len(), "ships": s.ships, "teams": s.teams,
                })).collect::<Vec<_>>()},
                {"name": "space-wars", "title": "Space Wars", "setups": (2..=8).map(|n| json!({
                    "name": n.to_string(), "seats": n,
                })).collect::<Vec<_>>()},
            ],
            "engines": engines,
            "tables": tables,
            "replay": self.cfg.replay_text.is_some(),
        })
    }

    /// The engine for a seat: 0 is the project's own engine for the game (with every loaded
    /// variant for Spider-Chess), 1.. the `--engine` specs in order.
    fn engine_spec(&self, id: usize, kind: GameKind) -> Result<EngineSpec, String> {
        if id == 0 {
            let mut spec = crate::referee::cli::builtin_engines(kind)?
                .into_iter()
                .next()
                .ok_or("no built-in engine")?;
            spec.name = format!("Orrery {}", kind.name());
            if kind == GameKind::SpiderChess {
                for (_, path) in &self.cfg.variants {
                    let p = path.display().to_string().replace('\'', "'\\''");
                    spec.cmd.push_str(&format!(" --variant '{p}'"));
                }
            }
            return Ok(spec);
        }
        self.cfg
            .engines
            .get(id - 1)
            .cloned()
            .ok_or_else(|| format!("no engine {id}"))
    }

    fn variant(&self, name: &str) -> Result<Option<Arc<Variant>>, String> {
        if name.is_empty() || name == "spider-chess" {
            return Ok(None);
        }
        self.cfg
            .variants
            .iter()
            .find(|(v, _)| v.name() == name)
            .map(|(v, _)| Some(v.clone()))
            .ok_or_else(|| format!("no variant {name:?} is loaded (orrery gui --variant FILE)"))
    }

    /// Reads the new-table form.
    fn setup_from(&self, m: &Value) -> Result<TableSetup, String> {
        let kind = GameKind::parse(m["game"].as_str().unwrap_or(""))?;
        let text = |k: &str| {
            m[k].as_str()
                .map(str::trim)
                .filter(|s| !s.is_empty())
                .map(String::from)
        };
        let variant = match kind {
            GameKind::SpiderChess => self.variant(&text("variant").unwrap_or_default())?,
            _ => None,
        };
        let choice = GameChoice {
            kind,
            setup: text("setup"),
            variant,
            position: text("position"),
            seed: m["seed"].as_u64().unwrap_or(1),
        };
        let seats = m["seats"].as_array().ok_or("give the seats")?;
        let mut players = Vec::new();
        for s in seats {
            players.push(match s.as_str() {
                Some("person") => Player::Person,
                _ => {
                    let id = s
                        .as_u64()
                        .ok_or("a seat is \"person\" or an engine number")?;
                    Player::Engine(self.engine_spec(id as usize, kind)?)
                }
            });
        }
        let tc = parse_tc(&text("tc").unwrap_or_else(|| "movetime 1000".into()))?;
        Ok(TableSetup {
            choice,
            players,
            tc,
            timeouts: self.cfg.timeouts,
        })
    }
}

/// Reads a time control: `movetime MS`, `nodes N` or `clock BASE+INC` (seconds).
pub fn parse_tc(text: &str) -> Result<TimeControl, String> {
    let (k, v) = text.trim().split_once(' ').ok_or_else(|| {
        format!("time control {text:?}: expected movetime MS, nodes N or clock B+I")
    })?;
    let v = v.trim();
    match k {
        "movetime" => v
            .parse::<u64>()
            .ok()
            .filter(|&ms| ms > 0)
            .map(|ms| TimeControl::MoveTime(Duration::from_millis(ms)))
            .ok_or_else(|| format!("movetime {v:?}: milliseconds expected")),
        "nodes" => v
            .parse::<u64>()
            .ok()
            .filter(|&n| n > 0)
            .map(TimeControl::Nodes)
            .ok_or_else(|| format!("nodes {v:?}: a positive number expected")),
        "clock" => TimeControl::parse_tc(v),
        _ => Err(format!(
            "time control {text:?}: expected movetime MS, nodes N or clock B+I"
        )),
    }
}

/// The router: `/` the page, `/app.js`, `/boards.js`, `/style.css`, `/ws` the WebSocket.
pub(crate) fn router(app: Arc<App>) -> Router {
    Router::new()
        .route("/", get(|| async { Html(INDEX_HTML) }))
        .route("/app.js", get(|| async { script(APP_JS) }))
        .route("/boards.js", get(|| async { script(BOARDS_JS) }))
        .route(
            "/style.css",
            get(|| async {
                (
                    [(header::CONTENT_TYPE, "text/css; charset=utf-8")],
                    STYLE_CSS,
                )
            }),
        )
        .route("/ws", get(ws_upgrade))
        .with_state(app)
}

fn script(body: &'static str) -> Response {
    (
        [(header::CONTENT_TYPE, "text/javascript; charset=utf-8")],
        body,
    )
        .into_response()
}

async fn ws_upgrade(State(app): State<Arc<App>>, ws: WebSocketUpgrade) -> Response {
    ws.on_upgrade(move |socket| session(app, socket))
}

/// Which table a connection is at.
struct Seat {
    table: u64,
    tx: Sender<TableMsg>,
}

async fn session(app: Arc<App>, mut socket: WebSocket) {
    let conn: ConnId = app.next_conn.fetch_add(1, Ordering::Relaxed);
    let (out, mut inbox) = tokio::sync::mpsc::unbounded_channel::<String>();
    let mut at: Option<Seat> = None;
    let _ = out.send(app.lobby().to_string());
    loop {
        tokio::select! {
            m = socket.recv() => match m {
                Some(Ok(Message::Text(t))) => handle(&app, conn, &out, &mut at, t.as_str()),
                Some(Ok(Message::Close(_))) | None | Some(Err(_)) => break,
                Some(Ok(_)) => {}
            },
            o = inbox.recv() => match o {
                Some(text) => {
                    if socket.send(Message::Text(text.into())).await.is_err() {
                        break;
                    }
                }
                None => break,
            },
        }
    }
    if let Some(s) = at {
        let _ = s.tx.send(TableMsg::Leave { conn });
    }
}

fn error(out: &Outbox, text: impl Into<String>) {
    let _ = out.send(json!({"t": "error", "text": text.into()}).to_string());
}

fn handle(app: &App, conn: ConnId, out: &Outbox, at: &mut Option<Seat>, text: &str) {
    let m: Value = match serde_json::from_str(text) {
        Ok(v) => v,
        Err(e) => return error(out, format!("not a JSON message: {e}")),
    };
    let leave = |at: &mut Option<Seat>| {
        if let Some(s) = at.take() {
            let _ = s.tx.send(TableMsg::Leave { conn });
        }
    };
    match m["t"].as_str().unwrap_or("") {
        "lobby" => {
            let _ = out.send(app.lobby().to_string());
        }
        "new" => {
            let setup = match app.setup_from(&m) {
                Ok(s) => s,
                Err(e) => return error(out, e),
            };
            match app.open_table(setup) {
                Ok((id, tx)) => {
                    leave(at);
                    let _ = tx.send(TableMsg::Join {
                        conn,
                        out: out.clone(),
                        how: JoinAs::Creator,
                    });
                    *at = Some(Seat { table: id, tx });
                }
                Err(e) => error(out, e),
            }
        }
        "join" => {
            let Some(id) = m["table"].as_u64() else {
                return error(out, "join: which table?");
            };
            let Some(tx) = app.table(id) else {
                return error(out, format!("there is no table {id}"));
            };
            let seats: Vec<usize> = m["seats"]
                .as_array()
                .map(|a| {
                    a.iter()
                        .filter_map(|s| s.as_u64())
                        .map(|s| s as usize)
                        .collect()
                })
                .unwrap_or_default();
            let how = match (seats.is_empty(), m["watch"].as_u64()) {
                (false, _) => JoinAs::Seats(seats),
                (true, w) => JoinAs::Watch(w.map(|w| w as usize)),
            };
            if at.as_ref().map(|s| s.table) != Some(id) {
                leave(at);
            }
            let _ = tx.send(TableMsg::Join {
                conn,
                out: out.clone(),
                how,
            });
            *at = Some(Seat { table: id, tx });
        }
        "move" => match (at.as_ref(), m["text"].as_str()) {
            (Some(s), Some(t)) => {
                let _ = s.tx.send(TableMsg::Decide {
                    conn,
                    text: t.to_string(),
                });
            }
            (None, _) => error(out, "join a table first"),
            (_, None) => error(out, "move: no text"),
        },
        "export" => match at.as_ref() {
            Some(s) => {
                let _ = s.tx.send(TableMsg::Export { conn });
            }
            None => error(out, "join a table first"),
        },
        "leave" => {
            leave(at);
            let _ = out.send(app.lobby().to_string());
        }
        "close" => {
            if let Some(s) = at.take() {
                let _ = s.tx.send(TableMsg::Close);
                app.tables.lock().expect("tables lock").remove(&s.table);
            }
            let _ = out.send(app.lobby().to_string());
        }
        "replay" => {
            let text = m["text"]
                .as_str()
                .map(String::from)
                .or_else(|| app.cfg.replay_text.clone());
            let Some(text) = text else {
                return error(out, "replay: no records given");
            };
            let seat = m["seat"].as_u64().unwrap_or(0) as usize;
            let game = m["game"].as_u64().unwrap_or(0) as usize;
            match replay::frames(&text, game, seat, &app.cfg.variants) {
                Ok(v) => {
                    let _ = out.send(v.to_string());
                }
                Err(e) => error(out, e),
            }
        }
        other => error(out, format!("unknown message {other:?}")),
    }
}

/// Serves until the process ends: binds 127.0.0.1 (port 0 picks a free one) and prints the
/// address on stdout.
pub(crate) async fn serve(app: Arc<App>, port: u16) -> std::io::Result<()> {
    let listener = tokio::net::TcpListener::bind(("127.0.0.1", port)).await?;
    let addr = listener.local_addr()?;
    {
        use std::io::Write;
        let mut o = std::io::stdout();
        let _ = writeln!(
            o,
            "Orrery board: open http://{addr}/ in a browser (Ctrl-C stops it)"
        );
        let _ = o.flush();
    }
    axum::serve(listener, router(app)).await
}
