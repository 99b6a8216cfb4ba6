//! The relation language: parsing, exact evaluation and the limits on constants.

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
    assert!(holds(
        "281474976710656 * (1125899906842624 * a) - 281474976710656 * (1125899906842624 * b) = 0",
        &[big, big]
    ));
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

#[test]
fn formulas_parse_evaluate_and_write() {
    use crate::arith::Arith;
    let f = Formula::parse(
        "all(any(1 <= a <= 2, all(a >= 3, 3 <= mod(a, 10) <= 4)), not(b = c))",
        3,
    )
    .unwrap();
    assert!(f.holds(&[2, 0, 1]));
    assert!(f.holds(&[13, 5, 6]));
    assert!(!f.holds(&[15, 5, 6]));
    assert!(!f.holds(&[1, 4, 4]));
    let names: Vec<String> = ["x0", "x1", "x2"].iter().map(|s| s.to_string()).collect();
    assert_eq!(
        Arith::Int.formula(&f, &names).unwrap(),
        "(and (or (and (<= 1 x0) (<= x0 2)) (and (>= x0 3) (and (<= 3 (mod x0 10)) (<= (mod x0 10) 4)))) (not (= x1 x2)))"
    );
    // mod(box, 10) read as the residue variable of the box (slot 3 + i).
    let r: Vec<String> = ["x0", "x1", "x2", "r0", "r1", "r2"]
        .iter()
        .map(|s| s.to_string())
        .collect();
    let g = Formula::parse("mod(a, 10) + mod(b, 7) = mod(a + c, 10)", 3).unwrap();
    assert_eq!(
        Arith::Int.formula(&g.with_residues(10, 3), &r).unwrap(),
        "(= (+ r0 (mod x1 7)) (mod (+ x0 x2) 10))"
    );
    // Empty conjunctions and disjunctions; refusals in one line.
    assert_eq!(
        Arith::Int.formula(&Formula::And(vec![]), &names).unwrap(),
        "true"
    );
    assert_eq!(
        Arith::Int.formula(&Formula::Or(vec![]), &names).unwrap(),
        "false"
    );
    assert!(Formula::parse("all(a = 1, b = 2", 3).is_err());
    assert!(Formula::parse("not(a = 1, b = 2)", 3).is_err());
    assert!(Formula::parse("any(a = 1, d = 2)", 3).is_err());
}
