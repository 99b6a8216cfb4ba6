//! Exact numbers of options of the chip games, counted without listing them (multiset counts).
//!
//! * Empty & Transfer: emptying a box of `a` chips and splitting a box of `b` into `{t, b - t}`
//!   gives `floor(b/2)` distinct multisets; different `(a, b)` values give different multisets
//!   (the total falls by `a`, and `b` is the one value of the rest that the move replaces).
//! * Entropy Reduction: moving chips between boxes of `a > b` gives `floor((a - b)/2)` distinct
//!   multisets, and different value pairs give different multisets.
//! * The redistribution games: each distinct kept total `n` gives the partitions of `n` into exactly
//!   `k` positive parts, that is the partitions of `n - k` into at most `k` parts
//!   ([`partitions_at_most`]).
//!
//! Every count is exact and saturates at `u128::MAX` (it never wraps).

use num_bigint::BigInt;
use num_traits::{ToPrimitive, Zero};

/// The distinct values of a sorted slice with their multiplicities.
fn runs(s: &[u64]) -> Vec<(u64, usize)> {
    let mut out: Vec<(u64, usize)> = Vec::new();
    for &x in s {
        match out.last_mut() {
            Some((v, c)) if *v == x => *c += 1,
            _ => out.push((x, 1)),
        }
    }
    out
}

/// Options of Empty & Transfer at the sorted position `s`.
pub fn empty_transfer(s: &[u64]) -> u128 {
    let r = runs(s);
    // D: the splits of every distinct value; a value held by one box only cannot be both emptied and
    // split, so its splits leave the sum when that value is the one emptied.
    let d: u128 = r.iter().map(|&(v, _)| u128::from(v / 2)).sum();
    r.iter()
        .map(|&(a, c)| d - if c == 1 { u128::from(a / 2) } else { 0 })
        .sum()
}

/// Options of Entropy Reduction at the sorted position `s`: the sum over pairs of distinct values
/// `a > b` of `floor((a - b)/2)`, that is (the sum of the differences less the number of pairs of
/// different parity) / 2.
pub fn entropy(s: &[u64]) -> u128 {
    let r = runs(s);
    let mut below: u128 = 0; // sum of the smaller distinct values seen
    let mut diffs: u128 = 0;
    let (mut odd, mut even) = (0u128, 0u128);
    for (i, &(v, _)) in r.iter().enumerate() {
        diffs += u128::from(v) * i as u128 - below;
        below += u128::from(v);
        if v % 2 == 1 {
            odd += 1;
        } else {
            even += 1;
        }
    }
    (diffs - odd * even) / 2
}

/// Largest `m * min(k, m)` for which [`partitions_at_most`] runs the plain dynamic programme.
const DP_WORK: u128 = 30_000_000;
/// Largest `k` for which [`partitions_at_most`] uses the quasi-polynomial for large `m`.
const QUASI_MAX_K: usize = 10;

/// The number of partitions of `m` into at most `k` parts (equivalently into parts of size at most
/// `k`), exactly, saturating at `u128::MAX`. `None` when it can be neither computed quickly nor shown
/// to pass `u128::MAX` (`k` of 11 or more with `m` in a middle range).
pub fn partitions_at_most(m: u128, k: usize) -> Option<u128> {
    let k = (k as u128).min(m.max(1)) as usize;
    if m.saturating_mul(k as u128) <= DP_WORK {
        return Some(dp(m as usize, k)[m as usize]);
    }
    if k <= QUASI_MAX_K {
        return Some(quasi_polynomial(m, k));
    }
    // Large k: the count grows with m, so once the programme saturates at some m0 <= m, so does m.
    // Doubling m0 finds such a point at about twice the cost of the least one (for k >= 11 the
    // count passes 2^128 before m k reaches 3 10^6).
    let mut m0 = 1024usize;
    while (m0 as u128) * (k as u128) <= DP_WORK {
        if dp(m0, k)[m0] == u128::MAX {
            return Some(u128::MAX);
        }
        m0 *= 2;
    }
    None
}

/// Partitions of every `0..=m` into parts of size at most `k`, saturating.
fn dp(m: usize, k: usize) -> Vec<u128> {
    let mut v = vec![0u128; m + 1];
    v[0] = 1;
    for part in 1..=k.min(m.max(1)) {
        for i in part..=m {
            v[i] = v[i].saturating_add(v[i - part]);
        }
    }
    v
}

/// The partition count into parts of size at most `k` is a quasi-polynomial of degree `k - 1` with
/// period `L = lcm(1..=k)` for every `m >= 0` (its generating function `1 / prod (1 - x^i)` is a
/// proper rational function). On the residue class of `m` mod `L` it is a polynomial in
/// `j = (m - r) / L`, found from its values at `j = 0..k` (the dynamic programme, small) by Newton's
/// forward differences and evaluated at the real `j` in big integers.
fn quasi_polynomial(m: u128, k: usize) -> u128 {
    let l: u128 = (1..=k as u128).fold(1, |a, b| a / gcd(a, b) * b);
    let r = m % l;
    let j = (m - r) / l;
    let top = (r + (k as u128) * l) as usize;
    let table = dp(top, k);
    // Values at j = 0..=k-1 (degree k - 1 needs k of them); one more checks nothing saturated.
    let mut diff: Vec<BigInt> = (0..k)
        .map(|i| BigInt::from(table[(r + i as u128 * l) as usize]))
        .collect();
    // Forward differences in place: diff[i] becomes Δ^i P(0).
    for i in 1..k {
        for t in (i..k).rev() {
            diff[t] = &diff[t] - &diff[t - 1];
        }
    }
    // P(j) = sum_i C(j, i) Δ^i P(0).
    let jb = BigInt::from(j);
    let mut binom = BigInt::from(1u8);
    let mut total = BigInt::zero();
    for (i, d) in diff.iter().enumerate() {
        total += &binom * d;
        // C(j, i + 1) = C(j, i) * (j - i) / (i + 1), exact.
        binom = binom * (&jb - BigInt::from(i)) / BigInt::from(i + 1);
    }
    total.to_u128().unwrap_or(u128::MAX)
}

fn gcd(a: u128, b: u128) -> u128 {
    if b == 0 {
        a
    } else {
        gcd(b, a % b)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn partition_counts_agree_with_the_programme() {
        // The quasi-polynomial against the plain programme on every m of a range, k = 1..=10.
        for k in 1..=QUASI_MAX_K {
            let table = dp(30_000, k);
            for m in (0..30_000).step_by(7).chain(29_990..30_000) {
                assert_eq!(quasi_polynomial(m as u128, k), table[m], "m = {m}, k = {k}");
            }
        }
        // Small cases by hand: p(5, <= 2) = 3 (5, 41, 32), p(6, <= 3) = 7.
        assert_eq!(partitions_at_most(5, 2), Some(3));
        assert_eq!(partitions_at_most(6, 3), Some(7));
        assert_eq!(partitions_at_most(0, 4), Some(1));
        // Two parts at the top of the range: floor(m / 2) + 1, exactly.
        let m = u64::MAX as u128 * 3;
        assert_eq!(partitions_at_most(m, 2), Some(m / 2 + 1));
        // Huge k and m: saturated.
        assert_eq!(partitions_at_most(1 << 70, 4000), Some(u128::MAX));
    }
}
