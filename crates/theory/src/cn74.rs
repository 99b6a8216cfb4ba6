//! CN(7,4): Theorem 2 of Dufour, Heubach & Vo. The P-positions are S1 ∪ S2 ∪ S3 ∪ S4, each read as
//! (a,b,c,d,e,f,g) from a minimal stack a (for some rotation or reflection). Winning moves are found by
//! solving each family's relations for the stacks of each window ([`crate::linear`]), which covers the
//! moves named by the paper's Valley, Multiple Zeros, Unique Zero and Maximum Lemmas.

use crate::linear::{Family, FamilyTheorem};

pub fn cn74() -> FamilyTheorem {
    FamilyTheorem::new(
        "cn-7-4",
        "CN(7,4)",
        "In CN(7,4) the P-positions are S1 ∪ S2 ∪ S3 ∪ S4, with p = (a,b,c,d,e,f,g) read from a minimal stack a (some rotation or reflection): S1: a = b = 0, c = g > 0, d + e + f = c; S2: all stacks equal; S3: a = b, c = g, d = f, a + c = d + e, 0 < a < e; S4: a = f, b + c = d + e = g + a, a < min(b, e), a < max(c, d).",
        "Dufour, Heubach & Vo, Circular Nim Games CN(7,4), Integers 21B (2021), Theorem 2; see docs/rules.md#theorem-cn-7-4",
        "CN",
        7,
        4,
        families,
    )
}

/// "a is a minimal stack" for a 7-slot reading.
const MIN_A: [&str; 6] = ["a <= b", "a <= c", "a <= d", "a <= e", "a <= f", "a <= g"];

fn with_min(label: &'static str, shape: &'static str, rels: &[&'static str]) -> Family {
    let mut all: Vec<&'static str> = rels.to_vec();
    all.extend(MIN_A);
    let mut f = Family::new(label, shape, 7, &all);
    f.relations = rels.to_vec();
    f
}

fn families() -> Vec<Family> {
    vec![
        with_min(
            "S1",
            "a = b = 0, c = g > 0, d + e + f = c",
            &["a = 0", "b = 0", "c = g", "c > 0", "d + e + f = c"],
        ),
        with_min("S2", "all stacks equal", &["a = b = c = d = e = f = g"]),
        with_min(
            "S3",
            "a = b, c = g, d = f, a + c = d + e, 0 < a < e",
            &["a = b", "c = g", "d = f", "a + c = d + e", "a > 0", "a < e"],
        ),
        // a < max(c, d) is split into a < c and a < d.
        with_min(
            "S4",
            "a = f, b + c = d + e = g + a, a < min(b, e), a < max(c, d)",
            &[
                "a = f",
                "b + c = d + e",
                "d + e = g + a",
                "a < b",
                "a < e",
                "a < c",
            ],
        ),
        with_min(
            "S4",
            "a = f, b + c = d + e = g + a, a < min(b, e), a < max(c, d)",
            &[
                "a = f",
                "b + c = d + e",
                "d + e = g + a",
                "a < b",
                "a < e",
                "a < d",
            ],
        ),
    ]
}
