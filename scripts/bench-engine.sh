#!/usr/bin/env bash
# The P-set engine against a plain single-thread row-word sweep of CN(n,k) written from the rules
# (crates/tables/examples/plain_sweep.rs), whole processes, release build, in the same run: cpu
# seconds (user + sys) and wall seconds of each, and the ratios; the engine on all cores and on one
# (RAYON_NUM_THREADS=1), and the engine without its symmetry (NIMLAB_ENGINE_SYMMETRY=off: every block
# of each diagonal, not one of each mirror pair). The counts are printed so that a wrong baseline shows.
# Then the same for SCN(n,k) with piles in 1..=h against a plain single-thread row-word sweep of SCN
# (crates/tables/examples/plain_scn_sweep.rs), the engine on all cores and on one; the counts
# compared are the total and every length's (ordered and up to symmetry).
# Figures: docs/benchmarks.md ("The engine against a plain sweep").
#   bash scripts/bench-engine.sh            # CN(7,4) [0..15]^7 and [0..23]^7, SCN(6,4) piles <= 22 and <= 30; 3 runs each
#   RUNS=1 CASES="7 4 15" SCN_CASES="" bash scripts/bench-engine.sh     # one CN box only
#   RUNS=2 CASES="" bash scripts/bench-engine.sh                        # SCN only
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release -q -p nimlab-cli
cargo build --release -q -p nimlab-tables --example plain_sweep --example plain_scn_sweep
T=${CARGO_TARGET_DIR:-target}
B=$T/release/nimlab
P=$T/release/examples/plain_sweep
Q=$T/release/examples/plain_scn_sweep
RUNS=${RUNS:-3}
# An empty CASES or SCN_CASES skips that part.
CASES=${CASES-"7 4 15;7 4 23"}
SCN_CASES=${SCN_CASES-"6 4 22;6 4 30"}
echo "load: $(uptime)"
# "cpu wall" of one whole process (its output kept in $O).
O=$(mktemp)
F=$(mktemp)
E=$(mktemp)
trap 'rm -f "$O" "$F" "$E"' EXIT
timed() {
  if ! /usr/bin/time -f '%U %S %e' -o "$F" "$@" >"$O" 2>"$E"; then
    echo "failed:" "$@" >&2
    tail -n 3 "$E" >&2
    exit 1
  fi
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
for c in $SCN_CASES; do
  IFS=' ' read -r n k h <<<"$c"
  echo "== SCN($n,$k) piles 1..=$h, circles of at most $n piles"
  for ((i = 1; i <= RUNS; i++)); do
    IFS=" " read -r ec ew <<<"$(timed $B table "SCN($n,$k)" --max "$h" --count-only --no-store --limit 1e16)"
    ecount=$(sed -n 's/^P-positions: \([0-9]*\).*/\1/p' "$O")
    elengths=$(grep '^  length' "$O" | tr -s ' ' | tr '\n' ';')
    IFS=" " read -r oc ow <<<"$(RAYON_NUM_THREADS=1 timed $B table "SCN($n,$k)" --max "$h" --count-only --no-store --limit 1e16)"
    olengths=$(grep '^  length' "$O" | tr -s ' ' | tr '\n' ';')
    IFS=" " read -r pc pw <<<"$(timed $Q "$n" "$k" "$h")"
    pcount=$(sed -n 's/^P-positions: \([0-9]*\).*/\1/p' "$O")
    plengths=$(grep '^  length' "$O" | tr -s ' ' | tr '\n' ';')
    same=$([[ -n "$plengths" && "$elengths" == "$plengths" && "$olengths" == "$plengths" ]] && echo 1 || echo 0)
    awk -v ec="$ec" -v ew="$ew" -v oc="$oc" -v ow="$ow" -v pc="$pc" -v pw="$pw" \
      -v e="$ecount" -v p="$pcount" -v same="$same" -v i="$i" 'BEGIN {
      printf "run %d: engine %s cpu-s %s s wall | one thread %s cpu-s %s s wall | plain SCN sweep %s cpu-s %s s wall | cpu ratio %.1fx (one thread %.1fx), wall ratio %.1fx (one thread %.1fx) | P-positions %s / %s%s\n",
        i, ec, ew, oc, ow, pc, pw, pc / ec, pc / oc, pw / ew, pw / ow, e, p, (e == p && same ? "" : "  COUNTS DIFFER") }'
  done
  IFS=';'
done
