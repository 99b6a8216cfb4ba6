//! The Sprague–Grundy value sets of ET(3) and ENTROPY(3) by automata, for every box size.
//!
//! The set `G_v` of positions of value v satisfies, for every position x: x is in `G_v` exactly
//! when x has an option in `G_u` for every u < v and no option in `G_v`. The game being
//! well-founded, a set S of the domain equals `G_v` exactly when
//! `S = dom ∩ Pre(G_0) ∩ … ∩ Pre(G_(v−1)) ∖ Pre(S)`, where `Pre(A)` is the set of positions with an
//! option in A (by induction along the moves: if S and `G_v` agree on every option of x, both sides
//! agree at x). With automata of `G_0`, …, `G_(v−1)` proved, both sides are automata (a pre-image is a
//! product with the option relations of [`super::chips`] and a projection), so the equation is decided
//! for every box size at once ([`prove_value_set`]); a difference gives a shortest position where the
//! two sides differ, and [`refute`] turns it into a position where S and the exact table disagree (the
//! position itself or one of its options).
//!
//! The candidates come from exact tables ([`GrundyTable`]: ET(3) on `[1, 2^B)^3`, ENTROPY(3) on
//! `[0, 2^B)^3`; both games' moves stay inside such a box) by [`crate::learn`]: the box is doubled
//! until two boxes give the same automaton, which is then checked on a larger box
//! ([`learn_value_set`]).

use super::chip_conditions::{domain, options, PairOptions, Transfer};
use super::compile::{linear, Lin, Sign};
use super::dfa::{Budget, Dfa, Stop};
use crate::learn::{learn, LearnOptions, Outcome, Table};
use std::collections::BTreeMap;

/// Most binary digits of a table's box (ET(3) on 2^10: 179 million sorted positions, two bytes each).
pub const MAX_GRUNDY_BITS: u32 = 10;

/// A bit set of Grundy values below 1024.
type Mask = [u64; 16];

fn add(m: &mut Mask, v: u16) {
    m[(v >> 6) as usize] |= 1 << (v & 63);
}

fn union(a: &mut Mask, b: &Mask) {
    for (x, y) in a.iter_mut().zip(b) {
        *x |= y;
    }
}

/// The least value not in the set; a limit when every value below 1024 is in it.
fn mex(m: &Mask) -> Result<u16, Stop> {
    for (i, w) in m.iter().enumerate() {
        if *w != u64::MAX {
            return Ok((i * 64) as u16 + w.trailing_ones() as u16);
        }
    }
    Err(Stop::Limit(
        "a Grundy value past 1023: the table keeps values below 1024".into(),
    ))
}

/// The exact Grundy values of ET(3) on the box `[1, 2^bits)^3` or of ENTROPY(3) on `[0, 2^bits)^3`.
pub struct GrundyTable {
    pub moves: Transfer,
    pub bits: u32,
    /// ET: the value of `a <= b <= c` at `c(c+1)(c+2)/6 + b(b+1)/2 + a`; ENTROPY: of `(0, p, q)`,
    /// `p <= q`, at `p * 2^bits + q` (a translate has the same value).
    g: Vec<u16>,
}

fn tetra(a: usize, b: usize, c: usize) -> usize {
    c * (c + 1) * (c + 2) / 6 + b * (b + 1) / 2 + a
}

fn sort3(x: [u64; 3]) -> [u64; 3] {
    let mut s = x;
    s.sort_unstable();
    s
}

impl GrundyTable {
    /// Tabulates the game's values on the box of `bits` binary digits (1 to [`MAX_GRUNDY_BITS`]).
    pub fn new(moves: Transfer, bits: u32) -> Result<GrundyTable, Stop> {
        if !(1..=MAX_GRUNDY_BITS).contains(&bits) {
            return Err(Stop::Unsupported(format!(
                "a Grundy table takes 1 to {MAX_GRUNDY_BITS} binary digits, not {bits}"
            )));
        }
        let g = match moves {
            Transfer::Et => et_table(1usize << bits)?,
            Transfer::Entropy => entropy_table(1usize << bits)?,
        };
        Ok(GrundyTable { moves, bits, g })
    }

    /// The value of a position of the box (any order of the boxes); `None` outside the box or the
    /// domain (ET: a box below 1).
    pub fn value(&self, x: &[u64]) -> Option<u16> {
        let n = 1u64 << self.bits;
        if x.len() != 3 || x.iter().any(|&v| v >= n) {
            return None;
        }
        let s = sort3([x[0], x[1], x[2]]);
        match self.moves {
            Transfer::Et => {
                (s[0] >= 1).then(|| self.g[tetra(s[0] as usize, s[1] as usize, s[2] as usize)])
            }
            Transfer::Entropy => {
                let (p, q) = ((s[1] - s[0]) as usize, (s[2] - s[0]) as usize);
                Some(self.g[(p << self.bits) | q])
            }
        }
    }

    /// The largest value on the box.
    pub fn max_value(&self) -> u16 {
        self.g.iter().copied().max().unwrap_or(0)
    }

    /// The table of `G_v` on the box `[0, 2^bits)^3` (`bits` at most the table's), for learning.
    pub fn value_table(&self, v: u16, bits: u32) -> Result<Table, Stop> {
        if bits > self.bits {
            return Err(Stop::Unsupported(format!(
                "the Grundy table covers 2^{} per box, not 2^{bits}",
                self.bits
            )));
        }
        Table::from_fn(3, bits, |x| self.value(x) == Some(v))
            .map_err(|e| Stop::Unsupported(e.to_string()))
    }

    /// The number of positions of the box (ordered triples of the domain) of each value.
    pub fn histogram(&self) -> Vec<u64> {
        let n = 1u64 << self.bits;
        let mut h = vec![0u64; self.max_value() as usize + 1];
        let lo = u64::from(self.moves == Transfer::Et);
        for a in lo..n {
            for b in lo..n {
                for c in lo..n {
                    if let Some(v) = self.value(&[a, b, c]) {
                        h[v as usize] += 1;
                    }
                }
            }
        }
        h
    }
}

/// ET(3) on `[1, n)^3`, by increasing total: an option of `{l, j, i}` keeps a box `l`, splits box
/// `j` into two non-empty parts and drops box `i`, so its values are `split[l][j]`: the values of
/// `{l, t, j − t}` over `1 <= t < j`, recorded once every position of total `l + j` has its value.
fn et_table(n: usize) -> Result<Vec<u16>, Stop> {
    let mut g = vec![0u16; tetra(n - 1, n - 1, n - 1) + 1];
    let mut split: Vec<Mask> = vec![[0; 16]; n * n];
    for s in 3..=3 * (n - 1) {
        for a in 1..=(s / 3).min(n - 1) {
            let lo = a.max((s - a).saturating_sub(n - 1));
            for b in lo..=(s - a) / 2 {
                let c = s - a - b;
                let mut m = [0u64; 16];
                for (l, j) in [(a, b), (a, c), (b, a), (b, c), (c, a), (c, b)] {
                    union(&mut m, &split[l * n + j]);
                }
                g[tetra(a, b, c)] = mex(&m)?;
            }
        }
        // Every position of total s has its value: the splits with l + j = s.
        for l in s.saturating_sub(n - 1).max(1)..=(s - 2).min(n - 1) {
            let j = s - l;
            let mut m = [0u64; 16];
            for t in 1..=j / 2 {
                let x = sort3([l as u64, t as u64, (j - t) as u64]);
                add(
                    &mut m,
                    g[tetra(x[0] as usize, x[1] as usize, x[2] as usize)],
                );
            }
            split[l * n + j] = m;
        }
    }
    Ok(g)
}

/// ENTROPY(3) on `(0, p, q)`, `p <= q < n`, by increasing `3(sum of squares) − (sum)^2`, which every
/// move lowers and no translation changes.
fn entropy_table(n: usize) -> Result<Vec<u16>, Stop> {
    let mut order: Vec<(u64, u32, u32)> = Vec::with_capacity(n * (n + 1) / 2);
    for q in 0..n as u64 {
        for p in 0..=q {
            order.push((2 * (p * p + q * q - p * q), p as u32, q as u32));
        }
    }
    order.sort_unstable();
    let mut g = vec![0u16; n * n];
    let look = |g: &[u16], x: [u64; 3]| {
        let s = sort3(x);
        g[(((s[1] - s[0]) as usize) * n) + (s[2] - s[0]) as usize]
    };
    for &(_, p, q) in &order {
        let x = [0u64, p as u64, q as u64];
        let mut m = [0u64; 16];
        for (i, j, l) in [(0, 1, 2), (0, 2, 1), (1, 2, 0)] {
            let (lo, hi) = (x[i], x[j]);
            // The options {lo + t, hi − t} for 1 <= t < hi − lo, each once.
            for t in 1..=(hi - lo) / 2 {
                add(&mut m, look(&g, [lo + t, hi - t, x[l]]));
            }
        }
        g[(p as usize) * n + q as usize] = mex(&m)?;
    }
    Ok(g)
}

fn and(a: &Dfa, b: &Dfa, budget: &Budget) -> Result<Dfa, Stop> {
    Dfa::product(a, b, false, budget)
}

/// `Pre(target)`: the positions (k = 3 tracks) with an option in `target`, one pair of boxes at a
/// time, united.
pub fn pre_image(opts: &[PairOptions], target: &Dfa, budget: &Budget) -> Result<Dfa, Stop> {
    let k = 3;
    let xs: Vec<usize> = (0..k).collect();
    let ty = target.embed(&(k..2 * k).collect::<Vec<_>>(), 2 * k);
    let mut acc: Option<Dfa> = None;
    for (_, o) in opts {
        let img = and(o, &ty, budget)?.project(&xs, budget)?;
        acc = Some(match acc {
            None => img,
            Some(a) => Dfa::product(&a, &img, true, budget)?,
        });
    }
    acc.ok_or_else(|| Stop::Unsupported("a chip game with no pair of boxes".into()))
}

/// The value sets proved so far and what the next one's equation needs: `dom ∩ Pre(G_0) ∩ … ∩
/// Pre(G_(v−1))`.
pub struct ValueSets {
    pub moves: Transfer,
    opts: Vec<PairOptions>,
    dom: Dfa,
    /// `G_0`, …, `G_(v−1)`, each on the domain.
    pub proved: Vec<Dfa>,
    reach: Dfa,
}

/// The answer for one candidate: `None` when it equals `G_v` for every box size, or a shortest
/// position where the equation's two sides differ.
pub type ValueSetWitness = Option<Vec<u128>>;

impl ValueSets {
    /// No value set proved yet (the next is `G_0`).
    pub fn new(moves: Transfer, budget: &Budget) -> Result<ValueSets, Stop> {
        let dom = domain(moves, 3, budget)?;
        Ok(ValueSets {
            moves,
            opts: options(moves, 3, budget)?,
            reach: dom.clone(),
            dom,
            proved: Vec::new(),
        })
    }

    /// The value whose set [`ValueSets::prove_next`] decides.
    pub fn next_value(&self) -> usize {
        self.proved.len()
    }

    /// Decides whether `set` (3 tracks) is `G_v` for the next value v, for every box size; when it
    /// is, it is kept and the next value's equation prepared.
    pub fn prove_next(&mut self, set: &Dfa, budget: &Budget) -> Result<ValueSetWitness, Stop> {
        if set.tracks != 3 {
            return Err(Stop::Unsupported(format!(
                "the automaton reads {} inputs; a position has 3 boxes",
                set.tracks
            )));
        }
        let s = and(set, &self.dom, budget)?;
        let pre = pre_image(&self.opts, &s, budget)?;
        let rhs = and(&self.reach, &pre.complement(), budget)?;
        let diff = Dfa::product(
            &and(&s, &rhs.complement(), budget)?,
            &and(&s.complement(), &rhs, budget)?,
            true,
            budget,
        )?;
        if let Some(w) = super::chip_conditions::witness(&diff)? {
            return Ok(Some(w));
        }
        self.reach = and(&self.reach, &pre, budget)?;
        self.proved.push(s);
        Ok(None)
    }
}

/// The options of a position of ET(3) or ENTROPY(3) (the moves of the rules, written here).
pub fn chip_moves(moves: Transfer, x: [u64; 3]) -> Vec<[u64; 3]> {
    let mut out = Vec::new();
    for i in 0..3 {
        for j in 0..3 {
            if i == j {
                continue;
            }
            match moves {
                // Empty box i, move t chips of box j into it.
                Transfer::Et => {
                    for t in 1..x[j].max(1) {
                        let mut y = x;
                        y[i] = t;
                        y[j] = x[j] - t;
                        out.push(y);
                    }
                }
                // Move t chips from box i to box j, both boxes ending strictly between x_j and x_i.
                Transfer::Entropy => {
                    if x[i] >= x[j] + 2 {
                        for t in 1..x[i] - x[j] {
                            let mut y = x;
                            y[i] = x[i] - t;
                            y[j] = x[j] + t;
                            out.push(y);
                        }
                    }
                }
            }
        }
    }
    out
}

/// A position where the candidate `set` and the exact table disagree about `G_v`, found from a
/// position `w` where the equation's sides differ: `w` itself, or else one of its options (one
/// exists when the sets below v are right). `None` when `w` is outside the table's box or no
/// disagreement is found there. With the table's value at the position returned.
pub fn refute(table: &GrundyTable, set: &Dfa, v: u16, w: &[u128]) -> Option<(Vec<u64>, u16, bool)> {
    let x: Vec<u64> = w
        .iter()
        .map(|&a| u64::try_from(a).ok())
        .collect::<Option<_>>()?;
    if x.len() != 3 {
        return None;
    }
    let wrong = |y: &[u64]| -> Option<(Vec<u64>, u16, bool)> {
        let g = table.value(y)?;
        let member = set.accepts(&y.iter().map(|&a| a as u128).collect::<Vec<_>>());
        (member != (g == v)).then(|| (y.to_vec(), g, member))
    };
    table.value(&x)?;
    if let Some(r) = wrong(&x) {
        return Some(r);
    }
    chip_moves(table.moves, [x[0], x[1], x[2]])
        .iter()
        .find_map(|y| wrong(y))
}

/// What [`learn_value_set`] found for one value.
pub enum Learned {
    /// Two boxes gave the same automaton and the check box agreed: the automaton and the digits of
    /// the first of the two boxes.
    Stable { dfa: Dfa, bits: u32 },
    /// No two boxes up to the largest agreed (or one grew past the state cap): the states learned per
    /// box (`None`: too many, or the box too small).
    Unstable { states: Vec<(u32, Option<usize>)> },
    /// Two boxes agreed but the check box did not, at this position.
    Refuted { dfa: Dfa, at: Vec<u64> },
}

/// Learns `G_v` from the table's boxes `2^min_bits`, … , `2^(table.bits − 1)`, checking an automaton on
/// which two boxes agree against the whole table.
pub fn learn_value_set(
    table: &GrundyTable,
    v: u16,
    min_bits: u32,
    max_states: usize,
) -> Result<Learned, Stop> {
    let mut states = Vec::new();
    let opts = LearnOptions {
        min_bits,
        max_bits: table.bits.saturating_sub(1),
        check_bits: Some(table.bits),
        max_states,
        deadline: None,
    };
    let mut tab = |b: u32| {
        table
            .value_table(v, b)
            .map_err(|e| nimlab_core::Error::Unsupported(format!("{e:?}")))
    };
    let out = learn(3, &mut tab, &opts, &mut |r| states.push((r.bits, r.states)))
        .map_err(|e| Stop::Unsupported(e.to_string()))?;
    Ok(match out {
        Outcome::Stable { dfa, bits, .. } => Learned::Stable { dfa, bits },
        Outcome::Refuted { dfa, at, .. } => Learned::Refuted { dfa, at },
        Outcome::Unstable { .. } => Learned::Unstable { states },
    })
}

/// `sum coef * track + c` (sign) as an automaton over `tracks` tracks.
fn relation(
    tracks: usize,
    terms: &[(usize, i128)],
    c: i128,
    sign: Sign,
    budget: &Budget,
) -> Result<Dfa, Stop> {
    let mut t: BTreeMap<usize, i128> = BTreeMap::new();
    for &(i, a) in terms {
        *t.entry(i).or_insert(0) += a;
    }
    t.retain(|_, a| *a != 0);
    linear(tracks, &Lin { terms: t, c }, sign, budget)
}

/// A number on track `t` (of `tracks`) that is `r` modulo 4: its last two binary digits.
fn mod4(tracks: usize, t: usize, r: u8, budget: &Budget) -> Result<Dfa, Stop> {
    Dfa::explore(
        tracks,
        0u8,
        |&s, l| ((s << 1) | ((l >> t) & 1) as u8) & 3,
        |&s| s == r,
        budget,
    )
}

fn any(parts: Vec<Dfa>, budget: &Budget) -> Result<Dfa, Stop> {
    let mut it = parts.into_iter();
    let mut acc = it
        .next()
        .ok_or_else(|| Stop::Unsupported("an empty union".into()))?;
    for p in it {
        acc = Dfa::product(&acc, &p, true, budget)?;
    }
    Ok(acc)
}

/// ENTROPY(3)'s positions of Grundy value 1 as a statement (observed on the tables, then compared
/// with the learned automaton, which the value equation proves): with the boxes sorted a <= b <= c
/// and d = c − a, either d = 2; or two boxes are equal (b = a or b = c) and d ≡ 2 (mod 4); or
/// d ≡ 1 (mod 4), d >= 5 and the middle box is 2 from an end (b − a = 2 or c − b = 2). A fourth
/// track holds d, quantified away. `wrong = true` drops the last family (a wrong variant for the
/// tests).
pub fn entropy3_value_one(wrong: bool, budget: &Budget) -> Result<Dfa, Stop> {
    let d = 3;
    let eq = |a: usize, b: usize| relation(4, &[(a, 1), (b, -1)], 0, Sign::Zero, budget);
    let at_most = |a: usize, b: usize| relation(4, &[(a, 1), (b, -1)], 0, Sign::AtMostZero, budget);
    // b − a = 2 as a − b + 2 = 0.
    let gap2 = |a: usize, b: usize| relation(4, &[(b, 1), (a, -1)], -2, Sign::Zero, budget);
    let mut parts = Vec::new();
    for (a, b, c) in [
        (0, 1, 2),
        (0, 2, 1),
        (1, 0, 2),
        (1, 2, 0),
        (2, 0, 1),
        (2, 1, 0),
    ] {
        let sorted = and(
            &and(&at_most(a, b)?, &at_most(b, c)?, budget)?,
            &relation(4, &[(d, 1), (c, -1), (a, 1)], 0, Sign::Zero, budget)?,
            budget,
        )?;
        let spread2 = relation(4, &[(d, 1)], -2, Sign::Zero, budget)?;
        let equal = and(
            &any(vec![eq(a, b)?, eq(b, c)?], budget)?,
            &mod4(4, d, 2, budget)?,
            budget,
        )?;
        let mut fams = vec![spread2, equal];
        if !wrong {
            // d >= 5 as 5 − d <= 0.
            let big = relation(4, &[(d, -1)], 5, Sign::AtMostZero, budget)?;
            fams.push(and(
                &and(&mod4(4, d, 1, budget)?, &big, budget)?,
                &any(vec![gap2(a, b)?, gap2(b, c)?], budget)?,
                budget,
            )?);
        }
        parts.push(and(&sorted, &any(fams, budget)?, budget)?);
    }
    any(parts, budget)?.project(&[0, 1, 2], budget)
}
