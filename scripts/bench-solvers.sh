#!/usr/bin/env bash
# Every proof of the registry (nimlab_prove::proved: PROVED and PROVED_SUBSET, and the small sizes of the
# results about a family of games, SIZES; scripts/prove-sizes.sh runs every size) with z3 alone, cvc5
# alone and both (--cross-check), one run each, whole process, release build. The test
# every_entry_listed_as_proved_is_proved_by_cvc5_too runs the fast pairs; this script also runs the
# pairs of SLOW_WITH_CVC5. Each query has 120 s (--timeout 120). Figures: docs/benchmarks.md ("Two solvers").
#   bash scripts/bench-solvers.sh            (needs z3 and cvc5 on the PATH)
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release -q -p nimlab-cli
B=target/release/nimlab
pairs=(
  "cn-n-n CN(2,2)" "cn-n-n CN(3,3)" "cn-n-n CN(4,4)"
  "cn-n-n-1 CN(3,2)" "cn-n-n-1 CN(4,3)" "cn-n-n-1 CN(5,4)" "cn-n-n-1 CN(6,5)" "cn-n-n-1 CN(7,6)"
  "cn-4-2 CN(4,2)" "cn-5-2 CN(5,2)" "cn-5-3 CN(5,3)" "cn-6-3 CN(6,3)" "cn-7-4 CN(7,4)" "cn-8-6 CN(8,6)"
  "scn-n-n SCN(2,2)" "scn-n-n SCN(3,3)" "scn-n-n-1 SCN(3,2)" "scn-n-n-1 SCN(4,3)" "scn-n-n-1 SCN(5,4)"
  "scn-4-2 SCN(4,2)" "scn-5-2 SCN(5,2)" "scn-5-3 SCN(5,3)" "scn-8-6 SCN(8,6)"
  "cn-lemma5-s1 CN(3,2)" "cn-lemma5-s1 CN(5,3)" "cn-lemma5-s1 CN(7,4)" "cn-lemma5-s1 CN(9,5)" "cn-lemma5-s1 CN(11,6)"
)
printf '%-14s %-9s %10s %10s %12s\n' result game "z3 (s)" "cvc5 (s)" "both (s)"
for pair in "${pairs[@]}"; do
  set -- $pair
  row=()
  for opts in "--solver z3" "--solver cvc5" "--cross-check"; do
    start=$(date +%s.%N)
    # prove exits 1 (refuted) or 3 (unknown) with a report: the verdict is read from the JSON.
    verdict=$( ($B prove "$2" --theorem "$1" $opts --timeout 120 --json 2>/dev/null || true) \
      | python3 -c 'import json,sys; print(json.load(sys.stdin)["verdict"])' 2>/dev/null || echo failed)
    end=$(date +%s.%N)
    row+=("$(printf '%.2f' "$(echo "$end - $start" | bc)")/$verdict")
  done
  printf '%-14s %-9s %10s %10s %12s\n' "$1" "$2" "${row[0]%/*}" "${row[1]%/*}" "${row[2]%/*}"
  for r in "${row[@]}"; do
    [ "${r#*/}" = proved ] || echo "  not proved: $1 on $2 (${r#*/})"
  done
done
