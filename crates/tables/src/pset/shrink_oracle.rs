//! SCN's moves that empty piles, as a [`LineOracle`] of the line engine: a move that empties the
//! piles `Z` of a window lands in a shorter circle, and the options it offers are answered by a
//! dominance query `D_arc` on that circle's table ([`LenTable`], one table per arc that longer
//! circles read). `ShrinkOracle::packed` (feature `gpu`) hands the same oracle to the GPU's P-set kernel.

use super::cyclic_windows;
use crate::lines::LineOracle;
use rayon::prelude::*;
use std::collections::HashMap;

/// No P-position on a line (an offset or a prefix start).
pub(super) const NONE: u16 = u16::MAX;

/// The arcs (bit masks of tuple indices) of the circle of `mm` piles that the moves of the longer
/// circles of SCN(n,k) read: those of [`vanishings`] that keep `mm` piles.
pub(super) fn arcs_read(mm: usize, n: usize, k: usize) -> Vec<u64> {
    let mut arcs: Vec<u64> = (mm + 1..=n)
        .flat_map(|m| vanishings(m, k))
        .filter(|v| v.kept.len() == mm && v.arc != 0)
        .map(|v| v.arc)
        .collect();
    arcs.sort_unstable();
    arcs.dedup();
    arcs
}

/// The arc of the circle of `mm` piles reflected about its last pile (the line's axis): pile `j`
/// of the arc goes to `mm - 2 - j`, the last pile stays. `D` of the reflected arc at a line is `D`
/// of the arc at the reflected line, so one table serves both.
fn mirror_arc(arc: u64, mm: usize) -> u64 {
    (0..mm)
        .filter(|&j| arc >> j & 1 == 1)
        .fold(0, |a, j| a | 1 << if j + 1 == mm { j } else { mm - 2 - j })
}

/// The arcs of [`arcs_read`] whose tables are kept: one of each pair of mirror arcs.
pub(super) fn arcs_kept(mm: usize, n: usize, k: usize) -> Vec<u64> {
    let read = arcs_read(mm, n, k);
    read.iter()
        .copied()
        .filter(|&a| {
            let b = mirror_arc(a, mm);
            a <= b || !read.contains(&b)
        })
        .collect()
}

/// `D_arc` of one arc over every line of a circle length: "some P-position below agrees outside the
/// arc". When the arc holds the last pile (the line's axis) it is a prefix of the line, stored as its
/// start. Otherwise the P-positions below that agree outside the arc and sit at offset `j` of their
/// line form an antichain on the arc, so one entry `c` of the arc says it all: `Mins` keeps, at the
/// line whose entry `c` is replaced by `j`, the least entry `c` of those P-positions ([`NONE`] when
/// there are none), and `D_arc` holds at offset `j` of line `x` exactly when that entry is at most
/// `x_c`. Two bytes a line, where a bit set takes `r / 8`.
enum ArcTable {
    Starts(Vec<u16>),
    Mins {
        /// The entry of the arc (tuple index) that the table minimizes.
        c: usize,
        t: Vec<u16>,
    },
}

/// The P-lines of one circle length of SCN, and `D_arc` for the arcs that longer circles read.
pub(super) struct LenTable {
    m: usize,
    /// The P-position's offset on each line (last entry lo + offset), or [`NONE`], by lexicographic
    /// index of the other entries.
    pub(super) p: Vec<u16>,
    /// D tables by arc (bit mask of tuple indices), one of each mirror pair ([`arcs_kept`]).
    arcs: HashMap<u64, ArcTable>,
}

impl LenTable {
    pub(super) fn empty() -> LenTable {
        LenTable {
            m: 0,
            p: Vec::new(),
            arcs: HashMap::new(),
        }
    }

    /// The table of `arc`, and whether it is its mirror's ([`mirror_arc`]), read at the reflected
    /// line.
    fn arc(&self, arc: u64) -> Option<(&ArcTable, bool)> {
        match self.arcs.get(&arc) {
            Some(t) => Some((t, false)),
            None => self.arcs.get(&mirror_arc(arc, self.m)).map(|t| (t, true)),
        }
    }

    /// `arcs`: the arcs whose tables are kept ([`arcs_kept`]).
    pub(super) fn new(m: usize, r: usize, p: Vec<u16>, arcs: &[u64]) -> LenTable {
        let strides: Vec<usize> = (0..m.saturating_sub(1))
            .map(|i| r.pow((m - 2 - i) as u32))
            .collect();
        let arcs = arcs
            .par_iter()
            .map(|&mask| {
                let mut c = vec![0usize; m.saturating_sub(1)];
                let lowered: Vec<usize> = (0..c.len()).filter(|&i| mask >> i & 1 == 1).collect();
                let table = if mask >> (m - 1) & 1 == 1 {
                    // Every value above the lowest one reached lowers to it: a prefix.
                    let mut d = vec![NONE; p.len()];
                    for idx in 0..p.len() {
                        let mut s = p[idx];
                        for &i in &lowered {
                            if c[i] > 0 {
                                s = s.min(d[idx - strides[i]]);
                            }
                        }
                        d[idx] = s;
                        odometer(&mut c, r);
                    }
                    ArcTable::Starts(d)
                } else {
                    // The arc's highest entry is minimized; the others are lowered as a prefix.
                    let ci = 63 - mask.leading_zeros() as usize;
                    let sc = strides[ci];
                    let mut t = vec![NONE; p.len()];
                    for (idx, &j) in p.iter().enumerate() {
                        if j != NONE {
                            let yc = idx / sc % r;
                            let to = idx - yc * sc + j as usize * sc;
                            t[to] = t[to].min(yc as u16);
                        }
                    }
                    let others: Vec<usize> = lowered.iter().copied().filter(|&i| i != ci).collect();
                    if !others.is_empty() {
                        for idx in 0..t.len() {
                            let mut s = t[idx];
                            for &i in &others {
                                if c[i] > 0 {
                                    s = s.min(t[idx - strides[i]]);
                                }
                            }
                            t[idx] = s;
                            odometer(&mut c, r);
                        }
                    }
                    ArcTable::Mins { c: ci, t }
                };
                (mask, table)
            })
            .collect();
        LenTable { m, p, arcs }
    }
}

/// The next tuple of `[0..r)^len` in lexicographic order (the last entry fastest).
fn odometer(c: &mut [usize], r: usize) {
    for i in (0..c.len()).rev() {
        c[i] += 1;
        if c[i] < r {
            break;
        }
        c[i] = 0;
    }
}

/// A move that empties the piles `Z` of a window and lowers the rest of it, for one circle length.
pub(crate) struct Vanish {
    /// Tuple indices of the piles kept, in order (they form the smaller circle).
    pub kept: Vec<usize>,
    /// The lowered piles, as a mask of indices into `kept`.
    pub arc: u64,
}

/// The moves of SCN(m,k) that empty piles, sorted by the piles kept. The options of one kept set and
/// arc are the positions below the contracted position on the arc, so they grow with the arc (the
/// empty arc: the contracted position itself): only the largest arcs of each kept set are listed.
pub(crate) fn vanishings(m: usize, k: usize) -> Vec<Vanish> {
    let mut out = Vec::new();
    for w in cyclic_windows(m, k) {
        let wmask = w.iter().fold(0u64, |a, &i| a | 1 << i);
        // Every non-empty subset Z of the window.
        let mut z = wmask;
        while z != 0 {
            let kept: Vec<usize> = (0..m).filter(|&i| z >> i & 1 == 0).collect();
            let arc = kept
                .iter()
                .enumerate()
                .filter(|&(_, &i)| wmask >> i & 1 == 1)
                .fold(0u64, |a, (j, _)| a | 1 << j);
            out.push(Vanish { kept, arc });
            z = (z - 1) & wmask;
        }
    }
    out.sort_by(|a, b| (&a.kept, a.arc).cmp(&(&b.kept, b.arc)));
    out.dedup_by(|a, b| a.kept == b.kept && a.arc == b.arc);
    let covered = |v: &Vanish| {
        out.iter()
            .any(|u| u.kept == v.kept && u.arc != v.arc && u.arc & v.arc == v.arc)
    };
    let keep: Vec<bool> = out.iter().map(|v| !covered(v)).collect();
    let mut keep = keep.into_iter();
    out.retain(|_| keep.next().unwrap());
    out
}

/// What a move that empties piles reads of a shorter circle, per line of that circle.
#[derive(Clone, Copy)]
enum Reach<'t> {
    /// The contracted position itself (no pile of the window kept below its value): the P-offsets.
    Point(&'t [u16]),
    /// `D_arc` with the line's axis in the arc: prefix starts.
    From(&'t [u16]),
    /// `D_arc` without it: least entries (`ArcTable::Mins`), read at the line whose entry `c` is
    /// the offset asked about, against the value of pile `i` of the longer circle; `s` is the stride
    /// of entry `c` and `bits` rebuilds the bit sets (`r` values) for the GPU.
    Below {
        t: &'t [u16],
        i: usize,
        s: usize,
        #[cfg_attr(not(feature = "gpu"), allow(dead_code))]
        r: usize,
    },
}

/// One way of emptying piles: zero `Z`, lower the rest of the window.
struct Zeroing<'t> {
    /// The table queried (length m - |Z| > 0), for the arc.
    reach: Reach<'t>,
    /// (tuple index of the m-circle, stride in the smaller table) of the kept entries but the last
    /// (and but the minimized entry of a `Reach::Below`).
    coef: Vec<(usize, usize)>,
    /// When the last pile of the circle is emptied: the tuple index whose value picks the bit.
    bit_from: Option<usize>,
}

/// The moves out of the box of one circle length (see the module notes).
pub(crate) struct ShrinkOracle<'t> {
    m: usize,
    /// Words per line.
    #[cfg(feature = "gpu")]
    l: usize,
    /// Some move empties the circle and the empty circle is P: every position is N.
    all_n: bool,
    zeroings: Vec<Zeroing<'t>>,
}

impl<'t> ShrinkOracle<'t> {
    pub(super) fn new(
        m: usize,
        k: usize,
        r: usize,
        lower: &'t [LenTable],
        empty_p: bool,
    ) -> ShrinkOracle<'t> {
        let mut zeroings = Vec::new();
        let mut all_n = false;
        for v in vanishings(m, k) {
            let mp = v.kept.len();
            if mp == 0 {
                all_n |= empty_p;
                continue;
            }
            let t = &lower[mp];
            debug_assert_eq!(t.m, mp);
            if !t.p.iter().any(|&j| j != NONE) {
                // A circle length with no P-position: no move into it wins.
                continue;
            }
            let last_zeroed = !v.kept.contains(&(m - 1));
            let (table, mirrored) = match t.arc(v.arc) {
                _ if v.arc == 0 => (None, false),
                Some((table, mirrored)) => (Some(table), mirrored),
                None => {
                    unreachable!("arcs_kept keeps every arc a longer circle reads or its mirror")
                }
            };
            // Entry j of the shorter circle (but the last) has stride r^(mp-2-j); read through the
            // mirror table it sits at mp-2-j, of stride r^j.
            let mut coef: Vec<(usize, usize)> = v.kept[..mp - 1]
                .iter()
                .enumerate()
                .map(|(j, &i)| (i, r.pow(if mirrored { j } else { mp - 2 - j } as u32)))
                .collect();
            let reach = match table {
                None => Reach::Point(&t.p),
                Some(ArcTable::Starts(s)) => Reach::From(s),
                Some(ArcTable::Mins { c, t }) => {
                    // The kept entry that sits at the table's entry c.
                    let j = if mirrored { mp - 2 - c } else { *c };
                    let (i, s) = coef.remove(j);
                    Reach::Below { t, i, s, r }
                }
            };
            zeroings.push(Zeroing {
                reach,
                coef,
                bit_from: last_zeroed.then(|| v.kept[mp - 1]),
            });
        }
        ShrinkOracle {
            m,
            #[cfg(feature = "gpu")]
            l: r.div_ceil(64),
            all_n,
            zeroings,
        }
    }
}

impl ShrinkOracle<'_> {
    /// This oracle as one array of 32-bit words for the GPU's P-set kernel (`scn_mask` in
    /// `gpu/pset.wgsl`), so the masks of moves that empty piles are computed on the device; `None`
    /// when it does not fit 32-bit offsets. Layout: `[zeroings, all_n, offset of each zeroing's
    /// descriptor...]`, then per zeroing `[kind, offset of its table, the tuple index of `bit_from` or
    /// `u32::MAX`, number of coefficients, (tuple index, stride)...]`, then the tables, each once.
    /// Kinds: 0 P-offsets and 1 prefix starts, two-byte entries two to a word (low half first); for
    /// `Reach::Below`, 2 the bit sets rebuilt (a line of `l` 64-bit words, each as two words, low half
    /// first; the minimized entry's (tuple index, stride) is the last coefficient) or 3 the least
    /// entries themselves, two-byte entries that the kernel reads once per offset of the line (the
    /// minimized entry's (tuple index, stride) follows the coefficients, not counted). Bit sets take
    /// `4 l` times the bytes of least entries and are read once per line: they are kept while the
    /// whole array stays within `bit_set_bytes`, the largest tables turned into least entries first.
    #[cfg(feature = "gpu")]
    pub(crate) fn packed(&self, bit_set_bytes: u64) -> Option<Vec<u32>> {
        let l = self.l;
        let z = self.zeroings.len();
        // Bytes of each table, by address (several zeroings read the same one): as two-byte entries,
        // and as bit sets for those of `Reach::Below`.
        let mut sizes: HashMap<usize, (u64, Option<u64>)> = HashMap::new();
        for zr in &self.zeroings {
            let (t, below) = match zr.reach {
                Reach::Point(t) | Reach::From(t) => (t, false),
                Reach::Below { t, .. } => (t, true),
            };
            let halves = t.len().div_ceil(2) as u64 * 4;
            let bits = below.then_some(t.len() as u64 * l as u64 * 8);
            sizes.insert(t.as_ptr() as usize, (halves, bits));
        }
        // Bit sets where the budget allows, the largest turned into least entries first.
        let mut total: u64 = sizes.values().map(|&(h, b)| b.unwrap_or(h)).sum();
        let mut by_size: Vec<(u64, usize)> = sizes
            .iter()
            .filter_map(|(&a, &(_, b))| b.map(|b| (b, a)))
            .collect();
        by_size.sort_unstable_by(|a, b| b.cmp(a));
        let mut least = std::collections::HashSet::new();
        for (bits, addr) in by_size {
            if total <= bit_set_bytes {
                break;
            }
            total -= bits - sizes[&addr].0;
            least.insert(addr);
        }
        let mut head = vec![z as u32, self.all_n as u32];
        head.resize(2 + z, 0);
        let mut descs: Vec<Vec<u32>> = Vec::with_capacity(z);
        let mut tables: Vec<u32> = Vec::new();
        // Tables already packed, by address.
        let mut placed: HashMap<usize, u32> = HashMap::new();
        let mut place = |addr: usize, words: &mut dyn FnMut(&mut Vec<u32>)| -> u32 {
            *placed.entry(addr).or_insert_with(|| {
                let at = tables.len() as u32;
                words(&mut tables);
                at
            })
        };
        let halves = |t: &[u16], out: &mut Vec<u32>| {
            out.extend(
                t.chunks(2)
                    .map(|c| c[0] as u32 | (*c.get(1).unwrap_or(&NONE) as u32) << 16),
            )
        };
        for zr in &self.zeroings {
            let mut coef = zr.coef.clone();
            let mut tail = Vec::new();
            let (kind, at) = match zr.reach {
                Reach::Point(t) | Reach::From(t) => {
                    let kind = matches!(zr.reach, Reach::From(_)) as u32;
                    (kind, place(t.as_ptr() as usize, &mut |out| halves(t, out)))
                }
                Reach::Below { t, i, s, .. } if least.contains(&(t.as_ptr() as usize)) => {
                    tail.extend([i as u32, u32::try_from(s).ok()?]);
                    (3, place(t.as_ptr() as usize, &mut |out| halves(t, out)))
                }
                Reach::Below { t, i, s, r } => {
                    // The bit sets, rebuilt: bit j of a line is set when the least entry at the
                    // line with entry c replaced by j is at most the line's own entry c.
                    coef.push((i, s));
                    let at = place(t.as_ptr() as usize, &mut |out| {
                        let from = out.len();
                        out.resize(from + t.len() * 2 * l, 0);
                        out[from..]
                            .par_chunks_mut(2 * l)
                            .enumerate()
                            .for_each(|(idx, w)| {
                                let xc = idx / s % r;
                                let base = idx - xc * s;
                                for j in (0..r).filter(|&j| (t[base + j * s] as usize) <= xc) {
                                    w[j / 32] |= 1 << (j % 32);
                                }
                            });
                    });
                    (2, at)
                }
            };
            let mut d = vec![
                kind,
                at,
                zr.bit_from.map_or(u32::MAX, |i| i as u32),
                coef.len() as u32,
            ];
            for &(i, stride) in &coef {
                d.extend([i as u32, u32::try_from(stride).ok()?]);
            }
            d.extend(tail);
            descs.push(d);
        }
        let mut at = head.len();
        for (i, d) in descs.iter().enumerate() {
            head[2 + i] = at as u32;
            at += d.len();
        }
        // Table offsets become offsets in the whole array.
        for d in &mut descs {
            d[1] = d[1].checked_add(at as u32)?;
        }
        u32::try_from(at + tables.len()).ok()?;
        head.extend(descs.into_iter().flatten());
        head.extend(tables);
        Some(head)
    }
}

impl LineOracle for ShrinkOracle<'_> {
    /// A reflection of the circle maps each move that empties piles onto another (the circle
    /// contracted is reflected too, and a reflected circle has the same P-positions reflected).
    fn invariant_under(&self, perm: &[usize]) -> bool {
        let m = self.m;
        perm.len() == m && (0..m).all(|i| perm[i] == (m - i) % m)
    }

    fn n_at(&self, x: &[u32], j: usize) -> bool {
        if self.all_n {
            return true;
        }
        let m = self.m;
        self.zeroings.iter().any(|z| {
            let mut idx = 0usize;
            for &(i, s) in &z.coef {
                idx += x[m - 1 - i] as usize * s;
            }
            // When the last pile is emptied, pile i picks the bit of the smaller circle's line,
            // whatever j is.
            let b = z.bit_from.map_or(j, |i| x[m - 1 - i] as usize);
            match z.reach {
                Reach::Point(p) => p[idx] as usize == b,
                Reach::From(s) => s[idx] != NONE && (s[idx] as usize) <= b,
                Reach::Below { t, i, s, .. } => {
                    let least = t[idx + b * s];
                    least != NONE && least as usize <= x[m - 1 - i] as usize
                }
            }
        })
    }
}

#[cfg(all(test, feature = "gpu"))]
mod tests {
    use super::*;

    /// The mask of the line at `x` (engine coordinates) that `scn_mask` of `gpu/pset.wgsl` computes
    /// from `packed`, read the same way, as `l` 64-bit words.
    fn mask(packed: &[u32], x: &[u32], m: usize, r: usize, l: usize) -> Vec<u64> {
        let full = vec![!0u64; l];
        if packed[1] != 0 {
            return full;
        }
        let half = |at: usize, idx: usize| (packed[at + idx / 2] >> (idx % 2 * 16)) & 0xffff;
        let entry = |i: u32| x[m - 1 - i as usize] as usize;
        let mut out = vec![0u64; l];
        for z in 0..packed[0] as usize {
            let d = packed[2 + z] as usize;
            let (kind, at, bit_from, nc) = (
                packed[d],
                packed[d + 1] as usize,
                packed[d + 2],
                packed[d + 3] as usize,
            );
            let idx: usize = (0..nc)
                .map(|c| entry(packed[d + 4 + 2 * c]) * packed[d + 5 + 2 * c] as usize)
                .sum();
            // Least entries: the entry compared and the stride of the offset, after the coefficients.
            let (xi, s) = if kind == 3 {
                (
                    entry(packed[d + 4 + 2 * nc]),
                    packed[d + 5 + 2 * nc] as usize,
                )
            } else {
                (0, 0)
            };
            let word = |k: usize| {
                let w = at + 2 * (l * idx + k);
                packed[w] as u64 | (packed[w + 1] as u64) << 32
            };
            let of = |j: usize| -> bool {
                match kind {
                    0 => half(at, idx) as usize == j,
                    1 => half(at, idx) != NONE as u32 && half(at, idx) as usize <= j,
                    2 => word(j / 64) >> (j % 64) & 1 == 1,
                    _ => {
                        let least = half(at, idx + j * s);
                        least != NONE as u32 && least as usize <= xi
                    }
                }
            };
            if bit_from != u32::MAX {
                if of(entry(bit_from)) {
                    return full;
                }
            } else {
                for j in (0..r).filter(|&j| of(j)) {
                    out[j / 64] |= 1 << (j % 64);
                }
            }
        }
        out
    }

    /// The packed oracle, with bit sets (of 1 to 4 words) and with least entries, answers as `n_at`
    /// at every offset of every line (of a sample of lines on the larger boxes), on shorter circles'
    /// tables of random P-offsets (the packing does not depend on them being P-sets).
    #[test]
    fn the_packed_oracle_answers_as_n_at() {
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        let cases: [(usize, usize, usize, usize); 5] = [
            (3, 2, 40, 1600),
            (4, 2, 70, 4000),
            (4, 3, 130, 4000),
            (5, 2, 66, 3000),
            (4, 2, 256, 2000),
        ];
        for (n, k, r, lines) in cases {
            let l = r.div_ceil(64);
            let mut lower = vec![LenTable::empty()];
            for mm in 1..n {
                let p: Vec<u16> = (0..r.pow(mm as u32 - 1))
                    .map(|_| {
                        if next() % 3 == 0 {
                            NONE
                        } else {
                            (next() % r as u64) as u16
                        }
                    })
                    .collect();
                lower.push(LenTable::new(mm, r, p, &arcs_kept(mm, n, k)));
            }
            let oracle = ShrinkOracle::new(n, k, r, &lower, false);
            let kinds = |p: &[u32]| -> Vec<u32> {
                (0..p[0] as usize).map(|z| p[p[2 + z] as usize]).collect()
            };
            let bits = oracle.packed(u64::MAX).unwrap();
            let least = oracle.packed(0).unwrap();
            let what = format!("SCN({n},{k}) r {r}");
            assert!(
                kinds(&bits).contains(&2) && !kinds(&bits).contains(&3),
                "{what}"
            );
            assert!(
                kinds(&least).contains(&3) && !kinds(&least).contains(&2),
                "{what}"
            );
            let total = r.pow(n as u32 - 1);
            for t in 0..lines.min(total) {
                let mut line = if lines >= total {
                    t
                } else {
                    (next() % total as u64) as usize
                };
                let mut x = vec![0u32; n];
                for xa in &mut x[1..] {
                    *xa = (line % r) as u32;
                    line /= r;
                }
                for packed in [&bits, &least] {
                    let got = mask(packed, &x, n, r, l);
                    for j in 0..r {
                        let bit = got[j / 64] >> (j % 64) & 1 == 1;
                        assert_eq!(bit, oracle.n_at(&x, j), "{what} {x:?} offset {j}");
                    }
                }
            }
        }
    }
}
