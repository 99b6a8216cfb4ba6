//! Which registry entries `nimlab prove --theorem ID` proves for every stack size, and on which games:
//! what `nimlab theory --json` reports as `checked`, built only from the records here. Each record is
//! re-proved by a test: [`PROVED`] by `every_entry_listed_as_proved_is_proved` (tests/proofs.rs),
//! [`SIZES`] by tests/sizes.rs, [`EVERY_NUMBER_OF_HEAPS`] by tests/heaps.rs, and so on (each constant
//! names its test); a test fails unless the prover answers `proved`.

/// Registry entries about one game, each proved for every stack size on it. The results about a
/// family of games indexed by a size n are recorded in [`SIZES`].
pub const PROVED: &[(&str, &[&str])] = &[
    ("cn-4-2", &["CN(4,2)"]),
    ("cn-5-2", &["CN(5,2)"]),
    ("cn-5-3", &["CN(5,3)"]),
    ("cn-6-3", &["CN(6,3)"]),
    ("cn-7-4", &["CN(7,4)"]),
    ("cn-8-6", &["CN(8,6)"]),
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
/// in tests/automata.rs runs each). The results about a family of games are in [`SIZES`].
pub const PROVED_BY_AUTOMATA: &[(&str, &[&str])] = &[("cn-6-4", &["CN(6,4)"])];

/// Partial results (they decide only some positions, all of them P-positions), with the games on
/// which `prove --theorem ID` proves for every stack size that every member is a P-position
/// (condition (C), [`crate::prove_subset`]; the test `every_partial_entry_listed_is_proved` in
/// tests/proofs.rs runs each).
pub const PROVED_SUBSET: &[(&str, &[&str])] = &[(
    "cn-lemma5-s1",
    &["CN(3,2)", "CN(5,3)", "CN(7,4)", "CN(9,5)", "CN(11,6)"],
)];

/// How a result of [`SIZES`] is proved: by the SMT solver (z3) on linear families, or by the automata
/// prover (`prove --automata`: xor and Moore's column sums).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Via {
    Smt,
    Automata,
}

/// A registry result about a family of games indexed by a size n, proved for every stack size by
/// `prove --theorem ID` on the game(s) of each size in `proved`: the sizes that `scripts/prove-sizes.sh`
/// proved in under about a minute each, up to the largest the prover takes (26 stacks for the SMT
/// encoding's letters a..z, 8 stacks for CN and the complexes and 15 piles for SCN with automata),
/// figures in docs/benchmarks.md. The test `every_size_tested_is_proved` (tests/sizes.rs) re-proves the
/// sizes in `tested` (a few seconds in all); the ignored test `every_size_listed_is_proved` re-proves
/// every size of `proved` (`cargo test -p nimlab-prove --test sizes -- --ignored`). Sizes 1 and 2 are
/// left to the ignored test: the exact check on a box before "proved" searches a box of up to 20000
/// positions, which on one or two stacks means long lines (about a second each).
#[derive(Debug, Clone)]
pub struct Sizes {
    pub id: &'static str,
    /// The games of size n, as the report names them (`CN(n,n)`; for Moore's Nim_k on n heaps, every k).
    pub family: &'static str,
    pub via: Via,
    pub proved: std::ops::RangeInclusive<usize>,
    pub tested: std::ops::RangeInclusive<usize>,
}

impl Sizes {
    /// The games of size `n` that `prove --theorem ID` proves (Moore's Nim_k on n heaps: the complex of
    /// all k-sets of n stacks, for every k from 2 to n - 2; k = 1 is Nim and k = n - 1 is CN(n,n-1)).
    pub fn games(&self, n: usize) -> Vec<String> {
        match self.id {
            "cn-n-n" => vec![format!("CN({n},{n})")],
            "cn-n-n-1" => vec![format!("CN({n},{})", n - 1)],
            "scn-n-n" => vec![format!("SCN({n},{n})")],
            "scn-n-n-1" => vec![format!("SCN({n},{})", n - 1)],
            "scn-n-1" => vec![format!("SCN({n},1)")],
            "bouton" | "bouton-misere" => vec![format!("CN({n},1)")],
            "moore" => (2..=n.saturating_sub(2))
                .map(|k| all_k_sets(n, k))
                .collect(),
            _ => Vec::new(),
        }
    }
}

/// The results about a family of games, with the sizes proved (see [`Sizes`]).
pub const SIZES: &[Sizes] = &[
    Sizes {
        id: "bouton",
        family: "nim on n heaps (CN(n,1))",
        via: Via::Automata,
        proved: 1..=8,
        tested: 3..=5,
    },
    Sizes {
        id: "bouton-misere",
        family: "nim on n heaps (CN(n,1))",
        via: Via::Automata,
        proved: 1..=8,
        tested: 3..=5,
    },
    Sizes {
        id: "moore",
        family: "moore(k) on n heaps, every k from 2 to n - 2 (the complex of all k-sets)",
        via: Via::Automata,
        proved: 4..=8,
        tested: 4..=6,
    },
    Sizes {
        id: "cn-n-n",
        family: "CN(n,n)",
        via: Via::Smt,
        proved: 1..=26,
        tested: 3..=6,
    },
    Sizes {
        id: "cn-n-n-1",
        family: "CN(n,n-1)",
        via: Via::Smt,
        proved: 2..=26,
        tested: 3..=6,
    },
    Sizes {
        id: "scn-n-n",
        family: "SCN(n,n)",
        via: Via::Smt,
        proved: 1..=17,
        tested: 3..=5,
    },
    Sizes {
        id: "scn-n-n-1",
        family: "SCN(n,n-1)",
        via: Via::Smt,
        proved: 2..=16,
        tested: 3..=5,
    },
    Sizes {
        id: "scn-n-1",
        family: "SCN(n,1)",
        via: Via::Automata,
        proved: 1..=10,
        tested: 3..=6,
    },
];

/// Registry entries proved for every number of heaps at once (and every heap size) by
/// [`crate::heaps::prove_every_number_of_heaps`]: an induction over the heaps whose lemmas the automata
/// decide (the test `every_entry_listed_for_every_number_of_heaps_is_proved` in tests/heaps.rs runs
/// each).
pub const EVERY_NUMBER_OF_HEAPS: &[&str] = &["bouton", "bouton-misere"];

/// The record of `id` in [`SIZES`], if any.
pub fn sizes(id: &str) -> Option<&'static Sizes> {
    SIZES.iter().find(|s| s.id == id)
}

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
/// `"proved for all sizes on FAMILY for n = A to B; checked on a box for the other games"` (a result
/// of [`SIZES`]), `"proved below 2^w on G1, ...; checked on a box"` (bit-vectors), or `"checked on a
/// box"` (the test harness's boxes); `(automata)` follows "proved for all sizes" where the automata
/// prover proved it; with the games proved on.
pub fn checked(id: &str) -> (String, Vec<String>) {
    let owned = |games: &[&str]| games.iter().map(|g| g.to_string()).collect::<Vec<_>>();
    // The one-heap games: proved by the periodicity theorem itself, game by game, where the
    // computed prefix passes its check (nimlab sequence; the theorem covers exactly those games).
    if id == "octal-periodic" {
        return (
            "proved for all sizes (the periodicity theorem: Guy–Smith, or a window of t values for games that never split a heap), for each game whose first 4096 heaps pass its check".into(),
            vec!["every octal or subtraction game whose first 4096 heaps pass the periodicity check".into()],
        );
    }
    // Ferguson's chip games: their own records (crate::chips).
    if let Some((text, games)) = crate::chips::checked(id) {
        return (text, owned(&games));
    }
    if let Some(s) = sizes(id) {
        let (lo, hi) = (s.proved.start(), s.proved.end());
        let via = match s.via {
            Via::Automata => " (automata)",
            Via::Smt => "",
        };
        let mut games = if id == "moore" {
            vec![format!("{} for n = {lo} to {hi}", s.family)]
        } else {
            s.proved.clone().flat_map(|n| s.games(n)).collect()
        };
        if EVERY_NUMBER_OF_HEAPS.contains(&id) {
            games.insert(0, "nim on every number of heaps".into());
            return (
                format!(
                    "proved for all sizes and every number of heaps (an induction over the heaps, its lemmas by automata); also directly on {} for n = {lo} to {hi}{via}",
                    s.family
                ),
                games,
            );
        }
        return (
            format!(
                "proved for all sizes on {} for n = {lo} to {hi}{via}; checked on a box for the other games",
                s.family
            ),
            games,
        );
    }
    match PROVED_BY_AUTOMATA.iter().find(|(i, _)| *i == id) {
        Some((_, [game])) => return ("proved for all sizes (automata)".into(), owned(&[game])),
        Some((_, games)) => {
            return (
                format!(
                    "proved for all sizes on {} (automata); checked on a box for the other games",
                    games.join(", ")
                ),
                owned(games),
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
            owned(games),
        );
    }
    if let Some((_, games, w)) = PROVED_BELOW.iter().find(|(i, _, _)| *i == id) {
        return (
            format!(
                "proved below 2^{w} on {}; checked on a box",
                games.join(", ")
            ),
            owned(games),
        );
    }
    match PROVED.iter().find(|(i, _)| *i == id) {
        Some((_, [game])) => ("proved for all sizes".into(), owned(&[game])),
        Some((_, games)) => (
            format!(
                "proved for all sizes on {}; checked on a box for the other games",
                games.join(", ")
            ),
            owned(games),
        ),
        None => ("checked on a box".into(), Vec::new()),
    }
}
