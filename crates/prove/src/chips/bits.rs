//! The bit-vector queries of the chip results that read binary digits (ET(3)'s equal 2-adic
//! valuations, ENTROPY(3)'s 4^n m), for boxes below 2^w ([`super::from_registry_bits`]): evidence for
//! every size, not a proof (the automata prove them for every size).

use super::queries::or;
use super::{ChipClaim, ChipQuery, Moves};
use crate::arith::Arith;
use nimlab_core::partition::Condition;
use nimlab_core::Play;
use std::fmt::Write;

/// The bit-vector queries of (I), (II), (III) for ET(3) and ENTROPY(3) ([`from_registry_bits`]):
/// boxes of `w + 2` bits below 2^w, so that no difference or sum of the moves wraps.
pub(super) fn bv_queries(c: &ChipClaim, w: u32, cond: Condition) -> Vec<ChipQuery> {
    let width = w + 2;
    let lit = |n: u64| format!("(_ bv{n} {width})");
    let entropy = c.game.moves == Moves::Entropy;
    let low = |v: &str| format!("(bvand {v} (bvneg {v}))");
    let x: Vec<String> = (0..3).map(|i| format!("x{i}")).collect();
    let member = if let Some(f) = &c.set.member {
        // A set given as a formula (the tests' wrong variants), in the same bit-vectors.
        Arith::Bv { w, width }
            .formula(f, &x)
            .unwrap_or_else(|| "false".into())
    } else if entropy {
        // Two boxes equal, and the third differs by 0 or by 4^n m, m odd.
        let mut cases = Vec::new();
        for (a, b, d) in [(0, 1, 2), (0, 2, 1), (1, 2, 0)] {
            let diff = format!("(ite (bvuge x{d} x{a}) (bvsub x{d} x{a}) (bvsub x{a} x{d}))");
            let even_power = (0..width).step_by(2).fold(0u64, |m, i| m | (1u64 << i));
            cases.push(format!(
                "(and (= x{a} x{b}) (let ((d {diff})) (or (= d {}) (not (= (bvand (bvand d (bvneg d)) {}) {})))))",
                lit(0),
                lit(even_power),
                lit(0)
            ));
        }
        or(&cases)
    } else {
        format!(
            "(and (= {} {}) (= {} {}))",
            low("x0"),
            low("x1"),
            low("x1"),
            low("x2")
        )
    };
    let args: Vec<String> = (0..3)
        .map(|i| format!("(x{i} (_ BitVec {width}))"))
        .collect();
    let head = format!("(define-fun member ({}) Bool {member})\n", args.join(" "));
    let declare = |out: &mut String, names: &[String]| {
        for v in names {
            let least = if entropy { 0 } else { 1 };
            let _ = writeln!(
                out,
                "(declare-const {v} (_ BitVec {width}))\n(assert (bvule {} {v}))\n(assert (bvult {v} {}))",
                lit(least),
                lit(1u64 << w)
            );
        }
    };
    // The move (i, j) with parameter t: validity and the option.
    let shape = |x: &[String], t: &str, i: usize, j: usize| -> (String, Vec<String>) {
        let mut y = x.to_vec();
        if entropy {
            y[i] = format!("(bvsub {} {t})", x[i]);
            y[j] = format!("(bvadd {} {t})", x[j]);
            (
                format!(
                    "(and (bvuge {} (bvadd {} {})) (bvule {} {t}) (bvule {t} (bvsub (bvsub {} {}) {})) (bvult {t} {}))",
                    x[i], x[j], lit(2), lit(1), x[i], x[j], lit(1), lit(1u64 << w)
                ),
                y,
            )
        } else {
            y[i] = t.to_string();
            y[j] = format!("(bvsub {} {t})", x[j]);
            (
                format!("(and (bvule {} {t}) (bvult {t} {}))", lit(1), x[j]),
                y,
            )
        }
    };
    let nonterminal = |x: &[String]| -> String {
        let mut any = Vec::new();
        for i in 0..3 {
            if entropy {
                for j in 0..3 {
                    if i != j {
                        any.push(format!("(bvuge {} (bvadd {} {}))", x[i], x[j], lit(2)));
                    }
                }
            } else {
                any.push(format!("(bvuge {} {})", x[i], lit(2)));
            }
        }
        or(&any)
    };
    let mut text = head;
    declare(&mut text, &x);
    let q =
        |label: &'static str, text: String, vars: Vec<String>, quantified: bool, states: &str| {
            ChipQuery {
                condition: cond,
                label,
                text,
                vars,
                quantified,
                bv: true,
                states: format!("{states} (boxes below 2^{w})"),
            }
        };
    match cond {
        Condition::I => {
            let _ = writeln!(text, "(declare-const t (_ BitVec {width}))");
            let (valid, y) = shape(&x, "t", 0, 1);
            let ys: Vec<String> = (0..3).map(|l| format!("y{l}")).collect();
            for (v, term) in ys.iter().zip(&y) {
                let _ = writeln!(
                    text,
                    "(declare-const {v} (_ BitVec {width}))\n(assert (= {v} {term}))"
                );
            }
            let _ = writeln!(
                text,
                "(assert {valid})\n(assert (member x0 x1 x2))\n(assert (member y0 y1 y2))"
            );
            vec![q(
                "I",
                text,
                x.iter().chain(&ys).cloned().collect(),
                false,
                "a member x moves to a member y",
            )]
        }
        Condition::II => {
            let _ = writeln!(
                text,
                "(assert (not (member x0 x1 x2)))\n(assert {})",
                nonterminal(&x)
            );
            for i in 0..3 {
                for j in 0..3 {
                    if i != j {
                        let (valid, y) = shape(&x, "t", i, j);
                        let _ = writeln!(
                            text,
                            "(assert (forall ((t (_ BitVec {width}))) (=> {valid} (not (member {})))))",
                            y.join(" ")
                        );
                    }
                }
            }
            vec![q(
                "II",
                text,
                x,
                true,
                "a non-terminal x outside the set has no move into it",
            )]
        }
        Condition::III => {
            let side = if c.play == Play::Normal {
                "(not (member x0 x1 x2))"
            } else {
                "(member x0 x1 x2)"
            };
            let _ = writeln!(text, "(assert (not {}))\n(assert {side})", nonterminal(&x));
            vec![q(
                "III",
                text,
                x,
                false,
                "a terminal x on the wrong side of the set",
            )]
        }
        _ => Vec::new(),
    }
}
