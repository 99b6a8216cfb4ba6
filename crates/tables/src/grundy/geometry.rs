//! The layout of a Grundy sweep: blocks, each window's look-ups, where the value sets live, and the
//! symmetry that lets the sweep compute one block of each mirror pair.
//!
//! A window that contains `A = m-2` or `B = m-1` is *persistent*: its sets are read by the blocks of
//! the next diagonal, so a block keeps them all, one array per window ("slot"), `block` sets each,
//! `words` words a set. A window of inner axes only is *local*: its sets are read one step back
//! along its own axes, at most `r^i` positions back for its highest axis `i`, so it keeps only the
//! last `r^i` of them (at least `r^2`), in a ring of the thread's scratch that stays in the caches.
//!
//! The symmetry: an involution `rho` of the axes that maps the windows onto the windows and swaps
//! `A` and `B` (the swap itself for heaps; for circles the reflection that swaps them, which moves
//! the inner axes too). With `(rho p)_i = p_{rho i}`, `g(rho p) = g(p)` and
//! `G_v(rho p) = G_{rho v}(p)`, and `rho` maps block `(a, b)` onto block `(b, a)` of the same
//! anti-diagonal. The sweep computes the blocks with `a <= b`: block `(b, a)` gets its values by
//! permuting those of `(a, b)`; the block `(t, t)` of an even diagonal `2t` reads block `(t, t-1)`
//! of the previous one, whose sets are permuted from the stored `(t-1, t)` ([`Mirror::store`]).
//! Every other block a computed block reads is computed. Moves out of the box (SCN's) must be
//! invariant too; only reflections of the circle are tried for them, under which SCN's are.

/// Where one look-up of a window reads the set of `p - e_i`.
#[derive(Clone, Copy)]
pub(super) enum Reach {
    /// An inner axis: `stride` positions back in the same block (when `x[axis] > 0`).
    Inner { axis: usize, stride: usize },
    /// Axis `A`: the same position of block `(a-1, b)`.
    A,
    /// Axis `B`: the same position of block `(a, b-1)`.
    B,
}

pub(super) struct Plan {
    pub(super) persistent: bool,
    /// The window's array in a block's store (persistent), or its ring (local).
    pub(super) slot: usize,
    /// Local windows: the ring's length in sets (`r^i` for the window's highest axis `i`, at least
    /// `r^2`) and its first set in the thread's scratch.
    pub(super) ring: usize,
    pub(super) ring_at: usize,
    pub(super) reach: Vec<Reach>,
}

/// Three cache lines, in words.
const SKEW: usize = 24;

pub(super) struct Geometry {
    pub(super) m: usize,
    pub(super) r: usize,
    pub(super) n_inner: usize,
    /// Positions per block: `r^(m-2)`.
    pub(super) block: usize,
    pub(super) ra: usize,
    pub(super) rb: usize,
    pub(super) plans: Vec<Plan>,
    /// Persistent windows (arrays of a block's store).
    pub(super) np: usize,
    /// Sets in a thread's rings.
    pub(super) ring_sets: usize,
    pub(super) mirror: Option<Mirror>,
}

impl Geometry {
    /// `windows` in engine axes; `circle_only`: moves leave the box (SCN), so only reflections of
    /// the circle may serve as the symmetry.
    pub(super) fn new(m: usize, r: usize, windows: &[Vec<usize>], circle_only: bool) -> Geometry {
        let n_inner = m.saturating_sub(2);
        let a_axis = (m >= 2).then(|| m - 2);
        let b_axis = (m >= 1).then(|| m - 1);
        let (mut np, mut nl, mut ring_sets) = (0, 0, 0);
        let plans = windows
            .iter()
            .map(|w| {
                let persistent = w.iter().any(|&i| Some(i) == a_axis || Some(i) == b_axis);
                // At least `r^2` sets (`r` with one inner axis): the runs along axis 0 of a row
                // along axis 1 then never wrap around the ring.
                let ring = if persistent {
                    0
                } else {
                    let least = n_inner.min(2);
                    r.pow(w.iter().copied().max().unwrap_or(0).max(least) as u32)
                };
                let ring_at = ring_sets;
                ring_sets += ring;
                let c = if persistent { &mut np } else { &mut nl };
                let slot = *c;
                *c += 1;
                let reach = w
                    .iter()
                    .map(|&i| {
                        if Some(i) == a_axis {
                            Reach::A
                        } else if Some(i) == b_axis {
                            Reach::B
                        } else {
                            Reach::Inner {
                                axis: i,
                                stride: r.pow(i as u32),
                            }
                        }
                    })
                    .collect();
                Plan {
                    persistent,
                    slot,
                    ring,
                    ring_at,
                    reach,
                }
            })
            .collect();
        let mut g = Geometry {
            m,
            r,
            n_inner,
            block: r.pow(n_inner as u32),
            ra: if a_axis.is_some() { r } else { 1 },
            rb: if b_axis.is_some() { r } else { 1 },
            plans,
            np,
            ring_sets,
            mirror: None,
        };
        g.mirror = find(m, windows, circle_only).map(|rho| Mirror::new(&g, windows, rho));
        g
    }

    /// Words from one persistent array of a store to the next, with sets of `words` words: the
    /// array and a few words more, so that consecutive arrays start 9 cache lines apart modulo
    /// 4 KiB. A block reads and writes every array at the same position at once; arrays a multiple
    /// of 4 KiB apart (as `r = 32` makes them) would all fall in the same sets of the caches.
    pub(super) fn per(&self, words: usize) -> usize {
        let bytes = self.block * words * 8;
        self.block * words + (4096 + 576 - bytes % 4096) % 4096 / 8
    }

    /// Words of a block's store with sets of `words` words (its arrays start [`Geometry::skew`]
    /// words in).
    pub(super) fn store_len(&self, words: usize) -> usize {
        self.np * self.per(words) + 2 * SKEW
    }

    /// Bytes of [`Geometry::store_len`], counted in `f64` and `u128` (an estimate may ask for sets
    /// wider than a box could run with).
    pub(super) fn store_bytes(&self, words: usize) -> f64 {
        let bytes = self.block as u128 * words as u128 * 8;
        let pad = (4096 + 576 - (bytes % 4096) as usize) % 4096 / 8;
        let per = self.block as f64 * words as f64 + pad as f64;
        (self.np as f64 * per + (2 * SKEW) as f64) * 8.0
    }

    /// Where the arrays of block `a` of diagonal `d` start in its store: 0, 3 or 6 cache lines
    /// in, so that a block, the two blocks it reads and their arrays all start in different cache
    /// sets (with [`Geometry::per`]).
    pub(super) fn skew(&self, a: usize, d: usize) -> usize {
        (a + d) % 3 * SKEW
    }

    /// The blocks `a` of diagonal `d` (with `b = d - a`).
    pub(super) fn diagonal(&self, d: usize) -> (usize, usize) {
        (d.saturating_sub(self.rb - 1), d.min(self.ra - 1))
    }

    /// The blocks `a` of diagonal `d` the sweep computes and keeps: all of them, or with the
    /// symmetry those with `a <= b`.
    pub(super) fn computed(&self, d: usize) -> (usize, usize) {
        let (lo, hi) = self.diagonal(d);
        match self.mirror {
            Some(_) => (lo, hi.min(d / 2)),
            None => (lo, hi),
        }
    }

    /// The most blocks of one diagonal the sweep keeps.
    pub(super) fn widest(&self) -> usize {
        (0..self.ra + self.rb - 1)
            .map(|d| {
                let (lo, hi) = self.computed(d);
                hi + 1 - lo
            })
            .max()
            .unwrap_or(1)
    }
}

/// `rho` (an involution of the engine axes that swaps `m-2` and `m-1`) when the symmetry is on and
/// it maps the windows onto themselves: the swap of `A` and `B`, else the reflection of the circle
/// `i -> 2m-3-i (mod m)` (in tuple indices `t -> 1-t`); with `circle_only` only the reflection.
fn find(m: usize, windows: &[Vec<usize>], circle_only: bool) -> Option<Vec<usize>> {
    if m < 2 || !crate::lines::symmetry_on() {
        return None;
    }
    let identity: Vec<usize> = (0..m).collect();
    let mut swap = identity.clone();
    swap.swap(m - 2, m - 1);
    let reflection: Vec<usize> = (0..m).map(|i| (2 * m - 3 - i) % m).collect();
    let candidates = if circle_only {
        vec![reflection]
    } else {
        vec![swap, reflection]
    };
    candidates.into_iter().find(|rho| {
        rho[m - 2] == m - 1
            && (0..m).all(|i| rho[rho[i]] == i)
            && crate::lines::maps_windows_onto_themselves(windows, rho)
    })
}

/// The symmetry on a block's records (see the module notes).
pub(super) struct Mirror {
    /// The persistent arrays a block reads along `B` (of the windows that hold `B`), each with the
    /// array of block `(a, b)` that, permuted, gives it in block `(b, a)` (that of `rho` of its
    /// window).
    slots: Vec<(usize, usize)>,
    /// For inner axis `i`, the stride of axis `rho(i)`: position `x` of a block goes to
    /// `sum_i x_i * to[i]` in its mirror.
    to: Vec<usize>,
}

impl Mirror {
    fn new(g: &Geometry, windows: &[Vec<usize>], rho: Vec<usize>) -> Mirror {
        let key = |w: &mut dyn Iterator<Item = usize>| -> Vec<usize> {
            let mut v: Vec<usize> = w.collect();
            v.sort_unstable();
            v
        };
        let persistent: Vec<(usize, Vec<usize>)> = g
            .plans
            .iter()
            .zip(windows)
            .filter(|(p, _)| p.persistent)
            .map(|(p, w)| (p.slot, key(&mut w.iter().copied())))
            .collect();
        let mut slots = Vec::new();
        for (s, w) in &persistent {
            if !w.contains(&(g.m - 1)) || slots.iter().any(|&(t, _)| t == *s) {
                continue;
            }
            let image = key(&mut w.iter().map(|&i| rho[i]));
            let from = persistent
                .iter()
                .find(|(_, v)| *v == image)
                .map(|(t, _)| *t)
                .expect("rho maps the persistent windows onto themselves");
            slots.push((*s, from));
        }
        let to = (0..g.n_inner).map(|i| g.r.pow(rho[i] as u32)).collect();
        Mirror { slots, to }
    }

    /// Calls `f(x, y)` for every position `x` of a block and its mirror `y`. Where `rho` sends axis
    /// 0 to an axis `j`, the plane of axes 0 and `j` is a transpose (`x = x_0 + x_j r^j` goes to
    /// `x_0 r^j + x_j`), walked in tiles of 8 by 8 so that reads and writes stay within a few pages
    /// and cache lines (walked in order, a block's values would be written `r^j` apart).
    fn each(&self, g: &Geometry, mut f: impl FnMut(usize, usize)) {
        const TILE: usize = 8;
        let (n, r) = (g.n_inner, g.r);
        if n == 0 {
            return f(0, 0);
        }
        let j = self.to.iter().position(|&t| t == 1).unwrap_or(0);
        // The plane: axis 0, and axis `j` unless it is 0 itself.
        let (span_j, rj) = if j == 0 { (1, 0) } else { (r, r.pow(j as u32)) };
        let others: Vec<usize> = (1..n).filter(|&i| i != j).collect();
        let from: Vec<usize> = others.iter().map(|&i| r.pow(i as u32)).collect();
        let to: Vec<usize> = others.iter().map(|&i| self.to[i]).collect();
        let mut x = vec![0usize; others.len()];
        let (mut at, mut y) = (0usize, 0usize);
        for _ in 0..g.block / (r * span_j) {
            for x0b in (0..r).step_by(TILE) {
                for xjb in (0..span_j).step_by(TILE) {
                    for xj in xjb..(xjb + TILE).min(span_j) {
                        for x0 in x0b..(x0b + TILE).min(r) {
                            f(at + x0 + xj * rj, y + x0 * self.to[0] + xj);
                        }
                    }
                }
            }
            #[allow(clippy::needless_range_loop)] // `i` indexes three arrays in step
            for i in 0..x.len() {
                x[i] += 1;
                at += from[i];
                y += to[i];
                if x[i] < r {
                    break;
                }
                x[i] = 0;
                at -= r * from[i];
                y -= r * to[i];
            }
        }
    }

    /// The values of block `(b, a)` from those of block `(a, b)`.
    pub(super) fn values(&self, g: &Geometry, src: &[u16], dst: &mut [u16]) {
        self.each(g, |x, y| dst[y] = src[x]);
    }

    /// The arrays block `(b, a)` is read along `B` by, from the store `src` of block `(a, b)` (sets
    /// of `words` words; both stores from their skews on); its other arrays are left as they are.
    pub(super) fn store(&self, g: &Geometry, words: usize, src: &[u64], dst: &mut [u64]) {
        match words {
            1 => self.store_in::<1>(g, src, dst),
            2 => self.store_in::<2>(g, src, dst),
            3 => self.store_in::<3>(g, src, dst),
            4 => self.store_in::<4>(g, src, dst),
            8 => self.store_in::<8>(g, src, dst),
            _ => {
                let per = g.per(words);
                for &(s, from) in &self.slots {
                    let len = g.block * words;
                    let (d, f) = (&mut dst[s * per..][..len], &src[from * per..][..len]);
                    self.each(g, |x, y| {
                        for t in 0..words {
                            d[y * words + t] = f[x * words + t];
                        }
                    });
                }
            }
        }
    }

    /// [`Mirror::store`] with sets of `W` words: each set copied in registers.
    fn store_in<const W: usize>(&self, g: &Geometry, src: &[u64], dst: &mut [u64]) {
        let per = g.per(W);
        for &(s, from) in &self.slots {
            let len = g.block * W;
            let (d, f) = (&mut dst[s * per..][..len], &src[from * per..][..len]);
            self.each(g, |x, y| {
                let set: [u64; W] = f[x * W..x * W + W].try_into().expect("W words");
                d[y * W..y * W + W].copy_from_slice(&set);
            });
        }
    }
}
