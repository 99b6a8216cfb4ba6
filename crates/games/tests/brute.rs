//! An independent brute force for the cross-checks: options come from the rules as docs/rules.md states them,
//! by trying every position below p and keeping those whose changed stacks fit one window. Nothing here
//! uses the game modules' move generators, canonical forms or splitting.

use std::collections::HashMap;

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Rules {
    /// CN(n,k)
    Circle { k: usize },
    /// SCN(n,k)
    Shrinking { k: usize },
    /// Nim: exactly one heap changes.
    Nim,
    /// Moore's Nim_k: 1..=k heaps change.
    Moore { k: usize },
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Values {
    pub grundy: u64,
    pub misere_p: bool,
    pub rem_normal: u64,
    pub rem_misere: u64,
}

/// True when the changed indices `d` (of a circle of `m`) lie in k consecutive places.
fn fits_window(d: &[usize], m: usize, k: usize) -> bool {
    if k >= m {
        return true;
    }
    (0..m).any(|s| d.iter().all(|&i| (i + m - s) % m < k))
}

/// Every position q <= p coordinate-wise, q != p.
fn below(p: &[u64]) -> Vec<Vec<u64>> {
    let mut out = vec![vec![]];
    for &a in p {
        let mut next = Vec::new();
        for q in &out {
            for v in 0..=a {
                let mut r = q.clone();
                r.push(v);
                next.push(r);
            }
        }
        out = next;
    }
    out.retain(|q| q.as_slice() != p);
    out
}

pub fn options(rules: Rules, p: &[u64]) -> Vec<Vec<u64>> {
    let mut out = Vec::new();
    for q in below(p) {
        let d: Vec<usize> = (0..p.len()).filter(|&i| q[i] != p[i]).collect();
        let ok = match rules {
            Rules::Circle { k } | Rules::Shrinking { k } => fits_window(&d, p.len(), k),
            Rules::Nim => d.len() == 1,
            Rules::Moore { k } => d.len() <= k,
        };
        if ok {
            if let Rules::Shrinking { .. } = rules {
                out.push(q.into_iter().filter(|&x| x > 0).collect());
            } else {
                out.push(q);
            }
        }
    }
    out.sort();
    out.dedup();
    out
}

pub struct Brute {
    pub rules: Rules,
    memo: HashMap<Vec<u64>, Values>,
}

impl Brute {
    pub fn new(rules: Rules) -> Brute {
        Brute {
            rules,
            memo: HashMap::new(),
        }
    }

    pub fn values(&mut self, p: &[u64]) -> Values {
        if let Some(v) = self.memo.get(p) {
            return *v;
        }
        let opts = options(self.rules, p);
        let vals: Vec<Values> = opts.iter().map(|q| self.values(q)).collect();
        let v = if vals.is_empty() {
            Values {
                grundy: 0,
                misere_p: false,
                rem_normal: 0,
                rem_misere: 0,
            }
        } else {
            let mut g = 0;
            while vals.iter().any(|v| v.grundy == g) {
                g += 1;
            }
            let normal_win: Vec<u64> = vals
                .iter()
                .filter(|v| v.grundy == 0)
                .map(|v| v.rem_normal)
                .collect();
            let rem_normal = match normal_win.iter().min() {
                Some(r) => r + 1,
                None => vals.iter().map(|v| v.rem_normal).max().unwrap() + 1,
            };
            let misere_win: Vec<u64> = vals
                .iter()
                .filter(|v| v.misere_p)
                .map(|v| v.rem_misere)
                .collect();
            let rem_misere = match misere_win.iter().min() {
                Some(r) => r + 1,
                None => vals.iter().map(|v| v.rem_misere).max().unwrap() + 1,
            };
            Values {
                grundy: g,
                misere_p: misere_win.is_empty(),
                rem_normal,
                rem_misere,
            }
        };
        self.memo.insert(p.to_vec(), v);
        v
    }
}

/// Every tuple of length `m` with entries in lo..=hi, in lexicographic order.
pub fn tuples(m: usize, lo: u64, hi: u64) -> Vec<Vec<u64>> {
    let mut out = vec![vec![]];
    for _ in 0..m {
        let mut next = Vec::new();
        for q in &out {
            for v in lo..=hi {
                let mut r = q.clone();
                r.push(v);
                next.push(r);
            }
        }
        out = next;
    }
    out
}

/// The least rotation or reflection of a circle, computed from scratch.
pub fn least_symmetric(p: &[u64]) -> Vec<u64> {
    let m = p.len();
    let mut all = vec![p.to_vec()];
    for r in 0..m {
        let rot: Vec<u64> = (0..m).map(|i| p[(i + r) % m]).collect();
        let mut rev = rot.clone();
        rev.reverse();
        all.push(rot);
        all.push(rev);
    }
    all.into_iter().min().unwrap()
}
