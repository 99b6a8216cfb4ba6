#!/usr/bin/env bash
# Ferguson's chip-game results proved for every box size, one number of boxes k at a time
# (docs/findings.md, "Ferguson's results proved for every box size"): for each result and each k
# from 2 to KMAX (default 8), the wall time of `nimlab prove GAME --theorem ID --json` and its
# verdict with each condition's status and seconds. Each query has TIMEOUT seconds (default 60).
#
#   scripts/prove-chips.sh [path/to/nimlab]
set -euo pipefail
cd "$(dirname "$0")/.."
BIN="${1:-target/debug/nimlab}"
KMAX="${KMAX:-8}"
TIMEOUT="${TIMEOUT:-60}"
if [ ! -x "$BIN" ]; then
  cargo build -p nimlab-cli
fi
export NIMLAB_DB=off
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg); $(nproc) cores; $BIN; z3: $(z3 --version)"
for k in $(seq 2 "$KMAX"); do
  for spec in "ET:ferguson-et-odd:" "ET:ferguson-et-two-even:" "EABO:ferguson-eabo:" \
    "EABO:ferguson-eabo-misere:--misere" "ER:ferguson-er:" "ER:ferguson-er-misere:--misere" \
    "SER:ferguson-ser:"; do
    IFS=: read -r game id misere <<< "$spec"
    start=$(date +%s.%N)
    # shellcheck disable=SC2086
    out=$("$BIN" prove "$game($k)" --theorem "$id" $misere --timeout "$TIMEOUT" --json 2>&1 || true)
    end=$(date +%s.%N)
    verdict=$(printf '%s' "$out" | python3 -c 'import json, sys
try:
    d = json.loads(sys.stdin.read())
    print(d["verdict"], " ".join("(%s) %s %.2f s" % (c["condition"], c["status"], c["seconds"]) for c in d["conditions"]))
except Exception:
    print("error")')
    printf '%s(%s) %s: %.2f s wall, %s\n' "$game" "$k" "$id" "$(echo "$end - $start" | bc)" "$verdict"
  done
done
