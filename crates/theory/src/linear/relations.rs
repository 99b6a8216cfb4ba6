//! The relation language of P-families: a [`Family`] is a template of slots `a, b, c, ...` with
//! linear relations between them written as in the papers (`a = f`, `b + c = d + e`, `a < e`), read
//! on a circle through a [`Reading`] (a rotation, clockwise or counter-clockwise).

/// A linear relation `sum coef * slot + c0` (compared with 0).
#[derive(Debug, Clone)]
pub struct Rel {
    pub coef: Vec<(usize, i128)>,
    pub c0: i128,
}

/// One P-family: a template of `len` slots with its relations.
pub struct Family {
    /// Short label, e.g. `S4`.
    pub label: &'static str,
    /// The template in the paper's words, e.g. `(a,b,c,d,e,f,g): a = f, b+c = d+e = g+a, ...`.
    pub shape: &'static str,
    pub len: usize,
    /// Relations `= 0`.
    pub eqs: Vec<Rel>,
    /// Relations `>= 0`.
    pub ges: Vec<Rel>,
    /// A side condition on the reading (parity, nim-sum, excluded sub-family), when linear relations do
    /// not say everything.
    pub side: Option<fn(&[u64]) -> bool>,
    /// The relations as written, for explanations.
    pub relations: Vec<&'static str>,
}

fn slot(c: char) -> usize {
    (c as u8 - b'a') as usize
}

/// Parses one side of a relation: terms like `2b`, `c`, `3`, joined by `+` and `-`.
fn parse_side(s: &str, sign: i128, coef: &mut Vec<(usize, i128)>, c0: &mut i128) {
    let s = s.replace(' ', "");
    let mut cur = String::new();
    let mut neg = false;
    let flush = |cur: &mut String, neg: bool, coef: &mut Vec<(usize, i128)>, c0: &mut i128| {
        if cur.is_empty() {
            return;
        }
        let sg = if neg { -sign } else { sign };
        let digits: String = cur.chars().take_while(|c| c.is_ascii_digit()).collect();
        let rest = &cur[digits.len()..];
        let k: i128 = if digits.is_empty() {
            1
        } else {
            digits.parse().unwrap()
        };
        if rest.is_empty() {
            *c0 += sg * k;
        } else {
            assert!(rest.len() == 1, "bad term {cur}");
            coef.push((slot(rest.chars().next().unwrap()), sg * k));
        }
        cur.clear();
    };
    for ch in s.chars() {
        if ch == '+' || ch == '-' {
            flush(&mut cur, neg, coef, c0);
            neg = ch == '-';
        } else {
            cur.push(ch);
        }
    }
    flush(&mut cur, neg, coef, c0);
}

impl Family {
    /// Builds a family from relations written like `a = f`, `b + c = d + e`, `a < e`, `2d = b`,
    /// `c >= 1` (slots are the letters `a, b, c, ...`; `x = y = z` chains are allowed).
    pub fn new(
        label: &'static str,
        shape: &'static str,
        len: usize,
        rels: &[&'static str],
    ) -> Family {
        let mut f = Family {
            label,
            shape,
            len,
            eqs: Vec::new(),
            ges: Vec::new(),
            side: None,
            relations: rels.to_vec(),
        };
        for r in rels {
            for op in ["<=", ">=", "<", ">", "="] {
                if let Some(i) = r.find(op) {
                    let (l, rr) = (&r[..i], &r[i + op.len()..]);
                    if op == "=" && rr.contains('=') {
                        // chain x = y = z
                        let parts: Vec<&str> = r.split('=').collect();
                        for w in parts.windows(2) {
                            f.push_rel(w[0], "=", w[1]);
                        }
                    } else {
                        f.push_rel(l, op, rr);
                    }
                    break;
                }
            }
        }
        f
    }

    pub fn with_side(mut self, side: fn(&[u64]) -> bool) -> Family {
        self.side = Some(side);
        self
    }

    fn push_rel(&mut self, l: &str, op: &str, r: &str) {
        let mut coef = Vec::new();
        let mut c0 = 0i128;
        // l - r (for =, >=, >) or r - l (for <=, <)
        let (a, b) = if op == "<=" || op == "<" {
            (r, l)
        } else {
            (l, r)
        };
        parse_side(a, 1, &mut coef, &mut c0);
        parse_side(b, -1, &mut coef, &mut c0);
        if op == "<" || op == ">" {
            c0 -= 1;
        }
        let rel = Rel { coef, c0 };
        if op == "=" {
            self.eqs.push(rel);
        } else {
            self.ges.push(rel);
        }
    }

    /// True when the reading `r` of `p` satisfies the family (without building the reading unless a
    /// side condition needs it).
    pub fn holds_at(&self, r: Reading, p: &[u64]) -> bool {
        let n = p.len();
        if n != self.len {
            return false;
        }
        let ev = |rel: &Rel| {
            rel.c0
                + rel
                    .coef
                    .iter()
                    .map(|&(i, c)| c * p[r.index(n, i)] as i128)
                    .sum::<i128>()
        };
        self.eqs.iter().all(|rel| ev(rel) == 0)
            && self.ges.iter().all(|rel| ev(rel) >= 0)
            && self.side.is_none_or(|s| s(&r.read(p)))
    }

    /// True when the reading `t` (slot values in order) satisfies the family.
    pub fn holds(&self, t: &[u64]) -> bool {
        t.len() == self.len
            && self.eqs.iter().all(|r| eval(r, t) == 0)
            && self.ges.iter().all(|r| eval(r, t) >= 0)
            && self.side.is_none_or(|s| s(t))
    }
}

fn eval(r: &Rel, t: &[u64]) -> i128 {
    r.c0 + r.coef.iter().map(|&(i, c)| c * t[i] as i128).sum::<i128>()
}

/// A reading of a circle of `n` stacks: slot i is stack `(start + i) mod n` clockwise, or
/// `(start - i) mod n` counter-clockwise.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Reading {
    pub start: usize,
    pub forward: bool,
}

impl Reading {
    pub fn index(&self, n: usize, i: usize) -> usize {
        if self.forward {
            (self.start + i) % n
        } else {
            (self.start + n - i % n) % n
        }
    }
    pub fn read(&self, p: &[u64]) -> Vec<u64> {
        (0..p.len()).map(|i| p[self.index(p.len(), i)]).collect()
    }
    pub fn all(n: usize) -> impl Iterator<Item = Reading> {
        (0..n.max(1)).flat_map(|s| {
            [true, false].into_iter().map(move |f| Reading {
                start: s,
                forward: f,
            })
        })
    }
}

/// The first family (and reading) that contains `p`.
pub fn find_family(fams: &[Family], p: &[u64]) -> Option<(usize, Reading)> {
    for (fi, f) in fams.iter().enumerate() {
        if f.len != p.len() {
            continue;
        }
        for r in Reading::all(p.len()) {
            if f.holds_at(r, p) {
                return Some((fi, r));
            }
        }
    }
    None
}
