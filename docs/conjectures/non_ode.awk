# Reads `nimlab table ... --format csv` (one canonical P-position per line); for every 6-circle that is
# NOT of the form (a,b+q,c,a+q,b,c+q) prints: its largest pile, the position, and the three opposite differences.
# nimlab's CSV starts with a header line (p1,p2,... or, for SCN, length,p1,p2,...); SCN rows begin with the
# circle length and are padded with empty fields: the next two rules drop the header and the length column.
FNR == 1 && ($1 == "length" || $1 == "p1") { lencol = ($1 == "length"); next }
lencol { r = $2; for (i = 3; i <= $1 + 1; i++) r = r "," $i; $0 = r }
NF==6 && !($1+$2==$4+$5 && $2+$3==$5+$6) { d1=$4-$1; d2=$2-$5; d3=$6-$3; mx=$1; for(i=2;i<=6;i++) if($i>mx) mx=$i; printf "%d (%s) opposite differences %d,%d,%d\n", mx, $0, d1, d2, d3 }
