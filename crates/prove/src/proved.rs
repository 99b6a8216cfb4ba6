//! Which registry entries `nimlab prove --theorem ID` proves for every stack size, and on which games:
//! what `nimlab theory --json` reports as `checked`. The test `every_entry_listed_as_proved_is_proved`
//! (tests/proofs.rs) runs the prover on each pair listed here and fails unless it answers `proved`.

/// Registry entries with the games the prover proves them on. An entry about one game is proved for
/// every stack size; an entry about a family of games (`cn-n-n-1`, ...) only on the games listed.
pub const PROVED: &[(&str, &[&str])] = &[
    ("cn-n-n", &["CN(2,2)", "CN(3,3)", "CN(4,4)"]),
    (
        "cn-n-n-1",
        &["CN(3,2)", "CN(4,3)", "CN(5,4)", "CN(6,5)", "CN(7,6)"],
    ),
    ("cn-4-2", &["CN(4,2)"]),
    ("cn-5-2", &["CN(5,2)"]),
    ("cn-5-3", &["CN(5,3)"]),
    ("cn-6-3", &["CN(6,3)"]),
    ("cn-7-4", &["CN(7,4)"]),
    ("cn-8-6", &["CN(8,6)"]),
    ("scn-n-n", &["SCN(2,2)", "SCN(3,3)"]),
    ("scn-n-n-1", &["SCN(3,2)", "SCN(4,3)", "SCN(5,4)"]),
    ("scn-4-2", &["SCN(4,2)"]),
    ("scn-5-2", &["SCN(5,2)"]),
    ("scn-5-3", &["SCN(5,3)"]),
    ("scn-8-6", &["SCN(8,6)"]),
];

/// The pairs of [`PROVED`] and [`PROVED_SUBSET`] that cvc5 takes more than a few seconds to prove:
/// the test `every_entry_listed_as_proved_is_proved_by_cvc5_too` (tests/proofs.rs) re-proves every
/// other pair with cvc5 and z3 together (`--cross-check`); these are re-proved by
/// `scripts/bench-solvers.sh`, whose figures are in docs/benchmarks.md.
pub const SLOW_WITH_CVC5: &[(&str, &str)] = &[
    ("cn-7-4", "CN(7,4)"),
    ("cn-8-6", "CN(8,6)"),
    ("scn-8-6", "SCN(8,6)"),
    ("cn-lemma5-s1", "CN(9,5)"),
    ("cn-lemma5-s1", "CN(11,6)"),
];

/// Registry entries whose families use xor, proved in bit-vectors for entries below `2^w` on the games
/// listed (the test `every_entry_listed_as_proved_below_2_w_is_proved` runs each): evidence for all
/// sizes, not a proof.
pub const PROVED_BELOW: &[(&str, &[&str], u32)] = &[
    ("cn-6-4", &["CN(6,4)"], 4),
    ("bouton", &["CN(3,1)", "CN(4,1)"], 8),
];

/// Registry entries whose families use xor, proved for every stack size by the automata prover
/// (`prove --automata`) on the games listed (the test `every_entry_listed_as_proved_by_automata_is_proved`
/// in tests/automata.rs runs each).
pub const PROVED_BY_AUTOMATA: &[(&str, &[&str])] = &[
    ("cn-6-4", &["CN(6,4)"]),
    (
        "bouton",
        &["CN(2,1)", "CN(3,1)", "CN(4,1)", "CN(5,1)", "CN(6,1)"],
    ),
    // Misère play (`prove --theorem bouton-misere --misere --automata`).
    (
        "bouton-misere",
        &["CN(2,1)", "CN(3,1)", "CN(4,1)", "CN(5,1)", "CN(6,1)"],
    ),
];

/// Partial results (they decide only some positions, all of them P-positions), with the games on
/// which `prove --theorem ID` proves for every stack size that every member is a P-position
/// (condition (C), [`crate::prove_subset`]; the test `every_partial_entry_listed_is_proved` in
/// tests/proofs.rs runs each).
pub const PROVED_SUBSET: &[(&str, &[&str])] = &[(
    "cn-lemma5-s1",
    &["CN(3,2)", "CN(5,3)", "CN(7,4)", "CN(9,5)", "CN(11,6)"],
)];

/// Moore's Nim_k on n heaps, as the complex of all k-sets of n stacks (`moore(k)` relabeled), proved
/// for every heap size by the automata prover for these (n, every k from 2 to n - 2) (the test
/// `moore_for_every_size` in tests/automata.rs runs each; k = 1 is Nim, k = n - 1 is CN(n, n-1)).
pub const MOORE_PROVED_HEAPS: std::ops::RangeInclusive<usize> = 4..=7;

/// The complex of every k-set of n stacks, as nimlab names it.
pub fn all_k_sets(n: usize, k: usize) -> String {
    fn sets(from: usize, n: usize, k: usize, cur: &mut Vec<usize>, out: &mut Vec<String>) {
        if cur.len() == k {
            let s: Vec<String> = cur.iter().map(|i| i.to_string()).collect();
            out.push(format!("{{{}}}", s.join(",")));
            return;
        }
        for i in from..=n {
            cur.push(i);
            sets(i + 1, n, k, cur, out);
            cur.pop();
        }
    }
    let mut out = Vec::new();
    sets(1, n, k, &mut Vec::new(), &mut out);
    format!("simplicial({})", out.join(","))
}

/// How the registry entry `id` is checked: `"proved for all sizes"` (one game, proved by `prove`),
/// `"proved for all sizes on G1, G2, ...; checked on a box for the other games"` (a family of games),
/// `"proved below 2^w on G1, ...; checked on a box"` (bit-vectors), or `"checked on a box"` (the test
/// harness's boxes); `(automata)` follows "proved for all sizes" where the automata prover proved it;
/// with the games proved on.
pub fn checked(id: &str) -> (String, Vec<&'static str>) {
    if let Some(chips) = crate::chips::checked(id) {
        return chips;
    }
    if id == "moore" {
        let (lo, hi) = (MOORE_PROVED_HEAPS.start(), MOORE_PROVED_HEAPS.end());
        return (
            format!("proved for all sizes on {lo} to {hi} heaps, every k from 2 to heaps - 2, as the complex of all k-sets (automata); checked on a box for the other games"),
            vec!["moore(k) on n heaps: simplicial(all k-sets of n stacks)"],
        );
    }
    match PROVED_BY_AUTOMATA.iter().find(|(i, _)| *i == id) {
        Some((_, [game])) => return ("proved for all sizes (automata)".into(), vec![*game]),
        Some((_, games)) => {
            return (
                format!(
                    "proved for all sizes on {} (automata); checked on a box for the other games",
                    games.join(", ")
                ),
                games.to_vec(),
            )
        }
        None => {}
    }
    if let Some((_, games)) = PROVED_SUBSET.iter().find(|(i, _)| *i == id) {
        return (
            format!(
                "proved for all sizes on {} (its members are P-positions); checked on a box for the other games",
                games.join(", ")
            ),
            games.to_vec(),
        );
    }
    if let Some((_, games, w)) = PROVED_BELOW.iter().find(|(i, _, _)| *i == id) {
        return (
            format!(
                "proved below 2^{w} on {}; checked on a box",
                games.join(", ")
            ),
            games.to_vec(),
        );
    }
    match PROVED.iter().find(|(i, _)| *i == id) {
        Some((_, [game])) => ("proved for all sizes".into(), vec![*game]),
        Some((_, games)) => (
            format!(
                "proved for all sizes on {}; checked on a box for the other games",
                games.join(", ")
            ),
            games.to_vec(),
        ),
        None => ("checked on a box".into(), Vec::new()),
    }
}
