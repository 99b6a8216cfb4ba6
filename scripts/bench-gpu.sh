#!/usr/bin/env bash
# The GPU back end against the CPU engine on the same machine (whole process, one run each, store
# off): P-set counts must agree; the wall time, peak memory and the table's JSON line of each run are
# printed. Needs a build with `--features gpu` and a Vulkan driver for the GPU.
#   cargo build --release -p nimlab-cli --features gpu
#   B=target/release/nimlab bash scripts/bench-gpu.sh ["BACKEND:GAME ARGS" ...]
# Without arguments: CN(7,4) [0..31]^7, [0..41]^7, [0..47]^7 and SCN(6,4) piles <= 48, each on both
# back ends; an argument such as "gpu:CN(7,4) --max 63" runs one table. Each run is stopped after
# LIMIT seconds (120).
# Figures: docs/benchmarks.md ("The GPU back end on a real GPU").
set -uo pipefail
B=${B:-target/release/nimlab}
LIMIT=${LIMIT:-120}
LOG=${LOG:-/dev/null}
run() {
  # One table on one back end: prints wall seconds, peak memory and the JSON answer (or the error).
  local backend=$1
  shift
  local err
  err=$(mktemp)
  local json
  json=$(timeout "$LIMIT" /usr/bin/time -f '%e s wall, %M KB peak' "$B" table "$@" --count-only \
    --no-store --json --backend "$backend" 2>"$err")
  local rc=$?
  # The whole JSON line goes to LOG; the terminal gets its first 600 characters.
  printf '%-4s %-34s rc=%s %s\n' "$backend" "$*" "$rc" "$(tail -1 "$err")" | tee -a "$LOG"
  printf '     %s\n' "$json" >>"$LOG"
  printf '     %s\n' "${json:0:600}"
  [ "$rc" = 0 ] || tail -3 "$err" | tee -a "$LOG"
  rm -f "$err"
}
nvidia-smi -L 2>/dev/null || true
if [ "$#" = 0 ]; then
  set -- "gpu:CN(7,4) --max 31" "cpu:CN(7,4) --max 31" "gpu:SCN(6,4) --max 48" "cpu:SCN(6,4) --max 48" \
    "gpu:CN(7,4) --max 41" "cpu:CN(7,4) --max 41" "gpu:CN(7,4) --max 47" "cpu:CN(7,4) --max 47"
fi
for item in "$@"; do
  # shellcheck disable=SC2086
  run "${item%%:*}" ${item#*:}
done
