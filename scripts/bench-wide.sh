#!/usr/bin/env bash
# Tables with entries past 63 (lines of several words), whole process, release build, one run each:
# the engine against the plain search (--method naive) on the same box where the plain search is
# affordable, the engine alone on the boxes the plain search cannot reach, and, with BASELINE=PATH
# (a nimlab binary of an older build), CN(7,4) [0..31]^7 on both builds to show that one-word lines
# lost nothing. Figures: docs/benchmarks.md ("Entries past 63").
#   bash scripts/bench-wide.sh
#   BASELINE=/path/to/old/nimlab bash scripts/bench-wide.sh
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release -q -p nimlab-cli
B=target/release/nimlab
run() {
  # Wall seconds and peak resident set of one whole process, and the line with its counts.
  /usr/bin/time -f '%e s wall, %M KB peak' "$@" --count-only --no-store 2>&1 >/dev/null | tail -1
  "$@" --count-only --no-store 2>/dev/null | sed -n 2p
}
echo "== paired with the plain search on the same box"
for args in "table nim --heaps 3 --max 200" "table CN(3,2) --max 70"; do
  echo "-- $args (engine)"; run $B $args
  echo "-- $args (plain search)"; run $B $args --method naive --limit 1e11
done
echo "== the engine alone"
for args in "table CN(3,2) --max 500" "table nim --heaps 3 --max 2047" "table SCN(4,2) --max 100" \
  "table CN(3,3) --max 1000" "table ECN(5,{2},2) --max 100"; do
  echo "-- $args"; run $B $args
done
if [ -n "${BASELINE:-}" ]; then
  echo "== CN(7,4) [0..31]^7: this build, then BASELINE"
  run $B table 'CN(7,4)' --max 31
  run "$BASELINE" table 'CN(7,4)' --max 31
fi
