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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn products_of_numbers_fold_and_products_of_terms_are_refused() {
        // 2*3 and (2)*(3) are the number 6; a*2 is 2a; a*b is not linear.
        for (text, at) in [
            ("a = 2*3", [6u64, 0]),
            ("a = (2)*(3)", [6, 0]),
            ("a = b*2 + 1", [7, 3]),
        ] {
            let atoms = parse_relation(text, 2).unwrap();
            let v: Vec<i128> = at.iter().map(|&x| x as i128).collect();
            assert!(atoms.iter().all(|a| a.holds(&v)), "{text}");
        }
        let e = parse_relation("a = b*c", 3).unwrap_err().0;
        assert!(e.contains("not linear"), "{e}");
        let e = parse_relation("a = 2*", 2).unwrap_err().0;
        assert!(e.contains("after '*'"), "{e}");
        let e = parse_relation("a = 2 )", 2).unwrap_err().0;
        assert!(e.contains("unexpected ')'"), "{e}");
    }

    fn holds(rel: &str, t: &[i128]) -> bool {
        parse_relation(rel, t.len())
            .unwrap()
            .iter()
            .all(|a| a.holds(t))
    }

    #[test]
    fn parses_and_evaluates() {
        assert!(holds("2a + b <= c - 1", &[1, 2, 5]));
        assert!(!holds("2a + b <= c - 1", &[1, 2, 4]));
        assert!(holds("a = b = c", &[3, 3, 3]));
        assert!(!holds("a = b = c", &[3, 3, 4]));
        assert!(holds("0 < a < c", &[1, 0, 2]));
        assert!(!holds("0 < a < c", &[0, 0, 2]));
        assert!(holds("a < max(b, c)", &[2, 1, 3]));
        assert!(!holds("a < min(b, c)", &[2, 1, 3]));
        assert!(holds("a != b", &[1, 2]));
        assert!(!holds("a != b", &[2, 2]));
        assert!(holds("xor(a, b, c) = 0", &[1, 2, 3]));
        assert!(!holds("xor(a, b, c) = 0", &[1, 2, 4]));
        assert!(holds("mod(a, 2) = 1", &[7]));
        assert!(holds("2*(a - b) = c", &[5, 2, 6]));
        assert!(holds("-a + 3 = b", &[1, 2]));
        assert!(holds("b = 2d - 1", &[0, 3, 0, 2]));
    }

    #[test]
    fn large_constants_are_exact_or_refused() {
        // 2^99 is in range: multiplied out exactly.
        assert!(holds("a < 562949953421312 * (1125899906842624)", &[5]));
        assert!(holds("a - 549755813888 * (1152921504606846976) < 0", &[5]));
        assert!(!holds("a + 549755813888 * (1152921504606846976) < 0", &[5]));
        // 2^64 * 2^64 = 2^128 would wrap in i128 arithmetic: refused, in one line.
        let e = parse_relation("a = 18446744073709551616 * (18446744073709551616)", 1);
        assert!(e.is_err());
        let e = parse_relation(
            "a < 4294967296 * (4294967296 * (4294967296 * (4294967296 * b)))",
            2,
        )
        .unwrap_err();
        assert!(e.0.contains("2^100") && !e.0.contains('\n'), "{e}");
    }

    /// The big-integer evaluation agrees with the `i128` one wherever that one has a value (every
    /// reading of a box, for relations of every kind), and decides the readings where `i128` would
    /// overflow.
    #[test]
    fn big_evaluation_agrees_and_goes_past_i128() {
        let rels = [
            "2a + b <= c - 1",
            "xor(a, b + 1, c) = 2",
            "mod(a - 3b, 5) = c",
            "min(a, 2b) < max(c, 1)",
            "colsum(3, a, b, c) = 4",
            "xor(a - b, c) = 0",
        ];
        for rel in rels {
            let atoms = parse_relation(rel, 3).unwrap();
            for a in 0..8 {
                for b in 0..8 {
                    for c in 0..8 {
                        let t = [a, b, c];
                        for at in &atoms {
                            let small = (at.left.eval(&t), at.right.eval(&t));
                            let big = (at.left.eval_big(&t), at.right.eval_big(&t));
                            assert_eq!(small.0.map(BigInt::from), big.0, "{rel} {t:?}");
                            assert_eq!(small.1.map(BigInt::from), big.1, "{rel} {t:?}");
                        }
                    }
                }
            }
        }
        // 2^99 * 2^40 = 2^139: past i128, decided exactly.
        let rel = "562949953421312 * (1125899906842624 * a) > b";
        let big = 1i128 << 40;
        assert!(holds(rel, &[big, i128::MAX]));
        assert!(!holds(rel, &[-big, 0]));
        assert!(holds("281474976710656 * (1125899906842624 * a) - 281474976710656 * (1125899906842624 * b) = 0", &[big, big]));
    }

    #[test]
    fn display_reparses_to_the_same_relation() {
        for rel in [
            "2a + b <= c - 1",
            "a < max(b, c)",
            "mod(c, 2) = 1",
            "-a + 3 != min(b, 2c)",
        ] {
            let atoms = parse_relation(rel, 3).unwrap();
            let text = atoms[0].to_string();
            assert_eq!(parse_relation(&text, 3).unwrap(), atoms, "{rel} -> {text}");
        }
    }

    #[test]
    fn rejects_bad_relations() {
        for bad in [
            "a",
            "a = ",
            "a = b)",
            "foo(a) = 1",
            "a = z",
            "a + * b = 1",
            "a = b; c",
            "mod(a, b) = 0",
            "a = 99999999999999999999999",
            "a = 18446744073709551615 * (18446744073709551615)",
            "a + 18446744073709551615 * (18446744073709551615 * b) = 1",
            "a = 18446744073709551615 * (18446744073709551615) * 2",
            "2*(3*(18446744073709551615*(18446744073709551615 * c))) < 0",
        ] {
            let e = parse_relation(bad, 3).unwrap_err();
            assert!(e.0.contains("relation"), "{bad}: {e}");
        }
    }
}
