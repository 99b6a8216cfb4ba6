#!/usr/bin/env bash
# The P-set engine against a plain single-thread row-word sweep of CN(n,k) written from the rules
# (crates/tables/examples/plain_sweep.rs), whole processes, release build, in the same run: cpu
# seconds (user + sys) and wall seconds of each, and the ratios; the engine on all cores and on one
# (RAYON_NUM_THREADS=1), and the engine without its symmetry (NIMLAB_ENGINE_SYMMETRY=off: every block
# of each diagonal, not one of each mirror pair). The counts are printed so that a wrong baseline shows.
# Figures: docs/benchmarks.md ("The engine against a plain sweep").
#   bash scripts/bench-engine.sh            # CN(7,4) [0..15]^7 and [0..23]^7, 3 runs each
#   RUNS=1 CASES="7 4 15" bash scripts/bench-engine.sh
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release -q -p nimlab-cli
cargo build --release -q -p nimlab-tables --example plain_sweep
T=${CARGO_TARGET_DIR:-target}
B=$T/release/nimlab
P=$T/release/examples/plain_sweep
RUNS=${RUNS:-3}
CASES=${CASES:-"7 4 15;7 4 23"}
# "cpu wall" of one whole process (its output kept in $O).
O=$(mktemp)
F=$(mktemp)
trap 'rm -f "$O" "$F"' EXIT
timed() {
  /usr/bin/time -f '%U %S %e' -o "$F" "$@" >"$O" 2>/dev/null
  awk '{printf "%.2f %.2f", $1 + $2, $3}' "$F"
}
IFS=';'
for c in $CASES; do
  IFS=' ' read -r n k h <<<"$c"
  echo "== CN($n,$k) [0..$h]^$n"
  for ((i = 1; i <= RUNS; i++)); do
    IFS=" " read -r ec ew <<<"$(timed $B table "CN($n,$k)" --max "$h" --count-only --no-store)"
    ecount=$(sed -n 's/^P-positions: \([0-9]*\).*/\1/p' "$O")
    IFS=" " read -r oc ow <<<"$(RAYON_NUM_THREADS=1 timed $B table "CN($n,$k)" --max "$h" --count-only --no-store)"
    IFS=" " read -r sc sw <<<"$(NIMLAB_ENGINE_SYMMETRY=off timed $B table "CN($n,$k)" --max "$h" --count-only --no-store)"
    scount=$(sed -n 's/^P-positions: \([0-9]*\).*/\1/p' "$O")
    IFS=" " read -r pc pw <<<"$(timed $P "$n" "$k" "$h")"
    pcount=$(sed -n 's/.*: \([0-9]*\) P-positions.*/\1/p' "$O")
    awk -v ec="$ec" -v ew="$ew" -v oc="$oc" -v ow="$ow" -v pc="$pc" -v pw="$pw" -v sc="$sc" \
      -v e="$ecount" -v p="$pcount" -v s="$scount" -v i="$i" 'BEGIN {
      printf "run %d: engine %s cpu-s %s s wall | one thread %s cpu-s | no symmetry %s cpu-s | plain sweep %s cpu-s %s s wall | cpu ratio %.1fx (one thread %.1fx, no symmetry %.1fx), wall ratio %.1fx | P-positions %s / %s / %s%s\n",
        i, ec, ew, oc, sc, pc, pw, pc / ec, pc / oc, pc / sc, pw / ew, e, s, p, (e == p && s == p ? "" : "  COUNTS DIFFER") }'
  done
  IFS=';'
done
