#!/usr/bin/env bash
# Every ECN(m,S,k) with m <= 8 (S a non-empty subset of {1..floor(m/2)}, 1 <= k <= m): P-position
# counts on the box [0..H]^m (H by m below), the relabeling nimlab finds, whether `prove` proves a
# built-in linear result for every stack size through that relabeling, the families files of
# examples/ecn/ that `prove` proves for the game, the sums (circles mod g = gcd(m,S), answered by the
# theory entries complex-simplices and complex-components), the antipodal games (complex-mirror), and the ECN game with the least step set
# that multiplying the stacks by a unit mod m turns it into. One markdown row per game.
# Usage: scripts/ecn-table.sh [path/to/nimlab]   (z3 on the PATH; run from the repository root)
N=${1:-target/release/nimlab}
box() { case $1 in 2|3|4) echo 15;; 5) echo 11;; 6) echo 8;; 7) echo 6;; 8) echo 5;; esac; }
gcd() { local a=$1 b=$2 t; while (( b )); do t=$((a % b)); a=$b; b=$t; done; echo $a; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
# The step set u*S (each step s -> min(us mod m, m - us mod m)), sorted, comma-separated.
times() {
  local m=$1 u=$2 s out=()
  for s in ${3//,/ }; do
    local r=$(( u * s % m )); (( r > m - r )) && r=$((m - r)); out+=($r)
  done
  printf '%s\n' "${out[@]}" | sort -n -u | paste -sd, -
}
# True when step set $1 comes before $2 (shorter first, then by the steps in order).
before() {
  local a=(${1//,/ }) b=(${2//,/ }) i
  (( ${#a[@]} != ${#b[@]} )) && { (( ${#a[@]} < ${#b[@]} )); return; }
  for i in "${!a[@]}"; do (( a[i] != b[i] )) && { (( a[i] < b[i] )); return; }; done
  return 1
}
echo "| game | box | P-positions | up to symmetry | relabeling / prove | isomorphisms, sums, families files |"
echo "|---|---|---|---|---|---|"
for m in 2 3 4 5 6 7 8; do
  h=$((m / 2)); H=$(box $m)
  for mask in $(seq 1 $(( (1 << h) - 1 ))); do
    S=""; for s in $(seq 1 $h); do (( mask >> (s - 1) & 1 )) && S="$S${S:+,}$s"; done
    for k in $(seq 1 $m); do
      g="ECN($m,{$S},$k)"
      t=$($N table "$g" --max $H --count-only --json 2>&1)
      c=$(echo "$t" | sed -n 's/.*"canonical_count":\([0-9]*\),"count":\([0-9]*\).*/\2 | \1/p')
      p=$($N prove "$g" --theorem relabeled --timeout 60 2>&1 | head -1)
      open=""
      case "$p" in
        *"proved for every stack size"*)
          p="**proved**: $(echo "$p" | sed 's/.*theorem \([^ ]*\) through the relabeling stacks [0-9,]* -> \([^ ]*\) stacks \([0-9,]*\):.*/\1 via \2 (stacks -> \3)/')";;
        *"no result about"*) p="$(echo "$p" | sed 's/.*no result about \([^ ]*\) is.*/relabels \1; no complete result/')"; open=1;;
        *"but "*" is not a union"*) p="$(echo "$p" | sed 's/.*a relabeling of \([^ ]*\) .*, but \([^ ]*\) is not a union.*/relabels \1: complete result \2 (not linear)/')";;
        *"relabeling of moore"*) p="$(echo "$p" | sed 's/.*relabeling of \(moore([0-9]*)\).*/relabels \1 (xor result, not linear)/')";;
        *"not a relabeling"*) p="no relabeling onto CN or Moore's Nim"; open=1;;
        *) p="? $p"; open=1;;
      esac
      notes=()
      # Multiplying the stacks by a unit u mod m: the least step set reachable, when it is smaller.
      best=$S; bu=1
      for u in $(seq 2 $((m - 1))); do
        (( $(gcd $u $m) == 1 )) || continue
        s2=$(times $m $u $S)
        before "$s2" "$best" && { best=$s2; bu=$u; }
      done
      (( bu > 1 )) && notes+=("= ECN($m,{$best},$k) by i -> ${bu}i mod $m")
      # A common factor of m and the steps: a sum of circles.
      d=$m; for s in ${S//,/ }; do d=$(gcd $d $s); done
      th=$($N theory "$g" --json 2>/dev/null | grep -o '"id": *"[^"]*"' | sed 's/.*"\([^"]*\)"$/\1/' | tr '\n' ' ')
      if (( d > 1 )); then
        small=""; for s in ${S//,/ }; do small="$small${small:+,}$((s / d))"; done
        kk=$(( k < m / d ? k : m / d ))
        circ="sum of $d circles ECN($((m / d)),{$small},$kk) (stacks mod $d)"
        case " $th" in
          *" complex-simplices "*) notes+=("**characterized**: $circ, each one facet: complex-simplices (nim-sum of the facet totals)"); open="";;
          *" complex-components "*) notes+=("$circ: complex-components decides the positions with at most one N circle");;
          *) notes+=("$circ");;
        esac
      fi
      case " $th" in
        *" complex-mirror "*) notes+=("**characterized**: complex-mirror (P iff x_i = x_(i+$((m / 2))))"); open="";;
      esac
      # Families files (examples/ecn/) for this number of stacks, with the game name put in: the file
      # written for this game first, then the others; the first one proved is named.
      files=$(grep -l "^game = \"$g\"" examples/ecn/*.toml; grep -L "^game = \"$g\"" examples/ecn/*.toml)
      for f in $files; do
        grep -q "^game = \"ECN($m,{" "$f" || continue
        sed "s/^game = .*/game = \"$g\"/" "$f" > "$tmp/f.toml"
        if $N prove "$g" --families "$tmp/f.toml" --timeout 60 2>&1 | head -1 | grep -q "proved for every stack size"; then
          notes+=("**proved** with $f"); open=""; break
        fi
      done
      [ -n "$open" ] && p="$p: **open**"
      n=$(IFS=';'; echo "${notes[*]}" | sed 's/;/; /g')
      echo "| $g | [0..$H]^$m | $c | $p | ${n:-—} |"
    done
  done
done
