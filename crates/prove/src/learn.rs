//! Learning the automaton of a P-set from a table, for the automata prover to prove.
//!
//! A position of `m` stacks is read as the automata prover reads it ([`crate::automata`]): in
//! binary, most significant digit first, one letter per digit holding that digit of every stack
//! (bit `i` of a letter is stack `i`). A table of the box `[0, 2^B)^m` gives the answer for every
//! word of `B` letters, and, since leading zero letters do not change a tuple, for every shorter
//! word.
//!
//! The states of the learned automaton are *residual languages* of prefixes: the residual of a
//! prefix `u` of `j` letters is the set of suffixes `v` with `uv` in the set, and the table knows it
//! for every suffix of at most `B - j` letters. Prefixes are explored breadth first from the empty
//! one; the prefix `ua` (one letter more than a representative `u`) goes to the first
//! representative whose residual agrees with its own on the suffixes the table knows for both (those
//! of at most `B - j - 1` letters), and becomes a new representative when none does. Agreement is
//! equality of table bits, so the automaton reproduces the table exactly: every word of the box gets
//! the table's answer. A prefix of `B` letters, whose residual the table knows only at the empty
//! suffix, never becomes a representative (the box is too small). The automaton is then minimised;
//! the prefix `0` has the residual of the empty prefix, so the initial state loops on the zero letter
//! and the answer does not depend on leading zero letters.
//!
//! That the automaton reproduces one box says nothing about larger entries. [`learn`] doubles the
//! box (one more binary digit) until the automata of two consecutive boxes accept the same words, and
//! can check the result against one more, larger table; only a proof ([`crate::prove_members`])
//! says that the automaton is the P-set for every entry size.

use crate::automata::Dfa;
use nimlab_core::{Error, Result};
use std::collections::HashMap;
use std::hash::{Hash, Hasher};
use std::time::Instant;

/// Most table entries (`2^(m * bits)`) learning takes: 2^34 bits, 2 GiB.
pub const MAX_TABLE_LOG2: u32 = 34;

/// The P-bits of a box `[0, 2^bits)^m`, stored in word order: the entry of a tuple sits at the
/// number whose base-`2^m` digits are the tuple's letters, most significant first.
#[derive(Clone)]
pub struct Table {
    pub m: usize,
    pub bits: u32,
    words: Vec<u64>,
}

/// Bit `j` of `x` moved to bit `m * j`.
fn spread(x: u64, m: usize, bits: u32) -> u64 {
    (0..bits).map(|j| ((x >> j) & 1) << (m as u32 * j)).sum()
}

impl Table {
    /// Checks the size of a box of `m` stacks and `bits` digits.
    fn size(m: usize, bits: u32) -> Result<u32> {
        if m == 0 || bits == 0 {
            return Err(Error::Unsupported(
                "a table to learn from needs at least one stack and one binary digit".into(),
            ));
        }
        match (m as u32).checked_mul(bits) {
            Some(e) if e <= MAX_TABLE_LOG2 => Ok(e),
            _ => Err(Error::TooLarge(format!(
                "a box of {m} stacks below 2^{bits} has more than 2^{MAX_TABLE_LOG2} entries to learn from"
            ))),
        }
    }

    /// The table of the box with no P-position marked yet ([`Table::mark`] marks them).
    pub fn new(m: usize, bits: u32) -> Result<Table> {
        let e = Table::size(m, bits)?;
        Ok(Table {
            m,
            bits,
            words: vec![0; (1usize << e).div_ceil(64)],
        })
    }

    /// Marks the tuple `x` (of `m` entries below `2^bits`) as P; `false` (nothing marked) when it is
    /// not a tuple of the box.
    pub fn mark(&mut self, x: &[u64]) -> bool {
        if x.len() != self.m || x.iter().any(|&v| v >> self.bits != 0) {
            return false;
        }
        self.set(self.index(x));
        true
    }

    /// The table whose entry at a tuple is `is_p(tuple)`, for every tuple of the box.
    pub fn from_fn(m: usize, bits: u32, mut is_p: impl FnMut(&[u64]) -> bool) -> Result<Table> {
        let e = Table::size(m, bits)?;
        let mut t = Table::new(m, bits)?;
        let side = 1u64 << bits;
        let mut x = vec![0u64; m];
        for k in 0..1u64 << e {
            for (i, xi) in x.iter_mut().enumerate() {
                *xi = (k >> (bits as u64 * (m - 1 - i) as u64)) % side;
            }
            if is_p(&x) {
                t.set(t.index(&x));
            }
        }
        Ok(t)
    }

    /// The table of the P-bits `p` of the box in lexicographic order (the first stack most
    /// significant), as the tables engine gives them: `p.len()` must be `2^(m * bits)`.
    pub fn from_lex(m: usize, bits: u32, p: &[bool]) -> Result<Table> {
        let e = Table::size(m, bits)?;
        if p.len() as u64 != 1u64 << e {
            return Err(Error::Unsupported(format!(
                "a table of {m} stacks below 2^{bits} has 2^{e} entries, not {}",
                p.len()
            )));
        }
        let side = 1usize << bits;
        let sp: Vec<u64> = (0..side as u64).map(|x| spread(x, m, bits)).collect();
        let mut t = Table::new(m, bits)?;
        // One line: the first m-1 stacks fixed, the last one running.
        for (line, row) in p.chunks(side).enumerate() {
            let mut hi = 0u64;
            for i in 0..m - 1 {
                let xi = (line >> (bits as usize * (m - 2 - i))) % side;
                hi |= sp[xi] << i;
            }
            for (x, &b) in row.iter().enumerate() {
                if b {
                    t.set(hi | (sp[x] << (m - 1)));
                }
            }
        }
        Ok(t)
    }

    /// The word-order index of a tuple of the box.
    fn index(&self, x: &[u64]) -> u64 {
        x.iter()
            .enumerate()
            .map(|(i, &xi)| spread(xi, self.m, self.bits) << i)
            .sum()
    }

    fn set(&mut self, i: u64) {
        self.words[(i >> 6) as usize] |= 1 << (i & 63);
    }

    fn get(&self, i: u64) -> bool {
        (self.words[(i >> 6) as usize] >> (i & 63)) & 1 == 1
    }

    /// The tuple at a word-order index.
    fn tuple(&self, i: u64) -> Vec<u64> {
        let m = self.m as u32;
        (0..self.m as u32)
            .map(|s| (0..self.bits).map(|j| ((i >> (m * j + s)) & 1) << j).sum())
            .collect()
    }

    /// True when the tuple (of the box) is marked P.
    pub fn is_p(&self, x: &[u64]) -> bool {
        self.get(self.index(x))
    }

    /// The residual of the prefix with value `v` (its letters as base-`2^m` digits) on the suffixes
    /// of at most `d` letters: one block of table bits per suffix length, shortest first.
    fn residual(&self, v: u64, d: u32, out: &mut Vec<u64>) {
        out.clear();
        let m = self.m as u32;
        for t in 0..=d {
            let shift = m * t;
            let start = v << shift;
            if shift >= 6 {
                let a = (start >> 6) as usize;
                out.extend_from_slice(&self.words[a..a + (1usize << (shift - 6))]);
            } else {
                let mask = (1u64 << (1u64 << shift)) - 1;
                out.push((self.words[(start >> 6) as usize] >> (start & 63)) & mask);
            }
        }
    }

    /// The number of words [`Table::residual`] gives at depth `d`.
    fn residual_len(&self, d: u32) -> usize {
        let m = self.m as u32;
        (0..=d)
            .map(|t| {
                let shift = m * t;
                if shift >= 6 {
                    1usize << (shift - 6)
                } else {
                    1
                }
            })
            .sum()
    }
}

/// An automaton learned from one table.
#[derive(Debug, Clone)]
pub struct Learned {
    /// Minimal, complete; track `i` is stack `i`.
    pub dfa: Dfa,
    /// The box it was learned from: entries below `2^bits`.
    pub bits: u32,
    /// The representatives found before minimisation.
    pub representatives: usize,
    /// The longest representative, in letters (at most `bits - 1`).
    pub depth: usize,
}

fn hash_of(s: &[u64]) -> u64 {
    let mut h = std::collections::hash_map::DefaultHasher::new();
    s.hash(&mut h);
    h.finish()
}

/// Learns an automaton from a table (see the module notes): it accepts exactly the table's P-bits on
/// the box. Refused (`TooLarge`) past `max_states` representatives, and when a prefix as long as the
/// box needs a state of its own (the box is too small).
pub fn learn_table(t: &Table, max_states: usize) -> Result<Learned> {
    let m = t.m;
    if m > crate::automata::MAX_TRACKS {
        return Err(Error::Unsupported(format!(
            "{m} stacks; automata here have at most {} tracks",
            crate::automata::MAX_TRACKS
        )));
    }
    let letters = 1u64 << m;
    let b = t.bits;
    // Representatives: value, length, residual at depth b - length.
    let mut vals: Vec<u64> = vec![0];
    let mut lens: Vec<u32> = vec![0];
    let mut sigs: Vec<Vec<u64>> = vec![Vec::new()];
    t.residual(0, b, &mut sigs[0]);
    let mut trans: Vec<u32> = vec![u32::MAX; letters as usize];
    let mut frontier: Vec<u32> = vec![0];
    let mut j = 1u32;
    let mut s = Vec::new();
    while !frontier.is_empty() {
        let d = b - j;
        let n = t.residual_len(d);
        let mut map: HashMap<u64, Vec<u32>> = HashMap::new();
        for (r, sig) in sigs.iter().enumerate() {
            map.entry(hash_of(&sig[..n])).or_default().push(r as u32);
        }
        let mut next: Vec<u32> = Vec::new();
        for &r in &frontier {
            for a in 0..letters {
                let v = (vals[r as usize] << m) | a;
                t.residual(v, d, &mut s);
                let h = hash_of(&s);
                let found = map
                    .get(&h)
                    .and_then(|c| c.iter().copied().find(|&c| sigs[c as usize][..n] == s[..]));
                let id = match found {
                    Some(c) => c,
                    None => {
                        if d == 0 {
                            return Err(Error::TooLarge(format!(
                                "the box below 2^{b} is too small: prefixes of {b} letters still need states of their own"
                            )));
                        }
                        if vals.len() >= max_states {
                            return Err(Error::TooLarge(format!(
                                "the automaton learned from the box below 2^{b} grew past {max_states} states"
                            )));
                        }
                        let id = vals.len() as u32;
                        vals.push(v);
                        lens.push(j);
                        sigs.push(s.clone());
                        trans.extend(std::iter::repeat_n(u32::MAX, letters as usize));
                        map.entry(h).or_default().push(id);
                        next.push(id);
                        id
                    }
                };
                trans[(r as u64 * letters + a) as usize] = id;
            }
        }
        frontier = next;
        j += 1;
    }
    let fin: Vec<bool> = vals.iter().map(|&v| t.get(v)).collect();
    let representatives = vals.len();
    let depth = lens.iter().copied().max().unwrap_or(0) as usize;
    let dfa = Dfa::from_parts(m, trans, fin)
        .map_err(|e| Error::Unsupported(format!("{e:?}")))?
        .minimize();
    // The prefix 0 has the residual of the empty prefix (the same tuples), so the initial state loops
    // on the zero letter; the provers rely on it.
    if let Some(at) = dfa.leading_zeros_matter() {
        return Err(Error::Unsupported(format!(
            "internal error: the automaton learned below 2^{b} depends on leading zeros (at {at:?})"
        )));
    }
    Ok(Learned {
        dfa,
        bits: b,
        representatives,
        depth,
    })
}

/// [`learn_table`] from the P-bits of the box `[0, 2^bits)^m` in lexicographic order (the first stack
/// most significant), as the tables engine gives them.
pub fn learn_from_table(m: usize, bits: u32, p: &[bool], max_states: usize) -> Result<Learned> {
    learn_table(&Table::from_lex(m, bits, p)?, max_states)
}

/// The first tuple of the table's box (in word order) on which the automaton and the table differ,
/// or `None` when they agree on the whole box.
pub fn disagreement(d: &Dfa, t: &Table) -> Option<Vec<u64>> {
    if d.tracks != t.m {
        return Some(vec![0; t.m]);
    }
    let m = t.m as u32;
    let letters = 1u64 << m;
    // Depth-first over the words of `bits` letters: (state, value so far, letters read).
    let mut stack: Vec<(u32, u64, u32)> = vec![(0, 0, 0)];
    while let Some((s, v, j)) = stack.pop() {
        if j == t.bits {
            if d.is_final(s) != t.get(v) {
                return Some(t.tuple(v));
            }
            continue;
        }
        for a in (0..letters).rev() {
            stack.push((d.step(s, a as u32), (v << m) | a, j + 1));
        }
    }
    None
}

/// Limits of [`learn`].
#[derive(Debug, Clone)]
pub struct LearnOptions {
    /// The first box: entries below `2^min_bits`.
    pub min_bits: u32,
    /// The largest box learned from.
    pub max_bits: u32,
    /// Once two boxes agree, check the automaton on this larger box too (`None`: no extra check).
    pub check_bits: Option<u32>,
    /// Most representatives of one learned automaton.
    pub max_states: usize,
    /// No new box is started past this instant (the outcome is then `Unstable`).
    pub deadline: Option<Instant>,
}

/// One box of [`learn`]: its digits, the learned automaton's states (`None` when the box was too
/// small or the automaton too large), and the seconds spent tabulating and learning.
#[derive(Debug, Clone)]
pub struct Round {
    pub bits: u32,
    pub states: Option<usize>,
    pub table_seconds: f64,
    pub learn_seconds: f64,
}

/// What [`learn`] found.
#[derive(Debug, Clone)]
pub enum Outcome {
    /// The automata learned from the boxes below `2^bits` and `2^(bits+1)` accept the same words, and
    /// it agrees with every table up to `2^checked_bits` (the check box included when asked).
    Stable {
        dfa: Dfa,
        bits: u32,
        checked_bits: u32,
    },
    /// Two boxes agreed but the check box did not: the automaton, and a tuple of the check box where
    /// it differs from the table.
    Refuted { dfa: Dfa, bits: u32, at: Vec<u64> },
    /// No two consecutive boxes up to `max_bits` agreed (or the deadline came first); the last
    /// automaton learned, if any.
    Unstable { last: Option<Learned> },
}

/// Learns the automaton of a set from tables of growing boxes: `table(bits)` gives the table of the
/// box `[0, 2^bits)^m`. The box is doubled until the automata of two consecutive boxes accept the
/// same words; that automaton is then checked on `check_bits` when asked. Rounds are reported to
/// `round` as they finish.
pub fn learn(
    m: usize,
    table: &mut dyn FnMut(u32) -> Result<Table>,
    opts: &LearnOptions,
    round: &mut dyn FnMut(&Round),
) -> Result<Outcome> {
    let mut last: Option<Learned> = None;
    for bits in opts.min_bits.max(1)..=opts.max_bits {
        if opts.deadline.is_some_and(|d| Instant::now() > d) {
            break;
        }
        let t0 = Instant::now();
        let t = table(bits)?;
        if t.m != m || t.bits != bits {
            return Err(Error::Unsupported(format!(
                "asked for a table of {m} stacks below 2^{bits}, got {} stacks below 2^{}",
                t.m, t.bits
            )));
        }
        let t1 = Instant::now();
        let learned = match learn_table(&t, opts.max_states) {
            Ok(l) => Some(l),
            Err(Error::TooLarge(_)) => None,
            Err(e) => return Err(e),
        };
        round(&Round {
            bits,
            states: learned.as_ref().map(|l| l.dfa.states()),
            table_seconds: (t1 - t0).as_secs_f64(),
            learn_seconds: t1.elapsed().as_secs_f64(),
        });
        if let (Some(prev), Some(now)) = (&last, &learned) {
            if prev.dfa.differs_from(&now.dfa).is_none() {
                let dfa = prev.dfa.clone();
                if let Some(cb) = opts.check_bits.filter(|&cb| cb > bits) {
                    let t = table(cb)?;
                    if let Some(at) = disagreement(&dfa, &t) {
                        return Ok(Outcome::Refuted {
                            dfa,
                            bits: prev.bits,
                            at,
                        });
                    }
                    return Ok(Outcome::Stable {
                        dfa,
                        bits: prev.bits,
                        checked_bits: cb,
                    });
                }
                return Ok(Outcome::Stable {
                    dfa,
                    bits: prev.bits,
                    checked_bits: bits,
                });
            }
        }
        last = learned;
    }
    Ok(Outcome::Unstable { last })
}
