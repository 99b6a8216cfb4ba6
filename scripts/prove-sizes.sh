#!/usr/bin/env bash
# The registry's results about a family of games (bouton, bouton-misere, moore, cn-n-n, cn-n-n-1,
# scn-n-n, scn-n-n-1, scn-n-1), proved with `nimlab prove --theorem ID` on every size n in turn, one
# run each, whole process: the linear ones with z3, those with xor (and Moore's column sums) by
# automata. A family stops at the first n that is not proved within LIMIT seconds (default 60) or at
# the largest n the prover takes. Prints "id game seconds verdict" per run. Figures: docs/benchmarks.md
# ("Results about every n"); the sizes recorded in crates/prove/src/registry_proofs.rs (SIZES) come from it.
#   bash scripts/prove-sizes.sh [ID ...]          (release build; NIMLAB_BIN=PATH runs another binary)
set -uo pipefail
cd "$(dirname "$0")/.."
LIMIT=${LIMIT:-60}
if [ -z "${NIMLAB_BIN:-}" ]; then
  cargo build --release -q -p nimlab-cli || exit 2
  NIMLAB_BIN=target/release/nimlab
fi
ids=("$@")
[ ${#ids[@]} -gt 0 ] || ids=(cn-n-n cn-n-n-1 scn-n-n scn-n-n-1 scn-n-1 bouton bouton-misere moore)

# One run: prints the line and returns 0 when proved within the limit.
run() {
  local id=$1 shown=$2; shift 2
  local start end secs verdict
  start=$(date +%s.%N)
  verdict=$( (timeout "$((LIMIT + 30))" "$NIMLAB_BIN" prove "$@" --theorem "$id" --json 2>/dev/null || true) \
    | python3 -c 'import json,sys; print(json.load(sys.stdin)["verdict"])' 2>/dev/null || echo "no answer")
  end=$(date +%s.%N)
  secs=$(echo "$end - $start" | bc)
  printf '%-14s %-18s %8.2f  %s\n' "$id" "$shown" "$secs" "$verdict"
  [ "$verdict" = proved ] && [ "$(echo "$secs <= $LIMIT" | bc)" = 1 ]
}

for id in "${ids[@]}"; do
  case $id in
    cn-n-n) for n in $(seq 1 26); do run $id "CN($n,$n)" "CN($n,$n)" || break; done ;;
    cn-n-n-1) for n in $(seq 2 26); do run $id "CN($n,$((n - 1)))" "CN($n,$((n - 1)))" || break; done ;;
    scn-n-n) for n in $(seq 1 26); do run $id "SCN($n,$n)" "SCN($n,$n)" || break; done ;;
    scn-n-n-1) for n in $(seq 2 26); do run $id "SCN($n,$((n - 1)))" "SCN($n,$((n - 1)))" || break; done ;;
    scn-n-1) for n in $(seq 1 15); do run $id "SCN($n,1)" "SCN($n,1)" --automata --timeout "$LIMIT" || break; done ;;
    bouton) for n in $(seq 1 8); do run $id "nim, $n heaps" nim --heaps "$n" --automata --timeout "$LIMIT" || break; done ;;
    bouton-misere) for n in $(seq 1 8); do run $id "nim, $n heaps" nim --heaps "$n" --misere --automata --timeout "$LIMIT" || break; done ;;
    moore)
      # k = 1 is Nim (bouton) and k = n - 1 is CN(n, n-1) (cn-n-n-1): every k between, per n.
      for n in $(seq 4 8); do
        ok=1
        for k in $(seq 2 $((n - 2))); do run $id "moore($k), $n heaps" "moore($k)" --heaps "$n" --automata --timeout "$LIMIT" || { ok=0; break; }; done
        [ $ok = 1 ] || break
      done ;;
    *) echo "unknown id $id" >&2; exit 2 ;;
  esac
done
