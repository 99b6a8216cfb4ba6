//! Boolean combinations of relations ([`Formula`]): the sets of the chip games (the registry's
//! results, sets read from P-totals), written as SMT-LIB by [`crate::arith::Arith::formula`] and
//! evaluated exactly by [`Formula::holds`]. Written in text as a relation (a chain such as
//! `1 <= mod(a, 6) <= 3`), or `all(F, ...)`, `any(F, ...)`, `not(F)` of formulas
//! ([`Formula::parse`]).

use super::{parse_relation, Atom, Cmp, Expr, ParseError};

/// A boolean combination of relations over the slots.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Formula {
    Atom(Atom),
    Not(Box<Formula>),
    /// Every one holds (true when empty).
    And(Vec<Formula>),
    /// One holds (false when empty).
    Or(Vec<Formula>),
}

/// The negation: `!f`.
impl std::ops::Not for Formula {
    type Output = Formula;
    fn not(self) -> Formula {
        Formula::Not(Box::new(self))
    }
}

impl Formula {
    /// The relation `left op right`.
    pub fn cmp(left: Expr, op: Cmp, right: Expr) -> Formula {
        Formula::Atom(Atom { left, op, right })
    }

    /// True when the formula holds on the reading `t` (exactly, as [`Atom::holds`]).
    pub fn holds(&self, t: &[i128]) -> bool {
        match self {
            Formula::Atom(a) => a.holds(t),
            Formula::Not(f) => !f.holds(t),
            Formula::And(v) => v.iter().all(|f| f.holds(t)),
            Formula::Or(v) => v.iter().any(|f| f.holds(t)),
        }
    }

    /// The formula with every `mod(slot i, q)` read as slot `offset + i` (a variable that holds that
    /// residue, as the chip queries declare one per box).
    pub fn with_residues(&self, q: i128, offset: usize) -> Formula {
        let e = |x: &Expr| x.with_residues(q, offset);
        match self {
            Formula::Atom(a) => Formula::Atom(Atom {
                left: e(&a.left),
                op: a.op,
                right: e(&a.right),
            }),
            Formula::Not(f) => !f.with_residues(q, offset),
            Formula::And(v) => Formula::And(v.iter().map(|f| f.with_residues(q, offset)).collect()),
            Formula::Or(v) => Formula::Or(v.iter().map(|f| f.with_residues(q, offset)).collect()),
        }
    }

    /// Parses a formula of a family of `len` slots: a relation (a chain of comparisons, every link
    /// required), or `all(F, ...)`, `any(F, ...)`, `not(F)`.
    pub fn parse(text: &str, len: usize) -> Result<Formula, ParseError> {
        let t = text.trim();
        for name in ["all", "any", "not"] {
            let Some(args) = t
                .strip_prefix(name)
                .map(str::trim_start)
                .and_then(|r| r.strip_prefix('('))
                .and_then(|r| r.strip_suffix(')'))
            else {
                continue;
            };
            let parts = split_top(args)
                .ok_or_else(|| ParseError(format!("formula {text:?}: unbalanced parentheses")))?;
            let mut v = parts
                .iter()
                .map(|p| Formula::parse(p, len))
                .collect::<Result<Vec<_>, _>>()?;
            return match name {
                "all" => Ok(Formula::And(v)),
                "any" => Ok(Formula::Or(v)),
                _ if v.len() == 1 => Ok(!v.remove(0)),
                _ => Err(ParseError(format!(
                    "formula {text:?}: not(...) takes one formula"
                ))),
            };
        }
        let mut atoms: Vec<Formula> = parse_relation(t, len)?
            .into_iter()
            .map(Formula::Atom)
            .collect();
        Ok(if atoms.len() == 1 {
            atoms.remove(0)
        } else {
            Formula::And(atoms)
        })
    }
}

/// The comma-separated parts of `s` at parenthesis depth 0; `None` when its parentheses do not
/// balance (an argument list that closed early: `all(a = 1) and (b = 2)` is not one call).
fn split_top(s: &str) -> Option<Vec<&str>> {
    let mut parts = Vec::new();
    let mut depth = 0i32;
    let mut start = 0;
    for (i, ch) in s.char_indices() {
        match ch {
            '(' => depth += 1,
            ')' => {
                depth -= 1;
                if depth < 0 {
                    return None;
                }
            }
            ',' if depth == 0 => {
                parts.push(&s[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    (depth == 0).then(|| {
        parts.push(&s[start..]);
        parts
    })
}

impl Expr {
    /// The expression with every `mod(slot i, q)` read as slot `offset + i`.
    pub fn with_residues(&self, q: i128, offset: usize) -> Expr {
        let e = |x: &Expr| x.with_residues(q, offset);
        match self {
            Expr::Mod(inner, m) if *m == q => match **inner {
                Expr::Slot(i) => Expr::Slot(offset + i),
                _ => Expr::Mod(Box::new(e(inner)), *m),
            },
            Expr::Mod(inner, m) => Expr::Mod(Box::new(e(inner)), *m),
            Expr::Num(_) | Expr::Slot(_) => self.clone(),
            Expr::Sum(t) => Expr::Sum(t.iter().map(|(c, x)| (*c, e(x))).collect()),
            Expr::Min(v) => Expr::Min(v.iter().map(e).collect()),
            Expr::Max(v) => Expr::Max(v.iter().map(e).collect()),
            Expr::Xor(v) => Expr::Xor(v.iter().map(e).collect()),
            Expr::ColSum(m, v) => Expr::ColSum(*m, v.iter().map(e).collect()),
        }
    }
}
