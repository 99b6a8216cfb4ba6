#!/usr/bin/env bash
# Whole-process times of single answers (docs/benchmarks.md, "Answers as fast as the method that
# decides them"): outcome on theorem-decided positions and moves on 10^18-sized positions (goal: under
# 50 ms each), and `grundy` by the cheapest exact method. Release build; no store (NIMLAB_DB=off);
# each command is run RUNS times (default 5) and the best wall time, its cpu time and the peak RSS
# are printed, with the load average before the run.
#
#   scripts/bench-answers.sh [path/to/nimlab]
set -euo pipefail
cd "$(dirname "$0")/.."
BIN="${1:-target/release/nimlab}"
RUNS="${RUNS:-5}"
if [ ! -x "$BIN" ]; then
  cargo build --release -p nimlab-cli
fi
export NIMLAB_DB=off

echo "load average: $(cut -d' ' -f1-3 /proc/loadavg); $(nproc) cores; $BIN"
printf '| command | best wall | cpu | peak RSS |\n|---|---|---|---|\n'
bench() {
  local best="" cpu="" rss=""
  for _ in $(seq "$RUNS"); do
    local tmp
    tmp=$(mktemp)
    local t0 t1
    t0=$(date +%s%N)
    /usr/bin/time -o "$tmp" -f '%U %S %M' "$BIN" "$@" >/dev/null 2>&1 || true
    t1=$(date +%s%N)
    read -r user sys kb < <(tail -1 "$tmp")
    rm -f "$tmp"
    local wall
    wall=$(awk "BEGIN{printf \"%.3f\", ($t1 - $t0) / 1e9}")
    if [ -z "$best" ] || awk "BEGIN{exit !($wall < $best)}"; then
      best=$wall
      cpu=$(awk "BEGIN{printf \"%.2f\", $user + $sys}")
      rss=$((kb / 1024))
    fi
  done
  printf '| `nimlab %s` | %s s | %s s | %s MiB |\n' "$*" "$best" "$cpu" "$rss"
}

bench outcome 'CN(7,4)' 3,9,5,6,2,3,6
bench outcome 'CN(7,4)' 1,7,5,6,2,3,6
bench outcome nim 1000000000000000000,3,5
bench outcome 'ET(4)' 1000000000000000000,3,5,7
bench outcome 'ECN(8,{4},3)' 3,0,2,1,0,0,0,0
bench moves nim 1000000000000000000,3,5
bench moves 'CN(7,4)' 1000000000000000000,3,999999999999999999,5,7,11,13
bench moves 'ER(7)' '1^5 2 1000000000000'
bench moves 'ET(4)' 1000000000000000000,3,5,7
bench moves 'simplicial({1,2},{2,3},{3,1})' 1000000000000,5,5
RUNS=1 bench grundy 'CN(7,4)' 1,7,5,6,2,3,6
RUNS=1 bench grundy 'CN(7,4)' 3,9,5,6,2,3,6
