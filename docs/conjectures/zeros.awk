# Reads `nimlab table 'CN(n,k)' ... --format csv`; classifies the canonical P-positions by their zeros:
# number of zero stacks and the longest cyclic run of zeros (a run of >= k-1 zeros cuts the circle).
# nimlab's CSV starts with a header line (p1,p2,... or, for SCN, length,p1,p2,...); SCN rows begin with the
# circle length and are padded with empty fields: the next two rules drop the header and the length column.
FNR == 1 && ($1 == "length" || $1 == "p1") { lencol = ($1 == "length"); next }
lencol { r = $2; for (i = 3; i <= $1 + 1; i++) r = r "," $i; $0 = r }
{ z=0; run=0; best=0; eq=1; for(i=1;i<=2*NF;i++){ j=(i-1)%NF+1; if($j==0){run++; if(run>best)best=run} else run=0 }
  if(best>NF)best=NF; for(i=1;i<=NF;i++){ if($i==0) z++; if($i!=$1) eq=0 }
  key = (z==0 ? (eq ? "no zero, all equal" : "no zero, not all equal") : sprintf("%d zero(s), longest zero run %d", z, best)); c[key]++ }
END { for (k in c) print c[k], k }
