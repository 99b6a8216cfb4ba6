//! The partition theorem's conditions as SMT-LIB2 queries in linear integer arithmetic, one query per
//! condition and circle length:
//!
//! - (I) `x in S`, `y in S`, `y` an option of `x`: satisfiable exactly when a move joins two members;
//! - (II) `x` not in `S`, not terminal, and for every `y`: `y` an option of `x` implies `y` not in `S`:
//!   satisfiable exactly when a position outside `S` has no move into `S`;
//! - (III) `x` terminal and not in `S` (misère play: `x` terminal and in `S`).
//!
//! For a set claimed only to lie inside the P-set, one more condition replaces (I) and (II):
//!
//! - (C) `x` in `S`, `y` an option of `x`, and for every `z`: `z` an option of `y` implies `z` not in
//!   `S`: satisfiable exactly when a move from a member reaches a position with no move back into `S`
//!   (in SCN one query per pair of circle lengths, since `y`'s own moves are those of its circle; in
//!   misère play `y` is not terminal, a terminal position being an N-position there).
//!
//! So each condition holds for every stack size exactly when its queries are unsatisfiable.
//!
//! A position of length m is `x0 .. x(m-1)`. An option keeps the entries outside one window and lowers
//! those inside (`0 <= y_i <= x_i`, at least one lower). In SCN a lowered pile that reaches 0 vanishes:
//! the option is the circle of the non-zero `y_i` in order, so "y in S" is a disjunction over the sets
//! of vanished piles (each inside a window) of membership of the shorter circle.

use crate::arith::Arith;
use crate::conjecture::{Conjecture, ReadingRule, RulesetKind};
use nimlab_core::{Error, Play, Result};
use std::fmt::Write;

/// The condition a query states ([`Condition::THEOREM`]; never [`Condition::Search`]).
pub use nimlab_core::partition::Condition;

/// One query: the SMT-LIB2 text (declarations and assertions, without `check-sat`), what it states,
/// and the variables whose values make a counterexample.
#[derive(Debug, Clone)]
pub struct Query {
    pub condition: Condition,
    /// The circle length of `x`.
    pub len: usize,
    /// What an answer `sat` would mean, in words.
    pub states: String,
    pub body: String,
    /// The command that decides it: `(check-sat)`, or for a quantified bit-vector query
    /// `(check-sat-using qsat)` (z3's quantifier-elimination solver, which decides such queries where
    /// its default gives up with "incomplete quantifiers").
    pub check: String,
    /// `x0 ..` (and for (I) then `y0 ..`).
    pub x: Vec<String>,
    pub y: Vec<String>,
}

impl Query {
    /// The SMT-LIB logic of the query: linear integer arithmetic (`LIA`) or bit-vectors (`BV`),
    /// quantifier-free (`QF_`) when it has no `forall`.
    pub fn logic(&self) -> &'static str {
        let quantified = self.body.contains("(forall");
        let bv = self.body.contains("(_ BitVec");
        match (quantified, bv) {
            (false, false) => "QF_LIA",
            (true, false) => "LIA",
            (false, true) => "QF_BV",
            (true, true) => "BV",
        }
    }

    /// The query with its logic set, as any SMT-LIB 2 solver reads it: `(set-option
    /// :produce-models true)` first, then `(set-logic ...)`, then the rest.
    pub fn with_logic(&self) -> String {
        let opt = "(set-option :produce-models true)\n";
        let rest = self.body.strip_prefix(opt).unwrap_or(&self.body);
        let head = if rest.len() < self.body.len() {
            opt
        } else {
            ""
        };
        format!("{head}(set-logic {})\n{rest}", self.logic())
    }

    /// A file name for `--emit`.
    pub fn file_name(&self, kind: RulesetKind) -> String {
        match kind {
            RulesetKind::Cn | RulesetKind::Complex => {
                format!("condition-{}.smt2", self.condition.name())
            }
            RulesetKind::Scn if self.condition == Condition::Closure => {
                format!("condition-C-length-{}-to-{}.smt2", self.len, self.y.len())
            }
            RulesetKind::Scn => format!(
                "condition-{}-length-{}.smt2",
                self.condition.name(),
                self.len
            ),
        }
    }

    /// The whole script in plain SMT-LIB 2 (any solver reads it): a header comment, the query with
    /// its logic, `(check-sat)` and (as comments) z3's own command where the prover runs z3 with
    /// another one, and the `get-value` that reads a counterexample.
    pub fn script(&self, c: &Conjecture) -> String {
        let mut s = String::new();
        let _ = writeln!(
            s,
            "; nimlab prove: {}, families from {}",
            c.game.id(),
            c.source
        );
        let _ = writeln!(
            s,
            "; Condition ({}) on circles of {} entries. Satisfiable exactly when {}.",
            self.condition.name(),
            self.len,
            self.states
        );
        let range = match c.bits {
            None => "every entry size".to_string(),
            Some(w) => format!("entries below 2^{w} (bit-vectors)"),
        };
        let _ = writeln!(
            s,
            "; Unsatisfiable: the condition holds for {range}. Readings: {}.",
            c.reading_words()
        );
        for f in &c.families {
            let _ = writeln!(s, "; family {}", f.describe());
        }
        s.push_str(&self.with_logic());
        s.push_str("(check-sat)\n");
        if self.check.trim() != "(check-sat)" {
            let _ = writeln!(
                s,
                "{}{} (its own command, not SMT-LIB 2)",
                crate::certificate::Z3_COMMENT,
                self.check.trim()
            );
        }
        let vars: Vec<&String> = self.x.iter().chain(&self.y).collect();
        if !vars.is_empty() {
            let names: Vec<&str> = vars.iter().map(|v| v.as_str()).collect();
            let _ = writeln!(s, "; when sat: (get-value ({}))", names.join(" "));
        }
        s
    }
}

fn names(prefix: &str, m: usize) -> Vec<String> {
    (0..m).map(|i| format!("{prefix}{i}")).collect()
}

fn and(parts: Vec<String>) -> String {
    match parts.len() {
        0 => "true".into(),
        1 => parts.into_iter().next().unwrap_or_default(),
        _ => format!("(and {})", parts.join(" ")),
    }
}

fn or(parts: Vec<String>) -> String {
    match parts.len() {
        0 => "false".into(),
        1 => parts.into_iter().next().unwrap_or_default(),
        _ => format!("(or {})", parts.join(" ")),
    }
}

/// "The circle `v` (all entries positive where the game requires it) is in S": some family of its
/// length holds on some admissible reading.
pub fn member(c: &Conjecture, v: &[String]) -> Result<String> {
    let m = v.len();
    let ar = c.arith()?;
    let mut alts: Vec<String> = Vec::new();
    for map in c.readings(m)? {
        let slots: Vec<String> = map.iter().map(|&i| v[i].clone()).collect();
        let mut pre = Vec::new();
        if c.reading == ReadingRule::MinFirst {
            pre.extend((1..m).map(|j| ar.le(&slots[0], &slots[j])));
        }
        for f in c.families.iter().filter(|f| f.len == m) {
            let mut parts = pre.clone();
            let slots = f.arrange(&slots);
            for a in &f.atoms {
                parts.push(ar.atom(a, &slots).ok_or_else(|| {
                    Error::Unsupported(format!("family {}: xor is not linear", f.name))
                })?);
            }
            let s = and(parts);
            if !alts.contains(&s) {
                alts.push(s);
            }
        }
    }
    Ok(or(alts))
}

/// "The option whose entries are `y` is in S", where in SCN an entry 0 means the pile vanished; the
/// vanished piles lie inside one window of the circle of length `y.len()` (inside `within` when given).
pub fn member_after_move(c: &Conjecture, y: &[String], within: Option<&[usize]>) -> Result<String> {
    let m = y.len();
    if c.game.kind != RulesetKind::Scn {
        return member(c, y);
    }
    let ar = c.arith()?;
    let lengths: Vec<usize> = c.families.iter().map(|f| f.len).collect();
    let mut zero_sets: Vec<Vec<usize>> = Vec::new();
    let windows = match within {
        Some(w) => vec![w.to_vec()],
        None => c.game.windows(m),
    };
    for w in windows {
        for mask in 0u32..1 << w.len() {
            let z: Vec<usize> = {
                let mut z: Vec<usize> = (0..w.len())
                    .filter(|j| mask >> j & 1 == 1)
                    .map(|j| w[j])
                    .collect();
                z.sort_unstable();
                z
            };
            if lengths.contains(&(m - z.len())) && !zero_sets.contains(&z) {
                zero_sets.push(z);
            }
        }
    }
    let mut alts = Vec::new();
    for z in zero_sets {
        let mut parts: Vec<String> = (0..m)
            .map(|i| {
                if z.contains(&i) {
                    ar.eq(&y[i], &ar.lit(0))
                } else {
                    ar.le(&ar.lit(1), &y[i])
                }
            })
            .collect();
        let survivors: Vec<String> = (0..m)
            .filter(|i| !z.contains(i))
            .map(|i| y[i].clone())
            .collect();
        parts.push(member(c, &survivors)?);
        alts.push(and(parts));
    }
    Ok(or(alts))
}

/// "`y` is an option of `x`": for some window, entries outside it are kept, entries inside are
/// lowered to any value from 0 (in SCN: the pile vanishes) up to their height, at least one strictly.
pub fn option(c: &Conjecture, x: &[String], y: &[String]) -> Result<String> {
    let m = x.len();
    let ar = c.arith()?;
    let mut alts = Vec::new();
    for w in c.game.windows(m) {
        let mut parts: Vec<String> = (0..m)
            .filter(|i| !w.contains(i))
            .map(|i| ar.eq(&y[i], &x[i]))
            .collect();
        parts.push(lowered(ar, &w, x, y));
        alts.push(and(parts));
    }
    Ok(or(alts))
}

/// The entries of window `w` lowered: each to any value from 0 (in SCN: the pile vanishes) up to its
/// height, at least one strictly.
fn lowered(ar: Arith, w: &[usize], x: &[String], y: &[String]) -> String {
    let mut parts: Vec<String> = w
        .iter()
        .map(|&i| format!("(and {} {})", ar.le(&ar.lit(0), &y[i]), ar.le(&y[i], &x[i])))
        .collect();
    parts.push(or(w.iter().map(|&i| ar.lt(&y[i], &x[i])).collect()));
    and(parts)
}

/// "x0 is a minimal entry, and x1 <= x(m-1)". The set (membership is "some reading") and the moves
/// (the windows) are invariant under rotations and reflections, so a rotation that brings a minimal
/// entry to place 0, then the reflection that fixes place 0 if needed, turns any counterexample (with
/// its move) into one that satisfies this: adding it changes no answer, and helps the solver.
fn symmetry_breaking(c: &Conjecture, x: &[String]) -> Result<String> {
    let m = x.len();
    if c.game.kind == RulesetKind::Complex {
        return complex_symmetry_breaking(c, x);
    }
    let ar = c.arith()?;
    let mut parts: Vec<String> = (1..m).map(|i| ar.le(&x[0], &x[i])).collect();
    if m >= 3 {
        parts.push(ar.le(&x[1], &x[m - 1]));
    }
    Ok(and(parts))
}

/// For a complex read under its automorphism group G: "x0 is minimal on its orbit under G". The set
/// (membership is "some automorphism") and the moves (facets go to facets) are invariant under G, so
/// an automorphism taking a place of the orbit with the smallest entry to place 0 turns any
/// counterexample (with its move) into one that satisfies this; adding it changes no answer. Read
/// plainly, the set need not be invariant, and nothing is added.
fn complex_symmetry_breaking(c: &Conjecture, x: &[String]) -> Result<String> {
    if c.reading == ReadingRule::Plain {
        return Ok("true".into());
    }
    let mut orbit: Vec<usize> = c
        .readings(x.len())?
        .iter()
        .map(|g| g[0])
        .filter(|&j| j != 0)
        .collect();
    orbit.sort_unstable();
    orbit.dedup();
    let ar = c.arith()?;
    Ok(and(orbit.iter().map(|&j| ar.le(&x[0], &x[j])).collect()))
}

fn declare(s: &mut String, ar: Arith, vars: &[String]) {
    for v in vars {
        let _ = writeln!(s, "(declare-const {v} {})", ar.sort());
    }
}

fn domain(c: &Conjecture, ar: Arith, x: &[String]) -> String {
    and(x.iter().map(|v| ar.domain(v, c.game.min_entry())).collect())
}

/// The queries of condition `cond` for `c`, one per circle length (CN: n; SCN: every length where the
/// condition says something).
pub fn queries(c: &Conjecture, cond: Condition) -> Result<Vec<Query>> {
    let ar = c.arith()?;
    let mut out = Vec::new();
    match cond {
        Condition::III => {
            // The terminal position: CN's all-zero circle, SCN's empty circle.
            let m = match c.game.kind {
                RulesetKind::Cn | RulesetKind::Complex => c.game.n,
                RulesetKind::Scn => 0,
            };
            let x = names("x", m);
            let mut body = String::new();
            declare(&mut body, ar, &x);
            let _ = writeln!(
                body,
                "(assert {})",
                and(x.iter().map(|v| ar.eq(v, &ar.lit(0))).collect())
            );
            // Normal play: the terminal position is P, so (III) fails when it is outside S; misère
            // play: it is N, so (III) fails when it is in S.
            let (assertion, states) = match c.play {
                Play::Normal => (
                    format!("(not {})", member(c, &x)?),
                    "the terminal position is not in S",
                ),
                Play::Misere => (member(c, &x)?, "the terminal position is in S (misère play)"),
            };
            let _ = writeln!(body, "(assert {assertion})");
            out.push(Query {
                condition: cond,
                len: m,
                states: states.into(),
                body,
                check: "(check-sat)".into(),
                x,
                y: vec![],
            });
        }
        Condition::Closure => return closure_queries(c),
        Condition::Search => {
            return Err(Error::Unsupported(
                "prove decides the partition theorem's conditions (I)-(III); the comparison with search is verify's".into(),
            ))
        }
        Condition::I | Condition::II => {
            for m in c.game.lengths().into_iter().filter(|&m| m > 0) {
                let x = names("x", m);
                let y = names("y", m);
                let mut body = String::new();
                let _ = writeln!(body, "(set-option :produce-models true)");
                declare(&mut body, ar, &x);
                let _ = writeln!(body, "(assert {})", domain(c, ar, &x));
                let _ = writeln!(body, "(assert {})", symmetry_breaking(c, &x)?);
                if cond == Condition::I {
                    declare(&mut body, ar, &y);
                    let _ = writeln!(body, "(assert {})", member(c, &x)?);
                    let _ = writeln!(body, "(assert {})", option(c, &x, &y)?);
                    let _ = writeln!(body, "(assert {})", member_after_move(c, &y, None)?);
                } else {
                    let _ = writeln!(body, "(assert (not {}))", member(c, &x)?);
                    // Not terminal: some entry is positive (always so for an SCN circle, m >= 1).
                    let _ = writeln!(
                        body,
                        "(assert {})",
                        or(x.iter().map(|v| ar.lt(&ar.lit(0), v)).collect())
                    );
                    let bound: Vec<String> =
                        y.iter().map(|v| format!("({v} {})", ar.sort())).collect();
                    let _ = writeln!(
                        body,
                        "(assert (forall ({}) (=> {} (not {}))))",
                        bound.join(" "),
                        option(c, &x, &y)?,
                        member_after_move(c, &y, None)?
                    );
                }
                out.push(Query {
                    condition: cond,
                    len: m,
                    states: if cond == Condition::I {
                        "some move leads from a position in S to a position in S".into()
                    } else {
                        "some non-terminal position outside S has no move into S".into()
                    },
                    body,
                    check: match (cond, ar) {
                        (Condition::II, Arith::Bv { .. }) => "(check-sat-using qsat)".into(),
                        _ => "(check-sat)".into(),
                    },
                    x,
                    y: if cond == Condition::I { y } else { vec![] },
                });
            }
        }
    }
    Ok(out)
}

/// Condition (C) (see the module notes): one query per circle length of `x` (CN and complexes: one),
/// in SCN one per pair (length of `x`, length of the option `y`), `y` the circle of the piles that
/// remain. `x` and `y` are the counterexample's variables.
fn closure_queries(c: &Conjecture) -> Result<Vec<Query>> {
    let ar = c.arith()?;
    let mut out = Vec::new();
    let check = match ar {
        Arith::Bv { .. } => "(check-sat-using qsat)",
        Arith::Int => "(check-sat)",
    };
    let states = "a move leads from a position in S to a position with no move into S";
    // "For every option z of y, z is not in S" (y a circle of y.len() entries, or CN's tuple).
    let stranded = |y: &[String]| -> Result<String> {
        let z = names("z", y.len());
        let bound: Vec<String> = z.iter().map(|v| format!("({v} {})", ar.sort())).collect();
        Ok(format!(
            "(forall ({}) (=> {} (not {})))",
            bound.join(" "),
            option(c, y, &z)?,
            member_after_move(c, &z, None)?
        ))
    };
    let lengths: Vec<usize> = c.families.iter().map(|f| f.len).collect();
    for m in c.game.lengths().into_iter().filter(|&m| m > 0) {
        if c.game.kind == RulesetKind::Scn && !lengths.contains(&m) {
            continue;
        }
        let x = names("x", m);
        let head = |body: &mut String| -> Result<()> {
            let _ = writeln!(body, "(set-option :produce-models true)");
            declare(body, ar, &x);
            let _ = writeln!(body, "(assert {})", domain(c, ar, &x));
            let _ = writeln!(body, "(assert {})", symmetry_breaking(c, &x)?);
            let _ = writeln!(body, "(assert {})", member(c, &x)?);
            Ok(())
        };
        if c.game.kind != RulesetKind::Scn {
            let y = names("y", m);
            let mut body = String::new();
            head(&mut body)?;
            declare(&mut body, ar, &y);
            let _ = writeln!(body, "(assert {})", option(c, &x, &y)?);
            if c.play == Play::Misere {
                // A terminal option is an N-position in misère play: no move back is needed.
                let _ = writeln!(
                    body,
                    "(assert {})",
                    or(y.iter().map(|v| ar.lt(&ar.lit(0), v)).collect())
                );
            }
            let _ = writeln!(body, "(assert {})", stranded(&y)?);
            out.push(Query {
                condition: Condition::Closure,
                len: m,
                states: states.into(),
                body,
                check: check.into(),
                x: x.clone(),
                y,
            });
            continue;
        }
        // SCN: the option y keeps the piles outside a window w, lowers the others of w to 1..x_i
        // (some strictly when none vanishes) or empties them; the piles left form y's circle.
        let windows = c.game.windows(m);
        // In misère play the empty circle is an N-position: a member may empty its circle.
        let least = usize::from(c.play == Play::Misere);
        for t in (least..=m).rev() {
            let y = names("y", t);
            let mut alts: Vec<String> = Vec::new();
            for w in &windows {
                if w.len() < m - t {
                    continue;
                }
                for mask in 0u32..1 << w.len() {
                    if mask.count_ones() as usize != m - t {
                        continue;
                    }
                    let gone: Vec<usize> = (0..w.len())
                        .filter(|j| mask >> j & 1 == 1)
                        .map(|j| w[j])
                        .collect();
                    let sources: Vec<usize> = (0..m).filter(|i| !gone.contains(i)).collect();
                    let mut parts = Vec::new();
                    let mut lower = Vec::new();
                    for (j, &i) in sources.iter().enumerate() {
                        if w.contains(&i) {
                            parts.push(ar.le(&ar.lit(1), &y[j]));
                            parts.push(ar.le(&y[j], &x[i]));
                            lower.push(ar.lt(&y[j], &x[i]));
                        } else {
                            parts.push(ar.eq(&y[j], &x[i]));
                        }
                    }
                    if gone.is_empty() {
                        parts.push(or(lower));
                    }
                    let a = and(parts);
                    if !alts.contains(&a) {
                        alts.push(a);
                    }
                }
            }
            if alts.is_empty() {
                continue;
            }
            let mut body = String::new();
            head(&mut body)?;
            declare(&mut body, ar, &y);
            let _ = writeln!(body, "(assert {})", or(alts));
            // The empty circle has no move: a member that can empty its circle fails (C).
            if t > 0 {
                let _ = writeln!(body, "(assert {})", stranded(&y)?);
            }
            out.push(Query {
                condition: Condition::Closure,
                len: m,
                states: format!(
                    "{states} (circles of {m} piles, options of {})",
                    nimlab_core::plural_of(t, "pile", "piles")
                ),
                body,
                check: check.into(),
                x: x.clone(),
                y,
            });
        }
    }
    Ok(out)
}
