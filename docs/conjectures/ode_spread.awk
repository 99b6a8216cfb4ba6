# Reads `nimlab table ... --format csv`; counts the canonical 6-circles by the spread (max - min) of their
# three opposite differences p3-p0, p1-p4, p5-p2 (spread 0 = the form (a,b+q,c,a+q,b,c+q)).
# nimlab's CSV starts with a header line (p1,p2,... or, for SCN, length,p1,p2,...); SCN rows begin with the
# circle length and are padded with empty fields: the next two rules drop the header and the length column.
FNR == 1 && ($1 == "length" || $1 == "p1") { lencol = ($1 == "length"); next }
lencol { r = $2; for (i = 3; i <= $1 + 1; i++) r = r "," $i; $0 = r }
NF==6 { d1=$4-$1; d2=$2-$5; d3=$6-$3; mx=d1; if(d2>mx)mx=d2; if(d3>mx)mx=d3; mn=d1; if(d2<mn)mn=d2; if(d3<mn)mn=d3; s[mx-mn]++ } END { for (k in s) print "spread", k, s[k] }
