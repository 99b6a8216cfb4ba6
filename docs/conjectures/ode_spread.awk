# Reads `nimlab table ... --format csv`; counts the canonical 6-circles by the spread (max - min) of their
# three opposite differences p3-p0, p1-p4, p5-p2 (spread 0 = the form (a,b+q,c,a+q,b,c+q)).
NF==6 { d1=$4-$1; d2=$2-$5; d3=$6-$3; mx=d1; if(d2>mx)mx=d2; if(d3>mx)mx=d3; mn=d1; if(d2<mn)mn=d2; if(d3<mn)mn=d3; s[mx-mn]++ } END { for (k in s) print "spread", k, s[k] }
