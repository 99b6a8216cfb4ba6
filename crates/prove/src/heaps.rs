//! Results for every number of heaps at once. The automata prover reads the heaps of one position in
//! parallel, one track per heap, so it proves a result for one number of heaps at a time (at most
//! [`crate::automata::MAX_TRACKS`] / 2 of them). Bouton's theorem holds for every number of heaps by
//! an induction over the heaps whose steps are statements about a fixed number of values (a heap, the
//! xor of the other heaps, ...), and each such statement is decided here by the automata prover for
//! every size of the values: [`prove_every_number_of_heaps`].
//!
//! The argument, for A = {x : x1 xor ... xor xn = 0} on n heaps (any n >= 0). The xor of a list of
//! numbers is associative and commutative, so the xor X of all heaps is x_i xor R_i, R_i the xor of
//! the other heaps, whichever heap i is singled out; the xor of no heap is 0.
//!
//! - (III) The terminal position (every heap empty) has X = 0, so it is in A.
//! - (I) A move lowers one heap from a to b < a and leaves the others, whose xor c it does not
//!   change: lemma `one-heap` says that a xor c = 0 and b xor c = 0 cannot both hold.
//! - (II) Let X != 0. Claim: for every list of heaps with xor S and every T with S xor T < S, some
//!   heap h of the list has h xor T < h. By induction on the length of the list: the empty list has
//!   S = 0 and 0 xor T < 0 is false; a list L followed by a heap b has S = a xor b with a the xor
//!   of L, and lemma `step` says that b xor T < b or a xor T < a (then the induction hypothesis
//!   for L gives the heap). Lemma `start` (X xor X < X for X != 0) lets the claim apply with T = X:
//!   some heap h has h xor X < h, so lowering h to h xor X is a move, and lemma `lands` says that it
//!   reaches xor 0, a position of A.
//!
//! By the partition theorem (docs/rules.md) A is the P-set of Nim on n heaps, for every n. The step
//! from the lemmas to the theorem is the argument above, written here and in docs/findings.md, not a
//! machine-checked one; the lemmas themselves are decided for every size of their values.

use crate::automata::{self, Budget, Stop};
use crate::conjecture::PFamily;
use crate::prove::Status;
use nimlab_core::{Error, Result};
use std::time::{Duration, Instant};

/// One lemma about a fixed number of values `a, b, c, ...` (natural numbers of any size).
#[derive(Debug, Clone, Copy)]
pub struct Lemma {
    pub name: &'static str,
    /// What it says, in words.
    pub statement: &'static str,
    /// What each value stands for in the argument, `a` first.
    pub values: &'static [&'static str],
    /// The relations a counterexample satisfies (the negation of the lemma): the lemma holds when no
    /// tuple of natural numbers satisfies them all.
    pub counterexample: &'static [&'static str],
}

/// The lemmas of Bouton's theorem for every number of heaps (see the module's documentation).
pub const BOUTON: &[Lemma] = &[
    Lemma {
        name: "one-heap",
        statement: "a xor c = 0 and b xor c = 0 imply b >= a: no move between two positions of xor 0",
        values: &[
            "a heap before the move",
            "the same heap after it",
            "the xor of the other heaps",
        ],
        counterexample: &["xor(a, c) = 0", "xor(b, c) = 0", "b < a"],
    },
    Lemma {
        name: "start",
        statement: "a > 0 implies a xor a < a: the claim applies to T = X when X != 0",
        values: &["the xor X of all heaps"],
        counterexample: &["a > 0", "xor(a, a) >= a"],
    },
    Lemma {
        name: "step",
        statement: "(a xor b) xor c < a xor b implies b xor c < b or a xor c < a: the induction step over the heaps",
        values: &[
            "the xor of the first heaps",
            "the next heap",
            "T",
        ],
        counterexample: &["xor(a, b, c) < xor(a, b)", "xor(b, c) >= b", "xor(a, c) >= a"],
    },
    Lemma {
        name: "lands",
        statement: "(a xor (a xor b)) xor b = 0: lowering a heap a to a xor X, X = a xor b, leaves xor 0",
        values: &["the heap lowered", "the xor of the other heaps"],
        counterexample: &["xor(xor(a, xor(a, b)), b) != 0"],
    },
];

/// The answer for one lemma.
#[derive(Debug, Clone)]
pub struct LemmaReport {
    pub lemma: Lemma,
    /// Proved (no counterexample of any size), refuted (with one, re-checked) or unknown (limits).
    pub status: Status,
    /// The values of a counterexample, `a` first, re-checked by evaluating the relations exactly.
    pub counterexample: Option<Vec<u128>>,
    pub reason: Option<String>,
    pub seconds: f64,
}

/// The proof of a result for every number of heaps: each lemma's answer.
#[derive(Debug, Clone)]
pub struct HeapsReport {
    /// The registry entry, e.g. `bouton`.
    pub theorem: String,
    /// Proved when every lemma is; refuted when one is refuted (the argument fails: a lemma is false);
    /// unknown otherwise.
    pub verdict: Status,
    pub lemmas: Vec<LemmaReport>,
    pub seconds: f64,
}

impl HeapsReport {
    /// The report as JSON (`nimlab prove nim --theorem bouton --automata --json`).
    pub fn to_json(&self) -> serde_json::Value {
        let lemmas: Vec<serde_json::Value> = self
            .lemmas
            .iter()
            .map(|l| {
                serde_json::json!({
                    "lemma": l.lemma.name,
                    "statement": l.lemma.statement,
                    "values": l.lemma.values,
                    "counterexample_relations": l.lemma.counterexample,
                    "status": l.status.name(),
                    "reason": l.reason,
                    "counterexample": l.counterexample.as_ref().map(|v| v.iter().map(|x| x.to_string()).collect::<Vec<_>>()),
                    "seconds": l.seconds,
                })
            })
            .collect();
        serde_json::json!({
            "game": "nim",
            "heaps": "any",
            "source": format!("theorem {}", self.theorem),
            "verdict": self.verdict.name(),
            "range": "all",
            "method": "induction over the heaps, lemmas by automata",
            "play": "normal",
            "seconds": self.seconds,
            "lemmas": lemmas,
        })
    }
}

/// The lemmas of registry entry `id` for every number of heaps (only `bouton` has them).
pub fn lemmas(id: &str) -> Result<&'static [Lemma]> {
    match id {
        "bouton" => Ok(BOUTON),
        _ => Err(Error::Unsupported(format!(
            "{id}: nimlab proves only bouton for every number of heaps (an induction over the heaps, docs/findings.md); give --heaps N"
        ))),
    }
}

/// Decides one lemma for every size of its values: the automaton of its counterexamples is empty, or
/// its shortest word is a counterexample (re-checked by evaluating the relations exactly; one that does
/// not re-check is an error, never a refutation).
pub fn decide(lemma: &Lemma, budget: &Budget) -> Result<LemmaReport> {
    let start = Instant::now();
    let relations: Vec<String> = lemma.counterexample.iter().map(|r| r.to_string()).collect();
    let f = PFamily::parse(lemma.name, lemma.values.len(), &relations)?;
    let (status, counterexample, reason) = match automata::family(&f, budget) {
        Ok(d) => match d.witness() {
            None => (Status::Proved, None, None),
            Some(w) => {
                let t: Vec<i128> = w
                    .iter()
                    .map(|&x| i128::try_from(x))
                    .collect::<std::result::Result<_, _>>()
                    .map_err(|_| {
                        Error::Unsupported(format!(
                            "lemma {}: a counterexample past 2^127 cannot be re-checked",
                            lemma.name
                        ))
                    })?;
                if !f.holds(&t) {
                    return Err(Error::Unsupported(format!(
                        "lemma {}: the automaton's word {w:?} does not satisfy the relations (an error of the prover)",
                        lemma.name
                    )));
                }
                (Status::Refuted, Some(w), None)
            }
        },
        Err(Stop::Limit(why)) => (Status::Unknown, None, Some(why)),
        Err(Stop::Unsupported(why)) => return Err(Error::Unsupported(why)),
    };
    Ok(LemmaReport {
        lemma: *lemma,
        status,
        counterexample,
        reason,
        seconds: start.elapsed().as_secs_f64(),
    })
}

/// Decides every lemma of `lemmas` (for the registry entry `theorem`) within `timeout` in all.
pub fn prove_lemmas(theorem: &str, lemmas: &[Lemma], timeout: Duration) -> Result<HeapsReport> {
    let start = Instant::now();
    let budget = Budget::new(start + timeout, 1 << 22);
    let lemmas = lemmas
        .iter()
        .map(|l| decide(l, &budget))
        .collect::<Result<Vec<_>>>()?;
    let verdict = if lemmas.iter().all(|l| l.status == Status::Proved) {
        Status::Proved
    } else if lemmas.iter().any(|l| l.status == Status::Refuted) {
        Status::Refuted
    } else {
        Status::Unknown
    };
    Ok(HeapsReport {
        theorem: theorem.to_string(),
        verdict,
        lemmas,
        seconds: start.elapsed().as_secs_f64(),
    })
}

/// Proves the registry entry `id` for every number of heaps (only `bouton`), within `timeout`.
pub fn prove_every_number_of_heaps(id: &str, timeout: Duration) -> Result<HeapsReport> {
    prove_lemmas(id, lemmas(id)?, timeout)
}
