#!/usr/bin/env bash
# Every ECN(m,S,k) with m <= 8 (S a non-empty subset of {1..floor(m/2)}, 1 <= k <= m): P-position
# counts on the box [0..H]^m (H by m below), the relabeling nimlab finds, and whether `prove` proves a
# built-in linear result for every stack size through that relabeling. One markdown row per game.
# Usage: scripts/ecn-table.sh [path/to/nimlab]   (z3 on the PATH)
N=${1:-target/release/nimlab}
box() { case $1 in 2|3|4) echo 15;; 5) echo 11;; 6) echo 8;; 7) echo 6;; 8) echo 5;; esac; }
echo "| game | box | P-positions | up to symmetry | relabeling / prove |"
echo "|---|---|---|---|---|"
for m in 2 3 4 5 6 7 8; do
  h=$((m / 2)); H=$(box $m)
  for mask in $(seq 1 $(( (1 << h) - 1 ))); do
    S=""; for s in $(seq 1 $h); do (( mask >> (s - 1) & 1 )) && S="$S${S:+,}$s"; done
    for k in $(seq 1 $m); do
      g="ECN($m,{$S},$k)"
      t=$($N table "$g" --max $H --count-only --json 2>&1)
      c=$(echo "$t" | sed -n 's/.*"canonical_count":\([0-9]*\),"count":\([0-9]*\).*/\2 | \1/p')
      p=$($N prove "$g" --theorem relabeled --timeout 60 2>&1 | head -1)
      case "$p" in
        *"proved for every stack size"*)
          p="**proved**: $(echo "$p" | sed 's/.*theorem \([^ ]*\) through the relabeling stacks [0-9,]* -> \([^ ]*\) stacks \([0-9,]*\):.*/\1 via \2 (stacks -> \3)/')";;
        *"no result about"*) p="$(echo "$p" | sed 's/.*no result about \([^ ]*\) is.*/relabels \1; no complete result: open/')";;
        *"but "*" is not a union"*) p="$(echo "$p" | sed 's/.*a relabeling of \([^ ]*\) .*, but \([^ ]*\) is not a union.*/relabels \1: complete result \2 (not linear)/')";;
        *"relabeling of moore"*) p="$(echo "$p" | sed 's/.*relabeling of \(moore([0-9]*)\).*/relabels \1 (xor result, not linear)/')";;
        *"not a relabeling"*) p="open (no relabeling)";;
        *) p="? $p";;
      esac
      echo "| $g | [0..$H]^$m | $c | $p |"
    done
  done
done
