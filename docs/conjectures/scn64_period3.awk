# Reads `nimlab table 'SCN(6,4)' --max H --format csv` with -v H=H. For the canonical P-positions of the
# form (a,b,c,a,b,c) (opposite piles equal) tests the rule (a-1) xor (b-1) xor (c-1) = 0, and compares their
# number with the number of multisets {a,b,c} in 1..H that obey the rule, (1,1,1) excepted.
# nimlab's CSV starts with a header line (p1,p2,... or, for SCN, length,p1,p2,...); SCN rows begin with the
# circle length and are padded with empty fields: the next two rules drop the header and the length column.
FNR == 1 && ($1 == "length" || $1 == "p1") { lencol = ($1 == "length"); next }
lencol { r = $2; for (i = 3; i <= $1 + 1; i++) r = r "," $i; $0 = r }
function bxor(x, y,   r, b) { r = 0; b = 1; while (x > 0 || y > 0) { if (x % 2 != y % 2) r += b; x = int(x / 2); y = int(y / 2); b *= 2 } return r }
NF == 6 && $1 == $4 && $2 == $5 && $3 == $6 { n++; if (bxor(bxor($1 - 1, $2 - 1), $3 - 1) == 0) ok++; else print "P but not by the rule:", $0 }
END {
  for (a = 1; a <= H; a++) for (b = a; b <= H; b++) for (c = b; c <= H; c++) if (bxor(bxor(a - 1, b - 1), c - 1) == 0) want++
  want--  # (1,1,1,1,1,1) moves to the P-position (1,1,1,1,1)
  printf "P-positions (a,b,c,a,b,c): %d, obeying the rule: %d; multisets obeying the rule, (1,1,1) excepted: %d\n", n, ok, want
}
