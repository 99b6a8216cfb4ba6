// The research view: asks /api/slice, /api/sequence, /api/patterns and /api/discover and shows
// their answers. Only the fields that apply to the game are shown and sent (/api/game says how the
// game is tabulated and whether it is a one-heap game), the view's state is kept in the address,
// and refusals name the form's fields.
"use strict";

const $ = (id) => document.getElementById(id);

// The form's fields by the API's parameter names, with their labels.
const LABELS = {
  game: "Game", max: "Max", heaps: "Heaps", max_sum: "Max sum", fix: "Fix",
  upto: "Largest heap", misere: "misère", grundy: "Grundy values",
};
const TEXT_FIELDS = ["game", "max", "heaps", "max_sum", "fix", "upto"];
const CHECKS = ["misere", "grundy"];

// How each game is tabulated (`table` of /api/game) and whether it is a one-heap game
// (`sequence`), by the game as typed.
const tables = new Map();

// The view drawn last ("slice" or "sequence"), kept in the address.
let view = "slice";

// Shows the fields that apply to the game typed: heaps only for games played on any number of
// heaps, max_sum (for discover) only for chip games, max and fix (and the slice and patterns) for
// the games on a box, the sequence (and its largest heap) for one-heap games. An unknown game
// leaves the fields as they are (the server's refusal says why). Returns what /api/game said.
async function fit() {
  const game = $("game").value.trim();
  if (!game) return null;
  if (!tables.has(game)) {
    try {
      const r = await fetch("/api/game?" + new URLSearchParams({ game }).toString());
      const v = await r.json();
      if (!r.ok) return null;
      tables.set(game, { table: v.table, sequence: v.sequence === true });
    } catch (e) {
      return null;
    }
  }
  const info = tables.get(game);
  const t = info.table;
  const chips = t === "max_sum";
  const box = t !== "none" && !chips;
  $("f-heaps").hidden = t !== "heaps";
  $("f-max_sum").hidden = !chips;
  $("f-max").hidden = !box;
  $("f-fix").hidden = !box;
  // A game without a table on a box has no slice or patterns to show.
  for (const id of ["draw", "patterns", "slice-row"]) $(id).hidden = t === "none";
  for (const id of ["f-upto", "sequence", "sequence-view"]) $(id).hidden = !info.sequence;
  if (!info.sequence) {
    clearSequence();
    view = "slice";
  }
  return info;
}

// A field's value, if it is shown and filled in.
function field(k) {
  if ($("f-" + k) && $("f-" + k).hidden) return "";
  return $(k).value.trim();
}

function query(keys) {
  const q = new URLSearchParams();
  q.set("game", $("game").value.trim());
  for (const k of keys) {
    const v = field(k);
    if (v) q.set(k, v);
  }
  if ($("misere").checked) q.set("misere", "true");
  return q;
}

// The view's state (the fields shown and filled in, the boxes ticked) in the address, so that a
// copied link draws the same slice.
function remember() {
  const q = new URLSearchParams();
  for (const k of TEXT_FIELDS) {
    const v = field(k);
    if (v) q.set(k, v);
  }
  for (const k of CHECKS) {
    if ($(k).checked) q.set(k, "true");
  }
  if (view === "sequence") q.set("view", "sequence");
  history.replaceState(null, "", location.pathname + "?" + q.toString());
}

// A refusal in the form's words: the API's parameters (`heaps=N`, `the parameter max`, `max must`,
// `missing parameter 'game'`, or a command line's `--heaps`) become the fields' labels.
function inWords(msg) {
  const names = Object.keys(LABELS).sort((a, b) => b.length - a.length).join("|");
  const label = (k) => LABELS[k.replace(/-/g, "_")] || k;
  const name = (k) => CHECKS.includes(k.replace(/-/g, "_"))
    ? label(k) : `the field ${label(k)}`;
  let s = msg
    .replace(new RegExp(`missing parameter '(${names})'`, "g"), (_, k) => `${name(k)} is empty`)
    .replace(new RegExp(`\\bthe parameter (${names})\\b`, "g"), (_, k) => name(k))
    .replace(new RegExp(`--(${names.replace(/_/g, "-")})\\b( [A-Z]+\\b)?`, "g"), (_, k) => name(k))
    .replace(new RegExp(`\\b(${CHECKS.join("|")})=(1|true)\\b`, "g"), (_, k) => `${name(k)} ticked`)
    .replace(new RegExp(`\\b(${names})=(N|H|S)\\b`, "g"), (_, k) => name(k))
    .replace(new RegExp(`\\b(${names})=([^\\s,;:)]+)`, "g"), (_, k, v) => `${label(k)} ${v}`)
    .replace(new RegExp(`^(${names}) (must|sets)\\b`), (_, k, w) => `${name(k)} ${w}`)
    .replace(new RegExp(`^fix (\\d+=\\d+):`), (_, f) => `Fix ${f}:`);
  return s.charAt(0).toUpperCase() + s.slice(1);
}

async function ask(path, q, words = inWords) {
  const r = await fetch(path + "?" + q.toString());
  const v = await r.json();
  if (!r.ok) throw new Error(words(v.error || ("HTTP " + r.status)));
  return v;
}

const SVG = "http://www.w3.org/2000/svg";
const MARGIN = 30;

// The colour of Grundy value g when the largest is max.
const colour = (g, max) => g === 0 ? "#000" : `hsl(${Math.round(288 * g / max)},70%,55%)`;

// The slice drawn last: its answer, the side of a cell, and its values by "x,y".
let shown = null;

function drawSlice(v) {
  const svg = $("slice");
  svg.replaceChildren();
  const n = v.hi - v.lo + 1;
  const cell = (460 - MARGIN - 10) / n;
  const max = v.cells.reduce((m, c) => Math.max(m, c[2]), 1);
  const values = new Map();
  for (const [x, y, g] of v.cells) {
    values.set(x + "," + y, g);
    const r = document.createElementNS(SVG, "rect");
    r.setAttribute("x", MARGIN + (x - v.lo) * cell);
    // y grows upwards, as in the command line's pictures.
    r.setAttribute("y", 10 + (n - 1 - (y - v.lo)) * cell);
    r.setAttribute("width", cell);
    r.setAttribute("height", cell);
    r.dataset.x = x;
    r.dataset.y = y;
    if (v.kind === "grundy") {
      r.setAttribute("class", g === 0 ? "cell zero" : "cell");
      r.setAttribute("fill", colour(g, max));
    } else {
      r.setAttribute("class", "cell p");
      r.setAttribute("fill", "#1f3a93");
    }
    const t = document.createElementNS(SVG, "title");
    t.textContent = `p${v.axes[0]} = ${x}, p${v.axes[1]} = ${y}` + (v.kind === "grundy" ? `: ${g}` : ": P");
    r.appendChild(t);
    svg.appendChild(r);
  }
  const label = (text, x, y, rotate) => {
    const t = document.createElementNS(SVG, "text");
    t.setAttribute("x", x);
    t.setAttribute("y", y);
    t.setAttribute("font-size", "12");
    if (rotate) t.setAttribute("transform", `rotate(-90 ${x} ${y})`);
    t.textContent = text;
    svg.appendChild(t);
  };
  label(`p${v.axes[0]} → (${v.lo}..${v.hi})`, MARGIN, 458, false);
  label(`p${v.axes[1]} →`, 14, 440, true);
  shown = { v, n, cell, values };
  drawLegend(v, max);
  offerCsv(v);
}

// The colour scale of a Grundy picture: one swatch per value up to 24 values, else 24 bands, with
// the values they stand for.
function drawLegend(v, max) {
  const svg = $("legend");
  svg.replaceChildren();
  if (v.kind !== "grundy") return;
  const bands = Math.min(max + 1, 24);
  const h = Math.min(18, 420 / bands);
  const title = document.createElementNS(SVG, "text");
  title.setAttribute("x", 2);
  title.setAttribute("y", 20);
  title.setAttribute("font-size", "11");
  title.textContent = "Grundy";
  svg.appendChild(title);
  for (let i = 0; i < bands; i++) {
    const g = bands === max + 1 ? i : Math.round(i * max / (bands - 1));
    const y = 28 + i * h;
    const r = document.createElementNS(SVG, "rect");
    r.setAttribute("class", "swatch");
    r.dataset.value = g;
    r.setAttribute("x", 2);
    r.setAttribute("y", y);
    r.setAttribute("width", 18);
    r.setAttribute("height", h);
    r.setAttribute("fill", colour(g, max));
    svg.appendChild(r);
    if (bands <= 12 || i % Math.ceil(bands / 8) === 0 || i === bands - 1) {
      const t = document.createElementNS(SVG, "text");
      t.setAttribute("x", 24);
      t.setAttribute("y", y + h / 2 + 4);
      t.setAttribute("font-size", "11");
      t.textContent = String(g);
      svg.appendChild(t);
    }
  }
}

// The cell under the pointer: its position and value on the line under the picture.
function hover(e) {
  if (!shown) return;
  const { v, n, cell, values } = shown;
  const box = $("slice").getBoundingClientRect();
  const scale = 460 / box.width;
  const i = Math.floor(((e.clientX - box.left) * scale - MARGIN) / cell);
  const j = Math.floor(((e.clientY - box.top) * scale - 10) / cell);
  if (i < 0 || i >= n || j < 0 || j >= n) {
    $("cell").textContent = "";
    return;
  }
  const x = v.lo + i;
  const y = v.lo + (n - 1 - j);
  const fixed = v.fix.map(f => `p${f.stack} = ${f.value}`);
  const at = [...fixed, `p${v.axes[0]} = ${x}`, `p${v.axes[1]} = ${y}`].join(", ");
  const g = values.get(x + "," + y);
  const what = v.kind === "grundy"
    ? (g === undefined ? "not in the table" : `Grundy value ${g}`)
    : (g === undefined ? "N-position" : "P-position");
  $("cell").textContent = `${at}: ${what}`;
  $("cell").dataset.x = x;
  $("cell").dataset.y = y;
  $("cell").dataset.value = g === undefined ? "" : g;
}

// The slice's cells as CSV (one row per cell: the two free stacks and the value, `P` for a
// P-position), offered as a download made here.
function offerCsv(v) {
  const a = $("csv");
  if (a.href.startsWith("blob:")) URL.revokeObjectURL(a.href);
  const rows = [`p${v.axes[0]},p${v.axes[1]},value`];
  for (const [x, y, g] of v.cells) rows.push(`${x},${y},${v.kind === "grundy" ? g : "P"}`);
  const text = rows.join("\n") + "\n";
  a.dataset.rows = v.cells.length;
  a.href = URL.createObjectURL(new Blob([text], { type: "text/csv" }));
  const fix = v.fix.map(f => `p${f.stack}=${f.value}`).join("_");
  a.download = `${v.game}-${fix}${v.kind === "grundy" ? "-grundy" : ""}.csv`.replace(/[^\w.=,()-]/g, "_");
  a.hidden = false;
}

function clearSlice() {
  $("slice").replaceChildren();
  $("legend").replaceChildren();
  $("cell").textContent = "";
  $("csv").hidden = true;
  shown = null;
}

// Each action says it is under way at once (before the game's fields are fitted), then asks.
async function draw() {
  $("slice-status").textContent = "Computing…";
  view = "slice";
  await fit();
  remember();
  const q = query(["max", "heaps", "fix"]);
  if ($("grundy").checked) q.set("grundy", "true");
  try {
    const v = await ask("/api/slice", q);
    drawSlice(v);
    const fixed = v.fix.map(f => `p${f.stack} = ${f.value}`).join(", ");
    $("slice-status").textContent = v.kind === "grundy"
      ? `${v.game}: Grundy values of the slice ${fixed} (${v.count} positions, by ${v.method})`
      : `${v.game}: ${v.count} P-positions in the slice ${fixed} (by ${v.method})`;
  } catch (e) {
    clearSlice();
    $("slice-status").textContent = "Refused: " + e.message;
  }
}

// The sequence view: g(n) against n for n = 0..=Largest heap, as bars (points when they are too
// many to draw apart), the part from the preperiod on shaded one period a band, the value under the
// pointer, and a CSV download.
const SEQ = { left: 40, right: 10, top: 12, bottom: 28 };

// The sequence drawn last (the answer of /api/sequence).
let seqShown = null;

// A refusal or a period from /api/sequence in the form's words: its `max` is the field Largest heap.
const seqWords = (msg) => inWords(msg.replace(/\bmax\b/g, "upto"));

function drawSequence(v) {
  const c = $("sequence-plot");
  const ctx = c.getContext("2d");
  ctx.clearRect(0, 0, c.width, c.height);
  const n = v.values.length;
  const w = c.width - SEQ.left - SEQ.right;
  const h = c.height - SEQ.top - SEQ.bottom;
  const dx = w / n;
  const top = Math.max(v.largest.value, 1);
  const base = SEQ.top + h;
  const y = (g) => base - g * h / top;
  const p = v.periodicity;
  if (p) {
    // From the preperiod on: one band a period, alternately shaded where a band is wide enough.
    const x0 = SEQ.left + p.preperiod * dx;
    const pw = p.period * dx;
    for (let i = 0, x = x0; x < SEQ.left + w; i++, x += pw) {
      ctx.fillStyle = pw >= 6 && i % 2 ? "#d3e2f5" : "#e6eefa";
      ctx.fillRect(x, SEQ.top, Math.min(pw, SEQ.left + w - x), h);
    }
    ctx.strokeStyle = "#c82828";
    ctx.lineWidth = 1.5;
    ctx.beginPath();
    ctx.moveTo(x0, SEQ.top);
    ctx.lineTo(x0, base);
    ctx.stroke();
  }
  ctx.strokeStyle = "#888";
  ctx.lineWidth = 1;
  ctx.beginPath();
  ctx.moveTo(SEQ.left, SEQ.top);
  ctx.lineTo(SEQ.left, base);
  ctx.lineTo(SEQ.left + w, base);
  ctx.stroke();
  ctx.fillStyle = "#23324a";
  for (let i = 0; i < n; i++) {
    const g = v.values[i];
    if (dx >= 3) {
      // A bar, and a thin mark for 0 so that every heap shows.
      ctx.fillRect(SEQ.left + i * dx + dx * 0.15, y(g) - (g === 0 ? 1 : 0), dx * 0.7, Math.max(base - y(g), 1));
    } else {
      const r = dx >= 2 ? 1.5 : 1;
      ctx.fillRect(SEQ.left + (i + 0.5) * dx - r, y(g) - r, 2 * r, 2 * r);
    }
  }
  ctx.fillStyle = "#333";
  ctx.font = "12px system-ui, sans-serif";
  ctx.textAlign = "right";
  ctx.fillText(String(top), SEQ.left - 4, SEQ.top + 8);
  ctx.fillText("0", SEQ.left - 4, base);
  ctx.fillText(`n → ${n - 1}`, SEQ.left + w, base + 18);
  ctx.textAlign = "left";
  ctx.fillText("0", SEQ.left, base + 18);
  ctx.save();
  ctx.translate(12, SEQ.top + h / 2);
  ctx.rotate(-Math.PI / 2);
  ctx.textAlign = "center";
  ctx.fillText("g(n)", 0, 0);
  ctx.restore();
  // The geometry, for the pointer (and for a test to point at a heap).
  c.dataset.left = SEQ.left;
  c.dataset.dx = dx;
  c.dataset.count = n;
  seqShown = v;
  offerSequenceCsv(v);
}

// The heap under the pointer: n, g(n), and whether it lies in the preperiod or the periodic part.
function sequenceHover(e) {
  if (!seqShown) return;
  const c = $("sequence-plot");
  const box = c.getBoundingClientRect();
  const x = (e.clientX - box.left - c.clientLeft) * c.width / c.clientWidth;
  const n = Math.floor((x - SEQ.left) / Number(c.dataset.dx));
  const out = $("sequence-value");
  if (n < 0 || n >= seqShown.values.length) {
    out.textContent = "";
    return;
  }
  const g = seqShown.values[n];
  const p = seqShown.periodicity;
  const part = !p ? "" : n < p.preperiod ? " (before the period)" : " (periodic part)";
  out.textContent = `n = ${n}: g(${n}) = ${g}${part}`;
  out.dataset.n = n;
  out.dataset.value = g;
}

// The values as CSV (one row per heap: n and g(n)), offered as a download made here.
function offerSequenceCsv(v) {
  const a = $("sequence-csv");
  if (a.href.startsWith("blob:")) URL.revokeObjectURL(a.href);
  const rows = ["n,g"];
  v.values.forEach((g, n) => rows.push(`${n},${g}`));
  a.dataset.rows = v.values.length;
  a.href = URL.createObjectURL(new Blob([rows.join("\n") + "\n"], { type: "text/csv" }));
  a.download = `${v.game}-sequence-0-${v.max}.csv`.replace(/[^\w.=,()-]/g, "_");
  a.hidden = false;
}

function clearSequence() {
  const c = $("sequence-plot");
  c.getContext("2d").clearRect(0, 0, c.width, c.height);
  $("sequence-value").textContent = "";
  $("sequence-csv").hidden = true;
  seqShown = null;
}

async function sequence() {
  $("sequence-status").textContent = "Computing…";
  $("sequence-period").textContent = "";
  $("sequence-method").textContent = "";
  view = "sequence";
  const info = await fit();
  remember();
  if (info && !info.sequence) return;
  const q = new URLSearchParams();
  q.set("game", $("game").value.trim());
  const upto = field("upto");
  if (upto) q.set("max", upto);
  try {
    const v = await ask("/api/sequence", q, seqWords);
    drawSequence(v);
    const name = v.name ? ` (${v.name})` : "";
    $("sequence-status").textContent = `${v.game}${name}: g(n) for n = 0..${v.max}`;
    $("sequence-period").textContent = seqWords(v.period_text);
    $("sequence-method").textContent =
      `Largest value ${v.largest.value} (first at n = ${v.largest.at}); by ${v.method_text}.`;
  } catch (e) {
    clearSequence();
    $("sequence-status").textContent = "Refused: " + e.message;
  }
}

async function patterns() {
  $("patterns-out").textContent = "Computing…";
  await fit();
  remember();
  const q = query(["max", "heaps"]);
  try {
    const v = await ask("/api/patterns", q);
    const out = $("patterns-out");
    out.replaceChildren();
    const head = document.createElement("div");
    head.textContent = `${v.game}: ${v.canonical_count} canonical P-positions with entries up to ${v.max}, ${v.families.length} shapes`;
    out.appendChild(head);
    const list = document.createElement("ul");
    for (const f of v.families) {
      const li = document.createElement("li");
      const rel = f.relations.length ? ` — ${f.relations.join("; ")}` : "";
      li.textContent = `${f.shape}: ${f.count}${rel} (e.g. ${f.examples.map(e => "(" + e.join(",") + ")").join(" ")})`;
      list.appendChild(li);
    }
    out.appendChild(list);
  } catch (e) {
    $("patterns-out").textContent = "Refused: " + e.message;
  }
}

async function discover() {
  $("discover-verdict").textContent = "Discovering (at most a few seconds)…";
  $("discover-file").textContent = "";
  await fit();
  remember();
  // Discover searches its own box; only the chip games' total number of chips is passed on.
  const q = query(["max_sum"]);
  try {
    const v = await ask("/api/discover", q);
    let text = `${v.game}: ${v.verdict}`;
    if (v.verdict === "proved") text += ` for every stack size (by ${v.prover})`;
    if (v.box) text += `, equal to the P-set on the box [${v.box.min}..${v.box.max}]`;
    if (v.reason) text += ` — ${inWords(v.reason)}`;
    if (v.rule) text += `. Rule: ${v.rule}`;
    $("discover-verdict").textContent = text;
    $("discover-file").textContent = v.text || "";
  } catch (e) {
    $("discover-verdict").textContent = "Refused: " + e.message;
  }
}

$("draw").addEventListener("click", draw);
$("sequence").addEventListener("click", sequence);
$("patterns").addEventListener("click", patterns);
$("discover").addEventListener("click", discover);
$("game").addEventListener("change", () => fit().then(remember));
for (const k of TEXT_FIELDS.filter(k => k !== "game")) $(k).addEventListener("change", remember);
for (const k of CHECKS) $(k).addEventListener("change", remember);
$("slice").addEventListener("mousemove", hover);
$("slice").addEventListener("mouseleave", () => { $("cell").textContent = ""; });
$("sequence-plot").addEventListener("mousemove", sequenceHover);
$("sequence-plot").addEventListener("mouseleave", () => { $("sequence-value").textContent = ""; });

// The state from the address (?game=...&max=...&fix=...): a link with a game draws its slice.
(async () => {
  const params = new URLSearchParams(location.search);
  for (const k of TEXT_FIELDS) {
    if (params.has(k)) $(k).value = params.get(k);
  }
  for (const k of CHECKS) {
    if (params.get(k) === "true") $(k).checked = true;
  }
  const info = await fit();
  if (!params.has("game")) return;
  // A one-heap game that is not tabulated on a box has only its sequence to draw.
  if (info && info.sequence && (params.get("view") === "sequence" || info.table === "none")) {
    await sequence();
  } else {
    await draw();
  }
})();
