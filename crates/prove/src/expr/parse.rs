//! The relation language's parser: a lexer, a recursive-descent parser of expressions (products of
//! numbers folded exactly, products of terms refused), and [`parse_relation`], which turns a chain
//! of comparisons into atoms and refuses constants past 2^[`LIMIT_BITS`] and letters past the
//! family's length.

use super::{Atom, Cmp, Expr, ParseError};
use std::fmt;

#[derive(Debug, Clone, PartialEq, Eq)]
enum Tok {
    Num(i128),
    Ident(String),
    Op(Cmp),
    Plus,
    Minus,
    Star,
    Open,
    Close,
    Comma,
}

impl fmt::Display for Tok {
    /// The token as a message names it: `'*'`, `the number 3`, `b`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Tok::Num(v) => write!(f, "the number {v}"),
            Tok::Ident(name) => write!(f, "{name}"),
            Tok::Op(op) => write!(f, "the comparison {}", op.symbol()),
            Tok::Plus => write!(f, "'+'"),
            Tok::Minus => write!(f, "'-'"),
            Tok::Star => write!(f, "'*'"),
            Tok::Open => write!(f, "'('"),
            Tok::Close => write!(f, "')'"),
            Tok::Comma => write!(f, "','"),
        }
    }
}

fn lex(s: &str) -> Result<Vec<Tok>, ParseError> {
    let cs: Vec<char> = s.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < cs.len() {
        let c = cs[i];
        let next = cs.get(i + 1).copied();
        i += 1;
        match c {
            ' ' | '\t' => {}
            '+' => out.push(Tok::Plus),
            '-' => out.push(Tok::Minus),
            '*' => out.push(Tok::Star),
            '(' => out.push(Tok::Open),
            ')' => out.push(Tok::Close),
            ',' => out.push(Tok::Comma),
            '=' => {
                if next == Some('=') {
                    i += 1;
                }
                out.push(Tok::Op(Cmp::Eq));
            }
            '!' if next == Some('=') => {
                i += 1;
                out.push(Tok::Op(Cmp::Ne));
            }
            '<' | '>' => {
                let eq = next == Some('=');
                if eq {
                    i += 1;
                }
                out.push(Tok::Op(match (c, eq) {
                    ('<', false) => Cmp::Lt,
                    ('<', true) => Cmp::Le,
                    ('>', false) => Cmp::Gt,
                    _ => Cmp::Ge,
                }));
            }
            d if d.is_ascii_digit() => {
                let mut v: i128 = d.to_digit(10).unwrap_or(0) as i128;
                while let Some(d) = cs.get(i).and_then(|c| c.to_digit(10)) {
                    v = v
                        .checked_mul(10)
                        .and_then(|v| v.checked_add(d as i128))
                        .filter(|v| *v <= u64::MAX as i128)
                        .ok_or_else(|| ParseError("a number is too large".into()))?;
                    i += 1;
                }
                out.push(Tok::Num(v));
            }
            l if l.is_ascii_lowercase() => {
                let mut name = l.to_string();
                while let Some(&c) = cs.get(i).filter(|c| c.is_ascii_lowercase()) {
                    name.push(c);
                    i += 1;
                }
                out.push(Tok::Ident(name));
            }
            other => {
                return Err(ParseError(format!(
                    "unexpected character {:?}",
                    other.escape_default().to_string()
                )))
            }
        }
    }
    Ok(out)
}

/// Constants and coefficients (after multiplying out) must stay below this in magnitude: every
/// prover then computes with them exactly in `i128` (entries, bounds and sums included).
pub const LIMIT_BITS: u32 = 100;

fn too_large() -> ParseError {
    ParseError(format!(
        "a constant or coefficient is beyond the range nimlab's provers handle exactly (|c| < 2^{LIMIT_BITS})"
    ))
}

/// The product of `factors`, refused (never wrapped) when it leaves the exact range.
fn exact(factors: &[i128]) -> Result<i128, ParseError> {
    let mut p: i128 = 1;
    for &f in factors {
        p = p.checked_mul(f).ok_or_else(too_large)?;
    }
    if p.unsigned_abs() >= 1u128 << LIMIT_BITS {
        return Err(too_large());
    }
    Ok(p)
}

/// The largest constant or coefficient of `e` once every product is multiplied out (nested sums
/// multiply their coefficients); `None` past `u128`.
fn scale(e: &Expr) -> Option<u128> {
    Some(match e {
        Expr::Num(v) => v.unsigned_abs(),
        Expr::Slot(_) => 1,
        Expr::Sum(t) => {
            let mut s: u128 = 0;
            for (c, e) in t {
                s = s.checked_add(c.unsigned_abs().checked_mul(scale(e)?)?)?;
            }
            s
        }
        Expr::Min(v) | Expr::Max(v) | Expr::Xor(v) => {
            let mut s = 0;
            for e in v {
                s = s.max(scale(e)?);
            }
            s
        }
        Expr::Mod(e, m) => scale(e)?.max(m.unsigned_abs()),
        Expr::ColSum(m, v) => {
            let mut s = m.unsigned_abs();
            for e in v {
                s = s.max(scale(e)?);
            }
            s
        }
    })
}

struct Parser {
    toks: Vec<Tok>,
    at: usize,
}

impl Parser {
    fn peek(&self) -> Option<&Tok> {
        self.toks.get(self.at)
    }
    fn bump(&mut self) -> Option<Tok> {
        let t = self.toks.get(self.at).cloned();
        self.at += 1;
        t
    }
    fn expect(&mut self, t: Tok, what: &str) -> Result<(), ParseError> {
        if self.bump() == Some(t) {
            Ok(())
        } else {
            Err(ParseError(format!("expected {what}")))
        }
    }

    /// expr := ['-'] term (('+' | '-') term)*
    fn expr(&mut self) -> Result<Expr, ParseError> {
        let mut terms = Vec::new();
        let mut sign = 1;
        if self.peek() == Some(&Tok::Minus) {
            self.bump();
            sign = -1;
        }
        loop {
            match self.term()? {
                (c, Expr::Num(v)) => terms.push((1, Expr::Num(exact(&[sign, c, v])?))),
                (c, e) => terms.push((exact(&[sign, c])?, e)),
            }
            match self.peek() {
                Some(Tok::Plus) => sign = 1,
                Some(Tok::Minus) => sign = -1,
                _ => break,
            }
            self.bump();
        }
        Ok(match terms.as_slice() {
            [(1, e)] => e.clone(),
            _ => Expr::Sum(terms),
        })
    }

    /// term := factor (['*'] factor)*, a factor being a number or an atom: a product in which at
    /// most one factor is not a number (the relation stays linear); `2*3`, `(2)*(3)`, `2*a`, `a*2`
    /// and `2a` are all accepted, the numbers multiplied exactly. The `*` may be left out only
    /// after a number (`2a`, `3(a + b)`).
    fn term(&mut self) -> Result<(i128, Expr), ParseError> {
        let mut coef: i128 = 1;
        let mut other: Option<Expr> = None;
        loop {
            let factor = match self.peek().cloned() {
                Some(Tok::Num(v)) => {
                    self.bump();
                    Expr::Num(v)
                }
                Some(_) => self.atom()?,
                None => return Err(ParseError("the relation ends too early".into())),
            };
            let was_number = matches!(factor, Expr::Num(_));
            match factor {
                Expr::Num(v) => coef = exact(&[coef, v])?,
                e if other.is_none() => other = Some(e),
                _ => {
                    return Err(ParseError(
                        "a product of two terms that are not numbers is not linear: multiply terms by numbers only (2*a, 3*(a + b))"
                            .into(),
                    ))
                }
            }
            match self.peek() {
                Some(Tok::Star) => {
                    self.bump();
                    if !matches!(
                        self.peek(),
                        Some(Tok::Num(_)) | Some(Tok::Ident(_)) | Some(Tok::Open)
                    ) {
                        return Err(ParseError("expected a number or a term after '*'".into()));
                    }
                }
                Some(Tok::Ident(_)) | Some(Tok::Open) if was_number => {}
                _ => break,
            }
        }
        Ok(match other {
            Some(e) => (coef, e),
            None => (1, Expr::Num(coef)),
        })
    }

    /// atom := letter | min(...) | max(...) | xor(...) | mod(expr, NUM) | '(' expr ')'
    fn atom(&mut self) -> Result<Expr, ParseError> {
        match self.bump() {
            Some(Tok::Open) => {
                let e = self.expr()?;
                self.expect(Tok::Close, "')'")?;
                Ok(e)
            }
            Some(Tok::Ident(name)) if name.len() == 1 => {
                Ok(Expr::Slot((name.as_bytes()[0] - b'a') as usize))
            }
            Some(Tok::Ident(name)) => {
                self.expect(Tok::Open, &format!("'(' after {name}"))?;
                let mut args = vec![self.expr()?];
                while self.peek() == Some(&Tok::Comma) {
                    self.bump();
                    args.push(self.expr()?);
                }
                self.expect(Tok::Close, &format!("')' closing {name}(...)"))?;
                match name.as_str() {
                    "min" => Ok(Expr::Min(args)),
                    "max" => Ok(Expr::Max(args)),
                    "xor" => Ok(Expr::Xor(args)),
                    "colsum" => match args.as_slice() {
                        [Expr::Num(m), rest @ ..] if *m >= 2 && !rest.is_empty() => {
                            Ok(Expr::ColSum(*m, rest.to_vec()))
                        }
                        _ => Err(ParseError(
                            "colsum(M, e1, ...) needs a number M >= 2 and at least one value"
                                .into(),
                        )),
                    },
                    "mod" => match args.as_slice() {
                        [e, Expr::Num(m)] if *m > 0 => Ok(Expr::Mod(Box::new(e.clone()), *m)),
                        _ => Err(ParseError(
                            "mod(e, N) needs a positive number N as its second argument".into(),
                        )),
                    },
                    _ => Err(ParseError(format!(
                        "unknown function {name} (known: min, max, mod, xor, colsum)"
                    ))),
                }
            }
            Some(t) => Err(ParseError(format!("unexpected {t}"))),
            None => Err(ParseError("the relation ends too early".into())),
        }
    }
}

/// Parses one relation (a chain `e1 op e2 op e3 ...` gives one atom per operator) for a family of
/// `len` slots.
pub fn parse_relation(text: &str, len: usize) -> Result<Vec<Atom>, ParseError> {
    let wrap = |e: ParseError| ParseError(format!("relation {text:?}: {}", e.0));
    let mut p = Parser {
        toks: lex(text).map_err(wrap)?,
        at: 0,
    };
    let mut exprs = vec![p.expr().map_err(wrap)?];
    let mut ops = Vec::new();
    while let Some(Tok::Op(op)) = p.peek().cloned() {
        p.bump();
        ops.push(op);
        exprs.push(p.expr().map_err(wrap)?);
    }
    if let Some(t) = p.peek() {
        return Err(wrap(ParseError(format!("unexpected {t}"))));
    }
    if ops.is_empty() {
        return Err(wrap(ParseError(
            "no comparison (=, !=, <, <=, >, >=)".into(),
        )));
    }
    let atoms: Vec<Atom> = ops
        .iter()
        .enumerate()
        .map(|(i, &op)| Atom {
            left: exprs[i].clone(),
            op,
            right: exprs[i + 1].clone(),
        })
        .collect();
    for a in &atoms {
        for e in [&a.left, &a.right] {
            if scale(e).is_none_or(|s| s >= 1u128 << LIMIT_BITS) {
                return Err(wrap(too_large()));
            }
        }
    }
    if let Some(s) = atoms.iter().filter_map(Atom::max_slot).max() {
        if s >= len {
            return Err(wrap(ParseError(format!(
                "letter {} is past the family's {len} entries",
                (b'a' + s as u8) as char
            ))));
        }
    }
    Ok(atoms)
}
