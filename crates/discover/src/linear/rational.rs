//! Exact rational arithmetic for the affine hulls: fractions in lowest terms, reduced row echelon
//! form, and a row scaled to integers.

/// An exact rational `n / d` (d > 0, in lowest terms).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Q(i128, i128);

pub(super) fn gcd(a: i128, b: i128) -> i128 {
    let (mut a, mut b) = (a.abs(), b.abs());
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a
}

impl Q {
    pub(super) fn new(n: i128, d: i128) -> Q {
        let g = gcd(n, d).max(1);
        let s = if d < 0 { -1 } else { 1 };
        Q(s * n / g, s * d / g)
    }
    pub(super) fn int(n: i128) -> Q {
        Q(n, 1)
    }
    pub(super) fn zero(self) -> bool {
        self.0 == 0
    }
    pub(super) fn sub(self, o: Q) -> Q {
        Q::new(self.0 * o.1 - o.0 * self.1, self.1 * o.1)
    }
    pub(super) fn mul(self, o: Q) -> Q {
        Q::new(self.0 * o.0, self.1 * o.1)
    }
    pub(super) fn div(self, o: Q) -> Q {
        Q::new(self.0 * o.1, self.1 * o.0)
    }
}

/// Reduced row echelon form over the rationals; returns the non-zero rows and their pivot columns.
pub(super) fn rref(mut rows: Vec<Vec<Q>>, cols: usize) -> (Vec<Vec<Q>>, Vec<usize>) {
    let mut pivots = Vec::new();
    let mut r = 0;
    for c in 0..cols {
        let Some(p) = (r..rows.len()).find(|&i| !rows[i][c].zero()) else {
            continue;
        };
        rows.swap(r, p);
        let lead = rows[r][c];
        rows[r] = rows[r].iter().map(|&v| v.div(lead)).collect();
        for i in 0..rows.len() {
            if i != r && !rows[i][c].zero() {
                let f = rows[i][c];
                let pivot = rows[r].clone();
                for (x, y) in rows[i].iter_mut().zip(&pivot) {
                    *x = x.sub(f.mul(*y));
                }
            }
        }
        pivots.push(c);
        r += 1;
    }
    rows.truncate(r);
    (rows, pivots)
}

/// A row of rationals scaled to primitive integers.
pub(super) fn integral(row: &[Q]) -> Vec<i128> {
    let l = row.iter().fold(1i128, |l, q| l / gcd(l, q.1) * q.1);
    let v: Vec<i128> = row.iter().map(|q| q.0 * (l / q.1)).collect();
    let g = v.iter().fold(0, |g, &x| gcd(g, x)).max(1);
    v.into_iter().map(|x| x / g).collect()
}
