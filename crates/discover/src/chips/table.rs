//! T, the totals of the P-positions of a redistribution chip game, computed exactly total by total
//! ([`TotalsTable`]): the pruned search of a P-position of each total, the learning of T's simplest
//! ultimately periodic description, and the least position a wrong description classifies wrongly.

use super::*;

/// A set of totals as bits (bit n in word n / 64).
#[derive(Default)]
struct Bits(Vec<u64>);

impl Bits {
    fn push_at(&mut self, n: u64, on: bool) {
        if n.is_multiple_of(64) {
            self.0.push(0);
        }
        if on {
            self.0[(n / 64) as usize] |= 1 << (n % 64);
        }
    }
}

fn bit(words: &[u64], x: u64) -> bool {
    words
        .get((x / 64) as usize)
        .is_some_and(|w| (w >> (x % 64)) & 1 == 1)
}

/// `cand[w] &= ` the bits `s + 64w ..= s + 64w + 63` of `src` (bits past its end are off).
fn and_shifted(cand: &mut [u64], src: &[u64], s: u64) {
    let (q, r) = ((s / 64) as usize, s % 64);
    let word = |i: usize| src.get(i).copied().unwrap_or(0);
    for (w, c) in cand.iter_mut().enumerate() {
        let v = if r == 0 {
            word(q + w)
        } else {
            (word(q + w) >> r) | (word(q + w + 1) << (64 - r))
        };
        *c &= v;
    }
}

/// The total of the boxes of `y` in `mask`.
fn total(y: &[u64], mask: u32) -> u64 {
    let mut s = 0;
    let mut bits = mask;
    while bits != 0 {
        s += y[bits.trailing_zeros() as usize];
        bits &= bits - 1;
    }
    s
}

/// What a search of the positions of one total gave.
enum Found {
    /// The first position (sorted, least in lexicographic order) that passed.
    Yes(Vec<u64>),
    No,
    /// `stop` fired first.
    Stopped,
}

/// The search of the positions of total `n` (sorted, k positive parts, chosen smallest first)
/// whose every allowed kept total is in `free`, for the first one that `leaf` accepts.
struct Search<'a> {
    k: usize,
    kept: &'a [Vec<u32>],
    discarded: &'a [Vec<u32>],
    /// Bit x: a kept total x does not cut (every total a kept set of these positions can have, all
    /// below n, is covered).
    free: &'a [u64],
    /// Bit x (1 ≤ x ≤ n): bit n - x of `free`, read through the discarded boxes.
    rev: Vec<u64>,
    leaf: &'a dyn Fn(&[u64]) -> bool,
    stop: &'a dyn Fn() -> bool,
    nodes: u64,
    stopped: bool,
    y: Vec<u64>,
    cand: Vec<Vec<u64>>,
}

impl Search<'_> {
    /// Chooses part `i` (at least `lo`; `rem` chips left for parts `i..k`).
    fn dfs(&mut self, i: usize, rem: u64, lo: u64) -> bool {
        let k = self.k;
        if i == k - 1 {
            // Every kept set was cut on by depth k - 2: a set or the boxes it discards lacks box k - 1.
            self.y[i] = rem;
            return (self.leaf)(&self.y);
        }
        let hi = rem / (k - i) as u64;
        if hi < lo {
            return false;
        }
        let mut cand = std::mem::take(&mut self.cand[i]);
        cand.clear();
        cand.resize((hi / 64 + 1) as usize, !0);
        for &m in &self.kept[i] {
            and_shifted(&mut cand, self.free, total(&self.y, m));
        }
        for &m in &self.discarded[i] {
            and_shifted(&mut cand, &self.rev, total(&self.y, m));
        }
        let mut found = false;
        let first = (lo / 64) as usize;
        'scan: for (w, &word) in cand.iter().enumerate().skip(first) {
            let mut bits = if w == first {
                word & (!0u64 << (lo % 64))
            } else {
                word
            };
            while bits != 0 {
                let x = w as u64 * 64 + u64::from(bits.trailing_zeros());
                bits &= bits - 1;
                if x > hi {
                    break 'scan;
                }
                self.nodes += 1;
                if self.nodes.is_multiple_of(4096) && (self.stop)() {
                    self.stopped = true;
                    break 'scan;
                }
                self.y[i] = x;
                if self.dfs(i + 1, rem - x, x) {
                    found = true;
                    break 'scan;
                }
                if self.stopped {
                    break 'scan;
                }
            }
        }
        self.cand[i] = cand;
        found
    }
}

/// T on the totals `0..in_t.len()`, computed exactly and extended on demand.
pub struct TotalsTable {
    k: usize,
    play: Play,
    /// The masks of the sets of boxes a move may keep.
    masks: Vec<u32>,
    /// The search's cuts at each part i (parts chosen smallest first): `kept[i]`, the kept sets
    /// whose last box is i (as the mask of their other boxes; their total is then known);
    /// `discarded[i]`, those whose discarded boxes end at i first (as the mask of the other
    /// discarded boxes; their total is n minus the discarded chips).
    kept: Vec<Vec<u32>>,
    discarded: Vec<Vec<u32>>,
    /// `in_t[n]`: n ∈ T.
    pub in_t: Vec<bool>,
    /// Bit n: n < k or n ∉ T, the kept totals that let a position be P.
    free: Bits,
}

impl TotalsTable {
    pub fn new(g: &Redistribute, play: Play) -> TotalsTable {
        let k = g.k;
        let (lo, hi) = g.discard_range();
        let masks: Vec<u32> = (1u32..(1u32 << k))
            .filter(|m| {
                let kept = m.count_ones() as usize;
                kept >= k - hi && kept <= k - lo
            })
            .collect();
        let top = |m: u32| (31 - m.leading_zeros()) as usize;
        let full = (1u32 << k) - 1;
        let (mut kept, mut discarded) = (vec![Vec::new(); k], vec![Vec::new(); k]);
        for &m in &masks {
            let d = full & !m;
            if top(m) <= top(d) {
                kept[top(m)].push(m & !(1 << top(m)));
            } else {
                discarded[top(d)].push(d & !(1 << top(d)));
            }
        }
        TotalsTable {
            k,
            play,
            masks,
            kept,
            discarded,
            in_t: Vec::new(),
            free: Bits::default(),
        }
    }

    /// Whether some allowed kept set of `y` has at least k chips and a total `inside` takes.
    fn keeps(&self, y: &[u64], inside: &dyn Fn(u64) -> bool) -> bool {
        let k = self.k as u64;
        self.masks.iter().any(|&m| {
            let s = total(y, m);
            s >= k && inside(s)
        })
    }

    /// The first position of total `n` (least in lexicographic order, sorted) whose allowed kept
    /// totals all have their bit in `free` and that `leaf` accepts.
    fn first(
        &self,
        n: u64,
        free: &[u64],
        leaf: &dyn Fn(&[u64]) -> bool,
        stop: &dyn Fn() -> bool,
    ) -> Found {
        let mut rev = vec![0u64; (n / 64 + 1) as usize];
        for x in 1..=n {
            if bit(free, n - x) {
                rev[(x / 64) as usize] |= 1 << (x % 64);
            }
        }
        let mut s = Search {
            k: self.k,
            kept: &self.kept,
            discarded: &self.discarded,
            free,
            rev,
            leaf,
            stop,
            nodes: 0,
            stopped: false,
            y: vec![0; self.k],
            cand: vec![Vec::new(); self.k],
        };
        if s.dfs(0, n, 1) {
            Found::Yes(s.y)
        } else if s.stopped {
            Found::Stopped
        } else {
            Found::No
        }
    }

    /// Computes T up to `s`; `false` when `stop` fired first (T then ends where it was complete).
    pub fn extend(&mut self, s: u64, stop: &dyn Fn() -> bool) -> bool {
        let k = self.k as u64;
        while (self.in_t.len() as u64) <= s {
            if stop() {
                return false;
            }
            let n = self.in_t.len() as u64;
            let mut found = false;
            if n >= k {
                // A P-position of total n: no allowed kept total in T (misère: and a move).
                let leaf = |y: &[u64]| self.play == Play::Normal || self.keeps(y, &|_| true);
                match self.first(n, &self.free.0, &leaf, stop) {
                    Found::Yes(_) => found = true,
                    Found::No => {}
                    Found::Stopped => return false,
                }
            }
            self.in_t.push(found);
            self.free.push_at(n, n < k || !found);
        }
        true
    }

    /// The largest total T is computed to.
    pub fn computed(&self) -> u64 {
        (self.in_t.len() as u64).saturating_sub(1)
    }

    /// The first total in `k..=s` where `t` and T differ.
    pub fn mismatch(&self, t: &Totals, s: u64) -> Option<u64> {
        (self.k as u64..=s).find(|&n| t.contains(self.k, u128::from(n)) != self.in_t[n as usize])
    }

    /// The totals in `k..=s` where `t` and T differ, the first `most` of them.
    pub fn differences(&self, t: &Totals, s: u64, most: usize) -> Vec<u64> {
        (self.k as u64..=s)
            .filter(|&n| t.contains(self.k, u128::from(n)) != self.in_t[n as usize])
            .take(most)
            .collect()
    }

    /// The least position (the least total, then the least sorted tuple) that the P-set and the
    /// set `t` gives (no allowed kept total in `t`; misère: and a move) classify differently, with
    /// whether it is P; the totals searched are those whose kept totals T covers. `None` when `t`
    /// equals T there, when no such position is found there, or when `stop` fires first.
    ///
    /// Such a position has a kept total where `t` and T differ, so its total is at least the first
    /// of those plus the chips of the boxes a move must discard (at least one a box).
    pub fn least_wrong_position(
        &self,
        t: &Totals,
        stop: &dyn Fn() -> bool,
    ) -> Option<(Vec<u64>, bool)> {
        let k = self.k as u64;
        let last = self.computed();
        let n0 = self.mismatch(t, last)?;
        let fewest_discarded = self
            .masks
            .iter()
            .map(|m| k - u64::from(m.count_ones()))
            .min()?;
        let mut free_t = Bits::default();
        for n in 0..=last {
            free_t.push_at(n, n < k || !t.contains(self.k, u128::from(n)));
        }
        let in_t = |s: u64| self.in_t[s as usize];
        let in_desc = |s: u64| t.contains(self.k, u128::from(s));
        for n in n0 + fewest_discarded..=last + fewest_discarded {
            // P (no kept total in T), but a kept total in t.
            let p = |y: &[u64]| self.keeps(y, &in_desc);
            // In t's set, but a kept total in T (so N).
            let n_pos = |y: &[u64]| self.keeps(y, &in_t);
            let a = match self.first(n, &self.free.0, &p, stop) {
                Found::Yes(y) => Some(y),
                Found::No => None,
                Found::Stopped => return None,
            };
            let b = match self.first(n, &free_t.0, &n_pos, stop) {
                Found::Yes(y) => Some(y),
                Found::No => None,
                Found::Stopped => return None,
            };
            match (a, b) {
                (Some(a), Some(b)) if b < a => return Some((b, false)),
                (Some(a), _) => return Some((a, true)),
                (None, Some(b)) => return Some((b, false)),
                (None, None) => {}
            }
        }
        None
    }
    /// The simplest ultimately periodic description of T on `k..=s` (see the module's doc), or
    /// `None` when no period has two full periods (and 2k totals) observed.
    pub fn learn(&self, s: u64) -> Option<Totals> {
        let k = self.k as u64;
        let at = |n: u64| self.in_t[n as usize];
        let mut best: Option<(u64, u64)> = None;
        let span = s + 1 - k;
        for q in 1..=span / 2 {
            // The least a from which T is q-periodic up to s.
            let mut a = k;
            let mut n = s - q;
            loop {
                if at(n) != at(n + q) {
                    a = n + 1;
                    break;
                }
                if n == k {
                    break;
                }
                n -= 1;
            }
            // Two full periods, and at least 2k totals, observed past the threshold.
            if s + 1 - a < (2 * q).max(2 * k) {
                continue;
            }
            if best.is_none_or(|(ba, bq)| a + q < ba + bq) {
                best = Some((a, q));
            }
        }
        let (a, q) = best?;
        let mut residues: Vec<u64> = (a..a + q).filter(|&n| at(n)).map(|n| n % q).collect();
        residues.sort_unstable();
        Some(Totals {
            threshold: a,
            period: q,
            residues,
            exceptions: (k..a).filter(|&n| at(n)).collect(),
        })
    }
}
