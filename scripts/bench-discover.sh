#!/usr/bin/env bash
# `nimlab discover` on the acceptance games (docs/benchmarks.md, "`nimlab discover`"): each game from
# tables alone to a verdict, release build, no store (NIMLAB_DB=off, so every table is computed),
# run under `nice -n 5`; prints the verdict, the number of families, the boxes tabulated and the
# wall time, with the load average before each run. Goal: under 60 s each, CN(7,4) and CN(8,6)
# under 10 min.
#
#   scripts/bench-discover.sh [path/to/nimlab]      (GAMES="CN(5,2);CN(7,4)" to pick games)
set -euo pipefail
cd "$(dirname "$0")/.."
BIN="${1:-target/release/nimlab}"
if [ ! -x "$BIN" ]; then
  cargo build --release -p nimlab-cli
fi
export NIMLAB_DB=off
GAMES="${GAMES:-CN(3,3);CN(4,3);CN(4,2);CN(5,2);CN(5,3);CN(6,3);CN(7,4);CN(8,6);SCN(4,2);SCN(5,2);SCN(5,3)}"
echo "$(nproc) cores; $BIN"
printf '| game | verdict | families | boxes (max entry) | wall | load before |\n|---|---|---|---|---|---|\n'
IFS=';' read -ra LIST <<< "$GAMES"
for g in "${LIST[@]}"; do
  load=$(cut -d' ' -f1 /proc/loadavg)
  t0=$(date +%s%N)
  out=$(nice -n 5 "$BIN" discover "$g" --json 2>/dev/null || true)
  t1=$(date +%s%N)
  python3 - "$g" "$out" "$(( (t1 - t0) / 1000000 ))" "$load" <<'PY'
import json, sys
g, out, ms, load = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
try:
    d = json.loads(out)
except Exception:
    print(f"| {g} | (no JSON) | | | {ms / 1000:.2f} s | {load} |")
    sys.exit()
boxes = ", ".join(str(t["max"]) for t in d["tables"])
print(f"| {g} | {d['verdict']} | {len(d['families'])} | {boxes} | {ms / 1000:.2f} s | {load} |")
PY
done
