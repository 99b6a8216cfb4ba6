# Reads `nimlab table ... --format csv`; for the canonical 6-circles, by smallest pile m: how many,
# how many have unequal opposite differences (spread > 0), and the largest spread seen.
# nimlab's CSV starts with a header line (p1,p2,... or, for SCN, length,p1,p2,...); SCN rows begin with the
# circle length and are padded with empty fields: the next two rules drop the header and the length column.
FNR == 1 && ($1 == "length" || $1 == "p1") { lencol = ($1 == "length"); next }
lencol { r = $2; for (i = 3; i <= $1 + 1; i++) r = r "," $i; $0 = r }
NF==6 { d1=$4-$1; d2=$2-$5; d3=$6-$3; mx=d1; if(d2>mx)mx=d2; if(d3>mx)mx=d3; mn=d1; if(d2<mn)mn=d2; if(d3<mn)mn=d3;
  m=$1; for(i=2;i<=6;i++) if($i<m) m=$i; n[m]++; if (mx>mn) bad[m]++; if (mx-mn>top[m]) top[m]=mx-mn }
END { for (m in n) printf "min %d: %d six-pile P, %d with unequal opposite differences, max spread %d\n", m, n[m], bad[m], top[m] }
