#!/usr/bin/env bash
# Condition (II) of `prove --automata`: the antichain search alone, the pre-images alone, and both
# side by side (the default), on the same release binary, one process each. Prints wall and user
# seconds, the verdict, and (with NIMLAB_AUTOMATA_TRACE) the automata's sizes.
# Usage: scripts/bench-automata.sh [TIMEOUT_SECONDS]   (after `cargo build --release -p nimlab-cli`)
set -euo pipefail
cd "$(dirname "$0")/.."
bin=target/release/nimlab
timeout=${1:-120}
moore() { python3 -c "import itertools,sys; n,k=int(sys.argv[1]),int(sys.argv[2]); print('simplicial('+','.join('{'+','.join(map(str,c))+'}' for c in itertools.combinations(range(1,n+1),k))+')')" "$1" "$2"; }
cases=(
  "CN(7,4)|--theorem cn-7-4"
  "CN(8,6)|--theorem cn-8-6"
  "CN(6,4)|--theorem cn-6-4"
  "$(moore 7 4)|--theorem moore"
  "$(moore 8 5)|--theorem moore"
)
echo "load: $(cut -d' ' -f1-3 /proc/loadavg)"
for c in "${cases[@]}"; do
  game=${c%%|*}; args=${c#*|}
  for method in antichain images both; do
    env_method=$method; [ "$method" = both ] && env_method=
    out=$( { NIMLAB_AUTOMATA_II=$env_method /usr/bin/time -f "TIME %e %U %M" \
      "$bin" prove "$game" $args --automata --timeout "$timeout" --json; } 2>&1 || true)
    verdict=$(echo "$out" | grep -o '"verdict": *"[a-z]*"' | head -1 | sed 's/.*"\([a-z]*\)"$/\1/')
    read -r _ wall user rss < <(echo "$out" | grep '^TIME')
    printf '%-14s %-10s %-8s wall %7.2f s  user %7.2f s  %6d MB\n' "${game:0:14}" "$method" "$verdict" "$wall" "$user" $((rss / 1024))
  done
done
echo "load: $(cut -d' ' -f1-3 /proc/loadavg)"
