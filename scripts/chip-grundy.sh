#!/usr/bin/env bash
# The Sprague–Grundy value sets of ET(3) and ENTROPY(3) by automata (docs/findings.md, "Value sets
# by automata"): for each game, the exact Grundy table on a box of BITS binary digits per box, then
# G_0, G_1, ... learned from its boxes and proved for every box size, until the first value whose
# automaton does not settle. Release build; STATES caps one learned automaton (default 20000).
#
#   scripts/chip-grundy.sh [ET_BITS] [ENTROPY_BITS]     (defaults 9 and 10)
set -euo pipefail
cd "$(dirname "$0")/.."
ET_BITS="${1:-9}"
ENTROPY_BITS="${2:-10}"
STATES="${STATES:-20000}"
cargo build --release -p nimlab-prove --example chip_grundy
BIN=target/release/examples/chip_grundy
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg); $(nproc) cores"
for spec in "ET(3):$ET_BITS" "ENTROPY(3):$ENTROPY_BITS"; do
  game="${spec%%:*}"
  bits="${spec##*:}"
  echo "== $game, box of 2^$bits per box"
  start=$(date +%s.%N)
  "$BIN" "$game" "$bits" --states "$STATES"
  end=$(date +%s.%N)
  echo "wall: $(python3 -c "print('%.2f s' % ($end - $start))")"
done
