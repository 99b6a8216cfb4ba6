// nimlab serve: the page. Talks to the JSON API of the same server (see README, "Playing").
"use strict";

const $ = (id) => document.getElementById(id);
const SVG = "http://www.w3.org/2000/svg";

const state = {
  game: null,        // /api/game answer
  play: "normal",
  computerFirst: false,
  history: [],       // [{by: "start"|"you"|"computer", value: /api/outcome-like answer, why?}]
  pending: null,     // the position being edited (array of numbers), or null
  busy: false,
  hints: null,       // /api/hint answer for the current position
  options: null,     // /api/moves answer for the current position
  revealed: false,   // the player asked (Explain) for the current position's value
};

// Values (P/N, Grundy value, remoteness, which moves win) give the game away: they are shown with
// hints on, once the game is over, or for a position the player asked about.
function valuesShown() {
  return $("hints").checked || !state.history.length || over() || state.revealed;
}

function current() { return state.history[state.history.length - 1].value; }
function pos() { return current().position.entries; }
function over() { return current().terminal; }
function computerToMove() {
  const moves = state.history.length - 1;
  return (moves % 2 === 0) === state.computerFirst;
}

async function api(path, params) {
  const q = new URLSearchParams(params);
  const r = await fetch(`/api/${path}?${q}`);
  let body;
  try { body = await r.json(); } catch (e) { body = { error: `HTTP ${r.status}` }; }
  if (!r.ok) { const err = new Error(body.error || `HTTP ${r.status}`); err.kind = body.kind; throw err; }
  return body;
}

function base() {
  const p = { game: state.game.game, position: current().position.text };
  if (state.play === "misere") p.misere = "true";
  return p;
}

function setStatus(text) { $("status").textContent = text; }
function refuse(text) {
  const el = $("refusal");
  el.textContent = text;
  el.classList.remove("shake");
  void el.offsetWidth; // restart the animation
  el.classList.add("shake");
}

// ---- starting a game ----

async function newGame(randomStart) {
  if (state.busy) return;
  state.busy = true;
  $("refusal").textContent = "";
  $("result").textContent = "";
  $("explanation").textContent = "";
  try {
    const name = $("game").value.trim();
    state.game = await api("game", { game: name });
    state.play = $("misere").checked ? "misere" : "normal";
    state.computerFirst = $("computer-first").checked;
    let text = randomStart ? "" : $("position").value.trim();
    if (!text) {
      text = (await api("random", { game: state.game.game })).position.text;
      $("position").value = text;
    }
    const p = { game: state.game.game, position: text };
    if (state.play === "misere") p.misere = "true";
    const value = await api("outcome", p);
    state.history = [{ by: "start", value }];
    state.pending = null;
    $("rules").textContent = state.game.rules;
  } catch (e) {
    refuse(e.message);
    state.busy = false;
    if (!state.history.length) setStatus("Choose a game and a position.");
    return;
  }
  state.busy = false;
  await afterChange();
}

// ---- turns ----

async function afterChange() {
  state.hints = null;
  state.options = null;
  state.revealed = false;
  render();
  if (over()) { finish(); return; }
  if (computerToMove()) {
    await computerMove();
    return;
  }
  setStatus("Your move.");
  await refreshHelp();
  render();
}

function finish() {
  const last = state.history[state.history.length - 1].by;
  let winner;
  if (last === "start") winner = "nobody moved";
  else {
    const lastMoverWins = state.play === "normal";
    const computerLast = last === "computer";
    winner = (computerLast === lastMoverWins) ? "computer" : "you";
  }
  const res = $("result");
  if (winner === "computer") { res.textContent = "The computer wins."; res.className = "result"; }
  else if (winner === "you") { res.textContent = "You win!"; res.className = "result win"; }
  else { res.textContent = "The game is over before it started."; res.className = "result"; }
  setStatus("Game over.");
  render();
}

async function computerMove() {
  state.busy = true;
  setStatus("The computer is thinking…");
  try {
    const r = await api("computer", base());
    state.history.push({ by: "computer", value: r, why: r.why });
  } catch (e) {
    refuse(`The computer cannot move: ${e.message}`);
    state.busy = false;
    setStatus("Stopped.");
    return;
  }
  state.busy = false;
  await afterChange();
}

async function playTo(text) {
  if (state.busy || over() || computerToMove()) return;
  state.busy = true;
  try {
    const r = await api("move", Object.assign(base(), { to: text }));
    state.history.push({ by: "you", value: r });
    state.pending = null;
    $("refusal").textContent = "";
  } catch (e) {
    refuse(`Refused: ${e.message}`);
    state.busy = false;
    render();
    return;
  }
  state.busy = false;
  await afterChange();
}

function undo() {
  if (state.busy) return;
  let i = state.history.length - 1;
  while (i > 0 && state.history[i].by !== "you") i--;
  if (i === 0) { refuse("Nothing of yours to undo."); return; }
  state.history.length = i;
  state.pending = null;
  $("result").textContent = "";
  $("refusal").textContent = "";
  afterChange();
}

// ---- hints and explanations ----

async function refreshHelp() {
  if (over() || computerToMove()) return;
  const wantList = state.game.drawing === "boxes" || $("hints").checked;
  try {
    if ($("hints").checked) state.hints = await api("hint", base());
    if (wantList) state.options = await api("moves", base());
  } catch (e) {
    $("hint-text").textContent = e.message;
  }
}

async function explain() {
  if (!state.history.length) return;
  try {
    const r = await api("explain", base());
    $("explanation").textContent = r.text;
    state.revealed = true;
    render();
  } catch (e) {
    $("explanation").textContent = e.message;
  }
}

// Symmetry classes, so that a pending move is compared with the winning moves up to symmetry.
function canonical(entries) {
  const d = state.game.drawing;
  // A complex's winning moves are options of the position itself: compared as they are.
  if (d === "graph") return entries.join(",");
  if (d === "boxes" || d === "heaps") return [...entries].sort((a, b) => a - b).join(",");
  let v = d === "shrinking" ? entries.filter((a) => a > 0) : entries.slice();
  const n = v.length;
  let best = null;
  for (let s = 0; s < n; s++) {
    for (const dir of [1, -1]) {
      const r = [];
      for (let i = 0; i < n; i++) r.push(v[((s + dir * i) % n + n) % n]);
      const key = r.join(",");
      if (best === null || compareLists(r, best.list) < 0) best = { list: r, key };
    }
  }
  return best ? best.key : "";
}
function compareLists(a, b) {
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return a[i] - b[i];
  return 0;
}

// ---- drawing ----

function el(name, attrs, parent) {
  const e = document.createElementNS(SVG, name);
  for (const k in attrs) e.setAttribute(k, attrs[k]);
  if (parent) parent.appendChild(e);
  return e;
}

function changedIndices() {
  if (!state.pending) return [];
  const p = pos();
  return state.pending.map((a, i) => (a !== p[i] ? i : -1)).filter((i) => i >= 0);
}

// The smallest facet of a complex holding every changed index, or null (no single move does that).
function facetOf(changed) {
  if (!changed.length) return null;
  let best = null;
  for (const f of state.game.graph.facets) {
    if (changed.every((i) => f.includes(i)) && (best === null || f.length < best.length)) best = f;
  }
  return best;
}

// The window start covering every changed index, or -1.
function windowStart(changed, n, k) {
  if (!changed.length) return -1;
  if (k >= n) return 0;
  for (let s = 0; s < n; s++) if (changed.every((i) => ((i - s) % n + n) % n < k)) return s;
  return -1;
}

function render() {
  const svg = $("board");
  svg.innerHTML = "";
  if (!state.history.length) return;
  const v = current();
  svg.dataset.position = v.position.text;
  const d = state.game.drawing;
  const editable = !state.busy && !over() && !computerToMove();
  if (d === "boxes") drawBoxes(svg, v.position.entries);
  else drawStacks(svg, v.position.entries, d, editable);
  renderText(v);
  renderMoveBar(editable);
  renderOptions(editable);
  renderHistory();
}

function tokenSize(max) { return Math.max(4, Math.min(14, Math.floor(110 / Math.max(1, max)))); }

function drawStacks(svg, p, drawing, editable) {
  const n = p.length;
  const shown = state.pending || p;
  const max = Math.max(1, ...p);
  const big = max > 40;
  const th = tokenSize(max);
  const tw = n > 12 ? 16 : 26;
  const places = [];
  if (drawing === "graph") {
    drawGraph(svg, places);
  } else if (drawing === "heaps") {
    const gap = Math.min(90, 440 / Math.max(1, n));
    for (let i = 0; i < n; i++) places.push({ x: 10 + gap * (i + 0.5), y: 250, base: true });
  } else {
    const R = n <= 2 ? 90 : 135;
    el("circle", { cx: 230, cy: 200, r: R, class: "ring" }, svg);
    for (let i = 0; i < n; i++) {
      const a = -Math.PI / 2 + (2 * Math.PI * i) / n;
      places.push({ x: 230 + R * Math.cos(a), y: 200 + R * Math.sin(a) });
    }
  }
  // The window the pending move lowers, along the circle.
  const k = state.game.window;
  const changed = changedIndices();
  if (changed.length && drawing === "graph") {
    const f = facetOf(changed);
    const idx = f || changed;
    const pts = idx.map((i) => `${places[i].x},${places[i].y}`);
    if (idx.length > 2) pts.push(pts[0]);
    el("polyline", { points: pts.join(" "), class: f ? "window" : "window bad" }, svg);
  } else if (changed.length && drawing !== "heaps") {
    const s = windowStart(changed, n, k || n);
    const idx = s < 0 ? changed : Array.from({ length: Math.min(k, n) }, (_, j) => (s + j) % n);
    const pts = idx.map((i) => `${places[i].x},${places[i].y}`).join(" ");
    el("polyline", { points: pts, class: s < 0 ? "window bad" : "window" }, svg);
  }
  for (let i = 0; i < n; i++) {
    const { x } = places[i];
    const h = p[i];
    const colH = big ? 100 : h * th;
    const bottom = places[i].base ? places[i].y + 60 : places[i].y + Math.max(colH, th) / 2;
    const g = el("g", { id: `stack-${i}` }, svg);
    if (big) {
      el("rect", { x: x - tw / 2, y: bottom - 100, width: tw, height: 100, class: "tok locked" }, g);
    } else {
      for (let j = 1; j <= h; j++) {
        const removed = j > shown[i];
        const r = el("rect", {
          id: `tok-${i}-${j}`, x: x - tw / 2, y: bottom - j * th, width: tw, height: th - 1, rx: 2,
          class: "tok" + (removed ? " removed" : "") + (editable ? "" : " locked"),
        }, g);
        if (editable) r.addEventListener("click", () => clickToken(i, j));
      }
    }
    const label = el("text", {
      x, y: bottom + 15, class: "label" + (shown[i] !== h ? " changed" : ""),
    }, g);
    label.textContent = shown[i] !== h ? `${h}→${shown[i]}` : `${current().position.text.split(",")[i]}`;
    const num = el("text", { x, y: bottom + 29, class: "label", "font-size": 10 }, g);
    num.textContent = `#${i + 1}`;
  }
}

// Chord colours and dash patterns, one per step of ECN(m,S,k) in the order of S.
const STEP_STYLES = [
  { stroke: "#8a7f6a", dash: "" },
  { stroke: "#3b6fb6", dash: "7 4" },
  { stroke: "#b4561f", dash: "2 4" },
  { stroke: "#6b3fa0", dash: "10 3 2 3" },
];

// A complex drawn as its graph: the stacks are the vertices (on a circle), the step chords of ECN or
// the edges of a general complex (pairs inside a facet), its faces of 3 or more stacks shaded; fills
// `places` with the vertices' positions on the board.
function drawGraph(svg, places) {
  const gr = state.game.graph;
  const R = gr.stacks <= 2 ? 90 : 135;
  for (const v of gr.vertices) places.push({ x: 230 + R * v.x, y: 200 + R * v.y });
  gr.faces.forEach((f, i) => {
    const pts = f.map((j) => `${places[j].x},${places[j].y}`).join(" ");
    el("polygon", { id: `face-${i}`, points: pts, class: "face" }, svg);
  });
  for (const e of gr.edges) {
    const a = places[e.a], b = places[e.b];
    const attrs = { x1: a.x, y1: a.y, x2: b.x, y2: b.y };
    if (e.step === null) attrs.class = "edge";
    else {
      const st = STEP_STYLES[gr.steps.indexOf(e.step) % STEP_STYLES.length];
      attrs.class = `chord step-${e.step}`;
      attrs.stroke = st.stroke;
      if (st.dash) attrs["stroke-dasharray"] = st.dash;
    }
    el("line", attrs, svg);
  }
  places.forEach((p, i) => el("circle", { id: `node-${i}`, cx: p.x, cy: p.y, r: 7, class: "node" }, svg));
  if (gr.kind === "ecn") {
    gr.steps.forEach((s, i) => {
      const st = STEP_STYLES[i % STEP_STYLES.length];
      const y = 16 + 16 * i;
      const attrs = { x1: 8, y1: y, x2: 36, y2: y, stroke: st.stroke, class: "legend-line" };
      if (st.dash) attrs["stroke-dasharray"] = st.dash;
      el("line", attrs, svg);
      const t = el("text", { x: 42, y: y + 4, class: "legend" }, svg);
      t.textContent = s === 1 ? "step 1 (neighbours)" : `step ${s}: i → i+${s}`;
    });
  } else if (gr.faces.length) {
    const t = el("text", { x: 8, y: 18, class: "legend" }, svg);
    t.textContent = "shaded: faces of 3 or more stacks";
  }
}

function clickToken(i, j) {
  const p = pos();
  if (!state.pending) state.pending = p.slice();
  state.pending[i] = j <= state.pending[i] ? j - 1 : j;
  if (state.pending.every((a, t) => a === p[t])) state.pending = null;
  $("refusal").textContent = "";
  render();
}

function drawBoxes(svg, p) {
  const n = p.length;
  const title = el("text", { x: 230, y: 24, class: "label notation" }, svg);
  title.textContent = shown(current().position);
  const perRow = Math.min(n, 6);
  const w = Math.min(70, 440 / perRow - 8);
  p.forEach((c, i) => {
    const row = Math.floor(i / perRow), col = i % perRow;
    const x = 12 + col * (w + 8), y = 40 + row * 130;
    const g = el("g", { id: `box-${i}` }, svg);
    el("rect", { x, y, width: w, height: 100, rx: 6, class: "box" }, g);
    const drawn = Math.min(c, 30);
    for (let t = 0; t < drawn; t++) {
      el("circle", { cx: x + 9 + (t % 5) * ((w - 18) / 4), cy: y + 90 - Math.floor(t / 5) * 15, r: 5, class: "chip" }, g);
    }
    if (c > drawn) {
      const more = el("text", { x: x + w / 2, y: y + 16, class: "label" }, g);
      more.textContent = `+${c - drawn}`;
    }
    const label = el("text", { x: x + w / 2, y: y + 118, class: "label" }, g);
    label.textContent = current().position.text.split(",")[i];
  });
}

// The position as the game writes it: Ferguson's notation for chip games, the tuple otherwise.
function shown(position) { return position.notation || position.display; }

function renderText(v) {
  if (!valuesShown()) {
    $("outcome").textContent = `${state.game.game} ${shown(v.position)} (values hidden: turn hints on, or ask with Explain)`;
    $("hint-text").textContent = "";
    return;
  }
  const words = `${v.outcome === "P" ? "P" : "N"}: ${v.in_words}`;
  let extra = [];
  if (v.grundy !== null && v.grundy !== undefined) extra.push(`Grundy value ${v.grundy}`);
  if (v.remoteness !== null && v.remoteness !== undefined) extra.push(`remoteness ${v.remoteness}`);
  extra.push(`by ${v.method_text}`);
  $("outcome").textContent = `${state.game.game} ${shown(v.position)} — ${words} (${extra.join(", ")})`;
  const h = $("hint-text");
  if ($("hints").checked && state.hints && !over() && !computerToMove()) h.textContent = state.hints.text;
  else h.textContent = "";
}

function renderMoveBar(editable) {
  const b = $("play-move");
  b.disabled = !editable || !state.pending;
  $("clear-move").disabled = !state.pending;
  b.className = "";
  if (state.pending) {
    $("pending").textContent = `→ ${state.pending.join(",")}`;
    const changed = changedIndices();
    const k = state.game.window;
    const n = pos().length;
    let legalShape = true;
    const d = state.game.drawing;
    if (d === "heaps") legalShape = changed.length <= k;
    else if (d === "graph") legalShape = facetOf(changed) !== null;
    else legalShape = windowStart(changed, n, k || n) >= 0;
    if (!legalShape) $("pending").textContent += d === "heaps"
      ? `  (at most ${k} heap${k === 1 ? "" : "s"} per move)`
      : d === "graph" ? "  (not inside one facet)" : `  (not in one window of ${k})`;
    if ($("hints").checked && state.hints && legalShape) {
      const target = canonical(state.pending);
      const wins = state.hints.winning_moves.some((m) => canonical(m.entries) === target);
      b.className = wins ? "good" : "bad";
    }
  } else {
    const how = state.game.drawing === "boxes"
      ? "Choose the position after your move below."
      : "Click a token to lower its stack to below it.";
    $("pending").textContent = editable ? how : "";
  }
  $("play-typed").disabled = !editable;
}

function renderOptions(editable) {
  const box = $("option-list");
  box.innerHTML = "";
  const o = state.options;
  if (!o || !editable) return;
  const boxes = state.game.drawing === "boxes";
  let list = o.moves;
  if (!boxes && o.count > 60) {
    // Too many to list (hints are on here): the winning ones, and a count of the others.
    const x = document.createElement("span");
    x.textContent = `${o.count} moves, ${o.winning_count} of them winning${o.winning_count ? ":" : "."}`;
    box.appendChild(x);
    list = o.moves.filter((m) => m.winning).slice(0, 30);
  }
  const colour = $("hints").checked;
  list.forEach((m, idx) => {
    const b = document.createElement("button");
    b.className = "opt" + (colour ? (m.winning ? " win" : " lose") : "");
    b.id = `opt-${idx}`;
    b.textContent = shown(m.to);
    if (colour) b.title = m.winning ? "winning move" : "losing move";
    b.addEventListener("click", () => playTo(m.to.text));
    box.appendChild(b);
  });
}

function renderHistory() {
  const body = $("history").querySelector("tbody");
  body.innerHTML = "";
  state.history.forEach((h, i) => {
    const tr = document.createElement("tr");
    const v = h.value;
    // Past positions keep their values hidden too while the game is on (the start's value would say
    // whether the first move can win), except the computer's moves, which are always winning or
    // forced.
    const open = valuesShown();
    const value = open ? `${v.outcome}${v.grundy !== null && v.grundy !== undefined ? ` (g=${v.grundy})` : ""}` : "?";
    let verdict = "";
    if (h.by !== "start" && open) verdict = v.outcome === "P" ? "winning move" : "losing move";
    const who = h.by === "start" ? "start" : h.by === "you" ? "you" : "computer";
    [String(i), who, shown(v.position), value, verdict].forEach((t, c) => {
      const td = document.createElement("td");
      td.textContent = t;
      if (c === 2) td.className = "pos";
      if (c === 4) td.className = v.outcome === "P" ? "good-move" : "bad-move";
      if (c === 4 && h.why) td.title = h.why;
      tr.appendChild(td);
    });
    body.appendChild(tr);
  });
}

// ---- wiring ----

async function init() {
  try {
    const g = await api("games", {});
    const list = $("game-list");
    for (const name of g.presets) {
      const o = document.createElement("option");
      o.value = name;
      list.appendChild(o);
    }
    // Picking a game (from the list, or typing one and pressing Enter) starts a game at a random
    // position; any game name nimlab knows is accepted, listed or not.
    $("game").addEventListener("change", () => { $("position").value = ""; newGame(true); });
  } catch (e) { refuse(e.message); }
  const q = new URLSearchParams(location.search);
  if (q.get("game")) $("game").value = q.get("game");
  if (q.get("position")) $("position").value = q.get("position");
  $("misere").checked = q.get("misere") === "true" || q.get("misere") === "1";
  $("computer-first").checked = q.get("computer") === "first";
  $("hints").checked = q.get("hints") === "1" || q.get("hints") === "true";
  $("new-game").addEventListener("click", () => newGame(false));
  $("random").addEventListener("click", () => newGame(true));
  $("play-move").addEventListener("click", () => state.pending && playTo(state.pending.join(",")));
  $("clear-move").addEventListener("click", () => { state.pending = null; $("refusal").textContent = ""; render(); });
  $("play-typed").addEventListener("click", () => playTo($("move-text").value.trim()));
  $("move-text").addEventListener("keydown", (e) => { if (e.key === "Enter") playTo($("move-text").value.trim()); });
  $("undo").addEventListener("click", undo);
  $("explain").addEventListener("click", explain);
  $("hints").addEventListener("change", async () => {
    if (!state.history.length) return;
    await refreshHelp();
    render();
  });
  await newGame(false);
}

init();
