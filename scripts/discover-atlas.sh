#!/usr/bin/env bash
# `nimlab discover` on a list of games (one per line, e.g. the open ECN games of docs/findings.md),
# one process each with a time limit; the proved and conjectured characterizations are written to
# OUTDIR (examples/discovered/ by default) and one markdown row per game is printed:
# game | verdict | format | families or states | box | seconds | reason.
# Usage: scripts/discover-atlas.sh NIMLAB_BIN LIST_FILE [TIMEOUT_SECONDS] [OUTDIR]
# (DISCOVER_ARGS, e.g. --misere, is passed on to every run.)
set -euo pipefail
bin=$1; list=$2; timeout=${3:-30}; out=${4:-examples/discovered}
mkdir -p "$out"
echo "| game | verdict | format | description | box | seconds | reason |"
echo "|---|---|---|---|---|---|---|"
while IFS= read -r game; do
  [ -z "$game" ] && continue
  slug=$(echo "$game ${DISCOVER_ARGS:-}" | tr 'A-Z' 'a-z' | sed 's/[^a-z0-9]\+/-/g; s/^-//; s/-$//')
  file="$out/$slug.txt"
  json=$("$bin" discover "$game" ${DISCOVER_ARGS:-} --timeout "$timeout" --json --out "$file.tmp" 2>/dev/null || true)
  python3 - "$game" "$file" "$json" <<'PY'
import json, os, sys
game, file, text = sys.argv[1], sys.argv[2], sys.argv[3]
try:
    d = json.loads(text)
except Exception:
    print(f"| {game} | error | | | | | {text.strip()[:120]} |"); sys.exit()
fmt = d.get("format") or ""
ext = ".toml" if fmt == "families" else ".walnut.txt"
tmp = file + ".tmp"
kept = ""
if d.get("verdict") in ("proved", "conjecture") and os.path.exists(tmp):
    final = file[:-4] + ext
    os.replace(tmp, final); kept = final
elif os.path.exists(tmp):
    os.remove(tmp)
desc = f"{len(d.get('families') or [])} families" if fmt == "families" else (f"{d.get('states')} states" if d.get('states') else "")
b = d.get("box")
box = f"[{b['min']}..{b['max']}]" if b else ""
reason = (d.get("reason") or "").replace("|", "/")[:160]
print(f"| {game} | {d.get('verdict')} | {fmt} | {desc} | {box} | {d.get('seconds')} | {reason} |")
PY
done < "$list"
