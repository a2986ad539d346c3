// The board page: one WebSocket to the server; the lobby (new game, tables), a table (board,
// seats with clocks and live engine thinking, moves, FEN/PGN), and the replay view. The server
// checks every decision with the rules core; this page only proposes them.
"use strict";

const $ = id => document.getElementById(id);
const S = {
  ws: null, connected: false, lobby: null, table: null, recv: 0, tableId: null, mySeats: [],
  watchSeat: null, view: "lobby", flipped: null, sel: null, drop: null, msg: null,
  sw: null, swKey: null, names: true, replay: { text: null, data: null, idx: 0 }, everConnected: false,
};

function send(m) {
  if (S.ws && S.ws.readyState === 1) { S.ws.send(JSON.stringify(m)); return true; }
  return false;
}

function connect() {
  const ws = new WebSocket(`ws://${location.host}/ws`);
  S.ws = ws;
  ws.onopen = () => {
    S.connected = true;
    const c = $("conn"); c.textContent = "connected"; c.className = "conn ok";
    if (S.everConnected) hideBanner("lost");
    S.everConnected = true;
    if (S.tableId !== null) {
      if (S.mySeats.length) send({ t: "join", table: S.tableId, seats: S.mySeats });
      else send({ t: "join", table: S.tableId, watch: S.watchSeat });
    }
  };
  ws.onmessage = ev => receive(JSON.parse(ev.data));
  ws.onclose = () => {
    const was = S.connected;
    S.connected = false;
    const c = $("conn"); c.textContent = "disconnected"; c.className = "conn lost";
    showBanner("Connection to the board server lost" + (was ? "" : " (cannot reach it)") +
      " — the page retries every second; moves cannot be sent until it is back.", "lost");
    setTimeout(connect, 1000);
  };
}

let bannerKind = null;
function showBanner(text, kind, info) {
  const b = $("banner");
  b.textContent = text;
  b.className = "banner" + (info ? " info" : "");
  b.dataset.kind = kind;
  bannerKind = kind;
}
function hideBanner(kind) {
  if (!kind || bannerKind === kind) { $("banner").className = "banner hidden"; bannerKind = null; }
}

function show(view) {
  S.view = view;
  for (const v of ["lobby", "table", "replay"]) $(v).classList.toggle("hidden", v !== view);
}

function receive(m) {
  switch (m.t) {
    case "lobby": S.lobby = m; renderLobby(); if (m.replay && !S.replay.data && !S.replay.asked) { S.replay.asked = true; send({ t: "replay" }); } break;
    case "table": onTable(m); break;
    case "think": onThink(m); break;
    case "refused": setMessage(`Refused ${m.text}: ${m.reason}`, "refused"); S.sel = null; S.drop = null; renderBoard(); break;
    case "error":
      if (S.view === "lobby") $("f-error").textContent = m.text;
      else if (S.view === "replay") $("r-error").textContent = m.text;
      else setMessage(m.text, "refused");
      break;
    case "export": onExport(m); break;
    case "closed": if (S.tableId === m.table) { S.tableId = null; S.mySeats = []; show("lobby"); send({ t: "lobby" }); } break;
    case "replay": onReplay(m); break;
  }
}

// ------------------------------------------------------------------ lobby

function gameInfo(name) { return S.lobby.games.find(g => g.name === name); }

function renderLobby() {
  const L = S.lobby;
  const gs = $("f-game");
  if (!gs.options.length) {
    for (const g of L.games) gs.add(new Option(g.title, g.name));
    gs.onchange = () => { fillSetups(); fillSeats(); };
  }
  fillSetups(true);
  fillSeats(true);
  const host = $("tables");
  host.replaceChildren();
  if (!L.tables.length) host.innerHTML = '<p class="hint">No tables yet: start a game.</p>';
  for (const t of L.tables) {
    if (!t.title) continue;
    const row = document.createElement("div");
    row.className = "tablerow";
    row.dataset.table = t.table;
    const state = t.over ? `over ${t.result || ""}` : `${t.decisions} decisions`;
    row.innerHTML = `<div><b>${esc(t.title)}</b>${t.live ? ' <span class="status">live</span>' : ""}<div class="who">${t.players.map(esc).join(" · ")} — ${state}</div></div>`;
    const btns = document.createElement("div");
    btns.className = "buttons";
    for (const s of t.free_seats || []) {
      const b = document.createElement("button");
      b.textContent = `Sit at seat ${s + 1}`;
      b.onclick = () => joinTable(t.table, [s], null);
      btns.appendChild(b);
    }
    if (!t.hidden || !t.people || t.over) {
      const w = document.createElement("button");
      w.textContent = "Watch";
      w.className = "watch";
      w.onclick = () => joinTable(t.table, [], t.hidden ? 0 : null);
      btns.appendChild(w);
    }
    row.appendChild(btns);
    host.appendChild(row);
  }
}

function fillSetups(keep) {
  const g = gameInfo($("f-game").value);
  const isSpider = g.name === "spider-chess";
  $("f-variant-row").classList.toggle("hidden", !isSpider);
  $("f-setup-row").classList.toggle("hidden", isSpider);
  $("f-pos-row").classList.toggle("hidden", g.name === "space-wars");
  $("f-seed-row").classList.toggle("hidden", g.name !== "space-wars");
  const vs = $("f-variant"), ss = $("f-setup");
  if (isSpider) {
    const cur = vs.value;
    vs.replaceChildren(...(g.variants || []).map(v => new Option(v, v)));
    if (cur && (g.variants || []).includes(cur)) vs.value = cur;
  } else {
    const cur = ss.value;
    ss.replaceChildren(...g.setups.map(s => new Option(
      s.teams && s.teams.length ? `${s.name} (teams ${s.teams.join(" v ")})` : (g.name === "space-wars" ? `${s.name} players` : `${s.name} (${s.seats} seats)`), s.name)));
    if (keep && cur && g.setups.some(s => s.name === cur)) ss.value = cur;
    ss.onchange = () => fillSeats();
  }
}

function seatCount() {
  const g = gameInfo($("f-game").value);
  if (g.name === "spider-chess") return 2;
  const s = g.setups.find(s => s.name === $("f-setup").value) || g.setups[0];
  return s.seats;
}

function seatLabel(game, i) {
  if (game === "spider-chess") return i === 0 ? "White" : "Black";
  if (game === "solar-chess") {
    const g = gameInfo(game);
    const s = g.setups.find(s => s.name === $("f-setup").value) || g.setups[0];
    const cols = (s.ships[i] || "").split("").map(c => Boards.solarColour(c).name).join("+");
    return `Seat ${i + 1} (${cols})`;
  }
  return `Seat ${i + 1}`;
}

function fillSeats(keep) {
  const host = $("f-seats");
  const n = seatCount();
  const game = $("f-game").value;
  const old = [...host.querySelectorAll("select")].map(s => s.value);
  if (keep && old.length === n && host.dataset.game === game) return;
  host.dataset.game = game;
  host.replaceChildren();
  for (let i = 0; i < n; i++) {
    const row = document.createElement("div");
    row.className = "seatrow";
    const lab = document.createElement("span");
    lab.textContent = seatLabel(game, i);
    const sel = document.createElement("select");
    sel.id = `f-seat-${i}`;
    sel.add(new Option("Person (this browser)", "person"));
    for (const e of S.lobby.engines) sel.add(new Option(e.name, String(e.id)));
    sel.value = i === 0 ? "person" : "0";
    row.append(lab, sel);
    host.appendChild(row);
  }
}

$("newform").addEventListener("submit", ev => {
  ev.preventDefault();
  $("f-error").textContent = "";
  const n = seatCount();
  const seats = [];
  for (let i = 0; i < n; i++) {
    const v = $(`f-seat-${i}`).value;
    seats.push(v === "person" ? "person" : Number(v));
  }
  const game = $("f-game").value;
  S.flipped = null;
  send({
    t: "new", game, seats, tc: $("f-tc").value, variant: $("f-variant").value,
    setup: game === "spider-chess" ? "" : $("f-setup").value, position: $("f-position").value,
    seed: Number($("f-seed").value || 1),
  });
});

function joinTable(id, seats, watch) {
  S.flipped = null;
  send(seats.length ? { t: "join", table: id, seats } : { t: "join", table: id, watch });
}

// ------------------------------------------------------------------ table

function onTable(m) {
  const newTable = S.tableId !== m.table;
  const before = S.table;
  S.table = m;
  S.recv = performance.now();
  S.tableId = m.table;
  S.mySeats = m.you;
  S.watchSeat = m.view;
  if (newTable) { S.sel = null; S.drop = null; S.msg = null; S.sw = null; S.swKey = null; $("t-export-text").classList.add("hidden"); }
  if (before && before.decisions !== m.decisions) { S.sel = null; S.drop = null; if (S.msg && S.msg.kind !== "refused") S.msg = null; }
  if (S.flipped === null && m.board && m.board.kind === "spider") S.flipped = m.you.length === 1 && m.you[0] === 1;
  show("table");
  renderTable();
}

function onThink(m) {
  if (!S.table || S.table.table !== m.table) return;
  const seat = S.table.seats[m.seat];
  if (seat) seat.thinking = m.thinking;
  renderSeats();
}

function setMessage(text, kind) {
  S.msg = { text, kind };
  const e = $("message");
  e.textContent = text;
  e.className = "message " + (kind || "");
}

function esc(s) {
  return String(s).replace(/[&<>"]/g, c => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" }[c]));
}

function renderTable() {
  const t = S.table;
  $("t-title").textContent = t.title;
  const st = $("t-status");
  if (t.over) { st.textContent = `${t.result} — ${t.reason}`; st.className = "status over"; }
  else {
    const who = t.seats.map((s, i) => [s, i]).filter(([s]) => s.to_decide && !s.decided)
      .map(([s]) => s.label + (s.you ? " (you)" : ` (${s.name})`));
    st.textContent = who.length ? `${who.join(", ")} to ${t.game === "space-wars" ? "decide" : "move"} · ${t.tc}` : t.tc;
    st.className = "status";
  }
  if (t.alert) showBanner(t.alert, "alert");
  else hideBanner("alert");
  $("t-fenrow").classList.toggle("hidden", !t.board || t.board.kind === "spacewars");
  if (t.board && t.board.fen !== undefined) {
    $("t-fenlabel").textContent = t.board.kind === "spider" ? "FEN" : "Position string";
    $("t-fen").value = t.board.fen;
  }
  $("t-flip").classList.toggle("hidden", !(t.board && t.board.kind === "spider"));
  $("t-notes").innerHTML = t.notes.map(n => `<div>${esc(n)}</div>`).join("");
  if (S.msg) setMessage(S.msg.text, S.msg.kind); else setMessage(defaultHint(), "");
  renderSeats();
  renderMoves();
  renderBoard();
}

function defaultHint() {
  const t = S.table;
  if (t.over) return "The game is over. Save it as PGN / record, or start another from the tables.";
  if (!t.you.length) return "Watching.";
  if (!t.my_turn) return "Waiting for the other seats…";
  if (t.board && t.board.kind === "spider") return t.board.hands ? "Your move: pick a piece (or a piece in your hand), then its target."
    : "Your move: pick a piece, then its target.";
  if (t.board && t.board.kind === "solar") return "Your move: pick a piece (or a piece in your hand), then its target.";
  return "Your decision: see what you owe above.";
}

function fmtClock(ms) {
  ms = Math.max(0, ms);
  const s = Math.floor(ms / 1000), m = Math.floor(s / 60);
  const tenths = Math.floor((ms % 1000) / 100);
  return m >= 60 ? `${Math.floor(m / 60)}:${String(m % 60).padStart(2, "0")}:${String(s % 60).padStart(2, "0")}`
    : (ms < 20000 ? `${m}:${String(s % 60).padStart(2, "0")}.${tenths}` : `${m}:${String(s % 60).padStart(2, "0")}`);
}

// A seat's clock: under a clock time control the time left, counting down while the seat
// decides; at a table without a clock (time or nodes per move) the time spent on the decision
// now being made, in whole seconds and captioned so it never reads as a clock at zero, and a
// dash while the seat is not deciding. The server sends the time left when the decision began
// (`clock_ms`) and the time spent on it so far (`elapsed_ms`); the page adds the time since
// that message, so an update in the middle of a decision does not set the clock back.
function clockText(seat) {
  const t = S.table;
  const spent = seat.running && !t.over ? (seat.elapsed_ms || 0) + performance.now() - S.recv : 0;
  if (t.clocked && seat.clock_ms !== null) return fmtClock(seat.clock_ms - spent);
  if (seat.running && !t.over) return fmtSpent(spent);
  return "–";
}

function clockCaption(seat) {
  const t = S.table;
  if (t.clocked || !seat.running || t.over) return "";
  return t.game === "space-wars" ? "this decision" : "this move";
}

function fmtSpent(ms) {
  const s = Math.floor(Math.max(0, ms) / 1000), m = Math.floor(s / 60);
  return m >= 60 ? `${Math.floor(m / 60)}:${String(m % 60).padStart(2, "0")}:${String(s % 60).padStart(2, "0")}`
    : `${m}:${String(s % 60).padStart(2, "0")}`;
}

function seatColour(i) {
  const t = S.table;
  if (t.game === "spider-chess") return i === 0 ? "#f6f2e8" : "#26272c";
  if (t.board && t.board.kind === "solar") {
    const s = t.board.seats[i];
    if (s && s.ships.length) return Boards.solarColour(s.ships[0]).fill;
  }
  return ["#5ab0f0", "#ef5b5b", "#56c271", "#f0b429", "#b07cf0", "#4fd1c5", "#f08a5a", "#c0c8d4"][i % 8];
}

function renderSeats() {
  const t = S.table;
  if (!t) return;
  const host = $("t-seats");
  host.replaceChildren();
  t.seats.forEach((s, i) => {
    const d = document.createElement("div");
    d.className = "seat" + (s.to_decide && !s.decided && !t.over ? " turn" : "");
    d.dataset.seat = i;
    d.style.borderLeftColor = seatColour(i);
    let who = s.engine ? `engine: ${esc(s.name)}` : (s.you ? "you" : "person");
    if (!s.engine && !s.connected) who += ' · <span class="off">browser disconnected</span>';
    if (s.engine && !s.ready) who += " · starting…";
    if (s.decided && !t.over) who += " · decided";
    let team = "";
    if (t.board && t.board.kind === "solar" && t.board.teams < t.seats.length) team = ` · team ${t.board.seats[i].team + 1}`;
    if (t.board && t.board.kind === "solar" && t.board.seats[i].eliminated) team += ' · <span class="off">eliminated</span>';
    d.innerHTML = `<div class="top"><div><div class="name">${esc(s.label)}</div><div class="who">${who}${team}</div></div>
      <div class="clockbox"><div class="cap" data-clock-cap="${i}">${clockCaption(s)}</div><div class="clock${t.clocked ? "" : " spent"}" data-clock="${i}">${clockText(s)}</div></div></div>`;
    if (s.thinking) {
      const th = s.thinking;
      const parts = [];
      if (th.depth !== null && th.depth !== undefined) parts.push(`depth <b>${th.depth}</b>${th.seldepth ? "/" + th.seldepth : ""}`);
      if (th.score) parts.push(`score <b>${esc(th.score)}</b>`);
      if (th.nodes !== null && th.nodes !== undefined) parts.push(`${Number(th.nodes).toLocaleString("en")} nodes`);
      if (th.nps) parts.push(`${Math.round(th.nps / 1000)} kn/s`);
      const pv = th.pv && th.pv.length ? `<div>pv ${esc(th.pv.slice(0, 10).join(" "))}</div>` : "";
      const th_el = document.createElement("div");
      th_el.className = "think";
      th_el.dataset.think = i;
      th_el.innerHTML = parts.join(" · ") + pv;
      d.appendChild(th_el);
    }
    if (t.board && t.board.kind === "spider" && t.board.hands) {
      // Variants with pieces in hand: seat i plays colour i.
      const hand = t.board.hands[i];
      const h = document.createElement("div");
      h.className = "hand";
      if (!hand.length) h.innerHTML = '<span class="who">hand: empty</span>';
      const mine = t.my_turn && t.board.side === i && s.you;
      for (const p of hand) {
        const selected = mine && S.drop && S.drop.letter === p.letter;
        const el = Boards.spiderHandPiece(t.board.types, p.letter, i, p.n, selected);
        el.dataset.seat = i;
        el.onclick = () => pickSpiderHand(i, p.letter);
        h.appendChild(el);
      }
      d.appendChild(h);
    }
    if (t.board && t.board.kind === "solar") {
      const hand = t.board.seats[i].hand;
      const h = document.createElement("div");
      h.className = "hand";
      if (!hand.length) h.innerHTML = '<span class="who">hand: empty</span>';
      const mine = t.my_turn && t.board.to_move === i && s.you;
      for (const p of hand) {
        const selected = S.drop && S.drop.kind === p.kind && S.drop.hand === p.colour && mine;
        const el = Boards.solarHandPiece(p.kind, p.colour, p.n, selected);
        el.dataset.seat = i;
        el.onclick = () => pickHand(i, p.kind, p.colour);
        h.appendChild(el);
      }
      d.appendChild(h);
    }
    host.appendChild(d);
  });
}

// The lobby lists new tables (a live match's games appear by themselves).
setInterval(() => { if (S.view === "lobby" && S.connected) send({ t: "lobby" }); }, 2000);

setInterval(() => {
  if (S.view !== "table" || !S.table) return;
  for (const el of document.querySelectorAll("[data-clock]")) {
    const s = S.table.seats[Number(el.dataset.clock)];
    if (s) el.textContent = clockText(s);
  }
  for (const el of document.querySelectorAll("[data-clock-cap]")) {
    const s = S.table.seats[Number(el.dataset.clockCap)];
    if (s) el.textContent = clockCaption(s);
  }
}, 100);

function renderMoves() {
  const t = S.table;
  const host = $("t-moves");
  if (t.view_table) {
    const ev = t.view_table.events || [];
    host.innerHTML = ev.slice(-80).map(e => `<span class="ev">${esc(e)}</span>`).join("");
    $("t-movecard").querySelector("h3").textContent = "Events (as your seat sees them)";
  } else {
    $("t-movecard").querySelector("h3").textContent = "Moves";
    host.innerHTML = moveListHtml(t.moves || [], t.seats.length, -1);
  }
  host.scrollTop = host.scrollHeight;
}

function moveListHtml(moves, seats, cur) {
  const out = [];
  moves.forEach((m, i) => {
    const score = m.score ? ` title="${esc(m.score)}${m.depth ? " / depth " + m.depth : ""}, ${(m.ms / 1000).toFixed(2)} s"` : "";
    const cls = "mv" + (i === cur ? " cur" : "");
    if (seats === 2) {
      if (m.seat === 0 || i === 0) out.push(`<span class="num">${Math.floor(i / 2) + 1}.${m.seat === 1 ? ".." : ""}</span>`);
    } else out.push(`<span class="num">${i + 1}.${m.seat + 1}</span>`);
    out.push(`<span class="${cls}" data-ply="${i + 1}"${score}>${esc(m.mv)}</span>`);
  });
  return out.join(" ");
}

function renderBoard() {
  const t = S.table;
  if (!t) return;
  const host = $("board");
  $("picker").classList.add("hidden");
  if (t.view_table) return renderSpaceWars(host, t.view_table, t);
  if (!t.board) { host.replaceChildren(); return; }
  if (t.board.kind === "spider") {
    const legal = t.board.legal || [];
    const targets = S.drop ? legal.filter(m => m.drop === S.drop.letter).map(m => [m.to[0], m.to[1]])
      : S.sel ? legal.filter(m => !m.drop && m.from[0] === S.sel[0] && m.from[1] === S.sel[1])
        .map(m => [m.to[0], m.to[1]]) : [];
    Boards.spider(host, t.board, { flipped: S.flipped, sel: S.sel, targets, onSquare: spiderClick });
    const legend = Boards.spiderLegend(t.board);
    host.parentElement.querySelector(".legend")?.remove();
    host.parentElement.appendChild(legend);
  } else if (t.board.kind === "solar") {
    host.parentElement.querySelector(".legend")?.remove();
    const legal = t.board.legal || [];
    const targets = new Map();
    if (S.sel) for (const m of legal) if ((m.type === "step" || m.type === "dock") && m.from === S.sel) targets.set(m.to, m.type);
    if (S.drop) for (const m of legal) if (m.type === "drop" && m.kind === S.drop.kind && m.hand === S.drop.hand) targets.set(m.to, "drop");
    Boards.solar(host, t.board, { sel: S.sel, targets, onTile: solarClick, names: S.names });
    if (t.my_turn && legal.length === 1 && legal[0].type === "pass") {
      showPicker("No move is possible:", [{ label: "Pass (0000)", text: "0000" }]);
    }
  }
}

function showPicker(label, choices) {
  const p = $("picker");
  p.replaceChildren();
  const l = document.createElement("span");
  l.textContent = label;
  p.appendChild(l);
  for (const c of choices) {
    const b = document.createElement("button");
    b.innerHTML = c.html || esc(c.label);
    b.dataset.choice = c.text;
    b.onclick = () => { p.classList.add("hidden"); sendMove(c.text); };
    p.appendChild(b);
  }
  const x = document.createElement("button");
  x.textContent = "Cancel";
  x.onclick = () => { p.classList.add("hidden"); S.sel = null; S.drop = null; renderBoard(); };
  p.appendChild(x);
  p.classList.remove("hidden");
}

function sendMove(text) {
  if (!send({ t: "move", text })) { setMessage("Not connected to the server: the move was not sent.", "refused"); return; }
  setMessage(`Sent ${text}…`, "ok");
}

function spiderClick(x, y) {
  const t = S.table, b = t.board;
  const piece = b.pieces.find(p => p[0] === x && p[1] === y);
  const legal = (b.legal || []).filter(m => !m.drop);
  if (S.drop) {
    const letter = S.drop.letter;
    // Another own piece that can move: pick it instead of dropping.
    if (piece && piece[3] === b.side && legal.some(m => m.from[0] === x && m.from[1] === y)) {
      S.drop = null;
      renderSeats();
    } else {
      const drop = (b.legal || []).find(m => m.drop === letter && m.to[0] === x && m.to[1] === y);
      S.drop = null;
      renderSeats();
      // Sent even when it is not a legal drop: the rules core says why.
      sendMove(drop ? drop.text : `${letter}@${squareName(x, y)}`);
      return;
    }
  }
  if (!S.sel) {
    if (!piece) { setMessage("Pick a piece first.", ""); return; }
    S.sel = [x, y];
    S.msg = null;
    const n = legal.filter(m => m.from[0] === x && m.from[1] === y).length;
    if (t.my_turn) setMessage(n ? `${squareName(x, y)}: ${n} legal move${n > 1 ? "s" : ""}.` : `${squareName(x, y)}: this piece has no legal move.`, "");
    renderBoard();
    return;
  }
  const [fx, fy] = S.sel;
  if (fx === x && fy === y) { S.sel = null; renderBoard(); return; }
  const own = piece && piece[3] === b.side && legal.some(m => m.from[0] === x && m.from[1] === y);
  const moves = legal.filter(m => m.from[0] === fx && m.from[1] === fy && m.to[0] === x && m.to[1] === y);
  if (!moves.length && own) { S.sel = [x, y]; renderBoard(); return; }
  const text = squareName(fx, fy) + squareName(x, y);
  if (moves.length > 1 || (moves.length === 1 && moves[0].promo)) {
    const choices = moves.map(m => {
      const sym = pieceSymbol(b.types, m.promo);
      return { label: sym.name, text: m.text, html: `${sym.glyph || m.promo} ${esc(sym.name)}` };
    });
    showPicker(`Promote on ${squareName(x, y)} to:`, choices);
    return;
  }
  S.sel = null;
  // Sent even when it is not a legal target: the rules core says why.
  sendMove(moves.length ? moves[0].text : text);
}

function pickSpiderHand(seat, letter) {
  const t = S.table;
  const name = pieceSymbol(t.board.types, letter).name;
  if (!t.my_turn || t.board.side !== seat || !t.seats[seat].you) {
    setMessage(`${t.seats[seat].label}'s hand: only its player may drop from it, on its turn.`, "");
    return;
  }
  S.sel = null;
  S.drop = S.drop && S.drop.letter === letter ? null : { letter };
  if (S.drop) {
    const n = (t.board.legal || []).filter(m => m.drop === letter).length;
    setMessage(n ? `Drop a ${name}: ${n} legal drop${n === 1 ? "" : "s"}.` : `${name} in hand: no legal drop now.`, "");
  }
  renderSeats();
  renderBoard();
}

function pickHand(seat, kind, colour) {
  const t = S.table;
  if (!t.my_turn || t.board.to_move !== seat || !t.seats[seat].you) {
    setMessage(`Seat ${seat + 1}'s hand: only its player may drop from it, on its turn.`, "");
    return;
  }
  S.sel = null;
  S.drop = S.drop && S.drop.kind === kind && S.drop.hand === colour ? null : { kind, hand: colour };
  if (S.drop) {
    const n = (t.board.legal || []).filter(m => m.type === "drop" && m.kind === kind && m.hand === colour).length;
    setMessage(`Drop a ${Boards.solarColour(colour).name} ${({ O: "Orbiter", M: "Missile", F: "Fighter" })[kind]}: ${n} legal drop${n === 1 ? "" : "s"}.`, "");
  }
  renderSeats();
  renderBoard();
}

function solarClick(tile) {
  const t = S.table, b = t.board;
  const legal = b.legal || [];
  const piece = b.pieces.find(p => p.tile === tile);
  if (S.drop) {
    const drops = legal.filter(m => m.type === "drop" && m.kind === S.drop.kind && m.hand === S.drop.hand && m.to === tile);
    const d = S.drop;
    if (drops.length > 1) {
      showPicker(`Drop on ${tile} as:`, drops.map(m => ({ label: Boards.solarColour(m.colour).name, text: m.text,
        html: `<span style="color:${Boards.solarColour(m.colour).fill}">\u25CF</span> ${Boards.solarColour(m.colour).name}` })));
      return;
    }
    S.drop = null;
    sendMove(drops.length ? drops[0].text : `${d.kind}${d.hand}@${tile}`);
    return;
  }
  if (!S.sel) {
    if (!piece) { setMessage(`${tile} is empty: pick a piece, or a piece in your hand to drop.`, ""); return; }
    S.sel = tile;
    S.msg = null;
    const n = legal.filter(m => m.from === tile).length;
    if (t.my_turn) setMessage(n ? `${tile}: ${n} legal move${n > 1 ? "s" : ""}${legal.some(m => m.from === tile && m.type === "dock") ? " (ringed: dock at your Mothership)" : ""}.` : `${tile}: no legal move for this piece.`, "");
    renderBoard();
    return;
  }
  if (S.sel === tile) { S.sel = null; renderBoard(); return; }
  const from = S.sel;
  const mv = legal.find(m => (m.type === "step" || m.type === "dock") && m.from === from && m.to === tile);
  if (!mv && piece && legal.some(m => m.from === tile)) { S.sel = tile; renderBoard(); return; }
  S.sel = null;
  sendMove(mv ? mv.text : from + tile);
}

$("t-flip").onclick = () => { S.flipped = !S.flipped; renderBoard(); };
$("t-export").onclick = () => send({ t: "export" });
$("t-leave").onclick = () => { S.tableId = null; S.mySeats = []; send({ t: "leave" }); show("lobby"); };
$("t-close").onclick = () => { if (confirm("Close this table for everyone?")) { S.tableId = null; S.mySeats = []; send({ t: "close" }); show("lobby"); } };
$("nav-lobby").onclick = () => { show("lobby"); send({ t: "lobby" }); };
$("home").onclick = $("nav-lobby").onclick;
$("nav-replay").onclick = () => show("replay");

function download(name, text) {
  const a = document.createElement("a");
  a.href = URL.createObjectURL(new Blob([text], { type: "text/plain" }));
  a.download = name;
  a.textContent = name;
  return a;
}

function onExport(m) {
  const box = $("t-export-text");
  box.classList.remove("hidden");
  box.value = (m.pgn ? m.pgn + "\n" : "") + m.record + "\n";
  const links = document.createElement("div");
  links.className = "buttons";
  if (m.pgn) links.appendChild(download(`orrery-table-${S.tableId}.pgn`, m.pgn));
  links.appendChild(download(`orrery-table-${S.tableId}.jsonl`, m.record + "\n"));
  box.nextElementSibling?.classList?.contains("buttons") && box.nextElementSibling.remove();
  box.after(links);
}

// ------------------------------------------------------------------ Space Wars

function swReset(v, t) {
  const key = `${t.decisions}|${v.pending}|${JSON.stringify(v.step)}`;
  if (S.swKey !== key) {
    S.swKey = key;
    S.sw = { cards: [], cls: null, piles: [[], [], []], pile: 0, orders: [], atk: null };
  }
}

function swShipName(v, id) {
  const sh = v.ships[id];
  return `ship ${id + 1} (seat ${sh.owner + 1} ${sh.class})`;
}

function renderSpaceWars(host, v, t) {
  swReset(v, t);
  host.parentElement.querySelector(".legend")?.remove();
  const sw = S.sw;
  const wrap = document.createElement("div");
  wrap.className = "sw";
  const me = v.seat;
  const pending = t.over ? null : v.pending;
  const kind = pending ? pending.split(":")[0] : null;
  const count = pending && pending.includes(":") ? Number(pending.split(":")[1]) : 0;
  const step = v.step;
  const defended = step.name === "battle" ? step.ship : null;
  const attack = step.detail && step.detail.attack;

  // What the seat owes now.
  const owe = document.createElement("div");
  owe.className = "zone" + (kind ? " owe" : "");
  owe.id = "sw-owe";
  const head = `<h3><span>Seat ${me + 1} · round ${v.round} · step ${step.name}${step.sub ? " / " + step.sub : ""}</span><span>draw pile ${v.draw}</span></h3>`;
  const texts = {
    class: "Choose your ship class: pick the ship card from your hand (a Queen for a Battleship, a Joker for a Mother Ship, any card for Fighters), then the class.",
    discard: `Discard ${count} card${count === 1 ? "" : "s"} from your hand.`,
    split: "Split your 9 cards into three piles of 3, one per fighter: choose a pile, then click cards.",
    attack: "Tactical step: click an attack card on one of your ships, then the enemy ship it attacks. Repeat, then send (no attacks is allowed).",
    defend: "Battle-stations: click which of your attacked ships to defend next.",
    resolve: "Click the attack card (face up on your ship) to resolve next.",
    block: `Block the ${attack ? attack.card : ""} attack: pick blocking cards from ${defended !== null ? swShipName(v, defended) : "the ship"}.`,
    lose: `Lose ${count} card${count === 1 ? "" : "s"} from ${defended !== null ? swShipName(v, defended) : "the ship"} for unblocked points.`,
    crew: `Boarding action: pick one club from ${attack ? swShipName(v, attack.from) : "your attacking ship"} as crew.`,
    repel: `Repel the boarders (crew ${step.detail && step.detail.crew}): pick clubs from ${attack ? swShipName(v, attack.target) : "the ship"}.`,
  };
  let body = "";
  if (t.over) body = `<p>The game is over: ${esc(v.result || t.result || "")}.</p>`;
  else if (kind) body = `<p data-owe="${kind}">${texts[kind] || kind}</p>`;
  else if (t.seats[me] && t.seats[me].decided) body = "<p>Decision sent; waiting for the other seats.</p>";
  else body = "<p>Nothing owed now; waiting for the other seats.</p>";
  owe.innerHTML = head + body;
  const actions = document.createElement("div");
  actions.className = "buttons";
  owe.appendChild(actions);
  wrap.appendChild(owe);

  const handCards = (v.seats[me].hand.cards) || [];
  const myShips = v.ships.filter(s => s.owner === me && s.alive);

  function cardEl(code, key, pickable) {
    const selected = sw.cards.includes(key) || (sw.atk && sw.atk.key === key);
    const el = Boards.cardFace(code, (pickable ? "pick" : "") + (selected ? " sel" : ""));
    el.dataset.key = key;
    if (pickable) el.onclick = () => swCard(key, code, v, t);
    return el;
  }

  // Own hand (set-up steps).
  if (handCards.length) {
    const z = document.createElement("div");
    z.className = "zone";
    z.innerHTML = `<h3><span>Your hand</span><span>${handCards.length} cards</span></h3>`;
    const c = document.createElement("div");
    c.className = "cards";
    c.id = "sw-hand";
    const inPile = new Set(sw.piles.flat());
    handCards.forEach((code, i) => {
      const key = `h${i}`;
      if (kind === "split" && inPile.has(key)) return;
      c.appendChild(cardEl(code, key, kind === "class" || kind === "discard" || kind === "split"));
    });
    z.appendChild(c);
    if (kind === "split") {
      const piles = document.createElement("div");
      piles.className = "fleet";
      sw.piles.forEach((p, pi) => {
        const d = document.createElement("div");
        d.className = "pile" + (sw.pile === pi ? " sel" : "");
        d.dataset.pile = pi;
        d.innerHTML = `<div class="sub">fighter ${pi + 1} (${p.length}/3)</div>`;
        const cc = document.createElement("div");
        cc.className = "cards";
        for (const key of p) {
          const el = Boards.cardFace(handCards[Number(key.slice(1))], "pick");
          el.onclick = ev => { ev.stopPropagation(); sw.piles[pi] = p.filter(k => k !== key); renderBoard(); };
          cc.appendChild(el);
        }
        d.appendChild(cc);
        d.onclick = () => { sw.pile = pi; renderBoard(); };
        piles.appendChild(d);
      });
      z.appendChild(piles);
    }
    wrap.appendChild(z);
  }

  // Every seat's fleet.
  const order = [me, ...v.seats.map((_, i) => i).filter(i => i !== me)];
  for (const s of order) {
    const seat = v.seats[s];
    const z = document.createElement("div");
    z.className = "zone";
    z.dataset.fleet = s;
    const cls = seat.class ? `${seat.class.name} (ship card ${seat.class.card})` : (seat.hand.count !== undefined && !v.ships.some(x => x.owner === s) ? `${seat.hand.count} cards in hand` : "");
    z.innerHTML = `<h3><span>${s === me ? "Your fleet" : "Seat " + (s + 1)}${seat.active ? "" : " — out"}</span><span>${esc(cls)}</span></h3>`;
    const fleet = document.createElement("div");
    fleet.className = "fleet";
    for (const sh of v.ships.filter(x => x.owner === s)) {
      const d = document.createElement("div");
      const mine = sh.owner === me;
      const targetable = (kind === "attack" && sw.atk && !mine && sh.alive) || (kind === "defend" && mine && sh.alive && v.attacks.some(a => a.target === sh.id));
      d.className = "ship" + (mine ? " mine" : "") + (sh.alive ? "" : " dead") + (targetable ? " target" : "") + (defended === sh.id ? " chosen" : "");
      d.dataset.ship = sh.id + 1;
      const n = sh.hull.cards ? sh.hull.cards.length : sh.hull.count;
      d.innerHTML = `<div class="hdr"><span>Ship ${sh.id + 1}</span><span>${esc(sh.class)}</span></div>
        <div class="sub">size ${sh.size} · hull ${sh.alive ? n + " card" + (n === 1 ? "" : "s") : "destroyed"}</div>`;
      const cc = document.createElement("div");
      cc.className = "cards";
      if (sh.hull.cards) {
        sh.hull.cards.forEach((code, i) => {
          const key = `s${sh.id}:${i}`;
          let pick = false;
          if (kind === "attack") pick = mine;
          if ((kind === "block" || kind === "lose" || kind === "repel") && sh.id === defended) pick = true;
          if (kind === "repel" && attack && sh.id === attack.target) pick = true;
          if (kind === "crew" && attack && sh.id === attack.from) pick = true;
          cc.appendChild(cardEl(code, key, pick));
        });
      } else if (sh.alive) {
        for (let i = 0; i < Math.min(n, 12); i++) cc.appendChild(Boards.cardBack());
      }
      d.appendChild(cc);
      const on = v.attacks.filter(a => a.target === sh.id);
      if (on.length) {
        const a = document.createElement("div");
        a.className = "cards";
        a.innerHTML = `<span class="count">attacked:</span>`;
        for (const at of on) {
          const box = document.createElement("span");
          box.className = "attack";
          box.dataset.attack = `${at.from + 1}>${at.target + 1}`;
          let el;
          if (at.card) {
            el = Boards.cardFace(at.card, (at.face_up ? "" : "own") + (kind === "resolve" && at.face_up && sh.id === defended ? " pick" : ""));
            if (kind === "resolve" && at.face_up && sh.id === defended) el.onclick = () => sendMove(`resolve ${at.card}:${at.from + 1}`);
          } else el = Boards.cardBack();
          box.appendChild(el);
          box.appendChild(document.createTextNode(`from ship ${at.from + 1}${at.face_up ? "" : (at.card ? " (yours, face down)" : " (face down)")}`));
          a.appendChild(box);
        }
        d.appendChild(a);
      }
      d.onclick = () => swShip(sh, v, t);
      fleet.appendChild(d);
    }
    if (!v.ships.some(x => x.owner === s)) fleet.innerHTML = `<span class="count">${seat.class ? "no ships" : "ships not formed yet"}</span>`;
    z.appendChild(fleet);
    wrap.appendChild(z);
  }

  // Discard pile.
  const disc = document.createElement("div");
  disc.className = "zone";
  disc.innerHTML = `<h3><span>Discard pile (face up)</span><span>${v.discard.length} cards</span></h3>`;
  const dc = document.createElement("div");
  dc.className = "cards";
  dc.id = "sw-discard";
  for (const code of v.discard.slice(-30)) dc.appendChild(Boards.cardFace(code));
  if (v.discard.length > 30) dc.insertAdjacentHTML("afterbegin", `<span class="count">… ${v.discard.length - 30} more</span>`);
  disc.appendChild(dc);
  wrap.appendChild(disc);

  // The decision's buttons.
  const btn = (label, fn, primary, act) => {
    const b = document.createElement("button");
    b.textContent = label;
    if (act) b.dataset.act = act;
    if (primary) b.className = "primary";
    b.onclick = fn;
    actions.appendChild(b);
    return b;
  };
  const cardsOf = keys => keys.map(k => swCardCode(k, v));
  if (kind === "class") {
    for (const c of v.classes) {
      const b = btn(`${c.name} (${c.ships} × size ${c.size})`, () => {
        if (!sw.cards.length) { setMessage("Pick the ship card from your hand first.", "refused"); return; }
        sendMove(`class ${c.name} ${swCardCode(sw.cards[0], v)}`);
      }, false);
      b.dataset.cls = c.name;
    }
  } else if (kind === "discard") {
    btn(`Discard selected (${sw.cards.length}/${count})`, () => sendMove(`discard ${sw.cards.length ? cardsOf(sw.cards).join(" ") : "none"}`), true, "send");
  } else if (kind === "split") {
    btn("Fill the piles in order", () => {
      const free = handCards.map((_, i) => `h${i}`).filter(k => !sw.piles.flat().includes(k));
      for (const p of sw.piles) while (p.length < 3 && free.length) p.push(free.shift());
      renderBoard();
    }, false, "fill");
    btn("Send split", () => sendMove("split " + sw.piles.map(p => cardsOf(p).join(",") || "-").join(" ")), true, "send");
  } else if (kind === "attack") {
    const o = document.createElement("div");
    o.className = "orders";
    o.id = "sw-orders";
    o.textContent = sw.orders.length ? "orders: " + sw.orders.map(x => `${x.from + 1}:${x.card}>${x.target + 1}`).join(" ") : (sw.atk ? `${sw.atk.code} from ship ${sw.atk.ship + 1}: now click the target ship` : "no attack orders yet");
    owe.insertBefore(o, actions);
    btn(sw.orders.length ? `Send ${sw.orders.length} attack${sw.orders.length > 1 ? "s" : ""}` : "Send: no attacks", () =>
      sendMove(sw.orders.length ? "attack " + sw.orders.map(x => `${x.from + 1}:${x.card}>${x.target + 1}`).join(" ") : "attack none"), true, "send");
    if (sw.orders.length) btn("Clear orders", () => { sw.orders = []; sw.atk = null; renderBoard(); }, false, "clear");
  } else if (kind === "block" || kind === "repel") {
    btn(`${kind === "block" ? "Block" : "Repel"} with selected (${sw.cards.length})`, () => sendMove(`${kind} ${sw.cards.length ? cardsOf(sw.cards).join(" ") : "none"}`), true, "send");
  } else if (kind === "lose") {
    btn(`Lose selected (${sw.cards.length}/${count})`, () => sendMove(`lose ${sw.cards.length ? cardsOf(sw.cards).join(" ") : "none"}`), true, "send");
  } else if (kind === "crew") {
    btn("Send selected crew", () => { if (sw.cards.length) sendMove(`crew ${swCardCode(sw.cards[0], v)}`); else setMessage("Pick a club first.", "refused"); }, true, "send");
  }
  host.replaceChildren(wrap);
}

function swCardCode(key, v) {
  if (key[0] === "h") return v.seats[v.seat].hand.cards[Number(key.slice(1))];
  const [ship, i] = key.slice(1).split(":").map(Number);
  return v.ships[ship].hull.cards[i];
}

function swCard(key, code, v, t) {
  const sw = S.sw;
  const kind = v.pending ? v.pending.split(":")[0] : null;
  if (kind === "split") {
    const p = sw.piles[sw.pile];
    if (p.length >= 3) { setMessage(`Fighter ${sw.pile + 1} is full: choose another pile.`, "refused"); return; }
    p.push(key);
    if (p.length === 3 && sw.pile < 2) sw.pile++;
  } else if (kind === "attack") {
    const ship = Number(key.slice(1).split(":")[0]);
    if (sw.orders.some(o => o.key === key)) { sw.orders = sw.orders.filter(o => o.key !== key); sw.atk = null; }
    else sw.atk = sw.atk && sw.atk.key === key ? null : { key, code, ship };
  } else if (kind === "class" || kind === "crew") {
    sw.cards = sw.cards[0] === key ? [] : [key];
  } else {
    sw.cards = sw.cards.includes(key) ? sw.cards.filter(k => k !== key) : [...sw.cards, key];
  }
  renderBoard();
}

function swShip(sh, v, t) {
  const sw = S.sw;
  const kind = v.pending ? v.pending.split(":")[0] : null;
  if (kind === "attack" && sw.atk && sh.owner !== v.seat) {
    sw.orders.push({ key: sw.atk.key, from: sw.atk.ship, card: sw.atk.code, target: sh.id });
    sw.atk = null;
    renderBoard();
  } else if (kind === "defend" && sh.owner === v.seat) {
    sendMove(`defend ${sh.id + 1}`);
  }
}

// ------------------------------------------------------------------ replay

$("r-file").onchange = () => {
  const f = $("r-file").files[0];
  if (!f) return;
  const r = new FileReader();
  r.onload = () => { $("r-text").value = r.result; loadReplay(0, 0); };
  r.readAsText(f);
};
$("r-load").onclick = () => loadReplay(0, 0);
$("r-game").onchange = () => loadReplay(Number($("r-game").value), 0);
$("r-seat").onchange = () => loadReplay(S.replay.data.game, Number($("r-seat").value));

function loadReplay(game, seat) {
  $("r-error").textContent = "";
  const text = $("r-text").value.trim();
  const m = { t: "replay", game, seat };
  if (text) m.text = text;
  S.replay.keepIdx = S.replay.data && S.replay.data.game === game ? S.replay.idx : null;
  send(m);
}

function onReplay(m) {
  S.replay.data = m;
  show("replay");
  const gs = $("r-game");
  gs.replaceChildren(...m.games.map(g => new Option(`${g.title} (${g.result})`, String(g.index))));
  gs.value = String(m.game);
  $("r-seat-row").classList.toggle("hidden", !m.hidden);
  if (m.hidden) {
    $("r-seat").replaceChildren(...m.seats.map((s, i) => new Option(s, String(i))));
    $("r-seat").value = String(m.seat);
  }
  $("r-title").textContent = `Replay: ${m.kind} — ${m.engines.join(" vs ")}`;
  $("r-status").textContent = `${m.result} — ${m.reason}`;
  const sl = $("r-slider");
  sl.max = String(m.frames.length - 1);
  const idx = S.replay.keepIdx !== null && S.replay.keepIdx !== undefined ? Math.min(S.replay.keepIdx, m.frames.length - 1) : 0;
  replayShow(idx);
}

function replayShow(i) {
  const m = S.replay.data;
  if (!m) return;
  i = Math.max(0, Math.min(m.frames.length - 1, i));
  S.replay.idx = i;
  $("r-slider").value = String(i);
  const f = m.frames[i];
  $("r-ply").textContent = `${f.ply} / ${m.frames[m.frames.length - 1].ply}`;
  const host = $("r-board");
  const b = f.board;
  if (b.kind === "spider") Boards.spider(host, b, { flipped: false, targets: [] });
  else if (b.kind === "solar") Boards.solar(host, b, { targets: new Map() });
  else if (b.kind === "spacewars") renderSpaceWarsReplay(host, b);
  const mv = $("r-moves");
  if (m.moves) {
    mv.innerHTML = moveListHtml(m.moves, m.seats.length, f.ply - 1);
    mv.querySelector(".cur")?.scrollIntoView({ block: "nearest" });
  } else {
    mv.innerHTML = (b.events || []).map(e => `<span class="ev">${esc(e)}</span>`).join("");
    mv.scrollTop = mv.scrollHeight;
  }
}

function renderSpaceWarsReplay(host, v) {
  const fake = { over: true, decisions: -1, result: "", seats: v.seats.map(() => ({})) };
  renderSpaceWars(host, v, fake);
}

$("r-slider").oninput = () => replayShow(Number($("r-slider").value));
$("r-first").onclick = () => replayShow(0);
$("r-prev").onclick = () => replayShow(S.replay.idx - 1);
$("r-next").onclick = () => replayShow(S.replay.idx + 1);
$("r-last").onclick = () => replayShow(Infinity);
document.addEventListener("keydown", ev => {
  if (S.view !== "replay" || ev.target.tagName === "TEXTAREA" || ev.target.tagName === "INPUT") return;
  if (ev.key === "ArrowLeft") replayShow(S.replay.idx - 1);
  if (ev.key === "ArrowRight") replayShow(S.replay.idx + 1);
});

connect();
