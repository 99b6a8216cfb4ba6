//! The arithmetic the queries are written in.
//!
//! Linear relations go to unbounded integers (SMT-LIB's `Int`): an unsatisfiable query then says the
//! condition holds for every entry size. `xor` has no linear form; families that use it go to
//! bit-vectors: the entries are `w`-bit numbers (`0 <= x < 2^w`) and every term is computed in
//! `width` bits of two's complement, with `width` chosen from bounds on every term so that nothing
//! overflows. Such a proof says the condition holds for every position whose entries are below 2^w,
//! and no more.

use crate::expr::{Atom, Cmp, Expr, Formula};

/// Integers or bit-vectors (see the module documentation).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Arith {
    Int,
    Bv {
        /// Entries lie in `0 .. 2^w`.
        w: u32,
        /// Bits of every term: enough for the largest term's magnitude plus a sign bit.
        width: u32,
    },
}

/// Bits needed for magnitudes up to `b`.
fn bits(b: u128) -> u32 {
    128 - b.leading_zeros()
}

/// Largest magnitude of `e` when every slot lies in `0 .. 2^w`; `None` past 2^100 (refused).
pub fn bound(e: &Expr, w: u32) -> Option<u128> {
    let slot = (1u128 << w) - 1;
    let b = match e {
        Expr::Num(v) => v.unsigned_abs(),
        Expr::Slot(_) => slot,
        Expr::Sum(t) => {
            let mut s: u128 = 0;
            for (c, e) in t {
                s = s.checked_add(c.unsigned_abs().checked_mul(bound(e, w)?)?)?;
            }
            s
        }
        Expr::Min(v) | Expr::Max(v) => v.iter().map(|e| bound(e, w)).max()??,
        Expr::Mod(_, m) => m.unsigned_abs(),
        // Of non-negative values below 2^j, the xor is below 2^j.
        Expr::Xor(v) => {
            let j = v.iter().map(|e| bound(e, w).map(bits)).max()??;
            (1u128 << j) - 1
        }
        // Only the automata prover decides colsum.
        Expr::ColSum(..) => return None,
    };
    (b <= 1u128 << 100).then_some(b)
}

impl Arith {
    /// Bit-vector arithmetic for entries below `2^w`, wide enough for every term of `atoms`.
    pub fn bit_vectors<'a>(w: u32, atoms: impl IntoIterator<Item = &'a Atom>) -> Option<Arith> {
        let mut need = w + 1;
        for a in atoms {
            need = need
                .max(bits(bound(&a.left, w)?))
                .max(bits(bound(&a.right, w)?));
        }
        // One sign bit and one bit of room for differences of two bounded terms.
        Some(Arith::Bv { w, width: need + 2 })
    }

    /// The sort of an entry.
    pub fn sort(self) -> String {
        match self {
            Arith::Int => "Int".into(),
            Arith::Bv { width, .. } => format!("(_ BitVec {width})"),
        }
    }

    /// An integer literal.
    pub fn lit(self, v: i128) -> String {
        match self {
            Arith::Int if v < 0 => format!("(- {})", v.unsigned_abs()),
            Arith::Int => v.to_string(),
            Arith::Bv { width, .. } if v < 0 => {
                format!("(bvneg (_ bv{} {width}))", v.unsigned_abs())
            }
            Arith::Bv { width, .. } => format!("(_ bv{v} {width})"),
        }
    }

    /// `a op b` for an order or (in)equality.
    pub fn cmp(self, op: Cmp, a: &str, b: &str) -> String {
        let name = match (self, op) {
            (_, Cmp::Eq) => "=",
            (_, Cmp::Ne) => "distinct",
            (Arith::Int, Cmp::Lt) => "<",
            (Arith::Int, Cmp::Le) => "<=",
            (Arith::Int, Cmp::Gt) => ">",
            (Arith::Int, Cmp::Ge) => ">=",
            (Arith::Bv { .. }, Cmp::Lt) => "bvslt",
            (Arith::Bv { .. }, Cmp::Le) => "bvsle",
            (Arith::Bv { .. }, Cmp::Gt) => "bvsgt",
            (Arith::Bv { .. }, Cmp::Ge) => "bvsge",
        };
        format!("({name} {a} {b})")
    }
    pub fn le(self, a: &str, b: &str) -> String {
        self.cmp(Cmp::Le, a, b)
    }
    pub fn lt(self, a: &str, b: &str) -> String {
        self.cmp(Cmp::Lt, a, b)
    }
    pub fn eq(self, a: &str, b: &str) -> String {
        self.cmp(Cmp::Eq, a, b)
    }

    /// The entries' range: `v >= min` (and `v < 2^w` for bit-vectors).
    pub fn domain(self, v: &str, min: i128) -> String {
        let lo = self.le(&self.lit(min), v);
        match self {
            Arith::Int => lo,
            Arith::Bv { w, .. } => format!("(and {lo} {})", self.lt(v, &self.lit(1i128 << w))),
        }
    }

    /// The term of `e` with slot `i` written as `names[i]`, and the side conditions it needs (the
    /// arguments of `xor` are non-negative: exact evaluation gives no value otherwise). `None`: `xor` in
    /// integer arithmetic.
    pub fn term(self, e: &Expr, names: &[String], side: &mut Vec<String>) -> Option<String> {
        Some(match e {
            Expr::Num(v) => self.lit(*v),
            Expr::Slot(i) => names[*i].clone(),
            Expr::Sum(terms) => {
                let (add, mul) = match self {
                    Arith::Int => ("+", "*"),
                    Arith::Bv { .. } => ("bvadd", "bvmul"),
                };
                let parts = terms
                    .iter()
                    .map(|(c, e)| {
                        let s = self.term(e, names, side)?;
                        Some(if *c == 1 {
                            s
                        } else {
                            format!("({mul} {} {s})", self.lit(*c))
                        })
                    })
                    .collect::<Option<Vec<_>>>()?;
                match parts.len() {
                    0 => self.lit(0),
                    1 => parts[0].clone(),
                    _ => format!("({add} {})", parts.join(" ")),
                }
            }
            Expr::Min(v) => self.fold_ite(v, Cmp::Le, names, side)?,
            Expr::Max(v) => self.fold_ite(v, Cmp::Ge, names, side)?,
            Expr::Mod(e, m) => {
                let s = self.term(e, names, side)?;
                match self {
                    Arith::Int => format!("(mod {s} {m})"),
                    // The sign of bvsmod's result is the divisor's: for m > 0 it lies in 0..m, as
                    // the Euclidean remainder does.
                    Arith::Bv { .. } => format!("(bvsmod {s} {})", self.lit(*m)),
                }
            }
            Expr::ColSum(..) => return None,
            Expr::Xor(v) => {
                if self == Arith::Int {
                    return None;
                }
                let mut acc: Option<String> = None;
                for e in v {
                    let s = self.term(e, names, side)?;
                    side.push(self.le(&self.lit(0), &s));
                    acc = Some(match acc {
                        None => s,
                        Some(a) => format!("(bvxor {a} {s})"),
                    });
                }
                acc.unwrap_or_else(|| self.lit(0))
            }
        })
    }

    /// min/max as nested `ite`: `(ite (op x y) x y)` folded from the left.
    fn fold_ite(
        self,
        v: &[Expr],
        op: Cmp,
        names: &[String],
        side: &mut Vec<String>,
    ) -> Option<String> {
        let mut it = v.iter();
        let mut acc = self.term(it.next()?, names, side)?;
        for e in it {
            let s = self.term(e, names, side)?;
            acc = format!("(ite {} {acc} {s})", self.cmp(op, &acc, &s));
        }
        Some(acc)
    }

    /// The formula of `a` (with the side conditions of its terms), or `None` for `xor` in integers.
    pub fn atom(self, a: &Atom, names: &[String]) -> Option<String> {
        let mut side = Vec::new();
        let l = self.term(&a.left, names, &mut side)?;
        let r = self.term(&a.right, names, &mut side)?;
        side.push(self.cmp(a.op, &l, &r));
        Some(if side.len() == 1 {
            side.pop().unwrap_or_default()
        } else {
            format!("(and {})", side.join(" "))
        })
    }

    /// The formula of `f` (its relations as [`Arith::atom`] writes them), or `None` for `xor` in
    /// integers.
    pub fn formula(self, f: &Formula, names: &[String]) -> Option<String> {
        let list = |v: &[Formula], op: &str, empty: &str| -> Option<String> {
            let parts = v
                .iter()
                .map(|g| self.formula(g, names))
                .collect::<Option<Vec<_>>>()?;
            Some(match parts.len() {
                0 => empty.to_string(),
                1 => parts[0].clone(),
                _ => format!("({op} {})", parts.join(" ")),
            })
        };
        match f {
            Formula::Atom(a) => self.atom(a, names),
            Formula::Not(g) => Some(format!("(not {})", self.formula(g, names)?)),
            Formula::And(v) => list(v, "and", "true"),
            Formula::Or(v) => list(v, "or", "false"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::expr::parse_relation;

    fn names() -> Vec<String> {
        ["x0", "x1", "x2"].iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn integer_terms() {
        let a = parse_relation("2a + b <= c - 1", 3).unwrap();
        assert_eq!(
            Arith::Int.atom(&a[0], &names()).unwrap(),
            "(<= (+ (* 2 x0) x1) (+ x2 (- 1)))"
        );
        let m = parse_relation("a < max(b, c)", 3).unwrap();
        assert_eq!(
            Arith::Int.atom(&m[0], &names()).unwrap(),
            "(< x0 (ite (>= x1 x2) x1 x2))"
        );
        let x = parse_relation("xor(a,b) = 0", 3).unwrap();
        assert!(Arith::Int.atom(&x[0], &names()).is_none());
    }

    #[test]
    fn bit_vector_terms() {
        let x = parse_relation("xor(a, b) = c", 3).unwrap();
        let ar = Arith::bit_vectors(4, &x).unwrap();
        // Entries below 16; the xor is below 16 too: 5 bits of magnitude, plus sign and room.
        assert_eq!(ar, Arith::Bv { w: 4, width: 7 });
        assert_eq!(
            ar.atom(&x[0], &names()).unwrap(),
            "(and (bvsle (_ bv0 7) x0) (bvsle (_ bv0 7) x1) (= (bvxor x0 x1) x2))"
        );
        // 3a - 20 reaches magnitude 3 * 255 + 20 = 785 < 2^10 for entries below 2^8.
        let s = parse_relation("3a - 20 >= b", 3).unwrap();
        assert_eq!(
            Arith::bit_vectors(8, &s),
            Some(Arith::Bv { w: 8, width: 12 })
        );
        assert_eq!(ar.lit(-3), "(bvneg (_ bv3 7))");
    }
}
