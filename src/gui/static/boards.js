// Drawing the three games: Spider-Chess (and any Interactive Diagram variant) and Solar Chess as
// SVG built from what the server sends (board shape, kite polygons computed by the geometry
// code, pieces), Space Wars as one seat's table in HTML. No state lives here: app.js keeps it.
"use strict";

const SVG_NS = "http://www.w3.org/2000/svg";

function svgEl(tag, attrs, parent) {
  const e = document.createElementNS(SVG_NS, tag);
  for (const k in attrs) e.setAttribute(k, attrs[k]);
  if (parent) parent.appendChild(e);
  return e;
}

function fileChar(x) {
  return x < 26 ? String.fromCharCode(97 + x) : String.fromCharCode(65 + x - 26);
}

function squareName(x, y) { return fileChar(x) + (y + 1); }

// Standard chess pieces get their glyph; every other piece type its letter on the token.
const GLYPHS = { king: "\u265A", queen: "\u265B", rook: "\u265C", bishop: "\u265D", knight: "\u265E", pawn: "\u265F" };

function pieceSymbol(types, letter) {
  const t = types.find(t => t.letter === letter);
  if (t && GLYPHS[t.name.toLowerCase()]) return { glyph: GLYPHS[t.name.toLowerCase()], name: t.name };
  return { glyph: null, name: t ? t.name : letter };
}

// A chess piece token: a disc in the side's colour with the glyph or letter.
function drawToken(g, cx, cy, r, colour, symbol, letter) {
  const white = colour === 0;
  svgEl("circle", { cx, cy, r, fill: white ? "#fbf7ee" : "#25282f",
    stroke: white ? "#2a2a2a" : "#e9dfc8", "stroke-width": r * 0.09, class: "token" }, g);
  const t = svgEl("text", { x: cx, y: cy, "text-anchor": "middle", "dominant-baseline": "central",
    fill: white ? "#1c1c1c" : "#f3ead6", "font-weight": 700, "pointer-events": "none",
    "font-family": "DejaVu Sans, sans-serif",
    "font-size": symbol.glyph ? r * 1.45 : (letter.length > 1 ? r * 0.9 : r * 1.15) }, g);
  t.textContent = symbol.glyph || letter;
  const title = svgEl("title", {}, g);
  title.textContent = (white ? "White " : "Black ") + symbol.name;
}

const Boards = {};

// Spider-Chess and loaded variants. opts: flipped, sel [x,y], targets [[x,y,capture]], onSquare(x,y).
Boards.spider = function (host, b, opts) {
  const s = 40, m = 24;
  const W = b.files * s + 2 * m, H = b.ranks * s + 2 * m;
  const svg = svgEl("svg", { viewBox: `0 0 ${W} ${H}`, class: "spider", "data-files": b.files, "data-ranks": b.ranks });
  svgEl("rect", { x: 0, y: 0, width: W, height: H, fill: "#0b0e14", rx: 8 }, svg);
  const px = x => m + (opts.flipped ? b.files - 1 - x : x) * s;
  const py = y => m + (opts.flipped ? y : b.ranks - 1 - y) * s;
  const holes = new Set(b.holes.map(([x, y]) => x + "," + y));
  const pieces = new Map(b.pieces.map(p => [p[0] + "," + p[1], p]));
  const targets = new Map((opts.targets || []).map(t => [t[0] + "," + t[1], t]));
  const lastSet = new Set((b.last || []).map(([x, y]) => x + "," + y));
  for (let y = 0; y < b.ranks; y++) {
    for (let x = 0; x < b.files; x++) {
      const key = x + "," + y;
      const X = px(x), Y = py(y);
      if (holes.has(key)) {
        svgEl("rect", { x: X + 1, y: Y + 1, width: s - 2, height: s - 2, rx: 6, fill: "#141a24", class: "hole" }, svg);
        continue;
      }
      const g = svgEl("g", { "data-sq": squareName(x, y), class: "sq" }, svg);
      const dark = (x + y) % 2 === 0;
      svgEl("rect", { x: X, y: Y, width: s, height: s, fill: dark ? "#b88a5a" : "#ecdcb8" }, g);
      if (lastSet.has(key)) svgEl("rect", { x: X, y: Y, width: s, height: s, fill: "rgba(240,180,41,0.45)", class: "last" }, g);
      if (b.check && b.check[0] === x && b.check[1] === y)
        svgEl("circle", { cx: X + s / 2, cy: Y + s / 2, r: s * 0.5, fill: "rgba(230,40,40,0.55)", class: "check" }, g);
      if (opts.sel && opts.sel[0] === x && opts.sel[1] === y)
        svgEl("rect", { x: X + 1.5, y: Y + 1.5, width: s - 3, height: s - 3, fill: "rgba(90,176,240,0.35)", stroke: "#2f7fd0", "stroke-width": 3, class: "selected" }, g);
      const p = pieces.get(key);
      if (p) {
        const pg = svgEl("g", { "data-piece": p[2] + (p[3] === 0 ? "w" : "b") }, g);
        drawToken(pg, X + s / 2, Y + s / 2, s * 0.42, p[3], pieceSymbol(b.types, p[2]), p[2]);
      }
      const t = targets.get(key);
      if (t) {
        if (p) svgEl("circle", { cx: X + s / 2, cy: Y + s / 2, r: s * 0.46, fill: "none", stroke: "rgba(30,120,220,0.85)", "stroke-width": 4, class: "target" }, g);
        else svgEl("circle", { cx: X + s / 2, cy: Y + s / 2, r: s * 0.15, fill: "rgba(30,90,170,0.7)", class: "target" }, g);
      }
      g.addEventListener("click", () => opts.onSquare && opts.onSquare(x, y));
    }
  }
  // Coordinates on all four sides.
  for (let x = 0; x < b.files; x++) {
    for (const yy of [m / 2, H - m / 2]) {
      const t = svgEl("text", { x: px(x) + s / 2, y: yy, "text-anchor": "middle", "dominant-baseline": "central", fill: "#8e99ab", "font-size": 12 }, svg);
      t.textContent = fileChar(x);
    }
  }
  for (let y = 0; y < b.ranks; y++) {
    for (const xx of [m / 2, W - m / 2]) {
      const t = svgEl("text", { x: xx, y: py(y) + s / 2, "text-anchor": "middle", "dominant-baseline": "central", fill: "#8e99ab", "font-size": 11 }, svg);
      t.textContent = String(y + 1);
    }
  }
  host.replaceChildren(svg);
};

// The key of piece types under the board.
Boards.spiderLegend = function (b) {
  const wrap = document.createElement("div");
  wrap.className = "legend";
  for (const t of b.types) {
    const item = document.createElement("span");
    item.className = "legend-item";
    const svg = svgEl("svg", { viewBox: "0 0 30 30", width: 26, height: 26 });
    drawToken(svg, 15, 15, 13, 0, pieceSymbol(b.types, t.letter), t.letter);
    item.appendChild(svg);
    const label = document.createElement("span");
    label.textContent = `${t.name} (${t.letter}: ${t.betza})`;
    item.appendChild(label);
    wrap.appendChild(item);
  }
  return wrap;
};

const SOLAR_COLOURS = {
  w: { fill: "#f6f2e8", text: "#1b1b1b", name: "White" },
  k: { fill: "#26272c", text: "#f2f2f2", name: "Black" },
  r: { fill: "#d8453b", text: "#ffffff", name: "Red" },
  u: { fill: "#3a78d8", text: "#ffffff", name: "Blue" },
  g: { fill: "#e3b23c", text: "#2a1d00", name: "Gold" },
  s: { fill: "#a7b2bd", text: "#1b1b1b", name: "Silver" },
};
const SOLAR_KINDS = { S: "Mothership", O: "Orbiter", M: "Missile", F: "Fighter" };

// A Solar Chess piece: a disc in its colour with its letter, and a badge with its owner's seat.
function solarToken(g, cx, cy, r, kind, colour, owner) {
  const c = SOLAR_COLOURS[colour];
  const ship = kind === "S";
  if (ship) svgEl("circle", { cx, cy, r: r * 1.18, fill: "none", stroke: c.fill, "stroke-width": r * 0.22, opacity: 0.9 }, g);
  svgEl("circle", { cx, cy, r, fill: c.fill, stroke: owner === null ? "#888" : "#111",
    "stroke-width": r * 0.12, "stroke-dasharray": owner === null ? `${r * 0.3} ${r * 0.2}` : "none",
    opacity: owner === null ? 0.55 : 1 }, g);
  const t = svgEl("text", { x: cx, y: cy, "text-anchor": "middle", "dominant-baseline": "central",
    fill: c.text, "font-weight": 700, "font-size": r * 1.15, "pointer-events": "none" }, g);
  t.textContent = kind;
  if (owner !== null && owner !== undefined) {
    const bx = cx + r * 0.85, by = cy - r * 0.85;
    svgEl("circle", { cx: bx, cy: by, r: r * 0.48, fill: "#0c1017", stroke: "#f0b429", "stroke-width": r * 0.08 }, g);
    const n = svgEl("text", { x: bx, y: by, "text-anchor": "middle", "dominant-baseline": "central",
      fill: "#f0b429", "font-size": r * 0.62, "font-weight": 700, "pointer-events": "none" }, g);
    n.textContent = String(owner + 1);
  }
  const title = svgEl("title", {}, g);
  title.textContent = `${c.name} ${SOLAR_KINDS[kind]}` + (owner === null ? " (inactive)" : `, seat ${owner + 1}`);
}

// Solar Chess. opts: sel tile, targets Map(tile -> "step"|"dock"|"drop"), onTile(name).
Boards.solar = function (host, b, opts) {
  const L = b.layout;
  let minX = Infinity, minY = Infinity, maxX = -Infinity, maxY = -Infinity;
  for (const t of L.tiles) for (const [x, y] of t.pts) {
    minX = Math.min(minX, x); maxX = Math.max(maxX, x); minY = Math.min(minY, y); maxY = Math.max(maxY, y);
  }
  const pad = 1.5;
  const svg = svgEl("svg", { viewBox: `${minX - pad} ${minY - pad} ${maxX - minX + 2 * pad} ${maxY - minY + 2 * pad}`, class: "solar" });
  svgEl("rect", { x: minX - pad, y: minY - pad, width: maxX - minX + 2 * pad, height: maxY - minY + 2 * pad, fill: "#0b0e14", rx: 1 }, svg);
  const pieces = new Map(b.pieces.map(p => [p.tile, p]));
  const last = b.last || {};
  const planetShade = {};
  L.planets.forEach((p, i) => { planetShade[p.name] = i; });
  for (const t of L.tiles) {
    const g = svgEl("g", { "data-tile": t.name, class: "tile" }, svg);
    // Kites 1 and 4, 2 and 5, 3 and 6 point the same ways (the missile lines): one shade each.
    const k = Number(t.name.slice(1));
    const base = ["#31476a", "#3d5a86", "#27395a"][k % 3];
    const pts = t.pts.map(p => p.join(",")).join(" ");
    let fill = base;
    if (t.name === last.from || t.name === last.to) fill = "#8a6d22";
    if (opts.sel === t.name) fill = "#2f7fd0";
    svgEl("polygon", { points: pts, fill, stroke: "#0b0e14", "stroke-width": 0.12 }, g);
    const tg = opts.targets && opts.targets.get(t.name);
    if (tg) svgEl("circle", { cx: t.c[0], cy: t.c[1], r: tg === "dock" ? 1.05 : 0.42,
      fill: tg === "dock" ? "none" : "rgba(120,200,255,0.85)", stroke: tg === "dock" ? "#7fd0ff" : "none",
      "stroke-width": 0.22, class: "target" }, g);
    const p = pieces.get(t.name);
    if (p) solarToken(g, t.c[0], t.c[1], 0.78, p.kind, p.colour, p.owner);
    else if (opts.names) {
      const n = svgEl("text", { x: t.c[0], y: t.c[1], "text-anchor": "middle", "dominant-baseline": "central",
        fill: "rgba(220,230,245,0.45)", "font-size": 0.62, "pointer-events": "none" }, g);
      n.textContent = t.name;
    }
    g.addEventListener("click", () => opts.onTile && opts.onTile(t.name));
  }
  for (const p of L.planets) {
    svgEl("circle", { cx: p.c[0], cy: p.c[1], r: 0.28, fill: "#e3b23c", opacity: 0.75, "pointer-events": "none" }, svg);
    const n = svgEl("text", { x: p.c[0] + 0.45, y: p.c[1] - 0.45, fill: "rgba(227,178,60,0.8)", "font-size": 0.7, "pointer-events": "none" }, svg);
    n.textContent = p.name;
  }
  host.replaceChildren(svg);
};

// A small hand piece (for the seat panels), clickable.
Boards.solarHandPiece = function (kind, colour, n, selected) {
  const svg = svgEl("svg", { viewBox: "0 0 46 30", width: 50, height: 33, class: "handpiece" + (selected ? " sel" : ""),
    "data-hand": kind + colour });
  solarToken(svg, 14, 16, 11, kind, colour, undefined);
  if (selected) svgEl("circle", { cx: 14, cy: 16, r: 13.5, fill: "none", stroke: "#f0b429", "stroke-width": 3 }, svg);
  const t = svgEl("text", { x: 44, y: 21, "text-anchor": "end", fill: "#e6e9ef", "font-size": 12, "font-weight": 700 }, svg);
  t.textContent = "\u00D7" + n;
  return svg;
};

Boards.solarColour = function (letter) { return SOLAR_COLOURS[letter]; };

// A Spider-Chess piece in hand (for the seat panels of variants with hands), clickable.
Boards.spiderHandPiece = function (types, letter, colour, n, selected) {
  const svg = svgEl("svg", { viewBox: "0 0 46 30", width: 50, height: 33, class: "handpiece" + (selected ? " sel" : ""),
    "data-hand": letter + (colour === 0 ? "w" : "b") });
  drawToken(svg, 14, 15, 12, colour, pieceSymbol(types, letter), letter);
  if (selected) svgEl("circle", { cx: 14, cy: 15, r: 14, fill: "none", stroke: "#f0b429", "stroke-width": 3 }, svg);
  const t = svgEl("text", { x: 44, y: 21, "text-anchor": "end", fill: "#e6e9ef", "font-size": 12, "font-weight": 700 }, svg);
  t.textContent = "\u00D7" + n;
  return svg;
};

// Space Wars cards.
const SUITS = { C: "\u2663", D: "\u2666", H: "\u2665", S: "\u2660" };
Boards.cardFace = function (code, extra) {
  const d = document.createElement("div");
  d.className = "card-face" + (extra ? " " + extra : "");
  d.dataset.card = code;
  if (code === "X") {
    d.textContent = "\u2605";
    d.title = "Joker";
    d.classList.add("red");
  } else {
    const r = code[0] === "T" ? "10" : code[0];
    const s = code[1];
    if (s === "D" || s === "H") d.classList.add("red");
    d.innerHTML = `<span>${r}</span><span>${SUITS[s] || s}</span>`;
    d.title = code;
  }
  return d;
};
Boards.cardBack = function () {
  const d = document.createElement("div");
  d.className = "card-back";
  d.title = "face down";
  return d;
};
