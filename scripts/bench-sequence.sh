#!/usr/bin/env bash
# Times `nimlab sequence` (release build) by the sparse-space method against the plain mex, for
# Officers (0.6) and Grundy's game, at 10^5, 10^6 and (sparse only, BIG=1) 10^7 heaps.
# The plain mex at 10^6 is about 2.5e11 option values per game (many minutes): run it with PLAIN_BIG=1.
# HUGE=1 adds 10^8 heaps by the sparse-space method (about ten minutes a game on 2 cores).
# Usage: scripts/bench-sequence.sh   (CARGO_TARGET_DIR honoured)
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release -p nimlab-cli >/dev/null
BIN="${CARGO_TARGET_DIR:-target}/release/nimlab"
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg); nproc: $(nproc)"
run() {
    local game="$1" max="$2" method="$3"
    local out start end
    start=$(date +%s.%N)
    out=$("$BIN" sequence "$game" --max "$max" --method "$method" --limit 1e13 | sed -n 2p)
    end=$(date +%s.%N)
    printf '%-12s %-9s %-7s %8.2f s  %s\n' "$game" "$max" "$method" "$(echo "$end - $start" | bc)" "$out"
}
for game in 'octal(0.6)' grundy; do
    for max in 100000 1000000; do
        run "$game" "$max" sparse
    done
    run "$game" 100000 plain
    if [ "${PLAIN_BIG:-0}" = 1 ]; then run "$game" 1000000 plain; fi
    if [ "${BIG:-0}" = 1 ]; then run "$game" 10000000 sparse; fi
    if [ "${HUGE:-0}" = 1 ]; then run "$game" 100000000 sparse; fi
done
