// The research view: asks /api/slice, /api/patterns and /api/discover and shows their answers.
"use strict";

const $ = (id) => document.getElementById(id);

function query() {
  const q = new URLSearchParams();
  q.set("game", $("game").value.trim());
  for (const k of ["max", "heaps", "fix"]) {
    const v = $(k).value.trim();
    if (v) q.set(k, v);
  }
  if ($("misere").checked) q.set("misere", "true");
  return q;
}

async function ask(path, q) {
  const r = await fetch(path + "?" + q.toString());
  const v = await r.json();
  if (!r.ok) throw new Error(v.error || ("HTTP " + r.status));
  return v;
}

const SVG = "http://www.w3.org/2000/svg";

function drawSlice(v) {
  const svg = $("slice");
  svg.replaceChildren();
  const n = v.hi - v.lo + 1;
  const margin = 30;
  const cell = (460 - margin - 10) / n;
  const top = cells => cells.reduce((m, c) => Math.max(m, c[2]), 1);
  const max = top(v.cells);
  for (const [x, y, g] of v.cells) {
    const r = document.createElementNS(SVG, "rect");
    r.setAttribute("x", margin + (x - v.lo) * cell);
    // y grows upwards, as in the command line's pictures.
    r.setAttribute("y", 10 + (n - 1 - (y - v.lo)) * cell);
    r.setAttribute("width", cell);
    r.setAttribute("height", cell);
    if (v.kind === "grundy") {
      r.setAttribute("class", g === 0 ? "cell zero" : "cell");
      r.setAttribute("fill", g === 0 ? "#000" : `hsl(${Math.round(288 * g / max)},70%,55%)`);
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
  label(`p${v.axes[0]} → (${v.lo}..${v.hi})`, margin, 458, false);
  label(`p${v.axes[1]} →`, 14, 440, true);
}

async function draw() {
  const q = query();
  if ($("grundy").checked) q.set("grundy", "true");
  $("slice-status").textContent = "Computing…";
  try {
    const v = await ask("/api/slice", q);
    drawSlice(v);
    const fixed = v.fix.map(f => `p${f.stack} = ${f.value}`).join(", ");
    $("slice-status").textContent = v.kind === "grundy"
      ? `${v.game}: Grundy values of the slice ${fixed} (${v.count} positions, by ${v.method})`
      : `${v.game}: ${v.count} P-positions in the slice ${fixed} (by ${v.method})`;
  } catch (e) {
    $("slice").replaceChildren();
    $("slice-status").textContent = "Refused: " + e.message;
  }
}

async function patterns() {
  const q = query();
  q.delete("fix");
  $("patterns-out").textContent = "Computing…";
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
  const q = new URLSearchParams();
  q.set("game", $("game").value.trim());
  if ($("misere").checked) q.set("misere", "true");
  $("discover-verdict").textContent = "Discovering (at most a few seconds)…";
  $("discover-file").textContent = "";
  try {
    const v = await ask("/api/discover", q);
    let text = `${v.game}: ${v.verdict}`;
    if (v.verdict === "proved") text += ` for every stack size (by ${v.prover})`;
    if (v.box) text += `, equal to the P-set on the box [${v.box.min}..${v.box.max}]`;
    if (v.reason) text += ` — ${v.reason}`;
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

// Fields from the address (?game=...&max=...&fix=...).
const params = new URLSearchParams(location.search);
for (const k of ["game", "max", "heaps", "fix"]) {
  if (params.has(k)) $(k).value = params.get(k);
}
for (const k of ["misere", "grundy"]) {
  if (params.get(k) === "true") $(k).checked = true;
}
