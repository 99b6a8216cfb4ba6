//! Sorted tuples: the classes of the positions of a box `[0..r)^m` under every permutation of the
//! stacks, for the engines of games that every permutation keeps (Nim, Moore's Nim_k, a complex of
//! all the j-sets): [`Ranks`] lists a tier's sorted tuples (entries summing to `s`) in order and
//! counts a tuple's place among them, and its colex rank among all sorted tuples; [`Windows`] gives
//! each window as a mask and its image under each swap of two stacks.
//!
//! A look-up `x - e_i` of a sorted `x` is sorted unless `x_{i-1} = x_i`; then with `i'` the first
//! place holding `x_i`, `x - e_i = t(x - e_{i'})` for the swap `t` of `i` and `i'`, and `x - e_{i'}`
//! is sorted: what the engines keep of window `w` at `x - e_i` is what they keep of `t w` at
//! `x - e_{i'}` ([`first_places`]).

use crate::checkpoint::{self as ck, Progress, Saver};
use std::io::{self, Read, Write};

/// Most stacks: a sorted tuple is a fixed array.
pub(crate) const MAX_M: usize = 16;

/// Largest count table ([`Ranks`]), in entries (8 bytes each): `m * (r + 1) * (m (r - 1) + 1)`.
const MAX_TABLE: f64 = 1e7;

/// True when the sorted tuples of `[0..r)^m` can stand for the window game with `windows` (tuple
/// indices): three stacks or more, some window with a stack, every swap of two stacks mapping the
/// windows onto themselves, and a count table of reasonable size. (The engines also ask whether the
/// symmetry is on.)
pub(crate) fn fits(m: usize, r: usize, windows: &[Vec<usize>]) -> bool {
    (3..=MAX_M).contains(&m)
        && (1..=1 << 16).contains(&r)
        && windows.iter().any(|w| !w.is_empty())
        && table_entries(m, r) <= MAX_TABLE
        && (1..m).all(|i| {
            let mut swap: Vec<usize> = (0..m).collect();
            swap.swap(i - 1, i);
            crate::lines::maps_windows_onto_themselves(windows, &swap)
        })
}

pub(crate) fn table_entries(m: usize, r: usize) -> f64 {
    let (m, r) = (m as f64, r as f64);
    m * (r + 1.0) * (m * (r - 1.0) + 1.0)
}

/// `C(r + m - 1, m)`, the number of sorted tuples of `[0..r)^m`, as a float.
pub(crate) fn classes(m: usize, r: usize) -> f64 {
    (0..m).fold(1.0, |c, i| c * (r + i) as f64 / (i + 1) as f64)
}

/// The number of orderings of the sorted tuple `x`: `m! / prod (multiplicity of each value)!`.
pub(crate) fn orbit(x: &[u16]) -> u64 {
    let mut n = 1u64;
    let mut run = 0u64;
    for (i, &v) in x.iter().enumerate() {
        run = if i > 0 && x[i - 1] == v { run + 1 } else { 1 };
        // n * (i + 1) / run stays whole: n counts the orderings of the first i + 1 entries.
        n = n * (i as u64 + 1) / run;
    }
    n
}

/// For each stack `i` of the sorted `x` with `x_i > 0`: the first place `first[i]` holding `x_i`,
/// and for each such first place `j` the place `place[j]` of `x - e_j` in the tier below.
pub(crate) fn first_places(
    rk: &Ranks,
    x: &[u16],
    first: &mut [usize; MAX_M],
    place: &mut [usize; MAX_M],
) {
    let m = x.len();
    let mut y = [0u16; MAX_M];
    y[..m].copy_from_slice(x);
    for i in 0..m {
        if x[i] == 0 {
            continue;
        }
        if i > 0 && x[i - 1] == x[i] {
            first[i] = first[i - 1];
            continue;
        }
        first[i] = i;
        y[i] -= 1;
        place[i] = rk.rank(&y[..m]);
        y[i] += 1;
    }
}

/// What a sorted sweep's checkpoints start with: the sweep's section tag and four fields of the run
/// that a checkpoint must match (named in the refusal), then the last finished tier.
pub(crate) struct Head {
    pub(crate) tag: u64,
    pub(crate) fields: [(u64, &'static str); 4],
}

impl Head {
    /// Saves a checkpoint after tier `s` of `rk`: the head, the tier, then what `body` writes.
    pub(crate) fn save(
        &self,
        sv: &mut dyn Saver,
        rk: &Ranks,
        s: usize,
        (done, total): (u64, u64),
        body: &mut dyn FnMut(&mut dyn Write) -> io::Result<()>,
    ) {
        let stage = format!("tier {} of {} (sorted positions)", s + 1, rk.smax + 1);
        sv.save(Progress { done, total, stage }, &mut |w: &mut dyn Write| {
            ck::put_u64(w, self.tag)?;
            for (x, _) in self.fields {
                ck::put_u64(w, x)?;
            }
            ck::put_u64(w, s as u64)?;
            body(w)
        });
    }

    /// Reads a checkpoint's head, refusing another sweep's or another run's; returns its tier.
    pub(crate) fn read(&self, rd: &mut dyn Read, rk: &Ranks) -> io::Result<usize> {
        ck::expect(rd, self.tag, "section")?;
        for (x, what) in self.fields {
            ck::expect(rd, x, what)?;
        }
        ck::get_len(rd, rk.smax.saturating_sub(1))
    }
}

/// Bytes of the count tables of [`Ranks::new`].
pub(crate) fn ranks_bytes(m: usize, r: usize) -> f64 {
    8.0 * (table_entries(m, r) + ((r + m) * (m + 2)) as f64)
}

/// The counts behind the ranks: `cnt[(j, u, s)]` is the number of sorted `(j+1)`-tuples whose
/// largest entry is below `u` and whose entries sum to `s` (for `1 <= j < m`, `u <= r`), and
/// `binom[n][k] = C(n, k)` for the colex ranks.
pub(crate) struct Ranks {
    pub(crate) m: usize,
    pub(crate) r: usize,
    pub(crate) smax: usize,
    cnt: Vec<u64>,
    pub(crate) binom: Vec<Vec<u64>>,
}

impl Ranks {
    pub(crate) fn new(m: usize, r: usize) -> Ranks {
        let smax = m * (r - 1);
        let width = smax + 1;
        // n[v * width + t]: sorted j-tuples with entries in [0..=v] summing to t, for the current j.
        let mut n = vec![0u64; r * width];
        for v in 0..r {
            n[v * width] = 1; // j = 0: the empty tuple.
        }
        let mut cnt = vec![0u64; m * (r + 1) * width];
        for j in 1..m {
            // n for j: the largest entry w <= v, the rest a sorted (j-1)-tuple in [0..=w].
            let mut next = vec![0u64; r * width];
            for v in 0..r {
                for t in 0..width {
                    let below = if v > 0 { next[(v - 1) * width + t] } else { 0 };
                    let top = if t >= v { n[v * width + t - v] } else { 0 };
                    next[v * width + t] = below.saturating_add(top);
                }
            }
            n = next;
            // cnt for j: tuples (y_0..y_j), y_j = v < u, the rest a sorted j-tuple in [0..=v].
            for s in 0..width {
                let mut acc = 0u64;
                for u in 0..=r {
                    cnt[(j * (r + 1) + u) * width + s] = acc;
                    if u < r && s >= u {
                        acc = acc.saturating_add(n[u * width + s - u]);
                    }
                }
            }
        }
        let mut binom = vec![vec![0u64; m + 2]; r + m + 1];
        for row in binom.iter_mut() {
            row[0] = 1;
        }
        for i in 1..=r + m {
            for k in 1..=m + 1 {
                binom[i][k] = binom[i - 1][k - 1].saturating_add(binom[i - 1][k]);
            }
        }
        Ranks {
            m,
            r,
            smax,
            cnt,
            binom,
        }
    }

    fn c(&self, j: usize, u: usize, s: usize) -> u64 {
        self.cnt[(j * (self.r + 1) + u) * (self.smax + 1) + s]
    }

    /// The number of sorted tuples in tier `s`.
    pub(crate) fn tier_len(&self, s: usize) -> usize {
        self.c(self.m - 1, self.r, s) as usize
    }

    pub(crate) fn widest(&self) -> usize {
        (0..=self.smax).map(|s| self.tier_len(s)).max().unwrap_or(0)
    }

    /// The place of the sorted tuple `x` in its tier.
    pub(crate) fn rank(&self, x: &[u16]) -> usize {
        let mut sum = x[0] as usize;
        let mut at = 0u64;
        for (j, &xj) in x.iter().enumerate().skip(1) {
            sum += xj as usize;
            at += self.c(j, xj as usize, sum);
        }
        at as usize
    }

    /// The colex rank of the sorted tuple `x` among all sorted tuples of the box.
    pub(crate) fn colex(&self, x: &[u16]) -> usize {
        x.iter()
            .enumerate()
            .map(|(i, &xi)| self.binom[xi as usize + i][i + 1] as usize)
            .sum()
    }

    /// The sorted tuples of tier `s`, in their order, `m` entries each.
    pub(crate) fn tier(&self, s: usize) -> Vec<u16> {
        let mut out = Vec::with_capacity(self.tier_len(s) * self.m);
        let mut x = [0u16; MAX_M];
        self.fill(self.m - 1, self.r - 1, s, &mut x, &mut out);
        out
    }

    /// Entries `0..=j`, each at most `max` (and at most the entry above), summing to `sum`.
    fn fill(&self, j: usize, max: usize, sum: usize, x: &mut [u16; MAX_M], out: &mut Vec<u16>) {
        if j == 0 {
            if sum <= max {
                x[0] = sum as u16;
                out.extend_from_slice(&x[..self.m]);
            }
            return;
        }
        // The j + 1 entries are at most x_j: x_j >= sum / (j + 1).
        for v in sum.div_ceil(j + 1)..=max.min(sum) {
            x[j] = v as u16;
            self.fill(j - 1, v, sum - v, x, out);
        }
    }
}

/// What the sweep needs of the windows: each as a bit mask of stacks, and the window `t w` for
/// each swap `t` of two stacks `i' < i`.
pub(crate) struct Windows {
    pub(crate) masks: Vec<u32>,
    pub(crate) swapped: Vec<Vec<u32>>,
}

impl Windows {
    /// The look-ups of window `wi` at the sorted `x` ([`first_places`] gave `first` and `place`):
    /// for each stack `i` of the window with `x_i > 0`, the place in the tier below of the tuple to
    /// read and the window whose record to read there.
    pub(crate) fn lookups<'a>(
        &'a self,
        wi: usize,
        x: &'a [u16],
        first: &'a [usize; MAX_M],
        place: &'a [usize; MAX_M],
    ) -> impl Iterator<Item = (usize, usize)> + 'a {
        let m = x.len();
        let mut bits = self.masks[wi];
        std::iter::from_fn(move || {
            while bits != 0 {
                let i = bits.trailing_zeros() as usize;
                bits &= bits - 1;
                if x[i] > 0 {
                    let ip = first[i];
                    let w = if ip == i {
                        wi
                    } else {
                        self.swapped[i * m + ip][wi] as usize
                    };
                    return Some((place[ip], w));
                }
            }
            None
        })
    }

    pub(crate) fn new(m: usize, windows: &[Vec<usize>]) -> Windows {
        let mut masks: Vec<u32> = windows
            .iter()
            .map(|w| w.iter().fold(0u32, |a, &i| a | 1 << i))
            .collect();
        masks.sort_unstable();
        masks.dedup();
        let index = |mask: u32| masks.iter().position(|&x| x == mask).expect("closed");
        let mut swapped = vec![Vec::new(); m * m];
        for i in 0..m {
            for ip in 0..i {
                swapped[i * m + ip] = masks
                    .iter()
                    .map(|&w| {
                        let (bi, bp) = (w >> i & 1, w >> ip & 1);
                        let t = (w & !(1 << i) & !(1 << ip)) | bi << ip | bp << i;
                        index(t) as u32
                    })
                    .collect();
            }
        }
        Windows { masks, swapped }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The ranks against the tiers listed one by one, and the colex ranks against the sorted
    /// tuples listed in colex order.
    #[test]
    fn ranks_count_places() {
        for (m, r) in [(3, 7), (4, 5), (5, 4), (6, 3)] {
            let rk = Ranks::new(m, r);
            let mut all = Vec::new();
            for s in 0..=rk.smax {
                let t = rk.tier(s);
                assert_eq!(t.len() / m, rk.tier_len(s), "m {m} r {r} tier {s}");
                for (k, x) in t.chunks(m).enumerate() {
                    assert!(x.windows(2).all(|p| p[0] <= p[1]));
                    assert_eq!(x.iter().map(|&v| v as usize).sum::<usize>(), s);
                    assert_eq!(rk.rank(x), k, "{x:?}");
                    all.push(x.to_vec());
                }
            }
            assert_eq!(all.len(), classes(m, r) as usize);
            // Colex: by the last entry, then the one before, ...
            all.sort_by(|a, b| a.iter().rev().cmp(b.iter().rev()));
            for (k, x) in all.iter().enumerate() {
                assert_eq!(rk.colex(x), k, "{x:?}");
            }
        }
    }
}
