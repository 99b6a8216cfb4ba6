//! Host-side arithmetic of the GPU tier schedule (no GPU needed): the table the kernel ranks and
//! unranks with, and the split of each tier into slabs, with the span of the previous tier that a
//! slab reads.
//!
//! Lines of a tier are ranked in lexicographic order, as in [`crate::tiers`]. Subtracting `e_a` keeps
//! the lexicographic order of integer vectors, so the neighbours `x - e_a` of the lines `x` of a slab
//! `[first, first + lines)` lie between the ranks of `x_first - e_a` and `x_last - e_a`, counted with
//! [`count_below`] (which takes vectors with an entry -1). The slab reads only that span of the previous
//! tier: it is all the device needs to hold besides the slab itself.

use crate::tiers::Ranking;

/// `skipped(j, s, v)`: the tuples of `j` entries in `0..r` with sum in `s-v+1 ..= s` (those whose
/// next entry is below `v`), for `j < n`, `s <= n(r-1)`, `v <= r`, at index
/// `(j * (S+1) + s) * (r+1) + v` with `S = n(r-1)`. Every value is at most the size of a tier, which
/// the caller checks fits in 32 bits.
pub fn skip_table(rk: &Ranking) -> Vec<u32> {
    let (n, r) = rk.shape();
    let top = n * (r - 1);
    let mut t = Vec::with_capacity(n * (top + 1) * (r + 1));
    for j in 0..n {
        for s in 0..=top {
            let mut acc = 0u64;
            t.push(0);
            for v in 1..=r {
                if v <= s + 1 {
                    acc += rk.compositions(j, s + 1 - v);
                }
                t.push(acc as u32);
            }
        }
    }
    t
}

/// The number of tuples of tier `s` (entries in `0..r`, sum `s`) lexicographically below `v`, for any
/// integer vector `v` of length `n`.
pub fn count_below(rk: &Ranking, v: &[i64], s: usize) -> u64 {
    let (n, r) = rk.shape();
    let mut rest = s as i64;
    let mut total = 0u64;
    for (p, &vp) in v.iter().enumerate().take(n) {
        let j = n - p - 1;
        // Tuples that agree with v before p and have a smaller entry u at p.
        let hi = vp.min(r as i64).min(rest + 1);
        for u in 0..hi.max(0) {
            total += rk.compositions(j, (rest - u) as usize);
        }
        if vp < 0 || vp >= r as i64 || vp > rest {
            return total;
        }
        rest -= vp;
    }
    total
}

/// The number of tuples of tier `s` lexicographically at most `v`.
fn count_at_most(rk: &Ranking, v: &[i64], s: usize) -> u64 {
    let (_, r) = rk.shape();
    let inside = v.iter().all(|&x| (0..r as i64).contains(&x)) && v.iter().sum::<i64>() == s as i64;
    count_below(rk, v, s) + inside as u64
}

/// A slab: lines `first .. first + lines` of `tier`, reading lines `base .. base + span` of the tier
/// below.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Slab {
    pub tier: usize,
    pub first: u64,
    pub lines: u64,
    pub base: u64,
    pub span: u64,
}

/// The span `(base, span)` of tier `t - 1` read by lines `first .. first + lines` of tier `t >= 1`.
fn span(rk: &Ranking, t: usize, first: u64, lines: u64) -> (u64, u64) {
    let (n, _) = rk.shape();
    let mut lo = vec![0u32; n];
    let mut hi = vec![0u32; n];
    rk.unrank(first, t, &mut lo);
    rk.unrank(first + lines - 1, t, &mut hi);
    let (mut base, mut end) = (u64::MAX, 0u64);
    for a in 0..n {
        let mut v: Vec<i64> = lo.iter().map(|&x| x as i64).collect();
        v[a] -= 1;
        base = base.min(count_below(rk, &v, t - 1));
        let mut w: Vec<i64> = hi.iter().map(|&x| x as i64).collect();
        w[a] -= 1;
        end = end.max(count_at_most(rk, &w, t - 1));
    }
    if n == 0 || end <= base {
        (0, 0)
    } else {
        (base, end - base)
    }
}

/// Splits tier `t` into slabs of at most `max_lines` lines whose spans hold at most `max_span` lines;
/// `Err(span)` when even one line reads more than `max_span` lines.
pub fn slabs(rk: &Ranking, t: usize, max_lines: u64, max_span: u64) -> Result<Vec<Slab>, u64> {
    let size = rk.size(t);
    let mut out = Vec::new();
    let mut first = 0u64;
    while first < size {
        let mut lines = max_lines.max(1).min(size - first);
        loop {
            let (base, span) = if t == 0 {
                (0, 0)
            } else {
                span(rk, t, first, lines)
            };
            if span <= max_span {
                out.push(Slab {
                    tier: t,
                    first,
                    lines,
                    base,
                    span,
                });
                break;
            }
            if lines == 1 {
                return Err(span);
            }
            lines = lines.div_ceil(2);
        }
        first += lines;
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every tuple of `n` entries in `0..r`, by tier, in lexicographic order.
    fn by_tier(n: usize, r: usize) -> Vec<Vec<Vec<u32>>> {
        let rk = Ranking::new(n, r);
        let mut out = vec![Vec::new(); rk.tiers()];
        for i in 0..(r as u64).pow(n as u32) {
            let mut x = vec![0u32; n];
            let mut v = i;
            for p in (0..n).rev() {
                x[p] = (v % r as u64) as u32;
                v /= r as u64;
            }
            out[x.iter().sum::<u32>() as usize].push(x);
        }
        out
    }

    #[test]
    fn skip_table_counts_smaller_entries() {
        for (n, r) in [(1, 4), (3, 3), (4, 5)] {
            let rk = Ranking::new(n, r);
            let t = skip_table(&rk);
            let top = n * (r - 1);
            for j in 0..n {
                for s in 0..=top {
                    for v in 0..=r {
                        let want: u64 = (0..v.min(s + 1)).map(|u| rk.compositions(j, s - u)).sum();
                        assert_eq!(t[(j * (top + 1) + s) * (r + 1) + v] as u64, want);
                    }
                }
            }
        }
    }

    #[test]
    fn count_below_is_the_rank_of_any_vector() {
        let (n, r) = (4, 4);
        let rk = Ranking::new(n, r);
        let tiers = by_tier(n, r);
        // Vectors with entries -1..=r, against every tier.
        let span = r as i64 + 2;
        for i in 0..span.pow(n as u32) {
            let mut v = vec![0i64; n];
            let mut k = i;
            for p in (0..n).rev() {
                v[p] = k % span - 1;
                k /= span;
            }
            for (s, tuples) in tiers.iter().enumerate() {
                let want = tuples
                    .iter()
                    .filter(|x| x.iter().map(|&e| e as i64).lt(v.iter().copied()))
                    .count() as u64;
                assert_eq!(count_below(&rk, &v, s), want, "{v:?} tier {s}");
            }
        }
    }

    /// Every neighbour of every line of every slab lies in the slab's span, for slab sizes from one
    /// line up.
    #[test]
    fn slabs_cover_each_tier_and_their_spans_hold_every_neighbour() {
        for (n, r) in [(1, 6), (3, 5), (5, 4)] {
            let rk = Ranking::new(n, r);
            let tiers = by_tier(n, r);
            for max_lines in [1, 3, 17, 1000] {
                for (t, tuples) in tiers.iter().enumerate() {
                    let s = slabs(&rk, t, max_lines, u64::MAX).unwrap();
                    assert_eq!(s.iter().map(|x| x.lines).sum::<u64>(), tuples.len() as u64);
                    for slab in s {
                        assert!(slab.lines <= max_lines);
                        for rank in slab.first..slab.first + slab.lines {
                            let x = &tuples[rank as usize];
                            for a in 0..n {
                                if x[a] > 0 {
                                    let mut y = x.clone();
                                    y[a] -= 1;
                                    let nb = rk.rank(&y, t - 1);
                                    assert!(
                                        (slab.base..slab.base + slab.span).contains(&nb),
                                        "n {n} r {r} tier {t} {slab:?} {x:?} axis {a}"
                                    );
                                }
                            }
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn a_span_too_wide_for_one_line_is_refused() {
        let rk = Ranking::new(3, 8);
        assert!(slabs(&rk, 10, 4, 1).is_err());
        assert!(slabs(&rk, 0, 4, 0).is_ok());
    }
}
