# Reads `nimlab table ... --format csv` (one canonical P-position per line); for every 6-circle that is
# NOT of the form (a,b+q,c,a+q,b,c+q) prints: its largest pile, the position, and the three opposite differences.
NF==6 && !($1+$2==$4+$5 && $2+$3==$5+$6) { d1=$4-$1; d2=$2-$5; d3=$6-$3; mx=$1; for(i=2;i<=6;i++) if($i>mx) mx=$i; printf "%d (%s) opposite differences %d,%d,%d\n", mx, $0, d1, d2, d3 }
