//! The relation language of a family file: linear expressions in the slots `a, b, c, ...` with integer
//! coefficients, `min(...)`, `max(...)`, `mod(e, N)` and `xor(...)`, compared with
//! `= != < <= > >=` (chains such as `0 < a < e` or `a = b = c` allowed). Each relation is evaluated
//! exactly on a reading (in `i128`, or in big integers where a term would overflow it);
//! [`crate::arith`] writes it as an SMT-LIB2 term. Constants and coefficients, once products are
//! multiplied out, must stay below 2^100 in magnitude ([`LIMIT_BITS`]); larger ones are refused when
//! the relation is parsed, never wrapped.

use num_bigint::BigInt;
use std::fmt;

/// An integer expression over the slots of a reading.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Expr {
    Num(i128),
    Slot(usize),
    /// Sum of `coefficient * expression` terms.
    Sum(Vec<(i128, Expr)>),
    Min(Vec<Expr>),
    Max(Vec<Expr>),
    /// `mod(e, m)` with a positive constant `m` (the result lies in `0..m`).
    Mod(Box<Expr>, i128),
    /// Bitwise exclusive or of non-negative values (not linear: proofs go to bit-vectors).
    Xor(Vec<Expr>),
    /// `colsum(M, e1, ..., ek)`: for each binary digit, the number of the (non-negative) values with
    /// a 1 there, modulo `M`, read as a base-`M` numeral: 0 exactly when every digit's count is a
    /// multiple of `M` (Moore's Nim); `colsum(2, ...)` is `xor(...)`. Decided by the automata prover.
    ColSum(i128, Vec<Expr>),
}

/// A comparison operator.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Cmp {
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
}

impl Cmp {
    fn holds(self, l: i128, r: i128) -> bool {
        match self {
            Cmp::Eq => l == r,
            Cmp::Ne => l != r,
            Cmp::Lt => l < r,
            Cmp::Le => l <= r,
            Cmp::Gt => l > r,
            Cmp::Ge => l >= r,
        }
    }
}

/// One relation `left op right`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Atom {
    pub left: Expr,
    pub op: Cmp,
    pub right: Expr,
}

/// A relation that does not parse or does not fit the family, in one line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParseError(pub String);

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl Expr {
    /// The value on the reading `t` (slot values in order); `None` on overflow.
    pub fn eval(&self, t: &[i128]) -> Option<i128> {
        Some(match self {
            Expr::Num(v) => *v,
            Expr::Slot(i) => t[*i],
            Expr::Sum(terms) => {
                let mut s: i128 = 0;
                for (c, e) in terms {
                    s = s.checked_add(c.checked_mul(e.eval(t)?)?)?;
                }
                s
            }
            Expr::Min(v) => v
                .iter()
                .map(|e| e.eval(t))
                .collect::<Option<Vec<_>>>()?
                .into_iter()
                .min()?,
            Expr::Max(v) => v
                .iter()
                .map(|e| e.eval(t))
                .collect::<Option<Vec<_>>>()?
                .into_iter()
                .max()?,
            Expr::Mod(e, m) => e.eval(t)?.rem_euclid(*m),
            Expr::Xor(v) => {
                let mut x: i128 = 0;
                for e in v {
                    let a = e.eval(t)?;
                    if a < 0 {
                        return None;
                    }
                    x ^= a;
                }
                x
            }
            Expr::ColSum(m, v) => {
                let vals = v
                    .iter()
                    .map(|e| e.eval(t).filter(|&a| a >= 0))
                    .collect::<Option<Vec<_>>>()?;
                let mut out: i128 = 0;
                let mut place: i128 = 1;
                for j in 0..127 {
                    let ones = vals.iter().filter(|&&a| (a >> j) & 1 == 1).count() as i128;
                    out = out.checked_add(place.checked_mul(ones % m)?)?;
                    if vals.iter().all(|&a| a >> j <= 1) {
                        break;
                    }
                    place = place.checked_mul(*m)?;
                }
                out
            }
        })
    }

    /// The value on the reading `t`, in big integers: exact for every entry size (`None` only where
    /// the value is undefined: `xor` or `colsum` of a negative value).
    pub fn eval_big(&self, t: &[i128]) -> Option<BigInt> {
        Some(match self {
            Expr::Num(v) => BigInt::from(*v),
            Expr::Slot(i) => BigInt::from(t[*i]),
            Expr::Sum(terms) => {
                let mut s = BigInt::from(0);
                for (c, e) in terms {
                    s += BigInt::from(*c) * e.eval_big(t)?;
                }
                s
            }
            Expr::Min(v) => v
                .iter()
                .map(|e| e.eval_big(t))
                .collect::<Option<Vec<_>>>()?
                .into_iter()
                .min()?,
            Expr::Max(v) => v
                .iter()
                .map(|e| e.eval_big(t))
                .collect::<Option<Vec<_>>>()?
                .into_iter()
                .max()?,
            Expr::Mod(e, m) => {
                let m = BigInt::from(*m);
                ((e.eval_big(t)? % &m) + &m) % &m
            }
            Expr::Xor(v) => {
                let mut x = BigInt::from(0);
                for e in v {
                    let a = e.eval_big(t)?;
                    if a.sign() == num_bigint::Sign::Minus {
                        return None;
                    }
                    x ^= a;
                }
                x
            }
            Expr::ColSum(m, v) => {
                let vals = v
                    .iter()
                    .map(|e| e.eval_big(t))
                    .collect::<Option<Vec<_>>>()?;
                if vals.iter().any(|a| a.sign() == num_bigint::Sign::Minus) {
                    return None;
                }
                let digits = vals.iter().map(|a| a.bits()).max().unwrap_or(0);
                let mut out = BigInt::from(0);
                let mut place = BigInt::from(1);
                for j in 0..digits.max(1) {
                    let ones = vals.iter().filter(|a| a.bit(j)).count() as i128;
                    out += &place * BigInt::from(ones % m);
                    place *= BigInt::from(*m);
                }
                out
            }
        })
    }

    /// True when the expression uses `colsum`, which only the automata prover decides.
    pub fn has_colsum(&self) -> bool {
        match self {
            Expr::ColSum(..) => true,
            Expr::Num(_) | Expr::Slot(_) => false,
            Expr::Sum(t) => t.iter().any(|(_, e)| e.has_colsum()),
            Expr::Min(v) | Expr::Max(v) | Expr::Xor(v) => v.iter().any(Expr::has_colsum),
            Expr::Mod(e, _) => e.has_colsum(),
        }
    }

    /// True when the expression uses `xor` (or `colsum`).
    pub fn has_xor(&self) -> bool {
        match self {
            Expr::Xor(_) | Expr::ColSum(..) => true,
            Expr::Num(_) | Expr::Slot(_) => false,
            Expr::Sum(t) => t.iter().any(|(_, e)| e.has_xor()),
            Expr::Min(v) | Expr::Max(v) => v.iter().any(Expr::has_xor),
            Expr::Mod(e, _) => e.has_xor(),
        }
    }

    /// The largest slot used, if any.
    pub fn max_slot(&self) -> Option<usize> {
        match self {
            Expr::Num(_) => None,
            Expr::Slot(i) => Some(*i),
            Expr::Sum(t) => t.iter().filter_map(|(_, e)| e.max_slot()).max(),
            Expr::Min(v) | Expr::Max(v) | Expr::Xor(v) | Expr::ColSum(_, v) => {
                v.iter().filter_map(Expr::max_slot).max()
            }
            Expr::Mod(e, _) => e.max_slot(),
        }
    }
}

impl Atom {
    /// True when the relation holds on the reading `t`, exactly: in `i128` where no term overflows,
    /// else in big integers. An undefined value (`xor` of a negative value) does not hold.
    pub fn holds(&self, t: &[i128]) -> bool {
        if let (Some(l), Some(r)) = (self.left.eval(t), self.right.eval(t)) {
            return self.op.holds(l, r);
        }
        match (self.left.eval_big(t), self.right.eval_big(t)) {
            (Some(l), Some(r)) => match self.op {
                Cmp::Eq => l == r,
                Cmp::Ne => l != r,
                Cmp::Lt => l < r,
                Cmp::Le => l <= r,
                Cmp::Gt => l > r,
                Cmp::Ge => l >= r,
            },
            _ => false,
        }
    }
    pub fn has_xor(&self) -> bool {
        self.left.has_xor() || self.right.has_xor()
    }
    pub fn max_slot(&self) -> Option<usize> {
        self.left.max_slot().max(self.right.max_slot())
    }
}

impl fmt::Display for Expr {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let list = |v: &[Expr]| {
            v.iter()
                .map(|e| e.to_string())
                .collect::<Vec<_>>()
                .join(", ")
        };
        match self {
            Expr::Num(v) => write!(f, "{v}"),
            Expr::Slot(i) => write!(f, "{}", (b'a' + *i as u8) as char),
            Expr::Sum(terms) if terms.is_empty() => write!(f, "0"),
            Expr::Sum(terms) => {
                for (j, (c, e)) in terms.iter().enumerate() {
                    // A constant term is printed as its value; other terms as coefficient and term.
                    let (c, body) = match e {
                        Expr::Num(v) => match c.checked_mul(*v) {
                            Some(p) => (p, None),
                            None => (*c, Some(format!("({v})"))),
                        },
                        Expr::Sum(_) => (*c, Some(format!("({e})"))),
                        _ => (*c, Some(e.to_string())),
                    };
                    let mag = c.unsigned_abs();
                    match (j, c < 0) {
                        (0, true) => write!(f, "-")?,
                        (0, false) => {}
                        (_, true) => write!(f, " - ")?,
                        (_, false) => write!(f, " + ")?,
                    }
                    match body {
                        None => write!(f, "{mag}")?,
                        Some(b) if mag == 1 => write!(f, "{b}")?,
                        Some(b) => write!(f, "{mag}{b}")?,
                    }
                }
                Ok(())
            }
            Expr::Min(v) => write!(f, "min({})", list(v)),
            Expr::Max(v) => write!(f, "max({})", list(v)),
            Expr::Mod(e, m) => write!(f, "mod({e}, {m})"),
            Expr::Xor(v) => write!(f, "xor({})", list(v)),
            Expr::ColSum(m, v) => write!(f, "colsum({m}, {})", list(v)),
        }
    }
}

impl Cmp {
    /// The comparison as a relation writes it: `=`, `!=`, `<`, `<=`, `>`, `>=`.
    pub fn symbol(self) -> &'static str {
        match self {
            Cmp::Eq => "=",
            Cmp::Ne => "!=",
            Cmp::Lt => "<",
            Cmp::Le => "<=",
            Cmp::Gt => ">",
            Cmp::Ge => ">=",
        }
    }
}

impl fmt::Display for Atom {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {} {}", self.left, self.op.symbol(), self.right)
    }
}

mod formula;
mod parse;
#[cfg(test)]
mod tests;

pub use formula::Formula;
pub use parse::{parse_relation, LIMIT_BITS};
