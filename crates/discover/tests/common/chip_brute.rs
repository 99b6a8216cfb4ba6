//! An independent brute force of the redistribution chip games, for the tests: plain recursion over
//! sorted positions by increasing total, every option listed (every kept set of an allowed size,
//! every partition of its total into k positive parts). It shares no code with nimlab.
#![allow(dead_code)]

use std::collections::HashMap;

/// A redistribution game: k boxes, and the numbers of boxes a move may keep.
#[derive(Clone, Debug)]
pub struct Rules {
    pub k: usize,
    pub keep: Vec<usize>,
    pub misere: bool,
}

impl Rules {
    pub fn eabo(k: usize) -> Rules {
        Rules {
            k,
            keep: vec![1],
            misere: false,
        }
    }
    pub fn er(k: usize) -> Rules {
        Rules {
            k,
            keep: vec![k - 1],
            misere: false,
        }
    }
    pub fn ser(k: usize) -> Rules {
        Rules {
            k,
            keep: (1..k).collect(),
            misere: false,
        }
    }
    pub fn ejr(k: usize, j: usize) -> Rules {
        Rules {
            k,
            keep: vec![k - j],
            misere: false,
        }
    }
    pub fn misere(mut self) -> Rules {
        self.misere = true;
        self
    }

    /// The totals of the kept sets of `x` that allow a move (at least k chips).
    pub fn kept_totals(&self, x: &[u64]) -> Vec<u64> {
        let mut out = Vec::new();
        for mask in 1u32..(1 << self.k) {
            if self.keep.contains(&(mask.count_ones() as usize)) {
                let s: u64 = (0..self.k)
                    .filter(|i| mask & (1 << i) != 0)
                    .map(|i| x[i])
                    .sum();
                if s >= self.k as u64 {
                    out.push(s);
                }
            }
        }
        out
    }

    /// Every option of `x` (sorted positions, repeats allowed).
    pub fn options(&self, x: &[u64]) -> Vec<Vec<u64>> {
        let mut out = Vec::new();
        for m in self.kept_totals(x) {
            out.extend(sorted_positions(self.k, m));
        }
        out
    }
}

/// Every sorted k-tuple of positive integers with total `n`.
pub fn sorted_positions(k: usize, n: u64) -> Vec<Vec<u64>> {
    fn go(k: usize, n: u64, lo: u64, cur: &mut Vec<u64>, out: &mut Vec<Vec<u64>>) {
        if k == 0 {
            if n == 0 {
                out.push(cur.clone());
            }
            return;
        }
        let mut a = lo;
        while a * (k as u64) <= n {
            cur.push(a);
            go(k - 1, n - a, a, cur, out);
            cur.pop();
            a += 1;
        }
    }
    let mut out = Vec::new();
    go(k, n, 1, &mut Vec::new(), &mut out);
    out
}

/// Whether each sorted position of total at most `s` is P (misère: the misère outcome).
pub fn p_positions(r: &Rules, s: u64) -> HashMap<Vec<u64>, bool> {
    let mut p: HashMap<Vec<u64>, bool> = HashMap::new();
    for n in r.k as u64..=s {
        for x in sorted_positions(r.k, n) {
            let options = r.options(&x);
            let is_p = if options.is_empty() {
                !r.misere
            } else {
                options.iter().all(|o| !p[o])
            };
            p.insert(x, is_p);
        }
    }
    p
}

/// An ultimately periodic set of totals, read from the numbers of a chip families file or of
/// `discover`'s JSON: exceptions below the threshold, residues modulo the period from it on.
#[derive(Clone, Debug)]
pub struct T {
    pub threshold: u64,
    pub period: u64,
    pub residues: Vec<u64>,
    pub exceptions: Vec<u64>,
}

impl T {
    pub fn has(&self, k: usize, n: u64) -> bool {
        n >= k as u64
            && if n < self.threshold {
                self.exceptions.contains(&n)
            } else {
                self.residues.contains(&(n % self.period))
            }
    }

    /// The position set this T describes: no kept total in T (misère: and not terminal).
    pub fn member(&self, r: &Rules, x: &[u64]) -> bool {
        let mut x = x.to_vec();
        x.sort_unstable();
        let kept = r.kept_totals(&x);
        (!r.misere || !kept.is_empty()) && kept.iter().all(|&n| !self.has(r.k, n))
    }

    /// The chip families file of this T.
    pub fn file(&self, game: &str, misere: bool) -> String {
        let list = |v: &[u64]| {
            v.iter()
                .map(|x| x.to_string())
                .collect::<Vec<_>>()
                .join(" ")
        };
        format!(
            "game = {game}\nplay = {}\nthreshold = {}\nperiod = {}\nresidues = {}\nexceptions = {}\n",
            if misere { "misere" } else { "normal" },
            self.threshold,
            self.period,
            list(&self.residues),
            list(&self.exceptions)
        )
    }
}
