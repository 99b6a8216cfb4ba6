//! The SMT queries of a chip claim ([`chip_queries`]), in linear integer arithmetic with `mod` by
//! constants: the moves of each game as linear terms over the boxes (one move shape per pair of
//! boxes or kept set, its parameters quantified where "every move" is stated), the declarations
//! of a position with the hint `v = q * a + r` that lets z3 read sets modulo q, and for (II) of
//! the redistribution games the norm formula and its witnesses ([`Norms`]). Bit-vector claims
//! ([`super::from_registry_bits`]) are written by [`super::bits`].

use super::bits::bv_queries;
use super::{ChipClaim, ChipGame, ChipKind, ChipQuery, Moves};
use nimlab_core::partition::Condition;
use nimlab_core::{Error, Play, Pos, Result};
use std::fmt::Write;
use std::ops::ControlFlow;

/// One kind of move: parameters (existential in a move, universal in "every move"), their
/// constraints, and the option's boxes as terms.
struct Shape {
    params: Vec<String>,
    valid: String,
    y: Vec<String>,
}

fn redistribute(x: &[String], tag: &str, k: usize, kept: &[usize]) -> Shape {
    let params: Vec<String> = (0..k).map(|l| format!("{tag}y{l}")).collect();
    let mut valid: Vec<String> = params.iter().map(|p| format!("(>= {p} 1)")).collect();
    valid.push(format!(
        "(= {} {})",
        sum(&params, &(0..k).collect::<Vec<_>>()),
        sum(x, kept)
    ));
    Shape {
        y: params.clone(),
        params,
        valid: and(&valid),
    }
}

pub(super) fn sum(x: &[String], which: &[usize]) -> String {
    match which {
        [] => "0".into(),
        [i] => x[*i].clone(),
        _ => format!(
            "(+ {})",
            which
                .iter()
                .map(|&i| x[i].as_str())
                .collect::<Vec<_>>()
                .join(" ")
        ),
    }
}

pub(super) fn and(v: &[String]) -> String {
    match v {
        [] => "true".into(),
        [one] => one.clone(),
        _ => format!("(and {})", v.join(" ")),
    }
}

pub(super) fn or(v: &[String]) -> String {
    match v {
        [] => "false".into(),
        [one] => one.clone(),
        _ => format!("(or {})", v.join(" ")),
    }
}

/// `(member t0 .. t(k-1))`.
pub(super) fn call(f: &str, y: &[String]) -> String {
    format!("({f} {})", y.join(" "))
}

pub(super) fn xs(k: usize) -> Vec<String> {
    (0..k).map(|i| format!("x{i}")).collect()
}

impl ChipGame {
    /// Every move shape of position `x` (terms), its parameters named with `tag`.
    fn shapes(&self, x: &[String], tag: &str) -> Vec<Shape> {
        let k = self.k;
        match &self.moves {
            Moves::Et | Moves::Entropy => {
                let mut out = Vec::new();
                for i in 0..k {
                    for j in 0..k {
                        if i != j {
                            out.push(self.pair(x, tag, i, j));
                        }
                    }
                }
                out
            }
            Moves::Redistribute(_) => self
                .kept_sets()
                .iter()
                .map(|kept| redistribute(x, tag, k, kept))
                .collect(),
        }
    }

    /// The move shapes up to a permutation of the boxes: boxes (0, 1), or the first s kept boxes.
    fn orbit_shapes(&self, x: &[String], tag: &str) -> Vec<Shape> {
        match &self.moves {
            Moves::Et | Moves::Entropy => vec![self.pair(x, tag, 0, 1)],
            Moves::Redistribute(sizes) => sizes
                .iter()
                .map(|&s| redistribute(x, tag, self.k, &(0..s).collect::<Vec<_>>()))
                .collect(),
        }
    }

    /// ET: empty box i, move t chips of box j into it. Entropy: move t chips from box i to box j.
    fn pair(&self, x: &[String], tag: &str, i: usize, j: usize) -> Shape {
        let t = format!("{tag}t");
        let mut y = x.to_vec();
        let valid = if self.moves == Moves::Et {
            y[i] = t.clone();
            y[j] = format!("(- {} {t})", x[j]);
            format!("(and (<= 1 {t}) (<= {t} (- {} 1)))", x[j])
        } else {
            y[i] = format!("(- {} {t})", x[i]);
            y[j] = format!("(+ {} {t})", x[j]);
            format!("(and (<= 1 {t}) (<= {t} (- {} {} 1)))", x[i], x[j])
        };
        Shape {
            params: vec![t],
            valid,
            y,
        }
    }

    /// Whether position `x` (terms) has a move.
    pub(super) fn nonterminal(&self, x: &[String]) -> String {
        let k = self.k;
        let mut any = Vec::new();
        match &self.moves {
            Moves::Et => any.extend(x.iter().map(|v| format!("(>= {v} 2)"))),
            Moves::Entropy => {
                for i in 0..k {
                    for j in 0..k {
                        if i != j {
                            any.push(format!("(>= (- {} {}) 2)", x[i], x[j]));
                        }
                    }
                }
            }
            Moves::Redistribute(_) => {
                for kept in self.kept_sets() {
                    any.push(format!("(>= {} {k})", sum(x, &kept)));
                }
            }
        }
        or(&any)
    }
}

/// The declarations of position `x` (boxes >= the least content).
pub(super) fn declare_x(c: &ChipClaim, out: &mut String, hints: bool) -> Vec<String> {
    let x = xs(c.game.k);
    for v in &x {
        let _ = writeln!(
            out,
            "(declare-const {v} Int)\n(assert (>= {v} {}))",
            c.game.least()
        );
        if hints {
            hint(v, c.set.hint_period(), out);
        }
    }
    x
}

/// `v = q * a + r` with `a >= 0` and `0 <= r < q` for fresh `a`, `r`: true of every integer
/// `v >= 0` (every box and total it is given, by the query's other constraints), so it changes no
/// answer; it lets z3's `solve-eqs` rewrite sums of boxes into sums of residues, which decides the
/// queries about sets read modulo q at once (without it, z3 and cvc5 time out on EABO(4) misère).
pub(super) fn hint(v: &str, q: u64, out: &mut String) {
    if q > 1 {
        let _ = writeln!(
            out,
            "(declare-const {v}_a Int)\n(declare-const {v}_r Int)\n(assert (= {v} (+ (* {q} {v}_a) {v}_r)))\n(assert (>= {v}_a 0))\n(assert (and (<= 0 {v}_r) (< {v}_r {q})))"
        );
    }
}

/// Declares the existential parameters of `s` and the option's boxes as variables `name0..`.
fn declare_move(s: &Shape, name: &str, out: &mut String, hints: Option<u64>) -> Vec<String> {
    for p in &s.params {
        let _ = writeln!(out, "(declare-const {p} Int)");
    }
    let _ = writeln!(out, "(assert {})", s.valid);
    let y: Vec<String> = (0..s.y.len()).map(|l| format!("{name}{l}")).collect();
    for (v, t) in y.iter().zip(&s.y) {
        let _ = writeln!(out, "(declare-const {v} Int)\n(assert (= {v} {t}))");
        if let Some(q) = hints {
            hint(v, q, out);
        }
    }
    y
}

/// "Every move of `x` leaves `set`" (one universal quantifier per shape).
fn stuck(c: &ChipClaim, x: &[String], tag: &str, set: &str) -> String {
    let all: Vec<String> = c
        .game
        .shapes(x, tag)
        .iter()
        .map(|s| {
            let vars: Vec<String> = s.params.iter().map(|p| format!("({p} Int)")).collect();
            format!(
                "(forall ({}) (=> {} (not {})))",
                vars.join(" "),
                s.valid,
                call(set, &s.y)
            )
        })
        .collect();
    and(&all)
}

/// The norm formula and witness of (II) for a redistribution game: totals n for which a member of
/// total n was found (below the threshold one by one, above it by residue mod the period, the
/// largest box lifted by multiples of the period).
struct Norms {
    threshold: u64,
    period: u64,
    small: Vec<(u64, Pos)>,
    residues: Vec<(u64, Pos)>,
}

/// Most partitions of one total searched for a member (the witnesses of (II)).
const WITNESS_SEARCH_CAP: u64 = 200_000;

fn norms(c: &ChipClaim) -> Result<Norms> {
    let k = c.game.k;
    let kk = k as u64;
    let q = c.set.period.max(1);
    let f = nimlab_theory::ferguson::er_f(kk);
    let from = c
        .totals
        .as_ref()
        .map_or(0, |t| t.threshold.saturating_add(kk));
    let threshold = (kk * (f + 1).max(3)).max(from);
    let exact = &c.set.exact;
    let find = |n: u64, lift: bool| -> Option<Pos> {
        let mut found = None;
        // A total with no member among its first partitions is left out of phi (IIb then says
        // whether that matters), so that many boxes never make this search endless.
        let mut left = WITNESS_SEARCH_CAP;
        let _ = nimlab_games::chip::partitions(n, k, 1, &mut |y| {
            left -= 1;
            if left == 0 {
                return ControlFlow::Break(());
            }
            let ok = exact(y) && {
                let mut z = y.to_vec();
                if let Some(last) = z.last_mut() {
                    *last += q;
                }
                !lift || exact(&z)
            };
            if ok {
                found = Some(y.to_vec());
                ControlFlow::Break(())
            } else {
                ControlFlow::Continue(())
            }
        });
        found
    };
    let mut small = Vec::new();
    for n in kk..threshold {
        nimlab_core::interrupt::check()?;
        if let Some(y) = find(n, false) {
            small.push((n, y));
        }
    }
    let mut residues = Vec::new();
    for r in 0..q {
        nimlab_core::interrupt::check()?;
        if let Some(y) = find(threshold + r, true) {
            residues.push((r, y));
        }
    }
    Ok(Norms {
        threshold,
        period: q,
        small,
        residues,
    })
}

impl Norms {
    /// `(define-fun phi ((n Int)) Bool ...)` and `(define-fun w_l ((n Int)) Int ...)`.
    fn define(&self, k: usize) -> String {
        let (t, q) = (self.threshold, self.period);
        let mut cases: Vec<String> = self
            .small
            .iter()
            .map(|(n, _)| format!("(= n {n})"))
            .collect();
        let res: Vec<String> = self
            .residues
            .iter()
            .map(|(r, _)| format!("(= (mod (- n {t}) {q}) {r})"))
            .collect();
        cases.push(format!("(and (>= n {t}) {})", or(&res)));
        let mut out = format!("(define-fun phi ((n Int)) Bool {})\n", or(&cases));
        for l in 0..k {
            let mut term = "1".to_string();
            for (r, y) in self.residues.iter().rev() {
                let v = if l == k - 1 {
                    format!("(+ {} (- n {}))", y[l], t + r)
                } else {
                    y[l].to_string()
                };
                term = format!("(ite (= (mod (- n {t}) {q}) {r}) {v} {term})");
            }
            term = format!("(ite (>= n {t}) {term} 1)");
            for (n, y) in self.small.iter().rev() {
                term = format!("(ite (= n {n}) {} {term})", y[l]);
            }
            let _ = writeln!(out, "(define-fun w{l} ((n Int)) Int {term})");
        }
        out
    }
}

/// Every query of condition `cond` for claim `c`.
pub fn chip_queries(c: &ChipClaim, cond: Condition) -> Result<Vec<ChipQuery>> {
    if let Some(w) = c.bits {
        return Ok(bv_queries(c, w, cond));
    }
    let k = c.game.k;
    let head = || {
        let mut s = c.set.define("member", k);
        if let Some(t) = &c.target {
            s.push_str(&t.define("target", k));
        }
        s
    };
    // Membership with the residues the hints declared (`v_r`), when there are.
    let hinted = |y: &[String]| -> String {
        if c.set.hint_period() > 1 {
            let r: Vec<String> = y.iter().map(|v| format!("{v}_r")).collect();
            c.set.of(y, Some(&r))
        } else {
            call("member", y)
        }
    };
    let mut out = Vec::new();
    match cond {
        Condition::I => {
            for (i, shape) in c.game.orbit_shapes(&xs(k), "m").iter().enumerate() {
                let mut text = head();
                let x = declare_x(c, &mut text, true);
                let y = declare_move(shape, "y", &mut text, Some(c.set.hint_period()));
                let _ = writeln!(text, "(assert {})\n(assert {})", hinted(&x), hinted(&y));
                out.push(ChipQuery {
                    condition: cond,
                    label: "I",
                    vars: x.into_iter().chain(y).collect(),
                    quantified: false,
                    bv: false,
                    states: format!("a member x moves to a member y (moves of kind {i}, up to a permutation of the boxes)"),
                    text,
                });
            }
        }
        Condition::II if c.game.is_redistribute() && c.kind == ChipKind::PSet => {
            let nm = norms(c)?;
            let mut text = head();
            text.push_str(&nm.define(k));
            text.push_str("(declare-const n Int)\n(assert (phi n))\n");
            hint("n", c.set.hint_period(), &mut text);
            let w: Vec<String> = (0..k).map(|l| format!("(w{l} n)")).collect();
            let mut ok: Vec<String> = w.iter().map(|v| format!("(>= {v} 1)")).collect();
            ok.push(format!("(= {} n)", sum(&w, &(0..k).collect::<Vec<_>>())));
            ok.push(call("member", &w));
            let _ = writeln!(text, "(assert (not {}))", and(&ok));
            out.push(ChipQuery {
                condition: cond,
                label: "IIa",
                vars: vec!["n".into()],
                quantified: false,
                bv: false,
                states: "a total n with phi(n) whose witness w(n) is not a member of total n"
                    .into(),
                text,
            });
            let mut text = head();
            text.push_str(&nm.define(k));
            let x = declare_x(c, &mut text, true);
            let _ = writeln!(
                text,
                "(assert (not {}))\n(assert {})",
                hinted(&x),
                c.game.nonterminal(&x)
            );
            for kept in c.game.kept_sets() {
                let _ = writeln!(text, "(assert (not (phi {})))", sum(&x, &kept));
            }
            out.push(ChipQuery {
                condition: cond,
                label: "IIb",
                vars: x,
                quantified: false,
                bv: false,
                states: "a non-terminal x outside the set keeps no total n with phi(n)".into(),
                text,
            });
        }
        Condition::II => {
            // Every non-member (Winning: every member) has a move into the set (the target).
            let (from, into) = match c.kind {
                ChipKind::Winning => ("member", "target"),
                _ => ("member", "member"),
            };
            let mut text = head();
            let x = declare_x(c, &mut text, false);
            if c.kind == ChipKind::Winning {
                let _ = writeln!(text, "(assert {})", call(from, &x));
            } else {
                let _ = writeln!(text, "(assert (not {}))", call(from, &x));
            }
            let _ = writeln!(
                text,
                "(assert {})\n(assert {})",
                c.game.nonterminal(&x),
                stuck(c, &x, "u", into)
            );
            if c.game.is_redistribute() {
                return Err(Error::Unsupported(
                    "a winning-move claim about a redistribution game".into(),
                ));
            }
            out.push(ChipQuery {
                condition: cond,
                label: "II",
                vars: x,
                quantified: true,
                bv: false,
                states: if c.kind == ChipKind::Winning {
                    "a member x has no move into the target set".into()
                } else {
                    "a non-terminal x outside the set has no move into it".into()
                },
                text,
            });
        }
        Condition::III => {
            let mut text = head();
            let x = declare_x(c, &mut text, true);
            let m = hinted(&x);
            let side = if c.play == Play::Normal {
                format!("(not {m})")
            } else {
                m
            };
            let _ = writeln!(
                text,
                "(assert (not {}))\n(assert {side})",
                c.game.nonterminal(&x)
            );
            out.push(ChipQuery {
                condition: cond,
                label: "III",
                vars: x,
                quantified: false,
                bv: false,
                states: format!(
                    "a terminal x {} the set",
                    if c.play == Play::Normal {
                        "outside"
                    } else {
                        "inside"
                    }
                ),
                text,
            });
        }
        Condition::Closure => {
            for (i, shape) in c.game.orbit_shapes(&xs(k), "m").iter().enumerate() {
                let mut text = head();
                let x = declare_x(c, &mut text, false);
                let y = declare_move(shape, "y", &mut text, None);
                let _ = writeln!(text, "(assert {})", call("member", &x));
                if c.play == Play::Misere {
                    let _ = writeln!(text, "(assert {})", c.game.nonterminal(&y));
                }
                let _ = writeln!(text, "(assert {})", stuck(c, &y, "u", "member"));
                out.push(ChipQuery {
                    condition: cond,
                    label: "C",
                    vars: x.into_iter().chain(y).collect(),
                    quantified: true,
                    bv: false,
                    states: format!("a member x moves to y (moves of kind {i}, up to a permutation) from which no move returns into the set"),
                    text,
                });
            }
        }
        Condition::Search => {}
    }
    Ok(out)
}
