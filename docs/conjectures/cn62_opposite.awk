# Reads `nimlab table 'CN(6,2)' ... --format csv`; among canonical P-positions with no zero stack, counts those
# with some pair of opposite stacks equal (a_i = a_{i+3}), and those also satisfying the CN(6,3) rule.
# nimlab's CSV starts with a header line (p1,p2,... or, for SCN, length,p1,p2,...); SCN rows begin with the
# circle length and are padded with empty fields: the next two rules drop the header and the length column.
FNR == 1 && ($1 == "length" || $1 == "p1") { lencol = ($1 == "length"); next }
lencol { r = $2; for (i = 3; i <= $1 + 1; i++) r = r "," $i; $0 = r }
{ for(i=1;i<=6;i++) if($i==0) next; pos++; o=($1==$4)||($2==$5)||($3==$6); s=($1+$2==$4+$5)&&($2+$3==$5+$6);
  if(o) opp++; if(s) ode++; if(o&&s) both++ }
END { printf "no zero: %d; some opposite pair equal: %d; CN(6,3) rule (equal opposite differences): %d; both: %d\n", pos, opp, ode, both }
