#!/usr/bin/env bash
# The MPI back end against one process, on this machine: the same P-set table computed by
#   - one process, the CPU engine, 1 thread and all threads (--backend cpu), and
#   - `mpirun --oversubscribe -np R` for each R given, one thread per rank (--backend mpi),
# each into a fresh store. Prints one row per run: wall time, the counts line, and for MPI the
# traffic between the ranks; then checks that every run printed the same counts.
#
# usage: scripts/mpi-bench.sh NIMLAB GAME MAX [RANKS ...]     (default ranks: 1 2 3)
# e.g.   scripts/mpi-bench.sh target/release/nimlab 'CN(7,4)' 31 1 2 3
# NIMLAB must be built with `--features mpi`; Open MPI's mpirun must be on the PATH.
set -euo pipefail
if [ $# -lt 3 ]; then
  echo "usage: $0 NIMLAB GAME MAX [RANKS ...]" >&2
  exit 2
fi
bin=$(realpath "$1")
game=$2
max=$3
shift 3
ranks=("$@")
[ ${#ranks[@]} -gt 0 ] || ranks=(1 2 3)
command -v mpirun >/dev/null || { echo "mpirun not found: install openmpi-bin" >&2; exit 2; }
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

counts=()
row() { # label, back end, then the launcher and binary
  local label=$1 backend=$2
  shift 2
  local db="$work/$RANDOM$RANDOM.sqlite3"
  local start end
  start=$(date +%s.%N)
  "$@" table "$game" --max "$max" --count-only --backend "$backend" --db "$db" >"$work/out" 2>"$work/err"
  end=$(date +%s.%N)
  local p traffic
  p=$(grep -m1 '^P-positions' "$work/out" | sed 's/ (.*//')
  traffic=$(grep -m1 'sent' "$work/err" | sed 's/^nimlab: //' || true)
  printf '%-28s wall %7.2f s  %s%s\n' "$label" "$(echo "$end - $start" | bc)" "$p" "${traffic:+  | $traffic}"
  counts+=("$p")
}

echo "$game --max $max on $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"
RAYON_NUM_THREADS=1 row "one process, 1 thread" cpu "$bin"
row "one process, $(nproc) threads" cpu "$bin"
for r in "${ranks[@]}"; do
  row "mpi, $r rank(s) x 1 thread" mpi mpirun --oversubscribe -np "$r" -x RAYON_NUM_THREADS=1 "$bin"
done
for c in "${counts[@]}"; do
  if [ "$c" != "${counts[0]}" ]; then
    echo "MISMATCH: '$c' differs from '${counts[0]}'" >&2
    exit 1
  fi
done
echo "all runs printed: ${counts[0]}"
