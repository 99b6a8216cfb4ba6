#!/usr/bin/env bash
# Grundy tables of Nim and Moore's Nim (games every permutation of the heaps keeps) computed on the
# sorted tuples, against the sweep of one block of each mirror pair that computed them before
# (NIMLAB_ENGINE_SYMMETRY=mirror) and the sweep of every block (NIMLAB_ENGINE_SYMMETRY=off), whole
# processes of the same release build in the same run: cpu seconds (user + sys), wall seconds and
# peak memory of each, and the ratios. The value counts of the three are compared, so that a wrong
# table shows. Then P-sets (normal play) of the same games: on the sorted tuples where they cost less
# than the line engine's lines (the default), against the line engine with its mirror
# (NIMLAB_ENGINE_SYMMETRY=mirror); the counts are compared. Figures: docs/benchmarks.md ("P-sets and
# Grundy tables on sorted tuples").
#   bash scripts/bench-sorted.sh                               # moore(2) 5 heaps <= 47 and 6 heaps <= 23, 2 runs each
#   RUNS=1 CASES="moore(2) 5 63" PSET_CASES="" bash scripts/bench-sorted.sh  # one Grundy box (1.1e9 positions, 11 GB for every block)
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release -q -p nimlab-cli
T=${CARGO_TARGET_DIR:-target}
B=$T/release/nimlab
RUNS=${RUNS:-2}
CASES=${CASES-"moore(2) 5 47;moore(2) 6 23"}
PSET_CASES=${PSET_CASES-"nim 6 31;moore(3) 7 15;moore(2) 6 31"}
echo "load: $(uptime)"
O=$(mktemp)
F=$(mktemp)
trap 'rm -f "$O" "$F" "$O".*' EXIT
# "cpu wall peak-MB" of one whole process; its value counts kept in $O.<tag>.
timed() {
  local tag=$1
  shift
  if ! /usr/bin/time -f '%U %S %e %M' -o "$F" "$@" >"$O" 2>&1; then
    echo "failed:" "$@" >&2
    tail -n 3 "$O" >&2
    exit 1
  fi
  sed -n '/^values /,$p' "$O" >"$O.$tag"
  awk '{printf "%.2f %.2f %.0f", $1 + $2, $3, $4 / 1024}' "$F"
}
IFS=';'
for c in $CASES; do
  IFS=' ' read -r g heaps h <<<"$c"
  args=(table "$g" --heaps "$heaps" --max "$h" --grundy --count-only --no-store --limit 1e15)
  echo "== $g, $heaps heaps in [0..$h]"
  for ((i = 1; i <= RUNS; i++)); do
    IFS=" " read -r sc sw sm <<<"$(timed sorted $B "${args[@]}")"
    IFS=" " read -r mc mw mm <<<"$(NIMLAB_ENGINE_SYMMETRY=mirror timed mirror $B "${args[@]}")"
    IFS=" " read -r oc ow om <<<"$(NIMLAB_ENGINE_SYMMETRY=off timed off $B "${args[@]}")"
    same=""
    cmp -s "$O.sorted" "$O.mirror" && cmp -s "$O.sorted" "$O.off" || same="  COUNTS DIFFER"
    top=$(sed -n 's/^values 0..=\([0-9]*\).*/\1/p' "$O.sorted")
    awk -v sc="$sc" -v sw="$sw" -v sm="$sm" -v mc="$mc" -v mw="$mw" -v mm="$mm" -v oc="$oc" \
      -v ow="$ow" -v om="$om" -v i="$i" -v top="$top" -v same="$same" 'BEGIN {
      printf "run %d: sorted %s cpu-s %s s wall %s MB | mirror %s cpu-s %s s wall %s MB | every block %s cpu-s %s s wall %s MB | cpu ratio %.1fx (%.1fx), wall ratio %.1fx (%.1fx) | values 0..=%s%s\n",
        i, sc, sw, sm, mc, mw, mm, oc, ow, om, mc / sc, oc / sc, mw / sw, ow / sw, top, same }'
  done
  IFS=';'
done
for c in $PSET_CASES; do
  IFS=' ' read -r g heaps h <<<"$c"
  args=(table "$g" --heaps "$heaps" --max "$h" --count-only --no-store --limit 1e15)
  echo "== P-set of $g, $heaps heaps in [0..$h]"
  for ((i = 1; i <= RUNS; i++)); do
    IFS=" " read -r sc sw sm <<<"$(timed sorted $B "${args[@]}")"
    scount=$(sed -n 's/^P-positions: \([0-9]*\) as ordered tuples, \([0-9]*\).*/\1 \2/p' "$O")
    IFS=" " read -r mc mw mm <<<"$(NIMLAB_ENGINE_SYMMETRY=mirror timed mirror $B "${args[@]}")"
    mcount=$(sed -n 's/^P-positions: \([0-9]*\) as ordered tuples, \([0-9]*\).*/\1 \2/p' "$O")
    awk -v sc="$sc" -v sw="$sw" -v sm="$sm" -v mc="$mc" -v mw="$mw" -v mm="$mm" -v i="$i" \
      -v s="$scount" -v m="$mcount" 'BEGIN {
      printf "run %d: default %s cpu-s %s s wall %s MB | lines with the mirror %s cpu-s %s s wall %s MB | cpu ratio %.1fx, wall ratio %.1fx | P-positions (ordered, sorted) %s / %s%s\n",
        i, sc, sw, sm, mc, mw, mm, mc / sc, mw / sw, s, m, (s == m ? "" : "  COUNTS DIFFER") }'
  done
  IFS=';'
done
