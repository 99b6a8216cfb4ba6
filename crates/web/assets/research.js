// The research view: asks /api/slice, /api/patterns and /api/discover and shows their answers. Only
// the fields that apply to the game are shown and sent (/api/game says how the game is tabulated),
// the view's state is kept in the address, and refusals name the form's fields.
"use strict";

const $ = (id) => document.getElementById(id);

// The form's fields by the API's parameter names, with their labels.
const LABELS = {
  game: "Game", max: "Max", heaps: "Heaps", max_sum: "Max sum", fix: "Fix",
  misere: "misère", grundy: "Grundy values",
};
const TEXT_FIELDS = ["game", "max", "heaps", "max_sum", "fix"];
const CHECKS = ["misere", "grundy"];

// How each game is tabulated (`table` of /api/game), by the game as typed.
const tables = new Map();

// Shows the fields that apply to the game typed: heaps only for games played on any number of
// heaps, max_sum (for discover) only for chip games, max and fix for the games on a box. An unknown
// game leaves the fields as they are (the server's refusal says why).
async function fit() {
  const game = $("game").value.trim();
  if (!game) return;
  if (!tables.has(game)) {
    try {
      const r = await fetch("/api/game?" + new URLSearchParams({ game }).toString());
      const v = await r.json();
      if (!r.ok) return;
      tables.set(game, v.table);
    } catch (e) {
      return;
    }
  }
  const t = tables.get(game);
  const chips = t === "max_sum";
  $("f-heaps").hidden = t !== "heaps";
  $("f-max_sum").hidden = !chips;
  $("f-max").hidden = chips;
  $("f-fix").hidden = chips;
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

async function ask(path, q) {
  const r = await fetch(path + "?" + q.toString());
  const v = await r.json();
  if (!r.ok) throw new Error(inWords(v.error || ("HTTP " + r.status)));
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
$("patterns").addEventListener("click", patterns);
$("discover").addEventListener("click", discover);
$("game").addEventListener("change", () => fit().then(remember));
for (const k of TEXT_FIELDS.filter(k => k !== "game")) $(k).addEventListener("change", remember);
for (const k of CHECKS) $(k).addEventListener("change", remember);
$("slice").addEventListener("mousemove", hover);
$("slice").addEventListener("mouseleave", () => { $("cell").textContent = ""; });

// The state from the address (?game=...&max=...&fix=...): a link with a game draws its slice.
(async () => {
  const params = new URLSearchParams(location.search);
  for (const k of TEXT_FIELDS) {
    if (params.has(k)) $(k).value = params.get(k);
  }
  for (const k of CHECKS) {
    if (params.get(k) === "true") $(k).checked = true;
  }
  if (params.has("game")) {
    await draw();
  } else {
    await fit();
  }
})();
